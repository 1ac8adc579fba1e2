//! Engine benchmarks: random playouts per preset, move generation, never-ending detection.
//!
//! `cargo bench -p bao-core`. Figures are reported in BENCHMARKS.md.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bao_testkit::XorShift64Star;

use bao_core::{perft, BySide, Engine, HouseState, Move, Position, RuleSet, Setup, PRESET_NAMES};
use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};

/// The `bao` binary's allocator, so that the figures are those of `bao` (a `play` allocates
/// its trace's lists, `legal_moves` its list).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A small deterministic generator (xorshift64*), so the game stream is the same every run.
type Rng = XorShift64Star;

/// Plays one random game to its end; returns the number of plies.
fn random_game(rules: RuleSet, rng: &mut Rng, engine: &mut Engine) -> u64 {
    let mut pos = Position::start(rules);
    let mut plies = 0;
    let mut pick = |n: usize| rng.below(n);
    while engine.play_random_move(&mut pos, &mut pick).is_some() {
        plies += 1;
    }
    plies
}

/// Plays one game of uniform random legal moves the way a search client does: the whole
/// list from `legal_moves`, one move of it picked, played with the checked `play`; returns
/// the number of plies.
fn random_legal_game(rules: RuleSet, rng: &mut Rng, engine: &mut Engine) -> u64 {
    let mut pos = Position::start(rules);
    let mut plies = 0;
    loop {
        let moves = engine.legal_moves(&pos);
        let Some(mv) = moves.get(rng.below(moves.len().max(1))) else {
            return plies;
        };
        pos = engine
            .play(&pos, mv)
            .expect("a move of legal_moves is legal")
            .0;
        plies += 1;
    }
}

/// Random games from one continuing stream of seeds: never-ending decisions turn up at their
/// natural frequency (rare, but each costs up to seconds under exact detection). One engine
/// per stream: its memo of long relay cycles is kept from game to game, as a search keeps
/// one.
fn game_stream(c: &mut Criterion, group_name: &str, cases: &[(&str, RuleSet)], secs: u64) {
    game_stream_of(c, group_name, cases, secs, random_game);
}

/// [`game_stream`] with the game played by `game`.
fn game_stream_of(
    c: &mut Criterion,
    group_name: &str,
    cases: &[(&str, RuleSet)],
    secs: u64,
    game: fn(RuleSet, &mut Rng, &mut Engine) -> u64,
) {
    let mut group = c.benchmark_group(group_name);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(secs));
    for &(name, rules) in cases {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut engine = Engine::new();
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter_custom(|games| {
                let start = Instant::now();
                for _ in 0..games {
                    black_box(game(rules, &mut rng, &mut engine));
                }
                start.elapsed()
            });
        });
    }
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let presets: Vec<(&str, RuleSet)> = PRESET_NAMES
        .iter()
        .map(|&n| (n, RuleSet::preset(n).expect("preset")))
        .collect();
    game_stream(c, "random_game", &presets, 6);
    // Uniform random legal moves through `legal_moves` + `play`, exact rules: what a search
    // client sees (issue 15 item 4). Long runs: the `random_legal` example.
    game_stream_of(c, "random_legal_game", &presets, 6, random_legal_game);
    // The same games with a seed cap instead of exact detection: the cost of the rest.
    let capped: Vec<(&str, RuleSet)> = ["kiswahili", "kete", "kujifunza"]
        .iter()
        .map(|&n| {
            let mut rules = RuleSet::preset(n).expect("preset");
            rules.set_option("endless_move", "cap:800").expect("option");
            (n, rules)
        })
        .collect();
    game_stream(c, "random_game_cap800", &capped, 5);
}

/// The lap budget a sampled position's moves must be decided within (about 1 ms).
const SAMPLE_LAPS: u64 = 60_000;

/// Positions from random capped games, for per-ply figures.
fn sample_positions(rules: RuleSet, n: usize) -> Vec<Position> {
    let mut capped = rules;
    capped
        .set_option("endless_move", "cap:800")
        .expect("option");
    let mut rng = Rng::new(42);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::start(capped);
        let mut pick = |k: usize| rng.below(k);
        while let Some((_, next)) = pos.random_move(&mut pick) {
            out.push(pos);
            pos = next;
        }
    }
    out.truncate(n);
    // Back to the real rules; drop positions whose moves take long to decide exactly (more
    // than SAMPLE_LAPS laps: a count, not a clock, so every run and every build measures the
    // same positions, whatever the machine's load).
    out.into_iter()
        .filter_map(|p| {
            let mut s = p.to_setup();
            s.rules = rules;
            Position::from_setup(s).ok()
        })
        .filter(|p| p.legal_moves_within(SAMPLE_LAPS).is_ok())
        .collect()
}

/// Full legal-move generation plus a traced play of the first move, per ply.
fn plies(c: &mut Criterion) {
    let mut group = c.benchmark_group("ply");
    for name in ["kiswahili", "abstractplay"] {
        let rules = RuleSet::preset(name).expect("preset");
        let positions = sample_positions(rules, 2000);
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(BenchmarkId::new("legal_moves", name), |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| p.legal_moves().len())
                    .sum::<usize>()
            });
        });
        let with_moves: Vec<(Position, Move)> = positions
            .iter()
            .filter_map(|p| p.legal_moves().first().map(|m| (*p, *m)))
            .collect();
        group.throughput(Throughput::Elements(with_moves.len() as u64));
        group.bench_function(BenchmarkId::new("play_traced", name), |b| {
            b.iter(|| {
                with_moves
                    .iter()
                    .map(|(p, m)| p.play_unchecked(m).1.laps_total)
                    .sum::<u64>()
            });
        });
    }
    group.finish();
}

/// Mancala World Problem 3: `A3<*` never ends (cycle from lap 1, period 228).
fn problem3() -> Position {
    let mut s = Setup::start(RuleSet::KISWAHILI);
    s.pits = [
        [1, 6, 3, 1, 0, 5, 4, 0],
        [2, 1, 0, 5, 0, 3, 0, 1],
        [1, 0, 0, 9, 0, 0, 0, 0],
        [0; 8],
    ];
    s.hands = BySide::new(11, 11);
    s.houses = BySide::new(HouseState::Destroyed, HouseState::Destroyed);
    Position::from_setup(s).expect("valid")
}

/// The stress case of rules-reference §5.1: South to move in mtaji, both houses destroyed,
/// hands 0; the takasa `A4>*` never ends, with a cycle from lap 1 of 156,182,288 laps.
fn stress_case() -> Position {
    let mut s = Setup::start(RuleSet::KISWAHILI);
    s.pits = [
        [3, 0, 3, 2, 7, 1, 13, 2], // A
        [4, 3, 2, 1, 2, 1, 4, 9],  // B
        [0, 1, 0, 0, 0, 0, 0, 0],  // a
        [1, 1, 2, 0, 0, 1, 0, 1],  // b
    ];
    s.hands = BySide::new(0, 0);
    s.houses = BySide::new(HouseState::Destroyed, HouseState::Destroyed);
    Position::from_setup(s).expect("valid")
}

const STRESS_PERIOD: u64 = 156_182_288;

/// The positions of issue 15 whose `legal_moves` took seconds (relays of periods
/// 1,028,860,080 and 555,411,184 laps), and the §5.1 stress case.
fn long_cycle_positions() -> [(&'static str, Position); 3] {
    let position = |side, pits| {
        let mut s = Setup::start(RuleSet::KISWAHILI);
        s.to_move = side;
        s.pits = pits;
        s.hands = BySide::new(0, 0);
        s.houses = BySide::new(HouseState::Destroyed, HouseState::Destroyed);
        Position::from_setup(s).expect("valid")
    };
    [
        (
            "issue15_first",
            position(
                bao_core::Side::South,
                [
                    [3, 1, 4, 1, 8, 5, 0, 1],
                    [18, 0, 1, 2, 1, 2, 10, 0],
                    [0, 1, 0, 0, 0, 0, 0, 0],
                    [1, 1, 0, 1, 1, 0, 1, 1],
                ],
            ),
        ),
        (
            "issue15_second",
            position(
                bao_core::Side::North,
                [
                    [0, 0, 0, 0, 1, 0, 0, 0],
                    [0, 0, 1, 0, 3, 1, 2, 0],
                    [4, 3, 1, 9, 13, 3, 2, 1],
                    [5, 0, 7, 0, 7, 0, 1, 0],
                ],
            ),
        ),
        ("stress", stress_case()),
    ]
}

/// Deciding never-ending moves (Problem 3), and the cost of long relays: per seed sown on the
/// ordinary lap path (Problem 3's relay under a seed cap of 60,000, which stops within one
/// lap, at most 64 seeds, past the cap), and per lap of the period in exact cycle detection
/// (the §5.1 stress case, period 156,182,288 laps, decided cold: the memo of relay cycles
/// emptied before each decision, which then runs one frame period, 19,522,786 laps, in the
/// relay frame), and the same decision warm (the cycle in the memo).
fn never_ending(c: &mut Criterion) {
    let pos = problem3();
    let mv: Move = "A3<*".parse().expect("move");
    let mut group = c.benchmark_group("never_ending");
    group.bench_function("problem3_decide", |b| {
        b.iter(|| black_box(pos.diagnose(&mv)));
    });
    group.finish();

    let mut group = c.benchmark_group("relay");
    const CAP: u64 = 60_000;
    let mut capped = problem3().to_setup();
    capped
        .rules
        .set_option("endless_move", &format!("cap:{CAP}"))
        .expect("option");
    let capped = Position::from_setup(capped).expect("valid");
    group.throughput(Throughput::Elements(CAP));
    group.bench_function("seeds_capped", |b| {
        b.iter(|| black_box(capped.play_fast(&mv)));
    });

    let stress = stress_case();
    let stress_mv: Move = "A4>*".parse().expect("move");
    let found = stress
        .diagnose(&stress_mv)
        .reason
        .never_ending()
        .expect("never-ending");
    assert_eq!((found.cycle_start_lap, found.period), (1, STRESS_PERIOD));
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .measurement_time(Duration::from_secs(15))
        .throughput(Throughput::Elements(STRESS_PERIOD));
    group.bench_function("laps_exact_detection", |b| {
        // A fresh engine: an empty memo.
        b.iter(|| black_box(stress.diagnose(&stress_mv)));
    });
    group.finish();

    // Warm: the cycle is in the engine's memo (put there by a first decision).
    let mut engine = Engine::new();
    black_box(engine.diagnose(&stress, &stress_mv));
    let mut group = c.benchmark_group("relay_warm");
    group.bench_function("stress_diagnose", |b| {
        b.iter(|| black_box(engine.diagnose(&stress, &stress_mv)));
    });
    for (name, pos) in long_cycle_positions() {
        let moves = engine.legal_moves(&pos);
        group.bench_function(BenchmarkId::new("legal_moves", name), |b| {
            b.iter(|| black_box(engine.legal_moves(&pos)));
        });
        group.bench_function(BenchmarkId::new("play_each_legal", name), |b| {
            b.iter(|| {
                for mv in &moves {
                    black_box(engine.play(&pos, mv).is_ok());
                }
            });
        });
    }
    group.finish();
}

fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for name in ["kiswahili", "kujifunza"] {
        let pos = Position::start(RuleSet::preset(name).expect("preset"));
        group.bench_function(BenchmarkId::new("depth4", name), |b| {
            b.iter(|| perft(&pos, 4));
        });
    }
    group.finish();
}

criterion_group!(benches, playouts, plies, never_ending, perft_bench);
criterion_main!(benches);
