//! Plays random games and prints the plies played: a fixed workload for instruction counts.
//!
//! `cargo run --release -p bao-core --example playouts -- [PRESET] [GAMES] [name=value ...]`
//!
//! Under callgrind: `valgrind --tool=callgrind target/release/examples/playouts kiswahili 1000
//! endless_move=cap:800`; instructions per game and per ply follow from the printed counts.

use bao_core::{Position, RuleSet};

/// xorshift64*, the same generator as the criterion benchmark.
type Rng = bao_testkit::XorShift64Star;

/// The `bao` binary's allocator, so that the figures are those of `bao`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let preset = args.first().map_or("kiswahili", String::as_str);
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let Some(mut rules) = RuleSet::preset(preset) else {
        eprintln!("unknown preset `{preset}`");
        std::process::exit(2);
    };
    // `timing`: also time every ply, to tell apart the plies that take over a millisecond
    // (never-ending decisions under exact detection).
    let timing = args.iter().skip(2).any(|a| a == "timing");
    for opt in args.iter().skip(2).filter(|a| *a != "timing") {
        let (name, value) = opt.split_once('=').unwrap_or((opt, ""));
        if let Err(e) = rules.set_option(name, value) {
            eprintln!("{opt}: {e}");
            std::process::exit(2);
        }
    }
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut plies = 0u64;
    let start = std::time::Instant::now();
    let (mut slow, mut slow_secs) = (0u64, 0f64);
    // One engine for every game: its memo of long relay cycles is kept from game to game.
    let mut engine = bao_core::Engine::new();
    for _ in 0..games {
        let mut pos = Position::start(rules);
        let mut pick = |n: usize| rng.below(n);
        loop {
            let t = timing.then(std::time::Instant::now);
            if engine.play_random_move(&mut pos, &mut pick).is_none() {
                break;
            }
            if let Some(t) = t {
                let s = t.elapsed().as_secs_f64();
                if s > 1e-3 {
                    slow += 1;
                    slow_secs += s;
                }
            }
            plies += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {plies} plies, {:.1} plies/game, {:.0} games/s",
        plies as f64 / games as f64,
        games as f64 / secs
    );
    if timing {
        println!(
            "{slow} plies over 1 ms took {slow_secs:.2} s of {secs:.2} s ({:.0}%); without them {:.0} games/s",
            100.0 * slow_secs / secs,
            games as f64 / (secs - slow_secs)
        );
    }
}
