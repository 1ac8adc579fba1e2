//! Input dialects that need more than the token: the `Directions` tag.
//!
//! The parser keeps signs as written. A record transcribed from a source with another sign
//! convention says so in its `Directions` tag, and the validator, which knows the mover and
//! whether a move is a namua capture, converts each written sign with [`Directions::sign`].

use std::fmt;
use std::str::FromStr;

use bao_core::{Direction, Move, Position, Row, Side, Sign, Stage};

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

    /// The sign a move (canonical: its sign is the mover's) is written with under this
    /// convention, the move played from `before`: the written sign this convention reads as
    /// the move's sign. What a record, a completion or a repair writes for an engine move.
    #[must_use]
    pub fn written_sign(self, mv: &Move, before: &Position) -> Sign {
        let usage = if before.stage() == Stage::Namua && mv.is_capture() {
            SignUse::Kichwa
        } else {
            SignUse::Sowing(mv.pit.row())
        };
        [Sign::Left, Sign::Right]
            .into_iter()
            .find(|&s| self.sign(s, mv.pit.side(), usage) == mv.sign)
            .unwrap_or(mv.sign)
    }

    /// A move (canonical) as written under this convention: the same move with
    /// [`Directions::written_sign`]: its text is the token a record of this convention
    /// writes (under `south`, North's `a6<*` is written `a6>*`).
    #[must_use]
    pub fn written_move(self, mv: &Move, before: &Position) -> Move {
        Move {
            sign: self.written_sign(mv, before),
            ..*mv
        }
    }

    /// Whether the conversion needs to know if the move is a namua capture.
    #[must_use]
    pub const fn depends_on_use(self) -> bool {
        matches!(self, Self::Clockwise)
    }
}

/// How a record writes its move tokens, beside its sign convention ([`Directions`]): the
/// letters of its signs and whether it marks a takasa with `*`. Read from the tokens as
/// written, so that a writer that adds or replaces a move writes it as the record does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Notation {
    /// The K.I.B.A. letters `L`/`R` for the signs, instead of `<`/`>`.
    pub kiba: bool,
    /// A takasa is marked with `*` (a record that leaves every `*` out writes none where the
    /// position does not need it).
    pub stars: bool,
}

impl Notation {
    /// The canonical notation: `<`/`>` signs and `*` marks.
    pub const CANONICAL: Self = Self {
        kiba: false,
        stars: true,
    };

    /// The notation of a record whose move tokens are written `tokens` (their exact text):
    /// K.I.B.A. letters when more tokens use them than `<`/`>`; `*` marks unless there are
    /// tokens and none has one.
    ///
    /// ```
    /// use bao_notation::Notation;
    ///
    /// let n = Notation::of_tokens(["A6L", "a6R", "A4>*"]);
    /// assert!(n.kiba && n.stars);
    /// assert_eq!(Notation::of_tokens(["A6<", "a6>"]), Notation { kiba: false, stars: false });
    /// assert_eq!(Notation::of_tokens([]), Notation::CANONICAL);
    /// ```
    pub fn of_tokens<'t>(tokens: impl IntoIterator<Item = &'t str>) -> Self {
        let (mut letters, mut arrows, mut stars, mut any) = (0usize, 0usize, false, false);
        for t in tokens {
            any = true;
            if t.contains(['L', 'R', 'l', 'r']) {
                letters += 1;
            } else if t.contains(['<', '>']) {
                arrows += 1;
            }
            stars |= t.contains('*');
        }
        Self {
            kiba: letters > arrows,
            stars: stars || !any,
        }
    }

    /// A token written in this notation (its `*` as the token has it: whether to leave it
    /// out is the caller's to decide, who knows the position).
    #[must_use]
    pub fn write_token(self, token: &crate::MoveToken) -> String {
        let text = token.to_string();
        if self.kiba {
            text.replace('<', "L").replace('>', "R")
        } else {
            text
        }
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
    }

    #[test]
    fn written_signs_read_back_as_the_move() {
        use bao_core::RuleSet;
        // South's first moves, then North's after one of them, in namua and mtaji.
        let mut positions = vec![Position::start(RuleSet::KISWAHILI)];
        let first = positions[0].legal_moves()[0];
        positions.push(positions[0].play_fast(&first));
        let mut flipped = 0;
        for pos in positions {
            for mv in pos.legal_moves() {
                assert_eq!(Directions::Mover.written_move(&mv, &pos), mv);
                let south = Directions::South.written_sign(&mv, &pos);
                if pos.to_move() == Side::North {
                    assert_eq!(south, mv.sign.flipped());
                    flipped += 1;
                } else {
                    assert_eq!(south, mv.sign);
                }
                for d in [Directions::South, Directions::Clockwise] {
                    let usage = if pos.stage() == Stage::Namua && mv.is_capture() {
                        SignUse::Kichwa
                    } else {
                        SignUse::Sowing(mv.pit.row())
                    };
                    let w = d.written_sign(&mv, &pos);
                    assert_eq!(d.sign(w, pos.to_move(), usage), mv.sign, "{d} {mv}");
                }
            }
        }
        assert!(flipped > 0);
        assert!("north".parse::<Directions>().is_err());
    }
}
