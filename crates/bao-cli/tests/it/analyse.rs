//! `bao analyse`: evaluations, glyphs and better lines; the result checks clean and is in
//! canonical form.

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
    insta::assert_snapshot!(text);
}

/// The annotated record passes `bao check` and `bao fmt --check`; analysing it again
/// replaces the evaluations instead of adding more.
#[test]
fn the_annotated_record_checks_clean_and_is_canonical() {
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
    let fmt = output_in(dir.path(), &["fmt", "--check", "game.bao"], "");
    assert_eq!(fmt.status.code(), Some(0), "{fmt:?}");
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
