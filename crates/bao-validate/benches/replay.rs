//! Validator throughput on a large generated file of fully annotated random games.
//!
//! `cargo bench -p bao-validate`. Figures are reported in BENCHMARKS.md.

use std::sync::Arc;

use bao_validate::stream::check_stream;
use bao_validate::{check_bytes_report, check_full, check_parsed, CheckOptions};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

/// The `bao` binary's allocator, so that the figures are those of `bao check`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod gen;
use gen::annotated_games;

fn bench(c: &mut Criterion) {
    let opts = CheckOptions::default();
    let mut group = c.benchmark_group("check");
    group.sample_size(10);
    for (name, presets) in [
        ("kiswahili", &["kiswahili"][..]),
        ("abstractplay", &["abstractplay"][..]),
    ] {
        let (text, plies) = annotated_games(1000, presets, 7);
        let text: Arc<str> = Arc::from(text);
        group.throughput(Throughput::Elements(plies as u64));
        // Parsing and checking, as `bao check` does.
        group.bench_function(format!("check_full/{name}"), |b| {
            b.iter(|| check_full("bench", text.clone(), &opts).report.stats.plies);
        });
        // Checking a record parsed beforehand: the replay loop alone.
        group.bench_function(format!("replay/{name}"), |b| {
            b.iter_batched(
                || bao_notation::parse_record(&text),
                |parsed| {
                    check_parsed("bench", text.clone(), parsed, &opts)
                        .report
                        .stats
                        .plies
                },
                BatchSize::LargeInput,
            );
        });
        // The streamed path `bao check` takes above 64 KiB: chunk by chunk, each game
        // parsed, replayed, worded and dropped (one thread).
        group.bench_function(format!("check_stream/{name}"), |b| {
            b.iter(|| {
                check_stream("bench", text.as_bytes(), &opts, |_| {
                    Ok::<_, std::io::Error>(())
                })
                .map(|r| r.stats.plies)
                .unwrap_or_default()
            });
        });
        // The whole-file path `bao check` took before, for comparison.
        group.bench_function(format!("check_bytes_report/{name}"), |b| {
            b.iter(|| {
                check_bytes_report("bench", text.as_bytes(), &opts)
                    .stats
                    .plies
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
