//! Cutting a stream into games, in bounded memory, and working on its games on every thread
//! of a rayon pool: the reading half of `bao check`'s streamed path, which the archive
//! commands (`bao filter`, `bao stats`, ...) and `bao export` use as well.
//!
//! 1. [`StreamReader`] (sequential) reads the input as [`crate::GameReader`] cuts it,
//!    decoding it line by line as the whole-file path decodes it ([`crate::decode`]: UTF-8
//!    as is, other bytes as Latin-1, a byte order mark skipped); it parses the chunks and
//!    numbers their games in file order ([`StreamReader::next_chunk`]), or hands the chunks
//!    out as cut ([`StreamReader::next_cuts`]) to be parsed on any thread ([`Cuts::parse`])
//!    and numbered after ([`StreamReader::settle`]).
//! 2. [`map_chunks_noting`] runs the parsing and a caller's work on each chunk ([`Chunk`]:
//!    its decoded text, its offset, its games with spans into that text) on every thread of
//!    the current rayon pool, and hands the results back in file order: only the cutting
//!    and the handing on stay on the calling thread.
//!
//! A game's span ([`Chunk::games`]) runs from the comments before its first tag to its
//! result token, so `&chunk.text[span]` is the game's text as written (decoded to UTF-8).
//!
//! What a caller does with a chunk (checking it: `bao_validate::stream::check_chunk`) is
//! the caller's business.

use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::{Arc, Mutex};

use crate::{decode, ChunkParser, ChunkReader, Game, Limits, Span, Spanned, SyntaxError};

/// The largest game the whole-file path reads (a longer chunk gets `game_too_long`).
const MAX_GAME: usize = Limits::DEFAULT.max_game_bytes;

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

/// One chunk of the input (normally one game; see [`crate::GameReader`]) with its
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
    let (games, carry_out) = if text.len() > MAX_GAME && parser.holds_game(&text, offset == 0) {
        // Skipped whole (`too_long`): its games are not built only to be dropped.
        too_long(
            &text,
            vec![(Spanned::new(Game::default(), Span::new(0, 0)), Vec::new())],
            || None,
        )
    } else {
        let parsed = parser.parse(&text, offset == 0);
        too_long(&text, parsed.games, || {
            parsed.trailing.map(|t| Carry {
                offset: offset + t,
                text: text[t..].to_owned(),
            })
        })
    };
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

/// What [`map_chunks_noting`] hands on, in file order.
#[derive(Debug)]
pub enum Streamed<T> {
    /// The reader's `latin1_input` warning (at most once), given before the chunk it falls
    /// in (for bao-validate's `Merger`: `Merger::warning`).
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

#[cfg(test)]
mod tests {
    use std::io::{BufReader, Read};
    use std::sync::{Arc, Mutex};

    use crate::decode;

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
