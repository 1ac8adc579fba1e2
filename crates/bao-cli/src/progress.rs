//! Progress bars for batch work (`bao check` over many files, `bao export svg|png --all`).
//!
//! A bar is drawn on stderr only when stderr is a terminal, there is more than one item and
//! `--quiet` is not given; otherwise it is hidden and writes nothing, so piped or redirected
//! output never holds progress-bar bytes.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};

/// A progress bar over `len` items, labelled `what` (`checking`, `exporting`).
pub(crate) fn bar(len: usize, what: &str, quiet: bool) -> ProgressBar {
    let len = u64::try_from(len).unwrap_or(u64::MAX);
    if quiet || len < 2 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    // Cleared when dropped too, so that an error message after a failed item starts on a
    // clean line.
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
        .with_finish(ProgressFinish::AndClear);
    // The template is a constant; should it ever fail to parse, the default style is used.
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix} [{bar:30}] {pos}/{len} {msg} ({elapsed_precise}, eta {eta})",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(what.to_owned());
    bar.tick();
    bar
}
