//! The engine's lap/capture annotation of a move, comparing it with a written one, and
//! writing a fully annotated record.

use bao_core::{LapEnd, LapSource, MoveTrace, Position};
use bao_notation::{Annotation, AnnotationItem, Element, ItemKind, MoveItem, Record, Spanned};

use crate::replay::Played;

/// The annotation items of a move, in the order of the move: every capture (`xa5:3`), and
/// the end of every lap that does not end in a capture (`A6:4`, the seeds in that pit once
/// the last seed has landed). Captures of the namua placement come first.
#[must_use]
pub fn engine_items(trace: &MoveTrace, next: &Position) -> Vec<AnnotationItem> {
    let capture = |c: &bao_core::Capture| AnnotationItem {
        kind: ItemKind::Capture,
        pit: c.pit,
        seeds: Some(c.seeds),
    };
    let mut items: Vec<AnnotationItem> =
        Vec::with_capacity(trace.captures.len() + trace.laps.len());
    items.extend(
        trace
            .captures
            .iter()
            .filter(|c| c.after_lap == 0)
            .map(capture),
    );
    let complete = trace.laps_total == trace.laps.len() as u64;
    for (i, lap) in trace.laps.iter().enumerate() {
        if lap.ended == LapEnd::Capture {
            items.extend(
                trace
                    .captures
                    .iter()
                    .filter(|c| c.after_lap == lap.number)
                    .map(capture),
            );
            continue;
        }
        let seeds = match trace.laps.get(i + 1) {
            Some(n) if n.source == LapSource::Lifted && n.start == lap.end => {
                u8::try_from(n.seeds).ok()
            }
            None if complete => Some(next.get(lap.end)),
            _ => None,
        };
        items.push(AnnotationItem {
            kind: ItemKind::LapEnd,
            pit: lap.end,
            seeds,
        });
    }
    items
}

/// Which channels of a written annotation disagree with the engine's items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Disagreement {
    /// The captures written differ.
    pub captures: bool,
    /// The lap ends written differ.
    pub laps: bool,
}

fn channel_agrees(written: &[AnnotationItem], actual: &[AnnotationItem], kind: ItemKind) -> bool {
    // Walks both channels together, allocating nothing (this runs on every annotated ply).
    let mut w = written.iter().filter(|i| i.kind == kind).peekable();
    if w.peek().is_none() {
        return true;
    }
    let mut a = actual.iter().filter(|i| i.kind == kind);
    loop {
        match (w.next(), a.next()) {
            (None, None) => return true,
            (Some(w), Some(a))
                if w.pit == a.pit
                    && (w.seeds.is_none() || a.seeds.is_none() || w.seeds == a.seeds) => {}
            _ => return false,
        }
    }
}

/// Compares a written annotation with the engine's items, channel by channel: a channel
/// with no item written is not compared.
///
/// # Errors
/// The channels that differ.
pub fn agrees(written: &[AnnotationItem], actual: &[AnnotationItem]) -> Result<(), Disagreement> {
    let d = Disagreement {
        captures: !channel_agrees(written, actual, ItemKind::Capture),
        laps: !channel_agrees(written, actual, ItemKind::LapEnd),
    };
    if d.captures || d.laps {
        Err(d)
    } else {
        Ok(())
    }
}

/// Writes items as an annotation, `[xa5:3 A6:2]`.
#[must_use]
pub fn items_text(items: &[AnnotationItem]) -> String {
    let a = Annotation {
        items: items.iter().copied().map(Spanned::bare).collect(),
    };
    a.to_string()
}

/// The record with every replayed move annotated by the engine: its captures and lap ends,
/// `**` on a takasa that creates a takasia and `#` on a winning move (claims the engine
/// does not confirm are removed). Moves that could not be replayed are left as written.
#[must_use]
pub fn annotate_record(record: &Record, played: &[Vec<Played>]) -> Record {
    let mut out = record.clone();
    for (g, game) in out.games.iter_mut().enumerate() {
        let Some(list) = played.get(g) else { continue };
        annotate_elements(&mut game.value.movetext, list);
    }
    out
}

fn annotate_elements(elems: &mut [Spanned<Element>], played: &[Played]) {
    for e in elems {
        match &mut e.value {
            Element::Move(item) => annotate_item(item, played),
            Element::Variation(v) => annotate_elements(v, played),
            Element::Comment(_) => {}
        }
    }
}

fn annotate_item(item: &mut MoveItem, played: &[Played]) {
    let start = item.token.span.start;
    let Ok(i) = played.binary_search_by_key(&start, |p| p.token_start) else {
        return;
    };
    let p = &played[i];
    let token = &mut item.token.value;
    token.claims_takasia = p.takasia;
    if p.takasia {
        token.takasa = true;
    }
    token.claims_win = p.wins;
    item.annotation = (!p.items.is_empty()).then(|| {
        Spanned::bare(Annotation {
            items: p.items.iter().copied().map(Spanned::bare).collect(),
        })
    });
}
