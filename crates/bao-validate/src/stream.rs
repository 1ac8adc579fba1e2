//! Checking a record game by game from a stream, in bounded memory.
//!
//! The whole-file path ([`crate::check_bytes_report`]) decodes the whole input, parses the
//! whole record and sorts every diagnostic at the end. The streamed path gives the same
//! diagnostics in the same order, with the same spans, lines and columns and the same source
//! excerpts, while holding only a few chunks of text (normally a game each) at a time. It
//! has three stages, so that a caller can run the middle one on several threads:
//!
//! 1. [`StreamReader`] (sequential) reads the input as [`bao_notation::GameReader`] cuts
//!    it, decoding it line by line as the whole-file path decodes it; it parses the chunks
//!    and numbers their games in file order ([`StreamReader::next_chunk`]), or hands the
//!    chunks out as cut ([`StreamReader::next_cuts`]) to be parsed on any thread
//!    ([`Cuts::parse`]) and numbered after ([`StreamReader::settle`]);
//! 2. [`check_chunk`] (any thread, any order) replays and checks the games of one chunk;
//! 3. [`Merger`] (sequential, in file order) adds the problems that need several games (the
//!    best-of-three matches, from a small summary of each game), sorts each chunk's
//!    diagnostics as the whole-file path sorts them, and gives out [`CheckedPiece`]s, each
//!    with the lines of text around it that its excerpts show, then the file's totals.
//!
//! [`map_chunks_noting`] runs stages 1 and 2 on every thread of a rayon pool, as `bao check`
//! does on a large file: only the cutting and the handing on in file order stay on the
//! calling thread.

use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::{Arc, Mutex};

use bao_notation::meaning::is_game;
use bao_notation::{
    decode, ChunkParser, ChunkReader, Game, Limits, Place, SourceText, Span, Spanned, SyntaxError,
};
use bao_replay::ReplayedGame;
use miette::SourceCode;

use crate::diagnostic::{AnyDiagnostic, CheckDiagnostic, CheckReport, Stats};
use crate::record::{MatchEntry, MatchTracker};
use crate::{moves, CheckOptions};
use bao_notation::meaning::MatchKey;

/// The size of input above which `bao check` streams. Up to this size the whole-file path
/// is used: its excerpts are drawn as miette draws a string ([`bao_notation::SourceText`]'s
/// small mode), which the streamed path does not reproduce.
pub const STREAM_ABOVE: usize = SourceText::SMALL;

/// The largest game the whole-file path reads (a longer chunk gets `game_too_long`).
const MAX_GAME: usize = Limits::DEFAULT.max_game_bytes;

/// How many lines of text before a chunk and after it a piece keeps for its excerpts (miette
/// shows one line of context on each side; [`bao_notation::SourceText`] reads one line
/// more on each side).
const CONTEXT_LINES: usize = 4;

/// At most this many bytes of those lines are kept: an excerpt of longer lines is a window
/// of at most [`bao_notation::SourceText::MAX_SHOWN`] bytes around its span.
const CONTEXT_BYTES: usize = 8 * 1024;

/// Reads bytes and hands them on decoded as the whole-file path decodes them (UTF-8 as is,
/// other bytes as Latin-1), a run of whole lines at a time (all the whole lines the buffer
/// holds: one decoding and one copy for them, not one per line); notes the first byte that
/// was not UTF-8.
#[derive(Debug)]
struct Decoding<R> {
    input: BufReader<R>,
    /// The start of a line longer than the buffer, gathered until its end is read.
    line: Vec<u8>,
    out: Vec<u8>,
    pos: usize,
    /// Decoded bytes handed out so far.
    offset: usize,
    warning: Arc<Mutex<Option<SyntaxError>>>,
    warned: bool,
}

impl<R: Read> Decoding<R> {
    /// A decoding of `input`, reporting its first encoding problem into `warning`.
    fn new(input: BufReader<R>, warning: &Arc<Mutex<Option<SyntaxError>>>) -> Self {
        Self {
            input,
            line: Vec::new(),
            out: Vec::new(),
            pos: 0,
            offset: 0,
            warning: Arc::clone(warning),
            warned: false,
        }
    }

    /// Decodes `bytes` (whole lines, or the last line of the input) onto `out`. Lines end
    /// with `\n`, which no UTF-8 sequence holds: a run of lines decodes as each of them does
    /// inside the whole text.
    fn decode_into(&mut self, bytes: &[u8]) {
        let d = decode(bytes);
        if let (Some(w), false) = (d.warning, self.warned) {
            self.warned = true;
            if let Ok(mut slot) = self.warning.lock() {
                *slot = Some(w.shifted(self.offset));
            }
        }
        self.out.extend_from_slice(d.text.as_bytes());
    }

    /// Refills `out` with the next run of whole lines; `false` at the end of the input.
    fn refill(&mut self) -> io::Result<bool> {
        self.out.clear();
        self.pos = 0;
        loop {
            let avail = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                // The last line, without its `\n`.
                if self.line.is_empty() {
                    return Ok(false);
                }
                let line = std::mem::take(&mut self.line);
                self.decode_into(&line);
                self.line = line;
                self.line.clear();
                break;
            }
            let Some(last) = memchr::memrchr(b'\n', avail) else {
                let n = avail.len();
                self.line.extend_from_slice(avail);
                self.input.consume(n);
                continue;
            };
            let take = if self.line.is_empty() {
                last + 1
            } else {
                // Only the end of the line gathered: the whole lines after it are read
                // straight from the buffer ([`Decoding::read_direct`]).
                memchr::memchr(b'\n', avail).map_or(last, |i| i) + 1
            };
            if self.line.is_empty() {
                // The usual case: decoded straight from the reader's buffer.
                let d = decode(&avail[..take]);
                if let (Some(w), false) = (d.warning, self.warned) {
                    self.warned = true;
                    if let Ok(mut slot) = self.warning.lock() {
                        *slot = Some(w.shifted(self.offset));
                    }
                }
                self.out.extend_from_slice(d.text.as_bytes());
            } else {
                let mut line = std::mem::take(&mut self.line);
                line.extend_from_slice(&avail[..take]);
                self.decode_into(&line);
                line.clear();
                self.line = line;
            }
            self.input.consume(take);
            break;
        }
        self.offset += self.out.len();
        Ok(true)
    }

    /// The usual case, with nothing decoded left to hand out and no line gathered: the
    /// whole lines of the reader's buffer that fit in `buf`, when they are UTF-8, copied
    /// straight into it (decoded as they are, with no copy in between); `None` otherwise
    /// ([`Decoding::refill`] then decodes them).
    fn read_direct(&mut self, buf: &mut [u8]) -> io::Result<Option<usize>> {
        let avail = loop {
            match self.input.fill_buf() {
                Ok(b) => break b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        let window = &avail[..avail.len().min(buf.len())];
        let Some(last) = memchr::memrchr(b'\n', window) else {
            return Ok(None);
        };
        let take = last + 1;
        if !matches!(decode(&window[..take]).text, Cow::Borrowed(_)) {
            return Ok(None);
        }
        buf[..take].copy_from_slice(&window[..take]);
        self.input.consume(take);
        self.offset += take;
        Ok(Some(take))
    }
}

impl<R: Read> Read for Decoding<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.out.len() && self.line.is_empty() {
            if let Some(n) = self.read_direct(buf)? {
                return Ok(n);
            }
        }
        if self.pos == self.out.len() && !self.refill()? {
            return Ok(0);
        }
        let n = buf.len().min(self.out.len() - self.pos);
        buf[..n].copy_from_slice(&self.out[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// One chunk of the input (normally one game; see [`bao_notation::GameReader`]) with its
/// games.
#[derive(Debug, Clone)]
pub struct Chunk {
    /// The byte offset of `text` in the decoded input.
    pub offset: usize,
    /// The chunk's text (its spans are relative to it).
    pub text: Arc<str>,
    /// The games read from it: the number of each in the file (from 1), the game and its
    /// syntax diagnostics.
    pub games: Vec<(usize, Spanned<Game>, Vec<SyntaxError>)>,
}

/// Chunks read in a row, to check together.
#[derive(Debug, Clone, Default)]
pub struct Batch {
    /// In file order.
    pub chunks: Vec<Chunk>,
    /// The bytes of text they hold.
    pub bytes: usize,
}

/// The limits of the streamed path's reader and parser: no limit on a chunk's length in the
/// reader (a chunk longer than the whole-file path's limit is read whole, and given
/// `game_too_long` as that path gives it; the reader would skip it without its text, and
/// the lines after it could not be counted).
const READER_LIMITS: Limits = Limits {
    max_game_bytes: usize::MAX / 4,
    ..Limits::DEFAULT
};

/// A game of a [`Chunk`]: its number in the file, the game, its syntax diagnostics.
type NumberedGame = (usize, Spanned<Game>, Vec<SyntaxError>);

/// A chunk as the reader cut it, not parsed yet.
#[derive(Debug, Clone)]
struct Cut {
    text: Arc<str>,
    offset: usize,
}

/// The comments after a chunk's last game, which the next chunk's first game begins with
/// (the reader puts them in front of the next chunk's text).
#[derive(Debug, Clone)]
struct Carry {
    offset: usize,
    text: String,
}

/// A chunk parsed, its games not numbered yet (they are numbered in file order).
#[derive(Debug)]
struct Part {
    /// As cut, to parse it again if it was parsed with other comments in front than the
    /// ones the chunk before it leaves.
    cut: Cut,
    /// The offset of the comments it was parsed with in front, if any.
    carried: Option<usize>,
    chunk: Chunk,
    /// The comments after its last game.
    carry: Option<Carry>,
}

/// Parses a chunk as cut, with the comments carried from the chunk before it in front, as
/// the whole-file path reads it.
fn parse_part(parser: &mut ChunkParser, cut: Cut, carry: Option<&Carry>) -> Part {
    let (text, offset) = match carry {
        Some(c) => {
            let mut t = String::with_capacity(c.text.len() + cut.text.len());
            t.push_str(&c.text);
            t.push_str(&cut.text);
            (Arc::from(t), c.offset)
        }
        None => (Arc::clone(&cut.text), cut.offset),
    };
    let parsed = parser.parse(&text, offset == 0);
    let (games, carry_out) = too_long(&text, parsed.games, || {
        parsed.trailing.map(|t| Carry {
            offset: offset + t,
            text: text[t..].to_owned(),
        })
    });
    Part {
        cut,
        carried: carry.map(|c| c.offset),
        chunk: Chunk {
            offset,
            text,
            games,
        },
        carry: carry_out,
    }
}

/// A chunk's games (numbered 0 until [`StreamReader::settle`] numbers them), or, for a chunk
/// longer than the whole-file path reads, one empty game over it with `game_too_long` (and
/// no comments carried: it is skipped up to the next game's first line, the comments after
/// its result with it, as the whole-file path skips it).
fn too_long(
    text: &str,
    games: Vec<(Spanned<Game>, Vec<SyntaxError>)>,
    carry: impl FnOnce() -> Option<Carry>,
) -> (Vec<NumberedGame>, Option<Carry>) {
    if text.len() > MAX_GAME && !games.is_empty() {
        let game = Spanned::new(Game::default(), Span::new(0, text.len()));
        let error = SyntaxError::game_too_long(text, MAX_GAME);
        return (vec![(0, game, vec![error])], None);
    }
    let games = games.into_iter().map(|(g, e)| (0, g, e)).collect();
    (games, carry())
}

/// Chunks as the reader cut them, to be parsed on any thread ([`Cuts::parse`]); then
/// numbered in file order ([`StreamReader::settle`]).
#[derive(Debug)]
pub struct Cuts {
    cuts: Vec<Cut>,
}

impl Cuts {
    /// Parses the chunks (any thread, any order), each with the comments the one before it
    /// leaves in front; the first as if the chunks before had left none, which
    /// [`StreamReader::settle`] puts right.
    #[must_use]
    pub fn parse(self) -> ParsedCuts {
        let mut parser = ChunkParser::new(&READER_LIMITS);
        let mut carry: Option<Carry> = None;
        let parts = self
            .cuts
            .into_iter()
            .map(|cut| {
                let part = parse_part(&mut parser, cut, carry.as_ref());
                carry.clone_from(&part.carry);
                part
            })
            .collect();
        ParsedCuts { parts }
    }
}

/// [`Cuts`] parsed, their games not numbered yet.
#[derive(Debug)]
pub struct ParsedCuts {
    parts: Vec<Part>,
}

/// Reads a record chunk by chunk (stage 1).
///
/// Sequentially with [`StreamReader::next_chunk`] and [`StreamReader::next_batch`]; or, to
/// parse on other threads, [`StreamReader::next_cuts`] here, [`Cuts::parse`] on any thread,
/// and [`StreamReader::settle`] here in file order, then [`StreamReader::last_batch`] at
/// the end of the input: the chunks are the same.
#[derive(Debug)]
pub struct StreamReader<R: Read> {
    cuts: ChunkReader<Decoding<R>>,
    warning: Arc<Mutex<Option<SyntaxError>>>,
    /// The parser of the sequential path (and of the chunks parsed again when settled).
    parser: ChunkParser,
    /// The comments after the last chunk settled.
    carry: Option<Carry>,
    counted: usize,
}

impl<R: Read> StreamReader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> Self {
        let warning = Arc::new(Mutex::new(None));
        let decoding = Decoding::new(BufReader::with_capacity(1 << 16, input), &warning);
        Self {
            cuts: ChunkReader::with_limits(decoding, &READER_LIMITS),
            warning,
            parser: ChunkParser::new(&READER_LIMITS),
            carry: None,
            counted: 0,
        }
    }

    /// The `latin1_input` warning (once), when the first byte that is not UTF-8 has been
    /// read: it falls in a chunk read so far or in the next ones.
    #[must_use]
    pub fn take_warning(&self) -> Option<SyntaxError> {
        self.warning.lock().ok().and_then(|mut w| w.take())
    }

    fn next_cut(&mut self) -> io::Result<Option<Cut>> {
        Ok(self.cuts.next_chunk()?.map(|c| Cut {
            offset: usize::try_from(c.offset).unwrap_or(usize::MAX),
            text: c.text,
        }))
    }

    /// Numbers a chunk's games in file order; `None` for a chunk without games (blank lines,
    /// or only comments, which the next chunk took).
    fn number(&mut self, mut chunk: Chunk) -> Option<Chunk> {
        if chunk.games.is_empty() {
            return None;
        }
        for g in &mut chunk.games {
            self.counted += 1;
            g.0 = self.counted;
        }
        Some(chunk)
    }

    /// The comments left at the end of the input, as a chunk of their own.
    fn last_chunk(&mut self) -> Option<Chunk> {
        let carry = self.carry.take()?;
        let text: Arc<str> = Arc::from(carry.text);
        let parsed = self.parser.parse_last(&text);
        let (games, _) = too_long(&text, parsed.games, || None);
        self.number(Chunk {
            offset: carry.offset,
            text,
            games,
        })
    }

    /// The next chunk, or `None` at the end of the input.
    ///
    /// # Errors
    ///
    /// A read error of the input.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        loop {
            let Some(cut) = self.next_cut()? else {
                return Ok(self.last_chunk());
            };
            let part = parse_part(&mut self.parser, cut, self.carry.as_ref());
            self.carry = part.carry;
            if let Some(chunk) = self.number(part.chunk) {
                return Ok(Some(chunk));
            }
        }
    }

    /// Chunks up to `bytes` of text (at least one chunk), or `None` at the end.
    ///
    /// # Errors
    ///
    /// A read error of the input.
    pub fn next_batch(&mut self, bytes: usize) -> io::Result<Option<Batch>> {
        let mut batch = Batch::default();
        while batch.bytes < bytes {
            match self.next_chunk()? {
                Some(c) => {
                    batch.bytes += c.text.len();
                    batch.chunks.push(c);
                }
                None => break,
            }
        }
        Ok((!batch.chunks.is_empty()).then_some(batch))
    }

    /// Chunks up to `bytes` of text as cut (at least one), not parsed, or `None` at the
    /// end of the input (then [`StreamReader::last_batch`], once every batch is settled).
    ///
    /// # Errors
    ///
    /// A read error of the input.
    pub fn next_cuts(&mut self, bytes: usize) -> io::Result<Option<Cuts>> {
        let mut cuts = Vec::new();
        let mut read = 0;
        while read < bytes {
            match self.next_cut()? {
                Some(c) => {
                    read += c.text.len();
                    cuts.push(c);
                }
                None => break,
            }
        }
        Ok((!cuts.is_empty()).then_some(Cuts { cuts }))
    }

    /// The chunks of [`Cuts`] parsed, given in file order (each batch read by
    /// [`StreamReader::next_cuts`], once, in the order read): their games numbered, and
    /// any chunk parsed with other comments in front than the ones the chunk before it
    /// leaves parsed again (the first of a batch, when the batch before it ends with
    /// comments after its last game).
    pub fn settle(&mut self, parsed: ParsedCuts) -> Batch {
        let mut batch = Batch::default();
        for part in parsed.parts {
            let part = if part.carried == self.carry.as_ref().map(|c| c.offset) {
                part
            } else {
                parse_part(&mut self.parser, part.cut, self.carry.as_ref())
            };
            self.carry = part.carry;
            if let Some(chunk) = self.number(part.chunk) {
                batch.bytes += chunk.text.len();
                batch.chunks.push(chunk);
            }
        }
        batch
    }

    /// At the end of the input, once every batch is settled: the comments left after the
    /// last game, as a batch of one chunk of their own (`None` when there are none).
    pub fn last_batch(&mut self) -> Option<Batch> {
        self.last_chunk().map(|c| Batch {
            bytes: c.text.len(),
            chunks: vec![c],
        })
    }
}

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
        }
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
        let report =
            CheckReport::new(&self.name, Arc::from(""), Vec::new(), 0, 0).with_stats(self.stats);
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

/// What [`map_chunks_noting`] hands on, in file order.
#[derive(Debug)]
pub enum Streamed<T> {
    /// The reader's `latin1_input` warning (at most once), given before the chunk it falls
    /// in (for a [`Merger`]: [`Merger::warning`]).
    Warning(SyntaxError),
    /// What `map` made of a chunk.
    Chunk(T),
}

/// What a job on the pool gives back to the thread that reads and hands on.
enum Done<T> {
    Parsed(usize, ParsedCuts),
    Mapped(usize, Vec<T>),
    Panicked(Box<dyn std::any::Any + Send>),
}

/// Reads `input` chunk by chunk and maps every chunk with `map` on the threads of the current
/// rayon pool, handing the results to `each` in file order: the way `bao check` streams a
/// large file, for any work done game by game (the archive commands' filters and
/// statistics). See [`map_chunks_noting`].
///
/// # Errors
///
/// A read error of the input, or the first error `each` returns.
pub fn map_chunks<R, T, E>(
    input: R,
    batch_bytes: usize,
    map: impl Fn(&Chunk) -> T + Sync,
    mut each: impl FnMut(T) -> Result<(), E>,
) -> Result<(), E>
where
    R: Read,
    T: Send,
    E: From<io::Error>,
{
    map_chunks_noting(input, batch_bytes, map, |s| match s {
        Streamed::Chunk(t) => each(t),
        Streamed::Warning(_) => Ok(()),
    })
}

/// [`map_chunks`], handing on the reader's `latin1_input` warning too (`bao check` reports
/// it).
///
/// The calling thread reads and cuts the input (cheap: a search for line ends and tag
/// lines) into batches of about `batch_bytes` of text; each batch is parsed by a job on the
/// pool ([`Cuts::parse`]), its games numbered here in file order
/// ([`StreamReader::settle`]), then mapped by another job; the results are handed to `each`
/// here, in file order, as soon as they are next. At most a few batches per thread are in
/// flight (read and not yet handed on), so memory stays bounded whatever the size of the
/// input; when that many are, or when nothing else is to be done, the calling thread runs
/// the pool's pending jobs itself (on a pool of one thread, it does all the work).
///
/// # Errors
///
/// A read error of the input, or the first error `each` returns.
pub fn map_chunks_noting<R, T, E>(
    input: R,
    batch_bytes: usize,
    map: impl Fn(&Chunk) -> T + Sync,
    mut each: impl FnMut(Streamed<T>) -> Result<(), E>,
) -> Result<(), E>
where
    R: Read,
    T: Send,
    E: From<io::Error>,
{
    use std::collections::BTreeMap;
    use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
    use std::sync::mpsc;

    let in_flight = rayon::current_num_threads().max(1) * 2 + 2;
    let mut reader = StreamReader::new(input);
    let map = &map;
    rayon::in_place_scope_fifo(|scope| {
        let (tx, rx) = mpsc::channel::<Done<T>>();
        let mut parsed: BTreeMap<usize, ParsedCuts> = BTreeMap::new();
        let mut mapped: BTreeMap<usize, Vec<T>> = BTreeMap::new();
        let mut warnings: BTreeMap<usize, SyntaxError> = BTreeMap::new();
        // Batches read, settled (numbered) and handed on; jobs not yet answered.
        let (mut read, mut settled, mut handed, mut pending) = (0usize, 0usize, 0usize, 0usize);
        let (mut at_end, mut last_taken) = (false, false);
        fn take<T>(
            done: Done<T>,
            parsed: &mut BTreeMap<usize, ParsedCuts>,
            mapped: &mut BTreeMap<usize, Vec<T>>,
        ) {
            match done {
                Done::Parsed(k, p) => {
                    parsed.insert(k, p);
                }
                Done::Mapped(k, m) => {
                    mapped.insert(k, m);
                }
                Done::Panicked(payload) => resume_unwind(payload),
            }
        }
        loop {
            while let Ok(done) = rx.try_recv() {
                pending -= 1;
                take(done, &mut parsed, &mut mapped);
            }
            let mut progress = false;
            while let Some(p) = parsed.remove(&settled) {
                let batch = reader.settle(p);
                let (tx, k) = (tx.clone(), settled);
                scope.spawn_fifo(move |_| {
                    let out = catch_unwind(AssertUnwindSafe(|| {
                        batch.chunks.iter().map(map).collect::<Vec<T>>()
                    }));
                    // The receiver is gone only when the reading stopped on an error.
                    let _ = tx.send(match out {
                        Ok(m) => Done::Mapped(k, m),
                        Err(e) => Done::Panicked(e),
                    });
                });
                pending += 1;
                settled += 1;
                progress = true;
            }
            if at_end && settled == read && !last_taken {
                // The comments left at the end, once every chunk before them is settled.
                last_taken = true;
                if let Some(batch) = reader.last_batch() {
                    mapped.insert(read, batch.chunks.iter().map(map).collect());
                    read += 1;
                    settled += 1;
                }
                progress = true;
            }
            while let Some(m) = mapped.remove(&handed) {
                if let Some(w) = warnings.remove(&handed) {
                    each(Streamed::Warning(w))?;
                }
                for t in m {
                    each(Streamed::Chunk(t))?;
                }
                handed += 1;
                progress = true;
            }
            if last_taken && handed == read {
                break;
            }
            if !at_end && read - handed < in_flight {
                match reader.next_cuts(batch_bytes)? {
                    Some(cuts) => {
                        if let Some(w) = reader.take_warning() {
                            warnings.insert(read, w);
                        }
                        let (tx, k) = (tx.clone(), read);
                        scope.spawn_fifo(move |_| {
                            let out = catch_unwind(AssertUnwindSafe(|| cuts.parse()));
                            let _ = tx.send(match out {
                                Ok(p) => Done::Parsed(k, p),
                                Err(e) => Done::Panicked(e),
                            });
                        });
                        pending += 1;
                        read += 1;
                    }
                    None => at_end = true,
                }
                continue;
            }
            if progress || pending == 0 {
                continue;
            }
            // Nothing to do here but wait: run a pending job of the pool, or, when every
            // one is running elsewhere, wait for one to answer.
            if !matches!(rayon::yield_now(), Some(rayon::Yield::Executed)) {
                if let Ok(done) = rx.recv() {
                    pending -= 1;
                    take(done, &mut parsed, &mut mapped);
                }
            }
        }
        // Read at the end of the input, after every chunk.
        if let Some(w) = reader.take_warning() {
            each(Streamed::Warning(w))?;
        }
        Ok(())
    })
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
    let mut merger = Merger::new(name);
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

#[cfg(test)]
mod tests {
    use std::io::{BufReader, Read};
    use std::sync::{Arc, Mutex};

    use bao_notation::decode;

    use super::Decoding;

    /// Reads `bytes` through a [`Decoding`] whose buffer holds `capacity` bytes, `step`
    /// bytes at most at a time; the text and the warning's offset.
    fn decoded(bytes: &[u8], capacity: usize, step: usize) -> (String, Option<usize>) {
        let warning = Arc::new(Mutex::new(None));
        let mut d = Decoding::new(BufReader::with_capacity(capacity, bytes), &warning);
        let mut out = Vec::new();
        let mut buf = vec![0; step];
        loop {
            let n = d.read(&mut buf).expect("read");
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        let at = warning.lock().expect("lock").as_ref().map(|w| w.span.start);
        (String::from_utf8(out).expect("UTF-8"), at)
    }

    /// Lines straddling the buffer, longer than it, multi-byte characters cut by it, a
    /// Latin-1 byte, `\r\n`, no final `\n`: read in any steps, the text decodes as a whole.
    #[test]
    fn the_text_decodes_as_a_whole_whatever_the_buffer() {
        let mut texts: Vec<Vec<u8>> = Vec::new();
        let base = "[Event \"é\"]\r\n1. A7>* a7<* { ü long comment here } *\n\n".repeat(9);
        texts.push(base.clone().into_bytes());
        texts.push(format!("{base}{}\nend", "ê".repeat(40)).into_bytes());
        let mut latin = base.clone().into_bytes();
        latin.splice(30..30, b"caf\xe9 ".iter().copied());
        texts.push(latin);
        for text in &texts {
            let whole = decode(text);
            let want = (whole.text.into_owned(), whole.warning.map(|w| w.span.start));
            for capacity in [3, 7, 16, 64, 1 << 16] {
                for step in [1, 5, 13, 64, 1 << 16] {
                    assert_eq!(
                        decoded(text, capacity, step),
                        want,
                        "capacity {capacity}, step {step}"
                    );
                }
            }
        }
    }
}
