//! `textDocument/formatting` and `rangeFormatting`: `bao fmt`'s text as the edits that make
//! it, made chunk by chunk in bounded memory.
//!
//! The chunks' games are given to a [`RecordWriter`] (what `bao fmt` writes, in pieces):
//! each piece it writes stands for the text from the end of the previous piece's text to
//! the end of the line of its game's result. Where a piece differs from its text, the edit
//! replaces only what differs (the common start and end are kept), so a record already
//! canonical gets no edit, and a slip gets an edit of its own words. The edits are written
//! as JSON as they are found: neither the formatted text nor the edits are held whole.

use bao_notation::{RecordWriter, WriteOptions};
use lsp_types::TextEdit;

use crate::document::View;

/// The JSON array of the edits that turn the document into `bao fmt`'s text, those that
/// lie inside `within` (a byte range; all when `None`), or `None` when the text has syntax
/// errors (it is not formatted) or the request was stopped.
pub(crate) fn edits_json(v: &View<'_>, within: Option<(usize, usize)>) -> Option<String> {
    let text = v.text;
    let mut writer = RecordWriter::new(WriteOptions::default());
    let mut out = Edits {
        v,
        within,
        json: String::from("["),
        any: false,
    };
    let mut piece = String::new();
    let mut from = 0;
    let done = v.each_chunk_parsed(|base, owned, parsed| {
        if parsed.has_errors() {
            return false;
        }
        // A chunk's text runs on over the comments that open the next chunk: those are
        // the next chunk's.
        for g in parsed
            .record
            .games
            .into_iter()
            .filter(|g| base + g.span.start < owned)
        {
            let end = line_end(text, base + g.span.end);
            piece.clear();
            writer.game(g, &mut piece);
            if piece.is_empty() {
                // Comments only: written with the next game, and their text with its text.
                continue;
            }
            out.replace(from, end.max(from), &piece);
            from = end.max(from);
        }
        true
    });
    if !done {
        return None;
    }
    piece.clear();
    writer.finish(&mut piece);
    out.replace(from, text.len(), &piece);
    out.json.push(']');
    Some(out.json)
}

/// Where the line of `at` ends: past the blanks after `at` and the line break that follows
/// them (`\n`, `\r\n` or a lone `\r`); at `at` when something else follows first.
fn line_end(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    let mut i = at;
    while i < b.len() && matches!(b[i], b' ' | b'\t') {
        i += 1;
    }
    match b.get(i) {
        Some(b'\n') => i + 1,
        Some(b'\r') if b.get(i + 1) == Some(&b'\n') => i + 2,
        Some(b'\r') => i + 1,
        _ => at,
    }
}

/// The edits written so far, as JSON.
struct Edits<'a, 'v> {
    v: &'a View<'v>,
    within: Option<(usize, usize)>,
    json: String,
    any: bool,
}

impl Edits<'_, '_> {
    /// The edit that makes `v.text[start..end]` into `new`: only the part that differs.
    fn replace(&mut self, start: usize, end: usize, new: &str) {
        let old = &self.v.text[start..end];
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let mut pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        while !(old.is_char_boundary(pre) && new.is_char_boundary(pre)) {
            pre -= 1;
        }
        let (a_rest, b_rest) = (&a[pre..], &b[pre..]);
        let mut suf = a_rest
            .iter()
            .rev()
            .zip(b_rest.iter().rev())
            .take_while(|(x, y)| x == y)
            .count();
        while !(old.is_char_boundary(old.len() - suf) && new.is_char_boundary(new.len() - suf)) {
            suf -= 1;
        }
        if pre == old.len() && pre == new.len() {
            return;
        }
        // An edit never starts or ends inside a `\r\n` (a position there is the line's end,
        // before the `\r`).
        let t = self.v.text.as_bytes();
        let inside =
            |at: usize| at > 0 && t.get(at - 1) == Some(&b'\r') && t.get(at) == Some(&b'\n');
        if inside(start + pre) {
            pre -= 1;
        }
        if inside(end - suf) {
            suf -= 1;
        }
        let (s, e) = (start + pre, end - suf);
        if let Some((lo, hi)) = self.within {
            if s < lo || e > hi {
                return;
            }
        }
        let edit = TextEdit::new(self.v.range(s, e), new[pre..new.len() - suf].to_owned());
        if self.any {
            self.json.push(',');
        }
        self.any = true;
        // A `TextEdit` always serializes.
        if let Ok(one) = serde_json::to_string(&edit) {
            self.json.push_str(&one);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use bao_notation::{parse_record, write_record, WriteOptions};

    use super::edits_json;
    use crate::document::Document;

    /// The text with the edits of `json` applied (they do not overlap).
    fn applied(doc: &Document, json: &str) -> String {
        let edits: Vec<lsp_types::TextEdit> = serde_json::from_str(json).unwrap();
        let mut text = doc.text.clone();
        let mut spans: Vec<(usize, usize, &str)> = edits
            .iter()
            .map(|e| {
                let s = doc.index.offset(&doc.text, e.range.start).unwrap();
                let t = doc.index.offset(&doc.text, e.range.end).unwrap();
                (s, t, e.new_text.as_str())
            })
            .collect();
        spans.sort_by_key(|s| std::cmp::Reverse(s.0));
        for (s, t, new) in spans {
            text.replace_range(s..t, new);
        }
        text
    }

    fn bao_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                bao_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "bao") {
                out.push(p);
            }
        }
    }

    /// On every record of the fixtures, alone and three times over, and on its canonical
    /// text: the edits make `bao fmt`'s text, none for a canonical text, and none at all
    /// (`null`) for a text with syntax errors.
    #[test]
    fn the_edits_make_bao_fmt_s_text() {
        let mut files = Vec::new();
        bao_files(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures"),
            &mut files,
        );
        assert!(files.len() > 20);
        let opts = crate::Config::default().check_options();
        let mut formatted = 0;
        for f in files {
            let Ok(one) = std::fs::read_to_string(&f) else {
                continue;
            };
            // Three times over too for the smaller ones (the check is slow in a debug build).
            let texts = if one.len() < 8 << 10 {
                vec![one.clone(), one.repeat(3)]
            } else {
                vec![one.clone()]
            };
            for text in texts {
                let parsed = parse_record(&text);
                let mut doc = Document::new(text.clone(), 1);
                let json = edits_json(&doc.view(&opts), None);
                if parsed.has_errors() {
                    assert_eq!(json, None, "{}", f.display());
                    continue;
                }
                let canonical = write_record(&parsed.record, &WriteOptions::default());
                let json = json.unwrap();
                assert_eq!(applied(&doc, &json), canonical, "{}", f.display());
                formatted += 1;
                let mut again = Document::new(canonical, 2);
                assert_eq!(
                    edits_json(&again.view(&opts), None).as_deref(),
                    Some("[]"),
                    "{}",
                    f.display()
                );
            }
        }
        assert!(formatted > 20, "{formatted}");
    }

    /// A slip in one game of many gets one small edit, over its word only.
    #[test]
    fn one_slip_gets_one_small_edit() {
        let game = |n: usize, mv: &str| format!("[Event \"g{n}\"]\n\n1. A6<* {mv} *\n");
        let mut text = (0..5)
            .map(|n| game(n, "a6>*"))
            .collect::<Vec<_>>()
            .join("\n");
        let canonical = text.clone();
        text = text.replacen(
            "[Event \"g3\"]\n\n1. A6<* a6>*",
            "[Event \"g3\"]\n\n1. A6<* a6R*",
            1,
        );
        let mut doc = Document::new(text, 1);
        let json = edits_json(&doc.view(&crate::Config::default().check_options()), None).unwrap();
        let edits: Vec<lsp_types::TextEdit> = serde_json::from_str(&json).unwrap();
        assert_eq!(edits.len(), 1, "{json}");
        assert_eq!(edits[0].new_text, ">");
        assert_eq!(applied(&doc, &json), canonical);
        // Formatting a range that does not hold the slip changes nothing.
        let before = doc.text.find("g3").unwrap();
        let json = edits_json(
            &doc.view(&crate::Config::default().check_options()),
            Some((0, before)),
        )
        .unwrap();
        assert_eq!(json, "[]");
    }
}
