//! The canonical writer and the canonical form of a record.
//!
//! Canonical form: tags in [`KNOWN_TAGS`] order (others after them, in their order), move
//! numbers recomputed (`12.` before every South move, `12...` before a North move that
//! follows a comment or a variation or opens a line), one space between tokens, lines of at
//! most [`WriteOptions::width`] columns where tokens allow it, a blank line after the header
//! and between games, LF line ends. Comments, NAGs, variations and annotations are kept.

use std::fmt;

use bao_core::Side;

use crate::ast::{Comment, CommentKind, Element, Game, GameResult, MoveItem, MoveNumber, Record};
use crate::grammar::KNOWN_TAGS;
use crate::position_string::PositionString;
use crate::span::Spanned;

/// Writer settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOptions {
    /// The line width the movetext is wrapped to.
    pub width: usize,
    /// Signs written with the K.I.B.A. letters `L`/`R` instead of `<`/`>` (see
    /// [`Notation`](crate::Notation); `*` marks are the tokens' own).
    pub kiba: bool,
}

impl Default for WriteOptions {
    fn default() -> Self {
        Self {
            width: 80,
            kiba: false,
        }
    }
}

/// Writes a record in canonical form.
#[must_use]
pub fn write_record(record: &Record, options: &WriteOptions) -> String {
    let mut writer = RecordWriter::new(*options);
    let mut out = String::new();
    for g in &record.games {
        writer.game(g.clone(), &mut out);
    }
    writer.finish(&mut out);
    out
}

/// Writes a record game by game, as [`write_record`] writes it whole (the same text, in
/// pieces): for a record too large to hold, read and written one game at a time.
#[derive(Debug, Clone, Default)]
pub struct RecordWriter {
    options: WriteOptions,
    carry: Carry,
    written: usize,
}

impl RecordWriter {
    /// A writer with these settings.
    #[must_use]
    pub fn new(options: WriteOptions) -> Self {
        Self {
            options,
            carry: Carry::default(),
            written: 0,
        }
    }

    /// Appends the next game of the record to `out`, in canonical form. A game of nothing
    /// but comments writes nothing: its comments are written with the next game.
    pub fn game(&mut self, mut game: Spanned<Game>, out: &mut String) {
        game.value.canonicalize();
        if let Some(g) = self.carry.game(game) {
            self.write(&g.value, out);
        }
    }

    /// Appends what is left at the end of the record to `out`: the comments after its last
    /// game, if any.
    pub fn finish(mut self, out: &mut String) {
        if let Some(g) = std::mem::take(&mut self.carry).finish() {
            self.write(&g.value, out);
        }
    }

    fn write(&mut self, game: &Game, out: &mut String) {
        if self.written > 0 {
            out.push('\n');
        }
        self.written += 1;
        write_game_into(game, &self.options, out);
    }
}

/// The comments of comment-only games, on their way to the next game (canonical form).
#[derive(Debug, Clone, Default)]
struct Carry(Vec<Spanned<Comment>>);

impl Carry {
    /// A game in canonical form, with the comments carried to it; `None` when it has nothing
    /// but comments (they are carried on).
    fn game(&mut self, mut g: Spanned<Game>) -> Option<Spanned<Game>> {
        if !self.0.is_empty() {
            self.0.append(&mut g.value.comments);
            g.value.comments = std::mem::take(&mut self.0);
        }
        let v = &g.value;
        if v.tags.is_empty() && v.movetext.is_empty() && v.result.is_none() {
            self.0.append(&mut g.value.comments);
            return None;
        }
        Some(g)
    }

    /// The comments left at the end, as a game of their own.
    fn finish(self) -> Option<Spanned<Game>> {
        if self.0.is_empty() {
            return None;
        }
        let span = self
            .0
            .iter()
            .map(|c| c.span)
            .reduce(crate::span::Span::join);
        Some(Spanned::new(
            Game {
                comments: self.0,
                ..Game::default()
            },
            span.unwrap_or_default(),
        ))
    }
}

/// Writes one game in canonical form.
#[must_use]
pub fn write_game(game: &Game, options: &WriteOptions) -> String {
    let mut game = game.clone();
    game.canonicalize();
    let mut out = String::new();
    write_game_into(&game, options, &mut out);
    out
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_record(self, &WriteOptions::default()))
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_game(self, &WriteOptions::default()))
    }
}

pub(crate) fn tag_rank(name: &str) -> usize {
    KNOWN_TAGS
        .iter()
        .position(|k| *k == name)
        .unwrap_or(KNOWN_TAGS.len())
}

impl Record {
    /// Puts every game in canonical form (what the writer writes). A game of nothing but
    /// comments before another game gives its comments to that game.
    pub fn canonicalize(&mut self) {
        let mut carry = Carry::default();
        let mut games = Vec::with_capacity(self.games.len());
        for mut g in std::mem::take(&mut self.games) {
            g.value.canonicalize();
            games.extend(carry.game(g));
        }
        games.extend(carry.finish());
        self.games = games;
    }
}

impl Game {
    /// Puts the game in canonical form: tags sorted, move numbers recomputed.
    pub fn canonicalize(&mut self) {
        self.tags.sort_by_key(|t| tag_rank(&t.value.name.value));
        if self.tags.is_empty() {
            // Without tags, comments before the first move are read as the game's leading
            // comments.
            let lead = self
                .movetext
                .iter()
                .take_while(|e| matches!(e.value, Element::Comment(_)))
                .count();
            for e in self.movetext.drain(..lead) {
                if let Element::Comment(c) = e.value {
                    self.comments.push(Spanned::new(c, e.span));
                }
            }
        }
        let (first_number, first_side) = first_numbering(self);
        number_line(&mut self.movetext, first_number, first_side);
    }
}

/// The game's movetext with the move numbers the canonical writer gives it (for a writer
/// that inserts moves into a text: the numbers of the moves it writes).
pub(crate) fn numbered_movetext(game: &Game) -> Vec<Spanned<Element>> {
    let mut elems = game.movetext.clone();
    let (first_number, first_side) = first_numbering(game);
    number_line(&mut elems, first_number, first_side);
    elems
}

/// The number of the game's first move (as written, else 1) and the side that plays it
/// (its `Position`'s side to move, else South).
fn first_numbering(game: &Game) -> (u32, Side) {
    let number = game
        .movetext
        .iter()
        .find_map(|e| match &e.value {
            Element::Move(m) => Some(m.number.as_ref().map_or(1, |n| n.value.number)),
            _ => None,
        })
        .unwrap_or(1);
    let side = game
        .tag("Position")
        .and_then(|v| v.value.parse::<PositionString>().ok())
        .map_or(Side::South, |p| p.to_move);
    (number, side)
}

fn number_line(elems: &mut [Spanned<Element>], mut number: u32, mut side: Side) {
    let mut interrupted = true;
    let mut before = (number, side);
    for e in elems {
        match &mut e.value {
            Element::Move(m) => {
                let mover = m.token.value.pit.side().unwrap_or(side);
                before = (number, mover);
                let n = match mover {
                    Side::South => Some(false),
                    Side::North if interrupted => Some(true),
                    Side::North => None,
                };
                let span = m.number.as_ref().map(|n| n.span).unwrap_or_default();
                m.number = n.map(|ellipsis| Spanned::new(MoveNumber { number, ellipsis }, span));
                if mover == Side::North {
                    number = number.saturating_add(1);
                }
                side = mover.opponent();
                interrupted = false;
            }
            Element::Comment(_) => interrupted = true,
            Element::Variation(v) => {
                number_line(v, before.0, before.1);
                interrupted = true;
            }
        }
    }
}

/// Writes one tag pair as the canonical writer writes it, without a line end:
/// `[Name "value"]`, with `"` and `\` escaped and a line break in the value written as a
/// blank.
pub fn write_tag(name: &str, value: &str, out: &mut String) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for ch in value.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]");
}

/// Writes a game already in canonical form.
fn write_game_into(game: &Game, options: &WriteOptions, out: &mut String) {
    for c in &game.comments {
        write_comment(&c.value, out);
        out.push('\n');
    }
    for t in &game.tags {
        write_tag(&t.value.name.value, &t.value.value.value, out);
        out.push('\n');
    }
    let header = !game.comments.is_empty() || !game.tags.is_empty();
    if game.movetext.is_empty() && game.result.is_none() && game.tags.is_empty() {
        return;
    }
    if header {
        out.push('\n');
    }
    let mut units = Vec::new();
    collect_units(&game.movetext, options, &mut units);
    // A missing result (a syntax error) is written as `*`, unknown.
    let result = game
        .result
        .as_ref()
        .map_or(GameResult::Unknown, |r| r.value);
    units.push(Unit::new(result.as_str().to_owned()));
    layout(&units, options.width, out);
}

fn write_comment(c: &Comment, out: &mut String) {
    match c.kind {
        CommentKind::Brace => {
            out.push('{');
            out.push_str(&c.text);
            out.push('}');
        }
        CommentKind::Line => {
            out.push(';');
            out.push_str(&c.text);
        }
    }
}

pub(crate) struct Unit {
    text: String,
    break_after: bool,
}

impl Unit {
    fn new(text: String) -> Self {
        Self {
            text,
            break_after: false,
        }
    }
}

pub(crate) fn move_text(m: &MoveItem, options: &WriteOptions) -> String {
    let mut s = String::new();
    if let Some(n) = &m.number {
        s.push_str(&n.value.to_string());
        s.push(' ');
    }
    let notation = crate::Notation {
        kiba: options.kiba,
        stars: true,
    };
    s.push_str(&notation.write_token(&m.token.value));
    let mut nags = m.nags.iter().map(|n| n.value).peekable();
    if let Some(g) = nags.peek().and_then(|n| n.glyph()) {
        s.push_str(g);
        nags.next();
    }
    if let Some(a) = &m.annotation {
        s.push(' ');
        s.push_str(&a.value.to_string());
    }
    // A glyph NAG is written as its glyph wherever it stands (`$14 ??`, not `$14 $4`).
    for n in nags {
        s.push(' ');
        match n.glyph() {
            Some(g) => s.push_str(g),
            None => s.push_str(&n.to_string()),
        }
    }
    s
}

pub(crate) fn collect_units(
    elems: &[Spanned<Element>],
    options: &WriteOptions,
    units: &mut Vec<Unit>,
) {
    for e in elems {
        match &e.value {
            Element::Move(m) => units.push(Unit::new(move_text(m, options))),
            Element::Comment(c) => {
                let mut text = String::new();
                write_comment(c, &mut text);
                units.push(Unit {
                    text,
                    break_after: c.kind == CommentKind::Line,
                });
            }
            Element::Variation(v) => {
                let first = units.len();
                collect_units(v, options, units);
                if units.len() == first {
                    units.push(Unit::new("()".to_owned()));
                    continue;
                }
                units[first].text.insert(0, '(');
                match units.last_mut() {
                    Some(last) if !last.break_after => last.text.push(')'),
                    _ => units.push(Unit::new(")".to_owned())),
                }
            }
        }
    }
}

fn layout(units: &[Unit], width: usize, out: &mut String) {
    let col = layout_from(units, width, 0, out);
    if col > 0 {
        out.push('\n');
    }
}

/// `units` laid out as [`layout`] lays them out, from column `col` of a line already
/// begun, after `lead` (a blank or a line end; nothing at the start of a movetext), without
/// a line end after the last: what an edit inserts into a text.
pub(crate) fn layout_inline(
    units: &[Unit],
    width: usize,
    col: usize,
    lead: Option<char>,
    out: &mut String,
) {
    let (col, rest) = match (lead, units.split_first()) {
        (Some('\n'), _) => {
            out.push('\n');
            (0, units)
        }
        // `layout_from` writes the blank (or a line end) itself before a unit at col > 0.
        (Some(_), _) => (col.max(1), units),
        // The first unit where the text begins, without a blank before it.
        (None, Some((first, rest))) => (put(first, col, out), rest),
        (None, None) => (col, units),
    };
    layout_from(rest, width, col, out);
}

/// Lays out `units` from column `col` (a unit at col > 0 gets a blank or a line end
/// before it); returns the column after the last.
fn layout_from(units: &[Unit], width: usize, mut col: usize, out: &mut String) -> usize {
    for u in units {
        let first_line = u.text.split('\n').next().unwrap_or("");
        let first_len = first_line.chars().count();
        if col > 0 {
            if col + 1 + first_len > width {
                out.push('\n');
                col = 0;
            } else {
                out.push(' ');
                col += 1;
            }
        }
        col = put(u, col, out);
    }
    col
}

/// Writes one unit at column `col` (the blank before it written); returns the column after
/// it (0 after a `;` comment, which ends its line).
fn put(u: &Unit, col: usize, out: &mut String) -> usize {
    out.push_str(&u.text);
    if u.break_after {
        out.push('\n');
        return 0;
    }
    match u.text.rfind('\n') {
        Some(p) => u.text[p + 1..].chars().count(),
        None => col + u.text.chars().count(),
    }
}
