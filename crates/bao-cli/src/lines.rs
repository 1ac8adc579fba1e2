//! The engine's lines as record elements: what `bao analyse` writes as a better line and
//! its puzzle finder as a solution (plumbing shared by both; no command's own).

use bao_core::{Move, Position};
use bao_notation::{Directions, Element, MoveItem, Notation, Spanned};

/// The engine's line from `pos` as variation elements, up to `plies` plies: the moves
/// replayed to be sure they are legal (the line stops at the first that is not, and where
/// the game ends), each with its `**` and `#` marks, spelled as the record spells moves.
pub(crate) fn variation_of(
    pos: &Position,
    line: &[Move],
    directions: Directions,
    notation: Notation,
    plies: usize,
) -> Vec<Spanned<Element>> {
    let mut out = Vec::new();
    let mut at = *pos;
    for mv in line.iter().take(plies) {
        let Ok((next, trace)) = at.play(mv) else {
            break;
        };
        let mut token = bao_replay::spell_token(mv, &at, directions, notation);
        token.claims_takasia = trace.takasia_set().is_some();
        token.claims_win = trace
            .outcome
            .is_some_and(|o| o.winner == Some(at.to_move()));
        out.push(Spanned::bare(Element::Move(MoveItem::new(token))));
        at = next;
        if at.outcome().is_some() {
            break;
        }
    }
    out
}
