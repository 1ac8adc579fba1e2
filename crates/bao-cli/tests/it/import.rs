//! `bao import json`: export → import → export gives the same JSON; bad JSON exits 1.

use crate::cmd::run;

/// The stdout of a successful run.
fn stdout(args: &[&str], stdin: &str) -> String {
    let out = run(args, stdin);
    let rest = out
        .strip_prefix("exit: 0\n--- stdout\n")
        .unwrap_or_else(|| panic!("bao {args:?} failed:\n{out}"));
    let (stdout, stderr) = rest.split_once("--- stderr\n").unwrap();
    assert_eq!(stderr, "", "bao {args:?}");
    stdout.to_owned()
}

#[test]
fn export_import_export_is_stable() {
    for path in [
        "fixtures/games/short_bao_hamna.bao",
        "fixtures/games/random_kete_5.bao",
        "fixtures/games/random_kiswahili_3.bao",
        "crates/bao-export/tests/data/annotated.bao",
    ] {
        let json = stdout(&["export", "json", path], "");
        let record = stdout(&["import", "json", "-"], &json);
        let again = stdout(&["export", "json", "-"], &record);
        assert_eq!(json, again, "{path}");
    }
}

/// A comment written after a variation comes back after it, one before it before it, and
/// one between two variations between them (`variations_before_comments`); the record
/// imported is the canonical form of the one exported.
#[test]
fn comments_keep_their_place_around_variations() {
    let record = "[Event \"x\"]\n[Result \"*\"]\n\n\
        1. A6<* {before} (1. A7>* {in it} a6<*) {between} (1. A6>*) {after the variations}\n\
        a5< {after a5} 2. A3> (2. A3<) {last} *\n";
    let json = stdout(&["export", "json", "-"], record);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let moves = &v["games"][0]["moves"];
    assert_eq!(
        moves[0]["comments"],
        serde_json::json!(["before", "between", "after the variations"])
    );
    assert_eq!(
        moves[0]["variations_before_comments"],
        serde_json::json!([0, 1, 2])
    );
    assert!(moves[1].get("variations_before_comments").is_none());
    assert_eq!(
        moves[2]["variations_before_comments"],
        serde_json::json!([1])
    );
    let imported = stdout(&["import", "json", "-"], &json);
    assert_eq!(imported, stdout(&["fmt", "-"], record));
    let at = |s: &str| {
        imported
            .find(s)
            .unwrap_or_else(|| panic!("{s} in {imported}"))
    };
    assert!(at("{before}") < at("A7>*") && at("A7>*") < at("{between}"));
    assert!(at("{between}") < at("A6>*") && at("A6>*") < at("{after the variations}"));
    assert!(at("A3<") < at("{last}"), "{imported}");
    assert_eq!(stdout(&["export", "json", "-"], &imported), json);
}

#[test]
fn import_writes_the_canonical_record() {
    let json = stdout(
        &[
            "export",
            "json",
            "crates/bao-export/tests/data/annotated.bao",
        ],
        "",
    );
    insta::assert_snapshot!(run(&["import", "json", "-"], &json));
}

#[test]
fn json_that_is_no_export_exits_1() {
    insta::assert_snapshot!(run(
        &["--color", "never", "import", "json", "-"],
        "{\"schema\": 2, \"games\": []}"
    ));
    insta::assert_snapshot!(run(&["--color", "never", "import", "json", "-"], "{"));
}

/// The Position tag of a record written by `bao import diagram`.
fn position_tag(record: &str) -> &str {
    let line = record
        .lines()
        .find(|l| l.starts_with("[Position \""))
        .expect("a Position tag");
    &line["[Position \"".len()..line.len() - 2]
}

/// The seeds' own start diagram of Bao la Kete (four lines) and the Kiswahili start printed
/// on one line read back as the rule sets' starts, and the records check clean.
#[test]
fn printed_start_diagrams_read_back() {
    let start = "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S FF -";
    for (file, rules) in [
        ("fixtures/diagram/kete_start.txt", "kete"),
        ("fixtures/diagram/kiswahili_start.txt", "kiswahili"),
    ] {
        let record = stdout(&["import", "diagram", file, "--rules", rules], "");
        assert_eq!(position_tag(&record), start, "{file}");
        assert!(
            record.contains(&format!("[RuleSet \"{rules}\"]")),
            "{record}"
        );
        let checked = run(&["check", "-"], &record);
        assert!(checked.starts_with("exit: 0\n"), "{checked}");
    }
    insta::assert_snapshot!(run(
        &[
            "import",
            "diagram",
            "fixtures/diagram/kete_start.txt",
            "--rules",
            "kete"
        ],
        ""
    ));
}

/// A position in mtaji read from its 32 counts: the printed order lands every count in its
/// pit (North's rows from pit 8 down), hands none, North to move.
#[test]
fn a_mtaji_diagram_reads_in_the_printed_order() {
    let record = stdout(
        &[
            "import",
            "diagram",
            "fixtures/diagram/mtaji.txt",
            "--rules",
            "kiswahili",
            "--to-move",
            "north",
        ],
        "",
    );
    assert_eq!(
        position_tag(&record),
        "2,2,2,2,6,2,2,2/1,1,1,1,1,1,1,1/2,2,2,2,6,2,2,2/2,2,2,2,2,2,2,2 0/0 N FF -"
    );
    // Hands and houses given: a namua position with a destroyed house.
    let record = stdout(
        &[
            "import",
            "diagram",
            "-",
            "--rules",
            "kiswahili",
            "--hands",
            "10/4",
            "--houses",
            "XF",
            "--stage",
            "namua",
        ],
        "3 0 0 0 0 0 0 0\n0 0 0 6 2 2 0 0\n2 2 2 2 2 2 2 2\n4 4 4 4 4 0 0 1\n",
    );
    assert_eq!(
        position_tag(&record),
        "2,2,2,2,2,2,2,2/4,4,4,4,4,0,0,1/0,0,2,2,6,0,0,0/0,0,0,0,0,0,0,3 10/4 S XF -"
    );
}

/// Every `bao::diagram::*` code from its fixture (`fixtures/diagram/invalid/<slug>.txt`,
/// with the options that reach it): exit 1, nothing on stdout, the diagnostic and the rule
/// set's start as printed on stderr.
#[test]
fn each_diagram_fixture_has_its_diagnostic() {
    let cases: [(&str, &[&str]); 10] = [
        ("not_a_count", &["--rules", "kete"]),
        ("too_large", &["--rules", "kete"]),
        ("missing_count", &["--rules", "kete"]),
        ("too_many_counts", &["--rules", "kete"]),
        ("row_length", &["--rules", "kete"]),
        ("hands_unknown", &["--rules", "kete"]),
        ("seed_total", &["--rules", "kete", "--hands", "22/10"]),
        ("stage", &["--rules", "kiswahili", "--stage", "namua"]),
        ("house_unknown", &["--rules", "kiswahili"]),
        (
            "invalid_position",
            &["--rules", "kiswahili", "--hands", "30/14"],
        ),
    ];
    let dir = crate::cmd::root().join("fixtures/diagram/invalid");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = cases.iter().map(|(s, _)| format!("{s}.txt")).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "one fixture per code");
    for (slug, options) in cases {
        let file = format!("fixtures/diagram/invalid/{slug}.txt");
        let mut args = vec!["--color", "never", "import", "diagram", file.as_str()];
        args.extend_from_slice(options);
        let out = run(&args, "");
        assert!(
            out.starts_with("exit: 1\n--- stdout\n--- stderr\n"),
            "{slug}: {out}"
        );
        assert!(
            out.contains(&format!("bao::diagram::{slug}")),
            "{slug}: {out}"
        );
        insta::assert_snapshot!(slug, out);
    }
}
