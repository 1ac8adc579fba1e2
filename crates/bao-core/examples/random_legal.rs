//! Plays games of uniform random legal moves the way a search client does: the whole list
//! from [`Position::legal_moves`], one move of it picked uniformly, then played. Prints
//! games/s in this thread's CPU time (and in wall time) and how much of the wall time went
//! to the few plies that took over a millisecond (never-ending decisions on a long cycle met
//! for the first time).
//!
//! `cargo run --release -p bao-core --example random_legal -- [PRESET] [GAMES] [play|fast|noted]
//! [count] [name=value ...]`
//!
//! `play` (the default) plays the chosen move with [`Position::play`] (checked, traced, with
//! the end test); `fast` with [`Position::play_fast`] (what a search that trusts its own list
//! would use); `noted` with [`Engine::play_noted`], the position held with its note
//! ([`Noted`]) and the list asked with [`Engine::legal_moves_noted`] (what a client that
//! keeps the note beside its position would use: the engine need not find the note again).
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

use bao_core::{Engine, MoveList, Noted, Position, RuleSet};

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

/// What the loop holds between plies: a bare [`Position`] (`play`, `fast`) or one with its
/// note ([`Noted`]); how it asks for the list and plays a move of it.
trait Held: Sized {
    fn start(rules: RuleSet) -> Self;
    fn moves(&self, engine: &mut Engine) -> MoveList;
    fn step(&mut self, engine: &mut Engine, mv: &bao_core::Move, fast: bool);
}

impl Held for Position {
    fn start(rules: RuleSet) -> Self {
        Self::start(rules)
    }
    #[inline(always)]
    fn moves(&self, engine: &mut Engine) -> MoveList {
        engine.legal_moves(self)
    }
    /// Plays `mv` (a move of the legal list) with `play_fast`, or with the checked `play`,
    /// which must not refuse it.
    #[inline(always)]
    fn step(&mut self, engine: &mut Engine, mv: &bao_core::Move, fast: bool) {
        *self = if fast {
            engine.play_fast(self, mv)
        } else {
            match engine.play(self, mv) {
                Ok((next, _)) => next,
                Err(e) => refused(mv, &e),
            }
        };
    }
}

impl Held for Noted {
    fn start(rules: RuleSet) -> Self {
        Self::new(Position::start(rules))
    }
    #[inline(always)]
    fn moves(&self, engine: &mut Engine) -> MoveList {
        engine.legal_moves_noted(self)
    }
    /// Plays `mv` with the checked `play_noted`, which must not refuse it.
    #[inline(always)]
    fn step(&mut self, engine: &mut Engine, mv: &bao_core::Move, _fast: bool) {
        if let Err(e) = engine.play_noted(self, mv) {
            refused(mv, &e);
        }
    }
}

fn refused(mv: &bao_core::Move, e: &bao_core::PlayError) -> ! {
    eprintln!("a move of legal_moves was refused: {mv}: {e}");
    std::process::exit(1);
}

/// Plays `games` games without reading any clock; returns the plies and a checksum of the
/// moves played (FNV-1a over their fields: no text is made, so no allocation is counted).
fn count_games<H: Held>(rules: RuleSet, games: u64, fast: bool, rng: &mut Rng) -> (u64, u64) {
    let (mut plies, mut checksum) = (0u64, 0xcbf2_9ce4_8422_2325u64);
    let mut engine = Engine::new();
    for _ in 0..games {
        let mut pos = H::start(rules);
        loop {
            let moves = pos.moves(&mut engine);
            let Some(&mv) = moves.get(rng.below(moves.len().max(1))) else {
                break;
            };
            let mut h = Fnv(checksum);
            mv.hash(&mut h);
            checksum = h.finish();
            pos.step(&mut engine, &mv, fast);
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
    let noted = args.iter().skip(2).any(|a| a == "noted");
    for opt in args
        .iter()
        .skip(2)
        .filter(|a| !["fast", "play", "noted", "count"].contains(&a.as_str()))
    {
        let (name, value) = opt.split_once('=').unwrap_or((opt, ""));
        if let Err(e) = rules.set_option(name, value) {
            eprintln!("{opt}: {e}");
            std::process::exit(2);
        }
    }
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    if count {
        let (plies, checksum) = if noted {
            count_games::<Noted>(rules, games, fast, &mut rng)
        } else {
            count_games::<Position>(rules, games, fast, &mut rng)
        };
        println!("{preset}: {games} games, {plies} plies, checksum {checksum:016x}");
        return;
    }
    if noted {
        timed::<Noted>(
            preset,
            rules,
            games,
            fast,
            &mut rng,
            "legal_moves_noted + play_noted",
        );
    } else {
        let how = if fast {
            "legal_moves + play_fast"
        } else {
            "legal_moves + play"
        };
        timed::<Position>(preset, rules, games, fast, &mut rng, how);
    }
}

/// Plays `games` games timed: CPU and wall time, and the plies over [`SLOW`].
fn timed<H: Held>(preset: &str, rules: RuleSet, games: u64, fast: bool, rng: &mut Rng, how: &str) {
    let (mut plies, mut slow, mut slow_time) = (0u64, 0u64, Duration::ZERO);
    let mut slowest = Duration::ZERO;
    let (start, cpu_start) = (Instant::now(), thread_cpu());
    let mut engine = Engine::new();
    for _ in 0..games {
        let mut pos = H::start(rules);
        loop {
            let t = Instant::now();
            let moves = pos.moves(&mut engine);
            let Some(&mv) = moves.get(rng.below(moves.len().max(1))) else {
                break;
            };
            pos.step(&mut engine, &mv, fast);
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
        "{preset} ({how}): {games} games, {plies} plies, {:.1} plies/game; CPU {cpu:.2} s: {:.0} games/s, {:.0} ns/ply; wall {secs:.2} s: {:.0} games/s",
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
