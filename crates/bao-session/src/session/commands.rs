//! A line at the move prompt: a command, a comment, a glyph, or (else) a move.

use std::sync::Arc;

use bao_core::Side;
use bao_notation::meaning::MatchKey;
use bao_notation::{
    is_tag_name, write_record, Comment, Element, GameResult, Nag, Spanned, Tag, WriteOptions,
};
use bao_validate::check_text;

use super::{result_of, Asking, Session, Stage};
use crate::command::{self, Command, Help, Parsed};
use crate::error::SessionError;
use crate::reply::{AnswerProblem, Confirm, Ending, Refusal, Reply};

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

impl Session {
    /// One line at the move prompt.
    pub(super) fn move_line(
        &mut self,
        line: &str,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
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
            Parsed::NotACommand => match self.written_result() {
                Some(result) if matches!(self.stage, Stage::Finished) => {
                    out.push(Reply::Refused(Refusal::GameOver { result }));
                    Ok(())
                }
                _ => self.try_move(line, out),
            },
        }
    }

    /// A prompt command.
    pub(super) fn command(
        &mut self,
        command: Command,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        if let (Stage::Finished, Some(result)) = (&self.stage, self.written_result()) {
            match command {
                Command::Undo => return self.undo_result(out),
                Command::Resign { .. } | Command::Time { .. } | Command::Draw | Command::Legal => {
                    out.push(Reply::Refused(Refusal::GameOver { result }));
                    return Ok(());
                }
                _ => {}
            }
        }
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
            Command::Tags { .. } => Reply::Tags(self.game().tag_pairs().collect()),
            Command::Board => self.board(),
            Command::Legal => match self.within(|e| e.legal_moves(self.live().pos())) {
                Ok(legal) => Reply::Legal(legal.to_vec()),
                Err(u) => Reply::Refused(Refusal::LapBudget {
                    laps_run: u.laps_run,
                }),
            },
            Command::Help { .. } => Reply::Help(Help::new()),
        };
        out.push(reply);
        Ok(())
    }

    /// Takes back the last ply of the current game (and what follows it in the movetext).
    /// At the start of a match's next game, before its first ply, the game is removed and
    /// the result of the game before is taken back.
    pub(super) fn undo(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        let game = self.game_mut();
        let Some(at) = game
            .movetext
            .iter()
            .rposition(|e| matches!(e.value, Element::Move(_)))
        else {
            if self.is_fresh_match_game() {
                let i = self.current();
                self.record.games.remove(i);
                self.live = Some(crate::game::Live::of(self.game())?);
                return self.undo_result(out);
            }
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

    pub(super) fn comment(&mut self, text: &str, out: &mut Vec<Reply>) -> Result<(), SessionError> {
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

    /// Whether the current game is a match's game after the first, with nothing recorded
    /// in it yet, following a game of the same match.
    pub(super) fn is_fresh_match_game(&self) -> bool {
        let i = self.current();
        let game = self.game();
        let number = game
            .tag("Game")
            .and_then(|t| t.value.trim().parse::<usize>().ok());
        i > 0
            && number.is_some_and(|n| n > 1)
            && game.movetext.is_empty()
            && game.comments.is_empty()
            && MatchKey::of(&self.record.games[i - 1].value) == MatchKey::of(game)
    }

    /// `undo` after the end of the current game: its result and Termination are taken
    /// back; when the rules ended it, its last ply too.
    pub(super) fn undo_result(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        let Some(result) = self.written_result() else {
            out.push(Reply::Refused(Refusal::NothingToUndo));
            return Ok(());
        };
        // The rules ended it when the last position is over; undecided within the budget,
        // it is not known to be: only the result is taken back.
        let by_rules = self
            .within(|e| e.outcome(self.live().pos()).is_some())
            .unwrap_or(false);
        let game = self.game_mut();
        game.result = Some(Spanned::bare(GameResult::Unknown));
        game.tags.retain(|t| t.value.name.value != "Termination");
        if let Some(t) = game
            .tags
            .iter_mut()
            .find(|t| t.value.name.value == "Result")
        {
            GameResult::Unknown
                .as_str()
                .clone_into(&mut t.value.value.value);
        }
        self.stage = Stage::Moves;
        if by_rules {
            out.push(Reply::ResultTakenBack { result });
            return self.undo(out);
        }
        self.save()?;
        out.push(Reply::ResultTakenBack { result });
        out.push(self.board());
        Ok(())
    }

    pub(super) fn glyph(&mut self, text: &str, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        let Some(nag) = Nag::parse_word(text) else {
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

    /// `resign [side]` or `time [side]`: that side loses outside the rules (once
    /// confirmed, where the session may ask).
    pub(super) fn loss(
        &mut self,
        side: Option<Side>,
        ending: Ending,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        let side = side.unwrap_or_else(|| self.live().pos().to_move());
        self.end(
            Confirm {
                ending,
                result: result_of(Some(side.opponent())),
                loser: Some(side),
            },
            out,
        )
    }

    pub(super) fn draw(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        if self.live().rules.endless_move != bao_core::EndlessMove::Draw {
            out.push(Reply::Refused(Refusal::NoDraws));
            return Ok(());
        }
        self.end(
            Confirm {
                ending: Ending::Agreement,
                result: GameResult::Draw,
                loser: None,
            },
            out,
        )
    }

    /// An ending outside the rules: asked to be confirmed where the session may ask,
    /// written at once otherwise.
    fn end(&mut self, end: Confirm, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        if self.options.asking == Asking::Ask {
            out.push(Reply::Confirm(end));
            self.stage = Stage::Confirming(end);
            return Ok(());
        }
        self.finish(end.result, end.ending, out)?;
        self.after_game(out)
    }

    /// The answer to an ending's confirmation.
    pub(super) fn confirm(
        &mut self,
        answer: &str,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        let Stage::Confirming(end) = &self.stage else {
            return Ok(());
        };
        let end = *end;
        match answer.trim().to_ascii_lowercase().as_str() {
            "y" | "yes" => {
                self.stage = Stage::Moves;
                self.finish(end.result, end.ending, out)?;
                self.after_game(out)
            }
            "" | "n" | "no" => {
                self.stage = Stage::Moves;
                out.push(Reply::NotConfirmed);
                Ok(())
            }
            _ if self.drop_question(answer, out)? => Ok(()),
            _ => {
                out.push(Reply::BadAnswer(AnswerProblem::YesOrNo));
                Ok(())
            }
        }
    }

    pub(super) fn set_tag(
        &mut self,
        name: &str,
        value: Option<&str>,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        let value = value.unwrap_or_default().trim().trim_matches('"');
        if !is_tag_name(name) {
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
        let report = check_text(&self.name, Arc::from(text), &self.check_options());
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
}
