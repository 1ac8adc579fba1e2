//! `bao import json`: a record from the JSON of `bao export json`; `bao import abstractplay`:
//! records from AbstractPlay's game records (bao-archive); `bao import diagram`: a problem
//! record from a printed diagram (`crate::diagram`).
//!
//! Writes the record in canonical form (to stdout or `-o`, atomically). The record is checked
//! before it is written: JSON that is no export, or whose moves do not replay, writes
//! nothing and exits 1 with the reasons on stderr.

use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

use bao_export::{record_from_json, RecordJson};
use bao_notation::{write_record, WriteOptions};
use bao_validate::{check_full, CheckOptions};

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::io::Input;
use crate::output::Output;
use crate::pool::in_pool;
use crate::report::{handler, render};

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
    /// Records from AbstractPlay's game records (one AP Game Record, or a JSON array of
    /// them): each game is checked on the way in; one that does not replay is reported with
    /// its AbstractPlay id and ply, and the others are still imported (exit 1 if any was
    /// not).
    Abstractplay(ApArgs),
    /// A record whose Position tag is a diagram as a book prints it: 32 counts, North's back
    /// row, North's front row, South's front row, South's back row, each left to right as
    /// South sees the board.
    Diagram(crate::diagram::Args),
}

/// Arguments of `bao import abstractplay`.
#[derive(Debug, clap::Args)]
struct ApArgs {
    /// The JSON file (`-` for stdin).
    #[arg(value_name = "FILE", value_parser = Input::parse)]
    file: Input,
    /// Write to this file (atomically) instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// No summary line.
    #[arg(short, long)]
    quiet: bool,
    /// Threads that check games in parallel (default: one per CPU).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
}

/// Records read and checked together.
const AP_BATCH: usize = 64;

/// Runs `bao import abstractplay`.
fn abstractplay(args: &ApArgs, ctx: &Context) -> Result<Status, CliError> {
    use bao_archive::ap::{import_value, read_ap_records, ApReadError};
    use rayon::prelude::*;

    let name = args.file.name();
    let input: Box<dyn Read + Send> = match &args.file {
        Input::Stdin => Box::new(std::io::stdin()),
        Input::Path(p) => Box::new(
            std::fs::File::open(p).map_err(|e| CliError::io(format!("cannot read {name}"), e))?,
        ),
    };
    let handler = handler(ctx.color);
    in_pool(args.threads, || {
        let mut out = Output::new(args.output.as_deref())?;
        let (mut imported, mut failed) = (0_usize, 0_usize);
        let mut write_error = None;
        let read = read_ap_records(input, AP_BATCH, |batch| {
            let results: Vec<_> = batch
                .into_par_iter()
                .map(|(n, v)| import_value(v, n))
                .collect();
            for r in results {
                match r {
                    Ok(g) => {
                        let sep: &[u8] = if imported > 0 { b"\n" } else { b"" };
                        if let Err(e) = out.write(sep).and_then(|()| out.write(g.text.as_bytes())) {
                            write_error = Some(e);
                            return Err(std::io::Error::other("the output failed"));
                        }
                        imported += 1;
                    }
                    Err(p) => {
                        failed += 1;
                        let mut text = String::new();
                        let _ = handler.render_report(&mut text, &p);
                        eprint!("{text}");
                    }
                }
            }
            Ok(())
        });
        if let Some(e) = write_error {
            return Err(e);
        }
        let mut damaged = false;
        match read {
            Ok(()) => {}
            // Nothing read: the input is no AP record at all.
            Err(ApReadError::Json {
                error,
                offset,
                records: 0,
            }) if imported + failed == 0 => {
                return Err(CliError::Invalid {
                    argument: "FILE",
                    message: format!(
                    "{name}: not an AP Game Record or an array of them: {error} (at byte {offset})"
                ),
                })
            }
            // Damaged after complete records: those are kept, the damage is named.
            Err(ApReadError::Json {
                error,
                offset,
                records,
            }) => {
                damaged = true;
                eprintln!(
                    "bao: {name} is damaged at byte {offset} ({error}); the {records} complete records before it were read, nothing after it"
                );
            }
            Err(ApReadError::Io(e)) => return Err(CliError::io(format!("cannot read {name}"), e)),
        }
        out.finish()?;
        if !args.quiet {
            eprintln!(
                "bao: {imported} of {} AbstractPlay records imported from {name}{}",
                imported + failed,
                if failed > 0 {
                    format!("; {failed} not imported")
                } else {
                    String::new()
                }
            );
        }
        Ok(Status::valid_if(failed == 0 && !damaged))
    })
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
    let args = match &args.format {
        Format::Json(a) => a,
        Format::Abstractplay(a) => return abstractplay(a, ctx),
        Format::Diagram(a) => return crate::diagram::run(a, ctx),
    };
    let name = args.file.name();
    let text = args.file.read_string()?;
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
    crate::output::emit(args.output.as_deref(), out.as_bytes())?;
    Ok(Status::Success)
}
