//! A node's children, as every search here expands them: the legal moves from bao-core and
//! the positions after them (`Position::successors`: each move run once), under a lap budget so that no search waits on a never-ending
//! relay met for the first time.

use bao_core::{Engine, Move, Outcome, Position, Undecided};

/// The laps a move may run in never-ending detection inside a search (past the first 64):
/// relays on cycles met before are decided well within it; a long cycle met for the first
/// time is not, and its node is [`Expansion::Undecided`] (spec/engine.md, "Never-ending
/// moves").
pub const SEARCH_LAP_BUDGET: u64 = 20_000;

/// What expanding a node found.
#[derive(Debug, Clone)]
pub enum Expansion {
    /// The game is over here.
    Over(Outcome),
    /// The legal moves and the positions after them, in bao-core's order.
    Moves(Vec<(Move, Position)>),
    /// A move's never-ending decision ran out of the lap budget: the moves are unknown.
    Undecided(Undecided),
}

/// Expands `pos` with never-ending detection limited to `laps` laps a move, on a fresh
/// engine (no relay cycle known: [`expand_with`] keeps them).
#[must_use]
pub fn expand(pos: &Position, laps: u64) -> Expansion {
    expand_with(&mut Engine::new(), pos, laps)
}

/// [`expand`] with the caller's engine, whose memo of long relay cycles a search keeps from
/// node to node (a cycle decided once is decided again within the budget).
#[must_use]
pub fn expand_with(engine: &mut Engine, pos: &Position, laps: u64) -> Expansion {
    let found = engine.within(laps, |e| {
        let children = e.successors(pos);
        if children.is_empty() {
            return Err(e.outcome(pos));
        }
        Ok(children)
    });
    match found {
        Ok(Ok(children)) => Expansion::Moves(children),
        // No legal move and yet no outcome cannot happen (E2 makes it one); an empty list
        // is reported as the loss of the side to move, as E2 says.
        Ok(Err(outcome)) => Expansion::Over(outcome.unwrap_or(Outcome {
            winner: Some(pos.to_move().opponent()),
            reason: bao_core::EndReason::NoLegalMove,
        })),
        Err(u) => Expansion::Undecided(u),
    }
}

/// Expands `pos` exactly, however long a never-ending decision takes (the root of a search
/// must know its moves).
#[must_use]
pub fn expand_exact(pos: &Position) -> Expansion {
    expand(pos, u64::MAX)
}

/// [`expand_exact`] with the caller's engine.
#[must_use]
pub fn expand_exact_with(engine: &mut Engine, pos: &Position) -> Expansion {
    expand_with(engine, pos, u64::MAX)
}
