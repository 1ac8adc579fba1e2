//! What the catalogue adds to a command's cold start: the time of the first message of a
//! process (the English catalogue parsed, then one message formatted), then of the next
//! ones. Run it with `cargo run --release -p bao-i18n --example first_message [sw]`; each
//! run is one cold process, so run it several times (or under hyperfine) for a spread.

use std::time::Instant;

use bao_i18n::{t, Lang};

fn main() {
    let lang = match std::env::args().nth(1).as_deref() {
        Some(tag) => Lang::from_tag(tag).unwrap_or_default(),
        None => Lang::En,
    };
    let start = Instant::now();
    let first = t!(lang, "summary-errors", count = 1);
    let cold = start.elapsed();
    let start = Instant::now();
    let mut n = 0;
    for i in 0..1000_usize {
        n += t!(lang, "summary-warnings", count = i).len();
    }
    let warm = start.elapsed() / 1000;
    println!(
        "{lang}: first message {:.1} us ({first:?}), then {:.2} us a message ({n} bytes)",
        cold.as_secs_f64() * 1e6,
        warm.as_secs_f64() * 1e6
    );
}
