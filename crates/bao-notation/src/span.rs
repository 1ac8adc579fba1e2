//! Byte spans into the record text.

use std::fmt;
use std::ops::Range;

/// A byte range `start..end` into the text a record was parsed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// Builds a span; `end` is raised to `start` if smaller.
    #[must_use]
    pub const fn new(start: usize, end: usize) -> Self {
        Self {
            start,
            end: if end < start { start } else { end },
        }
    }

    /// An empty span at `at`.
    #[must_use]
    pub const fn at(at: usize) -> Self {
        Self { start: at, end: at }
    }

    /// The length in bytes.
    #[must_use]
    pub const fn len(self) -> usize {
        self.end - self.start
    }

    /// Whether the span is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The smallest span covering both.
    #[must_use]
    pub fn join(self, other: Self) -> Self {
        Self::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// The span moved `by` bytes to the right (for text parsed out of a larger stream).
    #[must_use]
    pub const fn shifted(self, by: usize) -> Self {
        Self {
            start: self.start + by,
            end: self.end + by,
        }
    }

    /// As a range, to slice the source.
    #[must_use]
    pub const fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        Self::new(s.start.into(), s.len())
    }
}

impl From<Range<usize>> for Span {
    fn from(r: Range<usize>) -> Self {
        Self::new(r.start, r.end)
    }
}

/// A value and the span of the text it was read from.
///
/// Equality compares the values only: two records are equal when they say the same thing,
/// wherever in a file they were written (so that `parse(write(r)) == r`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// Wraps a value.
    pub const fn new(value: T, span: Span) -> Self {
        Self { value, span }
    }

    /// A value with an empty span, for records built in code.
    pub fn bare(value: T) -> Self {
        Self {
            value,
            span: Span::default(),
        }
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: Eq> Eq for Spanned<T> {}

impl<T: std::hash::Hash> std::hash::Hash for Spanned<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.value.hash(state);
    }
}

impl<T: fmt::Display> fmt::Display for Spanned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<T> std::ops::Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}
