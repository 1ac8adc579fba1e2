//! How to check ([`CheckOptions`]): read by every part of the checker, below them all.

/// How to check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CheckOptions {
    /// After an illegal move with an unambiguous best repair, go on as if the repair had
    /// been written; later diagnostics of that line say they depend on it.
    pub assume_fixes: bool,
    /// Laps a move's never-ending decision may run before the check gives up on the game
    /// with `bao::budget::undecided` (`None`: exact, unbounded, the default). Every other
    /// answer under a budget is the exact one; a game's replay ([`Checked::replayed`](crate::Checked::replayed)) is
    /// exact up to the ply left undecided, not after it. Each position is then also given
    /// a full legal-move generation, so a budgeted check costs more per ply.
    pub lap_budget: Option<u64>,
    /// The language of the diagnostics' messages, labels and help (English by default);
    /// the codes and the JSON's keys are the same in every language.
    pub lang: bao_i18n::Lang,
}
