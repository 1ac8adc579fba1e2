//! `bao check` and `bao annotate`: exit codes, human and JSON output, directories, stdin,
//! `--deny-warnings`, `--assume-fixes`, `--lap-budget`, and `annotate --write`; a large
//! record streamed by `check`, `annotate` and `export json` as the whole file.

use crate::cmd::{output_with, render, root, run};

/// `bao check --color never ARGS` with `stdin`, rendered as [`run`] renders it.
fn check(args: &[&str], stdin: &str) -> String {
    run(&[&["check", "--color", "never"], args].concat(), stdin)
}

/// A rendered report with miette's wrapped lines joined again (a sentence on one line).
fn unwrapped(out: &str) -> String {
    out.replace("\n        ", " ")
}

/// The JSON Lines on the stdout of a rendered run.
fn json_lines(out: &str) -> Vec<serde_json::Value> {
    let stdout = out.split("--- stdout\n").nth(1).unwrap();
    let stdout = stdout.split("--- stderr\n").next().unwrap();
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `bao check --fix --dry-run` finds no repair to make in `file`.
fn assert_no_fix(file: &str) {
    let fix = check(&["--fix", "--dry-run", file], "");
    assert!(fix.contains("0 repairs found (dry run)"), "{fix}");
}

#[test]
fn clean_games_exit_0() {
    insta::assert_snapshot!(run(&["check", "fixtures/games"], ""));
}

#[test]
fn an_illegal_move_exits_1_with_a_rendered_diagnostic() {
    insta::assert_snapshot!(check(
        &["fixtures/invalid/illegal/capture_mandatory.bao"],
        ""
    ));
}

/// `LANG=sw_TZ.UTF-8 bao check`: the diagnostics, their help and the summaries in
/// Kiswahili (issue 34); the codes and the exit status as in English.
#[test]
fn a_kiswahili_locale_gives_kiswahili_diagnostics() {
    let out = output_with(
        &root(),
        &[
            "check",
            "--color",
            "never",
            "fixtures/invalid/illegal/capture_mandatory.bao",
        ],
        "",
        &[("LANG", "sw_TZ.UTF-8"), ("BAO_LANG", "")],
    );
    insta::assert_snapshot!(render(&out));
    // `--lang` wins over the environment, and `--format json` keeps its keys and codes.
    let en = run(
        &[
            "--lang",
            "en",
            "check",
            "--format",
            "json",
            "fixtures/invalid/illegal/capture_mandatory.bao",
        ],
        "",
    );
    let sw = run(
        &[
            "check",
            "--lang",
            "sw",
            "--format",
            "json",
            "fixtures/invalid/illegal/capture_mandatory.bao",
        ],
        "",
    );
    let data = |text: &str| -> Vec<serde_json::Value> {
        text.lines()
            .filter(|l| l.starts_with('{'))
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let (en, sw) = (data(&en), data(&sw));
    assert_eq!(en.len(), sw.len());
    for (e, s) in en.iter().zip(&sw) {
        assert_eq!(e["type"], s["type"]);
        assert_eq!(e["data"]["code"], s["data"]["code"]);
        assert_eq!(e["data"]["span"], s["data"]["span"]);
        let keys = |v: &serde_json::Value| {
            v["data"]
                .as_object()
                .map(|o| o.keys().cloned().collect::<Vec<_>>())
        };
        assert_eq!(keys(e), keys(s));
    }
    let message = sw[0]["data"]["message"].as_str().unwrap();
    assert!(message.contains("si halali"), "{message}");
}

#[test]
fn json_lines_for_a_directory() {
    let out = run(
        &["check", "--format", "json", "fixtures/invalid/record"],
        "",
    );
    insta::assert_snapshot!(out);
    let lines = json_lines(&out);
    assert_eq!(lines.last().unwrap()["type"], "summary");
    assert!(lines.iter().any(|l| l["type"] == "diagnostic"));
}

#[test]
fn warnings_pass_unless_denied() {
    let file = "fixtures/invalid/record/game_ends_early.bao";
    assert!(check(&[file], "").starts_with("exit: 0"));
    assert!(check(&["--deny-warnings", file], "").starts_with("exit: 1"));
}

#[test]
fn a_lap_budget_leaves_a_long_decision_undecided_as_a_warning() {
    // A1>* never ends (a cycle of 1,028,860,080 laps); deciding it the first time in a
    // process takes millions of laps.
    let file = "fixtures/invalid/budget/undecided.bao";
    let exact = check(&[file], "");
    assert!(exact.starts_with("exit: 1"), "{exact}");
    assert!(exact.contains("bao::illegal::never_ending"), "{exact}");
    let budget = ["--lap-budget", "10000", file];
    let out = check(&budget, "");
    assert!(out.starts_with("exit: 0"), "{out}");
    assert!(out.contains("bao::budget::undecided"), "{out}");
    assert!(out.contains("without `--lap-budget`"), "{out}");
    let denied = check(&[&budget[..], &["--deny-warnings"]].concat(), "");
    assert!(denied.starts_with("exit: 1"), "{denied}");
}

#[test]
fn stdin_missing_files_and_the_alias() {
    let out = run(&["validate", "--color", "never", "-"], "1. A6<* a6<* *\n");
    assert!(out.starts_with("exit: 1"), "{out}");
    assert!(out.contains("stdin"), "{out}");
    let missing = run(&["check", "no/such/file.bao"], "");
    assert!(missing.starts_with("exit: 2"), "{missing}");
}

#[test]
fn assume_fixes_goes_on() {
    let text = "1. A7>* a6<* 2. A6> a5> 3. A1< a5>* 1-0\n";
    let plain = check(&["-"], text);
    assert!(plain.contains("4 plies"), "{plain}");
    let fixed = check(&["--assume-fixes", "-"], text);
    assert!(fixed.contains("assuming A2< at ply 5"), "{fixed}");
}

#[test]
fn ply_repairs_in_json_and_assumed() {
    let out = run(
        &[
            "check",
            "--format",
            "json",
            "--assume-fixes",
            "fixtures/invalid/repair",
        ],
        "",
    );
    assert!(out.starts_with("exit: 1"), "{out}");
    let lines = json_lines(&out);
    let repairs: Vec<(String, String, String)> = lines
        .iter()
        .filter(|l| l["type"] == "diagnostic")
        .map(|l| {
            let r = &l["data"]["repair"];
            (
                l["data"]["file"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_owned(),
                r["kind"].as_str().unwrap_or("none").to_owned(),
                r["move"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    let expect = |f: &str, k: &str, m: &str| (f.to_owned(), k.to_owned(), m.to_owned());
    assert_eq!(
        repairs,
        [
            expect("house_mark.bao", "earlier", "A8>+"),
            expect("legal_slip.bao", "earlier", "A4>"),
            expect("missing_ply.bao", "insert", "a6<"),
            expect("swapped_moves.bao", "swap", "A6>"),
            expect("swapped_plies.bao", "swap", "A5>"),
        ]
    );
    // Each game replays to its end on the assumption, with no other diagnostic: those with
    // a swap or an insertion (15 plies), and those with a repair at an earlier ply (de
    // Voogt's problem 3, 22 plies).
    for l in lines.iter().filter(|l| l["type"] == "file") {
        let earlier = l["data"]["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("house_mark.bao") || f.ends_with("legal_slip.bao"));
        assert_eq!(l["data"]["plies"], if earlier { 22 } else { 15 }, "{l}");
        assert_eq!(l["data"]["errors"], 1, "{l}");
    }
}

/// `2. A4L` written for `A4R` (issue 16, item 5): `--assume-fixes` takes the repair at ply 3
/// and goes on to the end of the game; a second slip after it is worded assuming it.
#[test]
fn assume_fixes_takes_an_earlier_repair_and_goes_on() {
    let file = "fixtures/invalid/repair/legal_slip.bao";
    let plain = check(&[file], "");
    assert!(plain.contains("1 game, 4 plies: 1 error"), "{plain}");
    let out = check(&["--assume-fixes", file], "");
    assert!(out.starts_with("exit: 1"), "{out}");
    assert!(
        out.contains("--assume-fixes assumes A4> at ply 3 and goes on from there."),
        "{out}"
    );
    assert!(out.contains("1 game, 22 plies: 1 error"), "{out}");
    let two = check(
        &["--assume-fixes", "fixtures/assume_fixes/two_slips.bao"],
        "",
    );
    insta::assert_snapshot!(two);
    assert!(two.contains("(assuming A4> at ply 3)"), "{two}");
    assert!(two.contains("1 game, 22 plies: 2 errors"), "{two}");
}

/// Where `--assume-fixes` cannot go on it says why, listing the repairs that tie.
#[test]
fn assume_fixes_lists_the_repairs_that_tie() {
    let out = check(
        &[
            "--assume-fixes",
            "fixtures/assume_fixes/tied_earlier_repairs.bao",
        ],
        "",
    );
    insta::assert_snapshot!(out);
    assert!(
        out.contains(
            "--assume-fixes stops this line here: the likeliest repairs are equally likely \
             (a6< at ply 8, a5< at ply 10)."
        ),
        "{out}"
    );
    assert!(out.contains("1 game, 14 plies: 1 error"), "{out}");
}

/// A repair at the refused ply ties with one at an earlier ply (two slips: the second one
/// makes the earlier repair's line break again 19 plies after the refused one): `check`
/// offers both, `--assume-fixes` goes on with neither and says why, `--fix` changes nothing.
#[test]
fn assume_fixes_stops_where_an_earlier_repair_ties_with_this_ply() {
    let file = "fixtures/assume_fixes/tied_with_this_ply.bao";
    let out = check(&["--assume-fixes", file], "");
    insta::assert_snapshot!(out);
    let out = unwrapped(&out);
    assert!(out.starts_with("exit: 1"), "{out}");
    assert!(
        out.contains(
            "--assume-fixes stops this line here: a repair of an earlier ply is as likely as \
             one of this ply (A6> here, a3> at ply 10), so which ply holds the slip is not known."
        ),
        "{out}"
    );
    assert!(out.contains("or the slip is here: a3>"), "{out}");
    assert!(out.contains("1 game, 10 plies: 1 error"), "{out}");
    // Without --assume-fixes the same two repairs, and no fix of either ply.
    let plain = unwrapped(&check(&[file], ""));
    assert!(
        plain.contains("the one after is illegal (or a3> at ply 10)"),
        "{plain}"
    );
    assert!(
        plain.contains("As likely: the slip seems to be at ply 10: a3> there, not a6>"),
        "{plain}"
    );
    assert_no_fix(file);
}

/// The repair at the refused ply is clear and the first pass went on with it, but two
/// earlier repairs are likelier and tie: the game is replayed with no repair assumed at the
/// refused ply, which stops the line there, listing the two.
#[test]
fn assume_fixes_takes_back_a_repair_that_earlier_ones_outrank() {
    let file = "fixtures/assume_fixes/tied_after_going_on.bao";
    let out = check(&["--assume-fixes", file], "");
    insta::assert_snapshot!(out);
    let out = unwrapped(&out);
    assert!(
        out.contains(
            "--assume-fixes stops this line here: the likeliest repairs are equally likely \
             (a5< at ply 22, a5< at ply 24)."
        ),
        "{out}"
    );
    // One error: nothing after ply 26 is worded, as it would be had the line gone on.
    assert!(
        out.contains("1 game, 25 plies: 1 error, 0 warnings"),
        "{out}"
    );
    assert_no_fix(file);
}

/// A never-ending move (issue 16, item 9) is annotated with its laps up to its cycle and
/// the cycle item, not with every lap the engine ran; the output checks clean, is canonical,
/// and a cycle changed by hand is reported.
#[test]
fn annotate_summarises_a_never_ending_move() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p3.bao");
    std::fs::copy(
        root().join("fixtures/diagrams/never_ending_draw.bao"),
        &path,
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let out = run(&["annotate", p], "");
    assert!(out.starts_with("exit: 0"), "{out}");
    assert!(out.contains("12. A3<* [B2:2 cycle:1+228] 1/2-1/2"), "{out}");
    assert!(run(&["annotate", "--write", p], "").starts_with("exit: 0"));
    assert!(run(&["check", p], "").starts_with("exit: 0"));
    // Only the annotations were added (the layout is the record's: one line of moves), and
    // annotating again changes nothing.
    let written = std::fs::read_to_string(&path).unwrap();
    let source =
        std::fs::read_to_string(root().join("fixtures/diagrams/never_ending_draw.bao")).unwrap();
    assert_eq!(written.lines().count(), source.lines().count());
    let again = run(&["annotate", p], "");
    assert!(
        again.contains(&format!("--- stdout\n{written}--- stderr")),
        "{again}"
    );
    std::fs::write(&path, written.replace("cycle:1+228", "cycle:1+229")).unwrap();
    let wrong = check(&[p], "");
    assert!(wrong.starts_with("exit: 1"), "{wrong}");
    assert!(wrong.contains("bao::annotation::lap_mismatch"), "{wrong}");
    assert!(
        wrong.contains("Written [B2:2 cycle:1+229]; A3<* gives [B2:2 cycle:1+228]."),
        "{wrong}"
    );
}

#[test]
fn annotate_writes_the_engine_annotations() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.bao");
    std::fs::write(&path, "1. A7>* a6<* 2. A6> a5> 3. A2< 1-0\n").unwrap();
    let p = path.to_str().unwrap();
    let out = run(&["annotate", p], "");
    insta::assert_snapshot!(out);
    assert!(run(&["annotate", "--write", p], "").starts_with("exit: 0"));
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.contains("3. A2<# [xa7:2"), "{written}");
    assert!(run(&["check", p], "").starts_with("exit: 0"));
    assert!(root().join("fixtures/games").is_dir());
}

/// A large record (streamed, on one and two threads) prints exactly what the whole-file
/// path prints: human and JSON, with `--assume-fixes` and `--deny-warnings`.
#[test]
fn a_large_record_streams_with_the_whole_file_output() {
    use bao_validate::{check_bytes_report, CheckOptions};
    use miette::{GraphicalReportHandler, GraphicalTheme};
    let mut bytes = Vec::new();
    let mut files: Vec<_> = [
        "fixtures/games",
        "fixtures/invalid/illegal",
        "fixtures/invalid/record",
    ]
    .iter()
    .flat_map(|d| std::fs::read_dir(root().join(d)).unwrap())
    .map(|e| e.unwrap().path())
    .filter(|p| p.extension().is_some_and(|x| x == "bao"))
    .collect();
    files.sort();
    let mut round = 0;
    while bytes.len() <= bao_validate::stream::STREAM_ABOVE * 2 {
        for f in &files {
            round += 1;
            bytes.extend_from_slice(format!("; copy {round}\n").as_bytes());
            bytes.extend_from_slice(&std::fs::read(f).unwrap());
            bytes.extend_from_slice(b"\n");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("archive.bao");
    std::fs::write(&path, &bytes).unwrap();
    let name = path.display().to_string();
    for assume_fixes in [false, true] {
        let opts = CheckOptions {
            assume_fixes,
            ..CheckOptions::default()
        };
        let report = check_bytes_report(&name, &bytes, &opts);
        assert!(report.stats.errors > 20);
        let s = &report.stats;
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        let summary = format!(
            "bao check: 1 file, {}, {}: {}, {}\n",
            plural(s.games, "game"),
            plural(s.plies, "ply").replace("plys", "plies"),
            plural(s.errors, "error"),
            plural(s.warnings, "warning")
        );
        let mut human = String::new();
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
            .with_links(false)
            .render_report(&mut human, &report)
            .unwrap();
        let mut json: String = bao_validate::json::report_json(&report)
            .iter()
            .map(|v| format!("{v}\n"))
            .collect();
        json.push_str(&format!(
            "{}\n",
            serde_json::json!({"type": "summary", "data": {
                "files": 1, "unreadable": 0, "games": s.games, "plies": s.plies,
                "errors": s.errors, "warnings": s.warnings, "ok": false,
            }})
        ));
        for threads in ["1", "2"] {
            let mut args = vec!["check", "--color", "never", "-j", threads, &name];
            if assume_fixes {
                args.push("--assume-fixes");
            }
            let out = crate::cmd::output(&args, "");
            assert_eq!(out.status.code(), Some(1));
            assert!(out.stdout.is_empty());
            assert!(
                String::from_utf8(out.stderr).unwrap() == format!("{human}{summary}"),
                "human output, {threads} threads, assume_fixes {assume_fixes}"
            );
            args.extend(["--format", "json", "--deny-warnings"]);
            let out = crate::cmd::output(&args, "");
            assert_eq!(out.status.code(), Some(1));
            assert_eq!(String::from_utf8(out.stdout).unwrap(), json);
        }
    }
}

/// `check --fix`: a legal slip put back at its own ply, the file rewritten (the diff first
/// with `--dry-run`, the file untouched), and a second run changes nothing.
#[test]
fn fix_repairs_a_legal_slip_and_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let original =
        std::fs::read_to_string(root().join("fixtures/invalid/repair/legal_slip.bao")).unwrap();
    let path = dir.path().join("slip.bao");
    std::fs::write(&path, &original).unwrap();
    let dry = crate::cmd::output_in(dir.path(), &["check", "--fix", "--dry-run", "slip.bao"], "");
    insta::assert_snapshot!("fix_dry_run", render(&dry));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    let fixed = crate::cmd::output_in(dir.path(), &["check", "--fix", "slip.bao"], "");
    assert_eq!(fixed.status.code(), Some(0), "{}", render(&fixed));
    let repaired = std::fs::read_to_string(&path).unwrap();
    assert_eq!(repaired, original.replace("2. A4L", "2. A4R"));
    // Nothing left over from the atomic write.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    let again = crate::cmd::output_in(dir.path(), &["check", "--fix", "slip.bao"], "");
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), repaired);
    assert!(String::from_utf8_lossy(&again.stderr).contains("0 repairs applied"));
}

/// A record `--fix` cannot fully repair keeps what it could fix and reports the rest
/// (exit 1); from stdin the repaired text goes to stdout.
#[test]
fn fix_leaves_what_it_cannot_repair_and_exits_1() {
    // The swapped plies of a fixture (repaired), then an empty pit with no clear repair.
    let text = std::fs::read_to_string(root().join("fixtures/invalid/repair/swapped_plies.bao"))
        .unwrap()
        .replace("8. A6< [xa3:1 A1:1] *", "8. B8< *");
    let out = crate::cmd::output(&["check", "--color", "never", "--fix", "-"], &text);
    assert_eq!(out.status.code(), Some(1), "{}", render(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The two items traded places with their annotations.
    let swapped = text.replace(
        "5. a5> [xA4:1 a8:1] A5> [xa4:3 A6:6 B1:1]",
        "5. A5> [xa4:3 A6:6 B1:1] a5> [xA4:1 a8:1]",
    );
    assert_ne!(swapped, text);
    assert_eq!(stdout, swapped);
    assert!(stdout.contains("8. B8< *"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("plies 9 and 10"), "{stderr}");
    assert!(
        stderr.contains("1 repair applied; left: 1 error"),
        "{stderr}"
    );
}

/// Move numbers are read: the example reports its two wrong numbers (warnings: exit
/// 0, 1 with `--deny-warnings`), and `--fix` rewrites them and nothing else.
#[test]
fn wrong_move_numbers_are_reported_and_renumbered() {
    let text = "1. A6L* a6R 3. A4R a6R 7... A5L a3R *\n";
    let out = crate::cmd::output(&["check", "--color", "never", "-"], text);
    assert_eq!(out.status.code(), Some(0), "{}", render(&out));
    let stderr = unwrapped(&String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        stderr.matches("bao::record::move_number_mismatch").count(),
        2,
        "{stderr}"
    );
    assert!(
        stderr
            .contains("the move number `3.` does not fit its ply: ply 3 is South's ply of move 2"),
        "{stderr}"
    );
    assert!(stderr.contains("Write `3.` here."), "{stderr}");
    assert!(stderr.contains("0 errors, 2 warnings"), "{stderr}");
    let denied = crate::cmd::output(&["check", "--deny-warnings", "-"], text);
    assert_eq!(denied.status.code(), Some(1));
    let fixed = crate::cmd::output(&["check", "--color", "never", "--fix", "-"], text);
    assert_eq!(fixed.status.code(), Some(0), "{}", render(&fixed));
    assert_eq!(
        String::from_utf8_lossy(&fixed.stdout),
        "1. A6L* a6R 2. A4R a6R 3. A5L a3R *\n"
    );
    let stderr = String::from_utf8_lossy(&fixed.stderr);
    assert!(
        stderr.contains("ply 3: move number 3. became 2."),
        "{stderr}"
    );
    assert!(
        stderr.contains("ply 5: move number 7... became 3."),
        "{stderr}"
    );
}

/// The insertion of a missing ply is written in the record's K.I.B.A. letters, goes before
/// the refused move's number, and the numbers it shifts are renumbered.
#[test]
fn an_inserted_ply_keeps_the_notation_and_the_numbers_follow() {
    let text = "1. A6L* a6R 2. A4R 3. A5L *\n";
    let fixed = crate::cmd::output(&["check", "--color", "never", "--fix", "-"], text);
    let stdout = String::from_utf8_lossy(&fixed.stdout);
    let stderr = String::from_utf8_lossy(&fixed.stderr);
    assert_eq!(fixed.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("inserted"), "{stderr}");
    assert!(stdout.starts_with("1. A6L* a6R 2. A4R a"), "{stdout}");
    assert!(stdout.ends_with(" 3. A5L *\n"), "{stdout}");
    assert!(!stdout.contains(['<', '>']), "{stdout}");
}

/// `bao fmt --fill` spells out forced signs and `*`; `--mover-signs` converts a record
/// written with `[Directions "south"]` into mover-frame signs and drops the tag.
#[test]
fn fmt_fills_in_moves_and_converts_signs() {
    let filled = crate::cmd::output(
        &["fmt", "--fill", "-"],
        "1. A7> a7< 2. A5< a6< 3. 6< a4< *\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&filled.stdout),
        "1. A7>* a7<* 2. A5< a6<* 3. A6< a4< *\n"
    );
    let south = "[Event \"x\"]\n[Directions \"south\"]\n\n1. A7>* a7>* 2. A5< a6>* 3. A6< a4> *\n";
    let mover = crate::cmd::output(&["fmt", "--mover-signs", "-"], south);
    assert_eq!(
        String::from_utf8_lossy(&mover.stdout),
        "[Event \"x\"]\n\n1. A7>* a7<* 2. A5< a6<* 3. A6< a4< *\n"
    );
    // Without the option the convention and its tag stay.
    let kept = crate::cmd::output(&["fmt", "-"], south);
    assert!(String::from_utf8_lossy(&kept.stdout).contains("a7>*"));
}

/// A record over the streaming size, made of copies of the fixtures' games in `dirs`.
fn large_record(dirs: &[&str]) -> Vec<u8> {
    let mut files: Vec<_> = dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(root().join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "bao"))
        .collect();
    files.sort();
    let mut bytes = Vec::new();
    let mut round = 0;
    while bytes.len() <= bao_validate::stream::STREAM_ABOVE * 2 {
        for f in &files {
            round += 1;
            bytes.extend_from_slice(format!("; copy {round}\n").as_bytes());
            // Each copy's matches renamed: a match of more than three games is an error.
            let text = std::fs::read_to_string(f).unwrap();
            let text = text.replace("[Match \"", &format!("[Match \"{round} "));
            bytes.extend_from_slice(text.as_bytes());
            bytes.extend_from_slice(b"\n{after the game}\n\n");
        }
    }
    bytes
}

/// `bao annotate` and `bao export json` on a large record (streamed, on one and two
/// threads) write what the whole-file path writes; an invalid one exports nothing and is
/// not written over, with the diagnostics `bao check` prints.
#[test]
fn annotate_and_export_json_stream_a_large_record_as_the_whole_file() {
    use bao_validate::{annotated_text, check_bytes, CheckOptions};
    let dir = tempfile::tempdir().unwrap();
    let valid = large_record(&["fixtures/games"]);
    let path = dir.path().join("archive.bao");
    std::fs::write(&path, &valid).unwrap();
    let name = path.display().to_string();
    let checked = check_bytes(&name, &valid, &CheckOptions::default());
    assert!(checked.report.is_valid() && checked.report.stats.games > 20);
    let annotated = annotated_text(&checked);
    let json = bao_export::record_json_pretty(
        &checked.record,
        &checked.replayed,
        &bao_export::JsonOptions::default(),
    )
    .unwrap();
    let out_json = dir.path().join("out.json");
    for threads in ["1", "2"] {
        let output =
            |args: &[&str]| output_with(&root(), args, "", &[("RAYON_NUM_THREADS", threads)]);
        let out = output(&["annotate", &name]);
        assert_eq!(out.status.code(), Some(0), "{}", render(&out));
        assert!(
            String::from_utf8(out.stdout).unwrap() == annotated,
            "annotate"
        );
        let out = output(&["export", "json", &name]);
        assert_eq!(out.status.code(), Some(0), "{}", render(&out));
        assert!(
            String::from_utf8(out.stdout).unwrap() == json,
            "export json"
        );
        let o = out_json.to_str().unwrap();
        let out = output(&["export", "json", &name, "-o", o]);
        assert_eq!(out.status.code(), Some(0), "{}", render(&out));
        assert!(
            std::fs::read_to_string(&out_json).unwrap() == json,
            "export json -o"
        );
        std::fs::remove_file(&out_json).unwrap();
    }
    assert!(run(&["annotate", "--write", &name], "").starts_with("exit: 0"));
    assert!(
        std::fs::read_to_string(&path).unwrap() == annotated,
        "annotate --write"
    );

    let invalid = large_record(&["fixtures/games", "fixtures/invalid/illegal"]);
    std::fs::write(&path, &invalid).unwrap();
    let checked = check_bytes(&name, &invalid, &CheckOptions::default());
    assert!(!checked.report.is_valid());
    let mut human = String::new();
    miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .with_links(false)
        .render_report(&mut human, &checked.report)
        .unwrap();
    let annotated = annotated_text(&checked);
    let out = crate::cmd::output(&["annotate", "--color", "never", &name], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stdout).unwrap() == annotated);
    assert!(String::from_utf8(out.stderr).unwrap() == human);
    let out = crate::cmd::output(&["annotate", "--color", "never", "--write", &name], "");
    assert_eq!(out.status.code(), Some(1));
    let said = format!("{human}bao annotate: {name} has errors; not written\n");
    assert!(String::from_utf8(out.stderr).unwrap() == said);
    assert!(std::fs::read(&path).unwrap() == invalid, "left untouched");
    for args in [vec!["-o", out_json.to_str().unwrap()], vec![]] {
        let mut all = vec!["export", "--color", "never", "json", &name];
        all.extend(args);
        let out = crate::cmd::output(&all, "");
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty() && !out_json.exists());
        let said = format!("{human}bao: {name} is invalid; nothing exported\n");
        assert!(String::from_utf8(out.stderr).unwrap() == said);
    }
    let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(leftovers, 1, "no temporary file left");
}

/// `bao annotate` on a record in K.I.B.A. letters edits only what it adds: every token keeps
/// its `L`/`R`, and the layout (the record's own line breaks and trailing spaces) stays; the
/// text without the annotations and the marks the engine adds (`**` on a takasa that makes a
/// takasia, `#` on the winning move) is the record as read.
#[test]
fn annotate_keeps_the_records_notation_and_layout() {
    let path = root().join("fixtures/games/dialect_kiba.bao");
    let source = std::fs::read_to_string(&path).unwrap();
    let out = crate::cmd::output(&["annotate", path.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(0));
    let annotated = String::from_utf8(out.stdout).unwrap();
    assert!(
        annotated.contains("1. A7L* [A4:1] a5R [xA4:1 a8:1]"),
        "{annotated}"
    );
    let mut stripped = String::new();
    let mut rest = annotated.as_str();
    while let Some(at) = rest.find(" [") {
        stripped.push_str(&rest[..at]);
        rest = &rest[at + rest[at..].find(']').unwrap() + 1..];
    }
    stripped.push_str(rest);
    let tags_end = source.find("\n\n").unwrap();
    let marks = |t: &str| t.replace('#', "").replace("**", "*");
    assert_eq!(marks(&stripped[tags_end..]), marks(&source[tags_end..]));
}

/// A Kete game labelled Kiswahili (made by `bao replay` under Kete, a random legal move at a
/// time): its first illegal move's help names the rule set the whole game replays under, as
/// the `Directions` note does; under Kete it checks clean.
#[test]
fn a_kete_game_labelled_kiswahili_gets_the_rule_set_hint() {
    let record = "[Event \"k\"]\n[RuleSet \"kiswahili\"]\n\n\
        A6>* a7>* A7>* a8>* A8>* a6>* A5<* a7> A3< a8> A3> a7<* A3< a3>* A3<* a2< A8> a5> A5>\n\
        a8> A4> a7> A5> *\n";
    let out = unwrapped(&check(&["-"], record));
    assert!(out.starts_with("exit: 1"), "{out}");
    assert!(
        out.contains(
            "The whole game replays cleanly under [RuleSet \"kete\"]: the record seems to be of \
             that rule set."
        ),
        "{out}"
    );
    let kete = record.replace("kiswahili", "kete");
    assert!(check(&["-"], &kete).starts_with("exit: 0"));
}
