//! `bao annotate`: the record with the engine's lap/capture annotations and `**`/`#` marks.
//!
//! Writes the annotated record to stdout, or with `--write` back to the file (atomically:
//! a temporary file in the same directory, then a rename). A record with errors is reported
//! on stderr and, with `--write`, left untouched (exit 1). A record larger than
//! [`bao_validate::stream::STREAM_ABOVE`] is read, checked and written game by game (on
//! every thread of the pool, in bounded memory), with the same output; its diagnostics are
//! printed once the whole record is read.

use std::io::Write;
use std::path::{Path, PathBuf};

use bao_validate::{
    annotated_chunk, annotated_text, check_bytes, CheckOptions, ChunkText, ChunkTexts,
};

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::inputs::head_or_stream;
use crate::output::Output;
use crate::report::{handler, render, HumanOut};
use crate::streaming::stream_replayed_chunks;

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
    let read_err = |e| CliError::io(format!("cannot read {name}"), e);
    let file = std::fs::File::open(&args.file).map_err(read_err)?;
    let bytes = match head_or_stream(Box::new(file)).map_err(read_err)? {
        Ok(bytes) => bytes,
        Err(input) => return streamed(args, ctx, &name, input),
    };
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
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())
            .map_err(|e| CliError::io("cannot write to stdout", e))?;
    }
    Ok(Status::valid_if(report.is_valid()))
}

/// `bao annotate` on a large record: each chunk's games are checked, replayed and annotated
/// on the pool, and written in file order as they come.
fn streamed(
    args: &Args,
    ctx: &Context,
    name: &str,
    input: Box<dyn std::io::Read + Send>,
) -> Result<Status, CliError> {
    let mut sink = Output::new(args.write.then_some(args.file.as_path()))?;
    let handler = handler(ctx.color);
    let mut human = HumanOut::default();
    let mut texts = ChunkTexts::default();
    let report = stream_replayed_chunks(
        name,
        input,
        |chunk, replayed| annotated_chunk(chunk, &replayed),
        &mut |piece| human.piece(piece, &handler),
        &mut |chunk: ChunkText| match texts.push(chunk) {
            Some(text) => sink.write(text.as_bytes()),
            None => Ok(()),
        },
    )?;
    if let Some(text) = texts.finish() {
        sink.write(text.as_bytes())?;
    }
    human.print_report(&report, &handler)?;
    let valid = report.is_valid();
    if args.write && !valid {
        // Dropped unfinished: the file is left as it was.
        eprintln!("bao annotate: {name} has errors; not written");
        return Ok(Status::Invalid);
    }
    sink.finish()?;
    Ok(Status::valid_if(valid))
}
