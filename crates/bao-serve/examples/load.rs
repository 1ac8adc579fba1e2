//! A bounded load test of `bao serve` on 127.0.0.1: 20 boards recorded at once and 200
//! spectators on server-sent events. Prints the move round trip (p50, p99, max), the
//! server's peak RSS and its CPU time per move. Stops by itself: each board plays at most
//! `PLIES` plies (random legal moves, one every `PACE`), and the whole run at most 120 s.
//!
//! ```text
//! cargo build --release -p bao-cli
//! cargo run --release -p bao-serve --example load -- target/release/bao
//! ```
//!
//! Linux only (it reads the server's `/proc/PID/status` and `/proc/PID/stat`).

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const BOARDS: usize = 20;
const SPECTATORS: usize = 200;
const PLIES: usize = 60;
const PACE: Duration = Duration::from_millis(200);
const LIMIT: Duration = Duration::from_secs(120);
const TOKEN: &str = "load-test-token";

fn post(base: &str, path: &str, body: &Value) -> (u16, Value) {
    let r = ureq::post(&format!("{base}{path}"))
        .timeout(Duration::from_secs(30))
        .set("Authorization", &format!("Bearer {TOKEN}"))
        .send_json(body.clone());
    match r {
        Ok(r) => (r.status(), r.into_json().unwrap_or(Value::Null)),
        Err(ureq::Error::Status(s, r)) => (s, r.into_json().unwrap_or(Value::Null)),
        Err(e) => panic!("{path}: {e}"),
    }
}

/// A field of the server's `/proc/PID/status` (`VmRSS`, `RssAnon`, `Threads`).
fn status(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The server's resident set (kB) and CPU time (clock ticks).
fn usage(pid: u32) -> (u64, u64) {
    let rss = status(pid, "VmRSS");
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, r)| r.split_whitespace().collect());
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command.
    (rss, ticks(11) + ticks(12))
}

fn main() {
    let bao = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/release/bao".to_owned());
    let dir = tempfile::tempdir().unwrap();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = Command::new(&bao)
        .args(["serve", dir.path().to_str().unwrap(), "--listen"])
        .arg(format!("127.0.0.1:{port}"))
        .env("BAO_SERVE_TOKEN", TOKEN)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("bao serve starts");
    let base = format!("http://127.0.0.1:{port}");
    let start = Instant::now();
    while ureq::get(&format!("{base}/api/games")).call().is_err() {
        assert!(start.elapsed() < Duration::from_secs(20), "no server");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = child.id();
    let ids: Vec<String> = (0..BOARDS)
        .map(|b| {
            let (s, v) = post(
                &base,
                "/api/games",
                &json!({"tags": {"South": format!("S{b}"), "North": format!("N{b}"), "Round": "1"}}),
            );
            assert_eq!(s, 201, "{v}");
            v["id"].as_str().unwrap().to_owned()
        })
        .collect();
    let stop = Arc::new(AtomicBool::new(false));
    let events = Arc::new(AtomicU64::new(0));
    let mut watchers = Vec::new();
    for i in 0..SPECTATORS {
        let url = format!("{base}/api/games/{}/events", ids[i % BOARDS]);
        let (stop, events) = (Arc::clone(&stop), Arc::clone(&events));
        watchers.push(
            std::thread::Builder::new()
                .stack_size(128 * 1024)
                .spawn(move || {
                    let Ok(r) = ureq::get(&url)
                        .timeout(LIMIT + Duration::from_secs(10))
                        .call()
                    else {
                        return;
                    };
                    for line in BufReader::new(r.into_reader()).lines() {
                        let Ok(line) = line else { return };
                        if line.starts_with("event: ") {
                            events.fetch_add(1, Ordering::Relaxed);
                        }
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                    }
                })
                .unwrap(),
        );
    }
    std::thread::sleep(Duration::from_secs(1));
    let (rss_idle, cpu_before) = usage(pid);
    let times = Arc::new(Mutex::new(Vec::new()));
    let peak = Arc::new(AtomicU64::new(rss_idle));
    // The most threads, and the anonymous part of the resident set at its peak (heaps and
    // stacks, against the binary's pages).
    let threads = Arc::new(AtomicU64::new(status(pid, "Threads")));
    let anon = Arc::new(AtomicU64::new(status(pid, "RssAnon")));
    let sampler = {
        let (stop, peak) = (Arc::clone(&stop), Arc::clone(&peak));
        let (threads, anon) = (Arc::clone(&threads), Arc::clone(&anon));
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                peak.fetch_max(usage(pid).0, Ordering::Relaxed);
                threads.fetch_max(status(pid, "Threads"), Ordering::Relaxed);
                anon.fetch_max(status(pid, "RssAnon"), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let t0 = Instant::now();
    let boards: Vec<_> = ids
        .iter()
        .enumerate()
        .map(|(b, id)| {
            let (base, id, times) = (base.clone(), id.clone(), Arc::clone(&times));
            std::thread::spawn(move || {
                let mut rng = bao_rng(b as u64 + 1);
                let (_, mut state) = post(
                    &base,
                    &format!("/api/games/{id}/undo"),
                    &json!({"plies": 999}),
                );
                state = ureq::get(&format!("{base}/api/games/{id}/state"))
                    .call()
                    .map(|r| r.into_json().unwrap())
                    .unwrap_or(state);
                for ply in 0..PLIES {
                    let legal = state["legal"].as_array().cloned().unwrap_or_default();
                    if legal.is_empty() || t0.elapsed() > LIMIT {
                        break;
                    }
                    let mv = legal[(next(&mut rng) % legal.len() as u64) as usize].clone();
                    let t = Instant::now();
                    let (s, v) = post(
                        &base,
                        &format!("/api/games/{id}/moves"),
                        &json!({"ply": ply, "move": mv}),
                    );
                    let dt = t.elapsed();
                    assert_eq!(s, 200, "{v}");
                    times.lock().unwrap().push(dt);
                    state = v;
                    std::thread::sleep(PACE.saturating_sub(dt));
                }
            })
        })
        .collect();
    for b in boards {
        b.join().unwrap();
    }
    let wall = t0.elapsed();
    let (_, cpu_after) = usage(pid);
    std::thread::sleep(Duration::from_millis(500));
    stop.store(true, Ordering::Relaxed);
    sampler.join().unwrap();
    let mut t = times.lock().unwrap().clone();
    t.sort();
    let pct = |p: f64| t[((t.len() as f64 * p).ceil() as usize).clamp(1, t.len()) - 1];
    let ticks_per_s = 100.0; // USER_HZ on Linux
    let cpu = (cpu_after - cpu_before) as f64 / ticks_per_s;
    let check = Command::new(&bao)
        .args(["check", "-q", dir.path().to_str().unwrap()])
        .status()
        .unwrap();
    println!(
        "boards {BOARDS}, spectators {SPECTATORS}, moves {} in {:.1} s",
        t.len(),
        wall.as_secs_f64()
    );
    println!(
        "move round trip: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        t[t.len() - 1].as_secs_f64() * 1e3
    );
    println!(
        "server RSS: {} kB idle with the spectators connected, {} kB peak ({} kB anonymous), {} threads at most",
        rss_idle,
        peak.load(Ordering::Relaxed),
        anon.load(Ordering::Relaxed),
        threads.load(Ordering::Relaxed)
    );
    println!(
        "server CPU: {:.2} s for {} moves = {:.2} ms a move (with {} events delivered)",
        cpu,
        t.len(),
        cpu * 1e3 / t.len() as f64,
        events.load(Ordering::Relaxed)
    );
    println!(
        "bao check on the directory: {}",
        if check.success() { "clean" } else { "FAILED" }
    );
    let _ = child.kill();
    let _ = child.wait();
    // `exit` runs no destructor: the records' directory is removed first.
    drop(dir);
    std::process::exit(i32::from(!check.success()));
}

/// A small xorshift generator (the moves need no quality, only variety).
fn bao_rng(seed: u64) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
}

fn next(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}
