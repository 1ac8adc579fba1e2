//! [`Undecided`]: the answer of a question asked under a lap budget that ran out.
//!
//! A budget belongs to an `Engine` (`Engine::within`): it reaches every call made with that
//! engine, on whatever thread, and nothing else. The engine keeps no state per thread or
//! global: a caller whose engine calls lie deep inside other code (a replay, a validator's
//! wording) passes its engine down.

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
