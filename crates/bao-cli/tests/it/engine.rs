//! `bao engine`: every command of the protocol (spec/engine.md), bad commands answered with
//! `info string error ...`, `stop` during `go infinite`, and a referee that plays the engine
//! against a random mover through the protocol, judging each move with bao-core.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use bao_core::{MoveSpec, Position, RuleSet};

use crate::cmd::output;

/// The output lines with what varies from run to run (`nps`, `time`) replaced by `_`.
fn steady(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(stdout);
    let mut out = String::new();
    for line in text.lines() {
        let mut words: Vec<&str> = line.split(' ').collect();
        for i in 1..words.len() {
            if matches!(words[i - 1], "nps" | "time") && line.starts_with("info depth") {
                words[i] = "_";
            }
        }
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

/// Every command once, with bad ones among them, as one script on stdin: the engine
/// answers each, the fixed-depth searches deterministically, and ends at `quit`.
#[test]
fn a_session_with_every_command() {
    let script = "\
bao
isready
setoption name Rules value kete
position startpos
go depth 2
stop
setoption name Rules value kiswahili
setoption name Hash value 1
newgame
position startpos moves A6<* a6<
go nodes 50
stop
position posstring 0,0,1,2,5,6,7,1/6,0,0,2,7,1,0,5/0,1,1,1,1,2,5,3/1,1,2,1,2,0,0,0 0/0 S XX -
go depth 4
stop
frobnicate
go sideways 3
go depth
position startpos moves A1<*
position posstring 1,2,3 S
position
setoption name Rules value chess
setoption name Colour value red
setoption Rules kiswahili

position startpos moves A6<* a6< A5>
quit
go depth 1
";
    let out = output(&["engine"], script);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(steady(&out.stdout));
}

/// `MultiPV`, levels and the clock through the protocol: three lines with three different
/// first moves, a weak level's legal move (the same one twice), a move on a clock, and
/// bad values refused.
#[test]
fn lines_levels_and_a_clock() {
    let mut e = Engine::start();
    // A mtaji position with many moves (South to move).
    const POS: &str = "0,0,1,2,5,6,7,1/6,0,0,2,7,1,0,5/0,1,1,1,1,2,5,3/1,1,2,1,2,0,0,0 0/0 S XX -";
    let pos = Position::from_setup(
        POS.parse::<bao_notation::PositionString>()
            .unwrap()
            .to_setup(RuleSet::KISWAHILI),
    )
    .unwrap();
    assert!(pos.legal_moves().len() > 3);
    let legal = |best: &str| {
        let mv: MoveSpec = best["bestmove ".len()..].parse().expect("a move");
        assert!(pos.resolve(&mv).is_ok(), "{best}");
    };
    e.send("setoption name MultiPV value 3");
    e.send(&format!("position posstring {POS}"));
    e.send("go depth 3");
    let mut firsts = Vec::new();
    let best = loop {
        let line = e.wait_for("");
        if line.starts_with("bestmove") {
            break line;
        }
        if let Some(rest) = line.strip_prefix("info depth 3 multipv ") {
            let first = rest
                .split(" pv ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap();
            firsts.push(first.to_owned());
        }
    };
    assert_eq!(firsts.len(), 3, "{firsts:?}");
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(best, format!("bestmove {}", firsts[0]));
    // A weak level: a legal move, the same one for the same position.
    e.send("setoption name MultiPV value 1");
    e.send("setoption name Level value 1");
    e.send("go depth 6");
    let weak = e.wait_for("bestmove");
    legal(&weak);
    e.send("go depth 6");
    assert_eq!(e.wait_for("bestmove"), weak);
    // On a clock.
    e.send("setoption name Level value 20");
    e.send("go wtime 3000 btime 3000 winc 100 binc 100 movestogo 20");
    legal(&e.wait_for("bestmove"));
    // Bad values change nothing.
    let out = output(
        &["engine"],
        "setoption name MultiPV value 0\nsetoption name Level value 21\ngo wtime x\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let errors: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 3, "{text}");
    assert!(
        errors[0].contains("MultiPV") && errors[1].contains("Level"),
        "{text}"
    );
    assert!(errors[2].contains("wtime"), "{text}");
}

/// A running `bao engine`: lines from its stdout through a channel, with time limits.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bao"))
            .env("BAO_LANG", "en")
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("bao engine runs");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads");
        self.stdin.flush().expect("flushed");
    }

    /// Lines until one starting with `prefix` (which is returned), within 30 s.
    fn wait_for(&self, prefix: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|e| panic!("no `{prefix}` line: {e}"));
            assert!(!line.contains("error"), "{line}");
            if line.starts_with(prefix) {
                return line;
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// `go infinite` (and a bare `go`) answers `isready` while it thinks and gives its best
/// move only after `stop`.
#[test]
fn stop_ends_an_infinite_search() {
    let mut e = Engine::start();
    e.send("bao");
    e.wait_for("baook");
    e.send("position startpos");
    e.send("go infinite");
    e.send("isready");
    e.wait_for("readyok");
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        e.lines.try_iter().all(|l| !l.starts_with("bestmove")),
        "bestmove before stop"
    );
    e.send("stop");
    let best = e.wait_for("bestmove");
    let mv: MoveSpec = best[9..].parse().expect("a move");
    let start = Position::start(RuleSet::KISWAHILI);
    assert!(start.resolve(&mv).is_ok(), "{best}");
    // A bare `go` is an infinite search too.
    e.send("go");
    e.send("isready");
    e.wait_for("readyok");
    std::thread::sleep(Duration::from_millis(100));
    assert!(e.lines.try_iter().all(|l| !l.starts_with("bestmove")));
    e.send("stop");
    e.wait_for("bestmove");
    e.send("isready");
    e.wait_for("readyok");
}

/// A referee: the engine (1 000 nodes a move) against a uniformly random mover, colours
/// alternated; every engine move is checked legal with bao-core, and the engine wins.
#[test]
fn the_engine_beats_a_random_mover_through_the_protocol() {
    let mut e = Engine::start();
    e.send("bao");
    e.wait_for("baook");
    e.send("setoption name Rules value kiswahili");
    e.send("isready");
    e.wait_for("readyok");
    let mut state = 0x5EED_u64;
    let mut random = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(state >> 33).expect("small") % n
    };
    let mut won = 0;
    let games = 4;
    for g in 0..games {
        let engine_side = if g % 2 == 0 {
            bao_core::Side::South
        } else {
            bao_core::Side::North
        };
        let mut pos = Position::start(RuleSet::KISWAHILI);
        let mut moves: Vec<String> = Vec::new();
        while pos.outcome().is_none() && moves.len() < 600 {
            let legal = pos.legal_moves();
            let mv = if pos.to_move() == engine_side {
                let mut cmd = String::from("position startpos");
                if !moves.is_empty() {
                    cmd.push_str(" moves ");
                    cmd.push_str(&moves.join(" "));
                }
                e.send(&cmd);
                e.send("go nodes 1000");
                let best = e.wait_for("bestmove");
                let spec: MoveSpec = best[9..].parse().expect("a move");
                let mv = pos.resolve(&spec).expect("the engine's move is legal");
                assert!(legal.contains(&mv));
                mv
            } else {
                legal[random(legal.len())]
            };
            moves.push(mv.to_string());
            pos = pos.play(&mv).expect("legal").0;
        }
        if pos.outcome().and_then(|o| o.winner) == Some(engine_side) {
            won += 1;
        }
    }
    assert!(won >= games - 1, "the engine won {won} of {games}");
}
