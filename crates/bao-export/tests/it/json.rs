use std::path::{Path, PathBuf};
use std::sync::Arc;

use bao_export::{record_json_pretty, JsonOptions};
use bao_validate::{check_full, CheckOptions};
use insta::assert_snapshot;
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The pretty JSON export of a valid record.
fn export(path: &Path, legal: bool) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let checked = check_full("test", Arc::from(text), &CheckOptions::default());
    assert!(
        checked.report.is_valid(),
        "{} is invalid: {:?}",
        path.display(),
        checked
            .report
            .diagnostics
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    );
    record_json_pretty(&checked.record, &checked.replayed, &JsonOptions { legal }).unwrap()
}

/// Every record the JSON tests export: the sample games and the annotated test record.
fn records() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures/games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bao"))
        .collect();
    paths.sort();
    paths.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/annotated.bao"));
    paths
}

#[test]
fn short_bao_hamna() {
    assert_snapshot!(export(
        &root().join("fixtures/games/short_bao_hamna.bao"),
        false
    ));
}

#[test]
fn annotated_with_variations_and_legal_moves() {
    assert_snapshot!(export(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/annotated.bao"),
        true
    ));
}

#[test]
fn every_export_matches_the_schema() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("spec/game.schema.json")).unwrap(),
    )
    .unwrap();
    for path in records() {
        for legal in [false, true] {
            let json: Value = serde_json::from_str(&export(&path, legal)).unwrap();
            let errors = schema_errors(&schema, None, &json);
            assert!(
                errors.is_empty(),
                "{} (legal: {legal}) breaks the schema:\n{}",
                path.display(),
                errors.join("\n")
            );
        }
    }
}

#[test]
fn the_schema_catches_a_broken_export() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("spec/game.schema.json")).unwrap(),
    )
    .unwrap();
    let mut json: Value = serde_json::from_str(&export(
        &root().join("fixtures/games/short_bao_hamna.bao"),
        false,
    ))
    .unwrap();
    json["games"][0]["moves"][0]["trace"]["laps"][0]["ended"] = Value::from("somewhere");
    json["games"][0]["moves"][1]["position"]["pits"]["A"] = Value::from(vec![1, 2, 3]);
    json["games"][0]["extra"] = Value::from(1);
    let errors = schema_errors(&schema, None, &json);
    assert_eq!(errors.len(), 3, "{errors:#?}");
}

#[test]
fn export_is_deterministic_and_ply_numbers_run_on() {
    for path in records() {
        let a = export(&path, true);
        assert_eq!(a, export(&path, true));
        let json: Value = serde_json::from_str(&a).unwrap();
        for game in json["games"].as_array().unwrap() {
            check_plies(&game["moves"], 1);
        }
    }
}

/// Plies count on from `first`; a variation of ply `n` starts at `n`.
fn check_plies(line: &Value, first: u64) {
    for (i, ply) in line.as_array().unwrap().iter().enumerate() {
        let n = first + i as u64;
        assert_eq!(ply["ply"], n);
        for v in ply["variations"].as_array().unwrap() {
            check_plies(v, n);
        }
    }
}

/// The errors of `v` against `spec/game.schema.json` (`schema`), or against one of its
/// definitions (`def`, with the definitions its `$ref`s point into), each `path: message`:
/// the `jsonschema` crate, draft 2020-12 as the schema says, every keyword it knows.
fn schema_errors(schema: &Value, def: Option<&str>, v: &Value) -> Vec<String> {
    let target = match def {
        None => schema.clone(),
        Some(def) => serde_json::json!({
            "$schema": schema["$schema"],
            "$defs": schema["$defs"],
            "$ref": format!("#/$defs/{def}"),
        }),
    };
    let validator = jsonschema::validator_for(&target).expect("the schema is a valid schema");
    validator
        .iter_errors(v)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// The sample games need not show every event, lap source or lap end: a trace holding each
/// of them goes through the real conversion and is checked against the schema.
#[test]
fn every_event_and_lap_end_matches_the_schema() {
    use bao_core::{
        Capture, Direction, Event, Lap, LapEnd, LapSource, MoveTrace, NeverEnding, Outcome, Pit,
        Side, Stage,
    };
    use bao_export::json::TraceJson;

    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("spec/game.schema.json")).unwrap(),
    )
    .unwrap();
    let pit = |s: &str| s.parse::<Pit>().unwrap();
    let ends = [
        LapEnd::EmptyPit,
        LapEnd::Capture,
        LapEnd::Relay,
        LapEnd::HouseStop,
        LapEnd::Safari,
        LapEnd::TakasiaStop,
        LapEnd::Aborted,
    ];
    let sources = [LapSource::Lifted, LapSource::Taxed, LapSource::Captured];
    let laps = ends
        .iter()
        .enumerate()
        .map(|(i, ended)| Lap {
            number: i as u64 + 1,
            start: pit("A5"),
            source: sources[i % 3],
            direction: if i % 2 == 0 {
                Direction::Clockwise
            } else {
                Direction::Anticlockwise
            },
            seeds: 2,
            end: pit("b8"),
            ended: *ended,
        })
        .collect();
    let events = vec![
        Event::Placed { pit: pit("A5") },
        Event::KichwaChosen { kichwa: pit("A1") },
        Event::HouseTaxed { left: 4 },
        Event::HouseStop,
        Event::Safari,
        Event::HouseDestroyed { side: Side::North },
        Event::TakasiaStop { pit: pit("A3") },
        Event::TakasiaSet { pit: pit("a3") },
        Event::TakasiaCleared { pit: pit("a3") },
        Event::BaoHamna,
    ];
    let mv = bao_core::Position::start(bao_core::RuleSet::KISWAHILI).legal_moves()[0];
    let trace = MoveTrace {
        mv,
        mover: Side::South,
        stage: Stage::Namua,
        placement: Some(pit("A5")),
        laps,
        captures: vec![Capture {
            pit: pit("a5"),
            seeds: 3,
            kichwa: pit("A8"),
            direction: Direction::Anticlockwise,
            after_lap: 0,
        }],
        events,
        laps_total: 7,
        seeds_sown: 14,
        never_ending: Some(NeverEnding {
            cycle_start_lap: 3,
            period: 2,
        }),
        outcome: Some(Outcome {
            winner: None,
            reason: bao_core::EndReason::NeverEnding,
        }),
    };
    let v = serde_json::to_value(TraceJson::from_trace(&trace)).unwrap();
    let errors = schema_errors(&schema, Some("trace"), &v);
    assert!(errors.is_empty(), "{v:#}: {errors:#?}");
    assert_eq!(v["events"].as_array().unwrap().len(), 10);
    assert_eq!(v["laps"].as_array().unwrap().len(), 7);
}

/// The JSON of one chosen ply (its trace and the position after), as `bao export json` writes
/// them inside `plies`.
fn ply_json(ply: &crate::plies::Ply) -> String {
    let v = serde_json::json!({
        "move": ply.trace.mv.to_string(),
        "trace": bao_export::json::TraceJson::from_trace(&ply.trace),
        "position": bao_core::json::PositionJson::from_position(&ply.after),
    });
    serde_json::to_string_pretty(&v).unwrap()
}

#[test]
fn chosen_plies() {
    use crate::plies;
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("spec/game.schema.json")).unwrap(),
    )
    .unwrap();
    for (name, ply) in [
        ("namua_capture_with_kichwa_choice", plies::kichwa_chosen()),
        ("safari", plies::safari()),
        ("takasia", plies::takasia()),
        ("bao_hamna", plies::bao_hamna()),
        ("kete_kuu_floor", plies::kuu_floor()),
    ] {
        let text = ply_json(&ply);
        let v: Value = serde_json::from_str(&text).unwrap();
        let errors = schema_errors(&schema, Some("trace"), &v["trace"]);
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        insta::with_settings!({ snapshot_suffix => name }, {
            assert_snapshot!(text);
        });
    }
}

/// The JSON of a record written game by game from the stream (the chunks checked and
/// replayed one by one, as `bao export json` reads a large record), next to the whole
/// record's JSON built at once (`record_json`, pretty-printed by serde) and through
/// `record_json_pretty`.
fn exports_of(bytes: &[u8], legal: bool) -> (String, String, String) {
    use bao_export::{record_json, RecordJsonWriter};
    use bao_validate::stream::{check_chunk_replayed, StreamReader};
    let opts = JsonOptions { legal };
    let checked = bao_validate::check_bytes("test", bytes, &CheckOptions::default());
    let json = record_json(&checked.record, &checked.replayed, &opts).unwrap();
    let mut serde = serde_json::to_string_pretty(&json).unwrap();
    serde.push('\n');
    let pretty = record_json_pretty(&checked.record, &checked.replayed, &opts).unwrap();
    let mut reader = StreamReader::new(bytes);
    let mut writer = RecordJsonWriter::new(Vec::new(), opts);
    while let Some(chunk) = reader.next_chunk().unwrap() {
        let (_, replayed) = check_chunk_replayed(&chunk, &CheckOptions::default());
        for ((n, g, _), r) in chunk.games.iter().zip(&replayed) {
            writer.game(&g.value, *n, r).unwrap();
        }
    }
    let streamed = String::from_utf8(writer.finish().unwrap()).unwrap();
    (serde, pretty, streamed)
}

/// Every record alone and all of them in one large record (streamed in `bao export json`),
/// and a record without games: the streamed JSON is the whole record's, byte for byte.
#[test]
fn the_json_written_game_by_game_is_the_whole_records() {
    let mut all = Vec::new();
    for p in records() {
        let bytes = std::fs::read(&p).unwrap();
        let (serde, pretty, streamed) = exports_of(&bytes, false);
        assert_eq!(serde, pretty, "{}", p.display());
        assert_eq!(serde, streamed, "{}", p.display());
        all.extend_from_slice(&bytes);
        all.extend_from_slice(b"\n{a comment between games}\n\n");
    }
    while all.len() <= bao_validate::stream::STREAM_ABOVE {
        let copy = all.clone();
        all.extend_from_slice(&copy);
    }
    for legal in [false, true] {
        let (serde, pretty, streamed) = exports_of(&all, legal);
        assert!(serde.matches("\"game\":").count() > 20);
        assert_eq!(serde, pretty);
        assert_eq!(serde, streamed);
    }
    let (serde, pretty, streamed) = exports_of(b"{only a comment}\n", false);
    assert_eq!(serde, "{\n  \"schema\": 1,\n  \"games\": []\n}\n");
    assert_eq!((&serde, &serde), (&pretty, &streamed));
}

/// The rules' key is one text however the tags spell the rules: a preset's name, or the
/// preset and the overrides that change it.
#[test]
fn the_rules_key_is_one_text_for_every_spelling() {
    let key = |tags: &str| {
        let text = format!("{tags}\n1. A6<* *\n");
        let checked = check_full("t", Arc::from(text), &CheckOptions::default());
        let json = record_json_pretty(&checked.record, &checked.replayed, &JsonOptions::default())
            .unwrap();
        let v: Value = serde_json::from_str(&json).unwrap();
        v["games"][0]["rules"]["key"].as_str().unwrap().to_owned()
    };
    assert_eq!(key(""), "kiswahili");
    assert_eq!(
        key("[RuleSet \"kiswahili endless_move=draw takasia=standard\"]\n"),
        "kiswahili endless_move=draw"
    );
    assert_eq!(
        key("[Rules \"endless_move=draw\"]\n"),
        "kiswahili endless_move=draw"
    );
}
