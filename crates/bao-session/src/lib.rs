//! `bao-session`: a live game of Bao being recorded.
//!
//! A [`Session`] owns a record file and the game being recorded in it. It takes one
//! [`Input`] at a time (a line as typed, a parsed [`Command`], a cancel, a leave) and
//! returns [`Reply`] values: data, not text. `bao record` renders them on a terminal; a web
//! front end can drive the same session over HTTP.
//!
//! - The file is the canonical text of the record at every moment: each accepted ply (and
//!   every other change) is written and `fsync`'ed before the reply that reports it, an
//!   unfinished game ends with the result `*`, and `bao check` accepts the file whenever it
//!   is looked at. A change that only adds text at the end is written in place; any other
//!   goes through a temporary file and a rename ([`durable`]).
//! - A new file starts with questions for the tags (each with its default, `?` as `bao
//!   new` writes it; [`Answers`] given beforehand are not asked); a file holding an
//!   unfinished game resumes it; a file whose match is not decided starts the match's next
//!   game; any other finished file reopens its last game ([`Reply::Reopened`]).
//! - After a game's end the session waits at [`Prompt::Finished`]: `undo` takes the result
//!   back ([`Reply::ResultTakenBack`]), as it does at a match's next game before its first
//!   ply.
//! - Moves are read as `bao check` reads them (canonical or K.I.B.A. dialect, the
//!   `Directions` tag honoured). An illegal move is refused with the validator's
//!   diagnostics and the legal moves; a move that leaves a decision open (which kichwa,
//!   which direction, stop at the house or safari) is completed by a [`Choice`]. A move
//!   written with its sign leaves nothing open (`A2<` is the stop, `A2<+` the safari).
//! - Whether the session may ask is the front end's to say ([`Asking`]): a session that
//!   may not ask takes every default, refuses a move that leaves a decision open and ends a
//!   game at `resign`, `time` or `draw` without a [`Confirm`]ation. A line that is a move
//!   or a command given at a question drops it ([`Reply::QuestionDropped`]); a reply that
//!   rejects its line says so ([`Reply::rejects_line`]).
//! - The prompt commands ([`Command`]) are read from one table, which [`Help`] is written
//!   from too.
//!
//! ```
//! use bao_session::{Input, Options, Prompt, Question, Reply, Session};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("game.bao");
//! let mut session = Session::open(&path, Options::default()).unwrap();
//! let replies = session.start().unwrap();
//! assert!(matches!(replies[0], Reply::NewRecord));
//! assert!(matches!(
//!     session.prompt(),
//!     Some(Prompt::Question { question: Question::Event, .. })
//! ));
//! session.handle(Input::Line("Club night")).unwrap();
//! let replies = session.handle(Input::Leave).unwrap();
//! assert!(matches!(replies[0], Reply::Left(_)));
//! assert!(session.prompt().is_none());
//! assert!(!path.exists());
//! ```
//!
//! The library never prints.
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod command;
pub mod durable;
mod error;
mod game;
mod reply;
mod score;
mod session;
mod setup;
mod store;

/// The Date tag's check and today's date: bao-notation's ([`bao_notation::date`]).
pub use bao_notation::date::{today, valid_date};
pub use command::{Command, Help, HelpEntry, SideName};
pub use error::{OpenError, SessionError};
pub use reply::{
    AnswerProblem, Board, Choice, ChoiceOption, Confirm, Decision, Ending, GameOver, Left,
    MatchScore, OptionKind, Played, Prompt, Question, Refusal, Reopened, Reply,
};
pub use session::{Asking, GameState, Input, Options, PlyAnswer, Session};
pub use setup::{Answers, MatchChoice};
