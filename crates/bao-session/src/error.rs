//! Why a session cannot start or go on.

use bao_validate::CheckReport;

use crate::reply::{AnswerProblem, Question};

/// Why a record file cannot be opened for recording.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The file exists but cannot be read.
    #[error("cannot read the record")]
    Read(#[source] std::io::Error),
    /// The file is not a valid record; it is left as it is.
    #[error("the file is not a valid record")]
    Invalid(Box<CheckReport>),
    /// The file, or a temporary file beside it, cannot be written.
    #[error("cannot write the record")]
    Write(#[source] std::io::Error),
}

/// Why a session stopped with an error (what was saved before stays saved).
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The record could not be written.
    #[error("cannot write the record")]
    Write(#[source] std::io::Error),
    /// An answer given beforehand (an option, or a default taken because the session may
    /// not ask) does not do.
    #[error("{question}: {problem}")]
    Answer {
        /// The question it answers.
        question: Question,
        /// Why it does not do.
        problem: AnswerProblem,
    },
    /// A match between a player and himself.
    #[error("a match needs two players with different names (both are `{name}`)")]
    SamePlayers {
        /// The name given for both.
        name: String,
    },
    /// The start position given is not valid under the game's rules.
    #[error("not a valid start position for this rule set")]
    BadPosition,
    /// The file holds finished games only, and no match that goes on. (No longer
    /// returned: such a file's last game is opened again, [`Reply::Reopened`].)
    ///
    /// [`Reply::Reopened`]: crate::Reply::Reopened
    #[error("the record holds finished games only")]
    FinishedGamesOnly,
    /// A game the validator accepted does not replay (a bug).
    #[error("the game does not replay{}", .ply.map_or(String::new(), |p| format!(" at ply {p}")))]
    Replay {
        /// The ply that failed (`None`: the rules or start).
        ply: Option<usize>,
    },
    /// A legal move did not play (a bug).
    #[error("a legal move did not play: {0}")]
    Engine(#[source] bao_core::PlayError),
}
