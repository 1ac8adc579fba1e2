//! `bao annotate`: the record with the engine's lap/capture annotations and `**`/`#` marks.
//!
//! Writes the annotated record to stdout, or with `--write` back to the file (atomically:
//! a temporary file in the same directory, then a rename). A record with errors is reported
//! on stderr and, with `--write`, left untouched (exit 1).

use std::path::{Path, PathBuf};

use bao_validate::{annotated_text, check_bytes, CheckOptions};

use crate::check::render;
use crate::error::CliError;
use crate::{Context, Status};

/// Arguments of `bao annotate`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The record file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Replace the file with the annotated record.
    #[arg(long)]
    write: bool,
}

/// Writes `text` over `path` atomically (see [`crate::io::write_atomic`]).
fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    crate::io::write_atomic(path, text.as_bytes())
}

/// Runs `bao annotate`.
pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    let name = args.file.display().to_string();
    let bytes =
        std::fs::read(&args.file).map_err(|e| CliError::io(format!("cannot read {name}"), e))?;
    let checked = check_bytes(&name, &bytes, &CheckOptions::default());
    let report = &checked.report;
    if !report.diagnostics.is_empty() {
        eprint!("{}", render(report, ctx.color));
    }
    let text = annotated_text(&checked);
    if args.write {
        if !report.is_valid() {
            eprintln!("bao annotate: {name} has errors; not written");
            return Ok(Status::Invalid);
        }
        write_atomic(&args.file, &text)
            .map_err(|e| CliError::io(format!("cannot write {name}"), e))?;
    } else {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())
            .map_err(|e| CliError::io("cannot write to stdout", e))?;
    }
    Ok(if report.is_valid() {
        Status::Success
    } else {
        Status::Invalid
    })
}
