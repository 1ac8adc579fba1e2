//! The diagnostics of a game's tags and moves, worded from its replay: `bao-replay` reads
//! every ply once and shows it here ([`Words`] is its observer); a refused ply is worded
//! with its repairs, and with `--assume-fixes` the unambiguous repair is handed back.

use bao_core::{
    Engine, MoveSpec, NeverEnding, Outcome, Pit, Position, ResolveError, RuleSet, Side,
};
use bao_notation::meaning::{RulesError, RulesTag, StartError};
use bao_notation::{Annotation, AnnotationItem, Directions, Game, ItemKind, Span, Spanned};
use bao_replay::{
    main_line_replays, replay_game_in, replay_game_with, Assumption, Disagreement, InLine,
    Observer, OpeningProblem, Past, Played, Ply, Problem, Repair, ReplayOptions, ReplayedGame,
};

use crate::codes::Code;
use crate::diagnostic::CheckDiagnostic;
use crate::game_check::GameCheck;
use crate::options::CheckOptions;
use crate::plies::{rank_in_line, InLine as Written};
use crate::suggest::{
    capitalise, rank_in, repair_line, unambiguous, Repair as RepairKind, Suggestion,
};
use crate::words::{self, effect, move_list, primary_label, rule_sentence, Lang};
use bao_i18n::{t, Args};

/// Only a game long enough to tell the sign conventions apart is worth the note that
/// another one replays it.
const MIN_PLIES_FOR_CONVENTION: usize = 10;

/// Checks one game as `bao check` does: replays it, wording every problem met, then its
/// result against the replay. A panic inside the engine (a bug) does not take the whole
/// run down: the game is then kept as [`ReplayedGame::panicked`], with no diagnostics and
/// no plies checked. With `keep` false the replay is lean ([`ReplayOptions::lean`]: the
/// moves' traces lose their lists once worded), for a caller that drops it after.
pub(crate) fn check_one(game: &Game, n: usize, opts: &CheckOptions, keep: bool) -> GameCheck {
    let check = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut c = check_game(game, n, opts, keep);
        crate::record::check_result(opts.lang, game, n, &mut c);
        let first = c.replayed.opening.as_ref().ok().map(|o| o.start.to_move());
        c.diagnostics
            .extend(crate::numbers::check_numbers(opts.lang, game, n, first));
        for d in &mut c.diagnostics {
            d.lang = opts.lang;
        }
        c
    }));
    check.unwrap_or_else(|_| GameCheck {
        diagnostics: Vec::new(),
        replayed: ReplayedGame::panicked(),
        undecided: None,
    })
}

/// What a replay assumes beyond the repairs [`Words`] asks for at each refused ply.
#[derive(Debug, Clone, Copy, Default)]
struct Plan {
    /// An earlier-ply repair played on the main line in place of its token.
    assumed: Option<Assumption>,
    /// The main line's ply (number) where no repair is assumed: its best repair at that ply
    /// is not the best of all (an earlier one ties with it).
    hold: Option<usize>,
    /// A lean replay ([`ReplayOptions::lean`]), for a caller that drops it after.
    lean: bool,
}

/// A game replayed and worded under a plan.
struct Pass {
    replayed: ReplayedGame,
    diagnostics: Vec<CheckDiagnostic>,
    /// The ply left undecided by the lap budget: its span, number and the laps run.
    undecided: Option<(Span, usize, u64)>,
}

/// Replays a game under `plan`, wording every ply.
fn replay_worded(game: &Game, n: usize, opts: &CheckOptions, plan: Plan) -> Pass {
    let options = ReplayOptions {
        assumed: plan.assumed,
        lean: plan.lean,
    };
    let mut words = Words {
        n,
        opts,
        hold: plan.hold,
        diagnostics: Vec::new(),
    };
    let (replayed, undecided) = match opts.lap_budget {
        None => (replay_game_with(game, Some(&mut words), options), None),
        Some(laps) => {
            let mut budgeted = Budgeted {
                words: &mut words,
                laps,
                undecided: None,
                last: None,
                tested: None,
            };
            // The budget is the replay's engine's: it keeps the replay's own engine calls
            // bounded, and the observer's, made with the same engine; the plies are tested
            // one by one inside, so a give-up is pinned to its ply there. The replay is kept
            // either way: exact up to the ply pinned.
            let mut replayed = None;
            let outer = Engine::new().within(laps, |engine| {
                replayed = Some(replay_game_in(engine, game, Some(&mut budgeted), options));
            });
            let undecided = match (budgeted.undecided, outer) {
                (Some(u), _) => Some(u),
                // A give-up the plies' tests did not see: pinned to the last ply read.
                (None, Err(e)) => budgeted
                    .last
                    .map(|(span, number)| (span, number, e.laps_run)),
                (None, Ok(())) => None,
            };
            // Always set: the closure ran to its end (a panic would have gone on unwinding).
            let replayed = replayed.unwrap_or_else(ReplayedGame::panicked);
            (replayed, undecided)
        }
    };
    Pass {
        replayed,
        diagnostics: words.diagnostics,
        undecided,
    }
}

/// Checks one game: replays it, wording every problem met.
///
/// With `--assume-fixes`, the first refused ply of the main line takes the best of all its
/// repairs, those at earlier plies included, when it is unambiguous (the rule `bao check
/// --fix` applies): an earlier-ply repair replays the game again with it assumed; when the
/// repairs at the refused ply were clear but an earlier one ties with the best, the game is
/// replayed again with no repair assumed there (the line stops, saying why).
///
/// The replays are lean unless `keep` (the caller keeps the replay).
pub(crate) fn check_game(game: &Game, n: usize, opts: &CheckOptions, keep: bool) -> GameCheck {
    let lean = !keep;
    let mut pass = replay_worded(
        game,
        n,
        opts,
        Plan {
            lean,
            ..Plan::default()
        },
    );
    if let Some((span, number, laps_run)) = pass.undecided {
        pass.diagnostics
            .push(undecided_diagnostic(opts.lang, span, number, laps_run, n));
    }
    match &pass.replayed.opening {
        Err(OpeningProblem::Rules(e)) => pass.diagnostics.push(rules_diagnostic(opts.lang, e, n)),
        Err(OpeningProblem::Start {
            rules,
            error: StartError::Invalid { span, error },
        }) => pass
            .diagnostics
            .push(position_diagnostic(opts.lang, rules, *span, error, n)),
        Err(_) => {}
        Ok(o) => {
            let (start, directions) = (o.start, o.directions);
            if pass.undecided.is_none() {
                pass = blame_first_stop(game, n, opts, pass, lean);
            }
            convention_note(opts.lang, game, start, directions, &mut pass.diagnostics);
            rules_note(opts.lang, game, start, directions, &mut pass.diagnostics);
        }
    }
    GameCheck {
        diagnostics: pass.diagnostics,
        replayed: pass.replayed,
        undecided: pass.undecided.map(|(_, number, _)| number),
    }
}

/// Words the repairs at the plies before the main line's first refused ply
/// ([`crate::suggest_earlier`]) and, with `--assume-fixes`, replays the game again when the
/// best of all repairs there is not the one the line went on with.
fn blame_first_stop(
    game: &Game,
    n: usize,
    opts: &CheckOptions,
    mut pass: Pass,
    lean: bool,
) -> Pass {
    let laps = crate::suggest_earlier::search_laps(opts);
    let Some(stop) = crate::suggest_earlier::first_stop(game, &pass.replayed, laps) else {
        return pass;
    };
    if !opts.assume_fixes {
        crate::suggest_earlier::blame(&pass.replayed, &stop, &mut pass.diagnostics, opts);
        return pass;
    }
    let plies = &pass.replayed.main.plies;
    let refused = &plies[stop.index];
    let number = refused.number;
    // The line went on with a repair at the refused ply.
    let went_on = plies
        .get(stop.index + 1)
        .is_some_and(|p| p.assumes.is_some_and(|a| a.ply == number));
    match unambiguous(&stop.ranked).map(|s| (s.mv, s.repair)) {
        Some((mv, RepairKind::Earlier { ply, .. })) => {
            // Worded on the first pass, where the refused ply is refused.
            crate::suggest_earlier::blame(&pass.replayed, &stop, &mut pass.diagnostics, opts);
            let Some(blamed) =
                crate::suggest_earlier::take_blamed(&pass.replayed, &stop, &mut pass.diagnostics)
            else {
                return pass;
            };
            let plan = Plan {
                assumed: Some(Assumption { ply, mv }),
                hold: None,
                lean,
            };
            let mut again = replay_worded(game, n, opts, plan);
            if again.undecided.is_some() {
                // The game with the repair runs out of the budget: the first pass stands.
                pass.diagnostics.push(blamed);
                return pass;
            }
            let at = blamed.span().map_or(usize::MAX, |s| s.start);
            let i = again
                .diagnostics
                .iter()
                .position(|d| d.span().is_some_and(|s| s.start > at))
                .unwrap_or(again.diagnostics.len());
            again.diagnostics.insert(i, blamed);
            again
        }
        // The repairs at the refused ply were clear and the line went on with the best, but
        // an earlier ply's repair ties with it (or two earlier ones tie, both likelier): the
        // line is replayed with no repair assumed at the refused ply, and stops there, listing
        // them. Every repair cost at the refused ply is a multiple of 5 (tenths of a slip);
        // an earlier one is 3 more than a multiple of 5, plus 1 for each ply 7 to 24 after the
        // refused one that does not replay ([`crate::suggest_earlier`]). So an earlier repair
        // ties with one at the refused ply only when the record breaks again 2, 7, 12 or 17
        // plies before the end of that lookahead (a second slip: the fixture
        // `assume_fixes/tied_with_this_ply.bao`), never after a single slip that the rest of
        // the record bears out; two earlier repairs tie when both replay as far
        // (`assume_fixes/tied_after_going_on.bao`).
        None if went_on => {
            let plan = Plan {
                assumed: None,
                hold: Some(number),
                lean,
            };
            let mut again = replay_worded(game, n, opts, plan);
            if again.undecided.is_some() {
                crate::suggest_earlier::blame(&pass.replayed, &stop, &mut pass.diagnostics, opts);
                return pass;
            }
            crate::suggest_earlier::blame(&again.replayed, &stop, &mut again.diagnostics, opts);
            again
        }
        _ => {
            crate::suggest_earlier::blame(&pass.replayed, &stop, &mut pass.diagnostics, opts);
            pass
        }
    }
}

/// `bao::budget::undecided`: the ply at `span` (number `number`) whose decisions ran out of
/// the lap budget after `laps_run` laps.
fn undecided_diagnostic(
    lang: Lang,
    span: Span,
    number: usize,
    laps_run: u64,
    n: usize,
) -> CheckDiagnostic {
    CheckDiagnostic::new(Code::Undecided, n, t!(lang, "undecided", laps = laps_run))
        .primary(span, t!(lang, "undecided-label"))
        .at_ply(number)
        .help(t!(lang, "undecided-help"))
}

/// [`Words`] under a lap budget: before a ply is worded, every move of the position it is
/// played in and of the position it leaves must be decided within the budget (which also
/// bounds the wording's own engine calls: repairs, suggestions); the first ply where one is
/// not is kept, and nothing after it in the text is worded.
struct Budgeted<'w, 'a> {
    words: &'w mut Words<'a>,
    laps: u64,
    /// The first ply left undecided: its span, number and the laps run.
    undecided: Option<(Span, usize, u64)>,
    /// The last ply read: its span and number.
    last: Option<(Span, usize)>,
    /// The last position whose moves were all decided within the budget.
    tested: Option<Position>,
}

impl Observer for Budgeted<'_, '_> {
    fn ply(&mut self, at: &InLine<'_>, engine: &mut Engine) -> Option<Repair> {
        if self.undecided.is_some() {
            return None;
        }
        let ply = at.ply;
        self.last = Some((at.item.token.span, ply.number));
        let laps = self.laps;
        // The position a ply is played in is usually the one the ply before left, already
        // tested.
        let before = if self.tested == Some(ply.before) {
            Ok(())
        } else {
            engine
                .within(laps, |e| e.legal_moves(&ply.before))
                .map(drop)
        };
        let decided = before.and_then(|()| match ply.played() {
            Some(p) => engine.within(laps, |e| e.legal_moves(&p.after)).map(|_| {
                self.tested = Some(p.after);
            }),
            None => Ok(()),
        });
        let worded = decided.and_then(|()| engine.within(laps, |e| self.words.ply(at, e)));
        match worded {
            Ok(repair) => repair,
            Err(e) => {
                self.undecided = Some((at.item.token.span, ply.number, e.laps_run));
                None
            }
        }
    }
}

/// `bao::record::unknown_rules`.
fn rules_diagnostic(lang: Lang, e: &RulesError, n: usize) -> CheckDiagnostic {
    match e {
        RulesError::UnknownPreset { preset, span } => CheckDiagnostic::new(
            Code::UnknownRules,
            n,
            t!(lang, "unknown-rules", preset = preset.as_str()),
        )
        .primary(*span, t!(lang, "unknown-rules-label"))
        .help(t!(
            lang,
            "unknown-rules-help",
            known = bao_core::PRESET_NAMES.join(", ")
        )),
        RulesError::BadOverride {
            tag,
            part,
            span,
            error,
        } => CheckDiagnostic::new(
            Code::UnknownRules,
            n,
            t!(lang, "bad-override", part = part.as_str()),
        )
        .primary(*span, words::rule_option_error_in(lang, error))
        .help(match tag {
            RulesTag::RuleSet => t!(lang, "bad-override-help-ruleset"),
            RulesTag::Rules => t!(lang, "bad-override-help-rules"),
        }),
    }
}

/// `bao::record::invalid_position`.
fn position_diagnostic(
    lang: Lang,
    rules: &RuleSet,
    span: Span,
    error: &bao_core::SetupError,
    n: usize,
) -> CheckDiagnostic {
    let names = rules.names();
    let reasons: Vec<String> = error
        .problems
        .iter()
        .map(|p| words::setup_problem_in(lang, p, &names))
        .collect();
    let mut d = CheckDiagnostic::new(
        Code::InvalidPosition,
        n,
        t!(lang, "invalid-position", count = reasons.len()),
    )
    .primary(span, t!(lang, "invalid-position-label"));
    // The start of the game's own rule set, as an example of a position string.
    let start = bao_notation::PositionString::from(&Position::start(*rules));
    let whose = rules
        .preset_name()
        .map_or_else(|| t!(lang, "these-rules"), str::to_owned);
    d.help = Some(t!(
        lang,
        "invalid-position-help",
        reasons = reasons.join("; "),
        whose = whose,
        start = start.to_string()
    ));
    d
}

/// The help of a never-ending move written last in its line: how the record's rules can let
/// it stand, and that `--fix` leaves it.
fn never_ending_intent(lang: Lang) -> String {
    // A move is refused as never-ending only under `endless_move=illegal` (the default).
    t!(lang, "never-ending-intent")
}

/// A whole game that replays under another sign convention: a note on its first illegal
/// move.
fn convention_note(
    lang: Lang,
    game: &Game,
    start: Position,
    current: Directions,
    diagnostics: &mut [CheckDiagnostic],
) {
    let Some(d) = diagnostics.iter_mut().find(|d| d.code.area() == "illegal") else {
        return;
    };
    if game.main_line().count() < MIN_PLIES_FOR_CONVENTION {
        return;
    }
    let other = [Directions::Mover, Directions::South, Directions::Clockwise]
        .into_iter()
        .filter(|d| *d != current)
        .find(|d| main_line_replays(game, start, *d));
    if let Some(other) = other {
        let note = t!(lang, "convention-note", other = other.to_string());
        d.help = Some(match d.help.take() {
            Some(h) => format!("{h}\n{note}"),
            None => note,
        });
    }
}

/// A whole game from the start position that replays under another preset (a Kete game
/// labelled kiswahili): a note on its first illegal move, as [`convention_note`] gives for
/// the signs.
fn rules_note(
    lang: Lang,
    game: &Game,
    start: Position,
    directions: Directions,
    diagnostics: &mut [CheckDiagnostic],
) {
    // Only an illegal move: the other preset's replay reads the moves, not their
    // annotations, so it cannot say that an annotation would agree there.
    let Some(d) = diagnostics.iter_mut().find(|d| d.code.area() == "illegal") else {
        return;
    };
    let rules = *start.rules();
    if start != Position::start(rules) || game.main_line().count() < MIN_PLIES_FOR_CONVENTION {
        return;
    }
    let other = bao_core::PRESET_NAMES.into_iter().find(|name| {
        RuleSet::preset(name)
            .is_some_and(|r| r != rules && main_line_replays(game, Position::start(r), directions))
    });
    if let Some(other) = other {
        let note = t!(lang, "rules-note", other = other);
        d.help = Some(match d.help.take() {
            Some(h) => format!("{h}\n{note}"),
            None => note,
        });
    }
}

/// Words the plies of a game as `bao-replay` reads them.
struct Words<'a> {
    /// The game, counted from 1.
    n: usize,
    opts: &'a CheckOptions,
    /// The main line's ply (number) where no repair is assumed ([`Plan::hold`]).
    hold: Option<usize>,
    diagnostics: Vec<CheckDiagnostic>,
}

impl Observer for Words<'_> {
    fn ply(&mut self, at: &InLine<'_>, engine: &mut Engine) -> Option<Repair> {
        let ply = at.ply;
        match &ply.outcome {
            Ok(played) => {
                if !ply.problems.is_empty() {
                    self.claims(at, played, engine);
                }
                None
            }
            Err(problem @ Problem::AfterEnd { outcome, end }) => {
                let d = self.after_end(at, outcome, *end);
                self.push(d, ply, problem);
                None
            }
            Err(problem @ Problem::NoSuchPit(e)) => {
                let d = CheckDiagnostic::new(
                    Code::NotLegal,
                    self.n,
                    t!(self.lang(), "no-such-pit", pit = e.pit.to_string()),
                )
                .primary(at.item.token.span, t!(self.lang(), "no-such-pit-label"))
                .at_ply(ply.number);
                self.push(d, ply, problem);
                None
            }
            Err(problem @ Problem::Refused { spec, refusal, end }) => {
                let (mut d, ranked) = self.illegal(at, spec, refusal, *end, engine);
                let repair = self.repair(at, &d, engine);
                if self.opts.assume_fixes && repair.is_none() {
                    why_not_assumed(self.lang(), &mut d, &ranked, at.swap_pending);
                }
                if let ResolveError::Illegal(e) = refusal {
                    if matches!(e.reason, bao_core::IllegalReason::NamuaEmptyPit { .. }) {
                        // A namua move's pit is where the seed from the hand goes (N1).
                        d.rule = Some("n1");
                    }
                }
                self.push(d, ply, problem);
                repair
            }
            // Problems of a move played are never why a ply was not played.
            Err(Problem::FalseTakasiaClaim | Problem::FalseWinClaim | Problem::Annotation(_)) => {
                None
            }
        }
    }

    /// A ply played without a problem has nothing to word.
    fn every_ply(&self) -> bool {
        false
    }
}

impl Words<'_> {
    /// The language the diagnostics are worded in.
    fn lang(&self) -> Lang {
        self.opts.lang
    }

    /// Records a diagnostic of a ply, with the typed problem it words.
    fn push(&mut self, mut d: CheckDiagnostic, ply: &Ply, problem: &Problem) {
        d.assumes = ply.assumes;
        d.problem = Some(Box::new(problem.clone()));
        self.diagnostics.push(d);
    }

    /// The repair to assume after an illegal move (`--assume-fixes`): the unambiguous best
    /// one, but not a second swap while one is pending.
    fn repair(&self, at: &InLine<'_>, d: &CheckDiagnostic, cx: &mut Engine) -> Option<Repair> {
        if !self.opts.assume_fixes
            || (at.main && at.ply.assumes.is_none() && self.hold == Some(at.ply.number))
        {
            return None;
        }
        let here = &at.ply.before;
        let fix = d.fix.filter(|f| cx.legal_moves(here).contains(f));
        if let Some(mv) = fix {
            return Some(Repair::Replace(mv));
        }
        let r = d
            .repair
            .as_ref()
            .filter(|r| !(at.swap_pending && matches!(r.repair, RepairKind::Swap { .. })))?;
        Some(match r.repair {
            RepairKind::Replace => Repair::Replace(r.mv),
            RepairKind::Swap { ply, with_ply, .. } => Repair::Swap {
                mv: r.mv,
                distance: with_ply - ply,
            },
            RepairKind::Insert { written, .. } => Repair::Insert { mv: r.mv, written },
            // An earlier ply cannot be changed from here: `suggest_earlier` words it. A
            // deleted ply is not assumed (the plies after it would change their numbers):
            // `--fix` deletes it.
            RepairKind::Earlier { .. } | RepairKind::Delete { .. } => return None,
        })
    }

    /// `bao::record::game_continues_after_end`.
    fn after_end(&self, at: &InLine<'_>, o: &Outcome, end: Span) -> CheckDiagnostic {
        let here = &at.ply.before;
        let lang = self.lang();
        CheckDiagnostic::new(
            Code::GameContinuesAfterEnd,
            self.n,
            t!(
                lang,
                "after-end",
                outcome = words::outcome_words(lang, o),
                token = at.item.token.value.to_string()
            ),
        )
        .primary(at.item.token.span, t!(lang, "after-end-label"))
        .secondary(end, t!(lang, "game-ended-here"))
        .help(t!(
            lang,
            "after-end-help",
            rule = rule_sentence(
                lang,
                Code::GameContinuesAfterEnd,
                here.rules(),
                here.to_move()
            )
        ))
        .at_ply(at.ply.number)
    }

    /// The diagnostic of a refused move: the rule, the legal moves, the repairs.
    fn illegal(
        &self,
        at: &InLine<'_>,
        spec: &MoveSpec,
        err: &ResolveError,
        end_span: Option<Span>,
        cx: &mut Engine,
    ) -> (CheckDiagnostic, Vec<Suggestion>) {
        let pos = &at.ply.before;
        let item = at.item;
        let ply = at.ply.number;
        let rules = pos.rules();
        let mover = pos.to_move();
        let code = Code::for_resolve_error(err);
        let lang = self.lang();
        let written = item.token.value.to_string();
        let message = t!(
            lang,
            "illegal-message",
            mv = written,
            why = words::resolve_reason_in(lang, err, rules)
        );
        let d = CheckDiagnostic::new(code, self.n, message)
            .primary(item.token.span, primary_label(lang, code, rules))
            .at_ply(ply);
        let mut d = secondary_labels(lang, d, code, rules, mover, at.past, end_span);
        let mut help = vec![rule_sentence(lang, code, rules, mover)];
        let legal = cx.legal_moves(pos);
        if !legal.is_empty() && code != Code::GameOver {
            let id = if legal[0].is_capture() {
                "legal-captures-here"
            } else {
                "legal-moves-here"
            };
            help.push(t!(lang, id, moves = move_list(&legal)));
        }
        let line = Written {
            ply,
            item,
            following: at.following,
            directions: at.directions,
        };
        let ranked = rank_in_line(cx, pos, spec, &line);
        let best = unambiguous(&ranked);
        if let Some(s) = ranked.first() {
            help.push(repair_line(lang, s, &ranked, best.is_none()));
        }
        d.fix = best
            .filter(|s| s.repair == RepairKind::Replace)
            .map(|s| s.mv);
        d.repair = best.cloned();
        if code == Code::NeverEnding && at.following.is_empty() {
            // The last move written, and one that never ends: often the record's point (a
            // problem, a study), which a repair would contradict. It is never repaired; the
            // author is told how the rules can let it stand.
            d.fix = None;
            d.repair = None;
            help.push(never_ending_intent(lang));
        }
        (d.help(help.join("\n")), ranked)
    }

    /// The diagnostics of a played move's problems: false `**` and `#` claims, annotation
    /// mismatches.
    #[cold]
    #[inline(never)]
    fn claims(&mut self, at: &InLine<'_>, played: &Played, cx: &mut Engine) {
        let ply = at.ply;
        let pos = &ply.before;
        let rules = pos.rules();
        let item = at.item;
        let token = item.token.value;
        let mv = &played.mv;
        let lang = self.lang();
        for problem in &ply.problems {
            match problem {
                Problem::FalseTakasiaClaim => {
                    let names = rules.names();
                    let d = CheckDiagnostic::new(
                        Code::FalseTakasiaClaim,
                        self.n,
                        words::said(
                            lang,
                            "false-takasia",
                            &names,
                            Args::new().with("token", token.to_string()),
                        ),
                    )
                    .primary(
                        item.token.span,
                        words::said(lang, "false-takasia-label", &names, Args::new()),
                    )
                    .help(t!(
                        lang,
                        "false-takasia-help",
                        rule = rule_sentence(lang, Code::FalseTakasiaClaim, rules, pos.to_move()),
                        mv = mv.to_string()
                    ))
                    .at_ply(ply.number);
                    self.push(d, ply, problem);
                }
                Problem::FalseWinClaim => {
                    let d = CheckDiagnostic::new(
                        Code::FalseWinClaim,
                        self.n,
                        t!(lang, "false-win", token = token.to_string()),
                    )
                    .primary(item.token.span, t!(lang, "false-win-label"))
                    .help(t!(
                        lang,
                        "false-win-help",
                        rule = rule_sentence(lang, Code::FalseWinClaim, rules, pos.to_move()),
                        mv = mv.to_string()
                    ))
                    .at_ply(ply.number);
                    self.push(d, ply, problem);
                }
                Problem::Annotation(dis) => self.annotation(at, played, *dis, cx),
                // Why a ply was not played: worded by `Observer::ply`.
                Problem::AfterEnd { .. } | Problem::NoSuchPit(_) | Problem::Refused { .. } => {}
            }
        }
    }

    /// `bao::annotation::capture_mismatch` and `lap_mismatch`.
    fn annotation(&mut self, at: &InLine<'_>, played: &Played, dis: Disagreement, cx: &mut Engine) {
        let Some(a) = &at.item.annotation else { return };
        let ply = at.ply;
        let pos = &ply.before;
        let rules = pos.rules();
        let mv = &played.mv;
        let token = at.item.token.value;
        let written: Vec<_> = a.value.items.iter().map(|i| i.value).collect();
        let items = played.items();
        let ranked = rank_in(cx, pos, &MoveSpec::from(*mv), Some(&a.value));
        let alt = ranked
            .iter()
            .find(|s| s.mv != *mv && s.annotation_agrees == Some(true));
        let lang = self.lang();
        for (on, code, kind, what) in [
            (
                dis.captures,
                Code::CaptureMismatch,
                ItemKind::Capture,
                "capture-mismatch",
            ),
            (
                dis.laps,
                Code::LapMismatch,
                ItemKind::LapEnd,
                "lap-mismatch",
            ),
        ] {
            if !on {
                continue;
            }
            // The lap channel of a never-ending move ends with its cycle.
            let pick = |list: &[AnnotationItem], cycle: Option<NeverEnding>| {
                let v: Vec<_> = list.iter().copied().filter(|i| i.kind == kind).collect();
                let mut a = Annotation {
                    items: v.into_iter().map(Spanned::bare).collect(),
                    cycle: None,
                };
                if kind == ItemKind::LapEnd {
                    a.cycle = cycle.map(Spanned::bare);
                }
                a.to_string()
            };
            let written_cycle = a.value.cycle.as_ref().map(|c| c.value);
            let written_text = pick(&written, written_cycle);
            let actual_text = pick(&items, played.trace.never_ending);
            let mut help = vec![
                rule_sentence(lang, code, rules, pos.to_move()),
                t!(
                    lang,
                    "mismatch-written",
                    written = written_text.as_str(),
                    mv = mv.to_string(),
                    actual = actual_text.as_str()
                ),
            ];
            if let Some(s) = alt {
                help.push(capitalise(&s.sentence_in(lang)));
            }
            let mut d = CheckDiagnostic::new(
                code,
                self.n,
                t!(
                    lang,
                    what,
                    token = token.to_string(),
                    written = written_text.as_str(),
                    actual = actual_text.as_str()
                ),
            )
            .primary(a.span, t!(lang, &format!("{what}-label")))
            .secondary(
                at.item.token.span,
                t!(
                    lang,
                    "move-effect",
                    mv = mv.to_string(),
                    effect = effect(lang, mv, &played.trace)
                ),
            )
            .help(help.join("\n"))
            .at_ply(ply.number);
            d.fix = alt.map(|s| s.mv);
            self.push(d, ply, &Problem::Annotation(dis));
        }
    }
}

/// The labels that point back: the move that made a capture available, a pit takasia, the
/// move that ended the game.
fn secondary_labels(
    lang: Lang,
    mut d: CheckDiagnostic,
    code: Code,
    rules: &RuleSet,
    mover: Side,
    past: &[Past],
    end_span: Option<Span>,
) -> CheckDiagnostic {
    let last = past.last().filter(|p| p.mover != mover);
    match code {
        Code::CaptureMandatory => {
            if let Some(p) = last {
                d = d.secondary(p.span, t!(lang, "capture-available"));
            }
        }
        Code::Takasia => {
            if let Some(p) = last.filter(|p| p.takasia.is_some()) {
                d = d.secondary(
                    p.span,
                    words::said(lang, "made-takasia", &rules.names(), Args::new()),
                );
            }
        }
        Code::CapturePriority => {
            if let Some(p) = past
                .iter()
                .rev()
                .find(|p| p.mover == mover && p.takasia.is_some())
            {
                d = d.secondary(
                    p.span,
                    words::said(
                        lang,
                        "made-pit-takasia",
                        &rules.names(),
                        Args::new().with(
                            "pit",
                            p.takasia.map(|t: Pit| t.to_string()).unwrap_or_default(),
                        ),
                    ),
                );
            }
        }
        Code::GameOver => {
            if let Some(s) = end_span {
                d = d.secondary(s, t!(lang, "game-ended-here"));
            }
        }
        _ => {}
    }
    d
}

/// With `--assume-fixes`, a line that stops at a refused ply whose repairs are `ranked`
/// says why no repair was assumed there (a help line).
fn why_not_assumed(lang: Lang, d: &mut CheckDiagnostic, ranked: &[Suggestion], swap_pending: bool) {
    let line = match &d.repair {
        Some(r) if matches!(r.repair, RepairKind::Swap { .. }) && swap_pending => {
            t!(lang, "assume-second-swap")
        }
        Some(r) => t!(lang, "assume-not-assumed", repair = r.short_in(lang)),
        None => crate::suggest::assume_line(lang, ranked),
    };
    d.help = Some(match d.help.take() {
        Some(h) => format!("{h}\n{line}"),
        None => line,
    });
}
