//! `bao solve`: the puzzles of `fixtures/analysis/puzzles.jsonl` through the command line
//! (JSON and human output, exit codes), on a position string and on a record's ply.

use crate::cmd::{output, run};

/// Every puzzle: `bao solve --all --format json` gives its verdict, distance and every
/// winning first move with its own distance; exit 0 when proven, 1 when unknown.
#[test]
fn every_puzzle_solves_as_labelled() {
    let text = std::fs::read_to_string(crate::cmd::root().join("fixtures/analysis/puzzles.jsonl"))
        .expect("the puzzles");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let p: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let depth = p["depth"].to_string();
        let position = p["position"].as_str().expect("position");
        let out = output(
            &[
                "solve",
                "--position",
                position,
                "--depth",
                &depth,
                "--all",
                "--format",
                "json",
            ],
            "",
        );
        let got: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON out");
        let name = &p["name"];
        assert_eq!(got["result"], p["result"], "{name}");
        assert_eq!(got["plies"], p["plies"], "{name}");
        let moves: Vec<serde_json::Value> = got["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| serde_json::json!([m["move"], m["plies"]]))
            .collect();
        assert_eq!(serde_json::Value::from(moves), p["moves"], "{name}");
        let proven = p["result"] != "unknown";
        assert_eq!(
            out.status.code(),
            Some(if proven { 0 } else { 1 }),
            "{name}"
        );
        if p["result"] == "win" {
            // The line starts with a winning move and is as long as the win.
            let first = &got["line"][0];
            assert!(p["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .any(|m| &m[0] == first));
            assert_eq!(
                got["line"].as_array().map(Vec::len),
                got["plies"].as_u64().map(|n| n as usize)
            );
        }
    }
}

const COOK: &str = "0,0,1,2,5,6,7,1/6,0,0,2,7,1,0,5/0,1,1,1,1,2,5,3/1,1,2,1,2,0,0,0 0/0 S XX -";

/// Without `--all` only the quickest wins are listed, as plain strings.
#[test]
fn the_quickest_wins_without_all() {
    let out = output(
        &[
            "solve",
            "--position",
            COOK,
            "--depth",
            "5",
            "--format",
            "json",
        ],
        "",
    );
    let got: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(got["moves"], serde_json::json!(["B1<"]));
    assert_eq!(got["plies"], 3);
}

#[test]
fn human_output_and_exit_codes() {
    let human = run(&["solve", "--position", COOK, "--depth", "5", "--all"], "");
    // Node counts and times vary with nothing; times do: keep the lines before them.
    let shown: Vec<&str> = human.lines().filter(|l| !l.ends_with(" ms")).collect();
    insta::assert_snapshot!(shown.join("\n"));
    let start = "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S FF -";
    let unknown = output(&["solve", "--position", start, "--depth", "2"], "");
    assert_eq!(unknown.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&unknown.stdout).starts_with("unknown: nothing is forced"));
}

/// A record's position: the planted blunder's game after its first ply is South's win in 3.
#[test]
fn a_ply_of_a_record() {
    let out = output(
        &[
            "solve",
            "fixtures/analysis/planted_blunder.bao",
            "--ply",
            "1",
            "--depth",
            "3",
            "--format",
            "json",
        ],
        "",
    );
    let got: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(got["result"], "win");
    assert_eq!(got["plies"], 3);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn bad_arguments_are_refused() {
    insta::assert_snapshot!(run(&["solve", "--position", "0,0/1 2", "--depth", "3"], ""));
    let no_depth = output(&["solve", "--position", COOK], "");
    assert_eq!(no_depth.status.code(), Some(2));
}

/// An invalid record can be solved at any ply before its first invalid one (as `bao show`
/// and `bao legal` show it), with a note where it stops being valid; a ply at or past that
/// one is refused, naming it (exit 1), and solving it as a position gives the same answer.
#[test]
fn an_invalid_record_is_solved_before_its_first_invalid_ply() {
    let file = "fixtures/invalid/illegal/capture_mandatory.bao";
    let solve = |ply: &str| {
        output(
            &[
                "solve", file, "--ply", ply, "--depth", "2", "--format", "json",
            ],
            "",
        )
    };
    let at_start = solve("0");
    let stderr = String::from_utf8_lossy(&at_start.stderr);
    assert!(
        stderr.contains("the record stops being valid at ply"),
        "{stderr}"
    );
    let got: serde_json::Value = serde_json::from_slice(&at_start.stdout).expect("JSON out");
    let legal = output(&["legal", file, "--ply", "0", "--format", "json"], "");
    let listed: serde_json::Value = serde_json::from_slice(&legal.stdout).expect("JSON out");
    let position = listed["position"].as_str().expect("a position string");
    let direct = output(
        &[
            "solve",
            "--position",
            position,
            "--depth",
            "2",
            "--format",
            "json",
        ],
        "",
    );
    let want: serde_json::Value = serde_json::from_slice(&direct.stdout).expect("JSON out");
    assert_eq!(got["result"], want["result"]);
    assert_eq!(got["moves"], want["moves"]);
    assert_eq!(at_start.status.code(), direct.status.code());
    let past = solve("999");
    assert_eq!(past.status.code(), Some(1));
    assert!(past.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&past.stderr);
    assert!(stderr.contains("the record is valid up to ply"), "{stderr}");
}
