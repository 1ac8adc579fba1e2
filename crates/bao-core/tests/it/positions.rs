use bao_core::{Move, Position, RuleSet};
use serde_json::Value;

use crate::support::{position_json, setup_from_json};

const DATA: &str = include_str!("../data/positions.jsonl");

/// Runs one case; returns the list of failures.
fn run_case(case: &Value) -> Vec<String> {
    let mut fails = Vec::new();
    let expect = &case["expect"];
    let mut rules = RuleSet::preset(case["rules"].as_str().unwrap()).expect("preset");
    if let Some(opts) = case["options"].as_object() {
        for (k, v) in opts {
            rules.set_option(k, v.as_str().unwrap()).expect("option");
        }
    }
    let setup = match setup_from_json(&case["position"], rules) {
        Ok(s) => s,
        Err(e) => {
            if expect["error"]["rule"] == "P1" {
                return fails;
            }
            return vec![format!("unreadable position: {e}")];
        }
    };
    let mut pos = match Position::from_setup(setup) {
        Ok(p) => p,
        Err(e) => {
            if expect["error"]["rule"] == "P1" && expect["error"]["ply"].is_null() {
                return fails;
            }
            return vec![format!("position rejected: {e}")];
        }
    };
    if expect["error"]["ply"].is_null() && expect["error"]["rule"] == "P1" {
        fails.push("position accepted, expected P1 rejection".into());
        return fails;
    }
    if let Some(legal) = expect.get("legal") {
        let ours: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
        let mut want: Vec<String> = legal
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        let mut ours_sorted = ours.clone();
        ours_sorted.sort();
        want.sort();
        if ours_sorted != want {
            fails.push(format!("legal: ours {ours_sorted:?}, expected {want:?}"));
        }
    }
    let mut last_trace = None;
    for (k, m) in case["moves"].as_array().unwrap().iter().enumerate() {
        let mv: Move = m.as_str().unwrap().parse().expect("move");
        match pos.play(&mv) {
            Ok((next, trace)) => {
                if expect["error"]["ply"].as_u64() == Some(k as u64) {
                    fails.push(format!("ply {k} {mv} was accepted, expected illegal"));
                    return fails;
                }
                pos = next;
                last_trace = Some(trace);
            }
            Err(e) => {
                let want_ply = expect["error"]["ply"].as_u64();
                if want_ply != Some(k as u64) {
                    fails.push(format!("ply {k} {mv} rejected: {e}"));
                } else if expect["error"]["rule"].as_str() != Some(e.rule()) {
                    fails.push(format!(
                        "ply {k} {mv} rejected by {} ({:?}), expected {}",
                        e.rule(),
                        e.reason,
                        expect["error"]["rule"]
                    ));
                }
                if let Some(ne) = expect.get("never_ending") {
                    match e.reason.never_ending() {
                        Some(n) => {
                            if ne["cycle_start_lap"].as_u64() != Some(n.cycle_start_lap)
                                || ne["period"].as_u64() != Some(n.period)
                            {
                                fails.push(format!("never-ending {n:?}, expected {ne}"));
                            }
                        }
                        None => fails.push("no never-ending report".into()),
                    }
                }
                return fails;
            }
        }
    }
    if let Some(e) = expect.get("error") {
        fails.push(format!("expected error {e}, all moves were accepted"));
    }
    if let Some(want) = expect.get("position") {
        let ours = position_json(&pos);
        if &ours != want {
            fails.push(format!(
                "position:\n ours     {ours}\n expected {want}\n{pos}"
            ));
        }
    }
    if let Some(want) = expect.get("outcome") {
        let ours = pos.outcome().map(|o| {
            serde_json::json!({"winner": o.winner.map(|w| w.name()), "reason": o.reason.name()})
        });
        let ours = ours.unwrap_or(Value::Null);
        let want_cmp = if want.is_null() {
            Value::Null
        } else {
            serde_json::json!({"winner": want["winner"], "reason": want["reason"]})
        };
        if ours != want_cmp {
            fails.push(format!("outcome: ours {ours}, expected {want}"));
        }
    }
    if let (Some(ne), Some(t)) = (expect.get("never_ending"), &last_trace) {
        let got = t.never_ending;
        if got.map(|n| (n.cycle_start_lap, n.period))
            != Some((
                ne["cycle_start_lap"].as_u64().unwrap(),
                ne["period"].as_u64().unwrap(),
            ))
        {
            fails.push(format!("never-ending {got:?}, expected {ne}"));
        }
    }
    fails
}

#[test]
fn every_test_position_holds() {
    let mut failures = Vec::new();
    let mut count = 0;
    for line in DATA.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("valid JSON line");
        count += 1;
        for f in run_case(&case) {
            failures.push(format!("{} [{}]: {f}", case["id"], case["rule"]));
        }
    }
    assert!(count >= 80, "only {count} cases");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
