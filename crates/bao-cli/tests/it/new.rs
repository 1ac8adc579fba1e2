//! `bao new`: record templates that `bao check` and `bao fmt --check` accept, files
//! written only with `--force` over an existing one, bad option values.

use crate::cmd::{output, run};

/// The template on stdout checks clean and is in canonical form.
fn assert_checks_clean(template: &str) {
    let check = output(&["--color", "never", "check", "-"], template);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert!(stderr.contains("0 errors, 0 warnings"), "{stderr}");
    let fmt = output(&["fmt", "-"], template);
    assert_eq!(String::from_utf8_lossy(&fmt.stdout), template);
}

fn stdout_of(args: &[&str]) -> String {
    let out = output(args, "");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_template_with_every_tag_option() {
    let args = [
        "new",
        "--date",
        "2026.11.29",
        "--event",
        "Zanzibar open, \"final\"",
        "--site",
        "Stone Town",
        "--round",
        "3",
        "--south",
        "Ali Juma",
        "--north",
        "Bakari Omar",
        "--rules",
        "kiswahili  mtaji_takasa_house=relay",
    ];
    insta::assert_snapshot!(run(&args, ""));
    assert_checks_clean(&stdout_of(&args));
}

#[test]
fn the_default_template_has_todays_date() {
    let text = stdout_of(&["new"]);
    assert_checks_clean(&text);
    let date = text
        .lines()
        .find_map(|l| l.strip_prefix("[Date \"")?.strip_suffix("\"]"))
        .expect("a Date tag");
    let parts: Vec<u32> = date.split('.').map(|p| p.parse().unwrap()).collect();
    assert!(
        parts.len() == 3 && parts[0] >= 2026 && (1..=12).contains(&parts[1]),
        "{date}"
    );
    // Everything but the date is fixed.
    let fixed = text.replace(date, "DATE");
    insta::assert_snapshot!(fixed);
}

#[test]
fn a_best_of_three_match_template() {
    let args = [
        "new",
        "--date",
        "2026.11.29",
        "--match",
        "club final",
        "--south",
        "Ali",
        "--north",
        "Bakari",
        "--rules",
        "kete",
    ];
    insta::assert_snapshot!(run(&args, ""));
    assert_checks_clean(&stdout_of(&args));
}

#[test]
fn a_problem_template() {
    let args = [
        "new",
        "--date",
        "2026.11.29",
        "--position",
        "0,0,0,9,0,0,0,0/1,0,0,0,1,1,0,2/0,1,2,3,1,10,5,0/3,1,1,2,4,2,0,5 5/5 S XX -",
    ];
    insta::assert_snapshot!(run(&args, ""));
    assert_checks_clean(&stdout_of(&args));
}

#[test]
fn bad_values_exit_1() {
    insta::assert_snapshot!(run(&["--color", "never", "new", "--rules", "zanzibar"], ""));
    insta::assert_snapshot!(run(
        &[
            "--color",
            "never",
            "new",
            "--rules",
            "kete takasia=sometimes"
        ],
        ""
    ));
    insta::assert_snapshot!(run(
        &["--color", "never", "new", "--position", "1,2,3 S"],
        ""
    ));
    // 63 seeds: not a possible position.
    insta::assert_snapshot!(run(
        &[
            "--color",
            "never",
            "new",
            "--position",
            "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/21 S FF -"
        ],
        ""
    ));
    insta::assert_snapshot!(run(
        &["--color", "never", "new", "--date", "29.11.2026"],
        ""
    ));
    insta::assert_snapshot!(run(
        &["--color", "never", "new", "--south", "two\nlines"],
        ""
    ));
}

#[test]
fn a_file_is_created_and_replaced_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.bao");
    let p = path.to_str().unwrap();
    let first = output(&["new", p, "--date", "2026.11.29", "--south", "Ali"], "");
    assert_eq!(first.status.code(), Some(0));
    assert!(first.stdout.is_empty());
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.contains("[South \"Ali\"]"), "{written}");
    assert_checks_clean(&written);

    let again = output(
        &[
            "--color",
            "never",
            "new",
            p,
            "--date",
            "2026.11.29",
            "--south",
            "Juma",
        ],
        "",
    );
    assert_eq!(again.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(stderr.contains("exists; use --force"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), written);

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "a new file is readable by all, like any other");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let forced = output(
        &[
            "new",
            p,
            "--force",
            "--date",
            "2026.11.29",
            "--south",
            "Juma",
        ],
        "",
    );
    assert_eq!(forced.status.code(), Some(0));
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("[South \"Juma\"]"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "a replaced file keeps its permissions");
    }
    // No temporary file is left behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn an_unwritable_place_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-dir").join("game.bao");
    let out = output(&["--color", "never", "new", path.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot write"), "{stderr}");
}
