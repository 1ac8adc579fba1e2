//! `bao show`: a text diagram of one position of a record, on stdout.
//!
//! The position after `--ply N` of the main line (0: the start; default: the last), with the
//! move that led there. Errors as `bao export`: an invalid record exits 1, a `--game` or
//! `--ply` beyond the record exits 2.

use std::io::Write;

use bao_export::{board_text, Overlay, TextOptions};

use crate::error::CliError;
use crate::export::{at_ply, line, load, Pick};
use crate::io::Input;
use crate::{Context, Status};

/// Arguments of `bao show`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The record file (`-` for stdin).
    #[arg(value_name = "FILE", value_parser = Input::parse)]
    file: Input,
    #[command(flatten)]
    pick: Pick,
    /// Draw the board as North sees it.
    #[arg(long)]
    flip: bool,
}

/// Runs `bao show`.
pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    let checked = match load(&args.file, ctx)? {
        Ok(c) => c,
        Err(status) => return Ok(status),
    };
    let (start, steps) = line(&checked, args.pick.game)?;
    let (pos, step) = at_ply(&start, &steps, args.pick.ply)?;
    let mut out = String::new();
    if let Some(s) = step {
        let overlay = Overlay::from_trace(&s.before, &s.trace);
        let ply = args.pick.ply.unwrap_or(steps.len());
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
            ..TextOptions::default()
        },
    ));
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .map_err(|e| CliError::io("cannot write to stdout", e))?;
    Ok(Status::Success)
}
