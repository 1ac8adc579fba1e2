//! Writing a changed record over the text it was read from: what did not change stays byte
//! for byte as written (layout, comments, move numbers, K.I.B.A. letters, line ends); what
//! changed is written as [`Edit`]s in the record's own notation.
//!
//! For a writer that holds a record in memory and changes it (the recorder and the club
//! server add plies, take them back, set tags and results): instead of writing the record
//! anew in canonical form, it writes the new record *over* the text on disk.

use crate::ast::{CommentKind, Element, Game, Record};
use crate::dialect::Notation;
use crate::edit::{apply_edits, Edit};
use crate::reader::parse_record;
use crate::span::{Span, Spanned};
use crate::writer::{write_game, write_tag, WriteOptions};

impl Notation {
    /// The notation of a record read from `source`: [`Notation::of_tokens`] over the exact
    /// text of every move token of every game (variations included).
    #[must_use]
    pub fn of_record(record: &Record, source: &str) -> Self {
        let mut tokens = Vec::new();
        for g in &record.games {
            g.value.for_each_move_with_ply(|_, m| {
                if let Some(t) = source.get(m.token.span.range()) {
                    tokens.push(t);
                }
            });
        }
        Self::of_tokens(tokens)
    }
}

/// `record` written as a change of `source` (the text its unchanged part was read from).
///
/// Games, tags, moves, comments and the result that are the same in `record` as in the
/// record `source` holds keep their text; the rest is written as the canonical writer
/// writes it, with move tokens in `source`'s notation ([`Notation::of_record`]): a ply added
/// at the end of a game is inserted before its result, a ply taken back loses its text, a
/// changed tag value replaces that tag alone, a new tag follows the last one, a game added
/// at the end is appended after a blank line. Moves are compared without their move
/// numbers (a record in memory numbers its new moves as it likes). A `source` that does not
/// parse, or a game whose header comments changed, is written in canonical form (that game
/// alone when it can).
///
/// ```
/// use bao_notation::{write_record_over, Record, WriteOptions};
///
/// let source = "[Event \"x\"]\n\n1. A6L a6R\n*\n";
/// let mut record: Record = source.parse().unwrap();
/// let more: Record = "[Event \"x\"]\n\n1. A6< a6> 2. A4< *".parse().unwrap();
/// record.games[0].value.movetext.push(more.games[0].value.movetext[2].clone());
/// assert_eq!(
///     write_record_over(source, &record, &WriteOptions::default()),
///     "[Event \"x\"]\n\n1. A6L a6R 2. A4L\n*\n"
/// );
/// ```
#[must_use]
pub fn write_record_over(source: &str, record: &Record, options: &WriteOptions) -> String {
    let parsed = parse_record(source);
    if parsed.has_errors() {
        return crate::writer::write_record(record, options);
    }
    let old = &parsed.record.games;
    let options = WriteOptions {
        kiba: Notation::of_record(&parsed.record, source).kiba,
        ..*options
    };
    let mut edits = Vec::new();
    for i in 0..old.len().max(record.games.len()) {
        match (old.get(i), record.games.get(i)) {
            (Some(o), Some(n)) => game_edits(source, o, &n.value, &options, &mut edits),
            (None, Some(n)) => {
                let mut text = String::new();
                let end = source.trim_end_matches(['\n', '\r']).len();
                if end > 0 {
                    text.push_str(line_end(source));
                    // A blank line between games; comments alone before it stay its own.
                    let comments_alone = old.last().is_some_and(|g| {
                        g.value.tags.is_empty()
                            && g.value.movetext.is_empty()
                            && g.value.result.is_none()
                    });
                    if !comments_alone {
                        text.push_str(line_end(source));
                    }
                }
                text.push_str(write_game(&n.value, &options).trim_end_matches('\n'));
                if end == source.len() || end == 0 {
                    text.push_str(line_end(source));
                }
                // After the old text's last line end, so that the new game keeps it.
                edits.push(Edit::insert(end, text));
            }
            (Some(o), None) => {
                let from = i.checked_sub(1).map_or(0, |p| old[p].span.end);
                edits.push(Edit::replace(Span::new(from, o.span.end), ""));
            }
            (None, None) => {}
        }
    }
    apply_edits(source, &edits)
}

/// The line end `source` uses (LF unless its first line ends in CRLF).
fn line_end(source: &str) -> &'static str {
    match source.find('\n') {
        Some(p) if source[..p].ends_with('\r') => "\r\n",
        _ => "\n",
    }
}

/// The edits that turn the text of game `o` (read from `source`) into game `n`.
fn game_edits(
    source: &str,
    o: &Spanned<Game>,
    n: &Game,
    options: &WriteOptions,
    edits: &mut Vec<Edit>,
) {
    let mut own = Vec::new();
    if o.value.comments != n.comments || !tag_edits(&o.value, n, line_end(source), &mut own) {
        return whole_game(o, n, options, edits);
    }
    match (&o.value.result, &n.result) {
        (Some(a), Some(b)) if a.value == b.value => {}
        (Some(a), Some(b)) => own.push(Edit::replace(a.span, b.value.as_str())),
        (None, None) => {}
        _ => return whole_game(o, n, options, edits),
    }
    if !movetext_edits(source, &o.value, n, options, &mut own) {
        return whole_game(o, n, options, edits);
    }
    edits.append(&mut own);
}

/// Game `o` replaced by `n` in canonical form (in the record's notation).
fn whole_game(o: &Spanned<Game>, n: &Game, options: &WriteOptions, edits: &mut Vec<Edit>) {
    let text = write_game(n, options);
    edits.push(Edit::replace(o.span, text.trim_end_matches('\n')));
}

/// The edits of the tag pairs; `false` when they are not a change of single tags (the game
/// is then written whole).
fn tag_edits(o: &Game, n: &Game, le: &str, edits: &mut Vec<Edit>) -> bool {
    let name = |t: &Spanned<crate::ast::Tag>| t.value.name.value.clone();
    if o.tags.is_empty() {
        return n.tags.is_empty();
    }
    let mut text = String::new();
    for t in &n.tags {
        match o.tags.iter().find(|x| name(x) == name(t)) {
            Some(x) if x.value.value.value == t.value.value.value => {}
            Some(x) => {
                text.clear();
                write_tag(&name(t), &t.value.value.value, &mut text);
                edits.push(Edit::replace(x.span, text.as_str()));
            }
            None => {
                // Where the canonical order puts it among the tags written (before the first
                // that sorts after it), else after the last.
                let rank = crate::writer::tag_rank(&name(t));
                text.clear();
                match o
                    .tags
                    .iter()
                    .find(|x| crate::writer::tag_rank(&name(x)) > rank)
                {
                    Some(x) => {
                        write_tag(&name(t), &t.value.value.value, &mut text);
                        text.push_str(le);
                        edits.push(Edit::insert(x.span.start, text.as_str()));
                    }
                    None => {
                        text.push_str(le);
                        write_tag(&name(t), &t.value.value.value, &mut text);
                        edits.push(Edit::insert(
                            o.tags[o.tags.len() - 1].span.end,
                            text.as_str(),
                        ));
                    }
                }
            }
        }
    }
    let gone: Vec<usize> = (0..o.tags.len())
        .filter(|&i| !n.tags.iter().any(|t| name(t) == name(&o.tags[i])))
        .collect();
    if gone.len() == o.tags.len() && !gone.is_empty() {
        return false;
    }
    for i in gone {
        // From the end of the tag before it (the first tag: to the start of the next), so
        // that the layout around it stays.
        let span = match i.checked_sub(1) {
            Some(p) => Span::new(o.tags[p].span.end, o.tags[i].span.end),
            None => Span::new(o.tags[0].span.start, o.tags[1].span.start),
        };
        edits.push(Edit::replace(span, ""));
    }
    true
}

/// The edits of the movetext.
///
/// The new movetext's elements that were read from `source` (their span is an old
/// element's) are matched to the old ones in text order; old elements left unmatched lose
/// their text, new elements without a span are written where they stand (numbered as the
/// canonical writer numbers them), and a matched element whose content changed is written
/// again (a move's glyphs and annotation alone when its token is the same). `false` when
/// there is no place to write (a game without a result).
fn movetext_edits(
    source: &str,
    o: &Game,
    n: &Game,
    options: &WriteOptions,
    edits: &mut Vec<Edit>,
) -> bool {
    let (old, new) = (&o.movetext, &n.movetext);
    // Matches (old index, new index), in order.
    let mut matches = Vec::new();
    let mut i = 0;
    for (j, e) in new.iter().enumerate() {
        if e.span.is_empty() {
            continue;
        }
        // Old elements are in text order: skip those before this one (deleted).
        while i < old.len() && old[i].span.start < e.span.start {
            i += 1;
        }
        if i < old.len() && old[i].span == e.span {
            matches.push((i, j));
            i += 1;
        }
    }
    if matches.len() == old.len() && matches.len() == new.len() {
        // Nothing inserted or deleted: changed elements only.
        for &(i, j) in &matches {
            edits.extend(element_edit(&old[i], &new[j], options));
        }
        return true;
    }
    let numbered = crate::writer::numbered_movetext(n);
    let le = line_end(source);
    // The gaps: before the first match, between matches, after the last.
    let mut prev: Option<(usize, usize)> = None;
    // The edit of the element matched last, which the text after it may join.
    let mut changed: Option<Edit> = None;
    for next in matches.iter().copied().map(Some).chain([None]) {
        let old_gap = prev.map_or(0, |p| p.0 + 1)..next.map_or(old.len(), |x| x.0);
        let new_gap = prev.map_or(0, |p| p.1 + 1)..next.map_or(new.len(), |x| x.1);
        let inserted = &numbered[new_gap];
        let deleted = !old_gap.is_empty();
        if inserted.is_empty() && !deleted {
            edits.extend(changed.take());
            changed = next.and_then(|(i, j)| element_edit(&old[i], &new[j], options));
            prev = next;
            continue;
        }
        // The text replaced: the deleted elements, from the end of the element before them
        // (or the start of the first) to the end of the last.
        let (from, to, lead) = match (prev, deleted) {
            (Some((p, _)), true) => (
                end_of(&old[p]),
                end_of(&old[old_gap.end - 1]),
                lead_after(&old[p]),
            ),
            (Some((p, _)), false) => (end_of(&old[p]), end_of(&old[p]), lead_after(&old[p])),
            (None, true) => match next {
                // Up to the first element kept, which follows the text written.
                Some((i, _)) => (old[0].span.start, old[i].span.start, None),
                None => (old[0].span.start, end_of(&old[old.len() - 1]), None),
            },
            (None, false) => match next {
                Some((i, _)) => (old[i].span.start, old[i].span.start, None),
                None => match &o.result {
                    Some(r) => (r.span.start, r.span.start, None),
                    None => return false,
                },
            },
        };
        let mut text = String::new();
        let mut to = to;
        if !inserted.is_empty() {
            let mut units = Vec::new();
            crate::writer::collect_units(inserted, options, &mut units);
            let col = column(source, from);
            crate::writer::layout_inline(&units, options.width, col, lead, &mut text);
            // What follows on the line: the element kept (or the result) after a blank or
            // a line end.
            let follows = prev.is_none() && (next.is_some() || old.is_empty());
            // A line the insertion makes too long is broken where the insertion ends.
            let blanks = source[to..].len() - source[to..].trim_start_matches([' ', '\t']).len();
            let rest = source[to + blanks..].split('\n').next().unwrap_or("");
            let end_col = match text.rfind('\n') {
                Some(p) => text[p + 1..].chars().count(),
                None => col + text.chars().count(),
            };
            if follows && !text.ends_with('\n') {
                // Before the element kept (or the result): on its line when it fits.
                let fits = end_col + 1 + rest.trim_end().chars().count() <= options.width;
                text.push_str(if fits || end_col == 0 { " " } else { "\n" });
            }
            if !follows
                && blanks > 0
                && !rest.trim().is_empty()
                && end_col + 1 + rest.trim_end().chars().count() > options.width
            {
                to += blanks;
                text.push('\n');
            }
        } else if prev.is_none() && next.is_none() {
            // No move left: the blanks before the result go with them.
            to += source[to..].len() - source[to..].trim_start_matches([' ', '\t']).len();
        }
        if le == "\r\n" {
            text = text.replace("\r\n", "\n").replace('\n', "\r\n");
        }
        match changed.take() {
            // The element before changed where this text begins: one edit.
            Some(mut c) if c.span.end == from => {
                c.text.push_str(&text);
                edits.push(Edit::replace(Span::new(c.span.start, to), c.text));
            }
            c => {
                edits.extend(c);
                edits.push(Edit::replace(Span::new(from, to), text));
            }
        }
        changed = next.and_then(|(i, j)| element_edit(&old[i], &new[j], options));
        prev = next;
    }
    edits.extend(changed);
    true
}

/// What separates an element written after `e` from it: a line end after a `;` comment
/// (its line), else a blank.
fn lead_after(e: &Spanned<Element>) -> Option<char> {
    match &e.value {
        Element::Comment(c) if c.kind == CommentKind::Line => Some('\n'),
        _ => Some(' '),
    }
}

/// The edit of an element matched to its old text, when its content changed: a move whose
/// token is the same gets its glyphs and annotation written after the token (its number and
/// token keep their text); anything else is written again whole.
fn element_edit(
    o: &Spanned<Element>,
    n: &Spanned<Element>,
    options: &WriteOptions,
) -> Option<Edit> {
    if o.value == n.value {
        return None;
    }
    let mut units = Vec::new();
    match (&o.value, &n.value) {
        (Element::Move(a), Element::Move(b)) if a.token == b.token => {
            let mut bare = b.clone();
            bare.number = None;
            let whole = crate::writer::move_text(&bare, options);
            let token =
                crate::writer::move_text(&crate::ast::MoveItem::new(b.token.value), options);
            let after = whole.strip_prefix(token.as_str()).unwrap_or(&whole);
            Some(Edit::replace(Span::new(a.token.span.end, end_of(o)), after))
        }
        _ => {
            crate::writer::collect_units(std::slice::from_ref(n), options, &mut units);
            let mut text = String::new();
            crate::writer::layout_inline(&units, usize::MAX, 0, None, &mut text);
            Some(Edit::replace(Span::new(o.span.start, end_of(o)), text))
        }
    }
}

/// Where an element's text ends: a move's NAGs and annotation included.
fn end_of(e: &Spanned<Element>) -> usize {
    match &e.value {
        Element::Move(m) => m
            .nags
            .iter()
            .map(|n| n.span.end)
            .chain(m.annotation.iter().map(|a| a.span.end))
            .fold(e.span.end.max(m.token.span.end), usize::max),
        _ => e.span.end,
    }
}

/// The column of byte `at` in `source` (characters since the line's start).
fn column(source: &str, at: usize) -> usize {
    let line_start = source[..at].rfind('\n').map_or(0, |p| p + 1);
    source[line_start..at].chars().count()
}
