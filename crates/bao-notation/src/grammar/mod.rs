//! The record grammar: tag sections, movetext, variations and results, with error recovery.
//!
//! The parser never stops at a defect: it reports it, skips the offending word (or line, for
//! a broken tag), and goes on. Variations are kept on an explicit stack, so no input can
//! exhaust the call stack; nesting deeper than [`MAX_VARIATION_DEPTH`] is reported and the
//! too-deep variation is skipped.

use crate::ast::{CommentKind, GameResult};
use crate::error::{SyntaxCode, SyntaxError};
use crate::lexical::{looks_like_move, move_number, move_word, word_end};
use crate::span::{Span, Spanned};
use crate::steps::step;
use crate::visit::Visitor;

mod fast;
mod movetext;
mod parser;
mod state;
mod tags;

pub(crate) use parser::{CommentAt, Parser, Scratch};
use tags::TagSection;

pub use movetext::MAX_VARIATION_DEPTH;
pub use tags::{is_tag_name, KNOWN_TAGS};

impl<'s> Parser<'s> {
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
            rules: None,
            bad_position: None,
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
            rules,
            bad_position,
            ..
        } = section;
        if let Some((span, error, value)) = bad_position {
            self.bad_position(span, &error, &value, rules);
        }
        if let Some(r) = self.after_result.take().filter(|_| tags == 0) {
            self.moves_after_result(r);
        }
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
        self.after_result = result;
        v.end_game(Span::new(start, end), result);
        Ok(())
    }

    /// A game with no tags that begins on the line of the result before it, with a move:
    /// the result was most likely a slip (`1. A6L * a6R`, `*` meant as takasa).
    #[cold]
    fn moves_after_result(&mut self, r: Spanned<GameResult>) {
        let gap = &self.src[r.span.end..self.pos];
        step(gap.len());
        if gap.contains(['\n', '\r']) || !gap.trim().is_empty() || self.pos >= self.end {
            return;
        }
        let next = &self.src[self.pos..word_end(self.bytes, self.pos)];
        // A new game that starts as games do (`1.`) is no slip: games may share a line.
        let continues = looks_like_move(next)
            || move_number(next).is_some_and(|(n, dots, _)| n != Ok(1) || dots >= 3);
        if !continues {
            return;
        }
        // The word before the result, without its move number.
        let before = self.src[..r.span.start].trim_end_matches([' ', '\t']);
        step(r.span.start - before.len());
        let spaced = before.len() < r.span.start;
        let word = before
            .rsplit(|c: char| c.is_whitespace())
            .next()
            .unwrap_or_default();
        let word = move_number(word).map_or(word, |(_, _, len)| &word[len..]);
        let help = if r.value == GameResult::Unknown
            && spaced
            && !word.ends_with('*')
            && move_word(word).is_ok()
        {
            format!(
                "`*` after a space is a result and ends the game; did you mean `{word}*` (a takasa)?"
            )
        } else {
            "a result ends the game: the moves after it start a game with no tags. Remove the \
             result, or begin the next game on its own line with its tags"
                .to_owned()
        };
        self.push_error(
            SyntaxError::new(
                SyntaxCode::MovesAfterResult,
                r.span,
                format!("the result `{}` is followed by more moves", r.value),
                "the game ends here",
            )
            .help(help),
        );
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
            step(line_end - start);
            self.pos = line_end;
            self.check_comment_length(start, text_end);
            self.check_markup(start, text_end);
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
        self.check_markup(start, text_end);
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
            step(p + 1);
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
            step(line_end - next);
            if crate::split::is_tag_line(&b[next..line_end]) {
                return (Err(next), cr);
            }
            i = next;
        }
        (Err(self.end), cr)
    }

    /// Reports the markup of the comment opened at `start` (its text ends at `text_end`) that
    /// cannot be read (`bao::syntax::bad_markup`, or `bao::syntax::bad_eval` for an
    /// evaluation; a warning: the comment stays text).
    fn check_markup(&mut self, start: usize, text_end: usize) {
        let from = start + 1;
        let Some(text) = self.src.get(from..text_end) else {
            return;
        };
        step(text.len());
        if memchr::memmem::find(text.as_bytes(), b"[%").is_none() {
            return;
        }
        for e in crate::markup::Markup::read(text).1 {
            let code = if e.eval {
                SyntaxCode::BadEval
            } else {
                SyntaxCode::BadMarkup
            };
            self.err_help(code, e.span.shifted(from), e.message, e.label, e.help);
        }
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
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// The words of generated movetext, common and not.
    const WORDS: &[&str] = &[
        "1.",
        "2...",
        "12.",
        "A6<",
        "a5>*",
        "B2<**",
        "b3>+",
        "A1<#!",
        "a8R?!",
        "6<",
        "A9",
        "[xa4:2 A7:1]",
        "[XA1:2 xA2:12 a7:4 b8 B1:05]",
        "[A6]",
        "[ A6]",
        "[A6  xa4]",
        "[A6 cycle:1+228]",
        "[xa4:255]",
        "[A6:]",
        "[]",
        "[A6",
        "{c}",
        "(",
        ")",
        "$1",
        "!",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]

        /// The fast run reads a move and its annotation together when a space is between
        /// them, and the movetext loop reads them when a tab is: the records (spans
        /// included) and the diagnostics are the same.
        #[test]
        fn annotations_read_in_the_fast_run_as_in_the_loop(
            words in proptest::collection::vec(proptest::sample::select(WORDS), 0..40),
            result in proptest::sample::select(&["1-0", "*", ""][..]),
        ) {
            let blank = format!("{} {result}", words.join(" "));
            let broken = format!("{}\t{result}", words.join("\t"));
            let read = |text: &str| {
                let parsed = crate::parse_record(text);
                format!("{:?} {:?}", parsed.record, parsed.errors)
            };
            proptest::prop_assert_eq!(read(&blank), read(&broken), "{:?}", blank);
        }
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
