//! `bao-export`: pictures of Bao positions: SVG board diagrams, plain-text diagrams and PNG.
//!
//! [`board_svg`] draws a [`Position`](bao_core::Position) as an SVG 1.1 document; an
//! [`Overlay`] built from a ply's [`MoveTrace`](bao_core::MoveTrace) adds its start pit and
//! direction, numbered lap ends, captures with the path of the captured seeds, the takasia it
//! set, and the change in every pit. [`board_text`] draws the same board in ASCII for
//! terminals and comments, and `board_png` (the `png` feature, off by default) renders an
//! SVG to PNG with `resvg`.
//!
//! ```
//! use bao_core::{Position, RuleSet};
//! use bao_export::{board_svg, board_text, Overlay, SvgOptions, TextOptions, Theme};
//!
//! let start = Position::start(RuleSet::KISWAHILI);
//! let mv = start.legal_moves()[0];
//! let (next, trace) = start.play(&mv).unwrap();
//!
//! let opts = SvgOptions { theme: Theme::Dark, show_changes: true, ..SvgOptions::default() };
//! let svg = board_svg(&next, &opts, Some(&Overlay::from_trace(&start, &trace)));
//! assert!(svg.starts_with("<?xml"));
//! // The same input gives the same bytes.
//! assert_eq!(svg, board_svg(&next, &opts, Some(&Overlay::from_trace(&start, &trace))));
//!
//! println!("{}", board_text(&next, &TextOptions::default()));
//! ```
//!
//! Determinism: every coordinate lies on an integer grid, ids come from pit names, and
//! nothing depends on hashing, time or the machine. PNGs are drawn with fonts built into
//! the crate (see `PngOptions`), so their pixels are the same on every machine too.
//!
//! # Features
//! - `png` (off by default): `board_png` and `PngOptions`, through `resvg`. Everything else
//!   (the SVG and text boards, JSON, HTML, `escape_html`) builds without it.
//! - `pdf` (off by default, turns on `png`): `booklet_pdf`, games as a PDF booklet with
//!   diagrams (svg2pdf) and text (pdf-writer, the bundled fonts embedded).
//!
//! [`game_html`] makes one self-contained HTML page to step through a game: every frame
//! (main line and variations) drawn by [`board_svg`] and embedded, with the move list,
//! comments and a small script for buttons and arrow keys.
//!
//! [`record_json`] turns a replayed record (`bao-replay`) into the versioned JSON model of
//! [`json`]: every game with its rules, start, plies with traces and positions, and
//! variations.
//!
//! # Related crates
//! The outputs layer: it reads games as `bao-replay` replayed them (once, for every
//! surface) and never replays or checks a game itself; `bao-core` gives the positions and
//! traces. `bao-cli` calls these functions for `bao show` and `bao export
//! json|svg|png|html`. Inside, the modules read one way: `html` and `json` use `svg`, which
//! uses `text`, `overlay` and `layout`.
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

#[cfg(feature = "png")]
mod animation;
mod document;
mod frames;
mod html;
pub mod json;
mod layout;
mod overlay;
#[cfg(feature = "pdf")]
mod pdf;
#[cfg(feature = "png")]
mod png;
mod svg;
mod text;
mod writer;

#[cfg(feature = "png")]
pub use animation::{frames_gif, GifOptions};
pub use document::{LinePath, LinePathError, NoSuchLine, ReplayError, Step};
pub use frames::{game_line, main_line, player_names, result_words, GameLine};
pub use html::{escape_html, game_html, HtmlOptions};
pub use json::{
    record_from_json, record_json, record_json_pretty, replayed_game_json, GameJson, JsonOptions,
    RecordJson, RecordJsonWriter, SCHEMA_VERSION,
};
pub use overlay::{CaptureMark, LapMark, Overlay};
#[cfg(feature = "pdf")]
pub use pdf::{booklet_pdf, problems_pdf, BookletRecord, Paper, PdfOptions, SheetProblem};
#[cfg(feature = "png")]
pub use png::{board_png, PngOptions};
pub use svg::{board_svg, SeedStyle, SvgOptions, Theme};
pub use text::{board_text, LastMove, TextOptions};

/// An export that failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The SVG could not be read.
    #[error("cannot read the SVG: {0}")]
    Svg(String),
    /// The picture could not be drawn (zero or too large a size).
    #[error("cannot render the picture: {0}")]
    Render(String),
    /// The PNG could not be encoded.
    #[error("cannot encode the PNG: {0}")]
    Png(String),
    /// A game of the record cannot be replayed (export only valid records).
    #[error("cannot replay the record: {0}")]
    Replay(ReplayError),
    /// A line asked for (`5.2`) that the game does not have.
    #[error("{0}")]
    NoSuchLine(NoSuchLine),
    /// An exported JSON cannot be turned back into a record.
    #[error("cannot import the JSON: {0}")]
    Import(String),
    /// The JSON could not be written.
    #[error("cannot write the JSON: {0}")]
    Json(String),
}
