//! The document's outline and marks: symbols (games), folding ranges (games, variations,
//! comments), semantic tokens (tags, move numbers, pits, signs, NAGs, annotations, results)
//! and inlay hints (what each move did).

use bao_notation::meaning::is_game;
use bao_notation::Span;
use bao_replay::{Document, Node};
use lsp_types::{
    DocumentHighlight, DocumentHighlightKind, DocumentSymbol, FoldingRange, FoldingRangeKind,
    InlayHint, InlayHintKind, InlayHintLabel, SemanticToken, SemanticTokenType, SymbolKind,
};

use crate::document::View;

/// The semantic token types, in the order of the legend.
pub(crate) const TOKEN_TYPES: [SemanticTokenType; 8] = [
    SemanticTokenType::PROPERTY, // 0: a tag's name
    SemanticTokenType::STRING,   // 1: a tag's value
    SemanticTokenType::NUMBER,   // 2: a move number
    SemanticTokenType::VARIABLE, // 3: a pit
    SemanticTokenType::OPERATOR, // 4: a sign and the marks after it
    SemanticTokenType::MACRO,    // 5: a NAG
    SemanticTokenType::COMMENT,  // 6: an annotation
    SemanticTokenType::KEYWORD,  // 7: a result
];

/// One symbol per game: its players and result.
pub(crate) fn symbols(v: &View<'_>) -> Vec<DocumentSymbol> {
    let mut out = Vec::new();
    let mut n = 0;
    v.each_game(|base, g| {
        n += 1;
        let game = &g.value;
        if !is_game(game) {
            return;
        }
        let tag = |name: &str| game.tag(name).map(|t| t.value.clone());
        let name = match (tag("South"), tag("North")) {
            (Some(s), Some(n)) => format!("{s} – {n}"),
            (Some(s), None) => s,
            (None, Some(n)) => n,
            (None, None) => tag("Event").unwrap_or_else(|| format!("Game {n}")),
        };
        let result = game
            .result
            .as_ref()
            .map(|r| r.value.as_str().to_owned())
            .or_else(|| tag("Result"));
        let detail = match (tag("Event"), result) {
            (Some(e), Some(r)) => Some(format!("{r} · {e}")),
            (e, r) => r.or(e),
        };
        let range = v.range(base + g.span.start, base + g.span.end);
        let first = game.tags.first().map_or(g.span, |t| t.span);
        let selection = v.range(base + first.start, base + first.end);
        #[allow(deprecated)] // the protocol's `deprecated` field must be given
        out.push(DocumentSymbol {
            name,
            detail,
            kind: SymbolKind::EVENT,
            tags: None,
            deprecated: None,
            range,
            selection_range: selection,
            children: None,
        });
    });
    out
}

/// Folding ranges: games, variations and comments over several lines.
pub(crate) fn folding(v: &View<'_>) -> Vec<FoldingRange> {
    let mut spans: Vec<(Span, Option<FoldingRangeKind>)> = Vec::new();
    v.each_game(|base, g| {
        let game = &g.value;
        let at = |s: Span| s.shifted(base);
        if is_game(game) {
            spans.push((at(g.span), Some(FoldingRangeKind::Region)));
        }
        for c in &game.comments {
            spans.push((at(c.span), Some(FoldingRangeKind::Comment)));
        }
        for node in Document::unreplayed(game).walk() {
            match node {
                Node::Variation(v) => {
                    let span = v.span().unwrap_or_default();
                    spans.push((at(span), Some(FoldingRangeKind::Region)));
                }
                Node::Comment(_, span) => {
                    spans.push((at(span), Some(FoldingRangeKind::Comment)));
                }
                Node::Move(_) => {}
            }
        }
    });
    spans
        .into_iter()
        .filter_map(|(s, kind)| {
            let a = v.position(s.start);
            let b = v.position(s.end.saturating_sub(1).max(s.start));
            (b.line > a.line).then_some(FoldingRange {
                start_line: a.line,
                start_character: None,
                end_line: b.line,
                end_character: None,
                kind,
                collapsed_text: None,
            })
        })
        .collect()
}

/// The semantic tokens of the document, encoded as the protocol wants them (each relative to
/// the one before; one line each).
pub(crate) fn tokens(v: &View<'_>) -> Vec<SemanticToken> {
    encode(&placed(v, v.marks(None)), None)
}

/// The semantic tokens that overlap the byte range `start..end` of the document (the
/// tokens of [`tokens`] there), encoded from the start of the document as the protocol
/// wants them. Only the games over the range are read.
pub(crate) fn tokens_over(v: &View<'_>, start: usize, end: usize) -> Vec<SemanticToken> {
    encode(&placed(v, v.marks(Some((start, end)))), Some((start, end)))
}

impl View<'_> {
    /// The marks of the games of the chunks over `range` (all when `None`): each span with
    /// its token type, sorted by start.
    fn marks(&self, range: Option<(usize, usize)>) -> Vec<(Span, u32)> {
        let mut marks: Vec<(Span, u32)> = Vec::new();
        self.each_game_over(range, |base, g| {
            let game = &g.value;
            let at = |s: Span| s.shifted(base);
            for t in &game.tags {
                marks.push((at(t.value.name.span), 0));
                marks.push((at(t.value.value.span), 1));
            }
            for m in Document::unreplayed(game).moves() {
                let m = m.written();
                if let Some(n) = &m.number {
                    marks.push((at(n.span), 2));
                }
                let tok = at(m.token.span);
                let text = self.text.get(tok.start..tok.end).unwrap_or("");
                let pit_len = text
                    .find(|c: char| !c.is_ascii_alphanumeric())
                    .unwrap_or(text.len());
                marks.push((Span::new(tok.start, tok.start + pit_len), 3));
                if pit_len < text.len() {
                    marks.push((Span::new(tok.start + pit_len, tok.end), 4));
                }
                for n in &m.nags {
                    marks.push((at(n.span), 5));
                }
                if let Some(a) = &m.annotation {
                    marks.push((at(a.span), 6));
                }
            }
            if let Some(r) = &game.result {
                marks.push((at(r.span), 7));
            }
        });
        marks.sort_by_key(|m| m.0.start);
        marks
    }
}

/// A token at its place: its bytes, its line and first character, its length in UTF-16
/// code units and its type.
#[derive(Debug, Clone, Copy)]
struct Placed {
    bytes: Span,
    line: u32,
    character: u32,
    length: u32,
    ty: u32,
}

/// The tokens of marks (sorted by start), each cut at its first line break; empty and
/// overlapping ones skipped.
fn placed(v: &View<'_>, marks: Vec<(Span, u32)>) -> Vec<Placed> {
    let mut out = Vec::with_capacity(marks.len());
    let mut last_end = 0;
    for (span, ty) in marks {
        if span.start < last_end || span.end <= span.start {
            continue;
        }
        let Some(piece) = v.text.get(span.start..span.end) else {
            continue;
        };
        let piece = piece.split(['\n', '\r']).next().unwrap_or("");
        let length: usize = piece.chars().map(char::len_utf16).sum();
        if length == 0 {
            continue;
        }
        let p = v.position(span.start);
        out.push(Placed {
            bytes: Span::new(span.start, span.start + piece.len()),
            line: p.line,
            character: p.character,
            length: u32::try_from(length).unwrap_or(u32::MAX),
            ty,
        });
        last_end = span.end;
    }
    out
}

/// Delta-encodes tokens (in text order) from the start of the document: all of them, or
/// those that overlap the byte range given.
fn encode(tokens: &[Placed], range: Option<(usize, usize)>) -> Vec<SemanticToken> {
    let mut out = Vec::with_capacity(tokens.len());
    let (mut line, mut col) = (0u32, 0u32);
    for t in tokens {
        if range.is_some_and(|(start, end)| t.bytes.end <= start || end <= t.bytes.start) {
            continue;
        }
        let delta_line = t.line - line;
        let delta_start = if delta_line == 0 {
            t.character - col
        } else {
            t.character
        };
        out.push(SemanticToken {
            delta_line,
            delta_start,
            length: t.length,
            token_type: t.ty,
            token_modifiers_bitset: 0,
        });
        (line, col) = (t.line, t.character);
    }
    out
}

/// After each move played in `start..end`: its laps and captures.
pub(crate) fn hints(v: &View<'_>, start: usize, end: usize) -> Vec<InlayHint> {
    let mut found: Vec<(usize, String)> = Vec::new();
    for g in v.replayed_games(start, end) {
        let Some(doc) = g.doc() else { continue };
        for ply in doc.moves().flat_map(|m| m.plies()) {
            let at = g.base + ply.span.end;
            if at < start || at > end {
                continue;
            }
            let Some(p) = ply.played() else { continue };
            let n = p.trace.laps_total;
            let mut label = format!("{n} lap{}", if n == 1 { "" } else { "s" });
            if !p.trace.captures.is_empty() {
                let pits: Vec<String> =
                    p.trace.captures.iter().map(|c| c.pit.to_string()).collect();
                label.push_str(", ×");
                label.push_str(&pits.join(" "));
            }
            found.push((at, label));
        }
    }
    found.sort_by_key(|f| f.0);
    found
        .into_iter()
        .map(|(at, label)| InlayHint {
            position: v.position(at),
            label: InlayHintLabel::String(label),
            kind: Some(InlayHintKind::TYPE),
            text_edits: None,
            tooltip: None,
            padding_left: Some(true),
            padding_right: None,
            data: None,
        })
        .collect()
}

/// The pit a move token names: the pit of the move played from it (a number-only pit
/// resolved), else the pit written (`A6` in `A6<`); and how many bytes of the token name it.
fn token_pit(m: &bao_replay::MoveNode<'_>) -> Option<(String, usize)> {
    let text = m.text()?;
    let b = text.as_bytes();
    let written = match b {
        [r @ (b'A' | b'B' | b'a' | b'b'), n @ b'1'..=b'8', ..] => {
            Some((format!("{}{}", *r as char, *n as char), 2))
        }
        _ => None,
    };
    let len = written.as_ref().map_or(1, |w| w.1);
    match m.played() {
        Some((_, played)) => Some((played.mv.pit.to_string(), len)),
        None => written,
    }
}

/// `textDocument/documentHighlight` on a move: the pit it names in every move of its game
/// (main line and variations) that names the same pit; `None` off a move.
pub(crate) fn highlights(v: &View<'_>, offset: usize) -> Option<Vec<DocumentHighlight>> {
    let g = v.game_at(offset)?;
    let doc = g.doc()?;
    let at = doc.move_at(offset - g.base)?;
    let (pit, _) = token_pit(&at)?;
    Some(
        doc.moves()
            .filter_map(|m| {
                let (p, len) = token_pit(&m)?;
                let start = g.base + m.token_span().start;
                (p == pit).then(|| DocumentHighlight {
                    range: v.range(start, start + len),
                    kind: Some(DocumentHighlightKind::TEXT),
                })
            })
            .collect(),
    )
}
