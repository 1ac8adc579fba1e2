//! Perft: counting the leaves of the legal-move tree.

use crate::position::Position;

/// Counts the leaves of the legal-move tree to `depth` plies (finished games count as 0
/// below depth 0).
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| perft(&pos.play_fast(mv), depth - 1))
        .sum()
}
