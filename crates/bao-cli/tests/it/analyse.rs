//! `bao analyse`: evaluations, glyphs and better lines; the result checks clean and keeps
//! the record's own text around what it adds.

use crate::cmd::{output, output_in, run};

/// North's `1... a7<` allows South a forced win in 3 where `a2>` and `a8<` held: marked
/// `??`, with a variation from a saving move, and `[%eval #3]` (South wins in 3).
#[test]
fn a_planted_blunder_is_marked_with_the_saving_move() {
    let out = output(
        &[
            "analyse",
            "fixtures/analysis/planted_blunder.bao",
            "--depth",
            "6",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(text.contains("1... a7<?? {[%eval #3]} ("), "{text}");
    let variation = &text[text.find("?? {[%eval #3]} (").expect("a variation") + 17..];
    let first = variation
        .split_whitespace()
        .nth(1)
        .expect("the saving move");
    assert!(["a2>", "a8<"].contains(&first), "{first}: {text}");
    // The critical moments first.
    assert!(
        text.contains(
            "{Analysis: 1 blunder, 0 mistakes, 0 dubious moves (depth 6). \
             The turning points: 1... a7<?? (10.0 seeds).}\n1... a7<??"
        ),
        "{text}"
    );
    // Why, in words: what the better move captures, what the blunder allowed.
    assert!(
        text.contains("{Better: a8< captures 8 (A5, A2). After a7<, South's B5> captures 14"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

/// `--multipv 3`: three better lines after the blunder, each from another move.
#[test]
fn several_lines_after_a_mistake() {
    let out = output(
        &[
            "analyse",
            "fixtures/analysis/planted_blunder.bao",
            "--depth",
            "6",
            "--multipv",
            "3",
            "-q",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let line = text
        .lines()
        .find(|l| l.starts_with("1... a7<??"))
        .expect("the blunder");
    let firsts: Vec<&str> = line
        .split('(')
        .skip(1)
        .map(|v| v.split_whitespace().nth(1).expect("a move"))
        .collect();
    assert_eq!(firsts.len(), 3, "{line}");
    assert!(firsts.iter().all(|m| *m != "a7<"), "{line}");
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2], "{line}");
    let bad = output(
        &[
            "analyse",
            "fixtures/analysis/planted_blunder.bao",
            "--multipv",
            "9",
        ],
        "",
    );
    assert_eq!(bad.status.code(), Some(2));
}

/// The annotated record passes `bao check` and is the record read with the evaluations,
/// glyphs and lines added between its tokens (its own text kept); analysing it again
/// replaces the evaluations instead of adding more.
#[test]
fn the_annotated_record_checks_clean_and_keeps_the_records_text() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::copy(
        crate::cmd::root().join("fixtures/games/random_kiswahili_3.bao"),
        dir.path().join("game.bao"),
    )
    .expect("copied");
    let first = output_in(
        dir.path(),
        &["analyse", "game.bao", "--depth", "3", "--write"],
        "",
    );
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    let once = std::fs::read_to_string(dir.path().join("game.bao")).expect("written");
    assert!(once.contains("[%eval"), "{once}");
    let check = output_in(dir.path(), &["check", "game.bao"], "");
    assert_eq!(check.status.code(), Some(0), "{check:?}");
    // Without what the analysis adds, the text read, blank for blank.
    let source =
        std::fs::read_to_string(crate::cmd::root().join("fixtures/games/random_kiswahili_3.bao"))
            .expect("read");
    assert_eq!(without_analysis(&once), squeeze(&source));
    let again = output_in(
        dir.path(),
        &["analyse", "game.bao", "--depth", "3", "-o", "again.bao"],
        "",
    );
    assert_eq!(again.status.code(), Some(0));
    let twice = std::fs::read_to_string(dir.path().join("again.bao")).expect("written");
    assert_eq!(
        once.matches("[%eval").count(),
        twice.matches("[%eval").count()
    );
}

#[test]
fn an_invalid_record_is_not_analysed() {
    insta::assert_snapshot!(run(
        &[
            "analyse",
            "fixtures/invalid/illegal/capture_mandatory.bao",
            "--depth",
            "2"
        ],
        ""
    ));
    let stdin_write = output(&["analyse", "-", "--write"], "");
    assert_eq!(stdin_write.status.code(), Some(2));
}

/// The canonical moves of the first variation of the first move, through `bao export json`.
fn first_variation(record: &[u8]) -> Vec<String> {
    let out = output(&["export", "json", "-"], &String::from_utf8_lossy(record));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    json["games"][0]["moves"][0]["variations"][0]
        .as_array()
        .expect("a variation")
        .iter()
        .map(|m| m["move"].as_str().expect("a move").to_owned())
        .collect()
}

/// Under `[Directions "clockwise"]` the better line is written in the record's convention:
/// it reads as the same moves as in the canonical record.
#[test]
fn the_better_line_follows_the_records_sign_convention() {
    let args = |f: &'static str| ["analyse", f, "--depth", "6"];
    let mover = output(&args("fixtures/analysis/planted_blunder.bao"), "");
    let clockwise = output(&args("fixtures/analysis/planted_blunder_clockwise.bao"), "");
    assert_eq!(clockwise.status.code(), Some(0));
    let line = first_variation(&clockwise.stdout);
    assert!(!line.is_empty());
    assert_eq!(line, first_variation(&mover.stdout));
    let written = String::from_utf8_lossy(&clockwise.stdout).into_owned();
    let canonical = String::from_utf8_lossy(&mover.stdout).into_owned();
    assert_ne!(
        written[written.find("(1.").expect("(")..].split(')').next(),
        canonical[canonical.find("(1.").expect("(")..]
            .split(')')
            .next(),
        "the signs are written differently"
    );
}

/// `text` without the analysis's comments (evaluations, "Better:", "Analysis:"),
/// variations and glyphs, its blanks squeezed.
fn without_analysis(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let ours = ["{[%eval", "{Better:", "{Analysis:"];
        if depth == 0 && ours.iter().any(|p| rest.starts_with(p)) {
            let end = rest.find('}').expect("a closed comment");
            rest = &rest[end + 1..];
            continue;
        }
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '?' | '!' if depth == 0 => {}
            _ if depth == 0 => out.push(c),
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    squeeze(&out)
}

/// Runs of blanks and line ends as one blank.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `--puzzles`: the planted positions of `fixtures/analysis/puzzle_games.bao` (from
/// `fixtures/analysis/puzzles.jsonl`) where one first move wins are found, with their win in
/// N; the one where two first moves win in 2 is not; the problem set checks clean.
#[test]
fn puzzles_are_found_where_exactly_one_move_wins() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let set = dir.path().join("set.bao");
    let set_arg = set.to_str().expect("UTF-8 path");
    let out = output(
        &[
            "analyse",
            "--puzzles",
            "fixtures/analysis/puzzle_games.bao",
            "-o",
            set_arg,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", crate::cmd::render(&out));
    let text = std::fs::read_to_string(&set).expect("the problem set");
    let sources: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Source \""))
        .collect();
    // Game 2's position has two winning moves: not a puzzle (the position two plies on,
    // where one move wins at once, is another).
    assert!(!text.contains("game 2, before ply 1\""), "{text}");
    assert!(
        sources.contains(&"fixtures/analysis/puzzle_games.bao, game 1, before ply 1\"]"),
        "{text}"
    );
    assert!(
        sources.contains(&"fixtures/analysis/puzzle_games.bao, game 3, before ply 1\"]"),
        "{text}"
    );
    // Game 1: B1< wins in 2 moves (B5< only in 3): a win in 2, its solution B1<.
    let first = &text[..text.find("game 3,").unwrap_or(text.len())];
    assert!(first.contains("[Problem \"win in 2\"]"), "{text}");
    assert!(first.contains("1. B1<"), "{text}");
    // Game 3: b6>, a win in 3 for North.
    let third = &text[text.find("game 3,").expect("game 3")..];
    assert!(third.contains("[Problem \"win in 3\"]"), "{third}");
    assert!(third.contains("1... b6>"), "{third}");
    let check = output(&["check", set_arg], "");
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        crate::cmd::render(&check)
    );
    insta::assert_snapshot!(text);
}

/// `--max-moves 1`: only wins in one move; a win in 2 or 3 is not asked for.
#[test]
fn puzzles_stop_at_the_longest_win_asked() {
    let out = output(
        &[
            "analyse",
            "--puzzles",
            "fixtures/analysis/puzzle_games.bao",
            "--max-moves",
            "1",
            "-q",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", crate::cmd::render(&out));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let problems: Vec<&str> = text.lines().filter(|l| l.starts_with("[Problem")).collect();
    // The last move of each game (the wins in 2 and 3 are not asked).
    assert_eq!(problems, ["[Problem \"win in 1\"]"; 4], "{text}");
}

/// A record with errors is reported (with its place) and the exit code says so; a
/// missing input too.
#[test]
fn puzzles_report_bad_inputs() {
    let out = output(
        &[
            "analyse",
            "--puzzles",
            "fixtures/analysis/no_such_file.bao",
            "-q",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", crate::cmd::render(&out));
    let out = output(
        &["analyse", "--puzzles", "-", "-q"],
        "[Result \"*\"]\n\n1. A6<* a6<* *\n",
    );
    assert_eq!(out.status.code(), Some(1), "{}", crate::cmd::render(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("stdin:3"),
        "{}",
        crate::cmd::render(&out)
    );
}
