//! The positions of one line of a game (the main line or a variation), each with the marks its
//! comments draw, and what a diagram says about the game: the players' names and how it
//! ended.

use bao_core::{BySide, Position, Side};
use bao_notation::{Game, GameResult, Markup, Record};
use bao_replay::ReplayedGame;

use crate::document::{markup_before, Exported, LinePath, NoSuchLine, Step};
use crate::layout::side_title;
use crate::ExportError;

/// One line of a game: its start, the marks of the comments before its first move, and
/// every ply in order (those of the lines above up to the branch point, then its own).
#[derive(Debug, Clone)]
pub struct GameLine {
    /// The game's start position.
    pub start: Position,
    /// The markup of the comments before the game's first move.
    pub start_markup: Markup,
    /// Ply `n` (from 1) is `steps[n - 1]`.
    pub steps: Vec<Step>,
    /// Whether the line is the main line (its last position is the game's end).
    pub main: bool,
}

impl GameLine {
    /// The position after ply `n` (0: the start) and the step that led there.
    #[must_use]
    pub fn at(&self, n: usize) -> Option<(&Position, Option<&Step>)> {
        match n {
            0 => Some((&self.start, None)),
            n => self.steps.get(n - 1).map(|s| (&s.after, Some(s))),
        }
    }

    /// The markup drawn on the position after ply `n` (0: the start).
    #[must_use]
    pub fn markup(&self, n: usize) -> Option<&Markup> {
        match n {
            0 => Some(&self.start_markup),
            n => self.steps.get(n - 1).map(|s| &s.markup),
        }
    }
}

/// Game `index` (0-based, in `record.games`) along `path`: the main line for an empty path,
/// else the variation it names, with the main line's plies before it.
///
/// # Errors
/// [`ExportError::Replay`] when the game does not exist or did not replay,
/// [`ExportError::NoSuchLine`] when the path names a ply or a variation the game does not
/// have.
pub fn game_line(
    record: &Record,
    replayed: &[ReplayedGame],
    index: usize,
    path: &LinePath,
) -> Result<GameLine, ExportError> {
    let game = Exported::of_record(record, replayed, index)?;
    let number = game.number;
    let main = game.doc.main();
    let mut steps = Vec::new();
    let mut line = main;
    let mut taken = LinePath::default();
    for &(ply, var) in &path.0 {
        // The plies of this line before `ply`, then into its variation.
        let mut found = None;
        for m in line.moves() {
            if steps.len() + 1 == ply {
                found = Some(m);
                break;
            }
            steps.push(game.step(&m)?);
        }
        let Some(at) = found else {
            return Err(NoSuchLine::NoPly {
                game: number,
                taken,
                ply,
            }
            .into());
        };
        // The variations written after the move, in order.
        let vars: Vec<_> = at.variations().collect();
        let Some(&v) = var.checked_sub(1).and_then(|k| vars.get(k)) else {
            return Err(NoSuchLine::NoVariation {
                game: number,
                ply,
                count: vars.len(),
                variation: var,
            }
            .into());
        };
        let (p, _) = game.played(&at)?;
        line = game.variation(v, p.number)?;
        taken.0.push((ply, var));
    }
    for m in line.moves() {
        steps.push(game.step(&m)?);
    }
    Ok(GameLine {
        start: game.start,
        start_markup: markup_before(&main),
        steps,
        main: path.0.is_empty(),
    })
}

/// The start position and every ply of the main line of game `index` (0-based, in
/// `record.games`), for diagrams of single plies.
///
/// # Errors
/// [`ExportError::Replay`] when the game does not exist or did not replay.
pub fn main_line(
    record: &Record,
    replayed: &[ReplayedGame],
    index: usize,
) -> Result<(Position, Vec<Step>), ExportError> {
    let line = game_line(record, replayed, index, &LinePath::default())?;
    Ok((line.start, line.steps))
}

/// The players' names from the `South` and `North` tags (unknown `?` and empty ones left
/// out).
#[must_use]
pub fn player_names(game: &Game) -> BySide<Option<String>> {
    let name = |side: Side| {
        game.tag(side_title(side))
            .map(|t| t.value.trim())
            .filter(|t| !t.is_empty() && t.chars().any(|c| c != '?'))
            .map(str::to_owned)
    };
    BySide::new(name(Side::South), name(Side::North))
}

/// How a game ended when the rules did not end it at `last` (its final position): the
/// result written, in words, with the `Termination` tag's reason (`South wins: North
/// resigned`). `None` when the rules ended it (the diagram says how) or no result is known.
#[must_use]
pub fn result_words(game: &Game, last: &Position) -> Option<String> {
    if last.outcome().is_some() {
        return None;
    }
    let result = game.result.as_ref().map(|r| r.value).or_else(|| {
        game.tag("Result")
            .and_then(|r| GameResult::from_token(r.value.trim()))
    })?;
    let termination = game
        .tag("Termination")
        .map(|t| t.value.trim().to_ascii_lowercase().replace([' ', '-'], "_"));
    let loser = match result {
        GameResult::SouthWins => Some(Side::North),
        GameResult::NorthWins => Some(Side::South),
        GameResult::Draw => None,
        GameResult::Unknown => return None,
    };
    let why = match (termination.as_deref(), loser) {
        (Some("resignation" | "resigned"), Some(l)) => format!("{} resigned", side_title(l)),
        (Some("time" | "time_forfeit"), Some(l)) => format!("{} lost on time", side_title(l)),
        (Some("agreement"), _) => "by agreement".to_owned(),
        (Some("abandoned"), _) => "game abandoned".to_owned(),
        (Some("adjudication"), _) => "adjudicated".to_owned(),
        (Some("forfeit"), Some(l)) => format!("{} forfeited", side_title(l)),
        _ => format!("result {}", result.as_str()),
    };
    Some(match loser {
        Some(l) => format!("{} wins ({why})", side_title(l.opponent())),
        None => format!("draw ({why})"),
    })
}
