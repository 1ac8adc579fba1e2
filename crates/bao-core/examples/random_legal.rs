//! Plays games of uniform random legal moves the way a search client does: the whole list
//! from [`Position::legal_moves`], one move of it picked uniformly, then played. Prints
//! games/s in this thread's CPU time (and in wall time) and how much of the wall time went
//! to the few plies that took over a millisecond (never-ending decisions on a long cycle met
//! for the first time).
//!
//! `cargo run --release -p bao-core --example random_legal -- [PRESET] [GAMES] [play|fast]
//! [count] [name=value ...]`
//!
//! `play` (the default) plays the chosen move with [`Position::play`] (checked, traced, with
//! the end test); `fast` with [`Position::play_fast`] (what a search that trusts its own list
//! would use).
//!
//! The games are played with one [`Engine`] held for the whole run, as a search client
//! holds one: its memo of long relay cycles is kept from game to game.
//!
//! `count` reads no clock at all and prints only the games, the plies and a checksum of the
//! moves played: the form to run under `valgrind --tool=cachegrind` (or callgrind), whose
//! instruction counts do not depend on the machine's load; the checksum shows that two
//! builds played the same games.

use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use bao_core::{Engine, Position, RuleSet};

mod cpu;
use cpu::thread_cpu;

/// The `bao` binary's allocator, so that the figures are those of `bao` (a `play` allocates
/// its trace's lists, `legal_moves` its list).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// xorshift64*, the same generator as the criterion benchmark.
type Rng = bao_testkit::XorShift64Star;

/// A ply slower than this is counted apart.
const SLOW: Duration = Duration::from_millis(1);

/// Plays `games` games without reading any clock; returns the plies and a checksum of the
/// moves played (FNV-1a over their fields: no text is made, so no allocation is counted).
/// Plays `mv` (a move of the legal list) with `play_fast`, or with the checked `play`,
/// which must not refuse it.
fn step(engine: &mut Engine, pos: &Position, mv: &bao_core::Move, fast: bool) -> Position {
    if fast {
        return engine.play_fast(pos, mv);
    }
    match engine.play(pos, mv) {
        Ok((next, _)) => next,
        Err(e) => {
            eprintln!("a move of legal_moves was refused: {mv}: {e}");
            std::process::exit(1);
        }
    }
}

fn count_games(rules: RuleSet, games: u64, fast: bool, rng: &mut Rng) -> (u64, u64) {
    let (mut plies, mut checksum) = (0u64, 0xcbf2_9ce4_8422_2325u64);
    let mut engine = Engine::new();
    for _ in 0..games {
        let mut pos = Position::start(rules);
        loop {
            let moves = engine.legal_moves(&pos);
            let Some(&mv) = moves.get(rng.below(moves.len().max(1))) else {
                break;
            };
            let mut h = Fnv(checksum);
            mv.hash(&mut h);
            checksum = h.finish();
            pos = step(&mut engine, &pos, &mv, fast);
            plies += 1;
        }
    }
    (plies, checksum)
}

/// FNV-1a, for the checksum of the moves played.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let preset = args.first().map_or("kiswahili", String::as_str);
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let Some(mut rules) = RuleSet::preset(preset) else {
        eprintln!("unknown preset `{preset}`");
        std::process::exit(2);
    };
    let fast = args.iter().skip(2).any(|a| a == "fast");
    let count = args.iter().skip(2).any(|a| a == "count");
    for opt in args
        .iter()
        .skip(2)
        .filter(|a| !["fast", "play", "count"].contains(&a.as_str()))
    {
        let (name, value) = opt.split_once('=').unwrap_or((opt, ""));
        if let Err(e) = rules.set_option(name, value) {
            eprintln!("{opt}: {e}");
            std::process::exit(2);
        }
    }
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    if count {
        let (plies, checksum) = count_games(rules, games, fast, &mut rng);
        println!("{preset}: {games} games, {plies} plies, checksum {checksum:016x}");
        return;
    }
    let (mut plies, mut slow, mut slow_time) = (0u64, 0u64, Duration::ZERO);
    let mut slowest = Duration::ZERO;
    let (start, cpu_start) = (Instant::now(), thread_cpu());
    let mut engine = Engine::new();
    for _ in 0..games {
        let mut pos = Position::start(rules);
        loop {
            let t = Instant::now();
            let moves = engine.legal_moves(&pos);
            let Some(&mv) = moves.get(rng.below(moves.len().max(1))) else {
                break;
            };
            pos = step(&mut engine, &pos, &mv, fast);
            let dt = t.elapsed();
            if dt > SLOW {
                slow += 1;
                slow_time += dt;
                slowest = slowest.max(dt);
            }
            plies += 1;
        }
    }
    let cpu = (thread_cpu() - cpu_start).as_secs_f64();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{preset} ({}): {games} games, {plies} plies, {:.1} plies/game; CPU {cpu:.2} s: {:.0} games/s, {:.0} ns/ply; wall {secs:.2} s: {:.0} games/s",
        if fast { "legal_moves + play_fast" } else { "legal_moves + play" },
        plies as f64 / games as f64,
        games as f64 / cpu,
        cpu * 1e9 / plies as f64,
        games as f64 / secs,
    );
    let slow_secs = slow_time.as_secs_f64();
    println!(
        "{slow} plies over 1 ms wall (slowest {:.1} ms) took {slow_secs:.2} s of {secs:.2} s wall ({:.0}%); without them {:.0} games/s wall",
        slowest.as_secs_f64() * 1e3,
        100.0 * slow_secs / secs,
        games as f64 / (secs - slow_secs)
    );
}
