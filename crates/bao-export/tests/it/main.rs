//! Integration tests of `bao-export`, one binary with a module per concern.

/// The JSON export: snapshots, and every export against spec/game.schema.json.
mod json;
/// Finding interesting plies by playing seeded pseudo-random games.
mod plies;
/// PNG rendering: size and non-emptiness (pixels depend on the fonts found).
mod png;
/// Snapshots of the SVG diagrams.
mod svg;
/// Snapshots of the text diagrams.
mod text;
/// Every SVG is well formed for `usvg`, and output is byte-identical across calls.
mod validity;
