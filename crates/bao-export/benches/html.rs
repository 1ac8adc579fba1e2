//! Whole-game export speed: the HTML viewer of a 100-ply game (every frame drawn and
//! embedded) and the JSON export of the same game, with and without the legal moves.

use bao_core::{Position, RuleSet, Side};
use bao_export::{game_html, record_json_pretty, HtmlOptions, JsonOptions};
use bao_validate::{check_bytes, CheckOptions, Checked};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

/// The record of a deterministic 100-ply game (a small LCG picks the moves; seeds whose game
/// ends sooner are skipped).
fn record(plies: usize) -> String {
    for seed in 1u64.. {
        let mut rng = bao_testkit::Lcg::new(seed.wrapping_mul(0x2545_F491_4F6C_DD1D));
        let mut pos = Position::start(RuleSet::KISWAHILI);
        let mut text = String::from("[Event \"Benchmark\"]\n[Result \"*\"]\n\n");
        let mut n = 0;
        while n < plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            if pos.to_move() == Side::South {
                text.push_str(&format!("{}. ", n / 2 + 1));
            }
            text.push_str(&format!("{mv} "));
            pos = pos.play(&mv).expect("legal").0;
            n += 1;
        }
        if n == plies && pos.outcome().is_none() {
            text.push_str("*\n");
            return text;
        }
    }
    unreachable!("some seed gives a long game")
}

fn bench(c: &mut Criterion) {
    let text = record(100);
    let checked: Checked = check_bytes("bench.bao", text.as_bytes(), &CheckOptions::default());
    assert!(checked.report.is_valid());
    let opts = HtmlOptions::default();
    let page = game_html(&checked.record, &checked.replayed, 0, &opts).unwrap();
    assert_eq!(page.matches("<svg xmlns=").count(), 101);
    eprintln!("html: 100-ply page is {} bytes", page.len());
    c.bench_function("html: 100-ply game, whole page", |b| {
        b.iter(|| {
            black_box(
                game_html(&checked.record, &checked.replayed, 0, &opts)
                    .unwrap()
                    .len(),
            )
        });
    });
    c.bench_function("check + html: 100-ply record to page", |b| {
        b.iter(|| {
            let checked = check_bytes("bench.bao", text.as_bytes(), &CheckOptions::default());
            black_box(
                game_html(&checked.record, &checked.replayed, 0, &opts)
                    .unwrap()
                    .len(),
            )
        });
    });

    let mut json = c.benchmark_group("json: 100-ply game");
    json.throughput(Throughput::Elements(100));
    for legal in [false, true] {
        let name = if legal { "with legal moves" } else { "plain" };
        let bytes = record_json_pretty(&checked.record, &checked.replayed, &JsonOptions { legal })
            .unwrap()
            .len();
        eprintln!("json ({name}): {bytes} bytes");
        json.bench_function(name, |b| {
            b.iter(|| {
                black_box(
                    record_json_pretty(&checked.record, &checked.replayed, &JsonOptions { legal })
                        .unwrap()
                        .len(),
                )
            });
        });
    }
    json.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
