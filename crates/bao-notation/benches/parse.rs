//! Parse throughput on a generated file of many games (about 32 MB).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// The `bao` binary's allocator, so that the figures are those of `bao check`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod gen;
use gen::generate;

/// Counts the moves read.
struct MoveCount(usize);

impl bao_notation::Visitor for MoveCount {
    fn move_token(
        &mut self,
        _: Option<bao_notation::Spanned<bao_notation::MoveNumber>>,
        _: bao_notation::Spanned<bao_notation::MoveToken>,
    ) {
        self.0 += 1;
    }
}

fn bench(c: &mut Criterion) {
    let text = generate(40_000);
    let games = bao_notation::parse_record(&text).record.games.len();
    assert_eq!(games, 40_000);
    let mut group = c.benchmark_group("parse");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("parse_record", |b| {
        b.iter(|| bao_notation::parse_record(&text).record.games.len());
    });
    group.bench_function("game_reader", |b| {
        b.iter(|| bao_notation::GameReader::new(text.as_bytes()).count());
    });
    // Reading without building the record (the pgn-reader way): a visitor that counts.
    group.bench_function("visit_record", |b| {
        b.iter(|| {
            let mut count = MoveCount(0);
            bao_notation::visit_record(&text, &mut count);
            count.0
        });
    });
    group.bench_function("visit_reader", |b| {
        b.iter(|| {
            let mut count = MoveCount(0);
            bao_notation::visit_reader(text.as_bytes(), &mut count).expect("in memory");
            count.0
        });
    });
    group.throughput(Throughput::Elements(games as u64));
    group.bench_function("parse_record_games", |b| {
        b.iter(|| bao_notation::parse_record(&text).record.games.len());
    });
    group.finish();
}

/// Inputs made of one hostile unit repeated, at two sizes ten times apart: a linear parser
/// takes about ten times as long on the larger (the test suite checks only their errors).
fn hostile(c: &mut Criterion) {
    let mut group = c.benchmark_group("hostile");
    group.sample_size(10);
    for (name, unit) in [
        ("open_paren", "("),
        ("close_paren", ")"),
        ("open_bracket", "["),
        ("open_brace", "{"),
        ("number", "1."),
        ("dollar", "$"),
        ("quote", "\""),
        ("move", "A6<* "),
        ("tag", "[Event \"x\"]\n"),
        ("variation", "(A6<* "),
    ] {
        for times in [10_000, 100_000] {
            let text = unit.repeat(times);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_function(format!("{name}/{times}"), |b| {
                b.iter(|| bao_notation::parse_record(&text).errors.len());
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench, hostile);
criterion_main!(benches);
