//! The parser's state and the helpers every part of the grammar uses: the text and the
//! position in it, the diagnostics, the buffers kept from game to game ([`Scratch`]).
//! The tag section, movetext and fast-run modules add their methods to [`Parser`]; this
//! module uses none of them.

use std::borrow::Cow;

use crate::ast::{AnnotationItem, CommentKind, GameResult};
use crate::error::{SyntaxCode, SyntaxError};
use crate::lexical::{is_ws, word_end};
use crate::limits::Limits;
use crate::span::{Span, Spanned};
use crate::steps::step;
use crate::visit::Visitor;

use super::state::Frame;

/// `text` with each run of `\r` followed by `\n` made one `\n` (a lone `\r` stays), in one
/// pass.
fn line_breaks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(p) = rest.find('\r') {
        out.push_str(&rest[..p]);
        let run = rest[p..].bytes().take_while(|&b| b == b'\r').count();
        if rest.as_bytes().get(p + run) != Some(&b'\n') {
            out.push_str(&rest[p..p + run]);
        }
        rest = &rest[p + run..];
    }
    out.push_str(rest);
    step(text.len());
    out
}

/// A comment read but not yet given to the visitor: its kind, its span, and where its text
/// ends (before the `}` or the line end).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CommentAt {
    pub(super) kind: CommentKind,
    pub(crate) span: Span,
    pub(super) text_end: usize,
    /// Whether the text of a brace comment holds a CR (the scan for its end notes them).
    pub(super) cr: bool,
}

/// What is kept from game to game (and chunk to chunk): the line stack, buffers, the limits.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub(super) stack: Vec<Frame>,
    /// The items of the annotation being read.
    pub(super) items: Vec<Spanned<AnnotationItem>>,
    /// Comments of the tag section not yet placed (before the tags, or after them when it is
    /// not yet known whether another tag follows).
    pub(super) comments: Vec<CommentAt>,
    /// The names of the game's tags that are not known tags.
    pub(super) other_tags: Vec<Span>,
    /// The limits in force.
    pub(crate) limits: Limits,
}

impl Scratch {
    /// Empty buffers for a parse under `limits`.
    pub(crate) fn with_limits(limits: Limits) -> Self {
        Self {
            limits,
            ..Self::default()
        }
    }
}

pub(crate) struct Parser<'s> {
    pub(super) src: &'s str,
    pub(super) bytes: &'s [u8],
    pub(super) pos: usize,
    pub(super) end: usize,
    pub(crate) errors: Vec<SyntaxError>,
    /// An unterminated comment ran to the end: a missing result is its consequence.
    pub(super) swallowed: bool,
    pub(super) word_cache: (usize, usize),
    pub(super) scratch: Scratch,
    /// Syntax diagnostics of the current game so far.
    pub(super) game_errors: usize,
    /// The result that ended the game before, if the game read now follows it.
    pub(super) after_result: Option<Spanned<GameResult>>,
}

impl<'s> Parser<'s> {
    /// A parser of `src[start..end]` that works in the buffers of `scratch` (see
    /// [`Parser::into_scratch`]).
    pub(crate) fn new(src: &'s str, start: usize, end: usize, scratch: Scratch) -> Self {
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
            after_result: None,
        }
    }

    /// Gives the buffers back for the next parser.
    pub(crate) fn into_scratch(self) -> Scratch {
        self.scratch
    }

    pub(super) fn err(&mut self, code: SyntaxCode, span: Span, message: String, label: &str) {
        self.push_error(SyntaxError::new(code, span, message, label));
    }

    pub(super) fn err_help(
        &mut self,
        code: SyntaxCode,
        span: Span,
        message: String,
        label: &str,
        help: &str,
    ) {
        self.push_error(SyntaxError::new(code, span, message, label).help(help));
    }

    /// Keeps a diagnostic of the current game, up to the limit; the first one over it
    /// becomes a `too_many_errors` diagnostic, and later ones are dropped.
    pub(super) fn push_error(&mut self, e: SyntaxError) {
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
    pub(super) fn skip_ws(&mut self) {
        let b = &self.bytes[..self.end];
        if let Some(rest) = b.get(self.pos..) {
            let n = rest.iter().position(|&c| !is_ws(c)).unwrap_or(rest.len());
            step(n + 1);
            self.pos += n;
        }
    }

    /// The end of the word at `pos`; cached, so that reading a word in pieces (`1.2.3.`)
    /// stays linear.
    pub(super) fn word_end(&mut self) -> usize {
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
    pub(super) fn comment_text(&self, c: CommentAt) -> Cow<'s, str> {
        let raw = &self.src[c.span.start + 1..c.text_end];
        step(raw.len());
        if c.kind == CommentKind::Brace && c.cr {
            Cow::Owned(line_breaks(raw))
        } else {
            Cow::Borrowed(raw)
        }
    }

    /// Gives the comments of the tag section held so far to the visitor as the game's.
    #[inline(always)]
    pub(super) fn flush_game_comments<V: Visitor>(&mut self, v: &mut V) {
        if self.scratch.comments.is_empty() {
            return;
        }
        self.flush_held_comments(v);
    }

    #[inline(never)]
    pub(super) fn flush_held_comments<V: Visitor>(&mut self, v: &mut V) {
        for &c in &self.scratch.comments {
            v.game_comment(c.kind, &self.comment_text(c), c.span);
        }
        self.scratch.comments.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::line_breaks;

    /// One pass gives what replacing `\r\n` by `\n` until none is left gives, on every text
    /// of up to 8 bytes of `a`, `\r`, `\n`.
    #[test]
    fn line_breaks_agree_with_replacing_until_done() {
        let alphabet = ['a', '\r', '\n'];
        for len in 0..=8u32 {
            for code in 0..3usize.pow(len) {
                let mut c = code;
                let text: String = (0..len)
                    .map(|_| {
                        let ch = alphabet[c % 3];
                        c /= 3;
                        ch
                    })
                    .collect();
                let mut reference = text.clone();
                while reference.contains("\r\n") {
                    reference = reference.replace("\r\n", "\n");
                }
                assert_eq!(line_breaks(&text), reference, "{text:?}");
            }
        }
    }
}
