//! Movetext: moves, move numbers, NAGs, annotations, comments and variations up to the result.

use super::fast::Run;
use super::{shown, Parser};
use crate::ast::{sp, GameResult, MoveNumber, MoveToken, Nag};
use crate::error::{SyntaxCode, SyntaxError};
use crate::lexical::{
    annotation_item, fast_annotation_item, glyph_word, is_delim, is_tag_start, is_ws,
    looks_like_move, move_number, move_word, nag_number, word_end,
};
use crate::span::{Span, Spanned};
use crate::visit::Visitor;

/// The `discard` depth that skips the rest of a game (past the ply limit): no number of `)`
/// brings it back to 0.
pub(super) const SKIP_REST: usize = usize::MAX / 2;
/// The deepest nesting of variations accepted.
pub const MAX_VARIATION_DEPTH: usize = 64;
/// What the parser keeps of the last element of an open line: enough to attach NAGs and an
/// annotation to a move, and to report them where there is none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Last {
    Nothing,
    Move { annotated: bool },
    Other,
}

/// An open line (the main line, or a variation opened at `open`), as the parser sees it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    open: usize,
    has_move: bool,
    last: Last,
}

impl Frame {
    pub(super) fn new(open: usize) -> Frame {
        Frame {
            open,
            has_move: false,
            last: Last::Nothing,
        }
    }
}
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

/// Gives `v` a move read from `start..we` (the token up to `token_end`, then its glyph) and
/// notes it as the last element of the innermost open line.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn give_move<V: Visitor>(
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
