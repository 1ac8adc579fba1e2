//! `bao import json`: a record from the JSON of `bao export json`.
//!
//! Writes the record in canonical form (to stdout or `-o`, atomically). The record is checked
//! before it is written: JSON that is no export, or whose moves do not replay, writes
//! nothing and exits 1 with the reasons on stderr.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;

use bao_export::{record_from_json, RecordJson};
use bao_notation::{write_record, WriteOptions};
use bao_validate::{check_full, CheckOptions};

use crate::check::render;
use crate::error::CliError;
use crate::export::write_atomic;
use crate::io::Input;
use crate::{Context, Status};

/// Arguments of `bao import`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    format: Format,
}

#[derive(Debug, clap::Subcommand)]
enum Format {
    /// A record from the JSON of `bao export json` (traces and positions are not read).
    Json(JsonArgs),
}

/// Arguments of `bao import json`.
#[derive(Debug, clap::Args)]
struct JsonArgs {
    /// The JSON file (`-` for stdin).
    #[arg(value_name = "FILE", value_parser = Input::parse)]
    file: Input,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
}

/// Runs `bao import`.
pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    let Format::Json(args) = &args.format;
    let name = args.file.name();
    let mut text = String::new();
    args.file
        .open()?
        .read_to_string(&mut text)
        .map_err(|e| CliError::io(format!("cannot read {name}"), e))?;
    let invalid = |message: String| CliError::Invalid {
        argument: "FILE",
        message: format!("{name}: {message}"),
    };
    let json: RecordJson = serde_json::from_str(&text).map_err(|e| invalid(e.to_string()))?;
    let record = record_from_json(&json).map_err(|e| invalid(e.to_string()))?;
    let out = write_record(&record, &WriteOptions::default());
    let checked = check_full(&name, Arc::from(out.as_str()), &CheckOptions::default());
    if !checked.report.diagnostics.is_empty() {
        eprint!("{}", render(&checked.report, ctx.color));
    }
    if !checked.report.is_valid() {
        eprintln!("bao: the record of {name} is invalid; nothing written");
        return Ok(Status::Invalid);
    }
    match &args.output {
        Some(p) => write_atomic(p, out.as_bytes())?,
        None => std::io::stdout()
            .lock()
            .write_all(out.as_bytes())
            .map_err(|e| CliError::io("cannot write to stdout", e))?,
    }
    Ok(Status::Success)
}
