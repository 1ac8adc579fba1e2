//! `Setup` (plain, unchecked data) and `Position` (checked: every invariant holds).

use std::fmt;

use crate::rules::{RuleSet, Takasia, Variant};
use crate::types::{BySide, Pit, Row, Side, Stage, HOUSE_RING, RING};

/// The total number of seeds in a game.
pub const TOTAL_SEEDS: u32 = 64;

/// The seeds an owned house must hold to be functional (to have its powers: N3a, the
/// safari, the tax, T2's exemption); holding fewer, it is dormant, an ordinary pit.
pub(crate) const HOUSE_THRESHOLD: u8 = 6;

/// The state of a player's house (nyumba; Kete: kuu), as written in position JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HouseState {
    /// Owned and holding 6 seeds or more: it has its powers.
    Functional,
    /// Owned but holding fewer than 6: an ordinary pit until refilled.
    Dormant,
    /// Lost for ever.
    Destroyed,
    /// The rule set has no houses (Kujifunza).
    None,
}

impl HouseState {
    /// The JSON name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Functional => "functional",
            Self::Dormant => "dormant",
            Self::Destroyed => "destroyed",
            Self::None => "none",
        }
    }

    /// Reads the JSON name.
    #[must_use]
    pub fn from_name(s: &str) -> Option<Self> {
        Some(match s {
            "functional" => Self::Functional,
            "dormant" => Self::Dormant,
            "destroyed" => Self::Destroyed,
            "none" => Self::None,
            _ => return None,
        })
    }
}

/// Who won and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// The loser; `None` for a draw.
    #[must_use]
    pub fn loser(&self) -> Option<Side> {
        self.winner.map(Side::opponent)
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The loser's front row is empty after the winner's capture (`E1`, `G9`).
    BaoHamna,
    /// The loser has no legal move (`E2`).
    NoLegalMove,
    /// The loser emptied his own front row (`E1`).
    OwnFrontRowEmpty,
    /// A never-ending move was played under the `draw` or `mover_loses` policy, or hit
    /// AbstractPlay's seed cap (`G11`).
    NeverEnding,
}

impl EndReason {
    /// The JSON name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::BaoHamna => "bao_hamna",
            Self::NoLegalMove => "no_legal_move",
            Self::OwnFrontRowEmpty => "own_front_row_empty",
            Self::NeverEnding => "never_ending",
        }
    }
}

/// A position as plain data, not yet checked.
///
/// `pits[row]` lists pits 1..8 from the owner's left, rows in the order `A`, `B`, `a`, `b`.
/// Build one by hand (for a problem or a test), then check it with
/// [`Position::from_setup`], which names every problem it finds:
///
/// ```
/// use bao_core::{Position, RuleSet, SetupProblem};
///
/// let mut setup = Position::start(RuleSet::KISWAHILI).to_setup();
/// // One seed too many on A1: the board and hands no longer hold 64 seeds.
/// setup.pits[0][0] += 1;
/// let err = Position::from_setup(setup.clone()).unwrap_err();
/// assert!(matches!(err.problems[..], [SetupProblem::SeedCount { found: 65 }]));
///
/// // Take the seed away again and the position is playable.
/// setup.pits[0][0] -= 1;
/// let pos = Position::from_setup(setup).expect("the start position");
/// assert_eq!(pos, Position::start(RuleSet::KISWAHILI));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The rules the position is played under.
    pub rules: RuleSet,
    /// The side to move.
    pub to_move: Side,
    /// Seeds in each player's reserve.
    pub hands: BySide<u8>,
    /// Seed counts: `A`, `B`, `a`, `b`, each pits 1..8.
    pub pits: [[u8; 8]; 4],
    /// The house of each side.
    pub houses: BySide<HouseState>,
    /// The takasia'd pit of each side: a front pit its owner may not start from (and whose
    /// laps stop there) on his next move. Under Kete priority the blocker's opponent's pit
    /// stays recorded through the blocker's next move, which must capture it.
    pub blocked: BySide<Option<Pit>>,
    /// Whether the move that led here was a takasa (AbstractPlay's takasia exclusion needs it).
    pub last_move_takasa: bool,
}

fn row_slot(side: Side, row: Row) -> usize {
    match (side, row) {
        (Side::South, Row::Front) => 0,
        (Side::South, Row::Back) => 1,
        (Side::North, Row::Front) => 2,
        (Side::North, Row::Back) => 3,
    }
}

impl Setup {
    /// The start position of a rule set.
    #[must_use]
    pub fn start(rules: RuleSet) -> Self {
        let mut pits = [[0u8; 8]; 4];
        let hand = rules.initial_hand();
        let house = if rules.houses {
            HouseState::Functional
        } else {
            HouseState::None
        };
        match rules.variant {
            Variant::Kujifunza => pits = [[2; 8]; 4],
            Variant::Kiswahili | Variant::Kete => {
                for slot in [0, 2] {
                    pits[slot][4] = 6;
                    pits[slot][5] = 2;
                    pits[slot][6] = 2;
                }
            }
        }
        Self {
            rules,
            to_move: Side::South,
            hands: BySide::new(hand, hand),
            pits,
            houses: BySide::new(house, house),
            blocked: BySide::new(None, None),
            last_move_takasa: false,
        }
    }

    /// The count in one pit.
    #[must_use]
    pub fn get(&self, pit: Pit) -> u8 {
        self.pits[row_slot(pit.side(), pit.row())][pit.number() as usize - 1]
    }

    /// Sets the count in one pit.
    pub fn set(&mut self, pit: Pit, seeds: u8) {
        self.pits[row_slot(pit.side(), pit.row())][pit.number() as usize - 1] = seeds;
    }
}

/// One reason a setup is not a position.
///
/// The sentences a player reads are the validator's (`bao_validate::words`); `Display` here
/// is short, for developers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupProblem {
    /// Board and hands do not hold 64 seeds.
    SeedCount {
        /// The seeds found.
        found: u32,
    },
    /// A house state contradicts the rule set or the seeds in the house.
    House {
        /// Whose house.
        side: Side,
        /// What is wrong.
        why: HouseProblem,
    },
    /// A hand is not allowed by the rule set.
    Hand {
        /// Whose hand.
        side: Side,
        /// What is wrong.
        why: HandProblem,
    },
    /// A takasia pit is not allowed.
    Takasia {
        /// The pit.
        pit: Pit,
        /// What is wrong.
        why: TakasiaProblem,
    },
}

/// What is wrong with a house state ([`SetupProblem::House`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HouseProblem {
    /// The rules have houses, but the state says none.
    Missing,
    /// The rules have no house powers, but a state other than none is given.
    NotInRules,
    /// Functional, but the house holds fewer than the functional threshold (6).
    FunctionalTooFew,
    /// Dormant, but the house holds 6 seeds or more.
    DormantTooMany,
    /// Dormant under the kuu floor (K2): a kuu is functional or destroyed.
    DormantKuu,
}

/// What is wrong with a hand ([`SetupProblem::Hand`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HandProblem {
    /// The rules have no reserve, but the hand is not empty.
    NoReserve,
    /// More than the reserve starts with (22), in a game that has not ended.
    MoreThanReserve,
}

/// What is wrong with a takasia pit ([`SetupProblem::Takasia`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TakasiaProblem {
    /// The pit is recorded for the side that does not own it.
    WrongSide,
    /// The rules have no takasia.
    NotInRules,
    /// A back-row pit: only a front pit can be reserved.
    BackRow,
    /// A reserve is not empty: takasia arises only when both are.
    WithReserves,
    /// Without capture priority only the side to move can have a reserved pit.
    NotToMove,
    /// The functional house of the side to move cannot be reserved (T2).
    FunctionalHouse,
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SeedCount { found } => write!(f, "seed count {found}"),
            Self::House { side, why } => write!(f, "{side}'s house: {why:?}"),
            Self::Hand { side, why } => write!(f, "{side}'s hand: {why:?}"),
            Self::Takasia { pit, why } => write!(f, "takasia pit {pit}: {why:?}"),
        }
    }
}

/// A setup rejected, with every reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError {
    /// The rejected setup, handed back.
    pub setup: Box<Setup>,
    /// Every problem found.
    pub problems: Vec<SetupProblem>,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_impossible(f, &self.problems)
    }
}

/// Writes `impossible position: ` and every problem, `; ` between them: the message of
/// [`SetupError`] and of `json::PositionJsonError` (with the `serde` feature).
pub(crate) fn write_impossible<P: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    problems: &[P],
) -> fmt::Result {
    f.write_str("impossible position: ")?;
    for (i, p) in problems.iter().enumerate() {
        if i > 0 {
            f.write_str("; ")?;
        }
        write!(f, "{p}")?;
    }
    Ok(())
}

impl std::error::Error for SetupError {}

/// The internal house state: whether the house still exists. Functional vs dormant follows
/// from its seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum House {
    Owned,
    Destroyed,
    Absent,
}

/// A checked position: 64 seeds, consistent houses and takasia, a rule set.
///
/// The board is stored per side as a ring of 16 pits (front 1..8, then back 8..1), so that
/// clockwise is +1 on the ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: [[u8; RING]; 2],
    pub(crate) hands: [u8; 2],
    pub(crate) houses: [House; 2],
    /// Ring index (a front pit, 0..8) of each side's takasia'd pit.
    pub(crate) blocked: [Option<u8>; 2],
    pub(crate) to_move: Side,
    pub(crate) last_move_takasa: bool,
    /// An outcome the board alone cannot show (a never-ending move under `draw` or
    /// `mover_loses`, AbstractPlay's cap, no legal move only because of a takasia that the
    /// final position no longer holds); or bao hamna reached mid-move.
    pub(crate) ended: Option<Outcome>,
    pub(crate) rules: RuleSet,
}

impl Position {
    /// The start position of a rule set.
    #[must_use]
    pub fn start(rules: RuleSet) -> Self {
        // Built directly (a playout starts here every game); the same position as
        // `from_setup(Setup::start(rules))`, which a test checks.
        let (front, house) = match rules.variant {
            Variant::Kujifunza => ([2; 8], House::Absent),
            Variant::Kiswahili | Variant::Kete => ([0, 0, 0, 0, 6, 2, 2, 0], House::Owned),
        };
        let mut ring = [0u8; RING];
        ring[..8].copy_from_slice(&front);
        if rules.variant == Variant::Kujifunza {
            ring[8..].copy_from_slice(&[2; 8]);
        }
        Self {
            board: [ring; 2],
            hands: [rules.initial_hand(); 2],
            houses: [if rules.houses { house } else { House::Absent }; 2],
            blocked: [None; 2],
            to_move: Side::South,
            last_move_takasa: false,
            ended: None,
            rules,
        }
    }

    /// Checks a setup.
    ///
    /// # Errors
    /// Every reason the setup is impossible.
    pub fn from_setup(setup: Setup) -> Result<Self, SetupError> {
        let mut problems = Vec::new();
        let rules = setup.rules;
        let on_board: u32 = setup.pits.iter().flatten().map(|&n| u32::from(n)).sum();
        let total = on_board + u32::from(setup.hands.south) + u32::from(setup.hands.north);
        if total != TOTAL_SEEDS {
            problems.push(SetupProblem::SeedCount { found: total });
        }
        let mut houses = [House::Absent; 2];
        for side in Side::ALL {
            let state = *setup.houses.get(side);
            let count = setup.get(Pit::nyumba(side));
            let house = match state {
                HouseState::None => House::Absent,
                HouseState::Destroyed => House::Destroyed,
                HouseState::Functional | HouseState::Dormant => House::Owned,
            };
            houses[side.index()] = house;
            if rules.houses && state == HouseState::None {
                problems.push(SetupProblem::House {
                    side,
                    why: HouseProblem::Missing,
                });
            }
            if !rules.houses && state != HouseState::None {
                problems.push(SetupProblem::House {
                    side,
                    why: HouseProblem::NotInRules,
                });
            }
            if state == HouseState::Functional && count < HOUSE_THRESHOLD {
                problems.push(SetupProblem::House {
                    side,
                    why: HouseProblem::FunctionalTooFew,
                });
            }
            if state == HouseState::Dormant && count >= HOUSE_THRESHOLD {
                problems.push(SetupProblem::House {
                    side,
                    why: HouseProblem::DormantTooMany,
                });
            }
            if state == HouseState::Dormant && rules.kuu_floor {
                problems.push(SetupProblem::House {
                    side,
                    why: HouseProblem::DormantKuu,
                });
            }
            let hand = *setup.hands.get(side);
            // After bao hamna in mid-move the winner's hand also holds the captured seeds
            // that were not sown (A.4.3), so a finished game may show more.
            let finished =
                setup.pits[0].iter().all(|&n| n == 0) || setup.pits[2].iter().all(|&n| n == 0);
            if u32::from(hand) > u32::from(rules.initial_hand()) && !finished {
                problems.push(SetupProblem::Hand {
                    side,
                    why: if rules.initial_hand() == 0 {
                        HandProblem::NoReserve
                    } else {
                        HandProblem::MoreThanReserve
                    },
                });
            }
        }
        let mut blocked = [None; 2];
        for side in Side::ALL {
            let Some(pit) = *setup.blocked.get(side) else {
                continue;
            };
            let mut bad = |why| problems.push(SetupProblem::Takasia { pit, why });
            if pit.side() != side {
                bad(TakasiaProblem::WrongSide);
                continue;
            }
            if rules.takasia == Takasia::Off {
                bad(TakasiaProblem::NotInRules);
            }
            if pit.row() != Row::Front {
                bad(TakasiaProblem::BackRow);
            }
            if setup.hands.south != 0 || setup.hands.north != 0 {
                bad(TakasiaProblem::WithReserves);
            }
            if rules.takasia == Takasia::Standard {
                let victim_to_move = side == setup.to_move;
                if !victim_to_move && !rules.capture_priority {
                    bad(TakasiaProblem::NotToMove);
                }
                if victim_to_move
                    && pit == Pit::nyumba(side)
                    && houses[side.index()] == House::Owned
                    && setup.get(pit) >= HOUSE_THRESHOLD
                {
                    bad(TakasiaProblem::FunctionalHouse);
                }
            }
            blocked[side.index()] = Some(pit.ring() as u8);
        }
        if !problems.is_empty() {
            return Err(SetupError {
                setup: Box::new(setup),
                problems,
            });
        }
        let mut board = [[0u8; RING]; 2];
        for pit in Pit::all() {
            board[pit.side().index()][pit.ring()] = setup.get(pit);
        }
        Ok(Self {
            board,
            hands: [setup.hands.south, setup.hands.north],
            houses,
            blocked,
            to_move: setup.to_move,
            last_move_takasa: setup.last_move_takasa,
            ended: None,
            rules,
        })
    }

    /// The position as plain data.
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        let mut pits = [[0u8; 8]; 4];
        for pit in Pit::all() {
            pits[row_slot(pit.side(), pit.row())][pit.number() as usize - 1] = self.get(pit);
        }
        Setup {
            rules: self.rules,
            to_move: self.to_move,
            hands: BySide::new(self.hands[0], self.hands[1]),
            pits,
            houses: BySide::new(self.house_state(Side::South), self.house_state(Side::North)),
            blocked: BySide::new(self.blocked_pit(Side::South), self.blocked_pit(Side::North)),
            last_move_takasa: self.last_move_takasa,
        }
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The side to move.
    #[must_use]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The seeds in one pit.
    #[inline]
    #[must_use]
    pub fn get(&self, pit: Pit) -> u8 {
        self.board[pit.side().index()][pit.ring()]
    }

    /// The seeds in a player's reserve.
    #[must_use]
    pub fn hand(&self, side: Side) -> u8 {
        self.hands[side.index()]
    }

    /// The stage of `side`: namua while it has reserve seeds (A.4.1).
    #[must_use]
    pub fn stage_of(&self, side: Side) -> Stage {
        if self.hands[side.index()] > 0 {
            Stage::Namua
        } else {
            Stage::Mtaji
        }
    }

    /// The stage of the side to move.
    #[must_use]
    pub fn stage(&self) -> Stage {
        self.stage_of(self.to_move)
    }

    /// The state of a side's house.
    #[must_use]
    pub fn house_state(&self, side: Side) -> HouseState {
        match self.houses[side.index()] {
            House::Absent => HouseState::None,
            House::Destroyed => HouseState::Destroyed,
            House::Owned => {
                if self.board[side.index()][HOUSE_RING] >= HOUSE_THRESHOLD {
                    HouseState::Functional
                } else {
                    HouseState::Dormant
                }
            }
        }
    }

    /// The takasia'd pit recorded for `side`, if any.
    #[must_use]
    pub fn blocked_pit(&self, side: Side) -> Option<Pit> {
        self.blocked[side.index()].map(|r| Pit::from_ring(side, usize::from(r)))
    }

    /// The takasia pit as position JSON shows it: the side to move's blocked pit, else (Kete
    /// priority, AbstractPlay) the other side's.
    #[must_use]
    pub fn takasia(&self) -> Option<Pit> {
        self.blocked_pit(self.to_move)
            .or_else(|| self.blocked_pit(self.to_move.opponent()))
    }

    /// Whether the move that led here was a takasa.
    #[must_use]
    pub fn last_move_takasa(&self) -> bool {
        self.last_move_takasa
    }

    /// Seeds on the front row of `side`.
    #[must_use]
    pub fn front_row_seeds(&self, side: Side) -> u32 {
        self.board[side.index()][..8]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// All 64 seeds: board plus hands (an invariant; for tests).
    #[must_use]
    pub fn total_seeds(&self) -> u32 {
        let board: u32 = self.board.iter().flatten().map(|&n| u32::from(n)).sum();
        board + u32::from(self.hands[0]) + u32::from(self.hands[1])
    }
}

impl fmt::Display for Position {
    /// A text diagram as seen from South (b, a, A, B rows; North's rows read from South's
    /// side, so a8 is on the left of row a).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |f: &mut fmt::Formatter<'_>, side: Side, r: Row, rev: bool| -> fmt::Result {
            let letter = Pit::new(side, r, 1).map_or(' ', Pit::row_letter);
            write!(f, "{letter} ")?;
            for i in 1..=8u8 {
                let n = if rev { 9 - i } else { i };
                let pit = Pit::new(side, r, n).expect("1..=8");
                write!(f, "{:>3}", self.get(pit))?;
            }
            writeln!(f)
        };
        let names = self.rules.names();
        writeln!(
            f,
            "north hand {:>2}  {} {}",
            self.hands[1],
            names.nyumba,
            self.house_state(Side::North).name()
        )?;
        row(f, Side::North, Row::Back, true)?;
        row(f, Side::North, Row::Front, true)?;
        row(f, Side::South, Row::Front, false)?;
        row(f, Side::South, Row::Back, false)?;
        writeln!(
            f,
            "south hand {:>2}  {} {}",
            self.hands[0],
            names.nyumba,
            self.house_state(Side::South).name()
        )?;
        let stage = match self.stage() {
            Stage::Namua => names.namua,
            Stage::Mtaji => names.mtaji,
        };
        write!(f, "{} to move ({stage})", self.to_move)?;
        if let Some(p) = self.takasia() {
            write!(f, ", {} {p}", self.rules.names().takasia)?;
        }
        Ok(())
    }
}
/// A mtaji position of `rules` for the tests of long relays: `to_move` to move on `pits`
/// (rows A, B, a, b), both hands empty, both houses destroyed.
#[cfg(test)]
pub(crate) fn bare_position(rules: RuleSet, to_move: Side, pits: [[u8; 8]; 4]) -> Position {
    let mut s = Setup::start(rules);
    s.to_move = to_move;
    s.hands = BySide::new(0, 0);
    s.pits = pits;
    s.houses = BySide::new(HouseState::Destroyed, HouseState::Destroyed);
    Position::from_setup(s).expect("valid")
}
