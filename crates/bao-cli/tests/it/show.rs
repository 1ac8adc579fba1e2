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
