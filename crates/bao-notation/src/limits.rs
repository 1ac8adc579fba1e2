//! The limits that keep hostile input cheap: each is a diagnostic with a code, never a crash.

/// The limits the parser and the streaming reader enforce. Each one exceeded is an error
/// diagnostic with its own code, located in the text; the rest of the input is still read.
///
/// The defaults are far above any real record (see `RELIABILITY.md`) and low enough that one
/// game costs little time and memory to parse, check and render:
///
/// | limit | default | code |
/// |---|---|---|
/// | [`max_game_bytes`](Limits::max_game_bytes) | 4 MiB | `bao::syntax::game_too_long` |
/// | [`max_tag_bytes`](Limits::max_tag_bytes) | 4 KiB | `bao::syntax::tag_too_long` |
/// | [`max_comment_bytes`](Limits::max_comment_bytes) | 64 KiB | `bao::syntax::comment_too_long` |
/// | [`max_plies`](Limits::max_plies) | 10 000 | `bao::syntax::too_many_plies` |
/// | [`max_errors`](Limits::max_errors) | 100 | `bao::syntax::too_many_errors` |
///
/// Variations nest at most [`MAX_VARIATION_DEPTH`](crate::MAX_VARIATION_DEPTH) deep
/// (`bao::syntax::variation_too_deep`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest game, in bytes of text (more exactly: the longest chunk of text that
    /// starts at a tag line, see `spec/notation.md`). A longer one is skipped unread.
    pub max_game_bytes: usize,
    /// The longest tag value, in bytes.
    pub max_tag_bytes: usize,
    /// The longest comment, in bytes between its delimiters.
    pub max_comment_bytes: usize,
    /// The most moves in one game, main line and variations together. The moves after the
    /// limit, and everything else up to the result, are skipped.
    pub max_plies: usize,
    /// The most syntax diagnostics reported for one game; the rest are counted in one
    /// `too_many_errors` diagnostic.
    pub max_errors: usize,
}

impl Limits {
    /// The default limits.
    pub const DEFAULT: Self = Self {
        max_game_bytes: 4 << 20,
        max_tag_bytes: 4 << 10,
        max_comment_bytes: 64 << 10,
        max_plies: 10_000,
        max_errors: 100,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}
