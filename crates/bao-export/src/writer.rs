//! A small XML element writer: an element is open while its guard lives, and closes when the
//! guard drops, so tags always nest correctly.

use std::fmt::{self, Write as _};

/// The document being written.
#[derive(Debug)]
pub(crate) struct XmlWriter {
    out: String,
    /// Reused for formatting attribute values before escaping them.
    scratch: String,
    pretty: bool,
    depth: usize,
}

impl XmlWriter {
    pub(crate) fn new(pretty: bool) -> Self {
        Self {
            out: String::with_capacity(16 * 1024),
            scratch: String::with_capacity(64),
            pretty,
            depth: 0,
        }
    }

    /// Writes raw text (a declaration or comment known to be well formed).
    pub(crate) fn raw(&mut self, s: &str) {
        self.out.push_str(s);
        if self.pretty {
            self.out.push('\n');
        }
    }

    /// Opens an element; it closes when the returned guard drops.
    pub(crate) fn elem(&mut self, name: &'static str) -> Elem<'_> {
        Elem::open(self, name)
    }

    pub(crate) fn finish(self) -> String {
        self.out
    }

    fn indent(&mut self) {
        if self.pretty {
            for _ in 0..self.depth {
                self.out.push_str("  ");
            }
        }
    }

    fn newline(&mut self) {
        if self.pretty {
            self.out.push('\n');
        }
    }
}

/// The markup that text is escaped for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// An XML document (the SVG diagrams): `'` is `&apos;`, and the control characters
    /// XML 1.0 forbids are dropped (tab and newline are kept).
    Xml,
    /// HTML: `'` is `&#39;`, every other character is kept.
    Html,
}

/// A control character that XML 1.0 forbids (tab and newline are allowed).
fn xml_forbidden(c: u32) -> bool {
    c < 0x20 && c != u32::from('\t') && c != u32::from('\n')
}

/// Escapes text for an attribute value or element content: `&`, `<`, `>`, `"` and `'` as
/// entities, as `dialect` writes them.
pub(crate) fn escape_into(out: &mut String, s: &str, dialect: Dialect) {
    let xml = dialect == Dialect::Xml;
    let plain = !s.contains(['&', '<', '>', '"', '\''])
        && (!xml || !s.bytes().any(|b| xml_forbidden(u32::from(b))));
    if plain {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' if xml => out.push_str("&apos;"),
            '\'' => out.push_str("&#39;"),
            c if xml && xml_forbidden(c as u32) => {}
            c => out.push(c),
        }
    }
}

/// An open element. Attributes may be added until the first child or text.
#[derive(Debug)]
pub(crate) struct Elem<'w> {
    w: &'w mut XmlWriter,
    name: &'static str,
    /// The start tag is still open (`<name a="..."`): no child or text yet.
    tag_open: bool,
    /// Text content was written (no indentation before the end tag).
    has_text: bool,
}

impl<'w> Elem<'w> {
    fn open(w: &'w mut XmlWriter, name: &'static str) -> Self {
        w.indent();
        w.out.push('<');
        w.out.push_str(name);
        Elem {
            w,
            name,
            tag_open: true,
            has_text: false,
        }
    }

    /// Adds an attribute (only while the start tag is open; ignored after).
    pub(crate) fn attr(&mut self, key: &str, value: impl fmt::Display) -> &mut Self {
        if self.tag_open {
            self.w.out.push(' ');
            self.w.out.push_str(key);
            self.w.out.push_str("=\"");
            self.w.scratch.clear();
            let _ = write!(self.w.scratch, "{value}");
            escape_into(&mut self.w.out, &self.w.scratch, Dialect::Xml);
            self.w.out.push('"');
        }
        self
    }

    /// Adds an integer attribute (the grid is integer, so every coordinate is one).
    pub(crate) fn num(&mut self, key: &str, value: i32) -> &mut Self {
        if self.tag_open {
            let _ = write!(self.w.out, " {key}=\"{value}\"");
        }
        self
    }

    fn close_start_tag(&mut self) {
        if self.tag_open {
            self.w.out.push('>');
            self.tag_open = false;
        }
    }

    /// Opens a child element.
    pub(crate) fn elem(&mut self, name: &'static str) -> Elem<'_> {
        if self.tag_open {
            self.close_start_tag();
            self.w.newline();
        }
        self.w.depth += 1;
        Elem::open(self.w, name)
    }

    /// Writes escaped text content.
    pub(crate) fn text(&mut self, s: &str) -> &mut Self {
        self.close_start_tag();
        self.has_text = true;
        escape_into(&mut self.w.out, s, Dialect::Xml);
        self
    }
}

impl Drop for Elem<'_> {
    fn drop(&mut self) {
        if self.tag_open {
            self.w.out.push_str("/>");
        } else {
            if !self.has_text {
                self.w.indent();
            }
            self.w.out.push_str("</");
            self.w.out.push_str(self.name);
            self.w.out.push('>');
        }
        self.w.newline();
        self.w.depth = self.w.depth.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::{escape_into, Dialect, XmlWriter};

    #[test]
    fn nests_and_escapes() {
        let mut w = XmlWriter::new(false);
        {
            let mut svg = w.elem("svg");
            svg.attr("a", "x<\"&'>");
            {
                let mut t = svg.elem("title");
                t.text("A & B");
            }
            svg.elem("g").num("x", -3);
        }
        assert_eq!(
            w.finish(),
            "<svg a=\"x&lt;&quot;&amp;&apos;&gt;\"><title>A &amp; B</title><g x=\"-3\"/></svg>"
        );
    }

    #[test]
    fn the_dialects_differ_in_the_apostrophe_and_the_control_characters() {
        let text = "a'b\u{1}\tc\n<&>\"";
        let mut xml = String::new();
        escape_into(&mut xml, text, Dialect::Xml);
        assert_eq!(xml, "a&apos;b\tc\n&lt;&amp;&gt;&quot;");
        let mut html = String::new();
        escape_into(&mut html, text, Dialect::Html);
        assert_eq!(html, "a&#39;b\u{1}\tc\n&lt;&amp;&gt;&quot;");
        // Text with nothing to escape is copied as it is.
        let mut plain = String::new();
        escape_into(&mut plain, "A6 \u{1}", Dialect::Html);
        assert_eq!(plain, "A6 \u{1}");
        let mut dropped = String::new();
        escape_into(&mut dropped, "A6 \u{1}", Dialect::Xml);
        assert_eq!(dropped, "A6 ");
    }

    #[test]
    fn pretty_indents_children() {
        let mut w = XmlWriter::new(true);
        {
            let mut svg = w.elem("svg");
            svg.elem("g").elem("circle").num("r", 2);
            svg.elem("text").text("7");
        }
        assert_eq!(
            w.finish(),
            "<svg>\n  <g>\n    <circle r=\"2\"/>\n  </g>\n  <text>7</text>\n</svg>\n"
        );
    }
}
