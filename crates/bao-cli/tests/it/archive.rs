//! The archive commands: `bao import abstractplay` (a corrupt record reported by its id, the
//! others imported), `bao export abstractplay` (round trip), `bao filter`, `bao dedupe`,
//! `bao split`, `bao stats`.

use crate::cmd::{output, root};

const AP: &str = "fixtures/archive/ap_records_kiswahili_20.json";
const CORRUPT_ID: &str = "526169f2-9672-7661-28c6-ce8e7d3f266a";

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn arg(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `bao ARGS`; gives the exit code, stdout and stderr.
fn bao(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = output(args, stdin);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Imports the AP fixture into `dir`; returns the record's path.
fn imported(dir: &std::path::Path) -> std::path::PathBuf {
    let out = dir.join("ap.bao");
    let (code, stdout, stderr) = bao(
        &[
            "--color",
            "never",
            "import",
            "abstractplay",
            AP,
            "-o",
            arg(&out),
        ],
        "",
    );
    assert_eq!(code, 1, "one record is corrupt: {stderr}");
    assert_eq!(stdout, "");
    insta::assert_snapshot!("import_abstractplay_stderr", stderr);
    assert!(stderr.contains(CORRUPT_ID));
    out
}

#[test]
fn import_export_round_trip() {
    let dir = tmp();
    let record = imported(dir.path());
    let (code, _, stderr) = bao(&["check", "-q", arg(&record)], "");
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.matches("[Event ").count(), 19);
    // Export, import again: the same records.
    let json = dir.path().join("back.json");
    let (code, _, stderr) = bao(
        &["export", "abstractplay", arg(&record), "-o", arg(&json)],
        "",
    );
    assert_eq!(code, 0, "{stderr}");
    let back: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(back.as_array().unwrap().len(), 19);
    let (code, again, stderr) = bao(&["import", "abstractplay", "-q", arg(&json)], "");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(again, text);
    // A game under other rules is not exported.
    let (code, _, stderr) = bao(
        &[
            "export",
            "abstractplay",
            "fixtures/games/preset_kiswahili.bao",
        ],
        "",
    );
    assert_eq!(code, 1);
    assert!(stderr.contains("AbstractPlay plays"), "{stderr}");
}

#[test]
fn filter_counts_and_writes() {
    let dir = tmp();
    let record = imported(dir.path());
    let text = std::fs::read_to_string(&record).unwrap();
    let games: Vec<&str> = text.split("\n\n[").collect();
    let faraji = games
        .iter()
        .filter(|g| g.contains("[South \"Faraji\"]") || g.contains("[North \"Faraji\"]"))
        .count();
    let (code, stdout, _) = bao(
        &["filter", arg(&record), "--player", "Faraji", "--count"],
        "",
    );
    assert_eq!((code, stdout.trim()), (0, faraji.to_string().as_str()));
    // The games written are the games counted, in canonical form (`bao fmt --check`).
    let out = dir.path().join("faraji.bao");
    let (code, _, _) = bao(
        &[
            "filter",
            arg(&record),
            "--player",
            "Faraji",
            "-o",
            arg(&out),
        ],
        "",
    );
    assert_eq!(code, 0);
    let kept = std::fs::read_to_string(&out).unwrap();
    assert_eq!(kept.matches("[Event ").count(), faraji);
    let (code, _, stderr) = bao(&["fmt", "--check", arg(&out)], "");
    assert_eq!(code, 0, "{stderr}");
    // JSON: the shape of `bao export json`.
    let (code, json, _) = bao(
        &[
            "filter",
            arg(&record),
            "--tag",
            "North~^G",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let north_g = games.iter().filter(|g| g.contains("[North \"G")).count();
    assert_eq!(json["games"].as_array().unwrap().len(), north_g);
    // Bad criteria are invalid input, with the reason.
    let (code, _, stderr) = bao(&["filter", arg(&record), "--tag", "South~(", "--count"], "");
    assert_eq!(code, 1);
    assert!(stderr.contains("no regular expression"), "{stderr}");
    let (code, _, _) = bao(&["filter", arg(&record), "--plies", "9..3"], "");
    assert_eq!(code, 1);
}

#[test]
fn dedupe_keeps_the_first_and_merges_tags() {
    let dir = tmp();
    let one = std::fs::read_to_string(root().join("fixtures/games/short_bao_hamna.bao")).unwrap();
    let copy = one.replace("[Event ", "[Annotator \"Zuberi\"]\n[Event ");
    let path = dir.path().join("dups.bao");
    std::fs::write(&path, format!("{one}\n{copy}\n{one}")).unwrap();
    let (code, stdout, stderr) = bao(&["dedupe", arg(&path)], "");
    assert_eq!(code, 0);
    assert_eq!(stdout.matches("[Event ").count(), 1);
    assert!(!stdout.contains("Zuberi"));
    assert!(stderr.contains("game 2 of"), "{stderr}");
    assert!(
        stderr.contains("1 games kept, 2 duplicates left out"),
        "{stderr}"
    );
    let (code, stdout, _) = bao(&["dedupe", "--merge-tags", "-q", arg(&path)], "");
    assert_eq!(code, 0);
    assert_eq!(stdout.matches("[Event ").count(), 1);
    assert!(stdout.contains("[Annotator \"Zuberi\"]"), "{stdout}");
    let (code, _, _) = bao(&["dedupe", "--merge-tags", "-"], &one);
    assert_eq!(code, 2, "--merge-tags needs files");
}

#[test]
fn split_writes_one_file_per_game_and_keeps_files() {
    let dir = tmp();
    let record = imported(dir.path());
    let out = dir.path().join("games");
    let (code, _, stderr) = bao(&["split", arg(&record), "-o", arg(&out)], "");
    assert_eq!(code, 0, "{stderr}");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 19);
    assert!(
        names.contains(&"2026.10.01_Chausiku_Gamba_1.bao".to_owned()),
        "{names:?}"
    );
    for n in &names {
        let (code, _, _) = bao(&["check", "-q", arg(&out.join(n))], "");
        assert_eq!(code, 0, "{n}");
    }
    // Again: nothing is replaced without --force.
    let (code, _, stderr) = bao(&["split", arg(&record), "-o", arg(&out)], "");
    assert_eq!(code, 1);
    assert!(
        stderr.contains("exists; not replaced (use --force)"),
        "{stderr}"
    );
    let (code, _, _) = bao(&["split", arg(&record), "-o", arg(&out), "--force"], "");
    assert_eq!(code, 0);
}

#[test]
fn stats_as_json_and_html() {
    let dir = tmp();
    let record = imported(dir.path());
    let (code, json, stderr) = bao(
        &["stats", arg(&record), "--format", "json", "--depth", "2"],
        "",
    );
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["games"], 19);
    let r = &v["results"];
    assert_eq!(
        r["south_wins"].as_u64().unwrap() + r["north_wins"].as_u64().unwrap(),
        19
    );
    assert_eq!(v["trees"][0]["start"], "abstractplay");
    let tree_total: u64 = v["trees"][0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["games"].as_u64().unwrap())
        .sum();
    assert_eq!(tree_total, 19);
    let (code, html, _) = bao(
        &[
            "stats",
            arg(&record),
            "--format",
            "html",
            "--title",
            "AP ladder",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<svg") && html.contains("Opening tree"));
    // Self-contained: no script, no stylesheet or image from elsewhere.
    assert!(!html.contains("<script") && !html.contains("src=") && !html.contains("href="));
    let (code, text, _) = bao(&["stats", arg(&record)], "");
    assert_eq!(code, 0);
    insta::assert_snapshot!("stats_human", text);
}
