//! All the wording of the checker, in the variant's own words (K1: Kete says kuu, nemo,
//! hizi zetu, takata): why a move is illegal ([`reason`], [`play_error`],
//! [`resolve_error`]), why a setup is no position ([`setup_problem`], [`setup_error`],
//! [`stage_mismatch`]), why rules cannot be read ([`unknown_preset`],
//! [`rule_spec_error`], [`rule_option_error`]), and the rule sentences and labels of the
//! diagnostics.
//!
//! bao-core gives its refusals as data ([`IllegalReason`], [`SetupProblem`],
//! [`RuleSpecError`], the position JSON's problems); every sentence a player reads about
//! them is written here, in the language asked for: every sentence is a message of the
//! catalogue (`bao-i18n`, `locales/*/diagnostics.ftl`), the variant's words its arguments.
//! Each public function has an `_in` form that takes the [`Lang`]; the plain form is
//! English.
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
pub use bao_i18n::Lang;
use bao_i18n::{message, t, Args};
use bao_notation::GameResult;

use crate::codes::Code;

/// Message `id` with the variant's words (`$namua`, `$mtaji`, `$nyumba`, `$takasa`,
/// `$takasia`) added to `args`.
pub(crate) fn said(lang: Lang, id: &str, names: &Names, args: Args<'_>) -> String {
    let args = args
        .with("namua", names.namua)
        .with("mtaji", names.mtaji)
        .with("nyumba", names.nyumba)
        .with("takasa", names.takasa)
        .with("takasia", names.takasia);
    message(lang, id, &args)
}

/// The rule behind a code, in one sentence.
pub(crate) fn rule_sentence(lang: Lang, code: Code, rules: &RuleSet, mover: Side) -> String {
    let id = match code {
        Code::CaptureMandatory => "rule-capture-mandatory",
        Code::EmptyPit => "rule-empty-pit",
        Code::Singleton => "rule-singleton",
        Code::NotOwnPit => "rule-not-own-pit",
        Code::WrongRow => "rule-wrong-row",
        Code::NamuaPlacement => "rule-namua-placement",
        Code::NotACapture => "rule-not-a-capture",
        Code::Takasia => "rule-takasia",
        Code::SixteenSeeds => "rule-sixteen-seeds",
        Code::FrontRowGuard => "rule-front-row-guard",
        Code::FirstTakataFromKuu => "rule-first-takata-from-kuu",
        Code::CapturePriority => "rule-capture-priority",
        Code::KichwaNotChoosable => "rule-kichwa-not-choosable",
        Code::AmbiguousMove => "rule-ambiguous-move",
        Code::SafariWithoutHouse => "rule-safari-without-house",
        Code::BackRowTakasa => "rule-back-row-takasa",
        Code::NeverEnding => "rule-never-ending",
        Code::GameOver | Code::GameContinuesAfterEnd => "rule-game-over",
        Code::NotLegal => "rule-not-legal",
        Code::LapMismatch => "rule-lap-mismatch",
        Code::CaptureMismatch => "rule-capture-mismatch",
        Code::FalseTakasiaClaim => "rule-false-takasia-claim",
        Code::FalseWinClaim => "rule-false-win-claim",
        _ => return String::new(),
    };
    let args = Args::new()
        .with("side", side_in(lang, mover))
        .with("threshold", rules.capture_threshold);
    said(lang, id, &rules.names(), args)
}

/// A short label for the primary span.
pub(crate) fn primary_label(lang: Lang, code: Code, rules: &RuleSet) -> String {
    let id = match code {
        Code::CaptureMandatory => "label-capture-mandatory",
        Code::EmptyPit => "label-empty-pit",
        Code::Singleton => "label-singleton",
        Code::NotOwnPit => "label-not-own-pit",
        Code::WrongRow => "label-wrong-row",
        Code::NamuaPlacement => "label-namua-placement",
        Code::NotACapture => "label-not-a-capture",
        Code::Takasia => "label-takasia",
        Code::SixteenSeeds => "label-sixteen-seeds",
        Code::FrontRowGuard => "label-front-row-guard",
        Code::FirstTakataFromKuu => "label-first-takata-from-kuu",
        Code::CapturePriority => "label-capture-priority",
        Code::KichwaNotChoosable => "label-kichwa-not-choosable",
        Code::AmbiguousMove => "label-ambiguous-move",
        Code::SafariWithoutHouse => "label-safari-without-house",
        Code::BackRowTakasa => "label-back-row-takasa",
        Code::NeverEnding => "label-never-ending",
        Code::GameOver => "label-game-over",
        _ => "label-illegal",
    };
    said(lang, id, &rules.names(), Args::new())
}

/// What a move does, as the diagnostics word it in any language: the pits it captures,
/// whether it never ends, whether it wins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effect {
    /// The pits captured, in order.
    pub captures: Vec<bao_core::Pit>,
    /// The cycle of a move that never ends.
    pub never_ending: Option<bao_core::NeverEnding>,
    /// Whether the move wins the game for its mover.
    pub wins: bool,
}

impl Effect {
    /// The effect of a played move.
    #[must_use]
    pub fn of(trace: &MoveTrace) -> Self {
        Self {
            captures: trace.captures.iter().map(|c| c.pit).collect(),
            never_ending: trace.never_ending,
            wins: trace.outcome.is_some_and(|o| o.winner == Some(trace.mover)),
        }
    }

    /// In a few words in `lang`: `captures a5 and a4`, `captures nothing`.
    #[must_use]
    pub fn words(&self, lang: Lang) -> String {
        let mut s = if self.captures.is_empty() {
            t!(lang, "effect-captures-nothing")
        } else {
            let pits: Vec<String> = self.captures.iter().map(ToString::to_string).collect();
            t!(lang, "effect-captures", pits = join_and(lang, &pits))
        };
        if let Some(ne) = self.never_ending {
            s.push(' ');
            s.push_str(&t!(
                lang,
                "effect-never-ends",
                period = ne.period,
                start = ne.cycle_start_lap
            ));
        }
        if self.wins {
            s.push(' ');
            s.push_str(&t!(lang, "effect-wins"));
        }
        s
    }
}

/// What a move does, in a few words: `captures a5 and a4`, `captures nothing`.
pub(crate) fn effect(lang: Lang, mv: &Move, trace: &MoveTrace) -> String {
    let _ = mv;
    Effect::of(trace).words(lang)
}

/// What a move does, in a few words, in the variant's vocabulary: takasa or the captures
/// (the first three with their seeds), safari, a stop in the house, the takasia it sets, its
/// laps and how it ends the game (`bao legal`, and completion in `bao lsp`).
#[must_use]
pub fn move_description(pos: &Position, trace: &MoveTrace) -> String {
    move_description_in(Lang::En, pos, trace)
}

/// [`move_description`] in `lang`.
#[must_use]
pub fn move_description_in(lang: Lang, pos: &Position, trace: &MoveTrace) -> String {
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
        let shown = shown.join(", ");
        parts.push(match trace.captures.len() {
            n if n > 3 => t!(lang, "describe-captures-more", shown = shown, more = n - 3),
            _ => t!(lang, "describe-captures", shown = shown),
        });
    }
    for e in &trace.events {
        match e {
            Event::Safari => parts.push(t!(lang, "describe-safari")),
            Event::HouseStop => parts.push(said(lang, "describe-house-stop", &names, Args::new())),
            Event::TakasiaSet { pit } => parts.push(said(
                lang,
                "describe-takasia",
                &names,
                Args::new().with("pit", pit.to_string()),
            )),
            _ => {}
        }
    }
    parts.push(t!(lang, "describe-laps", laps = trace.laps_total));
    if let Some(o) = trace.outcome {
        let reason = end_reason_in(lang, o.reason);
        parts.push(match o.winner {
            Some(w) if w == trace.mover => t!(lang, "describe-wins", reason = reason),
            Some(_) => t!(lang, "describe-loses", reason = reason),
            None => t!(lang, "describe-draws", reason = reason),
        });
    }
    parts.join(", ")
}

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn join_and(lang: Lang, items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => t!(
            lang,
            "list-and",
            init = init.join(", "),
            last = last.as_str()
        ),
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
    reason_in(Lang::En, reason, rules)
}

/// [`reason`] in `lang`.
#[must_use]
pub fn reason_in(lang: Lang, reason: &IllegalReason, rules: &RuleSet) -> String {
    let names = rules.names();
    let say = |id: &str, args: Args<'_>| said(lang, id, &names, args);
    let periods = |ne: &bao_core::NeverEnding| {
        Args::new()
            .with("period", ne.period)
            .with("start", ne.cycle_start_lap)
    };
    match reason {
        IllegalReason::GameOver { outcome } => say(
            "reason-game-over",
            Args::new().with("outcome", outcome_words(lang, outcome)),
        ),
        IllegalReason::NotOwnPit { pit, mover } => say(
            "reason-not-own-pit",
            Args::new()
                .with("pit", pit.to_string())
                .with("side", side_in(lang, *mover)),
        ),
        IllegalReason::NamuaBackRow { .. } => say("reason-namua-back-row", Args::new()),
        IllegalReason::NamuaEmptyPit { pit } => say(
            "reason-namua-empty-pit",
            Args::new().with("pit", pit.to_string()),
        ),
        IllegalReason::TooFewSeeds { pit, count } => say(
            "reason-too-few-seeds",
            Args::new()
                .with("pit", pit.to_string())
                .with("count", *count),
        ),
        IllegalReason::CaptureMandatory { captures } => say(
            "reason-capture-mandatory",
            Args::new().with("captures", move_list(captures)),
        ),
        IllegalReason::NeverEnding(ne) => say("reason-never-ending", periods(ne)),
        IllegalReason::FrontRowGuard { mover } => say(
            "reason-front-row-guard",
            Args::new().with("side", side_in(lang, *mover)),
        ),
        IllegalReason::SafariWithoutHouse { plain } => say(
            "reason-safari-without-house",
            Args::new().with("plain", plain.to_string()),
        ),
        IllegalReason::KichwaNotChoosable { pit, forced } => say(
            "reason-kichwa-not-choosable",
            Args::new().with("mv", format!("{pit}{}", forced.as_char())),
        ),
        IllegalReason::TooManySeedsToCapture {
            pit,
            count,
            threshold,
        } => say(
            "reason-too-many-seeds",
            Args::new()
                .with("pit", pit.to_string())
                .with("count", *count)
                .with("threshold", *threshold),
        ),
        IllegalReason::NoCaptureExists { takasa } => match takasa {
            Some(t) => say(
                "reason-no-capture-exists-write",
                Args::new().with("mv", t.to_string()),
            ),
            None => say("reason-no-capture-exists", Args::new()),
        },
        IllegalReason::NotACapture { captures } => say(
            "reason-not-a-capture",
            Args::new().with("captures", move_list(captures)),
        ),
        IllegalReason::CapturePriority {
            reserved, captures, ..
        } => say(
            "reason-capture-priority",
            Args::new()
                .with("pit", reserved.to_string())
                .with("captures", move_list(captures)),
        ),
        IllegalReason::TakasiaPit { pit } => say(
            "reason-takasia-pit",
            Args::new().with("pit", pit.to_string()),
        ),
        IllegalReason::NamuaHousePlacement { .. } => {
            say("reason-namua-house-placement", Args::new())
        }
        IllegalReason::NamuaPlacement { .. } => say("reason-namua-placement", Args::new()),
        IllegalReason::FirstTakataFromKuu { .. } => {
            say("reason-first-takata-from-kuu", Args::new())
        }
        IllegalReason::BackRowTakasa { .. } => say("reason-back-row-takasa", Args::new()),
        IllegalReason::NotLegal { legal } => not_legal_in(lang, legal),
        // A reason newer than this module: its rule, and the legal moves.
        other => t!(lang, "reason-other", rule = other.rule()),
    }
}

/// `not a legal move here; the legal moves are A6<* A6>*`.
#[must_use]
pub fn not_legal(legal: &[Move]) -> String {
    not_legal_in(Lang::En, legal)
}

/// [`not_legal`] in `lang`.
#[must_use]
pub fn not_legal_in(lang: Lang, legal: &[Move]) -> String {
    t!(lang, "reason-not-legal", legal = move_list(legal))
}

/// Why a written move resolves to no single move, in one sentence (the reason of the move
/// it was read as, or `ambiguous: A6<*, A6>* are all legal; write the sign`).
#[must_use]
pub fn resolve_reason(err: &ResolveError, rules: &RuleSet) -> String {
    resolve_reason_in(Lang::En, err, rules)
}

/// [`resolve_reason`] in `lang`.
#[must_use]
pub fn resolve_reason_in(lang: Lang, err: &ResolveError, rules: &RuleSet) -> String {
    match err {
        ResolveError::Illegal(e) => reason_in(lang, &e.reason, rules),
        ResolveError::Ambiguous(moves) => t!(
            lang,
            "reason-ambiguous",
            moves = moves
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => t!(lang, "reason-other", rule = other.rule()),
    }
}

/// A refused move with its rule and why: `A6< is illegal (G6): no capture is possible
/// here, ...`.
#[must_use]
pub fn play_error(err: &PlayError, rules: &RuleSet) -> String {
    play_error_in(Lang::En, err, rules)
}

/// [`play_error`] in `lang`.
#[must_use]
pub fn play_error_in(lang: Lang, err: &PlayError, rules: &RuleSet) -> String {
    illegal_sentence(
        lang,
        &err.mv,
        err.rule(),
        &reason_in(lang, &err.reason, rules),
    )
}

/// A written move that resolves to no single move, with its rule and why, the move shown
/// as `written` (the spec as read, such as `A6` or `a8<*`).
#[must_use]
pub fn resolve_error(written: &dyn Display, err: &ResolveError, rules: &RuleSet) -> String {
    resolve_error_in(Lang::En, written, err, rules)
}

/// [`resolve_error`] in `lang`.
#[must_use]
pub fn resolve_error_in(
    lang: Lang,
    written: &dyn Display,
    err: &ResolveError,
    rules: &RuleSet,
) -> String {
    illegal_sentence(
        lang,
        written,
        err.rule(),
        &resolve_reason_in(lang, err, rules),
    )
}

fn illegal_sentence(lang: Lang, mv: &dyn Display, rule: &str, why: &str) -> String {
    t!(
        lang,
        "illegal-sentence",
        mv = mv.to_string(),
        rule = rule,
        why = why
    )
}

/// Why a setup is no position, in the variant's words (`South's nyumba: functional, but it
/// holds fewer than 6 seeds`).
#[must_use]
pub fn setup_problem(problem: &SetupProblem, names: &Names) -> String {
    setup_problem_in(Lang::En, problem, names)
}

/// [`setup_problem`] in `lang`.
#[must_use]
pub fn setup_problem_in(lang: Lang, problem: &SetupProblem, names: &Names) -> String {
    let say = |id: &str, args: Args<'_>| said(lang, id, names, args);
    match problem {
        SetupProblem::SeedCount { found } => say(
            "setup-seed-count",
            Args::new().with("found", *found).with("total", TOTAL_SEEDS),
        ),
        SetupProblem::House { side, why } => {
            let why = match why {
                HouseProblem::Missing => say("setup-house-missing", Args::new()),
                HouseProblem::NotInRules => say("setup-house-not-in-rules", Args::new()),
                HouseProblem::FunctionalTooFew => {
                    say("setup-house-functional-too-few", Args::new())
                }
                HouseProblem::DormantTooMany => say("setup-house-dormant-too-many", Args::new()),
                HouseProblem::DormantKuu => say("setup-house-dormant-kuu", Args::new()),
                other => format!("{other:?}"),
            };
            say(
                "setup-house",
                Args::new()
                    .with("side", side_in(lang, *side))
                    .with("why", why),
            )
        }
        SetupProblem::Hand { side, why } => {
            let why = match why {
                HandProblem::NoReserve => "setup-hand-no-reserve",
                HandProblem::MoreThanReserve => "setup-hand-more-than-reserve",
                _ => "setup-hand-other",
            };
            say(
                "setup-hand",
                Args::new()
                    .with("side", side_in(lang, *side))
                    .with("why", say(why, Args::new())),
            )
        }
        SetupProblem::Takasia { pit, why } => {
            let why = match why {
                TakasiaProblem::WrongSide => say("setup-takasia-wrong-side", Args::new()),
                TakasiaProblem::NotInRules => say("setup-takasia-not-in-rules", Args::new()),
                TakasiaProblem::BackRow => say("setup-takasia-back-row", Args::new()),
                TakasiaProblem::WithReserves => say("setup-takasia-with-reserves", Args::new()),
                TakasiaProblem::NotToMove => say("setup-takasia-not-to-move", Args::new()),
                TakasiaProblem::FunctionalHouse => {
                    say("setup-takasia-functional-house", Args::new())
                }
                other => format!("{other:?}"),
            };
            say(
                "setup-takasia",
                Args::new().with("pit", pit.to_string()).with("why", why),
            )
        }
    }
}

/// A rejected setup with every problem: `impossible position: board and hands hold 63
/// seeds; a game has exactly 64`.
#[must_use]
pub fn setup_error(err: &SetupError) -> String {
    setup_error_in(Lang::En, err)
}

/// [`setup_error`] in `lang`.
#[must_use]
pub fn setup_error_in(lang: Lang, err: &SetupError) -> String {
    let names = err.setup.rules.names();
    impossible_position_in(
        lang,
        err.problems
            .iter()
            .map(|p| setup_problem_in(lang, p, &names)),
    )
}

/// `impossible position: ` and the problems, separated by `; `.
#[must_use]
pub fn impossible_position(problems: impl IntoIterator<Item = String>) -> String {
    impossible_position_in(Lang::En, problems)
}

/// [`impossible_position`] in `lang`.
#[must_use]
pub fn impossible_position_in(lang: Lang, problems: impl IntoIterator<Item = String>) -> String {
    let problems: Vec<String> = problems.into_iter().collect();
    t!(lang, "impossible-position", problems = problems.join("; "))
}

/// A side's name in prose: `South`, `North` (the machine name, `Side`'s `Display`, is
/// lower case).
#[must_use]
pub fn side_name(side: Side) -> String {
    side_in(Lang::En, side)
}

/// A side's name in prose in `lang`: `South`, `Kusini`.
#[must_use]
pub fn side_in(lang: Lang, side: Side) -> String {
    match side {
        Side::South => t!(lang, "side-south"),
        Side::North => t!(lang, "side-north"),
    }
}

/// Why a game ended, in words for people (the JSON name is `EndReason::name`).
#[must_use]
pub fn end_reason(reason: EndReason) -> String {
    end_reason_in(Lang::En, reason)
}

/// [`end_reason`] in `lang`.
#[must_use]
pub fn end_reason_in(lang: Lang, reason: EndReason) -> String {
    let id = match reason {
        EndReason::BaoHamna => "end-bao-hamna",
        EndReason::NoLegalMove => "end-no-legal-move",
        EndReason::OwnFrontRowEmpty => "end-own-front-row-empty",
        EndReason::NeverEnding => "end-never-ending",
    };
    t!(lang, id)
}

/// A name that is no rule preset, with the presets there are: ``unknown rule preset
/// `zanzibar` (known: kiswahili, ...)``.
#[must_use]
pub fn unknown_preset(name: &str) -> String {
    unknown_preset_in(Lang::En, name)
}

/// [`unknown_preset`] in `lang`.
#[must_use]
pub fn unknown_preset_in(lang: Lang, name: &str) -> String {
    t!(
        lang,
        "unknown-preset",
        name = name,
        known = PRESET_NAMES.join(", ")
    )
}

/// A rule option that cannot be set: ``rule option `takasia` cannot be `sometimes`:
/// expected off, standard or abstractplay``.
#[must_use]
pub fn rule_option_error(e: &RuleOptionError) -> String {
    rule_option_error_in(Lang::En, e)
}

/// [`rule_option_error`] in `lang`.
#[must_use]
pub fn rule_option_error_in(lang: Lang, e: &RuleOptionError) -> String {
    t!(
        lang,
        "rule-option-error",
        option = e.option.as_str(),
        value = e.value.as_str(),
        expected = e.expected
    )
}

/// Why a rule-set spec (`--rules "kiswahili takasia=off"`) names no rule set: ``unknown
/// preset `zanzibar`; the presets are kiswahili, ...``, or the override refused.
#[must_use]
pub fn rule_spec_error(e: &RuleSpecError) -> String {
    rule_spec_error_in(Lang::En, e)
}

/// [`rule_spec_error`] in `lang`.
#[must_use]
pub fn rule_spec_error_in(lang: Lang, e: &RuleSpecError) -> String {
    match e {
        RuleSpecError::UnknownPreset(p) => t!(
            lang,
            "unknown-preset-spec",
            name = p.0.as_str(),
            known = PRESET_NAMES.join(", ")
        ),
        RuleSpecError::Option(e) => rule_option_error_in(lang, e),
        // A refusal newer than this module: the engine's own short form.
        other => other.to_string(),
    }
}

/// A position JSON whose `stage` contradicts the hand of the side to move
/// (`PositionJsonProblem::StageMismatch`): `stage is mtaji but South, to move, has 22 seeds
/// in hand (namua while the hand is not empty, else mtaji)`.
#[must_use]
pub fn stage_mismatch(stage: Stage, side: Side, hand: u8, names: &Names) -> String {
    stage_mismatch_in(Lang::En, stage, side, hand, names)
}

/// [`stage_mismatch`] in `lang`.
#[must_use]
pub fn stage_mismatch_in(lang: Lang, stage: Stage, side: Side, hand: u8, names: &Names) -> String {
    said(
        lang,
        "stage-mismatch",
        names,
        Args::new()
            .with("stage", stage.to_string())
            .with("side", side_in(lang, side))
            .with("hand", hand),
    )
}

/// `South won: the loser's front row is empty`.
pub(crate) fn outcome_words(lang: Lang, o: &Outcome) -> String {
    let reason = t!(
        lang,
        match o.reason {
            EndReason::BaoHamna => "outcome-bao-hamna",
            EndReason::NoLegalMove => "outcome-no-legal-move",
            EndReason::OwnFrontRowEmpty => "outcome-own-front-row-empty",
            EndReason::NeverEnding => "outcome-never-ending",
        }
    );
    match o.winner {
        Some(w) => t!(
            lang,
            "outcome-won",
            side = side_in(lang, w),
            reason = reason
        ),
        None => t!(lang, "outcome-drawn", reason = reason),
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
