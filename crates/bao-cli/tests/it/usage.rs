//! Arguments and the exit code 2: usage errors, unreadable files.

use crate::cmd::run;

#[test]
fn usage_errors_exit_2() {
    insta::assert_snapshot!(run(&["perft"], ""));
    insta::assert_snapshot!(run(&["perft", "--depth", "1", "--rules", "zanzibar"], ""));
    insta::assert_snapshot!(run(&["frobnicate"], ""));
}

#[test]
fn a_missing_file_exits_2() {
    insta::assert_snapshot!(run(
        &[
            "--color",
            "never",
            "replay",
            "fixtures/replay/no-such-file.jsonl"
        ],
        ""
    ));
}

#[test]
fn help_lists_the_commands() {
    let out = run(&["--help"], "");
    assert!(out.starts_with("exit: 0\n"), "{out}");
    for command in ["replay", "perft", "export", "show"] {
        assert!(out.contains(command), "{out}");
    }
}
