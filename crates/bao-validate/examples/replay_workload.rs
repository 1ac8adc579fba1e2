//! A fixed validator workload for instruction counts (callgrind): generates fully annotated
//! random games like the `check` benchmark, or checks / only parses a file of them.
//!
//! `cargo run --release -p bao-validate --example replay_workload -- gen GAMES PRESET > FILE`,
//! then `... -- check FILE` (parse and replay) or `... -- parse FILE` (parse only); the
//! difference is the replay's cost.

use std::sync::Arc;

use bao_validate::{check_full, CheckOptions};

/// The `bao` binary's allocator, so that the figures are those of `bao`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../benches/gen/mod.rs"]
mod gen;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen") => {
            let games = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
            let preset = args.get(2).map_or("kiswahili", String::as_str);
            let (text, plies) = gen::annotated_games(games, &[preset], 7);
            eprintln!("{games} games, {plies} plies, {} bytes", text.len());
            print!("{text}");
        }
        Some(mode @ ("check" | "parse")) => {
            let Some(path) = args.get(1) else {
                eprintln!("which file?");
                std::process::exit(2);
            };
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("{path}: {e}");
                    std::process::exit(1);
                }
            };
            let start = std::time::Instant::now();
            if mode == "parse" {
                let parsed = bao_notation::parse_record(&text);
                println!("{} games parsed", parsed.record.games.len());
            } else {
                let report = check_full(path, Arc::from(text), &CheckOptions::default()).report;
                let secs = start.elapsed().as_secs_f64();
                println!(
                    "{} plies, {} diagnostics, {:.0} plies/s",
                    report.stats.plies,
                    report.diagnostics.len(),
                    report.stats.plies as f64 / secs
                );
            }
        }
        _ => {
            eprintln!("usage: replay_workload gen GAMES PRESET | check FILE | parse FILE");
            std::process::exit(2);
        }
    }
}
