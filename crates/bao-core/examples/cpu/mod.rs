//! The clock the timing examples read (a module of theirs, not an example of its own).

use std::time::Duration;

use rustix::time::{clock_gettime, ClockId};

/// This thread's CPU time so far.
pub(crate) fn thread_cpu() -> Duration {
    let t = clock_gettime(ClockId::ThreadCPUTime);
    Duration::new(
        u64::try_from(t.tv_sec).unwrap_or(0),
        u32::try_from(t.tv_nsec).unwrap_or(0),
    )
}
