//! All the wording of the checker, in the variant's own words (K1: Kete says kuu, nemo,
//! hizi zetu, takata): why a move is illegal ([`reason`], [`play_error`],
//! [`resolve_error`]), why a setup is no position ([`setup_problem`], [`setup_error`],
//! [`stage_mismatch`]), why rules cannot be read ([`unknown_preset`],
//! [`rule_spec_error`], [`rule_option_error`]), and the rule sentences and labels of the
//! diagnostics.
//!
//! bao-core gives its refusals as data ([`IllegalReason`], [`SetupProblem`],
//! [`RuleSpecError`], the position JSON's problems); every sentence a player reads about
//! them is written here.
//!
//! ```
//! use bao_core::{Position, RuleSet};
//! use bao_validate::words;
//!
//! let start = Position::start(RuleSet::KISWAHILI);
//! let err = start.play(&"A6<".parse().unwrap()).unwrap_err();
//! assert_eq!(
//!     words::play_error(&err, start.rules()),
//!     "A6< is illegal (G6): no capture is possible here, so every move is a takasa; write A6<*"
//! );
//! ```

use std::fmt::Display;

use bao_core::{
    EndReason, Event, HandProblem, HouseProblem, IllegalReason, Move, MoveTrace, Names, Outcome,
    PlayError, Position, ResolveError, RuleOptionError, RuleSet, RuleSpecError, SetupError,
    SetupProblem, Side, Stage, TakasiaProblem, PRESET_NAMES, TOTAL_SEEDS,
};
use bao_notation::GameResult;

use crate::codes::Code;

/// The rule behind a code, in one sentence.
pub(crate) fn rule_sentence(code: Code, rules: &RuleSet, mover: Side) -> String {
    let Names {
        namua,
        mtaji,
        nyumba,
        takasia,
        takasa,
    } = rules.names();
    match code {
        Code::CaptureMandatory => {
            format!("Captures are compulsory: a {takasa} is legal only when no capture is.")
        }
        Code::EmptyPit => format!(
            "A move starts from an own pit holding seeds: in {namua} an occupied front pit, in {mtaji} a pit of 2 seeds or more."
        ),
        Code::Singleton => format!(
            "A {mtaji} move starts by lifting a pit of 2 seeds or more; a single seed never starts a move."
        ),
        Code::NotOwnPit => format!(
            "The players alternate and each sows only his own pits; {} is to move here.",
            side_name(mover)
        ),
        Code::WrongRow => format!(
            "In {namua} the seed from the hand goes into an occupied pit of the mover's front row."
        ),
        Code::NamuaPlacement => format!(
            "In a {namua} {takasa} the seed goes into a front pit of 2 or more while one exists; with a functional {nyumba}, into any occupied front pit except the {nyumba}."
        ),
        Code::NotACapture => format!(
            "A move captures only when its first lap ends in an own occupied front pit facing seeds; any other move is a {takasa}, written with `*`."
        ),
        Code::Takasia => format!(
            "A pit made {takasia} may not start a move on its owner's next turn."
        ),
        Code::SixteenSeeds => format!(
            "A first lap of {} seeds or more never captures; such a pit can only start a {takasa}.",
            rules.capture_threshold
        ),
        Code::FrontRowGuard => format!(
            "A {takasa} may never leave the mover's front row empty, not even for a moment."
        ),
        Code::FirstTakataFromKuu => format!(
            "While the {nyumba} stands, a {mtaji} {takasa} must start from the {nyumba}."
        ),
        Code::CapturePriority => format!(
            "The player who made a pit {takasia} must capture it on his next move when a capture can."
        ),
        Code::KichwaNotChoosable => format!(
            "Seeds captured from a kimbi enter at the kichwa on that side; only the first capture of a {namua} move from a central pit lets the player choose."
        ),
        Code::AmbiguousMove => {
            "The sign may be left out only when a single direction is legal.".to_owned()
        }
        Code::SafariWithoutHouse => format!(
            "`+` (safari) is written only on a {namua} capture whose lap stops in the functional {nyumba} and goes on through it."
        ),
        Code::BackRowTakasa => format!(
            "A {mtaji} {takasa} may start from the back row only when no front pit holds 2 seeds or more."
        ),
        Code::NeverEnding => "A move that never ends may not be played.".to_owned(),
        Code::GameOver | Code::GameContinuesAfterEnd => {
            "Once the game is over, no move may be played.".to_owned()
        }
        Code::NotLegal => "Only the legal moves of the position may be played.".to_owned(),
        Code::LapMismatch => {
            "When an annotation lists lap ends, they must be exactly the move's lap ends.".to_owned()
        }
        Code::CaptureMismatch => {
            "When an annotation lists captures, they must be exactly the move's captures.".to_owned()
        }
        Code::FalseTakasiaClaim => format!(
            "`**` marks a {mtaji} {takasa} after which the opponent has a {takasia} pit."
        ),
        Code::FalseWinClaim => "`#` marks a move that wins the game.".to_owned(),
        _ => String::new(),
    }
}

/// A short label for the primary span.
pub(crate) fn primary_label(code: Code, rules: &RuleSet) -> String {
    let n = rules.names();
    match code {
        Code::CaptureMandatory => format!("a {} while a capture is possible", n.takasa),
        Code::EmptyPit => "this pit is empty".to_owned(),
        Code::Singleton => "this pit holds a single seed".to_owned(),
        Code::NotOwnPit => "not the mover's pit".to_owned(),
        Code::WrongRow => format!("a back-row pit in {}", n.namua),
        Code::NamuaPlacement => format!("the seed may not go here in this {}", n.takasa),
        Code::NotACapture => "this move does not capture".to_owned(),
        Code::Takasia => format!("this pit is {}", n.takasia),
        Code::SixteenSeeds => "too many seeds to capture".to_owned(),
        Code::FrontRowGuard => "this empties the mover's front row".to_owned(),
        Code::FirstTakataFromKuu => format!("not from the {}", n.nyumba),
        Code::CapturePriority => format!("does not capture the {} pit", n.takasia),
        Code::KichwaNotChoosable => "the captured seeds enter at the other kichwa".to_owned(),
        Code::AmbiguousMove => "both directions are legal".to_owned(),
        Code::SafariWithoutHouse => format!("never stops in the functional {}", n.nyumba),
        Code::BackRowTakasa => "a back-row pit while a front pit can move".to_owned(),
        Code::NeverEnding => "this move never ends".to_owned(),
        Code::GameOver => "the game is already over".to_owned(),
        _ => "illegal here".to_owned(),
    }
}

/// What a move does, in a few words: `captures a5 and a4`, `captures nothing`.
pub(crate) fn effect(mv: &Move, trace: &MoveTrace) -> String {
    let _ = mv;
    let mut s = if trace.captures.is_empty() {
        "captures nothing".to_owned()
    } else {
        let pits: Vec<String> = trace.captures.iter().map(|c| c.pit.to_string()).collect();
        format!("captures {}", join_and(&pits))
    };
    if let Some(ne) = trace.never_ending {
        s.push_str(&format!(
            " and never ends (it repeats every {} lap{} from the end of lap {})",
            ne.period,
            if ne.period == 1 { "" } else { "s" },
            ne.cycle_start_lap
        ));
    }
    if let Some(o) = trace.outcome {
        if o.winner == Some(trace.mover) {
            s.push_str(" and wins");
        }
    }
    s
}

/// What a move does, in a few words, in the variant's vocabulary: takasa or the captures
/// (the first three with their seeds), safari, a stop in the house, the takasia it sets, its
/// laps and how it ends the game (`bao legal`, and completion in `bao lsp`).
#[must_use]
pub fn move_description(pos: &Position, trace: &MoveTrace) -> String {
    let names = pos.rules().names();
    let mut parts: Vec<String> = Vec::new();
    if trace.mv.is_takasa() {
        parts.push(names.takasa.to_owned());
    }
    if !trace.captures.is_empty() {
        let shown: Vec<String> = trace
            .captures
            .iter()
            .take(3)
            .map(|c| format!("{} ({})", c.pit, c.seeds))
            .collect();
        let more = match trace.captures.len() {
            n if n > 3 => format!(" and {} more", n - 3),
            _ => String::new(),
        };
        parts.push(format!("captures {}{more}", shown.join(", ")));
    }
    for e in &trace.events {
        match e {
            Event::Safari => parts.push("safari".to_owned()),
            Event::HouseStop => parts.push(format!("stops in the {}", names.nyumba)),
            Event::TakasiaSet { pit } => parts.push(format!("{} {pit}", names.takasia)),
            _ => {}
        }
    }
    let n = trace.laps_total;
    parts.push(format!("{n} lap{}", if n == 1 { "" } else { "s" }));
    if let Some(o) = trace.outcome {
        parts.push(match o.winner {
            Some(w) if w == trace.mover => format!("wins ({})", end_reason(o.reason)),
            Some(_) => format!("loses ({})", end_reason(o.reason)),
            None => format!("draws ({})", end_reason(o.reason)),
        });
    }
    parts.join(", ")
}

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A list of moves separated by spaces.
pub(crate) fn move_list(moves: &[Move]) -> String {
    // Sorted as `bao legal` lists them, so that every list of moves reads the same.
    let mut names: Vec<String> = moves.iter().map(ToString::to_string).collect();
    names.sort();
    names.join(" ")
}

/// Why a move is illegal, in one sentence in the variant's words (`captures are compulsory;
/// the captures here are A3> a4<`).
#[must_use]
pub fn reason(reason: &IllegalReason, rules: &RuleSet) -> String {
    let names = rules.names();
    match reason {
        IllegalReason::GameOver { outcome } => {
            format!("the game is over ({})", outcome_words(outcome))
        }
        IllegalReason::NotOwnPit { pit, mover } => {
            let mover = side_name(*mover);
            format!("{pit} is not {mover}'s pit: a player sows only his own pits")
        }
        IllegalReason::NamuaBackRow { .. } => format!(
            "in {} the reserve seed goes into an occupied front-row pit, never the back row",
            names.namua
        ),
        IllegalReason::NamuaEmptyPit { pit } => format!(
            "{pit} is empty: in {} the reserve seed goes into an occupied front-row pit",
            names.namua
        ),
        IllegalReason::TooFewSeeds { pit, count } => format!(
            "{pit} holds {count} seed{}: a {} move starts from a pit with 2 seeds or more",
            if *count == 1 { "" } else { "s" },
            names.mtaji
        ),
        IllegalReason::CaptureMandatory { captures } => format!(
            "captures are compulsory; the captures here are {}",
            move_list(captures)
        ),
        IllegalReason::NeverEnding(ne) => format!(
            "the move never ends (its sowing repeats every {} lap{} from the end of lap {})",
            ne.period,
            if ne.period == 1 { "" } else { "s" },
            ne.cycle_start_lap
        ),
        IllegalReason::FrontRowGuard { mover } => format!(
            "this {} would leave {}'s front row empty; a player's front row may never be emptied",
            names.takasa,
            side_name(*mover)
        ),
        IllegalReason::SafariWithoutHouse { plain } => format!(
            "safari (+) is claimed, but {plain} never stops in the functional {}",
            names.nyumba
        ),
        IllegalReason::KichwaNotChoosable { pit, forced } => format!(
            "a capture from a kimbi enters at the kichwa on its own side; write {pit}{}",
            forced.as_char()
        ),
        IllegalReason::TooManySeedsToCapture {
            pit,
            count,
            threshold,
        } => format!("{pit} holds {count} seeds: a first lap of {threshold} or more never captures"),
        IllegalReason::NoCaptureExists { takasa } => {
            let hint = takasa.map_or_else(String::new, |t| format!("; write {t}"));
            format!(
                "no capture is possible here, so every move is a {}{hint}",
                names.takasa
            )
        }
        IllegalReason::NotACapture { captures } => format!(
            "this move does not capture (its first lap does not end in a pit facing seeds); the captures here are {}",
            move_list(captures)
        ),
        IllegalReason::CapturePriority {
            reserved, captures, ..
        } => format!(
            "{reserved} is reserved by {}: this move must capture it; the captures that do are {}",
            names.takasia,
            move_list(captures)
        ),
        IllegalReason::TakasiaPit { pit } => {
            format!("{pit} is {}: no move may start from it now", names.takasia)
        }
        IllegalReason::NamuaHousePlacement { .. } => format!(
            "the functional {} takes the reserve seed of a {} only when it is the only occupied front pit",
            names.nyumba, names.takasa
        ),
        IllegalReason::NamuaPlacement { .. } => format!(
            "without a functional {} the reserve seed goes into a pit holding 2 seeds or more while one exists",
            names.nyumba
        ),
        IllegalReason::FirstTakataFromKuu { .. } => format!(
            "while the {} stands, a {} {} must start from it",
            names.nyumba, names.mtaji, names.takasa
        ),
        IllegalReason::BackRowTakasa { .. } => format!(
            "a {} may start from the back row only when no front pit holds 2 seeds or more",
            names.takasa
        ),
        IllegalReason::NotLegal { legal } => not_legal(legal),
        // A reason newer than this module: its rule, and the legal moves.
        other => format!("the move breaks rule {}", other.rule()),
    }
}

/// `not a legal move here; the legal moves are A6<* A6>*`.
#[must_use]
pub fn not_legal(legal: &[Move]) -> String {
    format!(
        "not a legal move here; the legal moves are {}",
        move_list(legal)
    )
}

/// Why a written move resolves to no single move, in one sentence (the reason of the move
/// it was read as, or `ambiguous: A6<*, A6>* are all legal; write the sign`).
#[must_use]
pub fn resolve_reason(err: &ResolveError, rules: &RuleSet) -> String {
    match err {
        ResolveError::Illegal(e) => reason(&e.reason, rules),
        ResolveError::Ambiguous(moves) => format!(
            "ambiguous: {} are all legal; write the sign",
            moves
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => format!("the move breaks rule {}", other.rule()),
    }
}

/// A refused move with its rule and why: `A6< is illegal (G6): no capture is possible
/// here, ...`.
#[must_use]
pub fn play_error(err: &PlayError, rules: &RuleSet) -> String {
    illegal_sentence(&err.mv, err.rule(), &reason(&err.reason, rules))
}

/// A written move that resolves to no single move, with its rule and why, the move shown
/// as `written` (the spec as read, such as `A6` or `a8<*`).
#[must_use]
pub fn resolve_error(written: &dyn Display, err: &ResolveError, rules: &RuleSet) -> String {
    illegal_sentence(written, err.rule(), &resolve_reason(err, rules))
}

fn illegal_sentence(mv: &dyn Display, rule: &str, why: &str) -> String {
    format!("{mv} is illegal ({rule}): {why}")
}

/// Why a setup is no position, in the variant's words (`South's nyumba: functional, but it
/// holds fewer than 6 seeds`).
#[must_use]
pub fn setup_problem(problem: &SetupProblem, names: &Names) -> String {
    match problem {
        SetupProblem::SeedCount { found } => {
            format!("board and hands hold {found} seeds; a game has exactly {TOTAL_SEEDS}")
        }
        SetupProblem::House { side, why } => {
            let why = match why {
                HouseProblem::Missing => format!(
                    "these rules have a {}; say functional, dormant or destroyed",
                    names.nyumba
                ),
                HouseProblem::NotInRules => {
                    "these rules have no house powers; the state must be none".to_owned()
                }
                HouseProblem::FunctionalTooFew => {
                    "functional, but it holds fewer than 6 seeds".to_owned()
                }
                HouseProblem::DormantTooMany => {
                    "dormant, but it holds 6 seeds or more (that is functional)".to_owned()
                }
                HouseProblem::DormantKuu => {
                    "a kuu never holds fewer than 6 seeds (K2): it is functional or destroyed"
                        .to_owned()
                }
                other => format!("{other:?}"),
            };
            format!("{}'s {}: {why}", side_name(*side), names.nyumba)
        }
        SetupProblem::Hand { side, why } => {
            let why = match why {
                HandProblem::NoReserve => "these rules have no reserve; the hand must be 0",
                HandProblem::MoreThanReserve => {
                    "holds more than the 22 seeds a reserve starts with"
                }
                _ => "not allowed by these rules",
            };
            format!("{}'s hand: {why}", side_name(*side))
        }
        SetupProblem::Takasia { pit, why } => {
            let why = match why {
                TakasiaProblem::WrongSide => "recorded for the wrong side".to_owned(),
                TakasiaProblem::NotInRules => format!("these rules have no {}", names.takasia),
                TakasiaProblem::BackRow => "only a front pit can be reserved".to_owned(),
                TakasiaProblem::WithReserves => {
                    format!("{} arises only when both reserves are empty", names.takasia)
                }
                TakasiaProblem::NotToMove => {
                    "without capture priority only the side to move can have a reserved pit"
                        .to_owned()
                }
                TakasiaProblem::FunctionalHouse => {
                    format!("a functional {} cannot be reserved (T2)", names.nyumba)
                }
                other => format!("{other:?}"),
            };
            format!("{} pit {pit}: {why}", names.takasia)
        }
    }
}

/// A rejected setup with every problem: `impossible position: board and hands hold 63
/// seeds; a game has exactly 64`.
#[must_use]
pub fn setup_error(err: &SetupError) -> String {
    let names = err.setup.rules.names();
    impossible_position(err.problems.iter().map(|p| setup_problem(p, &names)))
}

/// `impossible position: ` and the problems, separated by `; `.
#[must_use]
pub fn impossible_position(problems: impl IntoIterator<Item = String>) -> String {
    let problems: Vec<String> = problems.into_iter().collect();
    format!("impossible position: {}", problems.join("; "))
}

/// A side's name in prose: `South`, `North` (the machine name, `Side`'s `Display`, is
/// lower case).
#[must_use]
pub const fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

/// Why a game ended, in words for people (the JSON name is `EndReason::name`).
#[must_use]
pub const fn end_reason(reason: EndReason) -> &'static str {
    match reason {
        EndReason::BaoHamna => "a front row emptied",
        EndReason::NoLegalMove => "no legal move left",
        EndReason::OwnFrontRowEmpty => "own front row emptied",
        EndReason::NeverEnding => "a never-ending move",
    }
}

/// A name that is no rule preset, with the presets there are: ``unknown rule preset
/// `zanzibar` (known: kiswahili, ...)``.
#[must_use]
pub fn unknown_preset(name: &str) -> String {
    format!(
        "unknown rule preset `{name}` (known: {})",
        PRESET_NAMES.join(", ")
    )
}

/// A rule option that cannot be set: ``rule option `takasia` cannot be `sometimes`:
/// expected off, standard or abstractplay``.
#[must_use]
pub fn rule_option_error(e: &RuleOptionError) -> String {
    format!(
        "rule option `{}` cannot be `{}`: expected {}",
        e.option, e.value, e.expected
    )
}

/// Why a rule-set spec (`--rules "kiswahili takasia=off"`) names no rule set: ``unknown
/// preset `zanzibar`; the presets are kiswahili, ...``, or the override refused.
#[must_use]
pub fn rule_spec_error(e: &RuleSpecError) -> String {
    match e {
        RuleSpecError::UnknownPreset(p) => format!(
            "unknown preset `{}`; the presets are {}",
            p.0,
            PRESET_NAMES.join(", ")
        ),
        RuleSpecError::Option(e) => rule_option_error(e),
        // A refusal newer than this module: the engine's own short form.
        other => other.to_string(),
    }
}

/// A position JSON whose `stage` contradicts the hand of the side to move
/// (`PositionJsonProblem::StageMismatch`): `stage is mtaji but South, to move, has 22 seeds
/// in hand (namua while the hand is not empty, else mtaji)`.
#[must_use]
pub fn stage_mismatch(stage: Stage, side: Side, hand: u8, names: &Names) -> String {
    format!(
        "stage is {stage} but {}, to move, has {hand} seeds in hand ({} while the hand is not empty, else {})",
        side_name(side),
        names.namua,
        names.mtaji
    )
}

/// `South won: bao_hamna`.
pub(crate) fn outcome_words(o: &Outcome) -> String {
    let reason = match o.reason {
        EndReason::BaoHamna => "the loser's front row is empty",
        EndReason::NoLegalMove => "the loser has no legal move",
        EndReason::OwnFrontRowEmpty => "the loser emptied his own front row",
        EndReason::NeverEnding => "a never-ending move",
    };
    match o.winner {
        Some(w) => format!("{} won: {reason}", side_name(w)),
        None => format!("drawn: {reason}"),
    }
}

/// The result token an outcome calls for.
#[must_use]
pub fn result_of(o: Option<&Outcome>) -> Option<GameResult> {
    let o = o?;
    Some(match o.winner {
        Some(Side::South) => GameResult::SouthWins,
        Some(Side::North) => GameResult::NorthWins,
        None => GameResult::Draw,
    })
}
