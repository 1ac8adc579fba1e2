//! Integration tests of bao-validate, one module per concern.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bao_validate::{check_full, CheckOptions, Checked};

/// A never-ending move's annotation: its cycle item, written by annotate, checked.
mod cycle;
/// The replay's fast path: the deferred end test (E2).
mod fast_path;
/// `fix_text`: clean fixtures kept byte for byte, move numbers renumbered, an inserted ply
/// in the record's notation with the numbers after it following.
mod fix;
/// One fixture per validator code (`fixtures/invalid/{illegal,annotation,record,budget}/`), with
/// its rendered diagnostic and its JSON; the meta-test over `ALL_CODES`.
mod fixtures;
/// Valid records (`fixtures/games/`), `annotate` then `check`, altered annotations.
mod games;
/// No prose left as string literals in the modules that word diagnostics (issue 34).
mod literals;
/// Best-of-three matches keyed by `Event`, `Site` and `Match`.
mod matches;
/// Mutation test on real games (AbstractPlay transcripts).
mod mutation;
/// Repair suggestions, `--assume-fixes`, sign conventions, variations, the mutation test on
/// the AbstractPlay transcripts.
mod repair;
/// The streamed check against the whole-file path.
mod stream;
/// The words of engine refusals (K1's Lamu names) and item 6's never-ending move written
/// without `*`.
mod words;

/// The fixtures directory at the workspace root.
pub(crate) fn fixtures_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures"))
}

/// Every `.bao` file under `dir`, into `out`. Leaves out `invalid/budget/`: its fixtures are
/// about a lap budget (the fixture tests check them under one), and deciding their long
/// cycles exactly elsewhere would only be slow.
pub(crate) fn bao_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.ends_with("invalid/budget") {
            continue;
        }
        if p.is_dir() {
            bao_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "bao") {
            out.push(p);
        }
    }
}

/// Checks a text with default options.
pub(crate) fn check(name: &str, text: &str) -> Checked {
    check_full(name, Arc::from(text), &CheckOptions::default())
}

/// The codes of a check, in order.
pub(crate) fn codes(c: &Checked) -> Vec<&'static str> {
    c.report.diagnostics.iter().map(|d| d.code()).collect()
}
