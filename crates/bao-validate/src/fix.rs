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

use bao_core::Move;
use bao_notation::{apply_edits, Edit, Span};
use bao_replay::Document;

use crate::diagnostic::{AnyDiagnostic, CheckDiagnostic, CheckReport, Rewrite};
use crate::suggest::Repair;
use crate::{check_full, CheckOptions, Checked};
use bao_i18n::t;

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

/// A repair's changes of the text, and what it says it did.
#[derive(Debug, Clone)]
struct Fix {
    changes: Vec<Edit>,
    fix: AppliedFix,
}

/// The edits of every diagnostic with an unambiguous repair (a later one that overlaps an
/// earlier one is left for the next round).
///
/// A round that repairs a move rewrites no move number: the plies it inserts or moves
/// change the count, and the next round's check gives the numbers of the new text.
fn edits(checked: &Checked) -> Vec<Fix> {
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
    make: impl Fn(&Checked, &CheckDiagnostic, &str) -> Option<Fix>,
) -> Vec<Fix> {
    let mut out: Vec<Fix> = Vec::new();
    for d in &checked.report.diagnostics {
        let AnyDiagnostic::Check(c) = d else { continue };
        if !pick(c) {
            continue;
        }
        let Some(edit) = make(checked, c, &checked.report.text) else {
            continue;
        };
        let overlaps = out.iter().any(|e| {
            e.changes
                .iter()
                .any(|a| edit.changes.iter().any(|b| a.overlaps(b)))
        });
        if !overlaps {
            out.push(edit);
        }
    }
    out
}

/// The text of the fixes' changes applied to `text` (non-overlapping spans).
fn apply(text: &str, fixes: &[Fix]) -> String {
    let changes: Vec<Edit> = fixes.iter().flat_map(|f| f.changes.clone()).collect();
    apply_edits(text, &changes)
}

/// The edit of a diagnostic's [`Rewrite`]: a move number rewritten in place.
fn rewrite_of(d: &CheckDiagnostic, text: &str) -> Option<Fix> {
    let span = d.span()?;
    match d.rewrite? {
        Rewrite::Renumber { number } => {
            let old = text.get(span.start..span.end)?;
            Some(Fix {
                changes: vec![Edit::replace(span, number.to_string())],
                fix: AppliedFix {
                    game: d.game,
                    ply: d.ply.unwrap_or_default(),
                    what: t!(
                        d.lang,
                        "fixed-number",
                        ply = d.ply.unwrap_or_default(),
                        old = old,
                        new = number.to_string()
                    ),
                },
            })
        }
        Rewrite::Result { result } => {
            // The result token and the Result tag's value (written with its quotes), each
            // where a label of the diagnostic stands on it.
            let token = result.to_string();
            let mut changes = Vec::new();
            let mut old = None;
            for l in &d.labels {
                let here = text.get(l.span.start..l.span.end)?;
                let bare = here.trim_matches('"');
                if bao_notation::GameResult::from_token(bare.trim()).is_none() {
                    continue;
                }
                old.get_or_insert_with(|| bare.trim().to_owned());
                let new = if here.starts_with('"') {
                    format!("\"{token}\"")
                } else {
                    token.clone()
                };
                changes.push(Edit::replace(l.span, new));
            }
            let old = old?;
            Some(Fix {
                changes,
                fix: AppliedFix {
                    game: d.game,
                    ply: 0,
                    what: t!(d.lang, "fixed-result", old = old, new = token),
                },
            })
        }
    }
}

/// The edit of one diagnostic's repair.
fn edit_of(checked: &Checked, d: &CheckDiagnostic, text: &str) -> Option<Fix> {
    let repair = d.repair.as_ref()?;
    let span = d.span()?;
    let doc = checked.document(d.game.checked_sub(1)?)?;
    let here = doc.move_of(span)?;
    let ply = here.plies().next()?;
    let written = |s: Span| text.get(s.start..s.end).unwrap_or_default().to_owned();
    let fix = |ply: usize, what: String| AppliedFix {
        game: d.game,
        ply,
        what,
    };
    match repair.repair {
        Repair::Replace => {
            let new = doc.spell(&repair.mv, &ply.before);
            let what = t!(
                d.lang,
                "fixed-replace",
                ply = ply.number,
                old = written(span),
                new = new.as_str()
            );
            Some(Fix {
                changes: vec![Edit::replace(span, new)],
                fix: fix(ply.number, what),
            })
        }
        Repair::Earlier { ply: at, .. } => {
            let (earlier, new) = earlier_repair_edit(&doc, span, repair.repair, repair.mv)?;
            let what = t!(
                d.lang,
                "fixed-replace",
                ply = at,
                old = written(earlier),
                new = new.as_str()
            );
            Some(Fix {
                changes: vec![Edit::replace(earlier, new)],
                fix: fix(at, what),
            })
        }
        Repair::Swap {
            ply: at, with_ply, ..
        } => {
            let later = here.following(with_ply.checked_sub(at)?)?;
            // The items trade places with their NAGs and annotations.
            let (a, b) = (here.extent(), later.extent());
            Some(Fix {
                changes: vec![Edit::replace(a, written(b)), Edit::replace(b, written(a))],
                fix: fix(
                    at,
                    t!(
                        d.lang,
                        "fixed-swap",
                        ply = at,
                        with_ply = with_ply,
                        a = written(span),
                        b = written(later.token_span())
                    ),
                ),
            })
        }
        Repair::Delete { ply: at } => {
            let gone = deletion(&doc, span)?;
            Some(Fix {
                changes: vec![Edit::replace(gone, String::new())],
                fix: fix(
                    at,
                    t!(d.lang, "fixed-delete", ply = at, old = written(span)),
                ),
            })
        }
        Repair::Insert { ply: at, .. } => {
            let (at_span, new) = insertion(&doc, span, repair.mv)?;
            Some(Fix {
                changes: vec![Edit::replace(at_span, format!("{new} "))],
                fix: fix(at, t!(d.lang, "fixed-insert", ply = at, new = new.as_str())),
            })
        }
    }
}

/// The edit of an earlier-ply repair for the diagnostic at `span` (the refused ply's token)
/// of a game's document (with the text its spans index): the span of the earlier token and
/// its replacement, the move written as the record writes its moves
/// ([`Document::spell`]), as `bao check --fix` writes it. `None` if the repair is not
/// [`Repair::Earlier`] or the plies are not found.
#[must_use]
pub fn earlier_repair_edit(
    doc: &Document<'_>,
    span: Span,
    repair: Repair,
    mv: Move,
) -> Option<(Span, String)> {
    let Repair::Earlier { ply: at, .. } = repair else {
        return None;
    };
    let earlier = doc
        .move_of(span)?
        .line()
        .moves()
        .find(|m| m.ply().is_some_and(|p| p.number == at))?;
    let before = earlier.ply()?.before;
    Some((earlier.token_span(), doc.spell(&mv, &before)))
}

/// The edit of an insertion repair ([`Repair::Insert`]) for the refused ply's token at
/// `span` of a game's document (with the text its spans index): where the new token goes
/// (an empty span) and the token, as `bao check --fix` writes it.
///
/// The token is `mv` as the record writes its moves ([`Document::spell`]: its sign
/// convention and letters, K.I.B.A. `L`/`R` if it uses them). It goes before the refused
/// item's move number when it has one: the number was written for the refused move, which
/// the insertion moves to the next ply (`2. A4R 3. A5L` becomes `2. A4R a6R 3. A5L`, not
/// `2. A4R 3. a6R A5L`). The numbers that the insertion shifts are the next check's
/// `move_number_mismatch` warnings, which `--fix` then rewrites.
#[must_use]
pub fn insertion(doc: &Document<'_>, span: Span, mv: Move) -> Option<(Span, String)> {
    let here = doc.move_of(span)?;
    let new = doc.spell(&mv, &here.plies().next()?.before);
    let start = here.number().map_or(span.start, |n| n.span.start);
    Some((Span::new(start, start), new))
}

/// The span a deletion repair ([`Repair::Delete`]) takes out for the refused ply's token at
/// `span` of a game's document: its move number (if written), the move with its NAGs and
/// annotation, and the blanks after it (to the next token on the line); the numbers after it
/// that no longer fit their plies are the next check's `move_number_mismatch` warnings,
/// which `--fix` then rewrites ([`deletion_renumbered`] makes them one change).
#[must_use]
pub fn deletion(doc: &Document<'_>, span: Span) -> Option<Span> {
    let here = doc.move_of(span)?;
    let text = doc.text()?;
    let start = here.number().map_or(span.start, |n| n.span.start);
    let mut end = here.extent().end;
    let b = text.as_bytes();
    while end < b.len() && matches!(b[end], b' ' | b'\t') {
        end += 1;
    }
    Some(Span::new(start, end))
}

/// The edits of a deletion repair with the move numbers it shifts rewritten in the same
/// change (as [`insertion_renumbered`] for an insertion). `None` if the ply is not found
/// or the document has no text.
#[must_use]
pub fn deletion_renumbered(doc: &Document<'_>, span: Span) -> Option<Vec<Edit>> {
    let gone = deletion(doc, span)?;
    let first = Edit::replace(gone, String::new());
    renumbered_after(doc, first, gone.start, gone.end)
}

/// `first` and the move numbers after it that no longer fit their plies once it is made,
/// rewritten: `at` is where `first` starts, `old_end` where it ends (spans are the
/// document's, before the change).
fn renumbered_after(
    doc: &Document<'_>,
    first: Edit,
    at: usize,
    old_end: usize,
) -> Option<Vec<Edit>> {
    let text = doc.text()?;
    let new_end = at + first.text.len();
    let after = apply_edits(text, std::slice::from_ref(&first));
    let parsed = bao_notation::parse_record(&after);
    let game = parsed
        .record
        .games
        .iter()
        .find(|g| g.span.start <= at && at < g.span.end)?;
    let side = doc.opening().map(|o| o.start.to_move());
    let mut edits = vec![first];
    for d in crate::numbers::check_numbers(crate::words::Lang::En, &game.value, 0, side) {
        let (Some(s), Some(Rewrite::Renumber { number })) = (d.span(), d.rewrite) else {
            continue;
        };
        // Only the numbers after the change: those before it kept their plies.
        if s.start >= new_end {
            let back = Span::new(s.start - new_end + old_end, s.end - new_end + old_end);
            edits.push(Edit::replace(back, number.to_string()));
        }
    }
    Some(edits)
}

/// The edits of an insertion repair with the move numbers it shifts rewritten in the same
/// change: the token [`insertion`] puts in, and every written number after it that no
/// longer fits its ply once the ply is in (`2. A4R 3. A5L` with `a6R` inserted before
/// `A5L` is `2. A4R a6R 3. A5L`; a `3...` after it would become `4.`): what `bao check
/// --fix` leaves after its renumbering round, for an editor that makes it one action. Spans
/// are the document's (before the insertion). `None` if the ply is not found or the
/// document has no text.
#[must_use]
pub fn insertion_renumbered(doc: &Document<'_>, span: Span, mv: Move) -> Option<Vec<Edit>> {
    let (at, new) = insertion(doc, span, mv)?;
    let first = Edit::insert(at.start, format!("{new} "));
    renumbered_after(doc, first, at.start, at.start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_core::Position;
    use bao_notation::Directions;

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
    fn a_ply_written_twice_is_deleted() {
        let twice = GAME.replacen("6. A2< a5> ", "6. A2< a5> 6... a5> ", 1);
        let fixed = fix(&twice);
        assert_eq!(fixed.text, GAME);
        assert!(fixed.report.is_valid());
        assert_eq!(fixed.applied.len(), 1);
        assert_eq!(fixed.applied[0].what, "ply 13: a5> deleted");
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
    fn a_replaced_move_is_written_as_the_record_writes_its_moves() {
        // K.I.B.A. letters, and `*` where the record writes it.
        let kiba = GAME.replace('<', "L").replace('>', "R");
        let fixed = fix(&kiba.replacen("1. A7R*", "1. A7L*", 1));
        assert_eq!(fixed.text, kiba);
        assert_eq!(fixed.applied[0].what, "ply 1: A7L* became A7R*");
        // A record that writes no `*` gets none where the move reads back without it.
        let bare = GAME.replace('*', "");
        let fixed = fix(&bare.replacen("1. A7>", "1. A7<", 1));
        assert_eq!(fixed.text, bare);
    }

    #[test]
    fn a_sign_is_written_in_the_records_convention() {
        let pos = Position::start(bao_core::RuleSet::KISWAHILI)
            .play_fast(&"A7>*".parse::<Move>().expect("a move"));
        let mv: Move = "a7<*".parse().expect("a move");
        let spell = |d| bao_replay::spell(&mv, &pos, d, bao_notation::Notation::CANONICAL);
        assert_eq!(spell(Directions::Mover), "a7<*");
        assert_eq!(spell(Directions::South), "a7>*");
    }
}
