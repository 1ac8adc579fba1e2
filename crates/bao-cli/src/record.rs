//! `bao record [FILE]`: record a live game (or a best-of-three match) move by move.
//!
//! The game is a [`bao_session::Session`]; this command is its terminal: it reads lines
//! (`input.rs`), gives them to the session and prints the replies (`render.rs`). Every
//! decision (a question, a confirmation, what a line is) is the session's; this command
//! only prints and reads.
//!
//! A new file starts with questions for the tags (each with its default, `?` where `bao
//! new` writes `?`; flags answer them beforehand, `--yes` takes every default, `--match`
//! names the event too unless `--event` does). A file holding an unfinished game (result
//! `*`) resumes it; a file whose match is not decided starts the match's next game; a file
//! whose last game is finished opens that game again, so that `undo` can take back its
//! result to correct its end (the games before it are not touched). Before every move
//! prompt the board is shown with the last move, the side to move, the stage and the hands.
//! Commands are listed by `help` and in the manual page (`bao man record`).
//!
//! On a terminal the line editor is rustyline (history, editing keys; Ctrl-C cancels the
//! line, a second Ctrl-C or Ctrl-D at an empty prompt leaves), and the session may ask:
//! which way a move without a sign goes, stop or safari for a bare pit, whether to record
//! `resign`, `time` or `draw`. A line that is a move or a command given at such a question
//! drops the question and is taken as typed.
//!
//! Without a terminal the lines come from stdin one by one, each echoed after its prompt,
//! and nothing is asked: the tag questions take their defaults, a move that leaves a
//! decision open is refused with the moves it may stand for, an ending is recorded at once.
//! Every line that is refused is reported where it stands and again in a summary on
//! stderr at the end, and the exit status is 1. The end of the input leaves as Ctrl-D does.
//!
//! Exit codes: 0 when the session ends (game over, match over, or left to be resumed), 1 when
//! FILE is not a valid record (its diagnostics are shown, the file is left alone) or a piped
//! line was refused, 2 when FILE cannot be written or the arguments are unusable.

mod input;
mod render;

use std::path::PathBuf;

use bao_session::{
    today, valid_date, Answers, Asking, Input, MatchChoice, OpenError, Options, Reply, Session,
    SessionError,
};

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::report::{colours, render, Stream};

use input::Line;
use render::{prompt_text, Screen};

/// Arguments of `bao record`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The record file: a new file, or one whose last game is unfinished (resumed), or
    /// whose match goes on. Default: `bao-YYYY-MM-DD.bao` with today's date.
    ///
    /// Without a terminal the moves and commands are read from stdin, one per line, and
    /// nothing is asked (see the manual page).
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
    /// Record a best-of-three match with this name (the Match tag; the Event tag too,
    /// unless --event is given).
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
        colour: colours(ctx.color, Stream::Stdout),
    };
    let lines = input::for_stdin().map_err(|e| CliError::io("cannot use the terminal", e))?;
    let options = Options {
        // A terminal may be asked; piped input never is.
        asking: if lines.is_terminal() {
            Asking::Ask
        } else {
            Asking::Never
        },
        take_defaults: args.yes,
        answers: answers(args),
        today: today(),
        // At a terminal every move is decided exactly, however long it takes.
        lap_budget: None,
    };
    let mut session = match Session::open(&path, options) {
        Ok(s) => s,
        Err(OpenError::Invalid(report)) => {
            eprint!("{}", render(&report, ctx.color));
            eprintln!("bao record: {name} is not a valid record; it was left as it is");
            return Ok(Status::Invalid);
        }
        Err(OpenError::Read(e)) => return Err(CliError::io(format!("cannot read {name}"), e)),
        Err(OpenError::Write(e)) => return Err(CliError::io(format!("cannot write {name}"), e)),
    };
    let mut lines = lines;
    let piped = !lines.is_terminal();
    let fail = |e| cli_error(e, &name);
    screen.show(&session.start().map_err(fail)?);
    // The last line was cancelled with Ctrl-C: a second one leaves.
    let mut cancelled = false;
    // The lines read, and those refused (their number and text).
    let mut read = 0;
    let mut refused: Vec<(usize, String)> = Vec::new();
    while let Some(prompt) = session.prompt() {
        let line = lines
            .read(&prompt_text(&prompt))
            .map_err(|e| CliError::io("cannot read the terminal", e))?;
        let replies = match &line {
            Line::Text(t) => {
                cancelled = false;
                read += 1;
                let replies = session.handle(Input::Line(t));
                if let Ok(r) = &replies {
                    if r.iter().any(Reply::rejects_line) {
                        refused.push((read, t.clone()));
                    }
                }
                replies
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
    if piped && !refused.is_empty() {
        eprintln!("{}", refused_summary(&name, &refused));
        return Ok(Status::Invalid);
    }
    Ok(Status::Success)
}

/// The summary on stderr of the piped lines that were refused.
fn refused_summary(name: &str, refused: &[(usize, String)]) -> String {
    let n = refused.len();
    let mut out = format!(
        "bao record: {n} line{} of the input {} refused (each is answered above; the other \
         lines are recorded in {name}):",
        if n == 1 { "" } else { "s" },
        if n == 1 { "was" } else { "were" },
    );
    for (number, text) in refused {
        out.push_str(&format!("\n  line {number}: {text}"));
    }
    out
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
        SessionError::Answer { .. } => CliError::Usage(e.to_string()),
        SessionError::SamePlayers { .. } => {
            CliError::Usage(format!("{e}: name them with --south and --north"))
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
