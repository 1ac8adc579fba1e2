//! Why a move may not be played, as data: [`IllegalReason`] (one variant per reason, each
//! naming its rule of `spec/rules.md`), [`PlayError`] (a move and its reason) and
//! [`ResolveError`] (a written move that stands for no legal move, or for several).
//!
//! The engine words nothing: the sentences a player reads are the validator's
//! (`bao_validate::words`). The `Display` impls here are short, for developers.

use std::fmt;

use crate::position::Outcome;
use crate::rules::Variant;
use crate::trace::NeverEnding;
use crate::types::{Move, Pit, Side, Sign};

/// Why a move is not legal in a position, with what a message needs to explain it.
///
/// Each variant answers [`IllegalReason::rule`], the identifier of the rule of
/// `spec/rules.md` it breaks. New reasons may be added: match with a fallback arm.
///
/// ```
/// use bao_core::{IllegalReason, Position, RuleSet, Side};
///
/// let start = Position::start(RuleSet::KISWAHILI);
/// // North's pit, while South is to move.
/// let err = start.play(&"a6<*".parse().unwrap()).unwrap_err();
/// assert_eq!(err.mv.to_string(), "a6<*");
/// assert_eq!(err.reason.rule(), "G1");
/// assert!(matches!(err.reason, IllegalReason::NotOwnPit { mover: Side::South, .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalReason {
    /// The game is over: no move may be played (E4).
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
    /// The pit is the opponent's (G1).
    NotOwnPit {
        /// The pit written.
        pit: Pit,
        /// The side to move.
        mover: Side,
    },
    /// In namua the reserve seed goes into a front pit, never the back row (N1).
    NamuaBackRow {
        /// The back-row pit written.
        pit: Pit,
    },
    /// In namua the reserve seed goes into an occupied pit; this one is empty (N1).
    NamuaEmptyPit {
        /// The empty pit.
        pit: Pit,
    },
    /// A mtaji move starts from a pit of 2 seeds or more; this one holds fewer (M1).
    TooFewSeeds {
        /// The pit.
        pit: Pit,
        /// Its seeds: 0 or 1.
        count: u8,
    },
    /// A takasa while captures exist: captures are compulsory (G5).
    CaptureMandatory {
        /// The legal captures.
        captures: Vec<Move>,
    },
    /// The move never ends (G11).
    NeverEnding(NeverEnding),
    /// The takasa would leave the mover's front row empty (G10).
    FrontRowGuard {
        /// The side to move.
        mover: Side,
    },
    /// Safari (`+`) is written, but the capture never stops in the functional house (N7).
    SafariWithoutHouse {
        /// The same capture without `+`, which is legal.
        plain: Move,
    },
    /// A namua capture from a kimbi enters at the kichwa on its own side (G7).
    KichwaNotChoosable {
        /// The pit.
        pit: Pit,
        /// The only sign the capture can have.
        forced: Sign,
    },
    /// A first lap of `threshold` seeds or more never captures (M2).
    TooManySeedsToCapture {
        /// The pit.
        pit: Pit,
        /// Its seeds.
        count: u8,
        /// The rule set's capture threshold (16).
        threshold: u8,
    },
    /// A capture is written where none exists: every move is a takasa (G6).
    NoCaptureExists {
        /// The same move as a takasa, when that is legal.
        takasa: Option<Move>,
    },
    /// The move does not capture, while captures exist (G6).
    NotACapture {
        /// The legal captures.
        captures: Vec<Move>,
    },
    /// A capture that does not take the pit the mover made takasia, while one can (Kete
    /// K4, otherwise T5).
    CapturePriority {
        /// The variant (decides the rule: K4 or T5).
        variant: Variant,
        /// The opponent's reserved pit.
        reserved: Pit,
        /// The legal captures (those that take it).
        captures: Vec<Move>,
    },
    /// The pit is takasia: no move may start from it now (T3).
    TakasiaPit {
        /// The pit.
        pit: Pit,
    },
    /// A namua takasa into the functional house while another front pit is occupied (N3).
    NamuaHousePlacement {
        /// The house.
        pit: Pit,
    },
    /// A namua takasa into a pit of fewer than 2 seeds while a fuller front pit exists, with
    /// no functional house (N3).
    NamuaPlacement {
        /// The pit.
        pit: Pit,
    },
    /// Kete: while the kuu stands, a mtaji takata must start from it (K3).
    FirstTakataFromKuu {
        /// The kuu.
        house: Pit,
    },
    /// A mtaji takasa from the back row while a front pit could start one (M4).
    BackRowTakasa {
        /// The back-row pit.
        pit: Pit,
    },
    /// Any other move that is not legal here (G4).
    NotLegal {
        /// The legal moves.
        legal: Vec<Move>,
    },
}

impl IllegalReason {
    /// The identifier of the rule of `spec/rules.md` the move breaks (`G5`, `N3`, `T3`, ...).
    #[must_use]
    pub const fn rule(&self) -> &'static str {
        match self {
            IllegalReason::GameOver { .. } => "E4",
            IllegalReason::NotOwnPit { .. } => "G1",
            IllegalReason::NamuaBackRow { .. } | IllegalReason::NamuaEmptyPit { .. } => "N1",
            IllegalReason::TooFewSeeds { .. } => "M1",
            IllegalReason::CaptureMandatory { .. } => "G5",
            IllegalReason::NeverEnding(_) => "G11",
            IllegalReason::FrontRowGuard { .. } => "G10",
            IllegalReason::SafariWithoutHouse { .. } => "N7",
            IllegalReason::KichwaNotChoosable { .. } => "G7",
            IllegalReason::TooManySeedsToCapture { .. } => "M2",
            IllegalReason::NoCaptureExists { .. } | IllegalReason::NotACapture { .. } => "G6",
            IllegalReason::CapturePriority { variant, .. } => match variant {
                Variant::Kete => "K4",
                _ => "T5",
            },
            IllegalReason::TakasiaPit { .. } => "T3",
            IllegalReason::NamuaHousePlacement { .. } | IllegalReason::NamuaPlacement { .. } => {
                "N3"
            }
            IllegalReason::FirstTakataFromKuu { .. } => "K3",
            IllegalReason::BackRowTakasa { .. } => "M4",
            IllegalReason::NotLegal { .. } => "G4",
        }
    }

    /// Where the never-ending move's cycle starts and its period, for
    /// [`IllegalReason::NeverEnding`].
    #[must_use]
    pub const fn never_ending(&self) -> Option<NeverEnding> {
        match self {
            IllegalReason::NeverEnding(ne) => Some(*ne),
            _ => None,
        }
    }
}

impl fmt::Display for IllegalReason {
    /// The rule broken: `rule G5` (the words for players are the validator's).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rule {}", self.rule())
    }
}

/// A move that may not be played, and why: the error of [`Position::play`] and the answer
/// of [`Position::diagnose`].
///
/// [`Position::play`]: crate::Position::play
/// [`Position::diagnose`]: crate::Position::diagnose
///
/// ```
/// use bao_core::{IllegalReason, Position, RuleSet};
///
/// let start = Position::start(RuleSet::KISWAHILI);
/// // A6 is no capture at the start: no capture exists, so it must be written A6<*.
/// let err = start.play(&"A6<".parse().unwrap()).unwrap_err();
/// assert_eq!(err.reason.rule(), "G6");
/// let IllegalReason::NoCaptureExists { takasa } = err.reason else { panic!() };
/// assert_eq!(takasa.unwrap().to_string(), "A6<*");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayError {
    /// The move refused.
    pub mv: Move,
    /// Why.
    pub reason: IllegalReason,
}

impl PlayError {
    /// The identifier of the rule of `spec/rules.md` the move breaks.
    #[must_use]
    pub const fn rule(&self) -> &'static str {
        self.reason.rule()
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is illegal ({})", self.mv, self.reason)
    }
}

impl std::error::Error for PlayError {}

/// Why a written move ([`MoveSpec`](crate::MoveSpec)) stands for no single legal move: the
/// error of [`Position::resolve`](crate::Position::resolve).
///
/// A spec always names a pit of the board, so there is no "no such pit" here: a token whose
/// pit cannot be read (a row letter left out in the wrong stage) is the record reader's
/// error, before a spec exists.
///
/// ```
/// use bao_core::{IllegalReason, MoveSpec, Position, ResolveError, RuleSet};
///
/// let start = Position::start(RuleSet::KISWAHILI);
/// let written: MoveSpec = "A7".parse().unwrap();
/// match start.resolve(&written) {
///     Ok(mv) => println!("plays {mv}"),
///     Err(ResolveError::Ambiguous(moves)) => {
///         // Both directions are legal: the sign must be written.
///         assert_eq!(moves.len(), 2);
///     }
///     Err(ResolveError::Illegal(e)) => println!("{} breaks {}", e.mv, e.reason.rule()),
///     Err(other) => println!("{other}"),
/// }
/// let written: MoveSpec = "a7<*".parse().unwrap();
/// let Err(ResolveError::Illegal(e)) = start.resolve(&written) else { panic!() };
/// assert!(matches!(e.reason, IllegalReason::NotOwnPit { .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResolveError {
    /// No legal move matches: the likeliest reading of the spec, and why it is illegal.
    Illegal(PlayError),
    /// Several legal moves match (the sign is needed): them, in generation order (G7).
    Ambiguous(Vec<Move>),
}

impl ResolveError {
    /// The identifier of the rule of `spec/rules.md` broken (`G7` when ambiguous).
    #[must_use]
    pub const fn rule(&self) -> &'static str {
        match self {
            ResolveError::Illegal(e) => e.reason.rule(),
            ResolveError::Ambiguous(_) => "G7",
        }
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Illegal(e) => e.fmt(f),
            ResolveError::Ambiguous(moves) => {
                write!(f, "ambiguous (G7): {} moves match", moves.len())
            }
        }
    }
}

impl std::error::Error for ResolveError {}

impl From<PlayError> for ResolveError {
    fn from(e: PlayError) -> Self {
        ResolveError::Illegal(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::EndReason;

    fn pit(s: &str) -> Pit {
        s.parse().unwrap()
    }

    /// One reason of every kind.
    fn every_reason() -> Vec<IllegalReason> {
        let captures = vec!["A3>".parse().unwrap()];
        vec![
            IllegalReason::GameOver {
                outcome: Outcome {
                    winner: None,
                    reason: EndReason::NeverEnding,
                },
            },
            IllegalReason::NotOwnPit {
                pit: pit("a1"),
                mover: Side::South,
            },
            IllegalReason::NamuaBackRow { pit: pit("B1") },
            IllegalReason::NamuaEmptyPit { pit: pit("A1") },
            IllegalReason::TooFewSeeds {
                pit: pit("A1"),
                count: 1,
            },
            IllegalReason::CaptureMandatory {
                captures: captures.clone(),
            },
            IllegalReason::NeverEnding(NeverEnding {
                cycle_start_lap: 1,
                period: 2,
            }),
            IllegalReason::FrontRowGuard { mover: Side::North },
            IllegalReason::SafariWithoutHouse {
                plain: "A4>".parse().unwrap(),
            },
            IllegalReason::KichwaNotChoosable {
                pit: pit("A1"),
                forced: Sign::Left,
            },
            IllegalReason::TooManySeedsToCapture {
                pit: pit("A1"),
                count: 16,
                threshold: 16,
            },
            IllegalReason::NoCaptureExists { takasa: None },
            IllegalReason::NotACapture {
                captures: captures.clone(),
            },
            IllegalReason::CapturePriority {
                variant: Variant::Kete,
                reserved: pit("a3"),
                captures: captures.clone(),
            },
            IllegalReason::CapturePriority {
                variant: Variant::Kiswahili,
                reserved: pit("a3"),
                captures,
            },
            IllegalReason::TakasiaPit { pit: pit("A2") },
            IllegalReason::NamuaHousePlacement { pit: pit("A5") },
            IllegalReason::NamuaPlacement { pit: pit("A2") },
            IllegalReason::FirstTakataFromKuu { house: pit("A5") },
            IllegalReason::BackRowTakasa { pit: pit("B2") },
            IllegalReason::NotLegal { legal: Vec::new() },
        ]
    }

    /// The rule each reason names, written out once more: a match without a fallback arm,
    /// so that a new variant cannot be added without its line here.
    fn expected_rule(r: &IllegalReason) -> &'static str {
        match r {
            IllegalReason::GameOver { .. } => "E4",
            IllegalReason::NotOwnPit { .. } => "G1",
            IllegalReason::NamuaBackRow { .. } => "N1",
            IllegalReason::NamuaEmptyPit { .. } => "N1",
            IllegalReason::TooFewSeeds { .. } => "M1",
            IllegalReason::CaptureMandatory { .. } => "G5",
            IllegalReason::NeverEnding(_) => "G11",
            IllegalReason::FrontRowGuard { .. } => "G10",
            IllegalReason::SafariWithoutHouse { .. } => "N7",
            IllegalReason::KichwaNotChoosable { .. } => "G7",
            IllegalReason::TooManySeedsToCapture { .. } => "M2",
            IllegalReason::NoCaptureExists { .. } => "G6",
            IllegalReason::NotACapture { .. } => "G6",
            IllegalReason::CapturePriority {
                variant: Variant::Kete,
                ..
            } => "K4",
            IllegalReason::CapturePriority { .. } => "T5",
            IllegalReason::TakasiaPit { .. } => "T3",
            IllegalReason::NamuaHousePlacement { .. } => "N3",
            IllegalReason::NamuaPlacement { .. } => "N3",
            IllegalReason::FirstTakataFromKuu { .. } => "K3",
            IllegalReason::BackRowTakasa { .. } => "M4",
            IllegalReason::NotLegal { .. } => "G4",
        }
    }

    #[test]
    fn every_reason_names_its_rule() {
        let spec = include_str!("../../../spec/rules.md");
        let reasons = every_reason();
        for r in &reasons {
            assert_eq!(r.rule(), expected_rule(r), "{r:?}");
            assert!(
                spec.contains(&format!("### {}. ", r.rule())),
                "{r:?}: no heading {} in spec/rules.md",
                r.rule()
            );
        }
        // Every variant is in the sample (the discriminants, counted).
        let kinds: std::collections::BTreeSet<String> = reasons
            .iter()
            .map(|r| {
                format!("{r:?}")
                    .split([' ', '('])
                    .next()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(kinds.len(), 20);
    }

    #[test]
    fn only_a_never_ending_reason_has_a_cycle() {
        for r in every_reason() {
            assert_eq!(
                r.never_ending().is_some(),
                matches!(r, IllegalReason::NeverEnding(_)),
                "{r:?}"
            );
        }
    }
}
