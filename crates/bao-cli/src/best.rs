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

#[cfg(test)]
mod tests {
    use bao_core::{Position, RuleSet};

    use super::{arrow, best_move};

    fn legal(pos: &Position, text: &str) -> bao_core::Move {
        pos.legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == text)
            .unwrap()
    }

    #[test]
    fn a_takasa_points_from_its_pit_to_where_its_lap_ends() {
        let start = Position::start(RuleSet::KISWAHILI);
        // `1. A7>* [B7:1]`: the reserve seed into A7, its three seeds sown to B7.
        let a = arrow(&start, &legal(&start, "A7>*")).unwrap();
        assert_eq!(
            (a.from.to_string(), a.to.to_string()),
            ("A7".into(), "B7".into())
        );
        // A capture starts at the pit the seed goes into and points to the kichwa where
        // the captured seeds are sown from.
        // (`1. A7>* a6<*`: South captures next.)
        let (after, _) = start.play(&legal(&start, "A7>*")).unwrap();
        let (after, _) = after.play(&legal(&after, "a6<*")).unwrap();
        let capture = after
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.is_capture())
            .unwrap();
        let (_, trace) = after.play(&capture).unwrap();
        let a = arrow(&after, &capture).unwrap();
        assert_eq!(a.from, capture.pit);
        assert!(a.to.is_kichwa(), "{capture}: to {}", a.to);
        assert_eq!(a.to, trace.laps[0].start);
    }

    #[test]
    fn the_engine_finds_a_legal_move() {
        // (The end of a game has none: tested on `bao export svg --best-move`.)
        let start = Position::start(RuleSet::KISWAHILI);
        let mv = best_move(&start, 2).unwrap();
        assert!(start.legal_moves().contains(&mv));
    }
}
