//! A line at the move prompt: a command, a comment, a glyph, or (else) a move.

use std::sync::Arc;

use bao_core::Side;
use bao_notation::{write_record, Comment, Element, GameResult, Nag, Spanned, Tag, WriteOptions};
use bao_validate::{check_text, CheckOptions};

use super::{result_of, Session};
use crate::command::{self, Command, Help, Parsed};
use crate::error::SessionError;
use crate::reply::{Ending, Refusal, Reply};

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
            Parsed::NotACommand => self.try_move(line, out),
        }
    }

    /// A prompt command.
    pub(super) fn command(
        &mut self,
        command: Command,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
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
    pub(super) fn undo(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
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

    pub(super) fn glyph(&mut self, text: &str, out: &mut Vec<Reply>) -> Result<(), SessionError> {
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
    pub(super) fn loss(
        &mut self,
        side: Option<Side>,
        ending: Ending,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        let side = side.unwrap_or_else(|| self.live().pos().to_move());
        self.finish(result_of(Some(side.opponent())), ending, out)?;
        self.after_game(out)
    }

    pub(super) fn draw(&mut self, out: &mut Vec<Reply>) -> Result<(), SessionError> {
        if self.live().rules.endless_move != bao_core::EndlessMove::Draw {
            out.push(Reply::Refused(Refusal::NoDraws));
            return Ok(());
        }
        self.finish(GameResult::Draw, Ending::Agreement, out)?;
        self.after_game(out)
    }

    pub(super) fn set_tag(
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
}
