//! `bao export json|svg|png`: output on fixtures, invalid records, `--ply` out of range,
//! files written with `-o`.

use crate::cmd::{output, render, root, run};

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

/// `--best-move`: the engine's move for North after ply 2 as a green arrow (the engine
/// searched 4 plies deep, deterministic).
#[test]
fn svg_with_the_best_move() {
    let out = run(
        &[
            "export",
            "svg",
            "fixtures/games/short_bao_hamna.bao",
            "--ply",
            "2",
            "--best-move",
            "--depth",
            "4",
        ],
        "",
    );
    assert!(out.contains("markup-arrows"), "{out}");
    insta::assert_snapshot!(out);
    // Without a record's move left: the end of the game has no best move and no arrow.
    let end = run(
        &[
            "export",
            "svg",
            "fixtures/games/short_bao_hamna.bao",
            "--best-move",
        ],
        "",
    );
    assert!(
        end.starts_with("exit: 0") && !end.contains("markup-arrows"),
        "{end}"
    );
    // `--depth` needs `--best-move`.
    let usage = run(
        &[
            "export",
            "svg",
            "fixtures/games/short_bao_hamna.bao",
            "--depth",
            "3",
        ],
        "",
    );
    assert!(usage.starts_with("exit: 2"), "{usage}");
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

/// The PNG's width and height from its header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[1..4], b"PNG");
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

/// `bao export png` takes the diagram flags of `svg`: each changes the picture, and
/// `--no-coordinates` its height (the margins go, the width stays).
#[test]
fn png_takes_every_diagram_flag() {
    let dir = tempfile::tempdir().unwrap();
    let game = "fixtures/diagrams/markup.bao";
    let draw = |name: &str, flags: &[&str]| -> Vec<u8> {
        let path = dir.path().join(format!("{name}.png"));
        let mut args = vec![
            "export",
            "png",
            game,
            "--ply",
            "3",
            "-o",
            path.to_str().unwrap(),
        ];
        args.extend_from_slice(flags);
        let out = output(&args, "");
        assert!(out.status.success(), "{name}: {}", render(&out));
        std::fs::read(&path).unwrap()
    };
    let plain = draw("plain", &[]);
    assert_eq!(png_size(&plain), (652, 496));
    for (name, flags) in [
        ("flip", &["--flip"][..]),
        ("dark", &["--theme", "dark"]),
        ("print", &["--theme", "print"]),
        ("dots", &["--dots"]),
        ("bare", &["--no-coordinates"]),
        ("no-last-move", &["--no-last-move"]),
        ("caption", &["--caption", "A threat on a3"]),
        ("markup", &["--markup", "[%csl Yb1]"]),
    ] {
        let png = draw(name, flags);
        assert_ne!(png, plain, "{name} changes nothing");
        let want = match name {
            "bare" => (652, 482),
            "no-last-move" => (652, 462),
            _ => (652, 496),
        };
        assert_eq!(png_size(&png), want, "{name}");
    }
}

/// A puzzle: a position string with marks and a caption, no record.
#[test]
fn svg_of_a_position_with_markup() {
    let out = run(
        &[
            "export",
            "svg",
            "--position",
            "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S FF -",
            "--markup",
            "[%csl GA6][%cal GA6a6]",
            "--caption",
            "South to play",
        ],
        "",
    );
    assert!(out.starts_with("exit: 0\n"), "{out}");
    for want in [
        "id=\"bao-mark-A6\"",
        "id=\"bao-arrow-A6-a6\"",
        ">South to play<",
        "South (to move)",
    ] {
        assert!(out.contains(want), "{want}");
    }
    // Bad markup is an invalid argument, said where.
    let bad = run(
        &["export", "svg", "--position", "x", "--markup", "[%csl Xa5]"],
        "",
    );
    assert!(bad.starts_with("exit: 1\n"), "{bad}");
    assert!(bad.contains("--markup: `Xa5` is no coloured pit"), "{bad}");
}

/// `--line` draws a variation's plies; a line the game does not have is a usage error.
#[test]
fn svg_of_a_variation_and_of_the_real_result() {
    let game = "fixtures/diagrams/markup.bao";
    let var = run(&["export", "svg", game, "--line", "2.1"], "");
    assert!(var.starts_with("exit: 0\n"), "{var}");
    assert!(var.contains("North a7&gt;*: 1 lap") && var.contains("id=\"bao-arrow-a7-a6\""));
    let before = run(&["export", "svg", game, "--line", "2.1", "--ply", "1"], "");
    assert!(before.contains("South A7&gt;*"));
    let missing = run(&["export", "svg", game, "--line", "3.1"], "");
    assert!(missing.starts_with("exit: 2\n"), "{missing}");
    assert!(
        missing.contains("--line 3.1: game 1: ply 3 has 0"),
        "{missing}"
    );
    let malformed = run(&["export", "svg", game, "--line", "3"], "");
    assert!(malformed.starts_with("exit: 2\n") && malformed.contains("is no line"));
    // The game was resigned: the last diagram says so and nobody is to move.
    let last = run(&["export", "svg", game], "");
    assert!(last.contains("South wins (North resigned)"));
    assert!(!last.contains("(to move)"));
    assert!(last.contains("South: Amina"));
}

/// Markup that cannot be read is a warning with its place; the export goes on.
#[test]
fn bad_markup_warns_and_exports() {
    let out = run(
        &[
            "--color",
            "never",
            "export",
            "svg",
            "fixtures/invalid/syntax/bad_markup.bao",
            "--ply",
            "1",
        ],
        "",
    );
    assert!(out.starts_with("exit: 0\n"), "{out}");
    assert!(out.contains("bao::syntax::bad_markup"));
    assert!(out.contains("bad_markup.bao:6:60"), "{out}");
    assert!(
        out.contains("id=\"bao-mark-a5\""),
        "the good marks are drawn"
    );
}

/// `bao export gif`: a range of plies as a looping GIF at the phone width; a range beyond
/// the game exits 2 and writes nothing; a reversed range is a usage error.
#[test]
fn gif_of_a_range_of_plies() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("game.gif");
    let o = out.to_str().unwrap();
    let done = output(
        &[
            "export",
            "gif",
            "fixtures/games/short_bao_hamna.bao",
            "--plies",
            "2..5",
            "--theme",
            "book",
            "-o",
            o,
        ],
        "",
    );
    assert_eq!(done.status.code(), Some(0), "{}", render(&done));
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..6], b"GIF89a");
    // The logical screen: 480 pixels wide.
    assert_eq!(u16::from_le_bytes([bytes[6], bytes[7]]), 480);
    // Four frames: an image descriptor (0x2C) after each graphic control extension.
    assert_eq!(
        bytes
            .windows(3)
            .filter(|w| w == &[0x21, 0xF9, 0x04])
            .count(),
        4
    );
    let far = dir.path().join("far.gif");
    let beyond = output(
        &[
            "--color",
            "never",
            "export",
            "gif",
            "fixtures/games/short_bao_hamna.bao",
            "--plies",
            "3..9",
            "-o",
            far.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(beyond.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&beyond.stderr).contains("the game has 5 plies"));
    assert!(!far.exists());
    let reversed = output(
        &[
            "export",
            "gif",
            "fixtures/games/short_bao_hamna.bao",
            "--plies",
            "4..2",
            "-o",
            o,
        ],
        "",
    );
    assert_eq!(reversed.status.code(), Some(2));
}

/// Whether poppler's tools (`pdfinfo`, `pdffonts`, `pdftotext`, `pdftoppm`) are here; with
/// CI set a missing tool fails the test (`.ci/run` installs poppler-utils).
fn poppler() -> bool {
    let here = ["pdfinfo", "pdffonts", "pdftotext", "pdftoppm"]
        .iter()
        .all(|t| std::process::Command::new(t).arg("-v").output().is_ok());
    if !here {
        assert!(
            std::env::var_os("CI").is_none(),
            "the PDF tests need poppler-utils"
        );
        eprintln!("poppler-utils missing: the PDF test is skipped");
    }
    here
}

/// Runs a poppler tool on a file; its stdout.
fn poppler_out(tool: &str, args: &[&str]) -> String {
    let out = std::process::Command::new(tool)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{tool} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `bao export pdf`: the booklet fixture (diagrams asked by `[%diagram]`), the published
/// problem and Mancala World's problem 3 and a whole game, every 30 plies: a valid PDF (as
/// poppler reads it) with every font embedded, the moves and captions as text, a page
/// number on every page, pages that render with ink on them; A4 and Letter.
#[test]
fn pdf_booklet_of_games_and_problems() {
    if !poppler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("book.pdf");
    let o = out.to_str().unwrap();
    let files = [
        "fixtures/pdf/booklet.bao",
        "fixtures/games/problem_position.bao",
        "fixtures/annotation/never_ending/annotated.bao",
        "fixtures/games/preset_kiswahili.bao",
    ];
    let mut args = vec!["export", "pdf"];
    args.extend(files);
    args.extend(["--every", "30", "-o", o]);
    let done = output(&args, "");
    assert_eq!(done.status.code(), Some(0), "{}", render(&done));
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.starts_with(b"%PDF-1.7"));

    let info = poppler_out("pdfinfo", &[o]);
    assert!(
        info.contains("Page size:       595.276 x 841.89 pts (A4)"),
        "{info}"
    );
    assert!(
        info.contains("Title:           Club booklet, December"),
        "{info}"
    );
    let pages: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!((3..=12).contains(&pages), "{pages} pages");

    // Every font is embedded: the `emb` column of each font says yes.
    let fonts = poppler_out("pdffonts", &[o]);
    let rows: Vec<&str> = fonts.lines().skip(2).collect();
    assert!(rows.len() >= 2, "{fonts}");
    for row in rows {
        let cols: Vec<&str> = row.split_whitespace().collect();
        let n = cols.len();
        assert_eq!(cols[n - 5], "yes", "not embedded: {row}");
    }

    let text = poppler_out("pdftotext", &["-layout", o, "-"]);
    // Captions wrap: the words in reading order, one space apart.
    let flat = poppler_out("pdftotext", &[o, "-"])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for want in [
        "Club booklet, December",
        "Amina – Juma",
        "A short game from the club's evening",
        "A7>*",
        "After 1. A7>*: South opens on the right.",
        "After 2... a5>: North captures A4 and sows from its kichwa.",
        "(2... a4< {capturing A5 was possible too})",
        "South wins",
        "Start: South to move",
        "Mancala World Problem 3",
        "12. A3<*",
        "Draw",
    ] {
        assert!(flat.contains(want), "no `{want}` in\n{flat}");
    }
    // A page number at the foot of each page.
    for (i, page) in text.split('\u{c}').take(pages).enumerate() {
        let last = page.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
        assert_eq!(last.trim(), (i + 1).to_string(), "page {}", i + 1);
    }

    // The first page renders, with ink on it (text and three diagrams).
    let base = dir.path().join("page");
    poppler_out(
        "pdftoppm",
        &[
            "-gray",
            "-r",
            "30",
            "-f",
            "1",
            "-l",
            "1",
            o,
            base.to_str().unwrap(),
        ],
    );
    let pgm = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "pgm"))
        .unwrap();
    let pgm = std::fs::read(pgm).unwrap();
    // P5, width, height, 255, then one byte a pixel.
    let header_end = pgm
        .iter()
        .enumerate()
        .filter(|(_, b)| b.is_ascii_whitespace())
        .nth(3)
        .unwrap()
        .0;
    let pixels = &pgm[header_end + 1..];
    let ink = pixels.iter().filter(|&&p| p < 128).count();
    assert!(
        ink * 100 > pixels.len() && ink * 4 < pixels.len(),
        "{ink} dark pixels of {}",
        pixels.len()
    );

    // Letter.
    let letter = dir.path().join("letter.pdf");
    let l = letter.to_str().unwrap();
    let done = output(
        &[
            "export",
            "pdf",
            files[0],
            "--paper",
            "letter",
            "--diagram-mm",
            "60",
            "-o",
            l,
        ],
        "",
    );
    assert_eq!(done.status.code(), Some(0), "{}", render(&done));
    let info = poppler_out("pdfinfo", &[l]);
    assert!(info.contains("612 x 792 pts (letter)"), "{info}");
}

/// `bao export pdf` refuses what it cannot set: a diagram too small (usage, exit 2) and an
/// invalid record (exit 1); neither writes the file.
#[test]
fn pdf_refuses_bad_sizes_and_invalid_records() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("book.pdf");
    let o = out.to_str().unwrap();
    let small = output(
        &[
            "export",
            "pdf",
            "fixtures/pdf/booklet.bao",
            "--diagram-mm",
            "5",
            "-o",
            o,
        ],
        "",
    );
    assert_eq!(small.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&small.stderr).contains("no diagram width"));
    let invalid = output(
        &["export", "pdf", "fixtures/pdf/booklet.bao", "-", "-o", o],
        "1. A6<* a6<* 2. A9< *\n",
    );
    assert_eq!(invalid.status.code(), Some(1), "{}", render(&invalid));
    assert!(!out.exists());
}

/// `bao export pdf --problems`: the puzzle finder's problems, each proven by the solver, on
/// a sheet with the solutions on the last page; a tag the solver does not prove is reported
/// at its place, left off, and makes the exit status 1.
#[test]
fn pdf_problem_sheet_prints_only_proven_claims() {
    if !poppler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sheet.pdf");
    let o = out.to_str().unwrap();
    let done = output(
        &[
            "export",
            "pdf",
            "--problems",
            "fixtures/pdf/problems.bao",
            "-o",
            o,
        ],
        "",
    );
    assert_eq!(done.status.code(), Some(0), "{}", render(&done));
    let info = poppler_out("pdfinfo", &[o]);
    assert!(info.contains("Pages:           2"), "{info}");
    let pages: Vec<String> = poppler_out("pdftotext", &[o, "-"])
        .split('\u{c}')
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    for want in [
        "3 problems; the solutions are on the last page",
        "Problem 1: North to move and win in 2",
        "Problem 2: North to move and win in 3",
        "Problem 3: South to move and win in 2",
    ] {
        assert!(pages[0].contains(want), "no `{want}` in {}", pages[0]);
    }
    assert!(
        !pages[0].contains("b7>"),
        "a solution on the problems' page"
    );
    for want in [
        "Solutions",
        "1... a7> 2. A2<* b1< (as quick: b7>)",
        "1... b6>",
        "1. B1<",
    ] {
        assert!(pages[1].contains(want), "no `{want}` in {}", pages[1]);
    }

    let mixed = output(
        &[
            "--color",
            "never",
            "export",
            "pdf",
            "--problems",
            "fixtures/pdf/problems.bao",
            "fixtures/pdf/problem_unproven.bao",
            "-o",
            o,
        ],
        "",
    );
    assert_eq!(mixed.status.code(), Some(1), "{}", render(&mixed));
    let stderr = String::from_utf8_lossy(&mixed.stderr);
    assert!(
        stderr.contains(
            "fixtures/pdf/problem_unproven.bao:4:10: game 1: `[Problem \"win in 1\"]` is not \
             proven: within 1 ply the solver finds no forced win; left off the sheet"
        ),
        "{stderr}"
    );
    let text = poppler_out("pdftotext", &[o, "-"]);
    assert!(text.contains("3 problems"), "{text}");

    // No problem at all: nothing written.
    let none = dir.path().join("none.pdf");
    let nothing = output(
        &[
            "export",
            "pdf",
            "--problems",
            "fixtures/pdf/booklet.bao",
            "-o",
            none.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(nothing.status.code(), Some(1));
    assert!(!none.exists());
}

/// `bao export svg|png --problems`: a picture per proven problem, its task as the caption;
/// an unproven tag is reported and exits 1.
#[test]
fn problem_pictures_one_file_each() {
    let dir = tempfile::tempdir().unwrap();
    let svgs = dir.path().join("svg");
    let done = output(
        &[
            "export",
            "svg",
            "--problems",
            "fixtures/pdf/problems.bao",
            "-o",
            svgs.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(done.status.code(), Some(0), "{}", render(&done));
    let mut names: Vec<String> = std::fs::read_dir(&svgs)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["problem-01.svg", "problem-02.svg", "problem-03.svg"]
    );
    let second = std::fs::read_to_string(svgs.join("problem-02.svg")).unwrap();
    assert!(
        second.contains("Problem 2: North to move and win in 3"),
        "{second}"
    );

    let pngs = dir.path().join("png");
    let done = output(
        &[
            "export",
            "png",
            "--problems",
            "fixtures/pdf/problem_unproven.bao",
            "-o",
            pngs.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(done.status.code(), Some(1), "{}", render(&done));
    assert!(!pngs.exists());
    let done = output(
        &[
            "export",
            "png",
            "--problems",
            "fixtures/pdf/problems.bao",
            "-o",
            pngs.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(done.status.code(), Some(0), "{}", render(&done));
    let png = std::fs::read(pngs.join("problem-03.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
}
