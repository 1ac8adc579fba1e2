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
//! unbounded. The budget is an [`Engine`]'s ([`Engine::within`]): nothing per thread or
//! global.

use crate::context::Engine;
use crate::illegal::ResolveError;
use crate::movegen::MoveList;
use crate::position::Position;
use crate::types::{Move, MoveSpec};
use crate::undecided::Undecided;

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
        Engine::new().within(laps, |cx| self.legal_moves_in(cx))
    }

    /// [`Position::is_legal`] with never-ending detection limited to `laps` laps: the exact
    /// answer, or [`Undecided`].
    ///
    /// # Errors
    /// The move's decision ran out of laps.
    pub fn is_legal_within(&self, mv: &Move, laps: u64) -> Result<bool, Undecided> {
        Engine::new().within(laps, |cx| self.is_legal_in(mv, cx))
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
        Engine::new().within(laps, |cx| self.resolve_in(spec, cx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RuleSet, Side};

    /// The second position of issue 15 (North to move): some of its moves are relays on
    /// long cycles.
    fn issue15_second() -> Position {
        let pits = [
            [0, 0, 0, 0, 1, 0, 0, 0],
            [0, 0, 1, 0, 3, 1, 2, 0],
            [4, 3, 1, 9, 13, 3, 2, 1],
            [5, 0, 7, 0, 7, 0, 1, 0],
        ];
        crate::position::bare_position(RuleSet::KISWAHILI, Side::North, pits)
    }

    #[test]
    fn a_small_budget_leaves_a_long_cycle_undecided_until_it_is_known() {
        let pos = issue15_second();
        // A fresh engine each: the memo of one is not the other's.
        let err = pos.legal_moves_within(10_000).unwrap_err();
        assert!(err.laps_run >= 10_000 && err.laps_run < 20_000, "{err}");
        let mut engine = Engine::new();
        let err = engine.within(10_000, |e| e.legal_moves(&pos)).unwrap_err();
        assert!(err.laps_run >= 10_000 && err.laps_run < 20_000, "{err}");
        // Unbounded again afterwards, and exact.
        assert_eq!(engine.laps_allowed(), u64::MAX);
        let exact = engine.legal_moves(&pos);
        assert_eq!(exact, pos.legal_moves());
        assert!(engine.relay_cycles_known() >= 1);
        // Now its cycles are known to this engine: decided within the same small budget,
        // the same list; a fresh engine still gives up.
        assert_eq!(engine.within(10_000, |e| e.legal_moves(&pos)), Ok(exact));
        for mv in &exact {
            assert_eq!(
                engine.within(10_000, |e| e.is_legal(&pos, mv)),
                Ok(true),
                "{mv}"
            );
        }
        assert!(pos.legal_moves_within(10_000).is_err());
        // Forgotten: undecided again.
        engine.forget_relay_cycles();
        assert!(engine.within(10_000, |e| e.legal_moves(&pos)).is_err());
    }

    /// An engine's budget reaches its calls on other threads (a rayon worker's, say): the
    /// budget is the engine's, not the thread's.
    #[test]
    fn the_budget_goes_with_the_engine_to_other_threads() {
        let pos = issue15_second();
        let mut engine = Engine::new();
        let got = engine.within(10_000, |e| {
            std::thread::scope(|s| s.spawn(|| e.legal_moves(&pos)).join().expect("joined"))
        });
        assert!(got.is_err(), "{got:?}");
    }

    #[test]
    fn inner_budgets_answer_for_themselves() {
        let pos = issue15_second();
        let start = Position::start(RuleSet::KISWAHILI);
        let mut engine = Engine::new();
        let outer = engine.within(10_000, |e| {
            let inner = e.within(10_000, |e| e.legal_moves(&pos));
            assert!(inner.is_err());
            e.legal_moves(&start).len()
        });
        assert_eq!(outer, Ok(start.legal_moves().len()));
    }

    /// A budget is its engine's alone: a plain call made inside another engine's `within`
    /// (on the fresh engine of that call) is exact and unbounded, and gives no give-up to the
    /// engine whose budget encloses it.
    #[test]
    fn a_budget_bounds_its_engines_calls_only() {
        let pos = issue15_second();
        let mut engine = Engine::new();
        let plain = engine.within(10_000, |_| pos.legal_moves());
        let exact = plain.expect("the plain call is not bounded");
        assert!(!exact.is_empty());
        assert_eq!(engine.relay_cycles_known(), 0);
        let bounded = engine.within(10_000, |e| e.legal_moves(&pos));
        assert!(bounded.is_err(), "{bounded:?}");
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
