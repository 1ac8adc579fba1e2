//! Input dialects that need more than the token: the `Directions` tag.
//!
//! The parser keeps signs as written. A record transcribed from a source with another sign
//! convention says so in its `Directions` tag, and the validator, which knows the mover and
//! whether a move is a namua capture, converts each written sign with [`Directions::sign`].

use std::fmt;
use std::str::FromStr;

use bao_core::{Direction, Row, Side, Sign};

/// The sign convention of a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Directions {
    /// `mover` (the default, canonical): `<`/`>` are left/right as seen from the mover's seat.
    #[default]
    Mover,
    /// `south`: `<`/`>` are left/right as seen from South's seat, also for North's moves.
    South,
    /// `clockwise`: `>` means clockwise and `<` anticlockwise, the rotation seen from above
    /// (from South's seat), the same for both players.
    Clockwise,
}

/// What a sign means in the move it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SignUse {
    /// A sowing move from a pit of this row: the sign is the direction of the first seed.
    Sowing(Row),
    /// A namua capture: the sign names the kichwa where the captured seeds enter.
    Kichwa,
}

impl Directions {
    /// The name used in the tag.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Mover => "mover",
            Self::South => "south",
            Self::Clockwise => "clockwise",
        }
    }

    /// The canonical sign (mover's seat) of a sign written under this convention.
    #[must_use]
    pub fn sign(self, written: Sign, mover: Side, usage: SignUse) -> Sign {
        match self {
            Self::Mover => written,
            Self::South => match mover {
                Side::South => written,
                Side::North => written.flipped(),
            },
            Self::Clockwise => {
                let dir = match written {
                    Sign::Right => Direction::Clockwise,
                    Sign::Left => Direction::Anticlockwise,
                };
                match usage {
                    SignUse::Sowing(row) => Sign::for_sowing(row, dir),
                    SignUse::Kichwa => {
                        if Sign::Left.kichwa_direction() == dir {
                            Sign::Left
                        } else {
                            Sign::Right
                        }
                    }
                }
            }
        }
    }

    /// Whether the conversion needs to know if the move is a namua capture.
    #[must_use]
    pub const fn depends_on_use(self) -> bool {
        matches!(self, Self::Clockwise)
    }
}

/// A `Directions` value that names no convention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownDirections(pub String);

impl fmt::Display for UnknownDirections {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown direction convention `{}`", self.0)
    }
}

impl std::error::Error for UnknownDirections {}

impl FromStr for Directions {
    type Err = UnknownDirections;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        [Self::Mover, Self::South, Self::Clockwise]
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(t))
            .ok_or_else(|| UnknownDirections(s.to_owned()))
    }
}

impl fmt::Display for Directions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        let d = Directions::South;
        assert_eq!(d.sign(Sign::Left, Side::South, SignUse::Kichwa), Sign::Left);
        assert_eq!(
            d.sign(Sign::Left, Side::North, SignUse::Kichwa),
            Sign::Right
        );
        let c = Directions::Clockwise;
        // Front row: clockwise is to the mover's right; back row: to his left.
        assert_eq!(
            c.sign(Sign::Right, Side::North, SignUse::Sowing(Row::Front)),
            Sign::Right
        );
        assert_eq!(
            c.sign(Sign::Right, Side::South, SignUse::Sowing(Row::Back)),
            Sign::Left
        );
        // A capture entering at the left kichwa sows clockwise.
        assert_eq!(
            c.sign(Sign::Right, Side::South, SignUse::Kichwa),
            Sign::Left
        );
        assert_eq!("Clockwise".parse::<Directions>(), Ok(Directions::Clockwise));
        assert!("north".parse::<Directions>().is_err());
    }
}
