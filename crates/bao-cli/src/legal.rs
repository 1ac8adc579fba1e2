//! `bao legal`: the legal moves of one position, in canonical notation.
//!
//! The position is that after `--ply N` of a record's main line (as `bao show` picks it) or a
//! position string given with `--position` (under `--rules`). Text output: one move per line,
//! sorted, then two spaces and what the move does (takasa or captures, laps, safari, a
//! takasia set, a win). `--format json` writes one JSON object. A finished game has no legal
//! moves: the output is empty and stderr says how the game ended. Records as `bao show`
//! reads them: an invalid one gives any ply before its first invalid one (exit 0, with a
//! note), a ply at or past it exits 1; an invalid position exits 1, a `--game` or `--ply`
//! beyond the record exits 2.

use bao_core::{Move, MoveTrace, Position, Side};
use bao_notation::PositionString;
use serde::Serialize;

use bao_i18n::{t, Lang};
use bao_validate::words;

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::position::PositionSource;

/// The output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// One move per line with a short description.
    Text,
    /// One JSON object: the position and every move with its captures and laps.
    Json,
}

/// Arguments of `bao legal`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("source").required(true).args(["file", "position"]))]
pub(crate) struct Args {
    #[command(flatten)]
    source: PositionSource,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The legal moves of `pos` with their traces.
fn moves(pos: &Position) -> Result<Vec<(Move, MoveTrace)>, CliError> {
    let mut legal = pos.legal_moves();
    legal.sort_by_key(ToString::to_string);
    legal
        .into_iter()
        .map(|mv| {
            pos.play(&mv)
                .map(|(_, t)| (mv, t.into_trace()))
                .map_err(|e| {
                    CliError::Internal(format!("the engine refused its own legal move {mv}: {e}"))
                })
        })
        .collect()
}

fn text(lang: Lang, pos: &Position, moves: &[(Move, MoveTrace)]) -> String {
    let width = moves
        .iter()
        .map(|(m, _)| m.to_string().len())
        .max()
        .unwrap_or(0);
    moves
        .iter()
        .map(|(mv, t)| {
            format!(
                "{:<width$}  {}\n",
                mv.to_string(),
                words::move_description_in(lang, pos, t)
            )
        })
        .collect()
}

/// One legal move in the JSON output.
#[derive(Serialize)]
struct MoveJson {
    /// Canonical notation.
    #[serde(rename = "move")]
    mv: String,
    takasa: bool,
    safari: bool,
    captures: Vec<CaptureJson>,
    laps: u64,
    takasia: Option<String>,
    wins: bool,
    description: String,
}

/// One capture of a move.
#[derive(Serialize)]
struct CaptureJson {
    pit: String,
    seeds: u8,
}

/// How a finished game ended.
#[derive(Serialize)]
struct OutcomeJson {
    winner: Option<&'static str>,
    loser: Option<&'static str>,
    reason: &'static str,
}

/// The JSON output.
#[derive(Serialize)]
struct LegalJson {
    position: String,
    to_move: &'static str,
    stage: &'static str,
    outcome: Option<OutcomeJson>,
    moves: Vec<MoveJson>,
}

fn json_text(lang: Lang, pos: &Position, moves: &[(Move, MoveTrace)]) -> Result<String, CliError> {
    let value = LegalJson {
        position: PositionString::from(pos).to_string(),
        to_move: pos.to_move().name(),
        stage: pos.stage().name(),
        outcome: pos.outcome().map(|o| OutcomeJson {
            winner: o.winner.map(Side::name),
            loser: o.loser().map(Side::name),
            reason: o.reason.name(),
        }),
        moves: moves
            .iter()
            .map(|(mv, t)| MoveJson {
                mv: mv.to_string(),
                takasa: mv.is_takasa(),
                safari: mv.is_safari(),
                captures: t
                    .captures
                    .iter()
                    .map(|c| CaptureJson {
                        pit: c.pit.to_string(),
                        seeds: c.seeds,
                    })
                    .collect(),
                laps: t.laps_total,
                takasia: t.takasia_set().map(|p| p.to_string()),
                wins: t.outcome.is_some_and(|o| o.winner == Some(t.mover)),
                description: words::move_description_in(lang, pos, t),
            })
            .collect(),
    };
    let mut s =
        serde_json::to_string_pretty(&value).map_err(|e| CliError::Internal(e.to_string()))?;
    s.push('\n');
    Ok(s)
}

/// `South` or `North`.
/// Runs `bao legal`.
pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    let pos: Position = match args.source.position(ctx)? {
        Ok(pos) => pos,
        Err(status) => return Ok(status),
    };
    let pos = &pos;
    let moves = moves(pos)?;
    let out = match args.format {
        Format::Text => text(ctx.lang, pos, &moves),
        Format::Json => json_text(ctx.lang, pos, &moves)?,
    };
    crate::output::emit(None, out.as_bytes())?;
    if moves.is_empty() && args.format == Format::Text {
        let lang = ctx.lang;
        let why = match pos.outcome() {
            Some(o) => {
                let reason = words::end_reason_in(lang, o.reason);
                match o.winner {
                    Some(w) => t!(
                        lang,
                        "legal-over-won",
                        side = words::side_in(lang, w),
                        reason = reason
                    ),
                    None => t!(lang, "legal-over-draw", reason = reason),
                }
            }
            None => t!(
                lang,
                "legal-no-move",
                side = words::side_in(lang, pos.to_move())
            ),
        };
        eprintln!("{why}");
    }
    Ok(Status::Success)
}
