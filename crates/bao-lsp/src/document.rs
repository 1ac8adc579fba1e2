//! An open document: its text, and its games checked as `bao check` checks them.
//!
//! The text is cut into chunks (normally one game each) by the streaming reader of
//! `bao-validate` ([`StreamReader`]), each chunk is checked by [`check_chunk`] and the chunks
//! are merged in file order by [`Merger`] (which adds the problems of matches over several
//! games): the same code path as `bao check`, so the diagnostics are the same. A chunk's
//! results depend only on its text, so after a change every chunk whose text is unchanged
//! keeps its results ([`CheckedChunk::relocated`] moves them to the chunk's new place and
//! game numbers): only the games the change touched are replayed again.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use bao_notation::Game;
use bao_validate::stream::{check_chunk, CheckedChunk, Merger, StreamReader};
use bao_validate::{check_full, AnyDiagnostic, CheckOptions, Checked};
use lsp_types::TextDocumentContentChangeEvent;

use crate::text::LineIndex;

/// The results of one chunk, as checked at the place it was first met.
#[derive(Debug)]
pub(crate) struct ChunkResult {
    /// The chunk's text.
    pub(crate) text: Arc<str>,
    /// Its diagnostics (at the offset and game numbers where it was checked).
    checked: CheckedChunk,
    /// The chunk's games parsed and replayed (spans relative to `text`), made when a
    /// request first needs them.
    replay: OnceCell<Checked>,
}

impl ChunkResult {
    /// The chunk's games parsed and replayed, under `opts` (spans relative to the chunk).
    pub(crate) fn replay(&self, opts: &CheckOptions) -> &Checked {
        self.replay
            .get_or_init(|| check_full("", Arc::clone(&self.text), opts))
    }
}

/// A chunk in the current text.
#[derive(Debug, Clone)]
pub(crate) struct Chunk {
    /// Where its text starts in the document.
    pub(crate) offset: usize,
    /// Its results.
    pub(crate) result: Rc<ChunkResult>,
}

/// A game of the document: its chunk, its index in the chunk's replay, the parsed game and
/// where its text begins in the document.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GameAt<'a> {
    /// The chunk's offset in the document (the game's spans are relative to it).
    pub(crate) base: usize,
    /// The chunk's replay.
    pub(crate) checked: &'a Checked,
    /// The game's index in `checked`.
    pub(crate) index: usize,
}

impl<'a> GameAt<'a> {
    /// The parsed game (spans relative to the chunk).
    pub(crate) fn game(&self) -> &'a bao_notation::Spanned<Game> {
        &self.checked.record.games[self.index]
    }

    /// The game's replay.
    pub(crate) fn replayed(&self) -> Option<&'a bao_replay::ReplayedGame> {
        self.checked.replayed.get(self.index)
    }
}

/// What checking the text found.
#[derive(Debug, Default)]
pub(crate) struct Analysis {
    /// The chunks in text order.
    pub(crate) chunks: Vec<Chunk>,
    /// Every diagnostic, with spans into the document, in `bao check`'s order.
    pub(crate) diagnostics: Vec<AnyDiagnostic>,
    /// How many chunks this analysis checked anew (the others kept their results).
    pub(crate) rechecked: usize,
}

/// An open document, as the server holds it: its text, and its games checked as `bao check`
/// checks them, only the games a change touched again (public for benchmarks and tools
/// that drive the analysis without the protocol).
#[derive(Debug)]
pub struct Document {
    /// The client's version of the text.
    pub(crate) version: i32,
    /// The text.
    pub(crate) text: String,
    pub(crate) index: LineIndex,
    analysis: Option<Analysis>,
    /// The chunks of the last analysis, kept for the next one.
    previous: Vec<Chunk>,
}

impl Document {
    /// A document with this text.
    #[must_use]
    pub fn new(text: String, version: i32) -> Self {
        Self {
            version,
            index: LineIndex::new(&text),
            text,
            analysis: None,
            previous: Vec::new(),
        }
    }

    /// Applies the client's changes in order (a change without a range replaces the text;
    /// positions in UTF-16 code units, a range past the end clamped to it).
    pub fn apply(&mut self, changes: Vec<TextDocumentContentChangeEvent>, version: i32) {
        for change in changes {
            match change.range {
                None => self.text = change.text,
                Some(r) => {
                    let start = self.index.offset_clamped(&self.text, r.start);
                    let end = self.index.offset_clamped(&self.text, r.end).max(start);
                    self.text.replace_range(start..end, &change.text);
                }
            }
            self.index = LineIndex::new(&self.text);
        }
        self.version = version;
        if let Some(a) = self.analysis.take() {
            self.previous = a.chunks;
        }
    }

    /// The diagnostics of the current text in the protocol's form, as the server publishes
    /// them (the analysis is made now if needed).
    pub fn diagnostics(
        &mut self,
        uri: &lsp_types::Uri,
        opts: &CheckOptions,
    ) -> Vec<lsp_types::Diagnostic> {
        let v = self.view(opts);
        v.analysis
            .diagnostics
            .iter()
            .map(|d| crate::diagnostics::to_lsp(uri, v.text, v.index, d))
            .collect()
    }

    /// How many chunks (normally games) the last analysis checked anew; the others kept
    /// their results.
    #[must_use]
    pub fn rechecked(&self) -> usize {
        self.analysis.as_ref().map_or(0, |a| a.rechecked)
    }

    /// The document's text, lines and analysis (made now if needed).
    pub(crate) fn view(&mut self, opts: &CheckOptions) -> View<'_> {
        if self.analysis.is_none() {
            let previous = std::mem::take(&mut self.previous);
            self.analysis = Some(analyse(&self.text, previous, opts));
        }
        let analysis = self.analysis.get_or_insert_with(Analysis::default);
        View {
            text: &self.text,
            index: &self.index,
            analysis,
            opts: *opts,
        }
    }
}

/// A document's text with its analysis, to read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct View<'a> {
    /// The text.
    pub(crate) text: &'a str,
    /// Its lines.
    pub(crate) index: &'a LineIndex,
    /// What checking it found.
    pub(crate) analysis: &'a Analysis,
    opts: CheckOptions,
}

impl<'a> View<'a> {
    /// The range of a byte span.
    pub(crate) fn range(&self, start: usize, end: usize) -> lsp_types::Range {
        self.index.range(self.text, start, end)
    }

    /// The position of a byte offset.
    pub(crate) fn position(&self, at: usize) -> lsp_types::Position {
        self.index.position(self.text, at)
    }

    /// The game at a byte offset of the document (the nearest game before it when the
    /// offset is between games), with its chunk's replay.
    pub(crate) fn game_at(&self, offset: usize) -> Option<GameAt<'a>> {
        let chunks = &self.analysis.chunks;
        let i = chunks
            .partition_point(|c| c.offset <= offset)
            .checked_sub(1)?;
        let chunk = &chunks[i];
        let checked = chunk.result.replay(&self.opts);
        let local = offset - chunk.offset;
        let games = &checked.record.games;
        let index = games
            .iter()
            .position(|g| local <= g.span.end)
            .unwrap_or(games.len().checked_sub(1)?);
        Some(GameAt {
            base: chunk.offset,
            checked,
            index,
        })
    }

    /// Every game of the document in text order, with its chunk's replay.
    pub(crate) fn games(&self) -> Vec<GameAt<'a>> {
        let mut out = Vec::new();
        for chunk in &self.analysis.chunks {
            let checked = chunk.result.replay(&self.opts);
            for index in 0..checked.record.games.len() {
                out.push(GameAt {
                    base: chunk.offset,
                    checked,
                    index,
                });
            }
        }
        out
    }
}

/// Checks `text`, keeping the results of the chunks of `previous` whose text is unchanged.
fn analyse(text: &str, previous: Vec<Chunk>, opts: &CheckOptions) -> Analysis {
    let mut known: HashMap<Arc<str>, (usize, usize, Rc<ChunkResult>)> = previous
        .into_iter()
        .map(|c| {
            let (offset, game) = (c.result.checked.offset(), c.result.checked.first_game());
            (Arc::clone(&c.result.text), (offset, game, c.result))
        })
        .collect();
    let mut reader = StreamReader::new(text.as_bytes());
    let mut merger = Merger::new("");
    let mut pieces = Vec::new();
    let mut chunks = Vec::new();
    let mut rechecked = 0;
    let mut games_before = 0;
    // Reading a `&[u8]` cannot fail; a failure would end the reading early.
    while let Ok(Some(chunk)) = reader.next_chunk() {
        let first = games_before + 1;
        games_before += chunk.games.len();
        let reused = known.remove(&chunk.text);
        let (checked, result) = match reused {
            Some((offset, game, result)) if offset == chunk.offset && game == first => {
                (result.checked.clone(), result)
            }
            Some((_, _, result)) => (result.checked.relocated(chunk.offset, first), result),
            None => {
                rechecked += 1;
                let checked = check_chunk(&chunk, opts);
                let result = Rc::new(ChunkResult {
                    text: Arc::clone(&chunk.text),
                    checked: checked.clone(),
                    replay: OnceCell::new(),
                });
                (checked, result)
            }
        };
        chunks.push(Chunk {
            offset: chunk.offset,
            result,
        });
        merger.note_warning(&reader);
        pieces.extend(merger.push(checked));
    }
    merger.note_warning(&reader);
    let (rest, _) = merger.finish();
    pieces.extend(rest);
    let diagnostics = pieces.into_iter().flat_map(|p| p.diagnostics).collect();
    Analysis {
        chunks,
        diagnostics,
        rechecked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_validate::check_text;
    use lsp_types::Range;

    /// The diagnostics of a whole-file `bao check` of `text`, as (code, span, message).
    /// A diagnostic's code, span and message.
    type Seen = (String, Option<(usize, usize)>, String);

    fn full(text: &str, opts: &CheckOptions) -> Vec<Seen> {
        check_text("x", Arc::from(text), opts)
            .diagnostics
            .iter()
            .map(|d| {
                (
                    d.code().to_owned(),
                    d.span().map(|s| (s.start, s.end)),
                    d.to_string(),
                )
            })
            .collect()
    }

    fn ours(doc: &mut Document, opts: &CheckOptions) -> Vec<Seen> {
        doc.view(opts)
            .analysis
            .diagnostics
            .iter()
            .map(|d| {
                (
                    d.code().to_owned(),
                    d.span().map(|s| (s.start, s.end)),
                    d.to_string(),
                )
            })
            .collect()
    }

    fn game(n: usize, moves: &str) -> String {
        format!(
            "[Event \"g{n}\"]\n[Match \"m{}\"]\n[Game \"{}\"]\n\n1. {moves} *\n\n",
            n / 3,
            n % 3 + 1
        )
    }

    fn edit(doc: &mut Document, at: usize, del: usize, text: &str) {
        let r = Range::new(
            doc.index.position(&doc.text, at),
            doc.index.position(&doc.text, at + del),
        );
        let version = doc.version + 1;
        doc.apply(
            vec![TextDocumentContentChangeEvent {
                range: Some(r),
                range_length: None,
                text: text.to_owned(),
            }],
            version,
        );
    }

    #[test]
    fn a_change_rechecks_only_the_games_it_touched() {
        let opts = CheckOptions {
            assume_fixes: false,
            lap_budget: Some(100_000),
        };
        let text: String = (0..30)
            .map(|n| game(n, if n % 7 == 3 { "A5<*" } else { "A6<* a6>*" }))
            .collect();
        let mut doc = Document::new(text, 1);
        assert_eq!(ours(&mut doc, &opts), full(&doc.text, &opts));
        assert_eq!(doc.view(&opts).analysis.rechecked, 30);
        // One character in game 12: that game only.
        let at = doc.text.find("g12").unwrap();
        let mv = at + doc.text[at..].find("A6<*").unwrap();
        edit(&mut doc, mv + 2, 1, ">");
        assert_eq!(ours(&mut doc, &opts), full(&doc.text, &opts));
        assert_eq!(doc.view(&opts).analysis.rechecked, 1);
        // A game inserted at the start: every other game moves and is renumbered.
        edit(&mut doc, 0, 0, &game(99, "A7>*"));
        assert_eq!(ours(&mut doc, &opts), full(&doc.text, &opts));
        assert_eq!(doc.view(&opts).analysis.rechecked, 1);
        // Game numbers in the diagnostics follow.
        let games: Vec<usize> = doc
            .view(&opts)
            .analysis
            .diagnostics
            .iter()
            .filter_map(|d| match d {
                AnyDiagnostic::Check(c) => Some(c.game),
                AnyDiagnostic::Syntax(_) => None,
            })
            .collect();
        let expected: Vec<usize> = check_text("x", Arc::from(doc.text.as_str()), &opts)
            .diagnostics
            .iter()
            .filter_map(|d| match d {
                AnyDiagnostic::Check(c) => Some(c.game),
                AnyDiagnostic::Syntax(_) => None,
            })
            .collect();
        assert_eq!(games, expected);
        // A whole replacement without a range.
        let version = doc.version + 1;
        doc.apply(
            vec![TextDocumentContentChangeEvent {
                range: None,
                range_length: None,
                text: "1. A5<* *\n".to_owned(),
            }],
            version,
        );
        assert_eq!(ours(&mut doc, &opts), full(&doc.text, &opts));
    }
}
