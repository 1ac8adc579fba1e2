//! Finding things of a replayed game at an offset: the ply under the cursor, the position
//! where a move would be written, the move item of a ply. Offsets here are relative to the
//! game's chunk, as the game's spans are.

use bao_core::Position;
use bao_notation::{Element, MoveItem, Span, Spanned};
use bao_replay::{Ply, ReplayedLine};

/// Every ply of a line and its variations, in the order read.
pub(crate) fn plies(line: &ReplayedLine) -> Vec<&Ply> {
    let mut out = Vec::new();
    let mut stack = vec![line];
    while let Some(l) = stack.pop() {
        for p in &l.plies {
            out.push(p);
            stack.extend(p.variations.iter().map(|v| &v.line));
        }
    }
    out
}

/// The ply whose token holds `at` (its end included).
pub(crate) fn ply_at(line: &ReplayedLine, at: usize) -> Option<&Ply> {
    plies(line)
        .into_iter()
        .find(|p| p.span.start <= at && at <= p.span.end)
}

/// Where a move written at `at` would be played: the position, and the token it would
/// replace (when `at` is on one). `None` when the line is broken before `at` (a refused
/// move), or the line does not reach it.
pub(crate) fn cursor(
    line: &ReplayedLine,
    elems: &[Spanned<Element>],
    start: Position,
    at: usize,
) -> Option<(Position, Option<Span>)> {
    for p in &line.plies {
        for v in &p.variations {
            let Some(e) = elems.get(v.element) else {
                continue;
            };
            if e.span.start < at && at < e.span.end {
                if let Element::Variation(sub) = &e.value {
                    return cursor(&v.line, sub, p.before, at);
                }
            }
        }
    }
    if let Some(p) = line
        .plies
        .iter()
        .find(|p| p.span.start <= at && at <= p.span.end)
    {
        return Some((p.before, Some(p.span)));
    }
    match line.plies.iter().rev().find(|p| p.span.end < at) {
        Some(p) => p.played().map(|pl| (pl.after, None)),
        None => Some((start, None)),
    }
}

/// The move item whose token has this span, anywhere in the elements.
pub(crate) fn item_at(elems: &[Spanned<Element>], token: Span) -> Option<&MoveItem> {
    let mut stack = vec![elems];
    while let Some(list) = stack.pop() {
        for e in list {
            match &e.value {
                Element::Move(m) if m.token.span == token => return Some(m),
                Element::Variation(v) => stack.push(v),
                _ => {}
            }
        }
    }
    None
}

/// The move item whose token is `token`, and the one written `distance` moves after it in
/// the same line of elements.
pub(crate) fn later_item(
    elems: &[Spanned<Element>],
    token: Span,
    distance: usize,
) -> Option<(&MoveItem, &MoveItem)> {
    let mut stack = vec![elems];
    while let Some(list) = stack.pop() {
        let here = list
            .iter()
            .position(|e| matches!(&e.value, Element::Move(m) if m.token.span == token));
        if let Some(i) = here {
            let Element::Move(first) = &list[i].value else {
                return None;
            };
            let later = list[i + 1..]
                .iter()
                .filter_map(|e| match &e.value {
                    Element::Move(m) => Some(m),
                    _ => None,
                })
                .nth(distance.checked_sub(1)?)?;
            return Some((first, later));
        }
        stack.extend(list.iter().filter_map(|e| match &e.value {
            Element::Variation(v) => Some(v.as_slice()),
            _ => None,
        }));
    }
    None
}

/// A move item's text without its number: the token, its NAGs and its annotation.
pub(crate) fn item_span(m: &MoveItem) -> Span {
    let end = m
        .nags
        .iter()
        .map(|n| n.span.end)
        .chain(m.annotation.iter().map(|a| a.span.end))
        .fold(m.token.span.end, usize::max);
    Span::new(m.token.span.start, end)
}
