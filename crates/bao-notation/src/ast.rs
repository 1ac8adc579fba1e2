//! The record model: games, tags, movetext elements. Every element carries its span.

use std::fmt;

use bao_core::{MoveSpec, MoveText, NeverEnding, Pit, Row, Side, Sign, WrittenPit};

use crate::span::{Span, Spanned};

/// A whole file: any number of games.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Record {
    /// The games, in file order.
    pub games: Vec<Spanned<Game>>,
}

/// One game: comments before the tags, tag pairs, movetext and a result.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Game {
    /// Comments written before or between the tag pairs.
    pub comments: Vec<Spanned<Comment>>,
    /// Tag pairs in file order (the writer sorts them).
    pub tags: Vec<Spanned<Tag>>,
    /// Moves, comments and variations.
    pub movetext: Vec<Spanned<Element>>,
    /// The result token that ends the movetext; `None` when it is missing (a syntax error).
    pub result: Option<Spanned<GameResult>>,
}

impl Game {
    /// The value of the first tag called `name` (tag names are case-sensitive after parsing,
    /// which gives the known tags their canonical spelling).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&Spanned<String>> {
        self.tags
            .iter()
            .find(|t| t.value.name.value == name)
            .map(|t| &t.value.value)
    }

    /// Every tag as its name and value, in the record's order.
    pub fn tag_pairs(&self) -> impl Iterator<Item = (String, String)> + '_ {
        self.tags
            .iter()
            .map(|t| (t.value.name.value.clone(), t.value.value.value.clone()))
    }

    /// Calls `f` with every move item of the movetext in text order, each variation's after
    /// the move it follows (the order of a document's moves, for a writer that changes the
    /// parsed game itself).
    pub fn for_each_move_mut(&mut self, mut f: impl FnMut(&mut MoveItem)) {
        fn walk(elems: &mut [Spanned<Element>], f: &mut dyn FnMut(&mut MoveItem)) {
            for e in elems {
                match &mut e.value {
                    Element::Move(m) => f(m),
                    Element::Variation(v) => walk(v, f),
                    Element::Comment(_) => {}
                }
            }
        }
        walk(&mut self.movetext, &mut f);
    }

    /// Calls `f` with every move item of the movetext in text order and the ply it is
    /// written for, counted as written (no replay, so it reaches past an illegal move): the
    /// main line's from 1; a variation's first move is the ply of the move before it (the
    /// one it replaces), its count going on from there. A variation before any move is
    /// skipped.
    pub fn for_each_move_with_ply(&self, mut f: impl FnMut(usize, &MoveItem)) {
        fn walk(elems: &[Spanned<Element>], before: usize, f: &mut dyn FnMut(usize, &MoveItem)) {
            let mut ply = before;
            let mut last = None;
            for e in elems {
                match &e.value {
                    Element::Move(m) => {
                        ply += 1;
                        last = Some(ply);
                        f(ply, m);
                    }
                    Element::Variation(v) => {
                        if let Some(at) = last {
                            walk(v, at - 1, f);
                        }
                    }
                    Element::Comment(_) => {}
                }
            }
        }
        walk(&self.movetext, 0, &mut f);
    }

    /// The moves of the main line, in order (variations left out).
    pub fn main_line(&self) -> impl Iterator<Item = &MoveItem> {
        self.movetext.iter().filter_map(|e| match &e.value {
            Element::Move(m) => Some(m),
            _ => None,
        })
    }
}

/// A tag pair `[Name "value"]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// The name; known tags are stored with their canonical spelling whatever the case used.
    pub name: Spanned<String>,
    /// The value with escapes removed; the span covers the quoted string.
    pub value: Spanned<String>,
}

impl Tag {
    /// A tag built in code.
    #[must_use]
    pub fn new(name: &str, value: &str) -> Self {
        Self {
            name: Spanned::bare(name.to_owned()),
            value: Spanned::bare(value.to_owned()),
        }
    }
}

/// One element of the movetext.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Element {
    /// A move with its number, NAGs and lap/capture annotation.
    Move(MoveItem),
    /// A `{...}` or `;...` comment.
    Comment(Comment),
    /// A variation `( ... )`: an alternative to the move before it.
    Variation(Vec<Spanned<Self>>),
}

/// A move as written, with what belongs to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveItem {
    /// The move number before it, if one was written (`12.` or `12...`).
    pub number: Option<Spanned<MoveNumber>>,
    /// The move token.
    pub token: Spanned<MoveToken>,
    /// NAGs after the move; `!`, `?`, `!!`, `??`, `!?`, `?!` are stored as `$1`..`$6`.
    pub nags: Vec<Spanned<Nag>>,
    /// The lap/capture annotation `[...]` after the move.
    pub annotation: Option<Spanned<Annotation>>,
}

impl MoveItem {
    /// A move with nothing attached.
    #[must_use]
    pub fn new(token: MoveToken) -> Self {
        Self {
            number: None,
            token: Spanned::bare(token),
            nags: Vec::new(),
            annotation: None,
        }
    }
}

/// A move number: `12.` (South's move) or `12...` (North's, after an interruption).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveNumber {
    /// The number, from 1.
    pub number: u32,
    /// Written with three dots.
    pub ellipsis: bool,
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            self.number,
            if self.ellipsis { "..." } else { "." }
        )
    }
}

/// The pit a move token names: a full pit, or (dialect) only its number, the row letter left
/// out as some sources do in the namua stage; the validator supplies the mover's front row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PitRef {
    /// `A6`, `b3`.
    Pit(Pit),
    /// `6`: a front pit of the side to move (namua dialect).
    Number(u8),
}

impl PitRef {
    /// The pit, once the side to move is known.
    #[must_use]
    pub fn resolve(self, mover: Side) -> Option<Pit> {
        match self {
            Self::Pit(p) => Some(p),
            Self::Number(n) => Pit::new(mover, Row::Front, n),
        }
    }

    /// The owner of the pit, when the row letter says it.
    #[must_use]
    pub fn side(self) -> Option<Side> {
        match self {
            Self::Pit(p) => Some(p.side()),
            Self::Number(_) => None,
        }
    }
}

impl fmt::Display for PitRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Pit(p) => p.fmt(f),
            Self::Number(n) => n.fmt(f),
        }
    }
}

/// A move token as written: what the text says, before any position is consulted.
///
/// The sign is stored as written (K.I.B.A. `L`/`R` become `<`/`>`); under a `Directions` tag
/// other than `mover` it still has to be converted (see [`crate::Directions`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveToken {
    /// The start pit.
    pub pit: PitRef,
    /// The sign, if written.
    pub sign: Option<Sign>,
    /// `*` or `**`: takasa.
    pub takasa: bool,
    /// `**`: the move claims to create a takasia (implies `takasa`).
    pub claims_takasia: bool,
    /// `+`: safari.
    pub safari: bool,
    /// `#`: the move claims to win.
    pub claims_win: bool,
}

impl MoveToken {
    /// The bao-core move spec, when the token names a full pit and its sign (if any) is in the
    /// canonical mover's-seat convention. A number-only pit needs [`PitRef::resolve`] first.
    #[must_use]
    pub fn spec(&self) -> Option<MoveSpec> {
        let PitRef::Pit(pit) = self.pit else {
            return None;
        };
        Some(self.spec_at(pit))
    }

    /// The bao-core move spec with the pit supplied (for number-only pits). The claims are
    /// not part of it.
    #[must_use]
    pub fn spec_at(&self, pit: Pit) -> MoveSpec {
        MoveSpec {
            pit,
            sign: self.sign,
            takasa: self.takasa || self.claims_takasia,
            safari: self.safari,
        }
    }
}

impl From<MoveText> for MoveToken {
    /// The token of the letters read: the marks `**` and `#` become its claims.
    fn from(t: MoveText) -> Self {
        Self {
            pit: match t.pit {
                WrittenPit::Pit(p) => PitRef::Pit(p),
                WrittenPit::Number(n) => PitRef::Number(n),
            },
            sign: t.sign,
            takasa: t.takasa,
            claims_takasia: t.takasia_mark,
            safari: t.safari,
            claims_win: t.win_mark,
        }
    }
}

impl From<MoveSpec> for MoveToken {
    /// The token of a move spec, with no claims.
    fn from(s: MoveSpec) -> Self {
        Self {
            pit: PitRef::Pit(s.pit),
            sign: s.sign,
            takasa: s.takasa,
            claims_takasia: false,
            safari: s.safari,
            claims_win: false,
        }
    }
}

impl From<bao_core::Move> for MoveToken {
    fn from(m: bao_core::Move) -> Self {
        MoveSpec::from(m).into()
    }
}

impl fmt::Display for MoveToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pit.fmt(f)?;
        if let Some(s) = self.sign {
            write!(f, "{}", s.as_char())?;
        }
        if self.claims_takasia {
            f.write_str("**")?;
        } else if self.takasa {
            f.write_str("*")?;
        }
        if self.safari {
            f.write_str("+")?;
        }
        if self.claims_win {
            f.write_str("#")?;
        }
        Ok(())
    }
}

/// A Numeric Annotation Glyph, `$0`..`$255`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl Nag {
    /// `$1`, glyph `!`: a good move.
    pub const GOOD: Self = Self(1);
    /// `$2`, glyph `?`: a mistake.
    pub const MISTAKE: Self = Self(2);
    /// `$3`, glyph `!!`: a very good move.
    pub const BRILLIANT: Self = Self(3);
    /// `$4`, glyph `??`: a blunder.
    pub const BLUNDER: Self = Self(4);
    /// `$5`, glyph `!?`: an interesting move.
    pub const INTERESTING: Self = Self(5);
    /// `$6`, glyph `?!`: a dubious move.
    pub const DUBIOUS: Self = Self(6);

    /// The glyph of `$1`..`$6`: `!`, `?`, `!!`, `??`, `!?`, `?!`.
    #[must_use]
    pub const fn glyph(self) -> Option<&'static str> {
        Some(match self {
            Self::GOOD => "!",
            Self::MISTAKE => "?",
            Self::BRILLIANT => "!!",
            Self::BLUNDER => "??",
            Self::INTERESTING => "!?",
            Self::DUBIOUS => "?!",
            _ => return None,
        })
    }

    /// The NAG a glyph stands for.
    #[must_use]
    pub fn from_glyph(g: &str) -> Option<Self> {
        Some(match g {
            "!" => Self::GOOD,
            "?" => Self::MISTAKE,
            "!!" => Self::BRILLIANT,
            "??" => Self::BLUNDER,
            "!?" => Self::INTERESTING,
            "?!" => Self::DUBIOUS,
            _ => return None,
        })
    }

    /// Reads a NAG as a word of a record writes it: a glyph (`!`, `??`, ...) or `$` and
    /// a number from 0 to 255 in digits only (`$14`; not `$+5`, `$ 5` or `$300`).
    ///
    /// ```
    /// use bao_notation::Nag;
    ///
    /// assert_eq!(Nag::parse_word("$14"), Some(Nag(14)));
    /// assert_eq!(Nag::parse_word("??"), Some(Nag::BLUNDER));
    /// assert_eq!(Nag::parse_word("$+5"), None);
    /// assert_eq!(Nag::parse_word("$300"), None);
    /// ```
    #[must_use]
    pub fn parse_word(word: &str) -> Option<Self> {
        match word.strip_prefix('$') {
            Some(digits) => Self::from_digits(digits),
            None => Self::from_glyph(word),
        }
    }

    /// The NAG of the digits after a `$` (`14` is `$14`): `None` unless they are digits
    /// of a number up to 255.
    pub(crate) fn from_digits(digits: &str) -> Option<Self> {
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        digits.parse::<u8>().ok().map(Self)
    }
}

impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// How a comment was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `{...}`, possibly over several lines.
    Brace,
    /// `;...` to the end of the line.
    Line,
}

/// A comment; `text` is everything between the delimiters, verbatim except that CRLF line
/// ends become LF. A brace comment cannot contain `}`; a line comment cannot contain a line end.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Comment {
    /// Brace or line comment.
    pub kind: CommentKind,
    /// The text.
    pub text: String,
}

impl Comment {
    /// A brace comment.
    #[must_use]
    pub fn brace(text: &str) -> Self {
        Self {
            kind: CommentKind::Brace,
            text: text.to_owned(),
        }
    }
}

impl fmt::Display for Comment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            CommentKind::Brace => write!(f, "{{{}}}", self.text),
            CommentKind::Line => write!(f, ";{}", self.text),
        }
    }
}

/// A lap/capture annotation `[xa5:3 A6 xa4:2 A3 B6]`, or of a never-ending move
/// `[A4:2 cycle:1+228]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Annotation {
    /// Captures and lap ends, in the order of the move.
    pub items: Vec<Spanned<AnnotationItem>>,
    /// `cycle:L+P`, written last: the move never ends, the state at the end of lap `L`
    /// recurring every `P` laps (`spec/notation.md` §3). It belongs to the lap channel.
    pub cycle: Option<Spanned<NeverEnding>>,
}

impl Annotation {
    /// The capture items.
    pub fn captures(&self) -> impl Iterator<Item = &AnnotationItem> {
        self.items
            .iter()
            .map(|i| &i.value)
            .filter(|i| i.kind == ItemKind::Capture)
    }

    /// The lap-end items.
    pub fn lap_ends(&self) -> impl Iterator<Item = &AnnotationItem> {
        self.items
            .iter()
            .map(|i| &i.value)
            .filter(|i| i.kind == ItemKind::LapEnd)
    }
}

impl fmt::Display for Annotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, item) in self.items.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            item.value.fmt(f)?;
        }
        if let Some(c) = &self.cycle {
            if !self.items.is_empty() {
                f.write_str(" ")?;
            }
            CycleItem(c.value).fmt(f)?;
        }
        f.write_str("]")
    }
}

/// The cycle item of a never-ending move as written in an annotation: `cycle:1+228` (the
/// state at the end of lap 1 recurs at the end of lap 1+228).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CycleItem(pub NeverEnding);

impl fmt::Display for CycleItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cycle:{}+{}", self.0.cycle_start_lap, self.0.period)
    }
}

/// Which channel an annotation item belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// `xa5`: the seeds of this opponent pit were captured.
    Capture,
    /// `A6`: a lap ended in this pit.
    LapEnd,
}

/// One item of an annotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AnnotationItem {
    /// Capture or lap end.
    pub kind: ItemKind,
    /// The pit.
    pub pit: Pit,
    /// `:n`: seeds captured, or seeds in the pit when the lap ended there (last seed included).
    pub seeds: Option<u8>,
}

impl fmt::Display for AnnotationItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == ItemKind::Capture {
            f.write_str("x")?;
        }
        self.pit.fmt(f)?;
        if let Some(n) = self.seeds {
            write!(f, ":{n}")?;
        }
        Ok(())
    }
}

/// The result token at the end of the movetext.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    SouthWins,
    /// `0-1`.
    NorthWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown or unfinished.
    Unknown,
}

impl GameResult {
    /// The token.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::SouthWins => "1-0",
            Self::NorthWins => "0-1",
            Self::Draw => "1/2-1/2",
            Self::Unknown => "*",
        }
    }

    /// Reads a token.
    #[must_use]
    pub fn from_token(s: &str) -> Option<Self> {
        Some(match s {
            "1-0" => Self::SouthWins,
            "0-1" => Self::NorthWins,
            "1/2-1/2" => Self::Draw,
            "*" => Self::Unknown,
            _ => return None,
        })
    }

    /// The winner, if the result names one.
    #[must_use]
    pub const fn winner(self) -> Option<Side> {
        match self {
            Self::SouthWins => Some(Side::South),
            Self::NorthWins => Some(Side::North),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Helper for spans of built records.
pub(crate) fn sp<T>(value: T, start: usize, end: usize) -> Spanned<T> {
    Spanned::new(value, Span::new(start, end))
}
