//! A document's text and its lines: byte offsets to and from LSP positions (lines and UTF-16
//! code units), and edits applied as the client sends them.

use lsp_types::{Position, Range};

/// Where each line of a text starts. A line ends at `\n`, `\r\n` or a lone `\r`, as the
/// protocol counts lines.
#[derive(Debug, Clone, Default)]
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// The lines of `text`.
    pub(crate) fn new(text: &str) -> Self {
        let b = text.as_bytes();
        let mut starts = vec![0];
        for i in memchr::memchr2_iter(b'\n', b'\r', b) {
            if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                continue;
            }
            starts.push(i + 1);
        }
        Self { starts }
    }

    /// The lines after an edit of the text: `text` is the new text, in which
    /// `start..new_end` replaced what was `start..old_end`. Only the lines around the edit
    /// are read; the starts after it are moved.
    pub(crate) fn edit(&mut self, text: &str, start: usize, old_end: usize, new_end: usize) {
        // Whether a line starts at `p` depends on the bytes at `p - 1` and `p` only: the
        // starts in `start..=old_end` are read again (as `start..=new_end`), the others kept,
        // those after the edit moved.
        let lo = self.starts.partition_point(|&s| s < start);
        let hi = self.starts.partition_point(|&s| s <= old_end);
        let b = text.as_bytes();
        let from = start.saturating_sub(1);
        let upto = new_end.min(b.len());
        let mut new: Vec<usize> = Vec::new();
        if start == 0 {
            new.push(0);
        }
        if from < upto {
            for i in memchr::memchr2_iter(b'\n', b'\r', &b[from..upto]) {
                let i = from + i;
                if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                    continue;
                }
                if i + 1 >= start && i < new_end {
                    new.push(i + 1);
                }
            }
        }
        if new_end != old_end {
            for s in &mut self.starts[hi..] {
                *s = *s - old_end + new_end;
            }
        }
        self.starts.splice(lo..hi, new);
    }

    /// How many lines the text has.
    #[cfg(test)]
    pub(crate) fn lines(&self) -> usize {
        self.starts.len()
    }

    /// The byte range of line `line` without its line break.
    fn line_range(&self, text: &str, line: usize) -> (usize, usize) {
        let start = self.starts[line];
        let mut end = self.starts.get(line + 1).copied().unwrap_or(text.len());
        let b = text.as_bytes();
        if end > start && b[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && b[end - 1] == b'\r' {
            end -= 1;
        }
        (start, end)
    }

    /// The position of a byte offset (clamped to the text, moved back to a character
    /// boundary).
    pub(crate) fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let (start, end) = self.line_range(text, line);
        let upto = offset.min(end).max(start);
        let character: usize = text[start..upto].chars().map(char::len_utf16).sum();
        Position::new(to_u32(line), to_u32(character))
    }

    /// The range of a byte span.
    pub(crate) fn range(&self, text: &str, start: usize, end: usize) -> Range {
        Range::new(self.position(text, start), self.position(text, end))
    }

    /// The byte offset of a position; `None` past the last line. A character past the end
    /// of its line is the line's end; one inside a surrogate pair is the character's start.
    pub(crate) fn offset(&self, text: &str, pos: Position) -> Option<usize> {
        let line = usize::try_from(pos.line).ok()?;
        if line >= self.starts.len() {
            return None;
        }
        let (start, end) = self.line_range(text, line);
        let want = usize::try_from(pos.character).unwrap_or(usize::MAX);
        let mut units = 0;
        for (i, c) in text[start..end].char_indices() {
            if units >= want {
                return Some(start + i);
            }
            units += c.len_utf16();
            if units > want {
                return Some(start + i);
            }
        }
        Some(end)
    }

    /// [`LineIndex::offset`] clamped to the end of the text (for edits: a client's range
    /// past the end means the end).
    pub(crate) fn offset_clamped(&self, text: &str, pos: Position) -> usize {
        self.offset(text, pos).unwrap_or(text.len())
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edited_index_equals_a_fresh_one() {
        let pieces = [
            "", "\n", "\r", "\r\n", "ab", "x\ny", "\n\r\n\r", "ä\r", "\n\n",
        ];
        let mut text = String::from("one\r\ntwo\rthree\n\nfour\r");
        let mut idx = LineIndex::new(&text);
        let mut next = bao_testkit::Lcg::new(7).picker();
        for round in 0..2_000 {
            let mut at = next(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let mut end = (at + next(4)).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let piece = pieces[next(pieces.len())];
            text.replace_range(at..end, piece);
            idx.edit(&text, at, end, at + piece.len());
            assert_eq!(
                idx.starts,
                LineIndex::new(&text).starts,
                "round {round}: {text:?}"
            );
        }
    }

    #[test]
    fn utf16_positions_round_trip() {
        let text = "a\u{1F600}b\r\nä\rc\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.lines(), 4);
        // "a" 1 unit, the emoji 2 units.
        assert_eq!(idx.position(text, 5), Position::new(0, 3));
        assert_eq!(idx.offset(text, Position::new(0, 3)), Some(5));
        // Inside the surrogate pair: the emoji's start.
        assert_eq!(idx.offset(text, Position::new(0, 2)), Some(1));
        // Past the line's end: its end, before `\r\n`.
        assert_eq!(idx.offset(text, Position::new(0, 99)), Some(6));
        assert_eq!(idx.offset(text, Position::new(1, 1)), Some(10));
        assert_eq!(idx.offset(text, Position::new(2, 0)), Some(11));
        assert_eq!(idx.offset(text, Position::new(4, 0)), None);
        assert_eq!(idx.offset_clamped(text, Position::new(9, 0)), text.len());
        assert_eq!(idx.position(text, text.len()), Position::new(3, 0));
        // Inside a character: moved back.
        assert_eq!(idx.position(text, 2), Position::new(0, 1));
    }
}
