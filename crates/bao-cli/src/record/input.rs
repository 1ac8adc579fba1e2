//! Where `bao record` reads its lines: a rustyline editor on a terminal, plain lines from a
//! pipe otherwise.

use std::io::{BufRead, IsTerminal, Write};

use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::Editor;

/// What the user gave at a prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line (without its line end).
    Text(String),
    /// Ctrl-C: the line was cancelled.
    Interrupted,
    /// Ctrl-D at an empty line, or the end of the input.
    Eof,
}

/// A source of lines.
pub(crate) trait Prompter {
    /// Shows `prompt` and reads one line.
    fn read(&mut self, prompt: &str) -> std::io::Result<Line>;

    /// Whether a person types the lines at a terminal (who may be asked questions).
    fn is_terminal(&self) -> bool;
}

/// The terminal: rustyline with history (up arrow recalls earlier moves).
pub(crate) struct Terminal {
    editor: Editor<(), DefaultHistory>,
}

impl Terminal {
    pub(crate) fn new() -> std::io::Result<Self> {
        let config = rustyline::Config::builder().auto_add_history(true).build();
        let editor = Editor::with_config(config).map_err(to_io)?;
        Ok(Self { editor })
    }
}

impl Prompter for Terminal {
    fn read(&mut self, prompt: &str) -> std::io::Result<Line> {
        std::io::stdout().flush()?;
        match self.editor.readline(prompt) {
            Ok(l) => Ok(Line::Text(l)),
            Err(ReadlineError::Interrupted) => Ok(Line::Interrupted),
            Err(ReadlineError::Eof) => Ok(Line::Eof),
            Err(e) => Err(to_io(e)),
        }
    }

    fn is_terminal(&self) -> bool {
        true
    }
}

fn to_io(e: ReadlineError) -> std::io::Error {
    match e {
        ReadlineError::Io(e) => e,
        other => std::io::Error::other(other.to_string()),
    }
}

/// Lines from a pipe or file: the prompt and the line read are both printed, so that the
/// output reads as the session would on a terminal.
pub(crate) struct Piped<R> {
    reader: R,
}

impl<R: BufRead> Piped<R> {
    pub(crate) fn new(reader: R) -> Self {
        Self { reader }
    }
}

impl<R: BufRead> Prompter for Piped<R> {
    fn read(&mut self, prompt: &str) -> std::io::Result<Line> {
        let mut out = std::io::stdout().lock();
        out.write_all(prompt.as_bytes())?;
        let mut line = String::new();
        if self.reader.read_line(&mut line)? == 0 {
            out.write_all(b"\n")?;
            out.flush()?;
            return Ok(Line::Eof);
        }
        let line = line.trim_end_matches(['\n', '\r']).to_owned();
        writeln!(out, "{line}")?;
        out.flush()?;
        Ok(Line::Text(line))
    }

    fn is_terminal(&self) -> bool {
        false
    }
}

/// The prompter for this process: the line editor when stdin and stdout are terminals.
pub(crate) fn for_stdin() -> std::io::Result<Box<dyn Prompter>> {
    if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        Ok(Box::new(Terminal::new()?))
    } else {
        Ok(Box::new(Piped::new(std::io::stdin().lock())))
    }
}
