//! `bao-lsp`: a language server for `.bao` records (`bao lsp`).
//!
//! The server speaks the Language Server Protocol over any [`lsp_server::Connection`]
//! (stdio for `bao lsp`, an in-memory pair in the tests). It shows the same diagnostics as
//! `bao check` (the same code path: `bao-validate`'s streamed check, chunk by chunk), and
//! on top of them:
//!
//! - **hover**: on a move, the board after it (the text diagram of `bao-export`), what the
//!   move did and the legal alternatives; on a tag, its meaning; on a diagnostic, its rule;
//! - **completion**: in movetext the legal moves at that point (captures first), each with
//!   what it does; in a tag pair the tag names and values;
//! - **code actions**: each diagnostic's repair as an edit, the result the game reached, the
//!   `Directions` tag the moves need, the engine's annotations;
//! - **formatting** (`bao fmt`), **document symbols**, **folding**, **inlay hints** (off
//!   by default) and **semantic tokens** (by range for any document, whole up to
//!   [`Config::semantic_tokens_full_limit`]).
//!
//! Latency is bounded: every engine call runs under a lap budget ([`Config::lap_budget`]);
//! a move left undecided is the diagnostic `bao::budget::undecided`, never a wait. A change
//! re-checks only the games it touched, and keeps the other games' diagnostics in order
//! without merging the whole file again. A request cancelled with `$/cancelRequest`
//! is answered `RequestCanceled`, one whose document changes `ContentModified`, also while
//! it runs: the loops over a document's games poll the connection without blocking, keep
//! what arrives in order for later, and stop. Changes queued together are checked once, for
//! the latest version, and diagnostics made stale by a change are not published.
//!
//! ```no_run
//! # fn main() -> Result<(), bao_lsp::ServerError> {
//! bao_lsp::run_stdio()
//! # }
//! ```
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod actions;
mod board;
mod cancel;
mod complete;
mod diagnostics;
mod document;
mod format;
mod hover;
mod outline;
mod server;
mod stdio;
mod text;
mod workspace;

pub use document::Document;
pub use server::{run, run_stdio, Config, ServerError, SEMANTIC_TOKENS_FULL_LIMIT};
