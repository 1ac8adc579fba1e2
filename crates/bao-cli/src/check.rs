//! `bao check` (alias `validate`): replays records and reports every problem.
//!
//! Inputs are files, directories (searched recursively for `*.bao`) or `-` for stdin,
//! reported in the order given. An input of up to 64 KiB is read and checked whole, several
//! such files at once on the thread pool. A larger one is streamed
//! (`bao_validate::stream::map_chunks_noting`): cut into chunks (normally a game each) on
//! this thread, parsed and checked in batches on every thread of the pool (a bounded number
//! of batches in flight), and reported in file order, with the same output as the
//! whole-file path. `-j/--threads N` sets the pool's size; by default it is rayon's
//! (`RAYON_NUM_THREADS`, else one thread per CPU). Human output is miette's graphical
//! report on stderr (for a streamed file, held until its summary line is known, beyond 8 MiB
//! in a temporary file); `--format json` writes JSON Lines on stdout (`spec/json.md`). A
//! one-line summary goes to stderr (not with `--quiet`), and over several files a progress
//! bar when stderr is a terminal. Exit 0: no errors (warnings allowed unless
//! `--deny-warnings`); 1: a record is invalid; 2: a file could not be read.

use std::io::{Read, Write};

use bao_i18n::{message, t};
use bao_validate::stream::check_chunk;
use bao_validate::{check_bytes_report, CheckOptions, CheckReport, Stats};
use rayon::prelude::*;
use serde_json::json;

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::inputs::{collect, head_or_stream, Source};
use crate::report::{handler, render, HumanOut};
use crate::streaming::{stream_checked, BATCH_BYTES};

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
    /// After an illegal move with one clear best repair (the one `--fix` would apply: a
    /// move replaced, here or at the earlier ply the slip is blamed on, two plies swapped, a
    /// missing ply inserted), go on as if it had been written; later diagnostics of that
    /// line say that they depend on it. Where no repair is clear, the help says why.
    #[arg(long)]
    assume_fixes: bool,
    /// Give up on a game when a move's never-ending decision runs past LAPS laps (reported
    /// as the warning `bao::budget::undecided`; the rest of that game is not checked), instead
    /// of deciding it exactly whatever it costs. Default: exact.
    #[arg(long, value_name = "LAPS")]
    lap_budget: Option<u64>,
    /// Repair the records: every illegal move with one clear best repair (a move replaced,
    /// here or at the earlier ply the slip is blamed on, two plies swapped, a missing ply
    /// inserted) is repaired in the file, which is rewritten atomically; what cannot be
    /// repaired is reported as usual (exit 1). From stdin, the repaired text goes to stdout.
    #[arg(long, conflicts_with = "assume_fixes")]
    fix: bool,
    /// With `--fix`: change no file, print the repairs as a unified diff on stdout (exit 1
    /// when there is any).
    #[arg(long, requires = "fix")]
    dry_run: bool,
    /// The name shown for stdin.
    #[arg(long, value_name = "NAME", default_value = "stdin")]
    stdin_filename: String,
    /// No progress bar and no summary line (diagnostics are still printed).
    #[arg(short, long)]
    quiet: bool,
    /// Threads that check files, and the games of a large file, in parallel (default:
    /// rayon's, the `RAYON_NUM_THREADS` variable or else one per CPU).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
}

/// How many inputs are read and checked together before their reports are printed.
const FILES_AT_ONCE: usize = 64;

/// An input read as far as needed to choose the path: a small one whole, a large one's
/// first bytes and the rest of it.
enum Opened {
    Small(String, Vec<u8>),
    Large(String, Box<dyn Read + Send>),
}

/// Opens an input and reads up to [`bao_validate::stream::STREAM_ABOVE`] bytes of it.
fn open(src: &Source, stdin_name: &str) -> Result<Opened, (String, std::io::Error)> {
    let (name, input): (String, Box<dyn Read + Send>) = match src {
        Source::Stdin => (stdin_name.to_owned(), Box::new(std::io::stdin())),
        Source::File(p) => {
            let name = p.display().to_string();
            let f = std::fs::File::open(p).map_err(|e| (name.clone(), e))?;
            (name, Box::new(f))
        }
    };
    match head_or_stream(input) {
        Ok(Ok(head)) => Ok(Opened::Small(name, head)),
        Ok(Err(rest)) => Ok(Opened::Large(name, rest)),
        Err(e) => Err((name, e)),
    }
}

/// An input checked whole, or one to stream.
enum Prepared {
    Report(CheckReport),
    Large(String, Box<dyn Read + Send>),
    Unreadable(String, std::io::Error),
}

fn prepare(src: &Source, stdin_name: &str, opts: &CheckOptions) -> Prepared {
    match open(src, stdin_name) {
        Ok(Opened::Small(name, bytes)) => Prepared::Report(check_bytes_report(&name, &bytes, opts)),
        Ok(Opened::Large(name, input)) => Prepared::Large(name, input),
        Err((name, e)) => Prepared::Unreadable(name, e),
    }
}

/// The counts over every input, and where the output goes.
struct Run<'a, W: Write> {
    args: &'a Args,
    ctx: &'a Context,
    opts: CheckOptions,
    out: W,
    files: usize,
    failed: usize,
    stats: Stats,
}

impl<W: Write> Run<'_, W> {
    fn write_json(&mut self, line: &serde_json::Value) -> Result<(), CliError> {
        let write_err = |e| CliError::io("cannot write to stdout", e);
        serde_json::to_writer(&mut self.out, line).map_err(|e| write_err(e.into()))?;
        self.out.write_all(b"\n").map_err(write_err)
    }

    fn add(&mut self, stats: &Stats) {
        self.files += 1;
        self.stats.games += stats.games;
        self.stats.plies += stats.plies;
        self.stats.errors += stats.errors;
        self.stats.warnings += stats.warnings;
    }

    fn report(&mut self, rep: &CheckReport) -> Result<(), CliError> {
        self.add(&rep.stats);
        match self.args.format {
            Format::Human => {
                if !rep.diagnostics.is_empty() {
                    eprint!("{}", render(rep, self.ctx.color));
                }
            }
            Format::Json => {
                for line in bao_validate::json::report_json(rep) {
                    self.write_json(&line)?;
                }
            }
        }
        Ok(())
    }

    fn unreadable(&mut self, name: &str, e: &std::io::Error) -> Result<(), CliError> {
        self.failed += 1;
        match self.args.format {
            Format::Human => eprintln!(
                "bao check: {}",
                t!(
                    self.ctx.lang,
                    "check-cannot-read",
                    name = name,
                    error = e.to_string()
                )
            ),
            Format::Json => {
                let message = t!(
                    self.ctx.lang,
                    "check-cannot-read",
                    name = name,
                    error = e.to_string()
                );
                let line = json!({"type": "error", "data": {"file": name, "message": message}});
                self.write_json(&line)?;
            }
        }
        Ok(())
    }

    /// Checks a large input game by game ([`stream_checked`]), reported in file order.
    fn stream(&mut self, name: &str, input: Box<dyn Read + Send>) -> Result<(), CliError> {
        let opts = self.opts;
        let mut human = HumanOut::default();
        let handler = handler(self.ctx.color);
        let format = self.args.format;
        let report = stream_checked(
            name,
            self.ctx.lang,
            input,
            BATCH_BYTES,
            |c| (check_chunk(c, &opts), ()),
            &mut |piece| match format {
                Format::Human => human.piece(piece, &handler),
                Format::Json => {
                    for line in bao_validate::json::piece_json(piece) {
                        self.write_json(&line)?;
                    }
                    Ok(())
                }
            },
            &mut |()| Ok(()),
        )?;
        self.add(&report.stats);
        match format {
            Format::Human => human.print_report(&report, &handler)?,
            Format::Json => self.write_json(&bao_validate::json::file_json(&report))?,
        }
        Ok(())
    }
}

/// Runs `bao check`.
pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    crate::pool::in_pool(args.threads, || run_in_pool(args, ctx))
}

fn run_in_pool(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    let sources = collect(&args.paths)?;
    let opts = CheckOptions {
        assume_fixes: args.assume_fixes,
        lap_budget: args.lap_budget,
        lang: ctx.lang,
    };
    if args.fix {
        return fix_all(args, ctx, &sources, &opts);
    }
    let bar = crate::progress::bar(sources.len(), "checking", args.quiet);
    let stdout = std::io::stdout();
    let mut run = Run {
        args,
        ctx,
        opts,
        out: std::io::BufWriter::new(stdout.lock()),
        files: 0,
        failed: 0,
        stats: Stats::default(),
    };
    for group in sources.chunks(FILES_AT_ONCE) {
        let prepared: Vec<Prepared> = group
            .par_iter()
            .map(|s| {
                let p = prepare(s, &args.stdin_filename, &opts);
                if matches!(p, Prepared::Report(_)) {
                    bar.inc(1);
                }
                p
            })
            .collect();
        for p in prepared {
            match p {
                Prepared::Report(rep) => run.report(&rep)?,
                Prepared::Large(name, input) => {
                    run.stream(&name, input)?;
                    bar.inc(1);
                }
                Prepared::Unreadable(name, e) => {
                    run.unreadable(&name, &e)?;
                    bar.inc(1);
                }
            }
        }
    }
    bar.finish_and_clear();
    let write_err = |e| CliError::io("cannot write to stdout", e);
    let Run {
        files,
        failed,
        stats,
        ..
    } = run;
    let (games, plies, errors, warnings) = (stats.games, stats.plies, stats.errors, stats.warnings);
    let invalid = errors > 0 || (args.deny_warnings && warnings > 0);
    if args.format == Format::Json {
        let line = json!({"type": "summary", "data": {
            "files": files, "unreadable": failed, "games": games, "plies": plies,
            "errors": errors, "warnings": warnings, "ok": !invalid && failed == 0,
        }});
        run.write_json(&line)?;
    }
    run.out.flush().map_err(write_err)?;
    if args.quiet {
        return Ok(status(failed, invalid));
    }
    let lang = ctx.lang;
    let words = bao_i18n::Args::new()
        .with("files", t!(lang, "count-files", count = files))
        .with("games", t!(lang, "count-games", count = games))
        .with("plies", t!(lang, "count-plies", count = plies))
        .with("errors", t!(lang, "summary-errors", count = errors))
        .with("warnings", t!(lang, "summary-warnings", count = warnings))
        .with("unreadable", t!(lang, "count-files", count = failed));
    let id = if failed > 0 {
        "check-summary-unreadable"
    } else {
        "check-summary"
    };
    eprintln!("{}", message(lang, id, &words));
    Ok(status(failed, invalid))
}

/// `--fix`: each input read whole, repaired, written back (or its diff printed), and what
/// is left reported.
fn fix_all(
    args: &Args,
    ctx: &Context,
    sources: &[Source],
    opts: &CheckOptions,
) -> Result<Status, CliError> {
    let stdout = std::io::stdout();
    let mut run = Run {
        args,
        ctx,
        opts: *opts,
        out: std::io::BufWriter::new(stdout.lock()),
        files: 0,
        failed: 0,
        stats: Stats::default(),
    };
    let mut repaired = 0;
    for src in sources {
        let (name, bytes) = match read_all(src, &args.stdin_filename) {
            Ok(x) => x,
            Err((name, e)) => {
                run.unreadable(&name, &e)?;
                continue;
            }
        };
        let (text, _) = bao_notation::parse_bytes(&bytes);
        let fixed = bao_validate::fix_text(&name, &text, opts);
        repaired += fixed.applied.len();
        for f in &fixed.applied {
            match args.format {
                Format::Human if !args.quiet => eprintln!(
                    "{}",
                    t!(
                        ctx.lang,
                        if args.dry_run {
                            "check-fixed-dry"
                        } else {
                            "check-fixed"
                        },
                        name = name.as_str(),
                        game = f.game,
                        what = f.what.as_str()
                    )
                ),
                Format::Human => {}
                Format::Json => {
                    let line = json!({"type": "fix", "data": {
                        "file": name, "game": f.game, "ply": f.ply, "what": f.what,
                        "written": !args.dry_run,
                    }});
                    run.write_json(&line)?;
                }
            }
        }
        if fixed.changed() {
            let write_err = |e| CliError::io("cannot write to stdout", e);
            if args.dry_run {
                let diff = similar::TextDiff::from_lines(text.as_str(), fixed.text.as_str());
                let patch = diff
                    .unified_diff()
                    .context_radius(2)
                    .header(&name, &format!("{name} (fixed)"))
                    .to_string();
                run.out.write_all(patch.as_bytes()).map_err(write_err)?;
            } else {
                match src {
                    Source::File(path) => crate::io::write_atomic(path, fixed.text.as_bytes())
                        .map_err(|e| CliError::io(format!("cannot write {name}"), e))?,
                    Source::Stdin => run
                        .out
                        .write_all(fixed.text.as_bytes())
                        .map_err(write_err)?,
                }
            }
        }
        run.report(&fixed.report)?;
    }
    let Run {
        files,
        failed,
        stats,
        ..
    } = run;
    // A dry run leaves the records as they were: invalid if it found anything to repair.
    let invalid = stats.errors > 0
        || (args.deny_warnings && stats.warnings > 0)
        || (args.dry_run && repaired > 0);
    if args.format == Format::Json {
        let line = json!({"type": "summary", "data": {
            "files": files, "unreadable": failed, "games": stats.games, "plies": stats.plies,
            "errors": stats.errors, "warnings": stats.warnings, "repaired": repaired,
            "ok": !invalid && failed == 0,
        }});
        run.write_json(&line)?;
    }
    run.out
        .flush()
        .map_err(|e| CliError::io("cannot write to stdout", e))?;
    if !args.quiet {
        let lang = ctx.lang;
        let id = if !args.dry_run {
            "fix-summary-applied"
        } else if repaired == 0 {
            "fix-summary-dry-none"
        } else {
            "fix-summary-dry"
        };
        eprintln!(
            "{}",
            t!(
                lang,
                id,
                repairs = t!(lang, "count-repairs", count = repaired),
                errors = t!(lang, "summary-errors", count = stats.errors),
                warnings = t!(lang, "summary-warnings", count = stats.warnings)
            )
        );
    }
    Ok(status(failed, invalid))
}

/// An input read whole: its name and bytes.
fn read_all(src: &Source, stdin_name: &str) -> Result<(String, Vec<u8>), (String, std::io::Error)> {
    let mut bytes = Vec::new();
    match src {
        Source::Stdin => {
            let name = stdin_name.to_owned();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| (name.clone(), e))?;
            Ok((name, bytes))
        }
        Source::File(p) => {
            let name = p.display().to_string();
            bytes = std::fs::read(p).map_err(|e| (name.clone(), e))?;
            Ok((name, bytes))
        }
    }
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
