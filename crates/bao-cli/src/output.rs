//! Where a streaming command's output goes: stdout, or a file written atomically that
//! appears whole when done ([`Output`]), and the games written to it ([`Written`]).

use std::io::{BufWriter, Write};
use std::path::Path;

use bao_archive::text::GameText;
use bao_session::durable::{AtomicFile, Replace};

use crate::error::CliError;

/// Writes a command's whole output to `path` (atomically) or, without one, to stdout.
pub(crate) fn emit(path: Option<&Path>, bytes: &[u8]) -> Result<(), CliError> {
    match path {
        Some(p) => crate::io::save(p, bytes),
        None => std::io::stdout()
            .lock()
            .write_all(bytes)
            .map_err(|e| CliError::io("cannot write to stdout", e)),
    }
}

/// Where a command's output goes: stdout, or a file that appears whole when done.
pub(crate) struct Output {
    sink: BufWriter<Sink>,
    name: String,
}

enum Sink {
    Stdout(std::io::Stdout),
    File(AtomicFile),
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Self::Stdout(s) => s.write(buf),
            Self::File(f) => f.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Self::Stdout(s) => s.flush(),
            Self::File(f) => f.flush(),
        }
    }
}

impl Output {
    /// Output to `path` (atomically, replacing it) or to stdout.
    pub(crate) fn new(path: Option<&Path>) -> Result<Self, CliError> {
        let (sink, name) = match path {
            Some(p) => (
                Sink::File(
                    AtomicFile::create(p, Replace::Yes)
                        .map_err(|e| CliError::io(format!("cannot write {}", p.display()), e))?,
                ),
                p.display().to_string(),
            ),
            None => (Sink::Stdout(std::io::stdout()), "stdout".to_owned()),
        };
        Ok(Self {
            sink: BufWriter::with_capacity(1 << 16, sink),
            name,
        })
    }

    /// Writes bytes.
    pub(crate) fn write(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        self.sink
            .write_all(bytes)
            .map_err(|e| CliError::io(format!("cannot write to {}", self.name), e))
    }

    /// Writes a game's text after the `written` ones before it (a blank line between games,
    /// in the line end of the game before), and counts it.
    pub(crate) fn game(&mut self, text: &GameText, written: &mut Written) -> Result<(), CliError> {
        if let Some(end) = written.line_end {
            self.write(end.as_bytes())?;
        }
        self.write(text.text.as_bytes())?;
        written.games += 1;
        written.line_end = Some(text.line_end);
        Ok(())
    }

    /// Flushes, and puts a file in place.
    pub(crate) fn finish(self) -> Result<(), CliError> {
        let name = self.name;
        let err = |e| CliError::io(format!("cannot write to {name}"), e);
        match self.sink.into_inner().map_err(|e| err(e.into_error()))? {
            Sink::Stdout(mut s) => s.flush().map_err(err),
            Sink::File(f) => f.commit().map_err(err),
        }
    }
}

/// The games an [`Output`] has written, and the line end of the last one.
#[derive(Debug, Default)]
pub(crate) struct Written {
    games: u64,
    line_end: Option<&'static str>,
}

impl Written {
    /// How many games were written.
    pub(crate) const fn games(&self) -> u64 {
        self.games
    }
}
