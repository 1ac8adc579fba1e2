//! Small token parsers (nom): pits, move tokens, move numbers, NAGs, results, annotation
//! items. Each takes one word (the text between delimiters) and returns a value or the
//! class of its defect; the grammar turns defects into diagnostics with spans.

use bao_core::{MoveSyntax, MoveText, MoveTextError, NeverEnding, Pit, Row, Side};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{char, digit1, one_of, satisfy};
use nom::combinator::{opt, recognize};
use nom::sequence::pair;
use nom::{IResult, Parser};

use crate::ast::{AnnotationItem, ItemKind, MoveToken, Nag};
use crate::error::SyntaxCode;
use crate::span::{Span, Spanned};
use crate::steps::step;

/// The bytes that end a word, as a table (one load instead of a chain of compares).
static DELIM: [bool; 256] = {
    let mut t = [false; 256];
    let ds = b" \t\n\r\x0b\x0c{}()[];\"$";
    let mut i = 0;
    while i < ds.len() {
        t[ds[i] as usize] = true;
        i += 1;
    }
    t
};

/// Whether `b` ends a word.
#[inline]
pub(crate) fn is_delim(b: u8) -> bool {
    DELIM[b as usize]
}

/// The whitespace bytes, as a table.
static WS: [bool; 256] = {
    let mut t = [false; 256];
    let ws = b" \t\n\r\x0b\x0c";
    let mut i = 0;
    while i < ws.len() {
        t[ws[i] as usize] = true;
        i += 1;
    }
    t
};

/// Whether `b` is whitespace between tokens.
#[inline]
pub(crate) fn is_ws(b: u8) -> bool {
    WS[b as usize]
}

/// The end of the word starting at `from`.
#[inline]
pub(crate) fn word_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < bytes.len() && !is_delim(bytes[i]) {
        i += 1;
    }
    step(i - from + 1);
    i
}

/// The longest move word: a token (at most 7 bytes: `A6<**+`, `A6<*#`) and a glyph NAG (at
/// most 2: `!?`). A longer word is no move, and no two moves run together either when over
/// twice as long.
pub(crate) const MOVE_WORD_MAX: usize = 9;

/// The most bytes of a word a message quotes.
const QUOTED_MAX: usize = 40;

/// A word as a message quotes it, in backticks: whole up to [`QUOTED_MAX`] bytes; a longer
/// one cut there (at a character boundary), with `…` and its length in bytes, so that a
/// message stays short whatever the text (the diagnostic's span gives where the word starts
/// and how long it is).
pub(crate) fn quoted(word: &str) -> String {
    step(word.len().min(QUOTED_MAX) + 1);
    if word.len() <= QUOTED_MAX {
        return format!("`{word}`");
    }
    let mut end = QUOTED_MAX;
    while !word.is_char_boundary(end) {
        end -= 1;
    }
    format!("`{}…` ({} bytes)", &word[..end], word.len())
}

/// A defect found in a word: its class and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Defect {
    pub(crate) code: SyntaxCode,
    pub(crate) message: String,
    pub(crate) label: &'static str,
    pub(crate) help: Option<&'static str>,
}

impl Defect {
    fn new(code: SyntaxCode, message: String, label: &'static str) -> Self {
        Self {
            code,
            message,
            label,
            help: None,
        }
    }
    fn help(mut self, h: &'static str) -> Self {
        self.help = Some(h);
        self
    }
}

fn row_letter(c: char) -> (Side, Row) {
    match c {
        'A' => (Side::South, Row::Front),
        'B' => (Side::South, Row::Back),
        'a' => (Side::North, Row::Front),
        _ => (Side::North, Row::Back),
    }
}

/// A full pit name: `A`, `B`, `a` or `b` and a digit 1..8.
pub(crate) fn pit(input: &str) -> IResult<&str, Pit> {
    let (rest, (r, n)) = (one_of("ABab"), one_of("12345678")).parse(input)?;
    let (side, row) = row_letter(r);
    let number = n as u8 - b'0';
    // `one_of` guarantees 1..=8.
    let pit = Pit::new(side, row, number).unwrap_or(Pit::nyumba(side));
    Ok((rest, pit))
}

fn glyph(input: &str) -> IResult<&str, &str> {
    alt((
        tag("!!"),
        tag("??"),
        tag("!?"),
        tag("?!"),
        tag("!"),
        tag("?"),
    ))
    .parse(input)
}

/// The glyph NAG at the start of the two bytes `b0`, `b1` (`!`, `?`, `!!`, `??`, `!?`, `?!`)
/// and its length.
#[inline(always)]
fn glyph_at(b0: u8, b1: u8) -> Option<(Nag, usize)> {
    match (b0, b1) {
        (b'!', b'!') => Some((Nag::BRILLIANT, 2)),
        (b'?', b'?') => Some((Nag::BLUNDER, 2)),
        (b'!', b'?') => Some((Nag::INTERESTING, 2)),
        (b'?', b'!') => Some((Nag::DUBIOUS, 2)),
        (b'!', _) => Some((Nag::GOOD, 1)),
        (b'?', _) => Some((Nag::MISTAKE, 1)),
        _ => None,
    }
}

/// Whether a word should be read as a move (it starts like a pit).
pub(crate) fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    match b.first() {
        Some(b'A' | b'B' | b'a' | b'b') => true,
        Some(b'1'..=b'8') => {
            b.len() == 1
                || matches!(
                    b[1],
                    b'<' | b'>' | b'L' | b'R' | b'l' | b'r' | b'*' | b'+' | b'#' | b'!' | b'?'
                )
        }
        Some(c) if c.is_ascii_alphabetic() => b.get(1).is_some_and(u8::is_ascii_digit),
        _ => false,
    }
}

/// Reads a whole word as a move token (with [`MoveText::read_prefix`]) and an attached glyph
/// NAG.
pub(crate) fn move_word(word: &str) -> Result<(MoveToken, Option<Nag>), Defect> {
    // What it may read of the word (its digits, its message) is at most the word.
    step(word.len());
    let bytes = word.as_bytes();
    let (token, end) = match MoveText::read_prefix(bytes, MoveSyntax::RECORD) {
        Ok((text, end)) => (Some(MoveToken::from(text)), end),
        Err(MoveTextError::TakasaSafari { end }) => (None, end),
        Err(MoveTextError::PitNumber) => {
            // A row letter, then no number 1 to 8 (`A9<`, `A0`, `A44`): a typo in the
            // number, not a word that is no move.
            let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
            let pit = &word[..1 + digits];
            let message = if digits == 0 {
                format!("{}: a row letter needs a pit number after it", quoted(word))
            } else {
                {
                    // The pit as written, quoted only when cut.
                    let pit = if pit.len() <= QUOTED_MAX {
                        pit.to_owned()
                    } else {
                        quoted(pit)
                    };
                    format!("{}: there is no pit {pit}", quoted(word))
                }
            };
            return Err(
                Defect::new(SyntaxCode::UnknownPit, message, "no such pit").help(
                    "pits are numbered 1 to 8 from their owner's left: a pit is a row letter \
                 (A, B: South; a, b: North) and one digit, as in A6",
                ),
            );
        }
        Err(_) => {
            return Err(Defect::new(
                SyntaxCode::UnknownPit,
                format!("{} does not start with a pit", quoted(word)),
                "unknown pit",
            )
            .help("a pit is a row letter (A, B: South; a, b: North) and a number from 1 to 8"));
        }
    };
    let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
    let glyph = glyph_at(at(end), at(end + 1));
    let rest = &bytes[end + glyph.map_or(0, |(_, len)| len)..];
    if let Some(first) = rest.first() {
        if first.is_ascii_digit() {
            return Err(Defect::new(
                SyntaxCode::UnknownPit,
                format!("{} does not start with a pit", quoted(word)),
                "unknown pit",
            )
            .help("pits are numbered 1 to 8"));
        }
        return Err(Defect::new(
            SyntaxCode::BadMove,
            format!("cannot read the move {}", quoted(word)),
            "not a move",
        )
        .help("a move is a pit, a sign (< or >), then the suffixes *, **, +, # in that order"));
    }
    let Some(token) = token else {
        return Err(Defect::new(
            SyntaxCode::BadMove,
            format!("{} is both a takasa (*) and a safari (+)", quoted(word)),
            "contradictory suffixes",
        )
        .help("a takasa captures nothing, so it cannot go on safari"));
    };
    Ok((token, glyph.map(|(nag, _)| nag)))
}

/// What the fast paths' window holds past the end of the text: a delimiter (it ends a word
/// as the end of the text does) that is not whitespace (so that it is never taken for the
/// blank after a word).
const PAST_END: u8 = b'"';

/// The first 16 bytes of `b`, when `b` has fewer, followed by [`PAST_END`]: the fast paths'
/// window near the end of the text (elsewhere it is the text itself, read in place: a copy
/// to the stack read back byte by byte cost a store-forwarding wait on every token).
#[cold]
fn padded_window(b: &[u8]) -> [u8; 16] {
    let mut w = [PAST_END; 16];
    let n = b.len().min(16);
    w[..n].copy_from_slice(&b[..n]);
    w
}

/// A move read by the fast path: the token, its glyph NAG, the end of the token (before the
/// glyph) and the end of the word.
pub(crate) type FastMove = (MoveToken, Option<Nag>, usize, usize);

/// The hand-written fast path for the common move word at `bytes[from..]` (`bytes` ends where
/// the text to parse ends): a full pit, an optional sign, `*` or `**`, `+`, `#`, a glyph, then
/// a delimiter or the end (tests only: the parser reads it with [`fast_token`]). It returns `None` for anything else (a number-only pit, a defect,
/// a word that goes on), and the caller then reads the word with [`move_word`], which gives
/// the same token for every word accepted here.
#[cfg(test)]
pub(crate) fn fast_move(bytes: &[u8], from: usize) -> Option<FastMove> {
    match fast_token(bytes, from)?.0 {
        FastToken::Move(m) => Some(m),
        FastToken::Number(..) => None,
    }
}

/// [`fast_move`] on the window `w` of the text at `from`, whose first byte is a row letter.
#[inline(always)]
fn move_in(w: &[u8; 16], from: usize) -> Option<FastMove> {
    let (text, end) = MoveText::read_window_until(w, MoveSyntax::RECORD, &DELIM).ok()?;
    let at = |i: usize| w[i & 15];
    let token = MoveToken::from(text);
    // The usual word ends with the token; a glyph after it is rarer.
    if is_delim(at(end)) {
        return Some((token, None, from + end, from + end));
    }
    let (nag, len) = glyph_at(at(end), at(end + 1))?;
    if !is_delim(at(end + len)) {
        return None;
    }
    Some((token, Some(nag), from + end, from + end + len))
}

/// The fast path for the common move number `12.` at `bytes[from..]`: up to nine digits, not
/// zero, one dot not followed by another. Returns the number and the end of the dot; `None`
/// for anything else, which [`move_number`] then reads.
#[cfg(test)]
pub(crate) fn fast_move_number(bytes: &[u8], from: usize) -> Option<(u32, usize)> {
    match fast_token(bytes, from)?.0 {
        FastToken::Number(n, end) => Some((n, end)),
        FastToken::Move(_) => None,
    }
}

/// [`fast_move_number`] on the window `w` of the text at `from`.
#[inline(always)]
fn number_in(w: &[u8; 16], from: usize) -> Option<(u32, usize)> {
    let mut n: u32 = 0;
    let mut i = 0;
    while w[i & 15].is_ascii_digit() {
        if i == 9 {
            return None;
        }
        n = n * 10 + u32::from(w[i & 15] - b'0');
        i += 1;
    }
    if i == 0 || n == 0 || w[i & 15] != b'.' || w[(i + 1) & 15] == b'.' {
        return None;
    }
    Some((n, from + i + 1))
}

/// A token read by the fast paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FastToken {
    /// A move word, as [`fast_move`] reads it.
    Move(FastMove),
    /// A move number `12.`, as [`fast_move_number`] reads it: the number and the end of the
    /// dot.
    Number(u32, usize),
}

/// The common tokens of movetext at `bytes[from..]` (`bytes` ends where the text to parse
/// ends): a move word as [`fast_move`] reads it, or a move number as [`fast_move_number`]
/// reads it; `None` for anything else. With the token, where the reading goes on: past the
/// blank after it if there is one (the usual case), else at its end.
#[inline(always)]
pub(crate) fn fast_token(bytes: &[u8], from: usize) -> Option<(FastToken, usize)> {
    // A fixed window the fast paths read without bounds checks (they look at no more than
    // its first 11 bytes).
    let rest = bytes.get(from..)?;
    let padded;
    let w: &[u8; 16] = match rest.first_chunk::<16>() {
        Some(w) => w,
        None => {
            padded = padded_window(rest);
            &padded
        }
    };
    let (token, end) = match w[0] {
        b'0'..=b'9' => {
            let (n, e) = number_in(w, from)?;
            (FastToken::Number(n, e), e)
        }
        // The move reader turns down anything else that starts no pit.
        _ => {
            let m = move_in(w, from)?;
            (FastToken::Move(m), m.3)
        }
    };
    // A token read here is at most 10 bytes long, so the byte after it is in the window; a
    // blank there is in the text (past its end the window holds `PAST_END`).
    let next = end + usize::from(w[(end - from) & 15] == b' ');
    Some((token, next))
}

/// A move number prefix: the number, the count of dots, and the byte length consumed.
/// `None` when the word does not start with digits and a dot.
pub(crate) fn move_number(word: &str) -> Option<(Result<u32, ()>, usize, usize)> {
    let r: IResult<&str, (&str, &str)> = pair(digit1, take_while1(|c| c == '.')).parse(word);
    let (rest, (digits, dots)) = r.ok()?;
    let number = digits.parse::<u32>().ok().filter(|&n| n > 0).ok_or(());
    Some((number, dots.len(), word.len() - rest.len()))
}

/// A glyph standing alone.
pub(crate) fn glyph_word(word: &str) -> Option<Nag> {
    match glyph(word) {
        Ok(("", g)) => Nag::from_glyph(g),
        _ => None,
    }
}

fn seeds(input: &str) -> IResult<&str, &str> {
    recognize(pair(char(':'), digit1)).parse(input)
}

/// The row letters of a pit name as a table: `A` (South front) 0, `B` (South back) 8, `a`
/// (North front) 16, `b` (North back) 24, the index of the row's first item in
/// [`ITEMS`]; [`NOT_HERE`] for any other byte.
static ROW_LETTER: [u8; 256] = {
    let mut t = [NOT_HERE; 256];
    t[b'A' as usize] = 0;
    t[b'B' as usize] = 8;
    t[b'a' as usize] = 16;
    t[b'b' as usize] = 24;
    t
};

/// The pit numbers as a table: `1`..`8` give 0..7, any other byte [`NOT_HERE`].
static PIT_NUMBER: [u8; 256] = counting_from(b'1', 8);

/// The digits as a table: `0`..`9` give 0..9, any other byte [`NOT_HERE`].
static DIGIT: [u8; 256] = counting_from(b'0', 10);

/// A table giving the `count` bytes from `first` on the values 0, 1, ..., and every other
/// byte [`NOT_HERE`].
const fn counting_from(first: u8, count: usize) -> [u8; 256] {
    let mut t = [NOT_HERE; 256];
    let mut n = 0;
    while n < count {
        t[first as usize + n] = n as u8;
        n += 1;
    }
    t
}

/// What [`ROW_LETTER`], [`PIT_NUMBER`] and [`DIGIT`] give for a byte that is none of
/// theirs: its bit is in none of their other values, so that one test of the two values
/// of a pit or together tells whether both are right.
const NOT_HERE: u8 = 0x80;

/// The annotation items without seeds, by `32 * capture + ROW_LETTER[letter] + number - 1`:
/// the fast path copies one instead of building it field by field.
static ITEMS: [AnnotationItem; 64] = {
    let rows = [
        (Side::South, Row::Front),
        (Side::South, Row::Back),
        (Side::North, Row::Front),
        (Side::North, Row::Back),
    ];
    let mut t = [AnnotationItem {
        kind: ItemKind::LapEnd,
        pit: Pit::nyumba(Side::South),
        seeds: None,
    }; 64];
    let mut i = 0;
    while i < 64 {
        let (side, row) = rows[(i >> 3) & 3];
        let Some(pit) = Pit::new(side, row, (i & 7) as u8 + 1) else {
            panic!("pit numbers are 1 to 8");
        };
        let kind = if i >= 32 {
            ItemKind::Capture
        } else {
            ItemKind::LapEnd
        };
        t[i] = AnnotationItem {
            kind,
            pit,
            seeds: None,
        };
        i += 1;
    }
    t
};

/// The fast path of a whole lap/capture annotation whose `[` is at `start` in `text`: the
/// usual shape only, items as [`annotation_item`] reads them (`x` or `X`, a full
/// pit, then `:` and one or two digits of seeds, or not), each followed by one blank and the
/// next item, or by the closing `]`. The items are pushed to `items` with their spans and
/// the end of the annotation (past its `]`) is returned.
///
/// `None` for anything else (`[]`, blanks doubled or around the items, a line break, an
/// item the general reading must decide, a cycle item, a defect, the end of the text before
/// the `]`): the caller then clears `items` and reads the annotation the general
/// way, which gives the same items and spans for every annotation accepted here.
///
/// Plain byte code rather than nom combinators: three quarters of the plies carry an
/// annotation of three or four items, and this loop reads each in about 60 instructions
/// (the general reading: about 140, and 75 more an annotation in the movetext loop). Each item is read in a 16-byte window of the text, with no bounds checks
/// (near the end of the text, a copy padded with a delimiter that ends no item).
#[inline(never)]
pub(crate) fn fast_annotation(
    text: &[u8],
    start: usize,
    items: &mut Vec<Spanned<AnnotationItem>>,
) -> Option<usize> {
    let mut at = start + 1;
    loop {
        let Some(w) = text.get(at..at + 16).and_then(<[u8]>::first_chunk::<16>) else {
            return fast_annotation_tail(text, at, items);
        };
        match fast_annotation_item(w, at, items)? {
            Ok(next) => at = next,
            Err(end) => return Some(end),
        }
    }
}

/// [`fast_annotation`] from `at` on, less than 16 bytes before the end of the text (kept
/// out of its loop, so that the loop keeps its state in registers).
#[cold]
#[inline(never)]
fn fast_annotation_tail(
    text: &[u8],
    mut at: usize,
    items: &mut Vec<Spanned<AnnotationItem>>,
) -> Option<usize> {
    loop {
        let w = padded_window(text.get(at..)?);
        match fast_annotation_item(&w, at, items)? {
            Ok(next) => at = next,
            Err(end) => return Some(end),
        }
    }
}

/// One item of [`fast_annotation`] at the start of the window `w` of the text at `at`,
/// pushed to `items`: `Ok` with where the next item starts (after the one blank), `Err`
/// with the end of the annotation (after the `]`), `None` when the annotation is not of the
/// usual shape.
#[inline(always)]
fn fast_annotation_item(
    w: &[u8; 16],
    at: usize,
    items: &mut Vec<Spanned<AnnotationItem>>,
) -> Option<Result<usize, usize>> {
    let at_ = |i: usize| w[i & 15];
    // `x` or `X` (no other byte is either with the 0x20 bit set).
    let k = usize::from(at_(0) | 0x20 == b'x');
    let pit = ROW_LETTER[usize::from(at_(k))] | PIT_NUMBER[usize::from(at_(k + 1))];
    if pit & NOT_HERE != 0 {
        return None;
    }
    let mut item = ITEMS[(k << 5 | usize::from(pit)) & 63];
    let mut end = k + 2;
    if at_(end) == b':' {
        let d = DIGIT[usize::from(at_(end + 1))];
        if d & NOT_HERE != 0 {
            return None;
        }
        let e = DIGIT[usize::from(at_(end + 2))];
        if e & NOT_HERE == 0 {
            end += 3;
            item.seeds = Some(d * 10 + e);
        } else {
            end += 2;
            item.seeds = Some(d);
        }
    }
    items.push(Spanned::new(
        item,
        Span {
            start: at,
            end: at + end,
        },
    ));
    match at_(end) {
        b' ' => Some(Ok(at + end + 1)),
        b']' => Some(Err(at + end + 1)),
        _ => None,
    }
}

/// One annotation item word: `xa5`, `xa5:3`, `A6`, `A6:4` (`X` is read as `x`).
pub(crate) fn annotation_item(word: &str) -> Option<AnnotationItem> {
    let r: IResult<&str, (Option<char>, Pit, Option<&str>)> =
        (opt(satisfy(|c| c == 'x' || c == 'X')), pit, opt(seeds)).parse(word);
    let (rest, (x, pit, n)) = r.ok()?;
    if !rest.is_empty() {
        return None;
    }
    let seeds = match n {
        Some(n) => Some(n[1..].parse::<u8>().ok()?),
        None => None,
    };
    Some(AnnotationItem {
        kind: if x.is_some() {
            ItemKind::Capture
        } else {
            ItemKind::LapEnd
        },
        pit,
        seeds,
    })
}

/// The cycle item of a never-ending move's annotation: `cycle:L+P` (`cycle` in any case),
/// `L` and `P` at least 1.
pub(crate) fn cycle_item(word: &str) -> Option<NeverEnding> {
    let (head, rest) = word.split_at_checked(6)?;
    if !head.eq_ignore_ascii_case("cycle:") {
        return None;
    }
    let (start, period) = rest.split_once('+')?;
    let number = |s: &str| {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse::<u64>().ok().filter(|&n| n >= 1)
    };
    Some(NeverEnding {
        cycle_start_lap: number(start)?,
        period: number(period)?,
    })
}

/// The bytes of a tag name after its first letter: ASCII letters, digits and `_`.
static NAME_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = c.is_ascii_alphanumeric() || c == b'_';
        i += 1;
    }
    t
};

/// The length of the tag name at the start of `b`: an ASCII letter, then ASCII letters,
/// digits and `_`; 0 when `b` does not start with a letter.
#[inline]
pub(crate) fn tag_name_len(b: &[u8]) -> usize {
    if !b.first().is_some_and(u8::is_ascii_alphabetic) {
        return 0;
    }
    // The usual name is shorter than 8 bytes: its end is found in the first 8 without a
    // loop, whose exit (at a length that changes from tag to tag) the processor mispredicts.
    if let Some(head) = b.first_chunk::<8>() {
        let mut stops = 0u32;
        for (k, &c) in head.iter().enumerate() {
            stops |= u32::from(!NAME_BYTE[c as usize]) << k;
        }
        if stops != 0 {
            return stops.trailing_zeros() as usize;
        }
    }
    let mut i = 1;
    while i < b.len() && NAME_BYTE[b[i] as usize] {
        i += 1;
    }
    step(i);
    i
}

/// The bytes that end a run of plain text in a tag value: `"`, `\\`, LF, CR.
static VALUE_STOP: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t
};

/// Whether `b` ends a run of plain text in a tag value: `"`, `\\`, LF or CR.
#[inline]
pub(crate) fn is_value_stop(b: u8) -> bool {
    VALUE_STOP[usize::from(b)]
}

/// The index of the first byte of `b` at or after `from` that ends a run of plain text in a
/// tag value ([`is_value_stop`]), or the length of `b`. Eight bytes at a time while they
/// last (tag values are mostly short words), then byte by byte.
#[inline]
pub(crate) fn value_run_end(b: &[u8], from: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    /// The high bit of each byte of `x` equal to `c` (exact up to the first such byte: the
    /// bits above it may be wrong, those below are right).
    #[inline(always)]
    fn bytes_equal(x: u64, c: u8) -> u64 {
        let y = x ^ (ONES * u64::from(c));
        y.wrapping_sub(ONES) & !y & HIGH
    }
    let mut i = from;
    while let Some(chunk) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*chunk);
        let hits = bytes_equal(x, b'"')
            | bytes_equal(x, b'\\')
            | bytes_equal(x, b'\n')
            | bytes_equal(x, b'\r');
        if hits != 0 {
            // The lowest bit set marks the first stop byte (little-endian: the first byte is
            // the lowest).
            let end = i + (hits.trailing_zeros() / 8) as usize;
            step(end - from + 1);
            return end;
        }
        i += 8;
    }
    while i < b.len() && !is_value_stop(b[i]) {
        i += 1;
    }
    step(i - from + 1);
    i
}

/// The end of the run of blanks (spaces and tabs) at `from` in `b`.
#[inline(always)]
pub(crate) fn blanks_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < b.len() && matches!(b[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

/// Whether the text at `from` (a `[`) starts a tag pair: `[`, blanks, a name, blanks, `"`.
#[inline]
pub(crate) fn is_tag_start(b: &[u8], from: usize) -> bool {
    let i = blanks_end(b, from + 1);
    let len = tag_name_len(b.get(i..).unwrap_or_default());
    len > 0 && b.get(blanks_end(b, i + len)) == Some(&b'"')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{GameResult, PitRef};

    #[test]
    fn move_words() {
        let (t, nag) = move_word("A6<*!").unwrap();
        assert_eq!(t.to_string(), "A6<*");
        assert_eq!(nag, Some(Nag(1)));
        assert_eq!(move_word("a5R+").unwrap().0.to_string(), "a5>+");
        assert_eq!(move_word("A3l**").unwrap().0.to_string(), "A3<**");
        assert_eq!(move_word("6<").unwrap().0.pit, PitRef::Number(6));
        assert_eq!(move_word("a8").unwrap().0.sign, None);
        assert_eq!(move_word("A9<").unwrap_err().code, SyntaxCode::UnknownPit);
        assert_eq!(move_word("C3<").unwrap_err().code, SyntaxCode::UnknownPit);
        assert_eq!(move_word("A6<x").unwrap_err().code, SyntaxCode::BadMove);
        assert_eq!(move_word("A6<*+").unwrap_err().code, SyntaxCode::BadMove);
        assert_eq!(move_word("A6#*").unwrap_err().code, SyntaxCode::BadMove);
    }

    #[test]
    fn numbers_nags_items() {
        assert_eq!(move_number("12."), Some((Ok(12), 1, 3)));
        assert_eq!(move_number("3...A6<"), Some((Ok(3), 3, 4)));
        assert_eq!(move_number("0."), Some((Err(()), 1, 2)));
        assert_eq!(move_number("1-0"), None);
        assert_eq!(Nag::from_digits("14"), Some(Nag(14)));
        assert_eq!(Nag::from_digits("256"), None);
        assert_eq!(Nag::from_digits(""), None);
        assert_eq!(glyph_word("?!"), Some(Nag(6)));
        assert_eq!(annotation_item("xa5:3").unwrap().to_string(), "xa5:3");
        assert_eq!(annotation_item("XA6").unwrap().to_string(), "xA6");
        assert_eq!(annotation_item("B6").unwrap().kind, ItemKind::LapEnd);
        assert!(annotation_item("a9").is_none());
        assert!(annotation_item("a5:").is_none());
        assert!(annotation_item("a5:999").is_none());
        let c = cycle_item("cycle:1+228").unwrap();
        assert_eq!((c.cycle_start_lap, c.period), (1, 228));
        assert_eq!(cycle_item("Cycle:12+3").unwrap().cycle_start_lap, 12);
        for bad in [
            "cycle:",
            "cycle:1",
            "cycle:1+",
            "cycle:+2",
            "cycle:0+2",
            "cycle:1+0",
            "cycle:1+2+3",
            "cycle:-1+2",
            "cycle:1+ 2",
            "cycles:1+2",
            "cycle1+2",
            "cycle:99999999999999999999+1",
        ] {
            assert!(cycle_item(bad).is_none(), "{bad}");
        }
    }

    /// Every word over a small alphabet: the fast paths agree with the nom parsers whenever
    /// they answer, and answer for the common words.
    #[test]
    fn fast_paths_agree_with_nom() {
        let alphabet = b"Aa1589<>Lr*+#!?.x ";
        let mut words = vec![Vec::new()];
        let mut checked = 0;
        for _ in 0..5 {
            let mut next = Vec::new();
            for w in &words {
                for &c in alphabet {
                    let mut w = w.clone();
                    w.push(c);
                    next.push(w);
                }
            }
            for w in &next {
                let text = std::str::from_utf8(w).unwrap();
                let we = word_end(w, 0);
                let word = &text[..we];
                if let Some((token, nag, token_end, end)) = fast_move(w, 0) {
                    checked += 1;
                    assert_eq!(end, we, "{text:?}");
                    assert!(looks_like_move(word), "{text:?}");
                    assert_eq!(glyph_word(word), None, "{text:?}");
                    let (t, g) = move_word(word).unwrap();
                    assert_eq!((t, g), (token, nag), "{text:?}");
                    assert_eq!(
                        token_end,
                        word.trim_end_matches(['!', '?']).len(),
                        "{text:?}"
                    );
                }
                if let Some((n, end)) = fast_move_number(w, 0) {
                    assert_eq!(move_number(word), Some((Ok(n), 1, end)), "{text:?}");
                    assert_eq!(GameResult::from_token(word), None);
                }
            }
            words = next;
        }
        assert!(checked > 1000);
        // Long enough for the window to come straight from the text.
        for w in [
            "A6<*",
            "b3>**#?!",
            "A6<*!x",
            "a5",
            "a5L+!? rest of the line",
            "B2R#??",
        ] {
            let long = format!("{w} 12. A6<* a5>* B2>");
            let short = fast_move(w.as_bytes(), 0).map(|m| m.0);
            assert_eq!(fast_move(long.as_bytes(), 0).map(|m| m.0), short, "{w}");
            let at_end = format!("1. {w}");
            assert_eq!(fast_move(at_end.as_bytes(), 3).map(|m| m.0), short, "{w}");
        }
        assert!(fast_move(b"A6<*", 0).is_some());
        assert!(fast_move(b"b3>**#?! ", 0).is_some());
        assert_eq!(fast_move_number(b"12. A6<", 0), Some((12, 3)));
        assert_eq!(
            fast_move_number(b"123456789. A6<", 0),
            Some((123_456_789, 10))
        );
        assert_eq!(fast_move_number(b"1234567890. A6<", 0), None);
        assert_eq!(fast_move_number(b"1. 12.", 3), Some((12, 6)));
        assert_eq!(fast_move_number(b"1. 12", 3), None);
        assert_eq!(fast_move_number(b"12.. A6<", 0), None);
        assert_eq!(fast_move_number(b"0. A6<", 0), None);
    }

    /// The word scan eight bytes at a time stops where the byte by byte scan stops.
    #[test]
    fn value_runs_end_at_the_first_stop() {
        let pieces: [&[u8]; 8] = [
            b"a",
            b"\"",
            b"\\",
            b"\n",
            b"\r",
            "é".as_bytes(),
            b" ",
            b"\x80",
        ];
        let mut rng = bao_testkit::XorShift32::new(0x2545_f491);
        for len in 0..40 {
            for _ in 0..40 {
                let mut b = Vec::new();
                while b.len() < len {
                    // Mostly plain text, so that the stops come late as well as early.
                    let k = rng.next_u32() as usize % 24;
                    b.extend_from_slice(pieces[if k < 17 { 0 } else { k - 16 }]);
                }
                for from in 0..=b.len() {
                    let slow = (from..b.len())
                        .find(|&i| is_value_stop(b[i]))
                        .unwrap_or(b.len());
                    assert_eq!(value_run_end(&b, from), slow, "{b:?} from {from}");
                }
            }
        }
    }

    /// Where the reading goes on after a fast token: past one blank, never past the end.
    #[test]
    fn fast_tokens_take_the_blank_after_them() {
        let next = |t: &str, from| fast_token(t.as_bytes(), from).map(|(_, n)| n);
        assert_eq!(next("A6<", 0), Some(3));
        assert_eq!(next("A6< ", 0), Some(4));
        assert_eq!(next("A6<  a5>", 0), Some(4));
        assert_eq!(next("A6<\na5>", 0), Some(3));
        assert_eq!(next("12. A6<", 0), Some(4));
        assert_eq!(next("12.", 0), Some(3));
        assert_eq!(next("1. 12.", 3), Some(6));
        assert_eq!(next("A6<*!? a5>", 0), Some(7));
        assert_eq!(next(" A6<", 0), None);
        assert_eq!(next("A6<", 3), None);
        assert_eq!(next("A6<", 4), None);
        assert_eq!(
            fast_token(b"12. A6<", 0).map(|(t, _)| t),
            Some(FastToken::Number(12, 3))
        );
    }

    #[test]
    fn whitespace() {
        for b in 0..=255u8 {
            let expected = matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c');
            assert_eq!(is_ws(b), expected, "{b}");
        }
    }

    #[test]
    fn tag_names() {
        assert_eq!(tag_name_len(b"Event \"x\""), 5);
        assert_eq!(tag_name_len(b"Rule_Set2\""), 9);
        assert_eq!(tag_name_len(b"9Event"), 0);
        assert_eq!(tag_name_len(b"_x"), 0);
        assert_eq!(tag_name_len("É".as_bytes()), 0);
        assert_eq!(tag_name_len("aÉ".as_bytes()), 1);
        assert_eq!(tag_name_len(b""), 0);
        // Every word of up to 7 bytes from letters, digits, `_`, a blank, a quote and a byte
        // of a UTF-8 letter, and every word of 8 to 10 bytes from four of them (names that
        // fill the 8-byte form, or end after it), against a plain reading.
        let mut word = Vec::new();
        for (alphabet, lens) in [(&b"aZ1_ \"\xc3"[..], 0..=7u32), (&b"a_ \xc3"[..], 8..=10)] {
            for len in lens {
                for code in 0..alphabet.len().pow(len) {
                    word.clear();
                    let mut c = code;
                    for _ in 0..len {
                        word.push(alphabet[c % alphabet.len()]);
                        c /= alphabet.len();
                    }
                    let plain = if word.first().is_some_and(u8::is_ascii_alphabetic) {
                        1 + word[1..]
                            .iter()
                            .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_')
                            .count()
                    } else {
                        0
                    };
                    assert_eq!(
                        tag_name_len(&word),
                        plain,
                        "{:?}",
                        String::from_utf8_lossy(&word)
                    );
                }
            }
        }
    }

    #[test]
    fn tag_starts() {
        assert!(is_tag_start(b"[Event \"x\"]", 0));
        assert!(is_tag_start(b"[ Event\t\"x\"]", 0));
        assert!(!is_tag_start(b"[A6 xa5]", 0));
        assert!(is_tag_start(b"[Event\"x\"]", 0));
        assert!(!is_tag_start(b"[Event x]", 0));
        assert!(!is_tag_start(b"[", 0));
    }
}
