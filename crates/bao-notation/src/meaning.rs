//! What a game's tags mean: the rules it is played under (`RuleSet`, `Rules`), its start
//! position (`Position`), its sign convention (`Directions`), and whether a parsed game holds
//! anything at all.
//!
//! The errors are data: the span of the tag and the engine's own error. Wording them is the
//! validator's business (`bao::record::unknown_rules`, `bao::record::invalid_position`).
//!
//! ```
//! use bao_notation::meaning::{game_rules, game_start, RulesError};
//! use bao_notation::parse_record;
//!
//! let parsed = parse_record("[RuleSet \"kujifunza\"]\n\n1. A6<* *\n");
//! let game = &parsed.record.games[0].value;
//! let rules = game_rules(game).unwrap();
//! assert_eq!(game_start(game, rules).unwrap(), bao_core::Position::start(rules));
//!
//! let parsed = parse_record("[RuleSet \"chess\"]\n\n*\n");
//! let game = &parsed.record.games[0].value;
//! assert!(matches!(game_rules(game), Err(RulesError::UnknownPreset { .. })));
//! ```

use std::fmt;

use bao_core::{Position, RuleOptionError, RuleSet, SetupError};

use crate::{Directions, Game, PositionString, Span};

/// Which tag a rule override was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesTag {
    /// After the preset of `[RuleSet "preset name=value ..."]`.
    RuleSet,
    /// In `[Rules "name=value ..."]`.
    Rules,
}

/// Why a game's `RuleSet` and `Rules` tags name no rule set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesError {
    /// The `RuleSet` tag's first word is no preset.
    UnknownPreset {
        /// The word written.
        preset: String,
        /// The tag's value.
        span: Span,
    },
    /// A `name=value` override that the engine does not accept (the first one, in order).
    BadOverride {
        /// The tag it was written in.
        tag: RulesTag,
        /// The override as written.
        part: String,
        /// The tag's value.
        span: Span,
        /// The engine's refusal.
        error: RuleOptionError,
    },
}

impl RulesError {
    /// The span of the tag value at fault.
    #[must_use]
    pub fn span(&self) -> Span {
        match self {
            Self::UnknownPreset { span, .. } | Self::BadOverride { span, .. } => *span,
        }
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownPreset { preset, .. } => write!(f, "unknown rule preset `{preset}`"),
            Self::BadOverride { part, error, .. } => {
                write!(f, "rule override `{part}` cannot be applied: {error}")
            }
        }
    }
}

impl std::error::Error for RulesError {}

/// Why a game has no start position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    /// The `Position` tag's value is no position string (the parser reports that as a
    /// syntax error).
    Unreadable {
        /// The tag's value.
        span: Span,
    },
    /// The position string describes no valid position of the rule set.
    Invalid {
        /// The tag's value.
        span: Span,
        /// Every problem the engine found.
        error: SetupError,
    },
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unreadable { .. } => f.write_str("the Position tag is no position string"),
            Self::Invalid { .. } => f.write_str("the Position tag is no valid position"),
        }
    }
}

impl std::error::Error for StartError {}

/// Whether a parsed game holds anything (an empty file parses as one empty game).
#[must_use]
pub fn is_game(game: &Game) -> bool {
    !(game.tags.is_empty() && game.movetext.is_empty() && game.result.is_none())
}

/// The rules a game is played under: the `RuleSet` tag's preset (default `kiswahili`) with
/// its overrides, then the `Rules` tag's overrides (notation §5).
///
/// # Errors
/// The preset is unknown, or an override cannot be applied (the first such, in order).
pub fn game_rules(game: &Game) -> Result<RuleSet, RulesError> {
    let mut rules = RuleSet::KISWAHILI;
    if let Some(tag) = game.tag("RuleSet") {
        let mut words = tag.value.split_whitespace();
        let preset = words.next().unwrap_or("");
        rules = RuleSet::preset(preset).ok_or_else(|| RulesError::UnknownPreset {
            preset: preset.to_owned(),
            span: tag.span,
        })?;
        apply_overrides(&mut rules, words, RulesTag::RuleSet, tag.span)?;
    }
    if let Some(tag) = game.tag("Rules") {
        let parts = tag
            .value
            .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .filter(|p| !p.is_empty());
        apply_overrides(&mut rules, parts, RulesTag::Rules, tag.span)?;
    }
    Ok(rules)
}

/// A game's rules in one canonical spelling, however its tags spell them (notation §5): the
/// preset that the rules are a variant of (the one with the same variant, AbstractPlay flag
/// and houses, which no override changes), then the options whose value differs from that
/// preset's, in the order of [`bao_core::OPTION_VALUES`], each `name=value` in its canonical
/// spelling. An override equal to the preset's value is dropped, so two rule sets that play
/// alike have one key: `[RuleSet "kiswahili endless_move=draw"]`, `[Rules
/// "endless_move=draw"]` and `[RuleSet "kiswahili takasia=standard"] [Rules
/// "endless_move=draw"]` all read `kiswahili endless_move=draw`.
///
/// It parses from the same words (`FromStr`: a preset, then `name=value` overrides separated
/// by blanks, commas or semicolons), so a user's `--rules 'kiswahili endless_move=draw'`
/// compares equal to a game's key.
///
/// ```
/// use bao_notation::meaning::{game_rules_key, RulesKey};
/// use bao_notation::parse_record;
///
/// let a = parse_record("[RuleSet \"kiswahili endless_move=draw\"]\n\n*\n");
/// let b = parse_record("[Rules \"endless_move=draw, takasia=standard\"]\n\n*\n");
/// let (a, b) = (&a.record.games[0].value, &b.record.games[0].value);
/// assert_eq!(game_rules_key(a).unwrap(), game_rules_key(b).unwrap());
/// assert_eq!(game_rules_key(a).unwrap().to_string(), "kiswahili endless_move=draw");
/// let typed: RulesKey = "kiswahili   endless_move=draw".parse().unwrap();
/// assert_eq!(typed, game_rules_key(b).unwrap());
/// assert_eq!("kete".parse::<RulesKey>().unwrap().to_string(), "kete");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RulesKey(pub RuleSet);

impl RulesKey {
    /// The rules.
    #[must_use]
    pub const fn rules(self) -> RuleSet {
        self.0
    }

    /// The preset these rules are a variant of (see [`RulesKey`]), with its name.
    #[must_use]
    pub fn preset(self) -> (&'static str, RuleSet) {
        let r = self.0;
        bao_core::PRESET_NAMES
            .into_iter()
            .filter_map(|n| RuleSet::preset(n).map(|p| (n, p)))
            .find(|(_, p)| {
                p.variant == r.variant && p.abstractplay == r.abstractplay && p.houses == r.houses
            })
            .unwrap_or(("kiswahili", RuleSet::KISWAHILI))
    }

    /// The options that differ from [`RulesKey::preset`], as `(name, value)` in canonical
    /// order and spelling.
    #[must_use]
    pub fn overrides(self) -> Vec<(&'static str, String)> {
        let (_, preset) = self.preset();
        bao_core::OPTION_VALUES
            .iter()
            .map(|(name, _)| *name)
            .filter_map(|name| {
                let value = option_value(&self.0, name)?;
                (option_value(&preset, name).as_ref() != Some(&value)).then_some((name, value))
            })
            .collect()
    }
}

/// `kiswahili endless_move=draw`.
impl fmt::Display for RulesKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.preset().0)?;
        for (name, value) in self.overrides() {
            write!(f, " {name}={value}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for RulesKey {
    type Err = bao_core::RuleSpecError;

    /// A preset, then `name=value` overrides separated by blanks, commas or semicolons.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RuleSet::from_spec(&s.replace([',', ';'], " ")).map(Self)
    }
}

/// The canonical key of a game's rules ([`game_rules`], spelled as [`RulesKey`] spells it).
///
/// # Errors
/// As [`game_rules`].
pub fn game_rules_key(game: &Game) -> Result<RulesKey, RulesError> {
    game_rules(game).map(RulesKey)
}

/// The value of option `name` of `rules`, in the spelling [`RuleSet::set_option`] reads;
/// `None` for a name that is no option.
fn option_value(rules: &RuleSet, name: &str) -> Option<String> {
    use bao_core::{EndCheck, EndlessMove, FrontRowGuard, HouseLap, Takasia};
    let flag = |b: bool| if b { "true" } else { "false" }.to_owned();
    Some(match name {
        "mtaji_takasa_house" => match rules.mtaji_takasa_house {
            HouseLap::Stop => "stop",
            HouseLap::Relay => "relay",
        }
        .to_owned(),
        "front_row_guard" => match rules.front_row_guard {
            FrontRowGuard::Strict => "strict",
            FrontRowGuard::Off => "off",
        }
        .to_owned(),
        "endless_move" => match rules.endless_move {
            EndlessMove::Illegal => "illegal".to_owned(),
            EndlessMove::Draw => "draw".to_owned(),
            EndlessMove::MoverLoses => "mover_loses".to_owned(),
            EndlessMove::SeedCap(n) => format!("cap:{n}"),
        },
        "takasia" => match rules.takasia {
            Takasia::Off => "off",
            Takasia::Standard => "standard",
            Takasia::AbstractPlay => "abstractplay",
        }
        .to_owned(),
        "end_check" => match rules.end_check {
            EndCheck::OpponentFirst => "opponent_first",
            EndCheck::SouthFirst => "south_first",
        }
        .to_owned(),
        "capture_threshold" => rules.capture_threshold.to_string(),
        "house_lost_on_first_mtaji_capture" => flag(rules.house_lost_on_first_mtaji_capture),
        "dormant_house_placeable" => flag(rules.dormant_house_placeable),
        "capture_priority" => flag(rules.capture_priority),
        "kuu_floor" => flag(rules.kuu_floor),
        "first_takata_from_kuu" => flag(rules.first_takata_from_kuu),
        "bao_hamna_mid_move" => flag(rules.bao_hamna_mid_move),
        "houses_fall_at_move_end" => flag(rules.houses_fall_at_move_end),
        _ => return None,
    })
}

/// Applies `name=value` overrides in order; the first that fails is the error.
fn apply_overrides<'a>(
    rules: &mut RuleSet,
    parts: impl Iterator<Item = &'a str>,
    tag: RulesTag,
    span: Span,
) -> Result<(), RulesError> {
    for part in parts {
        let (name, value) = part.split_once('=').unwrap_or((part, ""));
        rules
            .set_option(name.trim(), value.trim())
            .map_err(|error| RulesError::BadOverride {
                tag,
                part: part.to_owned(),
                span,
                error,
            })?;
    }
    Ok(())
}

/// The start position of a game under `rules`: its `Position` tag, else the rule set's
/// start.
///
/// # Errors
/// The tag is no position string, or no valid position of `rules`.
pub fn game_start(game: &Game, rules: RuleSet) -> Result<Position, StartError> {
    let Some(tag) = game.tag("Position") else {
        return Ok(Position::start(rules));
    };
    let ps = game
        .position()
        .ok_or(StartError::Unreadable { span: tag.span })?;
    Position::from_setup(ps.to_setup(rules)).map_err(|error| StartError::Invalid {
        span: tag.span,
        error,
    })
}

impl Game {
    /// The `Directions` tag's convention (`mover` when absent or unknown).
    #[must_use]
    pub fn directions(&self) -> Directions {
        self.tag("Directions")
            .and_then(|v| v.value.parse().ok())
            .unwrap_or_default()
    }

    /// The `Position` tag's position string, if present and readable.
    #[must_use]
    pub fn position(&self) -> Option<PositionString> {
        self.tag("Position").and_then(|v| v.value.parse().ok())
    }
}

/// The identity of a best-of-three match (notation §5): the `Event`, `Site` and `Match`
/// values of its games, each trimmed (a missing `Event` or `Site` is empty). Two events that
/// both name a match `final` hold two matches; every place that groups games into matches
/// (the validator's best-of-three check, the recorder's score) keys them by this.
///
/// ```
/// use bao_notation::meaning::MatchKey;
/// use bao_notation::parse_record;
///
/// let parsed = parse_record(
///     "[Event \"Cup\"]\n[Match \"final\"]\n\n*\n\n[Event \"League\"]\n[Match \"final\"]\n\n*\n",
/// );
/// let keys: Vec<_> = parsed.record.games.iter().map(|g| MatchKey::of(&g.value)).collect();
/// assert_ne!(keys[0], keys[1]);
/// assert_eq!(keys[0].as_ref().unwrap().to_string(), "final");
/// assert_eq!(MatchKey::of(&parse_record("[Event \"Cup\"]\n\n*\n").record.games[0].value), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MatchKey {
    /// The `Event` tag's value, trimmed (empty when missing).
    pub event: String,
    /// The `Site` tag's value, trimmed (empty when missing).
    pub site: String,
    /// The `Match` tag's value, trimmed.
    pub name: String,
}

impl MatchKey {
    /// The match of `game`, or `None` when it has no `Match` tag (a single game).
    #[must_use]
    pub fn of(game: &Game) -> Option<Self> {
        let name = game.tag("Match")?.value.trim().to_owned();
        let tag = |t: &str| {
            game.tag(t)
                .map(|v| v.value.trim().to_owned())
                .unwrap_or_default()
        };
        Some(Self {
            event: tag("Event"),
            site: tag("Site"),
            name,
        })
    }
}

/// The match's name (the `Match` value), as messages show it.
impl fmt::Display for MatchKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// The documented `Termination` values (notation §5): first the endings by the rules, then
/// the endings outside them.
pub const TERMINATION_VALUES: [&str; 10] = [
    "normal",
    "bao_hamna",
    "no_legal_move",
    "own_front_row_empty",
    "never_ending",
    "resignation",
    "time_forfeit",
    "agreement",
    "abandoned",
    "adjudication",
];

/// What a tag means, in one or two sentences (notation §5), for a known tag name (spelled
/// as in [`crate::KNOWN_TAGS`], or `Rules`).
#[must_use]
pub fn tag_meaning(name: &str) -> Option<&'static str> {
    Some(match name {
        "Event" => "The event (tournament, match, club evening) the game was played at.",
        "Site" => "Where the game was played.",
        "Date" => "The date of the game, `YYYY.MM.DD` (`??` for an unknown part).",
        "Round" => "The round of the event.",
        "South" => "The player of South, who moves first.",
        "North" => "The player of North.",
        "Result" => {
            "The result: `1-0` (South wins), `0-1` (North wins), `1/2-1/2` (a draw) or `*` \
             (unknown or still going). It must agree with the movetext's result and with \
             the end the moves reach."
        }
        "RuleSet" => {
            "The rules: a preset (`kiswahili` (default), `kete`, `kujifunza`, `abstractplay`, \
             `abstractplay-kujifunza`), then optional `name=value` overrides."
        }
        "Rules" => "Overrides applied after the `RuleSet` preset: `name=value` words.",
        "Position" => {
            "A custom start position (a problem), as a position string; the moves are \
             replayed from it."
        }
        "Termination" => {
            "How the game ended: by the rules (`normal`, `bao_hamna`, `no_legal_move`, \
             `own_front_row_empty`, `never_ending`, checked against the replay) or outside \
             them (`resignation`, `time_forfeit`, `agreement`, `abandoned`, `adjudication`)."
        }
        "Match" => {
            "The best-of-three match the game belongs to: the same value on every game of \
             the match."
        }
        "Game" => "The game's number in its match, 1 to 3.",
        "Source" => "Where the record comes from (a book, a scoresheet, a site).",
        "Transcriber" => "Who typed the record.",
        "Directions" => {
            "The sign convention of the record: `mover` (default: left and right as seen \
             from the mover's seat), `south` (as seen from South's seat) or `clockwise`."
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_record;

    fn game(text: &str) -> Game {
        parse_record(text).record.games[0].value.clone()
    }

    #[test]
    fn overrides_apply_in_order_and_the_first_bad_one_is_the_error() {
        let g = game("[RuleSet \"kiswahili mtaji_takasa_house=relay\"]\n\n*\n");
        let rules = game_rules(&g).unwrap();
        let mut expected = RuleSet::KISWAHILI;
        expected.set_option("mtaji_takasa_house", "relay").unwrap();
        assert_eq!(rules, expected);

        let g = game("[Rules \"no_such_option=1, other=2\"]\n\n*\n");
        match game_rules(&g) {
            Err(RulesError::BadOverride { tag, part, .. }) => {
                assert_eq!(tag, RulesTag::Rules);
                assert_eq!(part, "no_such_option=1");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_position_tag_is_read_or_refused_with_its_span() {
        let g = game("[Position \"nonsense\"]\n\n*\n");
        assert!(matches!(
            game_start(&g, RuleSet::KISWAHILI),
            Err(StartError::Unreadable { .. })
        ));
        assert!(is_game(&g));
        assert!(!is_game(&Game::default()));
    }
}

#[cfg(test)]
mod rules_key_tests {
    use bao_core::{RuleSet, OPTION_VALUES, PRESET_NAMES};

    use super::{option_value, RulesKey};

    /// Every option of every preset reads back through `set_option` (the spelling is the
    /// one the engine reads), and each example value of `OPTION_VALUES` round-trips.
    #[test]
    fn every_option_value_is_spelled_as_set_option_reads_it() {
        for preset in PRESET_NAMES {
            let rules = RuleSet::preset(preset).unwrap();
            for (name, values) in OPTION_VALUES {
                let value = option_value(&rules, name).unwrap_or_else(|| panic!("{name}"));
                let mut again = RuleSet::preset(preset).unwrap();
                again.set_option(name, &value).unwrap();
                assert_eq!(again, rules, "{preset} {name}={value}");
                for v in values.iter() {
                    let mut set = rules;
                    set.set_option(name, v).unwrap();
                    assert_eq!(option_value(&set, name).as_deref(), Some(*v), "{name}={v}");
                }
            }
        }
    }

    /// The key names the preset alone for a preset, and its text parses back to the rules.
    #[test]
    fn a_key_reads_back_to_its_rules() {
        for preset in PRESET_NAMES {
            let rules = RuleSet::preset(preset).unwrap();
            assert_eq!(RulesKey(rules).to_string(), preset);
            for (name, values) in OPTION_VALUES {
                for v in values.iter() {
                    let mut set = rules;
                    set.set_option(name, v).unwrap();
                    let text = RulesKey(set).to_string();
                    assert_eq!(text.parse::<RulesKey>().unwrap(), RulesKey(set), "{text}");
                }
            }
        }
        let key: RulesKey = "kete takasia=standard; capture_priority=true"
            .parse()
            .unwrap();
        assert_eq!(key.to_string(), "kete");
        let key: RulesKey = "kiswahili takasia=off,endless_move=draw".parse().unwrap();
        assert_eq!(key.to_string(), "kiswahili endless_move=draw takasia=off");
    }
}

#[cfg(test)]
mod tag_meaning_tests {
    use super::*;

    #[test]
    fn every_known_tag_has_a_meaning() {
        for name in crate::KNOWN_TAGS {
            assert!(tag_meaning(name).is_some(), "{name}");
        }
        assert!(tag_meaning("Rules").is_some());
        assert!(tag_meaning("Opening").is_none());
    }
}
