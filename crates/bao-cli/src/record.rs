//! `bao record [FILE]`: record a live game (or a best-of-three match) move by move.
//!
//! The game is a [`bao_session::Session`]; this command is its terminal: it reads lines
//! (`input.rs`), gives them to the session and prints the replies (`render.rs`).
//!
//! A new file starts with questions for the tags (each with its default; flags answer them
//! beforehand, `--yes` takes every default). A file holding an unfinished game (result `*`)
//! resumes it; a file whose match is not decided starts the match's next game. Before every
//! move prompt the board is shown with the side to move, the stage and the hands. Commands
//! are listed by `help`.
//!
//! On a terminal the line editor is rustyline (history, editing keys; Ctrl-C cancels the
//! line, a second Ctrl-C or Ctrl-D at an empty prompt leaves). Without a terminal the lines
//! come from stdin one by one, each echoed after its prompt; the end of the input leaves as
//! Ctrl-D does.
//!
//! Exit codes: 0 when the session ends (game over, match over, or left to be resumed), 1 when
//! FILE is not a valid record (its diagnostics are shown, the file is left alone), 2 when
//! FILE cannot be written or the arguments are unusable.

mod input;
mod render;

use std::io::IsTerminal;
use std::path::PathBuf;

use bao_session::{
    today, valid_date, Answers, Asking, Input, MatchChoice, OpenError, Options, Session,
    SessionError,
};

use crate::error::CliError;
use crate::{Color, Context, Status};

use input::Line;
use render::{prompt_text, render, Screen};

/// Arguments of `bao record`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The record file: a new file, or one whose last game is unfinished (resumed), or
    /// whose match goes on. Default: `bao-YYYY-MM-DD.bao` with today's date.
    ///
    /// Without a terminal the moves and answers are read from stdin, one per line.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Take the default answer of every question not answered by a flag.
    #[arg(short, long)]
    yes: bool,
    /// The Event tag.
    #[arg(long, value_name = "TEXT")]
    event: Option<String>,
    /// The Site tag.
    #[arg(long, value_name = "TEXT")]
    site: Option<String>,
    /// The Date tag, `YYYY.MM.DD` (default: today, UTC).
    #[arg(long, value_name = "DATE")]
    date: Option<String>,
    /// The Round tag.
    #[arg(long, value_name = "TEXT")]
    round: Option<String>,
    /// South's player.
    #[arg(long, value_name = "NAME")]
    south: Option<String>,
    /// North's player.
    #[arg(long, value_name = "NAME")]
    north: Option<String>,
    /// The rule set: a preset and optional `name=value` overrides (the `RuleSet` tag).
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
    /// Start from this position string (the Position tag) instead of the start position.
    #[arg(long, value_name = "POSITION")]
    position: Option<String>,
    /// Record a best-of-three match with this name (the Match tag).
    #[arg(long = "match", value_name = "NAME", conflicts_with = "single")]
    match_name: Option<String>,
    /// Record a single game (no match question).
    #[arg(long)]
    single: bool,
}

/// Runs `bao record`.
pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    let path = args
        .file
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("bao-{}.bao", today().replace('.', "-"))));
    let name = path.display().to_string();
    if let Some(date) = &args.date {
        if !valid_date(date) {
            return Err(CliError::Usage(format!(
                "--date {date}: write the date as YYYY.MM.DD (`??` for an unknown part)"
            )));
        }
    }
    let screen = Screen {
        name: name.clone(),
        colour: colour(ctx.color),
    };
    let options = Options {
        // Issue 16 will have piped input never ask; today both ask.
        asking: Asking::Ask,
        take_defaults: args.yes,
        answers: answers(args),
        today: today(),
    };
    let mut session = match Session::open(&path, options) {
        Ok(s) => s,
        Err(OpenError::Invalid(report)) => {
            eprint!("{}", render(&report, screen.colour));
            eprintln!("bao record: {name} is not a valid record; it was left as it is");
            return Ok(Status::Invalid);
        }
        Err(OpenError::Read(e)) => return Err(CliError::io(format!("cannot read {name}"), e)),
        Err(OpenError::Write(e)) => return Err(CliError::io(format!("cannot write {name}"), e)),
    };
    let mut lines = input::for_stdin().map_err(|e| CliError::io("cannot use the terminal", e))?;
    let fail = |e| cli_error(e, &name);
    screen.show(&session.start().map_err(fail)?);
    // The last line was cancelled with Ctrl-C: a second one leaves.
    let mut cancelled = false;
    while let Some(prompt) = session.prompt() {
        let line = lines
            .read(&prompt_text(&prompt))
            .map_err(|e| CliError::io("cannot read the terminal", e))?;
        let replies = match &line {
            Line::Text(t) => {
                cancelled = false;
                session.handle(Input::Line(t))
            }
            Line::Interrupted if !cancelled => {
                cancelled = true;
                screen.say("(cancelled; Ctrl-C again or Ctrl-D leaves)");
                session.handle(Input::Cancel)
            }
            Line::Interrupted | Line::Eof => session.handle(Input::Leave),
        };
        screen.show(&replies.map_err(fail)?);
    }
    Ok(Status::Success)
}

/// The tag answers the flags give.
fn answers(args: &Args) -> Answers {
    Answers {
        event: args.event.clone(),
        site: args.site.clone(),
        date: args.date.clone(),
        round: args.round.clone(),
        south: args.south.clone(),
        north: args.north.clone(),
        rules: args.rules.clone(),
        position: args.position.clone(),
        matches: match (&args.match_name, args.single) {
            (Some(m), _) => MatchChoice::Named(m.clone()),
            (None, true) => MatchChoice::Single,
            (None, false) => MatchChoice::Ask,
        },
    }
}

/// The command's error for a session that stopped.
fn cli_error(e: SessionError, name: &str) -> CliError {
    match e {
        SessionError::Write(source) => CliError::io(format!("cannot write {name}"), source),
        SessionError::Answer { .. } | SessionError::SamePlayers { .. } => {
            CliError::Usage(e.to_string())
        }
        SessionError::BadPosition => CliError::Invalid {
            argument: "--position",
            message: "not a valid start position for this rule set (see `bao check` on a \
                      record with this Position tag for the reasons)"
                .to_owned(),
        },
        SessionError::FinishedGamesOnly => CliError::Usage(format!(
            "{name} holds finished games only; give another file name to record a new game"
        )),
        SessionError::Replay { .. } | SessionError::Engine(_) => CliError::Internal(e.to_string()),
    }
}

/// Whether messages on stdout are coloured.
fn colour(color: Color) -> bool {
    match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}
