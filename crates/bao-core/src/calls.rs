//! The engine's questions asked with the caller's [`Engine`]: the same answers as the
//! `Position` methods of the same names (which take a fresh engine per call), with the
//! engine's memo of long relay cycles kept from call to call and its lap budget
//! ([`Engine::within`]) applied to every one.

use crate::context::{Engine, Noted};
use crate::illegal::{PlayError, ResolveError};
use crate::movegen::MoveList;
use crate::position::{Outcome, Position};
use crate::trace::{LazyTrace, MoveTrace};
use crate::types::{Move, MoveSpec};

impl Engine {
    /// [`Position::legal_moves`].
    #[inline]
    #[must_use]
    pub fn legal_moves(&mut self, pos: &Position) -> MoveList {
        pos.legal_moves_in(self)
    }

    /// [`Position::successors`].
    #[inline]
    #[must_use]
    pub fn successors(&mut self, pos: &Position) -> Vec<(Move, Position)> {
        pos.successors_in(self)
    }

    /// [`Position::is_legal`].
    #[inline]
    #[must_use]
    pub fn is_legal(&mut self, pos: &Position, mv: &Move) -> bool {
        pos.is_legal_in(mv, self)
    }

    /// [`Position::resolve`].
    ///
    /// # Errors
    /// As [`Position::resolve`].
    #[inline]
    pub fn resolve(&mut self, pos: &Position, spec: &MoveSpec) -> Result<Move, ResolveError> {
        pos.resolve_in(spec, self)
    }

    /// [`Position::diagnose`].
    #[inline]
    #[must_use]
    pub fn diagnose(&mut self, pos: &Position, mv: &Move) -> PlayError {
        pos.diagnose_in(mv, self)
    }

    /// [`Position::outcome`].
    #[inline]
    #[must_use]
    pub fn outcome(&mut self, pos: &Position) -> Option<Outcome> {
        pos.outcome_in(self)
    }

    /// [`Position::play`].
    ///
    /// # Errors
    /// As [`Position::play`].
    #[inline]
    pub fn play(&mut self, pos: &Position, mv: &Move) -> Result<(Position, LazyTrace), PlayError> {
        pos.play_in(mv, self)
    }

    /// [`Position::legal_moves`] of a position whose note the caller holds ([`Noted`], from
    /// [`Engine::play_noted`]): the note is read without comparing positions.
    #[inline]
    #[must_use]
    pub fn legal_moves_noted(&mut self, pos: &Noted) -> MoveList {
        pos.position().legal_moves_with(Some(pos.known()), self)
    }

    /// [`Position::play`] on a position whose note the caller holds ([`Noted`]), in place:
    /// `pos` becomes the next position with its own note, for the next `legal_moves_noted`
    /// or `play_noted` (the engine keeps none); on an illegal move it is left as it was. The
    /// same answers as [`Engine::play`].
    ///
    /// # Errors
    /// As [`Position::play`].
    #[inline]
    pub fn play_noted(&mut self, pos: &mut Noted, mv: &Move) -> Result<LazyTrace, PlayError> {
        Position::play_noted_in(pos, mv, self)
    }

    /// [`Position::play_into`].
    #[inline]
    pub fn play_into(
        &mut self,
        pos: &Position,
        mv: &Move,
        trace: &mut MoveTrace,
    ) -> Option<Position> {
        pos.play_into_in(mv, trace, self)
    }

    /// [`Position::play_into_counted`].
    #[inline]
    pub fn play_into_counted(
        &mut self,
        pos: &Position,
        mv: &Move,
        trace: &mut MoveTrace,
    ) -> Option<Position> {
        pos.play_into_counted_in(mv, trace, self)
    }

    /// [`Position::play_unchecked`].
    #[inline]
    #[must_use]
    pub fn play_unchecked(&mut self, pos: &Position, mv: &Move) -> (Position, MoveTrace) {
        pos.play_unchecked_in(mv, self)
    }

    /// [`Position::play_fast`].
    #[inline]
    #[must_use]
    pub fn play_fast(&mut self, pos: &Position, mv: &Move) -> Position {
        pos.play_fast_in(mv, self)
    }

    /// [`Position::random_move`].
    #[inline]
    pub fn random_move(
        &mut self,
        pos: &Position,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<(Move, Position)> {
        pos.random_move_in(pick, self)
    }

    /// [`Position::play_random_move`].
    #[inline]
    pub fn play_random_move(
        &mut self,
        pos: &mut Position,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<Move> {
        pos.play_random_move_in(pick, self)
    }
}
