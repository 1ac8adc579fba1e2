//! SVG export speed: one ply's diagram, and every frame of a 100-ply game.

use bao_core::{MoveTrace, Position, RuleSet};
use bao_export::{board_svg, board_text, Overlay, SvgOptions, TextOptions};
use criterion::{black_box, criterion_group, criterion_main, Criterion};

/// A deterministic game of up to `plies` plies (a small LCG picks the moves).
fn game(plies: usize) -> Vec<(Position, MoveTrace, Position)> {
    let mut rng = bao_testkit::Lcg::new(0x2545_F491_4F6C_DD1D);
    let mut pos = Position::start(RuleSet::KISWAHILI);
    let mut out = Vec::new();
    while out.len() < plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            // Game over early: start another so the frame count stays the same.
            pos = Position::start(RuleSet::KISWAHILI);
            continue;
        }
        let mv = moves[rng.below(moves.len())];
        let (next, trace) = pos.play(&mv).expect("legal");
        out.push((pos, trace.into_trace(), next));
        pos = next;
    }
    out
}

fn bench(c: &mut Criterion) {
    let plies = game(100);
    let opts = SvgOptions {
        show_changes: true,
        ..SvgOptions::default()
    };
    let (before, trace, after) = &plies[40];
    c.bench_function("svg: one ply with overlay", |b| {
        b.iter(|| {
            let ov = Overlay::from_trace(before, trace);
            black_box(board_svg(after, &opts, Some(&ov)))
        });
    });
    c.bench_function("svg: 100-ply game, every frame", |b| {
        b.iter(|| {
            let mut bytes = 0;
            for (before, trace, after) in &plies {
                let ov = Overlay::from_trace(before, trace);
                bytes += board_svg(after, &opts, Some(&ov)).len();
            }
            black_box(bytes)
        });
    });
    c.bench_function("svg: one ply, overlay built once", |b| {
        let ov = Overlay::from_trace(before, trace);
        b.iter(|| black_box(board_svg(after, &opts, Some(&ov))));
    });
    c.bench_function("core: outcome of one position (part of every frame)", |b| {
        b.iter(|| black_box(after.outcome()));
    });
    c.bench_function("text: one position", |b| {
        b.iter(|| black_box(board_text(after, &TextOptions::default())));
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
