//! Integration tests of `bao-export`, one binary with a module per concern.

/// The `book` theme: snapshots and the no-overlap layout rule.
mod book;
/// Diagrams of lines, markup, results, layout, and the PNG options.
mod diagrams;
/// The animated GIF: size for a phone, frames decoded against the diagrams they show.
#[cfg(feature = "png")]
mod gif;
/// The HTML viewer: frame links through variations, frames equal to the SVG export.
mod html;
/// The JSON export: snapshots, and every export against spec/game.schema.json.
mod json;
/// Finding interesting plies by playing seeded pseudo-random games.
mod plies;
/// PNG rendering: size, errors, and pixels pinned by the bundled fonts (the `png` feature).
#[cfg(feature = "png")]
mod png;
/// Snapshots of the SVG diagrams.
mod svg;
/// Snapshots of the text diagrams.
mod text;
/// Every SVG is well formed for `usvg`, and output is byte-identical across calls.
mod validity;
