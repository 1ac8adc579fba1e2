//! The archive commands: `bao import abstractplay` (a corrupt record reported by its id, the
//! others imported), `bao export abstractplay` (round trip), `bao filter`, `bao dedupe`,
//! `bao split`, `bao stats`.

use std::collections::{HashMap, HashSet};

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
fn dedupe_keeps_the_copy_that_tells_most_and_merges_tags() {
    let dir = tmp();
    let one = std::fs::read_to_string(root().join("fixtures/games/short_bao_hamna.bao")).unwrap();
    let copy = one.replace("[Event ", "[Annotator \"Zuberi\"]\n[Event ");
    let path = dir.path().join("dups.bao");
    std::fs::write(&path, format!("{one}\n{copy}\n{one}")).unwrap();
    let (code, stdout, stderr) = bao(&["dedupe", arg(&path)], "");
    assert_eq!(code, 0);
    // The copy with one tag more is kept.
    assert_eq!(stdout.matches("[Event ").count(), 1);
    assert!(stdout.contains("Zuberi"));
    assert!(
        stderr.contains("game 1 of") && stderr.contains("duplicates game 2 of"),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 games kept, 2 duplicates left out"),
        "{stderr}"
    );
    let (code, stdout, _) = bao(&["dedupe", "--merge-tags", "-q", arg(&path)], "");
    assert_eq!(code, 0);
    assert_eq!(stdout.matches("[Event ").count(), 1);
    assert!(stdout.contains("[Annotator \"Zuberi\"]"), "{stdout}");
    // Stdin is read as a file is (copied, as dedupe reads its inputs more than once).
    let (code, from_stdin, _) = bao(
        &["dedupe", "--merge-tags", "-q", "-"],
        &std::fs::read_to_string(&path).unwrap(),
    );
    assert_eq!((code, from_stdin), (0, stdout));
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
            "--depth",
            "2",
            "--title",
            "AP ladder",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<svg") && html.contains("Opening tree"));
    // Self-contained: no script, no stylesheet or image from elsewhere.
    assert!(!html.contains("<script") && !html.contains("src="));
    assert_eq!(
        html.matches("href=").count(),
        html.matches("href=\"#").count(),
        "links within the page only"
    );
    // The tree's moves played in two games or more open on the board after them: one
    // diagram each (the charts are the page's other pictures), the JSON unchanged.
    let tree = &html[html.find("Opening tree").unwrap()..html.find("id=\"games\"").unwrap()];
    let drawn = tree.matches("<div class=\"pos\"><svg").count();
    fn at_least_two(moves: &serde_json::Value) -> usize {
        moves.as_array().map_or(0, |ms| {
            ms.iter()
                .map(|m| {
                    usize::from(m["games"].as_u64().unwrap() >= 2) + at_least_two(&m["replies"])
                })
                .sum()
        })
    }
    let expected: usize = v["trees"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| at_least_two(&t["moves"]))
        .sum();
    assert_eq!(drawn, expected.min(150));
    assert!(drawn > 0);
    assert!(v["trees"][0]["moves"][0].get("after").is_none());
    assert!(v["trees"][0]["moves"][0].get("listed").is_none());
    // Each move lists its first games (file, number, players, date, result).
    assert!(
        tree.contains("<p class=\"games\">") && tree.contains("ap.bao, game 1: "),
        "{tree}"
    );
    // ... each a link to the game, shown whole further down the page: every link has its
    // section, every section is linked, and each of the 19 games is (fewer than 400).
    let linked: HashSet<&str> = tree
        .split("href=\"#")
        .skip(1)
        .map(|r| &r[..r.find('"').unwrap()])
        .collect();
    let sections: Vec<&str> = html
        .split("<article class=\"game\" id=\"")
        .skip(1)
        .map(|r| &r[..r.find('"').unwrap()])
        .collect();
    assert_eq!(sections.len(), 19);
    assert_eq!(linked, sections.iter().copied().collect::<HashSet<_>>());
    // A node whose games are not all listed names the command that gives them.
    let (_, html4, _) = bao(
        &["stats", arg(&record), "--format", "html", "--depth", "1"],
        "",
    );
    assert!(
        html4.contains("more: <code>bao filter --opening"),
        "a first move played by more than five games"
    );
    let (code, text, _) = bao(&["stats", arg(&record)], "");
    assert_eq!(code, 0);
    insta::assert_snapshot!("stats_human", text);
}

/// One-game fixtures with K.I.B.A. letters, lower-case tags, comments and variations, move
/// numbers as written, long lines, CRLF line ends and a byte order mark (first: a byte order
/// mark opens a file, not a game inside it).
const AS_WRITTEN: &[&str] = &[
    "fixtures/format/crlf_bom.bao",
    "fixtures/games/dialect_kiba.bao",
    "fixtures/games/variations_comments.bao",
    "fixtures/games/short_bao_hamna.bao",
    "fixtures/format/kiba_dialect.bao",
    "fixtures/format/numbering.bao",
    "fixtures/format/long_line.bao",
    "fixtures/format/tag_order.bao",
];

/// A one-game file's game as `filter`, `dedupe` and `split` write it, worked out apart from
/// the parser: the file's text without a byte order mark and without the blanks after its
/// result, then its line end (`\r\n` when its first line ends so).
fn written(file: &[u8]) -> Vec<u8> {
    let text = file.strip_prefix(b"\xef\xbb\xbf").unwrap_or(file);
    let end = text.iter().rposition(|b| !b" \t\r\n".contains(b)).unwrap() + 1;
    let first_line = text.iter().position(|&b| b == b'\n').unwrap();
    let line_end: &[u8] = if text[first_line - 1] == b'\r' {
        b"\r\n"
    } else {
        b"\n"
    };
    [&text[..end], line_end].concat()
}

/// The games, each followed by a blank line in its own line end but the last.
fn joined(games: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, g) in games.iter().enumerate() {
        if i > 0 {
            let crlf = out.ends_with(b"\r\n");
            out.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
        }
        out.extend_from_slice(g);
    }
    out
}

/// The fixtures' games as written, and a Latin-1 game (written as the UTF-8 it reads as).
fn as_written_games() -> (Vec<Vec<u8>>, Vec<u8>) {
    let mut games: Vec<Vec<u8>> = AS_WRITTEN
        .iter()
        .map(|f| written(&std::fs::read(root().join(f)).unwrap()))
        .collect();
    let latin1 =
        b"[Event \"Caf\xe9 Mwembeladu\"]\n[South \"Ali\"]\n\n{ \xa1done! }\n1. A6L*  a6R *\n";
    games.push(
        written(latin1)
            .iter()
            .map(|&b| char::from(b))
            .collect::<String>()
            .into_bytes(),
    );
    (games, latin1.to_vec())
}

/// Runs `bao ARGS`; gives the exit code, stdout as bytes and stderr.
fn bao_bytes(args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = output(args, "");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn filter_dedupe_and_split_copy_each_game_as_written() {
    let dir = tmp();
    let (games, latin1) = as_written_games();
    // Each fixture alone: the file as written.
    // A game with an error is written all the same, reported, with exit status 1 (as
    // `bao check` gives it).
    let checked = |f: &str| bao_bytes(&["check", "-q", f]).0;
    for f in AS_WRITTEN {
        let file = std::fs::read(root().join(f)).unwrap();
        for args in [vec!["filter", f], vec!["dedupe", "-q", f]] {
            let (code, out, stderr) = bao_bytes(&args);
            assert_eq!(code, checked(f), "{args:?}: {stderr}");
            assert_eq!(stderr.contains(": game 1: bao::"), code == 1, "{stderr}");
            assert_eq!(
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&written(&file)),
                "{args:?}"
            );
        }
    }
    // An archive of them all, untidy between games: blanks after a result, several blank
    // lines, a Latin-1 game, comments after the last game (no game's).
    let mut archive = Vec::new();
    for f in AS_WRITTEN {
        archive.extend_from_slice(&std::fs::read(root().join(f)).unwrap());
        archive.extend_from_slice(b"  \n\n\n");
    }
    archive.extend_from_slice(&latin1);
    archive.extend_from_slice(b"\n; the end of the notebook\n");
    let path = dir.path().join("archive.bao");
    std::fs::write(&path, &archive).unwrap();
    let want = joined(&games);
    let (code, out, stderr) = bao_bytes(&["filter", arg(&path)]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&want)
    );
    // A criterion that keeps some: the same games, as written.
    let (code, out, _) = bao_bytes(&["filter", arg(&path), "--tag", "Event~i", "--valid"]);
    assert_eq!(code, 0);
    let with_i: Vec<Vec<u8>> = games
        .iter()
        .zip(AS_WRITTEN.iter().map(|f| checked(f) == 0).chain([true]))
        .filter(|(_, valid)| *valid)
        .map(|(g, _)| g)
        .filter(|g| {
            let g = String::from_utf8_lossy(g);
            g.lines()
                .any(|l| l.to_lowercase().starts_with("[event \"") && l[8..].contains('i'))
        })
        .cloned()
        .collect();
    assert!(!with_i.is_empty() && with_i.len() < games.len());
    assert_eq!(
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&joined(&with_i))
    );
    // dedupe: a canonical copy of the first game at the end is left out, nothing else.
    let (code, copy, _) = bao_bytes(&["fmt", AS_WRITTEN[1]]);
    assert_eq!(code, 0);
    let mut with_copy = archive.clone();
    with_copy.extend_from_slice(&copy);
    let dups = dir.path().join("dups.bao");
    std::fs::write(&dups, &with_copy).unwrap();
    let (code, out, stderr) = bao_bytes(&["dedupe", arg(&dups)]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("1 duplicates left out"), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&want)
    );
    // split: one file per game, each the game as written.
    let out_dir = dir.path().join("games");
    let (code, _, stderr) = bao_bytes(&["split", arg(&path), "-o", arg(&out_dir)]);
    assert_eq!(code, 1, "{stderr}");
    let mut files: Vec<Vec<u8>> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    files.sort();
    let mut each = games.clone();
    each.sort();
    assert_eq!(files, each);
}

#[test]
fn canonical_writes_the_canonical_form() {
    let dir = tmp();
    let mut archive = String::new();
    for f in AS_WRITTEN {
        archive.push_str(&std::fs::read_to_string(root().join(f)).unwrap());
        archive.push_str("\n\n");
    }
    let path = dir.path().join("archive.bao");
    std::fs::write(&path, &archive).unwrap();
    // `bao fmt` of the whole archive is what `filter --canonical` and `dedupe --canonical`
    // write (the games are distinct).
    let (code, fmt, stderr) = bao_bytes(&["fmt", arg(&path)]);
    assert_eq!(code, 0, "{stderr}");
    for cmd in [
        &["filter", "--canonical"][..],
        &["dedupe", "-q", "--canonical"],
    ] {
        let args: Vec<&str> = cmd.iter().copied().chain([arg(&path)]).collect();
        let (code, out, stderr) = bao_bytes(&args);
        assert_eq!(code, 1, "{cmd:?}: games with errors, written: {stderr}");
        assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&fmt),
            "{cmd:?}"
        );
    }
    // split --canonical: each file is `bao fmt` of the game.
    let out_dir = dir.path().join("games");
    let (code, _, stderr) = bao_bytes(&["split", "--canonical", arg(&path), "-o", arg(&out_dir)]);
    assert_eq!(code, 1, "{stderr}");
    for e in std::fs::read_dir(&out_dir).unwrap() {
        let p = e.unwrap().path();
        let (code, _, stderr) = bao_bytes(&["fmt", "--check", arg(&p)]);
        assert_eq!(code, 0, "{}: {stderr}", p.display());
    }
}

#[test]
fn merged_tags_are_added_as_lines_and_the_rest_is_as_written() {
    let dir = tmp();
    let kiba = std::fs::read_to_string(root().join("fixtures/games/dialect_kiba.bao")).unwrap();
    // As many tags as the first (Site given up for Annotator): the first copy is kept.
    let site = kiba.lines().find(|l| l.starts_with("[Site ")).unwrap();
    let copy = kiba
        .replace("[Result ", "[Annotator \"Zuberi\"]\n[Result ")
        .replace(&format!("{site}\n"), "")
        .replace("L ", "< ");
    let path = dir.path().join("dups.bao");
    std::fs::write(&path, format!("{kiba}\n\n{copy}\n")).unwrap();
    let (code, out, stderr) = bao_bytes(&["dedupe", "-q", "--merge-tags", arg(&path)]);
    assert_eq!(code, 0, "{stderr}");
    let want = kiba.replacen(
        "[RuleSet \"kiswahili\"]\n",
        "[RuleSet \"kiswahili\"]\n[Annotator \"Zuberi\"]\n",
        1,
    );
    assert_ne!(want, kiba);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        String::from_utf8(written(want.as_bytes())).unwrap()
    );
}

const UNTRUSTED: &str = "fixtures/archive/untrusted.bao";

#[test]
fn stats_leaves_out_broken_and_contradicted_games() {
    // Game 1 is cut after `2. A` with Result 0-1; game 2's Result says North won where the
    // board says South; game 3 is sound and unfinished.
    let (code, json, stderr) = bao(&["stats", UNTRUSTED, "--format", "json"], "");
    assert_eq!(code, 1, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["games"], 1);
    assert_eq!(v["results"]["north_wins"], 0);
    assert_eq!(v["trees"][0]["games"], 1);
    insta::assert_snapshot!("stats_untrusted_stderr", stderr);
    // Counted on request: the result is the board's (South won game 2), not the tag's.
    let (code, json, stderr) = bao(
        &["stats", UNTRUSTED, "--format", "json", "--include-invalid"],
        "",
    );
    assert_eq!(code, 1, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["games"], 3);
    assert_eq!(
        (&v["results"]["south_wins"], &v["results"]["north_wins"]),
        (&1.into(), &1.into()),
        "the cut game's 0-1 stands (its board did not end), game 2's is the board's"
    );
    assert!(stderr.contains("counted all the same (--include-invalid)"));
    // filter writes them, reported, so that `filter | stats` reports them again.
    let (code, kept, stderr) = bao(&["filter", UNTRUSTED], "");
    assert_eq!(code, 1);
    assert_eq!(kept.matches("[Event ").count(), 3);
    assert_eq!(stderr.matches("; written").count(), 2, "{stderr}");
    let (code, _, stderr) = bao(&["stats", "-"], &kept);
    assert_eq!(code, 1);
    assert!(stderr.contains("2 left out of the statistics"), "{stderr}");
    // --valid leaves them out, and the rest is sound.
    let (code, kept, stderr) = bao(&["filter", "--valid", UNTRUSTED], "");
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("2 invalid or contradicted left out by the criteria"));
    let (code, _, stderr) = bao(&["stats", "-"], &kept);
    assert_eq!((code, stderr.as_str()), (0, ""));
    // --result reads the board: game 2 is South's win.
    let (code, n, _) = bao(&["filter", "--result", "1-0", "--count", UNTRUSTED], "");
    assert_eq!((code, n.trim()), (1, "1"));
}

/// A large archive of sound games with broken ones among them (over many chunks and
/// batches of the streamed reader): each game `stats` leaves out is a game `bao check`
/// finds an error in (or a result claimed while the game goes on), at the line and column
/// `bao check` gives for one of its diagnostics.
#[test]
fn games_left_out_are_placed_as_check_places_them() {
    let dir = tmp();
    let sound = std::fs::read_to_string(root().join("fixtures/games/random_kiswahili_3.bao"))
        .unwrap()
        .replace("\r\n", "\n");
    let broken = std::fs::read_to_string(root().join(UNTRUSTED)).unwrap();
    let mut text = String::new();
    for i in 0..120 {
        text.push_str(if i % 7 == 3 { &broken } else { &sound });
        text.push_str(if i % 5 == 0 { "\n\n\n" } else { "\n" });
        if i % 11 == 0 {
            text.push_str("; a remark between games\n");
        }
    }
    assert!(
        text.len() > 200 * 1024,
        "{} bytes: several batches",
        text.len()
    );
    // Where each game starts (1-based lines), read apart from bao: a line `[Event `.
    let starts: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("[Event "))
        .map(|(i, _)| i + 1)
        .collect();
    let game_at = |line: usize| starts.iter().filter(|s| **s <= line).count();
    let path = dir.path().join("big.bao");
    std::fs::write(&path, &text).unwrap();
    let out = output(&["check", "--format", "json", arg(&path)], "");
    let mut want: HashMap<usize, Vec<(usize, usize, String)>> = HashMap::new();
    for l in String::from_utf8(out.stdout).unwrap().lines() {
        let d: serde_json::Value = serde_json::from_str(l).unwrap();
        let d = &d["data"];
        let severe = d["severity"] == "error" || d["code"] == "bao::record::game_ends_early";
        if let (true, Some(line)) = (severe, d["line"].as_u64()) {
            let line = usize::try_from(line).unwrap();
            want.entry(game_at(line)).or_default().push((
                line,
                usize::try_from(d["column"].as_u64().unwrap()).unwrap(),
                d["code"].as_str().unwrap().to_owned(),
            ));
        }
    }
    assert!(want.len() > 10, "{want:?}");
    let (code, _, stderr) = bao(&["stats", "-j", "2", arg(&path)], "");
    assert_eq!(code, 1);
    let mut got = HashMap::new();
    let prefix = format!("bao: {}:", path.display());
    for l in stderr.lines().filter_map(|l| l.strip_prefix(&prefix)) {
        // LINE:COL: game N: CODE: message; left out
        let mut parts = l.splitn(4, ": ");
        let place = parts.next().unwrap();
        let game: usize = parts.next().unwrap()["game ".len()..].parse().unwrap();
        let code = parts.next().unwrap().to_owned();
        let (line, col) = place.split_once(':').unwrap();
        got.insert(
            game,
            (
                line.parse::<usize>().unwrap(),
                col.parse::<usize>().unwrap(),
                code,
            ),
        );
    }
    assert_eq!(
        got.keys().copied().collect::<HashSet<_>>(),
        want.keys().copied().collect::<HashSet<_>>()
    );
    for (game, place) in &got {
        assert!(
            want[game].contains(place),
            "game {game}: {place:?} not in {:?}",
            want[game]
        );
    }
    let summary = stderr.lines().last().unwrap();
    assert!(
        summary.contains(&format!("{} left out of the statistics", want.len())),
        "{summary}"
    );
}

#[test]
fn dedupe_keeps_the_decisive_copy_and_reports_conflicts() {
    let dir = tmp();
    let game = "1. A7>* [B7:1] a6<* [a3:1] 2. A6> [xa3:1 A8:2 A6:4 A2:1] a5> [xA4:1 a8:1]";
    let copies = format!(
        "[South \"Ali\"]\n[North \"Bao\"]\n[Date \"2026.01.01\"]\n[Result \"*\"]\n[Termination \"resignation\"]\n[Site \"Zanzibar\"]\n\n{game} *\n\n\
         [South \"Ali\"]\n[North \"Bao\"]\n[Date \"2026.01.01\"]\n[Result \"1-0\"]\n[Termination \"adjudication\"]\n\n{game} 1-0\n\n\
         [South \"Juma\"]\n[North \"Bao\"]\n[Date \"2026.02.01\"]\n[Result \"*\"]\n\n{game} *\n"
    );
    let path = dir.path().join("copies.bao");
    std::fs::write(&path, &copies).unwrap();
    let (code, out, stderr) = bao(&["dedupe", "--merge-tags", arg(&path)], "");
    assert_eq!(code, 0, "{stderr}");
    // The decisive copy is kept, with the one tag on which no copy disagrees.
    assert_eq!(out.matches("[Result ").count(), 1);
    assert!(out.contains("[Result \"1-0\"]") && out.contains("[Termination \"adjudication\"]"));
    assert!(out.contains("[Site \"Zanzibar\"]"), "{out}");
    assert!(!out.contains("resignation"));
    insta::assert_snapshot!(
        "dedupe_conflicts_stderr",
        stderr.replace(arg(&path), "copies.bao")
    );
    // By game: the game Juma played is another game (other player, other date).
    let (code, out, stderr) = bao(&["dedupe", "--by", "game", "-q", arg(&path)], "");
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(out.matches("[Result ").count(), 2);
    assert!(out.contains("Juma") && out.contains("[Result \"1-0\"]"));
}

#[test]
fn split_keeps_a_match_whole() {
    let dir = tmp();
    let record = dir.path().join("mixed.bao");
    let mut text = String::new();
    for f in [
        "fixtures/games/short_bao_hamna.bao",
        "fixtures/games/match_best_of_three.bao",
        "fixtures/games/preset_kete.bao",
    ] {
        text.push_str(&std::fs::read_to_string(root().join(f)).unwrap());
        text.push('\n');
    }
    std::fs::write(&record, &text).unwrap();
    let out = dir.path().join("games");
    let (code, _, stderr) = bao(&["split", arg(&record), "-o", arg(&out)], "");
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("3 files written") && stderr.contains("1 of them a match"),
        "{stderr}"
    );
    let matched = out.join("2026.11.29_Sample-match_sample-best-of-three.bao");
    let whole = std::fs::read_to_string(&matched).unwrap();
    let fixture =
        std::fs::read_to_string(root().join("fixtures/games/match_best_of_three.bao")).unwrap();
    assert_eq!(whole.trim_end(), fixture.trim_end());
    for e in std::fs::read_dir(&out).unwrap() {
        let p = e.unwrap().path();
        let (code, _, stderr) = bao(&["check", "-q", arg(&p)], "");
        assert_eq!(code, 0, "{}: {stderr}", p.display());
    }
}

/// A truncated AP file: the complete records before the cut are imported (and check clean),
/// the damage is named with its byte offset, exit status 1.
#[test]
fn a_truncated_ap_file_imports_what_is_complete() {
    let dir = tmp();
    let bytes = std::fs::read(root().join(AP)).unwrap();
    let cut = bytes.len() * 3 / 4;
    let path = dir.path().join("cut.json");
    std::fs::write(&path, &bytes[..cut]).unwrap();
    // The records complete before the cut, counted apart from bao: each record of the array
    // starts with `\n {\n` and ends with `\n }`.
    let text = String::from_utf8_lossy(&bytes[..cut]);
    let complete = text.matches("\n }").count();
    assert!(complete > 5 && complete < 20, "{complete}");
    let out = dir.path().join("cut.bao");
    let (code, _, stderr) = bao(&["import", "abstractplay", arg(&path), "-o", arg(&out)], "");
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(&format!("is damaged at byte {cut} ")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "the {complete} complete records before it were read"
        )),
        "{stderr}"
    );
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.matches("[Event ").count(), complete);
    let (code, _, stderr) = bao(&["check", "-q", arg(&out)], "");
    assert_eq!(code, 0, "{stderr}");
}

/// `dedupe --near`: a copy cut short by two plies is near its game (with the plies it
/// lacks), one cut by five is not (with `--near=5` it is); an exact copy is one game.
#[test]
fn dedupe_near_reports_the_plies_that_differ() {
    let dir = tmp();
    let full =
        std::fs::read_to_string(root().join("fixtures/games/random_kiswahili_3.bao")).unwrap();
    // The plies as written, read apart from bao: tokens that are no move number, no
    // annotation and no result.
    let body = full.split("\n\n").nth(1).unwrap();
    let mut plies = Vec::new();
    let mut in_note = false;
    for t in body.split_whitespace() {
        if t.starts_with('[') {
            in_note = !t.ends_with(']');
            continue;
        }
        if in_note {
            in_note = !t.ends_with(']');
            continue;
        }
        if !t.ends_with('.') && !["1-0", "0-1", "*", "1/2-1/2"].contains(&t) {
            plies.push(t.to_owned());
        }
    }
    assert!(plies.len() > 40);
    let game = |moves: &[String], event: &str| {
        let mut text = format!("[Event \"{event}\"]\n\n");
        for (k, m) in moves.iter().enumerate() {
            if k % 2 == 0 {
                text.push_str(&format!("{}. ", k / 2 + 1));
            }
            text.push_str(m);
            text.push(' ');
        }
        text.push_str("*\n\n");
        text
    };
    let n = plies.len();
    let record = [
        game(&plies, "full"),
        game(&plies[..n - 2], "two plies less"),
        game(&plies, "copy"),
        game(&plies[..n - 5], "five plies less"),
    ]
    .concat();
    let path = dir.path().join("near.bao");
    std::fs::write(&path, &record).unwrap();
    let (code, out, stderr) = bao(&["dedupe", "--near", arg(&path)], "");
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].starts_with("game 1 of ") && lines[0].contains(" and game 2 of "));
    let tail = plies[n - 2..]
        .iter()
        .map(|p| p.trim_end_matches(['#', '+']))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        lines[0].ends_with(&format!(
            "share their first {} plies, then {tail} / nothing",
            n - 2
        )),
        "{} ({tail})",
        lines[0]
    );
    assert!(
        stderr.contains("4 games read, 1 pairs near each other"),
        "{stderr}"
    );
    let (_, out, _) = bao(&["dedupe", "--near=5", "-q", arg(&path)], "");
    assert_eq!(out.lines().count(), 3, "{out}");
}

/// `--where`: filter and stats agree on the games a query keeps; a query that cannot be read
/// is shown with where it is wrong, exit 1.
#[test]
fn where_queries_in_filter_and_stats() {
    let games = "fixtures/games";
    let q = "stage = mtaji and front(south) <= 12";
    let (code, n, stderr) = bao(&["filter", games, "--where", q, "--valid", "--count"], "");
    assert_eq!(code, 0, "{stderr}");
    let n: u64 = n.trim().parse().unwrap();
    let (_, all, _) = bao(&["filter", games, "--valid", "--count"], "");
    let all: u64 = all.trim().parse().unwrap();
    assert!(n > 0 && n < all, "{n} of {all}");
    let (_, json, _) = bao(&["stats", games, "--where", q, "--format", "json"], "");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["games"], n);
    // The start answers at once; --at final asks the last position only.
    let (_, start, _) = bao(&["filter", games, "--where", "ply = 0", "--count"], "");
    let (_, last, _) = bao(
        &[
            "filter", games, "--where", "ply = 0", "--at", "final", "--count",
        ],
        "",
    );
    assert!(start.trim().parse::<u64>().unwrap() > last.trim().parse::<u64>().unwrap());
    let (code, _, stderr) = bao(
        &[
            "--color",
            "never",
            "filter",
            games,
            "--where",
            "stage = nemo and A5 > 1",
            "--count",
        ],
        "",
    );
    assert_eq!(code, 1);
    insta::assert_snapshot!("where_syntax_error", stderr);
}

/// Replays lines of moves through `bao replay` (one JSON line each, Kiswahili rules), one
/// process for all of them; gives each line's reply.
fn replayed(lines: &[Vec<String>]) -> Vec<serde_json::Value> {
    let input: String = lines
        .iter()
        .map(|m| {
            format!(
                "{}\n",
                serde_json::json!({"rules": "kiswahili", "moves": m})
            )
        })
        .collect();
    let (code, out, stderr) = bao(&["replay"], &input);
    assert_eq!(code, 0, "{stderr}");
    let replies: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), lines.len());
    replies
}

/// An archive of `n` random Kiswahili games made through the binary alone: each game grows
/// by a move `bao replay` lists as legal, picked by a seeded generator, up to a length of its
/// own or the end of the game. Gives the record's text, and each game's `bao replay` reply
/// (its positions, from the start).
fn generated_archive(n: usize, seed: u64) -> (String, Vec<serde_json::Value>) {
    use serde_json::Value;
    let mut state = seed;
    let mut next = move |below: usize| -> usize {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let r = state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33;
        usize::try_from(r).unwrap() % below
    };
    let caps: Vec<usize> = (0..n).map(|_| 30 + next(250)).collect();
    let mut lines: Vec<Vec<String>> = vec![Vec::new(); n];
    let mut open: Vec<bool> = vec![true; n];
    while open.iter().any(|&o| o) {
        let replies = replayed(&lines);
        for (i, r) in replies.iter().enumerate() {
            if !open[i] {
                continue;
            }
            let legal = r["legal"]
                .as_array()
                .and_then(|l| l.last())
                .and_then(|l| l.as_array())
                .cloned()
                .unwrap_or_default();
            if lines[i].len() >= caps[i] || legal.is_empty() || !r["outcome"].is_null() {
                open[i] = false;
                continue;
            }
            // In mtaji, takasas (`*`) three times in four when there are any, for takasia'd
            // pits to occur.
            let takasas: Vec<&Value> = legal
                .iter()
                .filter(|m| m.as_str().unwrap().contains('*'))
                .collect();
            let mtaji = r["positions"]
                .as_array()
                .and_then(|p| p.last())
                .is_some_and(|p| p["stage"] == "mtaji");
            let mv = if mtaji && !takasas.is_empty() && next(4) != 0 {
                takasas[next(takasas.len())]
            } else {
                &legal[next(legal.len())]
            };
            let mv = mv.as_str().unwrap().to_owned();
            lines[i].push(mv);
        }
    }
    let replies = replayed(&lines);
    let mut text = String::new();
    for (i, (moves, r)) in lines.iter().zip(&replies).enumerate() {
        assert!(r["error"].is_null(), "game {}: {}", i + 1, r["error"]);
        let result = match r["outcome"]["winner"].as_str() {
            Some("south") => "1-0",
            Some("north") => "0-1",
            _ if !r["outcome"].is_null() => "1/2-1/2",
            _ => "*",
        };
        text.push_str(&format!(
            "[Event \"generated\"]\n[Round \"{}\"]\n[South \"S{}\"]\n[North \"N{}\"]\n\
             [Result \"{result}\"]\n\n",
            i + 1,
            i % 7,
            i % 5
        ));
        for (k, pair) in moves.chunks(2).enumerate() {
            text.push_str(&format!("{}. {} ", k + 1, pair.join(" ")));
        }
        text.push_str(&format!("{result}\n\n"));
    }
    (text, replies)
}

/// Pattern queries counted two ways: by `bao filter --where --count` (and `--at final`), and
/// here, from `bao replay`'s JSON of every position of each game, each query's predicate
/// evaluated in this test's own code over a generated archive (spec/archive.md §8: a side's
/// stage is namua while it has seeds in hand; `house(side)` a functional nyumba; `takasia`
/// the pit the position shows). And a partial position, five pits of a position one game
/// reached, finds exactly the games that reach those five counts.
#[test]
fn where_queries_count_what_bao_replay_shows() {
    use serde_json::Value;
    let (text, replies) = generated_archive(40, 0x5EED_2026);
    let dir = tmp();
    let path = dir.path().join("generated.bao");
    std::fs::write(&path, &text).unwrap();
    let file = arg(&path);
    let (code, out, stderr) = bao(&["check", "-q", file], "");
    assert_eq!(code, 0, "the generated games check clean: {out}{stderr}");
    let positions: Vec<Vec<Value>> = replies
        .iter()
        .map(|r| r["positions"].as_array().unwrap().clone())
        .collect();

    fn pit(p: &Value, name: &str) -> i64 {
        let row = &name[..1];
        let i: usize = name[1..].parse().unwrap();
        p["pits"][row][i - 1].as_i64().unwrap()
    }
    fn row(p: &Value, r: &str) -> i64 {
        p["pits"][r]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_i64().unwrap())
            .sum()
    }
    fn hand(p: &Value, side: &str) -> i64 {
        p["hands"][side].as_i64().unwrap()
    }
    fn namua(p: &Value, side: &str) -> bool {
        hand(p, side) > 0
    }
    fn mover(p: &Value) -> &str {
        p["to_move"].as_str().unwrap()
    }
    fn house(p: &Value, side: &str) -> bool {
        p["houses"][side] == "functional"
    }
    fn takasia(p: &Value) -> Option<&str> {
        p["takasia"].as_str()
    }
    fn takasia_of(p: &Value, side: &str) -> bool {
        takasia(p)
            .is_some_and(|t| t.starts_with(|c: char| c.is_ascii_lowercase()) == (side == "north"))
    }
    type Test = fn(&Value, usize) -> bool;
    let cases: [(&str, Test); 20] = [
        ("stage = mtaji", |p, _| !namua(p, mover(p))),
        (
            "stage = namua and ply > 30 and hand(south) < 6",
            |p, ply| namua(p, mover(p)) && ply > 30 && hand(p, "south") < 6,
        ),
        ("stage(north) = mtaji and to_move = south", |p, _| {
            !namua(p, "north") && mover(p) == "south"
        }),
        ("house(south) and not house(north)", |p, _| {
            house(p, "south") && !house(p, "north")
        }),
        ("not house(south) and stage = namua", |p, _| {
            !house(p, "south") && namua(p, mover(p))
        }),
        ("takasia", |p, _| takasia(p).is_some()),
        ("takasia(north)", |p, _| takasia_of(p, "north")),
        ("takasia(south) or A4 > 8", |p, _| {
            takasia_of(p, "south") || pit(p, "A4") > 8
        }),
        ("A5 >= 10", |p, _| pit(p, "A5") >= 10),
        ("a1 = 0 and a8 = 0 and b4 > 3", |p, _| {
            pit(p, "a1") == 0 && pit(p, "a8") == 0 && pit(p, "b4") > 3
        }),
        ("B1 > 2 or b1 > 2", |p, _| {
            pit(p, "B1") > 2 || pit(p, "b1") > 2
        }),
        ("front(south) <= 6 and ply >= 10", |p, ply| {
            row(p, "A") <= 6 && ply >= 10
        }),
        ("front(north) > front(south) and stage = mtaji", |p, _| {
            row(p, "a") > row(p, "A") && !namua(p, mover(p))
        }),
        ("hand(south) = 0 and hand(north) > 0", |p, _| {
            hand(p, "south") == 0 && hand(p, "north") > 0
        }),
        ("seeds(north) >= 30", |p, _| row(p, "a") + row(p, "b") >= 30),
        ("back(south) >= 12", |p, _| row(p, "B") >= 12),
        ("ply >= 60 and A1 > A8", |p, ply| {
            ply >= 60 && pit(p, "A1") > pit(p, "A8")
        }),
        ("not (A5 = 0 or a5 = 0) and stage = mtaji", |p, _| {
            pit(p, "A5") != 0 && pit(p, "a5") != 0 && !namua(p, mover(p))
        }),
        (
            "stage = mtaji and (house(south) or takasia) and A5 >= 6",
            |p, _| {
                !namua(p, mover(p))
                    && (house(p, "south") || takasia(p).is_some())
                    && pit(p, "A5") >= 6
            },
        ),
        (
            "to_move = north and (front(north) >= 25 or back(north) = 0) and ply > 50",
            |p, ply| mover(p) == "north" && (row(p, "a") >= 25 || row(p, "b") == 0) && ply > 50,
        ),
    ];
    let count = |args: &[&str]| -> usize {
        let mut all = vec!["filter", file];
        all.extend_from_slice(args);
        all.push("--count");
        let (code, out, stderr) = bao(&all, "");
        assert_eq!(code, 0, "{args:?}: {stderr}");
        out.trim().parse().unwrap()
    };
    let mut informative = 0;
    for (q, test) in &cases {
        let any = positions
            .iter()
            .filter(|ps| ps.iter().enumerate().any(|(ply, p)| test(p, ply)))
            .count();
        let last = positions
            .iter()
            .filter(|ps| test(&ps[ps.len() - 1], ps.len() - 1))
            .count();
        assert_eq!(count(&["--where", q]), any, "{q}");
        assert_eq!(
            count(&["--where", q, "--at", "final"]),
            last,
            "{q} --at final"
        );
        if any > 0 && any < positions.len() {
            informative += 1;
        }
    }
    assert!(
        informative >= 15,
        "only {informative} of 20 counts between none and all"
    );

    // A partial position: five pits of the position game 7 reached at its middle.
    let ps = &positions[6];
    let target = &ps[ps.len() / 2];
    let pits = ["A5", "A6", "B3", "a5", "b7"];
    let query = pits
        .iter()
        .map(|n| format!("{n} = {}", pit(target, n)))
        .collect::<Vec<_>>()
        .join(" and ");
    let want: Vec<usize> = positions
        .iter()
        .enumerate()
        .filter(|(_, ps)| {
            ps.iter()
                .any(|p| pits.iter().all(|n| pit(p, n) == pit(target, n)))
        })
        .map(|(i, _)| i + 1)
        .collect();
    assert!(want.contains(&7));
    assert_eq!(count(&["--where", &query]), want.len(), "{query}");
    // The very games: their rounds, from the games filter writes.
    let (_, kept, _) = bao(&["filter", file, "--where", &query], "");
    let rounds: Vec<usize> = kept
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .map(|r| r.trim_end_matches("\"]").parse().unwrap())
        .collect();
    assert_eq!(rounds, want, "{query}");
    let (_, json, _) = bao(&["stats", file, "--where", &query, "--format", "json"], "");
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["games"], want.len());
}

/// `--alias FILE`: one person under several spellings is one player for `filter --player`
/// and for `stats`.
#[test]
fn aliases_make_one_player_of_several_spellings() {
    let dir = tmp();
    let record = imported(dir.path());
    let text = std::fs::read_to_string(&record).unwrap();
    let faraji = text
        .split("\n\n[")
        .filter(|g| g.contains("\"Faraji\""))
        .count();
    assert!(faraji > 1);
    // Every other game of Faraji's spelled otherwise.
    let mut k = 0;
    let respelled: Vec<String> = text
        .split_inclusive("\n\n")
        .map(|part| {
            if part.contains("\"Faraji\"") {
                k += 1;
                if k % 2 == 0 {
                    return part.replace("\"Faraji\"", "\"FARAJI M.\"");
                }
            }
            part.to_owned()
        })
        .collect();
    let path = dir.path().join("respelled.bao");
    std::fs::write(&path, respelled.concat()).unwrap();
    let alias = dir.path().join("players.txt");
    std::fs::write(&alias, "# one person\nFaraji | faraji m.\n").unwrap();
    let count = |extra: &[&str]| {
        let mut args = vec!["filter", arg(&path), "--player", "Faraji", "--count"];
        args.extend_from_slice(extra);
        bao(&args, "").1.trim().parse::<usize>().unwrap()
    };
    assert!(count(&[]) < faraji);
    assert_eq!(count(&["--alias", arg(&alias)]), faraji);
    let (code, json, stderr) = bao(
        &[
            "stats",
            arg(&path),
            "--format",
            "json",
            "--alias",
            arg(&alias),
        ],
        "",
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(!json.contains("FARAJI M."));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let line = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Faraji")
        .unwrap();
    assert_eq!(line["games"], faraji);
    // A spelling given to two people is refused, with its line.
    std::fs::write(&alias, "Faraji | F.\nFatuma | f.\n").unwrap();
    let (code, _, stderr) = bao(
        &["filter", arg(&path), "--alias", arg(&alias), "--count"],
        "",
    );
    assert_eq!(code, 1);
    assert!(stderr.contains("line 2"), "{stderr}");
}

/// `bao stats --format html` in headless Chromium: a node of the opening tree links to its
/// games; a click at the centre of a game's link shows that game: its section, its players
/// as the record gives them, its record, and the board where its main line ends (checked
/// against `bao export json`), at 1280 pixels wide and on a phone's 390x844. With
/// `BAO_SHOTS` set, the screenshots are written there. Called by the one browser test
/// (html.rs), which starts the tools once.
pub(crate) fn stats_tree_test(chromium: &std::path::Path, chromedriver: &std::path::Path) {
    use serde_json::{json, Value};
    let dir = tmp();
    let record = imported(dir.path());
    let page = dir.path().join("stats.html");
    let (code, _, stderr) = bao(
        &[
            "stats",
            arg(&record),
            "--format",
            "html",
            "--depth",
            "3",
            "-o",
            arg(&page),
        ],
        "",
    );
    assert_eq!(code, 0, "{stderr}");
    let (code, json, _) = bao(&["export", "json", arg(&record)], "");
    assert_eq!(code, 0);
    let games: Value = serde_json::from_str(&json).unwrap();
    let games = games["games"].as_array().unwrap().clone();
    let shots = std::env::var_os("BAO_SHOTS").map(std::path::PathBuf::from);

    let driver = crate::browser::Driver::start(chromedriver);
    let profile = tmp();
    let desktop = driver.session(chromium, profile.path());
    desktop.resize(1280, 900);
    let phone_profile = tmp();
    let phone = driver.phone_session(chromium, phone_profile.path(), (390, 844));
    let url = format!("file://{}", page.display());
    for (name, s) in [("1280", &desktop), ("390x844", &phone)] {
        s.go(&url);
        // A game link of a reply (a second-level node, opened first): the last one it lists.
        let link = s.js(
            "var d = document.querySelector('#tree ul.tree ul.tree details');\
             d.open = true;\
             var links = d.querySelectorAll(':scope > p.games > a.game');\
             var a = links[links.length - 1];\
             a.scrollIntoView({block: 'center'});\
             var r = a.getBoundingClientRect();\
             return {href: a.getAttribute('href'), label: a.textContent,\
                     x: r.left + r.width / 2, y: r.top + r.height / 2};",
            json!([]),
        );
        let href = link["href"].as_str().unwrap().to_owned();
        let label = link["label"].as_str().unwrap().to_owned();
        assert!(href.starts_with("#game-"), "{link}");
        if let Some(dir) = &shots {
            std::fs::write(dir.join(format!("stats_tree_{name}.png")), s.screenshot()).unwrap();
        }
        #[allow(clippy::cast_possible_truncation)]
        let (x, y) = (
            link["x"].as_f64().unwrap() as i64,
            link["y"].as_f64().unwrap() as i64,
        );
        if name == "1280" {
            s.click_at(x, y);
        } else {
            s.tap(x, y);
        }
        // The page went to the game: its section is the target and at the top of the screen
        // (a tap's navigation may take a moment).
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while s.js("return location.hash", json!([])) != json!(href)
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let shown = s.js(
            "var t = document.querySelector(':target');\
             if (!t) { return null; }\
             var pre = t.querySelector('pre.record');\
             return {hash: location.hash, id: t.id, top: t.getBoundingClientRect().top,\
                     title: t.querySelector('h3').textContent,\
                     record: pre ? pre.textContent : '',\
                     visible: pre !== null && pre.getBoundingClientRect().height > 0};",
            json!([]),
        );
        assert_eq!(shown["hash"], json!(href), "{name}: {shown}");
        assert_eq!(format!("#{}", shown["id"].as_str().unwrap()), href);
        assert!(
            shown["top"].as_f64().unwrap().abs() < 2.0,
            "{name}: {shown}"
        );
        assert_eq!(shown["title"], json!(label));
        assert_eq!(shown["visible"], json!(true));
        if let Some(dir) = &shots {
            std::fs::write(dir.join(format!("stats_game_{name}.png")), s.screenshot()).unwrap();
        }
        // The game named is the one shown: its number in the file, from the label.
        let n: usize = label
            .split(", game ")
            .nth(1)
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no game number in {label}"));
        let game = &games[n - 1];
        let tag = |name: &str| -> String {
            game["tags"]
                .as_array()
                .and_then(|ts| ts.iter().find(|t| t["name"] == json!(name)))
                .and_then(|t| t["value"].as_str())
                .unwrap_or_default()
                .to_owned()
        };
        let record = shown["record"].as_str().unwrap();
        for t in ["South", "North", "Source", "Date"] {
            let v = tag(t);
            assert!(!v.is_empty(), "game {n} has a {t} tag");
            assert!(
                record.contains(&format!("[{t} \"{v}\"]")),
                "{name}: game {n}'s {t} {v:?} is not in the record shown: {record}"
            );
            if t == "South" || t == "North" {
                assert!(label.contains(&v), "{label} names {v}");
            }
        }
        // The board where the main line ends.
        let moves = game["moves"].as_array().unwrap();
        let last = &moves[moves.len() - 1]["position"];
        let prefix = format!("g{}-", &href["#game-".len()..]);
        assert_eq!(
            s.board_at(&prefix),
            json!({"pits": last["pits"], "hands": last["hands"]}),
            "{name}: the board of game {n}"
        );
    }
}
