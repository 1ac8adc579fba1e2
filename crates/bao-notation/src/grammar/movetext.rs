//! Movetext: moves, move numbers, NAGs, annotations, comments and variations up to the result.

use super::parser::Parser;
use super::state::{Frame, Last, Run, SKIP_REST};
use crate::lexical::quoted;
use bao_core::NeverEnding;

use crate::ast::{sp, GameResult, MoveNumber, MoveToken, Nag};
use crate::error::{SyntaxCode, SyntaxError};
use crate::lexical::{
    annotation_item, cycle_item, fast_annotation, glyph_word, is_delim, is_tag_start, is_ws,
    looks_like_move, move_number, move_word, word_end, MOVE_WORD_MAX,
};
use crate::span::{Span, Spanned};
use crate::steps::step;
use crate::visit::Visitor;

/// The deepest nesting of variations accepted.
pub const MAX_VARIATION_DEPTH: usize = 64;

impl<'s> Parser<'s> {
    /// Movetext up to the result, a tag line or the end, given to `v` (with the game begun
    /// on its first event, when `begun` is still false). `opened` says that the comments
    /// after the tags were given as the movetext's first elements. Returns the result, the
    /// end of the last thing read, and whether the game has begun.
    pub(super) fn movetext<V: Visitor>(
        &mut self,
        v: &mut V,
        begun: bool,
        game_start: usize,
        opened: bool,
        last_end: usize,
    ) -> (Option<Spanned<GameResult>>, usize, bool) {
        // Kept in a local (registers) while the movetext is read.
        let mut run = Run {
            pending: None,
            last_end,
            plies_left: self.scratch.limits.max_plies,
            discard: 0,
            over: false,
            begun,
            game_start,
        };
        let mut stack = std::mem::take(&mut self.scratch.stack);
        stack.clear();
        let mut root = Frame::new(0);
        if opened {
            root.last = Last::Other;
        }
        stack.push(root);
        let mut result = None;
        loop {
            self.skip_ws();
            if self.pos >= self.end {
                break;
            }
            step(1);
            let start = self.pos;
            let c = self.bytes[start];
            if run.pending.is_some()
                && (matches!(c, b'[' | b'(' | b'$')
                    || (is_delim(c) && !matches!(c, b'{' | b';' | b')')))
            {
                self.drop_pending(&mut run);
            }
            let step = match c {
                b'{' | b';' => self.movetext_comment(v, &mut run, &mut stack),
                b'[' => self.movetext_annotation(v, &mut run, &mut stack, start),
                b'(' => self.open_variation(v, &mut run, &mut stack, start),
                b')' => self.close_variation(v, &mut run, &mut stack, start),
                b'$' => self.nag_word(v, &mut run, &stack, start),
                _ if is_delim(c) => self.stray_delimiter(&mut run, start, c),
                _ => self.word(v, &mut run, &mut stack, start, c),
            };
            match step {
                Step::Next => {}
                Step::End => break,
                Step::Result(r) => {
                    result = Some(r);
                    break;
                }
            }
        }
        self.drop_pending(&mut run);
        self.close_open_variations(v, &mut stack, run.over, run.last_end);
        self.scratch.stack = stack;
        (result, run.last_end, run.begun)
    }

    /// A move number not followed by its move is reported and forgotten.
    #[inline(always)]
    fn drop_pending(&mut self, run: &mut Run) {
        if let Some(n) = run.pending.take() {
            self.orphan_number(n);
        }
    }

    /// A comment in the movetext.
    #[inline(always)]
    fn movetext_comment<V: Visitor>(
        &mut self,
        v: &mut V,
        run: &mut Run,
        stack: &mut [Frame],
    ) -> Step {
        self.drop_pending(run);
        let cm = self.comment();
        run.last_end = cm.span.end;
        if run.discard == 0 {
            run.begin(v);
            v.comment(cm.kind, &self.comment_text(cm), cm.span);
            other_last(stack);
        }
        Step::Next
    }

    /// `[` in the movetext: the next game's tag line, or a lap/capture annotation.
    #[inline(always)]
    fn movetext_annotation<V: Visitor>(
        &mut self,
        v: &mut V,
        run: &mut Run,
        stack: &mut [Frame],
        start: usize,
    ) -> Step {
        // The usual annotation first: no tag line reads as one (a tag's name is followed,
        // after blanks, by `"`, which no annotation of that shape holds).
        let (ann_span, cycle) = match self.fast_annotation(start) {
            Some(end) => (Span::new(start, end), None),
            None if is_tag_start(&self.bytes[..self.end], start) => return Step::End,
            None => self.annotation(),
        };
        run.last_end = ann_span.end;
        if run.discard > 0 {
            return Step::Next;
        }
        match stack.last_mut() {
            Some(top) if top.last == (Last::Move { annotated: false }) => {
                top.last = Last::Move { annotated: true };
                v.annotation(&self.scratch.items, cycle, ann_span);
            }
            _ => self.err_help(
                SyntaxCode::AnnotationWithoutMove,
                Span::new(ann_span.start, ann_span.start + 1),
                "this annotation follows no move".to_owned(),
                "annotation without a move",
                "a lap/capture annotation comes right after its move (after its NAGs), once",
            ),
        }
        Step::Next
    }

    /// `(`: a variation opens (or, too deep, is skipped).
    #[inline(always)]
    fn open_variation<V: Visitor>(
        &mut self,
        v: &mut V,
        run: &mut Run,
        stack: &mut Vec<Frame>,
        start: usize,
    ) -> Step {
        self.pos += 1;
        run.last_end = self.pos;
        if run.discard > 0 {
            run.discard += 1;
        } else if stack.len() > MAX_VARIATION_DEPTH {
            self.err_help(
                SyntaxCode::VariationTooDeep,
                Span::new(start, start + 1),
                format!("variations are nested more than {MAX_VARIATION_DEPTH} deep"),
                "too deep",
                "this variation and everything in it is skipped",
            );
            run.discard = 1;
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
            run.begin(v);
            v.begin_variation(start);
            stack.push(Frame::new(start));
        }
        Step::Next
    }

    /// `)`: the innermost variation closes.
    #[inline(always)]
    fn close_variation<V: Visitor>(
        &mut self,
        v: &mut V,
        run: &mut Run,
        stack: &mut Vec<Frame>,
        start: usize,
    ) -> Step {
        self.pos += 1;
        run.last_end = self.pos;
        if run.discard > 0 {
            run.discard -= 1;
        } else if stack.len() == 1 {
            self.err_help(
                SyntaxCode::UnmatchedParen,
                Span::new(start, start + 1),
                "`)` closes no variation".to_owned(),
                "unmatched",
                "remove it, or open the variation with `(`",
            );
        } else if let Some(frame) = stack.pop() {
            self.drop_pending(run);
            if frame.last == Last::Nothing {
                self.err_help(
                    SyntaxCode::EmptyVariation,
                    Span::new(frame.open, self.pos),
                    "empty variation".to_owned(),
                    "nothing inside",
                    "remove the parentheses or write the alternative moves inside them",
                );
            }
            end_variation(v, stack, Span::new(frame.open, self.pos));
        }
        Step::Next
    }

    /// `$` and a number: a NAG.
    #[inline(always)]
    fn nag_word<V: Visitor>(
        &mut self,
        v: &mut V,
        run: &mut Run,
        stack: &[Frame],
        start: usize,
    ) -> Step {
        let we = word_end(&self.bytes[..self.end], start + 1);
        self.pos = we;
        run.last_end = we;
        match Nag::from_digits(&self.src[start + 1..we]) {
            Some(nag) => {
                if run.discard == 0 {
                    self.attach_nag(v, stack, sp(nag, start, we));
                }
            }
            None => self.err_help(
                SyntaxCode::BadNag,
                Span::new(start, we),
                format!("{} is not a NAG", quoted(&self.src[start..we])),
                "expected $ and a number from 0 to 255",
                "a NAG is `$` and a number from 0 to 255, or one of ! ? !! ?? !? ?!",
            ),
        }
        Step::Next
    }

    /// A stray `}`, `]` or `"`.
    #[inline(always)]
    fn stray_delimiter(&mut self, run: &mut Run, start: usize, c: u8) -> Step {
        self.pos += 1;
        run.last_end = self.pos;
        self.err(
            SyntaxCode::UnexpectedToken,
            Span::new(start, start + 1),
            format!("unexpected `{}`", c as char),
            "not expected here",
        );
        Step::Next
    }

    /// A word: first the fast paths for the two common words, in a loop of their own while
    /// they last; then, for anything unusual, a result, a move number, a glyph, a move, each
    /// read by a parser that reports every defect.
    #[inline(always)]
    fn word<V: Visitor>(
        &mut self,
        v: &mut V,
        run: &mut Run,
        stack: &mut [Frame],
        start: usize,
        c: u8,
    ) -> Step {
        let at = self.fast_run(v, start, run, stack);
        if at > start {
            self.pos = at;
            return Step::Next;
        }
        let we = self.word_end();
        let word = &self.src[start..we];
        if let Some(r) = GameResult::from_token(word) {
            return self.result_word(run, stack, Spanned::new(r, Span::new(start, we)));
        }
        if c.is_ascii_digit() {
            if let Some((number, dots, consumed)) = move_number(word) {
                self.number_word(run, Span::new(start, start + consumed), number, dots);
                return Step::Next;
            }
        }
        self.pos = we;
        run.last_end = we;
        if let Some(nag) = glyph_word(word) {
            self.drop_pending(run);
            if run.discard == 0 {
                self.attach_nag(v, stack, sp(nag, start, we));
            }
        } else if looks_like_move(word) {
            self.slow_move(v, run, stack, start, we);
        } else if is_move_suffix(word) && self.follows_a_word(start) {
            // `A4 >`, `A4 R`: the sign or K.I.B.A. letter (or `*`, `+`) of the move before,
            // written apart from it.
            run.pending = None;
            self.err_help(
                SyntaxCode::UnexpectedToken,
                Span::new(start, we),
                format!("unexpected {}: no space inside a move", quoted(word)),
                "apart from its move",
                if word.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    "write the direction and the suffixes right after the pit, without a space: A4R, A6L*"
                } else {
                    "write the sign and the suffixes right after the pit, without a space: A4>, A6<*"
                },
            );
        } else {
            run.pending = None;
            self.err_help(
                SyntaxCode::UnexpectedToken,
                Span::new(start, we),
                format!("unexpected {}", quoted(word)),
                "not a move, move number, NAG or result",
                "moves look like A6<*, move numbers like 12. or 12..., results like 1-0",
            );
        }
        Step::Next
    }

    /// Whether the word at `start` follows another word after blanks on the same line
    /// (as a sign written apart from its move does).
    fn follows_a_word(&self, start: usize) -> bool {
        let before = self.src[..start].trim_end_matches([' ', '\t']);
        step(start - before.len());
        before.len() < start
            && before
                .as_bytes()
                .last()
                .is_some_and(|b| b.is_ascii_alphanumeric())
    }

    /// A result word: the end of the game, or a defect inside a variation.
    #[inline(always)]
    fn result_word(&mut self, run: &mut Run, stack: &[Frame], r: Spanned<GameResult>) -> Step {
        self.pos = r.span.end;
        run.last_end = r.span.end;
        self.drop_pending(run);
        if (stack.len() > 1 || run.discard > 0) && self.next_is_close() {
            self.err_help(
                SyntaxCode::ResultInVariation,
                r.span,
                "a result inside a variation".to_owned(),
                "result here",
                "the result stands once, at the end of the main line",
            );
            return Step::Next;
        }
        // A result in a variation that is not closed right after it: the variations were
        // left open; the result ends the game.
        Step::Result(r)
    }

    /// A move number as the general path reads it (`number` is `Err` when it is 0 or too
    /// large), with its count of dots.
    #[inline(always)]
    fn number_word(&mut self, run: &mut Run, nspan: Span, number: Result<u32, ()>, dots: usize) {
        self.pos = nspan.end;
        run.last_end = nspan.end;
        self.drop_pending(run);
        match number {
            Ok(n) if dots == 1 || dots == 3 => {
                run.pending = Some(Spanned::new(
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
                format!("{} is not a move number", quoted(&self.src[nspan.range()])),
                "bad move number",
                "a move number is a number from 1 and one dot (South) or three dots (North)",
            ),
        }
    }

    /// A word that looks like a move and that the fast path did not take, at `start..we`:
    /// read with [`move_word`], which reports its defects.
    #[inline(always)]
    fn slow_move<V: Visitor>(
        &mut self,
        v: &mut V,
        run: &mut Run,
        stack: &mut [Frame],
        start: usize,
        we: usize,
    ) {
        let word = &self.src[start..we];
        match move_word(word) {
            Ok((token, glyph)) => {
                let number = run.pending.take();
                if run.discard > 0 {
                    return;
                }
                let token_end = start + token_len(word);
                if self.admit_move(&mut run.plies_left, Span::new(start, token_end)) {
                    run.begin(v);
                    give_move(
                        v,
                        stack,
                        MoveRead {
                            number,
                            token,
                            glyph,
                            start,
                            token_end,
                            end: we,
                        },
                    );
                } else {
                    run.over = true;
                    run.discard = SKIP_REST;
                }
            }
            Err(d) => {
                // The number belonged to this broken move.
                run.pending = None;
                let mut e = SyntaxError::new(d.code, Span::new(start, we), d.message, d.label);
                if let Some((a, b)) = two_moves(word).filter(|_| d.code == SyntaxCode::BadMove) {
                    e = e.help(format!(
                        "missing space? `{a} {b}` reads as two moves; a move is a pit, a sign \
                         (< or >), then the suffixes *, **, +, # in that order"
                    ));
                } else if let Some(h) = d.help {
                    e = e.help(h);
                }
                self.push_error(e);
            }
        }
    }

    /// At the end of the movetext (at `last_end`), the variations still open are reported
    /// (unless the ply limit stopped the reading: `over`) and closed.
    fn close_open_variations<V: Visitor>(
        &mut self,
        v: &mut V,
        stack: &mut Vec<Frame>,
        over: bool,
        last_end: usize,
    ) {
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
            end_variation(v, stack, Span::new(frame.open, last_end));
        }
    }

    /// Counts a move of the game; the first one over the ply limit is reported, and `false`
    /// says that it and the rest of the game are to be skipped.
    #[inline(always)]
    pub(super) fn admit_move(&mut self, plies_left: &mut usize, span: Span) -> bool {
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

    pub(super) fn orphan_number(&mut self, n: Spanned<MoveNumber>) {
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

    /// Reads an annotation of the usual shape at `start` (its `[`) with [`fast_annotation`]
    /// into the scratch list of items, and moves past it; returns its end, or `None` (and
    /// nothing read) for any other annotation, or a tag line.
    #[inline(always)]
    pub(super) fn fast_annotation(&mut self, start: usize) -> Option<usize> {
        let mut items = std::mem::take(&mut self.scratch.items);
        items.clear();
        let end = fast_annotation(&self.bytes[..self.end], start, &mut items);
        self.scratch.items = items;
        self.pos = end?;
        end
    }

    /// Reads an annotation at `pos` into the scratch list of items, the general way (every
    /// defect reported); returns its span and its cycle item (`cycle:L+P`, which must come
    /// last).
    #[inline(never)]
    fn annotation(&mut self) -> (Span, Option<Spanned<NeverEnding>>) {
        let start = self.pos;
        let text: &'s [u8] = &self.bytes[..self.end];
        let mut at = start + 1;
        let mut items = std::mem::take(&mut self.scratch.items);
        items.clear();
        let mut cycle: Option<Spanned<NeverEnding>> = None;
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
            let item = annotation_item(&self.src[ws..at]);
            if cycle.is_some() {
                // Nothing follows the cycle: the move never ends.
                self.pos = at;
                self.err_help(
                    SyntaxCode::BadAnnotation,
                    Span::new(ws, at),
                    format!(
                        "{} follows the cycle item of a never-ending move",
                        quoted(&self.src[ws..at])
                    ),
                    "after the cycle",
                    "the cycle item `cycle:L+P` ends the annotation: the lap ends up to lap L \
                     come before it",
                );
                continue;
            }
            match item {
                Some(item) => items.push(sp(item, ws, at)),
                None => match cycle_item(&self.src[ws..at]) {
                    Some(c) => cycle = Some(sp(c, ws, at)),
                    None => {
                        self.pos = at;
                        self.err_help(
                            SyntaxCode::BadAnnotation,
                            Span::new(ws, at),
                            format!(
                                "cannot read {} in a lap/capture annotation",
                                quoted(&self.src[ws..at])
                            ),
                            "not a capture or lap end",
                            "items are captures like xa5 or xa5:3 and lap ends like A6 or A6:4 \
                             (a move that never ends: its cycle last, like cycle:1+228)",
                        );
                    }
                },
            }
        }
        self.pos = at;
        self.scratch.items = items;
        (Span::new(start, at), cycle)
    }
}

/// What to do after a token of the movetext.
pub(super) enum Step {
    /// Read on.
    Next,
    /// The movetext ends here (a tag line follows).
    End,
    /// The movetext ends with this result.
    Result(Spanned<GameResult>),
}

/// A move read from a word at `start..end`: its number, the token up to `token_end`, then
/// its glyph.
pub(super) struct MoveRead {
    /// The move number before it, if any.
    pub(super) number: Option<Spanned<MoveNumber>>,
    /// The token.
    pub(super) token: MoveToken,
    /// The glyph NAG attached to the word.
    pub(super) glyph: Option<Nag>,
    /// Where the word starts.
    pub(super) start: usize,
    /// Where the token ends (and the glyph starts).
    pub(super) token_end: usize,
    /// Where the word ends.
    pub(super) end: usize,
}

/// Gives `v` a move read and notes it as the last element of the innermost open line.
#[inline(always)]
pub(super) fn give_move<V: Visitor>(v: &mut V, stack: &mut [Frame], m: MoveRead) {
    if let Some(top) = stack.last_mut() {
        top.has_move = true;
        top.last = Last::Move { annotated: false };
    }
    v.move_token(m.number, sp(m.token, m.start, m.token_end));
    if let Some(g) = m.glyph {
        v.nag(sp(g, m.token_end, m.end));
    }
}

/// Notes that the last element of the innermost open line is no move (a comment, a
/// variation), so that no NAG or annotation attaches to it.
#[inline(always)]
fn other_last(stack: &mut [Frame]) {
    if let Some(top) = stack.last_mut() {
        top.last = Last::Other;
    }
}

/// Gives `v` the end of the variation at `span`, popped from `stack`, and notes it as the
/// last element of the line it stood in.
#[inline(always)]
fn end_variation<V: Visitor>(v: &mut V, stack: &mut [Frame], span: Span) {
    v.end_variation(span);
    other_last(stack);
}

/// The length of the move part of a word (without a trailing glyph).
fn token_len(word: &str) -> usize {
    word.trim_end_matches(['!', '?']).len()
}

/// A word that two moves run together make (`A6L*a6R`): the two, split where the second
/// starts.
fn two_moves(word: &str) -> Option<(&str, &str)> {
    // Each half is at most a move word long: a longer word is not tried (trying every split
    // of a long word would read it once per byte).
    if word.len() > 2 * MOVE_WORD_MAX {
        return None;
    }
    (2..word.len()).find_map(|i| {
        let (a, b) = (word.get(..i)?, word.get(i..)?);
        (looks_like_move(b) && move_word(a).is_ok() && move_word(b).is_ok()).then_some((a, b))
    })
}

/// Whether a word is made of what follows a pit in a move token only: a sign (`<`, `>`),
/// `*`, `+`, `#` (`>`, `<*`, `*`).
fn is_move_suffix(word: &str) -> bool {
    // K.I.B.A.'s direction letters (`A4 R`, `A6 l*`) as well as the signs.
    let rest = word.strip_prefix(['L', 'R', 'l', 'r']).unwrap_or(word);
    !word.is_empty()
        && rest
            .bytes()
            .all(|b| matches!(b, b'<' | b'>' | b'*' | b'+' | b'#'))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::{Parser, Scratch};
    use crate::ast::AnnotationItem;
    use crate::error::SyntaxError;
    use crate::lexical::{fast_annotation, is_tag_start};
    use crate::span::{Span, Spanned};

    /// What the general reading makes of the annotation at the start of `text`: its span,
    /// whether it has a cycle item, its items and its diagnostics.
    fn general(text: &str) -> (Span, bool, Vec<Spanned<AnnotationItem>>, Vec<SyntaxError>) {
        let mut p = Parser::new(text, 0, text.len(), Scratch::default());
        let (span, cycle) = p.annotation();
        let items = p.scratch.items.clone();
        (span, cycle.is_some(), items, p.errors)
    }

    /// The fast path and the general reading agree on the annotation at the start of `text`
    /// whenever the fast path answers (items, spans, end; no cycle, no diagnostic), and the
    /// fast path never answers for a tag line. Returns whether it answered.
    fn agree(text: &str) -> bool {
        let mut items = Vec::new();
        let Some(end) = fast_annotation(text.as_bytes(), 0, &mut items) else {
            return false;
        };
        let (span, cycle, general_items, errors) = general(text);
        assert_eq!(span, Span::new(0, end), "{text:?}");
        assert!(!cycle, "{text:?}");
        assert!(errors.is_empty(), "{text:?}: {errors:?}");
        let spans =
            |v: &[Spanned<AnnotationItem>]| v.iter().map(|i| (i.value, i.span)).collect::<Vec<_>>();
        assert_eq!(spans(&items), spans(&general_items), "{text:?}");
        assert!(!is_tag_start(text.as_bytes(), 0), "{text:?}");
        true
    }

    #[test]
    fn fast_annotations_agree_with_the_general_reading() {
        for (text, fast) in [
            ("[xa4:2 A7:1]", true),
            ("[xa4:2 A7:1] b7>", true),
            ("[XA1:2 xA2:12 a7:4 b8 B1:05]\n1-0", true),
            ("[A6]", true),
            ("[A6] ", true),
            ("[]", false),
            ("[ A6]", false),
            ("[A6 ]", false),
            ("[A6  xa4]", false),
            ("[A6\nxa4]", false),
            ("[A6\txa4]", false),
            ("[A6 cycle:1+228]", false),
            ("[A6:255]", false),
            ("[A6:]", false),
            ("[A9]", false),
            ("[C6]", false),
            ("[xx6]", false),
            ("[A6{c}]", false),
            ("[A6", false),
            ("[A6 ", false),
            ("[A6 xa4:2", false),
            ("[A6 \"x\"]", false),
            ("[A1 \"x\"]", false),
            ("[Event \"x\"]", false),
        ] {
            assert_eq!(agree(text), fast, "{text:?}");
        }
    }

    /// The pieces annotations are made of, well-formed and not.
    const PIECES: &[&str] = &[
        "xa4:2",
        "A7:1",
        "XB8",
        "b3",
        "a5:12",
        "a5:05",
        "B2:99",
        "a5:255",
        "a9",
        "A0",
        "C4",
        "xx4",
        "x",
        "A",
        "6",
        ":",
        "1",
        "cycle:1+228",
        "Cycle:2+3",
        " ",
        " ",
        " ",
        "  ",
        "\n",
        "\t",
        "]",
        "[",
        "\"",
        "{c}",
        "Event",
        "(",
        ")",
        "A6:",
        "é",
        ";",
    ];

    /// A well-formed item.
    fn item() -> impl Strategy<Value = String> {
        (
            prop::sample::select(&["", "x", "X"][..]),
            prop::sample::select(&["A", "B", "a", "b"][..]),
            1..=8u8,
            prop::option::of(0..100u8),
        )
            .prop_map(|(x, row, n, seeds)| match seeds {
                Some(s) if s < 10 => format!("{x}{row}{n}:{s}"),
                Some(s) => format!("{x}{row}{n}:{s:02}"),
                None => format!("{x}{row}{n}"),
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Annotations of the usual shape, followed by anything or nothing: the fast path
        /// reads them, as the general reading does.
        #[test]
        fn usual_annotations_take_the_fast_path(
            items in prop::collection::vec(item(), 1..9),
            after in prop::sample::select(&["", " ", " 1-0", "\n\n[Event \"x\"]", "b7> [A1] 2. A6< *"][..]),
        ) {
            let text = format!("[{}]{after}", items.join(" "));
            prop_assert!(agree(&text), "{:?}", text);
        }

        /// Anything that opens with `[`: the fast path answers only as the general reading
        /// does.
        #[test]
        fn any_annotation_agrees(
            pieces in prop::collection::vec(prop::sample::select(PIECES), 0..14),
            after in prop::sample::select(&["", " 1-0", " b7> [A1] 2. A6< * and some more text"][..]),
        ) {
            let text = format!("[{}{after}", pieces.concat());
            agree(&text);
        }
    }
}
