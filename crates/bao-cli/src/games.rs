//! Choosing a game of a record: the record read and checked ([`load`], its diagnostics
//! printed), a game picked by its number (`--game`, [`game_index`]), and a game's main line
//! as far as it is valid, with the position after a ply ([`load_prefix`], [`Prefix`]).

use bao_core::Position;
use bao_export::{main_line, Step};
use bao_notation::Markup;
use bao_replay::{Document, Source};
use bao_validate::{check_bytes, CheckOptions, Checked};

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::io::Input;
use crate::report::render;

/// Reads and checks a record; on errors prints the diagnostics and gives `Err(Invalid)`.
/// Warnings are printed too, and the export goes on.
pub(crate) fn load(input: &Input, ctx: &Context) -> Result<Result<Checked, Status>, CliError> {
    let name = input.name();
    let bytes = input.read_all()?;
    Ok(checked_bytes(&name, &bytes, ctx))
}

/// Checks a record read whole; prints its diagnostics, and on errors says so and gives
/// `Err(Invalid)`.
pub(crate) fn checked_bytes(name: &str, bytes: &[u8], ctx: &Context) -> Result<Checked, Status> {
    let checked = check_bytes(name, bytes, &CheckOptions::default());
    if !checked.report.diagnostics.is_empty() {
        eprint!("{}", render(&checked.report, ctx.color));
    }
    if !checked.report.is_valid() {
        eprintln!("{}", invalid(name));
        return Err(Status::Invalid);
    }
    Ok(checked)
}

/// What is said of an invalid record that is not exported.
pub(crate) fn invalid(name: &str) -> String {
    format!("bao: {name} is invalid; nothing exported")
}

/// A position picked from a [`Prefix`]: the position, the step that led there, the ply.
pub(crate) type PlyPicked<'a> = (&'a Position, Option<&'a Step>, usize);

/// A game's main line as far as it is valid (`bao show`, `bao legal`): an invalid record
/// still shows every position up to its first invalid ply.
pub(crate) struct Prefix {
    /// The start position.
    pub(crate) start: Position,
    /// The plies that replayed, up to the first invalid one.
    pub(crate) steps: Vec<Step>,
    /// The first invalid ply of the main line, if any: its number and the token written.
    pub(crate) invalid: Option<(usize, String)>,
    /// The record's name.
    pub(crate) name: String,
}

impl Prefix {
    /// The position after `ply` (default: the last valid one) and the step that led there;
    /// a ply at or past the first invalid one is refused with a message naming it (exit 1).
    pub(crate) fn at(&self, ply: Option<usize>) -> Result<Result<PlyPicked<'_>, Status>, CliError> {
        let n = ply.unwrap_or(self.steps.len());
        if let Some((first, token)) = self.invalid.as_ref().filter(|(k, _)| n >= *k) {
            eprintln!(
                "bao: {}: no position after ply {n}: the record is valid up to ply {} only; ply {first} ({token}) is invalid",
                self.name,
                first - 1
            );
            return Ok(Err(Status::Invalid));
        }
        let (pos, step) = at_ply(&self.start, &self.steps, Some(n))?;
        if let Some((first, token)) = &self.invalid {
            eprintln!(
                "bao: {}: the position after ply {n}{}; the record stops being valid at ply {first} ({token})",
                self.name,
                if ply.is_none() { ", the last valid one" } else { "" },
            );
        }
        Ok(Ok((pos, step, n)))
    }
}

/// Reads and checks a record and keeps game `game`'s main line up to its first invalid ply.
/// Diagnostics go to stderr; a game whose tags name no rules or start has no position
/// (exit 1).
pub(crate) fn load_prefix(
    input: &Input,
    game: usize,
    ctx: &Context,
) -> Result<Result<Prefix, Status>, CliError> {
    let name = input.name();
    let bytes = input.read_all()?;
    let checked = check_bytes(&name, &bytes, &CheckOptions::default());
    if !checked.report.diagnostics.is_empty() {
        eprint!("{}", render(&checked.report, ctx.color));
    }
    if checked.report.is_valid() {
        let (start, steps) = line(&checked, game)?;
        return Ok(Ok(Prefix {
            start,
            steps,
            invalid: None,
            name,
        }));
    }
    let index = game_index(&checked, game)?;
    let replayed = &checked.replayed[index];
    let Some(opening) = replayed.opening() else {
        eprintln!("bao: {name}: game {game} cannot be replayed; nothing shown");
        return Ok(Err(Status::Invalid));
    };
    let doc = Document::new(&checked.record.games[index].value, replayed);
    let mut steps: Vec<Step> = Vec::new();
    let mut invalid = None;
    for m in doc.main().moves() {
        let Some(p) = m.plies().next() else { break };
        match p.played() {
            Some(pl) if pl.source == Source::Written && p.assumes.is_none() => {
                steps.push(Step {
                    before: p.before,
                    trace: pl.trace.clone(),
                    after: pl.after,
                    // `bao show` and `bao legal` draw no markup.
                    markup: Markup::default(),
                });
            }
            _ => {
                invalid = Some((p.number, m.written().token.value.to_string()));
                break;
            }
        }
    }
    Ok(Ok(Prefix {
        start: opening.start,
        steps,
        invalid,
        name,
    }))
}

/// The games of a record, as indices into `record.games` (empty games left out).
pub(crate) fn game_index(checked: &Checked, game: usize) -> Result<usize, CliError> {
    let games: Vec<usize> = checked
        .record
        .games
        .iter()
        .enumerate()
        .filter(|(_, g)| bao_notation::meaning::is_game(&g.value))
        .map(|(i, _)| i)
        .collect();
    game.checked_sub(1)
        .and_then(|g| games.get(g).copied())
        .ok_or_else(|| {
            CliError::Usage(format!(
                "--game {game}: the record has {} game{}",
                games.len(),
                if games.len() == 1 { "" } else { "s" }
            ))
        })
}

/// The chosen game's main line.
fn line(checked: &Checked, game: usize) -> Result<(Position, Vec<Step>), CliError> {
    let index = game_index(checked, game)?;
    main_line(&checked.record, &checked.replayed, index)
        .map_err(|e| CliError::Internal(e.to_string()))
}

/// The position after ply `ply` (0: the start), and the step that led there.
fn at_ply<'a>(
    start: &'a Position,
    steps: &'a [Step],
    ply: Option<usize>,
) -> Result<(&'a Position, Option<&'a Step>), CliError> {
    match ply.unwrap_or(steps.len()) {
        0 => Ok((start, None)),
        n => steps
            .get(n - 1)
            .map(|s| (&s.after, Some(s)))
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "--ply {n}: the game has {} pl{}",
                    steps.len(),
                    if steps.len() == 1 { "y" } else { "ies" }
                ))
            }),
    }
}
