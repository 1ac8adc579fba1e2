//! `bao_notation::stream`: the chunks cut, parsed on a pool and numbered in file order are the
//! sequential reader's, and a game's span in its chunk is its text as written (what the
//! archive commands copy).

use bao_notation::meaning::is_game;
use bao_notation::stream::{map_chunks, Chunk, StreamReader};

use crate::fixtures;

/// Every game of `bytes` as `map_chunks` hands it on: its number and the text its span
/// covers in its chunk, on a pool of `threads` threads with batches of `batch` bytes.
fn game_texts(bytes: &[u8], batch: usize, threads: usize) -> Vec<(usize, String)> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut got = Vec::new();
    pool.install(|| {
        map_chunks(
            bytes,
            batch,
            |c: &Chunk| {
                c.games
                    .iter()
                    .filter(|(_, g, _)| is_game(&g.value))
                    .map(|(n, g, _)| (*n, c.text[g.span.range()].to_owned()))
                    .collect::<Vec<_>>()
            },
            |games| {
                got.extend(games);
                Ok::<_, std::io::Error>(())
            },
        )
    })
    .unwrap();
    got
}

/// Comments after a batch's last game belong to the next batch's first game, which another
/// thread parsed without them: whatever the batches and threads, the chunks are the
/// sequential reader's, games and all.
#[test]
fn chunks_parsed_on_the_pool_are_the_sequential_readers() {
    let mut bytes = Vec::new();
    for i in 0..40 {
        bytes.extend_from_slice(format!("[Round \"{i}\"]\n\n1. A6<* a5>* *\n").as_bytes());
        match i % 4 {
            0 => bytes.extend_from_slice(b"{after the result}\n; and a line\n\n"),
            1 => bytes.extend_from_slice(b"{never closed\n"),
            2 => bytes.extend_from_slice(b"\n\n"),
            _ => bytes.extend_from_slice(b"{one} {two}\n"),
        }
    }
    bytes.extend_from_slice(b"{at the very end}\n");
    let shown = |c: &Chunk| format!("{} {:?} {:?}", c.offset, c.text, c.games);
    let mut reader = StreamReader::new(&bytes[..]);
    let mut expected = Vec::new();
    while let Some(c) = reader.next_chunk().unwrap() {
        expected.push(shown(&c));
    }
    assert!(expected.iter().any(|c| c.contains("after the result")));
    for (batch, threads) in [(1, 2), (1, 1), (300, 2)] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut got = Vec::new();
        pool.install(|| {
            map_chunks(&bytes[..], batch, shown, |c| {
                got.push(c);
                Ok::<_, std::io::Error>(())
            })
        })
        .unwrap();
        assert_eq!(got, expected, "batches of {batch} bytes, {threads} threads");
    }
}

/// A game's span in its chunk runs from the comments before its first tag to its result
/// token, line ends as written, whatever the batches: the fixtures' games, with comments
/// between them, CRLF line ends in every other one, come back as written.
#[test]
fn a_games_span_in_its_chunk_is_its_text_as_written() {
    let mut files: Vec<_> = std::fs::read_dir(fixtures().join("games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bao"))
        .collect();
    files.sort();
    let mut input = String::new();
    let mut want = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let text = std::fs::read_to_string(f).unwrap();
        if text.matches("[Event ").count() != 1 {
            continue;
        }
        let mut game = format!("; from {}\n{{ and a note }}\n{}", i, text.trim_end());
        if i % 2 == 1 {
            game = game.replace('\n', "\r\n");
        }
        input.push_str(&game);
        input.push_str(if i % 3 == 0 { "   \n\n\n" } else { "\n\n" });
        want.push(game);
    }
    input.push_str("; a comment at the end, no game's\n");
    assert!(want.len() >= 8, "{} games", want.len());
    let want: Vec<(usize, String)> = want
        .into_iter()
        .enumerate()
        .map(|(i, g)| (i + 1, g))
        .collect();
    for (batch, threads) in [(1, 2), (64 * 1024, 1), (700, 2)] {
        assert_eq!(
            game_texts(input.as_bytes(), batch, threads),
            want,
            "batches of {batch} bytes, {threads} threads"
        );
    }
}
