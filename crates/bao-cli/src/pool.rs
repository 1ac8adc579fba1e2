//! The thread pool of a command's `-j/--threads N` ([`in_pool`]).

use crate::error::CliError;

/// Runs `f` on a pool of `threads` threads (default: rayon's).
pub(crate) fn in_pool<T>(
    threads: Option<usize>,
    f: impl FnOnce() -> Result<T, CliError> + Send,
) -> Result<T, CliError>
where
    T: Send,
{
    match threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .map_err(|e| CliError::io("cannot start threads", std::io::Error::other(e)))?
            .install(f),
        None => f(),
    }
}
