//! `bao-notation`: the record format of Bao games.
//!
//! A record file holds any number of games. Each game has tag pairs, movetext (moves with
//! their numbers, NAGs and lap/capture annotations, comments, variations) and a result.
//! [`parse_record`] reads a text with error recovery: it never fails, and returns every game
//! it could read with every [`SyntaxError`] found, each with a byte span and a
//! `bao::syntax::*` code. [`write_record`] writes the canonical form. [`GameReader`] streams
//! games from any `io::Read`. The notation layer never decides legality: move tokens stay
//! tokens until `bao-replay` resolves them against a position.
//!
//! ```
//! use bao_notation::{parse_record, write_record, WriteOptions};
//!
//! let text = "[Event \"Demo\"]\n\n1. A6L* a5r* 1-0\n";
//! let parsed = parse_record(text);
//! assert!(parsed.errors.is_empty());
//! let game = &parsed.record.games[0].value;
//! let first = game.main_line().next().unwrap();
//! assert_eq!(first.token.value.to_string(), "A6<*");
//! assert_eq!(&text[first.token.span.range()], "A6L*");
//! let out = write_record(&parsed.record, &WriteOptions::default());
//! assert_eq!(out, "[Event \"Demo\"]\n\n1. A6<* a5>* 1-0\n");
//! ```
//!
//! The grammar is `spec/notation.md`.
//!
//! # Reading without building the record
//!
//! A [`Visitor`] receives what the parser reads (tags, moves, NAGs, annotations, comments,
//! variations, results, diagnostics) without a record being built: the way to scan large
//! files without the cost of building every game (BENCHMARKS.md has the figures;
//! [`visit_record`] for a text, [`visit_reader`] for a stream in bounded memory).
//! [`parse_record`]'s record is itself built by a visitor of the same events.
//!
//! ```
//! use bao_notation::{visit_record, GameResult, MoveNumber, MoveToken, Span, Spanned, Visitor};
//!
//! /// Counts the games South won and the moves of all games.
//! #[derive(Default)]
//! struct Tally {
//!     south_wins: usize,
//!     moves: usize,
//! }
//!
//! impl Visitor for Tally {
//!     fn move_token(&mut self, _: Option<Spanned<MoveNumber>>, _: Spanned<MoveToken>) {
//!         self.moves += 1;
//!     }
//!     fn end_game(&mut self, _: Span, result: Option<Spanned<GameResult>>) {
//!         if result.is_some_and(|r| r.value == GameResult::SouthWins) {
//!             self.south_wins += 1;
//!         }
//!     }
//! }
//!
//! let text = "[Event \"a\"]\n\n1. A6<* a5>* 1-0\n\n[Event \"b\"]\n\n1. A6<* (A7>*) *\n";
//! let mut tally = Tally::default();
//! visit_record(text, &mut tally);
//! assert_eq!((tally.south_wins, tally.moves), (1, 4));
//! ```
//!
//! # Many games from a stream
//! [`stream`] cuts a stream into games in bounded memory and works on them on every thread
//! of a rayon pool, handing the results back in file order ([`stream::map_chunks`]): what
//! `bao check`, `bao export` and the archive commands read large files with. A game's span
//! runs from the comments before its first tag to its result token, so the text a chunk
//! holds gives each game as written.
//!
//! # What the tags mean
//! [`meaning`] gives a game's tags their meaning: the rules it is played under, its start
//! position, its sign convention ([`Directions`]).
//!
//! # Related crates
//! The layers read one way: `bao-core` (the engine) → `bao-notation` (text) → `bao-replay`
//! (a game replayed once) → `bao-validate` (checks) and `bao-export` (outputs) → `bao-cli`.
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod ast;
pub mod date;
pub mod diagram;
mod dialect;
mod edit;
mod error;
mod grammar;
mod keep;
mod lexical;
mod limits;
mod line;
mod markup;
pub mod meaning;
mod position_string;
mod reader;
mod source;
mod span;
mod split;
mod steps;
pub mod stream;
mod visit;
mod writer;

pub use ast::{
    Annotation, AnnotationItem, Comment, CommentKind, CycleItem, Element, Game, GameResult,
    ItemKind, MoveItem, MoveNumber, MoveToken, Nag, PitRef, Record, Tag,
};
pub use dialect::{Directions, Notation, SignUse, UnknownDirections};
pub use edit::{apply_edits, Edit};
pub use error::{SourcedError, SyntaxCode, SyntaxError, SyntaxReport, SYNTAX_CODES};
pub use grammar::{is_tag_name, KNOWN_TAGS, MAX_VARIATION_DEPTH};
pub use keep::write_record_over;
pub use limits::Limits;
pub use line::{read_move_line, MoveLineError};
pub use markup::{ArrowMark, Evaluation, MarkColour, Markup, MarkupError, PitMark, MAX_EVAL_SEEDS};
pub use position_string::{ParsePositionError, PositionString};
pub use reader::{
    decode, parse_bytes, parse_bytes_with, parse_record, parse_record_with, visit_reader,
    visit_record, visit_record_with, ChunkParser, ChunkReader, Decoded, GameReader, Parsed,
    ParsedChunk, RawChunk, StreamedGame, DEFAULT_MAX_GAME_BYTES,
};
pub use source::{Place, SourceText};
pub use span::{Span, Spanned};
pub use visit::Visitor;
pub use writer::{write_game, write_record, write_tag, RecordWriter, WriteOptions};

/// Reads a record strictly: the first syntax error (warnings ignored) fails it.
impl std::str::FromStr for Record {
    type Err = SyntaxError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parsed = parse_record(s);
        match parsed.errors.into_iter().find(SyntaxError::is_error) {
            Some(e) => Err(e),
            None => Ok(parsed.record),
        }
    }
}
