//! Repairs at the plies before an illegal one.
//!
//! A transcriber's slip can itself be a legal move: `2. A4L` written for `A4R` replays, but
//! the board then differs from the game played, and a later ply (written for the real board)
//! is refused. Blaming the refused ply then suggests a wrong repair. This module searches the
//! plies before the first refused ply of a game's main line for another legal move that a
//! slip could have turned into the token written there (the readings [`rank`] offers: another
//! sign, kichwa, stop or safari, a neighbouring pit, the other row letter, the house mark),
//! such that the plies written after it replay, the refused one included; each is ranked with
//! the repairs at the refused ply ([`Repair::Earlier`]).
//!
//! An earlier repair must also let at least one ply written after the refused one replay:
//! a record that stops at the refused ply gives no evidence for changing an earlier one.
//!
//! The search is bounded: at most [`PLIES_BACK`] plies back, the readings [`rank`] keeps, a
//! lookahead of [`EARLIER_LOOKAHEAD`] plies after the refused one, and a lap budget on every
//! never-ending decision it asks for (a reading whose replay runs past it is dropped).

use bao_core::{Engine, Move, Position};
use bao_notation::{Directions, Game, MoveItem};
use bao_replay::{
    legal_move_in, written_spec, Document, MoveNode, Ply, Problem, ReplayedGame, Source,
};

use crate::diagnostic::{CheckDiagnostic, Label};
use crate::options::CheckOptions;
use crate::plies::{break_cost, rank_in_line, InLine};
use crate::suggest::{
    assume_line, rank_in, repair_line, sort, unambiguous, Repair, Suggestion, EARLIER_LOOKAHEAD,
    LOOKAHEAD,
};
use bao_i18n::t;

/// How many plies before the refused one are searched.
pub(crate) const PLIES_BACK: usize = 24;
/// The laps any one never-ending decision of the search may run.
const SEARCH_LAPS: u64 = 20_000;
/// The cost of each ply beyond [`LOOKAHEAD`] (up to [`EARLIER_LOOKAHEAD`]) that does not
/// replay: of two repairs that both replay the usual lookahead, the one that replays
/// further ranks first.
const FAR_BREAK_COST: u32 = 1;
/// A slip that went unseen for a while is a little less likely than one where the record
/// breaks.
const EARLIER_COST: u32 = 3;

/// The first ply where a game's main line stops, with every repair ranked there.
#[derive(Debug)]
pub(crate) struct Stop {
    /// The index of the refused ply in the main line's plies.
    pub(crate) index: usize,
    /// The repairs at the refused ply (replacements, swaps, insertions) and at the plies
    /// before it, best first.
    pub(crate) ranked: Vec<Suggestion>,
    /// How many of them repair an earlier ply.
    pub(crate) earlier: usize,
}

/// The lap budget of every never-ending decision of the search: [`SEARCH_LAPS`], or the
/// check's own budget when it is smaller.
pub(crate) fn search_laps(opts: &CheckOptions) -> u64 {
    opts.lap_budget.map_or(SEARCH_LAPS, |b| b.min(SEARCH_LAPS))
}

/// The diagnostic of the refused ply of `stop` (the first one worded there, assuming
/// nothing before).
fn refused_diagnostic<'d>(
    replayed: &ReplayedGame,
    stop: &Stop,
    diagnostics: &'d mut [CheckDiagnostic],
) -> Option<&'d mut CheckDiagnostic> {
    let ply = &replayed.main.plies[stop.index];
    diagnostics
        .iter_mut()
        .find(|d| d.ply == Some(ply.number) && d.span() == Some(ply.span) && d.assumes.is_none())
}

/// Takes the diagnostic of the refused ply of `stop` out of `diagnostics`.
pub(crate) fn take_blamed(
    replayed: &ReplayedGame,
    stop: &Stop,
    diagnostics: &mut Vec<CheckDiagnostic>,
) -> Option<CheckDiagnostic> {
    let ply = &replayed.main.plies[stop.index];
    let i = diagnostics.iter().position(|d| {
        d.ply == Some(ply.number) && d.span() == Some(ply.span) && d.assumes.is_none()
    })?;
    Some(diagnostics.remove(i))
}

/// Words the repairs at earlier plies into the diagnostic of the first refused ply of the
/// main line, when one of them ranks first or ties with the first: its repair line, its
/// repair and a label on the earlier token. With `--assume-fixes`, the help's last line says
/// whether the line goes on with it ([`assume_line`]).
///
/// An earlier repair that only ties with the best repair of the refused ply makes that one
/// ambiguous too: the diagnostic then offers both, and no repair (`bao check --fix` changes
/// neither ply).
pub(crate) fn blame(
    replayed: &ReplayedGame,
    stop: &Stop,
    diagnostics: &mut [CheckDiagnostic],
    opts: &CheckOptions,
) {
    if stop.earlier == 0 {
        return;
    }
    let Some(best) = stop.ranked.first() else {
        return;
    };
    // The likeliest earlier repair, if it ranks first or ties with the first (sorted by cost,
    // so the ties are a prefix).
    let Some(earlier) = stop
        .ranked
        .iter()
        .take_while(|s| s.cost == best.cost)
        .find(|s| matches!(s.repair, Repair::Earlier { .. }))
    else {
        return;
    };
    let Repair::Earlier { ply: at, .. } = earlier.repair else {
        return;
    };
    let Some(d) = refused_diagnostic(replayed, stop, diagnostics) else {
        return;
    };
    let later: Vec<Suggestion> = stop
        .ranked
        .iter()
        .filter(|s| !matches!(s.repair, Repair::Earlier { .. }))
        .cloned()
        .collect();
    let best_is_earlier = std::ptr::eq(earlier, best);
    let lang = opts.lang;
    let line = repair_line(
        lang,
        best,
        &stop.ranked,
        unambiguous(&stop.ranked).is_none(),
    );
    let old = later
        .first()
        .map(|s| repair_line(lang, s, &later, unambiguous(&later).is_none()));
    let mut help = d.help.take().unwrap_or_default();
    if opts.assume_fixes {
        // What the observer said of the line, before the earlier repairs were known: in
        // every language, its lines start with the flag's name.
        if let Some(i) = help.find("\n--assume-fixes ") {
            help.truncate(i);
        }
    }
    help = match old {
        Some(old) if help.contains(&old) => help.replacen(&old, &line, 1),
        _ if help.is_empty() => line,
        _ => format!("{help}\n{line}"),
    };
    if !best_is_earlier {
        // The best repair is at the refused ply, and an earlier one is as likely: say what
        // that one is, since the record bears out both as well.
        help.push('\n');
        help.push_str(&t!(lang, "as-likely", repair = earlier.sentence_in(lang)));
    }
    if opts.assume_fixes {
        help.push('\n');
        help.push_str(&assume_line(lang, &stop.ranked));
    }
    d.help = Some(help);
    d.repair = unambiguous(&stop.ranked).cloned();
    // Only an unambiguous replacement of the refused move is its fix.
    d.fix = d
        .repair
        .as_ref()
        .filter(|r| r.repair == Repair::Replace)
        .map(|r| r.mv);
    if let Some(ply) = replayed.main.plies.iter().find(|p| p.number == at) {
        d.labels.push(Label {
            span: ply.span,
            text: if best_is_earlier {
                t!(lang, "label-slip-here", mv = earlier.mv.to_string())
            } else {
                t!(lang, "label-or-slip-here", mv = earlier.mv.to_string())
            },
            primary: false,
        });
    }
}

/// The index among `moves` of the move a ply was read from.
fn read_from(moves: &[MoveNode<'_>], ply: &Ply) -> Option<usize> {
    moves
        .iter()
        .position(|m| m.plies().any(|p| std::ptr::eq(p, ply)))
}

/// The first refused ply of the main line (a ply played after no assumed repair) and its
/// repairs, at it and before it; `None` when the main line has no refused ply. The engine
/// calls are made with one engine of this search; those of the plies before the refused one
/// under its lap budget `laps`.
pub(crate) fn first_stop(game: &Game, replayed: &ReplayedGame, laps: u64) -> Option<Stop> {
    let opening = replayed.opening()?;
    let plies = &replayed.main.plies;
    let index = plies.iter().position(|p| p.played().is_none())?;
    let stopped = &plies[index];
    if stopped.assumes.is_some() {
        return None;
    }
    let moves: Vec<MoveNode<'_>> = Document::new(game, replayed).main().moves().collect();
    let items: Vec<&MoveItem> = moves.iter().map(MoveNode::written).collect();
    let at = read_from(&moves, stopped)?;
    let following = &items[at + 1..];
    let directions = opening.directions;
    let cx = &mut Engine::new();
    let mut ranked = match &stopped.outcome {
        Err(Problem::Refused { spec, .. }) => rank_in_line(
            cx,
            &stopped.before,
            spec,
            &InLine {
                ply: stopped.number,
                item: items[at],
                following,
                directions,
            },
        ),
        _ => Vec::new(),
    };
    let earlier = earlier_repairs(
        cx,
        &plies[..index],
        (&moves, &items),
        at,
        (directions, laps),
    );
    let count = earlier.len();
    ranked.extend(earlier);
    sort(&mut ranked);
    Some(Stop {
        index,
        ranked,
        earlier: count,
    })
}

/// The repairs at the plies before the refused one (`items[at]`), each judged by how far the
/// record then replays.
fn earlier_repairs(
    cx: &mut Engine,
    before: &[Ply],
    (moves, items): (&[MoveNode<'_>], &[&MoveItem]),
    at: usize,
    (directions, laps): (Directions, u64),
) -> Vec<Suggestion> {
    let mut out = Vec::new();
    let after_stop = &items[at + 1..];
    for ply in before.iter().rev().take(PLIES_BACK) {
        let Some(played) = ply.played().filter(|p| p.source == Source::Written) else {
            // A ply that was not read from its token ends the search.
            break;
        };
        let Some(i) = read_from(moves, ply) else {
            break;
        };
        let item = items[i];
        let Ok(spec) = written_spec(&ply.before, item, directions) else {
            continue;
        };
        // The plies from the one after the repaired ply to the refused one.
        let between = &items[i + 1..=at];
        let annotation = item.annotation.as_ref().map(|a| &a.value);
        let Ok(readings) = cx.within(laps, |e| rank_in(e, &ply.before, &spec, annotation)) else {
            continue;
        };
        for mut s in readings.into_iter().filter(|s| s.mv != played.mv) {
            let replayed = cx.within(laps, |e| {
                replays_through(e, &ply.before, &s.mv, between, after_stop, directions)
            });
            // Making the refused ply legal is not evidence enough: a ply after it must
            // replay too.
            let Ok(Some(n @ 1..)) = replayed else {
                continue;
            };
            let tried = after_stop.len().min(EARLIER_LOOKAHEAD);
            let far_missing = tried.saturating_sub(LOOKAHEAD) - n.saturating_sub(LOOKAHEAD);
            // How far back the slip is does not count: two readings that the record bears
            // out as well are equally likely.
            s.cost += EARLIER_COST
                + break_cost(after_stop, n.min(LOOKAHEAD))
                + u32::try_from(far_missing).unwrap_or(u32::MAX / 4) * FAR_BREAK_COST;
            s.repair = Repair::Earlier {
                ply: ply.number,
                written: played.mv,
            };
            s.continues = Some(n);
            s.tried = tried;
            out.push(s);
        }
    }
    out
}

/// With `mv` played from `pos`, whether every move of `between` replays, and then how many of
/// `after` (at most [`EARLIER_LOOKAHEAD`]).
fn replays_through(
    cx: &mut Engine,
    pos: &Position,
    mv: &Move,
    between: &[&MoveItem],
    after: &[&MoveItem],
    directions: Directions,
) -> Option<usize> {
    let mut pos = cx.play_fast(pos, mv);
    for item in between {
        let mv = legal_move_in(cx, &pos, item, directions)?;
        pos = cx.play_fast(&pos, &mv);
    }
    let mut n = 0;
    for item in after.iter().take(EARLIER_LOOKAHEAD) {
        let Some(mv) = legal_move_in(cx, &pos, item, directions) else {
            break;
        };
        pos = cx.play_fast(&pos, &mv);
        n += 1;
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use bao_notation::parse_record;
    use bao_replay::replay_game;

    use super::*;

    fn stop(text: &str) -> Stop {
        let parsed = parse_record(text);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let game = &parsed.record.games[0].value;
        let replayed = replay_game(game, None);
        first_stop(game, &replayed, SEARCH_LAPS).expect("a refused ply")
    }

    /// A legal game of 15 plies (as in `plies.rs`).
    const GAME: &str =
        "1. A7>* a7<* 2. A5< a6<* 3. A6< a4< 4. A6> a6< 5. A5> a5> 6. A2< a5> 7. A7> a5< 8. A6< *\n";

    #[test]
    fn a_legal_slip_is_blamed_on_its_own_ply() {
        // Ply 1 written with the other sign: legal, but ply 4 is then refused.
        let text = GAME.replacen("1. A7>*", "1. A7<*", 1);
        let stop = stop(&text);
        let best = &stop.ranked[0];
        assert!(stop.earlier > 0);
        assert_eq!(best.mv.to_string(), "A7>*");
        assert!(
            matches!(best.repair, Repair::Earlier { ply: 1, written } if written.to_string() == "A7<*"),
            "{best:?}"
        );
        // The rest of the record replays.
        assert_eq!(best.continues, Some(best.tried));
        assert!(best.tried > LOOKAHEAD);
    }

    /// The first check diagnostic of `text`, and the number of errors of its report.
    fn first_diagnostic(text: &str, assume_fixes: bool) -> (CheckDiagnostic, usize) {
        let opts = CheckOptions {
            assume_fixes,
            ..CheckOptions::default()
        };
        let report = crate::check_text("t.bao", text.into(), &opts);
        let d = report
            .diagnostics
            .iter()
            .find_map(|d| match d {
                crate::AnyDiagnostic::Check(c) => Some(c.clone()),
                crate::AnyDiagnostic::Syntax(_) => None,
            })
            .expect("a diagnostic");
        (d, report.stats.errors)
    }

    fn help_with_assume_fixes(text: &str) -> String {
        first_diagnostic(text, true).0.help.unwrap_or_default()
    }

    #[test]
    fn assume_fixes_takes_an_earlier_repair_or_says_why_it_stops() {
        let opts = CheckOptions {
            assume_fixes: true,
            ..CheckOptions::default()
        };
        let text = GAME.replacen("1. A7>*", "1. A7<*", 1);
        let earlier = help_with_assume_fixes(&text);
        assert!(
            earlier.ends_with("--assume-fixes assumes A7>* at ply 1 and goes on from there."),
            "{earlier}"
        );
        // The one error: the game replays to its end with the repair assumed.
        let checked = crate::check_full("t.bao", text.as_str().into(), &opts);
        assert_eq!(checked.report.diagnostics.len(), 1);
        let main = &checked.replayed[0].main;
        assert_eq!(main.plies.len(), 15);
        assert_eq!(main.plies[0].played().unwrap().mv.to_string(), "A7>*");
        assert_eq!(main.plies[0].played().unwrap().source, Source::Assumed);
        assert!(main.plies.iter().all(|p| p.played().is_some()));
        // A back-row pit in namua: no legal move is a likely reading.
        let none = help_with_assume_fixes("1. B3<* *\n");
        assert!(
            none.ends_with(
                "--assume-fixes stops this line here: no legal move here is a likely reading \
                 of what is written."
            ),
            "{none}"
        );
    }

    /// Two slips (`fixtures/assume_fixes/tied_with_this_ply.bao`): the best repair at the
    /// refused ply (A6> at ply 11) ties with one at ply 10 (a3>), so neither is the
    /// diagnostic's repair or fix, with or without `--assume-fixes`, and `--fix` changes
    /// nothing.
    #[test]
    fn a_tie_with_an_earlier_repair_leaves_no_repair() {
        let text = include_str!("../../../fixtures/assume_fixes/tied_with_this_ply.bao");
        let parsed = parse_record(text);
        let game = &parsed.record.games[0].value;
        let stop = first_stop(game, &replay_game(game, None), SEARCH_LAPS).expect("a stop");
        let tied: Vec<String> = stop
            .ranked
            .iter()
            .filter(|s| s.cost == stop.ranked[0].cost)
            .map(Suggestion::short)
            .collect();
        assert_eq!(tied, ["A6>", "a3> at ply 10"]);
        assert!(unambiguous(&stop.ranked).is_none());
        for assume_fixes in [false, true] {
            let (d, errors) = first_diagnostic(text, assume_fixes);
            assert_eq!(d.ply, Some(11));
            assert!(d.repair.is_none() && d.fix.is_none(), "{d:?}");
            assert!(
                d.labels
                    .iter()
                    .any(|l| l.text == "or the slip is here: a3>"),
                "{d:?}"
            );
            // The line stops at ply 11 either way: one error.
            assert_eq!(errors, 1);
        }
        assert!(!crate::fix_text("t.bao", text, &CheckOptions::default()).changed());
    }

    #[test]
    fn a_record_without_a_refused_ply_has_no_stop() {
        let parsed = parse_record(GAME);
        let game = &parsed.record.games[0].value;
        assert!(first_stop(game, &replay_game(game, None), SEARCH_LAPS).is_none());
    }
}
