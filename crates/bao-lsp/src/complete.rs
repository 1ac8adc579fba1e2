//! Completion: the legal moves where a move is written (captures first), tag names and
//! tag values.

use bao_core::{Engine, Position, OPTION_VALUES, PRESET_NAMES};
use bao_notation::meaning::{tag_meaning, TERMINATION_VALUES};
use bao_notation::{Directions, Notation, KNOWN_TAGS};
use bao_validate::words::move_description_in;
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionTextEdit, Documentation, TextEdit,
};

use crate::document::View;

/// The completion at a byte offset of the document.
pub(crate) fn complete(v: &View<'_>, offset: usize, laps: u64) -> Option<CompletionList> {
    let line_start = v.text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let before = &v.text[line_start..offset];
    if before.trim_start().starts_with('[') {
        return Some(tag_items(before));
    }
    let g = v.game_at(offset)?;
    let local = offset - g.base;
    let game = &g.game().value;
    if in_comment(game, local) {
        return None;
    }
    let doc = g.doc()?;
    let opening = doc.opening()?;
    let (pos, replace) = doc.position_at(local)?;
    let replace = replace.map(|s| (g.base + s.start, g.base + s.end));
    let (items, incomplete) = move_items(v.lang(), &pos, laps, opening.directions, doc.notation());
    let range = replace.map(|(a, b)| v.range(a, b));
    let items = items
        .into_iter()
        .map(|mut item| {
            if let Some(range) = range {
                item.text_edit = Some(CompletionTextEdit::Edit(TextEdit::new(
                    range,
                    item.label.clone(),
                )));
            }
            item
        })
        .collect();
    Some(CompletionList {
        is_incomplete: incomplete,
        items,
    })
}

/// Whether `at` is inside a comment of the game.
fn in_comment(game: &bao_notation::Game, at: usize) -> bool {
    let inside = |s: bao_notation::Span| s.start < at && at < s.end;
    game.comments.iter().any(|c| inside(c.span))
        || bao_replay::Document::unreplayed(game)
            .walk()
            .any(|n| matches!(n, bao_replay::Node::Comment(_, s) if inside(s)))
}

/// The legal moves of a position as completion items, captures first (the most seeds
/// first), then the others in the order of their text; and whether the list is incomplete
/// (the lap budget ran out: no moves are offered). Each move is written as a record under
/// `directions` in `notation` writes it (its sign in that convention, K.I.B.A. letters and
/// `*` marks as the record has them: [`bao_replay::spell`]), so that the inserted token
/// reads like the record's other moves and replays as the move offered.
pub(crate) fn move_items(
    lang: bao_i18n::Lang,
    pos: &Position,
    laps: u64,
    directions: Directions,
    notation: Notation,
) -> (Vec<CompletionItem>, bool) {
    // One engine, under the budget, for the list and every move of it.
    let mut engine = Engine::new();
    let Ok(legal) = engine.within(laps, |e| e.legal_moves(pos)) else {
        return (Vec::new(), true);
    };
    let mut moves: Vec<(String, u64, String)> = legal
        .into_iter()
        .filter_map(|mv| {
            let (_, trace) = engine.within(laps, |e| e.play(pos, &mv)).ok()?.ok()?;
            let seeds: u64 = trace.captures.iter().map(|c| u64::from(c.seeds)).sum();
            let captured = if trace.captures.is_empty() {
                0
            } else {
                seeds.max(1)
            };
            let written = directions.written_move(&mv, pos);
            let mut description = move_description_in(lang, pos, &trace);
            if written != mv {
                // The sign differs from the mover's: say which move it is in both.
                description = bao_i18n::t!(
                    lang,
                    "lsp-written-under",
                    description = description,
                    mv = mv.to_string(),
                    written = written.to_string(),
                    directions = directions.to_string()
                );
            }
            let label = bao_replay::spell(&mv, pos, directions, notation);
            Some((label, captured, description))
        })
        .collect();
    // Stable: captures first, the most seeds first; the rest in text order.
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    let items = moves
        .into_iter()
        .enumerate()
        .map(|(i, (label, _, description))| CompletionItem {
            filter_text: Some(label.clone()),
            label,
            kind: Some(CompletionItemKind::VALUE),
            detail: Some(description),
            sort_text: Some(format!("{i:04}")),
            ..CompletionItem::default()
        })
        .collect();
    (items, false)
}

/// Tag names (before the value's quote) or the tag's values (inside it).
fn tag_items(before: &str) -> CompletionList {
    let after_bracket = before.trim_start().trim_start_matches('[');
    let items = match after_bracket.split_once('"') {
        None => KNOWN_TAGS
            .iter()
            .chain(std::iter::once(&"Rules"))
            .map(|name| CompletionItem {
                label: (*name).to_owned(),
                kind: Some(CompletionItemKind::PROPERTY),
                documentation: tag_meaning(name).map(|m| Documentation::String(m.to_owned())),
                ..CompletionItem::default()
            })
            .collect(),
        Some((name, value)) => tag_values(name.trim(), value),
    };
    CompletionList {
        is_incomplete: false,
        items,
    }
}

/// The values offered for a tag, given the value typed so far.
fn tag_values(name: &str, typed: &str) -> Vec<CompletionItem> {
    let value = |label: String, detail: &str| CompletionItem {
        label,
        kind: Some(CompletionItemKind::ENUM_MEMBER),
        detail: Some(detail.to_owned()),
        ..CompletionItem::default()
    };
    let options = || {
        OPTION_VALUES.iter().flat_map(|(option, values)| {
            values
                .iter()
                .map(move |v| value(format!("{option}={v}"), "a rule option"))
        })
    };
    match name {
        "RuleSet" if !typed.contains(' ') => PRESET_NAMES
            .iter()
            .map(|p| value((*p).to_owned(), "a preset"))
            .collect(),
        "RuleSet" | "Rules" => options().collect(),
        "Termination" => TERMINATION_VALUES
            .iter()
            .enumerate()
            .map(|(i, t)| {
                value(
                    (*t).to_owned(),
                    if i < 5 {
                        "an ending by the rules"
                    } else {
                        "an ending outside the rules"
                    },
                )
            })
            .collect(),
        "Result" => [
            ("1-0", "South wins"),
            ("0-1", "North wins"),
            ("1/2-1/2", "a draw"),
            ("*", "unknown or going on"),
        ]
        .iter()
        .map(|(r, d)| value((*r).to_owned(), d))
        .collect(),
        "Directions" => [Directions::Mover, Directions::South, Directions::Clockwise]
            .iter()
            .map(|d| value(d.name().to_owned(), "a sign convention"))
            .collect(),
        _ => Vec::new(),
    }
}
