//! The one place the validator reads the engine's refusal of a move: the rule it names,
//! its message and never-ending cycle, for [`crate::codes::Code::for_rule`] and the
//! diagnostic's first line.

use bao_core::{NeverEnding, Position};
use bao_replay::Refusal;

use crate::words::move_list;

/// A refusal as the diagnostics read it.
#[derive(Debug, Clone)]
pub(crate) struct RefusalParts {
    /// The rule of `spec/rules.md` that forbids the move.
    pub(crate) rule: &'static str,
    /// Why, in words.
    pub(crate) message: String,
    /// The cycle of a move that never ends.
    pub(crate) never_ending: Option<NeverEnding>,
}

/// The rule, words and cycle of a refusal in `pos`.
pub(crate) fn refusal_parts(refusal: &Refusal, pos: &Position) -> RefusalParts {
    let names = pos.rules().names();
    let (rule, message, never_ending) = match refusal {
        Refusal::Engine(e) => (e.rule, e.message.clone(), e.never_ending),
        Refusal::BackRowNamua => (
            "N1",
            format!(
                "in {} the reserve seed goes into an occupied front-row pit, never the back row",
                names.namua
            ),
            None,
        ),
        Refusal::NoCapture => (
            "G6",
            format!(
                "no capture is possible here, so every move is a {}",
                names.takasa
            ),
            None,
        ),
        Refusal::NotLegal => (
            "G4",
            format!(
                "not a legal move here; the legal moves are {}",
                move_list(&pos.legal_moves())
            ),
            None,
        ),
    };
    RefusalParts {
        rule,
        message,
        never_ending,
    }
}
