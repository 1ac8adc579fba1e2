//! Throughput and memory measurements on the benchmark's input.
//!
//! `cargo run --release -p bao-notation --example parse_input -- gen GAMES FILE` writes
//! `GAMES` games with the generator of `benches/parse.rs`, in blocks of 1000 (so a block
//! repeats); `record FILE` parses it whole with `parse_record`;
//! `stream FILE` reads it with `GameReader` (for peak RSS: `/usr/bin/time -v`); `visit FILE`
//! reads it with `visit_reader` and a visitor that counts games and moves; `visit-text FILE`
//! the same with `visit_record` on the whole text read into memory.

use std::io::Write;

/// The `bao` binary's allocator, so that the figures are those of `bao`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../benches/gen/mod.rs"]
mod gen;

/// Counts games, moves and diagnostics.
#[derive(Default)]
struct Count {
    games: usize,
    moves: usize,
    errors: usize,
}

impl bao_notation::Visitor for Count {
    fn end_game(
        &mut self,
        _: bao_notation::Span,
        _: Option<bao_notation::Spanned<bao_notation::GameResult>>,
    ) {
        self.games += 1;
    }

    fn move_token(
        &mut self,
        _: Option<bao_notation::Spanned<bao_notation::MoveNumber>>,
        _: bao_notation::Spanned<bao_notation::MoveToken>,
    ) {
        self.moves += 1;
    }

    fn syntax_error(&mut self, _: bao_notation::SyntaxError) {
        self.errors += 1;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["gen", games, file] => {
            let games: usize = games.parse().expect("a number of games");
            let mut out = std::io::BufWriter::new(std::fs::File::create(file).expect("create"));
            // In pieces of 1000 games, so that the generator's string stays small.
            let mut left = games;
            while left > 0 {
                let n = left.min(1000);
                out.write_all(gen::generate(n).as_bytes()).expect("write");
                left -= n;
            }
            out.flush().expect("flush");
        }
        ["record", file] => {
            let text = std::fs::read_to_string(file).expect("read");
            let parsed = bao_notation::parse_record(&text);
            println!(
                "{} games, {} diagnostics",
                parsed.record.games.len(),
                parsed.errors.len()
            );
        }
        ["stream", file] => {
            let f = std::fs::File::open(file).expect("open");
            let mut games = 0usize;
            let mut errors = 0usize;
            for g in bao_notation::GameReader::new(f) {
                let g = g.expect("read");
                games += 1;
                errors += g.errors.len();
            }
            println!("{games} games, {errors} diagnostics");
        }
        ["visit", file] => {
            // What a scan without the record model costs: the games, moves and diagnostics
            // counted by a visitor, streaming.
            let f = std::fs::File::open(file).expect("open");
            let mut count = Count::default();
            bao_notation::visit_reader(f, &mut count).expect("read");
            println!(
                "{} games, {} moves, {} diagnostics",
                count.games, count.moves, count.errors
            );
        }
        ["visit-text", file] => {
            // The same on the whole text in memory (`visit_record`).
            let text = std::fs::read_to_string(file).expect("read");
            let mut count = Count::default();
            bao_notation::visit_record(&text, &mut count);
            println!(
                "{} games, {} moves, {} diagnostics",
                count.games, count.moves, count.errors
            );
        }
        _ => eprintln!(
            "usage: parse_input gen GAMES FILE | record FILE | stream FILE | visit FILE | visit-text FILE"
        ),
    }
}
