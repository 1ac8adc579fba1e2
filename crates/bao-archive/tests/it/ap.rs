//! AbstractPlay records: AP Game Records written from AbstractPlay's own transcripts
//! (`fixtures/oracle`, AP's move strings) import and replay, a corrupt one is reported with
//! its id and ply while the others import, and export gives the records back.

use bao_archive::ap::{
    export_game, import_value, read_ap_records, ApMove, ApProblem, ApProblemKind, ApRecord,
};
use bao_notation::parse_record;
use bao_replay::replay_game;
use serde_json::{json, Value};

use crate::root;

/// The AP Game Records of a transcript: one per game, with invented players and ids.
fn records(file: &str, variant: Option<&str>) -> Vec<Value> {
    let text = std::fs::read_to_string(root().join("fixtures/oracle").join(file)).unwrap();
    let names = ["Asha", "Baraka", "Chausiku", "Dalila", "Eshe", "Faraji"];
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let t: Value = serde_json::from_str(line).unwrap();
            let moves: Vec<&str> = t["plies"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["move"].as_str().unwrap())
                .collect();
            // Rounds of South's and North's move; South's as an object, North's as a string
            // (the schema allows both); `null` where North did not move.
            let rounds: Vec<Value> = moves
                .chunks(2)
                .map(|r| json!([{ "move": r[0] }, r.get(1).map_or(Value::Null, |m| json!(m))]))
                .collect();
            let winner = t["final"]["winner"]
                .as_u64()
                .or_else(|| t["final"]["winner"][0].as_u64())
                .unwrap();
            json!({
                "header": {
                    "game": { "name": "Bao", "variants": variant.map_or(vec![], |v| vec![v]) },
                    "site": { "name": "Abstract Play", "gameid": format!("{file}-{i}") },
                    "date-start": "2026-10-01T18:00:00.000Z",
                    "date-end": "2026-10-01T21:00:00.000Z",
                    "date-generated": "2026-11-01T00:00:00.000Z",
                    "players": [
                        { "name": names[i % 6], "userid": "u1", "result": u64::from(winner == 0) },
                        { "name": names[(i + 1) % 6], "userid": "u2", "result": u64::from(winner == 1) },
                    ],
                },
                "moves": rounds,
            })
        })
        .collect()
}

fn all_records() -> Vec<Value> {
    let mut r = records("ap_kiswahili_reload_s1001_300.jsonl", None);
    r.extend(records("ap_kujifunza_s2001_300.jsonl", Some("kujifunza")));
    r
}

/// Imports a JSON array through the streaming reader, in batches.
fn import_all(recs: &[Value]) -> (Vec<String>, Vec<ApProblem>) {
    let bytes = serde_json::to_vec(recs).unwrap();
    let (mut ok, mut bad) = (Vec::new(), Vec::new());
    read_ap_records(bytes.as_slice(), 50, |batch| {
        for (n, v) in batch {
            match import_value(v, n) {
                Ok(g) => ok.push(g.text),
                Err(p) => bad.push(p),
            }
        }
        Ok(())
    })
    .unwrap();
    (ok, bad)
}

#[test]
fn every_oracle_game_imports_and_replays() {
    let recs = all_records();
    assert_eq!(recs.len(), 600);
    let (ok, bad) = import_all(&recs);
    assert!(bad.is_empty(), "{:?}", &bad[..bad.len().min(3)]);
    assert_eq!(ok.len(), 600);
    for (text, rec) in ok.iter().zip(&recs) {
        let parsed = parse_record(text);
        assert!(parsed.errors.is_empty());
        let game = &parsed.record.games[0].value;
        let replayed = replay_game(game, None);
        let moves = rec["moves"].as_array().unwrap();
        let plies = moves
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .filter(|m| !m.is_null())
            .count();
        assert_eq!(replayed.played_count(), plies);
        assert!(replayed.final_outcome().is_some());
        let id = rec["header"]["site"]["gameid"].as_str().unwrap();
        assert_eq!(
            game.tag("Source").map(|t| t.value.as_str()),
            Some(format!("abstractplay:{id}").as_str())
        );
    }
}

#[test]
fn a_corrupt_move_is_reported_and_the_others_import() {
    let mut recs = records("ap_kiswahili_reload_s1001_300.jsonl", None);
    recs.truncate(12);
    // Game 3: South's 4th move (ply 7) replaced by a pit of North's: well formed, illegal.
    recs[3]["moves"][3][0] = json!({ "move": "d3<" });
    // Game 8: no AP pit at all.
    recs[8]["moves"][1][1] = json!("z9<");
    let (ok, bad) = import_all(&recs);
    assert_eq!(ok.len(), 10);
    assert_eq!(bad.len(), 2);
    let ids: Vec<_> = bad.iter().map(|p| p.gameid.clone().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "ap_kiswahili_reload_s1001_300.jsonl-3",
            "ap_kiswahili_reload_s1001_300.jsonl-8"
        ]
    );
    assert_eq!(bad[0].ply, Some(7));
    assert_eq!(bad[0].code(), "bao::illegal::not_own_pit");
    assert!(bad[0].to_string().contains("ply 7: `d3<`"), "{}", bad[0]);
    assert_eq!(bad[1].ply, Some(4));
    assert_eq!(bad[1].kind, ApProblemKind::BadMove("z9<".to_owned()));
}

#[test]
fn export_gives_the_records_back() {
    // Every fifth game of both transcripts (the import of all is tested above).
    let recs: Vec<Value> = all_records().into_iter().step_by(5).collect();
    let (ok, bad) = import_all(&recs);
    assert!(bad.is_empty());
    for (text, original) in ok.iter().zip(&recs) {
        let parsed = parse_record(text);
        let game = &parsed.record.games[0].value;
        let replayed = replay_game(game, None);
        let back = export_game(game, &replayed, 1).unwrap();
        let original: ApRecord = serde_json::from_value(original.clone()).unwrap();
        let strings = |r: &ApRecord| -> Vec<Option<String>> {
            r.moves
                .iter()
                .flatten()
                .map(|m| m.as_ref().map(|m| ApMove::text(m).to_owned()))
                .collect()
        };
        assert_eq!(strings(&back), strings(&original));
        assert_eq!(back.header.site.gameid, original.header.site.gameid);
        assert_eq!(back.header.game.variants, original.header.game.variants);
        for (b, o) in back.header.players.iter().zip(&original.header.players) {
            assert_eq!((&b.name, b.result), (&o.name, o.result));
        }
        // And the export imports again to the same record.
        let again = import_value(serde_json::to_value(&back).unwrap(), 1).unwrap();
        assert_eq!(&again.text, text);
    }
}

/// Every import code has a heading in spec/diagnostics.md, and a fixture unless no input can
/// produce it.
#[test]
fn every_import_code_is_specified() {
    let spec = std::fs::read_to_string(root().join("spec/diagnostics.md")).unwrap();
    for code in bao_archive::ap::IMPORT_CODES {
        assert!(spec.contains(&format!("### `{code}`")), "{code}");
        let slug = code.rsplit("::").next().unwrap();
        if slug != "engine_failure" {
            assert!(
                root()
                    .join(format!("fixtures/import/{slug}.json"))
                    .is_file(),
                "{code}"
            );
        }
    }
}

/// The `bao::import::*` diagnostics, rendered, on their fixtures.
#[test]
fn import_diagnostics() {
    let dir = root().join("fixtures/import");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    assert!(names.len() >= 6);
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_links(false)
            .with_width(100);
    for path in names {
        let slug = path.file_stem().unwrap().to_string_lossy().into_owned();
        let value: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let problem = import_value(value, 1).unwrap_err();
        assert_eq!(problem.code(), format!("bao::import::{slug}"));
        let mut text = String::new();
        handler.render_report(&mut text, &problem).unwrap();
        insta::assert_snapshot!(slug, text);
    }
}
