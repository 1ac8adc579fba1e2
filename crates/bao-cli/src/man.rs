//! `bao man`: manual pages in roff (`clap_mangen`).
//!
//! Without `-o` one page goes to stdout: `bao(1)`, or with `COMMAND` (`bao man export svg`)
//! that command's page. To a terminal the page is shown by `man -l -` (rendered, in its
//! pager); where `man` cannot be run, the command says how to read the page instead of
//! printing roff. To a file or a pipe it is the roff text. With `-o DIR` the main page and
//! one page per subcommand (`bao.1`, `bao-check.1`, `bao-export-svg.1`, ...) are written
//! into `DIR`, each atomically.
//!
//! `bao record`'s page has a section of its own, PROMPT COMMANDS, written from the same
//! command table the prompt reads its lines with ([`bao_session::Help`]).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::io::save;

/// Arguments of `bao man`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Write every page into this directory (created if missing) instead of one to stdout.
    #[arg(short, long, value_name = "DIR", conflicts_with = "command")]
    output: Option<PathBuf>,
    /// The command whose page goes to stdout (`export svg`); default: `bao` itself.
    #[arg(value_name = "COMMAND")]
    command: Vec<String>,
}

/// Every page: `(file name, roff text)`, the main page first, then the subcommands depth
/// first in the order of `bao --help`, of the command line `cli` (`bao`'s, from main.rs).
pub(crate) fn pages(cli: clap::Command) -> Result<Vec<(String, Vec<u8>)>, CliError> {
    fn walk(cmd: &clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> Result<(), CliError> {
        let man = clap_mangen::Man::new(cmd.clone());
        let mut text = Vec::new();
        man.render(&mut text)
            .map_err(|e| CliError::Internal(format!("cannot render a manual page: {e}")))?;
        let name = man.get_filename();
        if name == "bao-record.1" {
            text.extend_from_slice(prompt_commands().as_bytes());
        }
        out.push((name, text));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            walk(sub, out)?;
        }
        Ok(())
    }
    let mut cmd = cli.disable_help_subcommand(true);
    cmd.build();
    let mut out = Vec::new();
    walk(&cmd, &mut out)?;
    Ok(out)
}

/// Runs `bao man` for the command line `cli`.
pub(crate) fn run(args: &Args, _ctx: &Context, cli: clap::Command) -> Result<Status, CliError> {
    let pages = pages(cli)?;
    if let Some(dir) = &args.output {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::io(format!("cannot create {}", dir.display()), e))?;
        for (name, text) in &pages {
            save(&dir.join(name), text)?;
        }
        return Ok(Status::Success);
    }
    let mut stem = String::from("bao");
    for word in &args.command {
        stem.push('-');
        stem.push_str(word);
    }
    let file = format!("{stem}.1");
    let Some((_, text)) = pages.iter().find(|(name, _)| *name == file) else {
        return Err(CliError::Usage(format!(
            "no manual page for `{}`; the commands are {}",
            args.command.join(" "),
            pages
                .iter()
                .filter_map(|(n, _)| n.strip_prefix("bao-")?.strip_suffix(".1"))
                .map(|n| n.replace('-', " "))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    if std::io::stdout().is_terminal() {
        return show(&file, text);
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text)
        .and_then(|()| out.flush())
        .map_err(|e| CliError::io("cannot write to stdout", e))?;
    Ok(Status::Success)
}

/// Shows a page on the terminal with `man -l -`; where `man` cannot be run, says how to
/// read the page (roff on a terminal is unreadable).
fn show(file: &str, text: &[u8]) -> Result<Status, CliError> {
    let stem = file.trim_end_matches(".1");
    let command = stem.replacen("bao", "bao man", 1).replace('-', " ");
    let child = Command::new("man")
        .args(["-l", "-"])
        .stdin(Stdio::piped())
        .spawn();
    if let Ok(mut child) = child {
        if let Some(mut stdin) = child.stdin.take() {
            // The pager may quit before reading it all: a broken pipe is no error here.
            let _ = stdin.write_all(text);
        }
        let status = child
            .wait()
            .map_err(|e| CliError::io("cannot run man", e))?;
        if status.success() {
            return Ok(Status::Success);
        }
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "The manual page {stem}(1) is roff text, which a terminal does not render, and `man` \
         could not show it here. Read it with one of:\n\
         \n  {command} | man -l -\n  {command} | groff -man -Tutf8 | less -R\n\
         \nor install every page with `bao man -o DIR` and run `man -M DIR {stem}` (or add DIR \
         to MANPATH)."
    )
    .and_then(|()| out.flush())
    .map_err(|e| CliError::io("cannot write to stdout", e))?;
    Ok(Status::Success)
}

/// The PROMPT COMMANDS section of `bao record`'s page, in roff, from the prompt's command
/// table: what a line may be, then each command with its operands.
pub(crate) fn prompt_commands() -> String {
    let help = bao_session::Help::new();
    let mut out = String::from(".SH \"PROMPT COMMANDS\"\n");
    out.push_str(&roff_text(&help.intro));
    out.push('\n');
    for c in &help.commands {
        out.push_str(".TP\n");
        out.push_str(&format!("\\fB{}\\fR\n", roff_text(&c.usage)));
        out.push_str(&roff_text(&c.about));
        out.push_str(".\n");
    }
    out.push_str(
        ".PP\nAt a terminal, Ctrl\\-C cancels the line; a second Ctrl\\-C or Ctrl\\-D at an \
         empty prompt leaves. A line that is a move or a command given at a question drops the \
         question and is taken as typed. Without a terminal nothing is asked: a move that \
         leaves a decision open is refused with the moves it may stand for, \\fBresign\\fR, \
         \\fBtime\\fR and \\fBdraw\\fR end the game at once, and a refused line makes the \
         exit status 1, with a summary on stderr.\n",
    );
    out
}

/// Text as a roff line: backslashes and hyphens escaped, a leading `.` or `'` guarded.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}
