//! The unambiguous repairs applied to a record's text (`bao check --fix`).
//!
//! A record is checked; every illegal move whose best repair is clearly ahead of the next
//! (the diagnostic's [`CheckDiagnostic::repair`]) is repaired in the text: a move replaced
//! (at the refused ply, or at the earlier ply the slip is blamed on), two plies swapped, a
//! missing ply inserted. Only the tokens change: comments, NAGs, annotations and layout stay
//! as written, and a replaced or inserted move is written in the record's sign convention and
//! letters (K.I.B.A. `L`/`R`). A move number that disagrees with its ply
//! (`bao::record::move_number_mismatch`, a warning) is rewritten in place, in a round that
//! repairs no move: so the numbers an inserted or swapped ply shifted are renumbered by the
//! next round. The record is checked again, and repaired again, until no repair is left to
//! apply; so fixing a fixed text changes nothing.

use std::collections::HashSet;
use std::sync::Arc;

use bao_core::{Move, Position};
use bao_notation::{Directions, Element, MoveItem, MoveToken, Span, Spanned};
use bao_replay::ReplayedLine;

use crate::diagnostic::{AnyDiagnostic, CheckDiagnostic, CheckReport, Rewrite};
use crate::suggest::Repair;
use crate::{check_full, CheckOptions, Checked};

/// At most this many rounds of check-and-repair (each applies at least one repair).
const MAX_ROUNDS: usize = 256;

/// One repair applied to the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedFix {
    /// The game, counted from 1 in file order.
    pub game: usize,
    /// The ply the repair changes (counted from 1).
    pub ply: usize,
    /// What changed, e.g. `ply 3: A4L became A4>`.
    pub what: String,
}

/// A record with its unambiguous repairs applied.
#[derive(Debug)]
pub struct Fixed {
    /// The repaired text (the input when nothing was repaired).
    pub text: String,
    /// The repairs, in the order applied.
    pub applied: Vec<AppliedFix>,
    /// The check of the repaired text: what is left.
    pub report: CheckReport,
}

impl Fixed {
    /// Whether any repair was applied.
    #[must_use]
    pub fn changed(&self) -> bool {
        !self.applied.is_empty()
    }
}

/// Applies the unambiguous repairs of `text` until none is left (`opts.assume_fixes` is not
/// used: every round checks the text as written).
#[must_use]
pub fn fix_text(name: &str, text: &str, opts: &CheckOptions) -> Fixed {
    let opts = CheckOptions {
        assume_fixes: false,
        ..*opts
    };
    let mut text = text.to_owned();
    let mut applied = Vec::new();
    let mut seen = HashSet::new();
    seen.insert(text.clone());
    for _ in 0..MAX_ROUNDS {
        let checked = check_full(name, Arc::from(text.as_str()), &opts);
        let edits = edits(&checked);
        if edits.is_empty() {
            return Fixed {
                text,
                applied,
                report: checked.report,
            };
        }
        let next = apply(&text, &edits);
        if !seen.insert(next.clone()) {
            // A repair that leads back to an earlier text: stop.
            return Fixed {
                text,
                applied,
                report: checked.report,
            };
        }
        applied.extend(edits.into_iter().map(|e| e.fix));
        text = next;
    }
    let report = check_full(name, Arc::from(text.as_str()), &opts).report;
    Fixed {
        text,
        applied,
        report,
    }
}

/// A change of the text: `span` replaced by `with`.
#[derive(Debug, Clone)]
struct Edit {
    changes: Vec<(Span, String)>,
    fix: AppliedFix,
}

/// The edits of every diagnostic with an unambiguous repair (a later one that overlaps an
/// earlier one is left for the next round).
///
/// A round that repairs a move rewrites no move number: the plies it inserts or moves
/// change the count, and the next round's check gives the numbers of the new text.
fn edits(checked: &Checked) -> Vec<Edit> {
    let moves = edits_where(checked, |c| c.is_error() && c.assumes.is_none(), edit_of);
    if !moves.is_empty() {
        return moves;
    }
    edits_where(
        checked,
        |c| c.rewrite.is_some(),
        |_, c, text| rewrite_of(c, text),
    )
}

/// The edits of the diagnostics `pick` accepts, each made by `make`.
fn edits_where(
    checked: &Checked,
    pick: impl Fn(&CheckDiagnostic) -> bool,
    make: impl Fn(&Checked, &CheckDiagnostic, &str) -> Option<Edit>,
) -> Vec<Edit> {
    let mut out: Vec<Edit> = Vec::new();
    for d in &checked.report.diagnostics {
        let AnyDiagnostic::Check(c) = d else { continue };
        if !pick(c) {
            continue;
        }
        let Some(edit) = make(checked, c, &checked.report.text) else {
            continue;
        };
        let overlaps = out.iter().any(|e| {
            e.changes.iter().any(|(a, _)| {
                edit.changes.iter().any(|(b, _)| {
                    a.start < b.end.max(b.start + 1) && b.start < a.end.max(a.start + 1)
                })
            })
        });
        if !overlaps {
            out.push(edit);
        }
    }
    out
}

/// The text of `changes` applied to `text` (non-overlapping spans).
fn apply(text: &str, edits: &[Edit]) -> String {
    let mut changes: Vec<&(Span, String)> = edits.iter().flat_map(|e| &e.changes).collect();
    changes.sort_by_key(|(s, _)| (s.start, s.end));
    let mut out = String::with_capacity(text.len() + 16);
    let mut at = 0;
    for (span, with) in changes {
        out.push_str(&text[at..span.start]);
        out.push_str(with);
        at = span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The edit of a diagnostic's [`Rewrite`]: a move number rewritten in place.
fn rewrite_of(d: &CheckDiagnostic, text: &str) -> Option<Edit> {
    let span = d.span()?;
    match d.rewrite? {
        Rewrite::Renumber { number } => {
            let old = text.get(span.start..span.end)?;
            Some(Edit {
                changes: vec![(span, number.to_string())],
                fix: AppliedFix {
                    game: d.game,
                    ply: d.ply.unwrap_or_default(),
                    what: format!(
                        "ply {}: move number {old} became {number}",
                        d.ply.unwrap_or_default()
                    ),
                },
            })
        }
    }
}

/// The edit of one diagnostic's repair.
fn edit_of(checked: &Checked, d: &CheckDiagnostic, text: &str) -> Option<Edit> {
    let repair = d.repair.as_ref()?;
    let span = d.span()?;
    let game = checked.record.games.get(d.game.checked_sub(1)?)?;
    let replayed = checked.replayed.get(d.game - 1)?;
    let directions = replayed.opening()?.directions;
    let line = line_of(&replayed.main, span)?;
    let ply = line.plies.iter().find(|p| p.span == span)?;
    let written = |s: Span| text.get(s.start..s.end).unwrap_or_default().to_owned();
    let fix = |ply: usize, what: String| AppliedFix {
        game: d.game,
        ply,
        what,
    };
    match repair.repair {
        Repair::Replace => {
            let new = in_style(
                &token_text(repair.mv, &ply.before, directions),
                &written(span),
            );
            let what = format!("ply {}: {} became {new}", ply.number, written(span));
            Some(Edit {
                changes: vec![(span, new)],
                fix: fix(ply.number, what),
            })
        }
        Repair::Earlier { ply: at, .. } => {
            let (earlier, new) = earlier_token(line, at, repair.mv, directions, text)?;
            let what = format!("ply {at}: {} became {new}", written(earlier));
            Some(Edit {
                changes: vec![(earlier, new)],
                fix: fix(at, what),
            })
        }
        Repair::Swap {
            ply: at, with_ply, ..
        } => {
            let moves = moves_of(&game.value.movetext, span)?;
            let i = moves.iter().position(|m| m.token.span == span)?;
            // The items trade places with their NAGs and annotations.
            let (here, other) = (extent(moves[i]), extent(moves.get(i + (with_ply - at))?));
            let (a, b) = (
                written(span),
                written(moves[i + (with_ply - at)].token.span),
            );
            Some(Edit {
                changes: vec![(here, written(other)), (other, written(here))],
                fix: fix(
                    at,
                    format!("plies {at} and {with_ply}: {a} and {b} swapped"),
                ),
            })
        }
        Repair::Insert { ply: at, .. } => {
            let (at_span, new) = insertion(&game.value.movetext, replayed, span, repair.mv, text)?;
            Some(Edit {
                changes: vec![(at_span, format!("{new} "))],
                fix: fix(at, format!("ply {at}: {new} inserted")),
            })
        }
    }
}

/// The text of a move item after its number: the token, its NAGs and its annotation.
fn extent(item: &MoveItem) -> Span {
    let end = item
        .nags
        .iter()
        .map(|n| n.span.end)
        .chain(item.annotation.as_ref().map(|a| a.span.end))
        .fold(item.token.span.end, usize::max);
    Span {
        start: item.token.span.start,
        end,
    }
}

/// The edit of an earlier-ply repair ([`Repair::Earlier`]): the span of ply `at`'s token on
/// `line` and the token that replaces it, `mv` written under `directions` in the style of the
/// written token. `text` is the text the line's spans index.
fn earlier_token(
    line: &ReplayedLine,
    at: usize,
    mv: Move,
    directions: Directions,
    text: &str,
) -> Option<(Span, String)> {
    let earlier = line.plies.iter().find(|p| p.number == at)?;
    let old = text.get(earlier.span.start..earlier.span.end)?;
    let new = in_style(&token_text(mv, &earlier.before, directions), old);
    Some((earlier.span, new))
}

/// The edit of an earlier-ply repair for the diagnostic at `span` (the refused ply's token)
/// in `game`: the span of the earlier token and its replacement, as `bao check --fix` writes
/// it. `text` is the text the game's spans index. `None` if the repair is not
/// [`Repair::Earlier`] or the plies are not found.
#[must_use]
pub fn earlier_repair_edit(
    game: &bao_replay::ReplayedGame,
    span: Span,
    repair: Repair,
    mv: Move,
    text: &str,
) -> Option<(Span, String)> {
    let Repair::Earlier { ply: at, .. } = repair else {
        return None;
    };
    let line = line_of(&game.main, span)?;
    earlier_token(line, at, mv, game.opening()?.directions, text)
}

/// The token an insertion repair ([`Repair::Insert`]) puts before the refused ply's token at
/// `span` in `game`: `mv` written under the game's `Directions`, with the sign the record's
/// convention gives it, as `bao check --fix` writes it. `None` if the ply is not found.
#[must_use]
pub fn inserted_token(game: &bao_replay::ReplayedGame, span: Span, mv: Move) -> Option<String> {
    let line = line_of(&game.main, span)?;
    let ply = line.plies.iter().find(|p| p.span == span)?;
    Some(token_text(mv, &ply.before, game.opening()?.directions))
}

/// The edit of an insertion repair ([`Repair::Insert`]) for the refused ply's token at
/// `span` in `game` (`movetext` its written moves, `text` the text their spans index): where
/// the new token goes (an empty span) and the token, as `bao check --fix` writes it.
///
/// The token is [`inserted_token`] in the style of the refused one (K.I.B.A. `L`/`R` if it
/// uses them). It goes before the refused item's move number when it has one: the number
/// was written for the refused move, which the insertion moves to the next ply
/// (`2. A4R 3. A5L` becomes `2. A4R a6R 3. A5L`, not `2. A4R 3. a6R A5L`). The numbers
/// that the insertion shifts are the next check's `move_number_mismatch` warnings, which
/// `--fix` then rewrites.
#[must_use]
pub fn insertion(
    movetext: &[Spanned<Element>],
    game: &bao_replay::ReplayedGame,
    span: Span,
    mv: Move,
    text: &str,
) -> Option<(Span, String)> {
    let new = in_style(
        &inserted_token(game, span, mv)?,
        text.get(span.start..span.end)?,
    );
    let start = moves_of(movetext, span)
        .and_then(|moves| moves.into_iter().find(|m| m.token.span == span))
        .and_then(|m| m.number.as_ref())
        .map_or(span.start, |n| n.span.start);
    Some((Span::new(start, start), new))
}

/// The replayed line (the main line or a variation) holding the ply at `span`.
fn line_of(line: &ReplayedLine, span: Span) -> Option<&ReplayedLine> {
    if line.plies.iter().any(|p| p.span == span) {
        return Some(line);
    }
    line.plies
        .iter()
        .flat_map(|p| &p.variations)
        .find_map(|v| line_of(&v.line, span))
}

/// The moves of the written line (the movetext or a variation) holding the token at `span`.
fn moves_of(elems: &[Spanned<Element>], span: Span) -> Option<Vec<&MoveItem>> {
    let moves: Vec<&MoveItem> = elems
        .iter()
        .filter_map(|e| match &e.value {
            Element::Move(m) => Some(m),
            _ => None,
        })
        .collect();
    if moves.iter().any(|m| m.token.span == span) {
        return Some(moves);
    }
    elems.iter().find_map(|e| match &e.value {
        Element::Variation(v) => moves_of(v, span),
        _ => None,
    })
}

/// A new token in the style of the token it replaces: the K.I.B.A. letters `L`/`R` for the
/// signs if it used them.
fn in_style(new: &str, old: &str) -> String {
    if old.contains(['L', 'R']) {
        new.replace('<', "L").replace('>', "R")
    } else {
        new.to_owned()
    }
}

/// A move as a token of a record written under `directions`, played from `before`.
fn token_text(mv: Move, before: &Position, directions: Directions) -> String {
    let mut token = MoveToken::from(mv);
    token.sign = Some(directions.written_sign(&mv, before));
    token.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A legal game of 15 plies (as in `plies.rs`).
    const GAME: &str =
        "1. A7>* a7<* 2. A5< a6<* 3. A6< a4< 4. A6> a6< 5. A5> a5> 6. A2< a5> 7. A7> a5< 8. A6< *\n";

    fn fix(text: &str) -> Fixed {
        fix_text("t.bao", text, &CheckOptions::default())
    }

    #[test]
    fn an_earlier_slip_is_put_back() {
        let slipped = GAME.replacen("1. A7>*", "1. A7<*", 1);
        let fixed = fix(&slipped);
        assert_eq!(fixed.text, GAME);
        assert!(fixed.report.is_valid());
        assert_eq!(fixed.applied.len(), 1);
        assert_eq!(fixed.applied[0].ply, 1);
        assert_eq!(fixed.applied[0].what, "ply 1: A7<* became A7>*");
    }

    #[test]
    fn fixing_is_idempotent_and_leaves_a_valid_record_alone() {
        let fixed = fix(GAME);
        assert!(!fixed.changed());
        assert_eq!(fixed.text, GAME);
        let slipped = GAME.replace("5. A5> a5>", "5. a5> A5>");
        let once = fix(&slipped);
        assert!(once.changed());
        let twice = fix(&once.text);
        assert!(!twice.changed());
        assert_eq!(twice.text, once.text);
    }

    #[test]
    fn two_swapped_plies_are_swapped_back() {
        let slipped = GAME.replace("5. A5> a5>", "5. a5> A5>");
        let fixed = fix(&slipped);
        assert_eq!(fixed.text, GAME);
        assert_eq!(fixed.applied[0].what, "plies 9 and 10: a5> and A5> swapped");
    }

    #[test]
    fn a_token_keeps_the_kiba_letters() {
        assert_eq!(in_style("A4>", "A4L"), "A4R");
        assert_eq!(in_style("A4>*", "A4<"), "A4>*");
    }

    #[test]
    fn a_sign_is_written_in_the_records_convention() {
        let pos = Position::start(bao_core::RuleSet::KISWAHILI)
            .play_fast(&"A7>*".parse::<Move>().expect("a move"));
        let mv: Move = "a7<*".parse().expect("a move");
        assert_eq!(token_text(mv, &pos, Directions::Mover), "a7<*");
        assert_eq!(token_text(mv, &pos, Directions::South), "a7>*");
    }
}
