//! Nothing lost: every command that writes files is killed (SIGKILL) at moments spread
//! over a full run, and each file it writes must then be its old contents or the complete
//! new ones, never a part. The only other thing a killed run may leave is its hidden
//! temporary file `.<name>.<random>.tmp` next to the target (see `io::write_atomic`); these
//! tests count them and check that nothing else appears.
//!
//! The binary has no test hooks: the inputs are big enough that a run takes a while, and
//! the kill moments are drawn (from a fixed seed) over the time a full run took.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::cmd::root;

/// Kills per command.
const KILLS: usize = 12;

/// A small deterministic generator (xorshift64*), so that failures repeat.
struct Rng(bao_testkit::XorShift64Star);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n.max(1)
    }
}

/// The files of a directory tree, by path relative to it.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_path_buf();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// Whether `rel` is the temporary file of a write to a file in the same directory.
fn is_temp(rel: &Path) -> bool {
    let name = rel.file_name().unwrap().to_string_lossy();
    name.starts_with('.') && name.ends_with(".tmp")
}

fn write_tree(dir: &Path, files: &BTreeMap<PathBuf, Vec<u8>>) {
    for (rel, bytes) in files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

fn spawn(dir: &Path, args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_bao"))
        .env("BAO_LANG", "en")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the bao binary runs")
}

/// What the kills of one command left.
#[derive(Debug, Default)]
struct Outcome {
    old: usize,
    new: usize,
    temps: usize,
}

/// Runs `bao ARGS` in a directory holding `before`, once to the end and then `KILLS` times
/// killed at random moments; checks every file after each kill.
fn kill_at_random(seed: u64, before: &BTreeMap<PathBuf, Vec<u8>>, args: &[&str]) -> Outcome {
    let reference = tempfile::tempdir().unwrap();
    write_tree(reference.path(), before);
    let t = Instant::now();
    let status = spawn(reference.path(), args).wait().unwrap();
    let full = t.elapsed();
    assert!(status.success(), "bao {args:?}: {status}");
    let after = snapshot(reference.path());
    assert_ne!(&after, before, "bao {args:?} changed nothing");
    assert!(
        !after.keys().any(|p| is_temp(p)),
        "a full run left a temporary file"
    );

    let mut rng = Rng(bao_testkit::XorShift64Star::new(seed));
    let mut outcome = Outcome::default();
    let span = full.as_micros() as u64 * 6 / 5;
    for _ in 0..KILLS {
        let dir = tempfile::tempdir().unwrap();
        write_tree(dir.path(), before);
        let mut child = spawn(dir.path(), args);
        std::thread::sleep(Duration::from_micros(rng.below(span)));
        let _ = child.kill();
        let _ = child.wait();
        let now = snapshot(dir.path());
        for (rel, bytes) in &now {
            if is_temp(rel) {
                outcome.temps += 1;
                continue;
            }
            let old = before.get(rel);
            let new = after.get(rel);
            if Some(bytes) == new && old != new {
                outcome.new += 1;
            } else if Some(bytes) == old {
                outcome.old += 1;
            } else {
                panic!(
                    "bao {args:?} killed: {} is neither its old nor its new contents ({} bytes; old {:?}, new {:?})",
                    rel.display(),
                    bytes.len(),
                    old.map(Vec::len),
                    new.map(Vec::len)
                );
            }
        }
        for rel in before.keys() {
            assert!(now.contains_key(rel), "{} disappeared", rel.display());
        }
    }
    // Shown with --nocapture; RELIABILITY.md quotes these counts.
    eprintln!("bao {args:?}: full run {full:?}; after {KILLS} kills: {outcome:?}");
    outcome
}

/// A record of `games` copies of a fixture game, read from `fixtures/`.
fn repeated(fixture: &str, games: usize, edit: impl Fn(&str) -> String) -> Vec<u8> {
    let text = std::fs::read_to_string(root().join("fixtures").join(fixture)).unwrap();
    let one = edit(&text);
    let mut out = String::new();
    for _ in 0..games {
        out.push_str(&one);
        out.push('\n');
    }
    out.into_bytes()
}

/// The movetext without its lap/capture annotations (tag lines kept).
fn without_annotations(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with('[') {
            out.push_str(line);
        } else {
            let mut depth = 0;
            for c in line.chars() {
                match c {
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    _ if depth == 0 => out.push(c),
                    _ => {}
                }
            }
        }
        out.push('\n');
    }
    out
}

fn files(list: &[(&str, Vec<u8>)]) -> BTreeMap<PathBuf, Vec<u8>> {
    list.iter()
        .map(|(p, b)| (PathBuf::from(p), b.clone()))
        .collect()
}

#[test]
fn fmt_write_killed() {
    // Not canonical: numbers left out, so that every game is rewritten.
    let input = repeated("games/variations_comments.bao", 1500, |t| {
        t.replace(" 2. ", " ").replace("1... ", "")
    });
    let o = kill_at_random(
        1,
        &files(&[("big.bao", input)]),
        &["fmt", "--write", "big.bao"],
    );
    assert_eq!(o.old + o.new, KILLS, "{o:?}");
}

#[test]
fn annotate_write_killed() {
    let input = repeated("games/random_kiswahili_3.bao", 150, without_annotations);
    let o = kill_at_random(
        2,
        &files(&[("game.bao", input)]),
        &["annotate", "--write", "game.bao"],
    );
    assert_eq!(o.old + o.new, KILLS, "{o:?}");
}

#[test]
fn export_json_killed() {
    let input = repeated("games/random_kiswahili_3.bao", 25, str::to_owned);
    let o = kill_at_random(
        3,
        &files(&[
            ("game.bao", input.clone()),
            ("out.json", b"{\"old\": true}\n".to_vec()),
        ]),
        &["export", "json", "game.bao", "-o", "out.json"],
    );
    // game.bao is never written: one old file per kill, and out.json old or new.
    assert_eq!(o.old + o.new, 2 * KILLS, "{o:?}");
}

#[test]
fn export_svg_all_killed() {
    let input = repeated("games/preset_kiswahili.bao", 1, str::to_owned);
    // Some diagrams exist from an earlier run (with other contents), some are new.
    let mut before = vec![("game.bao", input)];
    let old = b"<svg>old</svg>\n".to_vec();
    before.push(("plies/ply-000.svg", old.clone()));
    before.push(("plies/ply-003.svg", old.clone()));
    before.push(("plies/ply-010.svg", old));
    let o = kill_at_random(
        4,
        &files(&before),
        &["export", "svg", "game.bao", "--all", "-o", "plies"],
    );
    assert!(o.old >= KILLS, "{o:?}");
}
