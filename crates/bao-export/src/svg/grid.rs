//! The board's grid, shared by the drawing of every theme (`svg`) and the book theme's own
//! (`svg::book`): where each pit is, and the colours of a theme.

use bao_core::Pit;

use crate::layout::{column_of, screen_row_of};

// The grid. A pit every `PITCH` units; all values are integers.
pub(super) const PITCH: i32 = 64;
pub(super) const R: i32 = 28;
pub(super) const PAD: i32 = 8;
pub(super) const FRAME_X: i32 = 36;
pub(super) const FRAME_W: i32 = 8 * PITCH + 2 * PAD;
pub(super) const STORE_X: i32 = FRAME_X + FRAME_W + 12;
pub(super) const STORE_W: i32 = 64;
pub(super) const WIDTH: i32 = STORE_X + STORE_W + 12;
pub(super) const FRAME_Y: i32 = 80;
pub(super) const GAP: i32 = 24;
pub(super) const FRAME_H: i32 = 4 * PITCH + GAP + 2 * PAD;
/// The bottom of the frame.
pub(super) const FRAME_BOTTOM: i32 = FRAME_Y + FRAME_H;
/// The middle of the gap between the two front rows.
pub(super) const MID_Y: i32 = FRAME_Y + PAD + 2 * PITCH + GAP / 2;

pub(super) fn cx(col: u8) -> i32 {
    FRAME_X + PAD + PITCH / 2 + PITCH * i32::from(col)
}

pub(super) fn cy(screen_row: usize) -> i32 {
    let r = screen_row as i32;
    FRAME_Y + PAD + PITCH / 2 + PITCH * r + if r >= 2 { GAP } else { 0 }
}

pub(super) fn centre(pit: Pit, flip: bool) -> (i32, i32) {
    (cx(column_of(pit, flip)), cy(screen_row_of(pit, flip)))
}

pub(super) struct Palette {
    pub(super) background: &'static str,
    pub(super) board: &'static str,
    pub(super) line: &'static str,
    pub(super) pit: &'static str,
    pub(super) text: &'static str,
    pub(super) muted: &'static str,
    pub(super) seed: &'static str,
    pub(super) start: &'static str,
    pub(super) lap: &'static str,
    pub(super) capture: &'static str,
    pub(super) takasia: &'static str,
    pub(super) plus: &'static str,
    pub(super) minus: &'static str,
}
