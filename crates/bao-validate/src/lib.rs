//! `bao-validate`: checks Bao records by replaying them on the engine.
//!
//! Every game of a record, and every variation from its branch point, is replayed under the
//! game's rules (the `RuleSet` tag's preset, default `kiswahili`, with the `Rules` tag's
//! overrides) from the `Position` tag or the start position. Every illegal move, annotation
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
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod annotate;
mod codes;
mod diagnostic;
pub mod json;
mod plies;
mod record;
mod replay;
mod suggest;
pub mod words;

use std::sync::Arc;

use bao_notation::{parse_record, write_record, Parsed, Record, WriteOptions};

pub use annotate::ItemList;
pub use annotate::{agrees, annotate_record, engine_items, items_text, Disagreement};
pub use codes::{Code, ALL_CODES, REPOSITORY};
pub use diagnostic::{line_col, AnyDiagnostic, CheckDiagnostic, CheckReport, Label, Stats};
pub use replay::Played;
pub use suggest::{annotation_matches, rank, unambiguous, Repair, Suggestion, LOOKAHEAD};

/// How to check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CheckOptions {
    /// After an illegal move with an unambiguous best repair, go on as if the repair had
    /// been written; later diagnostics of that line say they depend on it.
    pub assume_fixes: bool,
}

/// Everything a check found, with the moves that replayed (for `annotate`).
#[derive(Debug)]
pub struct Checked {
    /// The diagnostics and counts.
    pub report: CheckReport,
    /// The parsed record.
    pub record: Record,
    /// Per game, the moves that replayed, in text order.
    pub played: Vec<Vec<Played>>,
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

/// Checks a parsed text (its syntax diagnostics are part of the report).
#[must_use]
pub fn check_parsed(name: &str, text: Arc<str>, parsed: Parsed, opts: &CheckOptions) -> Checked {
    let mut diagnostics: Vec<AnyDiagnostic> = parsed
        .errors
        .into_iter()
        .map(AnyDiagnostic::Syntax)
        .collect();
    let mut checks = Vec::new();
    let mut plies = 0;
    let mut played = Vec::new();
    let mut games = 0;
    for (i, g) in parsed.record.games.iter().enumerate() {
        let game = &g.value;
        let is_game = !(game.tags.is_empty() && game.movetext.is_empty() && game.result.is_none());
        if is_game {
            games += 1;
        }
        // A panic in the engine must not take the whole run down.
        let check = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut c = replay::check_game(game, i + 1, opts);
            record::check_result(game, i + 1, &mut c);
            c
        }))
        .unwrap_or_default();
        let mut check = check;
        plies += check.plies;
        played.push(std::mem::take(&mut check.played));
        checks.push(check);
    }
    let mut all: Vec<CheckDiagnostic> = checks.into_iter().flat_map(|c| c.diagnostics).collect();
    all.extend(record::check_matches(&parsed.record));
    diagnostics.extend(all.into_iter().map(AnyDiagnostic::Check));
    diagnostics.sort_by_key(|d| d.span().map_or(usize::MAX, |s| s.start));
    Checked {
        report: CheckReport::new(name, text, diagnostics, games, plies),
        record: parsed.record,
        played,
    }
}

/// The rules a game is played under (its `RuleSet` tag and `Rules` overrides), or `None` when
/// the tags name no valid rule set (`bao check` reports that as `bao::record::unknown-rules`).
#[must_use]
pub fn game_rules(game: &bao_notation::Game) -> Option<bao_core::RuleSet> {
    replay::game_rules(game, 0).ok()
}

/// The start position of a game under `rules`: its `Position` tag, else the rule set's
/// start; `None` when the tag is no valid position.
#[must_use]
pub fn game_start(
    game: &bao_notation::Game,
    rules: bao_core::RuleSet,
) -> Option<bao_core::Position> {
    replay::start_position(game, rules, 0).ok().flatten()
}

/// The move spec a written move stands for in `pos`, as `bao check` reads it: a pit written
/// without its row letter taken as the mover's front pit, the sign converted from the
/// record's `Directions` convention.
///
/// # Errors
/// The token names no pit ([`NoSuchPit`]).
pub fn written_spec(
    pos: &bao_core::Position,
    item: &bao_notation::MoveItem,
    directions: bao_notation::Directions,
) -> Result<bao_core::MoveSpec, NoSuchPit> {
    replay::token_spec(pos, item, directions)
}

/// A move token whose pit is no pit of the board: a number written without its row letter
/// (the namua dialect) that is no pit number. The error of [`written_spec`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoSuchPit(pub bao_notation::PitRef);

impl std::fmt::Display for NoSuchPit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` names no pit", self.0)
    }
}

impl std::error::Error for NoSuchPit {}

/// The record written back with the engine's annotations on every move that replayed.
#[must_use]
pub fn annotated_text(checked: &Checked) -> String {
    let record = annotate::annotate_record(&checked.record, &checked.played);
    write_record(&record, &WriteOptions::default())
}
