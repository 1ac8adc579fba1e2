//! The engine's lap/capture annotation of a move (the items of `spec/notation.md` §4), and
//! comparing it with a written one.

use std::ops::ControlFlow;

use bao_core::{LapEnd, LapSource, MoveTrace, Position};
use bao_notation::{Annotation, AnnotationItem, ItemKind, Spanned};

/// The annotation items of a move, in the order of the move: every capture (`xa5:3`), and
/// the end of every lap that does not end in a capture (`A6:4`, the seeds in that pit once
/// the last seed has landed). Captures of the namua placement come first. A move that never
/// ends has the items of its laps up to the end of the lap its cycle starts from (its
/// annotation then ends with the cycle item, [`engine_annotation`]).
#[must_use]
pub fn engine_items(trace: &MoveTrace, next: &Position) -> Vec<AnnotationItem> {
    let mut items: Vec<AnnotationItem> =
        Vec::with_capacity(trace.captures.len() + trace.laps.len());
    each_item(trace, next, Laps::UpToCycle, |i| items.push(i));
    items
}

/// The engine's annotation of a move from its items ([`engine_items`]): the items, and the
/// cycle item of a move that never ends (`[A4:2 cycle:1+228]`); `None` when it has neither
/// (a move with no lap and no capture).
#[must_use]
pub fn engine_annotation(items: &[AnnotationItem], trace: &MoveTrace) -> Option<Annotation> {
    let cycle = trace.never_ending.map(Spanned::bare);
    (!items.is_empty() || cycle.is_some()).then(|| Annotation {
        items: items.iter().copied().map(Spanned::bare).collect(),
        cycle,
    })
}

/// Which laps of a never-ending move give items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Laps {
    /// Up to the end of the lap the cycle starts from.
    UpToCycle,
    /// Every lap the trace keeps (the engine's run until it found the cycle): what lap
    /// channels written before the cycle item existed list.
    AllKept,
}

/// Calls `f` with every item of [`engine_items`], in order, building no list.
fn each_item(trace: &MoveTrace, next: &Position, laps: Laps, mut f: impl FnMut(AnnotationItem)) {
    // Never stopped early.
    let _ = each_item_until(trace, next, laps, |i| {
        f(i);
        ControlFlow::Continue(())
    });
}

/// [`each_item`], stopped when `f` breaks.
#[inline]
fn each_item_until(
    trace: &MoveTrace,
    next: &Position,
    laps: Laps,
    mut f: impl FnMut(AnnotationItem) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let last_lap = match (laps, trace.never_ending) {
        (Laps::UpToCycle, Some(ne)) => ne.cycle_start_lap,
        _ => u64::MAX,
    };
    let capture = |c: &bao_core::Capture| AnnotationItem {
        kind: ItemKind::Capture,
        pit: c.pit,
        seeds: Some(c.seeds),
    };
    // The captures come in the order of the laps whose ends made them (`after_lap` never
    // decreases: the engine numbers laps upwards), those of the namua placement (lap 0)
    // first; one cursor walks them alongside the laps.
    let captures = &trace.captures;
    let mut c = 0;
    while let Some(cap) = captures.get(c).filter(|cap| cap.after_lap == 0) {
        f(capture(cap))?;
        c += 1;
    }
    let complete = trace.laps_total == trace.laps.len() as u64;
    for (i, lap) in trace.laps.iter().enumerate() {
        if lap.number > last_lap {
            break;
        }
        if lap.ended == LapEnd::Capture {
            while captures
                .get(c)
                .is_some_and(|cap| cap.after_lap < lap.number)
            {
                c += 1;
            }
            while let Some(cap) = captures.get(c).filter(|cap| cap.after_lap == lap.number) {
                f(capture(cap))?;
                c += 1;
            }
            continue;
        }
        let seeds = match trace.laps.get(i + 1) {
            Some(n) if n.source == LapSource::Lifted && n.start == lap.end => {
                u8::try_from(n.seeds).ok()
            }
            None if complete => Some(next.get(lap.end)),
            _ => None,
        };
        f(AnnotationItem {
            kind: ItemKind::LapEnd,
            pit: lap.end,
            seeds,
        })?;
    }
    ControlFlow::Continue(())
}

/// How many items an [`ItemList`] holds without allocating (96% of the moves of the
/// validator's Kiswahili benchmark games have at most this many).
const INLINE_ITEMS: usize = 10;

/// The annotation items of one move (see [`engine_items`]); a slice through `Deref`. A few
/// items are kept inline, so that recording the items of a usual move allocates nothing.
#[derive(Clone)]
pub struct ItemList(ItemRepr);

#[derive(Clone)]
enum ItemRepr {
    Inline(u8, [AnnotationItem; INLINE_ITEMS]),
    Heap(Vec<AnnotationItem>),
}

/// The filler of unused inline room (never read).
const NO_ITEM: AnnotationItem = AnnotationItem {
    kind: ItemKind::LapEnd,
    pit: bao_core::Pit::from_ring(bao_core::Side::South, 0),
    seeds: None,
};

impl ItemList {
    /// An empty list.
    #[must_use]
    pub const fn new() -> Self {
        Self(ItemRepr::Inline(0, [NO_ITEM; INLINE_ITEMS]))
    }

    /// The items of a move, as [`engine_items`] gives them.
    #[must_use]
    pub fn of_move(trace: &MoveTrace, next: &Position) -> Self {
        let mut list = Self::new();
        list.extend_from_move(trace, next);
        list
    }

    /// Appends the items of a move, as [`engine_items`] gives them.
    #[inline]
    pub fn extend_from_move(&mut self, trace: &MoveTrace, next: &Position) {
        each_item(trace, next, Laps::UpToCycle, |i| self.push(i));
    }

    /// Appends an item.
    #[inline]
    pub fn push(&mut self, item: AnnotationItem) {
        match &mut self.0 {
            ItemRepr::Inline(len, items) => {
                let n = usize::from(*len);
                if n < INLINE_ITEMS {
                    items[n] = item;
                    *len += 1;
                } else {
                    let mut v = Vec::with_capacity(2 * INLINE_ITEMS);
                    v.extend_from_slice(items);
                    v.push(item);
                    self.0 = ItemRepr::Heap(v);
                }
            }
            ItemRepr::Heap(v) => v.push(item),
        }
    }

    /// The items.
    #[must_use]
    #[inline]
    pub fn as_slice(&self) -> &[AnnotationItem] {
        match &self.0 {
            ItemRepr::Inline(len, items) => &items[..usize::from(*len)],
            ItemRepr::Heap(v) => v,
        }
    }
}

impl Default for ItemList {
    fn default() -> Self {
        Self::new()
    }
}

impl std::ops::Deref for ItemList {
    type Target = [AnnotationItem];
    #[inline]
    fn deref(&self) -> &[AnnotationItem] {
        self.as_slice()
    }
}

impl PartialEq for ItemList {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for ItemList {}

impl std::fmt::Debug for ItemList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl From<Vec<AnnotationItem>> for ItemList {
    fn from(v: Vec<AnnotationItem>) -> Self {
        let mut list = Self::new();
        for i in v {
            list.push(i);
        }
        list
    }
}

/// Which channels of a written annotation disagree with the engine's items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Disagreement {
    /// The captures written differ.
    pub captures: bool,
    /// The lap ends written differ.
    pub laps: bool,
}

/// Whether the items of channel `kind` written equal the engine's; with `claimed`, the
/// channel is compared even when none of its items is written.
fn channel_agrees<'a>(
    written: impl Iterator<Item = &'a AnnotationItem>,
    actual: &[AnnotationItem],
    kind: ItemKind,
    claimed: bool,
) -> bool {
    // Walks both channels together, allocating nothing (this runs on every annotated ply).
    let mut w = written.filter(|i| i.kind == kind).peekable();
    if w.peek().is_none() && !claimed {
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
    agrees_iter(written.iter(), actual)
}

/// [`agrees`] on the items as the record holds them (no list of them built).
///
/// # Errors
/// The channels that differ.
pub fn agrees_written(
    written: &[Spanned<AnnotationItem>],
    actual: &[AnnotationItem],
) -> Result<(), Disagreement> {
    // The usual case first: the annotation written in full, item for item the engine's
    // (then both channels agree).
    if written.len() == actual.len() && written.iter().zip(actual).all(|(w, a)| w.value == *a) {
        return Ok(());
    }
    agrees_iter(written.iter().map(|i| &i.value), actual)
}

/// [`agrees`] on any sequence of written items.
fn agrees_iter<'a>(
    written: impl Iterator<Item = &'a AnnotationItem> + Clone,
    actual: &[AnnotationItem],
) -> Result<(), Disagreement> {
    let d = Disagreement {
        captures: !channel_agrees(written.clone(), actual, ItemKind::Capture, false),
        laps: !channel_agrees(written, actual, ItemKind::LapEnd, false),
    };
    if d.captures || d.laps {
        Err(d)
    } else {
        Ok(())
    }
}

/// Compares a written annotation with a move as [`annotation_agrees`] does with the move's
/// items ([`engine_items`] of `trace` and `next`), without building them when the annotation
/// is written in full, item for item the engine's (the usual case): each item is compared
/// as the engine's items are worked out. Otherwise (an item differs, a channel is left out,
/// a cycle) the items are built and [`annotation_agrees`] decides.
///
/// # Errors
/// The channels that differ.
pub fn annotation_agrees_move(
    written: &Annotation,
    trace: &MoveTrace,
    next: &Position,
) -> Result<(), Disagreement> {
    if written.cycle.is_none() && trace.never_ending.is_none() {
        let mut w = written.items.iter();
        let same = each_item_until(trace, next, Laps::UpToCycle, |a| match w.next() {
            Some(x) if x.value == a => ControlFlow::Continue(()),
            _ => ControlFlow::Break(()),
        });
        if same.is_continue() && w.next().is_none() {
            return Ok(());
        }
    }
    annotation_agrees(written, &ItemList::of_move(trace, next), trace, next)
}

/// Compares a written annotation with a move: its items with the engine's `items`
/// ([`engine_items`] of `trace` and `next`), and its cycle item with the move's cycle.
///
/// A cycle item belongs to the lap channel: written, it claims that the move never ends with
/// that cycle and that the lap ends written (none, if none is) are those up to the end of
/// the lap the cycle starts from. A lap channel written without the cycle item for a move
/// that never ends is compared with the lap ends of every lap the engine ran until it found
/// the cycle (what `bao annotate` wrote before the cycle item), so such records still check.
///
/// # Errors
/// The channels that differ.
pub fn annotation_agrees(
    written: &Annotation,
    items: &[AnnotationItem],
    trace: &MoveTrace,
    next: &Position,
) -> Result<(), Disagreement> {
    match (written.cycle.as_ref().map(|c| c.value), trace.never_ending) {
        (None, None) => agrees_written(&written.items, items),
        (Some(claimed), actual) => {
            let mut d = agrees_written(&written.items, items)
                .err()
                .unwrap_or_default();
            d.laps = actual != Some(claimed)
                || !channel_agrees(
                    written.items.iter().map(|i| &i.value),
                    items,
                    ItemKind::LapEnd,
                    true,
                );
            if d.captures || d.laps {
                Err(d)
            } else {
                Ok(())
            }
        }
        (None, Some(_)) => {
            let mut d = agrees_written(&written.items, items)
                .err()
                .unwrap_or_default();
            let laps_written = written
                .items
                .iter()
                .any(|i| i.value.kind == ItemKind::LapEnd);
            d.laps = laps_written && {
                let mut all = Vec::with_capacity(trace.laps.len() + trace.captures.len());
                each_item(trace, next, Laps::AllKept, |i| all.push(i));
                !channel_agrees(
                    written.items.iter().map(|i| &i.value),
                    &all,
                    ItemKind::LapEnd,
                    false,
                )
            };
            if d.captures || d.laps {
                Err(d)
            } else {
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use bao_core::{LapEnd, LapSource, MoveTrace, Position, RuleSet, PRESET_NAMES};
    use bao_notation::{Annotation, AnnotationItem, ItemKind, Spanned};

    use super::{
        agrees, agrees_written, annotation_agrees, annotation_agrees_move, engine_items, ItemList,
        INLINE_ITEMS,
    };

    /// The items as first written: every lap scanning every capture for its own (the
    /// reference for the cursor of `each_item`).
    fn reference_items(trace: &MoveTrace, next: &Position) -> Vec<AnnotationItem> {
        let capture = |c: &bao_core::Capture| AnnotationItem {
            kind: ItemKind::Capture,
            pit: c.pit,
            seeds: Some(c.seeds),
        };
        let mut items: Vec<AnnotationItem> = trace
            .captures
            .iter()
            .filter(|c| c.after_lap == 0)
            .map(capture)
            .collect();
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

    /// A small deterministic generator.
    fn lcg(seed: u64) -> impl FnMut(usize) -> usize {
        bao_testkit::Lcg::new(seed).picker()
    }

    /// Every move of random capped games under every preset, with its trace and the next
    /// position.
    fn random_moves() -> Vec<(MoveTrace, Position)> {
        let mut out = Vec::new();
        for (k, name) in PRESET_NAMES.iter().enumerate() {
            let mut rules = RuleSet::preset(name).expect("preset");
            rules.set_option("endless_move", "cap:800").expect("option");
            for game in 0..6u64 {
                let mut pick = lcg(7919 * k as u64 + game);
                let mut pos = Position::start(rules);
                while let Some((mv, _)) = pos.random_move(&mut pick) {
                    let (next, trace) = pos.play_unchecked(&mv);
                    out.push((trace, next));
                    pos = next;
                }
            }
        }
        out
    }

    /// Written forms of an annotation: as the engine gives it, one channel, seeds left out,
    /// an item dropped, a pit or a seed count changed.
    fn variants(items: &[AnnotationItem], k: usize) -> Vec<Vec<AnnotationItem>> {
        let mut out = vec![items.to_vec()];
        for kind in [ItemKind::Capture, ItemKind::LapEnd] {
            out.push(items.iter().copied().filter(|i| i.kind == kind).collect());
        }
        out.push(
            items
                .iter()
                .map(|i| AnnotationItem { seeds: None, ..*i })
                .collect(),
        );
        if !items.is_empty() {
            let at = k % items.len();
            let mut dropped = items.to_vec();
            dropped.remove(at);
            out.push(dropped);
            let mut seeds = items.to_vec();
            seeds[at].seeds = Some(seeds[at].seeds.map_or(1, |s| s.wrapping_add(1)));
            out.push(seeds);
            let mut pit = items.to_vec();
            pit[at].pit =
                bao_core::Pit::from_ring(pit[at].pit.side(), (pit[at].pit.ring() + 1) % 16);
            out.push(pit);
        }
        out
    }

    #[test]
    fn items_agree_with_the_reference_and_comparisons_with_agrees() {
        let moves = random_moves();
        let mut spilled = 0;
        for (k, (trace, next)) in moves.iter().enumerate() {
            let want = reference_items(trace, next);
            assert_eq!(engine_items(trace, next), want, "{trace:?}");
            let list = ItemList::of_move(trace, next);
            assert_eq!(list.as_slice(), want.as_slice(), "{trace:?}");
            assert_eq!(list, ItemList::from(want.clone()));
            if want.len() > INLINE_ITEMS {
                spilled += 1;
            }
            for written in variants(&want, k) {
                let spanned: Vec<_> = written.iter().copied().map(Spanned::bare).collect();
                assert_eq!(
                    agrees_written(&spanned, &list),
                    agrees(&written, &want),
                    "{written:?} against {want:?}"
                );
                // Compared as the items are worked out, as against the list.
                let annotation = Annotation {
                    items: spanned,
                    cycle: trace.never_ending.map(Spanned::bare),
                };
                assert_eq!(
                    annotation_agrees_move(&annotation, trace, next),
                    annotation_agrees(&annotation, &list, trace, next),
                    "{written:?} against {want:?}"
                );
            }
        }
        assert!(moves.len() > 1000, "only {} moves", moves.len());
        assert!(
            spilled > 10,
            "only {spilled} moves with more than {INLINE_ITEMS} items"
        );
    }
}
