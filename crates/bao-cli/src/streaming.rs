//! Checking a large record game by game on every thread of the pool, reported in file
//! order ([`stream_checked`]), and keeping each game's replay for the commands that write it
//! ([`stream_replayed`], [`stream_replayed_chunks`]): `bao check`, `bao annotate` and `bao
//! export json` on an input beyond [`bao_validate::stream::STREAM_ABOVE`] bytes.

use std::io::Read;

use bao_notation::{Game, Spanned};
use bao_replay::ReplayedGame;
use bao_validate::stream::{
    self, check_chunk_replayed, CheckedChunk, CheckedPiece, Chunk, Merger, Streamed,
};
use bao_validate::{CheckOptions, CheckReport};

use crate::error::CliError;

/// How many bytes of text a batch of games holds when a large file is checked on several
/// threads.
pub(crate) const BATCH_BYTES: usize = 64 * 1024;

/// The batch size of the commands that keep each game's replay until it is written (`bao
/// annotate`, `bao export json`): a replay (every ply's positions and trace) is many times
/// the size of its text, so their batches in flight hold a quarter of `bao check`'s text.
const REPLAY_BATCH_BYTES: usize = 32 * 1024;

/// Reads a large input game by game and checks it on every thread of the pool
/// ([`stream::map_chunks_noting`]): batches of about `batch_bytes` of text are parsed and
/// checked on the pool (with `map`, which also gives what else the caller wants of each
/// chunk), a bounded number of them in flight; in file order, each piece of diagnostics
/// goes to `piece` and each chunk's other output to `item`. Returns the file's report (its
/// totals).
///
/// # Errors
/// A read error of the input, or the first error of `piece` or `item`.
pub(crate) fn stream_checked<T: Send>(
    name: &str,
    lang: bao_i18n::Lang,
    input: Box<dyn Read + Send>,
    batch_bytes: usize,
    map: impl Fn(&Chunk) -> (CheckedChunk, T) + Sync,
    piece: &mut dyn FnMut(&CheckedPiece) -> Result<(), CliError>,
    item: &mut dyn FnMut(T) -> Result<(), CliError>,
) -> Result<CheckReport, CliError> {
    /// Why the stream stopped: the input, or the output.
    enum Stop {
        Read(std::io::Error),
        Out(CliError),
    }
    impl From<std::io::Error> for Stop {
        fn from(e: std::io::Error) -> Self {
            Self::Read(e)
        }
    }
    crate::pages::small_pages();
    let mut merger = Merger::new(name).in_lang(lang);
    stream::map_chunks_noting(input, batch_bytes, map, |s| match s {
        Streamed::Warning(w) => {
            merger.warning(w);
            Ok(())
        }
        Streamed::Chunk((chunk, t)) => {
            if let Some(p) = merger.push(chunk) {
                piece(&p).map_err(Stop::Out)?;
            }
            item(t).map_err(Stop::Out)
        }
    })
    .map_err(|e| match e {
        Stop::Read(e) => CliError::io(format!("cannot read {name}"), e),
        Stop::Out(e) => e,
    })?;
    let (pieces, report) = merger.finish();
    for p in &pieces {
        piece(p)?;
    }
    Ok(report)
}

/// [`stream_checked`] keeping each game's replay, in batches of [`REPLAY_BATCH_BYTES`]:
/// on the pool, `each` makes what the caller writes of a game from its number in the file,
/// the game and its replay ([`check_chunk_replayed`]); in file order, `games` gets them a
/// chunk at a time.
///
/// # Errors
/// As [`stream_checked`].
pub(crate) fn stream_replayed<T: Send>(
    name: &str,
    input: Box<dyn Read + Send>,
    each: impl Fn(usize, &Spanned<Game>, ReplayedGame) -> T + Sync,
    piece: &mut dyn FnMut(&CheckedPiece) -> Result<(), CliError>,
    games: &mut dyn FnMut(Vec<T>) -> Result<(), CliError>,
) -> Result<CheckReport, CliError> {
    stream_replayed_chunks(
        name,
        input,
        |chunk, replayed| {
            chunk
                .games
                .iter()
                .zip(replayed)
                .map(|((n, g, _), r)| each(*n, g, r))
                .collect()
        },
        piece,
        games,
    )
}

/// [`stream_replayed`] a chunk at a time: on the pool, `each` makes what the caller writes of
/// a chunk (its text and games) from the replays of its games; in file order, `chunks` gets
/// them.
///
/// # Errors
/// As [`stream_checked`].
pub(crate) fn stream_replayed_chunks<T: Send>(
    name: &str,
    input: Box<dyn Read + Send>,
    each: impl Fn(&Chunk, Vec<ReplayedGame>) -> T + Sync,
    piece: &mut dyn FnMut(&CheckedPiece) -> Result<(), CliError>,
    chunks: &mut dyn FnMut(T) -> Result<(), CliError>,
) -> Result<CheckReport, CliError> {
    let opts = CheckOptions::default();
    stream_checked(
        name,
        opts.lang,
        input,
        REPLAY_BATCH_BYTES,
        |chunk| {
            let (checked, replayed) = check_chunk_replayed(chunk, &opts);
            (checked, each(chunk, replayed))
        },
        piece,
        chunks,
    )
}
