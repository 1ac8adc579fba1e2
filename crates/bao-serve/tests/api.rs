//! The API on 127.0.0.1 (an ephemeral port), in process: every request of spec/serve.md,
//! the bad input of every kind, two scribes on one game, credentials, events.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use bao_serve::{Config, Server};
use serde_json::{json, Value};

const TOKEN: &str = "test-token-1234";

/// A request header: name, value.
type Header<'a> = (&'a str, &'a str);

/// A server on its own runtime and thread, stopped on drop.
struct Running {
    base: String,
    pin: String,
    dir: PathBuf,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn start_with(dir: &Path, tune: impl FnOnce(&mut Config)) -> Running {
    let mut config = Config::new(dir.to_owned());
    config.listen = "127.0.0.1:0".parse().unwrap();
    config.token = Some(TOKEN.to_owned());
    tune(&mut config);
    let server = Server::bind(config).expect("the server binds");
    let base = format!("http://{}", server.local_addr().unwrap());
    let pin = server.pin().unwrap_or_default().to_owned();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let thread = thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(server.serve(async {
            let _ = rx.await;
        }))
        .unwrap();
    });
    Running {
        base,
        pin,
        dir: dir.to_owned(),
        stop: Some(tx),
        thread: Some(thread),
    }
}

fn start(dir: &Path) -> Running {
    start_with(dir, |_| {})
}

fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(20))
        .build()
}

/// A request: (status, body, the response's headers we look at).
fn raw(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> (u16, String, Vec<(String, String)>) {
    let mut r = agent().request(method, url);
    for (k, v) in headers {
        r = r.set(k, v);
    }
    let res = match body {
        Some(b) => r.send_bytes(b),
        None => r.call(),
    };
    let resp = match res {
        Ok(resp) => resp,
        Err(ureq::Error::Status(_, resp)) => resp,
        Err(e) => panic!("{method} {url}: {e}"),
    };
    let status = resp.status();
    let hs = resp
        .headers_names()
        .into_iter()
        .map(|n| {
            let v = resp.header(&n).unwrap_or_default().to_owned();
            (n, v)
        })
        .collect();
    (status, resp.into_string().unwrap_or_default(), hs)
}

impl Running {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (s, b, _) = raw(
            "POST",
            &self.url(path),
            &[
                ("Authorization", &format!("Bearer {TOKEN}")),
                ("Content-Type", "application/json"),
            ],
            Some(body.to_string().as_bytes()),
        );
        (s, serde_json::from_str(&b).unwrap_or(Value::Null))
    }

    /// `POST /api/games/{id}/moves` with `mv` as ply `ply`, as the scribe (the token).
    fn play(
        &self,
        id: &str,
        ply: impl serde::Serialize,
        mv: impl serde::Serialize,
    ) -> (u16, Value) {
        self.post(
            &format!("/api/games/{id}/moves"),
            &json!({"ply": ply, "move": mv}),
        )
    }

    fn get(&self, path: &str) -> (u16, String) {
        let (s, b, _) = raw("GET", &self.url(path), &[], None);
        (s, b)
    }

    fn new_game(&self, tags: &Value) -> String {
        let (s, b) = self.post("/api/games", &json!({ "tags": tags, "rules": "kiswahili" }));
        assert_eq!(s, 201, "{b}");
        b["id"].as_str().unwrap().to_owned()
    }

    fn file(&self, id: &str) -> String {
        std::fs::read_to_string(self.dir.join(format!("{id}.bao"))).unwrap()
    }
}

fn fixture_moves() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/serve/kiswahili_30.txt");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_game_is_recorded_through_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let id = srv
        .new_game(&json!({"South": "Ali", "North": "Bakari", "Round": "2", "Annotator": "Zuhura"}));
    assert!(
        id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
        "{id}"
    );
    let moves = fixture_moves();
    for (i, m) in moves.iter().take(6).enumerate() {
        let (s, b) = srv.play(&id, i, m);
        assert_eq!(s, 200, "ply {i} {m}: {b}");
        assert_eq!(b["plies"], i + 1);
        assert!(b["position"]["pits"].is_object());
        assert!(b["legal"].is_array());
        assert!(b["outcome"].is_null());
    }
    // The same ply again: 200, nothing written twice.
    let before = srv.file(&id);
    let (s, b) = srv.play(&id, 5, &moves[5]);
    assert_eq!((s, &b["plies"]), (200, &json!(6)));
    assert_eq!(srv.file(&id), before);
    // Another ply: 409 with the count.
    let (s, b) = srv.play(&id, 9, &moves[6]);
    assert_eq!(
        (s, &b["plies"], &b["code"]),
        (409, &json!(6), &json!("serve::out_of_turn"))
    );
    // Illegal: the validator's diagnostic and the legal moves.
    let (s, b) = srv.play(&id, 6, "A8>");
    assert_eq!(s, 422, "{b}");
    assert!(b["code"].as_str().unwrap().starts_with("bao::"), "{b}");
    assert!(!b["message"].as_str().unwrap().is_empty());
    assert!(b["legal"].as_array().unwrap().len() > 1);
    let (s, b) = srv.play(&id, 6, "A9<*");
    assert_eq!(
        (s, &b["code"]),
        (422, &json!("serve::unreadable_move")),
        "{b}"
    );
    assert_eq!(srv.file(&id), before);
    // The record, the export, the state, the list.
    let (s, text) = srv.get(&format!("/api/games/{id}/record"));
    assert_eq!((s, text.as_str()), (200, before.as_str()));
    assert!(text.contains("[Annotator \"Zuhura\"]") && text.contains("[Round \"2\"]"));
    let (s, exported) = srv.get(&format!("/api/games/{id}"));
    assert_eq!(s, 200);
    let exported: Value = serde_json::from_str(&exported).unwrap();
    let got: Vec<&str> = exported["games"][0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(got.len(), 6);
    let (_, list) = srv.get("/api/games");
    let list: Value = serde_json::from_str(&list).unwrap();
    assert_eq!(list[0]["id"], json!(id));
    assert_eq!(list[0]["plies"], 6);
    assert_eq!(list[0]["live"], true);
    assert_eq!(list[0]["tags"]["South"], "Ali");
    // Undo (only at the ply count the scribe saw), comment, result.
    let (s, _) = srv.post(&format!("/api/games/{id}/undo"), &json!({"plies": 5}));
    assert_eq!(s, 409);
    let (s, b) = srv.post(&format!("/api/games/{id}/undo"), &json!({}));
    assert_eq!((s, &b["plies"]), (200, &json!(5)));
    let (s, _) = srv.post(
        &format!("/api/games/{id}/comment"),
        &json!({"text": "a quiet start"}),
    );
    assert_eq!(s, 200);
    assert!(srv.file(&id).contains("{a quiet start}"));
    let (s, _) = srv.post(
        &format!("/api/games/{id}/result"),
        &json!({"result": "1/2-1/2", "termination": "resignation"}),
    );
    assert_eq!(s, 422);
    let (s, b) = srv.post(
        &format!("/api/games/{id}/result"),
        &json!({"result": "0-1", "termination": "time_forfeit"}),
    );
    assert_eq!(
        (s, &b["result"], &b["live"]),
        (200, &json!("0-1"), &json!(false)),
        "{b}"
    );
    assert!(srv.file(&id).contains("[Termination \"time_forfeit\"]"));
    let (s, b) = srv.play(&id, 5, &moves[5]);
    assert_eq!((s, &b["code"]), (409, &json!("serve::game_over")));
    // The directory checks clean.
    let text = srv.file(&id);
    let checked =
        bao_validate::check_bytes("g", text.as_bytes(), &bao_validate::CheckOptions::default());
    assert!(checked.report.is_valid());
}

#[test]
fn an_open_decision_is_refused_with_what_each_option_does() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let id = srv.new_game(&json!({}));
    assert_eq!(srv.play(&id, 0, "A6<*").0, 200);
    let (s, b) = srv.play(&id, 1, "a5");
    assert_eq!(
        (s, &b["code"]),
        (422, &json!("serve::undecided_move")),
        "{b}"
    );
    let options = b["options"].as_array().unwrap();
    assert_eq!(options.len(), 2);
    for o in options {
        assert!(o["does"].as_str().unwrap().contains("kichwa"), "{o}");
    }
    let (_, state) = srv.get(&format!("/api/games/{id}/state"));
    let state: Value = serde_json::from_str(&state).unwrap();
    assert_eq!(state["plies"], 1);
    assert_eq!(
        state["moves"].as_array().unwrap().len(),
        state["legal"].as_array().unwrap().len()
    );
}

#[test]
fn bad_input_is_a_clear_4xx_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let id = srv.new_game(&json!({"South": "A", "North": "B"}));
    assert_eq!(srv.play(&id, 0, "A6<*").0, 200);
    let before = srv.file(&id);
    let auth = format!("Bearer {TOKEN}");
    let moves = srv.url(&format!("/api/games/{id}/moves"));
    let jh: [(&str, &str); 2] = [
        ("Authorization", &auth),
        ("Content-Type", "application/json"),
    ];
    let auth_only: [(&str, &str); 1] = [("Authorization", &auth)];
    let big = format!("{{\"ply\": 1, \"move\": \"{}\"}}", "x".repeat(70_000));
    let cases: Vec<(&str, Vec<u8>, &[Header<'_>], u16)> = vec![
        ("over 64 KiB", big.into_bytes(), &jh, 413),
        ("malformed", b"{\"ply\": 1, \"move\": ".to_vec(), &jh, 400),
        (
            "unknown field",
            br#"{"ply": 1, "move": "a5<", "by": "x"}"#.to_vec(),
            &jh,
            400,
        ),
        (
            "invalid UTF-8",
            b"{\"ply\": 1, \"move\": \"a5\xff<\"}".to_vec(),
            &jh,
            400,
        ),
        (
            "a huge ply",
            br#"{"ply": 1e30, "move": "a5<"}"#.to_vec(),
            &jh,
            400,
        ),
        (
            "a negative ply",
            br#"{"ply": -1, "move": "a5<"}"#.to_vec(),
            &jh,
            400,
        ),
        (
            "the largest ply",
            br#"{"ply": 18446744073709551615, "move": "a5<"}"#.to_vec(),
            &jh,
            409,
        ),
        ("not JSON", br#"ply=1"#.to_vec(), &auth_only, 415),
        (
            "a long move",
            format!("{{\"ply\": 1, \"move\": \"{}\"}}", "A".repeat(100)).into_bytes(),
            &jh,
            422,
        ),
        (
            "no credentials",
            br#"{"ply": 1, "move": "a5<"}"#.to_vec(),
            &[("Content-Type", "application/json")],
            401,
        ),
        (
            "a wrong token",
            br#"{"ply": 1, "move": "a5<"}"#.to_vec(),
            &[
                ("Authorization", "Bearer nope"),
                ("Content-Type", "application/json"),
            ],
            401,
        ),
    ];
    for (what, body, headers, want) in cases {
        let (s, b, _) = raw("POST", &moves, headers, Some(&body));
        assert_eq!(s, want, "{what}: {b}");
        // Every refusal is the JSON {"code", "message"}.
        let v: Value = serde_json::from_str(&b).unwrap_or_else(|_| panic!("{what}: not JSON: {b}"));
        assert!(
            v["code"].is_string() && v["message"].is_string(),
            "{what}: {b}"
        );
        assert_eq!(srv.file(&id), before, "{what}");
    }
    for bad in ["..%2f..%2fetc%2fpasswd", "%00", "..", "a.bao", "%ff"] {
        let (s, _) = srv.get(&format!("/api/games/{bad}"));
        assert!((400..500).contains(&s), "{bad}: {s}");
        let (s, _, _) = raw(
            "POST",
            &srv.url(&format!("/api/games/{bad}/moves")),
            &jh,
            Some(br#"{"ply":1,"move":"a5<"}"#),
        );
        assert!((400..500).contains(&s), "{bad}: {s}");
    }
    let (s, b) = srv.post("/api/games", &json!({"tags": {"Result": "1-0"}}));
    assert_eq!(s, 422, "{b}");
    let (s, _) = srv.post("/api/games", &json!({"tags": {"Date": "yesterday"}}));
    assert_eq!(s, 422);
    let (s, _) = srv.post("/api/games", &json!({"rules": "chess"}));
    assert_eq!(s, 422);
    let (s, _) = srv.post("/api/games", &json!({"tags": {}, "path": "../x"}));
    assert_eq!(s, 400);
    // Nothing but the one game was written (beside the PIN's file), and the server goes on
    // serving.
    assert_eq!(bao_files(dir.path()), 1);
    assert_eq!(srv.get("/api/games").0, 200);
    assert_eq!(srv.play(&id, 1, "a5<").0, 200);
}

#[test]
fn a_flood_of_requests_is_slowed_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start_with(dir.path(), |c| c.post_rate = 5);
    let statuses: Vec<u16> = (0..40)
        .map(|_| srv.post("/api/games/none/undo", &json!({})).0)
        .collect();
    assert!(statuses.contains(&429), "{statuses:?}");
    assert!(statuses.iter().all(|s| (400..500).contains(s)));
    assert_eq!(srv.get("/api/games").0, 200);
}

#[test]
fn two_scribes_record_each_ply_once_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let id = srv.new_game(&json!({}));
    let moves = fixture_moves();
    let path = format!("/api/games/{id}/moves");
    let results: Vec<Vec<u16>> = thread::scope(|s| {
        let scribes: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut seen = Vec::new();
                    let mut i = 0;
                    while i < moves.len() {
                        let (st, b) = srv.post(&path, &json!({"ply": i, "move": moves[i]}));
                        seen.push(st);
                        match st {
                            200 => i += 1,
                            // The other scribe was first: go on from the count it gives.
                            409 => i = usize::try_from(b["plies"].as_u64().unwrap()).unwrap(),
                            _ => panic!("{st} {b}"),
                        }
                    }
                    seen
                })
            })
            .collect();
        scribes.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(results
        .iter()
        .all(|r| r.iter().all(|s| *s == 200 || *s == 409)));
    let (_, exported) = srv.get(&format!("/api/games/{id}"));
    let exported: Value = serde_json::from_str(&exported).unwrap();
    let got: Vec<String> = exported["games"][0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().replace('#', ""))
        .collect();
    let want: Vec<String> = moves.iter().map(|m| m.replace('#', "")).collect();
    assert_eq!(got, want);
}

#[test]
fn the_pin_gives_a_cookie_that_needs_its_csrf_token() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start_with(dir.path(), |c| c.private = true);
    // Private: reads need credentials.
    assert_eq!(srv.get("/api/games").0, 401);
    let login = srv.url("/api/login");
    let json_ct = ("Content-Type", "application/json");
    let wrong = if srv.pin == "000000" {
        "000001"
    } else {
        "000000"
    };
    let (s, b, _) = raw(
        "POST",
        &login,
        &[json_ct],
        Some(json!({"pin": wrong}).to_string().as_bytes()),
    );
    assert_eq!(s, 401, "{b}");
    let (s, b, headers) = raw(
        "POST",
        &login,
        &[json_ct],
        Some(json!({"pin": srv.pin}).to_string().as_bytes()),
    );
    assert_eq!(s, 200);
    let csrf = serde_json::from_str::<Value>(&b).unwrap()["csrf"]
        .as_str()
        .unwrap()
        .to_owned();
    let set = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("set-cookie"))
        .map(|(_, v)| v.clone())
        .unwrap();
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Strict"));
    let cookie = set.split(';').next().unwrap().to_owned();
    let body = json!({"tags": {}}).to_string();
    let games = srv.url("/api/games");
    let (s, _, _) = raw(
        "POST",
        &games,
        &[json_ct, ("Cookie", &cookie)],
        Some(body.as_bytes()),
    );
    assert_eq!(s, 401, "a cookie without its CSRF token");
    let (s, _, _) = raw(
        "POST",
        &games,
        &[json_ct, ("Cookie", &cookie), ("X-CSRF-Token", "x")],
        Some(body.as_bytes()),
    );
    assert_eq!(s, 401, "a wrong CSRF token");
    let (s, _, _) = raw(
        "POST",
        &games,
        &[json_ct, ("Cookie", &cookie), ("X-CSRF-Token", &csrf)],
        Some(body.as_bytes()),
    );
    assert_eq!(s, 201);
    let (s, _, _) = raw("GET", &games, &[("Cookie", &cookie)], None);
    assert_eq!(s, 200);
    let (s, b, _) = raw("GET", &login, &[("Cookie", &cookie)], None);
    assert_eq!(
        (
            s,
            serde_json::from_str::<Value>(&b).unwrap()["csrf"].as_str()
        ),
        (200, Some(csrf.as_str()))
    );
}

#[test]
fn repeated_wrong_pins_are_slowed_down() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let login = srv.url("/api/login");
    let wrong = if srv.pin == "000000" {
        "000001"
    } else {
        "000000"
    };
    let statuses: Vec<u16> = (0..6)
        .map(|_| {
            raw(
                "POST",
                &login,
                &[("Content-Type", "application/json")],
                Some(json!({"pin": wrong}).to_string().as_bytes()),
            )
            .0
        })
        .collect();
    // The spec's lock-out: after the third wrong PIN in a row, the next try waits.
    assert_eq!(&statuses[..3], [401, 401, 401], "{statuses:?}");
    assert_eq!(statuses[3], 429, "{statuses:?}");
    // Even the right PIN waits now.
    let (s, _, _) = raw(
        "POST",
        &login,
        &[("Content-Type", "application/json")],
        Some(json!({"pin": srv.pin}).to_string().as_bytes()),
    );
    assert_eq!(s, 429);
}

#[test]
fn every_change_is_an_event() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let id = srv.new_game(&json!({}));
    let (tx, rx) = mpsc::channel::<String>();
    let url = srv.url(&format!("/api/games/{id}/events"));
    let evening = srv.url("/api/events");
    for u in [url, evening] {
        let tx = tx.clone();
        thread::spawn(move || {
            let resp = agent().get(&u).call().unwrap();
            for line in BufReader::new(resp.into_reader()).lines() {
                let Ok(line) = line else { return };
                if let Some(kind) = line.strip_prefix("event: ") {
                    if tx.send(kind.to_owned()).is_err() {
                        return;
                    }
                }
            }
        });
    }
    let next = || rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(next(), "state");
    thread::sleep(Duration::from_millis(300));
    assert_eq!(srv.play(&id, 0, "A6<*").0, 200);
    let mut kinds = vec![next(), next()];
    assert_eq!(
        srv.post(&format!("/api/games/{id}/undo"), &json!({})).0,
        200
    );
    kinds.push(next());
    kinds.push(next());
    kinds.sort();
    assert_eq!(kinds, ["move", "move", "undo", "undo"]);
}

#[test]
fn a_hostile_start_position_is_refused_within_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start_with(dir.path(), |c| c.lap_budget = 10_000);
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/invalid/budget/undecided.bao");
    let text = std::fs::read_to_string(fixture).unwrap();
    let position = text
        .lines()
        .find_map(|l| l.strip_prefix("[Position \"")?.strip_suffix("\"]"))
        .unwrap();
    let t = std::time::Instant::now();
    let (s, b) = srv.post("/api/games", &json!({"position": position}));
    assert_eq!(
        (s, &b["code"]),
        (422, &json!("bao::budget::undecided")),
        "{b}"
    );
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!(bao_files(dir.path()), 0);
}

/// The `.bao` files of a directory (the server keeps its PIN's file there too).
fn bao_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "bao"))
        .count()
}

#[test]
fn pages_carry_the_security_headers_and_no_inline_script() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start_with(dir.path(), |c| c.event = Some("Club <night>".into()));
    let id = srv.new_game(&json!({}));
    for path in [
        "/",
        "/projector",
        "/scribe",
        &format!("/games/{id}"),
        &format!("/scribe/{id}"),
        "/static/app.js",
    ] {
        let (s, body, headers) = raw("GET", &srv.url(path), &[], None);
        assert_eq!(s, 200, "{path}");
        let h = |n: &str| {
            headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(n))
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let csp = h("content-security-policy");
        assert!(
            csp.contains("default-src 'none'") && csp.contains("script-src 'self'"),
            "{path}: {csp}"
        );
        assert!(
            !csp.contains("http") && !csp.contains("unsafe"),
            "{path}: {csp}"
        );
        assert_eq!(h("x-content-type-options"), "nosniff");
        assert_eq!(h("x-frame-options"), "DENY");
        if path != "/static/app.js" {
            assert!(
                !body.contains("<script>") && body.contains("<script src=\"/static/app.js\""),
                "{path}"
            );
            assert!(
                !body.contains("http://") && !body.contains("https://"),
                "{path}"
            );
            assert!(
                body.contains("Club &lt;night&gt;") && !body.contains("<night>"),
                "{path}"
            );
        }
    }
    let (s, svg, _) = raw(
        "GET",
        &srv.url(&format!("/api/games/{id}/board.svg")),
        &[],
        None,
    );
    assert_eq!(s, 200);
    assert!(svg.contains("<svg"));
    assert_eq!(srv.get("/games/..%2fx").0, 404);
}

/// The games of `GET /api/games`, by id.
fn listed(srv: &Running) -> std::collections::BTreeMap<String, Value> {
    let (s, body) = srv.get("/api/games");
    assert_eq!(s, 200, "{body}");
    let games: Vec<Value> = serde_json::from_str(&body).unwrap();
    games
        .into_iter()
        .map(|g| (g["id"].as_str().unwrap().to_owned(), g))
        .collect()
}

/// Writes `text` to `dir/name` as a copy does: a temporary file renamed over it.
fn drop_in(dir: &Path, name: &str, text: &str) {
    let tmp = dir.join(format!(".{name}.part"));
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, dir.join(name)).unwrap();
}

#[test]
fn files_written_by_other_programs_are_served_without_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    assert!(listed(&srv).is_empty());
    // A record made elsewhere (here: by the server itself, then copied).
    let id = srv.new_game(&json!({"South": "Ali", "North": "Bakari"}));
    let moves = fixture_moves();
    for (ply, mv) in moves[..2].iter().enumerate() {
        let (s, b) = srv.play(&id, ply, mv);
        assert_eq!(s, 200, "{b}");
    }
    let two_plies = srv.file(&id);
    drop_in(dir.path(), "copied.bao", &two_plies);
    let games = listed(&srv);
    assert_eq!(games["copied"]["plies"], 2, "{games:?}");
    assert_eq!(games["copied"]["tags"]["South"], "Ali");
    assert!(games["copied"].get("problem").is_none());
    assert_eq!(srv.get("/games/copied").0, 200);
    // Served like any other game: the next ply is written to it.
    let (s, b) = srv.post(
        "/api/games/copied/moves",
        &json!({"ply": 2, "move": moves[2]}),
    );
    assert_eq!(s, 200, "{b}");
    assert!(srv.file("copied").contains(&format!(" {} *", moves[2])));

    // A file reached by its page before any list is served too.
    drop_in(dir.path(), "direct.bao", &two_plies);
    assert_eq!(srv.get("/games/direct").0, 200);
    assert_eq!(srv.get("/api/games/direct/state").0, 200);

    // Another program records the next ply in a served game (`bao record` beside the
    // server): the server reads it again, and a scribe who had not seen it gets 409.
    let three = srv.file("copied");
    let four = three.replace(" *\n", &format!(" {} *\n", moves[3]));
    drop_in(dir.path(), "copied.bao", &four);
    let (s, state) = srv.get("/api/games/copied/state");
    assert_eq!(s, 200);
    assert_eq!(serde_json::from_str::<Value>(&state).unwrap()["plies"], 4);
    let (s, b) = srv.post(
        "/api/games/copied/moves",
        &json!({"ply": 3, "move": moves[3]}),
    );
    assert_eq!(s, 200, "the same move again is a repeat: {b}");
    let (s, b) = srv.post(
        "/api/games/copied/moves",
        &json!({"ply": 4, "move": moves[4]}),
    );
    assert_eq!(s, 200, "{b}");
    let text = srv.file("copied");
    assert!(text.ends_with(&format!(" {} *\n", moves[4])), "{text}");
    assert_eq!(
        text.matches(&format!(" {} ", moves[3])).count(),
        1,
        "{text}"
    );
    let check = bao_validate::check_text(
        "copied.bao",
        srv.file("copied").into(),
        &bao_validate::CheckOptions::default(),
    );
    assert!(check.is_valid());

    // Gone from the directory: gone from the list.
    std::fs::remove_file(dir.path().join("direct.bao")).unwrap();
    assert!(!listed(&srv).contains_key("direct"));
    assert_eq!(srv.get("/api/games/direct/state").0, 404);
}

#[test]
fn a_file_being_written_is_listed_with_its_problem_and_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let id = srv.new_game(&json!({"South": "Ali", "North": "Bakari"}));
    let (s, _) = srv.play(&id, 0, "A6<*");
    assert_eq!(s, 200);
    let whole = srv.file(&id);
    // Another program has written half of a record so far, in place.
    let half = &whole[..whole.len() / 2];
    std::fs::write(dir.path().join("late.bao"), half).unwrap();
    std::fs::write(dir.path().join("empty.bao"), "").unwrap();
    for _ in 0..2 {
        let games = listed(&srv);
        assert!(games["late"]["problem"].is_string(), "{games:?}");
        assert_eq!(games["empty"]["problem"], "the file is empty");
        assert_eq!(srv.get("/api/games/late/state").0, 404);
        assert_eq!(srv.get("/games/late").0, 404);
    }
    // The server wrote into neither.
    assert_eq!(srv.file("late"), half);
    assert_eq!(srv.file("empty"), "");
    // Once the whole record is there, it is served.
    std::fs::write(dir.path().join("late.bao"), &whole).unwrap();
    let games = listed(&srv);
    assert_eq!(games["late"]["plies"], 1, "{games:?}");
    assert!(games["late"].get("problem").is_none());

    // A served game whose file another program is rewriting: no change lands in it.
    std::fs::write(dir.path().join(format!("{id}.bao")), half).unwrap();
    let (s, b) = srv.play(&id, 1, "a5<");
    assert_eq!((s, &b["code"]), (409, &json!("serve::file_invalid")), "{b}");
    assert_eq!(srv.file(&id), half);
    // Read, it is the last valid game; listed, it has its problem.
    assert_eq!(srv.get(&format!("/api/games/{id}/record")).1, whole);
    assert!(listed(&srv)[&id]["problem"].is_string());
    // Finished by the other program: served again, and it goes on.
    std::fs::write(dir.path().join(format!("{id}.bao")), &whole).unwrap();
    let (s, b) = srv.play(&id, 1, "a5<");
    assert_eq!(s, 200, "{b}");
}

#[test]
fn a_hostile_position_is_answered_within_the_budget_while_other_boards_go_on() {
    // Where the end test after A5<* (has North a legal move?) runs a move past the 64 laps
    // where never-ending detection begins: undecided under a budget of 0 laps.
    const LONG_END_TEST: &str =
        "0,0,8,1,13,9,0,1/6,0,0,2,4,0,3,1/0,1,0,1,1,2,3,2/1,1,2,1,0,0,1,0 0/0 S XX -";
    let dir = tempfile::tempdir().unwrap();
    let srv = start_with(dir.path(), |c| c.lap_budget = 0);
    let other = srv.new_game(&json!({}));
    let (s, b) = srv.post("/api/games", &json!({"position": LONG_END_TEST}));
    assert_eq!(s, 201, "{b}");
    let hostile = b["id"].as_str().unwrap().to_owned();
    let before = srv.file(&hostile);
    let t = std::time::Instant::now();
    let (s, b) = srv.post(
        &format!("/api/games/{hostile}/moves"),
        &json!({"ply": 0, "move": "A5<*"}),
    );
    assert_eq!(
        (s, &b["code"]),
        (422, &json!("bao::budget::undecided")),
        "{b}"
    );
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!(srv.file(&hostile), before);
    // A game file whose start position's moves are undecided (issue 15's first position),
    // copied in: served, its legal moves `null` (undecided within the budget) and a move on
    // it refused, each answered at once; the other board goes on meanwhile.
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/invalid/budget/undecided.bao");
    let text = std::fs::read_to_string(fixture).unwrap();
    let start = text.find("[Event").unwrap();
    let no_moves = text[start..].replace("1. A1>* *", "*");
    drop_in(dir.path(), "undecided.bao", &no_moves);
    let t = std::time::Instant::now();
    let games = listed(&srv);
    assert_eq!(games["undecided"]["live"], true, "{games:?}");
    let (s, state) = srv.get("/api/games/undecided/state");
    assert_eq!(s, 200);
    let state: Value = serde_json::from_str(&state).unwrap();
    assert!(
        state["legal"].is_null() && state["outcome"].is_null(),
        "{state}"
    );
    let (s, b) = srv.post(
        "/api/games/undecided/moves",
        &json!({"ply": 0, "move": "A1>*"}),
    );
    assert_eq!(
        (s, &b["code"]),
        (422, &json!("bao::budget::undecided")),
        "{b}"
    );
    let (s, b) = srv.post(
        &format!("/api/games/{other}/moves"),
        &json!({"ply": 0, "move": "A6<*"}),
    );
    assert_eq!(s, 200, "{b}");
    assert!(t.elapsed() < Duration::from_secs(5));
}

/// A 4xx that axum makes itself (a method a route does not take) is JSON too.
#[test]
fn every_refusal_is_json() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let (s, b, _) = raw("DELETE", &srv.url("/api/games"), &[], None);
    assert_eq!(s, 405);
    let v: Value = serde_json::from_str(&b).unwrap();
    assert_eq!(v["code"], json!("serve::method_not_allowed"), "{b}");
    let (s, b, _) = raw("PUT", &srv.url("/api/login"), &[], Some(b"{}"));
    assert_eq!(s, 405);
    assert!(serde_json::from_str::<Value>(&b).is_ok(), "{b}");
}

/// The game's last ply sent again once it ended the game (the answer lost on the way):
/// acknowledged, not "the game is over".
#[test]
fn the_last_ply_sent_again_after_the_end_is_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let id = srv.new_game(&json!({"South": "A", "North": "B"}));
    let moves = fixture_moves();
    assert_eq!(srv.play(&id, 0, &moves[0]).0, 200);
    let (s, b) = srv.post(
        &format!("/api/games/{id}/result"),
        &json!({"result": "1-0", "plies": 1}),
    );
    assert_eq!(s, 200, "{b}");
    let before = srv.file(&id);
    let (s, b) = srv.play(&id, 0, &moves[0]);
    assert_eq!(
        (s, &b["plies"], &b["live"]),
        (200, &json!(1), &json!(false)),
        "{b}"
    );
    assert_eq!(srv.file(&id), before);
    // A new ply is still refused: the game is over.
    let (s, b) = srv.play(&id, 1, &moves[1]);
    assert_eq!((s, &b["code"]), (409, &json!("serve::game_over")));
}

/// A match's game ended, the next one begun: the ended game's last ply sent again (its
/// answer lost) is acknowledged with the state of the game now going on.
#[test]
fn a_matchs_last_ply_sent_again_after_the_next_game_began_is_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let moves = fixture_moves();
    let id = srv.new_game(&json!({"South": "A", "North": "B", "Match": "A v B"}));
    assert_eq!(srv.play(&id, 0, &moves[0]).0, 200);
    assert_eq!(srv.play(&id, 1, &moves[1]).0, 200);
    let (s, b) = srv.post(
        &format!("/api/games/{id}/result"),
        &json!({"result": "0-1", "plies": 2}),
    );
    assert_eq!((s, &b["plies"]), (200, &json!(0)), "game 2 has begun: {b}");
    let before = srv.file(&id);
    let (s, b) = srv.play(&id, 1, &moves[1]);
    assert_eq!(
        (s, &b["plies"], &b["live"]),
        (200, &json!(0), &json!(true)),
        "{b}"
    );
    assert_eq!(srv.file(&id), before);
    // Not the move game 1 ended with: refused as before.
    let (s, b) = srv.play(&id, 1, &moves[0]);
    assert_eq!((s, &b["code"]), (409, &json!("serve::out_of_turn")), "{b}");
    assert_eq!(srv.file(&id), before);
}

/// A mis-tapped resignation is taken back from the phone: `undo` on a finished game takes
/// its result back, then plies again.
#[test]
fn undo_takes_a_result_back() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let id = srv.new_game(&json!({"South": "A", "North": "B"}));
    let moves = fixture_moves();
    for (i, m) in moves.iter().take(2).enumerate() {
        assert_eq!(srv.play(&id, i, m).0, 200);
    }
    let (s, b) = srv.post(
        &format!("/api/games/{id}/result"),
        &json!({"result": "0-1", "termination": "resignation", "plies": 2}),
    );
    assert_eq!((s, &b["result"]), (200, &json!("0-1")), "{b}");
    assert!(srv.file(&id).contains("Termination"));
    // The wrong count is refused; the right one takes the result back, not a ply.
    let undo = format!("/api/games/{id}/undo");
    assert_eq!(srv.post(&undo, &json!({"plies": 1})).0, 409);
    let (s, b) = srv.post(&undo, &json!({"plies": 2}));
    assert_eq!(
        (s, &b["result"], &b["live"], &b["plies"]),
        (200, &json!("*"), &json!(true), &json!(2)),
        "{b}"
    );
    let text = srv.file(&id);
    assert!(
        !text.contains("Termination") && !text.contains("0-1"),
        "{text}"
    );
    // The game goes on.
    assert_eq!(srv.play(&id, 2, &moves[2]).0, 200);
    let check = bao_validate::check_bytes(&id, text.as_bytes(), &Default::default());
    assert!(check.report.is_valid(), "{text}");
}

/// A best-of-three match: once game 1 is over, the list still shows it with its result
/// (the file's earlier games), beside game 2 going on.
#[test]
fn a_matchs_finished_games_stay_in_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let id = srv.new_game(
        &json!({"South": "Ali", "North": "Bakari", "Round": "1", "Match": "Ali v Bakari"}),
    );
    assert_eq!(srv.play(&id, 0, &fixture_moves()[0]).0, 200);
    let (s, b) = srv.post(
        &format!("/api/games/{id}/result"),
        &json!({"result": "1-0", "plies": 1}),
    );
    assert_eq!(s, 200, "{b}");
    let games = listed(&srv);
    let g = &games[&id];
    assert_eq!(g["plies"], json!(0), "game 2 has begun: {g}");
    assert_eq!(
        g["tags"]["South"],
        json!("Bakari"),
        "the players changed seats: {g}"
    );
    let earlier = g["earlier"].as_array().unwrap();
    assert_eq!(earlier.len(), 1, "{g}");
    assert_eq!(earlier[0]["result"], json!("1-0"));
    assert_eq!(earlier[0]["plies"], json!(1));
    assert_eq!(earlier[0]["tags"]["South"], json!("Ali"));
    assert_eq!(earlier[0]["tags"]["Round"], json!("1"));
}

/// The small ones: a preset's name in any case, whether the rules know draws, the moves
/// so far in the state, and a 409 that counts plies as the page does.
#[test]
fn the_state_says_what_the_page_needs() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let (s, b) = srv.post("/api/games", &json!({"tags": {}, "rules": "Kiswahili"}));
    assert_eq!(s, 201, "{b}");
    let id = b["id"].as_str().unwrap().to_owned();
    let moves = fixture_moves();
    let (_, st) = srv.play(&id, 0, &moves[0]);
    assert_eq!(st["draws"], json!(false));
    assert_eq!(st["line"], json!([moves[0].clone()]));
    let (s, b) = srv.play(&id, 5, &moves[1]);
    assert_eq!(s, 409);
    let m = b["message"].as_str().unwrap();
    assert!(m.contains("the next is ply 2"), "{m}");
    let (s, b) = srv.post(
        &format!("/api/games/{id}/result"),
        &json!({"result": "1/2-1/2"}),
    );
    assert_eq!((s, &b["code"]), (422, &json!("serve::no_draws")));
}

/// Slow clients: connections that never finish their headers, and bodies shorter than
/// their `Content-Length`, are closed within the time-outs while the others are answered;
/// a `Content-Length` beyond the limit is refused at once.
#[test]
fn slow_clients_are_closed_within_the_time_outs() {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    use std::time::Instant;
    let dir = tempfile::tempdir().unwrap();
    let srv = start_with(dir.path(), |c| {
        c.header_timeout = Duration::from_secs(2);
        c.body_timeout = Duration::from_secs(2);
    });
    let addr = srv.base.trim_start_matches("http://").to_owned();
    let t0 = Instant::now();
    // 300 connections holding half-sent headers.
    let mut half: Vec<TcpStream> = (0..300)
        .map(|_| {
            let mut c = TcpStream::connect(&addr).unwrap();
            c.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                .unwrap();
            c
        })
        .collect();
    // A lying Content-Length: 100 promised, 1 byte sent.
    let mut lying = TcpStream::connect(&addr).unwrap();
    lying
        .write_all(
            b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
        )
        .unwrap();
    // A huge Content-Length, without credentials: 413 at once.
    let mut huge = TcpStream::connect(&addr).unwrap();
    huge.write_all(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n{")
        .unwrap();
    huge.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut answer = String::new();
    let _ = huge.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"code\":\"serve::too_large\""), "{answer}");
    // The others are answered meanwhile.
    let mut took: Vec<Duration> = (0..50)
        .map(|_| {
            let t = Instant::now();
            assert_eq!(srv.get("/api/games").0, 200);
            t.elapsed()
        })
        .collect();
    took.sort();
    eprintln!(
        "GET /api/games beside 300 half-open connections: p50 {:?}, p99 {:?}",
        took[took.len() / 2],
        took[took.len() * 99 / 100]
    );
    // The lying body: 408 within the body time-out.
    lying
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut answer = String::new();
    let _ = lying.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("serve::body_timeout"), "{answer}");
    // Every half-open connection is closed by the server (end of stream or reset).
    for c in &mut half {
        c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut buf = [0u8; 512];
        loop {
            match c.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    }
    let all_closed = t0.elapsed();
    assert!(
        all_closed < Duration::from_secs(10),
        "the half-open connections were closed after {all_closed:?}"
    );
    eprintln!("300 half-open connections all closed after {all_closed:?}");
    assert_eq!(srv.get("/api/games").0, 200);
}

/// More connections than the cap: the next one waits until a slow one is closed, then is
/// answered.
#[test]
fn connections_beyond_the_cap_wait_their_turn() {
    use std::io::Write;
    use std::net::TcpStream;
    use std::time::Instant;
    let dir = tempfile::tempdir().unwrap();
    let srv = start_with(dir.path(), |c| {
        c.header_timeout = Duration::from_secs(1);
        c.max_connections = 8;
    });
    let addr = srv.base.trim_start_matches("http://").to_owned();
    let _held: Vec<TcpStream> = (0..8)
        .map(|_| {
            let mut c = TcpStream::connect(&addr).unwrap();
            c.write_all(b"GET / HTTP/1.1\r\n").unwrap();
            c
        })
        .collect();
    thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    assert_eq!(srv.get("/api/games").0, 200);
    let waited = t.elapsed();
    assert!(
        waited >= Duration::from_millis(500) && waited < Duration::from_secs(5),
        "answered after {waited:?}"
    );
}

/// `GET /evening.bao`: every game of the evening in one record that checks, live.
#[test]
fn the_evening_is_one_record() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let moves = fixture_moves();
    let a = srv.new_game(&json!({"South": "Ali", "North": "Bakari", "Round": "1"}));
    let b = srv
        .new_game(&json!({"South": "Chausiku", "North": "Daudi", "Round": "1", "Match": "C v D"}));
    for (i, m) in moves.iter().take(4).enumerate() {
        assert_eq!(srv.play(&a, i, m).0, 200);
    }
    assert_eq!(srv.play(&b, 0, &moves[0]).0, 200);
    assert_eq!(
        srv.post(&format!("/api/games/{b}/result"), &json!({"result": "0-1"}))
            .0,
        200
    );
    let (s, text, headers) = raw("GET", &srv.url("/evening.bao"), &[], None);
    assert_eq!(s, 200);
    assert!(headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("content-type") && v.starts_with("text/plain")));
    let checked = bao_validate::check_bytes("evening.bao", text.as_bytes(), &Default::default());
    assert!(checked.report.is_valid(), "{text}");
    // Both files' games: Ali's game, and the match's finished game 1 and its game 2.
    assert_eq!(text.matches("[Event ").count(), 3, "{text}");
    assert!(text.contains("[South \"Ali\"]") && text.contains("[South \"Daudi\"]"));
    // Live: a ply just played is in the next one.
    assert_eq!(srv.play(&a, 4, &moves[4]).0, 200);
    let (_, after, _) = raw("GET", &srv.url("/evening.bao"), &[], None);
    assert!(after.len() > text.len());
    assert!(after.contains(&srv.file(&a).trim_end().to_owned()));
}

/// The PIN and the phones' sessions survive a restart: kept hashed in the directory, mode
/// 0600; `new_pin` starts afresh.
#[test]
fn the_pin_and_the_sessions_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let pin = srv.pin.clone();
    let (s, b, h) = raw(
        "POST",
        &srv.url("/api/login"),
        &[("Content-Type", "application/json")],
        Some(json!({"pin": pin}).to_string().as_bytes()),
    );
    assert_eq!(s, 200, "{b}");
    let csrf = serde_json::from_str::<Value>(&b).unwrap()["csrf"]
        .as_str()
        .unwrap()
        .to_owned();
    let cookie = h
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
        .map(|(_, v)| v.split(';').next().unwrap().to_owned())
        .unwrap();
    drop(srv);
    let file = dir.path().join(".bao-serve-auth.json");
    let kept = std::fs::read_to_string(&file).unwrap();
    // Neither the PIN nor the cookie is in the file as such.
    let cookie_value = cookie.split_once('=').unwrap().1;
    assert!(
        !kept.contains(cookie_value) && !kept.contains(&format!("\"{pin}\"")),
        "{kept}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    // Restarted: no new PIN; the phone's cookie still records; the old PIN still logs in.
    let config_pin = {
        let mut config = Config::new(dir.path().to_owned());
        config.listen = "127.0.0.1:0".parse().unwrap();
        Server::bind(config).unwrap().pin().map(str::to_owned)
    };
    assert_eq!(config_pin, None);
    let srv = start_with(dir.path(), |_| {});
    let (s, b, _) = raw(
        "POST",
        &srv.url("/api/games"),
        &[
            ("Content-Type", "application/json"),
            ("Cookie", &cookie),
            ("X-CSRF-Token", &csrf),
        ],
        Some(br#"{"tags": {"South": "A", "North": "B"}}"#),
    );
    assert_eq!(s, 201, "{b}");
    let (s, _, _) = raw(
        "POST",
        &srv.url("/api/login"),
        &[("Content-Type", "application/json")],
        Some(json!({"pin": pin}).to_string().as_bytes()),
    );
    assert_eq!(s, 200);
    drop(srv);
    // A new PIN logs every phone out.
    let srv = start_with(dir.path(), |c| c.new_pin = true);
    assert_ne!(srv.pin, "");
    let (s, _, _) = raw(
        "POST",
        &srv.url("/api/games"),
        &[
            ("Content-Type", "application/json"),
            ("Cookie", &cookie),
            ("X-CSRF-Token", &csrf),
        ],
        Some(br#"{"tags": {}}"#),
    );
    assert_eq!(s, 401);
}

/// `board.svg?ply=N`: the board after the first N plies, ply N marked, the same picture
/// the live board was when the game had N plies; a ply beyond the game is `404` JSON.
#[test]
fn a_board_of_an_earlier_ply_is_the_board_the_game_had_then() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let moves = fixture_moves();
    let id = srv.new_game(&json!({"South": "Ali", "North": "Bakari"}));
    let mut then = vec![srv.get(&format!("/api/games/{id}/board.svg")).1];
    for (i, m) in moves.iter().take(5).enumerate() {
        assert_eq!(srv.play(&id, i, m).0, 200);
        then.push(srv.get(&format!("/api/games/{id}/board.svg")).1);
    }
    for (n, want) in then.iter().enumerate() {
        let (s, svg) = srv.get(&format!("/api/games/{id}/board.svg?ply={n}&v=9"));
        assert_eq!(s, 200);
        assert_eq!(&svg, want, "the board after {n} plies");
        let (s, flipped) = srv.get(&format!("/api/games/{id}/board.svg?ply={n}&flip=1"));
        assert_eq!(s, 200);
        assert_ne!(&flipped, want);
    }
    // Pictures of different plies differ (the seeds moved).
    assert_ne!(then[2], then[3]);
    for bad in ["6", "-1", "x", ""] {
        let (s, b) = srv.get(&format!("/api/games/{id}/board.svg?ply={bad}"));
        assert_eq!(s, 404, "ply={bad}");
        let b: Value = serde_json::from_str(&b).unwrap();
        assert_eq!(b["code"], "serve::no_such_ply", "ply={bad}");
    }
}

/// Rounds and standings: players, a round-robin round with a bye (its games made with
/// `Round`), a best-of-three board counted as one match, a result corrected by the
/// organiser, a Swiss round refused until the round before is finished then paired
/// without repeats, match names unique, and all of it read back after a restart.
#[test]
fn rounds_standings_and_a_corrected_result() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let moves = fixture_moves();
    let event =
        |srv: &Running| -> Value { serde_json::from_str(&srv.get("/api/event").1).unwrap() };
    assert_eq!(event(&srv)["rounds"], json!([]));
    // The evening's watchers hear of every change of the rounds.
    let (tx, rx) = mpsc::channel::<String>();
    let evening = srv.url("/api/events");
    thread::spawn(move || {
        let resp = agent().get(&evening).call().unwrap();
        for line in BufReader::new(resp.into_reader()).lines() {
            let Ok(line) = line else { return };
            if let Some(kind) = line.strip_prefix("event: ") {
                if tx.send(kind.to_owned()).is_err() {
                    return;
                }
            }
        }
    });
    thread::sleep(Duration::from_millis(300));
    let names = ["Ali", "Bakari", "Chausiku", "Daudi", "Eshe"];
    let (s, b) = srv.post("/api/event/players", &json!({"players": names}));
    assert_eq!(s, 200, "{b}");
    assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), "rounds");
    let (s, b) = srv.post("/api/event/players", &json!({"players": ["Ali", "Ali"]}));
    assert_eq!((s, &b["code"]), (422, &json!("serve::bad_players")));
    // Round 1, round-robin, best of three: two boards and a bye.
    let (s, b) = srv.post(
        "/api/event/rounds",
        &json!({"pairing": "round-robin", "best_of_three": true}),
    );
    assert_eq!(s, 201, "{b}");
    let r1 = &b["rounds"][0];
    assert_eq!(r1["number"], 1);
    assert_eq!(r1["boards"].as_array().unwrap().len(), 2);
    assert!(r1["bye"].is_string());
    let board = |b: &Value, i: usize| {
        let x = &b["rounds"][0]["boards"][i];
        (
            x["game"].as_str().unwrap().to_owned(),
            x["south"].as_str().unwrap().to_owned(),
            x["north"].as_str().unwrap().to_owned(),
        )
    };
    let (g1, s1, n1) = board(&b, 0);
    let (g2, s2, n2) = board(&b, 1);
    assert!(srv.file(&g2).contains("[Round \"1\"]"));
    let file = srv.file(&g1);
    assert!(file.contains("[Round \"1\"]") && file.contains(&format!("[South \"{s1}\"]")));
    assert!(
        file.contains(&format!("[Match \"Round 1: {s1} v {n1}\"]")),
        "{file}"
    );
    // A match's name is unique in the evening.
    let (s, b) = srv.post(
        "/api/games",
        &json!({"tags": {"South": "X", "North": "Y", "Match": format!("Round 1: {s1} v {n1}")}}),
    );
    assert_eq!((s, &b["code"]), (409, &json!("serve::match_exists")), "{b}");
    assert!(b["message"].as_str().unwrap().contains("Round 1"));
    // A Swiss round before round 1 is finished: refused.
    let (s, b) = srv.post("/api/event/rounds", &json!({"pairing": "swiss"}));
    assert_eq!(
        (s, &b["code"]),
        (409, &json!("serve::round_not_finished")),
        "{b}"
    );
    // Board 1: game 1 won by its South (s1), game 2 (seats changed) won by s1 too: the
    // match is over, 2-0, one match won.
    assert_eq!(srv.play(&g1, 0, &moves[0]).0, 200);
    let (s, b) = srv.post(
        &format!("/api/games/{g1}/result"),
        &json!({"result": "1-0"}),
    );
    assert_eq!(s, 200, "{b}");
    let (s, b) = srv.post(
        &format!("/api/games/{g1}/result"),
        &json!({"result": "0-1"}),
    );
    assert_eq!(s, 200, "{b}");
    let e = event(&srv);
    let b1 = &e["rounds"][0]["boards"][0];
    assert_eq!(
        (&b1["score"], &b1["outcome"], &b1["corrected"]),
        (&json!("2-0"), &json!("1-0"), &json!(false)),
        "{e}"
    );
    // Board 2 played away from the server: its result entered by the organiser.
    let (s, b) = srv.post(
        "/api/event/rounds/1/result",
        &json!({"board": 2, "result": "1/2-1/2"}),
    );
    assert_eq!(s, 200, "{b}");
    let e = event(&srv);
    let mp = |e: &Value, n: &str| -> u64 {
        e["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == n)
            .unwrap()["match_points"]
            .as_u64()
            .unwrap()
    };
    let bye = e["rounds"][0]["bye"].as_str().unwrap().to_owned();
    assert_eq!(
        (
            mp(&e, &s1),
            mp(&e, &n1),
            mp(&e, &s2),
            mp(&e, &n2),
            mp(&e, &bye)
        ),
        (2, 0, 1, 1, 2)
    );
    assert_eq!(e["tiebreaks"][0], "Sonneborn-Berger");
    // The crosstable: s1's round 1 is a 2-0 win as South over n1.
    let row = e["crosstable"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == s1.as_str())
        .unwrap();
    assert_eq!(
        (
            &row["rounds"][0]["side"],
            &row["rounds"][0]["score"],
            &row["rounds"][0]["outcome"]
        ),
        (&json!("S"), &json!("2-0"), &json!("W"))
    );
    // Board 1 corrected after the fact: n1 won the match (a wrong result on the sheet).
    let (s, _) = srv.post(
        "/api/event/rounds/1/result",
        &json!({"board": 1, "result": "0-1"}),
    );
    assert_eq!(s, 200);
    let e = event(&srv);
    assert_eq!((mp(&e, &s1), mp(&e, &n1)), (0, 2));
    assert_eq!(e["rounds"][0]["boards"][0]["corrected"], true);
    // Bad corrections: 404 and 422, JSON.
    let (s, b) = srv.post(
        "/api/event/rounds/9/result",
        &json!({"board": 1, "result": "1-0"}),
    );
    assert_eq!((s, &b["code"]), (404, &json!("serve::no_such_board")));
    let (s, b) = srv.post(
        "/api/event/rounds/1/result",
        &json!({"board": 1, "result": "2-0"}),
    );
    assert_eq!((s, &b["code"]), (422, &json!("serve::bad_result")));
    // Now a Swiss round: no pair of round 1 again, the bye to someone else.
    let (s, b) = srv.post("/api/event/rounds", &json!({"pairing": "swiss"}));
    assert_eq!(s, 201, "{b}");
    let r2 = &b["rounds"][1];
    assert_ne!(r2["bye"], json!(bye));
    for x in r2["boards"].as_array().unwrap() {
        let pair = [x["south"].as_str().unwrap(), x["north"].as_str().unwrap()];
        for (a, c) in [(&s1, &n1), (&s2, &n2)] {
            assert!(
                !(pair.contains(&a.as_str()) && pair.contains(&c.as_str())),
                "{pair:?} again"
            );
        }
        let f = srv.file(x["game"].as_str().unwrap());
        assert!(f.contains("[Round \"2\"]") && !f.contains("[Match "), "{f}");
    }
    // An entered round: a newcomer joins the players.
    let (s, b) = srv.post(
        "/api/event/rounds",
        &json!({"pairing": "entered", "boards": [{"south": "Faraji", "north": "Ali"}]}),
    );
    assert_eq!(s, 201, "{b}");
    assert!(b["players"].as_array().unwrap().contains(&json!("Faraji")));
    let (s, b) = srv.post(
        "/api/event/rounds",
        &json!({"pairing": "entered", "boards": [{"south": "Ali", "north": "Ali"}]}),
    );
    assert_eq!((s, &b["code"]), (422, &json!("serve::bad_round")), "{b}");
    // All of it in event.toml, read back by a new server.
    let before = event(&srv);
    let text = std::fs::read_to_string(dir.path().join("event.toml")).unwrap();
    assert!(
        text.contains("[[round.board]]") && text.contains("result = \"0-1\""),
        "{text}"
    );
    drop(srv);
    let srv = start(dir.path());
    assert_eq!(event(&srv), before);
    // A file that does not read: the server does not start over it.
    drop(srv);
    std::fs::write(dir.path().join("event.toml"), "players = [").unwrap();
    let mut config = Config::new(dir.path().to_owned());
    config.listen = "127.0.0.1:0".parse().unwrap();
    assert!(Server::bind(config).is_err());
}

fn now_ms() -> u64 {
    u64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

fn state_of(srv: &Running, id: &str) -> Value {
    serde_json::from_str(&srv.get(&format!("/api/games/{id}/state")).1).unwrap()
}

/// Clocks: `TimeControl "3+1"`; each ply's time left written after it as `[%clk]` (the
/// record checks clean), the phone's moment taken only near the server's clock, a flag
/// fall asked by the phone refused while time is left and recorded once it ran out, and
/// the clocks read back from the record after a restart; a move after the flag fell ends
/// the game on time instead.
#[test]
fn clocks_are_kept_in_the_record_and_a_flag_falls() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path());
    let moves = fixture_moves();
    let (s, b) = srv.post(
        "/api/games",
        &json!({"tags": {"South": "Ali", "North": "Bakari", "TimeControl": "10 minutes"}}),
    );
    assert_eq!((s, &b["code"]), (422, &json!("serve::bad_time_control")));
    let id = srv.new_game(&json!({"South": "Ali", "North": "Bakari", "TimeControl": "3+1"}));
    let st = state_of(&srv, &id);
    assert_eq!(st["clock"]["running"], Value::Null);
    assert_eq!(
        (&st["clock"]["south_ms"], &st["clock"]["north_ms"]),
        (&json!(3000), &json!(3000))
    );
    // Ply 1 costs nothing: South has 3 + 1 s.
    let (s, b) = srv.post(
        &format!("/api/games/{id}/moves"),
        &json!({"ply": 0, "move": moves[0], "at": now_ms()}),
    );
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["clock"]["south_ms"], 4000);
    assert_eq!(b["clock"]["running"], "north");
    // The evening's list carries each board's clock too.
    let list: Value = serde_json::from_str(&srv.get("/api/games").1).unwrap();
    assert_eq!(list[0]["clock"]["control"], "3+1");
    assert_eq!(list[0]["clock"]["south_ms"], 4000);
    assert!(
        srv.file(&id).contains("{[%clk 0:00:04]}"),
        "{}",
        srv.file(&id)
    );
    // Ply 2, North, made 0.6 s after ply 1 by the phone's clock (near the server's).
    thread::sleep(Duration::from_millis(600));
    let (s, b) = srv.post(
        &format!("/api/games/{id}/moves"),
        &json!({"ply": 1, "move": moves[1], "at": now_ms()}),
    );
    assert_eq!(s, 200, "{b}");
    // 3 s - 0.6 s + 1 s, to the tenth.
    let north = b["clock"]["north_ms"].as_u64().unwrap();
    assert!((3000..=3400).contains(&north), "{b}");
    assert_eq!(north % 100, 0);
    // Ply 3, South: a phone whose clock is a minute ahead is not believed.
    let (s, b) = srv.post(
        &format!("/api/games/{id}/moves"),
        &json!({"ply": 2, "move": moves[2], "at": now_ms() + 60_000}),
    );
    assert_eq!(s, 200, "{b}");
    let south = b["clock"]["south_ms"].as_u64().unwrap();
    assert!((4600..=5000).contains(&south), "{b}");
    let text = srv.file(&id);
    assert_eq!(text.matches("[%clk ").count(), 3, "{text}");
    let checked = bao_validate::check_bytes("g", text.as_bytes(), &Default::default());
    assert!(checked.report.is_valid(), "{text}");
    // North's phone says the flag fell: not yet by the server's clock.
    let (s, b) = srv.post(&format!("/api/games/{id}/flag"), &json!({}));
    assert_eq!((s, &b["code"]), (409, &json!("serve::no_flag_fall")), "{b}");
    assert!(b["left_ms"].as_u64().unwrap() > 1000);
    // The clocks after a restart: from the record.
    let before = state_of(&srv, &id)["clock"].clone();
    drop(srv);
    let srv = start(dir.path());
    let after = state_of(&srv, &id)["clock"].clone();
    for k in ["control", "south_ms", "north_ms", "running"] {
        assert_eq!(before[k], after[k], "{k}");
    }
    // North's 3 s run out.
    thread::sleep(Duration::from_millis(3300));
    let (s, b) = srv.post(&format!("/api/games/{id}/flag"), &json!({}));
    assert_eq!(s, 200, "{b}");
    assert_eq!((&b["result"], &b["live"]), (&json!("1-0"), &json!(false)));
    assert!(srv.file(&id).contains("[Termination \"time_forfeit\"]"));
    // A move sent after the mover's flag fell: the game ends on time, the move not played.
    let id = srv.new_game(&json!({"South": "Chausiku", "North": "Daudi", "TimeControl": "1+0"}));
    assert_eq!(srv.play(&id, 0, &moves[0]).0, 200);
    thread::sleep(Duration::from_millis(1200));
    let (s, b) = srv.play(&id, 1, &moves[1]);
    assert_eq!((s, &b["code"]), (409, &json!("serve::flag_fell")), "{b}");
    assert_eq!(b["state"]["result"], "1-0");
    assert_eq!(b["state"]["plies"], 1);
    let text = srv.file(&id);
    let checked = bao_validate::check_bytes("g", text.as_bytes(), &Default::default());
    assert!(checked.report.is_valid(), "{text}");
}
