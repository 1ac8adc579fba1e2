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

/// A record as JSON with every number a float and every move a string (the schema allows a
/// move as a string or as `{"move": ...}`, and a score as `1` or `1.0`): what is compared
/// when a record must come back with every field.
fn normal(v: &Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64().unwrap()),
        Value::Object(o) if o.len() == 1 && o.contains_key("move") => o["move"].clone(),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), normal(v))).collect()),
        Value::Array(a) => Value::Array(a.iter().map(normal).collect()),
        other => other.clone(),
    }
}

/// AP -> .bao -> AP on the AP sample data: every field of every record that imports comes
/// back (ids, user ids, times, scores, event, round, site, variants, moves).
#[test]
fn the_round_trip_keeps_every_field() {
    let recs: Vec<Value> = serde_json::from_slice(
        &std::fs::read(root().join("fixtures/archive/ap_records_kiswahili_20.json")).unwrap(),
    )
    .unwrap();
    let mut kept = 0;
    for (i, rec) in recs.iter().enumerate() {
        let Ok(imported) = import_value(rec.clone(), i + 1) else {
            continue;
        };
        let parsed = parse_record(&imported.text);
        let game = &parsed.record.games[0].value;
        let back = export_game(game, &replay_game(game, None), 1).unwrap();
        assert_eq!(
            normal(&serde_json::to_value(&back).unwrap()),
            normal(rec),
            "record {}",
            i + 1
        );
        kept += 1;
    }
    assert_eq!(kept, 19);
}

/// Results exactly: 0 and 0 (abandoned) is no result and no draw, and comes back as 0 and 0;
/// a draw is 0.5 each.
#[test]
fn scores_are_mapped_exactly() {
    let mut rec = records("ap_kiswahili_reload_s1001_300.jsonl", None).remove(0);
    // Cut short: the game goes on.
    let rounds = rec["moves"].as_array_mut().unwrap();
    rounds.truncate(6);
    for (score, result, tag) in [
        ((0, 0), "*", Some("0 0")),
        ((1, 0), "1-0", None),
        ((0, 1), "0-1", None),
    ] {
        rec["header"]["players"][0]["result"] = json!(score.0);
        rec["header"]["players"][1]["result"] = json!(score.1);
        let g = import_value(rec.clone(), 1).unwrap();
        assert!(
            g.text.contains(&format!("[Result \"{result}\"]")),
            "{}",
            g.text
        );
        assert_eq!(g.text.contains("[APScores "), tag.is_some(), "{}", g.text);
        if let Some(t) = tag {
            assert!(g.text.contains(&format!("[APScores \"{t}\"]")));
        }
        let parsed = parse_record(&g.text);
        let game = &parsed.record.games[0].value;
        let back = export_game(game, &replay_game(game, None), 1).unwrap();
        assert_eq!(
            (back.header.players[0].result, back.header.players[1].result),
            (Some(f64::from(score.0)), Some(f64::from(score.1)))
        );
    }
    rec["header"]["players"][0]["result"] = json!(0.5);
    rec["header"]["players"][1]["result"] = json!(0.5);
    let g = import_value(rec, 1).unwrap();
    assert!(g.text.contains("[Result \"1/2-1/2\"]") && !g.text.contains("APScores"));
}

/// Every variant combination AbstractPlay's Bao offers: none, `kujifunza` (above), and
/// `malawi` (8 in each house, 20 in each hand: AbstractPlay's rules from its own start);
/// a combination it does not offer is refused, naming every variant.
#[test]
fn malawi_imports_and_exports_and_other_combinations_are_named() {
    use bao_core::{Position, RuleSet};
    // A game from the malawi start, played by the engine.
    let start: bao_notation::PositionString = bao_archive::ap::MALAWI_POSITION.parse().unwrap();
    let mut pos = Position::from_setup(start.to_setup(RuleSet::ABSTRACTPLAY)).unwrap();
    let mut state = 7_u64;
    let mut moves = Vec::new();
    while moves.len() < 40 {
        let mut pick = |n: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            usize::try_from(state >> 33).unwrap() % n
        };
        let Some((mv, next)) = pos.random_move(&mut pick) else {
            break;
        };
        moves.push(mv.to_string());
        pos = next;
    }
    let mut text = format!(
        "[Event \"Malawi\"]\n[Site \"Abstract Play\"]\n[South \"Asha\"]\n[North \"Baraka\"]\n[Result \"*\"]\n[RuleSet \"abstractplay\"]\n[Position \"{}\"]\n\n",
        bao_archive::ap::MALAWI_POSITION
    );
    for (k, m) in moves.iter().enumerate() {
        if k % 2 == 0 {
            text.push_str(&format!("{}. ", k / 2 + 1));
        }
        text.push_str(m);
        text.push(' ');
    }
    text.push_str("*\n");
    assert!(moves.len() > 20, "{moves:?}");
    let parsed = parse_record(&text);
    let game = &parsed.record.games[0].value;
    let back = export_game(game, &replay_game(game, None), 1).unwrap();
    assert_eq!(back.header.game.variants, ["malawi"]);
    assert_eq!(back.header.site.name, "Abstract Play");
    let again = import_value(serde_json::to_value(&back).unwrap(), 1).unwrap();
    assert_eq!(again.plies, moves.len());
    assert!(again.text.contains(bao_archive::ap::MALAWI_POSITION));
    let parsed = parse_record(&again.text);
    let game = &parsed.record.games[0].value;
    let twice = export_game(game, &replay_game(game, None), 1).unwrap();
    assert_eq!(twice, back);
    // Not offered: every variant named.
    let mut rec = serde_json::to_value(&back).unwrap();
    rec["header"]["game"]["variants"] = json!(["malawi", "kujifunza"]);
    let p = import_value(rec, 1).unwrap_err();
    assert_eq!(
        p.kind,
        ApProblemKind::UnsupportedVariant(vec!["malawi".to_owned(), "kujifunza".to_owned()])
    );
    assert!(p.to_string().contains("[\"malawi\", \"kujifunza\"]"), "{p}");
}

/// A game never played on AbstractPlay is not said to be: its own Site goes out, none
/// invented.
#[test]
fn export_keeps_the_games_own_site() {
    let text =
        "[Event \"Club night\"]\n[Site \"Zanzibar\"]\n[RuleSet \"abstractplay\"]\n\n1. A6<* *\n";
    let parsed = parse_record(text);
    let game = &parsed.record.games[0].value;
    let back = export_game(game, &replay_game(game, None), 1).unwrap();
    assert_eq!(back.header.site.name, "Zanzibar");
    assert_eq!(back.header.site.gameid, None);
    let again = import_value(serde_json::to_value(&back).unwrap(), 1).unwrap();
    assert!(again.text.contains("[Site \"Zanzibar\"]"), "{}", again.text);
}

/// A file cut short: the complete records before the cut are handed on, and the damage is
/// named with its byte offset.
#[test]
fn a_truncated_file_gives_its_complete_records() {
    let bytes =
        std::fs::read(root().join("fixtures/archive/ap_records_kiswahili_20.json")).unwrap();
    let recs: Vec<Value> = serde_json::from_slice(&bytes).unwrap();
    // Cut inside record 12: find where it starts by writing the first 11 records alone.
    let text = String::from_utf8(bytes.clone()).unwrap();
    let starts: Vec<usize> = text.match_indices("\n {\n").map(|(i, _)| i).collect();
    assert_eq!(
        starts.len(),
        recs.len(),
        "one record per `{{` at the array's level"
    );
    let cut = starts[11] + 200;
    let mut got = Vec::new();
    let err = read_ap_records(&bytes[..cut], 4, |batch| {
        got.extend(batch);
        Ok(())
    })
    .unwrap_err();
    let bao_archive::ap::ApReadError::Json {
        offset, records, ..
    } = err
    else {
        panic!("{err}");
    };
    assert_eq!(records, 11);
    assert_eq!(offset, cut as u64);
    assert_eq!(got.len(), 11);
    for ((n, v), want) in got.iter().zip(&recs) {
        assert_eq!(v, want, "record {n}");
    }
}

/// Export writes the board's result where the game ended on it, not a Result tag the board
/// contradicts.
#[test]
fn export_writes_the_boards_result() {
    let rec = records("ap_kiswahili_reload_s1001_300.jsonl", None).remove(0);
    let g = import_value(rec.clone(), 1).unwrap();
    let (right, wrong) = if g.text.contains("[Result \"1-0\"]") {
        ("1-0", "0-1")
    } else {
        ("0-1", "1-0")
    };
    let contradicted = g
        .text
        .replace(
            &format!("[Result \"{right}\"]"),
            &format!("[Result \"{wrong}\"]"),
        )
        .replace(&format!(" {right}\n"), &format!(" {wrong}\n"));
    assert_ne!(contradicted, g.text);
    let parsed = parse_record(&contradicted);
    let game = &parsed.record.games[0].value;
    let back = export_game(game, &replay_game(game, None), 1).unwrap();
    let original: ApRecord = serde_json::from_value(rec).unwrap();
    for (b, o) in back.header.players.iter().zip(&original.header.players) {
        assert_eq!(b.result, o.result);
    }
}
