//! Annotating a record from its replay, and annotation items as text.
//!
//! [`annotation_edits`] edits the text of a game in place (only the tokens whose marks change
//! and the annotations, everything else as written: the notation, comments and layout), as
//! `bao annotate` and the editor's action do; [`annotated_chunk`] does it for a chunk of a
//! stream.

use bao_notation::{
    apply_edits, Annotation, AnnotationItem, Directions, Edit, MoveToken, PitRef, Record, Span,
    Spanned,
};
use bao_replay::{Document, MoveNode, ReplayedGame};

/// Writes items as an annotation, `[xa5:3 A6:2]`.
#[must_use]
pub fn items_text(items: &[AnnotationItem]) -> String {
    let a = Annotation {
        items: items.iter().copied().map(Spanned::bare).collect(),
        cycle: None,
    };
    a.to_string()
}

/// What the engine writes on a move played as written: its token with the `**` and `#`
/// claims the move bears out (claims it does not are removed), and its annotation (its
/// captures and lap ends; a never-ending move's up to its cycle, then `cycle:L+P`).
fn engine_marks(m: &MoveNode<'_>) -> Option<(MoveToken, Option<Annotation>)> {
    let (_, p) = m.played()?;
    let takasia = p.takasia().is_some();
    let mut token = m.written().token.value;
    token.claims_takasia = takasia;
    if takasia {
        token.takasa = true;
    }
    token.claims_win = p.wins;
    Some((token, p.annotation()))
}

/// The edits that annotate a game's moves in place: every move played as written gets the
/// engine's annotation (replacing the one written, or added after the token and a glyph
/// written against it) and the `**`/`#` marks the move bears out (the token rewritten in
/// its own notation only when its marks change). Moves that were not played are left as
/// written. Spans are those of the document's game.
#[must_use]
pub fn annotation_edits(doc: &Document<'_>) -> Vec<Edit> {
    let mut edits = Vec::new();
    for m in doc.moves() {
        let Some((token, annotation)) = engine_marks(&m) else {
            continue;
        };
        let item = m.written();
        if token != item.token.value {
            edits.push(Edit::replace(
                m.token_span(),
                m.notation().write_token(&token),
            ));
        }
        match (&item.annotation, annotation) {
            (Some(old), Some(new)) if old.value != new => {
                edits.push(Edit::replace(old.span, new.to_string()));
            }
            (Some(old), None) => {
                // The space before it goes with it.
                let start = doc
                    .text()
                    .and_then(|t| t.get(..old.span.start))
                    .map_or(old.span.start, |before| before.trim_end().len());
                edits.push(Edit::replace(Span::new(start, old.span.end), ""));
            }
            (None, Some(new)) => {
                // After the token, and after a glyph written against it (`A6<!`).
                let at = item
                    .nags
                    .first()
                    .filter(|n| n.span.start == m.token_span().end)
                    .map_or(m.token_span().end, |n| n.span.end);
                edits.push(Edit::insert(at, format!(" {new}")));
            }
            _ => {}
        }
    }
    edits
}

/// The record with every replayed move spelled out: its row letter, sign, `*` and `+` as
/// the engine played it (forced signs and `*` filled in; claims and annotations kept). With
/// `to_mover`, a game written under a `Directions` tag other than `mover` whose every move
/// replayed gets the canonical mover's-seat signs and loses the tag; otherwise signs stay in
/// the game's convention. Moves that could not be replayed are left as written.
#[must_use]
pub fn spelled_out_record(record: &Record, replayed: &[ReplayedGame], to_mover: bool) -> Record {
    let mut out = record.clone();
    for (g, game) in out.games.iter_mut().enumerate() {
        let Some(replayed) = replayed.get(g) else {
            continue;
        };
        let Some(opening) = replayed.opening() else {
            continue;
        };
        let doc = Document::new(&record.games[g].value, replayed);
        let every = doc.moves().all(|m| m.played().is_some());
        let convert = to_mover && opening.directions != Directions::Mover && every;
        let directions = if convert {
            Directions::Mover
        } else {
            opening.directions
        };
        let tokens: Vec<Option<MoveToken>> = doc
            .moves()
            .map(|m| {
                let (ply, p) = m.played()?;
                let mut token = m.written().token.value;
                token.pit = PitRef::Pit(p.mv.pit);
                token.sign = Some(directions.written_sign(&p.mv, &ply.before));
                token.takasa = p.mv.is_takasa();
                token.claims_takasia &= token.takasa;
                token.safari = p.mv.is_safari();
                Some(token)
            })
            .collect();
        let mut tokens = tokens.into_iter();
        game.value.for_each_move_mut(|item| {
            if let Some(Some(token)) = tokens.next() {
                item.token.value = token;
            }
        });
        if convert {
            game.value
                .tags
                .retain(|t| t.value.name.value != "Directions");
        }
    }
    out
}

/// A chunk of a stream ([`crate::stream::Chunk`]) annotated as [`annotation_edits`]
/// annotates each of its games: its text with the edits, for [`ChunkTexts`] to join.
#[must_use]
pub fn annotated_chunk(chunk: &crate::stream::Chunk, replayed: &[ReplayedGame]) -> ChunkText {
    let edits: Vec<Edit> = chunk
        .games
        .iter()
        .zip(replayed)
        .flat_map(|((_, g, _), r)| {
            annotation_edits(&Document::new(&g.value, r).with_text(&chunk.text))
        })
        .collect();
    ChunkText {
        offset: chunk.offset,
        len: chunk.text.len(),
        text: apply_edits(&chunk.text, &edits),
    }
}

/// A chunk's text after an edit of its games, with where the chunk was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkText {
    /// The chunk's offset in the input.
    pub offset: usize,
    /// The length of the chunk's text as read.
    pub len: usize,
    /// The text after the edit.
    pub text: String,
}

/// Joins the edited texts of a stream's chunks, in file order, into the text of the whole:
/// a chunk's text ends with the comments after its last game, which the next chunk's text
/// begins with again, so each chunk is given up to where the next begins (the edits of its
/// games come before that point: its tail is as read).
#[derive(Debug, Default)]
pub struct ChunkTexts {
    held: Option<ChunkText>,
}

impl ChunkTexts {
    /// The next chunk; the text of the one before it, now that its end is known.
    pub fn push(&mut self, next: ChunkText) -> Option<String> {
        let before = self.held.replace(next)?;
        let offset = self.held.as_ref().map_or(usize::MAX, |n| n.offset);
        let again = (before.offset + before.len).saturating_sub(offset);
        let mut text = before.text;
        let cut = text.len().saturating_sub(again);
        if text.is_char_boundary(cut) {
            text.truncate(cut);
        }
        Some(text)
    }

    /// The text of the last chunk, at the end of the input.
    pub fn finish(&mut self) -> Option<String> {
        self.held.take().map(|c| c.text)
    }
}
