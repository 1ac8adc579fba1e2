//! Throughput and memory measurements on the benchmark's input.
//!
//! `cargo run --release -p bao-notation --example parse_input -- gen GAMES FILE` writes
//! `GAMES` games with the generator of `benches/parse.rs`, in blocks of 1000 (so a block
//! repeats); `record FILE` parses it whole with `parse_record`;
//! `stream FILE` reads it with `GameReader` (for peak RSS: `/usr/bin/time -v`).

use std::io::Write;

/// The `bao` binary's allocator, so that the figures are those of `bao`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../benches/gen/mod.rs"]
mod gen;

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
        _ => eprintln!("usage: parse_input gen GAMES FILE | record FILE | stream FILE"),
    }
}
