//! `bao show`: text diagrams of positions of a record.

use crate::cmd::run;

#[test]
fn show_the_last_position() {
    insta::assert_snapshot!(run(&["show", "fixtures/games/short_bao_hamna.bao"], ""));
}

#[test]
fn show_a_ply_flipped() {
    insta::assert_snapshot!(run(
        &[
            "show",
            "fixtures/games/random_kete_5.bao",
            "--ply",
            "8",
            "--flip"
        ],
        ""
    ));
}

#[test]
fn show_the_start_of_a_game_from_stdin() {
    insta::assert_snapshot!(run(
        &["show", "-", "--ply", "0"],
        "[Result \"*\"]\n\n1. A7>* *\n"
    ));
}

#[test]
fn show_a_position_string() {
    insta::assert_snapshot!(run(
        &[
            "show",
            "--position",
            "0,0,0,9,0,0,0,0/1,0,0,0,1,1,0,2/0,1,2,3,1,10,5,0/3,1,1,2,4,2,0,5 5/5 S XX -",
            "--rules",
            "kiswahili"
        ],
        ""
    ));
}

/// `bao show` on an invalid record: any ply before its first invalid one (exit 0, with a
/// note), a ply at or past it refused naming it (exit 1).
#[test]
fn an_invalid_record_shows_the_plies_before_its_first_invalid_one() {
    let file = "fixtures/invalid/repair/legal_slip.bao";
    let shown = crate::cmd::output(&["--color", "never", "show", "--ply", "2", file], "");
    assert_eq!(shown.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&shown.stdout);
    assert!(stdout.starts_with("After ply 2: North a6>"), "{stdout}");
    let stderr = String::from_utf8_lossy(&shown.stderr);
    assert!(
        stderr.ends_with(
            "bao: fixtures/invalid/repair/legal_slip.bao: the position after ply 2; the record \
             stops being valid at ply 5 (A5<)\n"
        ),
        "{stderr}"
    );
    let last = crate::cmd::output(&["--color", "never", "show", file], "");
    assert_eq!(last.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&last.stdout).starts_with("After ply 4: "));
    let past = crate::cmd::output(&["--color", "never", "show", "--ply", "5", file], "");
    assert_eq!(past.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&past.stderr).ends_with(
        "no position after ply 5: the record is valid up to ply 4 only; ply 5 (A5<) is invalid\n"
    ));
}
