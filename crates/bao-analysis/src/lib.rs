//! `bao-analysis`: search on top of the Bao rules engine (`bao-core`), with no rules of its
//! own: moves come from [`Position::legal_moves`](bao_core::Position::legal_moves) (under a
//! lap budget) and positions from [`Position::play_fast`](bao_core::Position::play_fast).
//!
//! - [`Searcher`]: the evaluating search (iterative deepening PVS, a transposition table
//!   over Zobrist keys, killer and history move ordering, win/loss scores with distance),
//!   for playing and annotating. Deterministic for a fixed depth or node count.
//! - [`Solver`]: exact proofs within a horizon: wins, losses, every winning first move.
//! - [`evaluate`]: the static evaluation, in centi-seeds.
//! - [`search_lines`] (several best lines), [`choose_at_level`] (a weaker player, levels 1
//!   to 20) and [`time_for_move`] (thinking time on a clock).
//!
//! `spec/engine.md` describes the search, the evaluation, the protocol of `bao engine` and
//! what a search does with a never-ending move it cannot decide quickly.
//!
//! ```
//! use bao_analysis::{Limits, Searcher, Solver, Verdict};
//! use bao_core::{Position, RuleSet};
//!
//! let start = Position::start(RuleSet::KISWAHILI);
//! let report = Searcher::new(16).search(&start, Limits { depth: Some(3), ..Limits::default() }, |_| {});
//! assert!(start.legal_moves().contains(&report.best().unwrap()));
//! // Nothing is forced within two plies of the start.
//! assert_eq!(Solver::new().solve(&start, 2, false).verdict, Verdict::Unknown);
//! ```
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod eval;
mod key;
mod lines;
mod node;
mod search;
mod solve;

pub use eval::{evaluate, evaluate_with, Weights, SEED};
pub use key::{zobrist, Key};
pub use lines::{
    choose_at_level, level_depth, level_margin, search_lines, time_for_move, FULL_STRENGTH,
    MAX_LINES,
};
pub use node::{
    expand, expand_exact, expand_exact_with, expand_with, Expansion, SEARCH_LAP_BUDGET,
};
pub use search::{Limits, Report, Score, Searcher, MAX_DEPTH};
pub use solve::{Solution, Solver, Verdict, WinningMove};
