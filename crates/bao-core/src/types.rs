//! Vocabulary types: sides, rows, pits, directions, signs, stages, moves.

use std::fmt;
use std::str::FromStr;

/// A player. South moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Side {
    /// The player who owns rows `A` and `B` and moves first.
    South = 0,
    /// The player who owns rows `a` and `b`.
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const ALL: [Self; 2] = [Self::South, Self::North];

    /// The other player.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Self {
        match self {
            Self::South => Self::North,
            Self::North => Self::South,
        }
    }

    /// 0 for South, 1 for North.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case English name (`south`, `north`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::South => "south",
            Self::North => "north",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Side {
    type Err = ParsePitError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "south" | "s" => Ok(Self::South),
            "north" | "n" => Ok(Self::North),
            _ => Err(ParsePitError::new(s, "expected `south` or `north`")),
        }
    }
}

/// One value per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BySide<T> {
    /// South's value.
    pub south: T,
    /// North's value.
    pub north: T,
}

impl<T> BySide<T> {
    /// Builds from the two values.
    pub const fn new(south: T, north: T) -> Self {
        Self { south, north }
    }

    /// The value of `side`.
    #[inline]
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::South => &self.south,
            Side::North => &self.north,
        }
    }

    /// The value of `side`, mutably.
    #[inline]
    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::South => &mut self.south,
            Side::North => &mut self.north,
        }
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BySide<U> {
        BySide {
            south: f(self.south),
            north: f(self.north),
        }
    }
}

/// A row of a player's half of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Row {
    /// The front (inner) row, facing the opponent: `A` or `a`.
    Front = 0,
    /// The back (outer) row: `B` or `b`.
    Back = 1,
}

/// One of the 32 pits.
///
/// `index` is 0..8, counted from the owner's left: index 0 is pit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pit {
    side: Side,
    row: Row,
    index: u8,
}

/// The number of pits in a row (numbered 1..=8 from the owner's left).
pub(crate) const ROW_PITS: usize = 8;

/// The number of pits a player owns (two rows of eight): ring indices `0..8` are the front
/// row from pit 1 to pit 8, `8..16` the back row from pit 8 back to pit 1.
pub const RING: usize = 2 * ROW_PITS;

/// The ring index (and front-row index) of the nyumba (Kete: kuu), front pit 5.
pub(crate) const HOUSE_RING: usize = 4;

impl Pit {
    /// Builds a pit; `number` is 1..=8 from the owner's left. Returns `None` out of range.
    #[must_use]
    pub const fn new(side: Side, row: Row, number: u8) -> Option<Self> {
        if number >= 1 && number <= 8 {
            Some(Self {
                side,
                row,
                index: number - 1,
            })
        } else {
            None
        }
    }

    /// The owner.
    #[inline]
    #[must_use]
    pub const fn side(self) -> Side {
        self.side
    }

    /// The row.
    #[inline]
    #[must_use]
    pub const fn row(self) -> Row {
        self.row
    }

    /// The pit number, 1..=8 from the owner's left.
    #[inline]
    #[must_use]
    pub const fn number(self) -> u8 {
        self.index + 1
    }

    /// Position on the owner's ring of 16 pits: front 1..8 are 0..8, back 8..1 are 8..16,
    /// so that clockwise is +1 (A1 → A8 → B8 → B1 → A1).
    #[inline]
    #[must_use]
    pub const fn ring(self) -> usize {
        match self.row {
            Row::Front => self.index as usize,
            Row::Back => 15 - self.index as usize,
        }
    }

    /// The pit at ring position `ring` (0..16) of `side`.
    #[inline]
    #[must_use]
    pub const fn from_ring(side: Side, ring: usize) -> Self {
        if ring < ROW_PITS {
            Self {
                side,
                row: Row::Front,
                index: ring as u8,
            }
        } else {
            Self {
                side,
                row: Row::Back,
                index: (RING - 1 - ring) as u8,
            }
        }
    }

    /// The opponent's front pit facing this front pit (`A_i` faces `a_(9-i)`); `None` for a back pit.
    #[must_use]
    pub const fn facing(self) -> Option<Self> {
        match self.row {
            Row::Front => Some(Self {
                side: self.side.opponent(),
                row: Row::Front,
                index: 7 - self.index,
            }),
            Row::Back => None,
        }
    }

    /// The nyumba (Kete: kuu) of `side`: front pit 5.
    #[must_use]
    pub const fn nyumba(side: Side) -> Self {
        Self {
            side,
            row: Row::Front,
            index: HOUSE_RING as u8,
        }
    }

    /// Whether this is a kichwa (front pit 1 or 8).
    #[must_use]
    pub const fn is_kichwa(self) -> bool {
        matches!(self.row, Row::Front) && (self.index == 0 || self.index == 7)
    }

    /// Whether this is a kimbi (front pit 1, 2, 7 or 8).
    #[must_use]
    pub const fn is_kimbi(self) -> bool {
        matches!(self.row, Row::Front) && (self.index <= 1 || self.index >= 6)
    }

    /// The row letter: `A`, `B` (South) or `a`, `b` (North).
    #[must_use]
    pub const fn row_letter(self) -> char {
        match (self.side, self.row) {
            (Side::South, Row::Front) => 'A',
            (Side::South, Row::Back) => 'B',
            (Side::North, Row::Front) => 'a',
            (Side::North, Row::Back) => 'b',
        }
    }

    /// Every pit: A1..A8, B1..B8, a1..a8, b1..b8.
    pub fn all() -> impl Iterator<Item = Self> {
        Side::ALL.into_iter().flat_map(|side| {
            [Row::Front, Row::Back]
                .into_iter()
                .flat_map(move |row| (1..=8).filter_map(move |n| Self::new(side, row, n)))
        })
    }
}

impl fmt::Display for Pit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.row_letter(), self.number())
    }
}

/// A pit name or move token that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsePitError {
    /// The text that was read.
    pub text: String,
    /// Why it was rejected.
    pub reason: &'static str,
}

impl ParsePitError {
    pub(crate) fn new(text: &str, reason: &'static str) -> Self {
        Self {
            text: text.to_owned(),
            reason,
        }
    }
}

impl fmt::Display for ParsePitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read `{}`: {}", self.text, self.reason)
    }
}

impl std::error::Error for ParsePitError {}

impl FromStr for Pit {
    type Err = ParsePitError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(ParsePitError::new(
                s,
                "a pit is a row letter (A, B, a, b) and a number 1-8",
            ));
        }
        let (side, row) = match b[0] {
            b'A' => (Side::South, Row::Front),
            b'B' => (Side::South, Row::Back),
            b'a' => (Side::North, Row::Front),
            b'b' => (Side::North, Row::Back),
            _ => return Err(ParsePitError::new(s, "the row letter must be A, B, a or b")),
        };
        if !(b'1'..=b'8').contains(&b[1]) {
            return Err(ParsePitError::new(s, "the pit number must be 1 to 8"));
        }
        Ok(Self {
            side,
            row,
            index: b[1] - b'1',
        })
    }
}

/// A sowing direction on a player's ring of 16 pits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Direction {
    /// Along the front row to the owner's right (A1 → A8), then the back row to his left.
    Clockwise = 0,
    /// The other way.
    Anticlockwise = 1,
}

impl Direction {
    /// The other direction.
    #[must_use]
    pub const fn reversed(self) -> Self {
        match self {
            Self::Clockwise => Self::Anticlockwise,
            Self::Anticlockwise => Self::Clockwise,
        }
    }

    /// The ring step: +1 or -1 (as 15 mod 16).
    #[inline]
    #[must_use]
    pub const fn step(self) -> usize {
        match self {
            Self::Clockwise => 1,
            Self::Anticlockwise => RING - 1,
        }
    }

    /// Lower-case name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Clockwise => "clockwise",
            Self::Anticlockwise => "anticlockwise",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The sign of a move, as seen from the mover's seat: `<` left, `>` right.
///
/// On a sowing move it is the physical direction the first seed travels (front row `>` is
/// clockwise, back row `>` is anticlockwise). On a namua capture it names the kichwa where the
/// captured seeds enter (`<` = the mover's left kichwa, pit 1, sowing clockwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Sign {
    /// `<` (K.I.B.A. `L`).
    Left = 0,
    /// `>` (K.I.B.A. `R`).
    Right = 1,
}

impl Sign {
    /// The character: `<` or `>`.
    #[must_use]
    pub const fn as_char(self) -> char {
        match self {
            Self::Left => '<',
            Self::Right => '>',
        }
    }

    /// The other sign.
    #[must_use]
    pub const fn flipped(self) -> Self {
        match self {
            Self::Left => Self::Right,
            Self::Right => Self::Left,
        }
    }

    /// The sowing direction of the first seed when sowing from a pit of `row`.
    #[must_use]
    pub const fn sowing_direction(self, row: Row) -> Direction {
        match (row, self) {
            (Row::Front, Self::Right) | (Row::Back, Self::Left) => Direction::Clockwise,
            _ => Direction::Anticlockwise,
        }
    }

    /// The sign that sows from a pit of `row` in `dir`.
    #[must_use]
    pub const fn for_sowing(row: Row, dir: Direction) -> Self {
        match (row, dir) {
            (Row::Front, Direction::Clockwise) | (Row::Back, Direction::Anticlockwise) => {
                Self::Right
            }
            _ => Self::Left,
        }
    }

    /// The sowing direction after captured seeds enter at the kichwa this sign names.
    #[must_use]
    pub const fn kichwa_direction(self) -> Direction {
        match self {
            Self::Left => Direction::Clockwise,
            Self::Right => Direction::Anticlockwise,
        }
    }
}

/// A stage of the game, which belongs to the side to move (rules-reference A.4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Stage {
    /// The mover still has reserve seeds (Kete: nemo).
    Namua = 0,
    /// The mover's reserve is empty.
    Mtaji = 1,
}

impl Stage {
    /// Lower-case name in the Kiswahili vocabulary.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Namua => "namua",
            Self::Mtaji => "mtaji",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a move does, as its suffix says: capture (no suffix), capture going on safari (`+`),
/// or takasa (`*`).
///
/// These are the only shapes a move has (`spec/rules.md`): the `+` of a safari is an
/// instruction for a namua capture at its stop in the functional nyumba, so a takasa, which
/// captures nothing, never carries it. A [`Move`] holds one of these three, so no value of
/// it is a takasa on safari.
///
/// The order (`Capture < Safari < Takasa`) is that of the suffixes: a plain move before the
/// same move with `+`, captures before takasa moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveKind {
    /// A capturing move, no suffix (in mtaji, every capture; in namua, one that stops in
    /// the functional nyumba, or never reaches it).
    Capture,
    /// `+`: a namua capture that, at a stop in the functional nyumba, goes on (safari).
    Safari,
    /// `*`: a takasa (Kete: takata), a move that captures nothing.
    Takasa,
}

impl MoveKind {
    /// The three kinds, in order.
    pub const ALL: [Self; 3] = [Self::Capture, Self::Safari, Self::Takasa];

    /// The kind written with these suffixes: `*` gives [`MoveKind::Takasa`], `+`
    /// [`MoveKind::Safari`], neither [`MoveKind::Capture`]; `None` for both at once, which
    /// no move is.
    #[inline]
    #[must_use]
    pub const fn from_suffixes(takasa: bool, safari: bool) -> Option<Self> {
        match (takasa, safari) {
            (false, false) => Some(Self::Capture),
            (false, true) => Some(Self::Safari),
            (true, false) => Some(Self::Takasa),
            (true, true) => None,
        }
    }

    /// The suffix written after the sign: `""`, `"+"` or `"*"`.
    #[inline]
    #[must_use]
    pub const fn suffix(self) -> &'static str {
        match self {
            Self::Capture => "",
            Self::Safari => "+",
            Self::Takasa => "*",
        }
    }
}

/// A complete move in canonical form: start pit, sign, and what the move does
/// ([`MoveKind`]: capture, capture on safari, or takasa).
///
/// Every value is a move shape the rules know; whether it is legal depends on the position.
/// `Display` writes the canonical notation (`A6<*`, `a5>+`); `FromStr` reads it and also the
/// K.I.B.A. letters `L`/`R`. A sign left out needs the position: see [`MoveSpec`].
///
/// ```
/// use bao_core::{Move, MoveKind, Pit, Sign};
///
/// let a6: Pit = "A6".parse().unwrap();
/// let mv = Move::takasa(a6, Sign::Left);
/// assert_eq!(mv.to_string(), "A6<*");
/// assert_eq!("A6<*".parse::<Move>().unwrap(), mv);
/// assert!(mv.is_takasa() && !mv.is_safari());
/// assert_eq!(mv.kind(), MoveKind::Takasa);
/// // A takasa never goes on safari: `*+` is no move.
/// assert!("A6<*+".parse::<Move>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    /// The pit the move starts from (in namua: where the reserve seed is placed).
    pub pit: Pit,
    /// `<` or `>`.
    pub sign: Sign,
    /// Capture, safari (`+`) or takasa (`*`).
    pub kind: MoveKind,
}

impl Move {
    /// The move of this pit, sign and kind.
    #[inline]
    #[must_use]
    pub const fn new(pit: Pit, sign: Sign, kind: MoveKind) -> Self {
        Self { pit, sign, kind }
    }

    /// A capture without safari (no suffix): `A6<`.
    #[inline]
    #[must_use]
    pub const fn capture(pit: Pit, sign: Sign) -> Self {
        Self::new(pit, sign, MoveKind::Capture)
    }

    /// A namua capture going on safari (`+`): `A5>+`.
    #[inline]
    #[must_use]
    pub const fn safari(pit: Pit, sign: Sign) -> Self {
        Self::new(pit, sign, MoveKind::Safari)
    }

    /// A takasa (`*`): `A6<*`.
    #[inline]
    #[must_use]
    pub const fn takasa(pit: Pit, sign: Sign) -> Self {
        Self::new(pit, sign, MoveKind::Takasa)
    }

    /// The same pit and sign with another kind.
    #[inline]
    #[must_use]
    pub const fn with_kind(self, kind: MoveKind) -> Self {
        Self::new(self.pit, self.sign, kind)
    }

    /// What the move does: capture, safari or takasa.
    #[inline]
    #[must_use]
    pub const fn kind(self) -> MoveKind {
        self.kind
    }

    /// `*`: the move is a takasa (captures nothing).
    #[inline]
    #[must_use]
    pub const fn is_takasa(self) -> bool {
        matches!(self.kind, MoveKind::Takasa)
    }

    /// `+`: at a stop in the functional nyumba (namua capture), the move goes on (safari).
    #[inline]
    #[must_use]
    pub const fn is_safari(self) -> bool {
        matches!(self.kind, MoveKind::Safari)
    }

    /// The move is a capture (with or without safari), that is, not a takasa.
    #[inline]
    #[must_use]
    pub const fn is_capture(self) -> bool {
        !self.is_takasa()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}",
            self.pit,
            self.sign.as_char(),
            self.kind.suffix()
        )
    }
}

/// A move as written, before it is resolved against a position: the sign and the `*` may be
/// left out where the position forces them. (The marks `**` and `#` that a record may add are
/// claims about the move, which the record notation keeps; they are not part of the move.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveSpec {
    /// The start pit.
    pub pit: Pit,
    /// The sign, if written.
    pub sign: Option<Sign>,
    /// `*` (or `**`) was written.
    pub takasa: bool,
    /// `+` was written.
    pub safari: bool,
}

impl MoveSpec {
    /// Whether a move matches the letters written (a written `*` must match; an omitted one
    /// is forced by the position and so not compared).
    #[must_use]
    pub fn matches(&self, mv: &Move) -> bool {
        mv.pit == self.pit
            && self.sign.is_none_or(|s| s == mv.sign)
            && (!self.takasa || mv.is_takasa())
            && mv.is_safari() == self.safari
    }

    /// Whether a legal move is one the letters written may stand for when what was left
    /// out is still to be decided (a recorder completing a move): the sign when none was
    /// written, a `*` the position forces; and, when no sign was written either, stop or
    /// safari at the house. A sign written names the whole move, as [`MoveSpec::matches`]
    /// reads it: `A6<` is the stop and `A6<+` the safari.
    ///
    /// ```
    /// use bao_core::{Move, MoveSpec};
    ///
    /// let stop: Move = "A2<".parse().unwrap();
    /// let safari: Move = "A2<+".parse().unwrap();
    /// let signed: MoveSpec = "A2<".parse().unwrap();
    /// assert!(signed.may_stand_for(&stop) && !signed.may_stand_for(&safari));
    /// let bare: MoveSpec = "A2".parse().unwrap();
    /// assert!(bare.may_stand_for(&stop) && bare.may_stand_for(&safari));
    /// ```
    #[must_use]
    pub fn may_stand_for(&self, mv: &Move) -> bool {
        mv.pit == self.pit
            && self.sign.is_none_or(|s| s == mv.sign)
            && (!self.takasa || mv.is_takasa())
            && (if self.safari || self.sign.is_some() {
                mv.is_safari() == self.safari
            } else {
                true
            })
    }
}

impl From<Move> for MoveSpec {
    fn from(mv: Move) -> Self {
        Self {
            pit: mv.pit,
            sign: Some(mv.sign),
            takasa: mv.is_takasa(),
            safari: mv.is_safari(),
        }
    }
}

impl MoveSpec {
    /// Writes what follows the pit: the sign (if any), `*`, `+`.
    ///
    /// # Errors
    /// Those of the formatter.
    pub fn write_suffixes(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = self.sign {
            write!(f, "{}", s.as_char())?;
        }
        if self.takasa {
            f.write_str("*")?;
        }
        if self.safari {
            f.write_str("+")?;
        }
        Ok(())
    }
}

impl fmt::Display for MoveSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pit)?;
        self.write_suffixes(f)
    }
}

impl FromStr for Move {
    type Err = ParsePitError;
    /// Reads a complete move; the sign is required (`L`/`R` accepted); `**` and `#` are
    /// accepted and dropped (they are claims, not part of the move).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let spec: MoveSpec = s.parse()?;
        let sign = spec.sign.ok_or_else(|| {
            ParsePitError::new(
                s,
                "the sign (< or >) is missing; a sign left out must be resolved against a position",
            )
        })?;
        let kind = MoveKind::from_suffixes(spec.takasa, spec.safari).ok_or_else(|| {
            ParsePitError::new(
                s,
                "a takasa (*) captures nothing, so it cannot go on safari (+)",
            )
        })?;
        Ok(Self::new(spec.pit, sign, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pits_round_trip_and_ring() {
        for pit in Pit::all() {
            assert_eq!(pit.to_string().parse::<Pit>().unwrap(), pit);
            assert_eq!(Pit::from_ring(pit.side(), pit.ring()), pit);
        }
        assert_eq!(Pit::all().count(), 32);
        let a1: Pit = "A1".parse().unwrap();
        assert_eq!(a1.facing().unwrap().to_string(), "a8");
        assert_eq!("B8".parse::<Pit>().unwrap().ring(), 8);
        assert_eq!("B1".parse::<Pit>().unwrap().ring(), 15);
        assert!("C1".parse::<Pit>().is_err());
        assert!("A9".parse::<Pit>().is_err());
        assert!("A".parse::<Pit>().is_err());
    }

    #[test]
    fn moves_round_trip() {
        for text in ["A6<*", "a5>+", "B2<", "b8>*"] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
        }
        assert_eq!("A6L*".parse::<Move>().unwrap().to_string(), "A6<*");
        assert_eq!("A3R**".parse::<Move>().unwrap().to_string(), "A3>*");
        assert!("A6".parse::<Move>().is_err());
        assert!("A6<*+".parse::<Move>().is_err());
        assert!("A6<x".parse::<Move>().is_err());
        assert!("é".parse::<Move>().is_err());
        let spec: MoveSpec = "a8".parse().unwrap();
        assert_eq!(spec.sign, None);
        // `#` is a claim the record notation keeps, not part of the move.
        assert_eq!("A4>#".parse::<MoveSpec>().unwrap().to_string(), "A4>");
    }

    #[test]
    fn signs_and_directions() {
        assert_eq!(
            Sign::Right.sowing_direction(Row::Front),
            Direction::Clockwise
        );
        assert_eq!(Sign::Left.sowing_direction(Row::Back), Direction::Clockwise);
        for row in [Row::Front, Row::Back] {
            for dir in [Direction::Clockwise, Direction::Anticlockwise] {
                assert_eq!(Sign::for_sowing(row, dir).sowing_direction(row), dir);
            }
        }
    }
}
