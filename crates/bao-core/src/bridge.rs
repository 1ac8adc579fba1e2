//! [`Undecided`], and the one piece of per-thread state left: [`within_lap_budget`], a
//! bridge for callers that bound plain `Position` calls without holding an `Engine` yet.
//!
//! A budget belongs to an `Engine` (`Engine::within`): it reaches every call made with that
//! engine, on whatever thread. `within_lap_budget` is the older form, kept so that callers
//! whose engine calls lie deep inside other code (a replay, a validator's wording) stay
//! bounded until they pass an engine down: it sets a budget for this thread that the engine
//! of each plain `Position` call made inside it takes at its start. It does not reach other
//! threads (a rayon worker's), and an engine made by the caller ignores it; both are why
//! new code holds an `Engine` instead.

use std::cell::Cell;
use std::fmt;

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

thread_local! {
    /// The bridge's budget on this thread (`None`: none set) and the most laps run by a move
    /// that gave up under it.
    static BRIDGE: Cell<(Option<u64>, Option<u64>)> = const { Cell::new((None, None)) };
}

/// The bridge's budget on this thread, if one is set.
#[inline]
pub(crate) fn bridge_allowed() -> Option<u64> {
    BRIDGE.with(|b| b.get().0)
}

/// Notes that a move under the bridge's budget gave up after `laps` laps.
pub(crate) fn bridge_gave_up(laps: u64) {
    BRIDGE.with(|b| {
        let (allowed, gave_up) = b.get();
        b.set((allowed, Some(gave_up.map_or(laps, |l| l.max(laps)))));
    });
}

/// Runs `f` with the plain `Position` calls it makes on this thread limited to `laps` laps
/// of never-ending detection a move; restores the previous limit even if `f` panics. `f`'s
/// result when some move gave up is not exact, so it is dropped: [`Undecided`] instead.
/// Calls nest: an inner budget's give-up is the inner call's answer, not the outer one's.
///
/// The bridge for callers that do not hold an engine yet (see the module documentation);
/// new code uses `Engine::within`, whose budget goes with the engine.
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
    struct Restore((Option<u64>, Option<u64>));
    impl Drop for Restore {
        fn drop(&mut self) {
            BRIDGE.with(|b| b.set(self.0));
        }
    }
    let _restore = Restore(BRIDGE.with(|b| b.replace((Some(laps), None))));
    let out = f();
    match BRIDGE.with(|b| b.get().1) {
        Some(laps_run) => Err(Undecided { laps_run }),
        None => Ok(out),
    }
}
