//! The result of checking one game ([`GameCheck`]): what the game's checks (moves,
//! result) fill in and the record's checks read.

use bao_core::Outcome;
use bao_replay::ReplayedGame;

use crate::diagnostic::CheckDiagnostic;

/// The result of checking one game.
#[derive(Debug)]
pub(crate) struct GameCheck {
    pub(crate) diagnostics: Vec<CheckDiagnostic>,
    /// The game replayed.
    pub(crate) replayed: ReplayedGame,
    /// The number of the ply where the lap budget ran out, if it did: the replay from it
    /// on is not exact, and was not worded.
    pub(crate) undecided: Option<usize>,
}

impl GameCheck {
    /// The plies replayed and checked: under a lap budget, only those before the ply left
    /// undecided.
    pub(crate) fn plies_checked(&self) -> usize {
        let played = self.replayed.played_count();
        self.undecided.map_or(played, |k| played.min(k - 1))
    }

    /// The outcome at the end of the main line, if it replayed to its end.
    pub(crate) fn final_outcome(&self) -> Option<Option<Outcome>> {
        self.replayed.final_outcome()
    }
}
