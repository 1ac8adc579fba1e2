//! Errors that stop a command, and their exit codes.

use std::fmt;

/// An error that stops a command. Invalid input that a command can report and go past (a bad
/// line in `bao replay`) is not one of these: it is part of the command's output.
#[derive(Debug)]
pub(crate) enum CliError {
    /// Reading an input or writing the output failed.
    Io {
        /// What was being done (`cannot read x.jsonl`).
        what: String,
        /// The failure.
        source: std::io::Error,
    },
    /// An argument's value is invalid input (a position that cannot be read). Exit 1.
    Invalid {
        /// Which argument.
        argument: &'static str,
        /// Why.
        message: String,
    },
    /// The arguments ask for something the input does not have (`--ply 90` in a game of
    /// 40 plies). Exit 2.
    Usage(String),
    /// A bug: the engine contradicted itself. Exit 2.
    Internal(String),
}

/// A rejected position JSON in the checker's words (`impossible position: ...`); the
/// setup problems worded with the Kiswahili names, as they always were here.
pub(crate) fn position_json_error(e: &bao_core::json::PositionJsonError) -> String {
    use bao_core::json::PositionJsonProblem;
    use bao_validate::words;
    let names = bao_core::RuleSet::KISWAHILI.names();
    words::impossible_position(e.problems.iter().map(|p| match p {
        PositionJsonProblem::StageMismatch { stage, side, hand } => {
            words::stage_mismatch(*stage, *side, *hand, &names)
        }
        PositionJsonProblem::Setup(p) => words::setup_problem(p, &names),
    }))
}

impl CliError {
    pub(crate) fn io(what: impl Into<String>, source: std::io::Error) -> Self {
        Self::Io {
            what: what.into(),
            source,
        }
    }

    /// The process exit code for this error.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            Self::Invalid { .. } => 1,
            Self::Io { .. } | Self::Usage(_) | Self::Internal(_) => 2,
        }
    }

    /// Whether this is a write to a closed pipe (`bao replay x | head`): not an error.
    pub(crate) fn is_broken_pipe(&self) -> bool {
        matches!(self, Self::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { what, source } => write!(f, "{what}: {source}"),
            Self::Invalid { argument, message } => write!(f, "{argument}: {message}"),
            Self::Usage(message) => f.write_str(message),
            Self::Internal(message) => write!(f, "internal error: {message}"),
        }
    }
}

impl std::error::Error for CliError {}

impl miette::Diagnostic for CliError {
    /// Simple usage errors and invalid arguments are headed by their message alone; a failed
    /// read or write and an internal error by their code.
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match self {
            Self::Io { .. } => Some(Box::new("bao::io::failed")),
            Self::Invalid { .. } | Self::Usage(_) => None,
            Self::Internal(_) => Some(Box::new("bao::io::internal")),
        }
    }
}

/// A read error from the streaming reader, before it is known which input it came from
/// (the callers name the input).
impl From<std::io::Error> for CliError {
    fn from(source: std::io::Error) -> Self {
        Self::Io {
            what: String::new(),
            source,
        }
    }
}
