use bao_validate::{fix_text, CheckOptions};

use crate::{bao_files, check, fixtures_dir};

fn fix(text: &str) -> String {
    fix_text("t.bao", text, &CheckOptions::default()).text
}

/// `bao check --fix` on a record with no problem changes no byte: every fixture that checks
/// without a diagnostic is given back as it is.
#[test]
fn a_clean_fixture_is_left_byte_for_byte() {
    let mut files = Vec::new();
    bao_files(fixtures_dir(), &mut files);
    files.sort();
    let mut clean = 0;
    for f in &files {
        let Ok(text) = String::from_utf8(std::fs::read(f).unwrap()) else {
            continue;
        };
        if !check("t.bao", &text).report.diagnostics.is_empty() {
            continue;
        }
        clean += 1;
        let fixed = fix_text("t.bao", &text, &CheckOptions::default());
        assert!(!fixed.changed(), "{}: {:?}", f.display(), fixed.applied);
        assert_eq!(fixed.text, text, "{}", f.display());
    }
    assert!(clean > 15, "only {clean} clean fixtures");
}

/// The example: the two wrong numbers are rewritten, nothing else.
#[test]
fn wrong_numbers_are_renumbered_and_nothing_else() {
    let fixed = fix_text(
        "t.bao",
        "1. A6L* a6R 3. A4R a6R 7... A5L a3R *\n",
        &CheckOptions::default(),
    );
    assert_eq!(fixed.text, "1. A6L* a6R 2. A4R a6R 3. A5L a3R *\n");
    let what: Vec<&str> = fixed.applied.iter().map(|a| a.what.as_str()).collect();
    assert_eq!(
        what,
        [
            "ply 3: move number 3. became 2.",
            "ply 5: move number 7... became 3."
        ]
    );
    assert!(fixed.report.diagnostics.is_empty());
}

/// The movetext of a record (after its header's blank line) written in K.I.B.A. letters.
fn kiba(text: &str) -> String {
    let (head, moves) = text.split_once("\n\n").expect("a header");
    format!("{head}\n\n{}", moves.replace('<', "L").replace('>', "R"))
}

/// The missing ply is inserted (before the refused move, which keeps its number when it has
/// one) in the record's notation, and every number after it that the insertion shifted is
/// renumbered: only the number tokens change, so a `N.` written before what is now North's
/// ply becomes `N...`.
#[test]
fn an_inserted_ply_renumbers_what_follows_in_the_records_notation() {
    let text = std::fs::read_to_string(fixtures_dir().join("invalid/repair/missing_ply.bao"))
        .expect("the fixture");
    let expected = text
        .replace("\nA5> [xa4:3", "\na6< A5> [xa4:3")
        .replace("5. a5>", "5... a5>")
        .replace("6. a5>", "6... a5>")
        .replace("7. a5<", "7... a5<");
    assert_ne!(expected, text);
    let fixed = fix_text("t.bao", &text, &CheckOptions::default());
    assert_eq!(fixed.text, expected);
    assert!(fixed.report.diagnostics.is_empty());
    let what: Vec<&str> = fixed.applied.iter().map(|a| a.what.as_str()).collect();
    assert_eq!(
        what,
        [
            "ply 8: a6< inserted",
            "ply 10: move number 5. became 5...",
            "ply 12: move number 6. became 6...",
            "ply 14: move number 7. became 7...",
        ]
    );
    // The same record in K.I.B.A. letters: the inserted ply is written `a6L`.
    let fixed = fix(&kiba(&text));
    assert_eq!(fixed, kiba(&expected));
    assert!(fixed.contains("\na6L A5R [xa4:3"), "{fixed}");
}

/// A missing ply before a numbered move goes before its number: the number stays with the
/// move it was written for, and nothing is renumbered.
#[test]
fn an_inserted_ply_goes_before_the_number_of_its_move() {
    assert_eq!(
        fix("1. A6L* a6R 2. A4R 3. A5L *\n"),
        "1. A6L* a6R 2. A4R a6R 3. A5L *\n"
    );
}

/// After a `Position` tag with North to move, the count starts with North's ply of the first
/// move's number (the replay's start gives the side): `12... a6<*` is right, `12.` is not.
#[test]
fn a_north_start_is_numbered_from_the_position_tag() {
    let north = "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 N FF -";
    let right = format!("[Position \"{north}\"]\n\n12... a6<* *\n");
    assert!(
        check("t.bao", &right).report.diagnostics.is_empty(),
        "{:?}",
        crate::codes(&check("t.bao", &right))
    );
    let wrong = right.replace("12... a6<*", "12. a6<*");
    assert_eq!(
        crate::codes(&check("t.bao", &wrong)),
        ["bao::record::move_number_mismatch"]
    );
    assert_eq!(fix(&wrong), right);
}

/// A published problem whose point is its never-ending last move: `--fix` leaves it (the
/// help says how the rules can let it stand); the same move with a move after it is a slip,
/// and is repaired.
#[test]
fn a_final_never_ending_move_is_never_rewritten() {
    let text = std::fs::read_to_string(fixtures_dir().join("invalid/illegal/never_ending.bao"))
        .unwrap()
        .replace("[Event ", "{ The point: 12. A3< never ends. }\n[Event ");
    let fixed = fix_text("t.bao", &text, &CheckOptions::default());
    assert!(!fixed.changed(), "{:?}", fixed.applied);
    assert_eq!(fixed.text, text);
    let checked = check("t.bao", &text);
    let help = checked
        .report
        .diagnostics
        .iter()
        .find_map(|d| match d {
            bao_validate::AnyDiagnostic::Check(c) if c.code == bao_validate::Code::NeverEnding => {
                c.help.clone()
            }
            _ => None,
        })
        .unwrap();
    assert!(
        help.contains("[Rules \"endless_move=draw\"]")
            && help.contains("[Rules \"endless_move=mover_loses\"]"),
        "{help}"
    );
    // As the author may mean it: drawn, and the record checks clean.
    let drawn = text
        .replace("[Event ", "[Rules \"endless_move=draw\"]\n[Event ")
        .replace("12. A3<* *", "12. A3<* 1/2-1/2");
    assert!(
        check("t.bao", &drawn).report.diagnostics.is_empty(),
        "{:?}",
        check("t.bao", &drawn).report.diagnostics
    );
    // Not the last move: repaired as any slip.
    let followed = text.replace("12. A3<* *", "12. A3<* a4< *");
    let fixed = fix_text("t.bao", &followed, &CheckOptions::default());
    assert!(fixed.text.contains("12. A3>*"), "{}", fixed.text);
}

/// The result repair the diagnostic asks for ("Write 1-0.") is applied to the result token
/// and the Result tag, and nothing else changes.
#[test]
fn the_boards_result_is_written() {
    let text =
        std::fs::read_to_string(fixtures_dir().join("invalid/record/result_mismatch.bao")).unwrap();
    assert!(text.contains("[Result \"0-1\"]") && text.trim_end().ends_with("0-1"));
    let fixed = fix_text("t.bao", &text, &CheckOptions::default());
    assert_eq!(fixed.applied.len(), 1, "{:?}", fixed.applied);
    assert_eq!(fixed.applied[0].what, "result 0-1 became 1-0, the board's");
    let want = text
        .replace("[Result \"0-1\"]", "[Result \"1-0\"]")
        .replace("0-1\n", "1-0\n");
    assert_eq!(fixed.text, want);
    assert!(fixed.report.diagnostics.is_empty());
}

/// A Kujifunza game labelled Kete replays cleanly under its own preset: the first illegal
/// move's help names it (as the `Directions` note does for the signs); `--fix` does not
/// change the tag.
#[test]
fn another_rule_set_is_named_in_the_help() {
    let text = std::fs::read_to_string(fixtures_dir().join("games/preset_kujifunza.bao")).unwrap();
    assert!(check("t.bao", &text).report.diagnostics.is_empty());
    let labelled = text.replace("[RuleSet \"kujifunza\"]", "[RuleSet \"kete\"]");
    assert_ne!(labelled, text);
    let checked = check("t.bao", &labelled);
    let helps: Vec<String> = checked
        .report
        .diagnostics
        .iter()
        .filter_map(|d| match d {
            bao_validate::AnyDiagnostic::Check(c) => c.help.clone(),
            bao_validate::AnyDiagnostic::Syntax(_) => None,
        })
        .collect();
    let named: Vec<&String> = helps
        .iter()
        .filter(|h| h.contains("replays cleanly under [RuleSet \"kujifunza\"]"))
        .collect();
    assert_eq!(named.len(), 1, "{helps:?}");
    let fixed = fix_text("t.bao", &labelled, &CheckOptions::default());
    assert!(fixed.text.contains("[RuleSet \"kete\"]"));
}
