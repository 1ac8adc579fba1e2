//! The `bao` command.
//!
//! One module per command. To add a command `foo`: write `src/foo.rs` with a clap `Args`
//! struct and `pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError>`,
//! then add a variant to [`Command`] and an arm to [`Command::run`].
//!
//! What several commands share is plumbing, in modules of its own, never in a command's
//! module: what every command gets and returns (`context.rs`), errors and exit codes
//! (`error.rs`), an input file or stdin and atomic writes (`io.rs`), the inputs of the
//! commands that read many records (`inputs.rs`), choosing a game and a position of a
//! record (`games.rs`, `position.rs`), rendering diagnostics (`report.rs`), checking a large
//! record as a stream (`streaming.rs`), the thread pool (`pool.rs`), streamed output
//! (`output.rs`), progress bars (`progress.rs`), the engine's best move (`best.rs`) and the
//! allocator's pages (`pages.rs`). A command's module uses plumbing, never another command's
//! module nor this file (bao-testkit's `tests/modules.rs` checks it).
//!
//! Exit codes: 0 success, 1 an input record or position is invalid or a move is illegal,
//! 2 usage, I/O or internal error. A broken pipe on stdout exits with 0 and prints nothing.

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// mimalloc instead of the system allocator: a record is many small objects (an annotation's
/// items, a tag's name and value) allocated one by one and freed together, the pattern where
/// glibc's malloc leaves its fast path (about 180 instructions a call; mimalloc's stable
/// version 2 takes about 55, and the parse of annotated records costs 18% fewer
/// instructions with it).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod analyse;
mod annotate;
mod archive;
mod best;
mod check;
mod completions;
mod context;
mod diagram;
mod engine;
mod error;
mod export;
mod fmt;
mod games;
mod import;
mod inputs;
mod io;
mod legal;
mod lines;
mod lsp;
mod man;
mod new;
mod output;
mod pages;
mod perft;
mod pool;
mod position;
mod problems;
mod progress;
mod puzzles;
mod record;
mod replay;
mod report;
mod serve;
mod show;
mod solve;
mod streaming;

use context::{Color, Context, Status};
use error::CliError;

/// Bao (four-row mancala of the Swahili coast): rules engine, records, replay.
#[derive(Debug, Parser)]
#[command(name = "bao", version, propagate_version = true)]
struct Cli {
    /// When to colour messages on stderr, and the boards and replies `bao show` and `bao
    /// record` print.
    #[arg(long, value_enum, global = true, default_value_t = Color::Auto)]
    color: Color,

    /// The language of messages, diagnostics, prompts and diagram labels: en or sw
    /// (Kiswahili). Default: `BAO_LANG`, else `LC_ALL`, `LC_MESSAGES` or `LANG`
    /// (`sw_TZ.UTF-8` is Kiswahili), else English.
    #[arg(long, global = true, value_name = "LANG")]
    lang: Option<bao_i18n::Lang>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check records: replay every game and variation, report illegal moves, annotation,
    /// result and match problems with repair suggestions.
    #[command(visible_alias = "validate")]
    Check(check::Args),
    /// Write a record with the engine's lap/capture annotations and `**`/`#` marks.
    Annotate(annotate::Args),
    /// Replay games given as JSON Lines and write, for each input line, one JSON line with
    /// every position, the legal moves, the first error and the outcome (a machine
    /// interface).
    Replay(replay::Args),
    /// Export a record: every game as JSON, one position as an SVG or PNG diagram, or a game
    /// as a self-contained HTML viewer.
    Export(export::Args),
    /// Turn the JSON of `bao export json`, or AbstractPlay's game records, into records.
    Import(import::Args),
    /// Keep the games of records that meet criteria (tags, players, result, rules, length,
    /// a position reached, an opening, diagnostic codes), streaming at archive scale.
    ///
    /// Each game is copied as written: its text from the comments before its first tag to
    /// its result token, byte for byte (notation, comments, layout and line ends kept; a
    /// Latin-1 input as the UTF-8 it reads as), then a line end; a blank line between games. --canonical writes the
    /// canonical form instead (as `bao fmt` does).
    Filter(archive::FilterArgs),
    /// Keep one copy of each game (the one that tells most); report the others and the tags
    /// the copies disagree on.
    ///
    /// Each game is copied as written: its text from the comments before its first tag to
    /// its result token, byte for byte (notation, comments, layout and line ends kept; a
    /// Latin-1 input as the UTF-8 it reads as), then a line end; a blank line between games. With --merge-tags, the tags a game
    /// gains are added as lines after its last tag line, nothing else changed. --canonical writes the
    /// canonical form instead (as `bao fmt` does).
    Dedupe(archive::DedupeArgs),
    /// Write each game of records to a file of its own, named from its tags (a match's
    /// games together, named from the match).
    ///
    /// Each game is copied as written: its text from the comments before its first tag to
    /// its result token, byte for byte (notation, comments, layout and line ends kept; a
    /// Latin-1 input as the UTF-8 it reads as), then a line end. --canonical writes the
    /// canonical form instead (as `bao fmt` does).
    Split(archive::SplitArgs),
    /// Statistics of records: results, endings, lengths, players with a rating, and the
    /// opening tree (text, JSON or an HTML page).
    Stats(archive::StatsArgs),
    /// Print a text diagram of one position of a record.
    Show(show::Args),
    /// Annotate a game with the engine's evaluations: an `[%eval]` comment after every ply,
    /// `?!`, `?` and `??` where a move lost evaluation, and the better line as a variation.
    #[command(visible_alias = "analyze")]
    Analyse(analyse::Args),
    /// Record a live game or best-of-three match move by move, saving every ply at once;
    /// `bao record FILE` on an unfinished game resumes it.
    Record(record::Args),
    /// Serve an evening of games: scribes record from their phones (a PIN), spectators and
    /// a projector follow every board live; DIR holds one `.bao` file per game.
    Serve(serve::Args),
    /// Count the move sequences of a given length from a position (a move-generator test).
    Perft(perft::Args),
    /// Write records in canonical form (to stdout, or check or rewrite the files).
    Fmt(fmt::FmtArgs),
    /// Write a record template: the tag roster, today's date, no moves, result `*`.
    New(new::Args),
    /// List the legal moves of a position of a record, or of a position string.
    Legal(legal::Args),
    /// The language server for editors: diagnostics, hover, completion, repairs and
    /// formatting of `.bao` records over stdin and stdout (Language Server Protocol).
    Lsp(lsp::Args),
    /// Prove a position's result exactly within a horizon: a forced win with every winning
    /// first move, a forced loss, a draw, or unknown.
    Solve(solve::Args),
    /// Speak the engine protocol (spec/engine.md) on stdin and stdout: a search that a front
    /// end or a referee drives with `position`, `go` and `stop`.
    Engine(engine::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(completions::Args),
    /// Print the manual page, or write every page into a directory.
    Man(man::Args),
}

impl Command {
    fn run(&self, ctx: &Context) -> Result<Status, CliError> {
        match self {
            Self::Check(args) => check::run(args, ctx),
            Self::Annotate(args) => annotate::run(args, ctx),
            Self::Replay(args) => replay::run(args, ctx),
            Self::Export(args) => export::run(args, ctx),
            Self::Import(args) => import::run(args, ctx),
            Self::Filter(args) => archive::filter(args, ctx),
            Self::Dedupe(args) => archive::dedupe(args, ctx),
            Self::Split(args) => archive::split(args, ctx),
            Self::Stats(args) => archive::stats(args, ctx),
            Self::Show(args) => show::run(args, ctx),
            Self::Analyse(args) => analyse::run(args, ctx),
            Self::Record(args) => record::run(args, ctx),
            Self::Serve(args) => serve::run(args, ctx),
            Self::Perft(args) => perft::run(args, ctx),
            Self::Fmt(args) => fmt::run(args, ctx),
            Self::New(args) => new::run(args, ctx),
            Self::Legal(args) => legal::run(args, ctx),
            Self::Lsp(args) => lsp::run(args, ctx),
            Self::Solve(args) => solve::run(args, ctx),
            Self::Engine(args) => engine::run(args, ctx),
            Self::Completions(args) => completions::run(args, ctx, Cli::command()),
            Self::Man(args) => man::run(args, ctx, Cli::command()),
        }
    }
}

fn install_error_handler(color: Color) {
    let _ = miette::set_hook(Box::new(move |_| {
        // Unicode box drawing always, so that output does not depend on the locale.
        let opts = miette::MietteHandlerOpts::new()
            .terminal_links(false)
            .unicode(true);
        let opts = match color {
            Color::Auto => opts,
            Color::Always => opts.color(true),
            Color::Never => opts.color(false),
        };
        Box::new(opts.build())
    }));
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with 0; usage errors to stderr with 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    install_error_handler(cli.color);
    let ctx = Context {
        color: cli.color,
        lang: bao_i18n::Lang::choose(cli.lang),
    };
    match cli.command.run(&ctx) {
        Ok(Status::Success) => ExitCode::SUCCESS,
        Ok(Status::Invalid) => ExitCode::from(1),
        Ok(Status::Failed) => ExitCode::from(2),
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            let code = e.exit_code();
            eprintln!("{:?}", miette::Report::new(e));
            ExitCode::from(code)
        }
    }
}
