//! `bao solve`: proves a position's result exactly within a horizon of plies (no
//! evaluation decides anything): a forced win with every winning first move, a forced loss,
//! a draw, or `unknown` when the horizon proves none (spec/engine.md, "Solving").
//!
//! Exit codes: 0 a result is proven, 1 unknown (or an invalid position, or a ply at or past
//! the first invalid ply of a record), 2 usage.

use bao_analysis::{Solution, Solver, Verdict};
use bao_core::Position;
use serde::Serialize;

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::position::PositionSource;

/// The output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// A few lines for a person.
    Human,
    /// One JSON object (spec/engine.md).
    Json,
}

/// Arguments of `bao solve`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("source").required(true).args(["file", "position"]))]
pub(crate) struct Args {
    #[command(flatten)]
    source: PositionSource,
    /// The horizon: prove results within this many plies.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// List every first move that wins within the horizon, each with its own distance (not
    /// only the quickest).
    #[arg(long)]
    all: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

/// One winning move with its distance (`--all`).
#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    mv: String,
    plies: u32,
}

/// The JSON output.
#[derive(Serialize)]
struct SolveJson {
    result: &'static str,
    plies: Option<u32>,
    moves: serde_json::Value,
    line: Vec<String>,
    nodes: u64,
    ms: u64,
}

fn json_text(sol: &Solution, all: bool) -> Result<String, CliError> {
    let moves = if all {
        serde_json::to_value(
            sol.moves
                .iter()
                .map(|w| MoveJson {
                    mv: w.mv.to_string(),
                    plies: w.plies,
                })
                .collect::<Vec<_>>(),
        )
    } else {
        serde_json::to_value(
            sol.moves
                .iter()
                .map(|w| w.mv.to_string())
                .collect::<Vec<_>>(),
        )
    }
    .map_err(|e| CliError::Internal(e.to_string()))?;
    let value = SolveJson {
        result: sol.verdict.name(),
        plies: sol.plies,
        moves,
        line: sol.line.iter().map(ToString::to_string).collect(),
        nodes: sol.nodes,
        ms: sol.ms,
    };
    let mut s = serde_json::to_string(&value).map_err(|e| CliError::Internal(e.to_string()))?;
    s.push('\n');
    Ok(s)
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        "y"
    } else {
        "ies"
    }
}

fn human_text(pos: &Position, sol: &Solution, depth: u32) -> String {
    let side = match pos.to_move() {
        bao_core::Side::South => "South",
        bao_core::Side::North => "North",
    };
    let mut out = match (sol.verdict, sol.plies) {
        (Verdict::Win, Some(n)) => format!("{side} to move wins within {n} pl{}\n", plural(n)),
        (Verdict::Loss, Some(n)) => format!("{side} to move loses within {n} pl{}\n", plural(n)),
        (Verdict::Draw, Some(n)) => format!("a draw within {n} pl{}\n", plural(n)),
        _ => format!(
            "unknown: nothing is forced within {depth} pl{} for {side} to move\n",
            plural(depth)
        ),
    };
    if !sol.moves.is_empty() {
        let moves: Vec<String> = sol
            .moves
            .iter()
            .map(|w| format!("{} ({})", w.mv, w.plies))
            .collect();
        out.push_str(&format!("winning first moves: {}\n", moves.join(", ")));
    }
    if !sol.line.is_empty() {
        let line: Vec<String> = sol.line.iter().map(ToString::to_string).collect();
        out.push_str(&format!("line: {}\n", line.join(" ")));
    }
    out.push_str(&format!("{} nodes, {} ms\n", sol.nodes, sol.ms));
    out
}

/// Runs `bao solve`.
pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    let pos: Position = match args.source.position(ctx)? {
        Ok(pos) => pos,
        Err(status) => return Ok(status),
    };
    let sol = Solver::new().solve(&pos, args.depth, args.all);
    let out = match args.format {
        Format::Human => human_text(&pos, &sol, args.depth),
        Format::Json => json_text(&sol, args.all)?,
    };
    crate::output::emit(None, out.as_bytes())?;
    Ok(Status::valid_if(sol.verdict != Verdict::Unknown))
}
