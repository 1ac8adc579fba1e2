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

use std::io::{IsTerminal, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bao_notation::{Game, Spanned};
use bao_replay::ReplayedGame;
use bao_validate::stream::{
    self, check_chunk, check_chunk_replayed, CheckedChunk, CheckedPiece, Chunk, Merger, Streamed,
};
use bao_validate::{check_bytes_report, CheckOptions, CheckReport, Stats};
use miette::{GraphicalReportHandler, GraphicalTheme};
use rayon::prelude::*;
use serde_json::json;

use crate::context::{Color, Context, Status};
use crate::error::CliError;

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

/// One input to check.
#[derive(Debug, Clone)]
pub(crate) enum Source {
    Stdin,
    File(PathBuf),
}

/// The inputs named: files, the `*.bao` files under directories (sorted), `-` for stdin.
pub(crate) fn collect(paths: &[String]) -> Result<Vec<Source>, CliError> {
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

/// Where a rendered report is written: the stream decides whether `--color auto` colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    /// Standard output (`bao record`'s answers to a move).
    Stdout,
    /// Standard error (every command's diagnostics).
    Stderr,
}

/// Whether what goes to `stream` is coloured under `--color`: `auto` colours a terminal,
/// unless `NO_COLOR` is set.
pub(crate) fn colours(color: Color, stream: Stream) -> bool {
    match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && match stream {
                    Stream::Stdout => std::io::stdout().is_terminal(),
                    Stream::Stderr => std::io::stderr().is_terminal(),
                }
        }
    }
}

/// The graphical handler for reports on stderr under `--color`.
pub(crate) fn handler(color: Color) -> GraphicalReportHandler {
    handler_for(colours(color, Stream::Stderr))
}

/// The one graphical handler of reports, coloured or not.
pub(crate) fn handler_for(colour: bool) -> GraphicalReportHandler {
    let theme = if colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme).with_links(false)
}

/// Renders a report for people, for stderr.
pub(crate) fn render(report: &CheckReport, color: Color) -> String {
    render_to(report, color, Stream::Stderr)
}

/// Renders a report for people, coloured as `stream` wants it.
pub(crate) fn render_to(report: &CheckReport, color: Color, stream: Stream) -> String {
    let mut out = String::new();
    let _ = handler_for(colours(color, stream)).render_report(&mut out, report);
    out
}

/// Renders the diagnostics of a report without its summary line (`name: 1 error, ...`),
/// for a report that is about no file: a streamed piece, a move typed at `bao record`.
pub(crate) fn render_diagnostics(
    report: &dyn miette::Diagnostic,
    handler: &GraphicalReportHandler,
) -> String {
    let mut text = String::new();
    let _ = handler.render_report(&mut text, report);
    // The report's own line first, then its diagnostics as a report draws them.
    let related = text.find('\n').map_or("", |i| &text[i + 1..]);
    related.to_owned()
}

/// How many bytes of text a batch of games holds when a large file is checked on several
/// threads.
pub(crate) const BATCH_BYTES: usize = 64 * 1024;

/// The batch size of the commands that keep each game's replay until it is written (`bao
/// annotate`, `bao export json`): a replay (every ply's positions and trace) is many times
/// the size of its text, so their batches in flight hold a quarter of `bao check`'s text.
const REPLAY_BATCH_BYTES: usize = 32 * 1024;

/// How many inputs are read and checked together before their reports are printed.
const FILES_AT_ONCE: usize = 64;

/// The human report of a streamed file: its pieces are rendered as they come, and printed
/// after the file's summary line (which needs the totals) once the file is done. Beyond
/// [`HumanOut::IN_MEMORY`] bytes the rendered text goes to a temporary file.
#[derive(Debug, Default)]
pub(crate) struct HumanOut {
    text: String,
    spill: Option<std::fs::File>,
}

impl HumanOut {
    const IN_MEMORY: usize = 8 << 20;

    /// Renders a piece's diagnostics and keeps them.
    pub(crate) fn piece(
        &mut self,
        piece: &CheckedPiece,
        handler: &GraphicalReportHandler,
    ) -> Result<(), CliError> {
        self.push(&render_diagnostics(piece, handler))
            .map_err(|e| CliError::io("cannot write a temporary file", e))
    }

    /// Prints the file's report (its summary line, then its diagnostics) to stderr, as
    /// [`render`] prints a whole file's, when it has diagnostics.
    pub(crate) fn print_report(
        self,
        report: &CheckReport,
        handler: &GraphicalReportHandler,
    ) -> Result<(), CliError> {
        if report.stats.errors + report.stats.warnings == 0 {
            return Ok(());
        }
        let mut header = String::new();
        let _ = handler.render_report(&mut header, report);
        self.print(&header)
            .map_err(|e| CliError::io("cannot write to stderr", e))
    }

    fn push(&mut self, piece: &str) -> std::io::Result<()> {
        self.text.push_str(piece);
        if self.text.len() > Self::IN_MEMORY {
            let file = match &mut self.spill {
                Some(f) => f,
                None => self.spill.insert(tempfile::tempfile()?),
            };
            file.write_all(self.text.as_bytes())?;
            self.text.clear();
        }
        Ok(())
    }

    /// Writes the header, then what was rendered, to stderr.
    fn print(self, header: &str) -> std::io::Result<()> {
        let stderr = std::io::stderr();
        let mut err = stderr.lock();
        err.write_all(header.as_bytes())?;
        if let Some(mut f) = self.spill {
            f.seek(SeekFrom::Start(0))?;
            std::io::copy(&mut f, &mut err)?;
        }
        err.write_all(self.text.as_bytes())?;
        err.flush()
    }
}

/// An input read as far as needed to choose the path: a small one whole, a large one's
/// first bytes and the rest of it.
enum Opened {
    Small(String, Vec<u8>),
    Large(String, Box<dyn Read + Send>),
}

/// Opens an input and reads up to [`stream::STREAM_ABOVE`] bytes of it.
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

/// Reads up to [`stream::STREAM_ABOVE`] bytes of an input: all of a small input
/// (`Ok(bytes)`, read and checked whole), or a large input to stream (`Err(input)`, its
/// first bytes put back in front).
///
/// # Errors
/// A read error of the input.
pub(crate) fn head_or_stream(
    mut input: Box<dyn Read + Send>,
) -> std::io::Result<Result<Vec<u8>, Box<dyn Read + Send>>> {
    let mut head = Vec::new();
    (&mut input)
        .take(stream::STREAM_ABOVE as u64 + 1)
        .read_to_end(&mut head)?;
    if head.len() <= stream::STREAM_ABOVE {
        Ok(Ok(head))
    } else {
        Ok(Err(Box::new(std::io::Cursor::new(head).chain(input))))
    }
}

/// Reads a large input game by game and checks it on every thread of the pool
/// ([`stream::map_chunks_noting`]): batches of about `batch_bytes` of text are parsed and
/// checked on the pool (with `map`, which also gives what else the caller wants of each
/// chunk), a bounded number of them in flight; in file order, each piece of diagnostics
/// goes to `piece` and each chunk's other output to `item`. Returns the file's report (its
/// totals).
///
/// # Errors
/// A read error of the input, or the first error of `piece` or `item`.
pub(crate) fn stream_checked<T: Send>(
    name: &str,
    input: Box<dyn Read + Send>,
    batch_bytes: usize,
    map: impl Fn(&Chunk) -> (CheckedChunk, T) + Sync,
    piece: &mut dyn FnMut(&CheckedPiece) -> Result<(), CliError>,
    item: &mut dyn FnMut(T) -> Result<(), CliError>,
) -> Result<CheckReport, CliError> {
    /// Why the stream stopped: the input, or the output.
    enum Stop {
        Read(std::io::Error),
        Out(CliError),
    }
    impl From<std::io::Error> for Stop {
        fn from(e: std::io::Error) -> Self {
            Self::Read(e)
        }
    }
    crate::pages::small_pages();
    let mut merger = Merger::new(name);
    stream::map_chunks_noting(input, batch_bytes, map, |s| match s {
        Streamed::Warning(w) => {
            merger.warning(w);
            Ok(())
        }
        Streamed::Chunk((chunk, t)) => {
            if let Some(p) = merger.push(chunk) {
                piece(&p).map_err(Stop::Out)?;
            }
            item(t).map_err(Stop::Out)
        }
    })
    .map_err(|e| match e {
        Stop::Read(e) => CliError::io(format!("cannot read {name}"), e),
        Stop::Out(e) => e,
    })?;
    let (pieces, report) = merger.finish();
    for p in &pieces {
        piece(p)?;
    }
    Ok(report)
}

/// [`stream_checked`] keeping each game's replay, in batches of [`REPLAY_BATCH_BYTES`]:
/// on the pool, `each` makes what the caller writes of a game from its number in the file,
/// the game and its replay ([`check_chunk_replayed`]); in file order, `games` gets them a
/// chunk at a time.
///
/// # Errors
/// As [`stream_checked`].
pub(crate) fn stream_replayed<T: Send>(
    name: &str,
    input: Box<dyn Read + Send>,
    each: impl Fn(usize, &Spanned<Game>, ReplayedGame) -> T + Sync,
    piece: &mut dyn FnMut(&CheckedPiece) -> Result<(), CliError>,
    games: &mut dyn FnMut(Vec<T>) -> Result<(), CliError>,
) -> Result<CheckReport, CliError> {
    stream_replayed_chunks(
        name,
        input,
        |chunk, replayed| {
            chunk
                .games
                .iter()
                .zip(replayed)
                .map(|((n, g, _), r)| each(*n, g, r))
                .collect()
        },
        piece,
        games,
    )
}

/// [`stream_replayed`] a chunk at a time: on the pool, `each` makes what the caller writes of
/// a chunk (its text and games) from the replays of its games; in file order, `chunks` gets
/// them.
///
/// # Errors
/// As [`stream_checked`].
pub(crate) fn stream_replayed_chunks<T: Send>(
    name: &str,
    input: Box<dyn Read + Send>,
    each: impl Fn(&Chunk, Vec<ReplayedGame>) -> T + Sync,
    piece: &mut dyn FnMut(&CheckedPiece) -> Result<(), CliError>,
    chunks: &mut dyn FnMut(T) -> Result<(), CliError>,
) -> Result<CheckReport, CliError> {
    let opts = CheckOptions::default();
    stream_checked(
        name,
        input,
        REPLAY_BATCH_BYTES,
        |chunk| {
            let (checked, replayed) = check_chunk_replayed(chunk, &opts);
            (checked, each(chunk, replayed))
        },
        piece,
        chunks,
    )
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
            Format::Human => eprintln!("bao check: cannot read {name}: {e}"),
            Format::Json => {
                let line = json!({"type": "error", "data": {"file": name, "message": format!("cannot read {name}: {e}")}});
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
    match args.threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .map_err(|e| CliError::io("cannot start threads", std::io::Error::other(e)))?
            .install(|| run_in_pool(args, ctx)),
        None => run_in_pool(args, ctx),
    }
}

fn run_in_pool(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    let sources = collect(&args.paths)?;
    let opts = CheckOptions {
        assume_fixes: args.assume_fixes,
        lap_budget: args.lap_budget,
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
                    "bao check: {name}: game {}, {}{}",
                    f.game,
                    f.what,
                    if args.dry_run { " (dry run)" } else { "" }
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
        let plural = |n: usize, w: &str, ws: &str| format!("{n} {}", if n == 1 { w } else { ws });
        eprintln!(
            "bao check: {} {}; {}: {}, {}",
            plural(repaired, "repair", "repairs"),
            if args.dry_run {
                "found (dry run)"
            } else {
                "applied"
            },
            if repaired == 0 {
                "left"
            } else if args.dry_run {
                "left after them"
            } else {
                "left"
            },
            plural(stats.errors, "error", "errors"),
            plural(stats.warnings, "warning", "warnings"),
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

/// Shared with `annotate`: the text of a report as `Arc<str>`.
#[allow(dead_code)]
pub(crate) fn text_of(report: &CheckReport) -> Arc<str> {
    Arc::clone(&report.text)
}
