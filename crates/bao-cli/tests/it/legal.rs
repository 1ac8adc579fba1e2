//! `bao legal`: the legal moves of a position of a record or of a position string.

use crate::cmd::run;

const START: &str = "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S FF -";
const PROBLEM: &str = "0,0,0,9,0,0,0,0/1,0,0,0,1,1,0,2/0,1,2,3,1,10,5,0/3,1,1,2,4,2,0,5 5/5 S XX -";

#[test]
fn legal_moves_after_a_ply_of_a_record() {
    insta::assert_snapshot!(run(
        &["legal", "fixtures/games/short_bao_hamna.bao", "--ply", "3"],
        ""
    ));
}

/// `bao legal --lang sw`: each move's description and the end of a finished game in
/// Kiswahili, the moves themselves as in English.
#[test]
fn legal_moves_in_kiswahili() {
    insta::assert_snapshot!(run(
        &[
            "--lang",
            "sw",
            "legal",
            "fixtures/games/short_bao_hamna.bao",
            "--ply",
            "3"
        ],
        ""
    ));
    insta::assert_snapshot!(run(
        &[
            "legal",
            "--lang",
            "sw",
            "fixtures/games/short_bao_hamna.bao"
        ],
        ""
    ));
}

#[test]
fn legal_moves_with_safari_in_a_match_game() {
    insta::assert_snapshot!(run(
        &[
            "legal",
            "fixtures/games/match_best_of_three.bao",
            "--game",
            "2",
            "--ply",
            "5"
        ],
        ""
    ));
}

#[test]
fn legal_moves_of_a_position_string() {
    insta::assert_snapshot!(run(&["legal", "--position", START], ""));
    insta::assert_snapshot!(run(&["legal", "--position", START, "--rules", "kete"], ""));
}

#[test]
fn legal_moves_as_json() {
    insta::assert_snapshot!(run(
        &["legal", "--position", PROBLEM, "--format", "json"],
        ""
    ));
}

#[test]
fn a_finished_game_has_no_legal_moves() {
    insta::assert_snapshot!(run(&["legal", "fixtures/games/short_bao_hamna.bao"], ""));
    insta::assert_snapshot!(run(
        &[
            "legal",
            "fixtures/games/short_bao_hamna.bao",
            "--format",
            "json"
        ],
        ""
    ));
}

#[test]
fn legal_reads_stdin() {
    insta::assert_snapshot!(run(
        &["legal", "-", "--ply", "1"],
        "[Result \"*\"]\n\n1. A7>* *\n"
    ));
}

#[test]
fn bad_input_exits_1() {
    // A ply at or past a record's first invalid one.
    insta::assert_snapshot!(run(
        &[
            "--color",
            "never",
            "legal",
            "--ply",
            "2",
            "fixtures/invalid/illegal/capture_mandatory.bao"
        ],
        ""
    ));
    insta::assert_snapshot!(run(
        &["--color", "never", "legal", "--position", "0,0/0 S"],
        ""
    ));
    insta::assert_snapshot!(run(
        &[
            "--color",
            "never",
            "legal",
            "--position",
            START,
            "--rules",
            "zanzibar"
        ],
        ""
    ));
}

#[test]
fn usage_errors_exit_2() {
    insta::assert_snapshot!(run(&["--color", "never", "legal"], ""));
    insta::assert_snapshot!(run(
        &[
            "--color",
            "never",
            "legal",
            "fixtures/games/short_bao_hamna.bao",
            "--position",
            START
        ],
        ""
    ));
    insta::assert_snapshot!(run(
        &[
            "--color",
            "never",
            "legal",
            "fixtures/games/short_bao_hamna.bao",
            "--ply",
            "9"
        ],
        ""
    ));
    insta::assert_snapshot!(run(
        &["--color", "never", "legal", "fixtures/no-such-file.bao"],
        ""
    )); // --rules belongs to --position: a record names its own rules.
    insta::assert_snapshot!(run(
        &[
            "legal",
            "fixtures/games/short_bao_hamna.bao",
            "--rules",
            "kete"
        ],
        ""
    ));
}

/// An invalid record gives the legal moves of any ply before its first invalid one (by
/// default the last valid one), with a note where it stops being valid.
#[test]
fn an_invalid_record_gives_the_moves_before_its_first_invalid_ply() {
    insta::assert_snapshot!(run(
        &[
            "--color",
            "never",
            "legal",
            "fixtures/invalid/illegal/capture_mandatory.bao"
        ],
        ""
    ));
    let at_start = crate::cmd::output(
        &[
            "legal",
            "--ply",
            "0",
            "fixtures/invalid/illegal/capture_mandatory.bao",
        ],
        "",
    );
    assert_eq!(at_start.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&at_start.stdout).starts_with("A6<*"));
}
