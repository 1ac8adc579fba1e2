//! Nodes a second of the evaluating search from a middle-game position (BENCHMARKS.md,
//! "Analysis"): a fixed node count, so every run does the same work.

use bao_analysis::{Limits, Searcher};
use bao_core::{Position, RuleSet};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// A middle game: 30 plies of a fixed pseudo-random game from the start.
fn middle_game() -> Position {
    let mut pos = Position::start(RuleSet::KISWAHILI);
    let mut state = 7u64;
    let mut pick = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (state >> 33) as usize % n
    };
    for _ in 0..30 {
        pos.play_random_move(&mut pick).expect("a move");
    }
    pos
}

fn bench(c: &mut Criterion) {
    let pos = middle_game();
    let nodes = 100_000;
    let mut g = c.benchmark_group("search");
    g.throughput(Throughput::Elements(nodes));
    g.sample_size(10);
    g.bench_function("middle_game_100k_nodes", |b| {
        b.iter(|| {
            let mut s = Searcher::new(18);
            s.search(
                &pos,
                Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                },
                |_| {},
            )
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
