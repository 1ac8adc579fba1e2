//! Decoding and the streaming reader.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;

use crate::ast::{Game, Record};
use crate::error::{SyntaxCode, SyntaxError};
use crate::grammar::{Parser, Scratch};
use crate::limits::Limits;
use crate::span::{Span, Spanned};
use crate::split::{chunks, LineScan, Splitter};
use crate::visit::{RecordBuilder, Visitor};

/// A parsed text: the record and every syntax diagnostic, in text order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parsed {
    /// The games read (broken ones included, as far as they could be read).
    pub record: Record,
    /// Errors and warnings.
    pub errors: Vec<SyntaxError>,
}

impl Parsed {
    /// Whether any diagnostic is an error (warnings do not count).
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.errors.iter().any(SyntaxError::is_error)
    }
}

/// Parses a whole text under the default [`Limits`]; never fails, never panics. A leading
/// BOM is skipped.
#[must_use]
pub fn parse_record(src: &str) -> Parsed {
    parse_record_with(src, &Limits::DEFAULT)
}

/// Parses a whole text under `limits`; never fails, never panics. A leading BOM is skipped.
#[must_use]
pub fn parse_record_with(src: &str, limits: &Limits) -> Parsed {
    let mut builder = RecordBuilder::default();
    visit_chunks(src, limits, &mut builder, RecordBuilder::expect_chunk);
    Parsed {
        record: Record {
            games: builder.games,
        },
        errors: builder.errors,
    }
}

/// Reads a whole text under the default [`Limits`], giving what it reads to `visitor`
/// instead of building a record; never fails, never panics. A leading BOM is skipped.
pub fn visit_record<V: Visitor>(src: &str, visitor: &mut V) {
    visit_record_with(src, &Limits::DEFAULT, visitor);
}

/// Reads a whole text under `limits`, giving what it reads to `visitor`: the events from
/// which [`parse_record_with`] builds its record, and the same diagnostics.
pub fn visit_record_with<V: Visitor>(src: &str, limits: &Limits, visitor: &mut V) {
    visit_chunks(src, limits, visitor, |_, _| {});
}

/// [`visit_record_with`], with `before` called with the text of each chunk before it is
/// parsed.
fn visit_chunks<V: Visitor>(
    src: &str,
    limits: &Limits,
    visitor: &mut V,
    mut before: impl FnMut(&mut V, &str),
) {
    let v = visitor;
    v.text(src, 0);
    let start = if src.starts_with('\u{feff}') { 3 } else { 0 };
    let mut carry: Option<usize> = None;
    let mut scratch = Scratch::with_limits(*limits);
    for range in chunks(src, start) {
        let from = carry.take().unwrap_or(range.start);
        if range.end - from > limits.max_game_bytes {
            let error = SyntaxError::game_too_long(&src[from..range.end], limits.max_game_bytes);
            v.begin_game(from);
            v.end_game(Span::new(from, range.end), None);
            v.syntax_error(error.shifted(from));
            continue;
        }
        before(v, &src[from..range.end]);
        let (cut, errors) = parse_span(src, from, range.end, &mut scratch, v);
        for e in errors {
            v.syntax_error(e);
        }
        carry = cut;
    }
    if let Some(from) = carry {
        for e in leftover_game(src, from, src.len(), scratch, v) {
            v.syntax_error(e);
        }
    }
}

impl SyntaxError {
    /// The `game_too_long` error that stands for a chunk of text over the limit of `max`
    /// bytes, with its span relative to the chunk: the start of its first line (at most 80
    /// bytes of it, so that rendering it stays cheap).
    #[must_use]
    pub fn game_too_long(chunk: &str, max: usize) -> Self {
        let head = &chunk.as_bytes()[..chunk.len().min(80)];
        let mut end = memchr::memchr2(b'\n', b'\r', head).unwrap_or(head.len());
        while !chunk.is_char_boundary(end) {
            end -= 1;
        }
        game_too_long(Span::new(0, end), max)
    }
}

/// The `game_too_long` error of a game longer than `max` bytes, at `span` (the start of the
/// game's first line).
fn game_too_long(span: Span, max: usize) -> SyntaxError {
    SyntaxError::new(
        SyntaxCode::GameTooLong,
        span,
        format!("a game longer than {max} bytes was skipped"),
        "the game starting here is too long",
    )
    .help("split the file, or raise the reader's limit")
}

/// Parses `src[from..end]`, giving its games to `v`; returns where trailing comments start
/// (they belong to the next chunk), and the errors before that point.
fn parse_span<V: Visitor>(
    src: &str,
    from: usize,
    end: usize,
    scratch: &mut Scratch,
    v: &mut V,
) -> (Option<usize>, Vec<SyntaxError>) {
    let mut p = Parser::new(src, from, end, std::mem::take(scratch));
    let trailing = p.games(v);
    let cut = trailing.first().map(|c| c.span.start);
    let mut errors = std::mem::take(&mut p.errors);
    *scratch = p.into_scratch();
    if let Some(cut) = cut {
        errors.retain(|e| e.span.start < cut);
    }
    errors.sort_by_key(|e| e.span.start);
    (cut, errors)
}

/// The comments at the very end of a text, given to `v` as a game of their own; returns
/// the errors.
fn leftover_game<V: Visitor>(
    src: &str,
    from: usize,
    end: usize,
    scratch: Scratch,
    v: &mut V,
) -> Vec<SyntaxError> {
    let mut p = Parser::new(src, from, end, scratch);
    let trailing = p.games(v);
    p.comments_game(&trailing, v);
    let mut errors = p.errors;
    errors.sort_by_key(|e| e.span.start);
    errors
}

/// Bytes decoded to text: UTF-8 as is, any byte that is not UTF-8 read as Latin-1.
#[derive(Debug, Clone)]
pub struct Decoded<'a> {
    /// The text (spans point into it).
    pub text: Cow<'a, str>,
    /// A `latin1_input` warning at the first byte that was not UTF-8.
    pub warning: Option<SyntaxError>,
}

/// Decodes bytes: UTF-8 (a BOM is kept; the parser skips it), else Latin-1 with a warning.
#[must_use]
pub fn decode(bytes: &[u8]) -> Decoded<'_> {
    // The SIMD check first (the usual case: valid UTF-8); the std one, which says where the
    // first bad byte is, only when it fails.
    if let Ok(s) = simdutf8::basic::from_utf8(bytes) {
        return Decoded {
            text: Cow::Borrowed(s),
            warning: None,
        };
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => Decoded {
            text: Cow::Borrowed(s),
            warning: None,
        },
        Err(_) => {
            let mut out = String::with_capacity(bytes.len() + 16);
            let mut rest = bytes;
            let mut first_bad = None;
            while !rest.is_empty() {
                match std::str::from_utf8(rest) {
                    Ok(s) => {
                        out.push_str(s);
                        break;
                    }
                    Err(e) => {
                        let good = e.valid_up_to();
                        // `good` bytes are valid UTF-8 by the error's contract.
                        out.push_str(std::str::from_utf8(&rest[..good]).unwrap_or_default());
                        let bad = e.error_len().unwrap_or(rest.len() - good);
                        if first_bad.is_none() {
                            first_bad = Some(out.len());
                        }
                        for &b in &rest[good..good + bad] {
                            out.push(char::from(b));
                        }
                        rest = &rest[good + bad..];
                    }
                }
            }
            let at = first_bad.unwrap_or(0);
            let len = out[at..].chars().next().map_or(0, char::len_utf8);
            Decoded {
                text: Cow::Owned(out),
                warning: Some(
                    SyntaxError::new(
                        SyntaxCode::Latin1Input,
                        Span::new(at, at + len),
                        "the input is not UTF-8; bytes that are not were read as Latin-1",
                        "first byte that is not UTF-8",
                    )
                    .help("save the file as UTF-8"),
                ),
            }
        }
    }
}

/// Decodes and parses bytes under the default [`Limits`]; the text is returned because
/// spans point into it.
#[must_use]
pub fn parse_bytes(bytes: &[u8]) -> (String, Parsed) {
    parse_bytes_with(bytes, &Limits::DEFAULT)
}

/// Decodes and parses bytes under `limits`; the text is returned because spans point into
/// it.
#[must_use]
pub fn parse_bytes_with(bytes: &[u8], limits: &Limits) -> (String, Parsed) {
    let d = decode(bytes);
    let mut parsed = parse_record_with(&d.text, limits);
    if let Some(w) = d.warning {
        parsed.errors.insert(0, w);
    }
    (d.text.into_owned(), parsed)
}

/// The line that starts at `offset` in the input, without the byte order mark that may open
/// the input: the splitter must see the first line as the whole text's chunking sees it
/// (after the mark), or a first tag line read as movetext cut its game in two.
#[inline(always)]
fn without_bom(line: &[u8], offset: u64) -> &[u8] {
    if offset > 0 {
        return line;
    }
    line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line)
}

/// The length of the byte order mark that opens `text`, when `first` (the chunk begins the
/// input) and it has one: the parser skips it.
fn bom_len(text: &str, first: bool) -> usize {
    if first && text.starts_with('\u{feff}') {
        3
    } else {
        0
    }
}

/// Parses the chunks of a stream (as [`GameReader`] or [`ChunkReader`] cuts them) one at a
/// time, as [`GameReader`] parses them, for a caller that parses chunks apart from reading
/// them (on other threads).
///
/// What one chunk gives does not depend on the chunks before it, but for one thing: the
/// comments at the end of a chunk, after its last game ([`ParsedChunk::trailing`]), belong
/// to the next game, so [`GameReader`] puts them in front of the next chunk's text (whose
/// offset is then theirs) and parses that; the comments left at the end of the input are
/// parsed with [`ChunkParser::parse_last`], as a game of their own.
#[derive(Debug, Default)]
pub struct ChunkParser {
    scratch: Scratch,
    /// The builder the parser fills, kept from chunk to chunk.
    builder: RecordBuilder,
}

/// A chunk parsed by [`ChunkParser`].
#[derive(Debug, Clone, Default)]
pub struct ParsedChunk {
    /// The games read, in text order, each with its diagnostics (the spans of both point
    /// into the chunk's text). A diagnostic belongs to the first game that ends at or after
    /// its start (else to the last game, or to an empty game of its own when the chunk has
    /// none). Empty when the chunk holds nothing but blanks and [`ParsedChunk::trailing`]
    /// comments.
    pub games: Vec<(Spanned<Game>, Vec<SyntaxError>)>,
    /// Where the comments after the chunk's last game start: they are not in `games`; they
    /// belong in front of the next chunk.
    pub trailing: Option<usize>,
}

impl ChunkParser {
    /// A parser under `limits` (`max_game_bytes` is the reader's business: a chunk given is
    /// parsed whatever its length).
    #[must_use]
    pub fn new(limits: &Limits) -> Self {
        Self {
            scratch: Scratch::with_limits(*limits),
            builder: RecordBuilder::default(),
        }
    }

    /// Parses a chunk's text (the comments carried from the chunk before it in front);
    /// `first`: the chunk begins the input (a byte order mark that opens it is skipped).
    pub fn parse(&mut self, text: &str, first: bool) -> ParsedChunk {
        self.parse_with(text, first, None)
    }

    /// [`ChunkParser::parse`], with a diagnostic found before parsing (the reader's
    /// `latin1_input` warning) given to the game it falls in first.
    fn parse_with(&mut self, text: &str, first: bool, warning: Option<SyntaxError>) -> ParsedChunk {
        let mut builder = std::mem::take(&mut self.builder);
        let start = bom_len(text, first);
        builder.expect_chunk(&text[start..]);
        let (trailing, mut errors) =
            parse_span(text, start, text.len(), &mut self.scratch, &mut builder);
        if let Some(w) = warning {
            errors.insert(0, w);
        }
        let games = with_errors(&mut builder.games, errors);
        // The builder's buffers serve the next chunk.
        self.builder = builder;
        ParsedChunk { games, trailing }
    }

    /// Whether [`ChunkParser::parse`] would give the chunk any game (a game, or a syntax
    /// error, which has an empty game of its own when the chunk has none), found without
    /// building the games: for a chunk the streamed reader skips whole when it has one (a
    /// chunk over the whole-file path's game limit), whose games would take many times its
    /// text (10 MB of tag-less games on one line took 200 MB as games only to be dropped).
    pub fn holds_game(&mut self, text: &str, first: bool) -> bool {
        /// Notes that a game ended.
        struct Ended(bool);
        impl Visitor for Ended {
            fn end_game(&mut self, _span: Span, _result: Option<Spanned<crate::GameResult>>) {
                self.0 = true;
            }
        }
        let mut ended = Ended(false);
        let start = bom_len(text, first);
        let (_, errors) = parse_span(text, start, text.len(), &mut self.scratch, &mut ended);
        ended.0 || !errors.is_empty()
    }

    /// Parses the comments left at the end of the input (the last chunk's
    /// [`ParsedChunk::trailing`]) as a game of their own.
    pub fn parse_last(&mut self, text: &str) -> ParsedChunk {
        let limits = self.scratch.limits;
        let scratch = std::mem::replace(&mut self.scratch, Scratch::with_limits(limits));
        let mut builder = std::mem::take(&mut self.builder);
        let errors = leftover_game(text, 0, text.len(), scratch, &mut builder);
        let games = with_errors(&mut builder.games, errors);
        self.builder = builder;
        ParsedChunk {
            games,
            trailing: None,
        }
    }
}

/// The games (taken, leaving `games` empty), each with the errors that fall in it.
fn with_errors(
    games: &mut Vec<Spanned<Game>>,
    errors: Vec<SyntaxError>,
) -> Vec<(Spanned<Game>, Vec<SyntaxError>)> {
    let mut items: Vec<_> = games.drain(..).map(|g| (g, Vec::new())).collect();
    for e in errors {
        let idx = items
            .iter()
            .position(|(g, _)| g.span.end >= e.span.start)
            .or(items.len().checked_sub(1));
        match idx {
            Some(i) => items[i].1.push(e),
            None => items.push((Spanned::new(Game::default(), e.span), vec![e])),
        }
    }
    items
}

/// One chunk of text as [`ChunkReader`] cuts it, not parsed.
#[derive(Debug, Clone)]
pub struct RawChunk {
    /// The chunk's text, decoded (for a chunk over the limit, its first bytes only).
    pub text: Arc<str>,
    /// The byte offset of `text` in the input.
    pub offset: u64,
    /// The input's `latin1_input` warning, on the first chunk decoded with a byte that is not
    /// UTF-8 (its span points into `text`).
    pub warning: Option<SyntaxError>,
    /// The `game_too_long` error of a chunk over the reader's limit, which is skipped unread
    /// (span into `text`).
    pub too_long: Option<SyntaxError>,
}

/// Cuts a stream into chunks as [`GameReader`] cuts it (normally a game each, in bounded
/// memory), without parsing them: for a caller that parses the chunks elsewhere with a
/// [`ChunkParser`] (on other threads), and puts each chunk's trailing comments in front of
/// the next one itself (this reader keeps none).
#[derive(Debug)]
pub struct ChunkReader<R> {
    reader: GameReader<R>,
}

impl<R: Read> ChunkReader<R> {
    /// A reader under `limits`: a chunk longer than `max_game_bytes` is skipped unread.
    pub fn with_limits(input: R, limits: &Limits) -> Self {
        Self {
            reader: GameReader::with_limits(input, limits),
        }
    }

    /// The next chunk, or `None` at the end of the input.
    ///
    /// # Errors
    ///
    /// An I/O error of the underlying reader.
    pub fn next_chunk(&mut self) -> io::Result<Option<RawChunk>> {
        let r = &mut self.reader;
        if !r.fill_chunk()? {
            return Ok(None);
        }
        let offset = r.chunk_offset;
        if r.overflow {
            let (text, error) = r.overflow_chunk();
            let text = Arc::from(text.as_ref());
            r.chunk.clear();
            return Ok(Some(RawChunk {
                text,
                offset,
                warning: None,
                too_long: Some(error),
            }));
        }
        let d = decode(&r.chunk);
        let text = Arc::from(d.text.as_ref());
        let (warning, _) = r.chunk_start(d.warning);
        Ok(Some(RawChunk {
            text,
            offset,
            warning,
            too_long: None,
        }))
    }
}

/// One game from a [`GameReader`].
#[derive(Debug, Clone)]
pub struct StreamedGame {
    /// The game; its spans point into `text`.
    pub game: Spanned<Game>,
    /// Diagnostics of this game (spans into `text`).
    pub errors: Vec<SyntaxError>,
    /// The decoded text of the chunk the game was read from (shared by the games in it).
    pub text: Arc<str>,
    /// The byte offset of `text` in the input stream.
    pub offset: u64,
}

/// The default largest chunk a [`GameReader`] accepts: [`Limits::DEFAULT`]'s
/// `max_game_bytes` (4 MiB).
pub const DEFAULT_MAX_GAME_BYTES: usize = Limits::DEFAULT.max_game_bytes;

/// Reads games one at a time from any reader, holding only one chunk (normally one game) in
/// memory. A chunk longer than the limit is skipped with a `game_too_long` error.
///
/// The games and diagnostics are those [`parse_record`] gives for the whole text, with spans
/// relative to each chunk's `text`.
#[derive(Debug)]
pub struct GameReader<R> {
    input: BufReader<R>,
    splitter: Splitter,
    chunk: Vec<u8>,
    chunk_offset: u64,
    overflow: bool,
    next_line: Vec<u8>,
    next_offset: u64,
    next_truncated: bool,
    offset: u64,
    max_bytes: usize,
    queue: VecDeque<StreamedGame>,
    carry: Vec<u8>,
    carry_offset: u64,
    first: bool,
    warned_latin1: bool,
    done: bool,
    /// Where the next `{` or `;` of the input is (a stream offset), as far as the reader's
    /// buffer showed when it was last searched (see [`GameReader::buffered_lines`]).
    special: Option<u64>,
    /// The parser and its buffers, kept from chunk to chunk.
    parser: ChunkParser,
}

impl<R: Read> GameReader<R> {
    /// A reader with the default limits.
    pub fn new(input: R) -> Self {
        Self::with_limits(input, &Limits::DEFAULT)
    }

    /// A reader that rejects chunks longer than `max_bytes` (the other limits the default).
    pub fn with_limit(input: R, max_bytes: usize) -> Self {
        Self::with_limits(
            input,
            &Limits {
                max_game_bytes: max_bytes,
                ..Limits::DEFAULT
            },
        )
    }

    /// A reader under `limits`: a chunk longer than `max_game_bytes` is skipped unread.
    pub fn with_limits(input: R, limits: &Limits) -> Self {
        let max_bytes = limits.max_game_bytes;
        Self {
            input: BufReader::with_capacity(1 << 16, input),
            splitter: Splitter::default(),
            chunk: Vec::new(),
            chunk_offset: 0,
            overflow: false,
            next_line: Vec::new(),
            next_offset: 0,
            next_truncated: false,
            offset: 0,
            max_bytes: max_bytes.max(1),
            queue: VecDeque::new(),
            carry: Vec::new(),
            carry_offset: 0,
            first: true,
            warned_latin1: false,
            done: false,
            special: None,
            parser: ChunkParser::new(limits),
        }
    }

    /// Reads one line onto the end of the chunk's buffer, keeping at most `max_bytes` of it;
    /// returns the bytes read, whether the line was cut, and whether it holds neither `{` nor
    /// `;` (see [`Splitter::line_hint`]). A line that is cut is fed to the splitter whole as
    /// it is read (its first `max_bytes` bytes tell whether it is a tag line): the fourth
    /// value is then whether a new chunk starts at it.
    fn read_line(&mut self, line_offset: u64) -> io::Result<(usize, bool, bool, Option<bool>)> {
        let line_start = self.chunk.len();
        let mut total = 0usize;
        let mut plain = true;
        let mut scan: Option<(bool, LineScan)> = None;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                break;
            }
            let (take, piece_plain) = crate::split::line_len(buf);
            plain &= piece_plain;
            let eol = buf[take - 1] == b'\n';
            let room = self.max_bytes.saturating_sub(self.chunk.len() - line_start);
            let kept = take.min(room);
            self.chunk.extend_from_slice(&buf[..kept]);
            if take > room {
                let (_, state) = scan.get_or_insert_with(|| {
                    let head = without_bom(&self.chunk[line_start..], line_offset);
                    let (boundary, mut state) = self.splitter.begin_line(head);
                    self.splitter.feed(&mut state, head);
                    (boundary, state)
                });
                self.splitter.feed(state, &buf[kept..take]);
            }
            self.input.consume(take);
            total += take;
            if eol {
                break;
            }
        }
        Ok((total, scan.is_some(), plain, scan.map(|(b, _)| b)))
    }

    /// Adds `next_line` (the line that began this chunk) to the chunk.
    fn append(&mut self, truncated: bool) {
        if truncated || self.chunk.len() + self.next_line.len() > self.max_bytes {
            self.overflow = true;
        } else {
            self.chunk.extend_from_slice(&self.next_line);
        }
        self.next_line.clear();
    }

    /// Gathers the next chunk; `false` at the end of input.
    fn fill_chunk(&mut self) -> io::Result<bool> {
        // The chunk's buffer is kept from chunk to chunk, unless an unusually long game
        // made it large.
        if self.chunk.capacity() > 1 << 20 {
            self.chunk = Vec::new();
        }
        self.chunk.clear();
        self.chunk.append(&mut self.carry);
        let carried = self.chunk.len();
        self.chunk_offset = if self.chunk.is_empty() {
            self.next_offset
        } else {
            self.carry_offset
        };
        self.overflow = false;
        if !self.next_line.is_empty() || self.next_truncated {
            // Taken once: a line cut at the end of the input must not begin every chunk
            // after it (it did, and the reader gave `game_too_long` forever).
            let t = std::mem::take(&mut self.next_truncated);
            self.append(t);
        }
        loop {
            if let Some(more) = self.buffered_lines()? {
                return Ok(more);
            }
            if let Some(more) = self.one_line(carried)? {
                return Ok(more);
            }
        }
    }

    /// Takes the whole lines that are already in the reader's buffer, found with one search
    /// over it, onto the chunk (one copy for the run of lines, not one per line); stops at a
    /// line that begins the next chunk (`Some(true)`), at a line longer than the limit, or at
    /// the end of the buffer's last whole line (`None`: [`GameReader::one_line`] goes on).
    /// Each line is fed to the splitter exactly as [`GameReader::one_line`] feeds it.
    fn buffered_lines(&mut self) -> io::Result<Option<bool>> {
        let buf = loop {
            match self.input.fill_buf() {
                Ok(b) => break b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        // `line` is where the next line starts, `run` the first byte not yet on the chunk.
        let (mut line, mut run) = (0usize, 0usize);
        let mut more = None;
        // The next `{` or `;` at or after `line`, or the end of the buffer when there is
        // none; searched for again only once passed (they are rare). Kept from call to
        // call as a stream offset, so that each byte is searched about once.
        let base = self.offset;
        let mut special = match self.special {
            Some(at) if at >= base => usize::try_from(at - base).unwrap_or(usize::MAX),
            _ => 0,
        };
        let mut known = matches!(self.special, Some(at) if at >= base);
        for hit in memchr::memchr_iter(b'\n', buf) {
            let end = hit + 1;
            let len = end - line;
            if len > self.max_bytes {
                // `one_line` cuts it.
                break;
            }
            if !known || special < line {
                special = memchr::memchr2(b'{', b';', &buf[line..]).map_or(buf.len(), |p| line + p);
                known = true;
            }
            let plain = special >= end;
            let line_offset = self.offset;
            self.offset += len as u64;
            let boundary = self
                .splitter
                .line_hint(without_bom(&buf[line..end], line_offset), plain);
            let line_start = self.chunk.len() + (line - run);
            if boundary && (line_start > 0 || self.overflow) {
                self.chunk.extend_from_slice(&buf[run..line]);
                self.next_line.clear();
                self.next_line.extend_from_slice(&buf[line..end]);
                self.next_offset = line_offset;
                self.next_truncated = false;
                (line, run) = (end, end);
                more = Some(true);
                break;
            }
            if line_start == 0 && !self.overflow {
                self.chunk_offset = line_offset;
            }
            if line_start + len > self.max_bytes {
                // The line does not fit: it is left out, and the chunk is skipped.
                self.overflow = true;
                self.chunk.extend_from_slice(&buf[run..line]);
                run = end;
            }
            line = end;
        }
        self.chunk.extend_from_slice(&buf[run..line]);
        if known {
            self.special = Some(base + special as u64);
        }
        self.input.consume(line);
        Ok(more)
    }

    /// Reads one line (across refills of the reader's buffer, and cut at the limit) and takes
    /// it onto the chunk; `Some` when the chunk is complete (`false`: the input is done).
    fn one_line(&mut self, carried: usize) -> io::Result<Option<bool>> {
        let line_offset = self.offset;
        // The line is read straight onto the chunk, and taken off again when it begins
        // the next chunk or does not fit.
        let line_start = self.chunk.len();
        let (n, truncated, plain, fed) = self.read_line(line_offset)?;
        self.offset += n as u64;
        if n == 0 {
            if self.chunk.len() > carried || self.overflow {
                return Ok(Some(true));
            }
            self.carry = std::mem::take(&mut self.chunk);
            return Ok(Some(false));
        }
        let boundary = match fed {
            Some(boundary) => boundary,
            None => self
                .splitter
                .line_hint(without_bom(&self.chunk[line_start..], line_offset), plain),
        };
        if boundary && (line_start > 0 || self.overflow) {
            self.next_line.clear();
            self.next_line.extend_from_slice(&self.chunk[line_start..]);
            self.chunk.truncate(line_start);
            self.next_offset = line_offset;
            self.next_truncated = truncated;
            return Ok(Some(true));
        }
        if line_start == 0 && !self.overflow {
            self.chunk_offset = line_offset;
        }
        if truncated || self.chunk.len() > self.max_bytes {
            self.overflow = true;
            self.chunk.truncate(line_start);
        }
        Ok(None)
    }

    /// The text of an overflowing chunk (its first 256 bytes, enough to show where it
    /// starts) and its `game_too_long` error.
    fn overflow_chunk(&mut self) -> (Cow<'_, str>, SyntaxError) {
        let shown = self.chunk.len().min(256);
        let d = decode(&self.chunk[..shown]);
        let error = game_too_long(
            Span::new(0, d.text.find('\n').unwrap_or(d.text.len())),
            self.max_bytes,
        );
        (d.text, error)
    }

    /// The input's first Latin-1 warning, when `warning` is it (later ones are dropped);
    /// whether a BOM at the start of this chunk is skipped (the first chunk parsed).
    fn chunk_start(&mut self, warning: Option<SyntaxError>) -> (Option<SyntaxError>, bool) {
        let warning = warning.filter(|_| !self.warned_latin1);
        self.warned_latin1 |= warning.is_some();
        (warning, std::mem::replace(&mut self.first, false))
    }

    /// Keeps the comments at the end of a chunk, from `cut`, for the next chunk.
    fn keep_trailing(&mut self, text: &str, cut: Option<usize>) {
        if let Some(cut) = cut {
            self.carry = text.as_bytes()[cut..].to_vec();
            self.carry_offset = self.chunk_offset + cut as u64;
        }
    }

    /// Parses a chunk's decoded `text` into `v`; returns its diagnostics (the first Latin-1
    /// warning of the input included), keeping its trailing comments for the next chunk.
    fn parse_chunk<V: Visitor>(
        &mut self,
        text: &str,
        warning: Option<SyntaxError>,
        v: &mut V,
    ) -> Vec<SyntaxError> {
        let (warning, first) = self.chunk_start(warning);
        let start = bom_len(text, first);
        let (cut, mut errors) = parse_span(text, start, text.len(), &mut self.parser.scratch, v);
        self.keep_trailing(text, cut);
        if let Some(w) = warning {
            errors.insert(0, w);
        }
        errors
    }

    fn process_chunk(&mut self) {
        if self.overflow {
            let (text, error) = self.overflow_chunk();
            let text: Arc<str> = Arc::from(text.as_ref());
            self.queue.push_back(StreamedGame {
                game: Spanned::new(Game::default(), Span::new(0, text.len())),
                errors: vec![error],
                text,
                offset: self.chunk_offset,
            });
            self.chunk.clear();
            return;
        }
        let chunk = std::mem::take(&mut self.chunk);
        let Decoded { text, warning } = decode(&chunk);
        let text: Arc<str> = Arc::from(text.as_ref());
        self.chunk = chunk;
        let (warning, first) = self.chunk_start(warning);
        let parsed = self.parser.parse_with(&text, first, warning);
        self.keep_trailing(&text, parsed.trailing);
        self.push_games(parsed.games, &text);
    }

    /// Queues a chunk's games.
    fn push_games(&mut self, games: Vec<(Spanned<Game>, Vec<SyntaxError>)>, text: &Arc<str>) {
        let offset = self.chunk_offset;
        self.queue
            .extend(games.into_iter().map(|(game, errors)| StreamedGame {
                game,
                errors,
                text: Arc::clone(text),
                offset,
            }));
    }

    /// Forgets the comments after the last game read, which the reader would give to the
    /// next game's header (spec/notation.md §2): for a caller that skips the chunk just read
    /// as too long, since a game skipped unread is skipped up to the next game's first line,
    /// the comments after its result with it (as [`parse_record`] skips it). To be called
    /// before the next chunk is read: while the games of the last chunk are being taken.
    pub fn skip_carried_comments(&mut self) {
        self.carry.clear();
    }

    /// The comments left at the end of the input, taken: their text (its offset is then
    /// `chunk_offset`), or `None` when there are none.
    fn take_leftover(&mut self) -> Option<Arc<str>> {
        if self.carry.is_empty() {
            return None;
        }
        let carry = std::mem::take(&mut self.carry);
        self.chunk_offset = self.carry_offset;
        Some(Arc::from(String::from_utf8_lossy(&carry).as_ref()))
    }

    /// The comments left at the end of the input, as a game of their own (in `v`); returns
    /// its errors, or `None` when there are none.
    fn finish_with<V: Visitor>(&mut self, v: &mut V) -> Option<Vec<SyntaxError>> {
        let text = self.take_leftover()?;
        v.text(&text, self.chunk_offset);
        let scratch = std::mem::take(&mut self.parser.scratch);
        Some(leftover_game(&text, 0, text.len(), scratch, v))
    }

    fn finish(&mut self) {
        if let Some(text) = self.take_leftover() {
            let parsed = self.parser.parse_last(&text);
            self.push_games(parsed.games, &text);
        }
    }

    /// Reads the rest of the input, giving what it reads to `visitor` instead of building
    /// games: chunk by chunk (normally a game each, announced by
    /// [`Visitor::text`] with the chunk's byte offset), in bounded memory, with the
    /// diagnostics [`GameReader`] gives. Stops at the first read error.
    ///
    /// # Errors
    ///
    /// An I/O error of the underlying reader.
    pub fn visit<V: Visitor>(mut self, visitor: &mut V) -> io::Result<()> {
        let v = visitor;
        while self.fill_chunk()? {
            if self.overflow {
                let offset = self.chunk_offset;
                let (text, error) = self.overflow_chunk();
                v.text(&text, offset);
                v.begin_game(0);
                v.end_game(Span::new(0, text.len()), None);
                v.syntax_error(error);
                self.chunk.clear();
                continue;
            }
            let chunk = std::mem::take(&mut self.chunk);
            let d = decode(&chunk);
            v.text(&d.text, self.chunk_offset);
            for e in self.parse_chunk(&d.text, d.warning, v) {
                v.syntax_error(e);
            }
            self.chunk = chunk;
        }
        if let Some(errors) = self.finish_with(v) {
            for e in errors {
                v.syntax_error(e);
            }
        }
        Ok(())
    }
}

/// Reads games from any reader under the default [`Limits`], giving what it reads to
/// `visitor` (see [`GameReader::visit`]).
///
/// # Errors
///
/// An I/O error of the underlying reader.
pub fn visit_reader<R: Read, V: Visitor>(input: R, visitor: &mut V) -> io::Result<()> {
    GameReader::new(input).visit(visitor)
}

impl<R: Read> Iterator for GameReader<R> {
    type Item = io::Result<StreamedGame>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(g) = self.queue.pop_front() {
                return Some(Ok(g));
            }
            if self.done {
                return None;
            }
            match self.fill_chunk() {
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
                Ok(false) => {
                    self.done = true;
                    self.finish();
                }
                Ok(true) => self.process_chunk(),
            }
        }
    }
}
