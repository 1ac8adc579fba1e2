//! The one-line position string of the `Position` tag.
//!
//! `A/B/a/b hands side houses takasia [*]`, for example the Kiswahili start:
//! `0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S FF -`.
//! Rows `A`, `B`, `a`, `b` in that order, each pits 1..8 from the owner's left (the order of
//! position JSON); hands South/North; the side to move `S` or `N`; the houses of South and
//! North, each `F` functional, `D` dormant, `X` destroyed or `-` none; the takasia'd pits
//! (`-`, or one or two pit names joined by `,`); and a final `*` when the move that led here
//! was a takasa. The string is syntax only: [`bao_core::Position::from_setup`] checks it.

use std::fmt;
use std::str::FromStr;

use bao_core::{BySide, HouseState, Pit, Position, RuleSet, Setup, Side};
use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, one_of, space1, u8 as dec_u8};
use nom::combinator::{all_consuming, opt, value};
use nom::multi::separated_list1;
use nom::{IResult, Parser};

use crate::lexical::pit;

/// A position as the `Position` tag writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PositionString {
    /// Seeds in rows `A`, `B`, `a`, `b`, pits 1..8 from the owner's left.
    pub pits: [[u8; 8]; 4],
    /// Seeds in hand.
    pub hands: BySide<u8>,
    /// The side to move.
    pub to_move: Side,
    /// The houses.
    pub houses: BySide<HouseState>,
    /// The takasia'd pit of each side.
    pub blocked: BySide<Option<Pit>>,
    /// Whether the move that led here was a takasa.
    pub last_move_takasa: bool,
}

impl PositionString {
    /// The setup under `rules`.
    #[must_use]
    pub fn to_setup(&self, rules: RuleSet) -> Setup {
        Setup {
            rules,
            to_move: self.to_move,
            hands: self.hands,
            pits: self.pits,
            houses: self.houses,
            blocked: self.blocked,
            last_move_takasa: self.last_move_takasa,
        }
    }

    /// The string of a setup (its rules are not part of it).
    #[must_use]
    pub fn from_setup(s: &Setup) -> Self {
        Self {
            pits: s.pits,
            hands: s.hands,
            to_move: s.to_move,
            houses: s.houses,
            blocked: s.blocked,
            last_move_takasa: s.last_move_takasa,
        }
    }
}

impl From<&Position> for PositionString {
    fn from(p: &Position) -> Self {
        Self::from_setup(&p.to_setup())
    }
}

fn house_char(h: HouseState) -> char {
    match h {
        HouseState::Functional => 'F',
        HouseState::Dormant => 'D',
        HouseState::Destroyed => 'X',
        HouseState::None => '-',
    }
}

impl fmt::Display for PositionString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (r, row) in self.pits.iter().enumerate() {
            if r > 0 {
                f.write_str("/")?;
            }
            for (i, n) in row.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{n}")?;
            }
        }
        write!(
            f,
            " {}/{} {} {}{} ",
            self.hands.south,
            self.hands.north,
            match self.to_move {
                Side::South => 'S',
                Side::North => 'N',
            },
            house_char(self.houses.south),
            house_char(self.houses.north)
        )?;
        match (self.blocked.south, self.blocked.north) {
            (None, None) => f.write_str("-")?,
            (Some(p), None) | (None, Some(p)) => write!(f, "{p}")?,
            (Some(p), Some(q)) => write!(f, "{p},{q}")?,
        }
        if self.last_move_takasa {
            f.write_str(" *")?;
        }
        Ok(())
    }
}

/// A position string that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsePositionError(pub &'static str);

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for ParsePositionError {}

fn house(input: &str) -> IResult<&str, HouseState> {
    one_of("FDX-")
        .map(|c| match c {
            'F' => HouseState::Functional,
            'D' => HouseState::Dormant,
            'X' => HouseState::Destroyed,
            _ => HouseState::None,
        })
        .parse(input)
}

type Fields = (
    Vec<Vec<u8>>,
    (u8, u8),
    Side,
    (HouseState, HouseState),
    Option<Vec<Pit>>,
    Option<()>,
);

fn fields(input: &str) -> IResult<&str, Fields> {
    all_consuming((
        separated_list1(char('/'), separated_list1(char(','), dec_u8)),
        (space1, dec_u8, char('/'), dec_u8).map(|(_, s, _, n)| (s, n)),
        (
            space1,
            alt((
                value(Side::South, one_of("Ss")),
                value(Side::North, one_of("Nn")),
            )),
        )
            .map(|(_, s)| s),
        (space1, house, house).map(|(_, s, n)| (s, n)),
        (
            space1,
            alt((
                value(None, char('-')),
                separated_list1(char(','), pit).map(Some),
            )),
        )
            .map(|(_, t)| t),
        opt((space1, tag("*")).map(|_| ())),
    ))
    .parse(input)
}

impl FromStr for PositionString {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (_, (rows, (hs, hn), to_move, (house_s, house_n), takasia, star)) = fields(s.trim())
            .map_err(|_| {
                ParsePositionError(
                    "expected four rows of eight counts, hands, side, houses and takasia",
                )
            })?;
        if rows.len() != 4 || rows.iter().any(|r| r.len() != 8) {
            return Err(ParsePositionError(
                "the board is four rows (A/B/a/b) of eight counts each",
            ));
        }
        let mut pits = [[0u8; 8]; 4];
        for (dst, src) in pits.iter_mut().zip(&rows) {
            dst.copy_from_slice(src);
        }
        let mut blocked = BySide::new(None, None);
        for p in takasia.unwrap_or_default() {
            let slot = blocked.get_mut(p.side());
            if slot.is_some() {
                return Err(ParsePositionError("at most one takasia'd pit per side"));
            }
            *slot = Some(p);
        }
        Ok(Self {
            pits,
            hands: BySide::new(hs, hn),
            to_move,
            houses: BySide::new(house_s, house_n),
            blocked,
            last_move_takasa: star.is_some(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_round_trip() {
        for name in bao_core::PRESET_NAMES {
            let rules = RuleSet::preset(name).unwrap();
            let p = Position::start(rules);
            let s = PositionString::from(&p);
            let text = s.to_string();
            let back: PositionString = text.parse().unwrap();
            assert_eq!(back, s);
            assert_eq!(Position::from_setup(back.to_setup(rules)).unwrap(), p);
        }
        assert_eq!(
            PositionString::from(&Position::start(RuleSet::KISWAHILI)).to_string(),
            "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S FF -"
        );
    }

    #[test]
    fn takasia_and_flag() {
        let t = "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 0/0 N XD A4,a3 *";
        let p: PositionString = t.parse().unwrap();
        assert_eq!(p.blocked.north.unwrap().to_string(), "a3");
        assert!(p.last_move_takasa);
        assert_eq!(p.to_string(), t);
        assert!("1,2/3 0/0 S FF -".parse::<PositionString>().is_err());
        assert!(t
            .replace("A4,a3", "a4,a3")
            .parse::<PositionString>()
            .is_err());
        assert!("".parse::<PositionString>().is_err());
    }
}
