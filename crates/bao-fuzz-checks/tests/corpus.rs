//! Every committed fuzz input, run on stable: the seed corpus of each target
//! (`fuzz/corpus/<target>/`), the crash inputs kept as regressions
//! (`fixtures/hostile/regressions/<target>/`), and the hostile-input files
//! (`fixtures/hostile/*.bao`, through the two record targets).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files directly in `dir` (dot files left out), sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    out.sort();
    out
}

/// Runs `check` on every file of each directory; fails naming every file that failed.
fn run(target: &str, check: fn(&[u8]), dirs: &[PathBuf], at_least: usize) {
    let mut failed = Vec::new();
    let mut seen = 0;
    for dir in dirs {
        for path in files(dir) {
            seen += 1;
            let bytes = std::fs::read(&path).unwrap();
            if std::panic::catch_unwind(|| check(&bytes)).is_err() {
                failed.push(path.display().to_string());
            }
        }
    }
    assert!(seen >= at_least, "{target}: only {seen} inputs found");
    assert!(failed.is_empty(), "{target} fails on {failed:#?}");
}

fn dirs(target: &str) -> Vec<PathBuf> {
    vec![
        root().join("fuzz/corpus").join(target),
        root().join("fixtures/hostile/regressions").join(target),
    ]
}

#[test]
fn parse_record_inputs() {
    let mut d = dirs("parse_record");
    d.push(root().join("fixtures/hostile"));
    run("parse_record", bao_fuzz_checks::parse_record, &d, 70);
}

#[test]
fn check_record_inputs() {
    let mut d = dirs("check_record");
    d.push(root().join("fixtures/hostile"));
    run("check_record", bao_fuzz_checks::check_record, &d, 70);
}

#[test]
fn play_arbitrary_inputs() {
    run(
        "play_arbitrary",
        bao_fuzz_checks::play_arbitrary,
        &dirs("play_arbitrary"),
        5,
    );
}

#[test]
fn position_string_inputs() {
    run(
        "position_string",
        bao_fuzz_checks::position_string,
        &dirs("position_string"),
        5,
    );
}

/// Inputs on which `play_arbitrary` took over 30 s in the fuzzer (release build): legal
/// move generation meets a takasa whose never-ending cycle is very long and detects it
/// exactly. Since bao-core decides such relays in their frame and remembers the long cycles
/// met, they take a few seconds in a debug build: part of the normal suite.
#[test]
fn slow_play_arbitrary_inputs_finish() {
    let dir = root().join("fixtures/hostile/slow/play_arbitrary");
    run(
        "play_arbitrary (slow)",
        bao_fuzz_checks::play_arbitrary,
        &[dir],
        1,
    );
}
