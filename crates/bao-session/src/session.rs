//! The session: the record in memory and on disk, the game being recorded, and what it
//! waits for.

use std::path::Path;

use bao_core::{Engine, Move, Side, Undecided};
use bao_notation::meaning::MatchKey;
use bao_notation::{Game, GameResult, MoveItem, Notation, Record, Spanned, Tag};
use bao_validate::{check_bytes, CheckOptions};

use crate::command::{self, Command, Parsed};
use crate::error::{OpenError, SessionError};
use crate::game::{is_game, Live};
use crate::reply::{Board, Choice, Confirm, Ending, GameOver, Left, Prompt, Reopened, Reply};
use crate::score::score;
use crate::setup::{Answers, NewRecord, NextGame, Open};
use crate::store::Store;

mod commands;
mod moves;
mod questions;
mod served;

pub use served::{GameState, PlyAnswer};

/// Whether the session may ask a question when it lacks an answer.
///
/// The front end says so, the session does not guess: a terminal may ask, a script feeding
/// lines may not. A session that may not ask never waits for anything but a move or a
/// command: the tag questions take their defaults, a move that leaves a decision open is
/// refused with the moves it may stand for, and `resign`, `time` and `draw` end the game
/// without a confirmation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Asking {
    /// Ask: tag questions wait for an answer, a move that leaves a decision open is
    /// completed by a [`Reply::Choice`], an ending is confirmed ([`Reply::Confirm`]).
    #[default]
    Ask,
    /// Never ask: every tag question takes its default, and a move that leaves a decision
    /// open is refused ([`Refusal::Undecided`](crate::Refusal::Undecided)).
    Never,
}

/// How a session is set up.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Whether the session may ask.
    pub asking: Asking,
    /// Take the default of every tag question not answered beforehand (questions between
    /// moves are still asked).
    pub take_defaults: bool,
    /// Answers to the tag questions of a new record.
    pub answers: Answers,
    /// Today's date as the Date tag writes it (the Date question's default).
    pub today: String,
    /// Laps a move may run in never-ending detection in each engine question the session
    /// asks (the record's check when it is opened, a written move's reading, its play and
    /// the end test of the position after it); `None`: exact and unbounded (`bao record`).
    /// A question left undecided changes nothing: the move is refused
    /// ([`Refusal::LapBudget`](crate::Refusal::LapBudget)), a record whose check is
    /// undecided does not open (`bao::budget::undecided`). For a server, where one hostile
    /// position must not hold a thread for seconds.
    pub lap_budget: Option<u64>,
}

/// One input to a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input<'a> {
    /// A line as typed: a move, a command, or the answer to a question.
    Line(&'a str),
    /// A prompt command, already parsed (a front end with buttons).
    Command(Command),
    /// Give up the pending line: a move's open decision is cancelled, a question stands.
    Cancel,
    /// Leave the session; the file stays as it is (resumable).
    Leave,
}

/// What the session waits for.
#[derive(Debug, Clone)]
enum Stage {
    /// [`Session::start`] has not run.
    Unstarted,
    /// The tag questions of a new record.
    NewRecord(Box<NewRecord>),
    /// The players of a match's next game.
    NextGame(Box<NextGame>),
    /// A move or a command.
    Moves,
    /// The answer to a move's open decision.
    Choosing(Box<Pending>),
    /// `y` or `n` to an ending.
    Confirming(Confirm),
    /// The current game is over: `undo` takes its result back.
    Finished,
    /// The session is over.
    Over,
}

/// A written move with a decision open.
#[derive(Debug, Clone)]
struct Pending {
    /// The move as written (its glyphs go to the move played).
    item: MoveItem,
    /// The question asked.
    choice: Choice,
    /// The moves each option stands for.
    groups: Vec<Vec<Move>>,
}

/// A live game being recorded in a record file.
///
/// A session takes one [`Input`] at a time and returns its replies as data; it never
/// prints. The file is the canonical text of the record at every moment: each change is on
/// disk (written, `fsync`'ed) before the reply that reports it, an unfinished game ends with
/// the result `*`, and `bao check` accepts the file whenever it is looked at.
///
/// ```
/// use bao_session::{Input, Options, Reply, Session};
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("game.bao");
/// let options = Options { take_defaults: true, today: "2026.11.29".into(), ..Options::default() };
/// let mut session = Session::open(&path, options).unwrap();
/// let replies = session.start().unwrap();
/// assert!(matches!(replies.last(), Some(Reply::Board(_))));
/// let replies = session.handle(Input::Line("A6>*")).unwrap();
/// assert!(matches!(replies[0], Reply::Played(_)));
/// assert!(std::fs::read_to_string(&path).unwrap().ends_with("\n\n1. A6>* *\n"));
/// ```
#[derive(Debug)]
pub struct Session {
    name: String,
    store: Store,
    record: Record,
    /// How the record writes its moves (K.I.B.A. letters, `*` marks): the moves the session
    /// adds are written so.
    notation: Notation,
    options: Options,
    /// The current game replayed (`None` while a new record is set up).
    live: Option<Live>,
    stage: Stage,
    /// Whether a game was entered for recording: from then on, leaving reports what is
    /// saved.
    playing: bool,
    /// A move or a command was given at a tag question: the questions left take their
    /// defaults.
    defaults_now: bool,
    /// A comment to write after the next ply played, in the same write
    /// ([`Session::play_ply_noted`]).
    note: Option<String>,
}

impl Session {
    /// Opens `path` for recording: a missing or empty file starts a new record, a valid
    /// record resumes its last game (or starts its match's next game). Checks that the
    /// file and its directory can be written before anything else happens.
    ///
    /// # Errors
    /// The file cannot be read, is not a valid record (the validator's report), or cannot
    /// be written.
    pub fn open(path: &Path, options: Options) -> Result<Self, OpenError> {
        let name = path.display().to_string();
        let existing = match std::fs::read(path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(OpenError::Read(e)),
        };
        let mut record = Record::default();
        let mut text = None;
        if let Some(bytes) = &existing {
            let check = CheckOptions {
                lap_budget: options.lap_budget,
                ..CheckOptions::default()
            };
            let checked = check_bytes(&name, bytes, &check);
            if !checked.report.is_valid() {
                return Err(OpenError::Invalid(Box::new(checked.report)));
            }
            record = checked.record;
            text = Some(checked.report.text.to_string());
        }
        let notation = text
            .as_deref()
            .map_or(Notation::CANONICAL, |t| Notation::of_record(&record, t));
        let exact =
            matches!((&existing, &text), (Some(b), Some(t)) if b.as_slice() == t.as_bytes());
        let store = Store::open(path, text, exact).map_err(OpenError::Write)?;
        Ok(Self {
            name,
            store,
            record,
            notation,
            options,
            live: None,
            stage: Stage::Unstarted,
            playing: false,
            defaults_now: false,
            note: None,
        })
    }

    /// The record as it is on disk.
    #[must_use]
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The record's text as it is on disk (empty before anything was written).
    #[must_use]
    pub fn text(&self) -> &str {
        self.store.text()
    }

    /// What the session waits for; `None` once it is over.
    #[must_use]
    pub fn prompt(&self) -> Option<Prompt> {
        let question = |open: Open| Prompt::Question {
            question: open.question,
            default: open.default,
        };
        match &self.stage {
            Stage::Unstarted | Stage::Over => None,
            Stage::NewRecord(setup) => setup
                .next(&self.options.answers, &self.options.today)
                .map(question),
            Stage::NextGame(next) => next.next().map(question),
            Stage::Moves => self.live.as_ref().map(|live| Prompt::Move {
                turn: live.turn(),
                side: live.pos().to_move(),
            }),
            Stage::Choosing(p) => Some(Prompt::Choice {
                count: p.choice.options.len(),
            }),
            Stage::Confirming(c) => Some(Prompt::Confirm(*c)),
            Stage::Finished => Some(Prompt::Finished {
                result: self.written_result().unwrap_or(GameResult::Unknown),
            }),
        }
    }

    /// Starts: the tag questions of a new record (those answered beforehand are not asked),
    /// or the resumed game.
    ///
    /// # Errors
    /// An answer given beforehand does not do, the record cannot be written, or (a bug) its
    /// game does not replay.
    pub fn start(&mut self) -> Result<Vec<Reply>, SessionError> {
        let mut out = Vec::new();
        if !matches!(self.stage, Stage::Unstarted) {
            return Ok(out);
        }
        let started = if self.record.games.iter().any(|g| is_game(&g.value)) {
            self.stage = Stage::Over;
            self.resume(&mut out)
        } else {
            out.push(Reply::NewRecord);
            self.stage = Stage::NewRecord(Box::default());
            self.answer_setup(&mut out)
        };
        if started.is_err() {
            self.stage = Stage::Over;
        }
        started.map(|()| out)
    }

    /// Takes one input; returns the replies, every change they report already on disk.
    ///
    /// # Errors
    /// The record cannot be written, an answer given beforehand does not do, or (a bug) a
    /// game does not replay. The session is over then.
    pub fn handle(&mut self, input: Input<'_>) -> Result<Vec<Reply>, SessionError> {
        if matches!(self.stage, Stage::Unstarted) {
            return self.start();
        }
        let mut out = Vec::new();
        let done = match input {
            Input::Leave => {
                self.leave(&mut out);
                Ok(())
            }
            Input::Cancel => {
                match self.stage {
                    Stage::Choosing(_) => {
                        self.stage = Stage::Moves;
                        out.push(Reply::MoveCancelled);
                    }
                    Stage::Confirming(_) => {
                        self.stage = Stage::Moves;
                        out.push(Reply::NotConfirmed);
                    }
                    _ => {}
                }
                Ok(())
            }
            Input::Command(c) => match self.stage {
                Stage::Moves | Stage::Finished => self.command(c, &mut out),
                Stage::Choosing(_) | Stage::Confirming(_) => {
                    // A command given at a question drops it, as a typed one does.
                    self.stage = Stage::Moves;
                    out.push(Reply::QuestionDropped {
                        line: c.name().to_owned(),
                    });
                    self.command(c, &mut out)
                }
                Stage::NextGame(_) if c == Command::Undo => self.undo_result(&mut out),
                _ => Ok(()),
            },
            Input::Line(line) => self.line(line, &mut out),
        };
        if done.is_err() {
            self.stage = Stage::Over;
        }
        done.map(|()| out)
    }

    /// A line in whatever the session waits for.
    fn line(&mut self, line: &str, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        match &self.stage {
            Stage::NextGame(_) if is_undo(line) => self.undo_result(out),
            Stage::NewRecord(_) | Stage::NextGame(_) if is_quit(line) => {
                self.leave(out);
                Ok(())
            }
            Stage::NewRecord(_) | Stage::NextGame(_) if is_move(line) => {
                // A move at a tag question: the questions left take their defaults, the
                // game is written, and the move is taken as typed. (Any other text, a
                // command word too, is the answer: a tag may say anything.)
                self.defaults_now = true;
                let setup = if matches!(self.stage, Stage::NewRecord(_)) {
                    self.answer_setup(out)
                } else {
                    self.answer_next_game(out)
                };
                self.defaults_now = false;
                setup?;
                out.push(Reply::QuestionDropped {
                    line: line.trim().to_owned(),
                });
                self.move_line(line.trim(), out)
            }
            Stage::NewRecord(_) | Stage::NextGame(_) => self.answer(line, out),
            Stage::Moves | Stage::Finished => self.move_line(line.trim(), out),
            Stage::Choosing(_) => self.choose(line, out),
            Stage::Confirming(_) => self.confirm(line, out),
            Stage::Unstarted | Stage::Over => Ok(()),
        }
    }

    /// A line given at a question that is no answer to it: when it is a move or a command
    /// (not a bare number, which is always an answer), the question is dropped and the line
    /// taken at the move prompt; returns whether it was.
    fn drop_question(&mut self, line: &str, out: &mut Vec<Reply>) -> Result<bool, SessionError> {
        let line = line.trim();
        if !is_input(line) {
            return Ok(false);
        }
        self.stage = Stage::Moves;
        out.push(Reply::QuestionDropped {
            line: line.to_owned(),
        });
        self.move_line(line, out)?;
        Ok(true)
    }

    fn leave(&mut self, out: &mut Vec<Reply>) {
        let left = match (&self.live, self.playing) {
            (Some(_), true) if matches!(self.stage, Stage::Finished) => Left::Finished {
                result: self.written_result().unwrap_or(GameResult::Unknown),
            },
            (Some(live), true) => Left::Saved {
                plies: live.plies(),
            },
            _ => Left::NothingWritten,
        };
        out.push(Reply::Left(left));
        self.stage = Stage::Over;
    }

    fn live(&self) -> &Live {
        self.live
            .as_ref()
            .expect("a game is entered before moves are taken")
    }

    /// The index of the current game: the last entry that is a game (comments after the
    /// last result form an entry of their own, kept where it is).
    fn current(&self) -> usize {
        let games = &self.record.games;
        games
            .iter()
            .rposition(|g| is_game(&g.value))
            .unwrap_or(games.len().saturating_sub(1))
    }

    fn game(&self) -> &Game {
        &self.record.games[self.current()].value
    }

    fn game_mut(&mut self) -> &mut Game {
        let i = self.current();
        &mut self.record.games[i].value
    }

    fn save(&mut self) -> Result<(), SessionError> {
        self.store.save(&self.record).map_err(SessionError::Write)?;
        // The record as the text on disk reads: its spans point into that text, which the
        // next change is written over.
        let parsed = bao_notation::parse_record(self.store.text());
        if !parsed.has_errors() {
            self.record = parsed.record;
        }
        Ok(())
    }

    /// The players as the current game's tags name them.
    fn players(&self) -> (String, String) {
        let tag = |n: &str| {
            self.game()
                .tag(n)
                .map(|t| t.value.clone())
                .unwrap_or_else(|| n.to_owned())
        };
        (tag("South"), tag("North"))
    }

    fn board(&self) -> Reply {
        let (south, north) = self.players();
        let item = self.game().main_line().last();
        let token = item.map(|m| m.token.value);
        let last = self
            .live()
            .last_ply()
            .zip(token)
            .map(|((turn, side), token)| (turn, side, token));
        // Played under the session's budget, as it was when written.
        let last_played = item
            .and_then(|item| self.within(|e| self.live().last_played(item, e)).ok())
            .flatten();
        Reply::Board(Board {
            position: *self.live().pos(),
            last,
            last_played,
            south,
            north,
        })
    }

    /// The current game's result, when one is written (not `*`).
    fn written_result(&self) -> Option<GameResult> {
        self.game()
            .result
            .as_ref()
            .map(|r| r.value)
            .filter(|r| *r != GameResult::Unknown)
    }

    /// How the session has the validator check a text: under its lap budget.
    fn check_options(&self) -> CheckOptions {
        CheckOptions {
            lap_budget: self.options.lap_budget,
            ..CheckOptions::default()
        }
    }

    /// Runs engine work on an engine of its own, under the session's lap budget (exactly
    /// when it has none): `f` makes every engine call with the engine it is handed.
    fn within<T>(&self, f: impl FnOnce(&mut Engine) -> T) -> Result<T, Undecided> {
        let mut engine = Engine::new();
        match self.options.lap_budget {
            Some(laps) => engine.within(laps, f),
            None => Ok(f(&mut engine)),
        }
    }

    /// Whether the session answers its questions itself (with their defaults).
    fn answers_itself(&self) -> bool {
        self.options.take_defaults || self.options.asking == Asking::Never || self.defaults_now
    }

    /// Replays the current game and starts taking its moves.
    fn enter_game(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        self.live = Some(Live::of(self.game())?);
        self.play(out);
        Ok(())
    }

    fn play(&mut self, out: &mut Vec<Reply>) {
        self.playing = true;
        self.stage = Stage::Moves;
        out.push(self.board());
    }

    /// Resumes the last game of a valid record, or starts its match's next game.
    fn resume(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        let live = Live::of(self.game())?;
        let over = self
            .game()
            .result
            .as_ref()
            .is_some_and(|r| r.value != GameResult::Unknown);
        if !over {
            // Undecided within the budget: not known to be over; the game is resumed and
            // its moves stay undecided until asked again.
            let outcome = self.within(|e| e.outcome(live.pos())).ok().flatten();
            self.live = Some(live);
            if let Some(outcome) = outcome {
                // The rules ended the game but its result was not written yet.
                self.finish(
                    result_of(outcome.winner),
                    Ending::Rules(outcome.reason),
                    out,
                )?;
                return self.after_game(out);
            }
            out.push(Reply::Resuming {
                ply: self.live().plies(),
            });
            self.play(out);
            return Ok(());
        }
        self.live = Some(live);
        if let Some(key) = MatchKey::of(self.game()) {
            let score = score(&key, self.record.games.iter().map(|g| &g.value));
            if score.winner.is_none() && score.played < 3 {
                return self.after_game(out);
            }
        }
        // A finished game (or a decided match): its last game is opened again, to correct
        // its end with `undo`; the games before it are not touched.
        let games = self
            .record
            .games
            .iter()
            .filter(|g| is_game(&g.value))
            .count();
        out.push(Reply::Reopened(Reopened {
            game: games,
            games,
            result: self.written_result().unwrap_or(GameResult::Unknown),
            plies: self.live().plies(),
        }));
        self.playing = true;
        out.push(self.board());
        self.stage = Stage::Finished;
        Ok(())
    }

    /// Writes the current game's result and Termination.
    fn finish(
        &mut self,
        result: GameResult,
        ending: Ending,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        self.write_result(result, ending);
        self.save()?;
        out.push(self.game_over(result, ending));
        Ok(())
    }

    fn write_result(&mut self, result: GameResult, ending: Ending) {
        let game = self.game_mut();
        game.result = Some(Spanned::bare(result));
        for (name, value) in [
            ("Result", result.as_str()),
            ("Termination", ending.tag_value()),
        ] {
            match game.tags.iter_mut().find(|t| t.value.name.value == name) {
                Some(t) => t.value.value.value = value.to_owned(),
                None => game.tags.push(Spanned::bare(Tag::new(name, value))),
            }
        }
    }

    fn game_over(&self, result: GameResult, ending: Ending) -> Reply {
        let (south, north) = self.players();
        Reply::GameOver(GameOver {
            result,
            ending,
            south,
            north,
        })
    }

    /// After a game: the match score, and the next game if the match goes on. A single
    /// game, or the match's last, stays open for `undo` ([`Prompt::Finished`]).
    fn after_game(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        self.stage = Stage::Finished;
        let Some(key) = MatchKey::of(self.game()) else {
            out.push(Reply::Saved);
            return Ok(());
        };
        let score = score(&key, self.record.games.iter().map(|g| &g.value));
        if score.winner.is_some() || score.played >= 3 {
            out.push(Reply::MatchOver(score));
            return Ok(());
        }
        let number = score.played + 1;
        out.push(Reply::MatchScore(score));
        out.push(Reply::NextGame { number });
        self.stage = Stage::NextGame(Box::new(NextGame {
            number,
            last: self.players(),
            south: None,
            north: None,
        }));
        self.answer_next_game(out)
    }
}

/// Whether a line given at a question is a move or a command rather than an answer: a
/// command word, or a move (a bare number is always an answer, never a K.I.B.A.
/// number-only pit; an empty line too).
fn is_input(line: &str) -> bool {
    let line = line.trim();
    let number = line.bytes().all(|b| b.is_ascii_digit());
    !number && (command::parse(line) != Parsed::NotACommand || crate::game::read_move(line).is_ok())
}

/// Whether a line reads as one move (not a bare number, which is an answer).
fn is_move(line: &str) -> bool {
    let line = line.trim();
    !line.bytes().all(|b| b.is_ascii_digit()) && crate::game::read_move(line).is_ok()
}

/// Whether a line is the `quit` command (or an alias) alone.
fn is_quit(line: &str) -> bool {
    matches!(
        command::parse(line.trim()),
        Parsed::Command(Command::Quit { rest: None })
    )
}

/// Whether a line is the `undo` command (or its alias).
fn is_undo(line: &str) -> bool {
    command::parse(line.trim()) == Parsed::Command(Command::Undo)
}

/// The result for a winner (`None`: a draw).
fn result_of(winner: Option<Side>) -> GameResult {
    match winner {
        Some(Side::South) => GameResult::SouthWins,
        Some(Side::North) => GameResult::NorthWins,
        None => GameResult::Draw,
    }
}
