//! Reading a record without building it: the parser's events, and the builder of the record
//! model, which is one receiver of them.

use bao_core::NeverEnding;

use crate::ast::{
    Annotation, AnnotationItem, Comment, CommentKind, Element, Game, GameResult, MoveItem,
    MoveNumber, MoveToken, Nag, Tag,
};
use crate::error::SyntaxError;
use crate::span::{Span, Spanned};

/// Receives what the parser reads, in text order, without a record being built: the way to
/// scan large files when the tree is not needed (counting games, indexing tags, extracting
/// moves). Every method has an empty default, so a visitor implements only what it uses.
///
/// The events are exactly what [`parse_record`](crate::parse_record) builds its
/// [`Record`](crate::Record) from (that builder is itself a visitor): for each game,
/// [`begin_game`](Visitor::begin_game), then its comments before the tags and its tags,
/// then the movetext (moves, NAGs and annotations after the move they belong to, comments,
/// variations as a pair of events around their contents), then
/// [`end_game`](Visitor::end_game). Borrowed text lives only during the call.
///
/// Spans point into the text given by the last [`text`](Visitor::text) call: the whole
/// input for [`visit_record`](crate::visit_record), each chunk (normally one game) for
/// [`visit_reader`](crate::visit_reader). Syntax diagnostics are given to
/// [`syntax_error`](Visitor::syntax_error) after the events of the chunk they were found
/// in, in text order; a game keeps its events even when it has errors (the parser recovers
/// as it does for `parse_record`).
pub trait Visitor {
    /// The text the spans of the following events point into, and its byte offset in the
    /// input.
    fn text(&mut self, _text: &str, _offset: u64) {}

    /// A game starts at byte `start`.
    fn begin_game(&mut self, _start: usize) {}

    /// A comment before or between the tag pairs.
    fn game_comment(&mut self, _kind: CommentKind, _text: &str, _span: Span) {}

    /// A tag pair: its name (known tags in their canonical spelling), its value with the
    /// escapes removed (the span covers the quoted string), and the span of the pair.
    fn tag(&mut self, _name: Spanned<&str>, _value: Spanned<&str>, _span: Span) {}

    /// A comment in the movetext.
    fn comment(&mut self, _kind: CommentKind, _text: &str, _span: Span) {}

    /// A move, with its move number if one was written right before it.
    fn move_token(&mut self, _number: Option<Spanned<MoveNumber>>, _token: Spanned<MoveToken>) {}

    /// A NAG (or a glyph such as `!?`) of the move just given.
    fn nag(&mut self, _nag: Spanned<Nag>) {}

    /// The lap/capture annotation `[...]` of the move just given (once per move): its items
    /// and its cycle item (`cycle:L+P`, written last, for a move that never ends).
    fn annotation(
        &mut self,
        _items: &[Spanned<AnnotationItem>],
        _cycle: Option<Spanned<NeverEnding>>,
        _span: Span,
    ) {
    }

    /// A variation opens at byte `open` (its `(`): the events up to the matching
    /// [`end_variation`](Visitor::end_variation) are its contents.
    fn begin_variation(&mut self, _open: usize) {}

    /// The innermost open variation ends; `span` covers it from `(` to `)` (to the last
    /// thing read, for a variation never closed).
    fn end_variation(&mut self, _span: Span) {}

    /// The game ends: its span, and its result (`None` when it is missing).
    fn end_game(&mut self, _span: Span, _result: Option<Spanned<GameResult>>) {}

    /// A syntax diagnostic (error or warning).
    fn syntax_error(&mut self, _error: SyntaxError) {}
}

/// The visitor that builds the record model.
#[derive(Debug, Default)]
pub(crate) struct RecordBuilder {
    /// The games built so far.
    pub(crate) games: Vec<Spanned<Game>>,
    /// The diagnostics given so far.
    pub(crate) errors: Vec<SyntaxError>,
    game: Game,
    /// The innermost open line (the main line when no variation is open).
    line: Vec<Spanned<Element>>,
    /// The lines around it, innermost last.
    outer: Vec<Vec<Spanned<Element>>>,
    /// The sizes of the last game's lists, so that the next game's start with about the room
    /// they need instead of growing from nothing (a list given too much is shrunk in place).
    tags_hint: usize,
    elems_hint: usize,
    /// The room the main line of the next game is expected to need, read from the text of
    /// its chunk ([`RecordBuilder::expect_chunk`]); taken by the game that begins next.
    chunk_hint: Option<usize>,
}

impl RecordBuilder {
    /// Notes the text of the chunk about to be parsed, so that the main line of its (first)
    /// game starts with about the room it needs: two moves a move number, the last one
    /// written near the end of the chunk. Growing the list instead copies it, up to about
    /// as many bytes again as it ends with, and games follow each other with lines of any
    /// length.
    pub(crate) fn expect_chunk(&mut self, chunk: &str) {
        self.chunk_hint = last_move_number(chunk.as_bytes()).map(|n| {
            // Two plies a number, an eighth more for comments, and a little room for the
            // moves after the last number.
            let plies = 2 * n as usize;
            plies + plies / 8 + 4
        });
    }

    /// The move the last element of the innermost line is, if it is one.
    fn last_move(&mut self) -> Option<(&mut MoveItem, &mut Span)> {
        match self.line.last_mut() {
            Some(Spanned {
                value: Element::Move(m),
                span,
            }) => Some((m, span)),
            _ => None,
        }
    }
}

impl Visitor for RecordBuilder {
    fn begin_game(&mut self, _start: usize) {
        self.game = Game::default();
        self.outer.clear();
        let room = self.chunk_hint.take().unwrap_or(self.elems_hint);
        self.line = Vec::with_capacity(room);
    }

    fn game_comment(&mut self, kind: CommentKind, text: &str, span: Span) {
        self.game.comments.push(Spanned::new(
            Comment {
                kind,
                text: text.to_owned(),
            },
            span,
        ));
    }

    fn tag(&mut self, name: Spanned<&str>, value: Spanned<&str>, span: Span) {
        if self.game.tags.capacity() == 0 {
            self.game.tags.reserve_exact(self.tags_hint);
        }
        self.game.tags.push(Spanned::new(
            Tag {
                name: Spanned::new(name.value.to_owned(), name.span),
                value: Spanned::new(value.value.to_owned(), value.span),
            },
            span,
        ));
    }

    fn comment(&mut self, kind: CommentKind, text: &str, span: Span) {
        let comment = Comment {
            kind,
            text: text.to_owned(),
        };
        self.line
            .push(Spanned::new(Element::Comment(comment), span));
    }

    #[inline]
    fn move_token(&mut self, number: Option<Spanned<MoveNumber>>, token: Spanned<MoveToken>) {
        // Room first, so that the item is built where it is stored.
        self.line.reserve(1);
        let start = number.as_ref().map_or(token.span.start, |n| n.span.start);
        let end = token.span.end;
        self.line.push(Spanned {
            value: Element::Move(MoveItem {
                number,
                token,
                nags: Vec::new(),
                annotation: None,
            }),
            span: Span { start, end },
        });
    }

    fn nag(&mut self, nag: Spanned<Nag>) {
        if let Some((m, span)) = self.last_move() {
            span.end = span.end.max(nag.span.end);
            m.nags.push(nag);
        }
    }

    fn annotation(
        &mut self,
        items: &[Spanned<AnnotationItem>],
        cycle: Option<Spanned<NeverEnding>>,
        span: Span,
    ) {
        if let Some((m, _)) = self.last_move() {
            // One copy of the whole list (`to_vec` copies item by item).
            let mut list = Vec::with_capacity(items.len());
            list.extend(items.iter().copied());
            m.annotation = Some(Spanned::new(Annotation { items: list, cycle }, span));
        }
    }

    fn begin_variation(&mut self, _open: usize) {
        self.outer.push(std::mem::take(&mut self.line));
    }

    fn end_variation(&mut self, span: Span) {
        if let Some(parent) = self.outer.pop() {
            let elems = std::mem::replace(&mut self.line, parent);
            self.line
                .push(Spanned::new(Element::Variation(elems), span));
        }
    }

    fn end_game(&mut self, span: Span, result: Option<Spanned<GameResult>>) {
        // The parser closes every variation it opens; should one be left, its moves still
        // belong to the main line's last variation.
        while !self.outer.is_empty() {
            self.end_variation(span);
        }
        let mut root = std::mem::take(&mut self.line);
        // A little more than the last game had, so that most games do not grow their list.
        self.elems_hint = root.len() + root.len() / 4;
        root.shrink_to_fit();
        let mut game = std::mem::take(&mut self.game);
        if !game.tags.is_empty() {
            self.tags_hint = game.tags.len();
            game.tags.shrink_to_fit();
        }
        game.movetext = root;
        game.result = result;
        self.games.push(Spanned::new(game, span));
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        self.errors.push(error);
    }
}

/// The last move number (`12.` or `12...`, after a blank or at the start) in the last 256
/// bytes of `text`, if there is one: a guess at the length of the game that ends there.
fn last_move_number(text: &[u8]) -> Option<u32> {
    let tail = &text[text.len().saturating_sub(256)..];
    let mut end = tail.len();
    // From the last `.` back: the digits before it, and a blank (or the start) before them.
    while let Some(dot) = memchr::memrchr(b'.', &tail[..end]) {
        let digits = tail[..dot]
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let from = dot - digits;
        if digits > 0 && digits <= 4 && (from == 0 || crate::lexical::is_ws(tail[from - 1])) {
            return tail[from..dot]
                .iter()
                .try_fold(0u32, |n, &d| Some(n * 10 + u32::from(d - b'0')));
        }
        end = from.max(1) - 1;
        if from == 0 {
            break;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::last_move_number;

    #[test]
    fn last_move_numbers() {
        let n = |t: &str| last_move_number(t.as_bytes());
        assert_eq!(n("1. A6< a5> 2. B2< 1-0"), Some(2));
        assert_eq!(n("73. A6L a5R 74. A6L\na3R 0-1\n"), Some(74));
        assert_eq!(n("12... a5> {a comment.} *"), Some(12));
        // A guess: a number in a comment is taken too.
        assert_eq!(n("12. a5> {see 3.}"), Some(3));
        assert_eq!(n("A6< a5> 1/2-1/2"), None);
        assert_eq!(n("x12. A6<"), None);
        assert_eq!(n("12345. A6<"), None);
        assert_eq!(n("9. A6<"), Some(9));
        assert_eq!(n(""), None);
        assert_eq!(n("."), None);
        assert_eq!(n(". ."), None);
    }
}
