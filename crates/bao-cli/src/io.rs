//! Inputs (a path, or `-` for stdin) and output to stdout.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::error::CliError;

/// A file argument: a path, or `-` for stdin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Input {
    /// Standard input.
    Stdin,
    /// A file.
    Path(PathBuf),
}

impl Input {
    /// Reads a command-line value: `-` is stdin.
    pub(crate) fn parse(s: &str) -> Result<Self, String> {
        Ok(if s == "-" {
            Self::Stdin
        } else {
            Self::Path(PathBuf::from(s))
        })
    }

    /// The name used in messages.
    pub(crate) fn name(&self) -> String {
        match self {
            Self::Stdin => "stdin".to_owned(),
            Self::Path(p) => p.display().to_string(),
        }
    }

    /// Opens the input for reading on another thread (a large record read as it is
    /// checked).
    pub(crate) fn open_send(&self) -> Result<Box<dyn Read + Send>, CliError> {
        Ok(match self {
            Self::Stdin => Box::new(io::stdin()),
            Self::Path(p) => Box::new(File::open(p).map_err(|e| self.read_error(e))?),
        })
    }

    /// Opens the input for buffered reading.
    pub(crate) fn open(&self) -> Result<Box<dyn BufRead>, CliError> {
        Ok(match self {
            Self::Stdin => Box::new(BufReader::new(io::stdin())),
            Self::Path(p) => {
                let file = File::open(p).map_err(|e| self.read_error(e))?;
                Box::new(BufReader::new(file))
            }
        })
    }

    /// Reads the whole input.
    pub(crate) fn read_all(&self) -> Result<Vec<u8>, CliError> {
        let mut bytes = Vec::new();
        self.open()?
            .read_to_end(&mut bytes)
            .map_err(|e| self.read_error(e))?;
        Ok(bytes)
    }

    /// Reads the whole input as UTF-8 text.
    pub(crate) fn read_string(&self) -> Result<String, CliError> {
        let mut text = String::new();
        self.open()?
            .read_to_string(&mut text)
            .map_err(|e| self.read_error(e))?;
        Ok(text)
    }

    /// A read error of this input, named after it.
    fn read_error(&self, e: io::Error) -> CliError {
        CliError::io(format!("cannot read {}", self.name()), e)
    }
}

// Durable writes live with the record file of `bao record` (bao-session), which needs them
// too; every command that writes a file uses them.
pub(crate) use bao_session::durable::{write_atomic, write_file, AtomicFile, Replace};

/// Writes `bytes` to `path` atomically (see [`write_atomic`]): readers never see half a
/// file, and a killed run leaves the old file intact. A failure is named after the path.
pub(crate) fn save(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    write_atomic(path, bytes)
        .map_err(|e| CliError::io(format!("cannot write {}", path.display()), e))
}
