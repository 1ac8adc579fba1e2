//! Hostile input through `bao check`: the small cases of `fixtures/hostile/` and big ones
//! made here (never committed). Each must give located diagnostics and exit 1 (never a
//! panic, never exit 101), and the games after the hostile part must still be checked:
//! every case ends with a valid game, `[Event "after"]`.
//!
//! Times are printed (see with `--nocapture`) for RELIABILITY.md, never asserted.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::cmd::root;

/// The game every case ends with.
const AFTER: &str = "\n[Event \"after\"]\n\n1. A6<* *\n";

/// What `bao check --format json` said about one input.
struct Run {
    code: Option<i32>,
    diagnostics: Vec<Value>,
    games: u64,
    plies: u64,
    time: Duration,
}

fn check(args: &[&str]) -> Run {
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_bao"))
        .env("BAO_LANG", "en")
        .arg("check")
        .arg("--format")
        .arg("json")
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("the bao binary runs");
    let time = t.elapsed();
    let stdout = String::from_utf8(out.stdout).expect("JSON Lines are UTF-8");
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let summary = lines
        .iter()
        .find(|l| l["type"] == "summary")
        .expect("a summary line");
    Run {
        code: out.status.code(),
        diagnostics: lines
            .iter()
            .filter(|l| l["type"] == "diagnostic")
            .map(|l| l["data"].clone())
            .collect(),
        games: summary["data"]["games"].as_u64().unwrap(),
        plies: summary["data"]["plies"].as_u64().unwrap(),
        time,
    }
}

/// Checks the common promises: exit 1, every diagnostic located (line, column, a span
/// inside the input), the expected codes among them, and `games` games checked.
fn assert_hostile(label: &str, run: &Run, input_len: usize, codes: &[&str], games: u64) {
    eprintln!(
        "hostile {label}: exit {:?}, {} diagnostics, {} games, {} plies, {:?}",
        run.code,
        run.diagnostics.len(),
        run.games,
        run.plies,
        run.time
    );
    assert_eq!(run.code, Some(1), "{label}: exit code");
    assert!(!run.diagnostics.is_empty(), "{label}: no diagnostic");
    for d in &run.diagnostics {
        assert!(d["line"].as_u64().unwrap() >= 1, "{label}: {d}");
        assert!(d["column"].as_u64().unwrap() >= 1, "{label}: {d}");
        let offset = d["span"]["offset"].as_u64().unwrap() as usize;
        let length = d["span"]["length"].as_u64().unwrap() as usize;
        // Offsets are into the decoded text, which is at most twice the bytes (Latin-1).
        assert!(offset + length <= 2 * input_len.max(1), "{label}: {d}");
    }
    let found: Vec<&str> = run
        .diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    for code in codes {
        assert!(found.contains(code), "{label}: no {code} in {found:?}");
    }
    assert_eq!(run.games, games, "{label}: games checked");
}

fn committed(name: &str, codes: &[&str], games: u64) {
    let path = format!("fixtures/hostile/{name}");
    let len = std::fs::metadata(root().join(&path)).unwrap().len() as usize;
    let run = check(&[&path]);
    assert_hostile(name, &run, len, codes, games);
}

fn generated(label: &str, text: &[u8], codes: &[&str], games: u64) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hostile.bao");
    std::fs::write(&path, text).unwrap();
    let run = check(&[path.to_str().unwrap()]);
    assert_hostile(label, &run, text.len(), codes, games);
}

#[test]
fn invalid_utf8() {
    committed(
        "invalid_utf8.bao",
        &["bao::syntax::latin1_input", "bao::syntax::bad_move"],
        2,
    );
}

#[test]
fn nul_bytes() {
    committed("nul_bytes.bao", &["bao::syntax::unexpected_token"], 2);
}

#[test]
fn bom_in_the_middle() {
    committed("bom_in_middle.bao", &["bao::syntax::unexpected_token"], 3);
}

#[test]
fn huge_numbers() {
    committed(
        "huge_numbers.bao",
        &[
            "bao::syntax::bad_move_number",
            "bao::syntax::unknown_pit",
            "bao::syntax::bad_nag",
            "bao::syntax::bad_annotation",
            "bao::syntax::bad_position",
            "bao::record::match_inconsistent",
        ],
        8,
    );
}

#[test]
fn crlf_and_cr_mixed() {
    committed("crlf_cr_mix.bao", &["bao::syntax::unknown_pit"], 2);
}

#[test]
fn everything_left_open() {
    committed(
        "unclosed_everything.bao",
        &[
            "bao::syntax::bad_tag",
            "bao::syntax::unterminated_string",
            "bao::syntax::unclosed_variation",
            "bao::syntax::unterminated_comment",
        ],
        2,
    );
}

/// An empty file is a record of no games: valid, exit 0 (documented in RELIABILITY.md).
#[test]
fn empty_file() {
    let run = check(&["fixtures/hostile/empty.bao"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(run.games, 0);
    assert!(run.diagnostics.is_empty());
}

/// A directory named like a record is searched, never read as a file.
#[test]
fn a_directory_named_like_a_record() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("odd.bao");
    std::fs::create_dir(&odd).unwrap();
    std::fs::write(odd.join("inner.bao"), format!("1. A6<* zz *\n{AFTER}")).unwrap();
    std::fs::write(dir.path().join("good.bao"), AFTER).unwrap();
    let run = check(&[dir.path().to_str().unwrap()]);
    assert_hostile(
        "directory odd.bao/",
        &run,
        64,
        &["bao::syntax::unexpected_token"],
        3,
    );
    // Named directly, too.
    let run = check(&[odd.to_str().unwrap()]);
    assert_hostile(
        "odd.bao/ named",
        &run,
        64,
        &["bao::syntax::unexpected_token"],
        2,
    );
}

#[test]
fn a_ten_megabyte_comment() {
    let text = format!("1. A6<* {{{}}} *\n{AFTER}", "x".repeat(10 << 20));
    generated(
        "10 MB comment",
        text.as_bytes(),
        &["bao::syntax::game_too_long"],
        1,
    );
}

#[test]
fn a_ten_megabyte_line() {
    let text = format!(
        "[Event \"long\"]\n{}*\n{AFTER}",
        "1. A6<* a5>* ".repeat((10 << 20) / 13)
    );
    generated(
        "10 MB line",
        text.as_bytes(),
        &["bao::syntax::game_too_long"],
        1,
    );
}

#[test]
fn a_hundred_thousand_nested_parentheses() {
    let text = format!(
        "1. A6<* {}{} *\n{AFTER}",
        "(1. A7>* ".repeat(100_000),
        ")".repeat(100_000)
    );
    generated(
        "100,000 nested variations",
        text.as_bytes(),
        &["bao::syntax::variation_too_deep"],
        2,
    );
    let text = format!("1. A6<* {} *\n{AFTER}", "(".repeat(100_000));
    generated(
        "100,000 open parentheses",
        text.as_bytes(),
        &["bao::syntax::variation_too_deep"],
        2,
    );
}

#[test]
fn deeply_nested_comments() {
    // Braces do not nest: the first `}` closes, the others are stray.
    let text = format!(
        "1. A6<* {}{} *\n{AFTER}",
        "{".repeat(100_000),
        "}".repeat(100_000)
    );
    generated(
        "100,000 nested braces",
        text.as_bytes(),
        &["bao::syntax::too_many_errors"],
        2,
    );
}

#[test]
fn thousands_of_games_in_one_line() {
    let mut line = "1. A6<* * ".repeat(5000);
    line.push_str("1. A5<* * ");
    line.push_str(&"1. A6<* * ".repeat(5000));
    let text = format!("{line}\n{AFTER}");
    let run = check_generated(text.as_bytes());
    assert_hostile(
        "10,001 games on one line",
        &run,
        text.len(),
        &["bao::illegal::namua_placement"],
        10_002,
    );
    assert_eq!(run.diagnostics.len(), 1);
    assert_eq!(run.plies, 10_001);
}

#[test]
fn many_moves_and_many_errors() {
    let text = format!("{} *\n{AFTER}", "A6<* ".repeat(20_000));
    generated(
        "20,000 moves",
        text.as_bytes(),
        &["bao::syntax::too_many_plies"],
        2,
    );
    let text = format!("{} *\n{AFTER}", "junk ".repeat(500_000));
    let run = check_generated(text.as_bytes());
    assert_hostile(
        "500,000 bad words",
        &run,
        text.len(),
        &["bao::syntax::too_many_errors"],
        2,
    );
    assert_eq!(run.diagnostics.len(), 101);
    let text = format!("[Event \"{}\"]\n*\n{AFTER}", "x".repeat(1 << 20));
    generated(
        "1 MB tag value",
        text.as_bytes(),
        &["bao::syntax::tag_too_long"],
        2,
    );
}

fn check_generated(text: &[u8]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hostile.bao");
    std::fs::write(&path, text).unwrap();
    check(&[path.to_str().unwrap()])
}

/// Every committed hostile file is listed in a test above.
#[test]
fn every_committed_case_is_tested() {
    let this = include_str!("hostile.rs");
    for e in std::fs::read_dir(root().join("fixtures/hostile")).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".bao") {
            assert!(
                this.contains(&format!("\"{name}\"")) || this.contains(&format!("/{name}\"")),
                "{name} is not tested"
            );
        }
    }
}
