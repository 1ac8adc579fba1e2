//! What a server needs of a session: the current game as data, and a ply given with its
//! index, played once however often the network delivers it.

use bao_core::{Engine, Move, Position, RuleSet};
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

    /// The current game's last ply: the position it was played from and its move (to draw
    /// it); `None` before the first ply, or when its reading is undecided within the lap
    /// budget.
    #[must_use]
    pub fn last_ply(&self) -> Option<(Position, Move)> {
        self.ply(self.live.as_ref()?.plies())
    }

    /// The position after the first `plies` plies of the current game's main line (the
    /// start for 0); `None` beyond its last ply.
    #[must_use]
    pub fn position_after(&self, plies: usize) -> Option<Position> {
        self.live.as_ref()?.positions.get(plies).copied()
    }

    /// Ply `n` (1-based) of the current game's main line: the position it was played from
    /// and its move (to draw it); `None` for 0, beyond the last ply, or when its reading
    /// is undecided within the lap budget.
    #[must_use]
    pub fn ply(&self, n: usize) -> Option<(Position, Move)> {
        let live = self.live.as_ref()?;
        let n = n.checked_sub(1).filter(|&n| n < live.plies())?;
        let recorded = self.game().main_line().nth(n)?;
        let before = Live {
            rules: live.rules,
            directions: live.directions,
            positions: vec![live.positions[n]],
        };
        let mv = self
            .within(|e| before.candidates(recorded, e))
            .ok()?
            .into_iter()
            .find(|m| same_move(*m, recorded.token.value))?;
        Some((live.positions[n], mv))
    }

    /// [`Session::play_ply`], the ply followed by the comment `{note}` written in the same
    /// write (a clock, `[%clk 0:09:55]`): the ply is never on disk without it. Not after a
    /// ply that ends the game. `note` holds no brace.
    ///
    /// # Errors
    /// As [`Session::play_ply`].
    pub fn play_ply_noted(
        &mut self,
        ply: u64,
        line: &str,
        note: Option<String>,
    ) -> Result<PlyAnswer, SessionError> {
        self.note = note.filter(|n| !n.contains(['{', '}']) && !n.trim().is_empty());
        let answer = self.play_ply(ply, line);
        self.note = None;
        answer
    }

    /// Plays `line` (a move only, never a command) as ply `ply` (0-based) of the current
    /// game, so that a client that repeats a request cannot record a ply twice: the next
    /// ply is played; the ply before, with the move it holds, is [`PlyAnswer::Repeated`];
    /// anything else is [`PlyAnswer::OutOfTurn`]. A move that leaves a decision open is
    /// refused, whatever [`Asking`](crate::Asking) says: the caller asks and sends the
    /// whole move. Every engine question runs under [`Options::lap_budget`](crate::Options)
    /// (the move's reading, its play, and the end test of the position after it): a ply
    /// left undecided is refused ([`Refusal::LapBudget`](crate::Refusal::LapBudget)) with
    /// nothing written.
    ///
    /// # Errors
    /// As [`Session::handle`]: the record cannot be written (the session is over then).
    pub fn play_ply(&mut self, ply: u64, line: &str) -> Result<PlyAnswer, SessionError> {
        let Some(live) = self
            .live
            .as_ref()
            .filter(|_| matches!(self.stage, Stage::Moves))
        else {
            // The game's last ply sent again (its answer lost) once that ply ended the
            // game: the same ply, already recorded.
            let last = self.live.as_ref().map(Live::plies);
            let repeated = last.is_some_and(|plies| {
                usize::try_from(ply).ok().and_then(|p| p.checked_add(1)) == Some(plies)
                    && self
                        .within(|e| self.holds(plies - 1, line.trim(), e))
                        .unwrap_or(false)
            });
            return Ok(if repeated {
                PlyAnswer::Repeated
            } else {
                PlyAnswer::NoGame
            });
        };
        let plies = live.plies();
        let ply = usize::try_from(ply).unwrap_or(usize::MAX);
        if ply != plies {
            // The ply before is looked at under the budget too (undecided: not the same).
            let repeated = ply.checked_add(1) == Some(plies)
                && self
                    .within(|e| self.holds(ply, line.trim(), e))
                    .unwrap_or(false);
            // The last ply of a match's game sent again once the next game has begun (the
            // answer to it lost): the same ply, already recorded.
            let repeated = repeated
                || (plies == 0
                    && self.is_fresh_match_game()
                    && self
                        .within(|e| self.ended_game_with(ply, line.trim(), e))
                        .unwrap_or(false));
            return Ok(if repeated {
                PlyAnswer::Repeated
            } else {
                PlyAnswer::OutOfTurn { plies }
            });
        }
        let mut out = Vec::new();
        let in_full = match self.within(|e| self.written_in_full(line.trim(), e)) {
            Ok(m) => m,
            Err(u) => return Ok(PlyAnswer::Refused(vec![super::moves::over_budget(u)])),
        };
        let done = match in_full {
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
    /// writes that move), when several fit what it writes. Asked of `cx`.
    fn written_in_full(
        &self,
        line: &str,
        cx: &mut Engine,
    ) -> Option<(bao_notation::MoveItem, Move)> {
        let item = read_move(line).ok()?;
        let candidates = self.live.as_ref()?.candidates(&item, cx);
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

    /// Whether the game before the current one ends with ply `ply`, and that ply is the one
    /// move `line` stands for there (asked of `cx`).
    fn ended_game_with(&self, ply: usize, line: &str, cx: &mut Engine) -> bool {
        let Some(before) = self.current().checked_sub(1) else {
            return false;
        };
        let game = &self.record.games[before].value;
        if game.main_line().count() != ply.saturating_add(1) {
            return false;
        }
        Live::of_in(game, cx).is_ok_and(|live| holds_in(&live, game, ply, line, cx))
    }

    /// Whether ply `ply` of the current game is the one move `line` stands for there (asked
    /// of `cx`).
    fn holds(&self, ply: usize, line: &str, cx: &mut Engine) -> bool {
        self.live
            .as_ref()
            .is_some_and(|live| holds_in(live, self.game(), ply, line, cx))
    }
}

/// Whether ply `ply` of `game` (whose positions `live` holds) is the one move `line` stands
/// for there.
fn holds_in(
    live: &Live,
    game: &bao_notation::Game,
    ply: usize,
    line: &str,
    cx: &mut Engine,
) -> bool {
    let (Some(from), Ok(item)) = (live.positions.get(ply), read_move(line)) else {
        return false;
    };
    let Some(recorded) = game.main_line().nth(ply) else {
        return false;
    };
    let before = Live {
        rules: live.rules,
        directions: live.directions,
        positions: vec![*from],
    };
    let mut candidates = before.candidates(&item, cx);
    if candidates.len() > 1 {
        candidates.retain(|m| same_move(*m, item.token.value));
    }
    candidates.len() == 1 && same_move(candidates[0], recorded.token.value)
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
    use crate::{Asking, Options, Refusal};

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

    /// The moves before ply 4 of a game where South's A2 ends its lap in the functional
    /// nyumba: stop there, or sow on (safari).
    const BEFORE_A2: [&str; 4] = ["A7<*", "a5<", "A6<*", "a5>"];

    #[test]
    fn a_ply_into_the_functional_nyumba_is_stop_or_safari_as_written() {
        let mut after = Vec::new();
        for (line, written) in [("A2<", "3. A2< *\n"), ("A2<+", "3. A2<+ *\n")] {
            let dir = tempfile::tempdir().unwrap();
            let mut s = session(dir.path());
            for (ply, mv) in (0..).zip(BEFORE_A2) {
                assert!(
                    matches!(s.play_ply(ply, mv), Ok(PlyAnswer::Played(_))),
                    "{mv}"
                );
            }
            let Ok(PlyAnswer::Played(replies)) = s.play_ply(4, line) else {
                panic!("{line} is not played");
            };
            let Some(Reply::Played(played)) = replies.first() else {
                panic!("{replies:?}");
            };
            assert_eq!(played.trace.mv.is_safari(), line.ends_with('+'), "{line}");
            let text = std::fs::read_to_string(dir.path().join("g.bao")).unwrap();
            assert!(text.ends_with(written), "{text}");
            let state = s.game_state().unwrap();
            assert_eq!(state.plies, 5);
            after.push(state.position);
        }
        // The stop and the safari are two moves: two different positions.
        assert_ne!(after[0], after[1]);
    }

    #[test]
    fn a_ply_without_the_choice_is_the_question() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path());
        for (ply, mv) in (0..).zip(BEFORE_A2) {
            assert!(matches!(s.play_ply(ply, mv), Ok(PlyAnswer::Played(_))));
        }
        let before = std::fs::read_to_string(dir.path().join("g.bao")).unwrap();
        // The bare pit leaves stop or safari open: refused with both moves, the caller asks.
        let Ok(PlyAnswer::Refused(replies)) = s.play_ply(4, "A2") else {
            panic!("A2 is played");
        };
        let [Reply::Refused(Refusal::Undecided { candidates })] = &replies[..] else {
            panic!("{replies:?}");
        };
        let mut written: Vec<String> = candidates.iter().map(ToString::to_string).collect();
        written.sort();
        assert_eq!(written, ["A2<", "A2<+"]);
        assert_eq!(candidates.iter().filter(|m| m.is_safari()).count(), 1);
        // Nothing written, the game still waits for ply 4, and the session asks nothing.
        assert_eq!(
            std::fs::read_to_string(dir.path().join("g.bao")).unwrap(),
            before
        );
        assert_eq!(s.game_state().unwrap().plies, 4);
        assert!(matches!(s.prompt(), Some(crate::Prompt::Move { .. })));
        assert!(matches!(s.play_ply(4, "A2<+"), Ok(PlyAnswer::Played(_))));
    }

    /// A position whose legal moves are decided within any lap budget, where the end test
    /// after `A5<*` (has North a legal move?) runs a move past the 64 laps where
    /// never-ending detection begins.
    const LONG_END_TEST: &str =
        "0,0,8,1,13,9,0,1/6,0,0,2,4,0,3,1/0,1,0,1,1,2,3,2/1,1,2,1,0,0,1,0 0/0 S XX -";

    #[test]
    fn the_end_test_after_a_ply_runs_under_the_lap_budget() {
        for (budget, played) in [(Some(0), false), (None, true)] {
            let dir = tempfile::tempdir().unwrap();
            let options = Options {
                asking: Asking::Never,
                take_defaults: true,
                today: "2026.12.01".into(),
                answers: crate::Answers {
                    position: Some(LONG_END_TEST.into()),
                    ..crate::Answers::default()
                },
                lap_budget: budget,
            };
            let path = dir.path().join("g.bao");
            let mut s = Session::open(&path, options).unwrap();
            s.start().unwrap();
            let before = std::fs::read_to_string(&path).unwrap();
            let answer = s.play_ply(0, "A5<*").unwrap();
            if played {
                assert!(matches!(answer, PlyAnswer::Played(_)), "{answer:?}");
                assert_eq!(s.game_state().unwrap().plies, 1);
                continue;
            }
            let PlyAnswer::Refused(replies) = answer else {
                panic!("{answer:?}");
            };
            assert!(
                matches!(replies[..], [Reply::Refused(Refusal::LapBudget { laps_run })] if laps_run > 0),
                "{replies:?}"
            );
            // Nothing written, the ply still to come.
            assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
            assert_eq!(s.game_state().unwrap().plies, 0);
        }
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

    #[test]
    fn the_last_ply_sent_again_after_the_end_is_the_same_ply() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path());
        assert!(matches!(s.play_ply(0, "A6<*"), Ok(PlyAnswer::Played(_))));
        s.handle(crate::Input::Command(crate::Command::Resign { side: None }))
            .unwrap();
        let before = std::fs::read_to_string(dir.path().join("g.bao")).unwrap();
        assert!(matches!(s.play_ply(0, "A6<*"), Ok(PlyAnswer::Repeated)));
        // Another move at that ply, or a ply after it, is still refused.
        assert!(matches!(s.play_ply(0, "A7<*"), Ok(PlyAnswer::NoGame)));
        assert!(matches!(s.play_ply(1, "a5<"), Ok(PlyAnswer::NoGame)));
        let (from, mv) = s.last_ply().unwrap();
        assert!(from == s.live.as_ref().unwrap().positions[0]);
        assert_eq!(mv.to_string(), "A6<*");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("g.bao")).unwrap(),
            before
        );
    }
}
