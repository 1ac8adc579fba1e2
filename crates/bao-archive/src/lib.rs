//! `bao-archive`: many games at once.
//!
//! - [`alias`]: player-name aliases (one person, several spellings).
//! - [`ap`]: AbstractPlay's game records in ([`ap::import_value`]: translated, read as a
//!   record and checked) and out ([`ap::export_game`]).
//! - [`filter`]: which games to keep (`bao filter`).
//! - [`stats`]: results, endings, lengths, players with a rating, the opening tree
//!   (`bao stats`), rendered by [`render`].
//! - [`dedupe`]: the key that makes two games one (`bao dedupe`) and file names
//!   (`bao split`).
//! - [`query`]: questions by position (`--where`), with a parser that says where a query
//!   is wrong.
//! - [`text`]: what `bao filter`, `bao dedupe` and `bao split` write of a game: its text as
//!   written, or its canonical form.
//!
//! Archives are read game by game, in bounded memory, on every thread of the current rayon
//! pool: [`for_each_game`] runs a closure on each game of a stream (on any thread) and hands
//! the results back in file order. It reads with bao-notation's streaming reader
//! ([`bao_notation::stream::map_chunks`]), the one `bao check` uses, and each game is
//! replayed once by bao-replay ([`ArchiveGame`]; at [`Depth::Check`], which every command of
//! bao-cli uses, by bao-validate's check, so that a game with an error or with tags its
//! board contradicts is known: [`game::Problem`], spec/archive.md §5): there is no other
//! parser or replay here. [`for_each_game_placed`] also says where each chunk starts, so
//! that a problem is reported at the line `bao check` gives.
//!
//! ```
//! use bao_archive::{for_each_game, game::Depth, stats::{GameFacts, Stats}};
//!
//! let text = "[South \"Ali\"]\n[North \"Bao\"]\n\n1. A6<* a5> *\n\n[South \"Bao\"]\n\n1. A6<* *\n";
//! let mut stats = Stats::new(2, 10);
//! for_each_game(text.as_bytes(), Depth::Replay, |_, g| GameFacts::of(g, 2), |f| {
//!     stats.add(&f);
//!     Ok::<_, std::io::Error>(())
//! })
//! .unwrap();
//! let report = stats.report();
//! assert_eq!(report.games, 2);
//! let tree = &report.trees[0];
//! assert_eq!((tree.start.as_str(), tree.games), ("kiswahili", 2));
//! assert_eq!(tree.moves[0].replies[0].mv, "a5>");
//! ```
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

use std::io::{self, Read};
use std::sync::Arc;

pub mod alias;
pub mod ap;
pub mod dedupe;
pub mod filter;
pub mod game;
pub mod query;
pub mod render;
pub mod stats;
pub mod text;

use bao_notation::meaning::is_game;
use bao_notation::Place;
pub use game::{ArchiveGame, Depth};

/// The bytes of text mapped together on one thread.
const BATCH_BYTES: usize = 64 * 1024;

/// Reads the games of `input` (a record: any number of games) and runs `map` on each, worked
/// out to `depth`, with its number in the input (from 1, as in diagnostics), on the threads
/// of the current rayon pool; `each` gets the results in file order. Stretches of text that
/// hold no game (comments at the end of a file) are skipped.
///
/// # Errors
/// A read error of the input, or the first error `each` returns.
pub fn for_each_game<R, T, E>(
    input: R,
    depth: Depth,
    map: impl Fn(usize, &ArchiveGame<'_>) -> T + Sync,
    mut each: impl FnMut(T) -> Result<(), E>,
) -> Result<(), E>
where
    R: Read + Send,
    T: Send,
    E: From<io::Error>,
{
    for_each_game_placed(input, depth, map, |t, _| each(t))
}

/// [`for_each_game`], handing `each` with each result where the chunk its game was read
/// from starts in the input (its offset in the decoded text, 0-based line and column): a
/// [`game::Problem`] is placed from it ([`game::Problem::line_col`]).
///
/// # Errors
/// A read error of the input, or the first error `each` returns.
pub fn for_each_game_placed<R, T, E>(
    input: R,
    depth: Depth,
    map: impl Fn(usize, &ArchiveGame<'_>) -> T + Sync,
    mut each: impl FnMut(T, Place) -> Result<(), E>,
) -> Result<(), E>
where
    R: Read + Send,
    T: Send,
    E: From<io::Error>,
{
    // Where the last chunk handed on starts, and its text: chunks follow each other, a
    // chunk's text may begin inside the one before it (comments carried to the next game),
    // so the next start is reached by counting the lines of the last chunk's text up to it.
    let mut at = Place::default();
    let mut last: Option<Arc<str>> = None;
    bao_notation::stream::map_chunks(
        input,
        BATCH_BYTES,
        |chunk| {
            let results = chunk
                .games
                .iter()
                .filter(|(_, g, _)| is_game(&g.value))
                .map(|(n, g, errors)| map(*n, &ArchiveGame::new(g, &chunk.text, errors, *n, depth)))
                .collect::<Vec<T>>();
            (chunk.offset, Arc::clone(&chunk.text), results)
        },
        |(offset, text, results)| {
            if let Some(prev) = &last {
                let gap = offset.saturating_sub(at.offset);
                let upto = prev.get(..gap.min(prev.len())).unwrap_or_default();
                let (breaks, column) = game::breaks_and_column(upto);
                at.line += breaks;
                at.column = if breaks == 0 {
                    at.column + column
                } else {
                    column
                };
            }
            at.offset = offset;
            last = Some(text);
            results.into_iter().try_for_each(|t| each(t, at))
        },
    )
}
