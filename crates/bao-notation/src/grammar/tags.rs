//! The tag section: tag names, tag pairs read by a fast and a general path, and their checks.

use std::borrow::Cow;

use super::parser::Parser;
use crate::ast::sp;
use crate::dialect::Directions;
use crate::error::SyntaxCode;
use crate::lexical::quoted;
use crate::lexical::{blanks_end, is_value_stop, tag_name_len, value_run_end};
use crate::position_string::PositionString;
use crate::span::{Span, Spanned};
use crate::steps::step;
use crate::visit::Visitor;

/// The tags whose spelling is fixed, in the canonical order the writer uses.
pub const KNOWN_TAGS: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Round",
    "South",
    "North",
    "Result",
    "RuleSet",
    "Position",
    "Termination",
    "Match",
    "Game",
    "Source",
    "Transcriber",
    "Directions",
];

/// Whether `name` is a tag name as the record format writes one: an ASCII letter, then
/// letters, digits and `_`.
///
/// ```
/// use bao_notation::is_tag_name;
///
/// assert!(is_tag_name("Event") && is_tag_name("White_Elo2"));
/// assert!(!is_tag_name("") && !is_tag_name("2nd") && !is_tag_name("Club night"));
/// ```
#[must_use]
pub fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && tag_name_len(name.as_bytes()) == name.len()
}

/// The index of `RuleSet` in [`KNOWN_TAGS`].
const RULESET: usize = 7;

/// The index of `Position` in [`KNOWN_TAGS`].
const POSITION: usize = 8;

/// The index of `Directions` in [`KNOWN_TAGS`].
const DIRECTIONS: usize = 14;

/// Up to this many other tag names a game's names are compared in a list; beyond, in a set.
const OTHER_TAGS_IN_A_LIST: usize = 16;

/// The index in [`KNOWN_TAGS`] of a name spelled exactly as there.
#[inline(always)]
fn known_tag_index(name: &[u8]) -> Option<usize> {
    Some(match name {
        b"Event" => 0,
        b"Site" => 1,
        b"Date" => 2,
        b"Round" => 3,
        b"South" => 4,
        b"North" => 5,
        b"Result" => 6,
        b"RuleSet" => 7,
        b"Position" => POSITION,
        b"Termination" => 9,
        b"Match" => 10,
        b"Game" => 11,
        b"Source" => 12,
        b"Transcriber" => 13,
        b"Directions" => DIRECTIONS,
        _ => return None,
    })
}

/// The canonical spelling of a tag name, with its index in [`KNOWN_TAGS`] if it is known.
#[inline(always)]
fn canonical_tag_name(name: &str) -> (&str, Option<usize>) {
    match known_tag_index(name.as_bytes()) {
        // Spelled as in the list: the name is its own canonical spelling.
        Some(i) => (name, Some(i)),
        None => other_tag_name(name),
    }
}

/// [`canonical_tag_name`] for a name not spelled as in [`KNOWN_TAGS`].
#[inline(never)]
fn other_tag_name(name: &str) -> (&str, Option<usize>) {
    let known = KNOWN_TAGS.iter().position(|k| k.eq_ignore_ascii_case(name));
    match known.and_then(|i| KNOWN_TAGS.get(i)) {
        Some(k) => (k, known),
        None => (name, None),
    }
}

impl<'s> Parser<'s> {
    /// Gives a tag pair read in the tag section to `v` (beginning the game, and giving it the
    /// comments held, first), after checking it.
    #[inline(always)]
    pub(super) fn give_tag<V: Visitor>(
        &mut self,
        v: &mut V,
        tag: &TagRead<'s>,
        section: &mut TagSection<'s>,
    ) {
        let dup = if let Some(k) = tag.known {
            let dup = section.known_seen & (1 << k) != 0;
            section.known_seen |= 1 << k;
            dup
        } else {
            self.other_tag_seen(tag.name, &mut section.seen)
        };
        self.check_tag(dup, tag);
        match tag.known {
            Some(RULESET) if section.rules.is_none() => {
                let preset = tag.value.split_whitespace().next().unwrap_or("");
                section.rules = Some(
                    bao_core::PRESET_NAMES
                        .into_iter()
                        .find(|&n| n == preset)
                        .unwrap_or("kiswahili"),
                );
            }
            Some(POSITION) if section.bad_position.is_none() => {
                if let Err(e) = tag.value.parse::<PositionString>() {
                    section.bad_position =
                        Some((tag.value_span, e.to_string(), tag.value.to_string()));
                }
            }
            _ => {}
        }
        section.last_end = tag.span.end;
        if !section.begun {
            section.begun = true;
            v.begin_game(section.start);
        }
        self.flush_game_comments(v);
        section.tags += 1;
        let value = Spanned::new(tag.value.as_ref(), tag.value_span);
        v.tag(Spanned::new(tag.canonical, tag.name), value, tag.span);
    }

    /// Whether the game already has a tag of the name at `name`, which is not a known tag;
    /// notes it. The names are compared in a list while they are few, in `seen` (built on
    /// first need) when they are many.
    #[inline(never)]
    fn other_tag_seen(
        &mut self,
        name: Span,
        seen: &mut Option<std::collections::HashSet<&'s str>>,
    ) -> bool {
        let src: &'s str = self.src;
        let text = &src[name.range()];
        let others = &mut self.scratch.other_tags;
        let dup = if others.len() < OTHER_TAGS_IN_A_LIST {
            others.iter().any(|s| &src[s.range()] == text)
        } else {
            let set = seen.get_or_insert_with(|| others.iter().map(|s| &src[s.range()]).collect());
            !set.insert(text)
        };
        others.push(name);
        dup
    }

    /// Skips the rest of a broken tag: to its `]` on the same line, else to the line end.
    fn skip_tag_rest(&mut self) {
        let b = self.bytes;
        let mut i = self.pos;
        while i < self.end && b[i] != b'\n' {
            if b[i] == b']' {
                step(i - self.pos);
                self.pos = i + 1;
                return;
            }
            i += 1;
        }
        step(i - self.pos);
        self.pos = i;
    }

    /// The fast path for the common tag pair: `[`, a name, blanks, a quoted value without
    /// escapes, blanks, `]`. It returns `None` without reading anything for any other pair
    /// (blanks after `[`, an escape, a value or pair not closed on its line, a bad name),
    /// which [`Parser::tag_general`] then reads, reporting its defects; for a pair it
    /// accepts, the general path would give the same [`TagRead`] and no diagnostic.
    #[inline(always)]
    pub(super) fn plain_tag(&mut self) -> Option<TagRead<'s>> {
        let start = self.pos;
        let b = &self.bytes[..self.end];
        let name_start = start + 1;
        let name_end = name_start + tag_name_len(b.get(name_start..)?);
        if name_end == name_start {
            return None;
        }
        // Mostly one blank before the value, and none after it.
        let vstart = match (b.get(name_end), b.get(name_end + 1)) {
            (Some(b' '), Some(b'"')) => name_end + 1,
            _ => blanks_end(b, name_end),
        };
        if b.get(vstart) != Some(&b'"') {
            return None;
        }
        let close = value_run_end(b, vstart + 1);
        if b.get(close) != Some(&b'"') {
            return None;
        }
        let vend = close + 1;
        let i = match b.get(vend) {
            Some(b']') => vend,
            _ => blanks_end(b, vend),
        };
        if b.get(i) != Some(&b']') {
            return None;
        }
        // Cut next to ASCII bytes (`[`, a blank or `"`, `"`): on character boundaries.
        let src: &'s str = self.src;
        let (canonical, known) = match known_tag_index(&b[name_start..name_end]) {
            Some(k) => (KNOWN_TAGS.get(k).copied()?, Some(k)),
            None => other_tag_name(&src[name_start..name_end]),
        };
        let value = &src[vstart + 1..close];
        self.pos = i + 1;
        Some(TagRead {
            span: Span::new(start, self.pos),
            name: Span::new(name_start, name_end),
            canonical,
            known,
            value: Cow::Borrowed(value),
            value_span: Span::new(vstart, vend),
        })
    }

    /// A tag pair, any: the general path, which reports every defect.
    #[inline(never)]
    pub(super) fn tag_general(&mut self) -> Option<TagRead<'s>> {
        let start = self.pos;
        let b = self.bytes;
        self.pos += 1;
        self.pos = blanks_end(&b[..self.end], self.pos);
        let name_start = self.pos;
        let name_len = tag_name_len(&b[self.pos..self.end]);
        if name_len == 0 {
            self.skip_tag_rest();
            self.err_help(
                SyntaxCode::BadTag,
                Span::new(start, self.pos),
                "malformed tag pair".to_owned(),
                "expected a tag name after `[`",
                "a tag pair is written [Name \"value\"]",
            );
            return None;
        }
        self.pos += name_len;
        let src: &'s str = self.src;
        let (canonical, known) = canonical_tag_name(&src[name_start..self.pos]);
        let name = sp(canonical, name_start, self.pos);
        self.pos = blanks_end(&b[..self.end], self.pos);
        if self.pos >= self.end || b[self.pos] != b'"' {
            let at = self.pos;
            self.skip_tag_rest();
            self.err_help(
                SyntaxCode::BadTag,
                Span::new(
                    at,
                    at + self.src[at..self.end]
                        .chars()
                        .next()
                        .map_or(0, char::len_utf8),
                ),
                format!("the tag `{canonical}` has no quoted value"),
                "expected `\"`",
                "a tag pair is written [Name \"value\"]",
            );
            return None;
        }
        let vstart = self.pos;
        self.pos += 1;
        let mut value = String::new();
        let mut escaped = false;
        let mut seg = self.pos;
        let closed = loop {
            // Up to the next byte that matters.
            let mut i = self.pos;
            while i < self.end && !is_value_stop(b[i]) {
                i += 1;
            }
            step(i - self.pos + 1);
            self.pos = i;
            if self.pos >= self.end || b[self.pos] == b'\n' || b[self.pos] == b'\r' {
                break false;
            }
            match b[self.pos] {
                b'"' => break true,
                b'\\' => {
                    escaped = true;
                    value.push_str(&self.src[seg..self.pos]);
                    match b.get(self.pos + 1) {
                        Some(&c @ (b'"' | b'\\')) if self.pos + 1 < self.end => {
                            value.push(c as char);
                            self.pos += 2;
                        }
                        _ => {
                            let esc_end = self.src[self.pos + 1..self.end]
                                .chars()
                                .next()
                                .filter(|c| *c != '\n' && *c != '\r')
                                .map_or(self.pos + 1, |c| self.pos + 1 + c.len_utf8());
                            self.err_help(
                                SyntaxCode::BadEscape,
                                Span::new(self.pos, esc_end),
                                "unknown escape in a tag value".to_owned(),
                                "not \\\" or \\\\",
                                "inside a tag value only \\\" and \\\\ are escapes; write a backslash as \\\\",
                            );
                            value.push('\\');
                            self.pos += 1;
                        }
                    }
                    seg = self.pos;
                }
                _ => self.pos += 1,
            }
        };
        let value: Cow<'s, str> = if escaped {
            value.push_str(&self.src[seg..self.pos]);
            Cow::Owned(value)
        } else {
            // No escape: the text itself.
            Cow::Borrowed(&src[seg..self.pos])
        };
        if !closed {
            self.err_help(
                SyntaxCode::UnterminatedString,
                Span::new(vstart, self.pos),
                format!("the value of the tag `{canonical}` is not closed"),
                "this string has no closing quote",
                "a tag value ends with `\"` on the same line",
            );
            // Take the `]` if it is the last thing on the line.
            return Some(TagRead {
                span: Span::new(start, self.pos),
                name: name.span,
                canonical,
                known,
                value,
                value_span: Span::new(vstart, self.pos),
            });
        }
        self.pos += 1;
        let value_span = Span::new(vstart, self.pos);
        self.pos = blanks_end(&b[..self.end], self.pos);
        if self.pos < self.end && b[self.pos] == b']' {
            self.pos += 1;
        } else {
            let at = self.pos;
            self.err_help(
                SyntaxCode::BadTag,
                Span::new(start, at),
                format!("the tag `{canonical}` is not closed"),
                "expected `]` after this",
                "a tag pair is written [Name \"value\"]",
            );
            self.skip_tag_rest();
        }
        Some(TagRead {
            span: Span::new(start, self.pos),
            name: name.span,
            canonical,
            known,
            value,
            value_span,
        })
    }

    /// Reports a tag given twice, too long, or whose value must be and is not a direction
    /// convention (a position string is checked once the section's `RuleSet` is known,
    /// [`Parser::bad_position`]).
    #[inline(always)]
    fn check_tag(&mut self, duplicate: bool, tag: &TagRead<'s>) {
        if duplicate
            || tag.value.len() > self.scratch.limits.max_tag_bytes
            || tag.known == Some(DIRECTIONS)
        {
            let value = Spanned::new(tag.value.as_ref(), tag.value_span);
            self.check_tag_further(duplicate, tag.name, tag.canonical, tag.known, value);
        }
    }

    /// [`Parser::check_tag`] once something may be wrong: the tag's name as written, its
    /// canonical spelling, its index in [`KNOWN_TAGS`], and its value.
    #[inline(never)]
    fn check_tag_further(
        &mut self,
        duplicate: bool,
        name_span: Span,
        name: &str,
        known: Option<usize>,
        value: Spanned<&str>,
    ) {
        if duplicate {
            self.err_help(
                SyntaxCode::DuplicateTag,
                name_span,
                format!("the tag `{name}` is given twice"),
                "second time",
                "keep one of the two tag pairs",
            );
        }
        let max = self.scratch.limits.max_tag_bytes;
        if value.value.len() > max {
            self.err_help(
                SyntaxCode::TagTooLong,
                name_span,
                format!(
                    "the value of the tag `{name}` is {} bytes long; the limit is {max}",
                    value.value.len()
                ),
                "this tag's value is too long",
                "shorten the value; a long text belongs in a comment",
            );
        }
        match known {
            Some(DIRECTIONS) if value.value.parse::<Directions>().is_err() => {
                self.err_help(
                    SyntaxCode::UnknownDirections,
                    value.span,
                    format!("unknown direction convention {}", quoted(value.value)),
                    "not mover, south or clockwise",
                    "Directions is `mover` (the default), `south` or `clockwise`",
                );
            }
            _ => {}
        }
    }
}

impl Parser<'_> {
    /// Reports a `Position` tag that is no position string (`error`), its help showing the
    /// start of the game's own rule set (`rules`, the `RuleSet` tag's preset; kiswahili when
    /// there is none or it is unknown); a `value` that is a printed diagram (32 counts,
    /// [`crate::diagram`]) is shown as the position string it makes.
    #[inline(never)]
    pub(super) fn bad_position(
        &mut self,
        span: Span,
        error: &str,
        value: &str,
        rules: Option<&str>,
    ) {
        let name = rules.unwrap_or("kiswahili");
        let preset = bao_core::RuleSet::preset(name);
        let start = preset.map_or_else(String::new, |r| {
            PositionString::from(&bao_core::Position::start(r)).to_string()
        });
        let as_diagram = preset.and_then(|r| {
            let d = crate::diagram::PrintedDiagram::read(value).ok()?;
            let p = d
                .position(r, &crate::diagram::DiagramGiven::default())
                .ok()?;
            bao_core::Position::from_setup(p.to_setup(r)).ok()?;
            Some(p)
        });
        let help = match as_diagram {
            Some(p) => format!(
                "these are the 32 counts of a printed diagram (North's back and front rows, \
                 South's front and back rows, as South sees the board); as a position string, \
                 with South to move: {p}"
            ),
            None => format!(
                "see spec/notation.md, Position strings; the start position of {name} is {start}"
            ),
        };
        self.err_help(
            SyntaxCode::BadPosition,
            span,
            format!("the Position tag is not a position string: {error}"),
            "cannot read this position",
            &help,
        );
    }
}

/// What the parser keeps while it reads a game's tag section.
pub(super) struct TagSection<'s> {
    /// Where the game starts.
    pub(super) start: usize,
    /// Whether the game has begun (its first event given).
    pub(super) begun: bool,
    /// The tag pairs read.
    pub(super) tags: usize,
    /// The known tags already given, one bit each.
    pub(super) known_seen: u32,
    /// The names of the other tags, once there are many.
    pub(super) seen: Option<std::collections::HashSet<&'s str>>,
    /// The end of the last thing read.
    pub(super) last_end: usize,
    /// The preset of the first `RuleSet` tag (kiswahili when it names none).
    pub(super) rules: Option<&'static str>,
    /// The first `Position` tag that is no position string: where its value is, why, and
    /// the value.
    pub(super) bad_position: Option<(Span, String, String)>,
}

/// A tag pair as read.
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) struct TagRead<'s> {
    /// The whole pair.
    pub(super) span: Span,
    /// The name as written.
    pub(super) name: Span,
    /// The name in its canonical spelling.
    pub(super) canonical: &'s str,
    /// Its index in [`KNOWN_TAGS`], if it is known.
    pub(super) known: Option<usize>,
    /// The value, escapes removed.
    pub(super) value: Cow<'s, str>,
    /// The quoted string.
    pub(super) value_span: Span,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Scratch;
    use crate::limits::Limits;

    #[test]
    fn known_tag_indexes_follow_the_list() {
        for (i, name) in KNOWN_TAGS.iter().enumerate() {
            assert_eq!(known_tag_index(name.as_bytes()), Some(i));
            assert_eq!(canonical_tag_name(&name.to_lowercase()), (*name, Some(i)));
        }
        assert_eq!(known_tag_index(b"event"), None);
        assert_eq!(known_tag_index(b"Annotator"), None);
        assert_eq!(canonical_tag_name("Annotator"), ("Annotator", None));
        assert!(KNOWN_TAGS.len() <= 32);
        assert_eq!(KNOWN_TAGS[RULESET], "RuleSet");
        assert_eq!(KNOWN_TAGS[POSITION], "Position");
        assert_eq!(KNOWN_TAGS[DIRECTIONS], "Directions");
    }

    /// A parser at the start of `text`.
    fn parser(text: &str) -> Parser<'_> {
        Parser::new(text, 0, text.len(), Scratch::with_limits(Limits::DEFAULT))
    }

    /// Every tag pair put together from odd and usual pieces: whenever the fast path reads
    /// one, the general path reads the same, to the same place, without a diagnostic; and the
    /// fast path reads the usual ones.
    #[test]
    fn plain_tags_read_as_the_general_path_reads_them() {
        let opens = ["[", "[ ", "[\t"];
        let names = [
            "Event",
            "event",
            "EVENT",
            "Annotator",
            "x_1",
            "Directions",
            "9x",
            "",
            "É",
        ];
        let blanks = ["", " ", "\t", "  "];
        let values = [
            "\"v\"",
            "\"\"",
            "\"Bench 12 of 1999, round 3\"",
            "\"a\\\"b\"",
            "\"a\\\\\"",
            "\"a\\qb\"",
            "\"unclosed",
            "\"a\rb\"",
            "\"é ü\"",
            "\"1234567\"",
            "\"12345678\"",
            "\"123456789\"",
            "v",
        ];
        let closes = ["]", " ]", "\t]", "", " x]", "]]", "\"]"];
        let ends = ["", "\n", "\r\n", " 1. A6<", "\n[Site \"x\"]"];
        let (mut fast, mut all) = (0, 0);
        for open in opens {
            for name in names {
                for blank in blanks {
                    for value in values {
                        for close in closes {
                            for end in ends {
                                let text = format!("{open}{name}{blank}{value}{close}{end}");
                                all += 1;
                                let mut p = parser(&text);
                                let Some(t) = p.plain_tag() else {
                                    assert_eq!(p.pos, 0, "{text:?}");
                                    continue;
                                };
                                fast += 1;
                                let mut g = parser(&text);
                                assert_eq!(g.tag_general().as_ref(), Some(&t), "{text:?}");
                                assert_eq!(p.pos, g.pos, "{text:?}");
                                assert!(g.errors.is_empty(), "{text:?}");
                            }
                        }
                    }
                }
            }
        }
        assert!(fast > 1000 && fast < all / 4, "{fast} of {all}");
        for usual in [
            "[Event \"Bench 0\"]",
            "[Site \"Zanzibar\"]",
            "[Date \"2026.11.29\"]",
        ] {
            assert!(parser(usual).plain_tag().is_some(), "{usual}");
        }
        for odd in [
            "[ Event \"x\"]",
            "[Event \"a\\\"b\"]",
            "[Event \"x]",
            "[Event \"x\" x]",
            "[Event \"x\"",
            "[Event x]",
            "[Event \"a\rb\"]",
        ] {
            assert!(parser(odd).plain_tag().is_none(), "{odd}");
        }
        // Other spellings of known names are given in the canonical one, by either path.
        let mut p = parser("[EVENT \"x\"]");
        let t = p.plain_tag().unwrap();
        assert_eq!((t.canonical, t.known), ("Event", Some(0)));
        assert_eq!((t.name, t.value_span), (Span::new(1, 6), Span::new(7, 10)));
    }
}
