//! Hover: a move's board, trace and alternatives; a tag's meaning; a diagnostic's rule.

use std::fmt::Write as _;

use bao_export::{board_text, Overlay, TextOptions};
use bao_notation::meaning::tag_meaning;
use bao_notation::Directions;
use bao_validate::AnyDiagnostic;
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};
use miette::Diagnostic as _;

use crate::board::side_title;
use crate::document::View;

/// The hover at a byte offset of the document, if there is anything to show.
pub(crate) fn hover(v: &View<'_>, offset: usize, laps: u64) -> Option<Hover> {
    let mut parts: Vec<String> = Vec::new();
    if let Some(g) = v.game_at(offset) {
        let local = offset - g.base;
        let game = &g.game().value;
        if let Some(tag) = game
            .tags
            .iter()
            .find(|t| t.span.start <= local && local <= t.span.end)
        {
            let name = &tag.value.name.value;
            let meaning = tag_meaning(name)
                .unwrap_or("A tag of the record's own (not one of the known tags).");
            parts.push(format!("**[{name}]** {meaning}"));
        } else if let Some(doc) = g.doc() {
            if let Some(ply) = doc.move_at(local).and_then(|m| m.plies().next()) {
                let directions = doc.opening().map_or(Directions::Mover, |o| o.directions);
                match assumed(v, offset, Some(ply)) {
                    Some(text) => parts.push(text),
                    None => parts.push(ply_text(ply, laps, directions)),
                }
            } else if let Some(text) = assumed(v, offset, None) {
                // After an illegal ply: nothing replayed here as written.
                parts.push(text);
            }
        }
    }
    for d in v.analysis.diagnostics_over(offset, offset) {
        parts.push(rule_text(&d));
    }
    (!parts.is_empty()).then(|| Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: parts.join("\n\n---\n\n"),
        }),
        range: None,
    })
}

/// The hover of a ply the replay as written did not play (illegal here, or after an
/// illegal ply), as `bao check --assume-fixes` replays it: the repair played here, or the
/// written move after an earlier repair, with its board. `None` when the ply was played as
/// written, or when no repair gives a board here.
fn assumed(v: &View<'_>, offset: usize, plain: Option<&bao_replay::Ply>) -> Option<String> {
    if plain.is_some_and(|p| p.played().is_some()) {
        return None;
    }
    let at = crate::board::ply_at(v, offset)?;
    let played = at.ply.played()?;
    let mut s = format!(
        "**Ply {}**, {} to move: `{}` ",
        at.ply.number,
        side_title(at.ply.mover()),
        at.written
    );
    let spelled = at.spelled.clone().unwrap_or_default();
    match &at.assumes {
        Some((a, mv)) if at.repaired => {
            let _ = write!(s, "is not legal here; as `bao check --assume-fixes` replays it, `{spelled}` is played");
            if a.ply != at.ply.number {
                let _ = write!(s, " (assuming `{mv}` at ply {})", a.ply);
            }
        }
        Some((a, mv)) => {
            let _ = write!(
                s,
                "after an illegal ply: as `bao check --assume-fixes` replays the game (`{mv}` at ply {})",
                a.ply
            );
        }
        None => {
            let _ = write!(s, "as `bao check --assume-fixes` replays it: `{spelled}`");
        }
    }
    let board = board_text(&played.after, &TextOptions::default());
    let _ = write!(s, "\n\n```text\n{board}```\n\n");
    s.push_str(&Overlay::from_trace(&at.ply.before, &played.trace).summary(at.ply.before.rules()));
    Some(s)
}

/// A ply: the move, the board after it, what it did, the legal alternatives (moves
/// written as the record writes them, under `directions`).
fn ply_text(ply: &bao_replay::Ply, laps: u64, directions: Directions) -> String {
    let mut s = format!(
        "**Ply {}**, {} to move",
        ply.number,
        side_title(ply.mover())
    );
    let rules = ply.before.rules();
    match ply.played() {
        Some(p) => {
            let written = directions.written_move(&p.mv, &ply.before);
            let _ = write!(s, ": `{written}`");
            if written != p.mv {
                let _ = write!(
                    s,
                    " (`{}` from the mover's seat; [Directions \"{directions}\"])",
                    p.mv
                );
            }
            let board = board_text(&p.after, &TextOptions::default());
            let _ = write!(s, "\n\n```text\n{board}```\n\n");
            s.push_str(&Overlay::from_trace(&ply.before, &p.trace).summary(rules));
            if let Some(t) = p.takasia() {
                let _ = write!(s, "; {} {t}", rules.names().takasia);
            }
        }
        None => s.push_str(": not played (see the diagnostic)"),
    }
    match ply.before.legal_moves_within(laps) {
        Ok(legal) => {
            let others: Vec<String> = legal
                .iter()
                .filter(|m| ply.played().is_none_or(|p| p.mv != **m))
                .map(|m| format!("`{}`", directions.written_move(m, &ply.before)))
                .collect();
            if others.is_empty() {
                s.push_str("\n\nNo other legal move.");
            } else {
                let _ = write!(s, "\n\nOther legal moves: {}", others.join(" "));
            }
        }
        Err(u) => {
            let _ = write!(
                s,
                "\n\nThe legal moves are not known within the lap budget ({u})."
            );
        }
    }
    s
}

/// A diagnostic: its code, message, help and rule link.
fn rule_text(d: &AnyDiagnostic) -> String {
    let mut s = format!("**`{}`**: {d}", d.code());
    if let Some(help) = miette::Diagnostic::help(d) {
        let _ = write!(s, "\n\n{help}");
    }
    if let Some(url) = d.url() {
        let _ = write!(s, "\n\n[The rule]({url})");
    }
    s
}
