//! The self-contained HTML game viewer (`bao export html`).
//!
//! Every position of a game (the start, each ply of the main line and of every variation) is
//! drawn at export time by [`board_svg`], the same code as `bao export svg`, and embedded
//! inline; a small hand-written script only shows one frame and hides the rest. The page
//! needs nothing from outside: no network, no font files, no scripts or styles by URL. The
//! page's structure (ids, classes, `data-` attributes) is documented in `spec/html.md`.

use std::fmt::Write as _;

use bao_core::{BySide, Position, Side};
use bao_notation::{Comment, CommentKind, Evaluation, Game, Markup, Record, Span, Spanned};
use bao_replay::{Line, Node as Written, ReplayedGame};

use crate::document::{markup_after, markup_before, Exported, ReplayError, MAX_DEPTH};
use crate::frames::result_words;
use crate::layout::side_title;
use crate::overlay::Overlay;
use crate::svg::{board_svg, SvgOptions, Theme};
use crate::writer::{escape_into, Dialect};
use crate::ExportError;

/// Options of [`game_html`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HtmlOptions {
    /// How every frame is drawn. `pretty` and `id_prefix` are ignored (each frame gets its own
    /// prefix); player names missing here are taken from the `South` and `North` tags.
    pub svg: SvgOptions,
}

impl Default for HtmlOptions {
    fn default() -> Self {
        Self {
            svg: SvgOptions {
                show_changes: true,
                ..SvgOptions::default()
            },
        }
    }
}

/// One position of the viewer: a frame.
struct Node {
    /// The frame before (the position this ply was played in).
    prev: Option<usize>,
    /// The next frame of the same line.
    next: Option<usize>,
    /// The last frame of this frame's line (`End` goes there).
    end: usize,
    /// Nesting: 0 for the main line.
    depth: usize,
    /// What the status line says while the frame is shown.
    label: String,
    /// The comments after the move, shown under the board.
    notes: Vec<String>,
    /// The drawing.
    svg: String,
    /// The evaluation of the position (`[%eval ...]` in the comments after the move).
    eval: Option<Evaluation>,
}

struct Builder<'a> {
    /// The game.
    game: Exported<'a>,
    opts: SvgOptions,
    /// 1 when the game starts with North to move (so South's first move is number 2).
    offset: usize,
    nodes: Vec<Node>,
    /// The move list being written.
    list: String,
    /// The token of the main line's last move, and how the game ended when its final
    /// position does not say it: drawn on that frame.
    ending: (Option<Span>, Option<String>),
}

/// The viewer page of game `index` (0-based, in `record.games`), drawn from its replay
/// (`replayed` holds the replay of each game of `record`, in file order).
///
/// The record should be valid (checked without errors). The output is deterministic: the
/// same record and options give the same bytes.
///
/// # Errors
/// [`ExportError::Replay`] when the game does not exist or a move cannot be replayed.
///
/// ```
/// use bao_export::{game_html, HtmlOptions};
///
/// let record = bao_notation::parse_record("1. A7>* a6<* *\n").record;
/// let replayed: Vec<_> = record
///     .games
///     .iter()
///     .map(|g| bao_replay::replay_game(&g.value, None))
///     .collect();
/// let page = game_html(&record, &replayed, 0, &HtmlOptions::default()).unwrap();
/// assert!(page.starts_with("<!DOCTYPE html>"));
/// // The start and one frame per ply, each an inline SVG.
/// assert_eq!(page.matches("<svg xmlns=").count(), 3);
/// ```
pub fn game_html(
    record: &Record,
    replayed: &[ReplayedGame],
    index: usize,
    opts: &HtmlOptions,
) -> Result<String, ExportError> {
    let exported = Exported::of_record(record, replayed, index)?;
    let (game, start) = (exported.doc.game(), exported.start);
    let main = exported.doc.main();

    let mut svg = opts.svg.clone();
    svg.pretty = false;
    for side in Side::ALL {
        if svg.names.get(side).is_none() {
            let tag = game
                .tag(side_title(side))
                .map(|t| t.value.trim())
                .filter(|t| !t.is_empty() && *t != "?");
            *svg.names.get_mut(side) = tag.map(str::to_owned);
        }
    }
    let last_move = main.moves().last();
    let last_pos = last_move
        .and_then(|m| m.played())
        .map_or(start, |(_, p)| p.after);
    let last_move = last_move.map(|m| m.token_span());
    let ending = result_words(game, &last_pos);
    let mut b = Builder {
        game: exported,
        opts: svg,
        offset: usize::from(start.to_move() == Side::North),
        nodes: Vec::new(),
        list: String::new(),
        ending: (last_move, ending),
    };
    let start_ending = if last_move.is_none() {
        b.ending.1.clone()
    } else {
        None
    };
    let start_markup = markup_before(&main);
    let start_svg = b.frame(0, &start, None, &start_markup, start_ending);
    b.nodes.push(Node {
        prev: None,
        next: None,
        end: 0,
        depth: 0,
        label: "Start position".to_owned(),
        notes: Vec::new(),
        svg: start_svg,
        eval: start_markup.eval,
    });
    b.line(main, 0)?;
    Ok(page(game, &b))
}

impl<'a> Builder<'a> {
    fn frame(
        &self,
        n: usize,
        pos: &Position,
        overlay: Option<&Overlay>,
        markup: &Markup,
        ending: Option<String>,
    ) -> String {
        let mut opts = SvgOptions {
            id_prefix: format!("bao-f{n}-"),
            ending,
            ..self.opts.clone()
        };
        let mut marks = markup.clone();
        marks.extend(&self.opts.markup);
        opts.markup = marks;
        let svg = board_svg(pos, &opts, overlay);
        // Inline SVG in HTML takes no XML declaration.
        match svg.strip_prefix("<?xml") {
            Some(rest) => rest
                .split_once("?>")
                .map_or(svg.clone(), |(_, body)| body.trim_start().to_owned()),
            None => svg,
        }
    }

    /// Walks a line as it replayed from the position of frame `from`; writes its moves into
    /// the list and gives every frame of the line its `end`.
    fn line(&mut self, line: Line<'a>, from: usize) -> Result<(), ExportError> {
        let depth = line.depth();
        if depth > MAX_DEPTH {
            return Err(ReplayError::TooDeep {
                game: self.game.number,
            }
            .into());
        }
        let mut own: Vec<usize> = Vec::new();
        let mut prev = from;
        // The frame before the line's last move: where a variation branches.
        let mut branch: Option<usize> = None;
        // The number of the line's last ply.
        let mut last_ply: Option<usize> = None;
        // A North move after anything but South's move gets `N...`.
        let mut interrupted = true;
        for node in line.nodes() {
            match node {
                Written::Comment(c, _) => {
                    // Markup is drawn, not shown as text.
                    let text = Markup::strip(&c.text);
                    if !text.is_empty() {
                        let _ = write!(
                            self.list,
                            "<span class=\"bao-comment\">{}</span> ",
                            escape_html(&text)
                        );
                        if branch.is_some() {
                            self.nodes[prev].notes.push(text);
                        }
                        interrupted = true;
                    }
                }
                Written::Variation(v) => {
                    // A variation before any move has no branch point (the validator skips
                    // it too).
                    if let (Some(at), Some(ply)) = (branch, last_ply) {
                        let v = self.game.variation(v, ply)?;
                        self.list.push_str("<span class=\"bao-variation\">( ");
                        self.line(v, at)?;
                        self.list.push_str(")</span> ");
                        interrupted = true;
                    }
                }
                Written::Move(m) => {
                    let item = m.written();
                    let (replayed_ply, played) = self.game.played(&m)?;
                    last_ply = Some(replayed_ply.number);
                    let (mv, next, trace) = (played.mv, played.after, &played.trace);
                    let ply = replayed_ply.number;
                    let side = replayed_ply.mover();
                    let overlay = Overlay::from_trace(&replayed_ply.before, trace);
                    let text = overlay.move_text().unwrap_or_else(|| mv.to_string());
                    let num = (ply + self.offset).div_ceil(2);
                    let number = match side {
                        Side::South => format!("{num}."),
                        Side::North if interrupted => format!("{num}..."),
                        Side::North => String::new(),
                    };
                    let glyphs: Vec<String> = item
                        .nags
                        .iter()
                        .map(|n| {
                            n.value
                                .glyph()
                                .map_or_else(|| format!(" ${}", n.value.0), str::to_owned)
                        })
                        .collect();
                    let glyphs = glyphs.concat();
                    let n = self.nodes.len();
                    let dots = if side == Side::South { "." } else { "..." };
                    let var = if depth > 0 { " (variation)" } else { "" };
                    let mut label = format!(
                        "Ply {ply}{var}: {num}{dots} {text}{glyphs} – {}",
                        overlay.summary(next.rules())
                    );
                    if let Some(o) = crate::layout::outcome_text(&next, true) {
                        let _ = write!(label, ". {o}");
                    } else if depth == 0 && self.ending.0 == Some(m.token_span()) {
                        if let Some(e) = &self.ending.1 {
                            let _ = write!(label, ". {e}");
                        }
                    }
                    let ending = if depth == 0 && self.ending.0 == Some(m.token_span()) {
                        self.ending.1.clone()
                    } else {
                        None
                    };
                    let marks = markup_after(&m);
                    if let Some(e) = marks.eval {
                        let _ = write!(label, ". Evaluation {}", eval_words(e));
                    }
                    let svg = self.frame(n, &next, Some(&overlay), &marks, ending);
                    self.nodes.push(Node {
                        prev: Some(prev),
                        next: None,
                        end: n,
                        depth,
                        label,
                        notes: Vec::new(),
                        svg,
                        eval: marks.eval,
                    });
                    // The first move of a variation does not replace the main move after
                    // its branch point.
                    if self.nodes[prev].next.is_none() {
                        self.nodes[prev].next = Some(n);
                    }
                    // A move and its number never break apart.
                    self.list.push_str("<span class=\"bao-ply\">");
                    if !number.is_empty() {
                        let _ = write!(self.list, "<span class=\"bao-num\">{number}</span> ");
                    }
                    let _ = write!(
                        self.list,
                        "<button type=\"button\" class=\"bao-mv\" id=\"bao-m{n}\" data-n=\"{n}\" aria-label=\"{} {}{}\">{}",
                        side_title(side),
                        escape_html(&text),
                        escape_html(&glyphs),
                        escape_html(&text)
                    );
                    if !glyphs.is_empty() {
                        let _ = write!(
                            self.list,
                            "<span class=\"bao-nag\">{}</span>",
                            escape_html(&glyphs)
                        );
                    }
                    self.list.push_str("</button></span> ");
                    own.push(n);
                    branch = Some(prev);
                    prev = n;
                    interrupted = false;
                }
            }
        }
        // Every frame of this line (not those of its variations) ends at its last move; the
        // main line's also holds the start, while a variation's branch frame belongs to the
        // line above.
        if depth == 0 {
            own.push(from);
        }
        for n in own {
            self.nodes[n].end = prev;
        }
        Ok(())
    }
}

/// The comments before a game as paragraphs of lines. A run of `;` comments on successive
/// lines is one paragraph, a line each (a `;` with nothing after it ends the paragraph); a
/// brace comment is a paragraph of its own whose line breaks stay, an empty line inside it
/// starting the next paragraph. Markup is left out, and a line of markup only with it.
fn intro_paragraphs(comments: &[Spanned<Comment>]) -> Vec<Vec<String>> {
    let mut paragraphs: Vec<Vec<String>> = Vec::new();
    let mut open = Vec::new();
    for c in comments {
        match c.value.kind {
            CommentKind::Line => {
                if c.value.text.trim().is_empty() {
                    paragraphs.extend((!open.is_empty()).then(|| std::mem::take(&mut open)));
                    continue;
                }
                let text = Markup::strip(c.value.text.trim());
                if !text.is_empty() {
                    open.push(text);
                }
            }
            CommentKind::Brace => {
                paragraphs.extend((!open.is_empty()).then(|| std::mem::take(&mut open)));
                for line in c.value.text.lines() {
                    if line.trim().is_empty() {
                        paragraphs.extend((!open.is_empty()).then(|| std::mem::take(&mut open)));
                        continue;
                    }
                    let text = Markup::strip(line.trim());
                    if !text.is_empty() {
                        open.push(text);
                    }
                }
                paragraphs.extend((!open.is_empty()).then(|| std::mem::take(&mut open)));
            }
        }
    }
    paragraphs.extend((!open.is_empty()).then_some(open));
    paragraphs
}

/// Escapes text for HTML content and attribute values: `&`, `<`, `>`, `"` and `'` as
/// entities (`'` as `&#39;`), every other character as it is.
#[must_use]
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(&mut out, s, Dialect::Html);
    out
}

fn page(game: &Game, b: &Builder<'_>) -> String {
    let tag = |name: &str| {
        game.tag(name)
            .map(|t| t.value.trim().to_owned())
            .filter(|t| !t.is_empty() && t != "?")
    };
    let names: BySide<String> = BySide::new(
        tag("South").unwrap_or_else(|| "South".to_owned()),
        tag("North").unwrap_or_else(|| "North".to_owned()),
    );
    let title = match tag("Event") {
        Some(e) => format!("{e}: {} – {}", names.south, names.north),
        None => format!("{} – {}", names.south, names.north),
    };
    let mut out =
        String::with_capacity(b.nodes.iter().map(|n| n.svg.len() + 300).sum::<usize>() + 8192);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    // Nothing may be loaded from anywhere: not even a favicon.
    out.push_str("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n");
    out.push_str("<link rel=\"icon\" href=\"data:,\">\n");
    let _ = writeln!(out, "<title>{}</title>", escape_html(&title));
    let graph = eval_graph(b);
    let graph_css = if graph.is_some() { EVAL_CSS } else { "" };
    let _ = writeln!(
        out,
        "<style>\n{}{CSS}{graph_css}</style>",
        theme_css(b.opts.theme)
    );
    out.push_str("</head>\n<body>\n<main class=\"bao-viewer\">\n");
    let _ = writeln!(out, "<h1>{}</h1>", escape_html(&title));

    // The game's tags.
    out.push_str("<dl class=\"bao-tags\">");
    for t in &game.tags {
        if let Some(value) = tag_words(&t.value.name.value, &t.value.value.value) {
            let _ = write!(
                out,
                "<div><dt>{}</dt><dd>{}</dd></div>",
                escape_html(&t.value.name.value),
                escape_html(&value)
            );
        }
    }
    out.push_str("</dl>\n");
    for lines in intro_paragraphs(&game.comments) {
        let lines: Vec<String> = lines.iter().map(|l| escape_html(l)).collect();
        let _ = writeln!(out, "<p class=\"bao-intro\">{}</p>", lines.join("<br>"));
    }

    out.push_str(
        "<div class=\"bao-layout\">\n<section class=\"bao-board\" aria-label=\"Board\">\n",
    );
    out.push_str("<div class=\"bao-frames\">\n");
    for (i, n) in b.nodes.iter().enumerate() {
        let _ = write!(
            out,
            "<div class=\"bao-frame\" id=\"bao-f{i}\" data-prev=\"{}\" data-next=\"{}\" data-end=\"{}\" data-depth=\"{}\" data-label=\"{}\"{}>",
            opt(n.prev),
            opt(n.next),
            n.end,
            n.depth,
            escape_html(&n.label),
            if i == 0 { "" } else { " hidden" }
        );
        out.push_str(&n.svg);
        for note in &n.notes {
            let _ = write!(out, "<p class=\"bao-note\">{}</p>", escape_html(note));
        }
        out.push_str("</div>\n");
    }
    out.push_str("</div>\n");
    if let Some(graph) = &graph {
        out.push_str(graph);
    }
    out.push_str("<nav class=\"bao-controls\" aria-label=\"Move navigation\">\n");
    // Icons drawn inline (no font has to hold the glyphs).
    for (go, label, key, icon) in [
        (
            "start",
            "Start position",
            "Home",
            "M3,2 H5 V14 H3 Z M14,2 V14 L6,8 Z",
        ),
        ("back", "Back one ply", "ArrowLeft", "M12,2 V14 L4,8 Z"),
        (
            "forward",
            "Forward one ply",
            "ArrowRight",
            "M4,2 V14 L12,8 Z",
        ),
        (
            "end",
            "End of the line",
            "End",
            "M2,2 V14 L10,8 Z M11,2 H13 V14 H11 Z",
        ),
    ] {
        let _ = writeln!(
            out,
            "<button type=\"button\" id=\"bao-{go}\" data-go=\"{go}\" aria-label=\"{label}\" title=\"{label} ({key})\" aria-keyshortcuts=\"{key}\"><svg class=\"bao-icon\" viewBox=\"0 0 16 16\" width=\"16\" height=\"16\" aria-hidden=\"true\" focusable=\"false\"><path d=\"{icon}\" fill=\"currentColor\"/></svg></button>"
        );
    }
    out.push_str("</nav>\n");
    let _ = writeln!(
        out,
        "<p id=\"bao-status\" role=\"status\" aria-live=\"polite\">{}</p>",
        escape_html(&b.nodes[0].label)
    );
    out.push_str("<noscript><p>The move list and buttons need JavaScript; the start position is shown.</p></noscript>\n");
    out.push_str("</section>\n");
    out.push_str("<section class=\"bao-moves\" aria-label=\"Moves\">\n<h2>Moves</h2>\n<p class=\"bao-list\">");
    out.push_str(&b.list);
    if let Some(r) = &game.result {
        let _ = write!(
            out,
            "<span class=\"bao-result\">{}</span>",
            escape_html(r.value.as_str())
        );
    }
    out.push_str("</p>\n<p class=\"bao-help\">Keys: ← → step, Home and End jump; click a move to go there.</p>\n");
    out.push_str("</section>\n</div>\n</main>\n");
    if graph.is_some() {
        let js = JS
            .replacen(JS_UPDATE, &format!("{JS_UPDATE}{EVAL_JS}"), 1)
            .replacen(
                JS_CLICKABLE,
                "document.querySelectorAll(\".bao-mv, .bao-eval-pt\")",
                1,
            );
        let _ = writeln!(out, "<script>\n{js}</script>");
    } else {
        let _ = writeln!(out, "<script>\n{JS}</script>");
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// An evaluation in words for the status line: `+1.25 (South better)`, `South wins within 5
/// plies`.
fn eval_words(e: Evaluation) -> String {
    match e {
        Evaluation::Seeds(0) => "0.00 (level)".to_owned(),
        Evaluation::Seeds(c) => {
            let better = if c > 0 { "South" } else { "North" };
            let sign = if c > 0 { "+" } else { "" };
            format!("{sign}{e} ({better} better)")
        }
        Evaluation::Forced { winner, plies } => {
            let s = if plies == 1 { "" } else { "s" };
            format!("{} wins within {plies} ply{s}", side_title(winner))
        }
    }
}

/// The graph's drawing box: width, height, the left margin for the scale, the margin above
/// and below.
const GRAPH: (i32, i32, i32, i32) = (600, 170, 40, 14);
/// Scores beyond this many hundredths of a seed either way are drawn at the edge (the scale
/// `bao analyse` compares moves on caps evaluations there too).
const GRAPH_CAP: i32 = 2000;

/// The evaluation graph of the main line, drawn under the board when any main-line position
/// has an evaluation: South's advantage up, scores capped at ±20 seeds, forced wins at the
/// top or bottom edge as triangles (the first of a run labelled `#n`); one column per main-line frame that goes there when
/// clicked; the script moves the current-ply mark.
fn eval_graph(b: &Builder<'_>) -> Option<String> {
    let main: Vec<(usize, Option<Evaluation>)> = b
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.depth == 0)
        .map(|(i, n)| (i, n.eval))
        .collect();
    if main.iter().all(|(_, e)| e.is_none()) {
        return None;
    }
    let (w, h, left, pad) = GRAPH;
    let steps = i32::try_from(main.len().max(2) - 1).unwrap_or(i32::MAX);
    let col = f64::from(w - left - 8) / f64::from(steps);
    let x = |k: usize| f64::from(left + 4) + col * f64::from(i32::try_from(k).unwrap_or(0));
    let mid = f64::from(h) / 2.0;
    let half = mid - f64::from(pad);
    let y =
        |e: Evaluation| mid - half * f64::from(e.south_clamped(GRAPH_CAP)) / f64::from(GRAPH_CAP);

    let mut out = String::new();
    let _ = write!(
        out,
        "<figure class=\"bao-eval\"><svg id=\"bao-eval\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-labelledby=\"bao-eval-title\"><title id=\"bao-eval-title\">Evaluation graph of the main line: South's advantage up, North's down; click a point to go to that ply</title>"
    );
    // The scale: South's half shaded, the level line dashed.
    let _ = write!(
        out,
        "<rect class=\"bao-eval-south\" x=\"{left}\" y=\"{pad}\" width=\"{}\" height=\"{half:.1}\"/><rect class=\"bao-eval-north\" x=\"{left}\" y=\"{mid:.1}\" width=\"{}\" height=\"{half:.1}\"/><line class=\"bao-eval-zero\" x1=\"{left}\" y1=\"{mid:.1}\" x2=\"{w}\" y2=\"{mid:.1}\"/>",
        w - left,
        w - left
    );
    let cap = GRAPH_CAP / 100;
    for (text, ty) in [
        (format!("+{cap}"), f64::from(pad) + 4.0),
        ("0".to_owned(), mid + 4.0),
        (format!("−{cap}"), f64::from(h - pad) + 4.0),
    ] {
        let _ = write!(
            out,
            "<text class=\"bao-eval-scale\" x=\"{}\" y=\"{ty:.1}\" text-anchor=\"end\">{text}</text>",
            left - 4
        );
    }
    // The curve through every evaluated position, broken where one has none.
    let mut runs: Vec<Vec<String>> = vec![Vec::new()];
    for (k, (_, e)) in main.iter().enumerate() {
        match e {
            Some(e) => {
                if let Some(run) = runs.last_mut() {
                    run.push(format!("{:.1},{:.1}", x(k), y(*e)));
                }
            }
            None => runs.push(Vec::new()),
        }
    }
    for run in runs.iter().filter(|r| r.len() > 1) {
        let _ = write!(
            out,
            "<polyline class=\"bao-eval-line\" points=\"{}\"/>",
            run.join(" ")
        );
    }
    // The current-ply mark, moved by the script.
    let _ = write!(
        out,
        "<line id=\"bao-eval-cur\" x1=\"{x0:.1}\" y1=\"{pad}\" x2=\"{x0:.1}\" y2=\"{}\"/>",
        h - pad,
        x0 = x(0)
    );
    // Points, and a column over each main-line frame to click.
    let mut forced_before = false;
    for (k, (n, e)) in main.iter().enumerate() {
        let node = &b.nodes[*n];
        let title = match e {
            Some(e) => format!("{}: {}", short_label(node), eval_words(*e)),
            None => format!("{}: no evaluation", short_label(node)),
        };
        let cx = x(k);
        let _ = write!(
            out,
            "<g class=\"bao-eval-pt\" data-n=\"{n}\" data-x=\"{cx:.1}\"><title>{}</title><rect x=\"{:.1}\" y=\"0\" width=\"{col:.1}\" height=\"{h}\" fill=\"transparent\"/>",
            escape_html(&title),
            cx - col / 2.0
        );
        match e {
            Some(e @ Evaluation::Seeds(_)) => {
                let _ = write!(
                    out,
                    "<circle class=\"bao-eval-dot\" cx=\"{cx:.1}\" cy=\"{:.1}\" r=\"3.5\"/>",
                    y(*e)
                );
            }
            Some(Evaluation::Forced { winner, plies }) => {
                // A triangle on the edge, pointing off the scale, and the distance.
                let (edge, dir, ty) = match winner {
                    Side::South => (f64::from(pad), -1.0, f64::from(pad) + 18.0),
                    Side::North => (f64::from(h - pad), 1.0, f64::from(h - pad) - 8.0),
                };
                let _ = write!(
                    out,
                    "<path class=\"bao-eval-forced\" d=\"M{:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} Z\"/>",
                    cx - 6.0,
                    edge - dir * 2.0,
                    cx + 6.0,
                    edge - dir * 2.0,
                    cx,
                    edge + dir * 7.0,
                );
                // Only the first of a run is labelled: the rest count down from it.
                if !forced_before {
                    let sign = if *winner == Side::South { "" } else { "-" };
                    let _ = write!(
                        out,
                        "<text class=\"bao-eval-mate\" x=\"{cx:.1}\" y=\"{ty:.1}\" text-anchor=\"middle\">#{sign}{plies}</text>"
                    );
                }
            }
            None => {}
        }
        forced_before = matches!(e, Some(Evaluation::Forced { .. }));
        out.push_str("</g>");
    }
    out.push_str("</svg></figure>\n");
    Some(out)
}

/// The first part of a frame's label: `Ply 5: 3. A4<` or `Start position`.
fn short_label(n: &Node) -> &str {
    n.label.split(" – ").next().unwrap_or(&n.label)
}

/// A tag's value as the header shows it: unknowns (`?`, `????.??.??`, empty) left out, a
/// date's unknown parts dropped (`2026.??.??` is `2026`), the `Position` string and the
/// `Termination` and `Rules` codes in words.
pub(crate) fn tag_words(name: &str, value: &str) -> Option<String> {
    let value = value.trim();
    if value.chars().all(|c| matches!(c, '?' | '.' | '-' | ' ')) {
        return None;
    }
    Some(match name {
        "Position" => "set up (the board shows it)".to_owned(),
        "Date" | "EventDate" => value
            .split('.')
            .take_while(|part| !part.contains('?'))
            .collect::<Vec<_>>()
            .join("."),
        "Termination" => value.replace('_', " "),
        "Rules" => value.replace('_', " ").replace(',', ", "),
        _ => value.to_owned(),
    })
}

fn opt(n: Option<usize>) -> String {
    n.map_or_else(String::new, |n| n.to_string())
}

fn theme_css(theme: Theme) -> &'static str {
    match theme {
        Theme::Light => ":root { --bg: #ffffff; --fg: #1a1a1a; --muted: #4d4d4d; --accent: #0072B2; --panel: #f3e3c8; }\n",
        Theme::Dark => ":root { --bg: #1b1b1f; --fg: #f0f0f0; --muted: #c0c0c0; --accent: #56B4E9; --panel: #2b231c; }\n",
        Theme::Print | Theme::Book => ":root { --bg: #ffffff; --fg: #000000; --muted: #000000; --accent: #000000; --panel: #ffffff; }\n",
    }
}

const CSS: &str = r#"body { margin: 0; background: var(--bg); color: var(--fg); font-family: "DejaVu Sans", Verdana, Arial, sans-serif; }
.bao-viewer { max-width: 1200px; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; }
h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
.bao-tags { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0 0 1rem; font-size: .9rem; }
.bao-tags div { display: flex; gap: .3rem; }
.bao-tags dt { color: var(--muted); }
.bao-tags dd { margin: 0; }
.bao-layout { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
.bao-board { flex: 0 1 652px; min-width: 0; }
.bao-frame svg { display: block; max-width: 100%; height: auto; }
.bao-note { margin: .5rem 0 0; font-style: italic; }
.bao-controls { display: flex; gap: .5rem; margin: .5rem 0; }
.bao-controls button { min-width: 3rem; padding: .4rem .6rem; background: var(--panel); color: var(--fg); border: 2px solid var(--muted); border-radius: 6px; cursor: pointer; }
.bao-icon { display: block; margin: 0 auto; }
.bao-controls button:disabled { opacity: .4; cursor: default; }
#bao-status { min-height: 2.6em; margin: .25rem 0; }
.bao-moves { flex: 1 1 300px; max-height: 80vh; overflow-y: auto; }
.bao-list { line-height: 1.9; margin: 0; }
.bao-ply { white-space: nowrap; }
.bao-num { color: var(--muted); }
.bao-mv { font: inherit; color: var(--fg); background: none; border: 1px solid transparent; border-radius: 4px; padding: 0 .2rem; cursor: pointer; }
.bao-mv:hover { border-color: var(--muted); }
.bao-mv[aria-current] { background: var(--accent); color: var(--bg); font-weight: bold; }
.bao-nag { font-weight: bold; }
.bao-comment { color: var(--muted); font-style: italic; }
.bao-variation { color: var(--muted); }
.bao-variation .bao-variation { font-size: .95em; }
.bao-result { font-weight: bold; }
.bao-help { color: var(--muted); font-size: .85rem; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
"#;

/// The graph's styles, only in a page with a graph.
const EVAL_CSS: &str = r#".bao-eval { margin: .5rem 0 0; }
.bao-eval svg { display: block; width: 100%; height: auto; font-size: 15px; }
.bao-eval-south { fill: var(--panel); }
.bao-eval-north { fill: var(--bg); stroke: var(--panel); }
.bao-eval-zero { stroke: var(--muted); stroke-dasharray: 4 3; }
.bao-eval-scale, .bao-eval-mate { fill: var(--muted); }
.bao-eval-line { fill: none; stroke: var(--accent); stroke-width: 2.5; }
.bao-eval-dot, .bao-eval-forced { fill: var(--fg); }
.bao-eval-pt { cursor: pointer; }
.bao-eval-pt:hover rect { fill: var(--panel); fill-opacity: .6; }
#bao-eval-cur { stroke: var(--accent); stroke-width: 3; }
"#;

/// Where the script updates the page for the frame shown; with a graph, [`EVAL_JS`] goes
/// after it.
const JS_UPDATE: &str = "    document.body.setAttribute(\"data-frame\", String(cur));\n";

/// The graph's part of the script: the current-ply mark follows the frame shown.
const EVAL_JS: &str = r#"    var mark = document.getElementById("bao-eval-cur");
    if (mark !== null) {
      // A variation's frame marks the main-line position it branched from.
      var m = cur;
      while (m > 0 && frames[m].getAttribute("data-depth") !== "0") { m = link(m, "prev"); }
      var pt = document.querySelector('.bao-eval-pt[data-n="' + m + '"]');
      if (pt !== null) {
        var x = pt.getAttribute("data-x");
        mark.setAttribute("x1", x);
        mark.setAttribute("x2", x);
      }
    }
"#;

/// The move buttons the script makes clickable; with a graph, its points too.
const JS_CLICKABLE: &str = "document.querySelectorAll(\".bao-mv\")";

const JS: &str = r#"(function () {
  "use strict";
  var frames = document.querySelectorAll(".bao-frame");
  var status = document.getElementById("bao-status");
  var cur = 0;
  function link(n, key) {
    var v = frames[n].getAttribute("data-" + key);
    return v === null || v === "" ? -1 : parseInt(v, 10);
  }
  function move(n) { return document.getElementById("bao-m" + n); }
  function show(n) {
    if (n < 0 || n >= frames.length || n === cur) { return; }
    var old = move(cur);
    var focused = old !== null && document.activeElement === old;
    frames[cur].hidden = true;
    if (old !== null) { old.removeAttribute("aria-current"); }
    cur = n;
    frames[cur].hidden = false;
    var now = move(cur);
    if (now !== null) {
      now.setAttribute("aria-current", "step");
      now.scrollIntoView({ block: "nearest" });
      if (focused) { now.focus(); }
    }
    status.textContent = frames[cur].getAttribute("data-label");
    update();
  }
  function update() {
    document.getElementById("bao-start").disabled = cur === 0;
    document.getElementById("bao-back").disabled = link(cur, "prev") < 0;
    document.getElementById("bao-forward").disabled = link(cur, "next") < 0;
    document.getElementById("bao-end").disabled = link(cur, "end") === cur;
    document.body.setAttribute("data-frame", String(cur));
  }
  var go = {
    start: function () { show(0); },
    back: function () { show(link(cur, "prev")); },
    forward: function () { show(link(cur, "next")); },
    end: function () { show(link(cur, "end")); }
  };
  var keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "start", End: "end" };
  document.querySelectorAll("[data-go]").forEach(function (b) {
    b.addEventListener("click", function () { go[b.getAttribute("data-go")](); });
  });
  document.querySelectorAll(".bao-mv").forEach(function (b) {
    b.addEventListener("click", function () { show(parseInt(b.getAttribute("data-n"), 10)); });
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var k = keys[e.key];
    if (k !== undefined) { e.preventDefault(); go[k](); }
  });
  update();
})();
"#;
