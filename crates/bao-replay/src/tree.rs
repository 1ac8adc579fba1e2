//! The document: a game and its replay as one tree, the one every surface walks.
//!
//! A [`Document`] joins a parsed [`Game`] to its [`ReplayedGame`] once, here, so that no
//! consumer joins them again by element index, span or string. Its lines are [`Line`]s of
//! [`Node`]s: a [`MoveNode`] holds what was written (the [`MoveItem`]: its number, token,
//! NAGs and annotation, with their spans, and, given the text, the exact source text and its
//! [`Notation`]) and what the replay found (its plies: the position before, the move played
//! or the typed problem, the trace); comments and variations are nodes of the same tree, a
//! variation a [`Line`] replayed from its branch point.
//!
//! The document borrows both halves, so a stream of games can replay and walk one game at a
//! time and drop it: it costs nothing beyond the game and its replay.
//!
//! ```
//! use bao_notation::parse_record;
//! use bao_replay::{replay_game, Document, Node};
//!
//! let text = "1. A7R* a7L* (1... a2R*) 2. A5L a6L* *\n";
//! let parsed = parse_record(text);
//! let game = &parsed.record.games[0].value;
//! let replay = replay_game(game, None);
//! let doc = Document::new(game, &replay).with_text(text);
//! let mut written = Vec::new();
//! for node in doc.main().nodes() {
//!     match node {
//!         Node::Move(m) => written.push(m.text().unwrap().to_owned()),
//!         Node::Variation(v) => written.push(format!("({} moves)", v.moves().count())),
//!         Node::Comment(..) => {}
//!     }
//! }
//! assert_eq!(written, ["A7R*", "a7L*", "(1 moves)", "A5L", "a6L*"]);
//! // The ply at an offset, and the source text of a ply: one place answers both.
//! let at = doc.move_at(text.find("A5L").unwrap() + 1).unwrap();
//! assert_eq!(at.ply().unwrap().number, 3);
//! assert!(doc.notation().kiba);
//! ```

use bao_core::{Move, Outcome, Position};
use bao_notation::{
    Comment, Directions, Element, Game, MoveItem, MoveNumber, MoveToken, Notation, Span, Spanned,
};

use crate::model::{LineEnd, Opening, Played, Ply, ReplayedGame, ReplayedLine, Source};
use crate::read::written_spec;

/// A game and its replay, walked as one tree.
#[derive(Debug, Clone, Copy)]
pub struct Document<'a> {
    game: &'a Game,
    replay: Option<&'a ReplayedGame>,
    text: Option<&'a str>,
}

impl<'a> Document<'a> {
    /// The document of `game` and its replay (`replay_game(game, ..)`).
    #[must_use]
    pub const fn new(game: &'a Game, replay: &'a ReplayedGame) -> Self {
        Self {
            game,
            replay: Some(replay),
            text: None,
        }
    }

    /// The document of a game not replayed: its tree as written, every line without plies
    /// (for what reads the syntax alone: folding, highlighting, an outline).
    #[must_use]
    pub const fn unreplayed(game: &'a Game) -> Self {
        Self {
            game,
            replay: None,
            text: None,
        }
    }

    /// The same document with the text its spans point into, so that its moves give their
    /// source text and the record's notation can be read.
    #[must_use]
    pub const fn with_text(self, text: &'a str) -> Self {
        Self {
            text: Some(text),
            ..self
        }
    }

    /// The game as parsed.
    #[must_use]
    pub const fn game(&self) -> &'a Game {
        self.game
    }

    /// The game as replayed (`None` for a document [`Document::unreplayed`]).
    #[must_use]
    pub const fn replay(&self) -> Option<&'a ReplayedGame> {
        self.replay
    }

    /// The text the spans point into, when given.
    #[must_use]
    pub const fn text(&self) -> Option<&'a str> {
        self.text
    }

    /// The rules, start position and sign convention, when the tags give them.
    #[must_use]
    pub fn opening(&self) -> Option<&'a Opening> {
        self.replay?.opening()
    }

    /// The main line.
    #[must_use]
    pub fn main(&self) -> Line<'a> {
        let opening = self.opening();
        Line {
            elems: &self.game.movetext,
            replayed: self.replay.filter(|_| opening.is_some()).map(|r| &r.main),
            start: opening.map(|o| &o.start),
            span: None,
            text: self.text,
            depth: 0,
        }
    }

    /// Every node of the game in text order, depth first: a variation's node, then its
    /// nodes, then those after it.
    #[must_use]
    pub fn walk(&self) -> Walk<'a> {
        Walk {
            stack: vec![self.main().nodes()],
        }
    }

    /// Every move of the game, in text order: the main line's, each variation's after the
    /// move it follows.
    pub fn moves(&self) -> impl Iterator<Item = MoveNode<'a>> {
        self.walk().filter_map(|n| match n {
            Node::Move(m) => Some(m),
            _ => None,
        })
    }

    /// The move whose token holds byte `offset` (its end included), in any line.
    #[must_use]
    pub fn move_at(&self, offset: usize) -> Option<MoveNode<'a>> {
        self.moves()
            .find(|m| m.token_span().start <= offset && offset <= m.token_span().end)
    }

    /// The move whose token is written at `token`, in any line.
    #[must_use]
    pub fn move_of(&self, token: Span) -> Option<MoveNode<'a>> {
        self.moves().find(|m| m.token_span() == token)
    }

    /// The move a ply was read from (the token written there; a ply assumed in place of a
    /// refused token is read from that token).
    #[must_use]
    pub fn move_of_ply(&self, ply: &Ply) -> Option<MoveNode<'a>> {
        self.moves()
            .find(|m| m.plies().any(|p| std::ptr::eq(p, ply)))
    }

    /// Where a move written at byte `at` would be played: the position, and the token it
    /// would replace when `at` is on one. `None` when the line holding `at` is broken
    /// before it (a refused move) or did not replay.
    #[must_use]
    pub fn position_at(&self, at: usize) -> Option<(Position, Option<Span>)> {
        let mut line = self.main();
        'descend: loop {
            for node in line.nodes() {
                if let Node::Variation(v) = node {
                    let s = v.span.unwrap_or_default();
                    if s.start < at && at < s.end {
                        line = v;
                        continue 'descend;
                    }
                }
            }
            break;
        }
        let start = line.start?;
        let mut before = Some(*start);
        for m in line.moves() {
            let token = m.token_span();
            if token.start <= at && at <= token.end {
                return m.ply().map(|p| (p.before, Some(token)));
            }
            if token.end >= at {
                break;
            }
            before = match m.plies().last() {
                Some(p) => p.played().map(|pl| pl.after),
                None => None,
            };
        }
        before.map(|p| (p, None))
    }

    /// The notation the record is written in, read from its move tokens (the text is
    /// needed: without it, the canonical notation).
    #[must_use]
    pub fn notation(&self) -> Notation {
        let Some(text) = self.text else {
            return Notation::CANONICAL;
        };
        Notation::of_tokens(
            self.moves()
                .filter_map(|m| text.get(m.token_span().range())),
        )
    }

    /// A move as the record would write it, played from `before`: its sign in the record's
    /// convention (`Directions`) and letters (`L`/`R` in a K.I.B.A. record), and the `*` and
    /// `+` marks only where the record writes them or the move needs them to be read back
    /// as itself.
    #[must_use]
    pub fn spell(&self, mv: &Move, before: &Position) -> String {
        let directions = self.opening().map_or(Directions::Mover, |o| o.directions);
        spell(mv, before, directions, self.notation())
    }
}

/// A move as a record of `notation` written under `directions` writes it, played from
/// `before` (see [`Document::spell`]).
#[must_use]
pub fn spell(mv: &Move, before: &Position, directions: Directions, notation: Notation) -> String {
    notation.write_token(&spell_token(mv, before, directions, notation))
}

/// The token [`spell`] writes (its sign as `directions` writes it, its `*` left out where
/// `notation` leaves it out and the position reads the token back as the same move), for a
/// writer that adds it to a parsed game; the K.I.B.A. letters are the text writer's.
#[must_use]
pub fn spell_token(
    mv: &Move,
    before: &Position,
    directions: Directions,
    notation: Notation,
) -> MoveToken {
    let mut token = MoveToken::from(*mv);
    token.sign = Some(directions.written_sign(mv, before));
    if !notation.stars && token.takasa {
        // Left out where the position reads the token back as the same move.
        let mut bare = token;
        bare.takasa = false;
        let item = MoveItem::new(bare);
        let reads = written_spec(before, &item, directions)
            .ok()
            .and_then(|spec| before.resolve(&spec).ok());
        if reads == Some(*mv) {
            token = bare;
        }
    }
    token
}

/// A line of the document: the main line, or a variation from its branch point.
#[derive(Debug, Clone, Copy)]
pub struct Line<'a> {
    elems: &'a [Spanned<Element>],
    replayed: Option<&'a ReplayedLine>,
    start: Option<&'a Position>,
    span: Option<Span>,
    text: Option<&'a str>,
    depth: usize,
}

impl<'a> Line<'a> {
    /// The nodes of the line, in text order.
    #[must_use]
    pub fn nodes(&self) -> Nodes<'a> {
        Nodes {
            line: *self,
            next: 0,
            moves: 0,
            ply: 0,
            last_move: None,
        }
    }

    /// The moves written in this line (not in its variations), in order.
    pub fn moves(&self) -> impl Iterator<Item = MoveNode<'a>> {
        self.nodes().filter_map(|n| match n {
            Node::Move(m) => Some(m),
            _ => None,
        })
    }

    /// The comments before the line's first move.
    pub fn comments_before(&self) -> impl Iterator<Item = &'a Comment> {
        comments_from(self.elems, 0)
    }

    /// The line as replayed; `None` when it was not (the game's opening failed, or a
    /// variation with no move before it).
    #[must_use]
    pub const fn replayed(&self) -> Option<&'a ReplayedLine> {
        self.replayed
    }

    /// The position before the line's first move, when the line was replayed.
    #[must_use]
    pub fn start(&self) -> Option<Position> {
        self.start.copied()
    }

    /// The span of a variation, from `(` to `)`; `None` for the main line.
    #[must_use]
    pub const fn span(&self) -> Option<Span> {
        self.span
    }

    /// Whether this is the game's main line.
    #[must_use]
    pub const fn is_main(&self) -> bool {
        self.depth == 0
    }

    /// How deep the line is nested: 0 for the main line, 1 for its variations, ...
    #[must_use]
    pub const fn depth(&self) -> usize {
        self.depth
    }

    /// The outcome at the end of the line when it replayed to its end without an assumed
    /// repair: `Some(None)` when the game goes on there.
    #[must_use]
    pub fn outcome(&self) -> Option<Option<Outcome>> {
        match self.replayed?.end {
            LineEnd::Complete { outcome, .. } => Some(outcome),
            LineEnd::Stopped => None,
        }
    }

    /// The index into the line's plies of its `k`-th ply in text order.
    fn ply_index(&self, k: usize) -> Option<usize> {
        let line = self.replayed?;
        match &line.order {
            Some(order) => order.get(k).map(|&i| i as usize),
            None => (k < line.plies.len()).then_some(k),
        }
    }
}

/// A node of a [`Line`].
#[derive(Debug, Clone, Copy)]
pub enum Node<'a> {
    /// A move, as written and as replayed.
    Move(MoveNode<'a>),
    /// A `{...}` or `;...` comment, and its span.
    Comment(&'a Comment, Span),
    /// A variation: an alternative to the move before it.
    Variation(Line<'a>),
}

/// Iterates over the nodes of a line.
#[derive(Debug, Clone)]
pub struct Nodes<'a> {
    line: Line<'a>,
    /// The next element.
    next: usize,
    /// Moves met so far.
    moves: usize,
    /// Plies (in text order) taken so far.
    ply: usize,
    /// The plies of the last move met: the first in text order and how many.
    last_move: Option<(usize, usize)>,
}

impl<'a> Iterator for Nodes<'a> {
    type Item = Node<'a>;

    fn next(&mut self) -> Option<Node<'a>> {
        let line = self.line;
        let i = self.next;
        let e = line.elems.get(i)?;
        self.next += 1;
        Some(match &e.value {
            Element::Comment(c) => Node::Comment(c, e.span),
            Element::Move(item) => {
                // The plies read from this element: the next ones in text order.
                let first = self.ply;
                let mut count = 0;
                while let Some(p) = line.ply_index(self.ply + count) {
                    let ply = &line.replayed.expect("indexed").plies[p];
                    if ply.element != i {
                        break;
                    }
                    count += 1;
                }
                self.ply += count;
                self.last_move = Some((first, count));
                let index = self.moves;
                self.moves += 1;
                Node::Move(MoveNode {
                    written: item,
                    span: e.span,
                    element: i,
                    index,
                    line,
                    plies: (first, count),
                })
            }
            Element::Variation(v) => {
                let replayed = self.variation_line(i);
                Node::Variation(Line {
                    elems: v,
                    replayed: replayed.map(|r| r.1),
                    start: replayed.map(|r| r.0),
                    span: Some(e.span),
                    text: line.text,
                    depth: line.depth + 1,
                })
            }
        })
    }
}

impl<'a> Nodes<'a> {
    /// The replayed line of the variation at element `i`, and the position it starts from.
    fn variation_line(&self, i: usize) -> Option<(&'a Position, &'a ReplayedLine)> {
        let line = self.line;
        let plies = &line.replayed?.plies;
        let find = |p: &'a Ply| {
            p.variations
                .iter()
                .find(|v| v.element == i)
                .map(|v| (&p.before, &v.line))
        };
        // The branch ply is one read from the last move; else look through the line.
        let (first, count) = self.last_move?;
        (first..first + count)
            .filter_map(|k| line.ply_index(k))
            .find_map(|p| find(&plies[p]))
            .or_else(|| plies.iter().find_map(find))
    }
}

/// A move of the document: as written and as replayed.
#[derive(Debug, Clone, Copy)]
pub struct MoveNode<'a> {
    written: &'a MoveItem,
    span: Span,
    element: usize,
    index: usize,
    line: Line<'a>,
    /// Its plies: the first in text order and how many.
    plies: (usize, usize),
}

impl<'a> MoveNode<'a> {
    /// What was written: the move number, token, NAGs and annotation, with their spans.
    #[must_use]
    pub const fn written(&self) -> &'a MoveItem {
        self.written
    }

    /// The move number written before it, if any.
    #[must_use]
    pub fn number(&self) -> Option<Spanned<MoveNumber>> {
        self.written.number
    }

    /// The span of the move token.
    #[must_use]
    pub const fn token_span(&self) -> Span {
        self.written.token.span
    }

    /// The span of the whole item: its number (if written), token, NAGs and annotation.
    #[must_use]
    pub const fn span(&self) -> Span {
        self.span
    }

    /// The span of the item after its number: the token, its NAGs and its annotation.
    #[must_use]
    pub fn extent(&self) -> Span {
        let m = self.written;
        let end = m
            .nags
            .iter()
            .map(|n| n.span.end)
            .chain(m.annotation.iter().map(|a| a.span.end))
            .fold(m.token.span.end, usize::max);
        Span::new(m.token.span.start, end)
    }

    /// The token's exact source text, when the document has its text.
    #[must_use]
    pub fn text(&self) -> Option<&'a str> {
        self.line.text?.get(self.token_span().range())
    }

    /// The notation the token is written in (canonical without the text).
    #[must_use]
    pub fn notation(&self) -> Notation {
        self.text()
            .map_or(Notation::CANONICAL, |t| Notation::of_tokens([t]))
    }

    /// The move's index among the moves of its line (from 0).
    #[must_use]
    pub const fn index(&self) -> usize {
        self.index
    }

    /// The line the move is written in.
    #[must_use]
    pub const fn line(&self) -> Line<'a> {
        self.line
    }

    /// Every ply read from this token, in the order read: none when the line stopped
    /// before it; one usually; a repair assumed here adds the ply it inserts or plays in
    /// its place.
    pub fn plies(&self) -> impl Iterator<Item = &'a Ply> + use<'a> {
        let line = self.line;
        let (first, count) = self.plies;
        (first..first + count).filter_map(move |k| {
            line.ply_index(k)
                .and_then(|p| line.replayed.and_then(|r| r.plies.get(p)))
        })
    }

    /// The ply read from the token as written: the move played from it, or the refusal.
    #[must_use]
    pub fn ply(&self) -> Option<&'a Ply> {
        self.plies()
            .find(|p| p.played().is_some_and(|pl| pl.source == Source::Written))
            .or_else(|| self.plies().find(|p| p.played().is_none()))
    }

    /// The ply played from the token as written, and its move.
    #[must_use]
    pub fn played(&self) -> Option<(&'a Ply, &'a Played)> {
        self.plies().find_map(|p| {
            p.played()
                .filter(|pl| pl.source == Source::Written)
                .map(|pl| (p, pl))
        })
    }

    /// The move written `distance` moves after this one in the same line (1: the next).
    #[must_use]
    pub fn following(&self, distance: usize) -> Option<Self> {
        let line = self.line;
        line.moves().nth(self.index.checked_add(distance)?)
    }

    /// The comments after the move up to the next move of its line (those after its
    /// variations included).
    pub fn comments_after(&self) -> impl Iterator<Item = &'a Comment> {
        comments_from(self.line.elems, self.element + 1)
    }

    /// The variations written after the move (before the next move of its line), in order.
    pub fn variations(&self) -> impl Iterator<Item = Line<'a>> {
        let mut nodes = self.line.nodes();
        // Walk up to this move, so that the variations after it find their branch.
        for _ in 0..=self.element {
            nodes.next();
        }
        nodes
            .take_while(|n| !matches!(n, Node::Move(_)))
            .filter_map(|n| match n {
                Node::Variation(v) => Some(v),
                _ => None,
            })
    }
}

/// Every node of a document in text order, depth first ([`Document::walk`]).
#[derive(Debug, Clone)]
pub struct Walk<'a> {
    stack: Vec<Nodes<'a>>,
}

impl<'a> Iterator for Walk<'a> {
    type Item = Node<'a>;

    fn next(&mut self) -> Option<Node<'a>> {
        loop {
            let nodes = self.stack.last_mut()?;
            match nodes.next() {
                None => {
                    self.stack.pop();
                }
                Some(node) => {
                    if let Node::Variation(v) = node {
                        self.stack.push(v.nodes());
                    }
                    return Some(node);
                }
            }
        }
    }
}

/// The comments from element `from` up to the next move.
fn comments_from(elems: &[Spanned<Element>], from: usize) -> impl Iterator<Item = &Comment> {
    elems
        .get(from..)
        .unwrap_or(&[])
        .iter()
        .take_while(|e| !matches!(e.value, Element::Move(_)))
        .filter_map(|e| match &e.value {
            Element::Comment(c) => Some(c),
            _ => None,
        })
}
