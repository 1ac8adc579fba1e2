//! Every diagnostic code of the validator, with its rule anchor and severity.

use std::fmt;

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

            /// The area: `illegal`, `annotation` or `record`.
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
        format!("{REPOSITORY}/blob/main/spec/rules.md#{}", self.anchor())
    }

    /// The code that an engine refusal maps to (`rule` is `IllegalMove::rule`).
    #[must_use]
    pub fn for_rule(rule: &str, message: &str, count: u8) -> Code {
        match rule {
            "E4" => Code::GameOver,
            "G1" => Code::NotOwnPit,
            "N1" if message.contains("back row") => Code::WrongRow,
            "N1" => Code::EmptyPit,
            "M1" if count == 0 => Code::EmptyPit,
            "M1" => Code::Singleton,
            "G5" => Code::CaptureMandatory,
            "G11" => Code::NeverEnding,
            "G10" => Code::FrontRowGuard,
            "N7" => Code::SafariWithoutHouse,
            "G7" if message.starts_with("ambiguous") => Code::AmbiguousMove,
            "G7" => Code::KichwaNotChoosable,
            "M2" => Code::SixteenSeeds,
            "G6" => Code::NotACapture,
            "K4" | "T5" => Code::CapturePriority,
            "T3" => Code::Takasia,
            "N3" => Code::NamuaPlacement,
            "K3" => Code::FirstTakataFromKuu,
            "M4" => Code::BackRowTakasa,
            _ => Code::NotLegal,
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
