//! Rule sets: one struct of options, and the named presets.

use std::fmt;
use std::str::FromStr;

/// Which game is played: decides the start position and the names used in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Bao la Kiswahili (Zanzibar Bao).
    Kiswahili,
    /// Bao la Kete (Lamu): nemo, kuu, hizi zetu.
    Kete,
    /// Bao la Kujifunza: two seeds in every pit, no reserve, no house.
    Kujifunza,
}

/// What a lap of a mtaji takasa does when it ends in the mover's functional nyumba
/// (rules-reference A.2 item 4; spec rule `M7`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HouseLap {
    /// The move stops there (K.I.B.A., Donkers). Default.
    Stop,
    /// The house is lifted and sown on (destroying it).
    Relay,
}

/// The front-row guard for takasa moves (rules-reference A.2 item 9; spec rule `G10`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrontRowGuard {
    /// A takasa may never leave the mover's front row empty after any seed is dropped.
    Strict,
    /// No guard (AbstractPlay); a mover who empties his own front row loses.
    Off,
}

/// What a never-ending move means (rules-reference A.2 item 12; spec rule `G11`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndlessMove {
    /// Such a move may not be played (Donkers). Default.
    Illegal,
    /// Playing it ends the game in a draw.
    Draw,
    /// Playing it loses.
    MoverLoses,
    /// AbstractPlay: a move is aborted, and the mover loses, at the first lift after more
    /// than this many seeds have been sown; there is no exact detection.
    SeedCap(u16),
}

/// How takasia (Kete: hizi zetu) works, if at all (spec rules `T1`-`T5`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Takasia {
    /// No takasia (Bao la Kujifunza).
    Off,
    /// Rules-reference T1-T4 with the readings of A.4.6 and A.4.7: set by a mtaji takasa,
    /// only when the victim has no capture; blocks every start and stops every lap in the
    /// pit (except the first lap of a move from the functional nyumba); lasts one move.
    Standard,
    /// AbstractPlay's `getBlocked`: set by any takasa after which both hands are empty,
    /// whatever the victim can capture; blocks only takasa starts and takasa laps; lasts
    /// until the pit is lifted or captured or the pit facing it is captured.
    AbstractPlay,
}

/// Which side's empty front row is judged first at the end of a move (spec rule `E1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndCheck {
    /// The side to move first, then the mover (rules-reference A.4.13).
    OpponentFirst,
    /// South first, then North (AbstractPlay).
    SouthFirst,
}

/// Every option of the rules. A preset is a named value of this struct; records may override
/// single options.
///
/// Laid out as written (`repr(C)`: fifteen one-byte fields, then `endless_move`), so that
/// `RuleSet::bytes` is a copy of its memory and comparing two rule sets (the engine does it
/// for every note it reads) is a few wide comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct RuleSet {
    /// The preset this rule set started from (for names in messages and for the start position).
    pub variant: Variant,
    /// Whether the preset was built for AbstractPlay compatibility.
    pub abstractplay: bool,
    /// Whether the front pit 5 is a nyumba with powers (false in Kujifunza).
    pub houses: bool,
    /// A.2 item 4: a mtaji takasa lap ending in the functional nyumba.
    pub mtaji_takasa_house: HouseLap,
    /// A.2 item 7: in namua takasa placement, a dormant owned nyumba counts as an ordinary pit
    /// (`true`, Mancala World) or is left out of the placement tiers (`false`, AbstractPlay).
    pub dormant_house_placeable: bool,
    /// A.2 item 9.
    pub front_row_guard: FrontRowGuard,
    /// A.2 item 10: the house is lost at its owner's first capture of the mtaji stage.
    pub house_lost_on_first_mtaji_capture: bool,
    /// A.2 item 8: a mtaji first lap of this many seeds or more never captures (16).
    pub capture_threshold: u8,
    /// A.2 item 11.
    pub takasia: Takasia,
    /// T5 / K4: the blocker must capture the takasia'd pit on his next move.
    pub capture_priority: bool,
    /// K2: the kuu never holds fewer than six seeds (the namua tax is taken only while it
    /// leaves six; otherwise the whole kuu is sown).
    pub kuu_floor: bool,
    /// K3: while the kuu stands, a mtaji takata must start from it.
    pub first_takata_from_kuu: bool,
    /// A.4.5 reading: a house falls the moment it is lifted or captured (`false`); AbstractPlay
    /// destroys it only when the move is over (`true`), so later laps of the same move still
    /// treat it as a house.
    pub houses_fall_at_move_end: bool,
    /// A.2 item 13: the game ends the moment the opponent's front row is empty, mid-move.
    pub bao_hamna_mid_move: bool,
    /// Order of the end-of-move checks.
    pub end_check: EndCheck,
    /// A.2 item 12 (last: the one field of more than one byte).
    pub endless_move: EndlessMove,
}

/// The names of the presets, in the order they are documented.
pub const PRESET_NAMES: [&str; 5] = [
    "kiswahili",
    "kete",
    "kujifunza",
    "abstractplay",
    "abstractplay-kujifunza",
];

/// The options [`RuleSet::set_option`] accepts, each with example values it accepts (for
/// completion in an editor; `capture_threshold` takes any number from 2 to 64 and
/// `endless_move` also `cap:N`).
pub const OPTION_VALUES: [(&str, &[&str]); 13] = [
    ("mtaji_takasa_house", &["stop", "relay"]),
    ("front_row_guard", &["strict", "off"]),
    (
        "endless_move",
        &["illegal", "draw", "mover_loses", "cap:800"],
    ),
    ("takasia", &["off", "standard", "abstractplay"]),
    ("end_check", &["opponent_first", "south_first"]),
    ("capture_threshold", &["2", "3"]),
    ("house_lost_on_first_mtaji_capture", &["true", "false"]),
    ("dormant_house_placeable", &["true", "false"]),
    ("capture_priority", &["true", "false"]),
    ("kuu_floor", &["true", "false"]),
    ("first_takata_from_kuu", &["true", "false"]),
    ("bao_hamna_mid_move", &["true", "false"]),
    ("houses_fall_at_move_end", &["true", "false"]),
];

impl RuleSet {
    /// The one-byte options (every field but `endless_move`) as bytes, in the order of the
    /// fields (each field's discriminant or value). With `repr(C)` this is a copy of the
    /// struct's first fifteen bytes, so comparing those of two rule sets is two loads each.
    #[inline(always)]
    #[must_use]
    pub(crate) const fn bytes(&self) -> [u8; 15] {
        [
            self.variant as u8,
            self.abstractplay as u8,
            self.houses as u8,
            self.mtaji_takasa_house as u8,
            self.dormant_house_placeable as u8,
            self.front_row_guard as u8,
            self.house_lost_on_first_mtaji_capture as u8,
            self.capture_threshold,
            self.takasia as u8,
            self.capture_priority as u8,
            self.kuu_floor as u8,
            self.first_takata_from_kuu as u8,
            self.houses_fall_at_move_end as u8,
            self.bao_hamna_mid_move as u8,
            self.end_check as u8,
        ]
    }
}

impl RuleSet {
    /// Bao la Kiswahili with the defaults of rules-reference A.2 (the default preset).
    pub const KISWAHILI: Self = Self {
        variant: Variant::Kiswahili,
        abstractplay: false,
        houses: true,
        mtaji_takasa_house: HouseLap::Stop,
        dormant_house_placeable: true,
        front_row_guard: FrontRowGuard::Strict,
        house_lost_on_first_mtaji_capture: false,
        capture_threshold: 16,
        takasia: Takasia::Standard,
        capture_priority: false,
        kuu_floor: false,
        first_takata_from_kuu: false,
        houses_fall_at_move_end: false,
        bao_hamna_mid_move: true,
        endless_move: EndlessMove::Illegal,
        end_check: EndCheck::OpponentFirst,
    };

    /// Bao la Kete (Lamu): Kiswahili plus K1-K4.
    pub const KETE: Self = Self {
        variant: Variant::Kete,
        capture_priority: true,
        kuu_floor: true,
        first_takata_from_kuu: true,
        ..Self::KISWAHILI
    };

    /// Bao la Kujifunza: mtaji rules only, no house powers, no takasia.
    pub const KUJIFUNZA: Self = Self {
        variant: Variant::Kujifunza,
        houses: false,
        takasia: Takasia::Off,
        ..Self::KISWAHILI
    };

    /// The AbstractPlay engine's Kiswahili (snapshot b8c3115), exactly.
    pub const ABSTRACTPLAY: Self = Self {
        variant: Variant::Kiswahili,
        abstractplay: true,
        houses: true,
        mtaji_takasa_house: HouseLap::Relay,
        dormant_house_placeable: false,
        front_row_guard: FrontRowGuard::Off,
        house_lost_on_first_mtaji_capture: false,
        capture_threshold: 16,
        takasia: Takasia::AbstractPlay,
        capture_priority: true,
        kuu_floor: false,
        first_takata_from_kuu: false,
        houses_fall_at_move_end: true,
        bao_hamna_mid_move: false,
        endless_move: EndlessMove::SeedCap(192),
        end_check: EndCheck::SouthFirst,
    };

    /// The AbstractPlay engine's Kujifunza, exactly (it keeps takasia).
    pub const ABSTRACTPLAY_KUJIFUNZA: Self = Self {
        variant: Variant::Kujifunza,
        houses: false,
        ..Self::ABSTRACTPLAY
    };

    /// The preset called `name`.
    #[must_use]
    pub fn preset(name: &str) -> Option<Self> {
        Some(match name {
            "kiswahili" => Self::KISWAHILI,
            "kete" => Self::KETE,
            "kujifunza" => Self::KUJIFUNZA,
            "abstractplay" => Self::ABSTRACTPLAY,
            "abstractplay-kujifunza" => Self::ABSTRACTPLAY_KUJIFUNZA,
            _ => return None,
        })
    }

    /// Reads a rule set as the record format's `RuleSet` tag writes it: a preset name, then
    /// `name=value` overrides separated by blanks (`"kiswahili mtaji_takasa_house=relay"`).
    ///
    /// # Errors
    /// An unknown preset ([`RuleSpecError::UnknownPreset`]), or the first override that
    /// cannot be applied ([`RuleSpecError::Option`]).
    ///
    /// ```
    /// use bao_core::{RuleSet, RuleSpecError};
    ///
    /// let kete = RuleSet::from_spec("kete kuu_floor=false").unwrap();
    /// assert!(!kete.kuu_floor);
    /// assert!(matches!(RuleSet::from_spec("chess"), Err(RuleSpecError::UnknownPreset(_))));
    /// ```
    pub fn from_spec(text: &str) -> Result<Self, RuleSpecError> {
        let mut words = text.split_whitespace();
        let preset = words.next().unwrap_or("");
        let mut rules = Self::preset(preset)
            .ok_or_else(|| RuleSpecError::UnknownPreset(UnknownPreset(preset.to_owned())))?;
        for word in words {
            let (name, value) = word.split_once('=').unwrap_or((word, ""));
            rules
                .set_option(name, value)
                .map_err(RuleSpecError::Option)?;
        }
        Ok(rules)
    }

    /// The name of the preset this rule set equals, if any.
    #[must_use]
    pub fn preset_name(&self) -> Option<&'static str> {
        PRESET_NAMES
            .into_iter()
            .find(|n| Self::preset(n) == Some(*self))
    }

    /// The seeds each player has in hand at the start.
    #[must_use]
    pub const fn initial_hand(&self) -> u8 {
        match self.variant {
            Variant::Kujifunza => 0,
            _ => 22,
        }
    }

    /// The names this variant uses in messages.
    #[must_use]
    pub const fn names(&self) -> Names {
        match self.variant {
            Variant::Kete => Names {
                namua: "nemo",
                mtaji: "mtaji",
                nyumba: "kuu",
                takasia: "hizi zetu",
                takasa: "takata",
            },
            _ => Names {
                namua: "namua",
                mtaji: "mtaji",
                nyumba: "nyumba",
                takasia: "takasia",
                takasa: "takasa",
            },
        }
    }

    /// Sets one option by name (the `RuleSet` tag's overrides, `--rule name=value`).
    ///
    /// # Errors
    /// An unknown option or value, with what is accepted.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), RuleOptionError> {
        let bad = |expected: &'static str| RuleOptionError {
            option: name.to_owned(),
            value: value.to_owned(),
            expected,
        };
        let flag = |expected| match value {
            "true" | "on" | "yes" => Ok(true),
            "false" | "off" | "no" => Ok(false),
            _ => Err(bad(expected)),
        };
        match name {
            "mtaji_takasa_house" => {
                self.mtaji_takasa_house = match value {
                    "stop" => HouseLap::Stop,
                    "relay" => HouseLap::Relay,
                    _ => return Err(bad("stop or relay")),
                };
            }
            "front_row_guard" => {
                self.front_row_guard = match value {
                    "strict" => FrontRowGuard::Strict,
                    "off" => FrontRowGuard::Off,
                    _ => return Err(bad("strict or off")),
                };
            }
            "endless_move" => {
                self.endless_move = match value {
                    "illegal" => EndlessMove::Illegal,
                    "draw" => EndlessMove::Draw,
                    "mover_loses" => EndlessMove::MoverLoses,
                    _ => match value.strip_prefix("cap:").and_then(|n| n.parse().ok()) {
                        Some(n) => EndlessMove::SeedCap(n),
                        None => return Err(bad("illegal, draw, mover_loses or cap:N")),
                    },
                };
            }
            "takasia" => {
                self.takasia = match value {
                    "off" => Takasia::Off,
                    "standard" => Takasia::Standard,
                    "abstractplay" => Takasia::AbstractPlay,
                    _ => return Err(bad("off, standard or abstractplay")),
                };
            }
            "end_check" => {
                self.end_check = match value {
                    "opponent_first" => EndCheck::OpponentFirst,
                    "south_first" => EndCheck::SouthFirst,
                    _ => return Err(bad("opponent_first or south_first")),
                };
            }
            "capture_threshold" => {
                self.capture_threshold = match value.parse() {
                    Ok(n) if (2..=64).contains(&n) => n,
                    _ => return Err(bad("a number from 2 to 64")),
                };
            }
            "house_lost_on_first_mtaji_capture" => {
                self.house_lost_on_first_mtaji_capture = flag("true or false")?;
            }
            "dormant_house_placeable" => self.dormant_house_placeable = flag("true or false")?,
            "capture_priority" => self.capture_priority = flag("true or false")?,
            "kuu_floor" => self.kuu_floor = flag("true or false")?,
            "first_takata_from_kuu" => self.first_takata_from_kuu = flag("true or false")?,
            "bao_hamna_mid_move" => self.bao_hamna_mid_move = flag("true or false")?,
            "houses_fall_at_move_end" => self.houses_fall_at_move_end = flag("true or false")?,
            _ => {
                return Err(RuleOptionError {
                    option: name.to_owned(),
                    value: value.to_owned(),
                    expected: "a known option (see spec/rules.md, section Options)",
                })
            }
        }
        Ok(())
    }
}

impl Default for RuleSet {
    fn default() -> Self {
        Self::KISWAHILI
    }
}

/// An unknown preset name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownPreset(pub String);

/// The name, for developers (``unknown rule preset `zanzibar` ``); a player reads
/// `bao_validate::words::unknown_preset`.
impl fmt::Display for UnknownPreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rule preset `{}`", self.0)
    }
}

impl std::error::Error for UnknownPreset {}

impl FromStr for RuleSet {
    type Err = UnknownPreset;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::preset(s).ok_or_else(|| UnknownPreset(s.to_owned()))
    }
}

/// A rule option that could not be set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleOptionError {
    /// The option's name.
    pub option: String,
    /// The value given.
    pub value: String,
    /// What is accepted.
    pub expected: &'static str,
}

/// The data, for developers (`rule option takasia=sometimes (expected off, standard or
/// abstractplay)`); a player reads `bao_validate::words::rule_option_error`.
impl fmt::Display for RuleOptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rule option {}={} (expected {})",
            self.option, self.value, self.expected
        )
    }
}

impl std::error::Error for RuleOptionError {}

/// Why a rule-set spec (`"kiswahili mtaji_takasa_house=relay"`) names no rule set: the
/// error of [`RuleSet::from_spec`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RuleSpecError {
    /// The first word names no preset.
    UnknownPreset(UnknownPreset),
    /// An override cannot be applied.
    Option(RuleOptionError),
}

/// The refusal's own short form, for developers; a player reads
/// `bao_validate::words::rule_spec_error`.
impl fmt::Display for RuleSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownPreset(e) => e.fmt(f),
            Self::Option(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RuleSpecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::UnknownPreset(e) => Some(e),
            Self::Option(e) => Some(e),
        }
    }
}

/// The words a variant uses for its stages, house and takasia.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Names {
    /// The first stage: namua (Kete: nemo).
    pub namua: &'static str,
    /// The second stage: mtaji.
    pub mtaji: &'static str,
    /// The house: nyumba (Kete: kuu).
    pub nyumba: &'static str,
    /// The blocked pit: takasia (Kete: hizi zetu).
    pub takasia: &'static str,
    /// A non-capturing move: takasa (Kete: takata).
    pub takasa: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes` (with `endless_move`) tells every field apart: the engine reads a note only
    /// for rules equal by it.
    #[test]
    fn bytes_tell_every_option_apart() {
        let base = RuleSet::KISWAHILI;
        let changes: [fn(&mut RuleSet); 15] = [
            |r| r.variant = Variant::Kete,
            |r| r.abstractplay = !r.abstractplay,
            |r| r.houses = !r.houses,
            |r| r.mtaji_takasa_house = HouseLap::Relay,
            |r| r.dormant_house_placeable = !r.dormant_house_placeable,
            |r| r.front_row_guard = FrontRowGuard::Off,
            |r| r.house_lost_on_first_mtaji_capture = !r.house_lost_on_first_mtaji_capture,
            |r| r.capture_threshold = 15,
            |r| r.takasia = Takasia::Off,
            |r| r.capture_priority = !r.capture_priority,
            |r| r.kuu_floor = !r.kuu_floor,
            |r| r.first_takata_from_kuu = !r.first_takata_from_kuu,
            |r| r.houses_fall_at_move_end = !r.houses_fall_at_move_end,
            |r| r.bao_hamna_mid_move = !r.bao_hamna_mid_move,
            |r| r.end_check = EndCheck::SouthFirst,
        ];
        for (i, change) in changes.iter().enumerate() {
            let mut r = base;
            change(&mut r);
            assert_ne!(r, base, "change {i} changes nothing");
            assert_ne!(r.bytes(), base.bytes(), "change {i}");
        }
        let mut r = base;
        r.endless_move = EndlessMove::SeedCap(3);
        assert_eq!(r.bytes(), base.bytes());
        assert_ne!(r.endless_move, base.endless_move);
        for name in PRESET_NAMES {
            for other in PRESET_NAMES {
                let (a, b) = (
                    RuleSet::preset(name).unwrap(),
                    RuleSet::preset(other).unwrap(),
                );
                assert_eq!(
                    a == b,
                    a.bytes() == b.bytes() && a.endless_move == b.endless_move
                );
            }
        }
    }

    #[test]
    fn from_spec_reads_a_preset_and_overrides() {
        let r = RuleSet::from_spec("kete  kuu_floor=false").unwrap();
        assert!(!r.kuu_floor);
        assert_eq!(RuleSet::from_spec("kiswahili"), Ok(RuleSet::KISWAHILI));
        assert_eq!(
            RuleSet::from_spec("chess"),
            Err(RuleSpecError::UnknownPreset(UnknownPreset(
                "chess".to_owned()
            )))
        );
        assert!(RuleSet::from_spec("kiswahili nonsense=1").is_err());
    }

    #[test]
    fn every_listed_option_value_is_accepted() {
        for (name, values) in OPTION_VALUES {
            for value in values {
                let mut r = RuleSet::KISWAHILI;
                assert!(r.set_option(name, value).is_ok(), "{name}={value}");
            }
        }
    }

    #[test]
    fn presets_round_trip_by_name() {
        for name in PRESET_NAMES {
            let rules: RuleSet = name.parse().unwrap();
            assert_eq!(rules.preset_name(), Some(name));
        }
        assert!("zanzibar".parse::<RuleSet>().is_err());
    }

    #[test]
    fn options_can_be_overridden() {
        let mut r = RuleSet::KISWAHILI;
        r.set_option("mtaji_takasa_house", "relay").unwrap();
        assert_eq!(r.mtaji_takasa_house, HouseLap::Relay);
        assert_eq!(r.preset_name(), None);
        r.set_option("endless_move", "cap:300").unwrap();
        assert_eq!(r.endless_move, EndlessMove::SeedCap(300));
        assert!(r.set_option("endless_move", "sometimes").is_err());
        assert!(r.set_option("no_such_option", "1").is_err());
        assert_eq!(RuleSet::KETE.names().nyumba, "kuu");
    }
}
