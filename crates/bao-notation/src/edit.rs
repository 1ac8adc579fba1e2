//! Edits of a record's text: what every writer that changes a game does, so that whatever
//! it does not touch stays byte for byte as written.

use crate::span::Span;

/// A change of a text: the bytes of `span` replaced by `text` (an insertion when the span
/// is empty).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Edit {
    /// The bytes replaced.
    pub span: Span,
    /// What replaces them.
    pub text: String,
}

impl Edit {
    /// `span` replaced by `text`.
    #[must_use]
    pub fn replace(span: Span, text: impl Into<String>) -> Self {
        Self {
            span,
            text: text.into(),
        }
    }

    /// `text` inserted at byte `at`.
    #[must_use]
    pub fn insert(at: usize, text: impl Into<String>) -> Self {
        Self::replace(Span::at(at), text)
    }

    /// Whether two edits touch the same bytes (two insertions at one place do too: their
    /// order would be a guess).
    #[must_use]
    pub fn overlaps(&self, other: &Self) -> bool {
        let (a, b) = (self.span, other.span);
        a.start < b.end.max(b.start + 1) && b.start < a.end.max(a.start + 1)
    }

    /// The edit moved `by` bytes to the right (for a game's edits in a larger text).
    #[must_use]
    pub fn shifted(self, by: usize) -> Self {
        Self {
            span: self.span.shifted(by),
            ..self
        }
    }
}

/// `text` with `edits` applied. The edits are taken in the order of their spans; one that
/// overlaps an edit taken before it, or whose span is not in the text, is left out.
///
/// ```
/// use bao_notation::{apply_edits, Edit, Span};
///
/// let text = "1. A6L a6R *";
/// let edits = [Edit::replace(Span::new(3, 6), "A6L*"), Edit::insert(10, " [A2]")];
/// assert_eq!(apply_edits(text, &edits), "1. A6L* a6R [A2] *");
/// ```
#[must_use]
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut order: Vec<&Edit> = edits.iter().collect();
    order.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len() + 16 * edits.len());
    let mut at = 0;
    let mut last: Option<&Edit> = None;
    for e in order {
        if last.is_some_and(|l| l.overlaps(e)) || text.get(e.span.range()).is_none() {
            continue;
        }
        out.push_str(&text[at..e.span.start]);
        out.push_str(&e.text);
        at = e.span.end;
        last = Some(e);
    }
    out.push_str(&text[at..]);
    out
}
