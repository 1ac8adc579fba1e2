//! `bao export json|svg|png|html` and the plumbing `bao show` shares with it: reading and checking
//! the record, picking a game and a ply, writing output files atomically.
//!
//! An invalid record exports nothing: its diagnostics go to stderr as `bao check` prints them
//! and the exit code is 1. A `--game` or `--ply` beyond the record is a usage error (exit 2).

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use bao_core::Position;
use bao_export::json::{main_line, Step};
use bao_export::{
    board_png, board_svg, game_html, record_json_pretty, HtmlOptions, JsonOptions, Overlay,
    PngOptions, RecordJsonWriter, SeedStyle, SvgOptions, Theme,
};
use bao_validate::stream::{check_chunk, check_chunk_replayed, CheckedPiece};
use bao_validate::{check_bytes, CheckOptions, CheckReport, Checked};

use crate::check::{handler, head_or_stream, render, stream_checked, HumanOut};
use crate::error::CliError;
use crate::io::{AtomicFile, Input, Replace};
use crate::{Context, Status};

/// Arguments of `bao export`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    format: Format,
}

#[derive(Debug, clap::Subcommand)]
enum Format {
    /// Every game of the record as JSON (schema in spec/json.md): rules, start, each ply
    /// with its trace and the position after, comments, glyphs and variations.
    Json(JsonArgs),
    /// An SVG diagram of one position (or of every ply with `--all`).
    Svg(SvgArgs),
    /// A PNG picture of one position (or of every ply with `--all`).
    Png(PngArgs),
    /// One self-contained HTML page to step through a game: the board of every position
    /// (main line and variations), the move list with comments, buttons and arrow keys.
    Html(HtmlArgs),
}

/// Arguments of `bao export json`.
#[derive(Debug, clap::Args)]
struct JsonArgs {
    /// The record file (`-` for stdin).
    #[arg(value_name = "FILE", value_parser = Input::parse)]
    file: Input,
    /// Add the legal moves before every ply.
    #[arg(long)]
    legal: bool,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
}

/// Which position of a record: the game and the ply.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct Pick {
    /// The game in the file, from 1.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub(crate) game: usize,
    /// The position after this ply of the main line (0: the start); default: the last.
    #[arg(long, value_name = "N")]
    pub(crate) ply: Option<usize>,
}

/// The `--theme` choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ThemeArg {
    /// Wood on white.
    Light,
    /// Light marks on a dark background.
    Dark,
    /// Black on white, marks by shape only.
    Print,
}

/// The diagram flags of `bao export svg` and `bao export html`.
#[derive(Debug, clap::Args)]
struct Drawing {
    /// Draw the board as North sees it.
    #[arg(long)]
    flip: bool,
    /// Leave out row letters and pit numbers.
    #[arg(long)]
    no_coordinates: bool,
    /// Colours.
    #[arg(long, value_enum, default_value_t = ThemeArg::Light)]
    theme: ThemeArg,
    /// Draw small counts as dots.
    #[arg(long)]
    dots: bool,
}

/// Arguments of `bao export svg`.
#[derive(Debug, clap::Args)]
struct SvgArgs {
    /// The record file (`-` for stdin).
    #[arg(value_name = "FILE", value_parser = Input::parse)]
    file: Input,
    #[command(flatten)]
    pick: Pick,
    /// One diagram per position of the main line (start and every ply) into the directory
    /// given by `-o`, named `ply-000.svg`, `ply-001.svg`, ...
    #[arg(long, conflicts_with = "ply", requires = "output")]
    all: bool,
    #[command(flatten)]
    drawing: Drawing,
    /// Write to this file (a directory with `--all`) instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// No progress bar with `--all`.
    #[arg(short, long)]
    quiet: bool,
}

/// Arguments of `bao export png`.
#[derive(Debug, clap::Args)]
struct PngArgs {
    /// The record file (`-` for stdin).
    #[arg(value_name = "FILE", value_parser = Input::parse)]
    file: Input,
    #[command(flatten)]
    pick: Pick,
    /// The PNG file to write (a directory with `--all`).
    #[arg(short, long, value_name = "OUT.png")]
    output: PathBuf,
    /// The width in pixels.
    #[arg(long, value_name = "N")]
    width: Option<u32>,
    /// One picture per position of the main line (start and every ply) into the directory
    /// given by `-o`, named `ply-000.png`, `ply-001.png`, ...
    #[arg(long, conflicts_with = "ply")]
    all: bool,
    /// No progress bar with `--all`.
    #[arg(short, long)]
    quiet: bool,
}

/// Arguments of `bao export html`.
#[derive(Debug, clap::Args)]
struct HtmlArgs {
    /// The record file (`-` for stdin).
    #[arg(value_name = "FILE", value_parser = Input::parse)]
    file: Input,
    /// The game in the file, from 1.
    #[arg(long, value_name = "N", default_value_t = 1)]
    game: usize,
    #[command(flatten)]
    drawing: Drawing,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "OUT.html")]
    output: Option<PathBuf>,
}

/// Reads and checks a record; on errors prints the diagnostics and gives `Err(Invalid)`.
/// Warnings are printed too, and the export goes on.
pub(crate) fn load(input: &Input, ctx: &Context) -> Result<Result<Checked, Status>, CliError> {
    let name = input.name();
    let mut bytes = Vec::new();
    input
        .open()?
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::io(format!("cannot read {name}"), e))?;
    Ok(checked_bytes(&name, &bytes, ctx))
}

/// Checks a record read whole; prints its diagnostics, and on errors says so and gives
/// `Err(Invalid)`.
fn checked_bytes(name: &str, bytes: &[u8], ctx: &Context) -> Result<Checked, Status> {
    let checked = check_bytes(name, bytes, &CheckOptions::default());
    if !checked.report.diagnostics.is_empty() {
        eprint!("{}", render(&checked.report, ctx.color));
    }
    if !checked.report.is_valid() {
        eprintln!("{}", invalid(name));
        return Err(Status::Invalid);
    }
    Ok(checked)
}

/// What is said of an invalid record that is not exported.
fn invalid(name: &str) -> String {
    format!("bao: {name} is invalid; nothing exported")
}

/// `bao export json` on a large record, game by game in bounded memory: each chunk's games
/// are checked and replayed on the pool and their JSON written in file order. With `-o`, in
/// one pass into the file's temporary file, renamed over it once the record is known valid.
/// To stdout, in two passes (an invalid record exports nothing, and the JSON, about a hundred
/// times the record's size, is not held back on disk): the first checks the record (a copy
/// of stdin is kept in a temporary file), the second writes the JSON as it goes.
fn json_streamed(
    args: &JsonArgs,
    ctx: &Context,
    name: &str,
    input: Box<dyn Read + Send>,
) -> Result<Status, CliError> {
    let json_opts = JsonOptions { legal: args.legal };
    let handler = handler(ctx.color);
    let mut human = HumanOut::default();
    let temp_err = |e| CliError::io("cannot write a temporary file", e);
    if let Some(path) = args.output.as_deref() {
        let write_err = |e| CliError::io(format!("cannot write {}", path.display()), e);
        let file = AtomicFile::create(path, Replace::Yes).map_err(write_err)?;
        let mut writer = RecordJsonWriter::new(std::io::BufWriter::new(file), json_opts);
        let (report, failed) = json_pass(name, input, &mut writer, &mut |piece| {
            human.piece(piece, &handler)
        })?;
        human.print_report(&report, &handler)?;
        if !report.is_valid() {
            eprintln!("{}", invalid(name));
            return Ok(Status::Invalid);
        }
        if let Some(e) = failed {
            return Err(CliError::Internal(e.to_string()));
        }
        let file = writer
            .finish()
            .map_err(|e| CliError::Internal(e.to_string()))?
            .into_inner()
            .map_err(|e| write_err(e.into_error()))?;
        file.commit().map_err(write_err)?;
        return Ok(Status::Success);
    }
    // The first pass: the check alone.
    let mut copy = match args.file {
        Input::Stdin => Some(tempfile::tempfile().map_err(temp_err)?),
        Input::Path(_) => None,
    };
    let checked_input: Box<dyn Read + Send> = match copy.as_ref() {
        Some(f) => Box::new(Tee {
            input,
            copy: f.try_clone().map_err(temp_err)?,
        }),
        None => input,
    };
    let opts = CheckOptions::default();
    let report = stream_checked(
        name,
        checked_input,
        |c| (check_chunk(c, &opts), ()),
        &mut |piece| human.piece(piece, &handler),
        &mut |()| Ok(()),
    )?;
    human.print_report(&report, &handler)?;
    if !report.is_valid() {
        eprintln!("{}", invalid(name));
        return Ok(Status::Invalid);
    }
    // The second: the JSON, from the file or from the copy of stdin.
    let again: Box<dyn Read + Send> = match copy.take() {
        Some(mut f) => {
            f.seek(SeekFrom::Start(0)).map_err(temp_err)?;
            Box::new(f)
        }
        None => args.file.open_send()?,
    };
    let stdout = std::io::stdout();
    let mut writer = RecordJsonWriter::new(std::io::BufWriter::new(stdout.lock()), json_opts);
    let (second, failed) = json_pass(name, again, &mut writer, &mut |_| Ok(()))?;
    if let Some(e) = failed {
        return Err(CliError::Internal(e.to_string()));
    }
    if second.stats != report.stats {
        return Err(CliError::Internal(format!(
            "{name} changed while it was read"
        )));
    }
    writer
        .finish()
        .map_err(|e| CliError::Internal(e.to_string()))?;
    Ok(Status::Success)
}

/// Reads, checks and replays a large record, writing the JSON of its games to `writer` in
/// file order (nothing more after a game that cannot be exported: its error is returned);
/// gives the check's report.
fn json_pass<W: Write>(
    name: &str,
    input: Box<dyn Read + Send>,
    writer: &mut RecordJsonWriter<W>,
    piece: &mut dyn FnMut(&CheckedPiece) -> Result<(), CliError>,
) -> Result<(CheckReport, Option<bao_export::ExportError>), CliError> {
    let opts = CheckOptions::default();
    let mut failed = None;
    let report = stream_checked(
        name,
        input,
        |chunk| {
            let (checked, replayed) = check_chunk_replayed(chunk, &opts);
            let games: Vec<_> = chunk
                .games
                .iter()
                .zip(replayed)
                .map(|((n, g, _), r)| (*n, g.value.clone(), r))
                .collect();
            (checked, games)
        },
        piece,
        &mut |games| {
            for (n, game, replayed) in games {
                if failed.is_none() {
                    if let Err(e) = writer.game(&game, n, &replayed) {
                        failed = Some(e);
                    }
                }
            }
            Ok(())
        },
    )?;
    Ok((report, failed))
}

/// A reader that keeps a copy of what it reads.
struct Tee<R> {
    input: R,
    copy: std::fs::File,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.input.read(buf)?;
        self.copy.write_all(&buf[..n])?;
        Ok(n)
    }
}

/// The games of a record, as indices into `record.games` (empty games left out).
fn game_index(checked: &Checked, game: usize) -> Result<usize, CliError> {
    let games: Vec<usize> = checked
        .record
        .games
        .iter()
        .enumerate()
        .filter(|(_, g)| bao_notation::meaning::is_game(&g.value))
        .map(|(i, _)| i)
        .collect();
    game.checked_sub(1)
        .and_then(|g| games.get(g).copied())
        .ok_or_else(|| {
            CliError::Usage(format!(
                "--game {game}: the record has {} game{}",
                games.len(),
                if games.len() == 1 { "" } else { "s" }
            ))
        })
}

/// The chosen game's main line.
pub(crate) fn line(checked: &Checked, game: usize) -> Result<(Position, Vec<Step>), CliError> {
    let index = game_index(checked, game)?;
    main_line(&checked.record, &checked.replayed, index)
        .map_err(|e| CliError::Internal(e.to_string()))
}

/// The position after ply `ply` (0: the start), and the step that led there.
pub(crate) fn at_ply<'a>(
    start: &'a Position,
    steps: &'a [Step],
    ply: Option<usize>,
) -> Result<(&'a Position, Option<&'a Step>), CliError> {
    match ply.unwrap_or(steps.len()) {
        0 => Ok((start, None)),
        n => steps
            .get(n - 1)
            .map(|s| (&s.after, Some(s)))
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "--ply {n}: the game has {} pl{}",
                    steps.len(),
                    if steps.len() == 1 { "y" } else { "ies" }
                ))
            }),
    }
}

/// Writes `bytes` to `path` atomically (see [`crate::io::write_atomic`]): readers never see
/// half a file, and a killed run leaves the old file intact.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    crate::io::write_atomic(path, bytes)
        .map_err(|e| CliError::io(format!("cannot write {}", path.display()), e))
}

/// Writes to `-o` or to stdout.
fn emit(output: Option<&Path>, bytes: &[u8]) -> Result<(), CliError> {
    match output {
        Some(p) => write_atomic(p, bytes),
        None => std::io::stdout()
            .lock()
            .write_all(bytes)
            .map_err(|e| CliError::io("cannot write to stdout", e)),
    }
}

/// Runs `bao export`.
pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    match &args.format {
        Format::Json(a) => json(a, ctx),
        Format::Svg(a) => svg(a, ctx),
        Format::Png(a) => png(a, ctx),
        Format::Html(a) => html(a, ctx),
    }
}

fn json(args: &JsonArgs, ctx: &Context) -> Result<Status, CliError> {
    let name = args.file.name();
    let read_err = |e| CliError::io(format!("cannot read {name}"), e);
    let bytes = match head_or_stream(args.file.open_send()?).map_err(read_err)? {
        Ok(bytes) => bytes,
        Err(input) => return json_streamed(args, ctx, &name, input),
    };
    let checked = match checked_bytes(&name, &bytes, ctx) {
        Ok(c) => c,
        Err(status) => return Ok(status),
    };
    let text = record_json_pretty(
        &checked.record,
        &checked.replayed,
        &JsonOptions { legal: args.legal },
    )
    .map_err(|e| CliError::Internal(e.to_string()))?;
    emit(args.output.as_deref(), text.as_bytes())?;
    Ok(Status::Success)
}

impl Drawing {
    /// The drawing options these flags ask for.
    fn options(&self) -> SvgOptions {
        SvgOptions {
            flip: self.flip,
            coordinates: !self.no_coordinates,
            theme: match self.theme {
                ThemeArg::Light => Theme::Light,
                ThemeArg::Dark => Theme::Dark,
                ThemeArg::Print => Theme::Print,
            },
            seeds: if self.dots {
                SeedStyle::Dots { max: 10 }
            } else {
                SeedStyle::Numerals
            },
            ..SvgOptions::default()
        }
    }
}

fn diagram(pos: &Position, step: Option<&Step>, opts: &SvgOptions) -> String {
    let overlay = step.map(|s| Overlay::from_trace(&s.before, &s.trace));
    board_svg(pos, opts, overlay.as_ref())
}

fn svg(args: &SvgArgs, ctx: &Context) -> Result<Status, CliError> {
    let checked = match load(&args.file, ctx)? {
        Ok(c) => c,
        Err(status) => return Ok(status),
    };
    let (start, steps) = line(&checked, args.pick.game)?;
    let opts = args.drawing.options();
    if args.all {
        let Some(dir) = args.output.as_deref() else {
            return Err(CliError::Usage("--all needs -o DIR".to_owned()));
        };
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::io(format!("cannot create {}", dir.display()), e))?;
        let bar = crate::progress::bar(steps.len() + 1, "exporting", args.quiet);
        for n in 0..=steps.len() {
            let (pos, step) = at_ply(&start, &steps, Some(n))?;
            let path = dir.join(format!("ply-{n:03}.svg"));
            write_atomic(&path, diagram(pos, step, &opts).as_bytes())?;
            bar.inc(1);
        }
        bar.finish_and_clear();
        return Ok(Status::Success);
    }
    let (pos, step) = at_ply(&start, &steps, args.pick.ply)?;
    emit(args.output.as_deref(), diagram(pos, step, &opts).as_bytes())?;
    Ok(Status::Success)
}

fn png(args: &PngArgs, ctx: &Context) -> Result<Status, CliError> {
    let checked = match load(&args.file, ctx)? {
        Ok(c) => c,
        Err(status) => return Ok(status),
    };
    let (start, steps) = line(&checked, args.pick.game)?;
    let opts = PngOptions {
        width: args.width,
        ..PngOptions::default()
    };
    let picture = |n: Option<usize>| -> Result<Vec<u8>, CliError> {
        let (pos, step) = at_ply(&start, &steps, n)?;
        let svg = diagram(pos, step, &SvgOptions::default());
        board_png(&svg, &opts).map_err(|e| CliError::Usage(e.to_string()))
    };
    if args.all {
        let dir = &args.output;
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::io(format!("cannot create {}", dir.display()), e))?;
        let bar = crate::progress::bar(steps.len() + 1, "exporting", args.quiet);
        for n in 0..=steps.len() {
            write_atomic(&dir.join(format!("ply-{n:03}.png")), &picture(Some(n))?)?;
            bar.inc(1);
        }
        bar.finish_and_clear();
        return Ok(Status::Success);
    }
    write_atomic(&args.output, &picture(args.pick.ply)?)?;
    Ok(Status::Success)
}

fn html(args: &HtmlArgs, ctx: &Context) -> Result<Status, CliError> {
    let checked = match load(&args.file, ctx)? {
        Ok(c) => c,
        Err(status) => return Ok(status),
    };
    let index = game_index(&checked, args.game)?;
    let opts = HtmlOptions {
        svg: SvgOptions {
            show_changes: true,
            ..args.drawing.options()
        },
    };
    let page = game_html(&checked.record, &checked.replayed, index, &opts)
        .map_err(|e| CliError::Internal(e.to_string()))?;
    emit(args.output.as_deref(), page.as_bytes())?;
    Ok(Status::Success)
}
