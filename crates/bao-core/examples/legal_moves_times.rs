//! Times [`Position::legal_moves`] on positions reached by random play, in thread CPU time,
//! for every preset in turn: the distribution (median, p99, p99.9, max, calls over 10 ms)
//! and the slowest ten positions (as `bao legal --position` text).
//!
//! `cargo run --release -p bao-core --example legal_moves_times -- [POSITIONS_PER_PRESET]
//! [PRESET ...]`
//!
//! Positions come from games of uniform random legal moves (the list of `legal_moves`, one
//! picked), so every call timed is also a ply of such a game; one [`Engine`] plays them all,
//! so its memo of long relay cycles warms up as it would in a long-running client. The thread CPU clock leaves out the time
//! other processes take the core.

use std::time::Duration;

use bao_core::{Engine, HouseState, Position, RuleSet, Side, PRESET_NAMES};

mod cpu;
use cpu::thread_cpu;

/// xorshift64*, as in the other examples.
type Rng = bao_testkit::XorShift64Star;

/// A call counted as too slow for interactive use (issue 15's bound).
const BOUND: Duration = Duration::from_millis(10);

/// The value at quantile `q` of sorted `times`.
fn quantile(times: &[Duration], q: f64) -> Duration {
    let i = ((times.len() as f64 - 1.0) * q).round() as usize;
    times.get(i).copied().unwrap_or_default()
}

/// The board, hands, side to move and houses, close to `bao legal --position` text (the
/// takasia field left out).
fn position_text(pos: &Position) -> String {
    let s = pos.to_setup();
    let rows: Vec<String> = s
        .pits
        .iter()
        .map(|r| r.iter().map(u8::to_string).collect::<Vec<_>>().join(","))
        .collect();
    let side = if s.to_move == Side::South { 'S' } else { 'N' };
    let house = |h: HouseState| match h {
        HouseState::Functional => 'F',
        HouseState::Dormant => 'D',
        HouseState::Destroyed => 'X',
        HouseState::None => '-',
    };
    format!(
        "{} {}/{} {side} {}{}",
        rows.join("/"),
        s.hands.south,
        s.hands.north,
        house(s.houses.south),
        house(s.houses.north)
    )
}

fn micros(d: Duration) -> String {
    format!("{:.2} µs", d.as_secs_f64() * 1e6)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let names: Vec<&str> = if args.len() > 1 {
        args[1..].iter().map(String::as_str).collect()
    } else {
        PRESET_NAMES.to_vec()
    };
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let mut engine = Engine::new();
    for name in names {
        let Some(rules) = RuleSet::preset(name) else {
            eprintln!("unknown preset `{name}`");
            std::process::exit(2);
        };
        let mut times = Vec::with_capacity(n);
        // The slowest ten: (time, position text).
        let mut slowest: Vec<(Duration, String)> = Vec::new();
        let (start, mut games) = (thread_cpu(), 0u64);
        while times.len() < n {
            games += 1;
            let mut pos = Position::start(rules);
            while times.len() < n {
                let t = thread_cpu();
                let moves = engine.legal_moves(&pos);
                let dt = thread_cpu() - t;
                times.push(dt);
                if slowest.len() < 10 || dt > slowest[slowest.len() - 1].0 {
                    slowest.push((dt, position_text(&pos)));
                    slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
                    slowest.truncate(10);
                }
                let Some(&mv) = moves.get(rng.below(moves.len().max(1))) else {
                    break;
                };
                pos = engine.play_fast(&pos, &mv);
            }
        }
        let total = thread_cpu() - start;
        times.sort_unstable();
        let over = times.len() - times.partition_point(|t| *t <= BOUND);
        println!(
            "{name}: {} positions from {games} games, {:.1} s CPU; median {}, p99 {}, p99.9 {}, max {:.1} ms; {over} over 10 ms",
            times.len(),
            total.as_secs_f64(),
            micros(quantile(&times, 0.5)),
            micros(quantile(&times, 0.99)),
            micros(quantile(&times, 0.999)),
            times.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        );
        for (t, pos) in &slowest {
            println!("  {:9.3} ms  {pos}", t.as_secs_f64() * 1e3);
        }
    }
}
