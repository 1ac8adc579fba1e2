//! Position JSON (design §4): the serde types shared by `bao replay`, `bao export json` and
//! `bao import json`.
//!
//! ```json
//! {"to_move": "south", "stage": "namua",
//!  "hands": {"south": 22, "north": 22},
//!  "pits": {"A": [0,0,0,0,6,2,2,0], "B": [0,0,0,0,0,0,0,0],
//!           "a": [0,0,0,0,6,2,2,0], "b": [0,0,0,0,0,0,0,0]},
//!  "houses": {"south": "functional", "north": "functional"},
//!  "takasia": null}
//! ```
//!
//! Arrays list pits 1..8 from the owner's left. `stage` is the stage of the side to move and
//! must agree with the hands. `takasia` names the blocked pit the position shows (see
//! [`Position::takasia`]).
//!
//! Two more fields are written only under rules whose takasia follows AbstractPlay
//! ([`Takasia::AbstractPlay`]), where a block is stored per side and lasts until cleared, and
//! where the takasia exclusion depends on the previous move:
//! - `"blocked": {"south": null | "A3", "north": null | "a7"}`: both stored blocks;
//! - `"last_move_takasa": bool`: whether the move that led here was a takasa.
//!
//! On reading, `blocked`, when present, wins over `takasia`; otherwise `takasia` is stored as
//! the block of the pit's owner. `last_move_takasa` defaults to `false`. Unknown fields are
//! ignored, so that later versions may add fields.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::position::{write_impossible, HouseState, Outcome, Position, Setup, SetupProblem};
use crate::rules::{RuleSet, Takasia};
use crate::types::{BySide, Pit, Side, Stage};

/// A side in JSON: `"south"` or `"north"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideJson {
    /// South.
    South,
    /// North.
    North,
}

impl From<Side> for SideJson {
    fn from(side: Side) -> Self {
        match side {
            Side::South => Self::South,
            Side::North => Self::North,
        }
    }
}

impl From<SideJson> for Side {
    fn from(side: SideJson) -> Self {
        match side {
            SideJson::South => Self::South,
            SideJson::North => Self::North,
        }
    }
}

/// A stage in JSON: `"namua"` or `"mtaji"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StageJson {
    /// The mover still has reserve seeds.
    Namua,
    /// The mover's reserve is empty.
    Mtaji,
}

impl From<Stage> for StageJson {
    fn from(stage: Stage) -> Self {
        match stage {
            Stage::Namua => Self::Namua,
            Stage::Mtaji => Self::Mtaji,
        }
    }
}

impl From<StageJson> for Stage {
    fn from(stage: StageJson) -> Self {
        match stage {
            StageJson::Namua => Self::Namua,
            StageJson::Mtaji => Self::Mtaji,
        }
    }
}

/// A house state in JSON: `"functional"`, `"dormant"`, `"destroyed"` or `"none"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HouseJson {
    /// Owned, six seeds or more.
    Functional,
    /// Owned, fewer than six seeds.
    Dormant,
    /// Lost for ever.
    Destroyed,
    /// The rules have no houses.
    None,
}

impl From<HouseState> for HouseJson {
    fn from(state: HouseState) -> Self {
        match state {
            HouseState::Functional => Self::Functional,
            HouseState::Dormant => Self::Dormant,
            HouseState::Destroyed => Self::Destroyed,
            HouseState::None => Self::None,
        }
    }
}

impl From<HouseJson> for HouseState {
    fn from(state: HouseJson) -> Self {
        match state {
            HouseJson::Functional => Self::Functional,
            HouseJson::Dormant => Self::Dormant,
            HouseJson::Destroyed => Self::Destroyed,
            HouseJson::None => Self::None,
        }
    }
}

/// One value per side, as `{"south": .., "north": ..}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BySideJson<T> {
    /// South's value.
    pub south: T,
    /// North's value.
    pub north: T,
}

impl<T, U: From<T>> From<BySide<T>> for BySideJson<U> {
    fn from(v: BySide<T>) -> Self {
        Self {
            south: v.south.into(),
            north: v.north.into(),
        }
    }
}

/// The four rows, each pits 1..8 from the owner's left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PitsJson {
    /// South's front row.
    #[serde(rename = "A")]
    pub south_front: [u8; 8],
    /// South's back row.
    #[serde(rename = "B")]
    pub south_back: [u8; 8],
    /// North's front row.
    #[serde(rename = "a")]
    pub north_front: [u8; 8],
    /// North's back row.
    #[serde(rename = "b")]
    pub north_back: [u8; 8],
}

/// A pit written by name (`"A3"`), or `null`.
fn ser_pit<S: Serializer>(pit: &Option<Pit>, s: S) -> Result<S::Ok, S::Error> {
    match pit {
        Some(p) => s.collect_str(p),
        None => s.serialize_none(),
    }
}

fn de_pit<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Pit>, D::Error> {
    let name: Option<String> = Option::deserialize(d)?;
    name.map(|n| n.parse::<Pit>().map_err(serde::de::Error::custom))
        .transpose()
}

/// The stored takasia block of each side (AbstractPlay rules only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockedJson {
    /// South's blocked pit.
    #[serde(serialize_with = "ser_pit", deserialize_with = "de_pit")]
    pub south: Option<Pit>,
    /// North's blocked pit.
    #[serde(serialize_with = "ser_pit", deserialize_with = "de_pit")]
    pub north: Option<Pit>,
}

/// A position as design §4 writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionJson {
    /// The side to move.
    pub to_move: SideJson,
    /// The stage of the side to move (must agree with its hand).
    pub stage: StageJson,
    /// Seeds in each reserve.
    pub hands: BySideJson<u8>,
    /// Seed counts.
    pub pits: PitsJson,
    /// The state of each house.
    pub houses: BySideJson<HouseJson>,
    /// The takasia pit the position shows, if any.
    #[serde(serialize_with = "ser_pit", deserialize_with = "de_pit")]
    pub takasia: Option<Pit>,
    /// Both stored blocks; written only under AbstractPlay takasia.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked: Option<BlockedJson>,
    /// Whether the move that led here was a takasa; written only under AbstractPlay takasia.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_move_takasa: Option<bool>,
}

/// One reason a [`PositionJson`] is not a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionJsonProblem {
    /// `stage` contradicts the hand of the side to move.
    StageMismatch {
        /// The stage written.
        stage: Stage,
        /// The side to move.
        side: Side,
        /// Its hand.
        hand: u8,
    },
    /// The setup itself is impossible.
    Setup(SetupProblem),
}

/// The data, for developers (`stage namua, south to move with hand 0`); a player reads
/// `bao_validate::words::position_json_problem`.
impl fmt::Display for PositionJsonProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::StageMismatch { stage, side, hand } => {
                write!(f, "stage {stage}, {side} to move with hand {hand}")
            }
            Self::Setup(p) => write!(f, "{p}"),
        }
    }
}

/// A [`PositionJson`] rejected, with every problem found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionJsonError {
    /// Every problem, in a stable order.
    pub problems: Vec<PositionJsonProblem>,
}

impl fmt::Display for PositionJsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_impossible(f, &self.problems)
    }
}

impl std::error::Error for PositionJsonError {}

impl PositionJson {
    /// The JSON of a position.
    #[must_use]
    pub fn from_position(pos: &Position) -> Self {
        let setup = pos.to_setup();
        let abstractplay = pos.rules().takasia == Takasia::AbstractPlay;
        Self {
            to_move: setup.to_move.into(),
            stage: pos.stage().into(),
            hands: setup.hands.into(),
            pits: PitsJson {
                south_front: setup.pits[0],
                south_back: setup.pits[1],
                north_front: setup.pits[2],
                north_back: setup.pits[3],
            },
            houses: setup.houses.into(),
            takasia: pos.takasia(),
            blocked: abstractplay.then_some(BlockedJson {
                south: setup.blocked.south,
                north: setup.blocked.north,
            }),
            last_move_takasa: abstractplay.then_some(setup.last_move_takasa),
        }
    }

    /// The unchecked setup this JSON describes under `rules` (the `stage` field is not
    /// needed for it and not checked here).
    #[must_use]
    pub fn to_setup(&self, rules: RuleSet) -> Setup {
        let mut blocked = BySide::new(None, None);
        match self.blocked {
            Some(b) => blocked = BySide::new(b.south, b.north),
            None => {
                if let Some(pit) = self.takasia {
                    *blocked.get_mut(pit.side()) = Some(pit);
                }
            }
        }
        Setup {
            rules,
            to_move: self.to_move.into(),
            hands: BySide::new(self.hands.south, self.hands.north),
            pits: [
                self.pits.south_front,
                self.pits.south_back,
                self.pits.north_front,
                self.pits.north_back,
            ],
            houses: BySide::new(self.houses.south.into(), self.houses.north.into()),
            blocked,
            last_move_takasa: self.last_move_takasa.unwrap_or(false),
        }
    }

    /// The position this JSON describes under `rules`.
    ///
    /// # Errors
    /// Every problem found: a `stage` that contradicts the hands, and every reason
    /// [`Position::from_setup`] gives.
    pub fn to_position(&self, rules: RuleSet) -> Result<Position, PositionJsonError> {
        let mut problems = Vec::new();
        let side: Side = self.to_move.into();
        let hand = *BySide::new(self.hands.south, self.hands.north).get(side);
        let stage: Stage = self.stage.into();
        let expected = if hand > 0 { Stage::Namua } else { Stage::Mtaji };
        if stage != expected {
            problems.push(PositionJsonProblem::StageMismatch { stage, side, hand });
        }
        match Position::from_setup(self.to_setup(rules)) {
            Ok(pos) if problems.is_empty() => Ok(pos),
            Ok(_) => Err(PositionJsonError { problems }),
            Err(e) => {
                problems.extend(e.problems.into_iter().map(PositionJsonProblem::Setup));
                Err(PositionJsonError { problems })
            }
        }
    }
}

/// How a game ended, in JSON: `{"winner": "south", "loser": "north", "reason": "bao_hamna"}`;
/// `winner` and `loser` are `null` on a draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeJson {
    /// The winner, or `null` on a draw.
    pub winner: Option<SideJson>,
    /// The loser, or `null` on a draw.
    pub loser: Option<SideJson>,
    /// Why the game ended ([`crate::EndReason::name`]).
    pub reason: String,
}

impl From<&Outcome> for OutcomeJson {
    fn from(outcome: &Outcome) -> Self {
        Self {
            winner: outcome.winner.map(SideJson::from),
            loser: outcome.loser().map(SideJson::from),
            reason: outcome.reason.name().to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::EndReason;
    use crate::rules::PRESET_NAMES;

    fn pit(s: &str) -> Pit {
        s.parse().unwrap()
    }

    #[test]
    fn start_positions_round_trip_for_every_preset() {
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).unwrap();
            let start = Position::start(rules);
            let json = PositionJson::from_position(&start);
            let text = serde_json::to_string(&json).unwrap();
            let back: PositionJson = serde_json::from_str(&text).unwrap();
            assert_eq!(back, json, "{name}");
            assert_eq!(back.to_position(rules).unwrap(), start, "{name}");
            let ap = rules.takasia == Takasia::AbstractPlay;
            assert_eq!(text.contains("\"blocked\""), ap, "{name}: {text}");
            assert_eq!(text.contains("\"last_move_takasa\""), ap, "{name}: {text}");
        }
    }

    #[test]
    fn kiswahili_start_is_written_as_designed() {
        let json = PositionJson::from_position(&Position::start(RuleSet::KISWAHILI));
        assert_eq!(
            serde_json::to_string(&json).unwrap(),
            concat!(
                r#"{"to_move":"south","stage":"namua","hands":{"south":22,"north":22},"#,
                r#""pits":{"A":[0,0,0,0,6,2,2,0],"B":[0,0,0,0,0,0,0,0],"#,
                r#""a":[0,0,0,0,6,2,2,0],"b":[0,0,0,0,0,0,0,0]},"#,
                r#""houses":{"south":"functional","north":"functional"},"takasia":null}"#
            )
        );
    }

    fn kujifunza_with(extra: &str) -> String {
        format!(
            r#"{{"to_move":"south","stage":"mtaji","hands":{{"south":0,"north":0}},
            "pits":{{"A":[2,2,2,2,2,2,2,2],"B":[2,2,2,2,2,2,2,2],
                     "a":[2,2,2,2,2,2,2,2],"b":[2,2,2,2,2,2,2,2]}},
            "houses":{{"south":"none","north":"none"}}{extra}}}"#
        )
    }

    #[test]
    fn takasia_goes_to_the_owner_and_blocked_wins() {
        let rules = RuleSet::ABSTRACTPLAY_KUJIFUNZA;
        let j: PositionJson = serde_json::from_str(&kujifunza_with(r#","takasia":"a3""#)).unwrap();
        let pos = j.to_position(rules).unwrap();
        assert_eq!(pos.blocked_pit(Side::North), Some(pit("a3")));
        assert_eq!(pos.blocked_pit(Side::South), None);
        assert!(!pos.last_move_takasa());

        let j: PositionJson = serde_json::from_str(&kujifunza_with(
            r#","takasia":"a3","blocked":{"south":"A2","north":null},"last_move_takasa":true"#,
        ))
        .unwrap();
        let pos = j.to_position(rules).unwrap();
        assert_eq!(pos.blocked_pit(Side::North), None);
        assert_eq!(pos.blocked_pit(Side::South), Some(pit("A2")));
        assert!(pos.last_move_takasa());
        let again = PositionJson::from_position(&pos);
        assert_eq!(again.takasia, Some(pit("A2")));
        assert_eq!(again.to_position(rules).unwrap(), pos);
    }

    #[test]
    fn every_problem_is_listed() {
        // Stage contradicts the hands, a house is named under rules without houses, and a
        // takasia is given under rules without takasia.
        let mut j: PositionJson =
            serde_json::from_str(&kujifunza_with(r#","takasia":"B1""#)).unwrap();
        j.stage = StageJson::Namua;
        j.houses.south = HouseJson::Functional;
        let err = j.to_position(RuleSet::KUJIFUNZA).unwrap_err();
        assert!(err.problems.len() >= 3, "{err}");
        assert!(matches!(
            err.problems[0],
            PositionJsonProblem::StageMismatch { .. }
        ));
        let text = err.to_string();
        assert!(text.contains("stage namua"), "{text}");
        assert!(text.contains("house"), "{text}");
        assert!(text.contains("takasia pit B1"), "{text}");
    }

    #[test]
    fn bad_fields_are_rejected_by_serde() {
        for bad in [
            kujifunza_with(r#","takasia":"Z9""#),
            kujifunza_with(r#","takasia":null,"blocked":{"south":"A9","north":null}"#),
            kujifunza_with(r#","takasia":null"#).replace("\"south\":0", "\"south\":300"),
            kujifunza_with(r#","takasia":null"#).replace("[2,2,2,2,2,2,2,2]", "[2,2]"),
            kujifunza_with(r#","takasia":null"#).replace("mtaji", "endgame"),
        ] {
            assert!(serde_json::from_str::<PositionJson>(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn outcomes() {
        let o = Outcome {
            winner: Some(Side::North),
            reason: EndReason::NoLegalMove,
        };
        assert_eq!(
            serde_json::to_string(&OutcomeJson::from(&o)).unwrap(),
            r#"{"winner":"north","loser":"south","reason":"no_legal_move"}"#
        );
        let draw = Outcome {
            winner: None,
            reason: EndReason::NeverEnding,
        };
        assert_eq!(
            serde_json::to_string(&OutcomeJson::from(&draw)).unwrap(),
            r#"{"winner":null,"loser":null,"reason":"never_ending"}"#
        );
    }
}
