//! `bao engine`: the engine protocol of spec/engine.md on stdin and stdout, in the spirit
//! of UCI, so that a front end or a referee can drive the search of `bao-analysis`.
//!
//! Commands are read line by line; a search runs on its own thread, so `stop`, `isready`
//! and `quit` are answered while it thinks. Every line written is flushed at once. A bad
//! command gets an `info string error ...` line and changes nothing; nothing the client
//! sends ends the engine but `quit` (or the end of its input, after a running finite search
//! has answered).

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bao_analysis::{
    choose_at_level, search_lines, time_for_move, Limits, Report, Score, Searcher, FULL_STRENGTH,
    MAX_LINES,
};
use bao_core::{MoveSpec, Position, RuleSet, PRESET_NAMES};
use bao_notation::PositionString;

use crate::context::{Context, Status};
use crate::error::CliError;

/// Arguments of `bao engine` (none: everything is set through the protocol).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

/// The transposition table's size by default: 2^20 entries.
const DEFAULT_TABLE_BITS: u32 = 20;

/// A search with a time limit stops this fraction of it (1/20: 5 ms of 100) before the
/// limit, counted from when `go` was read: the time the answer needs to reach the client
/// (the thread's wake-up, the pipe), so that `bestmove` arrives within the time asked.
const ANSWER_RESERVE: u32 = 20;

/// Where the engine's lines go: shared by the reading loop and the search thread.
type Out = Arc<Mutex<dyn Write + Send>>;

/// Writes one line and flushes it (a closed output is ignored: the client has gone).
fn say(out: &Out, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// A search on its thread: the flag that stops it, and the thread, which hands the
/// searcher back.
struct Running {
    stop: Arc<AtomicBool>,
    /// Set by the thread just before it writes `bestmove`: from then on the search is over
    /// for the client, which may send `go` at once.
    done: Arc<AtomicBool>,
    infinite: bool,
    handle: JoinHandle<Searcher>,
}

/// The engine's state between commands.
struct Engine {
    out: Out,
    rules: RuleSet,
    position: Position,
    /// The searcher, while no search runs.
    searcher: Option<Searcher>,
    running: Option<Running>,
    table_bits: u32,
    /// Lines a search reports (`MultiPV`).
    lines: usize,
    /// The level played (`Level`, 1 to 20; 20: full strength).
    level: u8,
}

/// The `score` part of an `info` line.
fn score_text(s: Score) -> String {
    match s {
        Score::Eval(cp) => format!("cp {cp}"),
        Score::Win(n) => format!("win {n}"),
        Score::Loss(n) => format!("loss {n}"),
    }
}

/// An `info` line for a finished iteration (of line `multipv`, when several are asked).
fn info_line(r: &Report, multipv: Option<usize>) -> String {
    let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
    let line = multipv.map(|k| format!(" multipv {k}")).unwrap_or_default();
    format!(
        "info depth {}{line} score {} nodes {} nps {} time {} pv {}",
        r.depth,
        score_text(r.score),
        r.nodes,
        r.nps(),
        r.elapsed.as_millis(),
        pv.join(" ")
    )
    .trim_end()
    .to_owned()
}

impl Engine {
    fn new(out: Out) -> Self {
        let rules = RuleSet::KISWAHILI;
        Self {
            out,
            rules,
            position: Position::start(rules),
            searcher: Some(Searcher::new(DEFAULT_TABLE_BITS)),
            running: None,
            table_bits: DEFAULT_TABLE_BITS,
            lines: 1,
            level: FULL_STRENGTH,
        }
    }

    fn error(&self, message: &str) {
        say(&self.out, &format!("info string error {message}"));
    }

    /// Waits for a running search to end (stopping it first if `stop`), and takes back
    /// its searcher.
    fn finish_search(&mut self, stop: bool) {
        if let Some(run) = self.running.take() {
            if stop || run.infinite {
                run.stop.store(true, Ordering::Relaxed);
            }
            match run.handle.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => {
                    self.error("the search failed; a new searcher is used");
                    self.searcher = Some(Searcher::new(self.table_bits));
                }
            }
        }
    }

    /// Whether a search is still running (a finished one is joined here).
    fn busy(&mut self) -> bool {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.done.load(Ordering::Acquire) || r.handle.is_finished())
        {
            self.finish_search(false);
        }
        self.running.is_some()
    }

    /// Handles one line; `false` when the engine should end.
    fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = words.split_first() else {
            return true;
        };
        match command {
            "bao" => {
                say(
                    &self.out,
                    &format!("id name bao {}", env!("CARGO_PKG_VERSION")),
                );
                say(&self.out, "id author the bao project");
                say(
                    &self.out,
                    &format!(
                        "option name Rules type combo default kiswahili {}",
                        PRESET_NAMES.map(|p| format!("var {p}")).join(" ")
                    ),
                );
                say(
                    &self.out,
                    &format!(
                        "option name Hash type spin default {} min 1 max 4096",
                        Searcher::table_bytes(DEFAULT_TABLE_BITS) >> 20
                    ),
                );
                say(
                    &self.out,
                    &format!("option name MultiPV type spin default 1 min 1 max {MAX_LINES}"),
                );
                say(
                    &self.out,
                    &format!(
                        "option name Level type spin default {FULL_STRENGTH} min 1 max {FULL_STRENGTH}"
                    ),
                );
                say(&self.out, "baook");
            }
            "isready" => say(&self.out, "readyok"),
            "setoption" => self.setoption(rest),
            "newgame" => {
                if self.busy() {
                    self.error("a search is running: send stop first");
                } else if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
            }
            "position" => self.position(rest),
            "go" => self.go(rest),
            "stop" => self.finish_search(true),
            "quit" => {
                self.finish_search(true);
                return false;
            }
            other => self.error(&format!(
                "unknown command `{other}` (bao, isready, setoption, newgame, position, go, stop, quit)"
            )),
        }
        true
    }

    fn setoption(&mut self, rest: &[&str]) {
        // setoption name NAME value VALUE
        let (Some(&"name"), Some(value_at)) =
            (rest.first(), rest.iter().position(|w| *w == "value"))
        else {
            self.error("expected `setoption name NAME value VALUE`");
            return;
        };
        let name = rest[1..value_at].join(" ");
        let value = rest[value_at + 1..].join(" ");
        if self.busy() {
            self.error("a search is running: send stop first");
            return;
        }
        match name.to_ascii_lowercase().as_str() {
            "rules" => match RuleSet::from_spec(&value) {
                Ok(rules) => {
                    self.rules = rules;
                    self.position = Position::start(rules);
                }
                Err(e) => self.error(&format!(
                    "option Rules: {}",
                    bao_validate::words::rule_spec_error(&e)
                )),
            },
            "hash" => match value.parse::<u32>() {
                Ok(mb) if (1..=4096).contains(&mb) => {
                    self.table_bits = Searcher::table_bits_for(mb);
                    self.searcher = Some(Searcher::new(self.table_bits));
                }
                _ => self.error(&format!("option Hash: `{value}` is not 1 to 4096 (MB)")),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_LINES).contains(&n) => self.lines = n,
                _ => self.error(&format!("option MultiPV: `{value}` is not 1 to {MAX_LINES}")),
            },
            "level" => match value.parse::<u8>() {
                Ok(l) if (1..=FULL_STRENGTH).contains(&l) => self.level = l,
                _ => self.error(&format!(
                    "option Level: `{value}` is not 1 to {FULL_STRENGTH} ({FULL_STRENGTH}: full strength)"
                )),
            },
            _ => self.error(&format!(
                "unknown option `{name}` (Rules, Hash, MultiPV, Level)"
            )),
        }
    }

    fn position(&mut self, rest: &[&str]) {
        let moves_at = rest.iter().position(|w| *w == "moves");
        let (head, moves) = match moves_at {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &[][..]),
        };
        let mut pos = match head.split_first() {
            Some((&"startpos", [])) => Position::start(self.rules),
            Some((&"posstring", fields)) if !fields.is_empty() => {
                let text = fields.join(" ");
                let ps: PositionString = match text.parse() {
                    Ok(ps) => ps,
                    Err(e) => {
                        self.error(&format!("position string `{text}`: {e}"));
                        return;
                    }
                };
                match Position::from_setup(ps.to_setup(self.rules)) {
                    Ok(p) => p,
                    Err(e) => {
                        self.error(&format!(
                            "position string `{text}`: {}",
                            bao_validate::words::setup_error(&e)
                        ));
                        return;
                    }
                }
            }
            _ => {
                self.error("expected `position startpos|posstring STR [moves M ...]`");
                return;
            }
        };
        for (i, written) in moves.iter().enumerate() {
            let played = written
                .parse::<MoveSpec>()
                .map_err(|e| e.to_string())
                .and_then(|spec| {
                    pos.resolve(&spec)
                        .map_err(|e| bao_validate::words::resolve_error(written, &e, &self.rules))
                })
                .and_then(|mv| pos.play(&mv).map_err(|e| e.to_string()));
            match played {
                Ok((next, _)) => pos = next,
                Err(why) => {
                    self.error(&format!(
                        "move {} `{written}`: {why}; the position is unchanged",
                        i + 1
                    ));
                    return;
                }
            }
        }
        self.position = pos;
    }

    fn go(&mut self, rest: &[&str]) {
        // The time limit counts from here, when `go` was read (not from when the search's
        // thread starts).
        let received = Instant::now();
        if self.busy() {
            self.error("a search is running: send stop first");
            return;
        }
        let mut limits = Limits::default();
        let mut infinite = false;
        // The clock: each side's time and increment (ms), and the moves to the next control.
        let (mut time, mut inc, mut moves_to_go) = ([None; 2], [0u64; 2], None);
        const USAGE: &str = "go depth N | movetime MS | nodes N | wtime MS btime MS [winc MS binc MS movestogo N] | infinite";
        let mut words = rest.iter();
        while let Some(&w) = words.next() {
            if w == "infinite" {
                infinite = true;
                continue;
            }
            let Some(value) = words.next().and_then(|v| v.parse::<u64>().ok()) else {
                self.error(&format!("`go {w}` needs a number ({USAGE})"));
                return;
            };
            match w {
                "depth" => limits.depth = Some(u32::try_from(value).unwrap_or(u32::MAX).max(1)),
                "movetime" => limits.movetime = Some(Duration::from_millis(value)),
                "nodes" => limits.nodes = Some(value.max(1)),
                // South's clock is `wtime` (South moves first, as White does).
                "wtime" => time[0] = Some(value),
                "btime" => time[1] = Some(value),
                "winc" => inc[0] = value,
                "binc" => inc[1] = value,
                "movestogo" => moves_to_go = Some(u32::try_from(value).unwrap_or(u32::MAX)),
                _ => {
                    self.error(&format!("unknown `go {w}` ({USAGE})"));
                    return;
                }
            }
        }
        let side = usize::from(self.position.to_move() != bao_core::Side::South);
        if let Some(ms) = time[side] {
            let t = time_for_move(
                Duration::from_millis(ms),
                Duration::from_millis(inc[side]),
                moves_to_go,
            );
            limits.movetime = Some(limits.movetime.map_or(t, |m| m.min(t)));
        }
        // A bare `go` has no limit: it is `go infinite`.
        if limits == Limits::default() {
            infinite = true;
        }
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(self.table_bits));
        let stop = searcher.stop_flag();
        let done = Arc::new(AtomicBool::new(false));
        let finished = Arc::clone(&done);
        let out = Arc::clone(&self.out);
        let pos = self.position;
        let (lines, level) = (self.lines, self.level);
        let handle = std::thread::spawn(move || {
            let mut limits = limits;
            limits.movetime = limits.movetime.map(|t| {
                t.saturating_sub(received.elapsed())
                    .saturating_sub(t / ANSWER_RESERVE)
            });
            let report = if level < FULL_STRENGTH {
                let chosen = choose_at_level(&mut searcher, &pos, limits, level);
                if let Some(r) = &chosen {
                    say(&out, &info_line(r, None));
                }
                chosen.unwrap_or_else(|| searcher.search(&pos, limits, |_| {}))
            } else if lines > 1 {
                let found = search_lines(&mut searcher, &pos, limits, lines, |k, r| {
                    say(&out, &info_line(r, Some(k)));
                });
                found.into_iter().next().unwrap_or_else(|| Report {
                    depth: 0,
                    score: Score::Eval(0),
                    nodes: 0,
                    elapsed: Duration::ZERO,
                    pv: Vec::new(),
                })
            } else {
                searcher.search(&pos, limits, |r| say(&out, &info_line(r, None)))
            };
            if infinite {
                // `go infinite` answers only after `stop`.
                while !stop_requested(&searcher) {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            finished.store(true, Ordering::Release);
            match report.best() {
                Some(mv) => say(&out, &format!("bestmove {mv}")),
                None => say(&out, "bestmove (none)"),
            }
            searcher
        });
        self.running = Some(Running {
            stop,
            done,
            infinite,
            handle,
        });
    }
}

/// Whether the client asked a search to stop.
fn stop_requested(s: &Searcher) -> bool {
    s.stop_flag().load(Ordering::Relaxed)
}

/// Runs the protocol on `input`, writing to `out`, until `quit` or the end of the input.
fn serve(input: impl BufRead, out: Out) {
    let mut engine = Engine::new(out);
    for line in input.lines() {
        let line = match line {
            Ok(line) => line,
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                engine.error("the line is not UTF-8 text; ignored");
                continue;
            }
            Err(_) => break,
        };
        if !engine.handle(&line) {
            return;
        }
    }
    // End of input: a finite search still answers; an infinite one is stopped.
    engine.finish_search(false);
}

/// Runs `bao engine`.
pub(crate) fn run(_args: &Args, _ctx: &Context) -> Result<Status, CliError> {
    let out: Out = Arc::new(Mutex::new(std::io::stdout()));
    serve(std::io::stdin().lock(), out);
    Ok(Status::Success)
}
