//! The tree-sitter grammar of Bao records (`.bao`, spec/notation.md), as editors read it:
//! the grammar, its generated parser and its queries live in `editors/tree-sitter-bao` (the
//! Helix and Neovim packages load them from there); this crate compiles the committed
//! parser and gives it to the `tree-sitter` crate, so that the grammar is tested on every
//! fixture without the tree-sitter generator.
//!
//! ```
//! let mut parser = tree_sitter::Parser::new();
//! parser.set_language(&tree_sitter_bao::LANGUAGE.into()).unwrap();
//! let tree = parser.parse("1. A6L* a5l 1-0\n", None).unwrap();
//! assert!(!tree.root_node().has_error());
//! ```

use tree_sitter_language::LanguageFn;

#[allow(unsafe_code)]
extern "C" {
    fn tree_sitter_bao() -> *const ();
}

/// The `.bao` language: `tree_sitter::Language::from(LANGUAGE)` (or `.into()`).
#[allow(unsafe_code)]
// SAFETY: `tree_sitter_bao` is the generated parser's entry point (src/parser.c), which
// returns a pointer to its static `TSLanguage`.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_bao) };

/// The node kinds of the grammar (`src/node-types.json`).
pub const NODE_TYPES: &str = include_str!("../../../editors/tree-sitter-bao/src/node-types.json");

/// The highlight query (`queries/highlights.scm`, the capture names of tree-sitter's
/// highlighter and Neovim).
pub const HIGHLIGHTS_QUERY: &str =
    include_str!("../../../editors/tree-sitter-bao/queries/highlights.scm");

/// The fold query (`queries/folds.scm`): games, variations and comments.
pub const FOLDS_QUERY: &str = include_str!("../../../editors/tree-sitter-bao/queries/folds.scm");

/// The Helix package's highlight query (`editors/helix/queries/bao/highlights.scm`): the
/// same patterns with Helix's scope names.
pub const HELIX_HIGHLIGHTS_QUERY: &str =
    include_str!("../../../editors/helix/queries/bao/highlights.scm");
