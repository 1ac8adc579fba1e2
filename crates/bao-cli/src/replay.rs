//! `bao replay`: JSON Lines in, JSON Lines out.
//!
//! Each input line is `{"rules": PRESET, "position": null | POSITION, "moves": [MOVE, ...]}`
//! (`position` may be left out; other fields are ignored). Each output line is
//! `{"positions": [...], "legal": [[...], ...], "error": null | {...}, "outcome": null | {...}}`:
//! `positions[0]` is the start, `positions[i]` the position after move `i`, and `legal[i]`
//! the legal moves in `positions[i]` (so `legal` holds the list of a failing ply too).
//! `error.ply` is the 0-based index of the failing move, `null` when the line itself is bad.
//! One bad line does not stop the others; the exit code is 1 if any line had an error.

use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use bao_core::json::{OutcomeJson, PositionJson};
use bao_core::{Move, MoveSpec, Position, ResolveError, RuleSet};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::CliError;
use crate::io::Input;
use crate::{Context, Status};

/// Arguments of `bao replay`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The JSON Lines file to read; `-` or nothing reads stdin.
    #[arg(value_name = "FILE|-", default_value = "-", value_parser = Input::parse)]
    input: Input,
}

/// One input line.
#[derive(Debug, Deserialize)]
struct Request {
    rules: String,
    #[serde(default)]
    position: Value,
    moves: Vec<Value>,
}

/// One output line.
#[derive(Debug, Default, Serialize)]
pub(crate) struct Replay {
    positions: Vec<PositionJson>,
    legal: Vec<Vec<String>>,
    error: Option<ReplayError>,
    outcome: Option<OutcomeJson>,
}

/// What stopped a line.
#[derive(Debug, Serialize)]
struct ReplayError {
    /// `json` (not JSON), `request` (wrong shape), `rules`, `position`, `move` (unreadable
    /// move), `illegal` (the engine refused the move) or `internal`.
    kind: &'static str,
    /// The 0-based index into `moves`, or `null`.
    ply: Option<usize>,
    /// The move as written, or `null`.
    #[serde(rename = "move")]
    mv: Option<String>,
    /// A sentence for people.
    reason: String,
    /// The rule id (`G5`) of an illegal move, else `null`.
    rule: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cycle_start_lap: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    period: Option<u64>,
}

impl ReplayError {
    fn line(kind: &'static str, reason: String) -> Self {
        Self {
            kind,
            ply: None,
            mv: None,
            reason,
            rule: None,
            cycle_start_lap: None,
            period: None,
        }
    }

    fn at(kind: &'static str, ply: usize, mv: String, reason: String) -> Self {
        Self {
            ply: Some(ply),
            mv: Some(mv),
            ..Self::line(kind, reason)
        }
    }

    /// A move the engine refused: `shown` is the move as the reason names it (the spec as
    /// read, or the resolved move), `text` the input.
    fn illegal(
        ply: usize,
        text: &str,
        shown: &dyn std::fmt::Display,
        e: &ResolveError,
        rules: &RuleSet,
    ) -> Self {
        let never_ending = match e {
            ResolveError::Illegal(e) => e.reason.never_ending(),
            _ => None,
        };
        Self {
            rule: Some(e.rule()),
            cycle_start_lap: never_ending.map(|n| n.cycle_start_lap),
            period: never_ending.map(|n| n.period),
            ..Self::at(
                "illegal",
                ply,
                text.to_owned(),
                bao_validate::words::resolve_error(shown, e, rules),
            )
        }
    }
}

fn legal_strings(pos: &Position) -> Vec<String> {
    pos.legal_moves().iter().map(Move::to_string).collect()
}

/// Replays one input line (without its line end). Never panics on any input; an engine
/// panic is caught and reported as an `internal` error.
pub(crate) fn replay_line(line: &[u8]) -> Replay {
    match catch_unwind(AssertUnwindSafe(|| replay_request(line))) {
        Ok(replay) => replay,
        Err(_) => Replay {
            error: Some(ReplayError::line(
                "internal",
                "internal error: the engine panicked on this line (please report it)".to_owned(),
            )),
            ..Replay::default()
        },
    }
}

fn replay_request(line: &[u8]) -> Replay {
    let fail = |error| Replay {
        error: Some(error),
        ..Replay::default()
    };
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => return fail(ReplayError::line("json", format!("not JSON: {e}"))),
    };
    let request: Request = match serde_json::from_value(value) {
        Ok(r) => r,
        Err(e) => {
            return fail(ReplayError::line(
                "request",
                format!(
                    "expected {{\"rules\": PRESET, \"position\": null or a position, \"moves\": [...]}}: {e}"
                ),
            ))
        }
    };
    let Some(rules) = RuleSet::preset(&request.rules) else {
        return fail(ReplayError::line(
            "rules",
            bao_validate::words::unknown_preset(&request.rules),
        ));
    };
    let start = if request.position.is_null() {
        Position::start(rules)
    } else {
        let json: PositionJson = match serde_json::from_value(request.position) {
            Ok(j) => j,
            Err(e) => return fail(ReplayError::line("position", format!("position: {e}"))),
        };
        match json.to_position(rules) {
            Ok(p) => p,
            Err(e) => {
                return fail(ReplayError::line(
                    "position",
                    crate::error::position_json_error(&e),
                ))
            }
        }
    };
    replay_moves(start, &request.moves)
}

fn replay_moves(start: Position, moves: &[Value]) -> Replay {
    let mut out = Replay::default();
    let mut pos = start;
    out.positions.push(PositionJson::from_position(&pos));
    for (ply, value) in moves.iter().enumerate() {
        out.legal.push(legal_strings(&pos));
        match play_one(&pos, ply, value) {
            Ok(next) => {
                pos = next;
                out.positions.push(PositionJson::from_position(&pos));
            }
            Err(e) => {
                out.error = Some(*e);
                break;
            }
        }
    }
    if out.error.is_none() {
        out.legal.push(legal_strings(&pos));
    }
    out.outcome = pos.outcome().as_ref().map(OutcomeJson::from);
    out
}

fn play_one(pos: &Position, ply: usize, value: &Value) -> Result<Position, Box<ReplayError>> {
    let Some(text) = value.as_str() else {
        return Err(Box::new(ReplayError::at(
            "move",
            ply,
            value.to_string(),
            "a move is a string such as \"A6<*\"".to_owned(),
        )));
    };
    let spec: MoveSpec = text.parse().map_err(|e: bao_core::ParsePitError| {
        Box::new(ReplayError::at("move", ply, text.to_owned(), e.to_string()))
    })?;
    let rules = pos.rules();
    let mv = pos
        .resolve(&spec)
        .map_err(|e| Box::new(ReplayError::illegal(ply, text, &spec, &e, rules)))?;
    let (next, _trace) = pos.play(&mv).map_err(|e| {
        let mv = e.mv;
        Box::new(ReplayError::illegal(
            ply,
            text,
            &mv,
            &ResolveError::Illegal(e),
            rules,
        ))
    })?;
    Ok(next)
}

/// Runs `bao replay`.
pub(crate) fn run(args: &Args, _ctx: &Context) -> Result<Status, CliError> {
    let mut input = args.input.open()?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let write_err = |e| CliError::io("cannot write to stdout", e);
    let (mut lines, mut bad) = (0usize, 0usize);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = input
            .read_until(b'\n', &mut buf)
            .map_err(|e| CliError::io(format!("cannot read {}", args.input.name()), e))?;
        if n == 0 {
            break;
        }
        let line = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let replay = replay_line(line);
        lines += 1;
        if replay.error.is_some() {
            bad += 1;
        }
        serde_json::to_writer(&mut out, &replay).map_err(|e| write_err(e.into()))?;
        out.write_all(b"\n").map_err(write_err)?;
        // A caller may be waiting for this answer before it sends the next line.
        out.flush().map_err(write_err)?;
    }
    if bad > 0 {
        eprintln!(
            "bao replay: {bad} of {lines} line{} had an error (see the \"error\" field)",
            if lines == 1 { "" } else { "s" }
        );
        Ok(Status::Invalid)
    } else {
        Ok(Status::Success)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(line: &str) -> ReplayError {
        replay_line(line.as_bytes()).error.expect("an error")
    }

    #[test]
    fn bad_lines_are_reported_not_fatal() {
        assert_eq!(error_of("{").kind, "json");
        assert_eq!(error_of("").kind, "json");
        assert_eq!(error_of(&"[".repeat(10_000)).kind, "json");
        assert_eq!(error_of(r#"{"rules": 3, "moves": []}"#).kind, "request");
        assert_eq!(error_of(r#"{"rules": "kiswahili"}"#).kind, "request");
        assert_eq!(
            error_of(r#"{"rules": "zanzibar", "moves": []}"#).kind,
            "rules"
        );
        let e = error_of(r#"{"rules": "kiswahili", "position": {"to_move": "up"}, "moves": []}"#);
        assert_eq!(e.kind, "position");
        assert!(e.reason.starts_with("position: "), "{}", e.reason);
        assert!(e.ply.is_none());
    }

    #[test]
    fn unreadable_moves_name_their_ply() {
        let r = replay_line(br#"{"rules": "kiswahili", "position": null, "moves": ["Q9"]}"#);
        let e = r.error.unwrap();
        assert_eq!(
            (e.kind, e.ply, e.mv.as_deref()),
            ("move", Some(0), Some("Q9"))
        );
        assert_eq!(r.positions.len(), 1);
        assert_eq!(r.legal.len(), 1);
        let e = error_of(r#"{"rules": "kiswahili", "moves": [7]}"#);
        assert_eq!((e.kind, e.mv.as_deref()), ("move", Some("7")));
    }

    #[test]
    fn an_empty_game_gives_the_start() {
        let r = replay_line(br#"{"rules": "kujifunza", "moves": []}"#);
        assert!(r.error.is_none());
        assert_eq!(r.positions.len(), 1);
        assert_eq!(r.legal.len(), 1);
    }
}
