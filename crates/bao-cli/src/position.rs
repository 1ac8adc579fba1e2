//! A command's one position: a position string under `--rules` ([`position_arg`]), or a
//! record's game and ply (FILE with `--game` and `--ply`, [`Pick`]), one of the two
//! ([`PositionSource`]).

use bao_core::{Position, RuleSet};
use bao_notation::PositionString;

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::games::load_prefix;
use crate::io::Input;

/// Which position of a record: the game and the ply.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct Pick {
    /// The game in the file, from 1.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub(crate) game: usize,
    /// The position after this ply of the main line (0: the start); default: the last.
    #[arg(long, value_name = "N")]
    pub(crate) ply: Option<usize>,
}

/// Where a command's one position comes from: a record (FILE, with `--game` and `--ply`) or
/// a position string with its rules. The command's `source` group makes one of them
/// required.
#[derive(Debug, clap::Args)]
pub(crate) struct PositionSource {
    /// The record file (`-` for stdin).
    #[arg(value_name = "FILE", value_parser = Input::parse)]
    pub(crate) file: Option<Input>,
    #[command(flatten)]
    pub(crate) pick: Pick,
    /// A position string (spec/notation.md §7) instead of a record.
    #[arg(long, value_name = "STR", conflicts_with_all = ["file", "game", "ply"])]
    pub(crate) position: Option<String>,
    /// The rules of `--position`: a preset, optionally with `name=value` overrides
    /// [default: kiswahili].
    #[arg(long, value_name = "RULES", conflicts_with = "file")]
    pub(crate) rules: Option<String>,
}

impl PositionSource {
    /// The position asked for: the `--position` string under `--rules`, or the record's
    /// position after `--ply` of `--game`, read as [`load_prefix`] reads it (an invalid
    /// record's plies before its first invalid one; a ply past it is refused, exit 1).
    pub(crate) fn position(&self, ctx: &Context) -> Result<Result<Position, Status>, CliError> {
        match (&self.position, &self.file) {
            (Some(p), _) => Ok(Ok(position_arg(p, self.rules.as_deref())?)),
            (None, Some(file)) => {
                let prefix = match load_prefix(file, self.pick.game, ctx)? {
                    Ok(p) => p,
                    Err(status) => return Ok(Err(status)),
                };
                Ok(prefix.at(self.pick.ply)?.map(|(pos, _, _)| *pos))
            }
            (None, None) => Err(CliError::Usage(
                "give a record FILE or --position STR".to_owned(),
            )),
        }
    }
}

/// Reads the rules given with `--position` (a preset, optionally with `name=value`
/// overrides; `kiswahili` when none), then the position string under them.
pub(crate) fn position_arg(text: &str, rules: Option<&str>) -> Result<Position, CliError> {
    let rules =
        RuleSet::from_spec(rules.unwrap_or("kiswahili")).map_err(|e| CliError::Invalid {
            argument: "--rules",
            message: bao_validate::words::rule_spec_error(&e),
        })?;
    parse_position(text, rules)
}

/// Reads a position string under `rules` and checks that it is a possible position.
pub(crate) fn parse_position(text: &str, rules: RuleSet) -> Result<Position, CliError> {
    let invalid = |message: String| CliError::Invalid {
        argument: "--position",
        message,
    };
    let ps: PositionString = text.trim().parse().map_err(|e| {
        invalid(format!(
            "{e} (expected e.g. `0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S FF -`)"
        ))
    })?;
    Position::from_setup(ps.to_setup(rules))
        .map_err(|e| invalid(bao_validate::words::setup_error(&e)))
}
