//! Legality under a lap budget, for interactive callers (an editor, a server, a search)
//! that cannot wait on a never-ending move's decision.
//!
//! Deciding whether a move never ends is exact, and usually quick: a relay is followed in its
//! frame, and one on a cycle met before is decided within a few thousand laps. But the first
//! time a long cycle is met, deciding it runs about one frame period of laps (up to 10^7,
//! a good part of a second; BENCHMARKS.md, "Never-ending relays"). The `_within` forms below
//! stop such a decision after a given number of laps and say so ([`Undecided`]) instead of
//! answering; every answer they do give is the exact one. The plain forms
//! ([`Position::legal_moves`], [`Position::is_legal`], [`Position::play`]) stay exact and
//! unbounded.

use std::cell::Cell;
use std::fmt;

use crate::illegal::ResolveError;
use crate::movegen::MoveList;
use crate::position::Position;
use crate::types::{Move, MoveSpec};

thread_local! {
    /// Laps a move may run in never-ending detection on this thread (`u64::MAX`: no limit).
    static ALLOWED: Cell<u64> = const { Cell::new(u64::MAX) };
    /// The most laps run by a move that gave up, since the budget was set.
    static GAVE_UP: Cell<Option<u64>> = const { Cell::new(None) };
}

/// The laps a move may run in never-ending detection now (read when detection starts).
pub(crate) fn laps_allowed() -> u64 {
    ALLOWED.with(Cell::get)
}

/// Notes that a move gave up after `laps` laps.
pub(crate) fn gave_up(laps: u64) {
    GAVE_UP.with(|g| g.set(Some(g.get().map_or(laps, |l| l.max(laps)))));
}

/// A question left open: some move's never-ending decision ran out of its lap budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undecided {
    /// The laps the undecided move had run when it gave up (the most, if several did).
    pub laps_run: u64,
}

impl fmt::Display for Undecided {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a move was still going after {} laps without a decision on whether it ends",
            self.laps_run
        )
    }
}

impl std::error::Error for Undecided {}

/// Runs `f` with never-ending detection limited to `laps` laps a move (past the first 64,
/// where detection begins; finding a cycle's first lap may run about as many again), on
/// this thread; restores the previous limit even if `f` panics. `f`'s result when some
/// move gave up is not exact, so it is dropped: [`Undecided`] instead.
///
/// For a caller that runs several engine calls as one question (a validator replaying a
/// game, say); the `_within` methods of [`Position`] are this around one call. Calls nest:
/// an inner budget's give-up is the inner call's answer, not the outer one's.
///
/// ```
/// use bao_core::{within_lap_budget, Position, RuleSet};
///
/// let start = Position::start(RuleSet::KISWAHILI);
/// let n = within_lap_budget(1_000, || start.legal_moves().len());
/// assert_eq!(n, Ok(start.legal_moves().len()));
/// ```
///
/// # Errors
/// Some move's decision inside `f` ran out of laps.
pub fn within_lap_budget<T>(laps: u64, f: impl FnOnce() -> T) -> Result<T, Undecided> {
    struct Restore(u64, Option<u64>);
    impl Drop for Restore {
        fn drop(&mut self) {
            ALLOWED.with(|a| a.set(self.0));
            GAVE_UP.with(|g| g.set(self.1));
        }
    }
    let _restore = Restore(
        ALLOWED.with(|a| a.replace(laps)),
        GAVE_UP.with(|g| g.take()),
    );
    let out = f();
    match GAVE_UP.with(Cell::get) {
        Some(laps_run) => Err(Undecided { laps_run }),
        None => Ok(out),
    }
}

impl Position {
    /// [`Position::legal_moves`] with never-ending detection limited to `laps` laps a move:
    /// the exact list, or [`Undecided`] when some move's decision would take longer.
    ///
    /// ```
    /// use bao_core::{Position, RuleSet};
    ///
    /// let start = Position::start(RuleSet::KISWAHILI);
    /// assert_eq!(start.legal_moves_within(100_000), Ok(start.legal_moves()));
    /// ```
    ///
    /// # Errors
    /// A move's decision ran out of laps: nothing is known about the list.
    pub fn legal_moves_within(&self, laps: u64) -> Result<MoveList, Undecided> {
        within_lap_budget(laps, || self.legal_moves())
    }

    /// [`Position::is_legal`] with never-ending detection limited to `laps` laps: the exact
    /// answer, or [`Undecided`].
    ///
    /// # Errors
    /// The move's decision ran out of laps.
    pub fn is_legal_within(&self, mv: &Move, laps: u64) -> Result<bool, Undecided> {
        within_lap_budget(laps, || self.is_legal(mv))
    }

    /// [`Position::resolve`] with never-ending detection limited to `laps` laps a move: the
    /// exact answer for the written move, or [`Undecided`].
    ///
    /// ```
    /// use bao_core::{Position, RuleSet};
    ///
    /// let start = Position::start(RuleSet::KISWAHILI);
    /// let spec = "A6<".parse().unwrap();
    /// assert_eq!(start.resolve_within(&spec, 100_000), Ok(start.resolve(&spec)));
    /// ```
    ///
    /// # Errors
    /// A move's decision ran out of laps: nothing is known about the written move.
    pub fn resolve_within(
        &self,
        spec: &MoveSpec,
        laps: u64,
    ) -> Result<Result<Move, ResolveError>, Undecided> {
        within_lap_budget(laps, || self.resolve(spec))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RuleSet, Side};

    /// The second position of issue 15 (North to move): some of its moves are relays on
    /// long cycles, met in no other unit test (the memo is shared by the whole process).
    fn issue15_second() -> Position {
        let pits = [
            [0, 0, 0, 0, 1, 0, 0, 0],
            [0, 0, 1, 0, 3, 1, 2, 0],
            [4, 3, 1, 9, 13, 3, 2, 1],
            [5, 0, 7, 0, 7, 0, 1, 0],
        ];
        crate::relay::bare_position(RuleSet::KISWAHILI, Side::North, pits)
    }

    #[test]
    fn a_small_budget_leaves_a_long_cycle_undecided_until_it_is_known() {
        // No other test may empty the memo between the exact decision and the budgeted one.
        let _memo = crate::relay::memo_lock();
        let pos = issue15_second();
        // Budgets are per thread: this test's limits do not reach other tests.
        let err = pos.legal_moves_within(10_000).unwrap_err();
        assert!(err.laps_run >= 10_000 && err.laps_run < 20_000, "{err}");
        // Unbounded again afterwards, and exact.
        assert_eq!(laps_allowed(), u64::MAX);
        let exact = pos.legal_moves();
        // Now its cycles are known: decided within the same small budget, the same list.
        assert_eq!(pos.legal_moves_within(10_000), Ok(exact));
        for mv in &exact {
            assert_eq!(pos.is_legal_within(mv, 10_000), Ok(true), "{mv}");
        }
    }

    #[test]
    fn finite_moves_are_decided_within_any_budget() {
        let pos = Position::start(RuleSet::KISWAHILI);
        for mv in pos.legal_moves() {
            assert_eq!(pos.is_legal_within(&mv, 0), Ok(true), "{mv}");
        }
        assert_eq!(pos.legal_moves_within(0), Ok(pos.legal_moves()));
    }
}
