//! The streamed check (`bao_validate::stream`) against the whole-file path: the same
//! diagnostics, rendered and as JSON, byte for byte, on every fixture inside a large input
//! and on a generated archive with errors in many games.

use bao_testkit::Lcg;
use bao_validate::json::{file_json, piece_json, report_json};
use bao_validate::stream::{
    check_chunk, check_chunk_replayed, check_stream, map_chunks_noting, Merger, StreamReader,
    Streamed, STREAM_ABOVE,
};
use bao_validate::{check_bytes_report, CheckOptions};
use miette::{GraphicalReportHandler, GraphicalTheme};

use crate::{bao_files, fixtures_dir};

fn handler() -> GraphicalReportHandler {
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_links(false)
}

/// The human and JSON outputs of the whole-file path, as `bao check` printed them.
fn whole(name: &str, bytes: &[u8], opts: &CheckOptions) -> (String, String) {
    let report = check_bytes_report(name, bytes, opts);
    let mut human = String::new();
    if !report.diagnostics.is_empty() {
        handler().render_report(&mut human, &report).unwrap();
    }
    let json = report_json(&report)
        .iter()
        .map(|v| format!("{v}\n"))
        .collect();
    (human, json)
}

/// The same outputs from the streamed path: the summary line, then each piece's diagnostics.
fn streamed(name: &str, bytes: &[u8], opts: &CheckOptions) -> (String, String) {
    let (mut human, mut json) = (String::new(), String::new());
    let report = check_stream(name, bytes, opts, |piece| {
        let mut text = String::new();
        handler().render_report(&mut text, &piece).unwrap();
        human.push_str(&text[text.find('\n').unwrap() + 1..]);
        for v in piece_json(&piece) {
            json.push_str(&format!("{v}\n"));
        }
        Ok::<_, std::io::Error>(())
    })
    .unwrap();
    json.push_str(&format!("{}\n", file_json(&report)));
    let mut header = String::new();
    if report.stats.errors + report.stats.warnings > 0 {
        handler().render_report(&mut header, &report).unwrap();
    }
    header.push_str(&human);
    (header, json)
}

/// The streamed path in batches checked out of order (as on several threads), merged in
/// file order: its JSON.
fn batched(name: &str, bytes: &[u8], opts: &CheckOptions, batch: usize) -> String {
    let mut reader = StreamReader::new(bytes);
    let mut merger = Merger::new(name);
    let mut json = String::new();
    let mut out = |p: bao_validate::stream::CheckedPiece| {
        for v in piece_json(&p) {
            json.push_str(&format!("{v}\n"));
        }
    };
    while let Some(b) = reader.next_batch(batch).unwrap() {
        merger.note_warning(&reader);
        let mut checked: Vec<_> = b
            .chunks
            .iter()
            .rev()
            .map(|c| check_chunk(c, opts))
            .collect();
        checked.reverse();
        for c in checked {
            if let Some(p) = merger.push(c) {
                out(p);
            }
        }
    }
    merger.note_warning(&reader);
    let (pieces, report) = merger.finish();
    pieces.into_iter().for_each(&mut out);
    json.push_str(&format!("{}\n", file_json(&report)));
    json
}

/// The streamed path as `bao check` runs it on a large file (`map_chunks_noting` on a pool
/// of `threads`: cut here, parsed and checked on the pool, merged in file order), batches of
/// `batch` bytes of text: its JSON.
fn pipelined(
    name: &str,
    bytes: &[u8],
    opts: &CheckOptions,
    batch: usize,
    threads: usize,
) -> String {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut merger = Merger::new(name);
    let mut json = String::new();
    let mut out = |p: bao_validate::stream::CheckedPiece| {
        for v in piece_json(&p) {
            json.push_str(&format!("{v}\n"));
        }
    };
    pool.install(|| {
        map_chunks_noting(
            bytes,
            batch,
            |c| check_chunk(c, opts),
            |s| {
                match s {
                    Streamed::Warning(w) => merger.warning(w),
                    Streamed::Chunk(c) => {
                        if let Some(p) = merger.push(c) {
                            out(p);
                        }
                    }
                }
                Ok::<_, std::io::Error>(())
            },
        )
    })
    .unwrap();
    let (pieces, report) = merger.finish();
    pieces.into_iter().for_each(&mut out);
    json.push_str(&format!("{}\n", file_json(&report)));
    json
}

fn assert_same(name: &str, bytes: &[u8], every: &[CheckOptions], batch: bool) {
    for &opts in every {
        let (h1, j1) = whole(name, bytes, &opts);
        let (h2, j2) = streamed(name, bytes, &opts);
        if h1 != h2 {
            let diff = similar_lines(&h1, &h2);
            panic!("{name}: the human outputs differ ({opts:?}):\n{diff}");
        }
        if j1 != j2 {
            let diff = similar_lines(&j1, &j2);
            panic!("{name}: the JSON outputs differ ({opts:?}):\n{diff}");
        }
        if batch {
            assert_eq!(j1, batched(name, bytes, &opts, 2000), "{name}: batched");
            // Batches of one chunk each too: the comments after a batch's last game are
            // then often carried into the next batch, parsed apart on another thread.
            for (size, threads) in [(2000, 2), (1, 2), (1, 1)] {
                let j = pipelined(name, bytes, &opts, size, threads);
                if j1 != j {
                    let diff = similar_lines(&j1, &j);
                    panic!("{name}: pipelined ({size} bytes, {threads} threads):\n{diff}");
                }
            }
        }
    }
}

/// The first differing line of two texts, with its neighbours.
fn similar_lines(a: &str, b: &str) -> String {
    let (la, lb): (Vec<_>, Vec<_>) = (a.lines().collect(), b.lines().collect());
    let i = la
        .iter()
        .zip(&lb)
        .position(|(x, y)| x != y)
        .unwrap_or(la.len().min(lb.len()));
    let lo = i.saturating_sub(3);
    format!(
        "line {i}\n--- whole\n{}\n--- streamed\n{}",
        la[lo..(i + 3).min(la.len())].join("\n"),
        lb[lo..(i + 3).min(lb.len())].join("\n")
    )
}

/// A game with `bytes` of comment lines (cheap to check), then small valid games.
fn padding(bytes: usize) -> Vec<u8> {
    let mut out = b"[Event \"padding\"]\n".to_vec();
    while out.len() < bytes {
        out.extend_from_slice(b"; a comment line of the padding\n");
    }
    out.extend_from_slice(b"1. A6<* *\n\n");
    for i in 0..4 {
        out.extend_from_slice(format!("[Round \"{i}\"]\n\n1. A6<* a5>* *\n\n").as_bytes());
    }
    out
}

/// Every fixture after enough games that the input is streamed, and before a few more:
/// its diagnostics are drawn with the same lines, columns and excerpts.
#[test]
fn every_fixture_streams_as_the_whole_file() {
    let mut files = Vec::new();
    bao_files(fixtures_dir(), &mut files);
    files.sort();
    assert!(files.len() > 50);
    let before = padding(STREAM_ABOVE + 1);
    let after = padding(100);
    let default = [CheckOptions::default()];
    for f in &files {
        let fixture = std::fs::read(f).unwrap();
        let mut bytes = before.clone();
        bytes.extend_from_slice(&fixture);
        bytes.extend_from_slice(b"\n");
        bytes.extend_from_slice(&after);
        assert_same(&f.display().to_string(), &bytes, &default, false);
        // Alone too, and last in a large input (no chunk after it).
        assert_same(&f.display().to_string(), &fixture, &default, true);
        let mut last = before.clone();
        last.extend_from_slice(&fixture);
        assert_same(&f.display().to_string(), &last, &default, false);
    }
}

/// An archive of the fixtures' games, many of them altered (a move changed, a line
/// dropped, a comment after the result, CRLF line ends, matches), with errors in many
/// games.
fn archive(seed: u64, games: usize) -> Vec<u8> {
    let mut files = Vec::new();
    bao_files(&fixtures_dir().join("games"), &mut files);
    bao_files(&fixtures_dir().join("invalid"), &mut files);
    files.sort();
    let texts: Vec<String> = files
        .iter()
        .filter_map(|f| String::from_utf8(std::fs::read(f).unwrap()).ok())
        .filter(|t| t.len() < 8000)
        .collect();
    let mut rng = Lcg::new(seed);
    let mut out = String::new();
    for g in 0..games {
        let mut text = texts[rng.below(texts.len())].clone();
        match rng.below(8) {
            0 => {
                // A digit of a move changed.
                let digits: Vec<usize> = text
                    .char_indices()
                    .filter(|(_, c)| ('1'..='8').contains(c))
                    .map(|(i, _)| i)
                    .collect();
                if !digits.is_empty() {
                    let i = digits[rng.below(digits.len())];
                    let d = char::from(b'1' + rng.below(8) as u8);
                    text.replace_range(i..=i, &d.to_string());
                }
            }
            1 => {
                // A line dropped.
                let lines: Vec<&str> = text.split_inclusive('\n').collect();
                let k = rng.below(lines.len());
                text = lines
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != k)
                    .map(|(_, l)| *l)
                    .collect();
            }
            2 => {
                // A comment after the result, on its line.
                let t = text.trim_end().to_owned();
                text = format!("{t} {{after game {g}}}\n");
            }
            3 => text = text.replace('\n', "\r\n"),
            4 => {
                text = format!(
                    "[Match \"m{}\"]\n[Game \"{}\"]\n[South \"a\"]\n[North \"b\"]\n{text}",
                    rng.below(3),
                    1 + rng.below(4)
                );
            }
            _ => {}
        }
        out.push_str(&text);
        out.push_str(if rng.below(4) == 0 { "\n" } else { "\n\n" });
    }
    out.into_bytes()
}

/// A generated archive with errors in many games, streamed as the whole file.
#[test]
fn a_generated_archive_streams_as_the_whole_file() {
    let both = [
        CheckOptions::default(),
        CheckOptions {
            assume_fixes: true,
            ..CheckOptions::default()
        },
    ];
    let bytes = archive(1, 220);
    assert!(bytes.len() > STREAM_ABOVE, "{}", bytes.len());
    let (human, _) = whole("archive", &bytes, &CheckOptions::default());
    assert!(human.matches("Error:").count() > 20, "errors in many games");
    assert_same("archive", &bytes, &both, true);
    // Bytes that are not UTF-8 in the middle of it.
    let mut bytes = archive(9, 60);
    let at = bytes.len() / 2;
    let line = at + bytes[at..].iter().position(|&b| b == b'\n').unwrap() + 1;
    bytes.splice(line..line, b"{caf\xe9}\n".iter().copied());
    assert_same("latin1", &bytes, &both[..1], true);
}

/// A game over the whole-file path's 4 MiB limit is skipped with `game_too_long` by both
/// paths, and the lines of the games after it are counted through it.
#[test]
fn a_game_over_the_limit_streams_as_the_whole_file() {
    let mut bytes = padding(STREAM_ABOVE + 1);
    bytes.extend_from_slice(b"[Event \"big\"]\n\n");
    let limit = bao_notation::DEFAULT_MAX_GAME_BYTES;
    while bytes.len() < STREAM_ABOVE + limit + 1000 {
        bytes.extend_from_slice(b"{a comment of the game that is too long}\n");
    }
    let big = bytes.clone();
    bytes.extend_from_slice(b"*\n\n[Event \"after\"]\n\n1. A5<* *\n");
    let (human, _) = whole("big", &bytes, &CheckOptions::default());
    assert!(human.contains("game_too_long") && human.contains("namua_placement"));
    assert_same("big", &bytes, &[CheckOptions::default()], true);
    // Comments after its result are skipped with it (spec/notation.md §3), by both paths:
    // a broken one would be reported, and the next game's lines are counted through them.
    let mut bytes = big.clone();
    bytes.extend_from_slice(b"* {after the big game, never closed\n; and a line comment\n\n");
    bytes.extend_from_slice(b"[Event \"after\"]\n\n1. A5<* *\n{after that}\n");
    let (human, _) = whole("big", &bytes, &CheckOptions::default());
    assert!(human.contains("game_too_long") && human.contains("namua_placement"));
    assert!(!human.contains("unterminated_comment"), "{human}");
    assert_same("big", &bytes, &[CheckOptions::default()], true);
    assert_annotated_same("big", &bytes);
    // Annotating edits the games it can read and loses no text: the game too long to read
    // and the comments after it stay as written.
    let annotated = annotated_streamed(&bytes, 2000);
    assert!(annotated.contains("after the big game") && annotated.contains("after that"));
    let tail = |t: &str| t[t.find("* {after the big game").unwrap()..].to_owned();
    assert_eq!(tail(&annotated), tail(std::str::from_utf8(&bytes).unwrap()));
    // And at the end of the input.
    let mut bytes = big;
    bytes.extend_from_slice(b"* {after the big game}\n");
    assert_same("big", &bytes, &[CheckOptions::default()], true);
    assert_annotated_same("big", &bytes);
    assert!(annotated_streamed(&bytes, 2000).ends_with("* {after the big game}\n"));
}

/// Under a lap budget, a game left undecided inside a large input streams as the whole file:
/// the same warning, the same plies counted, the games after it checked.
#[test]
fn a_lap_budget_streams_as_the_whole_file() {
    let fixture = std::fs::read(fixtures_dir().join("invalid/budget/undecided.bao")).unwrap();
    let mut bytes = padding(STREAM_ABOVE + 1);
    bytes.extend_from_slice(&fixture);
    bytes.extend_from_slice(b"\n[Event \"after\"]\n\n1. A6<* a6<* 2. B1< *\n\n");
    bytes.extend_from_slice(&padding(100));
    let opts = CheckOptions {
        lap_budget: Some(10_000),
        ..CheckOptions::default()
    };
    let (human, json) = whole("budget", &bytes, &opts);
    assert!(human.contains("bao::budget::undecided"), "{human}");
    assert!(json.contains("bao::illegal::capture_mandatory"), "{json}");
    // A give-up stores nothing in the memo: the streamed run meets the cycle as unknown too.
    assert_same("budget", &bytes, &[opts], true);
}

/// The record annotated game by game from the stream (chunks checked out of order, as on
/// several threads, then written in file order), as `bao annotate` writes a large record.
fn annotated_streamed(bytes: &[u8], batch: usize) -> String {
    let mut reader = StreamReader::new(bytes);
    let mut texts = bao_validate::ChunkTexts::default();
    let mut out = String::new();
    while let Some(b) = reader.next_batch(batch).unwrap() {
        let mut done: Vec<_> = b
            .chunks
            .iter()
            .rev()
            .map(|c| {
                let (_, replayed) = check_chunk_replayed(c, &CheckOptions::default());
                assert_eq!(replayed.len(), c.games.len());
                bao_validate::annotated_chunk(c, &replayed)
            })
            .collect();
        done.reverse();
        for c in done {
            out.extend(texts.push(c));
        }
    }
    out.extend(texts.finish());
    out
}

fn assert_annotated_same(name: &str, bytes: &[u8]) {
    let whole = bao_validate::annotated_text(&bao_validate::check_bytes(
        name,
        bytes,
        &CheckOptions::default(),
    ));
    for batch in [1, 2000] {
        let streamed = annotated_streamed(bytes, batch);
        if whole != streamed {
            let diff = similar_lines(&whole, &streamed);
            panic!("{name}: the annotated records differ (batch {batch}):\n{diff}");
        }
    }
}

/// `bao annotate`'s streamed path writes what the whole-file path writes: every fixture in a
/// large input and alone, and a generated archive with errors in many games.
#[test]
fn every_fixture_and_an_archive_annotate_as_the_whole_file() {
    let mut files = Vec::new();
    bao_files(fixtures_dir(), &mut files);
    files.sort();
    let before = padding(STREAM_ABOVE + 1);
    for f in &files {
        let fixture = std::fs::read(f).unwrap();
        let name = f.display().to_string();
        assert_annotated_same(&name, &fixture);
        let mut bytes = before.clone();
        bytes.extend_from_slice(&fixture);
        bytes.extend_from_slice(b"\n{a comment after it}\n");
        bytes.extend_from_slice(&padding(100));
        assert_annotated_same(&name, &bytes);
    }
    let bytes = archive(3, 220);
    assert!(bytes.len() > STREAM_ABOVE);
    let annotated = annotated_streamed(&bytes, 4000);
    assert!(
        annotated.contains("[xa") || annotated.contains("[A"),
        "annotations written"
    );
    assert_annotated_same("archive", &bytes);
}

/// The chunks `map_chunks` hands on (cut here, parsed on the pool, numbered in file order)
/// are the sequential reader's, games and all, whatever the batches: comments after a
/// batch's last game belong to the next batch's first game, which another thread parsed
/// without them.
#[test]
fn chunks_parsed_on_the_pool_are_the_sequential_readers() {
    let mut trailing = Vec::new();
    for i in 0..40 {
        trailing.extend_from_slice(format!("[Round \"{i}\"]\n\n1. A6<* a5>* *\n").as_bytes());
        match i % 4 {
            0 => trailing.extend_from_slice(b"{after the result}\n; and a line\n\n"),
            1 => trailing.extend_from_slice(b"{never closed\n"),
            2 => trailing.extend_from_slice(b"\n\n"),
            _ => trailing.extend_from_slice(b"{one} {two}\n"),
        }
    }
    trailing.extend_from_slice(b"{at the very end}\n");
    let shown =
        |c: &bao_validate::stream::Chunk| format!("{} {:?} {:?}", c.offset, c.text, c.games);
    for (k, bytes) in [trailing, archive(3, 120)].into_iter().enumerate() {
        let mut reader = StreamReader::new(&bytes[..]);
        let mut expected = Vec::new();
        while let Some(c) = reader.next_chunk().unwrap() {
            expected.push(shown(&c));
        }
        assert!(k > 0 || expected.iter().any(|c| c.contains("after the result")));
        for (batch, threads) in [(1, 2), (1, 1), (300, 2)] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut got = Vec::new();
            pool.install(|| {
                bao_validate::stream::map_chunks(&bytes[..], batch, shown, |c| {
                    got.push(c);
                    Ok::<_, std::io::Error>(())
                })
            })
            .unwrap();
            assert_eq!(got, expected, "batches of {batch} bytes, {threads} threads");
        }
    }
}
