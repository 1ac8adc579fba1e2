//! A small W3C WebDriver client for chromedriver (blocking HTTP with `ureq`), and the
//! browser test of the HTML viewer built on it.
//!
//! Why chromedriver and not the DevTools protocol: WebDriver is a W3C standard that
//! chromedriver implements for exactly the Chromium build of the same Debian release, so a
//! browser update cannot break the protocol under us; it needs no async runtime and no
//! generated protocol bindings, only a few JSON requests. Chromedriver's logging extension
//! (`goog:loggingPrefs`) gives the console messages and the network events.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};

use crate::cmd::run;

/// The W3C key of an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Chromium's flags: headless, no sandbox (containers), and nothing that talks to the
/// network on its own (this machine's network is closed).
const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1200,900",
];

/// A chromedriver process, killed on drop.
pub(crate) struct Driver {
    child: Child,
    base: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A browser session, closed on drop.
pub(crate) struct Session<'d> {
    /// The session lives no longer than its driver.
    _driver: &'d Driver,
    url: String,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

impl Driver {
    pub(crate) fn start(path: &Path) -> Self {
        let port = free_port();
        let child = Command::new(path)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let driver = Self {
            child,
            base: format!("http://127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let ready = ureq::get(&format!("{}/status", driver.base))
                .timeout(Duration::from_secs(2))
                .call()
                .ok()
                .and_then(|r| r.into_json::<Value>().ok())
                .is_some_and(|v| v["value"]["ready"] == json!(true));
            if ready {
                return driver;
            }
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub(crate) fn session(&self, chromium: &Path, profile: &Path) -> Session<'_> {
        self.session_with(chromium, profile, None)
    }

    /// A session on a phone's screen of `width` x `height` CSS pixels (Chromium's mobile
    /// emulation: a desktop window cannot be narrower than about 500 pixels).
    pub(crate) fn phone_session(
        &self,
        chromium: &Path,
        profile: &Path,
        (width, height): (u32, u32),
    ) -> Session<'_> {
        self.session_with(chromium, profile, Some((width, height)))
    }

    fn session_with(
        &self,
        chromium: &Path,
        profile: &Path,
        phone: Option<(u32, u32)>,
    ) -> Session<'_> {
        let mut args: Vec<String> = FLAGS.iter().map(|f| (*f).to_owned()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let mut options = json!({"binary": chromium, "args": args});
        if let Some((width, height)) = phone {
            options["mobileEmulation"] = json!({
                "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2, "touch": true},
                "userAgent": "Mozilla/5.0 (Linux; Android 14; Phone) Mobile",
            });
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options,
            "goog:loggingPrefs": {"browser": "ALL", "performance": "ALL"},
        }}});
        let v = request(&self.base, "POST", "/session", Some(caps));
        let id = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"));
        Session {
            _driver: self,
            url: format!("{}/session/{id}", self.base),
        }
    }
}

/// One WebDriver command; panics with the driver's message on an error.
fn request(base: &str, method: &str, path: &str, body: Option<Value>) -> Value {
    let url = format!("{base}{path}");
    let req = ureq::request(method, &url).timeout(Duration::from_secs(30));
    let res = match body {
        Some(b) => req.send_json(b),
        None => req.call(),
    };
    let v: Value = match res {
        Ok(r) => r.into_json().expect("JSON from chromedriver"),
        Err(ureq::Error::Status(code, r)) => {
            let text = r.into_string().unwrap_or_default();
            panic!("{method} {path}: HTTP {code}: {text}")
        }
        Err(e) => panic!("{method} {path}: {e}"),
    };
    v["value"].clone()
}

impl Session<'_> {
    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        request(&self.url, method, path, body)
    }

    pub(crate) fn go(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    pub(crate) fn js(&self, script: &str, args: Value) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": args })),
        )
    }

    pub(crate) fn click(&self, css: &str) {
        let el = self.cmd(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        let id = el[ELEMENT].as_str().expect("an element").to_owned();
        self.cmd("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    /// Touches the page at (`x`, `y`) CSS pixels of the viewport and lifts the finger: a
    /// tap, where a person's finger would land (the element there gets it, whatever it is).
    pub(crate) fn tap(&self, x: i64, y: i64) {
        let actions = json!({"actions": [{"type": "pointer", "id": "finger",
            "parameters": {"pointerType": "touch"}, "actions": [
            {"type": "pointerMove", "duration": 0, "x": x, "y": y, "origin": "viewport"},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerUp", "button": 0},
        ]}]});
        self.cmd("POST", "/actions", Some(actions));
    }

    /// The page printed to PDF (W3C WebDriver's print command: A4, backgrounds kept).
    pub(crate) fn print_pdf(&self) -> Vec<u8> {
        let b64 = self.cmd(
            "POST",
            "/print",
            Some(json!({"page": {"width": 21.0, "height": 29.7}, "background": true})),
        );
        base64::engine::general_purpose::STANDARD
            .decode(b64.as_str().expect("base64 text"))
            .expect("valid base64")
    }

    /// Cuts the page off the network, or gives it back (chromedriver's network
    /// conditions).
    pub(crate) fn set_offline(&self, offline: bool) {
        self.cmd(
            "POST",
            "/chromium/network_conditions",
            Some(json!({"network_conditions": {
                "offline": offline, "latency": 0,
                "download_throughput": -1, "upload_throughput": -1,
            }})),
        );
    }

    /// Presses and releases one key (a WebDriver key code such as `\u{E014}`).
    fn key(&self, key: &str) {
        let actions = json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key},
            {"type": "keyUp", "value": key},
        ]}]});
        self.cmd("POST", "/actions", Some(actions));
    }

    pub(crate) fn log(&self, kind: &str) -> Vec<Value> {
        match self.cmd("POST", "/se/log", Some(json!({ "type": kind }))) {
            Value::Array(a) => a,
            other => panic!("no {kind} log: {other}"),
        }
    }

    pub(crate) fn screenshot(&self) -> Vec<u8> {
        let b64 = self.cmd("GET", "/screenshot", None);
        base64::engine::general_purpose::STANDARD
            .decode(b64.as_str().expect("base64 text"))
            .expect("valid base64")
    }

    /// The frame shown: its number (from the page's `data-frame`), checked against the one
    /// visible frame.
    fn frame(&self) -> u64 {
        let v = self.js(
            "var shown = Array.from(document.querySelectorAll('.bao-frame'))\
               .filter(function (f) { return !f.hidden && f.getBoundingClientRect().height > 0; });\
             return [document.body.getAttribute('data-frame'), shown.map(function (f) { return f.id; })];",
            json!([]),
        );
        let n: u64 = v[0].as_str().expect("data-frame").parse().unwrap();
        assert_eq!(
            v[1],
            json!([format!("bao-f{n}")]),
            "exactly the current frame is shown"
        );
        n
    }

    /// The seed counts the shown frame draws, by pit, and both hands.
    fn board(&self) -> Value {
        let id = self.js(
            "return document.querySelector('.bao-frame:not([hidden])').id",
            json!([]),
        );
        self.board_at(&format!("{}-", id.as_str().expect("a frame id")))
    }

    /// The seed counts a board drawn with the element ids `prefix` + pit draws, by pit, and
    /// both hands.
    pub(crate) fn board_at(&self, prefix: &str) -> Value {
        self.js(
            "var p = arguments[0];\
             function count(g) {\
               var t = Array.from(g.querySelectorAll('text')).map(function (x) { return x.textContent; })\
                 .filter(function (x) { return /^[0-9]+$/.test(x); });\
               return t.length === 0 ? 0 : parseInt(t[t.length - 1], 10);\
             }\
             var out = {pits: {}, hands: {}};\
             ['A', 'B', 'a', 'b'].forEach(function (r) {\
               out.pits[r] = [];\
               for (var i = 1; i <= 8; i++) { out.pits[r].push(count(document.getElementById(p + r + i))); }\
             });\
             ['south', 'north'].forEach(function (s) { out.hands[s] = count(document.getElementById(p + s)); });\
             return out;",
            json!([prefix]),
        )
    }

    /// Sets the window's size in CSS pixels.
    pub(crate) fn resize(&self, width: u32, height: u32) {
        self.cmd(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        );
    }

    /// Clicks with the mouse at (`x`, `y`) CSS pixels of the viewport: where a person would
    /// click (the element there gets it, whatever it is).
    pub(crate) fn click_at(&self, x: i64, y: i64) {
        let actions = json!({"actions": [{"type": "pointer", "id": "mouse",
            "parameters": {"pointerType": "mouse"}, "actions": [
            {"type": "pointerMove", "duration": 0, "x": x, "y": y, "origin": "viewport"},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerUp", "button": 0},
        ]}]});
        self.cmd("POST", "/actions", Some(actions));
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = ureq::delete(&self.url)
            .timeout(Duration::from_secs(10))
            .call();
    }
}

const RIGHT: &str = "\u{E014}";
const LEFT: &str = "\u{E012}";
const HOME: &str = "\u{E011}";
const END: &str = "\u{E010}";

/// The pits and hands of an exported position (design §4) in the shape `board` reads.
fn expected(position: &Value) -> Value {
    json!({"pits": position["pits"], "hands": position["hands"]})
}

pub(crate) fn viewer_test(chromium: &Path, chromedriver: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("game.html");
    let out = run(
        &["export", "html", "-", "-o", page.to_str().unwrap()],
        crate::html::GAME,
    );
    assert_eq!(out, "exit: 0\n--- stdout\n--- stderr\n");
    // The engine's positions, from the JSON export of the same record.
    let json = run(&["export", "json", "-"], crate::html::GAME);
    let json: Value = serde_json::from_str(
        json.split_once("--- stdout\n")
            .and_then(|(_, r)| r.split_once("--- stderr\n"))
            .map(|(s, _)| s)
            .unwrap(),
    )
    .unwrap();
    let moves = &json["games"][0]["moves"];

    let driver = Driver::start(chromedriver);
    let profile = tempfile::tempdir().unwrap();
    let s = driver.session(chromium, profile.path());
    let url = format!("file://{}", page.display());
    s.go(&url);

    // The start.
    assert_eq!(s.frame(), 0);
    assert_eq!(s.board(), expected(&json["games"][0]["start"]));
    assert_eq!(
        s.js(
            "return document.getElementById('bao-back').disabled",
            json!([])
        ),
        json!(true)
    );

    // Buttons: two plies forward, one back, one forward.
    s.click("#bao-forward");
    s.click("#bao-forward");
    assert_eq!(s.frame(), 2);
    s.click("#bao-back");
    assert_eq!(s.frame(), 1);
    s.click("#bao-forward");
    // Arrow keys: to ply 4, back to 3, then on to ply 5, the capture.
    s.key(RIGHT);
    s.key(RIGHT);
    assert_eq!(s.frame(), 4);
    s.key(LEFT);
    assert_eq!(s.frame(), 3);
    s.key(RIGHT);
    s.key(RIGHT);
    assert_eq!(s.frame(), 5);
    assert_eq!(moves[4]["trace"]["captures"][0]["pit"], json!("a4"));
    assert_eq!(s.board(), expected(&moves[4]["position"]));
    let status = s.js(
        "return document.getElementById('bao-status').textContent",
        json!([]),
    );
    assert!(status.as_str().unwrap().contains("captured a4"), "{status}");
    // The capture is marked on the board, and the move is the current one in the list.
    assert_eq!(
        s.js(
            "var c = document.getElementById('bao-f5-capture-a4'); \
             return [c !== null && c.getBoundingClientRect().width > 0, \
                     document.querySelector('[aria-current]').id]",
            json!([])
        ),
        json!([true, "bao-m5"])
    );

    // Home and End.
    s.key(HOME);
    assert_eq!(s.frame(), 0);
    s.key(END);
    let last = s.frame();
    assert_eq!(
        s.board(),
        expected(&moves[moves.as_array().unwrap().len() - 1]["position"])
    );
    s.click("#bao-start");
    assert_eq!(s.frame(), 0);
    s.click("#bao-end");
    assert_eq!(s.frame(), last);

    // Into the variation: click its second move, then follow it with the arrow key.
    let variation = &moves[4]["variations"][0];
    let second = s.js(
        "return document.querySelectorAll('.bao-variation .bao-mv')[1].getAttribute('data-n')",
        json!([]),
    );
    let n: u64 = second.as_str().unwrap().parse().unwrap();
    s.click(&format!("#bao-m{n}"));
    assert_eq!(s.frame(), n);
    assert_eq!(s.board(), expected(&variation[1]["position"]));
    s.key(RIGHT);
    assert_eq!(s.frame(), n + 1);
    assert_eq!(s.board(), expected(&variation[2]["position"]));
    assert_eq!(
        s.js(
            "return document.querySelector('.bao-frame:not([hidden])').getAttribute('data-depth')",
            json!([])
        ),
        json!("1")
    );
    // The end of the variation is its own end; back from its first move is the main line.
    s.key(RIGHT);
    assert_eq!(s.frame(), n + 1, "the variation has no more moves");
    s.key(LEFT);
    s.key(LEFT);
    s.key(LEFT);
    assert_eq!(s.frame(), 4);
    s.key(RIGHT);
    assert_eq!(
        s.frame(),
        5,
        "forward from the branch point follows the main line"
    );

    // A screenshot of the variation's position.
    s.click(&format!("#bao-m{n}"));
    let png = s.screenshot();
    let shot = dir.path().join("variation.png");
    std::fs::write(&shot, &png).unwrap();
    // With `BAO_PNG_DIR` set, the screenshot is also kept there to be looked at.
    if let Some(keep) = std::env::var_os("BAO_PNG_DIR") {
        std::fs::write(Path::new(&keep).join("viewer-variation.png"), &png).unwrap();
    }
    let size = s.js(
        "return [Math.round(window.innerWidth * window.devicePixelRatio), \
                 Math.round(window.innerHeight * window.devicePixelRatio)]",
        json!([]),
    );
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).expect("a valid PNG");
    assert_eq!(json!([pixmap.width(), pixmap.height()]), size);
    // Not a blank page: the board's wood colour is there.
    let wood = pixmap
        .pixels()
        .iter()
        .filter(|p| {
            let near = |a: u8, b: u8| a.abs_diff(b) <= 4;
            near(p.red(), 0xd9) && near(p.green(), 0xb3) && near(p.blue(), 0x82)
        })
        .count();
    assert!(
        wood > 10_000,
        "only {wood} board pixels in {}",
        shot.display()
    );

    // No console error and no request but the page itself.
    let console = s.log("browser");
    let errors: Vec<&Value> = console
        .iter()
        .filter(|e| e["level"] == json!("SEVERE"))
        .collect();
    assert!(errors.is_empty(), "console errors: {errors:?}");
    // Requests made for the page (its own load, or anything it asked for); the browser's
    // own pages (the first tab's new-tab page) are not the page's.
    let requests: Vec<String> = s
        .log("performance")
        .iter()
        .filter_map(|e| serde_json::from_str::<Value>(e["message"].as_str()?).ok())
        .filter(|m| m["message"]["method"] == json!("Network.requestWillBeSent"))
        .map(|m| m["message"]["params"].clone())
        .filter(|p| p["documentURL"] == json!(url) || p["request"]["url"] == json!(url))
        .filter_map(|p| p["request"]["url"].as_str().map(str::to_owned))
        .collect();
    assert!(
        requests.contains(&url),
        "the page load is logged: {requests:?}"
    );
    let others: Vec<&String> = requests
        .iter()
        .filter(|r| **r != url && !r.starts_with("data:"))
        .collect();
    assert!(others.is_empty(), "requests besides the page: {others:?}");
    // The console log does catch errors: one made on purpose shows up.
    s.js("console.error('bao-probe')", json!([]));
    assert!(
        s.log("browser").iter().any(
            |e| e["level"] == json!("SEVERE") && e["message"].to_string().contains("bao-probe")
        ),
        "the console log is read"
    );
}

/// The evaluation graph under the board: clicking a point goes to that ply, the current-ply
/// mark follows the buttons and keys (a variation's frame marks its branch point), and on a
/// phone's screen the graph fits the width.
pub(crate) fn eval_graph_test(chromium: &Path, chromedriver: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("evaluated.html");
    let record = include_str!("../../../../fixtures/diagrams/evaluated.bao");
    let out = run(
        &["export", "html", "-", "-o", page.to_str().unwrap()],
        record,
    );
    assert_eq!(out, "exit: 0\n--- stdout\n--- stderr\n");
    let driver = Driver::start(chromedriver);
    let profile = tempfile::tempdir().unwrap();
    let s = driver.session(chromium, profile.path());
    s.go(&format!("file://{}", page.display()));
    // Where the mark stands, and the x of main-line frame `n`'s point.
    let mark = |s: &Session<'_>| {
        s.js(
            "return document.getElementById('bao-eval-cur').getAttribute('x1')",
            json!([]),
        )
    };
    let x_of = |s: &Session<'_>, n: u64| {
        s.js(
            "return document.querySelector('.bao-eval-pt[data-n=\"' + arguments[0] + '\"]').getAttribute('data-x')",
            json!([n]),
        )
    };
    assert_eq!(mark(&s), x_of(&s, 0));
    // The tenth main-line point: click it.
    let n: u64 = s
        .js(
            "return document.querySelectorAll('.bao-eval-pt')[10].getAttribute('data-n')",
            json!([]),
        )
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    s.click(&format!(".bao-eval-pt[data-n=\"{n}\"]"));
    assert_eq!(s.frame(), n);
    assert_eq!(mark(&s), x_of(&s, n));
    let status = s.js(
        "return document.getElementById('bao-status').textContent",
        json!([]),
    );
    assert!(status.as_str().unwrap().contains("Evaluation"), "{status}");
    // Keys still work, and the mark follows.
    s.key(RIGHT);
    let next = s.frame();
    assert!(next > n);
    assert_eq!(mark(&s), x_of(&s, next));
    s.key(HOME);
    assert_eq!(s.frame(), 0);
    assert_eq!(mark(&s), x_of(&s, 0));
    // A variation's move: the mark stands on the main-line position it branched from.
    let var: u64 = s
        .js(
            "return document.querySelector('.bao-variation .bao-mv').getAttribute('data-n')",
            json!([]),
        )
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    s.click(&format!("#bao-m{var}"));
    assert_eq!(s.frame(), var);
    let branch: u64 = s
        .js(
            "return document.getElementById('bao-f' + arguments[0]).getAttribute('data-prev')",
            json!([var]),
        )
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(mark(&s), x_of(&s, branch));
    let console = s.log("browser");
    assert!(
        !console.iter().any(|e| e["level"] == json!("SEVERE")),
        "console errors: {console:?}"
    );
    drop(s);

    // On a phone: the graph is as wide as the board, within the screen.
    let profile = tempfile::tempdir().unwrap();
    let phone = driver.phone_session(chromium, profile.path(), (360, 740));
    phone.go(&format!("file://{}", page.display()));
    let widths = phone.js(
        "var g = document.getElementById('bao-eval').getBoundingClientRect(); \
         var b = document.querySelector('.bao-frame:not([hidden]) svg').getBoundingClientRect(); \
         return [Math.round(g.width), Math.round(b.width), window.innerWidth, Math.round(g.height)]",
        json!([]),
    );
    let w: Vec<i64> = widths
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert!(w[0] <= w[2] && w[0] + 2 >= w[1] && w[3] >= 60, "{widths}");
    if let Some(keep) = std::env::var_os("BAO_PNG_DIR") {
        std::fs::write(
            Path::new(&keep).join("viewer-eval-phone.png"),
            phone.screenshot(),
        )
        .unwrap();
    }
}
