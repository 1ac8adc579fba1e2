//! The questions that set up a game: the tags of a new record, the players of a match's
//! next game. Each has a default; an answer may be given beforehand ([`Answers`]).

use bao_core::Side;
use bao_notation::date::valid_date;
use bao_notation::{Game, GameResult, Spanned, Tag};

use crate::error::SessionError;
use crate::game;
use crate::reply::{AnswerProblem, Question};

/// The value of a tag that is not known, as `bao new` writes it.
const UNKNOWN: &str = "?";

/// Whether the new record is a best-of-three match.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum MatchChoice {
    /// Ask (default: a single game).
    #[default]
    Ask,
    /// A single game; no question.
    Single,
    /// A match with this name (the Match tag); no question.
    Named(String),
}

/// Answers to the tag questions of a new record, given beforehand (`None`: ask).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answers {
    /// The Event tag.
    pub event: Option<String>,
    /// The Site tag.
    pub site: Option<String>,
    /// The Date tag, `YYYY.MM.DD`.
    pub date: Option<String>,
    /// The Round tag.
    pub round: Option<String>,
    /// South's player.
    pub south: Option<String>,
    /// North's player.
    pub north: Option<String>,
    /// The `RuleSet` tag: a preset and optional `name=value` overrides.
    pub rules: Option<String>,
    /// The Position tag (no question: the start position when `None`).
    pub position: Option<String>,
    /// A match or a single game.
    pub matches: MatchChoice,
}

/// The tags of a new record, as far as they are answered.
#[derive(Debug, Clone, Default)]
pub(crate) struct NewRecord {
    event: Option<String>,
    site: Option<String>,
    date: Option<String>,
    round: Option<String>,
    south: Option<String>,
    north: Option<String>,
    rules: Option<String>,
    wants_match: Option<bool>,
    match_name: Option<String>,
}

/// A question still open: what it asks, the answer given beforehand, and its default.
pub(crate) struct Open {
    pub(crate) question: Question,
    pub(crate) given: Option<String>,
    pub(crate) default: String,
}

impl Open {
    fn new(question: Question, given: Option<&String>, default: &str) -> Self {
        Self {
            question,
            given: given.cloned(),
            default: default.to_owned(),
        }
    }
}

impl NewRecord {
    /// The first question not answered yet; `today` is the default date.
    pub(crate) fn next(&self, answers: &Answers, today: &str) -> Option<Open> {
        let open = Open::new;
        let event = match &self.event {
            None => {
                // As `bao new`: `?` for what is not known; a match named beforehand names
                // the event too.
                let default = match &answers.matches {
                    MatchChoice::Named(m) => m.as_str(),
                    _ => UNKNOWN,
                };
                return Some(open(Question::Event, answers.event.as_ref(), default));
            }
            Some(e) => e,
        };
        if self.site.is_none() {
            return Some(open(Question::Site, answers.site.as_ref(), UNKNOWN));
        }
        let date = match &self.date {
            None => {
                let default = answers.date.as_deref().unwrap_or(today);
                return Some(open(Question::Date, answers.date.as_ref(), default));
            }
            Some(d) => d,
        };
        if self.round.is_none() {
            return Some(open(Question::Round, answers.round.as_ref(), UNKNOWN));
        }
        if self.south.is_none() {
            return Some(open(Question::South, answers.south.as_ref(), UNKNOWN));
        }
        if self.north.is_none() {
            return Some(open(Question::North, answers.north.as_ref(), UNKNOWN));
        }
        if self.rules.is_none() {
            return Some(open(Question::RuleSet, answers.rules.as_ref(), "kiswahili"));
        }
        if answers.matches != MatchChoice::Ask {
            return None;
        }
        match self.wants_match {
            None => Some(open(Question::Match, None, "n")),
            Some(true) if self.match_name.is_none() => {
                let default = if event == UNKNOWN {
                    format!("Match {date}")
                } else {
                    format!("{event} {date}")
                };
                Some(open(Question::MatchName, None, &default))
            }
            Some(_) => None,
        }
    }

    /// Records an answer that [`check`] accepted.
    pub(crate) fn set(&mut self, question: Question, value: String) {
        let slot = match question {
            Question::Event => &mut self.event,
            Question::Site => &mut self.site,
            Question::Date => &mut self.date,
            Question::Round => &mut self.round,
            Question::South => &mut self.south,
            Question::North => &mut self.north,
            Question::RuleSet => &mut self.rules,
            Question::MatchName => &mut self.match_name,
            Question::Match => {
                self.wants_match = Some(value == "y");
                return;
            }
            Question::Player { .. } => return,
        };
        *slot = Some(value);
    }

    /// The new record's first game, once every question is answered.
    pub(crate) fn game(self, answers: &Answers) -> Result<Game, SessionError> {
        let text = |v: Option<String>| v.unwrap_or_default();
        let match_name = match &answers.matches {
            MatchChoice::Named(m) => Some(m.clone()),
            MatchChoice::Single => None,
            MatchChoice::Ask => self.match_name,
        };
        let (south, north) = (text(self.south), text(self.north));
        if match_name.is_some() && south == north {
            return Err(SessionError::SamePlayers { name: south });
        }
        let mut tags = vec![
            ("Event", text(self.event)),
            ("Site", text(self.site)),
            ("Date", text(self.date)),
            ("Round", text(self.round)),
            ("South", south),
            ("North", north),
            ("Result", "*".to_owned()),
            ("RuleSet", text(self.rules)),
        ];
        if let Some(p) = &answers.position {
            tags.push(("Position", p.clone()));
        }
        if let Some(m) = match_name {
            tags.push(("Match", m));
            tags.push(("Game", "1".to_owned()));
        }
        let mut game = Game::default();
        for (n, v) in tags {
            game.tags.push(Spanned::bare(Tag::new(n, &v)));
        }
        game.result = Some(Spanned::bare(GameResult::Unknown));
        if answers.position.is_some() {
            let rules = game::rules_of(&game).unwrap_or(bao_core::RuleSet::KISWAHILI);
            if game::start_of(&game, rules).is_none() {
                return Err(SessionError::BadPosition);
            }
        }
        Ok(game)
    }
}

/// The players of a match's next game, as far as they are answered. The players change
/// seats by default, so that the other one moves first.
#[derive(Debug, Clone)]
pub(crate) struct NextGame {
    /// The game's number in the match.
    pub(crate) number: usize,
    /// South and North of the game before.
    pub(crate) last: (String, String),
    pub(crate) south: Option<String>,
    pub(crate) north: Option<String>,
}

impl NextGame {
    /// The first question not answered yet.
    pub(crate) fn next(&self) -> Option<Open> {
        let (last_south, last_north) = &self.last;
        let player = |side| Question::Player {
            side,
            game: self.number,
        };
        match &self.south {
            None => Some(Open::new(player(Side::South), None, last_north)),
            Some(_) if self.north.is_some() => None,
            Some(s) => {
                let other = if s == last_north {
                    last_south
                } else {
                    last_north
                };
                Some(Open::new(player(Side::North), None, other))
            }
        }
    }

    /// Records an answer.
    pub(crate) fn set(&mut self, question: Question, value: String) {
        match question {
            Question::Player {
                side: Side::South, ..
            } => self.south = Some(value),
            Question::Player {
                side: Side::North, ..
            } => self.north = Some(value),
            _ => {}
        }
    }

    /// The next game: the last one's tags, with the new players, its number, no result.
    pub(crate) fn game(self, last: &Game) -> Game {
        let mut game = Game::default();
        for t in &last.tags {
            let n = t.value.name.value.as_str();
            let value = match n {
                "South" => self.south.clone().unwrap_or_default(),
                "North" => self.north.clone().unwrap_or_default(),
                "Result" => "*".to_owned(),
                "Game" => self.number.to_string(),
                "Termination" => continue,
                _ => t.value.value.value.clone(),
            };
            game.tags.push(Spanned::bare(Tag::new(n, &value)));
        }
        game.result = Some(Spanned::bare(GameResult::Unknown));
        game
    }
}

/// Turns an answer into the value it gives, or says why it does not do.
pub(crate) fn check(question: Question, answer: &str) -> Result<String, AnswerProblem> {
    match question {
        Question::Date if !valid_date(answer) => Err(AnswerProblem::Date),
        Question::RuleSet => match bao_core::RuleSet::from_spec(answer) {
            Ok(_) => Ok(answer.split_whitespace().collect::<Vec<_>>().join(" ")),
            Err(_) => Err(AnswerProblem::UnknownRules {
                given: answer.to_owned(),
            }),
        },
        Question::Match => match answer.to_ascii_lowercase().as_str() {
            "y" | "yes" => Ok("y".to_owned()),
            "n" | "no" => Ok("n".to_owned()),
            _ => Err(AnswerProblem::YesOrNo),
        },
        _ => Ok(answer.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_answer_is_a_real_date() {
        assert_eq!(
            check(Question::Date, "2026.02.31"),
            Err(AnswerProblem::Date)
        );
        assert_eq!(
            check(Question::Date, "2026.03.??"),
            Ok("2026.03.??".to_owned())
        );
    }

    #[test]
    fn answers_are_checked() {
        assert_eq!(check(Question::Match, "YES"), Ok("y".to_owned()));
        assert_eq!(check(Question::Match, "maybe"), Err(AnswerProblem::YesOrNo));
        assert_eq!(
            check(Question::RuleSet, " kiswahili "),
            Ok("kiswahili".to_owned())
        );
        assert!(matches!(
            check(Question::RuleSet, "chess"),
            Err(AnswerProblem::UnknownRules { .. })
        ));
        assert_eq!(check(Question::Date, "2026.13"), Err(AnswerProblem::Date));
    }
}
