//! Finds, for every `bao::illegal::*` code, a short game played with random legal moves that
//! ends in a move of that kind, and prints it as a record: the raw material of the fixtures
//! in `fixtures/invalid/illegal/` (every move before the illegal one comes from the engine,
//! and the validator's own check decides the code).
//!
//! `cargo run -q -p bao-validate --example find_illegal -- OUTDIR [PRESET] [GAMES]`

use std::collections::BTreeMap;
use std::sync::Arc;

use bao_core::{Move, MoveKind, Pit, Position, RuleSet, Sign};
use bao_validate::{check_text, AnyDiagnostic, CheckOptions};
use rand::{Rng, SeedableRng};

fn candidates() -> Vec<Move> {
    let mut out = Vec::new();
    for pit in Pit::all() {
        for sign in [Sign::Left, Sign::Right] {
            for kind in MoveKind::ALL {
                out.push(Move::new(pit, sign, kind));
            }
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args
        .first()
        .cloned()
        .unwrap_or_else(|| "/tmp/found".to_owned());
    let preset = args.get(1).map_or("kiswahili", String::as_str);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
    let rules = RuleSet::preset(preset).expect("a preset");
    std::fs::create_dir_all(&dir).expect("out dir");
    let mut best: BTreeMap<&'static str, (usize, String)> = BTreeMap::new();
    let cands = candidates();
    for seed in 0..games {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut pos = Position::start(rules);
        let mut line: Vec<Move> = Vec::new();
        loop {
            let legal = pos.legal_moves();
            for c in &cands {
                if legal.contains(c) || c.pit.side() != pos.to_move() && rng.gen_range(0..8) != 0 {
                    continue;
                }
                // bao-core's diagnose sows a namua back-row move before refusing it.
                if pos.stage() == bao_core::Stage::Namua && c.pit.row() == bao_core::Row::Back {
                    continue;
                }
                let e = pos.diagnose(c);
                let code = bao_validate::Code::for_reason(&e.reason);
                let len = line.len();
                if best.get(code.slug()).is_some_and(|(l, _)| *l <= len) {
                    continue;
                }
                let mut text = String::new();
                if preset != "kiswahili" {
                    text.push_str(&format!("[RuleSet \"{preset}\"]\n\n"));
                }
                for (i, m) in line.iter().chain(std::iter::once(c)).enumerate() {
                    if i % 2 == 0 {
                        text.push_str(&format!("{}. ", i / 2 + 1));
                    }
                    text.push_str(&format!("{m} "));
                }
                text.push_str("*\n");
                let rep = check_text("x", Arc::from(text.as_str()), &CheckOptions::default());
                let codes: Vec<&str> = rep.diagnostics.iter().map(AnyDiagnostic::code).collect();
                if codes == [code.code()] {
                    best.insert(code.slug(), (len, text));
                }
            }
            if legal.is_empty() || line.len() > 120 {
                break;
            }
            let mv = legal[rng.gen_range(0..legal.len())];
            pos = pos.play_fast(&mv);
            line.push(mv);
        }
    }
    for (slug, (len, text)) in &best {
        println!("{slug}: {len} plies");
        std::fs::write(format!("{dir}/{slug}.bao"), text).expect("write");
    }
}
