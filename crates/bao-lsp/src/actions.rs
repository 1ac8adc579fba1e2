//! Code actions: the repair of each diagnostic as an edit; the result the game reached; the
//! `Directions` tag its moves need; the engine's annotations on a move or a whole game.

use std::collections::HashMap;

use bao_notation::{Directions, GameResult};
use bao_replay::main_line_replays;
use bao_validate::{annotation_edits, result_of, AnyDiagnostic, CheckDiagnostic, Repair, Rewrite};
use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, TextEdit, Uri, WorkspaceEdit};

use crate::diagnostics::to_lsp;
use crate::document::{GameAt, View};

/// An action before it is put in the protocol's form.
struct Action {
    title: String,
    kind: CodeActionKind,
    edits: Vec<Edit>,
    /// The index of the diagnostic it repairs.
    diagnostic: Option<usize>,
}

/// An edit in byte offsets of the document.
struct Edit {
    start: usize,
    end: usize,
    text: String,
}

/// A game's text edits (spans in the game's chunk) as edits of the document, whose chunk
/// starts at byte `base`.
fn in_document(base: usize, edits: Vec<bao_notation::Edit>) -> Vec<Edit> {
    edits
        .into_iter()
        .map(|e| Edit {
            start: base + e.span.start,
            end: base + e.span.end,
            text: e.text,
        })
        .collect()
}

/// The code actions for the byte range `start..end` of the document.
pub(crate) fn actions(
    v: &View<'_>,
    uri: &Uri,
    start: usize,
    end: usize,
) -> Vec<CodeActionOrCommand> {
    let mut out: Vec<Action> = Vec::new();
    let diagnostics: Vec<AnyDiagnostic> = v.analysis.diagnostics_over(start, end);
    for (i, d) in diagnostics.iter().enumerate() {
        if let AnyDiagnostic::Check(c) = d {
            if let Some((title, edits)) = repair(v, c) {
                out.push(Action {
                    title,
                    kind: CodeActionKind::QUICKFIX,
                    edits,
                    diagnostic: Some(i),
                });
            }
        }
    }
    if let Some(g) = v.game_at(start) {
        out.extend(
            game_actions(&g, start - g.base)
                .into_iter()
                .map(|(title, kind, edits)| Action {
                    title,
                    kind,
                    edits,
                    diagnostic: None,
                }),
        );
    }
    out.into_iter()
        .map(|a| {
            let Action {
                title,
                kind,
                edits,
                diagnostic: diag,
            } = a;
            let preferred = diag.is_some();
            let edits: Vec<TextEdit> = edits
                .into_iter()
                .map(|e| TextEdit::new(v.range(e.start, e.end), e.text))
                .collect();
            let diagnostics = diag.map(|i| vec![to_lsp(uri, v.text, v.index, &diagnostics[i])]);
            CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(kind),
                diagnostics,
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), edits)])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: preferred.then_some(true),
                ..CodeAction::default()
            })
        })
        .collect()
}

/// The edit of a diagnostic's unambiguous repair.
fn repair(v: &View<'_>, c: &CheckDiagnostic) -> Option<(String, Vec<Edit>)> {
    let span = c.span()?;
    let written = v.text.get(span.start..span.end)?.to_owned();
    if let Some(Rewrite::Renumber { number }) = c.rewrite {
        return Some((
            format!("Renumber {written} as {number}"),
            vec![Edit {
                start: span.start,
                end: span.end,
                text: number.to_string(),
            }],
        ));
    }
    let s = c.repair.as_ref()?;
    match s.repair {
        Repair::Replace => {
            // Written as the record writes its moves (its sign convention and letters).
            let g = v.game_at(span.start)?;
            let doc = g.doc()?;
            let token = bao_notation::Span::new(span.start - g.base, span.end - g.base);
            let before = doc.move_of(token)?.plies().next()?.before;
            let mv = doc.spell(&c.fix.unwrap_or(s.mv), &before);
            Some((
                format!("Replace {written} with {mv}"),
                vec![Edit {
                    start: span.start,
                    end: span.end,
                    text: mv,
                }],
            ))
        }
        Repair::Insert { .. } => {
            // Written in the record's own sign convention, as `bao check --fix` writes it.
            let g = v.game_at(span.start)?;
            let token = bao_notation::Span::new(span.start - g.base, span.end - g.base);
            // The token and the move numbers it shifts, in one change.
            let doc = g.doc()?;
            let (_, new) = bao_validate::fix::insertion(&doc, token, s.mv)?;
            let edits = in_document(
                g.base,
                bao_validate::fix::insertion_renumbered(&doc, token, s.mv)?,
            );
            Some((format!("Insert {new} before {written}"), edits))
        }
        Repair::Delete { ply } => {
            let g = v.game_at(span.start)?;
            let token = bao_notation::Span::new(span.start - g.base, span.end - g.base);
            // The ply and the move numbers it shifts, in one change.
            let edits = in_document(
                g.base,
                bao_validate::fix::deletion_renumbered(&g.doc()?, token)?,
            );
            Some((format!("Delete {written} (ply {ply})"), edits))
        }
        Repair::Earlier { ply, .. } => {
            let g = v.game_at(span.start)?;
            let chunk = v.text.get(g.base..)?;
            let token = bao_notation::Span::new(span.start - g.base, span.end - g.base);
            let (at, new) =
                bao_validate::fix::earlier_repair_edit(&g.doc()?, token, s.repair, s.mv)?;
            let old = chunk.get(at.start..at.end)?.to_owned();
            Some((
                format!("Replace {old} with {new} at ply {ply}"),
                vec![Edit {
                    start: g.base + at.start,
                    end: g.base + at.end,
                    text: new,
                }],
            ))
        }
        Repair::Swap { ply, with_ply, .. } => {
            let g = v.game_at(span.start)?;
            let token = bao_notation::Span::new(span.start - g.base, span.end - g.base);
            let first = g.doc()?.move_of(token)?;
            let later = first.following(with_ply.checked_sub(ply)?)?;
            // Each move moves with its NAGs and annotation.
            let (a, b) = (first.extent(), later.extent());
            let base = g.base;
            let text_a = v.text.get(base + a.start..base + a.end)?.to_owned();
            let text_b = v.text.get(base + b.start..base + b.end)?.to_owned();
            Some((
                format!("Swap {text_a} and {text_b} (plies {ply} and {with_ply})"),
                vec![
                    Edit {
                        start: base + a.start,
                        end: base + a.end,
                        text: text_b,
                    },
                    Edit {
                        start: base + b.start,
                        end: base + b.end,
                        text: text_a,
                    },
                ],
            ))
        }
    }
}

/// The actions on the game at `local` (an offset in its chunk): the result it reached, the
/// `Directions` its moves need, the engine's annotations on the move there and on the game.
fn game_actions(g: &GameAt, local: usize) -> Vec<(String, CodeActionKind, Vec<Edit>)> {
    let mut out = Vec::new();
    let game = &g.game().value;
    let Some(replayed) = g.replayed() else {
        return out;
    };
    let base = g.base;
    // The result reached.
    if let Some(Some(outcome)) = replayed.final_outcome() {
        if let Some(result) = result_of(Some(&outcome)) {
            let mut edits = Vec::new();
            match &game.result {
                Some(r) if r.value != result => edits.push(Edit {
                    start: base + r.span.start,
                    end: base + r.span.end,
                    text: result.as_str().to_owned(),
                }),
                Some(_) => {}
                None => {
                    let at = game
                        .movetext
                        .last()
                        .map_or(g.game().span.end, |e| e.span.end);
                    edits.push(Edit {
                        start: base + at,
                        end: base + at,
                        text: format!(" {}", result.as_str()),
                    });
                }
            }
            if let Some(tag) = game.tag("Result") {
                if GameResult::from_token(&tag.value) != Some(result) {
                    edits.push(value_edit(base, tag, result.as_str()));
                }
            }
            if !edits.is_empty() {
                out.push((
                    format!("Insert the result the game reached ({})", result.as_str()),
                    CodeActionKind::QUICKFIX,
                    edits,
                ));
            }
        }
    }
    // The sign convention.
    if let Some(opening) = replayed.opening() {
        if !main_line_replays(game, opening.start, opening.directions) {
            let fits = [Directions::Mover, Directions::South, Directions::Clockwise]
                .into_iter()
                .find(|d| *d != opening.directions && main_line_replays(game, opening.start, *d));
            if let Some(d) = fits {
                let edit = match game.tag("Directions") {
                    Some(tag) => value_edit(base, tag, d.name()),
                    None => {
                        let at = game.tags.last().map_or(g.game().span.start, |t| t.span.end);
                        let text = if game.tags.is_empty() {
                            format!("[Directions \"{}\"]\n", d.name())
                        } else {
                            format!("\n[Directions \"{}\"]", d.name())
                        };
                        Edit {
                            start: base + at,
                            end: base + at,
                            text,
                        }
                    }
                };
                out.push((
                    format!(
                        "Set [Directions \"{}\"]: the moves replay under it",
                        d.name()
                    ),
                    CodeActionKind::QUICKFIX,
                    vec![edit],
                ));
            }
        }
    }
    // The engine's annotation of the move here.
    if let Some(m) = g.doc().and_then(|d| d.move_at(local)) {
        let (item, ply) = (m.written(), m.plies().next());
        if let Some((p, ply)) = ply.and_then(|ply| Some((ply.played()?, ply))) {
            if let Some(engine) = p.annotation() {
                let text = engine.to_string();
                let edit = match &item.annotation {
                    Some(a) if a.value.to_string() != text => Some(Edit {
                        start: base + a.span.start,
                        end: base + a.span.end,
                        text,
                    }),
                    Some(_) => None,
                    None => Some(Edit {
                        start: base + ply.span.end,
                        end: base + ply.span.end,
                        text: format!(" {text}"),
                    }),
                };
                if let Some(e) = edit {
                    out.push((
                        "Add the engine's annotation to this move".to_owned(),
                        CodeActionKind::REFACTOR_REWRITE,
                        vec![e],
                    ));
                }
            }
        }
    }
    // The engine's annotations of the whole game, edited in place (only the tokens whose
    // marks change and the annotations).
    if let Some(doc) = g.doc() {
        let edits = in_document(base, annotation_edits(&doc));
        if !edits.is_empty() {
            out.push((
                "Add the engine's annotations to this game".to_owned(),
                CodeActionKind::REFACTOR_REWRITE,
                edits,
            ));
        }
    }
    out
}

/// An edit of a tag's value (its span holds the quotes).
fn value_edit(base: usize, value: &bao_notation::Spanned<String>, text: &str) -> Edit {
    Edit {
        start: base + value.span.start,
        end: base + value.span.end,
        text: format!("\"{text}\""),
    }
}
