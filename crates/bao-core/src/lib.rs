//! `bao-core`: the rules engine for Bao la Kiswahili, Bao la Kete and Bao la Kujifunza.
//!
//! Vocabulary types ([`Side`], [`Row`], [`Pit`], [`Direction`], [`Sign`], [`Stage`],
//! [`BySide`]), [`Setup`] (unchecked) and [`Position`] (checked), [`Move`] in the canonical
//! notation, [`RuleSet`] with its presets, legal move generation and `play`, which returns
//! the next position and a [`MoveTrace`] of everything that happened inside the move, and
//! random playouts ([`Position::play_random_move`]; its speed is in the workspace's
//! `BENCHMARKS.md`). Never-ending moves are decided exactly; interactive callers can bound
//! the cost of a first-met long cycle with [`Position::legal_moves_within`] and
//! [`Position::is_legal_within`] ([`Undecided`]), or with [`Engine::within`].
//!
//! # The engine's state is the caller's
//! Nothing in the engine is global: the memo of long never-ending relay cycles, the
//! thresholds of their detection ([`RelayConfig`]) and the lap budget live in an [`Engine`]
//! value. A caller that plays many moves (a search, a replay, a rayon worker) holds one and
//! asks it ([`Engine::legal_moves`], [`Engine::play`], ... : the `Position` methods of the
//! same names); the plain `Position` methods take a fresh engine per call. Answers never
//! depend on the engine: only how many laps a long cycle's decision runs. Nothing is kept
//! per thread either: a lap budget is an engine's ([`Engine::within`]), and reaches the
//! calls made with that engine alone, on whatever thread they run.
//!
//! What `play`'s end test learned of the next position's moves (its note) saves the next
//! `legal_moves` of that position from running them again. [`Engine::play`] leaves it in
//! the engine, which finds it again by comparing positions; a caller that walks its own
//! positions can hold it instead, beside the position ([`Noted`], with
//! [`Engine::play_noted`] and [`Engine::legal_moves_noted`]), and the engine compares
//! nothing.
//!
//! ```
//! use bao_core::{Engine, Position, RuleSet};
//!
//! let mut engine = Engine::new();
//! let mut pos = Position::start(RuleSet::KISWAHILI);
//! for _ in 0..20 {
//!     let moves = engine.legal_moves(&pos);
//!     let Some(mv) = moves.first() else { break };
//!     pos = engine.play(&pos, mv).unwrap().0;
//! }
//! ```
//!
//! ```
//! use bao_core::{Position, RuleSet};
//!
//! let start = Position::start(RuleSet::KISWAHILI);
//! let moves = start.legal_moves();
//! assert_eq!(moves.len(), 4); // A6<* A6>* A7<* A7>*
//! let (next, trace) = start.play(&moves[0]).unwrap();
//! assert_eq!(next.total_seeds(), 64);
//! assert!(!trace.laps.is_empty());
//! ```
//!
//! # Playing moves
//! - [`Position::play`]: a move from outside (a player, a record): checked, with its
//!   [`MoveTrace`] (a [`LazyTrace`]: recorded only when read), or a [`PlayError`] saying
//!   why not.
//! - [`Position::play_unchecked`]: a move known to be legal (from
//!   [`Position::legal_moves`]), with its trace.
//! - [`Position::play_fast`]: a move known to be legal, without a trace: search, perft.
//! - [`Position::play_into`]: replaying a record move after move: checked, into one trace
//!   reused for every move, the end test left to the next move (or to
//!   [`Position::outcome`]).
//! - [`Position::play_random_move`] (in place) and [`Position::random_move`] (on a copy):
//!   playouts, a legal move chosen and played at once.
//!
//! [`Position::is_legal`] tests a move without playing it, [`Position::resolve`] reads a
//! written [`MoveSpec`], and [`perft`] counts the legal-move tree.
//!
//! # Illegal moves
//! A refusal is data, never prose: [`Position::play`] returns a [`PlayError`] (the move and
//! its [`IllegalReason`], whose [`rule`](IllegalReason::rule) is the `spec/rules.md`
//! identifier), and [`Position::resolve`] a [`ResolveError`] for a written [`MoveSpec`] that
//! stands for no single legal move. Setups are refused with [`SetupProblem`]s, rule-set specs
//! with a [`RuleSpecError`]. The sentences a player reads are `bao_validate::words`'.
//!
//! ```
//! use bao_core::{IllegalReason, MoveSpec, Position, ResolveError, RuleSet};
//!
//! let start = Position::start(RuleSet::KISWAHILI);
//! let written: MoveSpec = "A6>".parse().unwrap(); // `*` left out: no capture exists
//! let mv = start.resolve(&written).unwrap();
//! assert_eq!(mv.to_string(), "A6>*");
//! match start.resolve(&"A6*".parse().unwrap()) {
//!     Err(ResolveError::Ambiguous(moves)) => assert_eq!(moves.len(), 2),
//!     other => panic!("{other:?}"),
//! }
//! let err = start.play(&"B1<*".parse().unwrap()).unwrap_err();
//! assert_eq!(err.reason.rule(), "N1");
//! assert!(matches!(err.reason, IllegalReason::NamuaBackRow { .. }));
//! ```
//!
//! # Modules
//! Each module imports (by `use crate::...` or an inline `crate::` path) only modules on a
//! lower line; nothing imports upwards, so the module graph has no circle:
//! 1. `types` (sides, pits, moves), `rules` (rule sets), `undecided` ([`Undecided`]);
//! 2. `move_text` (written moves), `position` ([`Position`], [`Setup`]), `relay` (relays in
//!    their frame, the memo's table);
//! 3. `context` ([`Engine`], [`RelayConfig`], the end test's note), `trace` ([`MoveTrace`]),
//!    `json` (feature `serde`);
//! 4. `engine` (the run of one move: the lean loop, the runner, never-ending detection),
//!    `illegal` (refusals), `perft`;
//! 5. `pitset` (pit sets of the candidate rules), `play` (playing a move, the end test);
//!    `relay_tests` (tests only);
//! 6. `movegen` (candidates, the legal list, random moves), `takasia`;
//! 7. `legality` (one move's legality, `resolve`, `diagnose`), `budget` (the `_within`
//!    methods), `calls` ([`Engine`]'s questions).
//!
//! (Methods of [`Position`] are defined in the module of their layer, so a method call is
//! not an import.)
//!
//! # Feature flags
//! - `serde`: the position JSON of `spec/json.md` (module `json`).
//!
//! # Related crates
//! `bao-notation` reads and writes records, `bao-validate` checks them, `bao-export` draws
//! them, `bao-cli` is the `bao` command.
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod budget;
mod calls;
mod context;
mod engine;
mod illegal;
#[cfg(feature = "serde")]
pub mod json;
mod legality;
mod move_text;
mod movegen;
mod perft;
mod pitset;
mod play;
mod position;
mod relay;
#[cfg(test)]
mod relay_tests;
mod rules;
mod takasia;
mod trace;
mod types;
mod undecided;

pub use context::{Engine, Noted, RelayConfig};
pub use illegal::{IllegalReason, PlayError, ResolveError};
pub use move_text::{MoveSyntax, MoveText, MoveTextError, WrittenPit, MOVE_TEXT_WINDOW};
pub use movegen::MoveList;
pub use perft::perft;
pub use position::{
    EndReason, HandProblem, HouseProblem, HouseState, Outcome, Position, Setup, SetupError,
    SetupProblem, TakasiaProblem, TOTAL_SEEDS,
};
pub use rules::{
    EndCheck, EndlessMove, FrontRowGuard, HouseLap, Names, RuleOptionError, RuleSet, RuleSpecError,
    Takasia, UnknownPreset, Variant, OPTION_VALUES, PRESET_NAMES,
};
pub use trace::{Capture, Event, Lap, LapEnd, LapSource, LazyTrace, MoveTrace, NeverEnding};
pub use types::{
    BySide, Direction, Move, MoveKind, MoveSpec, ParsePitError, Pit, Row, Side, Sign, Stage, RING,
};
pub use undecided::Undecided;
