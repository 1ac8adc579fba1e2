//! The `book` theme's own drawing: square houses marked by their state, laps drawn along
//! the sowing ring, and every label in a slot of its own.
//!
//! Labels (lap numbers, captures, takasia, changes) never sit on a pit: each goes in one of
//! the 45 slots where four pits' corners meet (the crossings of the lines between columns
//! and rows, the frame's edges included). A slot holds one label and is far enough from
//! every pit and every other slot that a label of up to [`MAX_LABEL_CHARS`] characters
//! touches neither; a label finds the first free slot at its pit's corners, and one that
//! finds none is left out (the caption says everything in words).

use std::collections::BTreeSet;

use bao_core::{Direction, HouseState, Pit, RING};

use super::grid::{centre, cx, cy, Palette, PITCH, R};
use crate::layout::{column_of, screen_row_of};
use crate::overlay::Overlay;
use crate::writer::Elem;

/// The most characters of a label: wider ones would reach the pits beside their slot.
pub(super) const MAX_LABEL_CHARS: usize = 3;
/// The label of the lap a never-ending move's cycle starts from: drawn as a circular arrow.
const CYCLE: &str = "↻";
/// A label's height.
const LABEL_H: i32 = 14;
/// The most laps drawn as paths (the caption counts them all).
pub(super) const MAX_PATHS: usize = 6;
/// The lanes of the drawn laps: how far inside the ring through the pit centres (negative:
/// outside), clear of the count in the middle of each pit.
const LANES: [i32; MAX_PATHS] = [18, -18, 24, -24, 14, -14];
/// The dash of each drawn lap, so that laps differ without colour.
const LAP_DASH: [Option<&str>; MAX_PATHS] = [
    None,
    Some("8 4"),
    Some("2 4"),
    Some("12 4 2 4"),
    Some("4 4"),
    Some("10 6"),
];

/// A label's width for `chars` characters.
fn label_w(chars: usize) -> i32 {
    6 + 6 * chars.min(MAX_LABEL_CHARS) as i32
}

/// The y of row boundary `rb` (0..=4, top to bottom): the frame's top edge, between the
/// far rows, the gap between the front rows, between the near rows, the bottom edge.
fn boundary_y(rb: usize) -> i32 {
    match rb {
        0 => cy(0) - PITCH / 2,
        1 => cy(0) + PITCH / 2,
        2 => (cy(1) + cy(2)) / 2,
        3 => cy(2) + PITCH / 2,
        _ => cy(3) + PITCH / 2,
    }
}

/// The free slots and the labels placed.
#[derive(Default)]
pub(super) struct Slots {
    used: BTreeSet<(u8, usize)>,
}

/// The slots at the four corners of a pit: (column boundary, row boundary), top right, top
/// left, bottom right, bottom left.
fn corners(pit: Pit, flip: bool) -> [(u8, usize); 4] {
    let (col, row) = (column_of(pit, flip), screen_row_of(pit, flip));
    [
        (col + 1, row),
        (col, row),
        (col + 1, row + 1),
        (col, row + 1),
    ]
}

impl Slots {
    /// A free slot at a corner of `pit` for a label `w` wide: its centre; the slot is then
    /// taken. Corners are tried top right, top left, bottom right, bottom left.
    fn take(&mut self, pit: Pit, flip: bool) -> Option<(i32, i32)> {
        for (cb, rb) in corners(pit, flip) {
            if self.used.insert((cb, rb)) {
                // On the frame's edge a slot sticks out of the frame a little: clear of
                // the row letters on the left and of the hands on the right.
                return Some((cx(0) - PITCH / 2 + PITCH * i32::from(cb), boundary_y(rb)));
            }
        }
        None
    }

    /// Draws `text` (at most [`MAX_LABEL_CHARS`] characters) in a free slot at `pit`'s
    /// corners; false when there is none.
    pub(super) fn label(
        &mut self,
        g: &mut Elem<'_>,
        pit: Pit,
        flip: bool,
        text: &str,
        colour: &str,
        pal: &Palette,
    ) -> bool {
        let text: String = text.chars().take(MAX_LABEL_CHARS).collect();
        let cycle = text == CYCLE;
        let w = if cycle {
            label_w(2)
        } else {
            label_w(text.chars().count())
        };
        let Some((x, y)) = self.take(pit, flip) else {
            return false;
        };
        g.elem("rect")
            .attr("class", "bao-label")
            .num("x", x - w / 2)
            .num("y", y - LABEL_H / 2)
            .num("width", w)
            .num("height", LABEL_H)
            .num("rx", 7)
            .attr("fill", pal.background)
            .attr("stroke", colour)
            .num("stroke-width", 2);
        if cycle {
            // `↻` drawn, not set: the font's glyph is a few pixels high at the labels' size.
            // Three quarters of a circle, clockwise from the right, and the arrowhead at
            // the top pointing on round.
            g.elem("path")
                .attr("class", "bao-cycle")
                .attr(
                    "d",
                    format_args!("M{} {}A5 5 0 1 1 {} {}", x + 5, y, x, y - 5),
                )
                .attr("fill", "none")
                .attr("stroke", pal.text)
                .num("stroke-width", 2);
            g.elem("path")
                .attr(
                    "d",
                    format_args!(
                        "M{} {}L{} {}L{} {}Z",
                        x + 4,
                        y - 5,
                        x - 1,
                        y - 9,
                        x - 1,
                        y - 1
                    ),
                )
                .attr("fill", pal.text);
            return true;
        }
        g.elem("text")
            .num("x", x)
            .num("y", y + 4)
            .attr("text-anchor", "middle")
            .num("font-size", 10)
            .attr("font-weight", "bold")
            .attr("fill", pal.text)
            .text(&text);
        true
    }
}

/// Half the side of a house's square: a label in a slot, whose box reaches 25 units from
/// the pit's centre at the nearest, never meets it.
pub(super) const HOUSE: i32 = R - 4;

/// A house in the book theme: always square; functional a double line, dormant dashed,
/// destroyed thin with its corners crossed out.
pub(super) fn house(pg: &mut Elem<'_>, x: i32, y: i32, state: HouseState, pal: &Palette) {
    const R: i32 = HOUSE;
    let mut r = pg.elem("rect");
    r.num("x", x - R)
        .num("y", y - R)
        .num("width", 2 * R)
        .num("height", 2 * R)
        .attr("fill", pal.pit)
        .attr("stroke", pal.line);
    match state {
        HouseState::Functional => {
            r.num("stroke-width", 3);
        }
        HouseState::Dormant => {
            r.num("stroke-width", 2).attr("stroke-dasharray", "6 4");
        }
        _ => {
            r.num("stroke-width", 1);
        }
    }
    drop(r);
    match state {
        HouseState::Functional => {
            // The inner line of the double square.
            pg.elem("rect")
                .num("x", x - R + 5)
                .num("y", y - R + 5)
                .num("width", 2 * R - 10)
                .num("height", 2 * R - 10)
                .attr("fill", "none")
                .attr("stroke", pal.line)
                .num("stroke-width", 1);
        }
        HouseState::Destroyed => {
            // Each corner crossed out, clear of the count in the middle.
            let k = 9;
            pg.elem("path")
                .attr("class", "bao-destroyed")
                .attr(
                    "d",
                    format_args!(
                        "M{},{} l{k},{k} M{},{} l-{k},{k} M{},{} l{k},-{k} M{},{} l-{k},-{k}",
                        x - R,
                        y - R,
                        x + R,
                        y - R,
                        x - R,
                        y + R,
                        x + R,
                        y + R
                    ),
                )
                .attr("stroke", pal.line)
                .num("stroke-width", 2);
        }
        _ => {}
    }
}

/// The pits a lap passes, in order: from where it starts to the pit of its last seed, along
/// its side's ring (a lap of a whole round and more: one round).
pub(super) fn lap_pits(start: Pit, direction: Direction, end: Pit) -> Vec<Pit> {
    let side = start.side();
    let step = direction.step();
    let mut pits = vec![start];
    if end.side() != side {
        return pits;
    }
    let mut ring = start.ring();
    for _ in 0..RING {
        ring = (ring + step) % RING;
        let pit = Pit::from_ring(side, ring);
        pits.push(pit);
        if pit == end {
            break;
        }
    }
    pits
}

/// The point of `pit` on the lane `inset` inside its side's ring (negative: outside).
fn lane_point(pit: Pit, flip: bool, inset: i32) -> (i32, i32) {
    let (x, y) = centre(pit, flip);
    let row = screen_row_of(pit, flip);
    let col = column_of(pit, flip);
    // The ring's other row is below the top row of each pair and above the bottom one.
    let dy = if row == 0 || row == 2 { inset } else { -inset };
    let dx = match col {
        0 => inset,
        7 => -inset,
        _ => 0,
    };
    (x + dx, y + dy)
}

/// The laps of a move along the ring: a path per lap on its own lane and dash, with an
/// arrowhead at its last pit. For a move that never ends, the laps of its cycle (as far
/// as [`MAX_PATHS`] goes) from the position before it.
pub(super) fn lap_paths(g: &mut Elem<'_>, ov: &Overlay, flip: bool, p: &str, pal: &Palette) {
    let laps = ov.laps.iter().take(MAX_PATHS);
    for (i, lap) in laps.enumerate() {
        let pits = lap_pits(lap.start, lap.direction, lap.end);
        if pits.len() < 2 {
            continue;
        }
        let points: Vec<String> = pits
            .iter()
            .map(|&pit| {
                let (x, y) = lane_point(pit, flip, LANES[i]);
                format!("{x},{y}")
            })
            .collect();
        let mut l = g.elem("polyline");
        l.attr("id", format_args!("{p}lap-path-{}", lap.number))
            .attr("class", "bao-lap-path")
            .attr("points", points.join(" "))
            .attr("fill", "none")
            .attr("stroke", pal.lap)
            .num("stroke-width", 2)
            .attr("stroke-linejoin", "round")
            .attr("marker-end", format_args!("url(#{p}arrow-lap)"));
        if let Some(d) = LAP_DASH[i] {
            l.attr("stroke-dasharray", d);
        }
    }
}

/// The lap ends as labels: the lap's number in a slot at the pit of its last seed. A move
/// that never ends gets `↻` at the end of the lap its cycle starts from.
pub(super) fn lap_labels(
    g: &mut Elem<'_>,
    slots: &mut Slots,
    ov: &Overlay,
    flip: bool,
    pal: &Palette,
) {
    for &(n, pit) in &ov.lap_ends {
        let text = if ov.cycle.is_some_and(|(from, _)| from == n) {
            CYCLE.to_owned()
        } else if n < 1000 {
            n.to_string()
        } else {
            "…".to_owned()
        };
        slots.label(g, pit, flip, &text, pal.lap, pal);
    }
}

/// Markup arrows in the book theme: along the ring (the shorter way round) between two
/// pits of one side, straight between the sides.
pub(super) fn arrow_points(from: Pit, to: Pit, flip: bool) -> Vec<(i32, i32)> {
    if from.side() != to.side() || from == to {
        return vec![centre(from, flip), centre(to, flip)];
    }
    let forward = (to.ring() + RING - from.ring()) % RING;
    let direction = if forward <= RING / 2 {
        Direction::Clockwise
    } else {
        Direction::Anticlockwise
    };
    lap_pits(from, direction, to)
        .into_iter()
        .map(|pit| lane_point(pit, flip, 0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pit(s: &str) -> Pit {
        s.parse().unwrap()
    }

    #[test]
    fn laps_follow_the_ring_round_the_row_ends() {
        // A7 clockwise: A8, then round the end into the back row, B8, B7.
        let pits = lap_pits(pit("A7"), Direction::Clockwise, pit("B7"));
        let names: Vec<String> = pits.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["A7", "A8", "B8", "B7"]);
        // North's a2 anticlockwise: a1, b1, b2.
        let pits = lap_pits(pit("a2"), Direction::Anticlockwise, pit("b2"));
        let names: Vec<String> = pits.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["a2", "a1", "b1", "b2"]);
        // A whole round and more is drawn as one round.
        assert_eq!(
            lap_pits(pit("A1"), Direction::Clockwise, pit("A1")).len(),
            17
        );
        // On a lane inside the ring the turn at the end column is inside it too: the near
        // front row (screen row 2) has its lane below the centres, towards its back row.
        let (x8, y8) = lane_point(pit("A8"), false, 18);
        let (x7, y7) = lane_point(pit("A7"), false, 18);
        let (xb, yb) = lane_point(pit("B8"), false, 18);
        assert_eq!((x8, xb), (cx(7) - 18, cx(7) - 18));
        assert_eq!(x7, cx(6));
        assert_eq!((y7, y8), (cy(2) + 18, cy(2) + 18));
        assert_eq!(yb, cy(3) - 18);
    }

    #[test]
    fn markup_arrows_take_the_shorter_way_round() {
        let points = arrow_points(pit("A2"), pit("B1"), false);
        // A2 -> A1 -> B1: anticlockwise is shorter.
        assert_eq!(points.len(), 3);
        assert_eq!(points[1], centre(pit("A1"), false));
        // Between the sides: straight.
        assert_eq!(arrow_points(pit("A2"), pit("a2"), false).len(), 2);
    }
}
