//! The game being recorded: its rules, its written-move convention and the positions of its
//! main line; and the one place where a game's tags are read, a game is replayed and a
//! written move is read and resolved (the meaning, replay and move-reading layers below are
//! used here and nowhere else in the crate).

use bao_core::{Engine, Move, MoveTrace, Position, RuleSet, Side};
pub(crate) use bao_notation::meaning::is_game;
use bao_notation::{meaning, read_move_line, Directions, Game, MoveItem, MoveLineError};

use crate::error::SessionError;
use crate::reply::Refusal;

/// The current game replayed: rules, convention and positions.
#[derive(Debug, Clone)]
pub(crate) struct Live {
    /// The rules of the game.
    pub(crate) rules: RuleSet,
    /// How its moves' signs are written.
    pub(crate) directions: Directions,
    /// The start and the position after each ply of the main line.
    pub(crate) positions: Vec<Position>,
}

impl Live {
    /// The main line of a game the validator accepted, as the replay played it.
    pub(crate) fn of(game: &Game) -> Result<Self, SessionError> {
        Self::of_in(game, &mut Engine::new())
    }

    /// [`Live::of`] with the caller's engine (and its lap budget).
    pub(crate) fn of_in(game: &Game, cx: &mut Engine) -> Result<Self, SessionError> {
        let replayed =
            bao_replay::replay_game_in(cx, game, None, bao_replay::ReplayOptions::default());
        let opening = replayed
            .opening()
            .ok_or(SessionError::Replay { ply: None })?;
        let mut positions = vec![opening.start];
        for ply in &replayed.main.plies {
            let after = ply
                .played()
                .filter(|_| ply.assumes.is_none())
                .map(|p| p.after)
                .ok_or(SessionError::Replay {
                    ply: Some(ply.number),
                })?;
            positions.push(after);
        }
        if positions.len() != game.main_line().count() + 1 {
            return Err(SessionError::Replay {
                ply: Some(positions.len()),
            });
        }
        Ok(Self {
            rules: opening.rules,
            directions: opening.directions,
            positions,
        })
    }

    /// The position to move from.
    pub(crate) fn pos(&self) -> &Position {
        // `of` always starts the list with the start position, and `undo` never pops it.
        &self.positions[self.positions.len() - 1]
    }

    /// The plies of the main line.
    pub(crate) fn plies(&self) -> usize {
        self.positions.len() - 1
    }

    /// The move number of the next ply.
    pub(crate) fn turn(&self) -> usize {
        let offset = usize::from(self.positions[0].to_move() == Side::North);
        (self.plies() + offset) / 2 + 1
    }

    /// The move number and side of the last ply of the main line, if there is one.
    pub(crate) fn last_ply(&self) -> Option<(usize, Side)> {
        let plies = self.plies();
        let before = self.positions.get(plies.checked_sub(1)?)?;
        let offset = usize::from(self.positions[0].to_move() == Side::North);
        Some(((plies - 1 + offset) / 2 + 1, before.to_move()))
    }

    /// The last ply of the main line, written `item`, played again from the position before
    /// it: that position and the move's trace; `None` at the start (or if `item` does not
    /// read there, which a ply the session accepted always does). Asked of `cx`.
    pub(crate) fn last_played(
        &self,
        item: &MoveItem,
        cx: &mut Engine,
    ) -> Option<(Position, MoveTrace)> {
        let before = *self.positions.get(self.positions.len().checked_sub(2)?)?;
        let mv = bao_replay::legal_move_in(cx, &before, item, self.directions)?;
        let (_, trace) = cx.play(&before, &mv).ok()?;
        Some((before, trace.into_trace()))
    }

    /// The legal moves that a written move may stand for, leaving open what was not
    /// written ([`bao_core::MoveSpec::may_stand_for`]: the sign, a forced `*`, and stop or
    /// safari when no sign was written either). Asked of `cx`.
    pub(crate) fn candidates(&self, item: &MoveItem, cx: &mut Engine) -> Vec<Move> {
        let pos = self.pos();
        match bao_replay::written_spec(pos, item, self.directions) {
            Ok(spec) => cx
                .legal_moves(pos)
                .into_iter()
                .filter(|m| spec.may_stand_for(m))
                .collect(),
            Err(_) => Vec::new(),
        }
    }
}

/// The rules a game's tags name, if they read.
pub(crate) fn rules_of(game: &Game) -> Option<RuleSet> {
    meaning::game_rules(game).ok()
}

/// The start position a game's tags give under `rules`, if it reads.
pub(crate) fn start_of(game: &Game, rules: RuleSet) -> Option<Position> {
    meaning::game_start(game, rules).ok()
}

/// Reads a line as one move in the record format (number, token, glyphs), or says why not.
pub(crate) fn read_move(line: &str) -> Result<MoveItem, Refusal> {
    read_move_line(line).map_err(|e| match e {
        MoveLineError::Syntax(e) => Refusal::NotAMove {
            line: line.to_owned(),
            why: e.message,
        },
        MoveLineError::Annotated => Refusal::Annotated,
        // Nothing, several moves, a result, or another reason the line is not one move.
        _ => Refusal::NotOneMove {
            line: line.to_owned(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_in_both_dialects() {
        assert_eq!(read_move("A6L*").unwrap().token.value.to_string(), "A6<*");
        assert_eq!(read_move("1. a5r!").unwrap().nags.len(), 1);
        assert!(matches!(read_move("hello"), Err(Refusal::NotAMove { .. })));
        assert!(matches!(
            read_move("A6<* a5>*"),
            Err(Refusal::NotOneMove { .. })
        ));
        assert!(matches!(read_move("1-0"), Err(Refusal::NotOneMove { .. })));
        assert_eq!(read_move("A4> [xa5]"), Err(Refusal::Annotated));
    }
}
