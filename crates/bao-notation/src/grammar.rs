//! The record grammar: tag sections, movetext, variations and results, with error recovery.
//!
//! The parser never stops at a defect: it reports it, skips the offending word (or line, for
//! a broken tag), and goes on. Variations are kept on an explicit stack, so no input can
//! exhaust the call stack; nesting deeper than [`MAX_VARIATION_DEPTH`] is reported and the
//! too-deep variation is skipped.

use std::borrow::Cow;

use crate::ast::{sp, AnnotationItem, CommentKind, GameResult, MoveNumber, MoveToken, Nag};
use crate::dialect::Directions;
use crate::error::{SyntaxCode, SyntaxError};
use crate::lexical::{
    annotation_item, blanks_end, fast_annotation_item, fast_token, glyph_word, is_delim,
    is_tag_start, is_value_stop, is_ws, looks_like_move, move_number, move_word, nag_number,
    tag_name_len, value_run_end, word_end, FastToken,
};
use crate::limits::Limits;
use crate::position_string::PositionString;
use crate::span::{Span, Spanned};
use crate::visit::Visitor;

/// The `discard` depth that skips the rest of a game (past the ply limit): no number of `)`
/// brings it back to 0.
const SKIP_REST: usize = usize::MAX / 2;

/// The deepest nesting of variations accepted.
pub const MAX_VARIATION_DEPTH: usize = 64;

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

/// The index of `Position` in [`KNOWN_TAGS`].
const POSITION: usize = 8;

/// The index of `Directions` in [`KNOWN_TAGS`].
const DIRECTIONS: usize = 14;

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

fn shown(word: &str) -> String {
    const MAX: usize = 40;
    if word.len() <= MAX {
        return word.to_owned();
    }
    let mut end = MAX;
    while !word.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &word[..end])
}

/// What the parser keeps of the last element of an open line: enough to attach NAGs and an
/// annotation to a move, and to report them where there is none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Last {
    Nothing,
    Move { annotated: bool },
    Other,
}

/// An open line (the main line, or a variation opened at `open`), as the parser sees it.
#[derive(Debug, Clone, Copy)]
struct Frame {
    open: usize,
    has_move: bool,
    last: Last,
}

impl Frame {
    fn new(open: usize) -> Frame {
        Frame {
            open,
            has_move: false,
            last: Last::Nothing,
        }
    }
}

/// A comment read but not yet given to the visitor: its kind, its span, and where its text
/// ends (before the `}` or the line end).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CommentAt {
    kind: CommentKind,
    pub(crate) span: Span,
    text_end: usize,
    /// Whether the text of a brace comment holds a CR (the scan for its end notes them).
    cr: bool,
}

/// What is kept from game to game (and chunk to chunk): the line stack, buffers, the limits.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    stack: Vec<Frame>,
    /// The items of the annotation being read.
    items: Vec<Spanned<AnnotationItem>>,
    /// Comments of the tag section not yet placed (before the tags, or after them when it is
    /// not yet known whether another tag follows).
    comments: Vec<CommentAt>,
    /// The names of the game's tags that are not known tags.
    other_tags: Vec<Span>,
    /// The limits in force.
    pub(crate) limits: Limits,
}

impl Scratch {
    /// Empty buffers for a parse under `limits`.
    pub(crate) fn with_limits(limits: Limits) -> Scratch {
        Scratch {
            limits,
            ..Scratch::default()
        }
    }
}

pub(crate) struct Parser<'s> {
    src: &'s str,
    bytes: &'s [u8],
    pos: usize,
    end: usize,
    pub(crate) errors: Vec<SyntaxError>,
    /// An unterminated comment ran to the end: a missing result is its consequence.
    swallowed: bool,
    word_cache: (usize, usize),
    scratch: Scratch,
    /// Syntax diagnostics of the current game so far.
    game_errors: usize,
}

impl<'s> Parser<'s> {
    /// A parser of `src[start..end]` that works in the buffers of `scratch` (see
    /// [`Parser::into_scratch`]).
    pub(crate) fn new(src: &'s str, start: usize, end: usize, scratch: Scratch) -> Parser<'s> {
        Parser {
            scratch,
            src,
            bytes: src.as_bytes(),
            pos: start,
            end,
            errors: Vec::new(),
            swallowed: false,
            word_cache: (0, 0),
            game_errors: 0,
        }
    }

    /// Gives the buffers back for the next parser.
    pub(crate) fn into_scratch(self) -> Scratch {
        self.scratch
    }

    fn err(&mut self, code: SyntaxCode, span: Span, message: String, label: &str) {
        self.push_error(SyntaxError::new(code, span, message, label));
    }

    fn err_help(&mut self, code: SyntaxCode, span: Span, message: String, label: &str, help: &str) {
        self.push_error(SyntaxError::new(code, span, message, label).help(help));
    }

    /// Keeps a diagnostic of the current game, up to the limit; the first one over it
    /// becomes a `too_many_errors` diagnostic, and later ones are dropped.
    fn push_error(&mut self, e: SyntaxError) {
        let max = self.scratch.limits.max_errors;
        self.game_errors += 1;
        if self.game_errors <= max {
            self.errors.push(e);
        } else if self.game_errors == max + 1 {
            let start = e.span.start;
            let end = start
                + self
                    .src
                    .get(start..self.end)
                    .and_then(|r| r.chars().next())
                    .map_or(0, char::len_utf8);
            self.errors.push(
                SyntaxError::new(
                    SyntaxCode::TooManyErrors,
                    Span::new(start, end),
                    format!("more than {max} syntax errors in one game; the rest of this game's are not reported"),
                    "the next one is here",
                )
                .help("fix the errors above and check again; is this a record of Bao games?"),
            );
        }
    }

    #[inline(always)]
    fn skip_ws(&mut self) {
        let b = &self.bytes[..self.end];
        if let Some(rest) = b.get(self.pos..) {
            self.pos += rest.iter().position(|&c| !is_ws(c)).unwrap_or(rest.len());
        }
    }

    /// The end of the word at `pos`; cached, so that reading a word in pieces (`1.2.3.`)
    /// stays linear.
    fn word_end(&mut self) -> usize {
        let (s, e) = self.word_cache;
        if s <= self.pos && self.pos < e {
            return e;
        }
        let e = word_end(&self.bytes[..self.end], self.pos);
        self.word_cache = (self.pos, e);
        e
    }

    /// The text of a comment read earlier: a line break is `\n`, and so is `\r\n` (with any
    /// run of `\r` before the `\n`, so that writing the comment and reading it again gives it
    /// back). A lone `\r` stays: it ends no line for the game splitter either, so it must not
    /// become one here.
    fn comment_text(&self, c: CommentAt) -> Cow<'s, str> {
        let raw = &self.src[c.span.start + 1..c.text_end];
        if c.kind == CommentKind::Brace && c.cr {
            let mut t = raw.replace("\r\n", "\n");
            while t.contains("\r\n") {
                t = t.replace("\r\n", "\n");
            }
            Cow::Owned(t)
        } else {
            Cow::Borrowed(raw)
        }
    }

    /// Gives the comments of the tag section held so far to the visitor as the game's.
    #[inline(always)]
    fn flush_game_comments<V: Visitor>(&mut self, v: &mut V) {
        if self.scratch.comments.is_empty() {
            return;
        }
        self.flush_held_comments(v);
    }

    #[inline(never)]
    fn flush_held_comments<V: Visitor>(&mut self, v: &mut V) {
        for &c in &self.scratch.comments {
            v.game_comment(c.kind, &self.comment_text(c), c.span);
        }
        self.scratch.comments.clear();
    }

    /// Parses every game of the chunk, giving them to `v`; returns the comments after the
    /// last one (they belong to the next game).
    pub(crate) fn games<V: Visitor>(&mut self, v: &mut V) -> Vec<CommentAt> {
        loop {
            match self.game(v) {
                Ok(()) => {}
                // Nothing but defects: the diagnostics say it all.
                Err(trailing) if self.pos < self.end && trailing.is_empty() => {}
                Err(trailing) => return trailing,
            }
        }
    }

    /// Gives a run of comments that belongs to no game to `v` as a game of its own.
    pub(crate) fn comments_game<V: Visitor>(&mut self, comments: &[CommentAt], v: &mut V) {
        let Some(span) = comments.iter().map(|c| c.span).reduce(Span::join) else {
            return;
        };
        v.begin_game(span.start);
        for &c in comments {
            v.game_comment(c.kind, &self.comment_text(c), c.span);
        }
        v.end_game(span, None);
    }

    /// One game, given to `v`; or, at the end of the chunk, `Err` with the comments read
    /// (which belong to whatever comes next).
    pub(crate) fn game<V: Visitor>(&mut self, v: &mut V) -> Result<(), Vec<CommentAt>> {
        self.game_errors = 0;
        self.skip_ws();
        let start = self.pos;
        self.scratch.comments.clear();
        self.scratch.other_tags.clear();
        let mut section = TagSection {
            start,
            begun: false,
            tags: 0,
            known_seen: 0,
            seen: None,
            last_end: self.pos,
        };
        // Comments after the last tag: the game's if another tag follows, else the
        // movetext's first elements.
        let mut after_tags = 0usize;
        // Tag section.
        loop {
            self.skip_ws();
            if self.pos >= self.end {
                break;
            }
            match self.bytes[self.pos] {
                b'{' | b';' => {
                    let c = self.comment();
                    section.last_end = c.span.end;
                    self.scratch.comments.push(c);
                    if section.tags > 0 {
                        after_tags += 1;
                    }
                }
                b'[' => {
                    after_tags = 0;
                    // The usual pair and any other apart, so that the usual one is never
                    // copied through memory.
                    if let Some(tag) = self.plain_tag() {
                        self.give_tag(v, &tag, &mut section);
                    } else if let Some(tag) = self.tag_general() {
                        self.give_tag(v, &tag, &mut section);
                    }
                    section.last_end = section.last_end.max(self.pos);
                }
                _ => break,
            }
        }
        let TagSection {
            mut begun,
            tags,
            last_end,
            ..
        } = section;
        if tags == 0 && self.pos >= self.end {
            // Nothing but comments: they belong to whatever comes next.
            return Err(std::mem::take(&mut self.scratch.comments));
        }
        // The comments before the movetext: the game's, but those after the last tag, which
        // open the movetext.
        let held = self.scratch.comments.len() - after_tags;
        let mut open_comments = self.scratch.comments.split_off(held);
        let has_game_comments = !self.scratch.comments.is_empty();
        if !begun && (has_game_comments || !open_comments.is_empty()) {
            begun = true;
            v.begin_game(start);
        }
        self.flush_game_comments(v);
        for &c in &open_comments {
            v.comment(c.kind, &self.comment_text(c), c.span);
        }
        let opened = !open_comments.is_empty();
        open_comments.clear();
        let (result, end, started) = self.movetext(v, begun, start, opened, last_end);
        let begun = started;
        if !begun {
            if result.is_none() {
                // Only defects: no game.
                return Err(Vec::new());
            }
            v.begin_game(start);
        }
        if result.is_none() && !std::mem::take(&mut self.swallowed) {
            let at = Span::at(end);
            self.err_help(
                SyntaxCode::MissingResult,
                at,
                "the game has no result".to_owned(),
                "the result belongs here",
                "end every game with 1-0, 0-1, 1/2-1/2 or * (unknown)",
            );
        }
        v.end_game(Span::new(start, end), result);
        Ok(())
    }

    /// Gives a tag pair read in the tag section to `v` (beginning the game, and giving it the
    /// comments held, first), after checking it.
    #[inline(always)]
    fn give_tag<V: Visitor>(&mut self, v: &mut V, tag: &TagRead<'s>, section: &mut TagSection<'s>) {
        let dup = if let Some(k) = tag.known {
            let dup = section.known_seen & (1 << k) != 0;
            section.known_seen |= 1 << k;
            dup
        } else {
            self.other_tag_seen(tag.name, &mut section.seen)
        };
        self.check_tag(dup, tag);
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
        let dup = if others.len() < 16 {
            others.iter().any(|s| &src[s.range()] == text)
        } else {
            let set = seen.get_or_insert_with(|| others.iter().map(|s| &src[s.range()]).collect());
            !set.insert(text)
        };
        others.push(name);
        dup
    }

    /// Reads a comment at `pos` (reporting its defects); its text is taken later.
    fn comment(&mut self) -> CommentAt {
        let start = self.pos;
        let b = self.bytes;
        if b[start] == b';' {
            let line_end =
                memchr::memchr(b'\n', &b[start..self.end]).map_or(self.end, |p| start + p);
            // The line break is not part of the comment: `\r\n`, and any run of `\r` before the
            // `\n` (written back as one `\n`, it must read back the same).
            let mut text_end = line_end;
            while text_end > start + 1 && b[text_end - 1] == b'\r' {
                text_end -= 1;
            }
            self.pos = line_end;
            self.check_comment_length(start, text_end);
            return CommentAt {
                kind: CommentKind::Line,
                span: Span::new(start, text_end),
                text_end,
                cr: false,
            };
        }
        let (close, cr) = self.comment_close(start + 1);
        let (text_end, end) = match close {
            Ok(close) => (close, close + 1),
            Err(stop) => {
                self.swallowed = true;
                self.err_help(
                    SyntaxCode::UnterminatedComment,
                    Span::new(start, start + 1),
                    "this comment is never closed".to_owned(),
                    "opened here",
                    "close it with `}`; a comment cannot contain `}` or run into a tag line",
                );
                (stop, stop)
            }
        };
        self.pos = end;
        self.check_comment_length(start, text_end);
        CommentAt {
            kind: CommentKind::Brace,
            span: Span::new(start, end),
            text_end,
            cr,
        }
    }

    /// The `}` that closes a brace comment whose text starts at `from`, and whether its text
    /// holds a CR; or, when there is
    /// none before the end of the chunk or before a line that begins with a tag pair (a
    /// comment cannot run into a tag line: the rule the game splitter follows too), where the
    /// unterminated comment stops.
    fn comment_close(&self, from: usize) -> (Result<usize, usize>, bool) {
        let b = self.bytes;
        let mut i = from;
        // Whether a CR was seen: the text up to where the comment stops has been scanned.
        let mut cr = false;
        while let Some(p) = memchr::memchr3(b'}', b'\n', b'\r', &b[i..self.end]) {
            let at = i + p;
            match b[at] {
                b'}' => return (Ok(at), cr),
                b'\r' => {
                    cr = true;
                    i = at + 1;
                    continue;
                }
                _ => {}
            }
            let next = at + 1;
            let line_end = memchr::memchr(b'\n', &b[next..self.end]).map_or(self.end, |q| next + q);
            if crate::split::is_tag_line(&b[next..line_end]) {
                return (Err(next), cr);
            }
            i = next;
        }
        (Err(self.end), cr)
    }

    /// Reports a comment opened at `start` whose text ends at `text_end` when it is longer
    /// than the limit.
    fn check_comment_length(&mut self, start: usize, text_end: usize) {
        let len = text_end.saturating_sub(start + 1);
        let max = self.scratch.limits.max_comment_bytes;
        if len > max {
            self.err_help(
                SyntaxCode::CommentTooLong,
                Span::new(start, start + 1),
                format!("a comment of {len} bytes; the limit is {max}"),
                "this comment is too long",
                "shorten the comment or split it; is a closing `}` missing?",
            );
        }
    }

    /// Skips the rest of a broken tag: to its `]` on the same line, else to the line end.
    fn skip_tag_rest(&mut self) {
        let b = self.bytes;
        let mut i = self.pos;
        while i < self.end && b[i] != b'\n' {
            if b[i] == b']' {
                self.pos = i + 1;
                return;
            }
            i += 1;
        }
        self.pos = i;
    }

    /// The fast path for the common tag pair: `[`, a name, blanks, a quoted value without
    /// escapes, blanks, `]`. It returns `None` without reading anything for any other pair
    /// (blanks after `[`, an escape, a value or pair not closed on its line, a bad name),
    /// which [`Parser::tag_general`] then reads, reporting its defects; for a pair it
    /// accepts, the general path would give the same [`TagRead`] and no diagnostic.
    #[inline(always)]
    fn plain_tag(&mut self) -> Option<TagRead<'s>> {
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
    fn tag_general(&mut self) -> Option<TagRead<'s>> {
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

    /// Reports a tag given twice, too long, or whose value must be and is not a position
    /// string or a direction convention.
    #[inline(always)]
    fn check_tag(&mut self, duplicate: bool, tag: &TagRead<'s>) {
        if duplicate
            || tag.value.len() > self.scratch.limits.max_tag_bytes
            || matches!(tag.known, Some(POSITION | DIRECTIONS))
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
            Some(POSITION) => {
                if let Err(e) = value.value.parse::<PositionString>() {
                    self.err_help(
                        SyntaxCode::BadPosition,
                        value.span,
                        format!("the Position tag is not a position string: {e}"),
                        "cannot read this position",
                        "see spec/notation.md, Position strings; the start position of kiswahili is \
                         0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S FF -",
                    );
                }
            }
            Some(DIRECTIONS) if value.value.parse::<Directions>().is_err() => {
                self.err_help(
                    SyntaxCode::UnknownDirections,
                    value.span,
                    format!("unknown direction convention `{}`", shown(value.value)),
                    "not mover, south or clockwise",
                    "Directions is `mover` (the default), `south` or `clockwise`",
                );
            }
            _ => {}
        }
    }

    /// Movetext up to the result, a tag line or the end, given to `v` (with the game begun
    /// on its first event, when `begun` is still false). `opened` says that the comments
    /// after the tags were given as the movetext's first elements. Returns the result, the
    /// end of the last thing read, and whether the game has begun.
    fn movetext<V: Visitor>(
        &mut self,
        v: &mut V,
        begun: bool,
        game_start: usize,
        opened: bool,
        mut last_end: usize,
    ) -> (Option<Spanned<GameResult>>, usize, bool) {
        /// Begins the game on its first event.
        #[inline(always)]
        fn begin<V: Visitor>(v: &mut V, begun: &mut bool, start: usize) {
            if !*begun {
                *begun = true;
                v.begin_game(start);
            }
        }
        // Kept in a local (a register) while the movetext is read, given back at the end.
        let mut started = begun;
        let begun = &mut started;
        let mut stack = std::mem::take(&mut self.scratch.stack);
        stack.clear();
        let mut root = Frame::new(0);
        if opened {
            root.last = Last::Other;
        }
        stack.push(root);
        let mut discard = 0usize;
        // The moves this game may still have, and whether the ply limit stopped the reading.
        let mut plies_left = self.scratch.limits.max_plies;
        let mut over = false;
        let mut pending: Option<Spanned<MoveNumber>> = None;
        let mut result = None;
        let b = self.bytes;
        loop {
            self.skip_ws();
            if self.pos >= self.end {
                break;
            }
            let start = self.pos;
            let c = b[start];
            if pending.is_some()
                && (matches!(c, b'[' | b'(' | b'$')
                    || (is_delim(c) && !matches!(c, b'{' | b';' | b')')))
            {
                if let Some(n) = pending.take() {
                    self.orphan_number(n);
                }
            }
            match c {
                b'{' | b';' => {
                    if let Some(n) = pending.take() {
                        self.orphan_number(n);
                    }
                    let cm = self.comment();
                    last_end = cm.span.end;
                    if discard == 0 {
                        begin(v, begun, game_start);
                        v.comment(cm.kind, &self.comment_text(cm), cm.span);
                        if let Some(top) = stack.last_mut() {
                            top.last = Last::Other;
                        }
                    }
                }
                b'[' => {
                    if is_tag_start(&self.bytes[..self.end], start) {
                        break;
                    }
                    let ann_span = self.annotation();
                    last_end = ann_span.end;
                    if discard > 0 {
                        continue;
                    }
                    match stack.last_mut() {
                        Some(top) if top.last == (Last::Move { annotated: false }) => {
                            top.last = Last::Move { annotated: true };
                            v.annotation(&self.scratch.items, ann_span);
                        }
                        _ => self.err_help(
                            SyntaxCode::AnnotationWithoutMove,
                            Span::new(ann_span.start, ann_span.start + 1),
                            "this annotation follows no move".to_owned(),
                            "annotation without a move",
                            "a lap/capture annotation comes right after its move (after its NAGs), once",
                        ),
                    }
                }
                b'(' => {
                    self.pos += 1;
                    last_end = self.pos;
                    if discard > 0 {
                        discard += 1;
                    } else if stack.len() > MAX_VARIATION_DEPTH {
                        self.err_help(
                            SyntaxCode::VariationTooDeep,
                            Span::new(start, start + 1),
                            format!("variations are nested more than {MAX_VARIATION_DEPTH} deep"),
                            "too deep",
                            "this variation and everything in it is skipped",
                        );
                        discard = 1;
                    } else {
                        let has_move = stack.last().is_some_and(|f| f.has_move);
                        if !has_move {
                            self.err_help(
                                SyntaxCode::VariationWithoutMove,
                                Span::new(start, start + 1),
                                "this variation has no move before it to replace".to_owned(),
                                "variation before any move",
                                "a variation ( ... ) gives an alternative to the move just before it",
                            );
                        }
                        begin(v, begun, game_start);
                        v.begin_variation(start);
                        stack.push(Frame::new(start));
                    }
                }
                b')' => {
                    self.pos += 1;
                    last_end = self.pos;
                    if discard > 0 {
                        discard -= 1;
                    } else if stack.len() == 1 {
                        self.err_help(
                            SyntaxCode::UnmatchedParen,
                            Span::new(start, start + 1),
                            "`)` closes no variation".to_owned(),
                            "unmatched",
                            "remove it, or open the variation with `(`",
                        );
                    } else if let Some(frame) = stack.pop() {
                        if let Some(n) = pending.take() {
                            self.orphan_number(n);
                        }
                        if frame.last == Last::Nothing {
                            self.err_help(
                                SyntaxCode::EmptyVariation,
                                Span::new(frame.open, self.pos),
                                "empty variation".to_owned(),
                                "nothing inside",
                                "remove the parentheses or write the alternative moves inside them",
                            );
                        }
                        v.end_variation(Span::new(frame.open, self.pos));
                        if let Some(top) = stack.last_mut() {
                            top.last = Last::Other;
                        }
                    }
                }
                b'$' => {
                    let we = word_end(&b[..self.end], start + 1);
                    self.pos = we;
                    last_end = we;
                    let span = Span::new(start, we);
                    match nag_number(&self.src[start + 1..we]) {
                        Some(nag) => {
                            if discard == 0 {
                                self.attach_nag(v, &stack, sp(nag, start, we));
                            }
                        }
                        None => self.err_help(
                            SyntaxCode::BadNag,
                            span,
                            format!("`{}` is not a NAG", shown(&self.src[start..we])),
                            "expected $ and a number from 0 to 255",
                            "a NAG is `$` and a number from 0 to 255, or one of ! ? !! ?? !? ?!",
                        ),
                    }
                }
                _ if is_delim(c) => {
                    // A stray `}`, `]` or `"`.
                    let len = 1;
                    self.pos += len;
                    last_end = self.pos;
                    self.err(
                        SyntaxCode::UnexpectedToken,
                        Span::new(start, start + len),
                        format!("unexpected `{}`", c as char),
                        "not expected here",
                    );
                }
                _ => {
                    // The fast paths for the two common words, in a loop of their own while
                    // they last; anything unusual goes on to the nom parsers below, which
                    // report every defect.
                    let mut run = Run {
                        pending,
                        last_end,
                        plies_left,
                        discard,
                        over,
                        begun: *begun,
                        game_start,
                    };
                    let at = self.fast_run(v, start, &mut run, &mut stack);
                    Run {
                        pending,
                        last_end,
                        plies_left,
                        discard,
                        over,
                        ..
                    } = run;
                    *begun = run.begun;
                    if at > start {
                        self.pos = at;
                        continue;
                    }
                    let we = self.word_end();
                    let word = &self.src[start..we];
                    let span = Span::new(start, we);
                    if let Some(r) = GameResult::from_token(word) {
                        self.pos = we;
                        last_end = we;
                        if let Some(n) = pending.take() {
                            self.orphan_number(n);
                        }
                        if (stack.len() > 1 || discard > 0) && self.next_is_close() {
                            self.err_help(
                                SyntaxCode::ResultInVariation,
                                span,
                                "a result inside a variation".to_owned(),
                                "result here",
                                "the result stands once, at the end of the main line",
                            );
                            continue;
                        }
                        // A result in a variation that is not closed right after it: the
                        // variations were left open; the result ends the game.
                        result = Some(Spanned::new(r, span));
                        break;
                    }
                    if c.is_ascii_digit() {
                        if let Some((number, dots, consumed)) = move_number(word) {
                            self.pos = start + consumed;
                            last_end = self.pos;
                            let nspan = Span::new(start, self.pos);
                            if let Some(n) = pending.take() {
                                self.orphan_number(n);
                            }
                            match number {
                                Ok(n) if dots == 1 || dots == 3 => {
                                    pending = Some(Spanned::new(
                                        MoveNumber {
                                            number: n,
                                            ellipsis: dots == 3,
                                        },
                                        nspan,
                                    ));
                                }
                                _ => self.err_help(
                                    SyntaxCode::BadMoveNumber,
                                    nspan,
                                    format!("`{}` is not a move number", shown(&self.src[nspan.range()])),
                                    "bad move number",
                                    "a move number is a number from 1 and one dot (South) or three dots (North)",
                                ),
                            }
                            continue;
                        }
                    }
                    self.pos = we;
                    last_end = we;
                    if let Some(nag) = glyph_word(word) {
                        if let Some(n) = pending.take() {
                            self.orphan_number(n);
                        }
                        if discard == 0 {
                            self.attach_nag(v, &stack, sp(nag, start, we));
                        }
                        continue;
                    }
                    if looks_like_move(word) {
                        match move_word(word) {
                            Ok((token, glyph)) => {
                                let number = pending.take();
                                if discard > 0 {
                                    continue;
                                }
                                let token_end = start + token_len(word);
                                if self.admit_move(&mut plies_left, Span::new(start, token_end)) {
                                    begin(v, begun, game_start);
                                    give_move(
                                        v, &mut stack, number, token, glyph, start, token_end, we,
                                    );
                                } else {
                                    over = true;
                                    discard = SKIP_REST;
                                }
                            }
                            Err(d) => {
                                // The number belonged to this broken move.
                                pending = None;
                                let mut e = SyntaxError::new(d.code, span, d.message, d.label);
                                if let Some(h) = d.help {
                                    e = e.help(h);
                                }
                                self.push_error(e);
                            }
                        }
                        continue;
                    }
                    pending = None;
                    self.err_help(
                        SyntaxCode::UnexpectedToken,
                        span,
                        format!("unexpected `{}`", shown(word)),
                        "not a move, move number, NAG or result",
                        "moves look like A6<*, move numbers like 12. or 12..., results like 1-0",
                    );
                }
            }
        }
        if let Some(n) = pending.take() {
            self.orphan_number(n);
        }
        while stack.len() > 1 {
            let Some(frame) = stack.pop() else { break };
            // Past the ply limit the rest was not read: its variations may well be closed.
            if !over {
                self.err_help(
                    SyntaxCode::UnclosedVariation,
                    Span::new(frame.open, frame.open + 1),
                    "this variation is never closed".to_owned(),
                    "opened here",
                    "close it with `)` before the result",
                );
            }
            v.end_variation(Span::new(frame.open, last_end));
            if let Some(top) = stack.last_mut() {
                top.last = Last::Other;
            }
        }
        self.scratch.stack = stack;
        (result, last_end, started)
    }

    /// Reads a run of the common words from `at` (moves and move numbers as
    /// [`fast_token`] reads them, and the whitespace after them), as the movetext loop
    /// would, in the state `run` of that loop and its line stack; returns where the run
    /// stops (`at` when there is none). Anything unusual is left to the movetext loop.
    /// Inlined there, so that the state stays in registers on either side of the call.
    #[inline(always)]
    fn fast_run<V: Visitor>(
        &mut self,
        v: &mut V,
        mut at: usize,
        run: &mut Run,
        stack: &mut [Frame],
    ) -> usize {
        let text: &'s [u8] = &self.bytes[..self.end];
        // In locals (registers) during the run.
        let Run {
            mut pending,
            mut last_end,
            mut plies_left,
            mut discard,
            mut over,
            mut begun,
            game_start,
        } = *run;
        loop {
            let Some((token, next)) = fast_token(text, at) else {
                // Whitespace still there after a word (a line end, blanks): skipped, and the
                // run goes on; anything else ends it.
                match text.get(at) {
                    Some(&c) if is_ws(c) => {
                        at += 1;
                        while at < text.len() && is_ws(text[at]) {
                            at += 1;
                        }
                        continue;
                    }
                    _ => break,
                }
            };
            match token {
                FastToken::Move((token, glyph, token_end, we)) => {
                    last_end = we;
                    let number = pending.take();
                    if discard == 0 {
                        if self.admit_move(&mut plies_left, Span::new(at, token_end)) {
                            if !begun {
                                begun = true;
                                v.begin_game(game_start);
                            }
                            give_move(v, stack, number, token, glyph, at, token_end, we);
                        } else {
                            over = true;
                            discard = SKIP_REST;
                        }
                    }
                }
                FastToken::Number(n, ne) => {
                    last_end = ne;
                    if let Some(n) = pending.take() {
                        self.orphan_number(n);
                    }
                    pending = Some(sp(
                        MoveNumber {
                            number: n,
                            ellipsis: false,
                        },
                        at,
                        ne,
                    ));
                }
            }
            at = next;
        }
        *run = Run {
            pending,
            last_end,
            plies_left,
            discard,
            over,
            begun,
            game_start,
        };
        at
    }

    /// Counts a move of the game; the first one over the ply limit is reported, and `false`
    /// says that it and the rest of the game are to be skipped.
    #[inline(always)]
    fn admit_move(&mut self, plies_left: &mut usize, span: Span) -> bool {
        if *plies_left > 0 {
            *plies_left -= 1;
            return true;
        }
        self.over_ply_limit(span);
        false
    }

    #[cold]
    fn over_ply_limit(&mut self, span: Span) {
        let max = self.scratch.limits.max_plies;
        self.err_help(
            SyntaxCode::TooManyPlies,
            span,
            format!("the game has more than {max} moves (main line and variations together)"),
            "the first move over the limit",
            "this move and the rest of the game are skipped; split the game, or make long variations games of their own",
        );
    }

    /// Whether the next token is `)` (comments skipped).
    fn next_is_close(&self) -> bool {
        let b = self.bytes;
        let mut i = self.pos;
        while i < self.end {
            match b[i] {
                c if is_ws(c) => i += 1,
                b')' => return true,
                _ => return false,
            }
        }
        false
    }

    fn orphan_number(&mut self, n: Spanned<MoveNumber>) {
        self.err_help(
            SyntaxCode::MoveNumberWithoutMove,
            n.span,
            format!("the move number `{}` is not followed by a move", n.value),
            "no move after this",
            "a move number stands right before its move",
        );
    }

    fn attach_nag<V: Visitor>(&mut self, v: &mut V, stack: &[Frame], nag: Spanned<Nag>) {
        match stack.last() {
            Some(top) if matches!(top.last, Last::Move { .. }) => v.nag(nag),
            _ => self.err_help(
                SyntaxCode::NagWithoutMove,
                nag.span,
                "this NAG follows no move".to_owned(),
                "NAG without a move",
                "a NAG comes right after the move it judges",
            ),
        }
    }

    /// Reads an annotation at `pos` into the scratch list of items; returns its span.
    fn annotation(&mut self) -> Span {
        let start = self.pos;
        let text: &'s [u8] = &self.bytes[..self.end];
        let mut at = start + 1;
        let mut items = std::mem::take(&mut self.scratch.items);
        items.clear();
        loop {
            while at < text.len() && is_ws(text[at]) {
                at += 1;
            }
            match text.get(at) {
                Some(b']') => {
                    at += 1;
                    break;
                }
                Some(&c) if !is_delim(c) => {}
                _ => {
                    self.pos = at;
                    self.err_help(
                        SyntaxCode::UnclosedAnnotation,
                        Span::new(start, start + 1),
                        "this annotation is never closed".to_owned(),
                        "opened here",
                        "close a lap/capture annotation with `]`",
                    );
                    break;
                }
            }
            let ws = at;
            at = word_end(text, ws);
            let item =
                fast_annotation_item(&text[ws..at]).or_else(|| annotation_item(&self.src[ws..at]));
            match item {
                Some(item) => items.push(sp(item, ws, at)),
                None => {
                    self.pos = at;
                    self.err_help(
                        SyntaxCode::BadAnnotation,
                        Span::new(ws, at),
                        format!(
                            "cannot read `{}` in a lap/capture annotation",
                            shown(&self.src[ws..at])
                        ),
                        "not a capture or lap end",
                        "items are captures like xa5 or xa5:3 and lap ends like A6 or A6:4",
                    );
                }
            }
        }
        self.pos = at;
        self.scratch.items = items;
        Span::new(start, at)
    }
}

/// The state of the movetext loop that a run of common words changes (see
/// [`Parser::fast_run`]).
#[derive(Debug, Clone, Copy)]
struct Run {
    /// The move number read and not yet given with its move.
    pending: Option<Spanned<MoveNumber>>,
    /// The end of the last thing read.
    last_end: usize,
    /// The moves the game may still have.
    plies_left: usize,
    /// How many variations deep the words are skipped (see [`SKIP_REST`]).
    discard: usize,
    /// Whether the ply limit stopped the reading.
    over: bool,
    /// Whether the game has begun (its first event given).
    begun: bool,
    /// Where the game starts.
    game_start: usize,
}

/// What the parser keeps while it reads a game's tag section.
struct TagSection<'s> {
    /// Where the game starts.
    start: usize,
    /// Whether the game has begun (its first event given).
    begun: bool,
    /// The tag pairs read.
    tags: usize,
    /// The known tags already given, one bit each.
    known_seen: u32,
    /// The names of the other tags, once there are many.
    seen: Option<std::collections::HashSet<&'s str>>,
    /// The end of the last thing read.
    last_end: usize,
}

/// A tag pair as read.
#[cfg_attr(test, derive(Debug, PartialEq))]
struct TagRead<'s> {
    /// The whole pair.
    span: Span,
    /// The name as written.
    name: Span,
    /// The name in its canonical spelling.
    canonical: &'s str,
    /// Its index in [`KNOWN_TAGS`], if it is known.
    known: Option<usize>,
    /// The value, escapes removed.
    value: Cow<'s, str>,
    /// The quoted string.
    value_span: Span,
}

/// Gives `v` a move read from `start..we` (the token up to `token_end`, then its glyph) and
/// notes it as the last element of the innermost open line.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn give_move<V: Visitor>(
    v: &mut V,
    stack: &mut [Frame],
    number: Option<Spanned<MoveNumber>>,
    token: MoveToken,
    glyph: Option<Nag>,
    start: usize,
    token_end: usize,
    we: usize,
) {
    if let Some(top) = stack.last_mut() {
        top.has_move = true;
        top.last = Last::Move { annotated: false };
    }
    v.move_token(number, sp(token, start, token_end));
    if let Some(g) = glyph {
        v.nag(sp(g, token_end, we));
    }
}

/// The length of the move part of a word (without a trailing glyph).
fn token_len(word: &str) -> usize {
    word.trim_end_matches(['!', '?']).len()
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// The CRs of a brace comment, noted while its end is looked for: a CR LF (and any CRs
    /// before the LF) is a line break, a lone CR stays, in closed and unclosed comments.
    #[test]
    fn comment_line_breaks() {
        let texts = |text: &str| -> Vec<String> {
            let parsed = crate::parse_record(text);
            parsed.record.games[0]
                .value
                .movetext
                .iter()
                .filter_map(|e| match &e.value {
                    crate::ast::Element::Comment(c) => Some(c.text.clone()),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(texts("1. A6< {a\r\nb\r\r\nc} *"), ["a\nb\nc"]);
        assert_eq!(texts("1. A6< {a\rb} {plain} *"), ["a\rb", "plain"]);
        assert_eq!(texts("1. A6< {a\r\nb *\r\n"), ["a\nb *\n"]);
        assert_eq!(
            texts("1. A6< {a\r\nb\r\n[Event \"x\"]\r\n1. A6< *"),
            ["a\nb\n"]
        );
    }

    /// The events of a record whose moves and move numbers the fast run reads, with every
    /// kind of whitespace between them and no line end at the end.
    #[test]
    fn runs_of_moves_keep_their_spans() {
        let text = "1.  A6<*\t a5>\r\n2. B2<  \n  b3>** 3.A1< 1-0";
        let parsed = crate::parse_record(text);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let game = &parsed.record.games[0].value;
        let moves: Vec<_> = game
            .movetext
            .iter()
            .map(|e| match &e.value {
                crate::ast::Element::Move(m) => (
                    m.number.map(|n| (n.value.number, n.span.range())),
                    m.token.value.to_string(),
                    m.token.span.range(),
                ),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            moves,
            [
                (Some((1, 0..2)), "A6<*".to_owned(), 4..8),
                (None, "a5>".to_owned(), 10..13),
                (Some((2, 15..17)), "B2<".to_owned(), 18..21),
                (None, "b3>**".to_owned(), 26..31),
                (Some((3, 32..34)), "A1<".to_owned(), 34..37),
            ]
        );
        assert_eq!(game.result.map(|r| r.span.range()), Some(38..41));
        assert_eq!(parsed.record.games[0].span.range(), 0..41);
        // A move at the very end: the game's span ends with it, and the result is missing.
        let parsed = crate::parse_record("1. A6<");
        assert_eq!(parsed.record.games[0].span.range(), 0..6);
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.errors[0].code, SyntaxCode::MissingResult);
    }
}
