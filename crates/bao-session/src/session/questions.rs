//! Answers to the questions that set up a game (the tags of a new record, the players of
//! a match's next game).

use bao_notation::Spanned;

use super::{Session, Stage};
use crate::error::SessionError;
use crate::reply::{Question, Reply};
use crate::setup::{check, Open};

impl Session {
    /// An answer to the open tag or player question.
    pub(super) fn answer(&mut self, line: &str, out: &mut Vec<Reply>) -> Result<(), SessionError> {
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

    pub(super) fn open_question(&self) -> Option<Open> {
        match &self.stage {
            Stage::NewRecord(s) => s.next(&self.options.answers, &self.options.today),
            Stage::NextGame(n) => n.next(),
            _ => None,
        }
    }

    pub(super) fn set_answer(&mut self, question: Question, value: String) {
        match &mut self.stage {
            Stage::NewRecord(s) => s.set(question, value),
            Stage::NextGame(n) => n.set(question, value),
            _ => {}
        }
    }

    /// Answers the open questions that are answered beforehand (or by default) until one
    /// must be asked; returns whether every question is answered.
    pub(super) fn answer_given(&mut self) -> Result<bool, SessionError> {
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
    pub(super) fn answer_setup(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
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
    pub(super) fn answer_next_game(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
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
}
