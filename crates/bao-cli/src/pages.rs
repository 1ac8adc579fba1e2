//! Small pages for the process: the `bao` binary's allocator is the cause, so the binary
//! asks for them, for `bao serve` and the commands that stream a large record.

/// Asks the kernel for no transparent huge pages in this process (Linux; elsewhere nothing).
///
/// The allocator (mimalloc) marks its arena for huge pages, and each thread's heap lies in a
/// part of its own, so each thread made a whole 2 MiB page resident for far less in use: a
/// streamed `bao check`, `bao annotate` or `bao export json` some 7 MB of a peak near 50 MB
/// on two threads, with the same CPU time; `bao serve`, whose engine and file threads come
/// and go, 140 MB instead of 25 MB with 20 boards at once (BENCHMARKS.md, the replaying
/// commands at 1 GB and the club server).
pub(crate) fn small_pages() {
    #[cfg(target_os = "linux")]
    {
        // Refused only by a kernel older than 3.15: the command works the same, only larger.
        let _ = rustix::thread::disable_transparent_huge_pages(true);
    }
}
