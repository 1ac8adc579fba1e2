//! `bao replay`: every `fixtures/replay/*.jsonl` file, stdin, and the shape of its answers.

use serde_json::Value;

use crate::cmd::run;

#[test]
fn replay_fixtures() {
    insta::glob!("../../../../fixtures", "replay/*.jsonl", |path| {
        let name = path.file_name().unwrap().to_str().unwrap();
        let arg = format!("fixtures/replay/{name}");
        insta::assert_snapshot!(run(&["replay", &arg], ""));
    });
}

#[test]
fn replay_reads_stdin_and_keeps_going_after_a_bad_line() {
    let input = concat!(
        "not json\n",
        "{\"rules\": \"kujifunza\", \"moves\": [\"A2>\", 42]}\n",
        "{\"rules\": \"kujifunza\", \"position\": {\"to_move\": \"south\"}, \"moves\": []}\n",
        "\n",
        "{\"rules\": \"abstractplay-kujifunza\", \"moves\": [\"A5R\"]}\n",
    );
    let out = run(&["replay"], input);
    insta::assert_snapshot!(out);
    assert_eq!(run(&["replay", "-"], input), out, "`-` is stdin too");
}

/// `legal[i]` belongs to `positions[i]`; `error.ply` indexes `moves`.
#[test]
fn replay_answers_line_up() {
    let input =
        std::fs::read_to_string(crate::cmd::root().join("fixtures/replay/sample.jsonl")).unwrap();
    let out = run(&["replay", "fixtures/replay/sample.jsonl"], "");
    let stdout = out.split("--- stdout\n").nth(1).unwrap();
    let stdout = stdout.split("--- stderr\n").next().unwrap();
    let answers: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), input.lines().count());
    for (line, answer) in input.lines().zip(&answers) {
        let request: Value = serde_json::from_str(line).unwrap();
        let moves = request["moves"].as_array().unwrap().len();
        let positions = answer["positions"].as_array().unwrap().len();
        assert_eq!(answer["legal"].as_array().unwrap().len(), positions);
        match answer["error"]["ply"].as_u64() {
            Some(ply) => assert_eq!(positions, ply as usize + 1),
            None => assert_eq!(positions, moves + 1),
        }
    }
}
