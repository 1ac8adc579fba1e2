//! `bao-replay`: a parsed game replayed once on the engine.
//!
//! The layers of `bao` read one way: text (`bao-notation` parses a record and gives its tags
//! their meaning) → replay (this crate) → checks (`bao-validate` words the problems found
//! here) and outputs (`bao-export` draws and serialises the replayed plies) → the `bao`
//! binary. This crate is the only place a game is replayed: [`replay_game`] turns one
//! [`Game`](bao_notation::Game) into a [`ReplayedGame`] holding, for every ply of the main line and of every
//! variation, the token's span, the position before, the move, its trace, the position
//! after, the engine's annotation items, and the typed [`Problem`]s of the ply (the
//! engine's refusal, a move after the end, a false `**` or `#`, an annotation that
//! disagrees). Nothing here is worded: the validator does that.
//!
//! A [`ReplayedGame`] owns its data and borrows nothing from the game, so a stream of games
//! can be replayed one by one and each dropped when done.
//!
//! ```
//! use bao_notation::parse_record;
//! use bao_replay::{replay_game, Problem};
//!
//! // North is to move at ply 2: `A5<*` is no move of his.
//! let parsed = parse_record("1. A6<* A5<* a6<* *\n");
//! let game = &parsed.record.games[0].value;
//! let replayed = replay_game(game, None);
//! let plies = &replayed.main.plies;
//! // The token after the refused one is not read.
//! assert_eq!(plies.len(), 2);
//! assert_eq!(plies[0].played().unwrap().mv.to_string(), "A6<*");
//! assert!(matches!(plies[1].problems()[0], Problem::Refused { .. }));
//! ```
//!
//! An [`Observer`] sees every ply as it is read, with the line around it; the validator
//! words the problems there and, with `--assume-fixes`, answers a refused ply with the
//! [`Repair`] to assume.
//!
//! Every engine call of a replay is made with one `bao_core::Engine`: a fresh one
//! ([`replay_game`]), or the caller's ([`replay_game_in`]), whose lap budget then bounds
//! the replay and its observer, which is handed the same engine, on whatever thread.
//!
//! The modules read one way: `walk` (the replay: [`replay_game`]) uses `model` (the
//! replayed game as data), `read` (one token in one position: [`written_spec`]; the move
//! it stands for is bao-core's `Position::resolve`) and `items` (a move's annotation items).
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod items;
mod model;
mod read;
mod tree;
mod walk;

pub use items::{
    agrees, agrees_written, annotation_agrees, annotation_agrees_move, engine_annotation,
    engine_items, Disagreement, ItemList,
};
pub use model::{
    Assumption, InLine, LineEnd, Observer, Opening, OpeningProblem, Past, Played, Ply, Problem,
    Repair, ReplayedGame, ReplayedLine, Source, Variation,
};
pub use read::{legal_move, legal_move_in, main_line_replays, written_spec, NoSuchPit};
pub use tree::{spell, spell_token, Document, Line, MoveNode, Node, Nodes, Walk};
pub use walk::{replay_game, replay_game_in, replay_game_with, ReplayOptions};
