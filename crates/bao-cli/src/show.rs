//! `bao show`: a text diagram of one position of a record (or of `--position STR`), on
//! stdout.
//!
//! The position after `--ply N` of the main line (0: the start; default: the last), with the
//! move that led there (on the board its start pit marked `^`, its end `$`, its captures `x`,
//! in colour too when stdout is a terminal under `--color auto` and `NO_COLOR` is not set).
//! An invalid record shows any ply before its first invalid one (exit 0, with a note on
//! stderr saying where the record stops being valid; by default the last valid ply); a ply
//! at or past it is refused naming it (exit 1). A `--game` or `--ply` beyond the record exits 2.

use std::io::Write;

use bao_export::{board_text, LastMove, Overlay, TextOptions};

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::games::load_prefix;
use crate::position::{position_arg, PositionSource};
use crate::report::{colours, Stream};

/// Arguments of `bao show`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("source").required(true).args(["file", "position"]))]
pub(crate) struct Args {
    #[command(flatten)]
    source: PositionSource,
    /// Draw the board as North sees it.
    #[arg(long)]
    flip: bool,
}

/// Runs `bao show`.
pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    if let Some(text) = &args.source.position {
        let pos = position_arg(text, args.source.rules.as_deref())?;
        let out = format!(
            "Position\n\n{}",
            board_text(
                &pos,
                &TextOptions {
                    flip: args.flip,
                    ..TextOptions::default()
                },
            )
        );
        return write_out(&out);
    }
    let Some(file) = &args.source.file else {
        return Err(CliError::Usage(
            "give a record FILE or --position STR".to_owned(),
        ));
    };
    let prefix = match load_prefix(file, args.source.pick.game, ctx)? {
        Ok(p) => p,
        Err(status) => return Ok(status),
    };
    let (pos, step, ply) = match prefix.at(args.source.pick.ply)? {
        Ok(x) => x,
        Err(status) => return Ok(status),
    };
    let mut out = String::new();
    let mut last_move = None;
    if let Some(s) = step {
        let overlay = Overlay::from_trace(&s.before, &s.trace);
        last_move = Some(LastMove::of(&overlay));
        out.push_str(&format!(
            "After ply {ply}: {}\n\n",
            overlay.summary(s.before.rules())
        ));
    } else {
        out.push_str("Start position\n\n");
    }
    out.push_str(&board_text(
        pos,
        &TextOptions {
            flip: args.flip,
            last_move,
            colour: colours(ctx.color, Stream::Stdout),
            ..TextOptions::default()
        },
    ));
    write_out(&out)
}

fn write_out(text: &str) -> Result<Status, CliError> {
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| CliError::io("cannot write to stdout", e))?;
    Ok(Status::Success)
}
