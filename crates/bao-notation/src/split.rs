//! Cutting a text into game chunks at tag lines, without parsing it.
//!
//! A chunk ends before a line that begins with a tag pair (`[Name "`) when the chunk already
//! holds movetext, or when a brace comment is open (a brace comment cannot run over a tag
//! line). The parser and the streaming reader share this rule, so a defect in one game can
//! never swallow the games after it.

/// Below this length a plain loop finds a byte faster than a `memchr` call.
const SHORT: usize = 24;

/// The first of `a`, `b` or `c` in `hay`.
#[inline]
fn find3(a: u8, b: u8, c: u8, hay: &[u8]) -> Option<usize> {
    if hay.len() < SHORT {
        hay.iter().position(|&x| x == a || x == b || x == c)
    } else {
        memchr::memchr3(a, b, c, hay)
    }
}

/// The first of `a` or `b` in `hay`.
#[inline]
fn find2(a: u8, b: u8, hay: &[u8]) -> Option<usize> {
    if hay.len() < SHORT {
        hay.iter().position(|&x| x == a || x == b)
    } else {
        memchr::memchr2(a, b, hay)
    }
}

/// Whether a line (leading blanks allowed) begins with `[`, a tag name and a `"`.
#[inline]
pub(crate) fn is_tag_line(line: &[u8]) -> bool {
    // Most lines are movetext, which begins with neither `[` nor a blank.
    match line.first() {
        Some(b'[' | b' ' | b'\t') => tag_line_from(line),
        _ => false,
    }
}

/// [`is_tag_line`] for a line that begins with `[` or a blank.
fn tag_line_from(line: &[u8]) -> bool {
    // The usual form first: `[`, a name, one blank or none, `"`.
    if let [b'[', rest @ ..] = line {
        let n = crate::lexical::tag_name_len(rest);
        if n > 0 && matches!(rest.get(n..n + 2), Some([b' ', b'"'] | [b'"', _])) {
            return true;
        }
    }
    let i = crate::lexical::blanks_end(line, 0);
    line.get(i) == Some(&b'[') && crate::lexical::is_tag_start(line, i)
}

/// The chunking state, fed one line at a time.
#[derive(Debug, Default, Clone)]
pub(crate) struct Splitter {
    in_brace: bool,
    has_movetext: bool,
}

impl Splitter {
    /// [`Splitter::line`] for a line known to hold neither `{` nor `;` when `plain` (as found
    /// while looking for its end): outside a brace comment, such a line only needs the tag-line
    /// test, and a look for its first non-blank byte while the chunk has no movetext yet.
    #[inline]
    pub(crate) fn line_hint(&mut self, line: &[u8], plain: bool) -> bool {
        if !plain || self.in_brace {
            return self.line(line);
        }
        let tag_line = is_tag_line(line);
        let boundary = tag_line && self.has_movetext;
        if boundary {
            self.has_movetext = false;
        } else if !tag_line && !self.has_movetext {
            self.has_movetext = line.iter().any(|&c| !crate::lexical::is_ws(c));
        }
        boundary
    }

    /// Feeds one line (line end included or not); returns whether a new chunk starts at it.
    pub(crate) fn line(&mut self, line: &[u8]) -> bool {
        let (boundary, mut scan) = self.begin_line(line);
        self.feed(&mut scan, line);
        boundary
    }

    /// Begins a line whose first bytes are `head` (the whole line, or as much of a long line
    /// as tells whether it is a tag line): whether a new chunk starts at it, and the state in
    /// which [`Splitter::feed`] takes the line's bytes, the whole line in as many pieces as
    /// the caller likes. A line longer than a reader keeps must still be seen whole: a brace
    /// it opens or closes past what is kept decides where the next chunk starts.
    pub(crate) fn begin_line(&mut self, head: &[u8]) -> (bool, LineScan) {
        let tag_line = is_tag_line(head);
        let boundary = tag_line && (self.has_movetext || self.in_brace);
        if boundary {
            self.has_movetext = false;
            self.in_brace = false;
        }
        (
            boundary,
            LineScan {
                tag_line,
                in_string: false,
                escaped: false,
                done: false,
            },
        )
    }

    /// Takes the next piece of the line begun with [`Splitter::begin_line`].
    pub(crate) fn feed(&mut self, scan: &mut LineScan, piece: &[u8]) {
        let n = piece.len();
        let mut i = 0;
        if scan.escaped && n > 0 {
            scan.escaped = false;
            i = 1;
        }
        while i < n && !scan.done {
            if scan.in_string {
                match piece[i..].iter().position(|&c| c == b'"' || c == b'\\') {
                    Some(p) if piece[i + p] == b'"' => {
                        i += p + 1;
                        scan.in_string = false;
                    }
                    Some(p) if i + p + 1 < n => i += p + 2,
                    Some(_) => {
                        scan.escaped = true;
                        break;
                    }
                    None => break,
                }
                continue;
            }
            if self.in_brace {
                match memchr::memchr(b'}', &piece[i..]) {
                    Some(p) => {
                        i += p + 1;
                        self.in_brace = false;
                        continue;
                    }
                    None => break,
                }
            }
            // Once the chunk has movetext (or on a tag line, which never gives it any), only
            // the bytes that open a comment or a string matter: jump to the next one.
            if scan.tag_line {
                match find3(b'{', b';', b'"', &piece[i..]) {
                    Some(p) => i += p,
                    None => break,
                }
            } else if self.has_movetext {
                match find2(b'{', b';', &piece[i..]) {
                    Some(p) => i += p,
                    None => break,
                }
            }
            match piece[i] {
                b'{' => self.in_brace = true,
                b';' => scan.done = true,
                b'"' if scan.tag_line => scan.in_string = true,
                b' ' | b'\t' | b'\r' | b'\n' | b'\x0b' | b'\x0c' => {}
                _ => {
                    if !scan.tag_line {
                        self.has_movetext = true;
                    }
                }
            }
            i += 1;
        }
    }
}

/// Where a [`Splitter`] is inside a line fed to it in pieces.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LineScan {
    tag_line: bool,
    /// Inside a tag line's string.
    in_string: bool,
    /// The last piece ended with a string's `\\`: the next byte is escaped.
    escaped: bool,
    /// A `;` comment runs to the end of the line.
    done: bool,
}

/// The length of the line at the start of `b` (its `\n` included; all of `b` when it has
/// none), and whether the line is free of `{` and `;` (one search finds both).
#[inline]
pub(crate) fn line_len(b: &[u8]) -> (usize, bool) {
    match memchr::memchr3(b'\n', b'{', b';', b) {
        Some(p) if b[p] == b'\n' => (p + 1, true),
        Some(p) => (
            memchr::memchr(b'\n', &b[p..]).map_or(b.len(), |q| p + q + 1),
            false,
        ),
        None => (b.len(), true),
    }
}

/// The chunks of a whole text, as byte ranges covering it.
pub(crate) fn chunks(text: &str, from: usize) -> Vec<std::ops::Range<usize>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut sp = Splitter::default();
    let mut start = from;
    let mut line_start = from;
    // The next `{` or `;` at or after `line_start` (the end of the text when there is none),
    // searched for again only once passed: they are rare, and most lines need only their end.
    let find_special =
        |at: usize| memchr::memchr2(b'{', b';', &b[at..]).map_or(b.len(), |p| at + p);
    let mut special = find_special(from.min(b.len()));
    let mut lines = memchr::memchr_iter(b'\n', &b[from.min(b.len())..]);
    while line_start < b.len() {
        let line_end = lines.next().map_or(b.len(), |p| from + p + 1);
        crate::steps::step(line_end - line_start);
        if special < line_start {
            special = find_special(line_start);
        }
        let plain = special >= line_end;
        if sp.line_hint(&b[line_start..line_end], plain) && line_start > start {
            out.push(start..line_start);
            start = line_start;
        }
        line_start = line_end;
    }
    if start < b.len() || out.is_empty() {
        out.push(start..b.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_at_tag_lines_after_movetext() {
        let t = "[A \"1\"]\n[B \"2\"]\n1. A6<* 1-0\n\n[A \"3\"]\n* \n";
        let c = chunks(t, 0);
        assert_eq!(c.len(), 2);
        assert!(t[c[1].clone()].starts_with("[A \"3\"]"));
    }

    /// The chunks found with the full scan of every line (no hint, no shared search).
    fn full_scan_chunks(text: &str) -> Vec<std::ops::Range<usize>> {
        let mut sp = Splitter::default();
        let (mut out, mut start) = (Vec::new(), 0);
        for line in text.split_inclusive('\n') {
            let at = line.as_ptr() as usize - text.as_ptr() as usize;
            if sp.line(line.as_bytes()) && at > start {
                out.push(start..at);
                start = at;
            }
        }
        if start < text.len() || out.is_empty() {
            out.push(start..text.len());
        }
        out
    }

    /// Lines made of pieces that matter to the splitter: the plain-line shortcut keeps the
    /// state and the boundaries of the full scan.
    #[test]
    fn plain_lines_agree_with_the_full_scan() {
        let pieces: [&str; 9] = [
            "[Event \"x\"]",
            "1. A6<*",
            "{",
            "}",
            ";c",
            "  ",
            "\"",
            "[A6 xa5]",
            "[B \"{\"]",
        ];
        let n = pieces.len();
        let mut checked = 0;
        for code in 0..n.pow(4) {
            let mut text = String::new();
            let mut c = code;
            for _ in 0..4 {
                text.push_str(pieces[c % n]);
                c /= n;
                text.push(if c % 2 == 0 { '\n' } else { ' ' });
            }
            let (mut full, mut fast) = (Splitter::default(), Splitter::default());
            let b = text.as_bytes();
            let mut at = 0;
            while at < b.len() {
                let (len, plain) = line_len(&b[at..]);
                let line = &b[at..at + len];
                assert_eq!(plain, !line.iter().any(|&c| c == b'{' || c == b';'));
                assert_eq!(full.line(line), fast.line_hint(line, plain), "{text:?}");
                assert_eq!(
                    (full.in_brace, full.has_movetext),
                    (fast.in_brace, fast.has_movetext),
                    "{text:?}"
                );
                checked += usize::from(plain);
                at += len;
            }
            assert_eq!(chunks(&text, 0), full_scan_chunks(&text), "{text:?}");
        }
        assert!(checked > 1000);
    }

    /// The tag-line test, written plainly: blanks, `[`, blanks, a name, blanks, `"`.
    fn tag_line_reference(line: &[u8]) -> bool {
        let s = std::str::from_utf8(line).unwrap_or_default();
        let Some(rest) = s.trim_start_matches([' ', '\t']).strip_prefix('[') else {
            return false;
        };
        let rest = rest.trim_start_matches([' ', '\t']);
        if !rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return false;
        }
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
        rest.trim_start_matches([' ', '\t']).starts_with('"')
    }

    /// The fast form and the general one agree with the plain reading on every line of up to
    /// six bytes from the bytes that matter.
    #[test]
    fn tag_lines_agree_with_a_plain_reading() {
        let alphabet = b"[ \ta1_\"]x";
        let mut line = Vec::new();
        let mut tags = 0;
        for len in 0..=6u32 {
            for mut code in 0..alphabet.len().pow(len) {
                line.clear();
                for _ in 0..len {
                    line.push(alphabet[code % alphabet.len()]);
                    code /= alphabet.len();
                }
                let expected = tag_line_reference(&line);
                assert_eq!(
                    is_tag_line(&line),
                    expected,
                    "{:?}",
                    String::from_utf8_lossy(&line)
                );
                tags += usize::from(expected);
            }
        }
        assert!(tags > 1000, "{tags}");
    }

    #[test]
    fn open_comment_ends_at_tag_line() {
        let t = "{open\n[A \"1\"]\n*\n";
        assert_eq!(chunks(t, 0).len(), 2);
        let t = "{a\n[b]\n}\n[A \"1\"]\n";
        assert_eq!(chunks(t, 0).len(), 1);
    }
}
