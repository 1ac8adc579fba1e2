//! The server driven in process over `Connection::memory`, as a client drives it: its
//! answers are compared with what `bao check --format json` (with the server's lap budget),
//! `bao legal` and `bao fmt` give for the same text, through the same library calls those
//! commands make.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use bao_lsp::{Config, ServerError};
use bao_notation::{parse_record, write_record, WriteOptions};
use bao_validate::{check_bytes_report, check_full};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};

/// How long a test waits for one answer before it fails.
const WAIT: Duration = Duration::from_secs(60);

struct Client {
    conn: Connection,
    server: Option<JoinHandle<Result<(), ServerError>>>,
    next: i32,
    /// Notifications read while waiting for something else.
    notes: Vec<Notification>,
}

impl Client {
    fn start(options: Value) -> Self {
        Self::start_in(options, Value::Null)
    }

    /// [`Client::start`] with a workspace root (`rootUri`).
    fn start_in(options: Value, root_uri: Value) -> Self {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || bao_lsp::run(&server));
        let mut c = Self {
            conn,
            server: Some(handle),
            next: 0,
            notes: Vec::new(),
        };
        let init = c.request(
            "initialize",
            json!({"processId": null, "rootUri": root_uri, "capabilities": {},
                   "initializationOptions": options}),
        );
        assert!(init["capabilities"]["hoverProvider"]
            .as_bool()
            .unwrap_or(false));
        c.notify("initialized", json!({}));
        c
    }

    fn send_request(&mut self, method: &str, params: Value) -> RequestId {
        self.next += 1;
        let id = RequestId::from(self.next);
        let req = Request::new(id.clone(), method.to_owned(), params);
        self.conn.sender.send(Message::Request(req)).unwrap();
        id
    }

    /// The response to a request: its result, or its error as `{"error": ...}`.
    fn wait_response(&mut self, id: &RequestId) -> Value {
        loop {
            match self.conn.receiver.recv_timeout(WAIT).expect("no answer") {
                Message::Response(r) if &r.id == id => {
                    return match r.response_result {
                        Err(e) => json!({"error": {"code": e.code, "message": e.message}}),
                        Ok(v) => v,
                    };
                }
                Message::Notification(n) => self.notes.push(n),
                _ => {}
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.wait_response(&id)
    }

    /// The code actions of `uri` over `range`, with no diagnostics given.
    fn code_actions(&mut self, uri: &str, range: Value) -> Value {
        self.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": range, "context": {"diagnostics": []}}),
        )
    }

    fn notify(&self, method: &str, params: Value) {
        let n = Notification::new(method.to_owned(), params);
        self.conn.sender.send(Message::Notification(n)).unwrap();
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "bao", "version": 1, "text": text}}),
        );
    }

    /// The diagnostics published for `uri` at `version`.
    fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let matches = |n: &Notification| {
            n.method == "textDocument/publishDiagnostics"
                && n.params["uri"] == uri
                && n.params["version"] == version
        };
        loop {
            if let Some(i) = self.notes.iter().position(matches) {
                let n = self.notes.remove(i);
                return n.params["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
            }
            match self
                .conn
                .receiver
                .recv_timeout(WAIT)
                .expect("no diagnostics")
            {
                Message::Notification(n) => self.notes.push(n),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    fn shutdown(mut self) {
        let v = self.request("shutdown", Value::Null);
        assert!(v.is_null(), "{v}");
        self.notify("exit", Value::Null);
        let handle = self.server.take().unwrap();
        handle.join().unwrap().unwrap();
    }
}

/// A client whose `initialize` says `locale: sw` gets its diagnostics and completion details
/// in Kiswahili (issue 34), with the same codes and ranges as an English one.
#[test]
fn diagnostics_follow_the_clients_locale() {
    let text = "1. A5<* *\n";
    let mut words = Vec::new();
    for locale in ["sw-KE", "en"] {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || bao_lsp::run(&server));
        let mut c = Client {
            conn,
            server: Some(handle),
            next: 0,
            notes: Vec::new(),
        };
        c.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}, "locale": locale}),
        );
        c.notify("initialized", json!({}));
        c.open("file:///t.bao", text);
        let d = c.diagnostics("file:///t.bao", 1);
        assert_eq!(d.len(), 1, "{d:?}");
        // A completion's detail: what the first move of the game does (`A6<*`: a takasa).
        let v = c.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": "file:///t.bao"},
                   "position": {"line": 0, "character": 3}}),
        );
        let detail = v["items"][0]["detail"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        words.push((
            d[0]["code"].clone(),
            d[0]["range"].clone(),
            format!(
                "{} | {detail}",
                d[0]["message"].as_str().unwrap_or_default()
            ),
        ));
        c.shutdown();
    }
    let (sw, en) = (&words[0], &words[1]);
    assert_eq!((&sw.0, &sw.1), (&en.0, &en.1));
    assert!(
        sw.2.contains("si halali") && sw.2.contains("mzunguko"),
        "{}",
        sw.2
    );
    assert!(
        en.2.contains("is illegal") && en.2.contains("lap"),
        "{}",
        en.2
    );
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// The `.bao` files under a directory of the fixtures, sorted.
fn bao_files(dir: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![fixtures().join(dir)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "bao") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn uri_of(p: &Path) -> String {
    format!("file:///{}", p.file_name().unwrap().to_string_lossy())
}

/// Applies LSP edits (UTF-16 positions; the fixtures' edited lines are ASCII) to a text.
fn apply(text: &str, edits: &[Value]) -> String {
    let lines: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let at = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let ch = p["character"].as_u64().unwrap() as usize;
        let start = lines.get(line).copied().unwrap_or(text.len());
        let s = &text[start..];
        let mut units = 0;
        for (i, c) in s.char_indices() {
            if units >= ch || c == '\n' || c == '\r' {
                return start + i;
            }
            units += c.len_utf16();
        }
        text.len()
    };
    let mut edits: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            (
                at(&e["range"]["start"]),
                at(&e["range"]["end"]),
                e["newText"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_owned();
    for (a, b, t) in edits {
        out.replace_range(a..b, &t);
    }
    out
}

/// The range of `line` from UTF-16 column `start` to `end`.
fn on_line(line: usize, start: usize, end: usize) -> Value {
    json!({"start": {"line": line, "character": start}, "end": {"line": line, "character": end}})
}

/// The code action of `acts` whose title `pick` takes (a panic listing them when none).
fn action(acts: &Value, pick: impl Fn(&str) -> bool) -> &Value {
    acts.as_array()
        .unwrap()
        .iter()
        .find(|a| pick(a["title"].as_str().unwrap()))
        .unwrap_or_else(|| panic!("{acts:#}"))
}

/// `text` with the edits of code action `act` to `uri` applied.
fn apply_action(text: &str, act: &Value, uri: &str) -> String {
    apply(text, act["edit"]["changes"][uri].as_array().unwrap())
}

/// What `bao check --format json --lap-budget N` writes for a text: its diagnostic lines.
fn check_json(name: &str, text: &str) -> Vec<Value> {
    let report = check_bytes_report(name, text.as_bytes(), &Config::default().check_options());
    bao_validate::json::report_json(&report)
        .into_iter()
        .filter(|v| v["type"] == "diagnostic")
        .map(|v| v["data"].clone())
        .collect()
}

/// The UTF-16 column of a 1-based character column of a 1-based line.
fn utf16_column(text: &str, line: u64, column: u64) -> u64 {
    let l = text
        .split_inclusive('\n')
        .nth(line as usize - 1)
        .unwrap_or("");
    l.chars()
        .take(column as usize - 1)
        .map(|c| c.len_utf16() as u64)
        .sum()
}

/// Published diagnostics equal the check's: code, severity, message and help, place, link.
fn assert_same(text: &str, published: &[Value], expected: &[Value], what: &str) {
    assert_eq!(
        published.len(),
        expected.len(),
        "{what}: {published:#?}\n{expected:#?}"
    );
    for (p, e) in published.iter().zip(expected) {
        assert_eq!(p["code"], e["code"], "{what}");
        let sev = if e["severity"] == "error" { 1 } else { 2 };
        assert_eq!(p["severity"], sev, "{what}");
        let mut message = e["message"].as_str().unwrap().to_owned();
        if let Some(h) = e["help"].as_str() {
            message.push_str("\nhelp: ");
            message.push_str(h);
        }
        assert_eq!(p["message"], message, "{what}");
        assert_eq!(p["codeDescription"]["href"], e["url"], "{what}");
        if let (Some(line), Some(col)) = (e["line"].as_u64(), e["column"].as_u64()) {
            assert_eq!(
                p["range"]["start"]["line"],
                line - 1,
                "{what}: {}",
                p["code"]
            );
            assert_eq!(
                p["range"]["start"]["character"],
                utf16_column(text, line, col),
                "{what}: {}",
                p["code"]
            );
        }
    }
}

#[test]
fn diagnostics_equal_bao_check_json() {
    let mut c = Client::start(Value::Null);
    let mut files = bao_files("invalid");
    files.extend(bao_files("games"));
    let mut seen = 0;
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue; // not UTF-8: a client gives text, never these bytes
        };
        let uri = uri_of(&f);
        c.open(&uri, &text);
        let published = c.diagnostics(&uri, 1);
        let expected = check_json(&uri, &text);
        seen += expected.len();
        assert_same(&text, &published, &expected, &f.display().to_string());
    }
    assert!(seen > 40, "only {seen} diagnostics compared");
    c.shutdown();
}

/// The legal moves `bao legal` lists for a position, as text.
fn legal(pos: &bao_core::Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    v.sort();
    v
}

fn labels(v: &Value) -> Vec<String> {
    let mut l: Vec<String> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_owned())
        .collect();
    l.sort();
    l
}

fn position_of(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let col: usize = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .map(char::len_utf16)
        .sum();
    json!({"line": line, "character": col})
}

#[test]
fn completion_offers_the_legal_moves_of_bao_legal_captures_first() {
    let path = fixtures().join("games/preset_kiswahili.bao");
    let text = std::fs::read_to_string(&path).unwrap();
    let checked = check_full("x", Arc::from(text.as_str()), &Default::default());
    let main = &checked.replayed[0].main;
    let mut c = Client::start(Value::Null);
    let uri = "file:///k.bao";
    c.open(uri, &text);
    for ply in main.plies.iter().take(24) {
        let v = c.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": position_of(&text, ply.span.start)}),
        );
        assert_eq!(labels(&v), legal(&ply.before), "ply {}", ply.number);
        // Captures first: every item with captures comes before every takasa.
        let details: Vec<&str> = v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["detail"].as_str().unwrap())
            .collect();
        let first_plain = details.iter().position(|d| !d.contains("captures"));
        let last_capture = details.iter().rposition(|d| d.contains("captures"));
        if let (Some(p), Some(l)) = (first_plain, last_capture) {
            assert!(l < p, "ply {}: {details:?}", ply.number);
        }
        // The item replaces the token under the cursor.
        let items = v["items"].as_array().unwrap();
        assert!(items[0]["textEdit"]["range"].is_object());
    }
    // After the last move of a game that goes on: that position's moves.
    let short = "1. A7<* a5> ";
    c.open("file:///s.bao", short);
    let v = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": "file:///s.bao"}, "position": {"line": 0, "character": 12}}),
    );
    let checked = check_full("x", Arc::from(short), &Default::default());
    let after = checked.replayed[0].main.plies[1].played().unwrap().after;
    assert_eq!(labels(&v), legal(&after));
    // In a tag pair: names, then values.
    c.open("file:///t.bao", "[Ter\n[RuleSet \"\n[Termination \"re\n");
    let names = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": "file:///t.bao"}, "position": {"line": 0, "character": 4}}),
    );
    assert!(labels(&names).contains(&"Termination".to_owned()));
    let presets = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": "file:///t.bao"}, "position": {"line": 1, "character": 10}}),
    );
    assert!(labels(&presets).contains(&"abstractplay-kujifunza".to_owned()));
    let ends = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": "file:///t.bao"}, "position": {"line": 2, "character": 16}}),
    );
    assert!(labels(&ends).contains(&"resignation".to_owned()));
    // In a record written in K.I.B.A. letters the moves are offered in them.
    let kiba = "1. A7L* a5R ";
    c.open("file:///kiba.bao", kiba);
    let v = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": "file:///kiba.bao"}, "position": {"line": 0, "character": 12}}),
    );
    let offered = labels(&v);
    assert!(!offered.is_empty());
    assert!(
        offered
            .iter()
            .all(|l| l.contains(['L', 'R']) && !l.contains(['<', '>'])),
        "{offered:?}"
    );
    c.shutdown();
}

/// The main line of `games/preset_kiswahili.bao` written from South's seat (North's signs
/// flipped), its first `plies` moves, as a record under `[Directions "south"]`.
fn south_record(plies: usize) -> (String, Vec<String>) {
    let game = std::fs::read_to_string(fixtures().join("games/preset_kiswahili.bao")).unwrap();
    let parsed = parse_record(&game);
    let mut moves = Vec::new();
    for m in parsed.record.games[0].value.main_line().take(plies) {
        let t = m.token.value.to_string();
        moves.push(if t.starts_with(['a', 'b']) {
            t.replace('<', "L").replace('>', "<").replace('L', ">")
        } else {
            t
        });
    }
    let head = "[Event \"south\"]\n[Directions \"south\"]\n\n".to_owned();
    (head, moves)
}

/// Movetext of the first `n` moves, numbered.
fn movetext(moves: &[String], n: usize) -> String {
    let mut s = String::new();
    for (i, m) in moves.iter().take(n).enumerate() {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(m);
        s.push(' ');
    }
    s
}

#[test]
fn completion_in_a_directions_south_record_writes_its_signs() {
    let (head, moves) = south_record(16);
    let whole = format!("{head}{}*\n", movetext(&moves, moves.len()));
    assert_eq!(check_json("d", &whole), Vec::<Value>::new(), "{whole}");
    let mut c = Client::start(Value::Null);
    let mut flipped = 0;
    for ply in 0..moves.len() {
        // The record up to this ply, the cursor where its move is written.
        let before = format!("{head}{}", movetext(&moves, ply));
        let before = if ply % 2 == 0 {
            format!("{before}{}. ", ply / 2 + 1)
        } else {
            before
        };
        let text = format!("{before}*\n");
        let uri = format!("file:///south{ply}.bao");
        c.open(&uri, &text);
        let v = c.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": position_of(&text, before.len())}),
        );
        let offered = labels(&v);
        // The move the record writes here is offered as written.
        assert!(offered.contains(&moves[ply]), "ply {ply}: {offered:?}");
        // Every item accepted gives a record that checks clean, and the items are the
        // position's legal moves, each once.
        let checked = check_full("x", Arc::from(text.as_str()), &Default::default());
        let pos = match checked.replayed[0].main.plies.last() {
            Some(p) => p.played().unwrap().after,
            None => checked.replayed[0].opening().unwrap().start,
        };
        let mut played = Vec::new();
        for label in &offered {
            let new = format!("{before}{label} *\n");
            assert_eq!(check_json("d", &new), Vec::<Value>::new(), "{label}: {new}");
            let checked = check_full("x", Arc::from(new.as_str()), &Default::default());
            let last = checked.replayed[0].main.plies.last().unwrap();
            played.push(last.played().unwrap().mv.to_string());
        }
        played.sort();
        assert_eq!(played, legal(&pos), "ply {ply}");
        if pos.to_move() == bao_core::Side::North {
            flipped += usize::from(offered != legal(&pos));
        }
        // Accepted in the editor: the published diagnostics are none.
        let label = &offered[0];
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2},
                   "contentChanges": [{"range": {"start": position_of(&text, before.len()),
                                                 "end": position_of(&text, before.len())},
                                       "text": format!("{label} ")}]}),
        );
        assert_eq!(
            c.diagnostics(&uri, 2),
            Vec::<Value>::new(),
            "ply {ply}: {label}"
        );
    }
    // North's moves were offered with South's signs, not the mover's.
    assert!(flipped > 0);
    // A hover on North's move shows it as written, the mover's sign beside it.
    c.open("file:///whole.bao", &whole);
    let second = whole.find(&format!(" {} ", moves[1])).unwrap() + 1;
    let h = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///whole.bao"}, "position": position_of(&whole, second)}),
    );
    let md = h["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("{h}"));
    assert!(md.contains(&format!(": `{}` (`", moves[1])), "{md}");
    c.shutdown();
}

#[test]
fn hover_shows_the_board_the_trace_the_alternatives_tags_and_rules() {
    let text = "[Event \"x\"]\n[RuleSet \"kiswahili\"]\n\n1. A7<* a5> 2. A1<* *\n";
    let mut c = Client::start(Value::Null);
    let uri = "file:///h.bao";
    c.open(uri, text);
    let at = |line, character| json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
    let h = c.request("textDocument/hover", at(3, 4));
    let md = h["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("{h}"));
    assert!(md.contains("```text"), "{md}");
    assert!(
        md.contains("South (to move)") || md.contains("North (to move)"),
        "{md}"
    );
    assert!(md.contains("lap"), "{md}");
    assert!(
        md.contains("Other legal moves: `A6<*` `A6>*` `A7>*`"),
        "{md}"
    );
    let tag = c.request("textDocument/hover", at(1, 2));
    assert!(tag["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("preset"));
    // On the illegal move: its diagnostic's code, help and rule.
    let bad = c.request("textDocument/hover", at(3, 16));
    let md = bad["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("{bad}"));
    assert!(md.contains("bao::illegal::"), "{md}");
    assert!(md.contains("[The rule](https://"), "{md}");
    // Nothing past the end.
    assert!(c.request("textDocument/hover", at(99, 0)).is_null());
    c.shutdown();
}

#[test]
fn code_actions_repair_the_slips() {
    let mut c = Client::start(Value::Null);
    let mut repaired = 0;
    for f in bao_files("invalid/illegal")
        .into_iter()
        .chain(bao_files("invalid/repair"))
    {
        let text = std::fs::read_to_string(&f).unwrap();
        let uri = uri_of(&f);
        c.open(&uri, &text);
        let published = c.diagnostics(&uri, 1);
        let expected = check_json(&uri, &text);
        for (p, e) in published.iter().zip(&expected) {
            if e["fix"].is_null() && e["repair"].is_null() {
                continue;
            }
            let acts = c.request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": uri}, "range": p["range"],
                       "context": {"diagnostics": [p]}}),
            );
            let fix = acts
                .as_array()
                .unwrap()
                .iter()
                .find(|a| a["isPreferred"] == true)
                .unwrap_or_else(|| panic!("{}: no repair in {acts:#}", f.display()));
            let edits = fix["edit"]["changes"][&uri].as_array().unwrap();
            let new = apply(&text, edits);
            let before = expected.iter().filter(|d| d["severity"] == "error").count();
            let after = check_json(&uri, &new)
                .iter()
                .filter(|d| d["severity"] == "error")
                .count();
            assert!(after < before, "{}: {new}", f.display());
            if let Some(m) = e["fix"].as_str() {
                assert!(new.contains(m), "{}", f.display());
            }
            repaired += 1;
        }
    }
    assert!(repaired >= 5, "only {repaired} repairs");
    c.shutdown();
}

#[test]
fn game_actions_insert_the_result_set_directions_and_annotate() {
    let mut c = Client::start(Value::Null);
    // A game that ends (fixtures/games/short_bao_hamna.bao) without its result.
    let full = std::fs::read_to_string(fixtures().join("games/short_bao_hamna.bao")).unwrap();
    let parsed = parse_record(&full);
    let game = &parsed.record.games[0];
    let result = game.value.result.as_ref().unwrap();
    let mut text = full.clone();
    text.replace_range(result.span.start..result.span.end, "*");
    text = text
        .replace("[Result \"1-0\"]", "[Result \"*\"]")
        .replace("[Result \"0-1\"]", "[Result \"*\"]");
    c.open("file:///r.bao", &text);
    let acts = c.code_actions("file:///r.bao", on_line(0, 0, 0));
    let insert = action(&acts, |t| t.starts_with("Insert the result"));
    let new = apply_action(&text, insert, "file:///r.bao");
    assert!(
        check_json("r", &new)
            .iter()
            .all(|d| !d["code"].as_str().unwrap().contains("result")),
        "{new}"
    );
    // The engine's annotations of the game, on the game with its annotations taken out:
    // they come back where they were, the rest of the text as written.
    assert!(!acts
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["title"] == "Add the engine's annotations to this game"));
    let mut bare = text.clone();
    let spans: Vec<_> = parse_record(&text).record.games[0]
        .value
        .main_line()
        .filter_map(|m| m.annotation.as_ref().map(|a| a.span))
        .collect();
    for s in spans.iter().rev() {
        bare.replace_range(s.start - 1..s.end, "");
    }
    c.open("file:///b.bao", &bare);
    let acts = c.code_actions("file:///b.bao", on_line(0, 0, 0));
    let annotate = action(&acts, |t| t == "Add the engine's annotations to this game");
    let new = apply_action(&bare, annotate, "file:///b.bao");
    assert_eq!(new, text);
    // Signs written from South's seat (North's flipped): Directions set to south.
    let game = std::fs::read_to_string(fixtures().join("games/preset_kiswahili.bao")).unwrap();
    let parsed = parse_record(&game);
    let mut south = String::from("[Event \"south\"]\n\n");
    for (i, m) in parsed.record.games[0]
        .value
        .main_line()
        .take(20)
        .enumerate()
    {
        let t = m.token.value.to_string();
        let t = if t.starts_with(['a', 'b']) {
            t.replace('<', "L").replace('>', "<").replace('L', ">")
        } else {
            t
        };
        if i % 2 == 0 {
            south.push_str(&format!("{}. ", i / 2 + 1));
        }
        south.push_str(&t);
        south.push(' ');
    }
    south.push_str("*\n");
    assert!(check_json("d", &south)
        .iter()
        .any(|d| d["severity"] == "error"));
    c.open("file:///d.bao", &south);
    let acts = c.code_actions("file:///d.bao", on_line(0, 0, 0));
    let set = action(&acts, |t| t.starts_with("Set [Directions \"south\"]"));
    let new = apply_action(&south, set, "file:///d.bao");
    assert!(new.contains("\n[Directions \"south\"]\n"), "{new}");
    assert!(
        check_json("d", &new)
            .iter()
            .all(|d| d["severity"] != "error"),
        "{new}"
    );
    c.shutdown();
}

#[test]
fn formatting_equals_bao_fmt() {
    let mut c = Client::start(Value::Null);
    let mut files = bao_files("format");
    files.extend(bao_files("games"));
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let uri = uri_of(&f);
        c.open(&uri, &text);
        let v = c.request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
        );
        let parsed = parse_record(&text);
        if parsed.has_errors() {
            assert!(v.is_null(), "{}", f.display());
            continue;
        }
        let fmt = write_record(&parsed.record, &WriteOptions::default());
        assert_eq!(apply(&text, v.as_array().unwrap()), fmt, "{}", f.display());
    }
    c.shutdown();
}

#[test]
fn typing_a_game_move_by_move_keeps_the_diagnostics_right() {
    let path = fixtures().join("games/random_kiswahili_3.bao");
    let full = std::fs::read_to_string(&path).unwrap();
    let parsed = parse_record(&full);
    let game = &parsed.record.games[0].value;
    let moves: Vec<String> = game
        .main_line()
        .take(30)
        .map(|m| m.token.value.to_string())
        .collect();
    let mut c = Client::start(Value::Null);
    let uri = "file:///typing.bao";
    let mut text = String::from("[Event \"typed\"]\n\n");
    c.open(uri, &text);
    c.diagnostics(uri, 1);
    let mut version = 1;
    let mut change = |c: &mut Client, text: &mut String, insert: &str, delete: usize| {
        version += 1;
        let end = position_of(text, text.len());
        let start = position_of(text, text.len() - delete);
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"range": {"start": start, "end": end}, "text": insert}]}),
        );
        let len = text.len();
        text.replace_range(len - delete..len, insert);
        version
    };
    for (i, mv) in moves.iter().enumerate() {
        let piece = if i % 2 == 0 {
            format!("{}. {mv} ", i / 2 + 1)
        } else {
            format!("{mv} ")
        };
        // Typed one character at a time.
        let mut last = 0;
        for ch in piece.chars() {
            last = change(&mut c, &mut text, &ch.to_string(), 0);
        }
        let published = c.diagnostics(uri, i64::from(last));
        assert_same(
            &text,
            &published,
            &check_json(uri, &text),
            &format!("after {mv}"),
        );
        // Only the final version's diagnostics follow (earlier ones may have been published).
        c.notes.clear();
    }
    // A slip, then taken back.
    let v = change(&mut c, &mut text, "B9< ", 0);
    let published = c.diagnostics(uri, i64::from(v));
    assert!(!published.is_empty());
    assert_same(&text, &published, &check_json(uri, &text), "slip");
    let v = change(&mut c, &mut text, "", 4);
    let published = c.diagnostics(uri, i64::from(v));
    assert_same(&text, &published, &check_json(uri, &text), "taken back");
    c.shutdown();
}

#[test]
fn cancelled_requests_and_stale_changes_are_dropped() {
    let mut c = Client::start(Value::Null);
    let game = std::fs::read_to_string(fixtures().join("games/preset_kiswahili.bao")).unwrap();
    let big: String = game.repeat(400);
    let uri = "file:///big.bao";
    c.open(uri, &big);
    // The server is busy checking the file: these two arrive together.
    let id = c.send_request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 9, "character": 4}}),
    );
    c.notify("$/cancelRequest", json!({"id": c.next}));
    let v = c.wait_response(&id);
    // Cancelled, unless the server read the request before the cancellation arrived.
    assert!(
        v["error"]["code"] == -32800 || v["contents"].is_object(),
        "{v}"
    );
    c.diagnostics(uri, 1);
    // A change older than the text held is dropped.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 0},
               "contentChanges": [{"text": "garbage"}]}),
    );
    let f = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert!(f.is_array(), "the stale change was applied: {f}");
    c.shutdown();
}

/// Requests and notifications queued together before the server reads any: it reads them
/// in one batch (deterministic, no timing).
#[test]
fn a_request_cancelled_or_outdated_in_its_batch_is_answered_so_and_the_server_goes_on() {
    let (server, conn) = Connection::memory();
    let mut c = Client {
        conn,
        server: None,
        next: 0,
        notes: Vec::new(),
    };
    let init = c.send_request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    let game = std::fs::read_to_string(fixtures().join("games/preset_kiswahili.bao")).unwrap();
    let uri = "file:///batch.bao";
    c.open(uri, &game.repeat(20));
    let doc = json!({"textDocument": {"uri": uri}});
    // Cancelled by the client.
    let symbols = c.send_request("textDocument/documentSymbol", doc.clone());
    c.notify("$/cancelRequest", json!({"id": c.next}));
    // Its document changes behind it: its answer would be stale.
    let folding = c.send_request("textDocument/foldingRange", doc.clone());
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"text": game}]}),
    );
    // Neither: answered, on the changed text.
    let after = c.send_request("textDocument/documentSymbol", doc);
    c.server = Some(std::thread::spawn(move || bao_lsp::run(&server)));
    assert!(c.wait_response(&init)["capabilities"].is_object());
    assert_eq!(c.wait_response(&symbols)["error"]["code"], -32800);
    assert_eq!(c.wait_response(&folding)["error"]["code"], -32801);
    let games = c.wait_response(&after);
    assert_eq!(games.as_array().map(Vec::len), Some(1), "{games}");
    // Only the last version's diagnostics are published, and the server goes on.
    assert!(c.diagnostics(uri, 2).is_empty());
    assert!(!c.notes.iter().any(|n| n.params["version"] == 1));
    let f = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert!(f.is_array(), "{f}");
    c.shutdown();
}

#[test]
fn symbols_folding_tokens_and_hints() {
    let text = std::fs::read_to_string(fixtures().join("games/variations_comments.bao")).unwrap();
    let m = std::fs::read_to_string(fixtures().join("games/match_best_of_three.bao")).unwrap();
    let mut c = Client::start(json!({"inlayHints": true}));
    c.open("file:///v.bao", &text);
    c.open("file:///m.bao", &m);
    let doc = |u: &str| json!({"textDocument": {"uri": u}});
    let syms = c.request("textDocument/documentSymbol", doc("file:///m.bao"));
    let games = parse_record(&m).record.games.len();
    assert_eq!(syms.as_array().unwrap().len(), games, "{syms:#}");
    assert!(syms[0]["name"].as_str().unwrap().contains('–'), "{syms:#}");
    let folds = c.request("textDocument/foldingRange", doc("file:///v.bao"));
    assert!(!folds.as_array().unwrap().is_empty());
    let tokens = c.request("textDocument/semanticTokens/full", doc("file:///v.bao"));
    let data = tokens["data"].as_array().unwrap();
    assert!(data.len() >= 5 * 10 && data.len().is_multiple_of(5));
    // The first token is the first tag's name.
    let first_tag = text.find('[').unwrap();
    let p = position_of(&text, first_tag + 1);
    assert_eq!(data[0], p["line"]);
    assert_eq!(data[1], p["character"]);
    assert_eq!(data[3], 0);
    let mut params = doc("file:///v.bao");
    params["range"] =
        json!({"start": {"line": 0, "character": 0}, "end": {"line": 999, "character": 0}});
    let hints = c.request("textDocument/inlayHint", params.clone());
    assert!(hints
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h["label"].as_str().unwrap().contains("lap")));
    c.shutdown();
    // Off by default.
    let mut c = Client::start(Value::Null);
    c.open("file:///v.bao", &text);
    let hints = c.request("textDocument/inlayHint", params);
    assert_eq!(hints, json!([]));
    c.shutdown();
}

/// Semantic tokens decoded to absolute places: (line, character, length, type).
fn absolute_tokens(data: &Value) -> Vec<[u64; 4]> {
    let data: Vec<u64> = data["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert_eq!(data.len() % 5, 0);
    let (mut line, mut ch) = (0, 0);
    data.chunks(5)
        .map(|t| {
            if t[0] > 0 {
                ch = 0;
            }
            line += t[0];
            ch += t[1];
            [line, ch, t[2], t[3]]
        })
        .collect()
}

#[test]
fn range_tokens_are_the_slice_of_the_full_tokens_and_full_has_a_limit() {
    // Several games: variations, comments, NAGs, matches, a game with a BOM after it.
    let mut text = String::new();
    for f in [
        "games/variations_comments.bao",
        "games/match_best_of_three.bao",
        "invalid/repair/swapped_moves.bao",
        "games/random_kiswahili_3.bao",
    ] {
        text.push_str(&std::fs::read_to_string(fixtures().join(f)).unwrap());
        text.push('\n');
    }
    text.push_str("\u{feff}[Event \"é\"]\n\n1. A6<* {ü} a6>* *\n");
    let lines = text.lines().count() as u64;
    let mut c = Client::start(Value::Null);
    c.open("file:///t.bao", &text);
    let doc = json!({"textDocument": {"uri": "file:///t.bao"}});
    let full = absolute_tokens(&c.request("textDocument/semanticTokens/full", doc.clone()));
    assert!(full.len() > 100, "{}", full.len());
    let mut seen = 0;
    for (a, b) in [
        (0, lines + 5),
        (0, 1),
        (3, 9),
        (10, 11),
        (17, 40),
        (lines - 3, lines),
    ]
    .into_iter()
    .chain((0..lines).step_by(7).map(|l| (l, l + 5)))
    {
        let mut params = doc.clone();
        params["range"] =
            json!({"start": {"line": a, "character": 0}, "end": {"line": b, "character": 0}});
        let got = absolute_tokens(&c.request("textDocument/semanticTokens/range", params));
        // Tokens are one line each: those on lines a..b.
        let want: Vec<[u64; 4]> = full
            .iter()
            .filter(|t| t[0] >= a && t[0] < b)
            .copied()
            .collect();
        assert_eq!(got, want, "lines {a}..{b}");
        seen += got.len();
    }
    assert!(seen > full.len());
    // A range inside a line: the tokens that overlap it.
    let t = full[full.len() / 2..]
        .iter()
        .copied()
        .find(|t| t[2] >= 2)
        .unwrap();
    let line = t[0];
    let mut params = doc.clone();
    params["range"] = json!({"start": {"line": line, "character": t[1] + 1},
                            "end": {"line": line, "character": t[1] + 1}});
    let got = absolute_tokens(&c.request("textDocument/semanticTokens/range", params));
    assert_eq!(got, vec![t]);
    c.shutdown();

    // Over the limit, a whole answer is refused as ServerCancelled; ranges are answered.
    let mut c = Client::start(json!({"semanticTokensFullLimit": text.len() - 1}));
    c.open("file:///t.bao", &text);
    let refused = c.request("textDocument/semanticTokens/full", doc.clone());
    assert_eq!(refused["error"]["code"], json!(-32802), "{refused}");
    let mut params = doc.clone();
    params["range"] =
        json!({"start": {"line": 0, "character": 0}, "end": {"line": lines + 1, "character": 0}});
    let got = absolute_tokens(&c.request("textDocument/semanticTokens/range", params));
    assert_eq!(got, full);
    c.shutdown();
    assert_eq!(
        bao_lsp::SEMANTIC_TOKENS_FULL_LIMIT,
        Config::default().semantic_tokens_full_limit
    );
}

/// `v` with every position on the first line one UTF-16 unit further right (where the
/// same text with a byte order mark before it has them).
fn after_a_mark(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut out: serde_json::Map<String, Value> = o
                .iter()
                .map(|(k, x)| (k.clone(), after_a_mark(x)))
                .collect();
            if o.get("line") == Some(&json!(0)) {
                if let Some(ch) = o.get("character").and_then(Value::as_u64) {
                    out.insert("character".to_owned(), json!(ch + 1));
                }
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(after_a_mark).collect()),
        other => other.clone(),
    }
}

#[test]
fn a_byte_order_mark_keeps_positions_and_edits_right() {
    // Movetext on the first line (a slip in it), a second game after it; the same text
    // with a byte order mark (U+FEFF, one UTF-16 unit) before it.
    let plain = "1. A7<* a5> 2. A1<* *\n\n[Event \"two\"]\n\n1. A6<* a6< *\n";
    let marked = format!("\u{feff}{plain}");
    let mut c = Client::start(Value::Null);
    c.open("file:///plain.bao", plain);
    c.open("file:///marked.bao", &marked);
    let d_plain = c.diagnostics("file:///plain.bao", 1);
    let d_marked = c.diagnostics("file:///marked.bao", 1);
    assert!(!d_plain.is_empty());
    // The plain text's answer, moved as the mark moves it and named as the marked text.
    let same = |plain: &Value, marked: &Value, what: &str| {
        let moved = after_a_mark(plain)
            .to_string()
            .replace("file:///plain.bao", "file:///marked.bao");
        let expected: Value = serde_json::from_str(&moved).unwrap();
        assert_eq!(marked, &expected, "{what}");
    };
    same(&json!(d_plain), &json!(d_marked), "diagnostics");
    // And as `bao check` places them in the marked text.
    assert_same(
        &marked,
        &d_marked,
        &check_json("file:///marked.bao", &marked),
        "check",
    );
    let ask = |c: &mut Client, method: &str, uri: &str, params: Value| {
        let mut p = params;
        p["textDocument"] = json!({"uri": uri});
        c.request(method, p)
    };
    // Hover, completion and code actions at each character of the first line.
    let first = plain.lines().next().unwrap().len();
    let mut edits = 0;
    for ch in 0..=first as u64 {
        let at = json!({"position": {"line": 0, "character": ch}});
        let at_marked = json!({"position": {"line": 0, "character": ch + 1}});
        for method in ["textDocument/hover", "textDocument/completion"] {
            let p = ask(&mut c, method, "file:///plain.bao", at.clone());
            let m = ask(&mut c, method, "file:///marked.bao", at_marked.clone());
            same(&p, &m, &format!("{method} at {ch}"));
        }
        let range = |n: u64| json!({"start": {"line": 0, "character": n}, "end": {"line": 0, "character": n}});
        let p = ask(
            &mut c,
            "textDocument/codeAction",
            "file:///plain.bao",
            json!({"range": range(ch), "context": {"diagnostics": d_plain}}),
        );
        let m = ask(
            &mut c,
            "textDocument/codeAction",
            "file:///marked.bao",
            json!({"range": range(ch + 1), "context": {"diagnostics": d_marked}}),
        );
        same(&p, &m, &format!("code actions at {ch}"));
        // Each edit applied to the marked text gives the plain text's result, marked.
        for a in m.as_array().into_iter().flatten() {
            if let Some(changes) = a["edit"]["changes"]["file:///marked.bao"].as_array() {
                let pa = p
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|x| x["title"] == a["title"])
                    .unwrap();
                let pc = pa["edit"]["changes"]["file:///plain.bao"]
                    .as_array()
                    .unwrap();
                assert_eq!(
                    apply(&marked, changes),
                    format!("\u{feff}{}", apply(plain, pc))
                );
                edits += 1;
            }
        }
    }
    assert!(edits > 0);
    // A change on the first line: the diagnostics follow, placed as in the plain text.
    for (uri, shift) in [("file:///plain.bao", 0), ("file:///marked.bao", 1)] {
        let at = |n: u64| json!({"line": 0, "character": n + shift});
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2},
                   "contentChanges": [{"range": {"start": at(15), "end": at(16)}, "text": "B"}]}),
        );
    }
    let d_plain = c.diagnostics("file:///plain.bao", 2);
    let d_marked = c.diagnostics("file:///marked.bao", 2);
    same(
        &json!(d_plain),
        &json!(d_marked),
        "diagnostics after a change",
    );
    let changed = format!("\u{feff}{}B{}", &plain[..15], &plain[16..]);
    assert_same(
        &changed,
        &d_marked,
        &check_json("file:///marked.bao", &changed),
        "check after a change",
    );
    c.shutdown();
}

#[test]
fn hostile_input_gives_an_error_or_nothing() {
    let mut c = Client::start(Value::Null);
    // 100,000 nested variations.
    let nested = format!(
        "1. A6<* {}a6>*{} *\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    c.open("file:///n.bao", &nested);
    let d = c.diagnostics("file:///n.bao", 1);
    assert!(!d.is_empty());
    for method in ["textDocument/hover", "textDocument/completion"] {
        let v = c.request(
            method,
            json!({"textDocument": {"uri": "file:///n.bao"}, "position": {"line": 0, "character": 50_000}}),
        );
        assert!(v.get("error").is_none(), "{v}");
    }
    let folds = c.request(
        "textDocument/foldingRange",
        json!({"textDocument": {"uri": "file:///n.bao"}}),
    );
    assert!(folds.is_array());
    // Positions past the end: nothing; a change past the end: clamped.
    let past =
        json!({"textDocument": {"uri": "file:///n.bao"}, "position": {"line": 7, "character": 99}});
    assert!(c.request("textDocument/hover", past.clone()).is_null());
    assert!(c.request("textDocument/completion", past).is_null());
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": "file:///n.bao", "version": 2},
               "contentChanges": [{"range": {"start": {"line": 40, "character": 3}, "end": {"line": 99, "character": 0}},
                                   "text": "\u{FFFD}\u{1F600}"}]}),
    );
    c.diagnostics("file:///n.bao", 2);
    // A request for a document never opened, and unknown methods: errors.
    let v = c.request("textDocument/hover", json!({"textDocument": {"uri": "file:///none.bao"}, "position": {"line": 0, "character": 0}}));
    assert!(v["error"].is_object());
    let v = c.request("bao/unknown", json!({}));
    assert!(v["error"].is_object());
    let v = c.request("textDocument/hover", json!({"nonsense": true}));
    assert!(v["error"].is_object());
    // A 10 MB file.
    let game = std::fs::read_to_string(fixtures().join("games/random_kiswahili_3.bao")).unwrap();
    let big = game.repeat(10 * 1024 * 1024 / game.len() + 1);
    assert!(big.len() >= 10 * 1024 * 1024);
    c.open("file:///big.bao", &big);
    c.diagnostics("file:///big.bao", 1);
    let v = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///big.bao"}, "position": {"line": 4, "character": 4}}),
    );
    assert!(v["contents"].is_object(), "{v}");
    // Its semantic tokens: whole refused (over the limit), by range given.
    let doc = json!({"textDocument": {"uri": "file:///big.bao"}});
    let v = c.request("textDocument/semanticTokens/full", doc.clone());
    assert_eq!(v["error"]["code"], json!(-32802), "{v}");
    let mut params = doc;
    params["range"] = json!({"start": {"line": 100_000, "character": 0}, "end": {"line": 100_060, "character": 0}});
    let v = c.request("textDocument/semanticTokens/range", params);
    assert!(
        v["data"].as_array().is_some_and(|d| d.len() > 5 * 60),
        "{v}"
    );
    c.shutdown();
}

/// In a `[Directions "south"]` record an inserted ply is written as the record writes
/// North's moves (South's frame), as `bao check --fix` inserts it: North's `a6<` is `a6>`.
#[test]
fn an_insertion_is_written_in_the_records_sign_convention() {
    let mut c = Client::start(Value::Null);
    let text = "[Event \"t\"]\n[Directions \"south\"]\n\n1. A7>* a7>* 2. A5< a6>* 3. A6< a4> \
                4. A6> A5> 5. a5< 6. A2< a5< 7. A7> a5> 8. A6< *\n";
    c.open("file:///s.bao", text);
    let line = 3;
    let at = text.lines().nth(line).unwrap().find("A5>").unwrap();
    let acts = c.code_actions("file:///s.bao", on_line(line, at, at + 3));
    let insert = action(&acts, |t| t.starts_with("Insert "));
    assert_eq!(insert["title"], "Insert a6> before A5>");
    let new = apply_action(text, insert, "file:///s.bao");
    // The numbers the insertion shifts are renumbered in the same change: the record
    // checks clean.
    assert_eq!(check_json("s", &new), Vec::<Value>::new(), "{new}");
    assert!(new.contains("4. A6> a6> A5> 5... a5<"), "{new}");
    c.shutdown();
}

#[test]
fn a_wrong_move_number_is_renumbered_by_its_quick_fix() {
    let mut c = Client::start(Value::Null);
    let text = "[Event \"t\"]\n\n1. A6L* a6R 3. A4R a6R 7... A5L a3R *\n";
    c.open("file:///n.bao", text);
    let published = c.diagnostics("file:///n.bao", 1);
    assert_eq!(published.len(), 2, "{published:#?}");
    let mut new = text.to_owned();
    // The later number first, so that the earlier edit's offsets stay right.
    for p in published.iter().rev() {
        let acts = c.code_actions("file:///n.bao", p["range"].clone());
        let fix = action(&acts, |t| t.starts_with("Renumber "));
        new = apply_action(&new, fix, "file:///n.bao");
    }
    assert_eq!(
        new,
        "[Event \"t\"]\n\n1. A6L* a6R 2. A4R a6R 3. A5L a3R *\n"
    );
    assert!(check_json("n", &new).is_empty(), "{new}");
    c.shutdown();
}

/// `exit` without `shutdown` before it ends the server with the protocol's exit code 1
/// (`ServerError::ExitWithoutShutdown`); after `shutdown`, `exit` ends it cleanly.
#[test]
fn exit_without_shutdown_is_an_error() {
    let mut c = Client::start(json!({}));
    c.notify("exit", Value::Null);
    let ended = c.server.take().unwrap().join().unwrap();
    assert!(
        matches!(ended, Err(ServerError::ExitWithoutShutdown)),
        "{ended:?}"
    );
    let mut c = Client::start(json!({}));
    c.request("shutdown", Value::Null);
    c.notify("exit", Value::Null);
    assert!(c.server.take().unwrap().join().unwrap().is_ok());
}

/// `bao/boardAt` on de Voogt's problem 3 with two slips (`2. A4L` for `A4R`, legal, so ply 5
/// is the first illegal one; `8... a3L` for `a4L`): the boards before and after a ply played
/// as written, after the first illegal ply (replayed from the repair `--assume-fixes`
/// assumes), and at an illegal ply (its repair); hover works after the error too.
#[test]
fn board_at_follows_the_cursor_across_an_illegal_ply() {
    let text = std::fs::read_to_string(fixtures().join("assume_fixes/two_slips.bao")).unwrap();
    let mut c = Client::start(json!({}));
    let uri = "file:///two_slips.bao";
    c.open(uri, &text);
    let at = |needle: &str| {
        let i = text.find(needle).unwrap_or_else(|| panic!("{needle}"));
        json!({"textDocument": {"uri": uri}, "position": position_of(&text, i)})
    };
    // The first move: played as written.
    let b = c.request("bao/boardAt", at("A6L*"));
    assert_eq!(b["ply"], 1, "{b}");
    assert_eq!(b["mover"], "South");
    assert_eq!(b["legal"], true);
    assert_eq!(b["played"], "A6L*");
    assert!(b["assumes"].is_null());
    assert!(b["before"]["text"].as_str().unwrap().contains('A'));
    assert!(b["after"]["svg"].as_str().unwrap().contains("<svg"), "{b}");
    assert_ne!(b["before"]["position"], b["after"]["position"]);
    // Ply 5, illegal after the slip at ply 3: played as written from the repair there.
    let b = c.request("bao/boardAt", at("A5L a3R"));
    assert_eq!(
        (b["ply"].as_u64(), b["legal"].as_bool()),
        (Some(5), Some(false)),
        "{b}"
    );
    assert_eq!(b["repaired"], false);
    assert_eq!(b["played"], "A5L");
    assert_eq!(b["assumes"], json!({"ply": 3, "move": "A4R"}));
    assert!(b["after"]["text"].is_string());
    // The next ply goes on from there.
    let next = c.request("bao/boardAt", at("a3R 4."));
    assert_eq!(next["ply"], 6, "{next}");
    assert_eq!(next["before"]["position"], b["after"]["position"]);
    // Ply 16, the second slip: its repair is played here.
    let b = c.request("bao/boardAt", at("a3L 9."));
    assert_eq!(b["ply"], 16, "{b}");
    assert_eq!(
        (b["legal"].as_bool(), b["repaired"].as_bool()),
        (Some(false), Some(true))
    );
    assert_eq!(b["played"], "a4L");
    assert_eq!(b["assumes"]["ply"], 3);
    // Off a move: null.
    assert!(c.request("bao/boardAt", at("[Event")).is_null());
    // Hover after the error shows the board there.
    let h = c.request("textDocument/hover", at("a3R 4."));
    let h = h["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(h.contains("```text") && h.contains("--assume-fixes"), "{h}");
    c.shutdown();
}

/// `documentHighlight` on a move: the same pit in every move of its game (variations too),
/// a number-only pit by the pit it is played from; nothing of another game.
#[test]
fn document_highlight_marks_the_same_pit_in_the_game() {
    let text = "[Event \"a\"]\n\n1. A6<* a6>* 2. A6< (A5<) a6< *\n\n[Event \"b\"]\n\n1. A6<* *\n";
    let mut c = Client::start(json!({}));
    let uri = "file:///highlight.bao";
    c.open(uri, text);
    let h = c.request(
        "textDocument/documentHighlight",
        json!({"textDocument": {"uri": uri}, "position": position_of(text, text.find("A6<*").unwrap() + 1)}),
    );
    let got: Vec<(u64, u64, u64)> = h
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let s = &r["range"]["start"];
            let e = &r["range"]["end"];
            assert_eq!(s["line"], e["line"]);
            (
                s["line"].as_u64().unwrap(),
                s["character"].as_u64().unwrap(),
                e["character"].as_u64().unwrap(),
            )
        })
        .collect();
    // A6 at ply 1 and ply 3 of the first game (line 2), not A5, a6, nor the second game's.
    assert_eq!(got, [(2, 3, 5), (2, 16, 18)], "{h}");
    // Off a move: null.
    let off = c.request(
        "textDocument/documentHighlight",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2}}),
    );
    assert!(off.is_null(), "{off}");
    c.shutdown();
}

/// A workspace of three files: two on disk, one open with changes not saved. Its symbols
/// (games by players, event and date), the references of a player (both seats, the open
/// text rather than the file), and a rename of the player across the three.
#[test]
fn workspace_symbols_references_and_rename_of_a_player() {
    let dir = tempfile::tempdir().unwrap();
    let a = "[Event \"Zanzibar Open\"]\n[Date \"2024.05.01\"]\n[South \"Ali\"]\n[North \"Juma\"]\n\n1. A6<* *\n\n[Event \"Zanzibar Open\"]\n[South \"Juma\"]\n[North \"Said\"]\n\n1. A6<* *\n";
    let b = "[Event \"Pemba Cup\"]\n[South \"Said\"]\n[North \"Alia\"]\n\n1. A6<* *\n";
    let c_disk = "[Event \"Club night\"]\n[South \"Mussa\"]\n[North \"Juma\"]\n\n1. A6<* *\n";
    let c_open = "[Event \"Club night\"]\n[South \"Mussa\"]\n[North \"Ali\"]\n\n1. A6<* *\n";
    let sub = dir.path().join("club");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(dir.path().join("a.bao"), a).unwrap();
    std::fs::write(dir.path().join("b.bao"), b).unwrap();
    std::fs::write(sub.join("c.bao"), c_disk).unwrap();
    // Not a record: left out.
    std::fs::write(dir.path().join("notes.txt"), "[South \"Ali\"]").unwrap();
    let uri = |p: &Path| format!("file://{}", p.display());
    let (ua, ub, uc) = (
        uri(&dir.path().join("a.bao")),
        uri(&dir.path().join("b.bao")),
        uri(&sub.join("c.bao")),
    );
    let mut c = Client::start_in(json!({}), json!(uri(dir.path())));
    c.open(&uc, c_open);

    let names = |v: &Value| -> Vec<String> {
        let mut n: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_owned())
            .collect();
        n.sort();
        n
    };
    let all = c.request("workspace/symbol", json!({"query": ""}));
    assert_eq!(
        names(&all),
        ["Ali – Juma", "Juma – Said", "Mussa – Ali", "Said – Alia"],
        "{all}"
    );
    let zanzibar = c.request("workspace/symbol", json!({"query": "zanzibar"}));
    assert_eq!(
        names(&zanzibar),
        ["Ali – Juma", "Juma – Said"],
        "{zanzibar}"
    );
    let first = zanzibar
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Ali – Juma")
        .unwrap();
    assert_eq!(first["location"]["uri"], json!(ua));
    assert_eq!(first["containerName"], "Zanzibar Open, 2024.05.01");
    let pemba = c.request("workspace/symbol", json!({"query": "pemba"}));
    assert_eq!(pemba[0]["location"]["uri"], json!(ub), "{pemba}");
    // The open text counts, not the file: Juma is no longer in c.bao.
    let juma = c.request("workspace/symbol", json!({"query": "JUMA"}));
    assert_eq!(names(&juma), ["Ali – Juma", "Juma – Said"], "{juma}");

    // References of Ali, from the open document's North tag: a.bao's South tag and its own;
    // not b.bao's Alia.
    let at = json!({"textDocument": {"uri": uc}, "position": {"line": 2, "character": 9}});
    let mut refs: Vec<(String, u64)> = c
        .request("textDocument/references", json!({"textDocument": at["textDocument"], "position": at["position"], "context": {"includeDeclaration": true}}))
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["uri"].as_str().unwrap().to_owned(), l["range"]["start"]["line"].as_u64().unwrap()))
        .collect();
    refs.sort();
    let mut expected = vec![(ua.clone(), 2), (uc.clone(), 2)];
    expected.sort();
    assert_eq!(refs, expected);

    // Rename Ali across the workspace.
    let edit = c.request(
        "textDocument/rename",
        json!({"textDocument": at["textDocument"], "position": at["position"], "newName": "Ali \"Kali\" Omar"}),
    );
    let changes = edit["changes"].as_object().unwrap();
    let mut files: Vec<&String> = changes.keys().collect();
    files.sort();
    let mut want = vec![&ua, &uc];
    want.sort();
    assert_eq!(files, want, "{edit}");
    let renamed_a = apply(a, changes[&ua].as_array().unwrap());
    assert!(
        renamed_a.contains("[South \"Ali \\\"Kali\\\" Omar\"]"),
        "{renamed_a}"
    );
    assert!(renamed_a.contains("[South \"Juma\"]"), "{renamed_a}");
    let renamed_c = apply(c_open, changes[&uc].as_array().unwrap());
    assert!(
        renamed_c.contains("[North \"Ali \\\"Kali\\\" Omar\"]"),
        "{renamed_c}"
    );
    // The new value reads back as the name given.
    let parsed = parse_record(&renamed_c);
    assert_eq!(
        parsed.record.games[0]
            .value
            .tag("North")
            .map(|t| t.value.as_str()),
        Some("Ali \"Kali\" Omar")
    );
    // Off a followed tag: rename is refused, references are none.
    let off = json!({"textDocument": {"uri": uc}, "position": {"line": 4, "character": 4}});
    let r = c.request(
        "textDocument/rename",
        json!({"textDocument": off["textDocument"], "position": off["position"], "newName": "x"}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    c.shutdown();
}

/// A ply written twice: the preferred action deletes it, with its move number, and renumbers
/// the numbers after it that it shifted.
#[test]
fn a_ply_written_twice_is_deleted_and_what_follows_renumbered() {
    let game = "1. A7>* a7<* 2. A5< a6<* 3. A6< a4< 4. A6> a6< 5. A5> a5> 6. A2< a5> 7. A7> a5< 8. A6< *\n";
    let cases = [
        // `6... a5>` written twice, with its number: both go.
        (
            game.replace("6. A2< a5> ", "6. A2< a5> 6... a5> "),
            game.to_owned(),
        ),
        // Written twice, and the numbers after it written for the shifted plies: the
        // number that no longer fits is rewritten.
        (
            game.replace(
                "6. A2< a5> 7. A7> a5< 8. A6<",
                "6. A2< a5> 7. a5> A7> 8. a5< A6<",
            ),
            game.replace(
                "6. A2< a5> 7. A7> a5< 8. A6<",
                "6. A2< a5> A7> 7... a5< A6<",
            ),
        ),
    ];
    let mut c = Client::start(Value::Null);
    for (n, (text, expected)) in cases.iter().enumerate() {
        let uri = format!("file:///twice{n}.bao");
        c.open(&uri, text);
        let published = c.diagnostics(&uri, 1);
        let d = published
            .iter()
            .find(|d| d["severity"] == 1)
            .unwrap_or_else(|| panic!("no error: {published:?}"));
        assert!(
            d["message"].as_str().unwrap().contains("one too many"),
            "{d}"
        );
        let acts = c.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": d["range"],
                   "context": {"diagnostics": [d]}}),
        );
        let fix = acts
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["isPreferred"] == true)
            .unwrap_or_else(|| panic!("no repair in {acts:#}"));
        assert!(
            fix["title"].as_str().unwrap().starts_with("Delete a5>"),
            "{fix}"
        );
        let new = apply(text, fix["edit"]["changes"][&uri].as_array().unwrap());
        assert_eq!(&new, expected);
        assert!(check_json(&uri, &new).is_empty(), "{new}");
    }
    c.shutdown();
}
