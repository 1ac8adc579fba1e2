//! `bao fmt`: canonical form of records.
//!
//! Without flags the canonical text goes to stdout. `--check` prints a diff for each file
//! that is not canonical and exits with 1. `--write` rewrites files in place, atomically (a
//! temporary file in the same directory, then a rename), and refuses a file with syntax
//! errors. A file with syntax errors is never formatted: its diagnostics go to stderr and the
//! exit code is 1. `--fill` writes every move that replays in full (forced signs, `*`, row
//! letters); `--mover-signs` also converts a game written under a `Directions` tag into the
//! canonical mover's-seat signs and drops the tag.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use bao_notation::{parse_bytes, write_record, SyntaxReport, WriteOptions};

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::io::Input;

/// Arguments of `bao fmt`.
#[derive(Debug, clap::Args)]
pub(crate) struct FmtArgs {
    /// Record files; `-` reads stdin.
    #[arg(required = true, value_parser = Input::parse)]
    files: Vec<Input>,
    /// Change nothing: print a diff for every file that is not canonical and exit with 1.
    #[arg(long, conflicts_with = "write")]
    check: bool,
    /// Rewrite the files in place (not stdin); files with syntax errors are left alone.
    #[arg(long)]
    write: bool,
    /// The line width of the movetext.
    #[arg(long, default_value_t = 80)]
    width: usize,
    /// Spell out every move that replays as the engine played it: the forced signs, `*` and
    /// `+` and the row letters left out are written (the record is replayed; moves after an
    /// illegal one stay as written).
    #[arg(long)]
    fill: bool,
    /// Write the signs in the canonical mover's-seat convention: a game with a
    /// `[Directions "south"]` or `"clockwise"` tag whose every move replays gets mover-frame
    /// signs and loses the tag (implies `--fill`).
    #[arg(long)]
    mover_signs: bool,
}

/// Runs `bao fmt`.
pub(crate) fn run(args: &FmtArgs, _ctx: &Context) -> Result<Status, CliError> {
    if args.write && args.files.contains(&Input::Stdin) {
        // A usage error (exit 2).
        return Err(CliError::io(
            "--write",
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "stdin cannot be rewritten in place; leave out --write",
            ),
        ));
    }
    let options = WriteOptions {
        width: args.width.max(1),
        ..WriteOptions::default()
    };
    let mut status = Status::Success;
    let stdout = std::io::stdout();
    for input in &args.files {
        let name = input.name();
        let bytes = input.read_all()?;
        let (text, parsed) = parse_bytes(&bytes);
        if !parsed.errors.is_empty() {
            let report = SyntaxReport::new(&name, Arc::from(text.as_str()), parsed.errors.clone());
            eprintln!("{:?}", miette::Report::new(report));
        }
        if parsed.has_errors() {
            if args.write {
                eprintln!("{name}: not rewritten: it has syntax errors");
            }
            status = Status::Invalid;
            continue;
        }
        let canonical = if args.fill || args.mover_signs {
            let checked = bao_validate::check_parsed(
                &name,
                Arc::from(text.as_str()),
                parsed,
                &bao_validate::CheckOptions::default(),
            );
            let record = bao_validate::spelled_out_record(
                &checked.record,
                &checked.replayed,
                args.mover_signs,
            );
            write_record(&record, &options)
        } else {
            write_record(&parsed.record, &options)
        };
        let same = canonical.as_bytes() == bytes.as_slice();
        if args.check {
            if !same {
                status = Status::Invalid;
                let diff = similar::TextDiff::from_lines(text.as_str(), canonical.as_str());
                let patch = diff
                    .unified_diff()
                    .context_radius(2)
                    .header(&name, &format!("{name} (canonical)"))
                    .to_string();
                let mut out = stdout.lock();
                out.write_all(patch.as_bytes())
                    .map_err(|e| CliError::io("cannot write to stdout", e))?;
            }
        } else if args.write {
            if !same {
                if let Input::Path(path) = input {
                    write_atomically(path, canonical.as_bytes())
                        .map_err(|e| CliError::io(format!("cannot write {name}"), e))?;
                }
            }
        } else {
            let mut out = stdout.lock();
            out.write_all(canonical.as_bytes())
                .map_err(|e| CliError::io("cannot write to stdout", e))?;
        }
    }
    stdout
        .lock()
        .flush()
        .map_err(|e| CliError::io("cannot write to stdout", e))?;
    Ok(status)
}

/// Writes `bytes` over `path` atomically (see [`crate::io::write_atomic`]).
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::io::write_atomic(path, bytes)
}
