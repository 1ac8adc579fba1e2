//! SVG board diagrams.
//!
//! Everything is laid out on a fixed integer grid (a pit every 64 units); the `width` option
//! only scales the picture through the root element's `width`/`height`. No coordinate is ever
//! a float, so the same input gives byte-identical output on every machine.

use std::collections::BTreeMap;

use bao_core::{BySide, HouseState, Pit, Position, Side};
use bao_notation::{MarkColour, Markup};
use textwrap::core::Word;
use textwrap::wrap_algorithms::wrap_first_fit;

use crate::layout::{
    describe_outcome, game_name, number_at, pit_at, rows_top_to_bottom, side_title, stage_word,
    status_line, viewer,
};
use crate::overlay::Overlay;
use crate::text::{text_diagram, TextOptions};
use crate::writer::{Elem, XmlWriter};

mod book;
mod grid;

use grid::{
    centre, cx, cy, Palette, FRAME_BOTTOM, FRAME_H, FRAME_W, FRAME_X, FRAME_Y, MID_Y, R, STORE_W,
    STORE_X, WIDTH,
};

/// Colours of a diagram. Every mark also differs in shape, pattern or text, never in colour
/// alone; the accent colours are the Okabe–Ito palette, safe for colour-blind readers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    /// Wood on white.
    #[default]
    Light,
    /// Light marks on a dark background.
    Dark,
    /// Black on white, for printing: marks differ by shape, dash and text only.
    Print,
    /// A book plate: black on white, square houses marked when dormant or destroyed, laps
    /// drawn along the sowing ring, every label in a slot clear of the pits and of each
    /// other.
    Book,
}

/// How seeds are shown in a pit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeedStyle {
    /// A numeral; empty pits stay blank.
    Numerals,
    /// A dot per seed while a pit holds at most `max` seeds (at most 10), else a numeral.
    Dots {
        /// The most seeds drawn as dots.
        max: u8,
    },
}

/// Options of [`board_svg`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SvgOptions {
    /// Draw North's rows at the bottom (the board as North sees it).
    pub flip: bool,
    /// Row letters at the left and pit numbers above and below the board.
    pub coordinates: bool,
    /// The width of the picture in pixels (the height follows); the drawing itself is always
    /// on the same grid, so this only scales it.
    pub width: u32,
    /// Colours.
    pub theme: Theme,
    /// Numerals or dots.
    pub seeds: SeedStyle,
    /// Player names, shown beside "South" and "North".
    pub names: BySide<Option<String>>,
    /// A caption under the board; without one, an overlay's summary is used (when
    /// `last_move` is on). Long captions wrap; an empty one draws none.
    pub caption: Option<String>,
    /// Draw the overlay's marks of the last move (start, direction, lap ends, captures) and
    /// its summary as the caption; off, the board shows the position only.
    pub last_move: bool,
    /// Coloured pits and arrows to draw (from comments' `[%csl ...]`/`[%cal ...]`).
    pub markup: Markup,
    /// How the game ended when its position does not say it (a resignation, a result
    /// agreed): shown as the outcome, and nobody is "to move". See
    /// [`result_words`](crate::result_words).
    pub ending: Option<String>,
    /// With an overlay that knows the position before: `+n`/`-n` on every pit that changed.
    pub show_changes: bool,
    /// Line breaks and indentation.
    pub pretty: bool,
    /// Prefix of every `id`, so that several diagrams can share one HTML page.
    pub id_prefix: String,
    /// Seed counts drawn larger (30 instead of 22 units, still inside their pits), for a
    /// picture read from across a room (the club server's projector).
    pub large_numbers: bool,
}

impl Default for SvgOptions {
    fn default() -> Self {
        Self {
            flip: false,
            coordinates: true,
            width: WIDTH as u32,
            theme: Theme::Light,
            seeds: SeedStyle::Numerals,
            names: BySide::new(None, None),
            caption: None,
            last_move: true,
            markup: Markup::default(),
            ending: None,
            show_changes: false,
            pretty: true,
            id_prefix: "bao-".to_owned(),
            large_numbers: false,
        }
    }
}

const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

impl Theme {
    fn palette(self) -> Palette {
        match self {
            Self::Light => Palette {
                background: "#ffffff",
                board: "#d9b382",
                line: "#6b4423",
                pit: "#f3e3c8",
                text: "#1a1a1a",
                muted: "#4d4d4d",
                seed: "#3b2a1a",
                start: "#0072B2",
                lap: "#E69F00",
                capture: "#D55E00",
                takasia: "#CC79A7",
                plus: "#009E73",
                minus: "#D55E00",
            },
            Self::Dark => Palette {
                background: "#1b1b1f",
                board: "#4a3a2a",
                line: "#c8a27a",
                pit: "#2b231c",
                text: "#f0f0f0",
                muted: "#c0c0c0",
                seed: "#f0e0c0",
                start: "#56B4E9",
                lap: "#E69F00",
                capture: "#D55E00",
                takasia: "#CC79A7",
                plus: "#009E73",
                minus: "#D55E00",
            },
            Self::Book => Palette {
                background: "#ffffff",
                board: "#ffffff",
                line: "#000000",
                pit: "#ffffff",
                text: "#000000",
                muted: "#333333",
                seed: "#000000",
                start: "#000000",
                lap: "#404040",
                capture: "#000000",
                takasia: "#000000",
                plus: "#000000",
                minus: "#000000",
            },
            Self::Print => Palette {
                background: "#ffffff",
                board: "#ffffff",
                line: "#000000",
                pit: "#ffffff",
                text: "#000000",
                muted: "#000000",
                seed: "#000000",
                start: "#000000",
                lap: "#000000",
                capture: "#000000",
                takasia: "#000000",
                plus: "#000000",
                minus: "#000000",
            },
        }
    }
}

/// Seed-dot offsets for 1..=10 seeds, in units of 2 (so the pattern stays on the grid).
const DOTS: [&[(i8, i8)]; 10] = [
    &[(0, 0)],
    &[(-3, 0), (3, 0)],
    &[(0, -3), (-3, 2), (3, 2)],
    &[(-3, -3), (3, -3), (-3, 3), (3, 3)],
    &[(-3, -3), (3, -3), (0, 0), (-3, 3), (3, 3)],
    &[(-6, -3), (0, -3), (6, -3), (-6, 3), (0, 3), (6, 3)],
    &[(-6, 0), (6, 0), (0, 0), (-3, -5), (3, -5), (-3, 5), (3, 5)],
    &[
        (-6, -6),
        (0, -6),
        (6, -6),
        (-3, 0),
        (3, 0),
        (-6, 6),
        (0, 6),
        (6, 6),
    ],
    &[
        (-6, -6),
        (0, -6),
        (6, -6),
        (-6, 0),
        (0, 0),
        (6, 0),
        (-6, 6),
        (0, 6),
        (6, 6),
    ],
    &[
        (-6, -6),
        (0, -6),
        (6, -6),
        (-9, 0),
        (-3, 0),
        (3, 0),
        (9, 0),
        (-6, 6),
        (0, 6),
        (6, 6),
    ],
];

/// Draws a position as an SVG 1.1 document, with the marks of `overlay` on top.
///
/// Draw a ply's overlay on the position the ply reached. The output is deterministic: the
/// same arguments give the same bytes. The root has a `<title>` and a `<desc>` (the text
/// diagram of [`board_text`](crate::board_text)) for screen readers; pits have stable ids
/// (`bao-A5`, `bao-b8`, with [`SvgOptions::id_prefix`]).
///
/// ```
/// use bao_core::{Position, RuleSet};
/// use bao_export::{board_svg, Overlay, SvgOptions};
///
/// let start = Position::start(RuleSet::KISWAHILI);
/// let svg = board_svg(&start, &SvgOptions::default(), None);
/// assert!(svg.contains("id=\"bao-A5\""));
///
/// let mv = start.legal_moves()[0];
/// let (next, trace) = start.play(&mv).unwrap();
/// let overlay = Overlay::from_trace(&start, &trace);
/// let svg = board_svg(&next, &SvgOptions::default(), Some(&overlay));
/// assert!(svg.contains("South A6&lt;*"));
/// ```
#[must_use]
pub fn board_svg(pos: &Position, opts: &SvgOptions, overlay: Option<&Overlay>) -> String {
    let pal = opts.theme.palette();
    let p = opts.id_prefix.as_str();
    let ended = pos.outcome();
    let outcome = ended
        .map(|o| describe_outcome(o, false))
        .or_else(|| opts.ending.clone());
    let short_outcome = ended
        .map(|o| describe_outcome(o, true))
        .or_else(|| opts.ending.clone());
    let caption = caption_text(opts, overlay, pos);
    let geo = Geometry::new(opts.coordinates, &caption, short_outcome.is_some());
    let width = opts.width.max(1);
    let height = (u64::from(width) * geo.h as u64 + geo.w as u64 / 2) / geo.w as u64;

    let mut w = XmlWriter::new(opts.pretty);
    w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let mut svg = w.elem("svg");
    svg.attr("xmlns", "http://www.w3.org/2000/svg")
        .attr("version", "1.1")
        .attr("width", width)
        .attr("height", height)
        .attr(
            "viewBox",
            format_args!("{} {} {} {}", geo.x, geo.y, geo.w, geo.h),
        )
        .attr("font-family", FONT);
    svg.elem("title")
        .text(&title_text(pos, overlay, short_outcome.as_deref()));
    svg.elem("desc")
        .text(&desc_text(pos, opts, overlay, outcome.as_deref()));
    defs(&mut svg, p, &pal, opts);
    svg.elem("rect")
        .num("x", geo.x)
        .num("y", geo.y)
        .num("width", geo.w)
        .num("height", geo.h)
        .attr("fill", pal.background);

    {
        let mut g = svg.elem("g");
        g.attr("id", format_args!("{p}board"));
        frame(&mut g, &pal);
        for row in 0..4 {
            for col in 0..8u8 {
                if let Some(pit) = pit_at(row, col, opts.flip) {
                    draw_pit(&mut g, pos, pit, opts, &pal);
                }
            }
        }
    }
    side_panels(&mut svg, pos, opts, &pal, outcome.is_some(), &geo, overlay);
    if opts.coordinates {
        coordinates(&mut svg, opts.flip, &pal);
    }
    let overlay = overlay.filter(|_| opts.last_move);
    // The book theme's labels each take a slot of their own.
    let mut slots = book::Slots::default();
    if let Some(ov) = overlay {
        draw_overlay(&mut svg, pos, ov, opts, &pal, &mut slots);
    }
    // The takasia'd pits: the position's, and the one the overlay's move created.
    let mut blocked: Vec<Pit> = Side::ALL
        .into_iter()
        .filter_map(|s| pos.blocked_pit(s))
        .collect();
    if let Some(t) = overlay.and_then(|o| o.takasia) {
        if !blocked.contains(&t) {
            blocked.push(t);
        }
    }
    takasia_marks(&mut svg, pos, &blocked, opts, &pal, &mut slots);
    if let (Some(ov), Theme::Book) = (overlay, opts.theme) {
        book_changes(&mut svg, pos, ov, opts, &pal, &mut slots);
    }
    // The author's marks over the move's.
    draw_pit_marks(&mut svg, opts);
    draw_arrows(&mut svg, opts);
    if !caption.is_empty() {
        let mut t = svg.elem("text");
        t.attr("id", format_args!("{p}caption"))
            .num("x", geo.x + geo.w / 2)
            .num("y", geo.caption_y)
            .attr("text-anchor", "middle")
            .num("font-size", 15)
            .attr("fill", pal.text);
        for (i, line) in caption.iter().enumerate() {
            let mut span = t.elem("tspan");
            span.num("x", geo.x + geo.w / 2);
            if i > 0 {
                span.num("dy", CAPTION_LINE);
            }
            span.text(line);
        }
    }
    if let Some(o) = &short_outcome {
        svg.elem("text")
            .attr("id", format_args!("{p}outcome"))
            .num("x", geo.x + geo.w / 2)
            .num("y", geo.outcome_y)
            .attr("text-anchor", "middle")
            .num("font-size", 16)
            .attr("font-weight", "bold")
            .attr("fill", pal.text)
            .text(o);
    }
    drop(svg);
    w.finish()
}

/// The height of a caption line.
const CAPTION_LINE: i32 = 20;
/// The most characters of a caption line (a line of 15-unit text fits the board's width).
const CAPTION_CHARS: usize = 68;

/// Where the picture's parts go: the view box (without coordinates the margins they need
/// are left out) and the lines of text under the board, each only when there is something
/// to say.
struct Geometry {
    x: i32,
    y: i32,
    w: i32,
    h: i32,
    /// The far side's name and status lines.
    top: (i32, i32),
    /// The near side's name and status lines.
    bottom: (i32, i32),
    caption_y: i32,
    outcome_y: i32,
}

impl Geometry {
    fn new(coordinates: bool, caption: &[String], outcome: bool) -> Self {
        // The room the pit numbers take above and below the board, and the row letters left.
        let (x, shift) = if coordinates {
            (0, 0)
        } else {
            (FRAME_X - 12, 16)
        };
        let top = (28 + shift, 50 + shift);
        let bottom = (FRAME_BOTTOM + 48 - shift, FRAME_BOTTOM + 70 - shift);
        let mut y = bottom.1;
        let mut caption_y = y;
        if !caption.is_empty() {
            caption_y = y + 34;
            y = caption_y + CAPTION_LINE * (caption.len() as i32 - 1);
        }
        let mut outcome_y = y;
        if outcome {
            outcome_y = y + if caption.is_empty() { 34 } else { 26 };
            y = outcome_y;
        }
        Self {
            x,
            y: shift,
            w: WIDTH - x,
            h: y + 16 - shift,
            top,
            bottom,
            caption_y,
            outcome_y,
        }
    }
}

/// Breaks a caption into lines of at most [`CAPTION_CHARS`] columns at spaces (a longer
/// word gets a line of its own); nothing is ever left out. textwrap's first fit lays out
/// the units; a pit and its count (`A4 (2)`) are one unit.
fn wrap(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for para in text.lines() {
        // `A4 (2)` is one unit: a pit and its count stay on one line. Each unit is
        // followed by the space that separates it from the next.
        let mut units: Vec<String> = Vec::new();
        for word in para.split(' ').filter(|w| !w.is_empty()) {
            match units.last_mut() {
                Some(last) if word.starts_with('(') => {
                    last.push_str(word);
                    last.push(' ');
                }
                _ => units.push(format!("{word} ")),
            }
        }
        if units.is_empty() {
            continue;
        }
        let words: Vec<Word<'_>> = units.iter().map(|u| Word::from(u)).collect();
        #[allow(clippy::cast_precision_loss)] // a small constant
        let width = CAPTION_CHARS as f64;
        for line in wrap_first_fit(&words, &[width]) {
            let text: Vec<&str> = line.iter().map(|w| w.word).collect();
            lines.push(text.join(" "));
        }
    }
    lines
}

fn caption_text(opts: &SvgOptions, overlay: Option<&Overlay>, pos: &Position) -> Vec<String> {
    match (&opts.caption, overlay) {
        (Some(c), _) => wrap(c),
        (None, Some(ov)) if opts.last_move => wrap(&ov.summary(pos.rules())),
        (None, _) => Vec::new(),
    }
}

fn title_text(pos: &Position, overlay: Option<&Overlay>, outcome: Option<&str>) -> String {
    let mut s = match outcome {
        Some(o) => format!("{}: {o}", game_name(pos.rules())),
        None => format!(
            "{}: {} to move ({})",
            game_name(pos.rules()),
            side_title(pos.to_move()),
            stage_word(pos, pos.to_move())
        ),
    };
    if let Some(mv) = overlay.and_then(Overlay::move_text) {
        let mover = overlay.map_or(pos.to_move(), |o| o.mover);
        s = format!("{s}, after {} {mv}", side_title(mover));
    }
    s
}

fn desc_text(
    pos: &Position,
    opts: &SvgOptions,
    overlay: Option<&Overlay>,
    outcome: Option<&str>,
) -> String {
    let topts = TextOptions {
        flip: opts.flip,
        coordinates: true,
        names: opts.names.clone(),
        // The diagram marks the move itself; its text twin stays as it was.
        last_move: None,
        colour: false,
    };
    let mut s = text_diagram(pos, &topts, outcome);
    if let Some(ov) = overlay {
        s.push('\n');
        s.push_str(&ov.summary(pos.rules()));
        s.push('\n');
    }
    s
}

fn defs(svg: &mut Elem<'_>, p: &str, pal: &Palette, opts: &SvgOptions) {
    let mut defs = svg.elem("defs");
    // An arrowhead for each colour of the markup's arrows.
    let mut colours: Vec<MarkColour> = opts.markup.arrows.iter().map(|a| a.colour).collect();
    colours.sort();
    colours.dedup();
    for c in colours {
        let mut m = defs.elem("marker");
        m.attr("id", format_args!("{p}mark-{}", c.name()))
            .attr("viewBox", "0 0 10 10")
            .num("refX", 5)
            .num("refY", 5)
            .num("markerWidth", 3)
            .num("markerHeight", 3)
            .attr("orient", "auto");
        m.elem("path")
            .attr("d", "M0,0 L10,5 L0,10 z")
            .attr("fill", mark_colour(opts.theme, c));
    }
    for (name, colour) in [
        ("arrow-start", pal.start),
        ("arrow-capture", pal.capture),
        ("arrow-lap", pal.lap),
    ] {
        if name == "arrow-lap" && opts.theme != Theme::Book {
            continue;
        }
        let mut m = defs.elem("marker");
        m.attr("id", format_args!("{p}{name}"))
            .attr("viewBox", "0 0 10 10")
            .num("refX", 8)
            .num("refY", 5)
            .num("markerWidth", 4)
            .num("markerHeight", 4)
            .attr("orient", "auto");
        m.elem("path")
            .attr("d", "M0,0 L10,5 L0,10 z")
            .attr("fill", colour);
    }
    let mut pat = defs.elem("pattern");
    pat.attr("id", format_args!("{p}hatch"))
        .attr("patternUnits", "userSpaceOnUse")
        .num("width", 8)
        .num("height", 8);
    pat.elem("path")
        .attr("d", "M0,8 L8,0 M-2,2 L2,-2 M6,10 L10,6")
        .attr("stroke", pal.capture)
        .num("stroke-width", 2);
}

fn frame(g: &mut Elem<'_>, pal: &Palette) {
    g.elem("rect")
        .num("x", FRAME_X)
        .num("y", FRAME_Y)
        .num("width", FRAME_W)
        .num("height", FRAME_H)
        .num("rx", 10)
        .attr("fill", pal.board)
        .attr("stroke", pal.line)
        .num("stroke-width", 3);
    g.elem("line")
        .num("x1", FRAME_X)
        .num("y1", MID_Y)
        .num("x2", FRAME_X + FRAME_W)
        .num("y2", MID_Y)
        .attr("stroke", pal.line)
        .num("stroke-width", 2);
}

fn draw_pit(g: &mut Elem<'_>, pos: &Position, pit: Pit, opts: &SvgOptions, pal: &Palette) {
    let (x, y) = centre(pit, opts.flip);
    let mut pg = g.elem("g");
    pg.attr("id", format_args!("{}{pit}", opts.id_prefix));
    let house = if pit == Pit::nyumba(pit.side()) {
        pos.house_state(pit.side())
    } else {
        HouseState::None
    };
    let book = opts.theme == Theme::Book;
    match house {
        HouseState::Functional | HouseState::Dormant | HouseState::Destroyed if book => {
            book::house(&mut pg, x, y, house, pal);
        }
        HouseState::Functional | HouseState::Dormant => {
            let mut r = pg.elem("rect");
            r.num("x", x - R)
                .num("y", y - R)
                .num("width", 2 * R)
                .num("height", 2 * R)
                .num("rx", 6)
                .attr("fill", pal.pit)
                .attr("stroke", pal.line);
            if house == HouseState::Functional {
                r.num("stroke-width", 4);
            } else {
                r.num("stroke-width", 2).attr("stroke-dasharray", "6 4");
            }
            drop(r);
            let label = if house == HouseState::Functional {
                pos.rules().names().nyumba
            } else {
                "dormant"
            };
            // In the gap between the two front rows, clear of the pit's seeds and badges.
            let label_y = if y < MID_Y { y + R + 12 } else { y - R - 6 };
            pg.elem("text")
                .num("x", x)
                .num("y", label_y)
                .attr("text-anchor", "middle")
                .num("font-size", 9)
                .attr("fill", pal.muted)
                .text(label);
        }
        _ => {
            pg.elem("circle")
                .num("cx", x)
                .num("cy", y)
                .num("r", R)
                .attr("fill", pal.pit)
                .attr("stroke", pal.line)
                .num("stroke-width", 2);
        }
    }
    let n = pos.get(pit);
    let dots = match opts.seeds {
        SeedStyle::Dots { max } => n <= max.min(10),
        SeedStyle::Numerals => false,
    };
    if dots {
        if let Some(pattern) = DOTS.get(usize::from(n).wrapping_sub(1)) {
            for &(dx, dy) in *pattern {
                pg.elem("circle")
                    .num("cx", x + 2 * i32::from(dx))
                    .num("cy", y + 2 * i32::from(dy))
                    .num("r", 4)
                    .attr("fill", pal.seed);
            }
        }
    } else if n > 0 {
        let (size, baseline) = if opts.large_numbers {
            (30, 11)
        } else {
            (22, 8)
        };
        pg.elem("text")
            .num("x", x)
            .num("y", y + baseline)
            .attr("text-anchor", "middle")
            .num("font-size", size)
            .attr("fill", pal.seed)
            .text(&n.to_string());
    }
}

fn side_panels(
    svg: &mut Elem<'_>,
    pos: &Position,
    opts: &SvgOptions,
    pal: &Palette,
    game_over: bool,
    geo: &Geometry,
    overlay: Option<&Overlay>,
) {
    let near = viewer(opts.flip);
    // The mover of a mtaji move that ended the game still holds the seeds it was sowing.
    let in_hand = overlay
        .filter(|o| o.stage == Some(bao_core::Stage::Mtaji))
        .map(|o| o.mover);
    for side in [near.opponent(), near] {
        let top = side != near;
        let p = &opts.id_prefix;
        let mut g = svg.elem("g");
        g.attr("id", format_args!("{p}{}", side.name()));
        // The hand (reserve), beside the side's two rows.
        let (y0, y1) = store_span(top);
        g.elem("rect")
            .attr("id", format_args!("{p}hand-{}", side.name()))
            .num("x", STORE_X)
            .num("y", y0)
            .num("width", STORE_W)
            .num("height", y1 - y0)
            .num("rx", 10)
            .attr("fill", pal.pit)
            .attr("stroke", pal.line)
            .num("stroke-width", 2);
        g.elem("text")
            .num("x", STORE_X + STORE_W / 2)
            .num("y", y0 + 20)
            .attr("text-anchor", "middle")
            .num("font-size", 12)
            .attr("fill", pal.muted)
            .text("hand");
        g.elem("text")
            .num("x", STORE_X + STORE_W / 2)
            .num("y", (y0 + y1) / 2 + 10)
            .attr("text-anchor", "middle")
            .num("font-size", 28)
            .attr("fill", pal.seed)
            .text(&pos.hand(side).to_string());

        // Name line and status line.
        let (y_name, y_info) = if top { geo.top } else { geo.bottom };
        let to_move = pos.to_move() == side && !game_over;
        if to_move {
            let x = FRAME_X;
            g.elem("path")
                .attr("id", format_args!("{p}to-move"))
                .attr(
                    "d",
                    format_args!(
                        "M{},{} L{},{} L{},{} z",
                        x,
                        y_name - 13,
                        x + 12,
                        y_name - 7,
                        x,
                        y_name - 1
                    ),
                )
                .attr("fill", pal.text);
        }
        let mut name = side_title(side).to_owned();
        if let Some(n) = opts.names.get(side) {
            name.push_str(": ");
            name.push_str(n);
        }
        if to_move {
            name.push_str(" (to move)");
        }
        g.elem("text")
            .num("x", FRAME_X + 18)
            .num("y", y_name)
            .num("font-size", 17)
            .attr("font-weight", "bold")
            .attr("fill", pal.text)
            .text(&name);
        g.elem("text")
            .num("x", FRAME_X + 18)
            .num("y", y_info)
            .num("font-size", 13)
            .attr("fill", pal.muted)
            .text(&status_line(
                pos,
                side,
                " · ",
                game_over,
                in_hand == Some(side),
            ));
    }
}

/// The top and bottom of the hand's box, beside the top or the bottom two rows.
fn store_span(top: bool) -> (i32, i32) {
    if top {
        (cy(0) - R - 4, cy(1) + R + 4)
    } else {
        (cy(2) - R - 4, cy(3) + R + 4)
    }
}

fn coordinates(svg: &mut Elem<'_>, flip: bool, pal: &Palette) {
    let mut g = svg.elem("g");
    g.attr("fill", pal.muted).num("font-size", 13);
    for (row, (side, r)) in rows_top_to_bottom(flip).into_iter().enumerate() {
        let letter = Pit::new(side, r, 1).map_or(' ', Pit::row_letter);
        g.elem("text")
            .num("x", FRAME_X / 2)
            .num("y", cy(row) + 5)
            .attr("text-anchor", "middle")
            .attr("font-weight", "bold")
            .text(&letter.to_string());
    }
    let far = viewer(flip).opponent();
    for col in 0..8u8 {
        for (side, y) in [(far, FRAME_Y - 8), (viewer(flip), FRAME_Y + FRAME_H + 18)] {
            g.elem("text")
                .num("x", cx(col))
                .num("y", y)
                .attr("text-anchor", "middle")
                .text(&number_at(side, col, flip).to_string());
        }
    }
}

fn draw_overlay(
    svg: &mut Elem<'_>,
    pos: &Position,
    ov: &Overlay,
    opts: &SvgOptions,
    pal: &Palette,
    slots: &mut book::Slots,
) {
    let is_book = opts.theme == Theme::Book;
    let p = opts.id_prefix.as_str();
    let flip = opts.flip;
    let mut g = svg.elem("g");
    g.attr("id", format_args!("{p}overlay"));

    // Captured pits: hatched, dashed outline, "×n"; the seeds' path to the kichwa.
    let mut taken: BTreeMap<Pit, u32> = BTreeMap::new();
    let mut paths: Vec<(Pit, Pit)> = Vec::new();
    for c in &ov.captures {
        *taken.entry(c.pit).or_default() += u32::from(c.seeds);
        if !paths.contains(&(c.pit, c.kichwa)) {
            paths.push((c.pit, c.kichwa));
        }
    }
    for (i, (from, kichwa)) in paths.iter().enumerate() {
        let (x0, y0) = centre(*from, flip);
        let (x1, y1) = centre(*kichwa, flip);
        let lane = MID_Y - 3 + 3 * (i as i32 % 3);
        let edge = |y: i32| if y < MID_Y { y + R } else { y - R };
        g.elem("polyline")
            .attr("id", format_args!("{p}path-{from}-{kichwa}"))
            .attr(
                "points",
                format_args!(
                    "{x0},{} {x0},{lane} {x1},{lane} {x1},{}",
                    edge(y0),
                    edge(y1)
                ),
            )
            .attr("fill", "none")
            .attr("stroke", pal.capture)
            .num("stroke-width", 3)
            .attr("stroke-dasharray", "6 3")
            .attr("marker-end", format_args!("url(#{p}arrow-capture)"));
    }
    for (pit, seeds) in &taken {
        let (x, y) = centre(*pit, flip);
        let mut cg = g.elem("g");
        cg.attr("id", format_args!("{p}capture-{pit}"));
        cg.elem("circle")
            .num("cx", x)
            .num("cy", y)
            .num("r", R)
            .attr("fill", format_args!("url(#{p}hatch)"))
            .attr("stroke", pal.capture)
            .num("stroke-width", 3)
            .attr("stroke-dasharray", "4 3");
        if is_book {
            slots.label(&mut cg, *pit, flip, &format!("×{seeds}"), pal.capture, pal);
            continue;
        }
        badge(
            &mut cg,
            x - 18,
            y + 24,
            &format!("×{seeds}"),
            pal.capture,
            pal,
        );
    }

    // The start pit: a thick ring; the first lap: an arrow to the next pit.
    if let Some(start) = ov.start {
        let (x, y) = centre(start, flip);
        g.elem("circle")
            .attr("id", format_args!("{p}start"))
            .num("cx", x)
            .num("cy", y)
            .num("r", if is_book { R + 2 } else { R + 4 })
            .attr("fill", "none")
            .attr("stroke", pal.start)
            .num("stroke-width", if is_book { 3 } else { 4 });
    }
    if is_book {
        // The laps along the ring, their ends numbered in slots; no straight arrow.
        book::lap_paths(&mut g, ov, flip, p, pal);
        book::lap_labels(&mut g, slots, ov, flip, pal);
        return;
    }
    if let Some((from, dir)) = ov.first_lap {
        let next = Pit::from_ring(from.side(), (from.ring() + dir.step()) % bao_core::RING);
        let (x0, y0) = centre(from, flip);
        let (x1, y1) = centre(next, flip);
        let (dx, dy) = ((x1 - x0).signum(), (y1 - y0).signum());
        g.elem("line")
            .attr("id", format_args!("{p}direction"))
            .num("x1", x0 + dx * 16)
            .num("y1", y0 + dy * 16)
            .num("x2", x1 - dx * 20)
            .num("y2", y1 - dy * 20)
            .attr("stroke", pal.start)
            .num("stroke-width", 5)
            .attr("marker-end", format_args!("url(#{p}arrow-start)"));
    }

    // Lap ends: a numbered badge per pit ("1,4,7…" when several laps end there).
    let mut ends: BTreeMap<Pit, Vec<u64>> = BTreeMap::new();
    for &(n, pit) in &ov.lap_ends {
        ends.entry(pit).or_default().push(n);
    }
    for (pit, laps) in &ends {
        let (x, y) = centre(*pit, flip);
        let text = lap_text(laps, if opts.show_changes { 3 } else { 5 });
        let mut lg = g.elem("g");
        lg.attr("id", format_args!("{p}lap-{pit}"));
        badge(&mut lg, x + 14, y - 24, &text, pal.lap, pal);
    }

    drop(g);

    // Changes against the position before.
    if let (true, Some(before)) = (opts.show_changes, &ov.before) {
        let mut dg = svg.elem("g");
        dg.attr("id", format_args!("{p}changes"))
            .num("font-size", 11)
            .attr("font-weight", "bold")
            .attr("text-anchor", "middle");
        for pit in Pit::all() {
            let d = i32::from(pos.get(pit)) - i32::from(before.get(pit));
            if d == 0 {
                continue;
            }
            let (x, y) = centre(pit, flip);
            let (text, colour) = if d > 0 {
                (format!("+{d}"), pal.plus)
            } else {
                (format!("−{}", -d), pal.minus)
            };
            dg.elem("text")
                .num("x", x - 18)
                .num("y", y - 19)
                .attr("fill", colour)
                .text(&text);
        }
        for side in Side::ALL {
            let d = i32::from(pos.hand(side)) - i32::from(*before.hands.get(side));
            if d == 0 {
                continue;
            }
            let (_, y1) = store_span(side != viewer(flip));
            let (text, colour) = if d > 0 {
                (format!("+{d}"), pal.plus)
            } else {
                (format!("−{}", -d), pal.minus)
            };
            dg.elem("text")
                .num("x", STORE_X + STORE_W / 2)
                .num("y", y1 - 12)
                .attr("fill", colour)
                .text(&text);
        }
    }
}

fn takasia_marks(
    svg: &mut Elem<'_>,
    pos: &Position,
    pits: &[Pit],
    opts: &SvgOptions,
    pal: &Palette,
    slots: &mut book::Slots,
) {
    let letter: String = pos
        .rules()
        .names()
        .takasia
        .chars()
        .take(1)
        .flat_map(char::to_uppercase)
        .collect();
    for pit in pits {
        let (x, y) = centre(*pit, opts.flip);
        let mut g = svg.elem("g");
        g.attr("id", format_args!("{}takasia-{pit}", opts.id_prefix));
        let is_book = opts.theme == Theme::Book;
        g.elem("circle")
            .num("cx", x)
            .num("cy", y)
            .num("r", if is_book { R + 2 } else { R + 4 })
            .attr("fill", "none")
            .attr("stroke", pal.takasia)
            .num("stroke-width", if is_book { 3 } else { 4 })
            .attr("stroke-dasharray", "2 4");
        if opts.theme == Theme::Book {
            slots.label(&mut g, *pit, opts.flip, &letter, pal.takasia, pal);
        } else {
            badge(&mut g, x + 18, y + 24, &letter, pal.takasia, pal);
        }
    }
}

/// The lap numbers of a badge in at most `room` characters (the first always shown, `…`
/// for those left out), so that a badge stays clear of its neighbours: "1,4,7", "12,…".
/// With the change marks shown, `room` is 3: the badge then never meets the mark of the
/// pit to its right.
fn lap_text(laps: &[u64], room: usize) -> String {
    let mut text = String::new();
    for (k, n) in laps.iter().enumerate() {
        let n = n.to_string();
        let sep = usize::from(!text.is_empty());
        let len = text.chars().count() + sep + n.len();
        let last = k + 1 == laps.len();
        // A number that is not the last needs room for ",…" after it.
        let fits = if last { len <= room } else { len + 2 <= room };
        if !text.is_empty() && !fits {
            text.push_str(",…");
            return text;
        }
        if sep == 1 {
            text.push(',');
        }
        text.push_str(&n);
        if !fits {
            text.push_str(",…");
            return text;
        }
    }
    text
}

/// A small pill with text, centred on (x, y), moved in as far as it takes to stay inside
/// the board's frame.
fn badge(g: &mut Elem<'_>, x: i32, y: i32, text: &str, colour: &str, pal: &Palette) {
    let w = 10 + 7 * text.chars().count() as i32;
    let x = x
        .min(FRAME_X + FRAME_W - 3 - w / 2 - w % 2)
        .max(FRAME_X + 3 + w / 2);
    g.elem("rect")
        .num("x", x - w / 2)
        .num("y", y - 8)
        .num("width", w)
        .num("height", 16)
        .num("rx", 8)
        .attr("fill", pal.background)
        .attr("stroke", colour)
        .num("stroke-width", 2);
    g.elem("text")
        .num("x", x)
        .num("y", y + 4)
        .attr("text-anchor", "middle")
        .num("font-size", 11)
        .attr("font-weight", "bold")
        .attr("fill", pal.text)
        .text(text);
}

/// The colour of a mark in a theme (print: black; marks also differ by dash).
fn mark_colour(theme: Theme, c: MarkColour) -> &'static str {
    match (theme, c) {
        (Theme::Print | Theme::Book, _) => "#000000",
        (Theme::Light, MarkColour::Green) => "#15781B",
        (Theme::Light, MarkColour::Red) => "#B3261E",
        (Theme::Light, MarkColour::Yellow) => "#C77C00",
        (Theme::Light, MarkColour::Blue) => "#1D4ED8",
        (Theme::Dark, MarkColour::Green) => "#5FD068",
        (Theme::Dark, MarkColour::Red) => "#FF6B5E",
        (Theme::Dark, MarkColour::Yellow) => "#FFC933",
        (Theme::Dark, MarkColour::Blue) => "#6EA8FF",
    }
}

/// The dash of a mark's colour, so that marks never differ by colour alone: green solid,
/// red dashed, yellow dotted, blue dash-dotted.
fn mark_dash(c: MarkColour) -> Option<&'static str> {
    match c {
        MarkColour::Green => None,
        MarkColour::Red => Some("9 5"),
        MarkColour::Yellow => Some("3 4"),
        MarkColour::Blue => Some("12 4 3 4"),
    }
}

/// [`mark_dash`] for the thick arrows.
fn arrow_dash(c: MarkColour) -> Option<&'static str> {
    match c {
        MarkColour::Green => None,
        MarkColour::Red => Some("14 9"),
        MarkColour::Yellow => Some("2 12"),
        MarkColour::Blue => Some("16 9 2 9"),
    }
}

/// The markup's coloured pits: a ring inside each pit (a pit marked twice keeps the last).
fn draw_pit_marks(svg: &mut Elem<'_>, opts: &SvgOptions) {
    if opts.markup.pits.is_empty() {
        return;
    }
    let mut g = svg.elem("g");
    g.attr("id", format_args!("{}markup-pits", opts.id_prefix))
        .attr("fill", "none")
        .num("stroke-width", 5);
    for m in &opts.markup.pits {
        let (x, y) = centre(m.pit, opts.flip);
        let mut c = g.elem("circle");
        c.attr("id", format_args!("{}mark-{}", opts.id_prefix, m.pit))
            .num("cx", x)
            .num("cy", y)
            .num("r", R - 3)
            .attr("stroke", mark_colour(opts.theme, m.colour));
        if let Some(d) = mark_dash(m.colour) {
            c.attr("stroke-dasharray", d);
        }
    }
}

/// The markup's arrows, from the edge of one pit to the edge of the other, over everything.
fn draw_arrows(svg: &mut Elem<'_>, opts: &SvgOptions) {
    if opts.markup.arrows.is_empty() {
        return;
    }
    let p = opts.id_prefix.as_str();
    let mut g = svg.elem("g");
    g.attr("id", format_args!("{p}markup-arrows"))
        .attr("stroke-linecap", "round")
        .attr("opacity", "0.85");
    for a in &opts.markup.arrows {
        if opts.theme == Theme::Book {
            book_arrow(&mut g, a, opts);
            continue;
        }
        let (x0, y0) = centre(a.from, opts.flip);
        let (x1, y1) = centre(a.to, opts.flip);
        let (dx, dy) = (x1 - x0, y1 - y0);
        let len = f64::from(dx * dx + dy * dy).sqrt();
        if len < 1.0 {
            continue;
        }
        // Shortened by whole units, so that the coordinates stay integers.
        let cut = |d: i32, by: f64| (f64::from(d) * by / len).round() as i32;
        let (sx, sy) = (x0 + cut(dx, 12.0), y0 + cut(dy, 12.0));
        let (ex, ey) = (x1 - cut(dx, 20.0), y1 - cut(dy, 20.0));
        let colour = mark_colour(opts.theme, a.colour);
        let mut l = g.elem("line");
        l.attr("id", format_args!("{p}arrow-{}-{}", a.from, a.to))
            .num("x1", sx)
            .num("y1", sy)
            .num("x2", ex)
            .num("y2", ey)
            .attr("stroke", colour)
            .num("stroke-width", 7)
            .attr(
                "marker-end",
                format_args!("url(#{p}mark-{})", a.colour.name()),
            );
        if let Some(d) = arrow_dash(a.colour) {
            l.attr("stroke-dasharray", d);
        }
    }
}

/// A markup arrow of the book theme: along the ring between two pits of one side (the
/// shorter way), straight between the sides; cut short of its last pit's centre.
fn book_arrow(g: &mut Elem<'_>, a: &bao_notation::ArrowMark, opts: &SvgOptions) {
    let p = opts.id_prefix.as_str();
    let mut points = book::arrow_points(a.from, a.to, opts.flip);
    // The head stops 20 units before the last pit's centre.
    if let [.., (x0, y0), (x1, y1)] = points[..] {
        let (dx, dy) = ((x1 - x0).signum(), (y1 - y0).signum());
        let n = points.len();
        if x0 == x1 || y0 == y1 {
            points[n - 1] = (x1 - dx * 20, y1 - dy * 20);
        }
    }
    let text: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
    let colour = mark_colour(opts.theme, a.colour);
    let mut l = g.elem("polyline");
    l.attr("id", format_args!("{p}arrow-{}-{}", a.from, a.to))
        .attr("points", text.join(" "))
        .attr("fill", "none")
        .attr("stroke", colour)
        .num("stroke-width", 5)
        .attr("stroke-linejoin", "round")
        .attr(
            "marker-end",
            format_args!("url(#{p}mark-{})", a.colour.name()),
        );
    if let Some(d) = arrow_dash(a.colour) {
        l.attr("stroke-dasharray", d);
    }
}

/// The book theme's `+n`/`-n` marks: each in a slot of its pit (the hands' in their box).
fn book_changes(
    svg: &mut Elem<'_>,
    pos: &Position,
    ov: &Overlay,
    opts: &SvgOptions,
    pal: &Palette,
    slots: &mut book::Slots,
) {
    let Some(before) = ov.before.as_ref().filter(|_| opts.show_changes) else {
        return;
    };
    let mut dg = svg.elem("g");
    dg.attr("id", format_args!("{}changes", opts.id_prefix));
    for pit in Pit::all() {
        let d = i32::from(pos.get(pit)) - i32::from(before.get(pit));
        if d != 0 {
            let text = if d > 0 {
                format!("+{d}")
            } else {
                format!("−{}", -d)
            };
            slots.label(&mut dg, pit, opts.flip, &text, pal.plus, pal);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{lap_text, wrap};

    #[test]
    fn lap_badges_fit_their_room() {
        let cases: [(&[u64], usize, &str); 8] = [
            (&[5, 6, 21], 5, "5,6,…"),
            (&[5, 6, 21], 3, "5,…"),
            (&[14, 22], 5, "14,22"),
            (&[14, 22], 3, "14,…"),
            (&[1, 4, 7], 5, "1,4,7"),
            (&[24], 3, "24"),
            (&[7, 12], 3, "7,…"),
            (&[547], 3, "547"),
        ];
        for (laps, room, want) in cases {
            assert_eq!(lap_text(laps, room), want, "{laps:?} in {room}");
        }
    }

    #[test]
    fn captions_wrap_without_losing_a_word() {
        let text = "North b4>#: 24 laps; captured A5 (2), A2 (3), A3 (4), A4 (1), A1 (1), A8 (2), A7 (2), A6 (2)";
        let lines = wrap(text);
        assert!(lines.len() > 1 && lines.iter().all(|l| l.chars().count() <= 68));
        assert_eq!(lines.join(" "), text);
        // A pit and its count stay together.
        assert!(lines.iter().all(|l| !l.starts_with('(')));
        assert!(wrap("").is_empty());
    }

    #[test]
    fn captions_fill_each_line_first_and_keep_long_words_whole() {
        let long = "x".repeat(80);
        assert_eq!(wrap(&format!("a {long} b")), ["a", long.as_str(), "b"]);
        // Greedy: each line takes what fits, in order (a balanced layout would differ).
        let text = format!("{} {} {}", "a".repeat(30), "b".repeat(30), "c".repeat(30));
        assert_eq!(
            wrap(&text),
            [
                format!("{} {}", "a".repeat(30), "b".repeat(30)),
                "c".repeat(30)
            ]
        );
        // Runs of spaces are one, and each line of the text wraps on its own.
        assert_eq!(wrap("one  two\n\nthree (3)"), ["one two", "three (3)"]);
        // 68 columns exactly fit.
        let fits = format!("{} {}", "a".repeat(33), "b".repeat(34));
        assert_eq!(wrap(&fits), std::slice::from_ref(&fits));
        assert_eq!(wrap(&format!("{fits}b")).len(), 2);
    }
}
