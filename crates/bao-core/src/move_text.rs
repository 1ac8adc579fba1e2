//! The one reader of a written move token: a pit, a sign, `*`, `+` and the marks after them.
//!
//! [`MoveText::read_prefix`] reads a token from the start of a byte slice and says how many
//! bytes it took, the way a tokenizer needs it; [`MoveSpec`]'s and [`Move`]'s `FromStr`, the
//! record grammar and the JSON import all read moves with it. The marks `**` (the move creates
//! a takasia) and `#` (it wins) are read here because they are part of the token's letters,
//! but they mean nothing to the engine: a [`MoveSpec`] does not carry them, the record
//! notation does.
//!
//! [`Move`]: crate::Move

use std::str::FromStr;

use crate::types::{MoveSpec, ParsePitError, Pit, Row, Side, Sign};

/// The forms a reader accepts beyond the canonical `A6<*`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveSyntax {
    /// A pit may be written as its number alone (`5<`): the row is left to the position.
    pub number_only_pits: bool,
    /// The K.I.B.A. letters may be written in lower case (`l`, `r`) as well as `L`, `R`.
    pub lower_case_letters: bool,
}

impl MoveSyntax {
    /// A move on its own (`FromStr`): a full pit; `<`, `>`, `L`, `R`.
    pub const STRICT: Self = Self {
        number_only_pits: false,
        lower_case_letters: false,
    };
    /// A move in a record (`spec/notation.md`): also number-only pits and `l`, `r`.
    pub const RECORD: Self = Self {
        number_only_pits: true,
        lower_case_letters: true,
    };
}

/// The pit of a move token as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WrittenPit {
    /// A full pit name (`A6`).
    Pit(Pit),
    /// Only the pit's number, 1 to 8 (where [`MoveSyntax::number_only_pits`] allows it).
    Number(u8),
}

/// A move token's letters, as [`MoveText::read_prefix`] reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// The start pit.
    pub pit: WrittenPit,
    /// The sign, if written (`L`/`R` read as `<`/`>`).
    pub sign: Option<Sign>,
    /// `*` or `**`: the move is a takasa.
    pub takasa: bool,
    /// `**` rather than `*`: the mark that the move creates a takasia.
    pub takasia_mark: bool,
    /// `+`: safari.
    pub safari: bool,
    /// `#`: the mark that the move wins.
    pub win_mark: bool,
}

/// Why a move token cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MoveTextError {
    /// The text ends before a pit.
    Short,
    /// The first byte is no row letter (`A`, `B`, `a`, `b`), nor a pit number where
    /// [`MoveSyntax::number_only_pits`] allows one.
    RowLetter,
    /// The row letter is not followed by one pit number 1 to 8 (`A9`, `A0`, `A44`).
    PitNumber,
    /// Both `*` and `+`: a takasa captures nothing, so it cannot go on safari. `end` is where
    /// the token's letters end.
    TakasaSafari {
        /// The length of the token read.
        end: usize,
    },
}

/// The byte that stands for "past the end" when reading (no letter of a move token is 0).
const END: u8 = 0;

/// The bytes that may follow `*` or the sign in a token: `*`, `+`, `#` (a table: one load).
static MARKS: [bool; 256] = {
    let mut t = [false; 256];
    t[b'*' as usize] = true;
    t[b'+' as usize] = true;
    t[b'#' as usize] = true;
    t
};

/// No byte ends a word: [`MoveText::read_window`] looks for the marks after every token.
static NO_WORD_ENDS: [bool; 256] = [false; 256];

/// The bytes [`MoveText::read_window`] reads from: more than the longest token (`A6<**#`,
/// `A6<+#`: 7 bytes).
pub const MOVE_TEXT_WINDOW: usize = 16;

impl MoveText {
    /// Reads a move token from the start of `bytes` under `syntax`: the pit, then a sign,
    /// `*` or `**`, `+` and `#`, each if present, in that order. Returns the token and the
    /// number of bytes it took; what follows is left to the caller (a delimiter, a glyph, an
    /// error).
    ///
    /// # Errors
    /// [`MoveTextError`]: no pit at the start, or `*` and `+` together.
    ///
    /// ```
    /// use bao_core::{MoveSyntax, MoveText, Sign, WrittenPit};
    ///
    /// let (text, len) = MoveText::read_prefix(b"a5R**# {comment}", MoveSyntax::STRICT).unwrap();
    /// assert_eq!(len, 6);
    /// assert_eq!(text.sign, Some(Sign::Right));
    /// assert!(text.takasa && text.takasia_mark && text.win_mark);
    /// let (text, len) = MoveText::read_prefix(b"5<", MoveSyntax::RECORD).unwrap();
    /// assert_eq!((text.pit, len), (WrittenPit::Number(5), 2));
    /// ```
    #[inline]
    pub fn read_prefix(bytes: &[u8], syntax: MoveSyntax) -> Result<(Self, usize), MoveTextError> {
        match bytes.first_chunk::<MOVE_TEXT_WINDOW>() {
            Some(w) => Self::read_window(w, syntax),
            None => {
                if bytes.is_empty() {
                    return Err(MoveTextError::Short);
                }
                if bytes.len() < 2 && matches!(bytes[0], b'A' | b'B' | b'a' | b'b') {
                    return Err(MoveTextError::Short);
                }
                let mut w = [END; MOVE_TEXT_WINDOW];
                w[..bytes.len()].copy_from_slice(bytes);
                Self::read_window(&w, syntax)
            }
        }
    }

    /// [`MoveText::read_prefix`] on a window of 16 bytes (a token is at most 7 bytes long):
    /// the text's next bytes, or, near its end, the rest of it followed by bytes that are no
    /// letter of a move token. Read without bounds checks, for tokenizers that hold such a
    /// window.
    ///
    /// # Errors
    /// As [`MoveText::read_prefix`] (a window too short to hold a pit reads as
    /// [`MoveTextError::PitNumber`] or [`MoveTextError::RowLetter`]).
    #[inline(always)]
    pub fn read_window(
        w: &[u8; MOVE_TEXT_WINDOW],
        syntax: MoveSyntax,
    ) -> Result<(Self, usize), MoveTextError> {
        Self::read_window_until(w, syntax, &NO_WORD_ENDS)
    }

    /// [`MoveText::read_window`] for a tokenizer that knows which bytes end a word (`ends`,
    /// which must hold none of `*`, `+`, `#`): where the sign or `*` is followed by one of
    /// them, the token ends there without looking for the rarer marks.
    ///
    /// # Errors
    /// As [`MoveText::read_window`].
    #[inline(always)]
    pub fn read_window_until(
        w: &[u8; MOVE_TEXT_WINDOW],
        syntax: MoveSyntax,
        ends: &[bool; 256],
    ) -> Result<(Self, usize), MoveTextError> {
        let at = |i: usize| w[i % MOVE_TEXT_WINDOW];
        let (pit, mut i) = match at(0) {
            c @ (b'A' | b'B' | b'a' | b'b') => {
                let n = at(1);
                if !(b'1'..=b'8').contains(&n) {
                    return Err(MoveTextError::PitNumber);
                }
                let side = if c & 0x20 == 0 {
                    Side::South
                } else {
                    Side::North
                };
                let row = if c & 1 == 1 { Row::Front } else { Row::Back };
                let pit = Pit::new(side, row, n - b'0').unwrap_or(Pit::nyumba(side));
                (WrittenPit::Pit(pit), 2)
            }
            n @ b'1'..=b'8' if syntax.number_only_pits => (WrittenPit::Number(n - b'0'), 1),
            _ => return Err(MoveTextError::RowLetter),
        };
        let sign = match at(i) {
            b'<' | b'L' => Some(Sign::Left),
            b'>' | b'R' => Some(Sign::Right),
            b'l' if syntax.lower_case_letters => Some(Sign::Left),
            b'r' if syntax.lower_case_letters => Some(Sign::Right),
            _ => None,
        };
        i += usize::from(sign.is_some());
        // The two usual endings, `A6<` and `A6<*`, told apart without a branch (which of the
        // two comes is as good as random); the rarer suffixes after them.
        let star = at(i) == b'*';
        i += usize::from(star);
        let text = Self {
            pit,
            sign,
            takasa: star,
            takasia_mark: false,
            safari: false,
            win_mark: false,
        };
        let next = usize::from(at(i));
        if ends[next] || !MARKS[next] {
            // A full pit followed by a digit (`A44`) is no pit: its number has two digits.
            if i == 2 && matches!(text.pit, WrittenPit::Pit(_)) && at(2).is_ascii_digit() {
                return Err(MoveTextError::PitNumber);
            }
            return Ok((text, i));
        }
        Self::read_marks(w, text, i)
    }

    /// The rarer suffixes from `i`: a second `*`, `+`, `#`. (Inlined: a call here would make
    /// the caller keep the token in memory on the common path too.)
    #[inline(always)]
    fn read_marks(
        w: &[u8; MOVE_TEXT_WINDOW],
        mut text: Self,
        mut i: usize,
    ) -> Result<(Self, usize), MoveTextError> {
        let at = |i: usize| w[i % MOVE_TEXT_WINDOW];
        let second_star = text.takasa && at(i) == b'*';
        i += usize::from(second_star);
        text.takasia_mark = second_star;
        text.safari = at(i) == b'+';
        i += usize::from(text.safari);
        text.win_mark = at(i) == b'#';
        i += usize::from(text.win_mark);
        if text.safari && text.takasa {
            return Err(MoveTextError::TakasaSafari { end: i });
        }
        Ok((text, i))
    }

    /// The move spec, when the token names a full pit (the marks are not part of it).
    #[must_use]
    pub const fn spec(&self) -> Option<MoveSpec> {
        match self.pit {
            WrittenPit::Pit(pit) => Some(self.spec_at(pit)),
            WrittenPit::Number(_) => None,
        }
    }

    /// The move spec with the start pit supplied (for a number-only pit).
    #[must_use]
    pub const fn spec_at(&self, pit: Pit) -> MoveSpec {
        MoveSpec {
            pit,
            sign: self.sign,
            takasa: self.takasa,
            safari: self.safari,
        }
    }
}

// Here, beside the reader it uses, so that `types` stays below `move_text`.
impl FromStr for MoveSpec {
    type Err = ParsePitError;
    /// Reads `A6<*`, `A6L*`, `a8`, `a5>+` with [`MoveText::read_prefix`]; the marks `**` and
    /// `#` (`A3>**`, `B2<#`) are read and dropped.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const ORDER: &str =
            "after the pit come a sign (< > L R) and the suffixes *, **, +, # in that order";
        if s.len() < 2 || !s.is_char_boundary(2) {
            return Err(ParsePitError::new(s, "a move starts with a pit such as A6"));
        }
        match MoveText::read_prefix(s.as_bytes(), MoveSyntax::STRICT) {
            Ok((text, len)) if len == s.len() => text
                .spec()
                .ok_or_else(|| ParsePitError::new(s, "a move starts with a pit such as A6")),
            Ok(_) => Err(ParsePitError::new(s, ORDER)),
            Err(MoveTextError::TakasaSafari { end }) if end == s.len() => Err(ParsePitError::new(
                s,
                "a takasa (*) captures nothing, so it cannot go on safari (+)",
            )),
            Err(MoveTextError::TakasaSafari { .. }) => Err(ParsePitError::new(s, ORDER)),
            Err(MoveTextError::RowLetter) => {
                Err(ParsePitError::new(s, "the row letter must be A, B, a or b"))
            }
            Err(MoveTextError::PitNumber) => {
                Err(ParsePitError::new(s, "the pit number must be 1 to 8"))
            }
            Err(MoveTextError::Short) => {
                Err(ParsePitError::new(s, "a move starts with a pit such as A6"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str, syntax: MoveSyntax) -> Result<(MoveText, usize), MoveTextError> {
        MoveText::read_prefix(s.as_bytes(), syntax)
    }

    #[test]
    fn reads_a_prefix_and_its_length() {
        let (t, n) = read("A6<*", MoveSyntax::STRICT).unwrap();
        assert_eq!(n, 4);
        assert_eq!(t.spec().unwrap().to_string(), "A6<*");
        let (t, n) = read("b8+#!!", MoveSyntax::STRICT).unwrap();
        assert_eq!(n, 4);
        assert!(t.safari && t.win_mark && t.sign.is_none());
        let (t, n) = read("A1***", MoveSyntax::STRICT).unwrap();
        assert_eq!(n, 4);
        assert!(t.takasia_mark);
        assert_eq!(read("A6l", MoveSyntax::STRICT).unwrap().1, 2);
        assert_eq!(read("A6l", MoveSyntax::RECORD).unwrap().1, 3);
    }

    #[test]
    fn word_ends_stop_the_token_early_and_change_nothing_else() {
        let mut ends = [false; 256];
        ends[usize::from(b' ')] = true;
        for s in ["A6<* x", "A6< ", "a5>*+", "b2**#", "A6<+# ", "A6<*) "] {
            let mut w = [0; MOVE_TEXT_WINDOW];
            w[..s.len()].copy_from_slice(s.as_bytes());
            assert_eq!(
                MoveText::read_window_until(&w, MoveSyntax::RECORD, &ends),
                MoveText::read_window(&w, MoveSyntax::RECORD),
                "{s}"
            );
        }
    }

    #[test]
    fn errors() {
        assert_eq!(read("", MoveSyntax::RECORD), Err(MoveTextError::Short));
        assert_eq!(read("A", MoveSyntax::RECORD), Err(MoveTextError::Short));
        assert_eq!(
            read("A9", MoveSyntax::RECORD),
            Err(MoveTextError::PitNumber)
        );
        assert_eq!(
            read("A44", MoveSyntax::RECORD),
            Err(MoveTextError::PitNumber)
        );
        assert_eq!(
            read("A10<", MoveSyntax::STRICT),
            Err(MoveTextError::PitNumber)
        );
        assert_eq!(read("A4<4", MoveSyntax::RECORD).unwrap().1, 3);
        assert_eq!(
            read("C1", MoveSyntax::RECORD),
            Err(MoveTextError::RowLetter)
        );
        assert_eq!(
            read("5<", MoveSyntax::STRICT),
            Err(MoveTextError::RowLetter)
        );
        assert_eq!(
            read("9<", MoveSyntax::RECORD),
            Err(MoveTextError::RowLetter)
        );
        assert_eq!(
            read("A6<*+x", MoveSyntax::STRICT),
            Err(MoveTextError::TakasaSafari { end: 5 })
        );
        assert_eq!(
            read("A6**+#", MoveSyntax::STRICT),
            Err(MoveTextError::TakasaSafari { end: 6 })
        );
    }
}
