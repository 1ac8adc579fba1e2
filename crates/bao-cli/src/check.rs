//! `bao check` (alias `validate`): replays records and reports every problem.
//!
//! Inputs are files, directories (searched recursively for `*.bao`) or `-` for stdin; files
//! are checked in parallel and reported in the order given. Human output is miette's
//! graphical report on stderr; `--format json` writes JSON Lines on stdout (`spec/json.md`).
//! A one-line summary goes to stderr (not with `--quiet`), and over several files a progress
//! bar when stderr is a terminal. Exit 0: no errors (warnings allowed unless
//! `--deny-warnings`); 1: a record is invalid; 2: a file could not be read.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bao_validate::{check_bytes_report, CheckOptions, CheckReport};
use miette::{GraphicalReportHandler, GraphicalTheme};
use rayon::prelude::*;
use serde_json::json;

use crate::error::CliError;
use crate::{Color, Context, Status};

/// The output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Rendered diagnostics for people, on stderr.
    Human,
    /// JSON Lines on stdout (spec/json.md).
    Json,
}

/// Arguments of `bao check`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Record files, directories (searched recursively for *.bao), or `-` for stdin.
    #[arg(value_name = "FILE|DIR|-", default_value = "-")]
    paths: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Treat warnings as errors (exit 1).
    #[arg(long)]
    deny_warnings: bool,
    /// After an illegal move with one clear repair, go on as if it had been written; later
    /// diagnostics of that line say that they depend on it.
    #[arg(long)]
    assume_fixes: bool,
    /// Give up on a game when a move's never-ending decision runs past LAPS laps (reported
    /// as the warning bao::budget::undecided; the rest of that game is not checked), instead
    /// of deciding it exactly whatever it costs. Default: exact.
    #[arg(long, value_name = "LAPS")]
    lap_budget: Option<u64>,
    /// The name shown for stdin.
    #[arg(long, value_name = "NAME", default_value = "stdin")]
    stdin_filename: String,
    /// No progress bar and no summary line (diagnostics are still printed).
    #[arg(short, long)]
    quiet: bool,
}

/// One input to check.
#[derive(Debug, Clone)]
enum Source {
    Stdin,
    File(PathBuf),
}

fn collect(paths: &[String]) -> Result<Vec<Source>, CliError> {
    let mut out = Vec::new();
    for p in paths {
        if p == "-" {
            out.push(Source::Stdin);
            continue;
        }
        let path = PathBuf::from(p);
        if path.is_dir() {
            let mut found = Vec::new();
            walk(&path, &mut found)
                .map_err(|e| CliError::io(format!("cannot read directory {p}"), e))?;
            found.sort();
            out.extend(found.into_iter().map(Source::File));
        } else {
            out.push(Source::File(path));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "bao") {
            out.push(path);
        }
    }
    Ok(())
}

/// The graphical handler for `--color`, honouring `NO_COLOR` and the terminal.
pub(crate) fn handler(color: Color) -> GraphicalReportHandler {
    let colour = match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal()
        }
    };
    let theme = if colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme).with_links(false)
}

/// Renders a report for people.
pub(crate) fn render(report: &CheckReport, color: Color) -> String {
    let mut out = String::new();
    let _ = handler(color).render_report(&mut out, report);
    out
}

/// Reads and checks one input.
fn check_one(
    src: &Source,
    stdin_name: &str,
    opts: &CheckOptions,
) -> Result<CheckReport, (String, std::io::Error)> {
    match src {
        Source::Stdin => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| (stdin_name.to_owned(), e))?;
            Ok(check_bytes_report(stdin_name, &bytes, opts))
        }
        Source::File(p) => {
            let name = p.display().to_string();
            let bytes = std::fs::read(p).map_err(|e| (name.clone(), e))?;
            Ok(check_bytes_report(&name, &bytes, opts))
        }
    }
}

/// Runs `bao check`.
pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    let sources = collect(&args.paths)?;
    let opts = CheckOptions {
        assume_fixes: args.assume_fixes,
        lap_budget: args.lap_budget,
    };
    let bar = crate::progress::bar(sources.len(), "checking", args.quiet);
    let results: Vec<Result<CheckReport, (String, std::io::Error)>> = sources
        .par_iter()
        .map(|s| {
            let r = check_one(s, &args.stdin_filename, &opts);
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let write_err = |e| CliError::io("cannot write to stdout", e);
    let (mut files, mut games, mut plies, mut errors, mut warnings, mut failed) =
        (0usize, 0usize, 0usize, 0usize, 0usize, 0usize);
    for r in &results {
        match r {
            Ok(rep) => {
                files += 1;
                games += rep.stats.games;
                plies += rep.stats.plies;
                errors += rep.stats.errors;
                warnings += rep.stats.warnings;
                match args.format {
                    Format::Human => {
                        if !rep.diagnostics.is_empty() {
                            eprint!("{}", render(rep, ctx.color));
                        }
                    }
                    Format::Json => {
                        for line in bao_validate::json::report_json(rep) {
                            serde_json::to_writer(&mut out, &line)
                                .map_err(|e| write_err(e.into()))?;
                            out.write_all(b"\n").map_err(write_err)?;
                        }
                    }
                }
            }
            Err((name, e)) => {
                failed += 1;
                match args.format {
                    Format::Human => eprintln!("bao check: cannot read {name}: {e}"),
                    Format::Json => {
                        let line = json!({"type": "error", "data": {"file": name, "message": format!("cannot read {name}: {e}")}});
                        serde_json::to_writer(&mut out, &line).map_err(|e| write_err(e.into()))?;
                        out.write_all(b"\n").map_err(write_err)?;
                    }
                }
            }
        }
    }
    let invalid = errors > 0 || (args.deny_warnings && warnings > 0);
    if args.format == Format::Json {
        let line = json!({"type": "summary", "data": {
            "files": files, "unreadable": failed, "games": games, "plies": plies,
            "errors": errors, "warnings": warnings, "ok": !invalid && failed == 0,
        }});
        serde_json::to_writer(&mut out, &line).map_err(|e| write_err(e.into()))?;
        out.write_all(b"\n").map_err(write_err)?;
    }
    out.flush().map_err(write_err)?;
    if args.quiet {
        return Ok(status(failed, invalid));
    }
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    eprintln!(
        "bao check: {}, {}, {}: {}, {}{}",
        plural(files, "file"),
        plural(games, "game"),
        plural(plies, "ply").replace("plys", "plies"),
        plural(errors, "error"),
        plural(warnings, "warning"),
        if failed > 0 {
            format!(", {} unreadable", plural(failed, "file"))
        } else {
            String::new()
        }
    );
    Ok(status(failed, invalid))
}

/// The exit status of a run.
fn status(failed: usize, invalid: bool) -> Status {
    if failed > 0 {
        Status::Failed
    } else if invalid {
        Status::Invalid
    } else {
        Status::Success
    }
}

/// Shared with `annotate`: the text of a report as `Arc<str>`.
#[allow(dead_code)]
pub(crate) fn text_of(report: &CheckReport) -> Arc<str> {
    Arc::clone(&report.text)
}
