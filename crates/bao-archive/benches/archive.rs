//! Archive throughput: `bao filter --position` and `bao stats` over a generated record of
//! random games, on one thread and on two (plies per second).
//!
//! `cargo bench -p bao-archive`. Figures are reported in BENCHMARKS.md ("Archives").

use bao_archive::filter::{parse_position, Filter};
use bao_archive::stats::{GameFacts, Stats};
use bao_archive::{for_each_game, Depth};
use bao_core::{Position, RuleSet};
use bao_notation::PositionString;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// The `bao` binary's allocator, so that the figures are those of the commands.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `games` random games, alternately Kiswahili and AbstractPlay, moves only; the text, its
/// plies, and a position some games reach (after 6 plies of the first game).
fn archive(games: usize) -> (String, u64, String) {
    let mut rng = bao_testkit::XorShift64Star::new(99);
    let mut text = String::new();
    let mut plies = 0;
    let mut probe = None;
    for i in 0..games {
        let preset = ["kiswahili", "abstractplay"][i % 2];
        let mut pos = Position::start(RuleSet::preset(preset).expect("a preset"));
        text.push_str(&format!(
            "[Event \"Bench\"]\n[Round \"{}\"]\n[South \"P{}\"]\n[North \"P{}\"]\n[RuleSet \"{preset}\"]\n\n",
            i + 1,
            i % 7,
            (i + 3) % 7
        ));
        let mut pick = |n: usize| rng.below(n);
        let mut n = 0;
        while let Some((mv, next)) = pos.random_move(&mut pick) {
            if n % 2 == 0 {
                text.push_str(&format!("{}. ", n / 2 + 1));
            }
            text.push_str(&format!("{mv} "));
            pos = next;
            n += 1;
            if n == 6 && probe.is_none() {
                probe = Some(PositionString::from(&pos).to_string());
            }
        }
        plies += n as u64;
        text.push_str("*\n\n");
    }
    (text, plies, probe.expect("a game of 6 plies"))
}

fn bench(c: &mut Criterion) {
    let (text, plies, probe) = archive(400);
    let filter = Filter {
        position: Some(parse_position(&probe).expect("a position")),
        position_anywhere: true,
        ..Filter::default()
    };
    let mut group = c.benchmark_group("archive");
    group.sample_size(10);
    group.throughput(Throughput::Elements(plies));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        group.bench_function(format!("filter_position_anywhere/{threads}"), |b| {
            b.iter(|| {
                pool.install(|| {
                    let mut kept = 0_u64;
                    for_each_game(
                        text.as_bytes(),
                        filter.depth(),
                        |_, g| filter.keeps(g),
                        |k| {
                            kept += u64::from(k);
                            Ok::<_, std::io::Error>(())
                        },
                    )
                    .expect("in memory");
                    kept
                })
            });
        });
        group.bench_function(format!("stats/{threads}"), |b| {
            b.iter(|| {
                pool.install(|| {
                    let mut stats = Stats::new(4, 10);
                    for_each_game(
                        text.as_bytes(),
                        Depth::Replay,
                        |_, g| GameFacts::of(g, 4),
                        |f| {
                            stats.add(&f);
                            Ok::<_, std::io::Error>(())
                        },
                    )
                    .expect("in memory");
                    stats.report().games
                })
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
