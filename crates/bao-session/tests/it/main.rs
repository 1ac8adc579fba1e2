//! `Session` driven as a front end drives it: inputs in, replies and prompts out, the file
//! on disk checked after every step. No terminal is involved.
//!
//! - `setup`: the tag questions of a new record, answers given beforehand, asking or not;
//! - `moves`: moves, illegal moves, the questions a move leaves open;
//! - `commands`: the prompt commands;
//! - `files`: opening, resuming, leaving, what is on disk when.

/// Feeds line `$line` to session `$s` and asserts that its replies match the slice
/// pattern that follows (with its guard, if any); a failure shows them. Gives the replies.
macro_rules! assert_replies {
    ($s:expr, $line:expr, $($pattern:tt)+) => {{
        let replies = $crate::line(&mut $s, $line);
        assert!(matches!(&replies[..], $($pattern)+), "{replies:?}");
        replies
    }};
}

mod commands;
mod files;
mod moves;
mod setup;

use std::path::{Path, PathBuf};

use bao_session::{Input, Options, Prompt, Reply, Session};

/// The last moves of `fixtures/games/problem_position.bao`: South A5<, then North b4># wins.
pub(crate) const ENDGAME: &str =
    "0,1,1,0,2,0,0,0/1,0,0,0,1,1,0,2/1,4,5,4,0,5,12,1/3,1,1,9,0,4,5,0 0/0 S XX -";

/// A temporary directory and a record path in it.
pub(crate) fn temp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("game.bao");
    (dir, file)
}

/// Options that take every default, dated 2026.11.29.
pub(crate) fn defaults() -> Options {
    Options {
        take_defaults: true,
        today: "2026.11.29".to_owned(),
        ..Options::default()
    }
}

/// A started session on `path`.
pub(crate) fn started(path: &Path, options: Options) -> (Session, Vec<Reply>) {
    let mut s = Session::open(path, options).expect("the file opens");
    let replies = s.start().expect("the session starts");
    (s, replies)
}

/// Feeds a line and returns the replies.
pub(crate) fn line(s: &mut Session, text: &str) -> Vec<Reply> {
    s.handle(Input::Line(text)).expect("the line is taken")
}

/// The file's text.
pub(crate) fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("the record exists")
}

/// The move prompt as `12. South` / `12... North`.
pub(crate) fn move_prompt(s: &Session) -> String {
    match s.prompt() {
        Some(Prompt::Move { turn, side }) => match side {
            bao_core::Side::South => format!("{turn}. South"),
            bao_core::Side::North => format!("{turn}... North"),
        },
        other => panic!("not at the move prompt: {other:?}"),
    }
}

/// Whether the record text is accepted by the validator with no diagnostic.
pub(crate) fn checks_clean(path: &Path) -> bool {
    let text = read(path);
    let report = bao_validate::check_text("game.bao", text.into(), &Default::default());
    report.diagnostics.is_empty()
}
