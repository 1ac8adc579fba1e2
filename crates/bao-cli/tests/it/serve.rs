//! `bao serve` as a process: killed with SIGKILL at random moments while a scribe posts
//! moves, then restarted on the same directory; and the pages in headless Chromium at phone
//! size (PIN, a short game tapped including a kichwa question, a second page following it
//! live, the file on disk equal to what was tapped).

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::cmd::output_in;

const TOKEN: &str = "serve-test-token";

/// A `bao serve` process, killed on drop.
struct Serving {
    child: Child,
    base: String,
    pin: String,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

/// Starts `bao serve DIR` on `port` and waits until it answers.
fn serve(dir: &Path, port: u16) -> Serving {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_bao"))
        .env("BAO_LANG", "en")
        .args(["serve", dir.to_str().unwrap(), "--listen"])
        .arg(format!("127.0.0.1:{port}"))
        .args(["--event", "Club night"])
        .env("BAO_SERVE_TOKEN", TOKEN)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("bao serve starts");
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let mut pin = String::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        if let Some((_, p)) = line.split_once("PIN ") {
            pin = p.trim().to_owned();
            break;
        }
    }
    // Keep reading its output so that it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    let base = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(30);
    while ureq::get(&format!("{base}/api/games"))
        .timeout(Duration::from_secs(1))
        .call()
        .is_err()
    {
        assert!(Instant::now() < deadline, "bao serve did not answer");
        std::thread::sleep(Duration::from_millis(20));
    }
    Serving { child, base, pin }
}

/// A scribe request: (status, body), `None` when the connection failed.
fn post(base: &str, path: &str, body: &Value) -> Option<(u16, Value)> {
    let r = ureq::post(&format!("{base}{path}"))
        .timeout(Duration::from_secs(20))
        .set("Authorization", &format!("Bearer {TOKEN}"))
        .send_json(body.clone());
    let resp = match r {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(_) => return None,
    };
    let status = resp.status();
    Some((status, resp.into_json().unwrap_or(Value::Null)))
}

fn fixture_moves() -> Vec<String> {
    std::fs::read_to_string(crate::cmd::root().join("fixtures/serve/kiswahili_30.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

/// The main line of a record file, as `bao export json` reads it (`#` marks aside).
fn moves_on_disk(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let out = output_in(file.parent().unwrap(), &["export", "json", "-"], &text);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let games = v["games"].as_array().unwrap();
    games[games.len() - 1]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().replace('#', ""))
        .collect()
}

#[test]
fn killed_at_random_moments_no_acknowledged_ply_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("club");
    std::fs::create_dir(&store).unwrap();
    let port = free_port();
    let moves = fixture_moves();
    let mut server = serve(&store, port);
    let (s, b) = post(
        &server.base,
        "/api/games",
        &json!({"tags": {"South": "A", "North": "B"}}),
    )
    .unwrap();
    assert_eq!(s, 201, "{b}");
    let id = b["id"].as_str().unwrap().to_owned();
    let file = store.join(format!("{id}.bao"));
    let mut rng = bao_testkit::Lcg::new(19);
    let mut acked = 0;
    let mut kills = 0;
    // At most a third of the game a round, so that at least three kills happen however fast
    // the scribe posts (a round that reaches it waits for its killer).
    let per_round = moves.len().div_ceil(3);
    while acked < moves.len() {
        // A killer fires after a random moment while the scribe posts.
        let pid = server.child.id();
        let round_end = (acked + per_round).min(moves.len());
        let delay = Duration::from_millis(5 + rng.below(60) as u64);
        let killer = std::thread::spawn(move || {
            std::thread::sleep(delay);
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        });
        loop {
            if acked >= round_end {
                break;
            }
            match post(
                &server.base,
                &format!("/api/games/{id}/moves"),
                &json!({"ply": acked, "move": moves[acked]}),
            ) {
                Some((200, _)) => acked += 1,
                Some((s, b)) => panic!("ply {acked}: {s} {b}"),
                None => break,
            }
        }
        killer.join().unwrap();
        kills += 1;
        let _ = server.child.wait();
        // Every acknowledged ply is on disk, in order, and the file checks clean.
        let on_disk = moves_on_disk(&file);
        assert!(
            on_disk.len() >= acked,
            "{} on disk, {acked} acknowledged",
            on_disk.len()
        );
        let want: Vec<String> = moves[..on_disk.len()]
            .iter()
            .map(|m| m.replace('#', ""))
            .collect();
        assert_eq!(on_disk, want);
        let check = output_in(dir.path(), &["check", "-q", "club"], "");
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stdout)
        );
        let leftovers: Vec<_> = std::fs::read_dir(&store)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".bao") && e.path() != file)
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        server = serve(&store, port);
        // A ply written but not acknowledged is acknowledged now (the same ply again).
        let (_, state) = get_json(&format!("{}/api/games/{id}/state", server.base));
        assert_eq!(state["plies"], on_disk.len());
    }
    assert!(kills >= 2, "{kills} kills");
    assert_eq!(moves_on_disk(&file).len(), moves.len());
}

/// The evening's rounds and a clock under SIGKILL: the organiser pairs rounds and sets and
/// corrects results, and a scribe records a timed board (`TimeControl`), while the server
/// is killed at random moments; after each restart every acknowledged change is in
/// `event.toml` (a change in flight when the server died may be there too, never half of
/// one), every acknowledged ply is on disk with its `[%clk]`, and the clocks are the ones
/// last acknowledged.
#[test]
fn killed_at_random_moments_no_acknowledged_round_or_result_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("club");
    std::fs::create_dir(&store).unwrap();
    let port = free_port();
    let mut server = serve(&store, port);
    let players = ["Amani", "Bahati", "Chiku", "Dalila", "Enzi", "Fumo"];
    let (s, b) = post(
        &server.base,
        "/api/event/players",
        &json!({ "players": players }),
    )
    .unwrap();
    assert_eq!(s, 200, "{b}");
    let (s, b) = post(
        &server.base,
        "/api/event/rounds",
        &json!({"pairing": "round-robin", "time_control": "3600+5"}),
    )
    .unwrap();
    assert_eq!(s, 201, "{b}");
    let timed = b["rounds"][0]["boards"][0]["game"]
        .as_str()
        .unwrap()
        .to_owned();
    let timed_file = store.join(format!("{timed}.bao"));
    assert!(std::fs::read_to_string(&timed_file)
        .unwrap()
        .contains("[TimeControl \"3600+5\"]"));
    let moves = fixture_moves();
    // The timed board: plies acknowledged, and the clocks of the last answer.
    let mut plies = 0;
    let mut clock = Value::Null;
    let mut rng = bao_testkit::Lcg::new(23);
    // What was acknowledged: the rounds, each (round, board)'s result; and the one change
    // in flight when the server died.
    let mut rounds = 1;
    let mut results: std::collections::BTreeMap<(usize, usize), Value> = Default::default();
    let values = [json!("1-0"), json!("0-1"), json!("1/2-1/2"), Value::Null];
    let mut step = 0;
    for _ in 0..4 {
        let pid = server.child.id();
        let delay = Duration::from_millis(40 + rng.below(160) as u64);
        let killer = std::thread::spawn(move || {
            std::thread::sleep(delay);
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        });
        let mut in_flight;
        let mut first = true;
        loop {
            step += 1;
            // Each window starts with a new round, then sets and corrects results.
            if std::mem::take(&mut first) && rounds < 5 {
                in_flight = Some(None);
                match post(
                    &server.base,
                    "/api/event/rounds",
                    &json!({"pairing": "round-robin"}),
                ) {
                    Some((201, _)) => rounds += 1,
                    Some((s, b)) => panic!("round {}: {s} {b}", rounds + 1),
                    None => break,
                }
            } else if step % 2 == 0 && plies < moves.len() {
                in_flight = None;
                match post(
                    &server.base,
                    &format!("/api/games/{timed}/moves"),
                    &json!({"ply": plies, "move": moves[plies]}),
                ) {
                    Some((200, b)) => {
                        plies += 1;
                        clock = b["clock"].clone();
                    }
                    Some((s, b)) => panic!("ply {plies}: {s} {b}"),
                    None => break,
                }
            } else {
                let round = 1 + step % rounds;
                let board = 1 + step % 3;
                let value = values[step % values.len()].clone();
                in_flight = Some(Some(((round, board), value.clone())));
                match post(
                    &server.base,
                    &format!("/api/event/rounds/{round}/result"),
                    &json!({"board": board, "result": value}),
                ) {
                    Some((200, _)) => {
                        results.insert((round, board), value);
                    }
                    Some((s, b)) => panic!("result {round}/{board}: {s} {b}"),
                    None => break,
                }
            }
        }
        killer.join().unwrap();
        let _ = server.child.wait();
        server = serve(&store, port);
        let (s, ev) = get_json(&format!("{}/api/event", server.base));
        assert_eq!(s, 200);
        let got = ev["rounds"].as_array().unwrap();
        let round_in_flight = matches!(in_flight, Some(None));
        assert!(
            got.len() == rounds || (round_in_flight && got.len() == rounds + 1),
            "{} rounds on disk, {rounds} acknowledged",
            got.len()
        );
        rounds = got.len();
        for ((round, board), value) in results.clone() {
            let on_disk = &got[round - 1]["boards"][board - 1]["result"];
            let flying =
                matches!(&in_flight, Some(Some((k, v))) if *k == (round, board) && v == on_disk);
            assert!(
                on_disk == &value || flying,
                "round {round} board {board}: {on_disk} on disk, {value} acknowledged"
            );
            if flying {
                results.insert((round, board), on_disk.clone());
            }
        }
        // The timed board: every acknowledged ply on disk, each with its clock (written in
        // the ply's own write: no ply without one); the clocks the last answer gave (unless
        // a ply in flight landed since).
        let on_disk = moves_on_disk(&timed_file);
        assert!(
            on_disk.len() >= plies,
            "{} plies on disk, {plies} acknowledged",
            on_disk.len()
        );
        let text = std::fs::read_to_string(&timed_file).unwrap();
        assert_eq!(text.matches("[%clk ").count(), on_disk.len(), "{text}");
        let (_, st) = get_json(&format!("{}/api/games/{timed}/state", server.base));
        if on_disk.len() == plies && plies > 0 {
            for k in ["south_ms", "north_ms", "running"] {
                assert_eq!(st["clock"][k], clock[k], "{k} after a kill");
            }
        }
        plies = on_disk.len();
        clock = st["clock"].clone();
        // Every board of every round has its game, served.
        for r in got {
            for b in r["boards"].as_array().unwrap() {
                let id = b["game"].as_str().unwrap();
                assert_eq!(
                    get_json(&format!("{}/api/games/{id}/state", server.base)).0,
                    200
                );
            }
        }
    }
    assert!(rounds >= 3, "{rounds} rounds");
    assert!(results.len() >= 3, "{results:?}");
    assert!(plies >= 3, "{plies} timed plies");
}

fn get_json(url: &str) -> (u16, Value) {
    match ureq::get(url).timeout(Duration::from_secs(20)).call() {
        Ok(r) => (r.status(), r.into_json().unwrap()),
        Err(ureq::Error::Status(s, r)) => (s, r.into_json().unwrap_or(Value::Null)),
        Err(e) => panic!("{url}: {e}"),
    }
}

/// The scribe's page in headless Chromium at phone size. Skipped without Chromium, unless
/// `CI` is set. With `BAO_PNG_DIR` set, the screenshots are kept there.
#[test]
fn a_game_tapped_on_a_phone_is_followed_live_and_lands_on_disk() {
    let chromium = Path::new("/usr/bin/chromium");
    let driver = Path::new("/usr/bin/chromedriver");
    if !chromium.exists() || !driver.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but chromium or chromedriver is missing"
        );
        eprintln!("skipped: the browser test needs /usr/bin/chromium and /usr/bin/chromedriver");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = serve(dir.path(), free_port());
    let base = server.base.clone();
    let keep = std::env::var_os("BAO_PNG_DIR");
    let shot = |s: &crate::browser::Session<'_>, name: &str| {
        let png = s.screenshot();
        assert!(png.starts_with(b"\x89PNG"));
        if let Some(k) = &keep {
            std::fs::write(Path::new(k).join(format!("serve-{name}.png")), &png).unwrap();
        }
    };
    let wait_for = |s: &crate::browser::Session<'_>, script: &str, what: &str| {
        let deadline = Instant::now() + Duration::from_secs(20);
        while s.js(script, json!([])) != json!(true) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    };

    let d = crate::browser::Driver::start(driver);
    let (p1, p2) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let scribe = d.phone_session(chromium, p1.path(), (360, 740));
    // The PIN, then a new game.
    scribe.go(&format!("{base}/scribe"));
    assert_eq!(scribe.js("return window.innerWidth", json!([])), json!(360));
    wait_for(
        &scribe,
        "return !!document.getElementById('pin')",
        "the PIN form",
    );
    scribe.js(
        "document.getElementById('pin').value = arguments[0];",
        json!([server.pin]),
    );
    scribe.click("#pin-go");
    wait_for(
        &scribe,
        "return !!document.getElementById('new-go')",
        "the scribe's page",
    );
    scribe.js(
        "var f = document.querySelector('form.new');\
         f.elements.South.value = 'Ali'; f.elements.North.value = 'Bakari'; f.elements.Round.value = '1';",
        json!([]),
    );
    shot(&scribe, "new-game");
    scribe.click("#new-go");
    wait_for(&scribe, "return location.pathname.startsWith('/scribe/') && document.querySelector('main').dataset.plies === '0'", "the board");
    // The tap areas are placed once the board's picture is read.
    wait_for(
        &scribe,
        "return !!document.querySelector('.boardbox').dataset.version",
        "the board's picture",
    );
    let id = scribe
        .js("return location.pathname.split('/')[2]", json!([]))
        .as_str()
        .unwrap()
        .to_owned();
    // A spectator follows the game on a second page.
    let spectator = d.phone_session(chromium, p2.path(), (360, 740));
    spectator.go(&format!("{base}/games/{id}"));
    wait_for(
        &spectator,
        "return document.querySelector('main').dataset.plies === '0'",
        "the game page",
    );

    // Tap: a pit, then an arrow, or the kichwa the page asks for (ply 2, a5).
    let moves: Vec<String> = fixture_moves().into_iter().take(6).collect();
    let mut kichwa_asked = false;
    for (i, m) in moves.iter().enumerate() {
        let (pit, sign) = (&m[..2], &m[2..3]);
        scribe.click(&format!("button[data-pit=\"{pit}\"]"));
        let kichwa = scribe.js(
            "return !!document.getElementById('opt-left-kichwa')",
            json!([]),
        );
        if kichwa == json!(true) {
            kichwa_asked = true;
            shot(&scribe, "kichwa-question");
            scribe.click(if sign == "<" {
                "#opt-left-kichwa"
            } else {
                "#opt-right-kichwa"
            });
        } else {
            scribe.click(if sign == "<" {
                "#arrow-left"
            } else {
                "#arrow-right"
            });
        }
        if scribe.js("return !!document.getElementById('opt-stop')", json!([])) == json!(true) {
            scribe.click(if m.contains('+') {
                "#opt-safari"
            } else {
                "#opt-stop"
            });
        }
        wait_for(
            &scribe,
            &format!(
                "return document.querySelector('main').dataset.plies === '{}'",
                i + 1
            ),
            &format!("ply {} ({m}) recorded", i + 1),
        );
    }
    assert!(kichwa_asked, "the kichwa question was asked");
    shot(&scribe, "scribe-board");
    // The spectator saw every ply arrive without reloading.
    wait_for(
        &spectator,
        &format!(
            "return document.querySelector('main').dataset.plies === '{}'",
            moves.len()
        ),
        "the spectator's page to follow",
    );
    shot(&spectator, "spectator");
    // North resigns, confirmed.
    scribe.click("#resign-north");
    shot(&scribe, "confirm-resign");
    scribe.click("#confirm-result");
    wait_for(
        &scribe,
        "return document.getElementById('status').textContent.indexOf('1-0') >= 0",
        "the result",
    );
    shot(&scribe, "game-over");
    // The file on disk is what was tapped.
    let file = dir.path().join(format!("{id}.bao"));
    let want: Vec<String> = moves.iter().map(|m| m.replace('#', "")).collect();
    assert_eq!(moves_on_disk(&file), want);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("[South \"Ali\"]") && text.contains("[Round \"1\"]"));
    assert!(text.contains("[Termination \"resignation\"]") && text.trim_end().ends_with("1-0"));
    let check = output_in(dir.path(), &["check", "-q", "."], "");
    assert!(check.status.success());
    // The evening shows it, finished; no console errors on either page.
    spectator.go(&format!("{base}/"));
    wait_for(
        &spectator,
        "return document.querySelectorAll('table.games tbody tr').length === 1",
        "the evening",
    );
    shot(&spectator, "evening");
    for s in [&scribe, &spectator] {
        let errors: Vec<Value> = s
            .log("browser")
            .into_iter()
            .filter(|e| e["level"] == json!("SEVERE"))
            .collect();
        assert!(errors.is_empty(), "console errors: {errors:?}");
    }
    drop((scribe, spectator));
    club_night_pages(&d, chromium, &base, &server.pin);
    projector_wall(&d, chromium);
    rounds_pages(&d, chromium);
}

/// The pits of a served board picture: its viewBox and each pit's centre, read from the
/// SVG's own `bao-A1` ... `bao-b8` circles (what a person sees, independent of the page).
fn pit_centres(svg: &str) -> ([f64; 4], Vec<(String, f64, f64)>) {
    let attr = |from: &str, name: &str| -> f64 {
        let at = from.find(&format!(" {name}=\"")).expect("the attribute") + name.len() + 3;
        let end = from[at..].find('"').unwrap();
        from[at..at + end].parse().unwrap()
    };
    let vb_at = svg.find("viewBox=\"").unwrap() + 9;
    let vb_end = svg[vb_at..].find('"').unwrap();
    let vb: Vec<f64> = svg[vb_at..vb_at + vb_end]
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    let mut pits = Vec::new();
    for row in ["A", "B", "a", "b"] {
        for n in 1..=8 {
            let pit = format!("{row}{n}");
            let g = svg
                .find(&format!("id=\"bao-{pit}\""))
                .expect("the pit's group");
            // The first shape of the group: a circle, or a nyumba's square.
            let rest = &svg[g..];
            let (c, r) = (rest.find("<circle"), rest.find("<rect"));
            if c.is_some_and(|c| r.is_none_or(|r| c < r)) {
                let circle = &rest[c.unwrap()..];
                pits.push((pit, attr(circle, "cx"), attr(circle, "cy")));
            } else {
                let rect = &rest[r.unwrap()..];
                pits.push((
                    pit,
                    attr(rect, "x") + attr(rect, "width") / 2.0,
                    attr(rect, "y") + attr(rect, "height") / 2.0,
                ));
            }
        }
    }
    ([vb[0], vb[1], vb[2], vb[3]], pits)
}

fn wait_until(s: &crate::browser::Session<'_>, script: &str, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while s.js(script, json!([])) != json!(true) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn keep_shot(s: &crate::browser::Session<'_>, name: &str) {
    let png = s.screenshot();
    assert!(png.starts_with(b"\x89PNG"));
    if let Some(k) = std::env::var_os("BAO_PNG_DIR") {
        std::fs::write(Path::new(&k).join(format!("serve-{name}.png")), &png).unwrap();
    }
}

/// Taps move `m` on the scribe's page: its pit, then the kichwa, or the arrow, then stop
/// or safari when asked.
fn tap_move(s: &crate::browser::Session<'_>, m: &str) {
    let (pit, sign) = (&m[..2], &m[2..3]);
    s.click(&format!("button[data-pit=\"{pit}\"]"));
    if s.js(
        "return !!document.getElementById('opt-left-kichwa')",
        json!([]),
    ) == json!(true)
    {
        s.click(if sign == "<" {
            "#opt-left-kichwa"
        } else {
            "#opt-right-kichwa"
        });
    } else {
        s.click(if sign == "<" {
            "#arrow-left"
        } else {
            "#arrow-right"
        });
    }
    if s.js("return !!document.getElementById('opt-stop')", json!([])) == json!(true) {
        s.click(if m.contains('+') {
            "#opt-safari"
        } else {
            "#opt-stop"
        });
    }
}

/// A phone's session, in with the PIN.
fn logged_in<'d>(
    d: &'d crate::browser::Driver,
    chromium: &Path,
    profile: &Path,
    size: (u32, u32),
    base: &str,
    pin: &str,
) -> crate::browser::Session<'d> {
    let s = d.phone_session(chromium, profile, size);
    s.go(&format!("{base}/scribe"));
    wait_until(
        &s,
        "return !!document.getElementById('pin')",
        "the PIN form",
    );
    s.js(
        "document.getElementById('pin').value = arguments[0];",
        json!([pin]),
    );
    s.click("#pin-go");
    wait_until(
        &s,
        "return !!document.getElementById('new-go')",
        "the scribe's page",
    );
    s
}

/// Taps the centre of every pit of the side to move on the scribe's page at its screen
/// size: the pit's own button is under the finger, a pit with a move asks for it (its
/// name in the question), one without asks nothing.
fn tap_every_pit(s: &crate::browser::Session<'_>, base: &str, id: &str, side: &str) {
    let (_, st) = get_json(&format!("{base}/api/games/{id}/state"));
    let version = st["version"].as_u64().unwrap();
    wait_until(
        s,
        &format!("return document.querySelector('.boardbox').dataset.version === '{version}' && document.querySelector('.boardbox img').complete"),
        "the board's picture",
    );
    // The picture the page shows: flipped when the scribe flipped the board.
    let flipped = s.js(
        "return document.querySelector('.boardbox').dataset.flipped === '1'",
        json!([]),
    ) == json!(true);
    let flip = if flipped { "&flip=1" } else { "" };
    let svg = ureq::get(&format!(
        "{base}/api/games/{id}/board.svg?v={version}{flip}"
    ))
    .call()
    .unwrap()
    .into_string()
    .unwrap();
    let (vb, pits) = pit_centres(&svg);
    let movable: std::collections::BTreeSet<String> = st["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["pit"].as_str().unwrap().to_owned())
        .collect();
    assert!(!movable.is_empty());
    s.js(
        "document.querySelector('.boardbox').scrollIntoView({block: 'start'});",
        json!([]),
    );
    let rect = s.js(
        "var r = document.querySelector('.boardbox img').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];",
        json!([]),
    );
    let r: Vec<f64> = rect
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let mut asked = 0;
    for (pit, cx, cy) in pits {
        let x = r[0] + (cx - vb[0]) / vb[2] * r[2];
        let y = r[1] + (cy - vb[1]) / vb[3] * r[3];
        // The pit's button is what lies under its centre.
        let under = s.js(
            "var e = document.elementFromPoint(arguments[0], arguments[1]); return e && e.dataset ? (e.dataset.pit || e.tagName) : null;",
            json!([x, y]),
        );
        assert_eq!(under, json!(pit), "the centre of {pit} at ({x:.0}, {y:.0})");
        #[allow(clippy::cast_possible_truncation)]
        s.tap(x.round() as i64, y.round() as i64);
        let q = s.js(
            "var q = document.querySelector('#ask .q'); return q ? q.textContent : '';",
            json!([]),
        );
        let q = q.as_str().unwrap();
        let mine = pit.starts_with(if side == "south" {
            ['A', 'B']
        } else {
            ['a', 'b']
        });
        if mine && movable.contains(&pit) {
            assert!(q.starts_with(&pit), "{pit}: asked {q:?}");
            asked += 1;
            s.click("#ask .cancel");
        } else {
            assert_eq!(q, "", "{pit} has no move, yet a question: {q:?}");
        }
    }
    assert_eq!(asked, movable.len(), "every pit with a move asked");
}

/// The club-night defects of the scribe's and the evening's pages, at phone size and on
/// a landscape tablet: taps land on the pits drawn, a question the board moved past is
/// closed, an old error goes, a typed `a5` is asked as a tap, a result is taken back, no
/// draw under rules without draws, no Send box after the end, a match's first game stays
/// on the evening.
fn club_night_pages(d: &crate::browser::Driver, chromium: &Path, base: &str, pin: &str) {
    let moves = fixture_moves();
    for (name, size) in [("phone", (390, 844)), ("tablet", (1180, 820))] {
        let profile = tempfile::tempdir().unwrap();
        let s = logged_in(d, chromium, profile.path(), size, base, pin);
        let (st, b) = post(
            base,
            "/api/games",
            &json!({"tags": {"South": "Asha", "North": "Baraka"}}),
        )
        .unwrap();
        assert_eq!(st, 201, "{b}");
        let id = b["id"].as_str().unwrap().to_owned();
        s.go(&format!("{base}/scribe/{id}"));
        tap_every_pit(&s, base, &id, "south");
        keep_shot(&s, &format!("taps-{name}"));
        // A move sent by taps: the pit, then its arrow.
        tap_move(&s, &moves[0]);
        wait_until(
            &s,
            "return document.querySelector('main').dataset.plies === '1'",
            "the tapped move",
        );
        tap_every_pit(&s, base, &id, "north");
        if name == "tablet" {
            continue;
        }
        // Flipped, the taps follow the picture: North's rows at the bottom now.
        s.click("#flip");
        wait_until(
            &s,
            "return document.querySelector('.boardbox').dataset.flipped === '1'",
            "the flipped board",
        );
        tap_every_pit(&s, base, &id, "north");
        keep_shot(&s, "flipped");
        s.click("#flip");
        wait_until(
            &s,
            "return document.querySelector('.boardbox').dataset.flipped === '0'",
            "the board the right way up",
        );

        // 2: a question left open while another phone records the ply is closed.
        s.click("button[data-pit=\"a5\"]");
        wait_until(
            &s,
            "return !!document.getElementById('opt-left-kichwa')",
            "the kichwa question",
        );
        let (st, b) = post(
            base,
            &format!("/api/games/{id}/moves"),
            &json!({"ply": 1, "move": moves[1]}),
        )
        .unwrap();
        assert_eq!(st, 200, "{b}");
        wait_until(
            &s,
            "return document.querySelector('main').dataset.plies === '2'",
            "the other phone's ply",
        );
        wait_until(
            &s,
            "return document.getElementById('ask').children.length === 0",
            "the question closed",
        );
        let m = s.js(
            "return document.getElementById('msg').textContent",
            json!([]),
        );
        assert!(m.as_str().unwrap().contains("another phone"), "{m}");
        keep_shot(&s, "stale-question");

        // 4: an old error goes once a move is recorded.
        s.js("document.getElementById('typed').value = 'B8<';", json!([]));
        s.click("form.type button[type=submit]");
        wait_until(
            &s,
            "return document.getElementById('msg').textContent.indexOf('refused') >= 0",
            "the refusal",
        );
        tap_move(&s, &moves[2]);
        wait_until(
            &s,
            "return document.querySelector('main').dataset.plies === '3'",
            "ply 3",
        );
        assert_eq!(
            s.js(
                "return document.getElementById('msg').textContent",
                json!([])
            ),
            json!("")
        );

        // 10: under Kiswahili no Draw button; the undo names its move.
        assert_eq!(
            s.js("return !!document.getElementById('draw')", json!([])),
            json!(false)
        );
        s.click("#undo");
        let q = s.js(
            "return document.querySelector('#ask .q').textContent",
            json!([]),
        );
        assert!(
            q.as_str().unwrap().contains(&moves[2].replace('#', "")),
            "{q}"
        );
        s.click("#ask .cancel");

        // 5: a resignation taken back from the phone, confirmed.
        s.click("#resign-south");
        s.click("#confirm-result");
        wait_until(
            &s,
            "return document.getElementById('status').textContent.indexOf('0-1') >= 0",
            "the result",
        );
        // 10: no Send box once the game is over.
        assert_eq!(
            s.js(
                "return getComputedStyle(document.querySelector('form.type')).display",
                json!([])
            ),
            json!("none")
        );
        keep_shot(&s, "result-undo");
        s.click("#undo-result");
        s.click("#confirm-undo-result");
        wait_until(
            &s,
            "return document.getElementById('status').textContent.indexOf('to move') >= 0",
            "the game going on",
        );
        let (_, st) = get_json(&format!("{base}/api/games/{id}/state"));
        assert_eq!((&st["result"], &st["plies"]), (&json!("*"), &json!(3)));

        // 3: the final move sent again after the game ended: acknowledged.
        // 10: a typed `a5` (a kichwa left open) asks as a tap does.
        let (st, b) = post(
            base,
            "/api/games",
            &json!({"tags": {"South": "Chausiku", "North": "Daudi"}}),
        )
        .unwrap();
        assert_eq!(st, 201, "{b}");
        let id2 = b["id"].as_str().unwrap().to_owned();
        assert_eq!(
            post(
                base,
                &format!("/api/games/{id2}/moves"),
                &json!({"ply": 0, "move": moves[0]})
            )
            .unwrap()
            .0,
            200
        );
        s.go(&format!("{base}/scribe/{id2}"));
        wait_until(
            &s,
            "return document.querySelector('main').dataset.plies === '1'",
            "the second board",
        );
        s.js("document.getElementById('typed').value = 'a5';", json!([]));
        s.click("form.type button[type=submit]");
        wait_until(
            &s,
            "return !!document.getElementById('opt-left-kichwa')",
            "the typed move's question",
        );
        keep_shot(&s, "typed-question");
        s.click(if &moves[1][2..3] == "<" {
            "#opt-left-kichwa"
        } else {
            "#opt-right-kichwa"
        });
        if s.js("return !!document.getElementById('opt-stop')", json!([])) == json!(true) {
            s.click(if moves[1].contains('+') {
                "#opt-safari"
            } else {
                "#opt-stop"
            });
        }
        wait_until(
            &s,
            "return document.querySelector('main').dataset.plies === '2'",
            "the typed move recorded",
        );
        keep_shot(&s, "scribe-phone");
        let console: Vec<Value> = s
            .log("browser")
            .into_iter()
            // The refusals asked for on purpose (422) are logged by the network; a script error is not one.
            .filter(|e| e["level"] == json!("SEVERE") && e["source"] != json!("network"))
            .collect();
        assert!(console.is_empty(), "console errors: {console:?}");

        // 11: offline, any number of moves wait (each shown), then go in order.
        let (st, b) = post(
            base,
            "/api/games",
            &json!({"tags": {"South": "Gimbi", "North": "Haji"}}),
        )
        .unwrap();
        assert_eq!(st, 201, "{b}");
        let id3 = b["id"].as_str().unwrap().to_owned();
        s.go(&format!("{base}/scribe/{id3}"));
        wait_until(
            &s,
            "return !!document.querySelector('.boardbox').dataset.version",
            "the third board",
        );
        s.set_offline(true);
        tap_move(&s, &moves[0]);
        wait_until(
            &s,
            "return document.querySelector('main').dataset.queued === '1'",
            "the first move waiting",
        );
        for m in &moves[1..3] {
            s.click(&format!("button[data-pit=\"{}\"]", &m[..2]));
            s.click(if &m[2..3] == "<" {
                "#arrow-left"
            } else {
                "#arrow-right"
            });
        }
        wait_until(
            &s,
            "return document.querySelector('main').dataset.queued === '3'",
            "three moves waiting",
        );
        assert_eq!(
            s.js(
                "return document.querySelectorAll('#sent li.waiting').length",
                json!([])
            ),
            json!(3)
        );
        keep_shot(&s, "offline-queue");
        s.set_offline(false);
        wait_until(
            &s,
            "return document.querySelector('main').dataset.plies === '3'",
            "the waiting moves recorded",
        );
        wait_until(
            &s,
            "return document.querySelectorAll('#sent li.recorded').length === 3",
            "each said recorded",
        );
        let (_, st) = get_json(&format!("{base}/api/games/{id3}/state"));
        let want: Vec<String> = moves[..3].iter().map(|m| m.replace('#', "")).collect();
        assert_eq!(st["line"], json!(want));

        // 6: a best-of-three match's first game stays on the evening and in the crosstable.
        let (st, b) = post(
            base,
            "/api/games",
            &json!({"tags": {"South": "Eshe", "North": "Faraji", "Round": "2", "Match": "Eshe v Faraji"}}),
        )
        .unwrap();
        assert_eq!(st, 201, "{b}");
        let m = b["id"].as_str().unwrap().to_owned();
        assert_eq!(
            post(
                base,
                &format!("/api/games/{m}/moves"),
                &json!({"ply": 0, "move": moves[0]})
            )
            .unwrap()
            .0,
            200
        );
        assert_eq!(
            post(
                base,
                &format!("/api/games/{m}/result"),
                &json!({"result": "1-0"})
            )
            .unwrap()
            .0,
            200
        );
        s.go(&format!("{base}/"));
        wait_until(
            &s,
            "return !!document.querySelector('table.cross')",
            "the crosstable",
        );
        let rows = s.js(
            "return Array.from(document.querySelectorAll('table.games tbody tr')).map(function (r) { return r.textContent; })",
            json!([]),
        );
        let rows: Vec<&str> = rows
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert!(
            rows.iter()
                .any(|r| r.contains("Eshe – Faraji") && r.contains("game 1") && r.ends_with("1-0")),
            "{rows:?}"
        );
        assert!(
            rows.iter()
                .any(|r| r.contains("Faraji – Eshe") && r.contains("game 2")),
            "{rows:?}"
        );
        let total = s.js(
            "var row = Array.from(document.querySelectorAll('table.cross tbody tr')).find(function (r) { return r.querySelector(\"th\").textContent.indexOf(\"Eshe\") >= 0; }); return row.lastElementChild.textContent;",
            json!([]),
        );
        assert_eq!(total, json!("1"));
        // The evening fits a phone's width: nothing wider than the screen but in its
        // scrolling box.
        let wide = s.js(
            "return document.documentElement.scrollWidth <= window.innerWidth",
            json!([]),
        );
        assert_eq!(wide, json!(true));
        keep_shot(&s, "evening-phone");

        // Item 3: a ply of the move list tapped shows the board after it, read only, and
        // the way back to the live board.
        look_back(&s, base, &moves, name);

        // Item 6: a game with a clock shows both clocks, the mover's running; a tapped
        // move stops it and its time left is written after it.
        clocks_on_the_phone(&s, base, &moves);
    }
}

/// The text of a clock on the scribe's page.
fn clock_text(s: &crate::browser::Session<'_>, side: &str) -> String {
    s.js(
        "var c = document.querySelector('#clock-' + arguments[0] + ' .time'); return c ? c.textContent : '';",
        json!([side]),
    )
    .as_str()
    .unwrap()
    .to_owned()
}

/// A `600+5` game of two plies on the scribe's page at phone size: both clocks shown
/// (South's 10:05 after its free first ply, North's running below 10:05), a move tapped
/// stops North's and the record has its `[%clk]`.
fn clocks_on_the_phone(s: &crate::browser::Session<'_>, base: &str, moves: &[String]) {
    let (st, b) = post(
        base,
        "/api/games",
        &json!({"tags": {"South": "Kito", "North": "Lulu", "TimeControl": "600+5"}}),
    )
    .unwrap();
    assert_eq!(st, 201, "{b}");
    let id = b["id"].as_str().unwrap().to_owned();
    let (st, b) = post(
        base,
        &format!("/api/games/{id}/moves"),
        &json!({"ply": 0, "move": moves[0]}),
    )
    .unwrap();
    assert_eq!(st, 200, "{b}");
    s.go(&format!("{base}/scribe/{id}"));
    wait_until(
        s,
        "var c = document.getElementById('clocks'); return !!c && !c.hidden && \
         document.querySelector('#clock-north').classList.contains('running') && \
         document.querySelector('.boardbox img').complete && \
         document.querySelector('.boardbox').getBoundingClientRect().height > 100",
        "the clocks and the board",
    );
    assert_eq!(clock_text(s, "south"), "10:05");
    let first = clock_text(s, "north");
    assert!(
        first.starts_with("10:0") || first.starts_with("9:5"),
        "{first}"
    );
    // The clocks sit above the board, each as wide as the screen allows.
    let fits = s.js(
        "var r = document.getElementById('clocks').getBoundingClientRect(); \
         var b = document.querySelector('.boardbox').getBoundingClientRect(); \
         return r.bottom <= b.top + 1 && r.width > 300 && r.right <= window.innerWidth;",
        json!([]),
    );
    assert_eq!(fits, json!(true));
    std::thread::sleep(Duration::from_millis(1200));
    // It runs.
    assert_ne!(clock_text(s, "north"), first);
    s.js("window.scrollTo(0, 0);", json!([]));
    keep_shot(s, "clocks-phone");
    tap_move(s, &moves[1]);
    wait_until(
        s,
        "return document.querySelector('main').dataset.plies === '2' && \
         document.querySelector('#clock-south').classList.contains('running')",
        "North's move and South's clock running",
    );
    let (_, st) = get_json(&format!("{base}/api/games/{id}/state"));
    let north = st["clock"]["north_ms"].as_u64().unwrap();
    // 600 s, less the second or two North took, plus 5.
    assert!((600_000..=605_000).contains(&north), "{st}");
    let text = ureq::get(&format!("{base}/api/games/{id}/record"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert_eq!(text.matches("[%clk ").count(), 2, "{text}");
    assert!(text.contains("{[%clk 0:10:05]}"), "{text}");
}

/// The centre of the element `css` as drawn (viewport CSS pixels), scrolled into view.
fn centre_of(s: &crate::browser::Session<'_>, css: &str) -> (i64, i64) {
    let r = s.js(
        "var e = document.querySelector(arguments[0]); e.scrollIntoView({block: 'center'}); \
         var r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];",
        json!([css]),
    );
    #[allow(clippy::cast_possible_truncation)]
    let at = |i: usize| r[i].as_f64().unwrap().round() as i64;
    (at(0), at(1))
}

/// The picture the scribe's board shows now (its `img`'s source, fetched again).
fn shown_board(s: &crate::browser::Session<'_>) -> String {
    s.js(
        "var x = new XMLHttpRequest(); x.open('GET', document.querySelector('.boardbox img').src, false); \
         x.send(); return x.responseText;",
        json!([]),
    )
    .as_str()
    .unwrap()
    .to_owned()
}

/// A game of five plies on the scribe's page: ply 2 tapped in the move list (at the centre
/// of what is drawn) shows the board the game had after ply 2, nothing on it to tap; the
/// way back shows the live board again, and a ply recorded meanwhile keeps the look back.
fn look_back(s: &crate::browser::Session<'_>, base: &str, moves: &[String], name: &str) {
    let (st, b) = post(
        base,
        "/api/games",
        &json!({"tags": {"South": "Imara", "North": "Jelani"}}),
    )
    .unwrap();
    assert_eq!(st, 201, "{b}");
    let id = b["id"].as_str().unwrap().to_owned();
    let board = || {
        ureq::get(&format!("{base}/api/games/{id}/board.svg"))
            .call()
            .unwrap()
            .into_string()
            .unwrap()
    };
    // The live board after each ply, as the server drew it then.
    let mut then = vec![board()];
    for (n, m) in moves.iter().take(5).enumerate() {
        let (st, b) = post(
            base,
            &format!("/api/games/{id}/moves"),
            &json!({"ply": n, "move": m}),
        )
        .unwrap();
        assert_eq!(st, 200, "{b}");
        then.push(board());
    }
    s.go(&format!("{base}/scribe/{id}"));
    wait_until(
        s,
        "var b = document.querySelector('.boardbox'); return document.querySelectorAll('#moves button.mv').length === 5 && \
         b.dataset.ply === 'live' && b.querySelector('img').complete",
        "the board and its five plies",
    );
    assert_eq!(shown_board(s), then[5]);
    let (x, y) = centre_of(s, "#moves button.mv[data-ply='2']");
    s.tap(x, y);
    wait_until(
        s,
        "var b = document.querySelector('.boardbox'); return b.dataset.ply === '2' && b.querySelector('img').complete",
        "the board after ply 2",
    );
    assert_eq!(shown_board(s), then[2], "the board after ply 2");
    let note = s.js(
        "return document.getElementById('lookback').textContent",
        json!([]),
    );
    let note = note.as_str().unwrap();
    assert!(
        note.contains("Ply 2") && note.contains(&moves[1].replace('#', "")),
        "{note}"
    );
    // Read only: no pit to tap, no Send box, no tools.
    assert_eq!(
        s.js(
            "return Array.from(document.querySelectorAll('.taps .pit')).every(function (b) { return b.disabled; }) && \
             document.querySelector('form.type').hidden && document.querySelector('.tools').hidden",
            json!([]),
        ),
        json!(true)
    );
    // Another phone records ply 6 meanwhile: still ply 2 shown, the note says where the
    // game is.
    let (st, b) = post(
        base,
        &format!("/api/games/{id}/moves"),
        &json!({"ply": 5, "move": moves[5]}),
    )
    .unwrap();
    assert_eq!(st, 200, "{b}");
    then.push(board());
    wait_until(
        s,
        "return document.querySelectorAll('#moves button.mv').length === 6 && \
         document.getElementById('lookback').textContent.indexOf('has 6 plies') >= 0",
        "the sixth ply listed",
    );
    assert_eq!(
        s.js(
            "return document.querySelector('.boardbox').dataset.ply",
            json!([])
        ),
        json!("2")
    );
    s.js("window.scrollTo(0, 0);", json!([]));
    keep_shot(s, &format!("lookback-{name}"));
    let (x, y) = centre_of(s, "#back-to-live");
    s.tap(x, y);
    wait_until(
        s,
        "var b = document.querySelector('.boardbox'); return b.dataset.ply === 'live' && b.querySelector('img').complete && \
         document.getElementById('lookback').hidden",
        "the live board again",
    );
    assert_eq!(shown_board(s), then[6], "the live board");
    assert_eq!(
        s.js(
            "return Array.from(document.querySelectorAll('.taps .pit')).some(function (b) { return !b.disabled; })",
            json!([]),
        ),
        json!(true)
    );
}

/// The size in CSS pixels of a pit's numeral (22 units of the picture) on each projected
/// board, as drawn (`object-fit: contain`).
const NUMERAL_PX: &str =
    "return Array.from(document.querySelectorAll('#wall .pic img')).map(function (i) { \
    var s = Math.min(i.clientWidth / i.naturalWidth, i.clientHeight / i.naturalHeight); \
    var x = new XMLHttpRequest(); x.open('GET', i.src, false); x.send(); \
    var m = x.responseText.match(/font-size=\"(\\d+)\"[^>]*>\\d+<\\/text>/); \
    return (m ? Number(m[1]) : 0) * s; })";

/// The projector at 1920x1080 with the eight boards of a round: they all fit the screen,
/// a finished board stays with its result, and one board alone fills it.
fn projector_wall(d: &crate::browser::Driver, chromium: &Path) {
    // An evening of its own: the eight boards of round 3 and nothing else.
    let dir = tempfile::tempdir().unwrap();
    let server = serve(dir.path(), free_port());
    let base = server.base.as_str();
    let moves = fixture_moves();
    let names = [
        ("Amani", "Bahati"),
        ("Chiku", "Dalila"),
        ("Enzi", "Fumo"),
        ("Gati", "Hamisi"),
        ("Imani", "Jabari"),
        ("Kito", "Lulu"),
        ("Malaika", "Neema"),
        ("Omari", "Pendo"),
    ];
    let mut ids = Vec::new();
    for (i, (south, north)) in names.iter().enumerate() {
        let (st, b) = post(
            base,
            "/api/games",
            &json!({"tags": {"South": south, "North": north, "Round": "3", "TimeControl": "900+10"}}),
        )
        .unwrap();
        assert_eq!(st, 201, "{b}");
        let id = b["id"].as_str().unwrap().to_owned();
        for (n, m) in moves.iter().take(4 + i * 3).enumerate() {
            assert_eq!(
                post(
                    base,
                    &format!("/api/games/{id}/moves"),
                    &json!({"ply": n, "move": m})
                )
                .unwrap()
                .0,
                200
            );
        }
        ids.push(id);
    }
    // One board's game ends: it stays on the wall with its result.
    assert_eq!(
        post(
            base,
            &format!("/api/games/{}/result", ids[2]),
            &json!({"result": "1-0"})
        )
        .unwrap()
        .0,
        200
    );
    let profile = tempfile::tempdir().unwrap();
    let s = d.phone_session(chromium, profile.path(), (1920, 1080));
    s.go(&format!("{base}/projector"));
    wait_until(
        &s,
        "var w = document.getElementById('wall'); return !!w && w.dataset.count === '8' && \
         Array.from(w.querySelectorAll('img')).every(function (i) { return i.complete && i.naturalWidth > 0; })",
        "eight boards",
    );
    let fits = s.js(
        "var out = true; document.querySelectorAll('#wall .card').forEach(function (c) { var r = c.getBoundingClientRect(); \
           if (r.left < 0 || r.top < 0 || r.right > window.innerWidth + 1 || r.bottom > window.innerHeight + 1) out = false; }); \
         return out && document.documentElement.scrollHeight <= window.innerHeight;",
        json!([]),
    );
    assert_eq!(
        fits,
        json!(true),
        "every board within the screen, no scrolling"
    );
    let done = s.js(
        "var c = document.querySelector('#wall .card[data-id=\"' + arguments[0] + '\"]'); return c ? c.textContent : null;",
        json!([ids[2]]),
    );
    assert!(done.as_str().unwrap_or("").contains("1-0"), "{done}");
    // Each live board shows its running clock where the others say "live".
    wait_until(
        &s,
        "var c = Array.from(document.querySelectorAll('#wall .cap .clk')); return c.length === 7 && \
         c.every(function (x) { return /^[SN] 1?[0-9]:[0-5][0-9]$/.test(x.textContent); })",
        "the boards' running clocks",
    );
    let px = s.js(NUMERAL_PX, json!([]));
    let smallest = px
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .fold(f64::MAX, f64::min);
    let cols = s.js(
        "return document.getElementById('wall').dataset.cols",
        json!([]),
    );
    eprintln!("projector 1920x1080, 8 boards in {cols} columns: pit numerals {smallest:.1} px");
    // Readable from the back of a room: at least 28 px at eight boards.
    assert!(smallest >= 28.0, "numerals of {smallest:.1} px");
    keep_shot(&s, "projector-8");
    // One board alone (a final).
    s.go(&format!("{base}/projector?board={}", ids[7]));
    wait_until(
        &s,
        "var w = document.getElementById('wall'); return !!w && w.dataset.count === '1' && w.querySelector('img').complete",
        "the one board",
    );
    let px = s.js(NUMERAL_PX, json!([]));
    let one = px[0].as_f64().unwrap();
    eprintln!("projector 1920x1080, one board: pit numerals {one:.1} px");
    assert!(one >= 40.0, "numerals of {one:.1} px");
    keep_shot(&s, "projector-1");

    // The evening on the big screen: every board's row, the crosstable.
    s.go(&format!("{base}/"));
    wait_until(
        &s,
        "return document.querySelectorAll('table.games tbody tr').length === 8 && !!document.querySelector('table.cross')",
        "the evening's eight games",
    );
    keep_shot(&s, "evening-1920");

    // The score sheets, printed: one page a game.
    s.go(&format!("{base}/sheets"));
    wait_until(
        &s,
        "return document.querySelector('main').dataset.sheets === '8'",
        "eight score sheets",
    );
    let pdf = s.print_pdf();
    assert!(pdf.starts_with(b"%PDF"));
    let text = String::from_utf8_lossy(&pdf);
    let pages = text.matches("/Type /Page").count() - text.matches("/Type /Pages").count();
    assert_eq!(pages, 8, "one printed page a game");
    if let Some(k) = std::env::var_os("BAO_PNG_DIR") {
        std::fs::write(Path::new(&k).join("serve-sheets.pdf"), &pdf).unwrap();
    }
}

/// Rounds and standings on the pages: the organiser (in with the PIN) enters six players
/// and pairs a round-robin round from the evening page; results come from the games and
/// one is corrected from the page; the standings and the crosstable show on a phone (no
/// wider than the screen), at 1920 and on the projector.
fn rounds_pages(d: &crate::browser::Driver, chromium: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(dir.path(), free_port());
    let base = server.base.as_str();
    let moves = fixture_moves();
    let profile = tempfile::tempdir().unwrap();
    let s = logged_in(d, chromium, profile.path(), (390, 844), base, &server.pin);
    s.go(&format!("{base}/"));
    wait_until(
        &s,
        "return !!document.getElementById('players')",
        "the organiser's controls",
    );
    s.js(
        "var p = document.getElementById('players'); p.value = 'Amani\\nBahati\\nChiku\\nDalila\\nEnzi\\nFumo'; \
         p.dispatchEvent(new Event('input'));",
        json!([]),
    );
    s.click("#save-players");
    wait_until(
        &s,
        "return document.getElementById('organise-msg').textContent === 'Saved.'",
        "the players saved",
    );
    s.js(
        "document.getElementById('pairing').value = 'round-robin';",
        json!([]),
    );
    s.click("#pair-round");
    wait_until(
        &s,
        "return !!document.getElementById('standings')",
        "the first round and the standings",
    );
    let (_, ev) = get_json(&format!("{base}/api/event"));
    let boards = ev["rounds"][0]["boards"].as_array().unwrap().clone();
    assert_eq!(boards.len(), 3);
    // Boards 1 and 2 end on the server (South wins, North resigns); board 3 goes on.
    for b in &boards[..2] {
        let id = b["game"].as_str().unwrap();
        for (n, m) in moves.iter().take(4).enumerate() {
            let (st, _) = post(
                base,
                &format!("/api/games/{id}/moves"),
                &json!({"ply": n, "move": m}),
            )
            .unwrap();
            assert_eq!(st, 200);
        }
        let (st, _) = post(
            base,
            &format!("/api/games/{id}/result"),
            &json!({"result": "1-0"}),
        )
        .unwrap();
        assert_eq!(st, 200);
    }
    // Board 2's result corrected on the page: a draw.
    s.go(&format!("{base}/"));
    wait_until(
        &s,
        "return !!document.getElementById('set-result') && !!document.getElementById('standings')",
        "the evening",
    );
    s.js(
        "document.getElementById('organise').open = true; document.getElementById('fix-board').value = '2'; \
         document.getElementById('fix-result').value = '1/2-1/2';",
        json!([]),
    );
    s.click("#set-result");
    wait_until(
        &s,
        "return document.getElementById('organise-msg').textContent === 'Saved.'",
        "the correction saved",
    );
    let mp = |name: &str| -> Value {
        s.js(
            "var n = arguments[0]; var r = Array.from(document.querySelectorAll('#standings tbody tr')).find(function (r) { \
               return r.children[1].textContent === n; }); return r ? r.children[2].textContent : null;",
            json!([name]),
        )
    };
    let name = |b: &Value, side: &str| b[side].as_str().unwrap().to_owned();
    wait_until(
        &s,
        "return document.querySelectorAll('#crosstable td.corrected').length === 2",
        "the corrected result in the crosstable",
    );
    assert_eq!(mp(&name(&boards[0], "south")), json!("2"));
    assert_eq!(mp(&name(&boards[0], "north")), json!("0"));
    assert_eq!(mp(&name(&boards[1], "south")), json!("1"));
    assert_eq!(mp(&name(&boards[1], "north")), json!("1"));
    // The winner of board 1 leads.
    let first = s.js(
        "return document.querySelector('#standings tbody tr').children[1].textContent",
        json!([]),
    );
    assert_eq!(first, json!(name(&boards[0], "south")));
    let wide = s.js(
        "return document.documentElement.scrollWidth <= window.innerWidth",
        json!([]),
    );
    assert_eq!(wide, json!(true), "the evening fits the phone");
    s.js(
        "document.getElementById('standings').scrollIntoView({block: 'start'});",
        json!([]),
    );
    keep_shot(&s, "standings-phone");
    drop(s);
    let profile = tempfile::tempdir().unwrap();
    let big = d.phone_session(chromium, profile.path(), (1920, 1080));
    big.go(&format!("{base}/"));
    wait_until(
        &big,
        "return !!document.getElementById('crosstable')",
        "the evening at 1920",
    );
    keep_shot(&big, "standings-1920");
    big.go(&format!("{base}/projector?standings=1"));
    wait_until(
        &big,
        "return !!document.querySelector('#wall-standings #standings')",
        "the projector's standings",
    );
    let px = big.js(
        "return parseFloat(getComputedStyle(document.querySelector('#standings td')).fontSize)",
        json!([]),
    );
    assert!(px.as_f64().unwrap() >= 28.0, "{px}");
    keep_shot(&big, "projector-standings");
}
