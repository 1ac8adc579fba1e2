//! The state the movetext loop keeps: the open lines ([`Frame`]) and the run of words
//! being read ([`Run`]). Below the parser and its movetext modules, which all read it.

use crate::ast::MoveNumber;
use crate::span::Spanned;
use crate::visit::Visitor;

/// The `discard` depth that skips the rest of a game (past the ply limit): no number of `)`
/// brings it back to 0.
pub(super) const SKIP_REST: usize = usize::MAX / 2;

/// What the parser keeps of the last element of an open line: enough to attach NAGs and an
/// annotation to a move, and to report them where there is none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Last {
    Nothing,
    Move { annotated: bool },
    Other,
}

/// An open line (the main line, or a variation opened at `open`), as the parser sees it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    pub(super) open: usize,
    pub(super) has_move: bool,
    pub(super) last: Last,
}

impl Frame {
    pub(super) fn new(open: usize) -> Self {
        Self {
            open,
            has_move: false,
            last: Last::Nothing,
        }
    }

    /// Notes that the move just given has had its annotation.
    #[inline(always)]
    pub(super) fn annotated(&mut self) {
        self.last = Last::Move { annotated: true };
    }
}

/// The state of the movetext loop that a run of common words changes (see
/// [`Parser::fast_run`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Run {
    /// The move number read and not yet given with its move.
    pub(super) pending: Option<Spanned<MoveNumber>>,
    /// The end of the last thing read.
    pub(super) last_end: usize,
    /// The moves the game may still have.
    pub(super) plies_left: usize,
    /// How many variations deep the words are skipped (see [`SKIP_REST`]).
    pub(super) discard: usize,
    /// Whether the ply limit stopped the reading.
    pub(super) over: bool,
    /// Whether the game has begun (its first event given).
    pub(super) begun: bool,
    /// Where the game starts.
    pub(super) game_start: usize,
}

impl Run {
    /// Begins the game on its first event.
    #[inline(always)]
    pub(super) fn begin<V: Visitor>(&mut self, v: &mut V) {
        if !self.begun {
            self.begun = true;
            v.begin_game(self.game_start);
        }
    }
}
