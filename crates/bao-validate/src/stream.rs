//! Checking a record game by game from a stream, in bounded memory.
//!
//! The whole-file path ([`crate::check_bytes_report`]) decodes the whole input, parses the
//! whole record and sorts every diagnostic at the end. The streamed path gives the same
//! diagnostics in the same order, with the same spans, lines and columns and the same source
//! excerpts, while holding only a few chunks of text (normally a game each) at a time. It
//! has three stages, so that a caller can run the middle one on several threads:
//!
//! 1. [`StreamReader`] (bao-notation's [`bao_notation::stream`], sequential) reads the input
//!    as [`bao_notation::GameReader`] cuts it, decoding it as the whole-file path decodes
//!    it, and parses and numbers its chunks;
//! 2. [`check_chunk`] (any thread, any order) replays and checks the games of one chunk;
//! 3. [`Merger`] (sequential, in file order) adds the problems that need several games (the
//!    best-of-three matches, from a small summary of each game), sorts each chunk's
//!    diagnostics as the whole-file path sorts them, and gives out [`CheckedPiece`]s, each
//!    with the lines of text around it that its excerpts show, then the file's totals.
//!
//! [`map_chunks_noting`] (bao-notation's) runs stages 1 and 2 on every thread of a rayon
//! pool, as `bao check` does on a large file: only the cutting and the handing on in file
//! order stay on the calling thread. The reading half is bao-notation's (the crate that
//! knows where a game ends) and is re-exported here for the callers that check.

use std::io::{self, Read};
use std::sync::Arc;

use bao_notation::meaning::is_game;
use bao_notation::{Place, SourceText, Span, SyntaxError};
use bao_replay::ReplayedGame;
use miette::SourceCode;

pub use bao_notation::stream::{
    map_chunks, map_chunks_noting, Batch, Chunk, Cuts, ParsedCuts, StreamReader, Streamed,
};

use crate::diagnostic::{AnyDiagnostic, CheckDiagnostic, CheckReport, Stats};
use crate::record::{MatchEntry, MatchTracker};
use crate::{moves, CheckOptions};
use bao_notation::meaning::MatchKey;

/// The size of input above which `bao check` streams. Up to this size the whole-file path
/// is used: its excerpts are drawn as miette draws a string ([`bao_notation::SourceText`]'s
/// small mode), which the streamed path does not reproduce.
pub const STREAM_ABOVE: usize = SourceText::SMALL;

/// How many lines of text before a chunk and after it a piece keeps for its excerpts (miette
/// shows one line of context on each side; [`bao_notation::SourceText`] reads one line
/// more on each side).
const CONTEXT_LINES: usize = 4;

/// At most this many bytes of those lines are kept: an excerpt of longer lines is a window
/// of at most [`bao_notation::SourceText::MAX_SHOWN`] bytes around its span.
const CONTEXT_BYTES: usize = 8 * 1024;

/// A chunk checked (stage 2): its diagnostics with spans into the whole input.
#[derive(Debug, Clone)]
pub struct CheckedChunk {
    offset: usize,
    text: Arc<str>,
    syntax: Vec<SyntaxError>,
    checks: Vec<CheckDiagnostic>,
    matches: Vec<MatchEntry>,
    games: usize,
    plies: usize,
    /// The number in the file of the chunk's first game (0 for a chunk without games).
    first_game: usize,
}

impl CheckedChunk {
    /// The byte offset of the chunk's text in the input.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The chunk's text.
    #[must_use]
    pub fn text(&self) -> &Arc<str> {
        &self.text
    }

    /// The number in the file of the chunk's first game (0 for a chunk without games).
    #[must_use]
    pub fn first_game(&self) -> usize {
        self.first_game
    }

    /// The same chunk's results as if its text stood at `offset` of the input with its
    /// first game numbered `first_game` (an editor that keeps the results of the games a
    /// change did not touch moves them so, instead of checking them again). The chunk's
    /// text decides its results: only places and game numbers move.
    #[must_use]
    pub fn relocated(&self, offset: usize, first_game: usize) -> Self {
        let to = Relocation::new((self.offset, self.first_game), (offset, first_game));
        let mut out = self.clone();
        out.offset = offset;
        out.first_game = first_game;
        for e in &mut out.syntax {
            e.span = to.span(e.span);
        }
        for d in &mut out.checks {
            to.check(d);
        }
        for m in &mut out.matches {
            m.n = to.game(m.n);
            m.span = to.span(m.span);
        }
        out
    }

    /// The match ([`MatchKey`]: `Event`, `Site` and `Match`) of each of its games that has a
    /// `Match` tag, in file order.
    pub fn match_keys(&self) -> impl Iterator<Item = &MatchKey> + '_ {
        self.matches.iter().map(|m| &m.key)
    }

    /// The best-of-three problems of each of its games that has a `Match` tag (in the order
    /// of [`CheckedChunk::match_keys`]), given the games before it ([`Matches`], which
    /// takes this chunk's games in turn): for the matches `wanted` accepts; `None` for the
    /// games of the others (not taken either). Different matches do not depend on each
    /// other, so an editor can redo only the matches a change touched.
    pub fn match_problems(
        &self,
        matches: &mut Matches,
        wanted: impl Fn(&MatchKey) -> bool,
    ) -> Vec<Option<Vec<CheckDiagnostic>>> {
        self.matches
            .iter()
            .map(|m| wanted(&m.key).then(|| matches.0.game(m)))
            .collect()
    }

    /// Its diagnostics in `bao check`'s order, with its games' match problems (from
    /// [`CheckedChunk::match_problems`], in file order): what [`Merger`] gives for the chunk,
    /// without the text around it, for a caller that keeps each chunk's diagnostics.
    #[must_use]
    pub fn diagnostics(
        &self,
        match_problems: impl IntoIterator<Item = CheckDiagnostic>,
    ) -> ChunkDiagnostics {
        let (placed, unplaced) = ordered(
            self.syntax
                .iter()
                .cloned()
                .map(AnyDiagnostic::Syntax)
                .chain(self.checks.iter().cloned().map(AnyDiagnostic::Check))
                .chain(match_problems.into_iter().map(AnyDiagnostic::Check))
                .collect(),
        );
        ChunkDiagnostics {
            offset: self.offset,
            first_game: self.first_game,
            placed,
            unplaced,
        }
    }
}

/// The best-of-three matches of the games taken so far, in file order (what [`Merger`]
/// tracks across chunks; see [`CheckedChunk::match_problems`]).
#[derive(Debug, Default, Clone)]
pub struct Matches(MatchTracker);

/// One chunk's diagnostics in `bao check`'s order ([`CheckedChunk::diagnostics`]): those
/// with a place, sorted by where they start, and those without one, which a whole check
/// gives after every placed one of the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChunkDiagnostics {
    offset: usize,
    first_game: usize,
    placed: Vec<AnyDiagnostic>,
    unplaced: Vec<AnyDiagnostic>,
}

impl ChunkDiagnostics {
    /// The diagnostics with a place, in file order.
    #[must_use]
    pub fn placed(&self) -> &[AnyDiagnostic] {
        &self.placed
    }

    /// The diagnostics without a place.
    #[must_use]
    pub fn unplaced(&self) -> &[AnyDiagnostic] {
        &self.unplaced
    }

    /// Whether it has no diagnostic.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.placed.is_empty() && self.unplaced.is_empty()
    }

    /// The same diagnostics as if the chunk's text stood at `offset` with its first game
    /// numbered `first_game` (as [`CheckedChunk::relocated`]).
    #[must_use]
    pub fn relocated(&self, offset: usize, first_game: usize) -> Self {
        let to = Relocation::new((self.offset, self.first_game), (offset, first_game));
        let mut out = self.clone();
        out.offset = offset;
        out.first_game = first_game;
        for d in out.placed.iter_mut().chain(&mut out.unplaced) {
            match d {
                AnyDiagnostic::Syntax(e) => e.span = to.span(e.span),
                AnyDiagnostic::Check(c) => to.check(c),
            }
        }
        out
    }
}

/// A chunk's move: from (offset, first game) to another.
#[derive(Debug, Clone, Copy)]
struct Relocation {
    from: (usize, usize),
    to: (usize, usize),
}

impl Relocation {
    fn new(from: (usize, usize), to: (usize, usize)) -> Self {
        Self { from, to }
    }

    fn span(self, s: Span) -> Span {
        Span::new(
            s.start - self.from.0 + self.to.0,
            s.end - self.from.0 + self.to.0,
        )
    }

    fn game(self, n: usize) -> usize {
        n + self.to.1 - self.from.1
    }

    fn check(self, d: &mut CheckDiagnostic) {
        d.game = self.game(d.game);
        for l in &mut d.labels {
            l.span = self.span(l.span);
        }
    }
}

/// Diagnostics in `bao check`'s order within a chunk: those with a place sorted by where
/// they start (ties kept in the order given), and those without one.
fn ordered(diagnostics: Vec<AnyDiagnostic>) -> (Vec<AnyDiagnostic>, Vec<AnyDiagnostic>) {
    let (mut placed, unplaced): (Vec<_>, Vec<_>) =
        diagnostics.into_iter().partition(|d| d.span().is_some());
    placed.sort_by_key(|d| d.span().map_or(usize::MAX, |s| s.start));
    (placed, unplaced)
}

/// Replays and checks the games of a chunk, as the whole-file path checks each game.
#[must_use]
pub fn check_chunk(chunk: &Chunk, opts: &CheckOptions) -> CheckedChunk {
    check_chunk_keeping(chunk, opts, None)
}

/// [`check_chunk`], keeping each game's replay: one per game of [`Chunk::games`], in their
/// order (an empty one, as [`crate::Checked::replayed`] holds, for a game whose replay
/// failed inside the engine). For output written game by game from the replays (`bao
/// annotate`, `bao export json` on a large record).
#[must_use]
pub fn check_chunk_replayed(
    chunk: &Chunk,
    opts: &CheckOptions,
) -> (CheckedChunk, Vec<ReplayedGame>) {
    let mut replayed = Vec::with_capacity(chunk.games.len());
    let checked = check_chunk_keeping(chunk, opts, Some(&mut replayed));
    (checked, replayed)
}

fn check_chunk_keeping(
    chunk: &Chunk,
    opts: &CheckOptions,
    mut keep: Option<&mut Vec<ReplayedGame>>,
) -> CheckedChunk {
    let at = chunk.offset;
    let mut out = CheckedChunk {
        offset: at,
        text: Arc::clone(&chunk.text),
        syntax: Vec::new(),
        checks: Vec::new(),
        matches: Vec::new(),
        games: 0,
        plies: 0,
        first_game: chunk.games.first().map_or(0, |g| g.0),
    };
    for (n, g, errors) in &chunk.games {
        let game = &g.value;
        out.syntax
            .extend(errors.iter().map(|e| e.clone().shifted(at)));
        if is_game(game) {
            out.games += 1;
        }
        let c = moves::check_one(game, *n, opts, keep.is_some());
        out.plies += c.plies_checked();
        out.checks
            .extend(c.diagnostics.into_iter().map(|d| shift(d, at)));
        if let Some(keep) = keep.as_deref_mut() {
            keep.push(c.replayed);
        }
        if let Some(m) = MatchEntry::of(game, *n) {
            out.matches.push(m.shifted(at));
        }
    }
    out
}

fn shift(mut d: CheckDiagnostic, by: usize) -> CheckDiagnostic {
    for l in &mut d.labels {
        l.span = l.span.shifted(by);
    }
    d
}

/// Diagnostics of a stretch of the input in file order, with the text their excerpts show
/// (stage 3's output). As a miette diagnostic, it carries them as related diagnostics.
#[derive(Debug, Clone)]
pub struct CheckedPiece {
    /// The diagnostics, with spans into the whole input.
    pub diagnostics: Vec<AnyDiagnostic>,
    source: SourceText,
}

impl CheckedPiece {
    /// The 1-based line and column (in characters) of a byte offset of the input, for an
    /// offset inside the piece's text.
    #[must_use]
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.source.line_col(offset)
    }

    /// The name shown for the input.
    #[must_use]
    pub fn name(&self) -> &str {
        self.source.name()
    }
}

/// One short line (`diagnostics`): what a renderer draws for the piece itself, before its
/// related diagnostics.
impl std::fmt::Display for CheckedPiece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("diagnostics")
    }
}

impl std::error::Error for CheckedPiece {}

impl miette::Diagnostic for CheckedPiece {
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        Some(Box::new(
            self.diagnostics
                .iter()
                .map(|d| d as &dyn miette::Diagnostic),
        ))
    }
}

/// Puts checked chunks back in file order's report (stage 3).
#[derive(Debug)]
pub struct Merger {
    name: String,
    pending: Option<CheckedChunk>,
    warning: Option<SyntaxError>,
    matches: MatchTracker,
    /// The text just before the pending chunk (a few lines), and where it starts.
    history: String,
    history_at: Place,
    /// Diagnostics without a span: the whole-file path sorts them last.
    unplaced: Vec<AnyDiagnostic>,
    stats: Stats,
    lang: crate::words::Lang,
}

impl Merger {
    /// A merger for the input shown as `name`.
    #[must_use]
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            pending: None,
            warning: None,
            matches: MatchTracker::default(),
            history: String::new(),
            history_at: Place::default(),
            unplaced: Vec::new(),
            stats: Stats::default(),
            lang: crate::words::Lang::En,
        }
    }

    /// The merger, the report's summary and the matches' diagnostics in `lang` (the
    /// chunks' own are worded as their [`CheckOptions`] say).
    #[must_use]
    pub fn in_lang(mut self, lang: crate::words::Lang) -> Self {
        self.lang = lang;
        self.matches = MatchTracker::new(lang);
        self
    }

    /// Notes the reader's `latin1_input` warning, if it has one now.
    pub fn note_warning<R: Read>(&mut self, reader: &StreamReader<R>) {
        if let Some(w) = reader.take_warning() {
            self.warning(w);
        }
    }

    /// Notes the reader's `latin1_input` warning ([`StreamReader::take_warning`]), before the
    /// chunk it falls in is pushed.
    pub fn warning(&mut self, warning: SyntaxError) {
        self.warning = Some(warning);
    }

    /// Takes the next chunk in file order; gives the piece of the chunk before it, when that
    /// one has diagnostics.
    pub fn push(&mut self, chunk: CheckedChunk) -> Option<CheckedPiece> {
        let previous = self.pending.replace(chunk);
        let previous = previous?;
        let next = self
            .pending
            .as_ref()
            .map(|c| (c.offset, Arc::clone(&c.text)));
        self.finish_chunk(previous, next)
    }

    /// The end of the input: the piece of the last chunk and the one of the diagnostics
    /// without a place, if they have diagnostics, and the report that carries the file's
    /// totals (its diagnostics are in the pieces, not in it).
    #[must_use]
    pub fn finish(mut self) -> (Vec<CheckedPiece>, CheckReport) {
        let mut pieces = Vec::new();
        if let Some(last) = self.pending.take() {
            pieces.extend(self.finish_chunk(last, None));
        }
        if let Some(w) = self.warning.take() {
            // Past every chunk (an input that ends in its first byte that is not UTF-8
            // can have no chunk); it is placed before the diagnostics without a span.
            self.unplaced.insert(0, AnyDiagnostic::Syntax(w));
        }
        let unplaced = std::mem::take(&mut self.unplaced);
        self.count(&unplaced);
        let report = CheckReport::new(&self.name, Arc::from(""), Vec::new(), 0, 0)
            .with_stats(self.stats)
            .in_lang(self.lang);
        if !unplaced.is_empty() {
            let source = self.window("", None);
            pieces.push(CheckedPiece {
                diagnostics: unplaced,
                source,
            });
        }
        (pieces, report)
    }

    fn count(&mut self, diagnostics: &[AnyDiagnostic]) {
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        self.stats.errors += errors;
        self.stats.warnings += diagnostics.len() - errors;
    }

    /// The diagnostics of `chunk`, whose own text ends where the next chunk begins.
    fn finish_chunk(
        &mut self,
        chunk: CheckedChunk,
        next: Option<(usize, Arc<str>)>,
    ) -> Option<CheckedPiece> {
        let own_end = next
            .as_ref()
            .map_or(chunk.text.len(), |(o, _)| o.saturating_sub(chunk.offset))
            .min(chunk.text.len());
        self.stats.games += chunk.games;
        self.stats.plies += chunk.plies;
        let mut diagnostics: Vec<AnyDiagnostic> = Vec::new();
        let end = chunk.offset + own_end;
        if self
            .warning
            .as_ref()
            .is_some_and(|w| w.span.start < end || next.is_none())
        {
            diagnostics.extend(self.warning.take().map(AnyDiagnostic::Syntax));
        }
        diagnostics.extend(chunk.syntax.into_iter().map(AnyDiagnostic::Syntax));
        diagnostics.extend(chunk.checks.into_iter().map(AnyDiagnostic::Check));
        for m in &chunk.matches {
            diagnostics.extend(self.matches.game(m).into_iter().map(AnyDiagnostic::Check));
        }
        let (diagnostics, unplaced) = ordered(diagnostics);
        self.unplaced.extend(unplaced);
        self.count(&diagnostics);
        let own = &chunk.text[..own_end];
        let piece = (!diagnostics.is_empty()).then(|| {
            let source = self.window(own, next.as_ref().map(|(_, t)| t.as_ref()));
            CheckedPiece {
                diagnostics,
                source,
            }
        });
        self.advance(own);
        piece
    }

    /// The text around the pending chunk: the history, the chunk's own text and the first
    /// lines of the next chunk.
    fn window(&self, own: &str, next: Option<&str>) -> SourceText {
        let mut text = String::with_capacity(self.history.len() + own.len() + 256);
        text.push_str(&self.history);
        text.push_str(own);
        if let Some(next) = next {
            text.push_str(head_lines(next));
        }
        SourceText::excerpt(&self.name, Arc::from(text), self.history_at)
    }

    /// Moves the history past `own`: the last few lines before the next chunk.
    fn advance(&mut self, own: &str) {
        self.history.push_str(own);
        let keep_from = tail_start(&self.history);
        if keep_from == 0 {
            return;
        }
        let dropped = &self.history[..keep_from];
        let (breaks, after_last) = count_breaks(dropped, self.history.as_bytes().get(keep_from));
        let at = &mut self.history_at;
        at.offset += keep_from;
        at.line += breaks;
        at.column = match after_last {
            Some(i) => dropped[i..].chars().count(),
            None => at.column + dropped.chars().count(),
        };
        self.history.drain(..keep_from);
    }
}

/// Where the last [`CONTEXT_LINES`] lines of `text` start, at most [`CONTEXT_BYTES`] bytes
/// from its end (then on a character boundary inside a line).
fn tail_start(text: &str) -> usize {
    let b = text.as_bytes();
    let mut from = 0;
    let mut seen = 0;
    for i in memchr::memrchr2_iter(b'\n', b'\r', b) {
        if (b[i] == b'\r' && b.get(i + 1) == Some(&b'\n')) || i + 1 == b.len() {
            continue;
        }
        seen += 1;
        if seen == CONTEXT_LINES {
            from = i + 1;
            break;
        }
    }
    if b.len() - from > CONTEXT_BYTES {
        from = b.len() - CONTEXT_BYTES;
        while !text.is_char_boundary(from) {
            from += 1;
        }
    }
    // Never between the two bytes of a `\r\n`: the `\n` would count as a break of its own.
    if from > 0 && b[from - 1] == b'\r' && b.get(from) == Some(&b'\n') {
        from += 1;
    }
    from
}

/// The line breaks of `text` as miette counts them (`\n`, `\r\n`, a lone `\r`), given the
/// byte after it; and where the last line of `text` starts, if a break is in it.
fn count_breaks(text: &str, after: Option<&u8>) -> (usize, Option<usize>) {
    let b = text.as_bytes();
    let mut n = 0;
    let mut last = None;
    for i in memchr::memchr2_iter(b'\n', b'\r', b) {
        if b[i] == b'\r' && b.get(i + 1).or(after) == Some(&b'\n') {
            continue;
        }
        n += 1;
        last = Some(i + 1);
    }
    (n, last)
}

/// The first [`CONTEXT_LINES`] lines of `text` (at most [`CONTEXT_BYTES`] bytes, on a
/// character boundary).
fn head_lines(text: &str) -> &str {
    let b = text.as_bytes();
    let mut end = b.len();
    for (k, i) in memchr::memchr_iter(b'\n', b).enumerate() {
        if k + 1 >= CONTEXT_LINES {
            end = i + 1;
            break;
        }
    }
    let mut end = end.min(CONTEXT_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Reads and checks a whole input in file order on this thread, handing each piece to
/// `each` as soon as it is known; returns the report with the file's totals (the pieces
/// hold its diagnostics).
///
/// # Errors
///
/// A read error of the input, or the first error `each` returns.
pub fn check_stream<R: Read, E: From<io::Error>>(
    name: &str,
    input: R,
    opts: &CheckOptions,
    mut each: impl FnMut(CheckedPiece) -> Result<(), E>,
) -> Result<CheckReport, E> {
    let mut reader = StreamReader::new(input);
    let mut merger = Merger::new(name).in_lang(opts.lang);
    while let Some(chunk) = reader.next_chunk()? {
        merger.note_warning(&reader);
        let checked = check_chunk(&chunk, opts);
        if let Some(p) = merger.push(checked) {
            each(p)?;
        }
    }
    merger.note_warning(&reader);
    let (pieces, report) = merger.finish();
    for p in pieces {
        each(p)?;
    }
    Ok(report)
}
