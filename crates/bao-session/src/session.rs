//! The session: the record in memory and on disk, the game being recorded, and what it
//! waits for.

use std::path::Path;
use std::sync::Arc;

use bao_core::{Move, Side, Sign, Stage as GameStage};
use bao_notation::{
    write_record, Comment, Element, Game, GameResult, MoveItem, MoveToken, Nag, Record, Spanned,
    Tag, WriteOptions,
};
use bao_validate::{check_bytes, check_text, AnyDiagnostic, CheckOptions};

use crate::command::{self, Command, Help, Parsed};
use crate::error::{OpenError, SessionError};
use crate::game::{is_game, read_move, Live};
use crate::reply::{
    Board, Choice, ChoiceOption, Decision, Ending, GameOver, Left, OptionKind, Played, Prompt,
    Question, Refusal, Reply,
};
use crate::score::score;
use crate::setup::{check, Answers, NewRecord, NextGame, Open};
use crate::store::Store;

/// Tags the session keeps for itself: they cannot be set with `tag`.
const OWN_TAGS: [&str; 8] = [
    "Result",
    "Termination",
    "RuleSet",
    "Rules",
    "Position",
    "Directions",
    "Match",
    "Game",
];

/// Whether the session may ask a question when it lacks an answer.
///
/// The front end says so, the session does not guess: a terminal may ask, a script feeding
/// lines may not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Asking {
    /// Ask: tag questions wait for an answer, a move that leaves a decision open is
    /// completed by a [`Reply::Choice`].
    #[default]
    Ask,
    /// Never ask: every tag question takes its default, and a move that leaves a decision
    /// open is refused ([`Refusal::Undecided`]).
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
    options: Options,
    /// The current game replayed (`None` while a new record is set up).
    live: Option<Live>,
    stage: Stage,
    /// Whether a game was entered for recording: from then on, leaving reports what is
    /// saved.
    playing: bool,
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
            let checked = check_bytes(&name, bytes, &CheckOptions::default());
            if !checked.report.is_valid() {
                return Err(OpenError::Invalid(Box::new(checked.report)));
            }
            record = checked.record;
            text = Some(String::from_utf8_lossy(bytes).into_owned());
        }
        let store = Store::open(path, text).map_err(OpenError::Write)?;
        Ok(Self {
            name,
            store,
            record,
            options,
            live: None,
            stage: Stage::Unstarted,
            playing: false,
        })
    }

    /// The record as it is on disk.
    #[must_use]
    pub fn record(&self) -> &Record {
        &self.record
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
                if matches!(self.stage, Stage::Choosing(_)) {
                    self.stage = Stage::Moves;
                    out.push(Reply::MoveCancelled);
                }
                Ok(())
            }
            Input::Command(c) if matches!(self.stage, Stage::Moves) => self.command(c, &mut out),
            Input::Command(_) => Ok(()),
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
            Stage::NewRecord(_) | Stage::NextGame(_) => self.answer(line, out),
            Stage::Moves => self.move_line(line.trim(), out),
            Stage::Choosing(_) => self.choose(line, out),
            Stage::Unstarted | Stage::Over => Ok(()),
        }
    }

    fn leave(&mut self, out: &mut Vec<Reply>) {
        let left = match (&self.live, self.playing) {
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
        self.store
            .save(&self.record)
            .map(|_| ())
            .map_err(SessionError::Write)
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
        Reply::Board(Board {
            position: *self.live().pos(),
            south,
            north,
        })
    }

    /// Whether the session answers its questions itself (with their defaults).
    fn answers_itself(&self) -> bool {
        self.options.take_defaults || self.options.asking == Asking::Never
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
            let outcome = live.pos().outcome();
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
        if self.game().tag("Match").is_some() {
            return self.after_game(out);
        }
        Err(SessionError::FinishedGamesOnly)
    }

    /// An answer to the open tag or player question.
    fn answer(&mut self, line: &str, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        let Some(open) = self.open_question() else {
            return Ok(());
        };
        let answer = line.trim();
        let answer = if answer.is_empty() {
            open.default.as_str()
        } else {
            answer
        };
        match check(open.question, answer) {
            Ok(v) => {
                self.set_answer(open.question, v);
                match self.stage {
                    Stage::NewRecord(_) => self.answer_setup(out),
                    _ => self.answer_next_game(out),
                }
            }
            Err(problem) => {
                out.push(Reply::BadAnswer(problem));
                Ok(())
            }
        }
    }

    fn open_question(&self) -> Option<Open> {
        match &self.stage {
            Stage::NewRecord(s) => s.next(&self.options.answers, &self.options.today),
            Stage::NextGame(n) => n.next(),
            _ => None,
        }
    }

    fn set_answer(&mut self, question: Question, value: String) {
        match &mut self.stage {
            Stage::NewRecord(s) => s.set(question, value),
            Stage::NextGame(n) => n.set(question, value),
            _ => {}
        }
    }

    /// Answers the open questions that are answered beforehand (or by default) until one
    /// must be asked; returns whether every question is answered.
    fn answer_given(&mut self) -> Result<bool, SessionError> {
        while let Some(open) = self.open_question() {
            let given = match open.given {
                Some(g) => g,
                None if self.answers_itself() => open.default,
                None => return Ok(false),
            };
            let value = check(open.question, &given).map_err(|problem| SessionError::Answer {
                question: open.question,
                problem,
            })?;
            self.set_answer(open.question, value);
        }
        Ok(true)
    }

    /// Goes on with the tag questions; writes the record once they are answered.
    fn answer_setup(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        if !self.answer_given()? {
            return Ok(());
        }
        let Stage::NewRecord(setup) = std::mem::replace(&mut self.stage, Stage::Over) else {
            return Ok(());
        };
        let game = setup.game(&self.options.answers)?;
        self.record.games.push(Spanned::bare(game));
        self.save()?;
        out.push(Reply::Recording);
        self.enter_game(out)
    }

    /// Goes on with the next game's players; writes the game once they are answered.
    fn answer_next_game(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        if !self.answer_given()? {
            return Ok(());
        }
        let Stage::NextGame(next) = std::mem::replace(&mut self.stage, Stage::Over) else {
            return Ok(());
        };
        let game = next.game(self.game());
        self.record.games.push(Spanned::bare(game));
        self.save()?;
        self.enter_game(out)
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

    /// After a game: the match score, and the next game if the match goes on.
    fn after_game(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        self.stage = Stage::Over;
        let Some(name) = self.game().tag("Match").map(|t| t.value.clone()) else {
            out.push(Reply::Saved);
            return Ok(());
        };
        let score = score(&name, self.record.games.iter().map(|g| &g.value));
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

    /// One line at the move prompt.
    fn move_line(&mut self, line: &str, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        if line.is_empty() {
            return Ok(());
        }
        match command::parse(line) {
            Parsed::Command(c) => self.command(c, out),
            Parsed::Misused(name) => {
                let refusal = match name.as_str() {
                    "resign" => Refusal::BadSide { command: "resign" },
                    "time" => Refusal::BadSide { command: "time" },
                    "comment" => Refusal::EmptyComment,
                    "tag" => Refusal::TagSyntax,
                    // A word that takes nothing, followed by something: perhaps a move.
                    _ => return self.try_move(line, out),
                };
                out.push(Reply::Refused(refusal));
                Ok(())
            }
            Parsed::NotACommand if line.starts_with('{') => {
                let inner = line.trim_start_matches('{').trim_end_matches('}');
                self.comment(inner.trim(), out)
            }
            Parsed::NotACommand if Nag::from_glyph(line).is_some() || line.starts_with('$') => {
                self.glyph(line, out)
            }
            Parsed::NotACommand => self.try_move(line, out),
        }
    }

    /// A prompt command.
    fn command(&mut self, command: Command, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        let reply = match command {
            Command::Undo => return self.undo(out),
            Command::Comment { text } => return self.comment(text.trim(), out),
            Command::Resign { side } => {
                return self.loss(side.map(Side::from), Ending::Resignation, out);
            }
            Command::Time { side } => {
                return self.loss(side.map(Side::from), Ending::TimeForfeit, out);
            }
            Command::Draw => return self.draw(out),
            Command::Tag { name, value } => return self.set_tag(&name, value.as_deref(), out),
            Command::Quit { .. } => {
                self.leave(out);
                return Ok(());
            }
            Command::Tags { .. } => Reply::Tags(
                self.game()
                    .tags
                    .iter()
                    .map(|t| (t.value.name.value.clone(), t.value.value.value.clone()))
                    .collect(),
            ),
            Command::Board => self.board(),
            Command::Legal => Reply::Legal(self.live().pos().legal_moves()),
            Command::Help { .. } => Reply::Help(Help::new()),
        };
        out.push(reply);
        Ok(())
    }

    /// Takes back the last ply of the current game (and what follows it in the movetext).
    fn undo(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        let game = self.game_mut();
        let Some(at) = game
            .movetext
            .iter()
            .rposition(|e| matches!(e.value, Element::Move(_)))
        else {
            out.push(Reply::Refused(Refusal::NothingToUndo));
            return Ok(());
        };
        let removed = game.movetext.drain(at..).find_map(|e| match e.value {
            Element::Move(m) => Some(m.token.value),
            _ => None,
        });
        self.save()?;
        if let Some(live) = &mut self.live {
            live.positions.pop();
        }
        if let Some(token) = removed {
            out.push(Reply::TookBack(token));
        }
        out.push(self.board());
        Ok(())
    }

    fn comment(&mut self, text: &str, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        let refusal = if text.is_empty() {
            Refusal::EmptyComment
        } else if text.contains(['{', '}']) {
            Refusal::BraceInComment
        } else {
            self.game_mut()
                .movetext
                .push(Spanned::bare(Element::Comment(Comment::brace(text))));
            self.save()?;
            out.push(Reply::CommentAdded);
            return Ok(());
        };
        out.push(Reply::Refused(refusal));
        Ok(())
    }

    fn glyph(&mut self, text: &str, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        let nag = Nag::from_glyph(text).or_else(|| {
            text.strip_prefix('$')
                .and_then(|n| n.parse::<u8>().ok())
                .map(Nag)
        });
        let Some(nag) = nag else {
            out.push(Reply::Refused(Refusal::NoGlyph {
                text: text.to_owned(),
            }));
            return Ok(());
        };
        let last = self
            .game_mut()
            .movetext
            .iter_mut()
            .rev()
            .find_map(|e| match &mut e.value {
                Element::Move(m) => Some(m),
                _ => None,
            });
        let Some(item) = last else {
            out.push(Reply::Refused(Refusal::GlyphWithoutPly));
            return Ok(());
        };
        item.nags.push(Spanned::bare(nag));
        let token = item.token.value;
        self.save()?;
        out.push(Reply::Marked {
            token,
            glyph: text.to_owned(),
        });
        Ok(())
    }

    /// `resign [side]` or `time [side]`: that side loses outside the rules.
    fn loss(
        &mut self,
        side: Option<Side>,
        ending: Ending,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        let side = side.unwrap_or_else(|| self.live().pos().to_move());
        self.finish(result_of(Some(side.opponent())), ending, out)?;
        self.after_game(out)
    }

    fn draw(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        if self.live().rules.endless_move != bao_core::EndlessMove::Draw {
            out.push(Reply::Refused(Refusal::NoDraws));
            return Ok(());
        }
        self.finish(GameResult::Draw, Ending::Agreement, out)?;
        self.after_game(out)
    }

    fn set_tag(
        &mut self,
        name: &str,
        value: Option<&str>,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        let value = value.unwrap_or_default().trim().trim_matches('"');
        let valid_name = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid_name {
            out.push(Reply::Refused(Refusal::TagSyntax));
            return Ok(());
        }
        let canonical = bao_notation::KNOWN_TAGS
            .iter()
            .find(|k| k.eq_ignore_ascii_case(name))
            .map_or(name, |k| *k)
            .to_owned();
        if OWN_TAGS.contains(&canonical.as_str()) {
            out.push(Reply::Refused(Refusal::OwnTag { name: canonical }));
            return Ok(());
        }
        let mut record = self.record.clone();
        if let Some(g) = record.games.get_mut(self.current()) {
            let game = &mut g.value;
            match game
                .tags
                .iter_mut()
                .find(|t| t.value.name.value == canonical)
            {
                Some(t) => t.value.value.value = value.to_owned(),
                None => game.tags.push(Spanned::bare(Tag::new(&canonical, value))),
            }
        }
        // The file stays a valid record: a change the validator objects to (players that
        // differ from the match's earlier games) is refused.
        let text = write_record(&record, &WriteOptions::default());
        let report = check_text(&self.name, Arc::from(text), &CheckOptions::default());
        if !report.is_valid() {
            out.push(Reply::TagRefused(Box::new(report)));
            return Ok(());
        }
        self.record = record;
        self.save()?;
        out.push(Reply::TagSet {
            name: canonical,
            value: value.to_owned(),
        });
        Ok(())
    }

    /// A line that should be a move.
    fn try_move(&mut self, line: &str, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        let item = match read_move(line) {
            Ok(item) => item,
            Err(refusal) => {
                out.push(Reply::Refused(refusal));
                return Ok(());
            }
        };
        let candidates = self.live().candidates(&item);
        if candidates.is_empty() {
            self.explain_illegal(&item, out);
            return Ok(());
        }
        self.decide(item, candidates, out)
    }

    /// The validator's diagnostic for a move that is not legal here, as `bao check` would
    /// give it for the record with that move appended, and the legal moves.
    fn explain_illegal(&self, item: &MoveItem, out: &mut Vec<Reply>) {
        let mut record = self.record.clone();
        if let Some(g) = record.games.get_mut(self.current()) {
            g.value
                .movetext
                .push(Spanned::bare(Element::Move(item.clone())));
        }
        let before = write_record(&self.record, &WriteOptions::default());
        let text = write_record(&record, &WriteOptions::default());
        let from = before
            .bytes()
            .zip(text.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let mut report = check_text(&self.name, Arc::from(text), &CheckOptions::default());
        report
            .diagnostics
            .retain(|d: &AnyDiagnostic| d.span().is_some_and(|s| s.start >= from));
        report.stats.errors = report.diagnostics.iter().filter(|d| d.is_error()).count();
        report.stats.warnings = report.diagnostics.len() - report.stats.errors;
        out.push(Reply::Illegal {
            written: item.token.value,
            report: (!report.diagnostics.is_empty()).then(|| Box::new(report)),
        });
        out.push(Reply::Legal(self.live().pos().legal_moves()));
    }

    /// Settles the decisions a written move leaves open: the sign (kichwa or direction),
    /// then stop at the house or safari; plays the move once none is left.
    fn decide(
        &mut self,
        item: MoveItem,
        moves: Vec<Move>,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        let live = self.live();
        let pos = *live.pos();
        let mut signs: Vec<Sign> = moves.iter().map(|m| m.sign).collect();
        signs.dedup();
        let (decision, groups): (Decision, Vec<(OptionKind, Vec<Move>)>) = if signs.len() > 1 {
            let namua_capture = pos.stage() == GameStage::Namua && !moves[0].takasa;
            let groups = signs
                .iter()
                .map(|&s| {
                    let kind = match (namua_capture, s) {
                        (true, Sign::Left) => OptionKind::LeftKichwa,
                        (true, Sign::Right) => OptionKind::RightKichwa,
                        (false, Sign::Left) => OptionKind::Left,
                        (false, Sign::Right) => OptionKind::Right,
                    };
                    (
                        kind,
                        moves.iter().copied().filter(|m| m.sign == s).collect(),
                    )
                })
                .collect();
            let decision = if namua_capture {
                Decision::Kichwa
            } else {
                Decision::Direction
            };
            (decision, groups)
        } else if moves.len() > 1 {
            let groups = moves
                .iter()
                .map(|m| {
                    let kind = if m.safari {
                        OptionKind::Safari
                    } else {
                        OptionKind::Stop
                    };
                    (kind, vec![*m])
                })
                .collect();
            (Decision::Safari, groups)
        } else {
            return self.play_move(&item, moves[0], out);
        };
        if self.options.asking == Asking::Never {
            out.push(Reply::Refused(Refusal::Undecided { candidates: moves }));
            return Ok(());
        }
        let options = groups
            .iter()
            .map(|(kind, group)| ChoiceOption {
                kind: *kind,
                shown: group[0],
                trace: pos.play_unchecked(&group[0]).1,
            })
            .collect();
        let choice = Choice {
            decision,
            pit: moves[0].pit,
            before: pos,
            rules: live.rules,
            options,
        };
        out.push(Reply::Choice(choice.clone()));
        self.stage = Stage::Choosing(Box::new(Pending {
            item,
            choice,
            groups: groups.into_iter().map(|(_, g)| g).collect(),
        }));
        Ok(())
    }

    /// The answer to a move's open decision: the number, the key, or the move itself.
    fn choose(&mut self, answer: &str, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        let Stage::Choosing(pending) = &self.stage else {
            return Ok(());
        };
        let a = answer.trim();
        if a.is_empty() {
            self.stage = Stage::Moves;
            out.push(Reply::MoveCancelled);
            return Ok(());
        }
        let lower = a.to_ascii_lowercase();
        let hit = pending
            .choice
            .options
            .iter()
            .zip(&pending.groups)
            .enumerate()
            .find(|(i, (option, group))| {
                lower == (i + 1).to_string()
                    || option.kind.answers_to(&lower)
                    || group.iter().any(|m| m.to_string().eq_ignore_ascii_case(a))
            })
            .map(|(_, (_, group))| group.clone());
        let Some(group) = hit else {
            out.push(Reply::BadAnswer(
                crate::reply::AnswerProblem::NoSuchOption {
                    count: pending.choice.options.len(),
                },
            ));
            return Ok(());
        };
        let item = pending.item.clone();
        self.stage = Stage::Moves;
        self.decide(item, group, out)
    }

    /// Plays a legal move, writes it, then reports it.
    fn play_move(
        &mut self,
        item: &MoveItem,
        mv: Move,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        let live = self.live();
        let before = *live.pos();
        let rules = live.rules;
        let (next, trace) = before.play(&mv).map_err(SessionError::Engine)?;
        let mut token = MoveToken::from(mv);
        token.claims_takasia = trace.takasia_set().is_some();
        token.claims_win = trace.outcome.is_some_and(|o| o.winner == Some(trace.mover));
        let mut new = MoveItem::new(token);
        new.nags.clone_from(&item.nags);
        self.game_mut()
            .movetext
            .push(Spanned::bare(Element::Move(new)));
        if let Some(live) = &mut self.live {
            live.positions.push(next);
        }
        let outcome = trace.outcome;
        let played = Reply::Played(Played {
            before,
            trace,
            rules,
        });
        if let Some(o) = outcome {
            let (result, ending) = (result_of(o.winner), Ending::Rules(o.reason));
            self.write_result(result, ending);
            self.save()?;
            out.push(played);
            out.push(self.game_over(result, ending));
            return self.after_game(out);
        }
        self.save()?;
        out.push(played);
        out.push(self.board());
        Ok(())
    }
}

/// The result for a winner (`None`: a draw).
fn result_of(winner: Option<Side>) -> GameResult {
    match winner {
        Some(Side::South) => GameResult::SouthWins,
        Some(Side::North) => GameResult::NorthWins,
        None => GameResult::Draw,
    }
}
