//! `bao replay`: JSON Lines in, JSON Lines out.
//!
//! Each input line is `{"rules": RULES, "position": null | POSITION, "moves": [MOVE, ...]}`
//! (`RULES` a preset, optionally with `name=value` overrides as in `bao new --rules`;
//! `position` may be left out; other fields are ignored). Each output line is
//! `{"positions": [...], "legal": [[...], ...], "error": null | {...}, "outcome": null | {...}}`:
//! `positions[0]` is the start, `positions[i]` the position after move `i`, and `legal[i]`
//! the legal moves in `positions[i]` (so `legal` holds the list of a failing ply too).
//! `error.ply` is the 0-based index of the failing move, `null` when the line itself is bad.
//! One bad line does not stop the others; the exit code is 1 if any line had an error.

use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use bao_core::json::{OutcomeJson, PositionJson};
use bao_core::{Move, MoveSpec, Position, ResolveError, RuleSet, RuleSpecError};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::io::Input;

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
    let rules = match RuleSet::from_spec(&request.rules) {
        Ok(r) => r,
        Err(RuleSpecError::UnknownPreset(p)) => {
            return fail(ReplayError::line(
                "rules",
                bao_validate::words::unknown_preset(&p.0),
            ))
        }
        Err(e) => {
            return fail(ReplayError::line(
                "rules",
                bao_validate::words::rule_spec_error(&e),
            ))
        }
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

    /// Mancala World Problem 3 up to South's twelfth move, `A3<*`, a takasa that never ends
    /// (cycle from lap 1, period 228) while no capture exists.
    const PROBLEM_3: &str = "A6<* a6> A4> a6> A5< a3> A8>+ a8> A4> a4< A8> a7> A1< a4> A6> a4< \
                             A2< a4< A4< a4< A7> a4<";

    /// Replays `moves` under `rules` both ways: as a `bao replay` line and as a record
    /// through bao-replay (what `bao check` and the exporters read); both must play the
    /// same plies and refuse the same move with the same rule, reason and cycle.
    fn assert_surfaces_agree(rules: &str, moves: &str) {
        let list: Vec<&str> = moves.split_whitespace().collect();
        let line = serde_json::json!({"rules": rules, "moves": list}).to_string();
        let cli = replay_line(line.as_bytes());
        let parsed = bao_notation::parse_record(&format!("[RuleSet \"{rules}\"]\n\n{moves} *\n"));
        assert!(
            parsed.errors.is_empty(),
            "{rules} {moves}: {:?}",
            parsed.errors
        );
        let replayed = bao_replay::replay_game(&parsed.record.games[0].value, None);
        let refused = replayed
            .main
            .plies
            .iter()
            .enumerate()
            .find_map(|(k, p)| match &p.outcome {
                Err(bao_replay::Problem::Refused { spec, refusal, .. }) => {
                    Some((k, Some((spec, refusal)), p.before))
                }
                // A move after the end of the main line: E4, the line's own problem.
                Err(bao_replay::Problem::AfterEnd { .. }) => Some((k, None, p.before)),
                _ => None,
            });
        let case = format!("{rules}: {moves}");
        match (cli.error, refused) {
            (None, None) => {
                assert_eq!(cli.positions.len(), replayed.main.plies.len() + 1, "{case}");
                let outcome = replayed.final_outcome().expect("replayed to its end");
                assert_eq!(
                    serde_json::to_value(&cli.outcome).unwrap(),
                    serde_json::to_value(outcome.as_ref().map(OutcomeJson::from)).unwrap(),
                    "{case}"
                );
            }
            (Some(e), Some((k, None, before))) => {
                assert_eq!(
                    (e.kind, e.ply, e.rule),
                    ("illegal", Some(k), Some("E4")),
                    "{case}"
                );
                assert!(before.outcome().is_some(), "{case}");
            }
            (Some(e), Some((k, Some((spec, refusal)), before))) => {
                assert_eq!((e.kind, e.ply), ("illegal", Some(k)), "{case}");
                assert_eq!(e.rule, Some(refusal.rule()), "{case}");
                assert_eq!(
                    e.reason,
                    bao_validate::words::resolve_error(spec, refusal, before.rules()),
                    "{case}"
                );
                let cycle = match refusal {
                    ResolveError::Illegal(p) => p.reason.never_ending(),
                    _ => None,
                };
                assert_eq!(
                    e.cycle_start_lap,
                    cycle.map(|c| c.cycle_start_lap),
                    "{case}"
                );
                assert_eq!(e.period, cycle.map(|c| c.period), "{case}");
            }
            (e, r) => panic!("{case}: bao replay says {e:?}, the replay {r:?}"),
        }
    }

    /// `bao replay` and the replay of a record decide a written move in one place
    /// (`Position::resolve`), so they agree on the hard cases: a namua move from the back
    /// row, a never-ending takasa written with and without `*` under every `endless_move`
    /// option, a sign left out where both are legal, a move that is not legal.
    #[test]
    fn bao_replay_and_the_record_replay_agree_on_written_moves() {
        for endless in ["illegal", "draw", "mover_loses", "cap:192"] {
            let rules = format!("kiswahili endless_move={endless}");
            for moves in [
                "B3<".to_owned(),
                "A6<* b2<".to_owned(),
                "A6".to_owned(),
                "A5<*".to_owned(),
                format!("{PROBLEM_3} A3<*"),
                format!("{PROBLEM_3} A3<"),
                format!("{PROBLEM_3} A3"),
                format!("{PROBLEM_3} A3<* a4<"),
            ] {
                assert_surfaces_agree(&rules, &moves);
            }
        }
        // The preset whose seed cap stands in for the exact detection.
        assert_surfaces_agree("abstractplay", &format!("{PROBLEM_3} A3<*"));
        // The cases themselves: N1 before any sowing, G11 with its cycle.
        let e = error_of(r#"{"rules": "kiswahili", "moves": ["B3<"]}"#);
        assert_eq!(e.rule, Some("N1"));
        let moves: Vec<&str> = PROBLEM_3.split_whitespace().chain(["A3<"]).collect();
        let line = serde_json::json!({"rules": "kiswahili", "moves": moves}).to_string();
        let e = error_of(&line);
        assert_eq!((e.rule, e.period), (Some("G11"), Some(228)));
    }

    #[test]
    fn rules_take_overrides_and_name_an_unknown_preset_or_option() {
        let r = replay_line(br#"{"rules": "kiswahili endless_move=draw", "moves": ["A6<*"]}"#);
        assert!(r.error.is_none());
        let e = error_of(r#"{"rules": "zanzibar", "moves": []}"#);
        assert_eq!(e.kind, "rules");
        assert!(e
            .reason
            .starts_with("unknown rule preset `zanzibar` (known: "));
        let e = error_of(r#"{"rules": "kiswahili takasia=sometimes", "moves": []}"#);
        assert_eq!(e.kind, "rules");
        assert_eq!(
            e.reason,
            "rule option `takasia` cannot be `sometimes`: expected off, standard or abstractplay"
        );
    }

    #[test]
    fn an_empty_game_gives_the_start() {
        let r = replay_line(br#"{"rules": "kujifunza", "moves": []}"#);
        assert!(r.error.is_none());
        assert_eq!(r.positions.len(), 1);
        assert_eq!(r.legal.len(), 1);
    }
}
