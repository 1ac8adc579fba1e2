//! The replay of a game as data: lines of plies, each with its positions, move, trace and
//! problems; and what an [`Observer`] sees while the replay runs.

use bao_core::{Move, MoveSpec, MoveTrace, Outcome, Pit, Position, ResolveError, RuleSet, Side};
use bao_notation::meaning::{RulesError, StartError};
use bao_notation::{Directions, Element, MoveItem, Span, Spanned};

use crate::items::{Disagreement, ItemList};
use crate::read::NoSuchPit;

/// What a game is played under, from its tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opening {
    /// The rules (`RuleSet` and `Rules` tags).
    pub rules: RuleSet,
    /// The start position (`Position` tag, else the rule set's).
    pub start: Position,
    /// The sign convention of the record (`Directions` tag).
    pub directions: Directions,
}

/// Why a game's moves were not replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpeningProblem {
    /// The tags name no rule set.
    Rules(RulesError),
    /// The `Position` tag names no valid position.
    Start {
        /// The rules the position was read under.
        rules: RuleSet,
        /// Why it is no position.
        error: StartError,
    },
    /// The engine panicked while the game was replayed (a bug; a caller that catches the
    /// panic keeps nothing of the game).
    Panicked,
}

/// A game replayed once.
#[derive(Debug, Clone)]
pub struct ReplayedGame {
    /// The rules, start and sign convention, or why the game could not be replayed.
    pub opening: Result<Opening, OpeningProblem>,
    /// The main line (empty when the opening failed).
    pub main: ReplayedLine,
}

impl ReplayedGame {
    /// The replay of a game whose replay panicked inside the engine (a bug): nothing of
    /// it is kept ([`OpeningProblem::Panicked`], an empty main line).
    #[must_use]
    pub fn panicked() -> Self {
        Self {
            opening: Err(OpeningProblem::Panicked),
            main: ReplayedLine::default(),
        }
    }

    /// Whether the replay panicked inside the engine ([`ReplayedGame::panicked`]).
    #[must_use]
    pub fn is_panicked(&self) -> bool {
        matches!(self.opening, Err(OpeningProblem::Panicked))
    }

    /// The rules and start position, when the tags give them.
    #[must_use]
    pub fn opening(&self) -> Option<&Opening> {
        self.opening.as_ref().ok()
    }

    /// How many moves were played, in every line (assumed repairs included).
    #[must_use]
    pub fn played_count(&self) -> usize {
        self.main.played_count()
    }

    /// Every ply played from a written token, in every line, in the order they were read
    /// (a ply moved by an assumed swap included; moves assumed in place of a token not).
    pub fn written_plies(&self) -> impl Iterator<Item = &Ply> {
        let mut stack = vec![&self.main];
        let mut out = Vec::new();
        while let Some(line) = stack.pop() {
            for p in &line.plies {
                if p.played().is_some_and(|pl| pl.source == Source::Written) {
                    out.push(p);
                }
                stack.extend(p.variations.iter().map(|v| &v.line));
            }
        }
        out.into_iter()
    }

    /// The outcome at the end of the main line when it replayed to its end without an
    /// assumed repair: `Some(None)` when the game goes on.
    #[must_use]
    pub fn final_outcome(&self) -> Option<Option<Outcome>> {
        match self.main.end {
            LineEnd::Complete { outcome, .. } => Some(outcome),
            LineEnd::Stopped => None,
        }
    }
}

/// A line of play: the main line, or a variation from its branch point.
#[derive(Debug, Clone, Default)]
pub struct ReplayedLine {
    /// The plies read, in order. A token after a refused one (with no repair assumed) is
    /// not read, so the plies can be fewer than the moves written.
    pub plies: Vec<Ply>,
    /// How the line ended.
    pub end: LineEnd,
    /// The plies in the text order of their tokens, when that is not the order read (an
    /// assumed swap reads a later token first): indices into `plies`, stable by token.
    pub(crate) order: Option<Box<[u32]>>,
}

impl ReplayedLine {
    /// How many moves were played in this line and its variations.
    #[must_use]
    pub fn played_count(&self) -> usize {
        self.plies
            .iter()
            .map(|p| {
                usize::from(p.played().is_some())
                    + p.variations
                        .iter()
                        .map(|v| v.line.played_count())
                        .sum::<usize>()
            })
            .sum()
    }
}

/// How a line ended.
#[derive(Debug, Clone, Copy, Default)]
pub enum LineEnd {
    /// Every move replayed, none of them an assumed repair.
    Complete {
        /// The position reached.
        position: Position,
        /// The outcome there.
        outcome: Option<Outcome>,
    },
    /// A refused move stopped it, or a repair was assumed.
    #[default]
    Stopped,
}

/// One ply read: a written token in its position, played or refused.
#[derive(Debug, Clone)]
pub struct Ply {
    /// The ply's number in the game, counted from 1 from the start position (variations
    /// continue the count of their branch point; a ply inserted by an assumed repair shares
    /// the number of the token after it).
    pub number: usize,
    /// The index in its line's elements of the token this ply was read from.
    pub element: usize,
    /// The token's span.
    pub span: Span,
    /// The position the ply is played in.
    pub before: Position,
    /// The move played, or why the token was not played.
    pub outcome: Result<Played, Problem>,
    /// Problems of a played move: claims and an annotation that it does not bear out.
    pub problems: Vec<Problem>,
    /// The earlier repair the line assumes here, if any.
    pub assumes: Option<Assumption>,
    /// The variations that branch here (each an alternative to this ply).
    pub variations: Vec<Variation>,
}

impl Ply {
    /// The move played, if any.
    #[must_use]
    pub fn played(&self) -> Option<&Played> {
        self.outcome.as_ref().ok()
    }

    /// Every problem of the ply: why it was not played, or what it does not bear out.
    #[must_use]
    pub fn problems(&self) -> &[Problem] {
        match &self.outcome {
            Ok(_) => &self.problems,
            Err(p) => std::slice::from_ref(p),
        }
    }

    /// The side to move.
    #[must_use]
    pub fn mover(&self) -> Side {
        self.before.to_move()
    }

    /// The written item this ply was read from, in the elements of its line (the game's
    /// `movetext` for the main line, a variation's elements for its plies).
    #[must_use]
    pub fn item<'g>(&self, line: &'g [Spanned<Element>]) -> Option<&'g MoveItem> {
        match &line.get(self.element)?.value {
            Element::Move(m) => Some(m),
            _ => None,
        }
    }
}

/// A variation: its element in the line, and the line replayed from the branch point.
#[derive(Debug, Clone)]
pub struct Variation {
    /// The variation's index in its parent line's elements.
    pub element: usize,
    /// The variation's plies.
    pub line: ReplayedLine,
}

/// A move played.
#[derive(Debug, Clone)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// What happened inside it (with the outcome, when the move ends the game).
    pub trace: MoveTrace,
    /// The position after it.
    pub after: Position,
    /// The move wins the game.
    pub wins: bool,
    /// Where the move comes from.
    pub source: Source,
}

impl Played {
    /// The engine's annotation items of a written move ([`crate::engine_items`], worked out
    /// from its trace and the position after it); none for a move assumed in place of a
    /// token, nor for a move whose trace keeps no laps or captures (a lean replay's, once
    /// shown: [`crate::ReplayOptions::lean`]).
    #[must_use]
    pub fn items(&self) -> ItemList {
        match self.source {
            Source::Written => ItemList::of_move(&self.trace, &self.after),
            Source::Assumed => ItemList::new(),
        }
    }

    /// The engine's annotation of the move: its items and, for a move that never ends, its
    /// cycle item; `None` when it has neither.
    #[must_use]
    pub fn annotation(&self) -> Option<bao_notation::Annotation> {
        crate::items::engine_annotation(&self.items(), &self.trace)
    }

    /// The pit the move made takasia, if any.
    #[must_use]
    pub fn takasia(&self) -> Option<Pit> {
        self.trace.takasia_set()
    }
}

/// Where a played move comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The token written (or, after an assumed swap, the token moved here).
    Written,
    /// A repair assumed in place of a refused token, not written.
    Assumed,
}

/// The first repair a line assumes: the ply and the move assumed there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Assumption {
    /// The ply (counted from 1).
    pub ply: usize,
    /// The move assumed.
    pub mv: Move,
}

/// A problem of one ply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A move of the main line after the game ended.
    AfterEnd {
        /// How the game ended.
        outcome: Outcome,
        /// The move that ended it.
        end: Span,
    },
    /// The token names no pit of the side to move.
    NoSuchPit(NoSuchPit),
    /// The engine refuses the move.
    Refused {
        /// The spec the token stands for.
        spec: MoveSpec,
        /// The engine's refusal.
        refusal: ResolveError,
        /// The move that ended the game, when the line had ended.
        end: Option<Span>,
    },
    /// `**` written, but the move creates no takasia.
    FalseTakasiaClaim,
    /// `#` written, but the move does not win.
    FalseWinClaim,
    /// The annotation written disagrees with the engine's items.
    Annotation(Disagreement),
}

/// A move of the line before a ply, for what points back to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Past {
    /// Its token.
    pub span: Span,
    /// Who played it.
    pub mover: Side,
    /// The pit it made takasia.
    pub takasia: Option<Pit>,
}

/// A repair to assume in place of a refused token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repair {
    /// Play this move instead.
    Replace(Move),
    /// The token `distance` moves later in the line (1 or 2) was played here: `mv` is that
    /// token's move; the refused token is read again in its place.
    Swap {
        /// The later token's move, played here.
        mv: Move,
        /// How many moves later it is written.
        distance: usize,
    },
    /// A ply is missing: `mv` is played, then the token as `written`.
    Insert {
        /// The missing ply.
        mv: Move,
        /// The token's move after it.
        written: Move,
    },
}

/// A ply as an [`Observer`] sees it: the ply and the line around it.
#[derive(Debug, Clone, Copy)]
pub struct InLine<'a> {
    /// The ply.
    pub ply: &'a Ply,
    /// Its written item.
    pub item: &'a MoveItem,
    /// The moves of the line before it (with the line's history before its branch point).
    pub past: &'a [Past],
    /// The moves written after it in its line.
    pub following: &'a [&'a MoveItem],
    /// The record's sign convention.
    pub directions: Directions,
    /// A swap repair is assumed and still to be undone later in the line.
    pub swap_pending: bool,
    /// The ply is on the game's main line (not in a variation).
    pub main: bool,
}

/// Sees every ply as it is read, in text order (a variation after the ply it branches
/// from).
pub trait Observer {
    /// A ply has been read. For a refused ply, the answer is the repair to assume (`None`:
    /// the line stops); for others it is not read. `engine` is the replay's: the observer
    /// makes its own engine calls with it, so that they share its memo and stay under its
    /// lap budget ([`crate::replay_game_in`]).
    fn ply(&mut self, at: &InLine<'_>, engine: &mut bao_core::Engine) -> Option<Repair>;

    /// Whether the observer is shown every ply (the default), or only the plies with a
    /// problem ([`Ply::problems`] not empty: refused, or a claim or annotation the move does
    /// not bear out), for an observer that has nothing to do with the others.
    fn every_ply(&self) -> bool {
        true
    }
}
