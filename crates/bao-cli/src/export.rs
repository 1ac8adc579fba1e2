//! `bao export json|svg|png|gif|pdf|html|abstractplay` (reading and checking the record and picking a
//! game, shared with `bao show`, `bao legal` and others, are `games.rs` and `position.rs`).
//!
//! An invalid record exports nothing: its diagnostics go to stderr as `bao check` prints them
//! and the exit code is 1. A `--game` or `--ply` beyond the record is a usage error (exit 2).

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use bao_core::{BySide, Side};
use bao_export::{
    board_png, board_svg, frames_gif, game_html, game_line, player_names, record_json_pretty,
    result_words, ExportError, GameLine, GifOptions, HtmlOptions, JsonOptions, LinePath, Overlay,
    PngOptions, RecordJsonWriter, SeedStyle, SvgOptions, Theme,
};
use bao_notation::Markup;
use bao_validate::stream::{check_chunk, CheckedPiece};
use bao_validate::{CheckOptions, CheckReport};

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::games::{checked_bytes, game_index, invalid, load};
use crate::inputs::{collect, head_or_stream, open};
use crate::io::save;
use crate::io::{AtomicFile, Input, Replace};
use crate::output::Output;
use crate::pool::in_pool;
use crate::position::{position_arg, Pick};
use crate::report::{handler, HumanOut};
use crate::streaming::{stream_checked, stream_replayed, BATCH_BYTES};

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
    /// An animated GIF of a game (or of a range of its plies): a frame per ply with the
    /// move that led there marked, looping; small enough for a phone group.
    Gif(GifArgs),
    /// A PDF booklet of the games of one or more records: a title, per game its players and
    /// tags, the moves in two columns, the comments, and diagrams where a comment asks for
    /// one (`[%diagram]`) or every N plies (`--every`), with page numbers; A4 or Letter.
    Pdf(PdfArgs),
    /// One self-contained HTML page to step through a game: the board of every position
    /// (main line and variations), the move list with comments, buttons and arrow keys.
    Html(HtmlArgs),
    /// AbstractPlay's game records (a JSON array of AP Game Records) of the games played
    /// under the `abstractplay` and `abstractplay-kujifunza` presets; any other game is
    /// reported and left out (exit 1).
    Abstractplay(ApArgs),
}

/// Arguments of `bao export abstractplay`.
#[derive(Debug, clap::Args)]
struct ApArgs {
    /// Record files, directories (searched recursively for *.bao), or `-` for stdin.
    #[arg(value_name = "FILE|DIR|-", default_value = "-")]
    paths: Vec<String>,
    /// Write to this file (atomically) instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Threads that check games in parallel (default: one per CPU).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
}

/// Runs `bao export abstractplay`: every game checked, then written as an AP record.
fn abstractplay(args: &ApArgs) -> Result<Status, CliError> {
    use bao_archive::ap::export_game;
    use bao_archive::{for_each_game, Depth};

    let sources = collect(&args.paths)?;
    in_pool(args.threads, || {
        let mut out = Output::new(args.output.as_deref())?;
        out.write(b"[")?;
        let (mut written, mut left_out) = (0_usize, 0_usize);
        for src in &sources {
            let (name, input) = open(src)?;
            for_each_game(
                input,
                Depth::Check,
                |n, g| {
                    if g.invalid == Some(true) {
                        return Err(format!("game {n} has errors (see `bao check`)"));
                    }
                    let replayed = g
                        .replayed
                        .as_ref()
                        .ok_or_else(|| format!("game {n} was not replayed"))?;
                    let rec = export_game(g.game, replayed, n).map_err(|e| e.to_string())?;
                    serde_json::to_string_pretty(&rec).map_err(|e| e.to_string())
                },
                |r| {
                    match r {
                        Ok(json) => {
                            out.write(if written > 0 { b",\n" } else { b"\n" })?;
                            out.write(json.as_bytes())?;
                            written += 1;
                        }
                        Err(why) => {
                            left_out += 1;
                            eprintln!("bao: {name}: {why}; left out");
                        }
                    }
                    Ok::<_, CliError>(())
                },
            )
            .map_err(|e| match e {
                CliError::Io { what, source } if what.is_empty() => {
                    CliError::io(format!("cannot read {name}"), source)
                }
                other => other,
            })?;
        }
        out.write(b"\n]\n")?;
        out.finish()?;
        Ok(Status::valid_if(left_out == 0))
    })
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

/// The `--theme` choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ThemeArg {
    /// Wood on white.
    Light,
    /// Light marks on a dark background.
    Dark,
    /// Black on white, marks by shape only.
    Print,
    /// A book plate: square houses marked by their state, laps along the sowing ring,
    /// labels clear of the pits.
    Book,
}

/// The diagram options of every picture format (`svg`, `png`, `html`): one set of flags,
/// turned into one [`SvgOptions`].
#[derive(Debug, clap::Args)]
struct Drawing {
    /// Draw the board as North sees it.
    #[arg(long)]
    flip: bool,
    /// Leave out row letters and pit numbers (and the margins they take).
    #[arg(long)]
    no_coordinates: bool,
    /// Colours.
    #[arg(long, value_enum, default_value_t = ThemeArg::Light)]
    theme: ThemeArg,
    /// Draw small counts as dots.
    #[arg(long)]
    dots: bool,
    /// The width in pixels (the height follows).
    #[arg(long, value_name = "N")]
    width: Option<u32>,
    /// The caption under the board (instead of the last move's summary; `""` for none).
    #[arg(long, value_name = "TEXT")]
    caption: Option<String>,
    /// Leave out the marks of the last move (start, direction, laps, captures) and its
    /// summary.
    #[arg(long)]
    no_last_move: bool,
    /// Coloured pits and arrows to draw, written as in comments (spec/notation.md §3.1),
    /// added to those of the position's comments: `[%csl Ga5,RA6][%cal GA6a6]`.
    #[arg(long, value_name = "MARKUP")]
    markup: Option<String>,
}

/// Which position to draw: a record's game, line and ply, or a position string.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("source").required(true).args(["file", "position"]))]
struct Diagram {
    /// The record file (`-` for stdin).
    #[arg(value_name = "FILE", value_parser = Input::parse)]
    file: Option<Input>,
    #[command(flatten)]
    pick: Pick,
    /// A variation instead of the main line: PLY.N is the N-th variation of ply PLY (ply
    /// numbers count from the game's start, and a variation goes on with the count of the
    /// ply it replaces), nested as `5.2.7.1`. `--ply` then counts along that line.
    #[arg(long, value_name = "PLY.N", conflicts_with = "position")]
    line: Option<LinePath>,
    /// A position string (spec/notation.md §7) to draw instead of a record: a puzzle.
    #[arg(long, value_name = "STR", conflicts_with_all = ["file", "game", "ply"])]
    position: Option<String>,
    /// The rules of `--position`: a preset, optionally with `name=value` overrides
    /// [default: kiswahili].
    #[arg(long, value_name = "RULES", requires = "position")]
    rules: Option<String>,
}

/// `--best-move` of the single-position pictures.
#[derive(Debug, clap::Args)]
struct BestMove {
    /// Draw the engine's move for the position shown as a green arrow, from the pit where it
    /// starts to where its first lap ends (spec/engine.md, "Best move arrow").
    #[arg(long)]
    best_move: bool,
    /// How many plies deep `--best-move` searches [default: 6].
    #[arg(long, value_name = "N", requires = "best_move",
          value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
}

impl BestMove {
    /// The search depth when the best move is asked for.
    fn depth(&self) -> Option<u32> {
        self.best_move
            .then(|| self.depth.unwrap_or(crate::best::DEFAULT_DEPTH))
    }
}

/// Arguments of `bao export svg`.
#[derive(Debug, clap::Args)]
struct SvgArgs {
    #[command(flatten)]
    diagram: Diagram,
    #[command(flatten)]
    best: BestMove,
    /// One diagram per position of the line (start and every ply) into the directory
    /// given by `-o`, named `ply-000.svg`, `ply-001.svg`, ...
    #[arg(long, conflicts_with_all = ["ply", "position"], requires = "output")]
    all: bool,
    /// One diagram per problem of the record (`[Problem "win in N"]`, each proven by the
    /// solver first; spec/diagrams.md) into the directory given by `-o`, named
    /// `problem-01.svg`, ..., its task as the caption.
    #[arg(long, conflicts_with_all = ["ply", "position", "all", "line", "best_move"],
          requires = "output")]
    problems: bool,
    #[command(flatten)]
    drawing: Drawing,
    /// Write to this file (a directory with `--all` or `--problems`) instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// No progress bar with `--all`.
    #[arg(short, long)]
    quiet: bool,
}

/// Arguments of `bao export png`.
#[derive(Debug, clap::Args)]
struct PngArgs {
    #[command(flatten)]
    diagram: Diagram,
    #[command(flatten)]
    best: BestMove,
    /// The PNG file to write (a directory with `--all`).
    #[arg(short, long, value_name = "OUT.png")]
    output: PathBuf,
    /// One picture per position of the line (start and every ply) into the directory
    /// given by `-o`, named `ply-000.png`, `ply-001.png`, ...
    #[arg(long, conflicts_with_all = ["ply", "position"])]
    all: bool,
    /// One picture per problem of the record (`[Problem "win in N"]`, each proven by the
    /// solver first) into the directory given by `-o`, named `problem-01.png`, ....
    #[arg(long, conflicts_with_all = ["ply", "position", "all", "line", "best_move"])]
    problems: bool,
    #[command(flatten)]
    drawing: Drawing,
    /// No progress bar with `--all`.
    #[arg(short, long)]
    quiet: bool,
}

/// Arguments of `bao export gif`.
#[derive(Debug, clap::Args)]
struct GifArgs {
    /// The record file (`-` for stdin).
    #[arg(value_name = "FILE", value_parser = Input::parse)]
    file: Input,
    /// The game in the file, from 1.
    #[arg(long, value_name = "N", default_value_t = 1)]
    game: usize,
    /// A variation instead of the main line (as `bao export svg --line`).
    #[arg(long, value_name = "PLY.N")]
    line: Option<LinePath>,
    /// The positions shown: after ply A to after ply B (0: the start); `A..` to the end,
    /// `..B` from the start [default: the whole game].
    #[arg(long, value_name = "A..B", value_parser = parse_plies)]
    plies: Option<(Option<usize>, Option<usize>)>,
    /// How long each frame shows, in milliseconds (the last one shows 4 s).
    #[arg(long, value_name = "MS", default_value_t = 1200,
          value_parser = clap::value_parser!(u32).range(20..=60_000))]
    delay: u32,
    #[command(flatten)]
    drawing: Drawing,
    /// The GIF file to write.
    #[arg(short, long, value_name = "OUT.gif")]
    output: PathBuf,
}

/// `--paper`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum PaperArg {
    /// ISO A4 (210 x 297 mm).
    A4,
    /// US Letter (8.5 x 11 in).
    Letter,
}

/// Arguments of `bao export pdf`.
#[derive(Debug, clap::Args)]
struct PdfArgs {
    /// The record files (`-` for stdin), their games set in this order.
    #[arg(value_name = "FILE", required = true, value_parser = Input::parse)]
    files: Vec<Input>,
    /// The PDF file to write.
    #[arg(short, long, value_name = "OUT.pdf")]
    output: PathBuf,
    /// The page size.
    #[arg(long, value_enum, default_value_t = PaperArg::A4)]
    paper: PaperArg,
    /// Also a diagram after every N-th ply of each game (besides those the comments ask
    /// for with `[%diagram]`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    every: Option<u32>,
    /// The width of each diagram in millimetres (30 to 170).
    #[arg(long, value_name = "MM", default_value_t = bao_export::PdfOptions::DEFAULT_DIAGRAM_MM,
          value_parser = diagram_mm)]
    diagram_mm: f32,
    /// The booklet's title [default: the first game's Event, else "Bao games"].
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// The diagrams' colours.
    #[arg(long, value_enum, default_value_t = ThemeArg::Book)]
    theme: ThemeArg,
    /// Draw the boards as North sees them.
    #[arg(long)]
    flip: bool,
    /// A problem sheet instead of a booklet: every game with a `[Problem "win in N"]` tag,
    /// its start proven a win in N moves by the solver, the solutions on the last page (a
    /// tag the solver cannot prove is reported and left off; exit 1).
    #[arg(long, conflicts_with = "every")]
    problems: bool,
}

/// Reads `--diagram-mm`: a number of millimetres within the range a page holds.
fn diagram_mm(s: &str) -> Result<f32, String> {
    let range = bao_export::PdfOptions::DIAGRAM_MM;
    match s.parse::<f32>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(format!(
            "`{s}` is no diagram width: give millimetres from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

/// Reads `--plies`: `A..B`, `A..` or `..B`.
fn parse_plies(s: &str) -> Result<(Option<usize>, Option<usize>), String> {
    let bad = || format!("`{s}` is no range of plies: write A..B, A.. or ..B (e.g. 10..30)");
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    let n = |t: &str| -> Result<Option<usize>, String> {
        if t.is_empty() {
            Ok(None)
        } else {
            t.parse().map(Some).map_err(|_| bad())
        }
    };
    let (a, b) = (n(a)?, n(b)?);
    if let (Some(a), Some(b)) = (a, b) {
        if a > b {
            return Err(bad());
        }
    }
    Ok((a, b))
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
        opts.lang,
        checked_input,
        BATCH_BYTES,
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
) -> Result<(CheckReport, Option<ExportError>), CliError> {
    let mut failed = None;
    let report = stream_replayed(
        name,
        input,
        |n, g, r| (n, g.value.clone(), r),
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

/// Writes to `-o` or to stdout.
fn emit(output: Option<&Path>, bytes: &[u8]) -> Result<(), CliError> {
    match output {
        Some(p) => save(p, bytes),
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
        Format::Gif(a) => gif(a, ctx),
        Format::Pdf(a) => pdf(a, ctx),
        Format::Html(a) => html(a, ctx),
        Format::Abstractplay(a) => abstractplay(a),
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
    fn options(&self) -> Result<SvgOptions, CliError> {
        let markup = match &self.markup {
            Some(text) => {
                let (m, errors) = Markup::read(text);
                if let Some(e) = errors.first() {
                    return Err(CliError::Invalid {
                        argument: "--markup",
                        message: format!("{} (at byte {}; {})", e.message, e.span.start, e.help),
                    });
                }
                if m.is_empty() {
                    return Err(CliError::Invalid {
                        argument: "--markup",
                        message: "no markup: write e.g. `[%csl Ga5,RA6][%cal GA6a6]`".to_owned(),
                    });
                }
                m
            }
            None => Markup::default(),
        };
        let defaults = SvgOptions::default();
        Ok(SvgOptions {
            flip: self.flip,
            coordinates: !self.no_coordinates,
            theme: match self.theme {
                ThemeArg::Light => Theme::Light,
                ThemeArg::Dark => Theme::Dark,
                ThemeArg::Print => Theme::Print,
                ThemeArg::Book => Theme::Book,
            },
            seeds: if self.dots {
                SeedStyle::Dots { max: 10 }
            } else {
                SeedStyle::Numerals
            },
            width: self.width.unwrap_or(defaults.width),
            caption: self.caption.clone(),
            last_move: !self.no_last_move,
            markup,
            ..defaults
        })
    }
}

/// The positions a diagram command can draw, and what it knows of the game.
struct Picked {
    line: GameLine,
    names: BySide<Option<String>>,
    /// How the game ended, for the last position of the main line.
    ending: Option<String>,
}

impl Diagram {
    /// The line to draw from; `Err(status)` when the record is invalid (reported).
    fn pick(&self, ctx: &Context) -> Result<Result<Picked, Status>, CliError> {
        if let Some(text) = &self.position {
            let start = position_arg(text, self.rules.as_deref())?;
            return Ok(Ok(Picked {
                line: GameLine {
                    start,
                    start_markup: Markup::default(),
                    steps: Vec::new(),
                    main: false,
                },
                names: BySide::new(None, None),
                ending: None,
            }));
        }
        let Some(file) = &self.file else {
            return Err(CliError::Usage(
                "give a record FILE or --position STR".to_owned(),
            ));
        };
        let checked = match load(file, ctx)? {
            Ok(c) => c,
            Err(status) => return Ok(Err(status)),
        };
        let index = game_index(&checked, self.pick.game)?;
        let path = self.line.clone().unwrap_or_default();
        let line =
            game_line(&checked.record, &checked.replayed, index, &path).map_err(|e| {
                match (&self.line, e) {
                    (Some(p), ExportError::NoSuchLine(e)) => {
                        CliError::Usage(format!("--line {p}: {e}"))
                    }
                    (_, e) => CliError::Internal(e.to_string()),
                }
            })?;
        let game = &checked.record.games[index].value;
        let last = line.steps.last().map_or(&line.start, |s| &s.after);
        let ending = if line.main {
            result_words(game, last)
        } else {
            None
        };
        Ok(Ok(Picked {
            names: player_names(game),
            ending,
            line,
        }))
    }
}

impl Picked {
    /// The number of the last ply (the default `--ply`).
    fn last(&self) -> usize {
        self.line.steps.len()
    }

    /// The diagram after ply `n` (0: the start); with `best`, the engine's move searched
    /// that many plies deep drawn as an arrow.
    fn svg(&self, n: usize, opts: &SvgOptions, best: Option<u32>) -> Result<String, CliError> {
        let Some((pos, step)) = self.line.at(n) else {
            let plies = self.line.steps.len();
            return Err(CliError::Usage(format!(
                "--ply {n}: the {} has {plies} pl{}",
                if self.line.main { "game" } else { "line" },
                if plies == 1 { "y" } else { "ies" }
            )));
        };
        let mut opts = opts.clone();
        for side in Side::ALL {
            if opts.names.get(side).is_none() {
                opts.names.get_mut(side).clone_from(self.names.get(side));
            }
        }
        let mut markup = self.line.markup(n).cloned().unwrap_or_default();
        markup.extend(&opts.markup);
        if let Some(depth) = best {
            let arrow =
                crate::best::best_move(pos, depth).and_then(|mv| crate::best::arrow(pos, &mv));
            markup.arrows.extend(arrow);
        }
        opts.markup = markup;
        if n == self.last() {
            opts.ending.clone_from(&self.ending);
        }
        let overlay = step.map(|s| Overlay::from_trace(&s.before, &s.trace));
        Ok(board_svg(pos, &opts, overlay.as_ref()))
    }
}

fn svg(args: &SvgArgs, ctx: &Context) -> Result<Status, CliError> {
    let opts = args.drawing.options()?;
    if args.problems {
        let dir = args.output.as_deref().unwrap_or(Path::new("."));
        return problem_pictures(&args.diagram, &opts, dir, "svg", ctx, |svg| {
            Ok(svg.into_bytes())
        });
    }
    let picked = match args.diagram.pick(ctx)? {
        Ok(p) => p,
        Err(status) => return Ok(status),
    };
    if args.all {
        let Some(dir) = args.output.as_deref() else {
            return Err(CliError::Usage("--all needs -o DIR".to_owned()));
        };
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::io(format!("cannot create {}", dir.display()), e))?;
        let bar = crate::progress::bar(picked.last() + 1, "exporting", args.quiet);
        for n in 0..=picked.last() {
            let path = dir.join(format!("ply-{n:03}.svg"));
            save(&path, picked.svg(n, &opts, args.best.depth())?.as_bytes())?;
            bar.inc(1);
        }
        bar.finish_and_clear();
        return Ok(Status::Success);
    }
    let n = args.diagram.pick.ply.unwrap_or(picked.last());
    emit(
        args.output.as_deref(),
        picked.svg(n, &opts, args.best.depth())?.as_bytes(),
    )?;
    Ok(Status::Success)
}

fn png(args: &PngArgs, ctx: &Context) -> Result<Status, CliError> {
    let opts = args.drawing.options()?;
    let png_opts = PngOptions {
        width: args.drawing.width,
        ..PngOptions::default()
    };
    if args.problems {
        return problem_pictures(&args.diagram, &opts, &args.output, "png", ctx, |svg| {
            board_png(&svg, &png_opts).map_err(|e| CliError::Usage(e.to_string()))
        });
    }
    let picked = match args.diagram.pick(ctx)? {
        Ok(p) => p,
        Err(status) => return Ok(status),
    };
    let picture = |n: usize| -> Result<Vec<u8>, CliError> {
        board_png(&picked.svg(n, &opts, args.best.depth())?, &png_opts)
            .map_err(|e| CliError::Usage(e.to_string()))
    };
    if args.all {
        let dir = &args.output;
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::io(format!("cannot create {}", dir.display()), e))?;
        let bar = crate::progress::bar(picked.last() + 1, "exporting", args.quiet);
        for n in 0..=picked.last() {
            save(&dir.join(format!("ply-{n:03}.png")), &picture(n)?)?;
            bar.inc(1);
        }
        bar.finish_and_clear();
        return Ok(Status::Success);
    }
    let n = args.diagram.pick.ply.unwrap_or(picked.last());
    save(&args.output, &picture(n)?)?;
    Ok(Status::Success)
}

/// `bao export svg|png --problems`: each problem of the record the solver proves, drawn
/// with its task as the caption into `dir` as `problem-01.EXT`, ...; an unproven tag is
/// reported (exit 1).
fn problem_pictures(
    diagram: &Diagram,
    opts: &SvgOptions,
    dir: &Path,
    ext: &str,
    ctx: &Context,
    encode: impl Fn(String) -> Result<Vec<u8>, CliError>,
) -> Result<Status, CliError> {
    let Some(file) = &diagram.file else {
        return Err(CliError::Usage("--problems needs a record FILE".to_owned()));
    };
    let name = file.name();
    let bytes = file.read_all()?;
    let checked = match checked_bytes(&name, &bytes, ctx) {
        Ok(c) => c,
        Err(status) => return Ok(status),
    };
    let (problems, all) = crate::problems::proven(&[(name, bytes, checked)]);
    if problems.is_empty() {
        eprintln!("bao: no problem proven: nothing exported");
        return Ok(Status::Invalid);
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::io(format!("cannot create {}", dir.display()), e))?;
    for (i, p) in problems.iter().enumerate() {
        let mut o = opts.clone();
        if o.caption.is_none() {
            o.caption = Some(format!("Problem {}: {}", i + 1, p.task()));
        }
        let svg = board_svg(&p.position, &o, None);
        save(
            &dir.join(format!("problem-{:02}.{ext}", i + 1)),
            &encode(svg)?,
        )?;
    }
    Ok(Status::valid_if(all))
}

fn gif(args: &GifArgs, ctx: &Context) -> Result<Status, CliError> {
    let opts = args.drawing.options()?;
    let diagram = Diagram {
        file: Some(args.file.clone()),
        pick: Pick {
            game: args.game,
            ply: None,
        },
        line: args.line.clone(),
        position: None,
        rules: None,
    };
    let picked = match diagram.pick(ctx)? {
        Ok(p) => p,
        Err(status) => return Ok(status),
    };
    let last = picked.last();
    let (a, b) = args.plies.unwrap_or((None, None));
    let (a, b) = (a.unwrap_or(0), b.unwrap_or(last));
    if b > last {
        return Err(CliError::Usage(format!(
            "--plies {a}..{b}: the {} has {last} pl{}",
            if picked.line.main { "game" } else { "line" },
            if last == 1 { "y" } else { "ies" }
        )));
    }
    let svgs = (a..=b)
        .map(|n| picked.svg(n, &opts, None))
        .collect::<Result<Vec<String>, CliError>>()?;
    let gif_opts = GifOptions {
        width: Some(args.drawing.width.unwrap_or(GifOptions::DEFAULT_WIDTH)),
        delay: u16::try_from(args.delay / 10).unwrap_or(u16::MAX),
        ..GifOptions::default()
    };
    let bytes = frames_gif(&svgs, &gif_opts).map_err(|e| CliError::Usage(e.to_string()))?;
    save(&args.output, &bytes)?;
    Ok(Status::Success)
}

/// Runs `bao export pdf`: every record checked (an invalid one exports nothing), then all
/// their games set as one booklet, or with `--problems` their problems as a sheet.
fn pdf(args: &PdfArgs, ctx: &Context) -> Result<Status, CliError> {
    let mut checked = Vec::with_capacity(args.files.len());
    for file in &args.files {
        let name = file.name();
        let bytes = file.read_all()?;
        match checked_bytes(&name, &bytes, ctx) {
            Ok(c) => checked.push((name, bytes, c)),
            Err(status) => return Ok(status),
        }
    }
    let opts = bao_export::PdfOptions {
        paper: match args.paper {
            PaperArg::A4 => bao_export::Paper::A4,
            PaperArg::Letter => bao_export::Paper::Letter,
        },
        diagram_mm: args.diagram_mm,
        every: args.every.map(|n| n as usize),
        title: args.title.clone(),
        svg: SvgOptions {
            flip: args.flip,
            theme: match args.theme {
                ThemeArg::Light => Theme::Light,
                ThemeArg::Dark => Theme::Dark,
                ThemeArg::Print => Theme::Print,
                ThemeArg::Book => Theme::Book,
            },
            ..SvgOptions::default()
        },
    };
    if args.problems {
        let (problems, proven) = crate::problems::proven(&checked);
        if problems.is_empty() {
            eprintln!("bao: no problem proven: nothing exported");
            return Ok(Status::Invalid);
        }
        let bytes = bao_export::problems_pdf(&problems, &opts)
            .map_err(|e| CliError::Internal(e.to_string()))?;
        save(&args.output, &bytes)?;
        return Ok(Status::valid_if(proven));
    }
    let records: Vec<bao_export::BookletRecord<'_>> = checked
        .iter()
        .map(|(_, _, c)| bao_export::BookletRecord {
            record: &c.record,
            replayed: &c.replayed,
        })
        .collect();
    let bytes =
        bao_export::booklet_pdf(&records, &opts).map_err(|e| CliError::Internal(e.to_string()))?;
    save(&args.output, &bytes)?;
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
            ..args.drawing.options()?
        },
    };
    let page = game_html(&checked.record, &checked.replayed, index, &opts)
        .map_err(|e| CliError::Internal(e.to_string()))?;
    emit(args.output.as_deref(), page.as_bytes())?;
    Ok(Status::Success)
}
