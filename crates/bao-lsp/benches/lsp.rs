//! Latency of `bao lsp`, in process over `Connection::memory` (what a client waits for):
//!
//! - `change/long_record`: a one-character change (the last move's sign) in one long record
//!   (the first of 5,000 seeded random Kiswahili games to last 300 plies, else the longest:
//!   203 plies), to its `publishDiagnostics` (issue 18's goal for 300 plies: under 20 ms);
//! - `change/10000_games`: a one-character change in one game of a 10,000-game file, to its
//!   `publishDiagnostics` (goal: under 50 ms; only that game is checked again);
//! - `completion/long_record`: a completion request at the end of that record;
//! - `completion/10000_games`: a completion request on the last move of the middle game of
//!   the 10,000-game file (the legal moves there, with what each does).
//!
//! Run with `cargo bench -p bao-lsp --bench lsp -- --warm-up-time 1 --measurement-time 3`.

use std::fmt::Write as _;
use std::hint::black_box;
use std::thread::JoinHandle;

use bao_core::{Position, RuleSet};
use criterion::{criterion_group, criterion_main, Criterion};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};

/// A game of uniformly random legal moves from a small seeded generator, until it ends or
/// reaches `plies`; the record's movetext and the number of plies played.
fn random_game(seed: u64, plies: usize) -> (String, usize) {
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from((state >> 33) % n as u64).unwrap_or(0)
    };
    let mut pos = Position::start(RuleSet::KISWAHILI);
    let mut text = String::new();
    let mut played = 0;
    while played < plies {
        let Ok(legal) = pos.legal_moves_within(20_000) else {
            break;
        };
        if legal.is_empty() {
            break;
        }
        let mv = legal[next(legal.len())];
        if played % 2 == 0 {
            let _ = write!(text, "{}. ", played / 2 + 1);
        }
        let _ = write!(text, "{mv} ");
        if played % 12 == 11 {
            text.push('\n');
        }
        pos = pos.play_fast(&mv);
        played += 1;
    }
    (text, played)
}

struct Client {
    conn: Connection,
    server: Option<JoinHandle<()>>,
    version: i32,
    id: i32,
}

impl Client {
    fn start() -> Self {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || {
            let _ = bao_lsp::run(&server);
        });
        let mut c = Self {
            conn,
            server: Some(handle),
            version: 1,
            id: 0,
        };
        c.request("initialize", json!({"capabilities": {}}));
        c.notify("initialized", json!({}));
        c
    }

    fn notify(&self, method: &str, params: Value) {
        let n = Notification::new(method.to_owned(), params);
        self.conn.sender.send(Message::Notification(n)).unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.id += 1;
        let id = RequestId::from(self.id);
        let req = Request::new(id.clone(), method.to_owned(), params);
        self.conn.sender.send(Message::Request(req)).unwrap();
        loop {
            if let Message::Response(r) = self.conn.receiver.recv().unwrap() {
                if r.id == id {
                    return r.response_result.unwrap_or(Value::Null);
                }
            }
        }
    }

    fn wait_diagnostics(&self, version: i32) {
        loop {
            if let Message::Notification(n) = self.conn.receiver.recv().unwrap() {
                if n.method == "textDocument/publishDiagnostics" && n.params["version"] == version {
                    return;
                }
            }
        }
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "bao", "version": self.version, "text": text}}),
        );
        self.wait_diagnostics(self.version);
    }

    /// Replaces one character at (line, character) and waits for the diagnostics.
    fn change(&mut self, uri: &str, line: usize, character: usize, text: &str) {
        self.version += 1;
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": self.version},
                   "contentChanges": [{"range": {"start": {"line": line, "character": character},
                                                 "end": {"line": line, "character": character + 1}},
                                       "text": text}]}),
        );
        self.wait_diagnostics(self.version);
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        if let Some(h) = self.server.take() {
            let _ = h.join();
        }
    }
}

/// The (line, character) and sign of the last `<` or `>` of `text` before byte `before`
/// (the last move of a game: the change leaves the whole game to replay).
fn last_sign(text: &str, before: usize) -> (usize, usize, char) {
    let at = text[..before].rfind(['<', '>']).unwrap_or(0);
    let line = text[..at].matches('\n').count();
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (line, at - start, text.as_bytes()[at] as char)
}

fn bench(c: &mut Criterion) {
    // The first seeded random game that lasts 300 plies (most end sooner), else the longest.
    let (moves, plies) = (0..5_000)
        .map(|seed| random_game(seed, 300))
        .scan(0, |best, g| {
            let done = *best >= 300;
            *best = (*best).max(g.1);
            (!done).then_some(g)
        })
        .max_by_key(|g| g.1)
        .unwrap_or_default();
    let long = format!("[Event \"long\"]\n[Result \"*\"]\n\n{moves}*\n");
    eprintln!("the long record has {plies} plies, {} bytes", long.len());
    let mut client = Client::start();
    client.open("file:///long.bao", &long);
    let (line, ch, sign) = last_sign(&long, long.len());
    let flip = |s: char| if s == '<' { ">" } else { "<" };
    let mut flipped = false;
    c.bench_function("change/long_record", |b| {
        b.iter(|| {
            // Flips one move's sign and back: each change is a real one-character edit.
            let s = if flipped {
                sign.to_string()
            } else {
                flip(sign).to_owned()
            };
            client.change("file:///long.bao", line, ch, &s);
            flipped = !flipped;
        });
    });
    let end = long.lines().count() - 1;
    c.bench_function("completion/long_record", |b| {
        b.iter(|| {
            black_box(client.request(
                "textDocument/completion",
                json!({"textDocument": {"uri": "file:///long.bao"},
                       "position": {"line": end, "character": 0}}),
            ))
        });
    });
    drop(client);

    let mut archive = String::new();
    for g in 0..10_000u64 {
        let (moves, _) = random_game(g, 40);
        let _ = write!(archive, "[Event \"g{g}\"]\n[Result \"*\"]\n\n{moves}*\n\n");
    }
    eprintln!("the archive has 10,000 games, {} bytes", archive.len());
    let mut client = Client::start();
    client.open("file:///archive.bao", &archive);
    let next = archive.find("[Event \"g5001\"]").unwrap();
    let (line, ch, sign) = last_sign(&archive, next);
    let mut flipped = false;
    c.bench_function("change/10000_games", |b| {
        b.iter(|| {
            let s = if flipped {
                sign.to_string()
            } else {
                flip(sign).to_owned()
            };
            client.change("file:///archive.bao", line, ch, &s);
            flipped = !flipped;
        });
    });
    let offered = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": "file:///archive.bao"},
               "position": {"line": line, "character": ch}}),
    );
    assert!(
        offered["items"].as_array().is_some_and(|i| !i.is_empty()),
        "{offered}"
    );
    c.bench_function("completion/10000_games", |b| {
        b.iter(|| {
            black_box(client.request(
                "textDocument/completion",
                json!({"textDocument": {"uri": "file:///archive.bao"},
                       "position": {"line": line, "character": ch}}),
            ))
        });
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
