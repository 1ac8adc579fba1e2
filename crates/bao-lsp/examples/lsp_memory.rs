//! Memory and latency of `bao lsp` with a large archive open, over pipes, as an editor runs
//! it: the server is the `bao` binary in its own process, and its resident set is read
//! from `/proc/PID/status` (`VmRSS` now, `VmHWM` the peak so far; before each request on
//! the whole document the peak is started anew, so that its peak is its own).
//!
//! The archive is made in memory (nothing is written to disk): copies of
//! `fixtures/games/*.bao`, each copy's matches renamed (as BENCHMARKS.md makes its large
//! records), up to the size asked. The example opens it (`didOpen`), waits for its
//! diagnostics, asks what an editor asks of a document it opens (symbols, formatting, folding ranges,
//! semantic tokens whole and of the first lines, the inlay hints of the first lines), then
//! changes one character in the middle game (the sign of its last move, flipped and flipped
//! back) a few times, asks a hover, a completion and the semantic tokens of the lines
//! around it there, then stops a running `documentSymbol` by a `$/cancelRequest` and by a
//! change (the time from either to the answer), and prints the time of each step and the
//! server's memory after it.
//!
//! ```text
//! cargo build --release -p bao-cli
//! cargo run --release -p bao-lsp --example lsp_memory -- target/release/bao 100
//! ```
//!
//! Arguments: the `bao` binary (default `target/release/bao`), the archive's size in MB
//! (default 100), and `one-line` for its games without tags on one line (what remains of the
//! size once the tags are gone).

use std::io::{BufReader, BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use lsp_server::{Message, Notification, Request, RequestId};
use serde_json::{json, Value};

/// How long a step may take before the example gives up.
const WAIT: Duration = Duration::from_secs(1200);

type Failure = Box<dyn std::error::Error>;

fn main() -> Result<(), Failure> {
    let mut args = std::env::args().skip(1);
    let bao = args
        .next()
        .map_or_else(|| PathBuf::from("target/release/bao"), PathBuf::from);
    let mb: usize = args.next().map_or(Ok(100), |a| a.parse())?;
    let text = match args.next().as_deref() {
        Some("one-line") => one_line(archive(mb << 20)?),
        Some(other) => return Err(format!("unknown shape {other:?} (one-line)").into()),
        None => archive(mb << 20)?,
    };
    let games = text.matches("\n[Event ").count() + usize::from(text.starts_with("[Event "));
    println!(
        "archive: {:.1} MB, {} lines, about {games} games",
        mb_of(text.len()),
        text.lines().count()
    );
    let mut server = Server::start(&bao)?;
    println!("server started: {}", server.memory());
    let uri = "file:///archive.bao";

    let t = Instant::now();
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "bao", "version": 1, "text": text}}),
    )?;
    let sent = t.elapsed();
    let n = server.diagnostics(1)?;
    println!(
        "didOpen to its diagnostics: {:.2} s (the text sent in {:.2} s), {n} diagnostics; {}",
        t.elapsed().as_secs_f64(),
        sent.as_secs_f64(),
        server.memory()
    );

    // What an editor asks for a document it opens: its outline, folding and semantic
    // tokens (whole document), and the inlay hints of the lines on screen.
    for (method, params) in [
        ("textDocument/documentSymbol", json!({})),
        (
            "textDocument/formatting",
            json!({"options": {"tabSize": 4, "insertSpaces": true}}),
        ),
        ("textDocument/foldingRange", json!({})),
        ("textDocument/semanticTokens/full", json!({})),
        (
            "textDocument/semanticTokens/range",
            json!({"range": {"start": {"line": 0, "character": 0}, "end": {"line": 60, "character": 0}}}),
        ),
        (
            "textDocument/inlayHint",
            json!({"range": {"start": {"line": 0, "character": 0}, "end": {"line": 60, "character": 0}}}),
        ),
    ] {
        let mut params = params;
        params["textDocument"] = json!({"uri": uri});
        server.reset_peak();
        let t = Instant::now();
        let v = server.request(method, params)?;
        println!(
            "{method}: {:.2} s ({:.1} MB of answer); {}",
            t.elapsed().as_secs_f64(),
            mb_of(v.to_string().len()),
            server.memory()
        );
    }

    // The middle game's last move: its sign flipped and flipped back.
    let middle = text.len() / 2;
    let next_game = middle + text[middle..].find("\n[Event ").unwrap_or(0);
    let at = text[..next_game].rfind(['<', '>']).ok_or("no move")?;
    let line = text[..at].matches('\n').count();
    let character = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    let sign = &text[at..=at];
    let other = if sign == "<" { ">" } else { "<" };
    let mut version = 1;
    for round in 0..6 {
        version += 1;
        let new = if round % 2 == 0 { other } else { sign };
        let t = Instant::now();
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"range": {"start": {"line": line, "character": character},
                                                 "end": {"line": line, "character": character + 1}},
                                       "text": new}]}),
        )?;
        let n = server.diagnostics(version)?;
        println!(
            "one-character change {} (line {}): {:.1} ms, {n} diagnostics; {}",
            round + 1,
            line + 1,
            t.elapsed().as_secs_f64() * 1e3,
            server.memory()
        );
    }
    let position = json!({"line": line, "character": character});
    let screen = json!({"start": {"line": line.saturating_sub(30), "character": 0},
                        "end": {"line": line + 30, "character": 0}});
    for (method, params) in [
        ("textDocument/hover", json!({"position": position})),
        ("textDocument/completion", json!({"position": position})),
        (
            "textDocument/semanticTokens/range",
            json!({"range": screen}),
        ),
    ] {
        let mut params = params;
        params["textDocument"] = json!({"uri": uri});
        server.reset_peak();
        let t = Instant::now();
        let v = server.request(method, params)?;
        println!(
            "{method} in the middle game: {:.1} ms ({} bytes of answer); {}",
            t.elapsed().as_secs_f64() * 1e3,
            v.to_string().len(),
            server.memory()
        );
    }

    // A whole-document request stopped while it runs: by a cancellation, then by a change.
    for stop in ["$/cancelRequest", "textDocument/didChange"] {
        let id = server.send_request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        )?;
        // Long enough for the server to be inside the request (it takes seconds here).
        std::thread::sleep(Duration::from_millis(300));
        let t = Instant::now();
        if stop == "$/cancelRequest" {
            server.notify(stop, json!({"id": server.next}))?;
        } else {
            version += 1;
            server.notify(
                stop,
                json!({"textDocument": {"uri": uri, "version": version},
                       "contentChanges": [{"range": {"start": position, "end": position},
                                           "text": ""}]}),
            )?;
        }
        let v = server.response(&id)?;
        println!(
            "documentSymbol stopped by {stop}: answered {} in {:.1} ms after it was sent",
            v["error"]["code"],
            t.elapsed().as_secs_f64() * 1e3
        );
    }
    server.diagnostics(version)?;
    server.stop()
}

/// Copies of `fixtures/games/*.bao`, each copy's matches renamed, until `bytes` are reached.
fn archive(bytes: usize) -> Result<String, Failure> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/games");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "bao"))
        .collect();
    files.sort();
    let texts: Vec<String> = files
        .iter()
        .map(std::fs::read_to_string)
        .collect::<Result<_, _>>()?;
    let mut out = String::with_capacity(bytes + (64 << 10));
    let mut copy = 0;
    while out.len() < bytes {
        copy += 1;
        for t in &texts {
            out.push_str(&t.replace("[Match \"", &format!("[Match \"{copy} ")));
            out.push('\n');
        }
    }
    Ok(out)
}

/// The archive's games without their tags, all on one line (issue 33's "tag-less games on
/// one line"): its lines but the tag lines, a `;` comment cut off, joined by spaces.
fn one_line(archive: String) -> String {
    let mut out = String::with_capacity(archive.len());
    for line in archive.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('[') {
            continue;
        }
        let line = line.split(';').next().unwrap_or("").trim_end();
        out.push_str(line);
        out.push(' ');
    }
    out.push('\n');
    out
}

fn mb_of(bytes: usize) -> f64 {
    bytes as f64 / f64::from(1 << 20)
}

/// The `bao lsp` process and the messages it writes.
struct Server {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    messages: Receiver<Message>,
    next: i32,
}

impl Server {
    fn start(bao: &Path) -> Result<Self, Failure> {
        let mut child = Command::new(bao)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{}: {e}", bao.display()))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stdin = BufWriter::new(child.stdin.take().ok_or("no stdin")?);
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            let mut input = BufReader::new(stdout);
            while let Ok(Some(m)) = Message::read(&mut input) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        let mut s = Self {
            child,
            stdin,
            messages,
            next: 0,
        };
        // Inlay hints on (off by default): their replays count too.
        s.request(
            "initialize",
            json!({"processId": null, "capabilities": {}, "initializationOptions": {"inlayHints": true}}),
        )?;
        s.notify("initialized", json!({}))?;
        Ok(s)
    }

    fn send(&mut self, m: &Message) -> Result<(), Failure> {
        m.write(&mut self.stdin)?;
        self.stdin.flush()?;
        Ok(())
    }

    fn notify(&mut self, method: &str, params: Value) -> Result<(), Failure> {
        self.send(&Message::Notification(Notification::new(
            method.to_owned(),
            params,
        )))
    }

    fn request(&mut self, method: &str, params: Value) -> Result<Value, Failure> {
        let id = self.send_request(method, params)?;
        self.response(&id)
    }

    /// Sends a request without waiting for its answer.
    fn send_request(&mut self, method: &str, params: Value) -> Result<RequestId, Failure> {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.send(&Message::Request(Request::new(
            id.clone(),
            method.to_owned(),
            params,
        )))?;
        Ok(id)
    }

    /// The answer to the request `id` (an error as `{"error": ...}`).
    fn response(&mut self, id: &RequestId) -> Result<Value, Failure> {
        loop {
            if let Message::Response(r) = self.messages.recv_timeout(WAIT)? {
                if &r.id == id {
                    return Ok(match r.response_result {
                        Ok(v) => v,
                        Err(e) => json!({"error": {"code": e.code, "message": e.message}}),
                    });
                }
            }
        }
    }

    /// Waits for the diagnostics of `version`; how many there are.
    fn diagnostics(&mut self, version: i32) -> Result<usize, Failure> {
        loop {
            if let Message::Notification(n) = self.messages.recv_timeout(WAIT)? {
                if n.method == "textDocument/publishDiagnostics" && n.params["version"] == version {
                    return Ok(n.params["diagnostics"].as_array().map_or(0, Vec::len));
                }
            }
        }
    }

    /// The server's resident set now and at its peak.
    fn memory(&self) -> String {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
                .map_or_else(|| "?".to_owned(), |kb| format!("{:.0} MB", mb_of(kb << 10)))
        };
        format!("RSS {} (peak {})", field("VmRSS:"), field("VmHWM:"))
    }

    /// Starts the peak (`VmHWM`) anew from the current resident set (`5` to
    /// `/proc/PID/clear_refs`), so that the next step's peak is its own.
    fn reset_peak(&self) {
        // Not every kernel allows it: the peak then stays the run's.
        let _ = std::fs::write(format!("/proc/{}/clear_refs", self.child.id()), "5");
    }

    fn stop(mut self) -> Result<(), Failure> {
        self.request("shutdown", Value::Null)?;
        self.notify("exit", Value::Null)?;
        self.child.wait()?;
        Ok(())
    }
}
