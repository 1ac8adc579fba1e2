//! The text of a record as miette reads it to draw a diagnostic.
//!
//! miette's own `SourceCode` for a string walks the text from its first byte for every span it
//! reads, and hands back whole lines. On a large file with many diagnostics that is quadratic,
//! and a diagnostic in a 10 MB line prints the whole line. [`SourceText`] finds the lines of a
//! span through an index of line starts built once, and shows a line longer than
//! [`SourceText::MAX_SHOWN`] bytes as a window around the span. Every text, small or large,
//! whole or an excerpt, is read the same way (the lines around a span read by miette's own
//! reading of those lines only), so a game's drawing does not depend on the size of the file
//! it stands in.

use std::sync::{Arc, OnceLock};

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// A named text for miette diagnostics; cheap to read spans from, whatever its size.
#[derive(Debug, Clone)]
pub struct SourceText {
    name: String,
    text: Arc<str>,
    /// The byte offset where each line starts (after `\n`, `\r\n` or a lone `\r`, as miette
    /// counts lines).
    starts: OnceLock<Vec<usize>>,
    /// Where `text` stands in the whole input it was cut from (zero for a whole text).
    at: Place,
}

/// A place in a text: byte offset, 0-based line, and column in characters from the line's
/// start.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Place {
    /// The byte offset.
    pub offset: usize,
    /// The 0-based line.
    pub line: usize,
    /// The column, in characters.
    pub column: usize,
}

impl SourceText {
    /// Inputs up to this many bytes are small: checked whole rather than streamed.
    pub const SMALL: usize = 64 * 1024;
    /// In a larger text, the most bytes shown of the lines around a span: a longer stretch is
    /// cut to a window around the span.
    pub const MAX_SHOWN: usize = 1024;
    /// How many bytes of context a window keeps on each side of the span.
    const AROUND: usize = 160;

    /// A line longer than this many bytes is not drawn whole: a diagnostic on it shows that
    /// line only, cut [`SourceText::LINE_AROUND`] bytes either side of the span, so that the
    /// caret under it does not wrap in a terminal.
    pub const LONG_LINE: usize = 120;
    /// How much of a long line is shown on each side of a span.
    pub const LINE_AROUND: usize = 40;

    /// The text `text`, shown under the name `name`.
    #[must_use]
    pub fn new(name: &str, text: Arc<str>) -> Self {
        Self {
            name: name.to_owned(),
            text,
            starts: OnceLock::new(),
            at: Place::default(),
        }
    }

    /// An excerpt of a larger input: `text` stands at `at` in it, and spans, lines and
    /// columns are those of the whole input (a streamed check keeps only the text around the
    /// game it reports on). Keep a line of text
    /// before the first span to be drawn: miette reads a span at the very first byte of a
    /// text as one byte long.
    #[must_use]
    pub fn excerpt(name: &str, text: Arc<str>, at: Place) -> Self {
        Self {
            at,
            ..Self::new(name, text)
        }
    }

    /// The name shown.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The text.
    #[must_use]
    pub fn text(&self) -> &Arc<str> {
        &self.text
    }

    fn starts(&self) -> &[usize] {
        self.starts.get_or_init(|| {
            let b = self.text.as_bytes();
            let mut starts = vec![0];
            for i in memchr::memchr2_iter(b'\n', b'\r', b) {
                if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                    continue;
                }
                starts.push(i + 1);
            }
            starts
        })
    }

    /// The 0-based line holding byte `offset`.
    fn line_of(&self, offset: usize) -> usize {
        self.starts().partition_point(|&s| s <= offset) - 1
    }

    /// The 1-based line and column (in characters) of a byte offset, found through the
    /// index of line starts (no walk from the start of the text).
    #[must_use]
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let local = offset.saturating_sub(self.at.offset).min(self.text.len());
        let offset = floor_boundary(&self.text, local);
        let line = self.line_of(offset);
        (self.at.line + line + 1, self.column(line, offset) + 1)
    }

    /// The characters from the start of local line `line` to local byte `offset`, counted
    /// from the start of the line in the whole input.
    fn column(&self, line: usize, offset: usize) -> usize {
        let c = self.text[self.starts()[line]..offset].chars().count();
        if line == 0 {
            c + self.at.column
        } else {
            c
        }
    }

    /// Where line `line` ends, its line break included.
    fn line_end(&self, line: usize) -> usize {
        self.starts()
            .get(line + 1)
            .copied()
            .unwrap_or(self.text.len())
    }
}

/// The largest character boundary of `text` at or before `i`.
fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest character boundary of `text` at or after `i`.
fn ceil_boundary(text: &str, mut i: usize) -> usize {
    while i < text.len() && !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

impl SourceText {
    /// A span on one line longer than [`SourceText::LONG_LINE`]: that line cut around it.
    fn long_line_cut<'a>(&'a self, span: &SourceSpan) -> Option<Box<dyn SpanContents<'a> + 'a>> {
        let text: &'a str = &self.text;
        let start = span.offset().checked_sub(self.at.offset)?;
        let end = start + span.len();
        if end > text.len() {
            return None;
        }
        let line = self.line_of(start);
        let line_start = self.starts()[line];
        let line_end = line_start
            + text[line_start..self.line_end(line)]
                .trim_end_matches(['\n', '\r'])
                .len();
        if line_end - line_start <= Self::LONG_LINE || end > line_end {
            return None;
        }
        let lo = floor_boundary(
            text,
            start.saturating_sub(Self::LINE_AROUND).max(line_start),
        );
        let hi = ceil_boundary(text, (end.max(start + 1) + Self::LINE_AROUND).min(line_end));
        // Cut between words where the window allows.
        let lo = text[lo..start].find(' ').map_or(lo, |i| lo + i + 1);
        let after = end.max(start + 1).min(hi);
        let hi = text[after..hi].rfind(' ').map_or(hi, |i| after + i);
        Some(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            &text.as_bytes()[lo..hi],
            (self.at.offset + lo, hi - lo).into(),
            self.at.line + line,
            // miette heads the drawing with this column: the span's own, not the cut's.
            self.column(line, start),
            1,
        )))
    }
}

impl SourceCode for SourceText {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let text: &'a str = &self.text;
        let name = || self.name.clone();
        if let Some(cut) = self.long_line_cut(span) {
            return Ok(cut);
        }
        let Some(start) = span.offset().checked_sub(self.at.offset) else {
            return Err(MietteError::OutOfBounds);
        };
        let end = start + span.len();
        if end > text.len() {
            return Err(MietteError::OutOfBounds);
        }
        let first = self.line_of(start);
        // One line more than the span's last and the context after it: miette stops by itself
        // (a span that ends with a line break takes the next line too), and never reads
        // beyond that.
        let last = self.line_of(end);
        let from = first.saturating_sub(context_lines_before);
        let to = (last + context_lines_after + 1).min(self.starts().len() - 1);
        let (region_lo, region_hi) = (self.starts()[from], self.line_end(to));
        if region_hi - region_lo <= Self::MAX_SHOWN {
            // miette's own reading, of the lines concerned only: the same result, at the
            // cost of those lines.
            // The slice starts a line early, so that a span never stands at its very start
            // unless it stands at the start of the text (miette reads an empty span there
            // as one byte long).
            let base_line = from.saturating_sub(1);
            let base = self.starts()[base_line];
            let sub: &'a str = &text[base..region_hi];
            let shifted = SourceSpan::from((start - base, span.len()));
            let inner = sub.read_span(&shifted, context_lines_before, context_lines_after)?;
            return Ok(Box::new(MietteSpanContents::new_named(
                name(),
                inner.data(),
                (
                    self.at.offset + base + inner.span().offset(),
                    inner.span().len(),
                )
                    .into(),
                self.at.line + base_line + inner.line(),
                inner.column(),
                inner.line_count(),
            )));
        }
        // Too long to show whole: a window around the span.
        let (lo, hi) = if context_lines_before == 0 && context_lines_after == 0 {
            (start, end)
        } else {
            (region_lo, region_hi)
        };
        let lo = lo.max(start.saturating_sub(Self::AROUND));
        let hi = hi
            .min(end.max(start + Self::MAX_SHOWN - Self::AROUND) + Self::AROUND)
            .min(text.len());
        let lo = floor_boundary(text, lo);
        let hi = ceil_boundary(text, hi);
        let line = self.line_of(lo);
        let column = self.column(line, lo);
        let line_count = self.line_of(hi.saturating_sub(1).max(lo)) - line + 1;
        Ok(Box::new(MietteSpanContents::new_named(
            name(),
            &text.as_bytes()[lo..hi],
            (self.at.offset + lo, hi - lo).into(),
            self.at.line + line,
            column,
            line_count,
        )))
    }
}
