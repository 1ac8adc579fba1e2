//! Which games of an archive to keep: `bao filter`'s criteria.
//!
//! Every criterion given must hold (they are joined by "and"); [`Filter::invert`] keeps the
//! games that fail. A criterion needs as much of a game as [`Filter::depth`] says: tags
//! alone, the replay (positions, moves), or the check (diagnostic codes, validity).

use std::fmt;
use std::str::FromStr;

use bao_core::MoveSpec;
use bao_notation::meaning::{game_rules_key, RulesKey};
use bao_notation::{GameResult, PositionString};
use regex::Regex;

use crate::game::{ArchiveGame, Depth};

/// A test on one tag.
#[derive(Debug, Clone)]
pub enum TagTest {
    /// `NAME=VALUE`: the tag is there and equals the value.
    Equals(String),
    /// `NAME~REGEX`: the tag is there and the expression matches somewhere in it.
    Matches(Regex),
}

/// `--tag NAME=VALUE` or `--tag NAME~REGEX`.
#[derive(Debug, Clone)]
pub struct TagCriterion {
    /// The tag's name (known tags in any case, as the record reader reads them).
    pub name: String,
    /// The test.
    pub test: TagTest,
}

/// A criterion that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CriterionError {
    /// A tag criterion with neither `=` nor `~`.
    #[error("`{0}` is no tag test: write NAME=VALUE or NAME~REGEX")]
    TagTest(String),
    /// A regular expression that does not compile.
    #[error("`{pattern}` is no regular expression: {message}")]
    Regex {
        /// The expression.
        pattern: String,
        /// The `regex` crate's message.
        message: String,
    },
    /// A ply range that is not `MIN..MAX`, `MIN..` or `..MAX`.
    #[error("`{0}` is no ply range: write MIN..MAX, MIN.. or ..MAX")]
    Range(String),
    /// A result that is not `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[error("`{0}` is no result: write 1-0, 0-1, 1/2-1/2 or *")]
    Result(String),
    /// A rule set that is no preset with overrides.
    #[error("`{text}` is no rule set: {message} (write a preset, kiswahili, kete, kujifunza, abstractplay or abstractplay-kujifunza, then any name=value overrides)")]
    Rules {
        /// The text.
        text: String,
        /// Why.
        message: String,
    },
    /// A position string that cannot be read.
    #[error("`{text}` is no position string: {message}")]
    Position {
        /// The string.
        text: String,
        /// Why.
        message: String,
    },
    /// A move of an opening that cannot be read.
    #[error("`{0}` in the opening is no move")]
    Move(String),
}

impl FromStr for TagCriterion {
    type Err = CriterionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let at = s
            .find(['=', '~'])
            .ok_or_else(|| CriterionError::TagTest(s.to_owned()))?;
        let (name, rest) = s.split_at(at);
        let value = &rest[1..];
        if name.trim().is_empty() {
            return Err(CriterionError::TagTest(s.to_owned()));
        }
        let test = if rest.starts_with('=') {
            TagTest::Equals(value.to_owned())
        } else {
            TagTest::Matches(Regex::new(value).map_err(|e| CriterionError::Regex {
                pattern: value.to_owned(),
                message: e.to_string(),
            })?)
        };
        Ok(Self {
            name: canonical_tag_name(name.trim()),
            test,
        })
    }
}

/// A known tag name in its canonical spelling (`south` → `South`), as the record reader
/// stores it; another name as written.
fn canonical_tag_name(name: &str) -> String {
    bao_notation::KNOWN_TAGS
        .iter()
        .find(|k| k.eq_ignore_ascii_case(name))
        .map_or_else(|| name.to_owned(), |k| (*k).to_owned())
}

/// An inclusive range of ply counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlyRange {
    /// The least, if bounded.
    pub min: Option<usize>,
    /// The most, if bounded.
    pub max: Option<usize>,
}

impl PlyRange {
    /// Whether `n` is in the range.
    #[must_use]
    pub fn contains(&self, n: usize) -> bool {
        self.min.is_none_or(|m| n >= m) && self.max.is_none_or(|m| n <= m)
    }
}

impl FromStr for PlyRange {
    type Err = CriterionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || CriterionError::Range(s.to_owned());
        let num = |t: &str| -> Result<Option<usize>, CriterionError> {
            let t = t.trim();
            if t.is_empty() {
                Ok(None)
            } else {
                t.parse().map(Some).map_err(|_| bad())
            }
        };
        let range = match s.split_once("..") {
            Some((a, b)) => Self {
                min: num(a)?,
                max: num(b)?,
            },
            None => {
                let n = num(s)?.ok_or_else(bad)?;
                Self {
                    min: Some(n),
                    max: Some(n),
                }
            }
        };
        if range.min.zip(range.max).is_some_and(|(a, b)| a > b) {
            return Err(bad());
        }
        Ok(range)
    }
}

/// Reads a result criterion (`1-0`, `0-1`, `1/2-1/2`, `*`).
///
/// # Errors
/// Anything else.
pub fn parse_result(s: &str) -> Result<GameResult, CriterionError> {
    GameResult::from_token(s.trim()).ok_or_else(|| CriterionError::Result(s.to_owned()))
}

/// Reads a rules criterion: a preset, then any `name=value` overrides, as a `RuleSet` tag
/// writes them (`kiswahili endless_move=draw`); games are matched by their canonical
/// [`RulesKey`], however their tags spell the rules.
///
/// # Errors
/// An unknown preset, or an override that cannot be applied.
pub fn parse_rules(s: &str) -> Result<RulesKey, CriterionError> {
    s.parse::<RulesKey>().map_err(|e| CriterionError::Rules {
        text: s.to_owned(),
        message: e.to_string(),
    })
}

/// Reads a position criterion.
///
/// # Errors
/// A string that is no position string.
pub fn parse_position(s: &str) -> Result<PositionString, CriterionError> {
    s.trim()
        .parse::<PositionString>()
        .map_err(|e| CriterionError::Position {
            text: s.to_owned(),
            message: e.to_string(),
        })
}

/// Reads an opening: moves separated by spaces, each read by bao-core's move reader (a sign
/// or `*` left out matches either).
///
/// # Errors
/// A word that is no move.
pub fn parse_opening(s: &str) -> Result<Vec<MoveSpec>, CriterionError> {
    s.split_whitespace()
        .map(|w| {
            w.parse::<MoveSpec>()
                .map_err(|_| CriterionError::Move(w.to_owned()))
        })
        .collect()
}

/// Which games to keep.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Tag tests (all must hold).
    pub tags: Vec<TagCriterion>,
    /// Players: each must play the game, on either side.
    pub players: Vec<String>,
    /// The result.
    pub result: Option<GameResult>,
    /// The rules, compared by their canonical key (a preset with overrides that change
    /// nothing is the preset).
    pub rules: Option<RulesKey>,
    /// The moves written in the main line.
    pub plies: Option<PlyRange>,
    /// A position: the last one of the main line, or any with
    /// [`Filter::position_anywhere`].
    pub position: Option<PositionString>,
    /// Match [`Filter::position`] against every position of the main line.
    pub position_anywhere: bool,
    /// The main line starts with these moves.
    pub opening: Vec<MoveSpec>,
    /// Diagnostic codes: the game has a diagnostic of each (a code, or its prefix up to a
    /// `::`, such as `bao::illegal`).
    pub codes: Vec<String>,
    /// Only games with an error (`Some(true)`) or without (`Some(false)`).
    pub invalid: Option<bool>,
    /// A question by position (`--where`): some position of the main line answers it, or
    /// its last one ([`Filter::at`]).
    pub query: Option<crate::query::Query>,
    /// Which positions [`Filter::query`] is asked of.
    pub at: crate::query::At,
    /// The spellings of one person ([`Filter::players`] and the players' tags are compared
    /// by the name they give).
    pub aliases: crate::alias::Aliases,
    /// Keep the games that fail the criteria instead.
    pub invert: bool,
}

impl Filter {
    /// How much of each game the criteria need.
    #[must_use]
    pub fn depth(&self) -> Depth {
        if !self.codes.is_empty() || self.invalid.is_some() {
            Depth::Check
        } else if self.position.is_some() || !self.opening.is_empty() || self.query.is_some() {
            Depth::Replay
        } else {
            Depth::Tags
        }
    }

    /// Whether the game is kept (worked out to [`Filter::depth`] at least).
    #[must_use]
    pub fn keeps(&self, g: &ArchiveGame<'_>) -> bool {
        self.holds(g) != self.invert
    }

    fn holds(&self, g: &ArchiveGame<'_>) -> bool {
        self.tags.iter().all(|t| {
            g.tag(&t.name).is_some_and(|v| match &t.test {
                TagTest::Equals(want) => v == want,
                TagTest::Matches(re) => re.is_match(v),
            })
        }) && self.players.iter().all(|p| {
            let want = self.aliases.name(p);
            ["South", "North"]
                .iter()
                .any(|t| g.tag(t).is_some_and(|v| self.aliases.name(v) == want))
        }) && self.result.is_none_or(|r| g.result() == r)
            && self
                .rules
                .is_none_or(|r| game_rules_key(g.game).is_ok_and(|own| own == r))
            && self.plies.is_none_or(|r| r.contains(g.written_plies()))
            && self.query.as_ref().is_none_or(|q| q.matches(g, self.at))
            && self.position.as_ref().is_none_or(|want| {
                let same = |p: &bao_core::Position| same_position(want, &PositionString::from(p));
                if self.position_anywhere {
                    g.positions().any(same)
                } else {
                    g.final_position().is_some_and(same)
                }
            })
            && self.opening_holds(g)
            && self.codes.iter().all(|c| {
                g.codes.as_ref().is_some_and(|codes| {
                    codes.iter().any(|have| {
                        *have == c
                            || have
                                .strip_prefix(c.as_str())
                                .is_some_and(|r| r.starts_with("::"))
                    })
                })
            })
            && self.invalid.is_none_or(|want| g.invalid == Some(want))
    }

    fn opening_holds(&self, g: &ArchiveGame<'_>) -> bool {
        if self.opening.is_empty() {
            return true;
        }
        let mut moves = g.moves();
        self.opening
            .iter()
            .all(|spec| moves.next().is_some_and(|mv| spec.matches(&mv)))
    }
}

/// Whether a position matches the one asked for: board, hands, side to move, houses and
/// takasia; the trailing `*` (the last move was a takasa) only when the query writes it.
fn same_position(want: &PositionString, have: &PositionString) -> bool {
    want.pits == have.pits
        && want.hands == have.hands
        && want.to_move == have.to_move
        && want.houses == have.houses
        && want.blocked == have.blocked
        && (!want.last_move_takasa || have.last_move_takasa)
}

impl fmt::Display for PlyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.min {
            write!(f, "{m}")?;
        }
        f.write_str("..")?;
        if let Some(m) = self.max {
            write!(f, "{m}")?;
        }
        Ok(())
    }
}
