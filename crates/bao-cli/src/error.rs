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
    let names = bao_core::RuleSet::KISWAHILI.names();
    bao_validate::words::impossible_position(e.problems.iter().map(|p| match p {
        PositionJsonProblem::Setup(p) => bao_validate::words::setup_problem(p, &names),
        other => other.to_string(),
    }))
}

impl CliError {
    pub(crate) fn io(what: impl Into<String>, source: std::io::Error) -> CliError {
        CliError::Io {
            what: what.into(),
            source,
        }
    }

    /// The process exit code for this error.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            CliError::Invalid { .. } => 1,
            CliError::Io { .. } | CliError::Usage(_) | CliError::Internal(_) => 2,
        }
    }

    /// Whether this is a write to a closed pipe (`bao replay x | head`): not an error.
    pub(crate) fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Io { what, source } => write!(f, "{what}: {source}"),
            CliError::Invalid { argument, message } => write!(f, "{argument}: {message}"),
            CliError::Usage(message) => f.write_str(message),
            CliError::Internal(message) => write!(f, "internal error: {message}"),
        }
    }
}

impl std::error::Error for CliError {}

impl miette::Diagnostic for CliError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(match self {
            CliError::Io { .. } => "bao::io::failed",
            CliError::Invalid { .. } => "bao::io::invalid_argument",
            CliError::Usage(_) => "bao::io::usage",
            CliError::Internal(_) => "bao::io::internal",
        }))
    }
}
