//! An open document: its text, and its games checked as `bao check` checks them.
//!
//! The text is cut into chunks (normally one game each) by the streaming reader of
//! `bao-validate` ([`StreamReader`]), each chunk is checked by [`check_chunk`] and the chunks
//! are put in `bao check`'s order as [`Merger`] puts them ([`CheckedChunk::diagnostics`],
//! with the problems of matches over several games from [`CheckedChunk::match_problems`]):
//! the same code path as `bao check`, so the diagnostics are the same. A chunk's results
//! depend only on its text, and the problems of a match only on that match's games, so
//! after a change every chunk whose text is unchanged keeps its results and its ordered
//! diagnostics (moved to the chunk's new place and game numbers when they are read): only
//! the games the change touched are replayed again, and only the matches it touched are
//! followed again. The line index is patched around the change, not made again.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet, VecDeque};
use std::rc::{Rc, Weak};
use std::sync::Arc;

use bao_notation::meaning::MatchKey;
use bao_notation::{parse_record, Game, Spanned};
#[cfg(doc)]
use bao_validate::stream::Merger;
use bao_validate::stream::{check_chunk, CheckedChunk, ChunkDiagnostics, Matches, StreamReader};
use bao_validate::{check_full, AnyDiagnostic, CheckDiagnostic, CheckOptions, Checked};
use lsp_types::TextDocumentContentChangeEvent;

use crate::cancel::Watch;
use crate::text::LineIndex;

/// How many chunks' replays a document keeps for the requests that need them (hover,
/// completion, code actions, inlay hints): the ones used last. A replay holds every ply's
/// positions, many times its text: kept for every game of a large archive they would be
/// gigabytes, so the others are made again when asked for (one game's replay takes
/// milliseconds).
const REPLAYS: usize = 32;

/// The results of one chunk, as checked at the place it was first met.
#[derive(Debug)]
pub(crate) struct ChunkResult {
    /// The chunk's text.
    pub(crate) text: Arc<str>,
    /// Its diagnostics (at the offset and game numbers where it was checked).
    checked: CheckedChunk,
}

/// The replays of the chunks requests needed last, at most [`REPLAYS`], the last used
/// first (kept across changes: a chunk a change did not touch keeps its results, and its
/// replay here while it is one of the last used).
#[derive(Debug, Default)]
struct Replays {
    kept: RefCell<VecDeque<(Weak<ChunkResult>, Rc<Checked>)>>,
}

impl Replays {
    /// The chunk's games parsed and replayed under `opts` (spans relative to the chunk),
    /// kept or made now.
    fn get(&self, chunk: &Rc<ChunkResult>, opts: &CheckOptions) -> Rc<Checked> {
        let mut kept = self.kept.borrow_mut();
        let weak = Rc::downgrade(chunk);
        if let Some(i) = kept.iter().position(|(c, _)| c.ptr_eq(&weak)) {
            let entry = kept.remove(i).unwrap_or_else(|| unreachable!());
            let checked = Rc::clone(&entry.1);
            kept.push_front(entry);
            return checked;
        }
        let checked = Rc::new(check_full("", Arc::clone(&chunk.text), opts));
        // The replays of chunks no longer in the document go first.
        kept.retain(|(c, _)| c.strong_count() > 0);
        kept.push_front((weak, Rc::clone(&checked)));
        kept.truncate(REPLAYS);
        checked
    }

    /// How many replays are kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.kept.borrow().len()
    }
}

/// A chunk in the current text.
#[derive(Debug, Clone)]
pub(crate) struct Chunk {
    /// Where its text starts in the document.
    pub(crate) offset: usize,
    /// The number in the document of its first game.
    first_game: usize,
    /// How many games the reader gave for it.
    games: usize,
    /// Its results.
    pub(crate) result: Rc<ChunkResult>,
    /// Its diagnostics in `bao check`'s order, where its results were checked.
    ordered: Rc<Ordered>,
}

impl Chunk {
    /// Its diagnostics in `bao check`'s order, at its place and game numbers.
    fn diagnostics(&self) -> std::borrow::Cow<'_, ChunkDiagnostics> {
        let checked = &self.result.checked;
        let d = &self.ordered.diagnostics;
        if d.is_empty()
            || (checked.offset() == self.offset && checked.first_game() == self.first_game)
        {
            std::borrow::Cow::Borrowed(d)
        } else {
            std::borrow::Cow::Owned(d.relocated(self.offset, self.first_game))
        }
    }

    /// Whether its text overlaps `start..=end` of the document.
    fn overlaps(&self, start: usize, end: usize) -> bool {
        self.offset <= end && start <= self.offset + self.result.text.len()
    }
}

/// A chunk's diagnostics in `bao check`'s order, at the place and game numbers its results
/// were checked at.
#[derive(Debug, Default)]
struct Ordered {
    /// The match problems of each of its games with a `Match` tag.
    problems: Vec<Vec<CheckDiagnostic>>,
    /// Its diagnostics, those problems among them.
    diagnostics: ChunkDiagnostics,
}

/// Where the last change happened, in the new text: its start, its end, and how much the
/// text after it moved (bytes, signed).
#[derive(Debug, Clone, Copy)]
struct Touched {
    start: usize,
    end: usize,
    delta: isize,
}

/// A game of the document: its chunk's replay, its index in it, and where the chunk's text
/// begins in the document.
#[derive(Debug, Clone)]
pub(crate) struct GameAt {
    /// The chunk's offset in the document (the game's spans are relative to it).
    pub(crate) base: usize,
    /// The chunk's replay.
    checked: Rc<Checked>,
    /// The game's index in `checked`.
    index: usize,
}

impl GameAt {
    /// The parsed game (spans relative to the chunk).
    pub(crate) fn game(&self) -> &Spanned<Game> {
        &self.checked.record.games[self.index]
    }

    /// The game's replay.
    pub(crate) fn replayed(&self) -> Option<&bao_replay::ReplayedGame> {
        self.checked.replayed.get(self.index)
    }

    /// The game and its replay as one tree (offsets relative to the chunk).
    pub(crate) fn doc(&self) -> Option<bao_replay::Document<'_>> {
        self.checked.document(self.index)
    }
}

/// What checking the text found.
#[derive(Debug, Default)]
pub(crate) struct Analysis {
    /// The chunks in text order.
    pub(crate) chunks: Vec<Chunk>,
    /// How many chunks this analysis checked anew (the others kept their results).
    pub(crate) rechecked: usize,
}

impl Analysis {
    /// Every diagnostic, with spans into the document, in `bao check`'s order: each
    /// chunk's placed ones in file order, then those without a place.
    pub(crate) fn diagnostics(&self) -> Vec<AnyDiagnostic> {
        let mut placed = Vec::new();
        let mut unplaced = Vec::new();
        for c in self
            .chunks
            .iter()
            .filter(|c| !c.ordered.diagnostics.is_empty())
        {
            let d = c.diagnostics();
            placed.extend_from_slice(d.placed());
            unplaced.extend_from_slice(d.unplaced());
        }
        placed.append(&mut unplaced);
        placed
    }

    /// The diagnostics whose span overlaps `start..=end` of the document, in file order.
    pub(crate) fn diagnostics_over(&self, start: usize, end: usize) -> Vec<AnyDiagnostic> {
        self.chunks
            .iter()
            .filter(|c| !c.ordered.diagnostics.is_empty() && c.overlaps(start, end))
            .flat_map(|c| c.diagnostics().placed().to_vec())
            .filter(|d| d.span().is_some_and(|s| s.start <= end && start <= s.end))
            .collect()
    }
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
    /// The replays requests needed last.
    replays: Replays,
    /// The replays under `--assume-fixes` (plies after an illegal one replayed from its
    /// repair) requests needed last: the board at and after an illegal ply.
    assumed: Replays,
    /// The chunks of the last analysis, kept for the next one.
    previous: Vec<Chunk>,
    /// Where the changes since the last analysis happened (`None`: anywhere).
    touched: Option<Touched>,
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
            replays: Replays::default(),
            assumed: Replays::default(),
            previous: Vec::new(),
            touched: None,
        }
    }

    /// Applies the client's changes in order (a change without a range replaces the text;
    /// positions in UTF-16 code units, a range past the end clamped to it).
    pub fn apply(&mut self, changes: Vec<TextDocumentContentChangeEvent>, version: i32) {
        // One change since the last analysis can be re-read around; more, from the start.
        let first = self.analysis.is_some() && changes.len() == 1;
        for change in changes {
            self.touched = None;
            match change.range {
                None => {
                    self.text = change.text;
                    self.index = LineIndex::new(&self.text);
                }
                Some(r) => {
                    let start = self.index.offset_clamped(&self.text, r.start);
                    let end = self.index.offset_clamped(&self.text, r.end).max(start);
                    let new_end = start + change.text.len();
                    self.text.replace_range(start..end, &change.text);
                    self.index.edit(&self.text, start, end, new_end);
                    if first {
                        self.touched = Some(Touched {
                            start,
                            end: new_end,
                            delta: isize::try_from(new_end).unwrap_or(isize::MAX)
                                - isize::try_from(end).unwrap_or(isize::MAX),
                        });
                    }
                }
            }
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
            .diagnostics()
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
            let touched = self.touched.take();
            self.analysis = Some(analyse(&self.text, previous, touched, opts));
        }
        let analysis = self.analysis.get_or_insert_with(Analysis::default);
        View {
            text: &self.text,
            index: &self.index,
            analysis,
            replays: &self.replays,
            assumed: &self.assumed,
            opts: *opts,
            watch: None,
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
    replays: &'a Replays,
    assumed: &'a Replays,
    opts: CheckOptions,
    /// The running request's watch over the incoming messages, polled at every chunk of
    /// the loops over the whole document.
    watch: Option<&'a Watch<'a, 'a>>,
}

impl<'a> View<'a> {
    /// The language of what the server says of the document (the client's `locale`).
    pub(crate) fn lang(&self) -> bao_i18n::Lang {
        self.opts.lang
    }

    /// This view for a request that stops (its loops over chunks end early) when `watch`
    /// says so.
    pub(crate) fn watched(self, watch: &'a Watch<'a, 'a>) -> Self {
        Self {
            watch: Some(watch),
            ..self
        }
    }

    /// Whether the running request must stop (reads what has arrived, without blocking).
    fn interrupted(&self) -> bool {
        self.watch.is_some_and(|w| w.poll().is_some())
    }

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
    pub(crate) fn game_at(&self, offset: usize) -> Option<GameAt> {
        self.game_at_in(offset, self.replays, &self.opts)
    }

    /// [`View::game_at`] replayed as `bao check --assume-fixes` replays it: past an illegal
    /// ply, from the repair it assumes there (where one is clear).
    pub(crate) fn assumed_game_at(&self, offset: usize) -> Option<GameAt> {
        let opts = CheckOptions {
            assume_fixes: true,
            ..self.opts
        };
        self.game_at_in(offset, self.assumed, &opts)
    }

    fn game_at_in(&self, offset: usize, replays: &Replays, opts: &CheckOptions) -> Option<GameAt> {
        let chunks = &self.analysis.chunks;
        let i = chunks
            .partition_point(|c| c.offset <= offset)
            .checked_sub(1)?;
        let chunk = &chunks[i];
        let checked = replays.get(&chunk.result, opts);
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

    /// The games of the chunks that overlap `start..=end` of the document, with their
    /// chunks' replays.
    pub(crate) fn replayed_games(&self, start: usize, end: usize) -> Vec<GameAt> {
        let chunks = &self.analysis.chunks;
        let first = chunks
            .partition_point(|c| c.offset <= start)
            .saturating_sub(1);
        let mut out = Vec::new();
        for chunk in chunks[first..].iter().take_while(|c| c.offset <= end) {
            if chunk.offset + chunk.result.text.len() < start {
                continue;
            }
            let checked = self.replays.get(&chunk.result, &self.opts);
            for index in 0..checked.record.games.len() {
                out.push(GameAt {
                    base: chunk.offset,
                    checked: Rc::clone(&checked),
                    index,
                });
            }
        }
        out
    }

    /// Calls `each` with every game of the document in text order, parsed (not replayed:
    /// what the outline needs), with the offset of its chunk (its spans are relative to it).
    /// Each chunk is parsed when its turn comes and dropped after.
    pub(crate) fn each_game(&self, each: impl FnMut(usize, &Spanned<Game>)) {
        self.each_game_over(None, each);
    }

    /// Calls `each` with every chunk in text order: its offset in the document, where the
    /// next chunk starts (a chunk's text may run on over the comments that open the next
    /// one: the games that start there are the next chunk's) and its text parsed (made when
    /// its turn comes, dropped after). Before each chunk the request's watch (if any) is
    /// polled. Returns whether every chunk was given (`false` when `each` said stop, or the
    /// watch did).
    pub(crate) fn each_chunk_parsed(
        &self,
        mut each: impl FnMut(usize, usize, bao_notation::Parsed) -> bool,
    ) -> bool {
        let chunks = &self.analysis.chunks;
        for (i, chunk) in chunks.iter().enumerate() {
            let next = chunks.get(i + 1).map_or(self.text.len(), |c| c.offset);
            if self.interrupted() || !each(chunk.offset, next, parse_record(&chunk.result.text)) {
                return false;
            }
        }
        true
    }

    /// [`View::each_game`] for the games of the chunks whose text overlaps `start..=end`
    /// of the document (all when `range` is `None`). Before each chunk the request's watch
    /// (if any) is polled: when it says stop, the loop ends there.
    pub(crate) fn each_game_over(
        &self,
        range: Option<(usize, usize)>,
        mut each: impl FnMut(usize, &Spanned<Game>),
    ) {
        let chunks = &self.analysis.chunks;
        let first = range.map_or(0, |(start, _)| {
            // Chunks are in text order; one may run past the start of the next.
            chunks
                .partition_point(|c| c.offset <= start)
                .saturating_sub(2)
        });
        for chunk in &chunks[first..] {
            if self.interrupted() {
                return;
            }
            if let Some((start, end)) = range {
                if chunk.offset > end {
                    break;
                }
                if !chunk.overlaps(start, end) {
                    continue;
                }
            }
            for game in &parse_record(&chunk.result.text).record.games {
                each(chunk.offset, game);
            }
        }
    }
}

/// Checks `text`, keeping the results of the chunks of `previous` whose text is unchanged.
///
/// After one change (`touched`), the chunks before it are kept without reading them: the
/// text is read again from the chunk before the one the change starts in (a change at a
/// chunk's start can join it to the chunk before), until a chunk past the change is one of
/// `previous` at its old place moved by the change (a binary search); the chunks from there
/// on are kept, moved; a chunk read again whose text is one of those the change touched
/// keeps its results. Otherwise the whole text is read, and a chunk whose text is one of
/// `previous`'s keeps its results. After one change the work is the chunks it touched, not
/// the document (but for the merge of the diagnostics, which is linear and cheap).
fn analyse(
    text: &str,
    previous: Vec<Chunk>,
    touched: Option<Touched>,
    opts: &CheckOptions,
) -> Analysis {
    // The chunks kept before the change (`chunks`), the others (`rest`), where reading
    // starts, and the games before it.
    let mut chunks = previous;
    let (rest, from, mut games_before) = match touched {
        Some(t) if !chunks.is_empty() => {
            let k = chunks
                .partition_point(|c| c.offset <= t.start)
                .saturating_sub(2);
            let rest = chunks.split_off(k);
            let (from, games) = (rest[0].offset, rest[0].first_game - 1);
            (rest, from, games)
        }
        _ => (std::mem::take(&mut chunks), 0, 0),
    };
    // A chunk of `rest` after the change, by its place moved by the change: where the
    // reading can stop (found by a binary search: `rest` is in text order).
    let after = |offset: usize| -> Option<usize> {
        let t = touched?;
        let old = offset.checked_add_signed(t.delta.checked_neg()?)?;
        let i = rest.partition_point(|c| c.offset < old);
        (offset >= t.end && rest.get(i)?.offset == old).then_some(i)
    };
    // The chunks whose results a chunk read with the same text takes: after one change,
    // those it touched (up to the first chunk past it; the rest are found by `after`);
    // otherwise all.
    let candidates = match touched {
        Some(t) => {
            let past = rest
                .iter()
                .position(|c| {
                    c.offset
                        .checked_add_signed(t.delta)
                        .is_some_and(|m| m >= t.end)
                })
                .map_or(rest.len(), |j| j + 1);
            &rest[..past]
        }
        None => &rest[..],
    };
    let mut known: HashMap<Arc<str>, Rc<ChunkResult>> = candidates
        .iter()
        .map(|c| (Arc::clone(&c.result.text), Rc::clone(&c.result)))
        .collect();
    let mut rechecked = 0;
    let mut reader = StreamReader::new(&text.as_bytes()[from..]);
    let mut resumed = None;
    // The chunks read again are `chunks[fresh..]` once the reading stops.
    let fresh = chunks.len();
    // Reading a `&[u8]` cannot fail; a failure would end the reading early.
    while let Ok(Some(mut chunk)) = reader.next_chunk() {
        chunk.offset += from;
        if let Some(i) = after(chunk.offset) {
            if rest[i].result.text == chunk.text {
                resumed = Some(i);
                break;
            }
        }
        for g in &mut chunk.games {
            g.0 += games_before;
        }
        let first = games_before + 1;
        games_before += chunk.games.len();
        let result = match known.remove(&chunk.text) {
            Some(result) => result,
            None => {
                rechecked += 1;
                Rc::new(ChunkResult {
                    text: Arc::clone(&chunk.text),
                    checked: check_chunk(&chunk, opts),
                })
            }
        };
        chunks.push(Chunk {
            offset: chunk.offset,
            first_game: first,
            games: chunk.games.len(),
            result,
            ordered: Rc::default(),
        });
    }
    let fresh = fresh..chunks.len();
    // The matches whose problems may have changed: those of the chunks read again and of
    // the chunks they replace.
    let replaced = &rest[..resumed.unwrap_or(rest.len())];
    let touched_matches: HashSet<MatchKey> = chunks[fresh.clone()]
        .iter()
        .chain(replaced)
        .flat_map(|c| c.result.checked.match_keys())
        .cloned()
        .collect();
    drop(known);
    if let (Some(i), Some(t)) = (resumed, touched) {
        for c in rest.into_iter().skip(i) {
            chunks.push(Chunk {
                offset: c.offset.saturating_add_signed(t.delta),
                first_game: games_before + 1,
                games: c.games,
                result: c.result,
                ordered: c.ordered,
            });
            games_before += c.games;
        }
    }
    order(&mut chunks, fresh, &touched_matches);
    Analysis { chunks, rechecked }
}

/// Puts the diagnostics of the chunks `fresh` (read again) in `bao check`'s order, and
/// those of the other chunks that have games in the matches `touched` (whose problems
/// depend on the games before them in the file): the matches `touched` are followed from
/// the start of the text, the others keep their problems.
fn order(chunks: &mut [Chunk], fresh: std::ops::Range<usize>, touched: &HashSet<MatchKey>) {
    let mut matches = Matches::default();
    let wanted = |key: &MatchKey| touched.contains(key);
    for (i, c) in chunks.iter_mut().enumerate() {
        let checked = &c.result.checked;
        if !fresh.contains(&i) && (touched.is_empty() || !checked.match_keys().any(wanted)) {
            continue;
        }
        let problems: Vec<Vec<CheckDiagnostic>> = checked
            .match_problems(&mut matches, wanted)
            .into_iter()
            .enumerate()
            .map(|(k, p)| {
                p.unwrap_or_else(|| c.ordered.problems.get(k).cloned().unwrap_or_default())
            })
            .collect();
        let diagnostics = checked.diagnostics(problems.iter().flatten().cloned());
        c.ordered = Rc::new(Ordered {
            problems,
            diagnostics,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_validate::check_text;
    use lsp_types::Range;

    /// A diagnostic's code, span and message.
    type Seen = (String, Option<(usize, usize)>, String);

    fn seen(d: &AnyDiagnostic) -> Seen {
        (
            d.code().to_owned(),
            d.span().map(|s| (s.start, s.end)),
            d.to_string(),
        )
    }

    /// The diagnostics of a whole-file `bao check` of `text`.
    fn full(text: &str, opts: &CheckOptions) -> Vec<Seen> {
        check_text("x", Arc::from(text), opts)
            .diagnostics
            .iter()
            .map(seen)
            .collect()
    }

    /// The diagnostics the document publishes.
    fn ours(doc: &mut Document, opts: &CheckOptions) -> Vec<Seen> {
        doc.view(opts)
            .analysis
            .diagnostics()
            .iter()
            .map(seen)
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
            ..CheckOptions::default()
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
            .diagnostics()
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

    #[test]
    fn a_change_to_a_match_game_redoes_the_problems_of_its_later_games() {
        let opts = CheckOptions {
            assume_fixes: false,
            lap_budget: Some(100_000),
            ..CheckOptions::default()
        };
        // Games 0-2 are match m0, 3-5 m1, 6-8 m2; match m0 gets a game at the end too.
        let mut text: String = (0..9).map(|n| game(n, "A6<* a6>*")).collect();
        text.push_str(&game(1, "A6<*"));
        let mut doc = Document::new(text, 1);
        assert_eq!(ours(&mut doc, &opts), full(&doc.text, &opts));
        let before = ours(&mut doc, &opts).len();
        // The first game's number: every later game of m0 is out of order, m1 and m2 not.
        let at = doc.text.find("[Game \"1\"]").unwrap() + 7;
        edit(&mut doc, at, 1, "2");
        assert_eq!(ours(&mut doc, &opts), full(&doc.text, &opts));
        assert_eq!(doc.view(&opts).analysis.rechecked, 1);
        assert!(ours(&mut doc, &opts).len() > before);
        // The first game moved to another match, and back.
        let at = doc.text.find("m0").unwrap() + 1;
        edit(&mut doc, at, 1, "7");
        assert_eq!(ours(&mut doc, &opts), full(&doc.text, &opts));
        edit(&mut doc, at, 1, "0");
        assert_eq!(ours(&mut doc, &opts), full(&doc.text, &opts));
        let at = doc.text.find("[Game \"2\"]").unwrap() + 7;
        edit(&mut doc, at, 1, "1");
        assert_eq!(ours(&mut doc, &opts), full(&doc.text, &opts));
        assert_eq!(ours(&mut doc, &opts).len(), before);
    }

    #[test]
    fn replays_are_kept_for_the_chunks_used_last_only() {
        let opts = CheckOptions {
            assume_fixes: false,
            lap_budget: Some(100_000),
            ..CheckOptions::default()
        };
        let games = REPLAYS * 2;
        let text: String = (0..games).map(|n| game(n, "A6<* a6>*")).collect();
        let mut doc = Document::new(text, 1);
        let v = doc.view(&opts);
        assert_eq!(v.analysis.chunks.len(), games);
        // The outline parses every game, and keeps no replay.
        let mut seen = 0;
        v.each_game(|_, _| seen += 1);
        assert_eq!(seen, games);
        assert_eq!(v.replays.len(), 0);
        // A request on every game: only the last `REPLAYS` are kept.
        for (n, c) in v.analysis.chunks.iter().enumerate() {
            let g = v.game_at(c.offset + 1).unwrap();
            let event = g.game().value.tag("Event").map(|t| t.value.clone());
            assert_eq!(event, Some(format!("g{n}")));
            assert!(g.replayed().is_some_and(|r| r.played_count() > 0));
        }
        assert_eq!(v.replays.len(), REPLAYS);
        // The one used last is not made again.
        let last = v.analysis.chunks[games - 1].offset;
        let (a, b) = (v.game_at(last).unwrap(), v.game_at(last).unwrap());
        assert!(Rc::ptr_eq(&a.checked, &b.checked));
        // Inlay hints' games: the chunks over the range only.
        let range = (v.analysis.chunks[3].offset, v.analysis.chunks[5].offset);
        assert_eq!(v.replayed_games(range.0, range.1).len(), 3);
        // A change to a game whose replay is kept: that replay goes when the next is made.
        let at = doc.text.find("g5\"").unwrap();
        edit(&mut doc, at + 1, 1, "9");
        let v = doc.view(&opts);
        let dead = |v: &View<'_>| {
            v.replays
                .kept
                .borrow()
                .iter()
                .filter(|(c, _)| c.strong_count() == 0)
                .count()
        };
        assert_eq!(dead(&v), 1);
        let g = v.game_at(at).unwrap();
        assert_eq!(
            g.game().value.tag("Event").map(|t| t.value.as_str()),
            Some("g9")
        );
        assert_eq!(dead(&v), 0);
        assert!(v.replays.len() <= REPLAYS);
    }

    #[test]
    fn a_byte_order_mark_keeps_the_diagnostics_of_a_whole_check() {
        let opts = CheckOptions {
            assume_fixes: false,
            lap_budget: Some(100_000),
            ..CheckOptions::default()
        };
        let body: String = (0..6)
            .map(|n| game(n, if n % 3 == 1 { "A5<*" } else { "A6<* a6>*" }))
            .collect();
        // A mark at the start, a game starting right after it, and one at the start of a
        // later game (two files with marks put together).
        let second = body.find("[Event \"g3\"]").unwrap();
        let text = format!("\u{feff}{}\u{feff}{}", &body[..second], &body[second..]);
        let mut doc = Document::new(text, 1);
        assert_eq!(ours(&mut doc, &opts), full(&doc.text, &opts));
        // Edits next to each mark: in the first game, right after the mark, before it,
        // and the marks taken out and put back.
        // Where (from the text), how many bytes to take out, what to put in.
        type Step = (fn(&str) -> usize, usize, &'static str);
        let steps: [Step; 8] = [
            (|_| 3, 0, "x"),
            (|_| 3, 1, ""),
            (|t| t.find("A6<*").unwrap() + 2, 1, ">"),
            (|_| 3, 0, "[Event \"new\"]\n\n1. A7>* *\n\n"),
            (|_| 0, 0, "; before the mark\n"),
            (|t| t.find('\u{feff}').unwrap(), 3, ""),
            (|t| t.find("\u{feff}[Event \"g3\"]").unwrap(), 3, ""),
            (|t| t.find("[Event \"g2\"]").unwrap(), 0, "\u{feff}"),
        ];
        for (i, (at, del, piece)) in steps.into_iter().enumerate() {
            let at = at(&doc.text);
            edit(&mut doc, at, del, piece);
            assert_eq!(
                ours(&mut doc, &opts),
                full(&doc.text, &opts),
                "step {i}: {:?}",
                doc.text
            );
        }
    }

    #[test]
    fn random_edits_give_the_diagnostics_of_a_whole_check() {
        let opts = CheckOptions {
            assume_fixes: false,
            lap_budget: Some(100_000),
            ..CheckOptions::default()
        };
        let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/");
        let mut text = String::from("\u{feff}");
        for f in [
            "games/match_best_of_three.bao",
            "games/variations_comments.bao",
            "invalid/repair/swapped_moves.bao",
            "games/random_kiswahili_3.bao",
            "invalid/record/match_inconsistent.bao",
        ] {
            text.push_str(&std::fs::read_to_string(format!("{fixtures}{f}")).unwrap());
            text.push('\n');
        }
        let pieces = [
            "",
            "[Event \"x\"]\n",
            "\n",
            "A6<* ",
            "{",
            "}",
            ")",
            "(",
            "1-0",
            "a5>",
            "\n\n[Game \"2\"]\n",
            "\u{feff}",
        ];
        let mut doc = Document::new(text, 1);
        let mut next = bao_testkit::Lcg::new(12345).picker();
        for round in 0..150 {
            let _ = doc.view(&opts);
            let len = doc.text.len();
            let mut at = next(len + 1);
            while !doc.text.is_char_boundary(at) {
                at -= 1;
            }
            let mut del = next(12).min(len - at);
            while !doc.text.is_char_boundary(at + del) {
                del -= 1;
            }
            let piece = pieces[next(pieces.len())];
            edit(&mut doc, at, del, piece);
            assert_eq!(
                ours(&mut doc, &opts),
                full(&doc.text, &opts),
                "round {round}"
            );
            assert_eq!(
                format!("{:?}", doc.index),
                format!("{:?}", LineIndex::new(&doc.text)),
                "round {round}"
            );
        }
    }
}
