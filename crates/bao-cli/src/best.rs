//! `--best-move` of `bao export svg` and `png`: the engine's move for the position drawn,
//! searched with bao-analysis and drawn as a diagram arrow (bao-export knows no engine: the
//! arrow reaches it as markup in its options).
//!
//! The arrow goes from the pit where the move starts (the pit lifted; in namua the pit the
//! reserve seed goes into) to the pit where the last seed of its first lap falls; for a namua
//! capture, whose first lap starts at a kichwa, to that kichwa; when both are the same pit (a
//! lap round the whole ring), to the next pit in the lap's direction.

use bao_analysis::{Limits, Searcher};
use bao_core::{Move, Pit, Position, RING};
use bao_notation::{ArrowMark, MarkColour};

/// The default search depth of `--best-move`.
pub(crate) const DEFAULT_DEPTH: u32 = 6;

/// The arrow colour of the engine's move.
pub(crate) const COLOUR: MarkColour = MarkColour::Green;

/// The engine's best move in `pos` at `depth` plies, or `None` when the game is over or the
/// side to move has no move.
pub(crate) fn best_move(pos: &Position, depth: u32) -> Option<Move> {
    if pos.outcome().is_some() {
        return None;
    }
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    Searcher::default().search(pos, limits, |_| {}).best()
}

/// The arrow of move `mv` played in `pos` (see the module's words), `None` if it is not
/// legal there.
pub(crate) fn arrow(pos: &Position, mv: &Move) -> Option<ArrowMark> {
    let (_, trace) = pos.play(mv).ok()?;
    let from = trace.placement.unwrap_or(mv.pit);
    let to = match trace.laps.first() {
        Some(lap) if lap.start != from => lap.start,
        Some(lap) if lap.end != from => lap.end,
        Some(lap) => Pit::from_ring(from.side(), (from.ring() + lap.direction.step()) % RING),
        // A move without a lap (none in the rules, but a trace may be cut short): the pit.
        None => from,
    };
    Some(ArrowMark {
        colour: COLOUR,
        from,
        to,
    })
}
