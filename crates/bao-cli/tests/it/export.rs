//! `bao export json|svg|png`: output on fixtures, invalid records, `--ply` out of range,
//! files written with `-o`.

use crate::cmd::{root, run};

/// The kete game is long: the snapshot keeps the game's header, its first four plies and
/// the outcome; the whole export must still parse and hold every ply.
#[test]
fn json_of_a_kete_game() {
    let out = run(&["export", "json", "fixtures/games/random_kete_5.bao"], "");
    let (head, rest) = out.split_once("--- stdout\n").unwrap();
    let (stdout, stderr) = rest.split_once("--- stderr\n").unwrap();
    // Read back through the DTOs: the export deserializes, and the abridged snapshot keeps
    // the field order.
    let mut json: bao_export::RecordJson = serde_json::from_str(stdout).unwrap();
    let moves = &mut json.games[0].moves;
    let plies = moves.len();
    moves.truncate(4);
    insta::assert_snapshot!(format!(
        "{head}--- stdout (abridged: the first 4 of {plies} plies)\n{}\n--- stderr\n{stderr}",
        serde_json::to_string_pretty(&json).unwrap()
    ));
}

#[test]
fn json_from_stdin_with_legal_moves() {
    insta::assert_snapshot!(run(
        &["export", "json", "--legal", "-"],
        "[Result \"*\"]\n\n1. A7>* a6<* *\n"
    ));
}

#[test]
fn an_invalid_record_exports_nothing() {
    insta::assert_snapshot!(run(
        &["--color", "never", "export", "json", "-"],
        "[Result \"*\"]\n\n1. A1> *\n"
    ));
    insta::assert_snapshot!(run(
        &["--color", "never", "export", "svg", "-", "--ply", "1"],
        "[Result \"*\"]\n\n1. A1> *\n"
    ));
}

#[test]
fn svg_of_one_ply() {
    insta::assert_snapshot!(run(
        &[
            "export",
            "svg",
            "fixtures/games/short_bao_hamna.bao",
            "--ply",
            "3"
        ],
        ""
    ));
}

#[test]
fn svg_of_the_start_flipped_dark_without_coordinates() {
    insta::assert_snapshot!(run(
        &[
            "export",
            "svg",
            "fixtures/games/short_bao_hamna.bao",
            "--ply",
            "0",
            "--flip",
            "--theme",
            "dark",
            "--no-coordinates",
            "--dots"
        ],
        ""
    ));
}

#[test]
fn a_ply_or_game_beyond_the_record_exits_2() {
    insta::assert_snapshot!(run(
        &[
            "--color",
            "never",
            "export",
            "svg",
            "fixtures/games/short_bao_hamna.bao",
            "--ply",
            "6"
        ],
        ""
    ));
    insta::assert_snapshot!(run(
        &[
            "--color",
            "never",
            "show",
            "fixtures/games/short_bao_hamna.bao",
            "--game",
            "2"
        ],
        ""
    ));
}

#[test]
fn files_are_written_with_o() {
    let dir = tempfile::tempdir().unwrap();
    let game = root().join("fixtures/games/short_bao_hamna.bao");
    let game = game.to_str().unwrap();
    let json = dir.path().join("game.json");
    let out = run(&["export", "json", game, "-o", json.to_str().unwrap()], "");
    assert_eq!(out, "exit: 0\n--- stdout\n--- stderr\n");
    let stdout = run(&["export", "json", game], "");
    assert!(stdout.contains(&std::fs::read_to_string(&json).unwrap()));

    let svgs = dir.path().join("svgs");
    let out = run(
        &["export", "svg", game, "--all", "-o", svgs.to_str().unwrap()],
        "",
    );
    assert_eq!(out, "exit: 0\n--- stdout\n--- stderr\n");
    let mut names: Vec<String> = std::fs::read_dir(&svgs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "ply-000.svg",
            "ply-001.svg",
            "ply-002.svg",
            "ply-003.svg",
            "ply-004.svg",
            "ply-005.svg"
        ]
    );
    let third = run(&["export", "svg", game, "--ply", "3"], "");
    assert!(third.contains(&std::fs::read_to_string(svgs.join("ply-003.svg")).unwrap()));

    let png = dir.path().join("board.png");
    let out = run(
        &[
            "export",
            "png",
            game,
            "-o",
            png.to_str().unwrap(),
            "--width",
            "200",
        ],
        "",
    );
    assert_eq!(out, "exit: 0\n--- stdout\n--- stderr\n");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    // The PNG header's width.
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 200);
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 3);
}
