//! `bao perft`.

use crate::cmd::run;

#[test]
fn perft_counts() {
    insta::assert_snapshot!(run(&["perft", "--depth", "3"], ""));
    insta::assert_snapshot!(run(
        &["perft", "--rules", "kujifunza", "--depth", "2", "--divide"],
        ""
    ));
}

#[test]
fn perft_from_a_position() {
    let position = r#"{"to_move":"north","stage":"mtaji","hands":{"south":0,"north":0},
        "pits":{"A":[2,2,2,2,2,2,2,2],"B":[2,2,2,2,2,2,2,2],
                "a":[2,2,2,2,2,2,2,2],"b":[2,2,2,2,2,2,2,2]},
        "houses":{"south":"none","north":"none"},"takasia":null}"#;
    insta::assert_snapshot!(run(
        &[
            "perft",
            "--rules",
            "kujifunza",
            "--depth",
            "1",
            "--position",
            position
        ],
        ""
    ));
    // Impossible: the stage contradicts the hands and the seeds do not add up.
    let bad = position
        .replace("\"mtaji\"", "\"namua\"")
        .replace("[2,2,2,2,2,2,2,2],\"B\"", "[3,2,2,2,2,2,2,2],\"B\"");
    insta::assert_snapshot!(run(
        &[
            "--color",
            "never",
            "perft",
            "--rules",
            "kujifunza",
            "--depth",
            "1",
            "--position",
            &bad
        ],
        ""
    ));
}
