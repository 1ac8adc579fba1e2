//! `bao lsp`: the binary over pipes (framing, a malformed message, shutdown and exit), and a
//! real client: headless Neovim with the `editors/neovim` setup reads the diagnostics, a
//! hover and a completion through its own LSP client.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::cmd::root;

fn frame(body: &[u8]) -> Vec<u8> {
    let mut v = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    v.extend_from_slice(body);
    v
}

fn message(v: &Value) -> Vec<u8> {
    frame(v.to_string().as_bytes())
}

fn send(stdin: &mut impl Write, v: Value) {
    stdin.write_all(&message(&v)).unwrap();
}

/// Reads framed messages from the server into a channel.
fn reader(out: impl Read + Send + 'static) -> mpsc::Receiver<Value> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(out);
        loop {
            let mut len = 0;
            loop {
                let mut line = String::new();
                if r.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(v) = line.strip_prefix("Content-Length: ") {
                    len = v.parse().unwrap();
                }
            }
            let mut body = vec![0; len];
            if r.read_exact(&mut body).is_err() {
                return;
            }
            if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        }
    });
    rx
}

fn wait_for(rx: &mpsc::Receiver<Value>, pred: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let m = rx.recv_timeout(left).expect("no answer from bao lsp");
        if pred(&m) {
            return m;
        }
    }
}

#[test]
fn bao_lsp_over_pipes_survives_a_message_that_is_not_utf8() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bao"))
        .env("BAO_LANG", "en")
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let rx = reader(child.stdout.take().unwrap());
    let uri = "file:///p.bao";
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    wait_for(&rx, |m| m["id"] == 1);
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
        {"uri": uri, "languageId": "bao", "version": 1, "text": "1. A5<* *\n"}}}),
    );
    let d = wait_for(&rx, |m| m["method"] == "textDocument/publishDiagnostics");
    assert_eq!(
        d["params"]["diagnostics"][0]["code"],
        "bao::illegal::namua_placement"
    );
    // A didChange whose text holds bytes that are not UTF-8: read with replacement
    // characters; the server goes on.
    let text = r#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///p.bao","version":2},"contentChanges":[{"text":"1. A6<* @@ *\n"}]}}"#;
    let (a, b) = text.split_once("@@").unwrap();
    let raw = [a.as_bytes(), &[0xff, 0xfe], b.as_bytes()].concat();
    stdin.write_all(&frame(&raw)).unwrap();
    // And a message that is no JSON at all.
    stdin.write_all(&frame(b"{not json")).unwrap();
    let d = wait_for(&rx, |m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 2
    });
    assert!(!d["params"]["diagnostics"].as_array().unwrap().is_empty());
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params":
        {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 4}}}),
    );
    let h = wait_for(&rx, |m| m["id"] == 2);
    assert!(
        h["result"]["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("```text"),
        "{h}"
    );
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": null}),
    );
    wait_for(&rx, |m| m["id"] == 3);
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "exit", "params": null}),
    );
    drop(stdin);
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{status}: {err}");
    assert!(err.contains("no JSON-RPC message"), "{err}");
}

/// The protocol's edges over pipes: an id without a method is answered `InvalidRequest`;
/// `exit` without `shutdown` exits 1; a `Content-Length` that is no number exits 2 with the
/// header on stderr.
#[test]
fn bao_lsp_answers_the_protocol_edges_with_their_codes() {
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_bao"))
            .env("BAO_LANG", "en")
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut child = spawn();
    let mut stdin = child.stdin.take().unwrap();
    let rx = reader(child.stdout.take().unwrap());
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    wait_for(&rx, |m| m["id"] == 1);
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    send(&mut stdin, json!({"jsonrpc": "2.0", "id": 77}));
    let e = wait_for(&rx, |m| m["id"] == 77);
    assert_eq!(e["error"]["code"], -32600, "{e}");
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "exit", "params": null}),
    );
    drop(stdin);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{status}");

    let mut child = spawn();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"Content-Length: abc\r\n\r\n{}").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("Content-Length: abc"), "{err}");
}

/// Neovim's own LSP client, with the `editors/neovim` setup, on a record with a slip.
///
/// Without `nvim` the test is skipped with a message, unless `CI` is set: then it fails.
#[test]
fn neovim_reads_diagnostics_hover_and_completion_from_bao_lsp() {
    let Some(nvim) = ["/usr/bin/nvim", "/usr/local/bin/nvim"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.exists())
    else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but nvim is missing: install the Debian package neovim (.ci/run does)"
        );
        eprintln!("skipped: the Neovim test needs nvim (apt-get install neovim)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // The first moves of fixtures/games/preset_kiswahili.bao, the sixth one slipped (South's
    // row letter for North's move).
    let record = "[Event \"nvim\"]\n[Result \"*\"]\n\n1. A7<* a5> 2. A6<* a5<\n3. A3< A5< *\n";
    let file = dir.path().join("game.bao");
    std::fs::write(&file, record).unwrap();
    let script = dir.path().join("check.lua");
    std::fs::write(&script, include_str!("nvim_check.lua")).unwrap();
    let out = dir.path().join("out.json");
    let mut child = Command::new(nvim)
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("BAO", env!("CARGO_BIN_EXE_bao"))
        .env("BAO_LANG", "en")
        .env("BAO_NVIM", root().join("editors/neovim"))
        .env("BAO_FILE", &file)
        .env("BAO_OUT", &out)
        .env("BAO_HOVER_LINE", "3")
        .env("BAO_COMPLETE_LINE", "4")
        .env("HOME", dir.path())
        .env("XDG_STATE_HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path())
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(90);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("nvim did not finish in 90 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let got: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(got.get("error").is_none(), "{got:#}");
    assert_eq!(got["filetype"], "bao");
    // The slip: line 5 (0-based 4).
    let diags = got["diagnostics"].as_array().unwrap();
    assert!(!diags.is_empty(), "{got:#}");
    assert!(
        diags
            .iter()
            .any(|d| d["lnum"] == 4 && d["code"].as_str().unwrap().starts_with("bao::")),
        "{got:#}"
    );
    let hover = got["hover"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(
        hover.contains("```text") && hover.contains("Ply 1"),
        "{got:#}"
    );
    let items = got["completion"]["items"].as_array().map_or(0, Vec::len);
    assert!(items > 0, "{got:#}");
    // The package sets completion by omnifunc and `K` for the hover (Neovim 0.7 has
    // neither by default).
    assert_eq!(got["omnifunc"], "v:lua.vim.lsp.omnifunc", "{got:#}");
    assert!(
        got["k"].as_str().unwrap_or_default().contains("hover"),
        "{got:#}"
    );
}

/// The Neovim package's side board (`:BaoBoard`) follows the cursor across an illegal ply:
/// headless Neovim moves the cursor over de Voogt's problem 3 with two slips (`2. A4L` for
/// `A4R`, so ply 5 is illegal; `8... a3L` for `a4L`), and the window's text is captured at
/// each stop.
#[test]
fn neovim_side_board_follows_the_cursor_across_an_illegal_ply() {
    let Some(nvim) = ["/usr/bin/nvim", "/usr/local/bin/nvim"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.exists())
    else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but nvim is missing: install the Debian package neovim (.ci/run does)"
        );
        eprintln!("skipped: the Neovim test needs nvim (apt-get install neovim)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let record =
        std::fs::read_to_string(root().join("fixtures/assume_fixes/two_slips.bao")).unwrap();
    let file = dir.path().join("two_slips.bao");
    std::fs::write(&file, &record).unwrap();
    // Line and column (0-based) of each needle's first byte.
    let cursor = |needle: &str| {
        let at = record.find(needle).unwrap();
        let line = record[..at].matches('\n').count();
        let col = at - record[..at].rfind('\n').map_or(0, |p| p + 1);
        format!("{line},{col}")
    };
    let cursors = [
        cursor("A6L*"),
        cursor("A5L a3R"),
        cursor("a3R 4."),
        cursor("a3L 9."),
    ];
    let script = dir.path().join("board.lua");
    std::fs::write(&script, include_str!("nvim_board.lua")).unwrap();
    let out = dir.path().join("out.json");
    let mut child = Command::new(nvim)
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("BAO", env!("CARGO_BIN_EXE_bao"))
        .env("BAO_LANG", "en")
        .env("BAO_NVIM", root().join("editors/neovim"))
        .env("BAO_FILE", &file)
        .env("BAO_OUT", &out)
        .env("BAO_CURSORS", cursors.join(";"))
        .env("HOME", dir.path())
        .env("XDG_STATE_HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path())
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(90);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("nvim did not finish in 90 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let got: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(got.get("error").is_none(), "{got:#}");
    assert_eq!(
        got["windows"].as_u64(),
        got["windows_before"].as_u64().map(|n| n + 1),
        "{got:#}"
    );
    let boards: Vec<String> = got["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            b.as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    eprintln!("{}", boards.join("\n----\n"));
    assert_eq!(boards.len(), 4);
    // Ply 1, as written: both boards, no repair.
    assert!(boards[0].starts_with("Ply 1, South: A6L*"), "{}", boards[0]);
    assert!(boards[0].contains("Before:") && boards[0].contains("After:"));
    assert!(!boards[0].contains("assuming"), "{}", boards[0]);
    // Ply 5, the first illegal one: from the repair at ply 3.
    assert!(boards[1].starts_with("Ply 5, South: A5L"), "{}", boards[1]);
    assert!(boards[1].contains("assuming A4R at ply 3"), "{}", boards[1]);
    assert!(boards[1].contains("After:"), "{}", boards[1]);
    // Ply 6, after it: the board goes on.
    assert!(boards[2].starts_with("Ply 6, North: a3R"), "{}", boards[2]);
    assert!(
        boards[2].contains("After:") && boards[2].contains(" A "),
        "{}",
        boards[2]
    );
    // Ply 16, the second slip: its repair.
    assert!(boards[3].starts_with("Ply 16, North: a3L"), "{}", boards[3]);
    assert!(
        boards[3].contains("played: a4L (the repair)"),
        "{}",
        boards[3]
    );
}

/// The Neovim syntax file on K.I.B.A. moves (`A6L*`, `a6R`, `a5l`, `A8+`, `a8`), canonical
/// ones and results: each character's group, read in a headless Neovim; and the folds of the
/// ftplugin, one per game.
#[test]
fn neovim_syntax_highlights_kiba_moves_and_results() {
    let Some(nvim) = ["/usr/bin/nvim", "/usr/local/bin/nvim"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.exists())
    else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but nvim is missing: install the Debian package neovim (.ci/run does)"
        );
        eprintln!("skipped: the Neovim test needs nvim (apt-get install neovim)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("syntax.lua");
    std::fs::write(&script, include_str!("nvim_syntax.lua")).unwrap();
    let out = dir.path().join("out.txt");
    let lines = [
        "1. A6L* a6R 2. a5l A8+ 3. a8 B2<** 1/2-1/2",
        "4. A6<* *",
        "1-0",
    ];
    let status = Command::new(nvim)
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("BAO_NVIM", root().join("editors/neovim"))
        .env("BAO_LINES", lines.join("|"))
        .env("BAO_OUT", &out)
        .env("HOME", dir.path())
        .env("XDG_STATE_HOME", dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let got = std::fs::read_to_string(&out).unwrap();
    let got: Vec<Vec<(char, String)>> = got
        .lines()
        .take(lines.len())
        .map(|l| {
            l.split(' ')
                .filter(|w| !w.is_empty())
                .map(|w| {
                    let (c, g) = w.split_once('=').unwrap();
                    (c.chars().next().unwrap(), g.to_owned())
                })
                .collect()
        })
        .collect();
    // The group of each character of each line, blanks left out, as one string of
    // initials: M move number, P pit, S sign or mark, R result.
    let initials = |l: &[(char, String)]| -> String {
        l.iter()
            .map(|(_, g)| match g.as_str() {
                "baoMoveNumber" => 'M',
                "baoPit" => 'P',
                "baoSign" => 'S',
                "baoResult" => 'R',
                "" => '_',
                _ => '?',
            })
            .collect()
    };
    // The last line: where each line's fold starts, all folds closed: two games, two folds.
    let folds = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_owned();
    assert_eq!(folds, "1 1 1 1 1 6 6 6", "the games' folds");
    let shapes: Vec<String> = got.iter().map(|l| initials(l)).collect();
    assert_eq!(
        shapes,
        [
            // 1. A6L* a6R 2. a5l A8+ 3. a8 B2<** 1/2-1/2
            "MMPPSSPPSMMPPSPPSMMPPPPSSSRRRRRRR",
            // 4. A6<* *
            "MMPPSSR",
            "RRR",
        ],
        "{got:?}"
    );
}

/// The VS Code grammar on every token kind: `editors/vscode/test/grammar.test.js` under
/// Node, tokenizing with vscode-textmate and vscode-oniguruma (VS Code's own engine), which
/// `npm ci` installs in that directory (.ci/run does).
#[test]
fn vscode_grammar_tokenizes_every_token_kind() {
    let Some(node) = ["/usr/bin/node", "/usr/local/bin/node"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.exists())
    else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but node is missing: install the Debian package nodejs (.ci/run does)"
        );
        eprintln!("skipped: the grammar test needs node (apt-get install nodejs)");
        return;
    };
    let dir = root().join("editors/vscode/test");
    if !dir.join("node_modules/vscode-textmate").exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but the grammar test's packages are missing: run `npm ci` in {} (.ci/run does)",
            dir.display()
        );
        eprintln!(
            "skipped: run `npm ci` in {} for the grammar test",
            dir.display()
        );
        return;
    }
    let out = Command::new(node)
        .arg("grammar.test.js")
        .current_dir(&dir)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("lines tokenized as expected by vscode-textmate"),
        "{text}"
    );
}

/// The VS Code extension's board panel (`editors/vscode/board.js`) in headless Chromium, on
/// `bao/boardAt` answers of `bao lsp` for de Voogt's problem 3 with two slips: a ply played
/// as written and the first illegal one (from the repair `--assume-fixes` assumes), on a
/// desktop and a phone screen. Run by `html::the_viewer_works_in_headless_chromium` (one
/// start of the browser tools). With `BAO_SHOTS` set, the screenshots are written there.
pub(crate) fn vscode_board_test(chromium: &Path, chromedriver: &Path) {
    let Some(node) = ["/usr/bin/node", "/usr/local/bin/node"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.exists())
    else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but node is missing: install the Debian package nodejs (.ci/run does)"
        );
        eprintln!("skipped: the board panel test needs node (apt-get install nodejs)");
        return;
    };
    let record =
        std::fs::read_to_string(root().join("fixtures/assume_fixes/two_slips.bao")).unwrap();
    // The answers, from the server over pipes.
    let mut child = Command::new(env!("CARGO_BIN_EXE_bao"))
        .env("BAO_LANG", "en")
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let rx = reader(child.stdout.take().unwrap());
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    wait_for(&rx, |m| m["id"] == 1);
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    let uri = "file:///two_slips.bao";
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
        {"uri": uri, "languageId": "bao", "version": 1, "text": record}}}),
    );
    let mut answers = Vec::new();
    for (id, needle) in [(2, "A6L*"), (3, "A5L a3R")] {
        let at = record.find(needle).unwrap();
        let line = record[..at].matches('\n').count();
        let col = at - record[..at].rfind('\n').map_or(0, |p| p + 1);
        send(
            &mut stdin,
            json!({"jsonrpc": "2.0", "id": id, "method": "bao/boardAt", "params":
            {"textDocument": {"uri": uri}, "position": {"line": line, "character": col}}}),
        );
        answers.push(wait_for(&rx, |m| m["id"] == id)["result"].clone());
    }
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown", "params": null}),
    );
    wait_for(&rx, |m| m["id"] == 9);
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "exit", "params": null}),
    );
    drop(stdin);
    assert!(child.wait().unwrap().success());

    let dir = tempfile::tempdir().unwrap();
    let driver = crate::browser::Driver::start(chromedriver);
    let profile = tempfile::tempdir().unwrap();
    let desktop = driver.session(chromium, profile.path());
    let phone_profile = tempfile::tempdir().unwrap();
    let phone = driver.phone_session(chromium, phone_profile.path(), (390, 844));
    let shots = std::env::var_os("BAO_SHOTS").map(std::path::PathBuf::from);
    for (n, answer) in answers.iter().enumerate() {
        let json = dir.path().join(format!("answer{n}.json"));
        std::fs::write(&json, answer.to_string()).unwrap();
        let out = Command::new(node)
            .arg(root().join("editors/vscode/board.js"))
            .arg(&json)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let page = dir.path().join(format!("board{n}.html"));
        std::fs::write(&page, &out.stdout).unwrap();
        for (name, s) in [("desktop", &desktop), ("phone", &phone)] {
            s.go(&format!("file://{}", page.display()));
            let text = |id: &str| {
                s.js(
                    "var e = document.getElementById(arguments[0]); return e ? e.textContent : null",
                    json!([id]),
                )
            };
            // Both boards drawn, as wide as the panel allows and visible.
            let widths = s.js(
                "return Array.from(document.querySelectorAll('.board svg')).map(function (e) { return e.getBoundingClientRect().width; })",
                json!([]),
            );
            let widths: Vec<f64> = widths
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w.as_f64().unwrap())
                .collect();
            assert_eq!(widths.len(), 2, "{name} {n}");
            assert!(widths.iter().all(|&w| w > 200.0), "{name} {n}: {widths:?}");
            let overflow = s.js(
                "return document.documentElement.scrollWidth > window.innerWidth",
                json!([]),
            );
            assert_eq!(overflow, json!(false), "{name} {n}: wider than the screen");
            if n == 0 {
                assert_eq!(text("ply"), json!("Ply 1, South: A6L*"), "{name}");
                assert_eq!(text("assumes"), Value::Null, "{name}");
            } else {
                assert_eq!(text("ply"), json!("Ply 5, South: A5L"), "{name}");
                assert_eq!(text("state"), json!("After an illegal move"), "{name}");
                assert_eq!(
                    text("assumes"),
                    json!("Assuming A4R at ply 3 (--assume-fixes)"),
                    "{name}"
                );
            }
            if let Some(shots) = &shots {
                std::fs::write(
                    shots.join(format!("vscode_board_{n}_{name}.png")),
                    s.screenshot(),
                )
                .unwrap();
            }
        }
    }
}
