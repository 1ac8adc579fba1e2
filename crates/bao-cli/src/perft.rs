//! `bao perft`: count the move sequences of a given length.

use bao_core::json::PositionJson;
use bao_core::{perft, Position, RuleSet, PRESET_NAMES};
use clap::builder::PossibleValuesParser;

use crate::context::{Context, Status};
use crate::error::CliError;

/// Arguments of `bao perft`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The rule preset.
    #[arg(long, default_value = "kiswahili", value_parser = PossibleValuesParser::new(PRESET_NAMES))]
    rules: String,
    /// The number of plies.
    #[arg(long)]
    depth: u32,
    /// The start position as position JSON; the preset's start position if left out.
    #[arg(long, value_name = "JSON")]
    position: Option<String>,
    /// Also print the count below each legal move of the first ply.
    #[arg(long)]
    divide: bool,
}

fn start(args: &Args) -> Result<Position, CliError> {
    let rules = RuleSet::preset(&args.rules).ok_or_else(|| CliError::Invalid {
        argument: "--rules",
        message: format!("unknown preset `{}`", args.rules),
    })?;
    let Some(text) = &args.position else {
        return Ok(Position::start(rules));
    };
    let invalid = |message| CliError::Invalid {
        argument: "--position",
        message,
    };
    let json: PositionJson = serde_json::from_str(text).map_err(|e| invalid(e.to_string()))?;
    json.to_position(rules)
        .map_err(|e| invalid(crate::error::position_json_error(&e)))
}

/// Runs `bao perft`.
pub(crate) fn run(args: &Args, _ctx: &Context) -> Result<Status, CliError> {
    let pos = start(args)?;
    let mut text = String::new();
    if args.divide && args.depth > 0 {
        let mut total = 0u64;
        for mv in pos.legal_moves() {
            let (next, _) = pos.play(&mv).map_err(|e| {
                CliError::Internal(format!("the engine refused its own legal move: {e}"))
            })?;
            let n = perft(&next, args.depth - 1);
            total += n;
            text.push_str(&format!("{mv} {n}\n"));
        }
        text.push_str(&format!("total {total}\n"));
    } else {
        text.push_str(&format!("{}\n", perft(&pos, args.depth)));
    }
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| CliError::io("cannot write to stdout", e))?;
    Ok(Status::Success)
}
