//! What a server needs of a session: the current game as data, and a ply given with its
//! index, played once however often the network delivers it.

use bao_core::{Move, Position, RuleSet};
use bao_notation::MoveToken;

use super::{Session, Stage};
use crate::error::SessionError;
use crate::game::{read_move, Live};
use crate::reply::Reply;

/// The current game of a session that takes moves, as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameState {
    /// The plies of the game's main line.
    pub plies: usize,
    /// The position to move from.
    pub position: Position,
    /// The rules of the game.
    pub rules: RuleSet,
    /// Whether the game takes moves (it is not over).
    pub open: bool,
}

/// What [`Session::play_ply`] did with a ply.
#[derive(Debug, Clone)]
pub enum PlyAnswer {
    /// The move was played and is on disk: the session's replies.
    Played(Vec<Reply>),
    /// The game already holds this move at this ply: nothing was written.
    Repeated,
    /// The ply is not the next one (or another move stands at that ply): nothing was
    /// written. The game has `plies` plies.
    OutOfTurn {
        /// The plies of the game's main line.
        plies: usize,
    },
    /// The move was not played (unreadable, illegal, or a decision left open): the
    /// session's replies, nothing written.
    Refused(Vec<Reply>),
    /// The session takes no moves (its game is over, or it is not started).
    NoGame,
}

impl Session {
    /// The current game, once one is entered (set up, resumed or finished).
    #[must_use]
    pub fn game_state(&self) -> Option<GameState> {
        let live = self.live.as_ref()?;
        Some(GameState {
            plies: live.plies(),
            position: *live.pos(),
            rules: live.rules,
            open: matches!(self.stage, Stage::Moves),
        })
    }

    /// Plays `line` (a move only, never a command) as ply `ply` (0-based) of the current
    /// game, so that a client that repeats a request cannot record a ply twice: the next
    /// ply is played; the ply before, with the move it holds, is [`PlyAnswer::Repeated`];
    /// anything else is [`PlyAnswer::OutOfTurn`]. A move that leaves a decision open is
    /// refused, whatever [`Asking`](crate::Asking) says: the caller asks and sends the
    /// whole move.
    ///
    /// # Errors
    /// As [`Session::handle`]: the record cannot be written (the session is over then).
    pub fn play_ply(&mut self, ply: u64, line: &str) -> Result<PlyAnswer, SessionError> {
        let Some(live) = self
            .live
            .as_ref()
            .filter(|_| matches!(self.stage, Stage::Moves))
        else {
            return Ok(PlyAnswer::NoGame);
        };
        let plies = live.plies();
        let ply = usize::try_from(ply).unwrap_or(usize::MAX);
        if ply != plies {
            let repeated = ply.checked_add(1) == Some(plies) && self.holds(ply, line.trim());
            return Ok(if repeated {
                PlyAnswer::Repeated
            } else {
                PlyAnswer::OutOfTurn { plies }
            });
        }
        let mut out = Vec::new();
        let done = match self.written_in_full(line.trim()) {
            // The move as the notation writes it (`A4>`, the stop, beside `A4>+`): it
            // leaves nothing open, though a scribe typing `A4>` at a prompt would be asked.
            Some((item, mv)) => self.play_move(&item, mv, &mut out),
            None => self.try_move(line.trim(), &mut out),
        };
        if done.is_err() {
            self.stage = Stage::Over;
        }
        done?;
        if matches!(self.stage, Stage::Choosing(_)) {
            // A session that may ask left the decision open: the caller asks instead.
            self.stage = Stage::Moves;
        }
        if out.iter().any(|r| matches!(r, Reply::Played(_))) {
            Ok(PlyAnswer::Played(out))
        } else {
            Ok(PlyAnswer::Refused(out))
        }
    }

    /// The one legal move that `line` writes in full (pit, sign, `*` and `+` as the notation
    /// writes that move), when several fit what it writes.
    fn written_in_full(&self, line: &str) -> Option<(bao_notation::MoveItem, Move)> {
        let item = read_move(line).ok()?;
        let candidates = self.live.as_ref()?.candidates(&item);
        if candidates.len() < 2 {
            return None;
        }
        let mut full = candidates
            .into_iter()
            .filter(|m| same_move(*m, item.token.value));
        match (full.next(), full.next()) {
            (Some(m), None) => Some((item, m)),
            _ => None,
        }
    }

    /// Whether ply `ply` of the current game is the one move `line` stands for there.
    fn holds(&self, ply: usize, line: &str) -> bool {
        let (Some(live), Ok(item)) = (self.live.as_ref(), read_move(line)) else {
            return false;
        };
        let Some(recorded) = self.game().main_line().nth(ply) else {
            return false;
        };
        let before = Live {
            rules: live.rules,
            directions: live.directions,
            positions: live.positions[..=ply].to_vec(),
        };
        let mut candidates = before.candidates(&item);
        if candidates.len() > 1 {
            candidates.retain(|m| same_move(*m, item.token.value));
        }
        candidates.len() == 1 && same_move(candidates[0], recorded.token.value)
    }
}

/// Whether a recorded token names `mv` (its claims aside).
fn same_move(mv: Move, recorded: MoveToken) -> bool {
    let played = MoveToken::from(mv);
    played.pit == recorded.pit
        && played.sign == recorded.sign
        && played.takasa == recorded.takasa
        && played.safari == recorded.safari
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Asking, Options};

    fn session(dir: &std::path::Path) -> Session {
        let options = Options {
            asking: Asking::Never,
            take_defaults: true,
            today: "2026.12.01".into(),
            ..Options::default()
        };
        let mut s = Session::open(&dir.join("g.bao"), options).unwrap();
        s.start().unwrap();
        s
    }

    #[test]
    fn a_ply_is_recorded_once_and_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path());
        assert_eq!(s.game_state().unwrap().plies, 0);
        assert!(matches!(
            s.play_ply(1, "A6<*"),
            Ok(PlyAnswer::OutOfTurn { plies: 0 })
        ));
        assert!(matches!(s.play_ply(0, "A6<*"), Ok(PlyAnswer::Played(_))));
        let text = std::fs::read_to_string(dir.path().join("g.bao")).unwrap();
        // The same ply again, written another way (K.I.B.A.), is the same move.
        assert!(matches!(s.play_ply(0, "A6<*"), Ok(PlyAnswer::Repeated)));
        assert!(matches!(s.play_ply(0, "A6L*"), Ok(PlyAnswer::Repeated)));
        // Another move at a ply taken: out of turn.
        assert!(matches!(
            s.play_ply(0, "A7<*"),
            Ok(PlyAnswer::OutOfTurn { plies: 1 })
        ));
        assert!(matches!(
            s.play_ply(u64::MAX, "a6<*"),
            Ok(PlyAnswer::OutOfTurn { plies: 1 })
        ));
        assert_eq!(
            std::fs::read_to_string(dir.path().join("g.bao")).unwrap(),
            text
        );
        assert_eq!(s.game_state().unwrap().plies, 1);
    }

    #[test]
    fn commands_illegal_and_open_moves_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path());
        for line in ["undo", "A1<*", "A9<*", "A6"] {
            assert!(
                matches!(s.play_ply(0, line), Ok(PlyAnswer::Refused(_))),
                "{line}"
            );
        }
        assert_eq!(s.game_state().unwrap().plies, 0);
    }

    #[test]
    fn a_finished_game_takes_no_ply() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path());
        s.handle(crate::Input::Command(crate::Command::Resign { side: None }))
            .unwrap();
        assert!(!s.game_state().unwrap().open);
        assert!(matches!(s.play_ply(0, "A6<*"), Ok(PlyAnswer::NoGame)));
    }
}
