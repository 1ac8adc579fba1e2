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
