//! Every diagnostic code of the validator, with its rule anchor and severity.

use std::fmt;

use bao_core::{IllegalReason, ResolveError};
use miette::Severity;

/// The repository the rule links point into (the workspace `repository`).
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $area:literal / $slug:literal, $anchor:literal, $sev:ident; )*) => {
        /// The kind of a validator diagnostic; its code is `bao::<area>::<slug>`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }

        impl Code {
            /// Every code.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The area: `illegal`, `annotation`, `record` or `budget`.
            #[must_use]
            pub const fn area(self) -> &'static str {
                match self { $(Code::$variant => $area,)* }
            }

            /// The slug: the last part of the code and the fixture file name.
            #[must_use]
            pub const fn slug(self) -> &'static str {
                match self { $(Code::$variant => $slug,)* }
            }

            /// The full code.
            #[must_use]
            pub const fn code(self) -> &'static str {
                match self { $(Code::$variant => concat!("bao::", $area, "::", $slug),)* }
            }

            /// The anchor of the rule heading in `spec/rules.md` (`g5`, `options`).
            #[must_use]
            pub const fn anchor(self) -> &'static str {
                match self { $(Code::$variant => $anchor,)* }
            }

            /// Error or warning.
            #[must_use]
            pub const fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$sev,)* }
            }
        }

        /// Every validator diagnostic code (syntax codes are bao-notation's `SYNTAX_CODES`).
        pub const ALL_CODES: &[&str] = &[$(concat!("bao::", $area, "::", $slug)),*];
    };
}

codes! {
    /// A takasa while a capture is available (G5).
    CaptureMandatory = "illegal" / "capture_mandatory", "g5", Error;
    /// The start pit is empty (N1, M1).
    EmptyPit = "illegal" / "empty_pit", "m1", Error;
    /// A mtaji move from a pit holding one seed (M1).
    Singleton = "illegal" / "singleton", "m1", Error;
    /// The move starts from the other player's pit (G1).
    NotOwnPit = "illegal" / "not_own_pit", "g1", Error;
    /// A namua move from the back row (N1).
    WrongRow = "illegal" / "wrong_row", "n1", Error;
    /// A namua takasa placing the seed where N3 forbids (the house, a singleton).
    NamuaPlacement = "illegal" / "namua_placement", "n3", Error;
    /// A move written as a capture that does not capture (G6).
    NotACapture = "illegal" / "not_a_capture", "g6", Error;
    /// A move from the takasia'd pit (T3).
    Takasia = "illegal" / "takasia", "t3", Error;
    /// A capture from a pit of 16 or more seeds (M2).
    SixteenSeeds = "illegal" / "sixteen_seeds", "m2", Error;
    /// A takasa that empties the mover's front row (G10).
    FrontRowGuard = "illegal" / "front_row_guard", "g10", Error;
    /// Kete: a mtaji takata not from the kuu (K3).
    FirstTakataFromKuu = "illegal" / "first_takata_from_kuu", "k3", Error;
    /// A capture that does not take the reserved pit (K4, T5).
    CapturePriority = "illegal" / "capture_priority", "k4", Error;
    /// A kimbi capture entering at the wrong kichwa (G7).
    KichwaNotChoosable = "illegal" / "kichwa_not_choosable", "g7", Error;
    /// A sign left out where both are legal (G7).
    AmbiguousMove = "illegal" / "ambiguous_move", "g7", Error;
    /// `+` on a move that never reaches the functional house (N7).
    SafariWithoutHouse = "illegal" / "safari_without_house", "n7", Error;
    /// A mtaji takasa from the back row while a front pit could start one (M4).
    BackRowTakasa = "illegal" / "back_row_takasa", "m4", Error;
    /// A move that never ends (G11).
    NeverEnding = "illegal" / "never_ending", "g11", Error;
    /// A move in a position where the game is already over (E4).
    GameOver = "illegal" / "game_over", "e4", Error;
    /// Any other illegal move (G4).
    NotLegal = "illegal" / "not_legal", "g4", Error;
    /// Under `--lap-budget`: whether a move ends (G11), or the game goes on after it, was
    /// not decided within the budget; the rest of the game is not checked.
    Undecided = "budget" / "undecided", "g11", Warning;
    /// The lap ends written do not match the move's.
    LapMismatch = "annotation" / "lap_mismatch", "g4", Error;
    /// The captures written do not match the move's.
    CaptureMismatch = "annotation" / "capture_mismatch", "g7", Error;
    /// `**` on a move that creates no takasia (T1).
    FalseTakasiaClaim = "annotation" / "false_takasia_claim", "t1", Error;
    /// `#` on a move that does not win (E1, E2).
    FalseWinClaim = "annotation" / "false_win_claim", "e1", Error;
    /// The declared result disagrees with the game's end.
    ResultMismatch = "record" / "result_mismatch", "e3", Error;
    /// The `Termination` tag disagrees with how the game ended.
    TerminationMismatch = "record" / "termination_mismatch", "e1", Error;
    /// Moves follow the move that ended the game.
    GameContinuesAfterEnd = "record" / "game_continues_after_end", "e4", Error;
    /// The record stops while the game goes on, and a result is claimed without a
    /// `Termination` that explains it.
    GameEndsEarly = "record" / "game_ends_early", "e1", Warning;
    /// A move number that is not the number of the ply it stands before (`N.` before South's
    /// ply of move N, `N...` before North's).
    MoveNumberMismatch = "record" / "move_number_mismatch", "g1", Warning;
    /// `Match`/`Game` tags that cannot describe a best-of-three match.
    MatchInconsistent = "record" / "match_inconsistent", "e3", Error;
    /// A `Position` tag that is no valid position.
    InvalidPosition = "record" / "invalid_position", "p1", Error;
    /// A `RuleSet` or `Rules` tag naming an unknown preset or option.
    UnknownRules = "record" / "unknown_rules", "options", Error;
}

impl Code {
    /// The link to the rule heading.
    #[must_use]
    pub fn url(self) -> String {
        Self::rule_url(self.anchor())
    }

    /// The link to a rule heading of `spec/rules.md` by its anchor (`n1`).
    #[must_use]
    pub fn rule_url(anchor: &str) -> String {
        format!("{REPOSITORY}/blob/main/spec/rules.md#{anchor}")
    }

    /// The code of an engine refusal.
    ///
    /// Every reason bao-core has today is matched by name; a reason added to bao-core later
    /// (the enum is `#[non_exhaustive]`, so a fallback arm is required) is
    /// [`Code::NotLegal`] until it is given a code here.
    #[must_use]
    pub const fn for_reason(reason: &IllegalReason) -> Self {
        match reason {
            IllegalReason::GameOver { .. } => Self::GameOver,
            IllegalReason::NotOwnPit { .. } => Self::NotOwnPit,
            IllegalReason::NamuaBackRow { .. } => Self::WrongRow,
            IllegalReason::NamuaEmptyPit { .. } | IllegalReason::TooFewSeeds { count: 0, .. } => {
                Self::EmptyPit
            }
            IllegalReason::TooFewSeeds { .. } => Self::Singleton,
            IllegalReason::CaptureMandatory { .. } => Self::CaptureMandatory,
            IllegalReason::NeverEnding(_) => Self::NeverEnding,
            IllegalReason::FrontRowGuard { .. } => Self::FrontRowGuard,
            IllegalReason::SafariWithoutHouse { .. } => Self::SafariWithoutHouse,
            IllegalReason::KichwaNotChoosable { .. } => Self::KichwaNotChoosable,
            IllegalReason::TooManySeedsToCapture { .. } => Self::SixteenSeeds,
            IllegalReason::NoCaptureExists { .. } | IllegalReason::NotACapture { .. } => {
                Self::NotACapture
            }
            IllegalReason::CapturePriority { .. } => Self::CapturePriority,
            IllegalReason::TakasiaPit { .. } => Self::Takasia,
            IllegalReason::NamuaHousePlacement { .. } | IllegalReason::NamuaPlacement { .. } => {
                Self::NamuaPlacement
            }
            IllegalReason::FirstTakataFromKuu { .. } => Self::FirstTakataFromKuu,
            IllegalReason::BackRowTakasa { .. } => Self::BackRowTakasa,
            IllegalReason::NotLegal { .. } => Self::NotLegal,
            _ => Self::NotLegal,
        }
    }

    /// The code of a written move that resolves to no single move: its reason's, or
    /// [`Code::AmbiguousMove`].
    #[must_use]
    pub const fn for_resolve_error(err: &ResolveError) -> Self {
        match err {
            ResolveError::Illegal(e) => Self::for_reason(&e.reason),
            ResolveError::Ambiguous(_) => Self::AmbiguousMove,
            _ => Self::NotLegal,
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use bao_core::{
        EndReason, IllegalReason, Move, NeverEnding, Outcome, Pit, ResolveError, Side, Sign,
        Variant,
    };

    use super::Code;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn pit(s: &str) -> Pit {
        s.parse().unwrap()
    }

    /// Every reason bao-core gives, with its rule and the code `bao check` gave it when the
    /// code was recovered from the rule and the message (`N1` "back row" -> `wrong_row`, `M1`
    /// with 0 seeds -> `empty_pit`, ...).
    fn table() -> Vec<(IllegalReason, &'static str, Code)> {
        let captures = vec![mv("A3>"), mv("a4<")];
        vec![
            (
                IllegalReason::GameOver {
                    outcome: Outcome {
                        winner: Some(Side::North),
                        reason: EndReason::BaoHamna,
                    },
                },
                "E4",
                Code::GameOver,
            ),
            (
                IllegalReason::NotOwnPit {
                    pit: pit("a6"),
                    mover: Side::South,
                },
                "G1",
                Code::NotOwnPit,
            ),
            (
                IllegalReason::NamuaBackRow { pit: pit("B1") },
                "N1",
                Code::WrongRow,
            ),
            (
                IllegalReason::NamuaEmptyPit { pit: pit("A1") },
                "N1",
                Code::EmptyPit,
            ),
            (
                IllegalReason::TooFewSeeds {
                    pit: pit("A1"),
                    count: 0,
                },
                "M1",
                Code::EmptyPit,
            ),
            (
                IllegalReason::TooFewSeeds {
                    pit: pit("A1"),
                    count: 1,
                },
                "M1",
                Code::Singleton,
            ),
            (
                IllegalReason::CaptureMandatory {
                    captures: captures.clone(),
                },
                "G5",
                Code::CaptureMandatory,
            ),
            (
                IllegalReason::NeverEnding(NeverEnding {
                    cycle_start_lap: 1,
                    period: 228,
                }),
                "G11",
                Code::NeverEnding,
            ),
            (
                IllegalReason::FrontRowGuard { mover: Side::South },
                "G10",
                Code::FrontRowGuard,
            ),
            (
                IllegalReason::SafariWithoutHouse { plain: mv("A4>") },
                "N7",
                Code::SafariWithoutHouse,
            ),
            (
                IllegalReason::KichwaNotChoosable {
                    pit: pit("A1"),
                    forced: Sign::Left,
                },
                "G7",
                Code::KichwaNotChoosable,
            ),
            (
                IllegalReason::TooManySeedsToCapture {
                    pit: pit("A2"),
                    count: 17,
                    threshold: 16,
                },
                "M2",
                Code::SixteenSeeds,
            ),
            (
                IllegalReason::NoCaptureExists {
                    takasa: Some(mv("A6<*")),
                },
                "G6",
                Code::NotACapture,
            ),
            (
                IllegalReason::NoCaptureExists { takasa: None },
                "G6",
                Code::NotACapture,
            ),
            (
                IllegalReason::NotACapture {
                    captures: captures.clone(),
                },
                "G6",
                Code::NotACapture,
            ),
            (
                IllegalReason::CapturePriority {
                    variant: Variant::Kete,
                    reserved: pit("a3"),
                    captures: captures.clone(),
                },
                "K4",
                Code::CapturePriority,
            ),
            (
                IllegalReason::CapturePriority {
                    variant: Variant::Kiswahili,
                    reserved: pit("a3"),
                    captures: captures.clone(),
                },
                "T5",
                Code::CapturePriority,
            ),
            (
                IllegalReason::TakasiaPit { pit: pit("A3") },
                "T3",
                Code::Takasia,
            ),
            (
                IllegalReason::NamuaHousePlacement { pit: pit("A5") },
                "N3",
                Code::NamuaPlacement,
            ),
            (
                IllegalReason::NamuaPlacement { pit: pit("A2") },
                "N3",
                Code::NamuaPlacement,
            ),
            (
                IllegalReason::FirstTakataFromKuu { house: pit("A5") },
                "K3",
                Code::FirstTakataFromKuu,
            ),
            (
                IllegalReason::BackRowTakasa { pit: pit("B1") },
                "M4",
                Code::BackRowTakasa,
            ),
            (
                IllegalReason::NotLegal { legal: captures },
                "G4",
                Code::NotLegal,
            ),
        ]
    }

    #[test]
    fn every_reason_has_its_rule_and_its_former_code() {
        for (reason, rule, code) in table() {
            assert_eq!(reason.rule(), rule, "{reason:?}");
            assert_eq!(Code::for_reason(&reason), code, "{reason:?}");
            // The code's rule anchor is the reason's rule, except where one code serves two
            // rules (empty_pit: N1 and M1; capture_priority: K4 and T5).
            let shared = matches!(code, Code::EmptyPit | Code::CapturePriority);
            assert!(
                shared || code.anchor() == rule.to_lowercase(),
                "{reason:?}: {code} links to {}",
                code.anchor()
            );
        }
    }

    #[test]
    fn an_ambiguous_spec_is_g7_ambiguous_move() {
        let err = ResolveError::Ambiguous(vec![mv("A6<*"), mv("A6>*")]);
        assert_eq!(err.rule(), "G7");
        assert_eq!(Code::for_resolve_error(&err), Code::AmbiguousMove);
    }
}
