//! `SourceText`: the lines miette draws for a diagnostic, found through an index (no walk from
//! the start of the text) and cut to a window in a very long line.

use std::sync::Arc;

use bao_notation::{parse_record, Place, SourceText, SourcedError};
use miette::{GraphicalReportHandler, GraphicalTheme, SourceCode, SourceSpan};

/// Texts with every kind of line break, blank lines, a multi-byte character and a text that
/// does not end with a line break.
const TEXTS: [&str; 4] = [
    "[Event \"x\"]\n\n1. A6<* a5>* {é comment}\n2. A7>* *\n",
    "[Event \"crlf\"]\r\n\r\n1. A6<* a5>*\r\n2. xx *\r\n",
    "a\rb\r\nc\n\nd",
    "\n\n\u{e9}\u{e9}x\n",
];

/// For short lines the indexed reading gives exactly what miette's own reading of a string
/// gives, for every span and the context sizes miette uses.
#[test]
fn the_index_reads_as_miette_reads_a_string() {
    for text in TEXTS {
        let src = SourceText::new("t", Arc::from(text));
        let bounds: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        for (k, &start) in bounds.iter().enumerate() {
            for &end in &bounds[k..bounds.len().min(k + 4)] {
                let span = SourceSpan::from((start, end - start));
                for ctx in [0, 1, 2] {
                    let want = text.read_span(&span, ctx, ctx).unwrap();
                    let got = src.read_span(&span, ctx, ctx).unwrap();
                    let at = format!("{text:?} {start}..{end} context {ctx}");
                    assert_eq!(got.data(), want.data(), "{at}");
                    assert_eq!(got.span(), want.span(), "{at}");
                    assert_eq!(got.line(), want.line(), "{at}");
                    assert_eq!(got.column(), want.column(), "{at}");
                    assert_eq!(got.name(), Some("t"));
                }
            }
        }
    }
}

/// An excerpt cut at a line start reads every span inside it (but one at its very first
/// byte, which miette reads as the start of a text: a streamed check keeps lines before the
/// game it reports), with the whole text's spans, lines and columns, as the whole (indexed)
/// text does; so does `line_col`.
#[test]
fn an_excerpt_reads_as_the_whole_text() {
    for text in TEXTS {
        let whole = SourceText::new("t", Arc::from(text));
        let line_starts = std::iter::once(0).chain(
            text.char_indices()
                .filter(|&(i, c)| c == '\n' || (c == '\r' && !text[i + 1..].starts_with('\n')))
                .map(|(i, _)| i + 1),
        );
        for (line, cut) in line_starts.enumerate() {
            let at = Place {
                offset: cut,
                line,
                column: 0,
            };
            let part = SourceText::excerpt("t", Arc::from(&text[cut..]), at);
            let bounds: Vec<usize> = (cut..=text.len())
                .filter(|&i| text.is_char_boundary(i))
                .collect();
            for (k, &start) in bounds.iter().enumerate() {
                assert_eq!(
                    part.line_col(start),
                    whole.line_col(start),
                    "{text:?} {start}"
                );
                if start == cut && cut > 0 {
                    continue;
                }
                for &end in &bounds[k..bounds.len().min(k + 4)] {
                    let span = SourceSpan::from((start, end - start));
                    // With no context lines, miette reads nothing before the cut.
                    let want = whole.read_span(&span, 0, 0).unwrap();
                    let got = part.read_span(&span, 0, 0).unwrap();
                    let at = format!("{text:?} cut {cut} {start}..{end}");
                    assert_eq!(got.data(), want.data(), "{at}");
                    assert_eq!(got.span(), want.span(), "{at}");
                    assert_eq!(got.line(), want.line(), "{at}");
                    assert_eq!(got.column(), want.column(), "{at}");
                }
            }
            if cut > 0 {
                let before = SourceSpan::from((cut - 1, 1));
                assert!(
                    part.read_span(&before, 0, 0).is_err(),
                    "a span before the cut"
                );
            }
        }
    }
}

#[test]
fn line_and_column_through_the_index() {
    let src = SourceText::new("t", Arc::from(TEXTS[1]));
    assert_eq!(src.line_col(0), (1, 1));
    let at = TEXTS[1].find("xx").unwrap();
    assert_eq!(src.line_col(at), (4, 4));
    let src = SourceText::new("t", Arc::from(TEXTS[3]));
    assert_eq!(src.line_col(TEXTS[3].find('x').unwrap()), (3, 3));
}

fn render(name: &str, text: &Arc<str>) -> String {
    let parsed = parse_record(text);
    assert!(!parsed.errors.is_empty());
    let handler =
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(80);
    let mut out = String::new();
    for e in &parsed.errors {
        let d = SourcedError::new(name, Arc::clone(text), e.clone());
        handler.render_report(&mut out, &d).unwrap();
    }
    out
}

/// A defect at the end of a 3 MB line is drawn from a window of the line around it, with the
/// right line and column; the drawing stays small.
#[test]
fn a_defect_in_a_huge_line_shows_a_window() {
    let moves = "A6<* a5>* ".repeat(300_000);
    let text: Arc<str> = Arc::from(format!("[Event \"long\"]\n\n{moves}zz# *\n").as_str());
    let out = render("long.bao", &text);
    assert!(out.len() < 4_000, "{} bytes drawn", out.len());
    assert!(out.contains("zz#"), "{out}");
    let column = moves.chars().count() + 1;
    assert!(out.contains(&format!("[long.bao:3:{column}]")), "{out}");
}
