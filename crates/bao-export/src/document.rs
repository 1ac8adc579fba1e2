//! The games of a replayed record as the outputs read them: each game's [`Document`] (the
//! one tree of `bao-replay`), the ply each move played, the markup of its comments, and why
//! a game cannot be exported. Every output walks games through here; none joins a replay to
//! its game itself.

use std::fmt;
use std::str::FromStr;

use bao_core::{MoveTrace, Outcome, Position, RuleSet};
use bao_notation::{Markup, MoveToken, Record, Span};
use bao_replay::{Document, Line, MoveNode, OpeningProblem, Played, Ply, ReplayedGame};

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
        if numbers.is_empty() || !numbers.len().is_multiple_of(2) {
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

/// The most nested variations followed (the record's own limit is lower).
pub(crate) const MAX_DEPTH: usize = 256;

/// Why a game cannot be exported: outputs export valid records, replayed to their end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The record has no game with this number (from 1).
    #[error("there is no game {game}")]
    NoGame {
        /// The game asked for.
        game: usize,
    },
    /// The game's tags name no rule set that can be applied.
    #[error("game {game}: the rule set cannot be applied")]
    Rules {
        /// The game (from 1).
        game: usize,
    },
    /// The game's `Position` tag is no valid position.
    #[error("game {game}: the Position tag is no valid position")]
    Start {
        /// The game (from 1).
        game: usize,
    },
    /// A move of the game was not played as written.
    #[error("game {game}: the move {token} did not replay")]
    Move {
        /// The game (from 1).
        game: usize,
        /// The token as read.
        token: MoveToken,
        /// Where it is written.
        span: Span,
    },
    /// A line stopped before its end (a refused move, or a repair assumed).
    #[error("game {game}: a line did not replay to its end")]
    LineStopped {
        /// The game (from 1).
        game: usize,
    },
    /// A variation was not replayed from its branch point.
    #[error("game {game}: a variation at ply {ply} did not replay")]
    Variation {
        /// The game (from 1).
        game: usize,
        /// The ply the variation replaces.
        ply: usize,
    },
    /// Variations nested deeper than an output follows.
    #[error("game {game}: variations nested too deeply")]
    TooDeep {
        /// The game (from 1).
        game: usize,
    },
}

/// A line asked for ([`LinePath`], `5.2`) that the game does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NoSuchLine {
    /// The line followed so far has no ply with this number.
    #[error("game {game}: the line {}has no ply {ply}", Taken(taken))]
    NoPly {
        /// The game (from 1).
        game: usize,
        /// The part of the path followed.
        taken: LinePath,
        /// The ply asked for.
        ply: usize,
    },
    /// The ply has fewer variations than the one asked for.
    #[error(
        "game {game}: ply {ply} has {count} variation{}, not {variation}",
        if *count == 1 { "" } else { "s" }
    )]
    NoVariation {
        /// The game (from 1).
        game: usize,
        /// The ply.
        ply: usize,
        /// How many variations it has.
        count: usize,
        /// The variation asked for (from 1).
        variation: usize,
    },
}

/// A path followed so far, as an error message names it: `5.2 ` (empty for none).
struct Taken<'a>(&'a LinePath);

impl fmt::Display for Taken<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 .0.is_empty() {
            Ok(())
        } else {
            write!(f, "{} ", self.0)
        }
    }
}

impl From<ReplayError> for ExportError {
    fn from(e: ReplayError) -> Self {
        Self::Replay(e)
    }
}

impl From<NoSuchLine> for ExportError {
    fn from(e: NoSuchLine) -> Self {
        Self::NoSuchLine(e)
    }
}

/// A game to export: its document, rules and start position.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Exported<'a> {
    /// The game and its replay as one tree.
    pub(crate) doc: Document<'a>,
    /// Its rules.
    pub(crate) rules: RuleSet,
    /// Its start position.
    pub(crate) start: Position,
    /// Its number (from 1).
    pub(crate) number: usize,
}

impl<'a> Exported<'a> {
    /// Game `number` (from 1) of a document whose opening must have replayed.
    pub(crate) fn new(doc: Document<'a>, number: usize) -> Result<Self, ReplayError> {
        match doc.replay().map(|r| &r.opening) {
            Some(Ok(o)) => Ok(Self {
                doc,
                rules: o.rules,
                start: o.start,
                number,
            }),
            Some(Err(OpeningProblem::Start { .. })) => Err(ReplayError::Start { game: number }),
            _ => Err(ReplayError::Rules { game: number }),
        }
    }

    /// Game `index` (0-based) of a replayed record (`replayed` holds each game's replay).
    pub(crate) fn of_record(
        record: &'a Record,
        replayed: &'a [ReplayedGame],
        index: usize,
    ) -> Result<Self, ReplayError> {
        let number = index + 1;
        let no_game = || ReplayError::NoGame { game: number };
        let game = record.games.get(index).ok_or_else(no_game)?;
        let replay = replayed.get(index).ok_or_else(no_game)?;
        Self::new(Document::new(&game.value, replay), number)
    }

    /// The ply a move played as written: the only ply read from it (an exported game
    /// assumes no repair).
    pub(crate) fn played(&self, m: &MoveNode<'a>) -> Result<(&'a Ply, &'a Played), ReplayError> {
        let mut plies = m.plies();
        match (m.played(), plies.next(), plies.next()) {
            (Some(p), Some(_), None) => Ok(p),
            _ => Err(ReplayError::Move {
                game: self.number,
                token: m.written().token.value,
                span: m.token_span(),
            }),
        }
    }

    /// The outcome at the end of a line (`None`: the game goes on there).
    pub(crate) fn outcome(&self, line: &Line<'a>) -> Result<Option<Outcome>, ReplayError> {
        line.outcome()
            .ok_or(ReplayError::LineStopped { game: self.number })
    }

    /// A variation written after a move that replayed, with the ply it replaces.
    pub(crate) fn variation(&self, v: Line<'a>, ply: usize) -> Result<Line<'a>, ReplayError> {
        if v.depth() > MAX_DEPTH {
            return Err(ReplayError::TooDeep { game: self.number });
        }
        match v.replayed() {
            Some(_) => Ok(v),
            None => Err(ReplayError::Variation {
                game: self.number,
                ply,
            }),
        }
    }

    /// The step of a move: its ply as replayed, and the markup of the comments after it.
    pub(crate) fn step(&self, m: &MoveNode<'a>) -> Result<Step, ReplayError> {
        let (p, played) = self.played(m)?;
        Ok(Step {
            before: p.before,
            trace: played.trace.clone(),
            after: played.after,
            markup: markup_after(m),
        })
    }
}

/// One ply of a line: the position before, the move's trace, the position after.
#[derive(Debug, Clone)]
pub struct Step {
    /// The position before the ply.
    pub before: Position,
    /// What happened inside the move.
    pub trace: MoveTrace,
    /// The position after the ply.
    pub after: Position,
    /// The diagram markup of the comments after the move (drawn on `after`).
    pub markup: Markup,
}

/// The markup of the comments after a move, up to the next move (those after its
/// variations included: the comments the JSON export gives the ply).
pub(crate) fn markup_after(m: &MoveNode<'_>) -> Markup {
    Markup::of_comments(m.comments_after().map(|c| c.text.as_str()))
}

/// The markup of the comments before a line's first move.
pub(crate) fn markup_before(line: &Line<'_>) -> Markup {
    Markup::of_comments(line.comments_before().map(|c| c.text.as_str()))
}
