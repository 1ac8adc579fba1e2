//! The positions of one line of a game (the main line or a variation), each with the marks its
//! comments draw, and what a diagram says about the game: the players' names and how it
//! ended.

use std::fmt;
use std::str::FromStr;

use bao_core::{BySide, Position, Side};
use bao_notation::{Comment, Element, Game, GameResult, Markup, MoveItem, Record, Spanned};
use bao_replay::{ReplayedGame, ReplayedLine};

use crate::json::{replayed_game, PlyCursor, Step};
use crate::layout::side_title;
use crate::ExportError;

/// The way to a variation: at each level, the ply it replaces and which of that ply's
/// variations (from 1). Written `5.2` (the second variation of ply 5), nested as `5.2.7.1`
/// (in it, the first variation of its ply 7). Ply numbers count from the game's start, and a
/// variation continues the count of the ply it replaces (as the JSON export numbers them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinePath(pub Vec<(usize, usize)>);

/// A [`LinePath`] that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is no line: write PLY.VARIATION, e.g. `5.2`, nested as `5.2.7.1`")]
pub struct LinePathError(pub String);

impl FromStr for LinePath {
    type Err = LinePathError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || LinePathError(s.to_owned());
        let numbers: Vec<usize> = s
            .split('.')
            .map(|n| n.parse::<usize>().ok().filter(|&n| n > 0))
            .collect::<Option<_>>()
            .ok_or_else(err)?;
        if numbers.is_empty() || numbers.len() % 2 != 0 {
            return Err(err());
        }
        Ok(Self(numbers.chunks(2).map(|c| (c[0], c[1])).collect()))
    }
}

impl fmt::Display for LinePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (ply, var)) in self.0.iter().enumerate() {
            let dot = if i == 0 { "" } else { "." };
            write!(f, "{dot}{ply}.{var}")?;
        }
        Ok(())
    }
}

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

/// The markup of the comments after element `i` of a line, up to the next move (those
/// after its variations included: the comments the JSON export gives the ply).
pub(crate) fn markup_after(elems: &[Spanned<Element>], i: usize) -> Markup {
    Markup::of_comments(comments_from(elems, i + 1).map(|c| c.text.as_str()))
}

/// The step of the move `item` at element `i` of a line: its ply as `cursor` replayed it,
/// and the markup of the comments after it.
fn step(
    cursor: &mut PlyCursor<'_>,
    elems: &[Spanned<Element>],
    i: usize,
    item: &MoveItem,
) -> Result<Step, ExportError> {
    let (p, played) = cursor.next(i, item)?;
    Ok(Step {
        before: p.before,
        trace: played.trace.clone(),
        after: played.after,
        markup: markup_after(elems, i),
    })
}

/// The markup of the comments before a line's first move.
pub(crate) fn markup_before(elems: &[Spanned<Element>]) -> Markup {
    Markup::of_comments(comments_from(elems, 0).map(|c| c.text.as_str()))
}

/// The comments from element `from` up to the next move.
fn comments_from(elems: &[Spanned<Element>], from: usize) -> impl Iterator<Item = &Comment> {
    elems
        .get(from..)
        .unwrap_or(&[])
        .iter()
        .take_while(|e| !matches!(e.value, Element::Move(_)))
        .filter_map(|e| match &e.value {
            Element::Comment(c) => Some(c),
            _ => None,
        })
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
    let number = index + 1;
    let (game, main, start) = replayed_game(record, replayed, index)?;
    let mut steps = Vec::new();
    let mut elems: &[Spanned<Element>] = &game.movetext;
    let mut line: &ReplayedLine = main;
    let mut taken = String::new();
    for &(ply, var) in &path.0 {
        // The plies of this line before `ply`, then into its variation.
        let mut cursor = PlyCursor::new(line, number);
        let mut found = None;
        for (i, e) in elems.iter().enumerate() {
            let Element::Move(item) = &e.value else {
                continue;
            };
            if steps.len() + 1 == ply {
                found = Some(i);
                break;
            }
            steps.push(step(&mut cursor, elems, i, item)?);
        }
        let missing = |what: String| ExportError::NoSuchLine(format!("game {number}: {what}"));
        let Some(at) = found else {
            return Err(missing(format!("the line {taken}has no ply {ply}")));
        };
        // The variations written after the move at `at`, in order.
        let vars: Vec<(usize, &Vec<Spanned<Element>>)> = elems[at + 1..]
            .iter()
            .enumerate()
            .take_while(|(_, e)| !matches!(e.value, Element::Move(_)))
            .filter_map(|(k, e)| match &e.value {
                Element::Variation(v) => Some((at + 1 + k, v)),
                _ => None,
            })
            .collect();
        let Some(&(element, v)) = var.checked_sub(1).and_then(|k| vars.get(k)) else {
            return Err(missing(format!(
                "ply {ply} has {} variation{}, not {var}",
                vars.len(),
                if vars.len() == 1 { "" } else { "s" }
            )));
        };
        let Element::Move(item) = &elems[at].value else {
            return Err(missing(format!("no move at ply {ply}")));
        };
        let (p, _) = cursor.next(at, item)?;
        line = cursor.variation(p, element)?;
        elems = v;
        taken = format!("{taken}{ply}.{var} ");
    }
    let mut cursor = PlyCursor::new(line, number);
    for (i, e) in elems.iter().enumerate() {
        if let Element::Move(item) = &e.value {
            steps.push(step(&mut cursor, elems, i, item)?);
        }
    }
    Ok(GameLine {
        start,
        start_markup: markup_before(&game.movetext),
        steps,
        main: path.0.is_empty(),
    })
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
