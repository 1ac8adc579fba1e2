//! Perft: counting the leaves of the legal-move tree.

use crate::context::Engine;
use crate::position::Position;

/// Counts the leaves of the legal-move tree to `depth` plies (finished games count as 0
/// below depth 0), with one engine for the whole tree.
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_in(pos, depth, &mut Engine::new())
}

fn perft_in(pos: &Position, depth: u32, cx: &mut Engine) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves_in(cx);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| {
            let next = pos.play_fast_in(mv, cx);
            perft_in(&next, depth - 1, cx)
        })
        .sum()
}
