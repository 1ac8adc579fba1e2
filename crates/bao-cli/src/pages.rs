//! Small pages for the commands that stream a large record.

/// Asks the kernel for no transparent huge pages in this process (Linux; elsewhere nothing).
///
/// The allocator (mimalloc) marks its arena for huge pages, and each thread's heap lies in a
/// part of its own: with the pool's threads and the reader, a streamed `bao check`, `bao
/// annotate` or `bao export json` made 2 MiB pages resident for far less in use, some 7 MB of
/// a peak near 50 MB on two threads; their CPU time is the same with small pages
/// (BENCHMARKS.md, the replaying commands at 1 GB).
pub(crate) fn small_pages() {
    #[cfg(target_os = "linux")]
    {
        // Refused only by a kernel older than 3.15: the command works the same, only larger.
        let _ = rustix::thread::disable_transparent_huge_pages(true);
    }
}
