//! `bao-validate`: checks Bao records, wording the problems of their replay.
//!
//! Every game of a record, and every variation from its branch point, is replayed once by
//! `bao-replay` under the game's rules (the `RuleSet` tag's preset, default `kiswahili`,
//! with the `Rules` tag's overrides) from the `Position` tag or the start position; this
//! crate words what the replay finds. Every illegal move, annotation
//! that disagrees with the engine, and result, termination or match inconsistency becomes a
//! [`CheckDiagnostic`] with a `bao::<area>::<slug>` code ([`ALL_CODES`]), labels into the
//! record text, a link to the rule and help that states the rule and suggests a repair.
//! [`CheckReport`] carries the text once and every diagnostic (syntax ones included) as
//! related diagnostics.
//!
//! ```
//! use bao_validate::{check_text, CheckOptions};
//!
//! let report = check_text("demo.bao", "1. A6<* *\n".into(), &CheckOptions::default());
//! assert!(report.diagnostics.is_empty());
//! let report = check_text("bad.bao", "1. A5<* *\n".into(), &CheckOptions::default());
//! assert_eq!(report.diagnostics[0].code(), "bao::illegal::namua_placement");
//! ```
//!
//! The library never prints and does not enable miette's `fancy` feature; `bao check`
//! renders the reports.
//!
//! Its modules read one way: `moves` (the diagnostics of a game's tags and plies, the
//! replay's observer) and `record` (result, termination, matches) use `plies` (repairs
//! that look past the written move), which uses `suggest` (the legal moves ranked as
//! readings of a token); `diagnostic`, `codes` and `words` are the vocabulary they
//! share; `annotate` writes a record back from its replay.
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod annotate;
mod codes;
mod diagnostic;
pub mod fix;
mod game_check;
pub mod json;
mod moves;
mod numbers;
mod options;
mod plies;
mod record;
pub mod stream;
mod suggest;
mod suggest_earlier;
pub mod words;

use std::sync::Arc;

use bao_notation::meaning::is_game;
use bao_notation::{parse_record, Game, Parsed, Record};
use bao_replay::ReplayedGame;

pub use annotate::{
    annotated_chunk, annotation_edits, items_text, spelled_out_record, ChunkText, ChunkTexts,
};
pub use bao_replay::{agrees, engine_items, Disagreement, ItemList};
pub use codes::{Code, ALL_CODES, REPOSITORY};
pub use diagnostic::{
    line_col, AnyDiagnostic, CheckDiagnostic, CheckReport, Label, Rewrite, Stats,
};
pub use fix::{fix_text, AppliedFix, Fixed};
pub use options::CheckOptions;
pub use suggest::{annotation_matches, rank, rank_in, unambiguous, Repair, Suggestion, LOOKAHEAD};
pub use words::result_of;

/// Everything a check found, with the games as they replayed (for `annotate` and the
/// exporters).
#[derive(Debug)]
pub struct Checked {
    /// The diagnostics and counts.
    pub report: CheckReport,
    /// The parsed record.
    pub record: Record,
    /// Per game of the record, in file order, its replay (an empty one for a game whose
    /// replay failed inside the engine).
    pub replayed: Vec<ReplayedGame>,
}

impl Checked {
    /// Game `index` (0-based, in file order) and its replay as one tree, with the text its
    /// spans point into.
    #[must_use]
    pub fn document(&self, index: usize) -> Option<bao_replay::Document<'_>> {
        let game = &self.record.games.get(index)?.value;
        let replay = self.replayed.get(index)?;
        Some(bao_replay::Document::new(game, replay).with_text(&self.report.text))
    }
}

/// Parses and checks a text.
#[must_use]
pub fn check_text(name: &str, text: Arc<str>, opts: &CheckOptions) -> CheckReport {
    check_full(name, text, opts).report
}

/// Decodes (UTF-8, else Latin-1 with a warning), parses and checks bytes.
#[must_use]
pub fn check_bytes(name: &str, bytes: &[u8], opts: &CheckOptions) -> Checked {
    let (text, parsed) = bao_notation::parse_bytes(bytes);
    check_parsed(name, Arc::from(text), parsed, opts)
}

/// Parses and checks a text, keeping the record and the replayed moves.
#[must_use]
pub fn check_full(name: &str, text: Arc<str>, opts: &CheckOptions) -> Checked {
    let parsed = parse_record(&text);
    check_parsed(name, text, parsed, opts)
}

/// Decodes, parses and checks bytes as [`check_bytes`] does, keeping only the report: each
/// game's replay is dropped as soon as its diagnostics are worded, so that checking a large
/// file holds one replayed game at a time (what `bao check` needs).
#[must_use]
pub fn check_bytes_report(name: &str, bytes: &[u8], opts: &CheckOptions) -> CheckReport {
    let (text, parsed) = bao_notation::parse_bytes(bytes);
    check_games(name, Arc::from(text), parsed, opts, false).report
}

/// Checks a parsed text (its syntax diagnostics are part of the report).
#[must_use]
pub fn check_parsed(name: &str, text: Arc<str>, parsed: Parsed, opts: &CheckOptions) -> Checked {
    check_games(name, text, parsed, opts, true)
}

/// [`check_parsed`]; without `keep`, `Checked::replayed` is left empty and each game's
/// replay is dropped once checked.
fn check_games(
    name: &str,
    text: Arc<str>,
    parsed: Parsed,
    opts: &CheckOptions,
    keep: bool,
) -> Checked {
    let mut diagnostics: Vec<AnyDiagnostic> = parsed
        .errors
        .into_iter()
        .map(AnyDiagnostic::Syntax)
        .collect();
    let mut diagnostics_of_games = Vec::new();
    let mut plies = 0;
    let mut replayed = Vec::with_capacity(if keep { parsed.record.games.len() } else { 0 });
    let mut games = 0;
    for (i, g) in parsed.record.games.iter().enumerate() {
        let game = &g.value;
        if is_game(game) {
            games += 1;
        }
        let c = moves::check_one(game, i + 1, opts, keep);
        plies += c.plies_checked();
        diagnostics_of_games.extend(c.diagnostics);
        if keep {
            replayed.push(c.replayed);
        }
    }
    diagnostics_of_games.extend(record::check_matches(opts.lang, &parsed.record));
    diagnostics.extend(diagnostics_of_games.into_iter().map(AnyDiagnostic::Check));
    diagnostics.sort_by_key(|d| d.span().map_or(usize::MAX, |s| s.start));
    Checked {
        report: CheckReport::new(name, text, diagnostics, games, plies).in_lang(opts.lang),
        record: parsed.record,
        replayed,
    }
}

/// One game checked on its own: what [`check_parsed`] finds in it, but for the problems of
/// best-of-three matches (they need the games around it).
#[derive(Debug)]
pub struct GameChecked {
    /// The game's diagnostics (spans as in the game), in the order found.
    pub diagnostics: Vec<CheckDiagnostic>,
    /// The game replayed ([`ReplayedGame::panicked`] if the engine panicked).
    pub replayed: ReplayedGame,
    /// The plies replayed and checked.
    pub plies: usize,
}

impl GameChecked {
    /// Whether any diagnostic is an error (warnings do not count), or the replay panicked.
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(CheckDiagnostic::is_error) || self.replayed.is_panicked()
    }
}

/// Checks one game (number `n` in its file, for the diagnostics) as [`check_parsed`] checks
/// each game of a record: its moves, its tags, its result and termination. For work done
/// game by game on a stream (`bao filter --code`), with the replay kept.
#[must_use]
pub fn check_one_game(game: &Game, n: usize, opts: &CheckOptions) -> GameChecked {
    let c = moves::check_one(game, n, opts, true);
    GameChecked {
        plies: c.plies_checked(),
        diagnostics: c.diagnostics,
        replayed: c.replayed,
    }
}

/// The record's text with the engine's annotations on every move that replayed, edited in
/// place ([`annotation_edits`]): the notation, comments and layout stay as written.
#[must_use]
pub fn annotated_text(checked: &Checked) -> String {
    let edits: Vec<bao_notation::Edit> = (0..checked.record.games.len())
        .filter_map(|i| checked.document(i))
        .flat_map(|doc| annotation_edits(&doc))
        .collect();
    bao_notation::apply_edits(&checked.report.text, &edits)
}
