//! A position as a book prints it: a grid of 32 counts (`bao import diagram`).
//!
//! The counts come in the printed order, North's back row, North's front row, South's front
//! row, South's back row, each row left to right as South sees the board: `b8 .. b1`,
//! `a8 .. a1`, `A1 .. A8`, `B1 .. B8`. They are separated by blanks or line ends; the seeds'
//! own start diagram of Bao la Kete is printed so:
//!
//! ```text
//! 0 0 0 0 0 0 0 0
//! 0 2 2 6 0 0 0 0
//! 0 0 0 0 6 2 2 0
//! 0 0 0 0 0 0 0 0
//! ```
//!
//! [`PrintedDiagram::read`] reads the counts (syntax only: a count is a number from 0 to
//! 64); [`PrintedDiagram::position`] makes a [`PositionString`] of them under a rule set,
//! with what the counts alone cannot say (side to move, hands, stage, houses) given or
//! taken from the rule set's start. [`bao_core::Position::from_setup`] checks the result.

use std::fmt;

use bao_core::{BySide, HouseState, Pit, Row, RuleSet, Setup, Side, Stage};

use crate::{PositionString, Span};

/// The counts of a printed diagram.
pub const DIAGRAM_COUNTS: usize = 32;

/// The seeds of a game: a count above it is no count.
const TOTAL_SEEDS: u32 = 64;

/// The rows in printed order: whose, which, and whether South reads them from pit 8 down.
const PRINTED_ROWS: [(Side, Row); 4] = [
    (Side::North, Row::Back),
    (Side::North, Row::Front),
    (Side::South, Row::Front),
    (Side::South, Row::Back),
];

/// The pit at printed place `k` (0..32).
#[must_use]
pub fn printed_pit(k: usize) -> Pit {
    let (side, row) = PRINTED_ROWS[k / 8];
    let col = (k % 8) as u8;
    let number = match side {
        // North's pits are numbered from North's left: South sees them from pit 8 down.
        Side::North => 8 - col,
        Side::South => col + 1,
    };
    Pit::new(side, row, number).expect("a pit of the board")
}

/// The words for printed row `r` (0..4): "North's back row, b8 .. b1".
#[must_use]
pub fn printed_row_words(r: usize) -> String {
    let first = printed_pit(r * 8);
    let last = printed_pit(r * 8 + 7);
    let (side, row) = PRINTED_ROWS[r];
    let row = match row {
        Row::Front => "front",
        Row::Back => "back",
    };
    let side = match side {
        Side::South => "South's",
        Side::North => "North's",
    };
    format!("{side} {row} row, {first} .. {last}")
}

/// A grid of 32 counts in the printed order, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintedDiagram {
    /// Seeds in rows `A`, `B`, `a`, `b`, pits 1..8 from the owner's left (as
    /// [`PositionString::pits`]).
    pub pits: [[u8; 8]; 4],
}

/// Why a text is no printed diagram.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DiagramError {
    /// A word that is not a count of seeds.
    NotACount {
        /// The word.
        span: Span,
    },
    /// A count above the 64 seeds of a game.
    TooLarge {
        /// The count.
        span: Span,
        /// Its value (saturated at `u32::MAX`).
        value: u32,
    },
    /// Fewer than 32 counts.
    Missing {
        /// How many there are.
        found: usize,
        /// The first pit without a count, in printed order.
        first_missing: Pit,
        /// When the grid is written as four lines: the first line that does not hold 8
        /// counts (0..4), how many it holds, and where it is.
        short_row: Option<(usize, usize, Span)>,
        /// The end of the text (or of the short row).
        span: Span,
    },
    /// 32 counts written as four lines, but a line holds other than 8: a count written on
    /// the wrong line would land in the wrong row.
    RowLength {
        /// The first such line (0..4).
        row: usize,
        /// How many counts it holds.
        found: usize,
        /// The line.
        span: Span,
    },
    /// More than 32 counts: the first one too many.
    TooMany {
        /// How many there are.
        found: usize,
        /// The 33rd count.
        span: Span,
        /// When the grid is written as four lines: the first line that holds more than 8.
        long_row: Option<(usize, usize)>,
    },
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotACount { .. } => f.write_str("a diagram holds counts of seeds only"),
            Self::TooLarge { value, .. } => {
                write!(
                    f,
                    "a pit cannot hold {value} seeds; a game has {TOTAL_SEEDS}"
                )
            }
            Self::Missing {
                found,
                first_missing,
                short_row,
                ..
            } => match short_row {
                Some((r, n, _)) => write!(
                    f,
                    "the diagram has {found} counts, not {DIAGRAM_COUNTS}: line {} ({}) has \
                     {n}, not 8",
                    r + 1,
                    printed_row_words(*r)
                ),
                None if *found + 1 == DIAGRAM_COUNTS => write!(
                    f,
                    "the diagram has {found} counts, not {DIAGRAM_COUNTS}: count \
                     {DIAGRAM_COUNTS} ({first_missing}) is missing"
                ),
                None => write!(
                    f,
                    "the diagram has {found} counts, not {DIAGRAM_COUNTS}: counts {} to \
                     {DIAGRAM_COUNTS} (from {first_missing}) are missing",
                    found + 1
                ),
            },
            Self::RowLength { row, found, .. } => write!(
                f,
                "line {} of the diagram ({}) has {found} counts, not 8",
                row + 1,
                printed_row_words(*row)
            ),
            Self::TooMany {
                found, long_row, ..
            } => match long_row {
                Some((r, n)) => write!(
                    f,
                    "the diagram has {found} counts, not {DIAGRAM_COUNTS}: line {} ({}) has \
                     {n}, not 8",
                    r + 1,
                    printed_row_words(*r)
                ),
                None => write!(f, "the diagram has {found} counts, not {DIAGRAM_COUNTS}"),
            },
        }
    }
}

impl std::error::Error for DiagramError {}

impl DiagramError {
    /// The diagnostic code's last part (`bao::diagram::<slug>`).
    #[must_use]
    pub fn slug(&self) -> &'static str {
        match self {
            Self::NotACount { .. } => "not_a_count",
            Self::TooLarge { .. } => "too_large",
            Self::Missing { .. } => "missing_count",
            Self::RowLength { .. } => "row_length",
            Self::TooMany { .. } => "too_many_counts",
        }
    }

    /// Where the fault is in the text.
    #[must_use]
    pub fn span(&self) -> Span {
        match self {
            Self::NotACount { span }
            | Self::TooLarge { span, .. }
            | Self::Missing { span, .. }
            | Self::RowLength { span, .. }
            | Self::TooMany { span, .. } => *span,
        }
    }
}

impl PrintedDiagram {
    /// Reads the 32 counts of `text`, in the printed order.
    ///
    /// # Errors
    /// A word that is not a count, a count above 64, or another number of counts than 32.
    ///
    /// ```
    /// use bao_notation::diagram::PrintedDiagram;
    ///
    /// let kete = "0 0 0 0 0 0 0 0 0 2 2 6 0 0 0 0 0 0 0 0 6 2 2 0 0 0 0 0 0 0 0 0";
    /// let d = PrintedDiagram::read(kete).unwrap();
    /// assert_eq!(d.pits[0], [0, 0, 0, 0, 6, 2, 2, 0]); // A1 .. A8
    /// assert_eq!(d.pits[2], [0, 0, 0, 0, 6, 2, 2, 0]); // a1 .. a8
    /// ```
    pub fn read(text: &str) -> Result<Self, DiagramError> {
        let mut counts: Vec<(Span, u8)> = Vec::with_capacity(DIAGRAM_COUNTS);
        let mut extra: Option<Span> = None;
        let mut found = 0_usize;
        for (span, w) in words_exact(text) {
            if !w.bytes().all(|b| b.is_ascii_digit()) {
                return Err(DiagramError::NotACount { span });
            }
            let value = w.parse::<u32>().unwrap_or(u32::MAX);
            if value > TOTAL_SEEDS {
                return Err(DiagramError::TooLarge { span, value });
            }
            found += 1;
            if counts.len() < DIAGRAM_COUNTS {
                counts.push((span, value as u8));
            } else if extra.is_none() {
                extra = Some(span);
            }
        }
        // Four non-empty lines: a row a line, and a wrong row is named.
        let lines: Vec<(Span, usize)> = lines_with_counts(text);
        let by_line = lines.len() == 4;
        if found < DIAGRAM_COUNTS {
            let short_row = if by_line {
                lines
                    .iter()
                    .enumerate()
                    .find(|(_, (_, n))| *n != 8)
                    .map(|(r, (span, n))| (r, *n, *span))
            } else {
                None
            };
            let end = Span::new(text.trim_end().len(), text.trim_end().len());
            return Err(DiagramError::Missing {
                found,
                first_missing: printed_pit(found),
                span: short_row.map_or(end, |(_, _, s)| s),
                short_row,
            });
        }
        if let Some(span) = extra {
            let long_row = if by_line {
                lines
                    .iter()
                    .enumerate()
                    .find(|(_, (_, n))| *n > 8)
                    .map(|(r, (_, n))| (r, *n))
            } else {
                None
            };
            return Err(DiagramError::TooMany {
                found,
                span,
                long_row,
            });
        }
        if by_line {
            if let Some((row, (span, found))) = lines.iter().enumerate().find(|(_, (_, n))| *n != 8)
            {
                return Err(DiagramError::RowLength {
                    row,
                    found: *found,
                    span: *span,
                });
            }
        }
        let mut pits = [[0_u8; 8]; 4];
        for (k, (_, n)) in counts.iter().enumerate() {
            let pit = printed_pit(k);
            let slot = match (pit.side(), pit.row()) {
                (Side::South, Row::Front) => 0,
                (Side::South, Row::Back) => 1,
                (Side::North, Row::Front) => 2,
                (Side::North, Row::Back) => 3,
            };
            pits[slot][usize::from(pit.number()) - 1] = *n;
        }
        Ok(Self { pits })
    }

    /// The seeds on the board.
    #[must_use]
    pub fn board_seeds(&self) -> u32 {
        self.pits.iter().flatten().map(|&n| u32::from(n)).sum()
    }

    /// Whether the board is the start board of `rules`.
    #[must_use]
    pub fn is_start_board(&self, rules: RuleSet) -> bool {
        Setup::start(rules).pits == self.pits
    }

    /// The position string of the diagram under `rules` with what the counts cannot say.
    ///
    /// Hands: `given.hands`; else the start's when the board is `rules`' start board; else
    /// none when the board holds all 64 seeds (or the stage given is mtaji). Houses:
    /// `given.houses`; else, in rules with houses, functional where the nyumba holds 6 or
    /// more, destroyed where it holds fewer and a house cannot be dormant (the kuu floor);
    /// a house of fewer than 6 seeds that could be dormant or destroyed must be given.
    ///
    /// # Errors
    /// What cannot be decided or does not add up ([`DiagramSetupError`]).
    pub fn position(
        &self,
        rules: RuleSet,
        given: &DiagramGiven,
    ) -> Result<PositionString, DiagramSetupError> {
        let board = self.board_seeds();
        let start = Setup::start(rules);
        let hands = match (given.hands, given.stage) {
            (Some(h), _) => h,
            (None, _) if self.is_start_board(rules) && given.stage != Some(Stage::Mtaji) => {
                start.hands
            }
            (None, _) if board == TOTAL_SEEDS => BySide::new(0, 0),
            (None, Some(Stage::Mtaji)) => BySide::new(0, 0),
            (None, _) => return Err(DiagramSetupError::HandsUnknown { board }),
        };
        let total = board + u32::from(hands.south) + u32::from(hands.north);
        if total != TOTAL_SEEDS {
            return Err(DiagramSetupError::SeedTotal { board, hands });
        }
        if let Some(stage) = given.stage {
            let hand = *hands.get(given.to_move);
            let actual = if hand > 0 { Stage::Namua } else { Stage::Mtaji };
            if actual != stage {
                return Err(DiagramSetupError::StageContradicts {
                    stage,
                    hand,
                    to_move: given.to_move,
                });
            }
        }
        let houses = match given.houses {
            Some(h) => h,
            None if !rules.houses => BySide::new(HouseState::None, HouseState::None),
            None => {
                let mut houses = BySide::new(HouseState::Functional, HouseState::Functional);
                for side in Side::ALL {
                    let slot = match side {
                        Side::South => 0,
                        Side::North => 2,
                    };
                    let seeds = self.pits[slot][4];
                    if seeds < 6 {
                        if !rules.kuu_floor {
                            return Err(DiagramSetupError::HouseUnknown { side, seeds });
                        }
                        *houses.get_mut(side) = HouseState::Destroyed;
                    }
                }
                houses
            }
        };
        Ok(PositionString {
            pits: self.pits,
            hands,
            to_move: given.to_move,
            houses,
            blocked: BySide::new(None, None),
            last_move_takasa: false,
        })
    }
}

/// The words of `text` separated by any whitespace, with exact byte spans.
fn words_exact(text: &str) -> Vec<(Span, &str)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((Span::new(s, i), &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((Span::new(s, text.len()), &text[s..]));
    }
    out
}

/// The non-empty lines of `text`: each line's span (without its line end) and its words.
fn lines_with_counts(text: &str) -> Vec<(Span, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split('\n') {
        let trimmed = line.trim_end_matches('\r');
        let n = words_exact(trimmed).len();
        if n > 0 {
            out.push((Span::new(at, at + trimmed.len()), n));
        }
        at += line.len() + 1;
    }
    out
}

/// What a printed diagram cannot say, given: the side to move, and when known the hands,
/// the stage of the side to move and the houses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiagramGiven {
    /// The side to move.
    pub to_move: Side,
    /// The seeds in hand.
    pub hands: Option<BySide<u8>>,
    /// The stage of the side to move.
    pub stage: Option<Stage>,
    /// The houses.
    pub houses: Option<BySide<HouseState>>,
}

impl Default for DiagramGiven {
    fn default() -> Self {
        Self {
            to_move: Side::South,
            hands: None,
            stage: None,
            houses: None,
        }
    }
}

/// Why a printed diagram is no position under the options given.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DiagramSetupError {
    /// The board holds fewer than 64 seeds and no hands were given.
    HandsUnknown {
        /// The seeds on the board.
        board: u32,
    },
    /// Board and hands do not hold 64 seeds.
    SeedTotal {
        /// The seeds on the board.
        board: u32,
        /// The hands.
        hands: BySide<u8>,
    },
    /// The stage given is not the stage the hand of the side to move makes.
    StageContradicts {
        /// The stage given.
        stage: Stage,
        /// The hand of the side to move.
        hand: u8,
        /// The side to move.
        to_move: Side,
    },
    /// A house of fewer than 6 seeds: dormant or destroyed, which the counts cannot say.
    HouseUnknown {
        /// Whose.
        side: Side,
        /// Its seeds.
        seeds: u8,
    },
}

impl fmt::Display for DiagramSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::HandsUnknown { board } => write!(
                f,
                "the board holds {board} seeds, so {} are in hand; the diagram cannot say whose",
                TOTAL_SEEDS.saturating_sub(*board)
            ),
            Self::SeedTotal { board, hands } => write!(
                f,
                "the board holds {board} seeds and the hands {}/{}: {} in all, not {TOTAL_SEEDS}",
                hands.south,
                hands.north,
                board + u32::from(hands.south) + u32::from(hands.north)
            ),
            Self::StageContradicts {
                stage,
                hand,
                to_move,
            } => write!(
                f,
                "{} is to move with {hand} seeds in hand: that is not the {} stage",
                match to_move {
                    Side::South => "South",
                    Side::North => "North",
                },
                match stage {
                    Stage::Namua => "namua",
                    Stage::Mtaji => "mtaji",
                }
            ),
            Self::HouseUnknown { side, seeds } => write!(
                f,
                "{}'s house holds {seeds} seeds: dormant or destroyed, the diagram cannot say",
                match side {
                    Side::South => "South",
                    Side::North => "North",
                }
            ),
        }
    }
}

impl std::error::Error for DiagramSetupError {}

impl DiagramSetupError {
    /// The diagnostic code's last part (`bao::diagram::<slug>`).
    #[must_use]
    pub fn slug(&self) -> &'static str {
        match self {
            Self::HandsUnknown { .. } => "hands_unknown",
            Self::SeedTotal { .. } => "seed_total",
            Self::StageContradicts { .. } => "stage",
            Self::HouseUnknown { .. } => "house_unknown",
        }
    }
}

/// `rules`' start as a book prints it: four lines of eight counts.
#[must_use]
pub fn printed_start(rules: RuleSet) -> String {
    printed(&Setup::start(rules).pits)
}

/// A board (rows `A`, `B`, `a`, `b` as [`PositionString::pits`]) as a book prints it: four
/// lines of eight counts.
#[must_use]
pub fn printed(pits: &[[u8; 8]; 4]) -> String {
    let mut out = String::new();
    for r in 0..4 {
        let line: Vec<String> = (0..8)
            .map(|c| {
                let pit = printed_pit(r * 8 + c);
                let slot = match (pit.side(), pit.row()) {
                    (Side::South, Row::Front) => 0,
                    (Side::South, Row::Back) => 1,
                    (Side::North, Row::Front) => 2,
                    (Side::North, Row::Back) => 3,
                };
                pits[slot][usize::from(pit.number()) - 1].to_string()
            })
            .collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_order_and_back() {
        let kete = RuleSet::KETE;
        let text = printed_start(kete);
        assert_eq!(
            text,
            "0 0 0 0 0 0 0 0\n0 2 2 6 0 0 0 0\n0 0 0 0 6 2 2 0\n0 0 0 0 0 0 0 0\n"
        );
        let d = PrintedDiagram::read(&text).unwrap();
        assert!(d.is_start_board(kete));
        assert_eq!(printed(&d.pits), text);
        assert_eq!(printed_pit(0).to_string(), "b8");
        assert_eq!(printed_pit(15).to_string(), "a1");
        assert_eq!(printed_pit(16).to_string(), "A1");
        assert_eq!(printed_pit(31).to_string(), "B8");
    }
}
