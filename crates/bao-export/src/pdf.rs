//! A booklet of games as one PDF: a title block, then per game its players, tags, the moves
//! in two columns (South's and North's, each move as the record writes it), the comments,
//! and diagrams where a comment asks for one (`[%diagram]`) or every N plies, each with the
//! comment's text as its caption; page numbers at the foot of every page.
//!
//! Everything is vector: each diagram is the SVG of [`board_svg`] converted by `svg2pdf`
//! (its labels as outlines), and the text is set with `pdf-writer` in the bundled DejaVu
//! Sans subsets, embedded once as TrueType (CID) fonts with a `ToUnicode` map so that the
//! text can be searched and copied.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use bao_core::{Position, Side};
use bao_notation::{Game, Markup, Record};
use bao_replay::{Line, MoveNode, Node as Written, ReplayedGame};
use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str, TextStr};
use resvg::usvg;

use crate::document::{markup_before, Exported, MAX_DEPTH};
use crate::frames::result_words;
use crate::html::tag_words;
use crate::overlay::Overlay;
use crate::png::{usvg_options, BOLD, REGULAR};
use crate::svg::{board_svg, SvgOptions, Theme};
use crate::ExportError;

/// The size of a booklet's pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paper {
    /// ISO A4, 210 x 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 x 11 in.
    Letter,
}

impl Paper {
    /// Width and height in points (1/72 in).
    #[must_use]
    pub const fn size(self) -> (f32, f32) {
        match self {
            Self::A4 => (595.276, 841.89),
            Self::Letter => (612.0, 792.0),
        }
    }
}

/// Options of [`booklet_pdf`].
#[derive(Debug, Clone, PartialEq)]
pub struct PdfOptions {
    /// The page size.
    pub paper: Paper,
    /// The width of a diagram in millimetres (the height follows).
    pub diagram_mm: f32,
    /// Also a diagram after every N-th ply of each game's main line (`None`: only where a
    /// comment asks with `[%diagram]`, and the start of a set-up game).
    pub every: Option<usize>,
    /// The booklet's title (the first game's `Event`, or "Bao games", when `None`).
    pub title: Option<String>,
    /// How the diagrams are drawn (`caption` and `names` are set per diagram).
    pub svg: SvgOptions,
}

impl Default for PdfOptions {
    fn default() -> Self {
        Self {
            paper: Paper::A4,
            diagram_mm: Self::DEFAULT_DIAGRAM_MM,
            every: None,
            title: None,
            svg: SvgOptions {
                theme: Theme::Book,
                ..SvgOptions::default()
            },
        }
    }
}

impl PdfOptions {
    /// The default diagram width, in millimetres.
    pub const DEFAULT_DIAGRAM_MM: f32 = 80.0;
    /// The narrowest and widest diagram, in millimetres (the widest fits a Letter page).
    pub const DIAGRAM_MM: std::ops::RangeInclusive<f32> = 30.0..=170.0;
}

/// One record of a booklet: its games and their replays (`replayed[i]` replays
/// `record.games[i]`).
#[derive(Debug, Clone, Copy)]
pub struct BookletRecord<'a> {
    /// The record, checked without errors.
    pub record: &'a Record,
    /// The replay of each of its games.
    pub replayed: &'a [ReplayedGame],
}

/// Points per millimetre.
const MM: f32 = 72.0 / 25.4;

/// Sets every game of `records`, in order, as one booklet.
///
/// The output is deterministic: the same records and options give the same bytes.
///
/// # Errors
/// [`ExportError::Replay`] when a game cannot be replayed; [`ExportError::Render`] for a
/// diagram size outside [`PdfOptions::DIAGRAM_MM`], an `every` of 0 or a diagram that cannot
/// be converted.
///
/// ```
/// use bao_export::{booklet_pdf, BookletRecord, PdfOptions};
///
/// let record = bao_notation::parse_record("1. A7>* {[%diagram] A good start} a6<* *\n").record;
/// let replayed: Vec<_> = record
///     .games
///     .iter()
///     .map(|g| bao_replay::replay_game(&g.value, None))
///     .collect();
/// let books = [BookletRecord { record: &record, replayed: &replayed }];
/// let pdf = booklet_pdf(&books, &PdfOptions::default()).unwrap();
/// assert!(pdf.starts_with(b"%PDF-"));
/// ```
pub fn booklet_pdf(
    records: &[BookletRecord<'_>],
    opts: &PdfOptions,
) -> Result<Vec<u8>, ExportError> {
    check_options(opts)?;
    let first_event = records
        .iter()
        .flat_map(|r| r.record.games.iter())
        .find_map(|g| clean_tag(&g.value, "Event"));
    let title = opts
        .title
        .clone()
        .or(first_event)
        .unwrap_or_else(|| "Bao games".to_owned());
    let count: usize = records.iter().map(|r| r.record.games.len()).sum();
    let mut book = Book::new(opts)?;
    book.title_block(
        &title,
        &format!("{count} game{}", if count == 1 { "" } else { "s" }),
    );
    for r in records {
        for index in 0..r.record.games.len() {
            let game = Exported::of_record(r.record, r.replayed, index)?;
            book.game(game)?;
        }
    }
    Ok(book.finish(&title))
}

/// A problem of a sheet: a position whose side to move wins in `moves` of its own moves
/// (within `2 * moves - 1` plies), as the caller's solver proved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetProblem {
    /// The position set.
    pub position: Position,
    /// The side to move wins in this many of its moves.
    pub moves: u32,
    /// Where it comes from (its `Event` or `Source`; empty for nothing), under the diagram.
    pub source: String,
    /// The solution as text, printed on the last page.
    pub solution: String,
}

impl SheetProblem {
    /// "South to move and win in 2".
    #[must_use]
    pub fn task(&self) -> String {
        format!(
            "{} to move and win in {}",
            side_word(self.position.to_move()),
            self.moves
        )
    }
}

/// Sets problems as a sheet: the title, each problem numbered with its task ("South to move
/// and win in 2") above its diagram and its source under it, and the solutions on a last
/// page of their own.
///
/// The output is deterministic. Only problems the caller proved belong here: the sheet
/// prints each claim as given.
///
/// # Errors
/// As [`booklet_pdf`]: a diagram size outside [`PdfOptions::DIAGRAM_MM`], a diagram that
/// cannot be converted.
pub fn problems_pdf(problems: &[SheetProblem], opts: &PdfOptions) -> Result<Vec<u8>, ExportError> {
    check_options(opts)?;
    let title = opts
        .title
        .clone()
        .unwrap_or_else(|| "Bao problems".to_owned());
    let mut book = Book::new(opts)?;
    book.title_block(
        &title,
        &format!(
            "{} problem{}; the solutions are on the last page",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" }
        ),
    );
    for (i, p) in problems.iter().enumerate() {
        let lines = book.wrap(Face::Bold, HEADING, &p.task(), book.width);
        book.room(lines.len() as f32 * HEADING * 1.3 + opts.diagram_mm * 0.75 * MM + 20.0);
        book.paragraph(
            Face::Bold,
            HEADING,
            0.0,
            &format!("Problem {}: {}", i + 1, p.task()),
            0.0,
        );
        book.diagram(&p.position, None, &Markup::default(), &p.source, None)?;
    }
    book.end_page();
    book.paragraph(Face::Bold, TITLE, 0.0, "Solutions", 6.0);
    for (i, p) in problems.iter().enumerate() {
        book.paragraph(
            Face::Bold,
            BODY,
            0.0,
            &format!("Problem {}: {}", i + 1, p.task()),
            1.0,
        );
        book.paragraph(Face::Regular, BODY, 12.0, &p.solution, 6.0);
    }
    Ok(book.finish(&title))
}

/// Refuses options a booklet cannot be set with.
fn check_options(opts: &PdfOptions) -> Result<(), ExportError> {
    if !PdfOptions::DIAGRAM_MM.contains(&opts.diagram_mm) {
        return Err(ExportError::Render(format!(
            "a diagram is {} to {} mm wide, not {}",
            PdfOptions::DIAGRAM_MM.start(),
            PdfOptions::DIAGRAM_MM.end(),
            opts.diagram_mm
        )));
    }
    if opts.every == Some(0) {
        return Err(ExportError::Render(
            "a diagram every 0 plies: give at least 1".to_owned(),
        ));
    }
    Ok(())
}

/// A game's tag, trimmed, unless unknown (`?`, empty).
fn clean_tag(game: &Game, name: &str) -> Option<String> {
    game.tag(name)
        .map(|t| t.value.trim().to_owned())
        .filter(|t| !t.is_empty() && t != "?")
}

/// One of the two embedded faces: its glyphs, widths, and the glyphs used so far (for the
/// `ToUnicode` map).
struct Font {
    face: ttf_parser::Face<'static>,
    data: &'static [u8],
    /// The PostScript name.
    name: &'static [u8],
    /// The resource name in the pages.
    res: &'static [u8],
    /// Glyph id to the character it shows, for every glyph set.
    used: BTreeMap<u16, char>,
}

impl Font {
    fn new(
        data: &'static [u8],
        name: &'static [u8],
        res: &'static [u8],
    ) -> Result<Self, ExportError> {
        let face = ttf_parser::Face::parse(data, 0)
            .map_err(|e| ExportError::Render(format!("the bundled font: {e}")))?;
        Ok(Self {
            face,
            data,
            name,
            res,
            used: BTreeMap::new(),
        })
    }

    /// The glyph of a character (`?` for one the font lacks).
    fn glyph(&self, c: char) -> (u16, char) {
        match self.face.glyph_index(c) {
            Some(g) => (g.0, c),
            None => (self.face.glyph_index('?').map_or(0, |g| g.0), '?'),
        }
    }

    /// A glyph's advance in thousandths of the font size.
    fn advance(&self, glyph: u16) -> f32 {
        let upem = f32::from(self.face.units_per_em().max(1));
        self.face
            .glyph_hor_advance(ttf_parser::GlyphId(glyph))
            .map_or(0.0, |a| f32::from(a) * 1000.0 / upem)
    }

    /// The width of a text at a size, in points.
    fn width(&self, text: &str, size: f32) -> f32 {
        text.chars()
            .map(|c| self.advance(self.glyph(c).0))
            .sum::<f32>()
            * size
            / 1000.0
    }

    /// The text as two-byte glyph ids (Identity-H), remembering each glyph's character.
    fn encode(&mut self, text: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(2 * text.len());
        for c in text.chars() {
            let (g, shown) = self.glyph(c);
            self.used.entry(g).or_insert(shown);
            out.extend_from_slice(&g.to_be_bytes());
        }
        out
    }

    /// Writes the font (`Type0` over a `CIDFontType2` with the TrueType file embedded).
    fn write(&self, pdf: &mut Pdf, alloc: &mut Ref, id: Ref) {
        let (cid, descriptor, file, cmap) =
            (alloc.bump(), alloc.bump(), alloc.bump(), alloc.bump());
        let system = SystemInfo {
            registry: Str(b"Adobe"),
            ordering: Str(b"Identity"),
            supplement: 0,
        };
        pdf.type0_font(id)
            .base_font(Name(self.name))
            .encoding_predefined(Name(b"Identity-H"))
            .descendant_font(cid)
            .to_unicode(cmap);
        let widths: Vec<f32> = (0..self.face.number_of_glyphs())
            .map(|g| self.advance(g))
            .collect();
        let mut font = pdf.cid_font(cid);
        font.subtype(CidFontType::Type2)
            .base_font(Name(self.name))
            .system_info(system)
            .font_descriptor(descriptor)
            .cid_to_gid_map_predefined(Name(b"Identity"));
        font.widths().consecutive(0, widths);
        font.finish();
        let upem = f32::from(self.face.units_per_em().max(1));
        let scale = |v: i16| f32::from(v) * 1000.0 / upem;
        let bbox = self.face.global_bounding_box();
        pdf.font_descriptor(descriptor)
            .name(Name(self.name))
            .flags(FontFlags::NON_SYMBOLIC)
            .bbox(Rect::new(
                scale(bbox.x_min),
                scale(bbox.y_min),
                scale(bbox.x_max),
                scale(bbox.y_max),
            ))
            .italic_angle(0.0)
            .ascent(scale(self.face.ascender()))
            .descent(scale(self.face.descender()))
            .cap_height(scale(
                self.face.capital_height().unwrap_or(self.face.ascender()),
            ))
            .stem_v(80.0)
            .font_file2(file);
        let len = i32::try_from(self.data.len()).unwrap_or(i32::MAX);
        pdf.stream(file, self.data).pair(Name(b"Length1"), len);
        let mut map = UnicodeCmap::new(Name(b"Custom"), system);
        for (&g, &c) in &self.used {
            map.pair(g, c);
        }
        pdf.cmap(cmap, &map.finish());
    }
}

/// The regular face and the bold one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Face {
    Regular,
    Bold,
}

/// A page being written.
struct Page {
    content: Content,
    /// The diagrams on it: resource name and object.
    xobjects: Vec<(String, Ref)>,
}

/// The booklet being set: pages, the cursor, the fonts.
struct Book<'o> {
    opts: &'o PdfOptions,
    pdf: Pdf,
    alloc: Ref,
    fonts: [Font; 2],
    done: Vec<Ref>,
    page: Option<Page>,
    /// The top of the free space on the page, in points from the bottom.
    y: f32,
    width: f32,
    height: f32,
    margin: f32,
    diagrams: usize,
    svg_options: usvg::Options<'static>,
    catalog: Ref,
    tree: Ref,
    /// The two fonts' Type0 objects (their other objects are written at the end).
    font_refs: [Ref; 2],
}

/// The sizes of the text.
const TITLE: f32 = 20.0;
const HEADING: f32 = 13.0;
const BODY: f32 = 10.0;
const SMALL: f32 = 8.5;

impl<'o> Book<'o> {
    fn new(opts: &'o PdfOptions) -> Result<Self, ExportError> {
        let mut alloc = Ref::new(1);
        let catalog = alloc.bump();
        let tree = alloc.bump();
        let font_refs = [alloc.bump(), alloc.bump()];
        let (width, height) = opts.paper.size();
        Ok(Self {
            opts,
            pdf: Pdf::new(),
            alloc,
            fonts: [
                Font::new(REGULAR, b"DejaVuSans", b"F1")?,
                Font::new(BOLD, b"DejaVuSans-Bold", b"F2")?,
            ],
            done: Vec::new(),
            page: None,
            y: 0.0,
            width,
            height,
            margin: 18.0 * MM,
            diagrams: 0,
            svg_options: usvg_options(&[]),
            catalog,
            tree,
            font_refs,
        })
    }

    fn font(&mut self, face: Face) -> &mut Font {
        &mut self.fonts[usize::from(face == Face::Bold)]
    }

    /// The current page (a new one when none is open).
    fn page(&mut self) -> &mut Page {
        if self.page.is_none() {
            self.page = Some(Page {
                content: Content::new(),
                xobjects: Vec::new(),
            });
            self.y = self.height - self.margin;
        }
        self.page.as_mut().expect("a page is open")
    }

    /// Makes room for `h` points: a new page when the rest of this one is too short.
    fn room(&mut self, h: f32) {
        if self.page.is_some() && self.y - h < self.margin + 12.0 {
            self.end_page();
        }
        self.page();
    }

    /// Closes the open page: its number at the foot, then the page object.
    fn end_page(&mut self) {
        let Some(mut page) = self.page.take() else {
            return;
        };
        let number = (self.done.len() + 1).to_string();
        let w = self.fonts[0].width(&number, SMALL);
        let glyphs = self.fonts[0].encode(&number);
        page.content
            .begin_text()
            .set_font(Name(b"F1"), SMALL)
            .next_line((self.width - w) / 2.0, self.margin / 2.0)
            .show(Str(&glyphs))
            .end_text();
        let (id, content) = (self.alloc.bump(), self.alloc.bump());
        self.pdf.stream(content, &page.content.finish());
        let mut p = self.pdf.page(id);
        p.media_box(Rect::new(0.0, 0.0, self.width, self.height))
            .parent(self.tree)
            .contents(content);
        let mut resources = p.resources();
        {
            let mut fonts = resources.fonts();
            fonts.pair(Name(b"F1"), self.font_refs[0]);
            fonts.pair(Name(b"F2"), self.font_refs[1]);
        }
        {
            let mut x = resources.x_objects();
            for (name, r) in &page.xobjects {
                x.pair(Name(name.as_bytes()), *r);
            }
        }
        resources.finish();
        p.finish();
        self.done.push(id);
    }

    /// One line of text at `x`, its baseline `size` below the cursor (no room check).
    fn text_at(&mut self, face: Face, size: f32, x: f32, baseline: f32, text: &str) {
        if text.is_empty() {
            return;
        }
        let font = self.font(face);
        let glyphs = font.encode(text);
        let res = font.res;
        self.page()
            .content
            .begin_text()
            .set_font(Name(res), size)
            .next_line(x, baseline)
            .show(Str(&glyphs))
            .end_text();
    }

    /// The text broken into lines no wider than `max` points.
    fn wrap(&self, face: Face, size: f32, text: &str, max: f32) -> Vec<String> {
        let font = &self.fonts[usize::from(face == Face::Bold)];
        let mut lines = Vec::new();
        let space = font.width(" ", size);
        for para in text.lines() {
            // The line so far and its width, grown word by word (linear in the text).
            let mut line = String::new();
            let mut width = 0.0;
            for word in para.split_whitespace() {
                let w = font.width(word, size);
                if !line.is_empty() && width + space + w > max {
                    lines.push(std::mem::take(&mut line));
                    width = 0.0;
                }
                if !line.is_empty() {
                    line.push(' ');
                    width += space;
                }
                line.push_str(word);
                width += w;
            }
            if !line.is_empty() {
                lines.push(line);
            }
        }
        lines
    }

    /// A paragraph from the left margin (plus `indent`), wrapped, `gap` points after it.
    fn paragraph(&mut self, face: Face, size: f32, indent: f32, text: &str, gap: f32) {
        let max = self.width - 2.0 * self.margin - indent;
        let lead = size * 1.3;
        for line in self.wrap(face, size, text, max) {
            self.room(lead);
            let baseline = self.y - size;
            self.text_at(face, size, self.margin + indent, baseline, &line);
            self.y -= lead;
        }
        self.y -= gap;
    }

    /// The title block at the top of the first page.
    fn title_block(&mut self, title: &str, subtitle: &str) {
        self.paragraph(Face::Bold, TITLE, 0.0, title, 2.0);
        self.paragraph(Face::Regular, BODY, 0.0, subtitle, 4.0);
        self.rule();
        self.y -= 10.0;
    }

    /// A thin line across the text width.
    fn rule(&mut self) {
        let (x0, x1, y) = (self.margin, self.width - self.margin, self.y);
        self.page()
            .content
            .set_line_width(0.5)
            .move_to(x0, y)
            .line_to(x1, y)
            .stroke();
    }

    /// One game: heading, tags, moves, comments, variations and diagrams.
    fn game(&mut self, game: Exported<'_>) -> Result<(), ExportError> {
        let g = game.doc.game();
        let south = clean_tag(g, "South").unwrap_or_else(|| "South".to_owned());
        let north = clean_tag(g, "North").unwrap_or_else(|| "North".to_owned());
        // A game starts on a new page unless at least a third of this one is free.
        if self.page.is_some() && self.y < self.height / 3.0 {
            self.end_page();
        }
        self.room(HEADING * 1.3 + 4.0 * BODY * 1.3);
        self.paragraph(Face::Bold, HEADING, 0.0, &format!("{south} – {north}"), 2.0);
        let mut tags = Vec::new();
        for t in &g.tags {
            let name = &t.value.name.value;
            if matches!(name.as_str(), "South" | "North") {
                continue;
            }
            if let Some(v) = tag_words(name, &t.value.value.value) {
                tags.push(format!("{name}: {v}"));
            }
        }
        if !tags.is_empty() {
            self.paragraph(Face::Regular, SMALL, 0.0, &tags.join(" · "), 4.0);
        }
        let main = game.doc.main();
        let set_up = g.tag("Position").is_some();
        let start_markup = markup_before(&main);
        let intro: Vec<String> = main
            .comments_before()
            .map(|c| Markup::strip(&c.text))
            .filter(|t| !t.is_empty())
            .collect();
        let mut moves = Moves::new(usize::from(game.start.to_move() == Side::North));
        if set_up || start_markup.diagram {
            let caption = if intro.is_empty() {
                format!("Start: {} to move", side_word(game.start.to_move()))
            } else {
                intro.join(" ")
            };
            self.diagram(&game.start, None, &start_markup, &caption, Some(g))?;
        } else {
            for text in &intro {
                self.paragraph(Face::Regular, BODY, 0.0, text, 3.0);
            }
        }
        self.line(&game, main, &mut moves)?;
        self.flush(&mut moves);
        let last = main
            .moves()
            .last()
            .and_then(|m| m.played())
            .map_or(game.start, |(_, p)| p.after);
        let result = result_words(g, &last)
            .or_else(|| clean_tag(g, "Result").and_then(|r| result_tag_words(&r)))
            .unwrap_or_default();
        if !result.is_empty() {
            self.y -= 3.0;
            self.paragraph(Face::Bold, BODY, 0.0, &result, 0.0);
        }
        self.y -= 14.0;
        Ok(())
    }

    /// The main line's moves, comments, variations and diagrams.
    fn line<'a>(
        &mut self,
        game: &Exported<'a>,
        line: Line<'a>,
        moves: &mut Moves,
    ) -> Result<(), ExportError> {
        // The diagram `every` asks for after the last move, waiting for that move's comments
        // (one of them may caption it).
        let mut pending: Option<MoveNode<'a>> = None;
        let mut last: Option<MoveNode<'a>> = None;
        for node in line.nodes() {
            match node {
                Written::Move(m) => {
                    if let Some(p) = pending.take() {
                        self.flush(moves);
                        self.move_diagram(game, &p, "")?;
                    }
                    let (ply, _) = game.played(&m)?;
                    moves.push(ply.number, ply.mover(), move_text(&m));
                    if self.opts.every.is_some_and(|n| ply.number % n == 0) {
                        pending = Some(m);
                    }
                    last = Some(m);
                }
                Written::Comment(c, _) => {
                    let text = Markup::strip(&c.text);
                    let asks = Markup::read(&c.text).0.diagram;
                    match last {
                        // Comments before the first move are the game's introduction.
                        None => {}
                        Some(m) if asks || pending.is_some() => {
                            pending = None;
                            self.flush(moves);
                            self.move_diagram(game, &m, &text)?;
                        }
                        _ if text.is_empty() => {}
                        _ => {
                            self.flush(moves);
                            self.paragraph(Face::Regular, BODY, 12.0, &text, 3.0);
                        }
                    }
                }
                Written::Variation(v) => {
                    let mut words = String::new();
                    variation_text(&mut words, v, 0);
                    self.flush(moves);
                    self.paragraph(Face::Regular, SMALL, 12.0, &format!("({words})"), 3.0);
                }
            }
        }
        if let Some(p) = pending {
            self.flush(moves);
            self.move_diagram(game, &p, "")?;
        }
        Ok(())
    }

    /// Writes the rows of moves not written yet, in two columns: the first half of the run
    /// on the left, the rest on the right, as far as the page holds them (the rest on the
    /// next page, again in two columns).
    fn flush(&mut self, moves: &mut Moves) {
        let lead = BODY * 1.45;
        let rows = std::mem::take(&mut moves.rows);
        // Each page's share is taken from the front (no copy of the rest: linear).
        let mut from = 0;
        while from < rows.len() {
            let left = rows.len() - from;
            self.room(lead);
            let fit = (((self.y - self.margin - 12.0) / lead).floor() as usize).max(1);
            // A run of three rows or fewer stays in one column.
            let half = if left <= 3 { left } else { left.div_ceil(2) };
            let per_column = half.min(fit);
            let take = (2 * per_column).min(left);
            let column = (self.width - 2.0 * self.margin) / 2.0;
            let top = self.y;
            for (i, row) in rows[from..from + take].iter().enumerate() {
                let (c, r) = (i / per_column, i % per_column);
                let x = self.margin + c as f32 * column;
                self.row(row, x, top - r as f32 * lead - BODY);
            }
            self.y = top - per_column as f32 * lead - 3.0;
            from += take;
        }
    }

    /// One row of moves at `x`: the move number, South's move, North's.
    fn row(&mut self, row: &Row, x: f32, baseline: f32) {
        let num = format!("{}.", row.number);
        let w = self.fonts[0].width(&num, BODY);
        let x = x + 12.0 * MM;
        self.text_at(Face::Regular, BODY, x - 1.5 * MM - w, baseline, &num);
        let south = row.south.as_deref().unwrap_or("…");
        self.text_at(Face::Bold, BODY, x, baseline, south);
        if let Some(n) = &row.north {
            self.text_at(Face::Bold, BODY, x + 26.0 * MM, baseline, n);
        }
    }

    /// The diagram after a move, its caption the comment's text after the move's name.
    fn move_diagram(
        &mut self,
        game: &Exported<'_>,
        m: &MoveNode<'_>,
        text: &str,
    ) -> Result<(), ExportError> {
        let step = game.step(m)?;
        let (ply, _) = game.played(m)?;
        let offset = usize::from(game.start.to_move() == Side::North);
        let num = (ply.number + offset).div_ceil(2);
        let dots = if ply.mover() == Side::South {
            "."
        } else {
            "..."
        };
        let mut caption = format!("After {num}{dots} {}", move_text(m));
        if !text.is_empty() {
            let _ = write!(caption, ": {text}");
        }
        let overlay = Overlay::from_trace(&step.before, &step.trace);
        self.diagram(
            &step.after,
            Some(&overlay),
            &step.markup,
            &caption,
            Some(game.doc.game()),
        )
    }

    /// A diagram, centred, with its caption under it.
    fn diagram(
        &mut self,
        pos: &Position,
        overlay: Option<&Overlay>,
        markup: &Markup,
        caption: &str,
        game: Option<&Game>,
    ) -> Result<(), ExportError> {
        let mut svg_opts = self.opts.svg.clone();
        svg_opts.caption = Some(String::new());
        svg_opts.pretty = false;
        svg_opts.markup = markup.clone();
        for side in Side::ALL {
            if svg_opts.names.get(side).is_none() {
                *svg_opts.names.get_mut(side) = game.and_then(|g| clean_tag(g, side_word(side)));
            }
        }
        let svg = board_svg(pos, &svg_opts, overlay);
        let tree = usvg::Tree::from_str(&svg, &self.svg_options)
            .map_err(|e| ExportError::Svg(e.to_string()))?;
        let conversion = svg2pdf::ConversionOptions {
            embed_text: false,
            ..svg2pdf::ConversionOptions::default()
        };
        let (chunk, root) =
            svg2pdf::to_chunk(&tree, conversion).map_err(|e| ExportError::Render(e.to_string()))?;
        let mut map = HashMap::new();
        let alloc = &mut self.alloc;
        let chunk = chunk.renumber(|old| *map.entry(old).or_insert_with(|| alloc.bump()));
        let root = map
            .get(&root)
            .copied()
            .ok_or_else(|| ExportError::Render("the diagram has no object".to_owned()))?;
        self.pdf.extend(&chunk);

        let w = self.opts.diagram_mm * MM;
        let size = tree.size();
        let h = w * size.height() / size.width().max(1.0);
        let lines = self.wrap(
            Face::Regular,
            SMALL,
            caption,
            w.max(100.0 * MM).min(self.width - 2.0 * self.margin),
        );
        let caption_h = lines.len() as f32 * SMALL * 1.3;
        self.room(h + caption_h + 12.0);
        self.y -= 4.0;
        let x = (self.width - w) / 2.0;
        let bottom = self.y - h;
        self.diagrams += 1;
        let name = format!("D{}", self.diagrams);
        let page = self.page();
        page.content
            .save_state()
            .transform([w, 0.0, 0.0, h, x, bottom])
            .x_object(Name(name.as_bytes()))
            .restore_state();
        page.xobjects.push((name, root));
        self.y = bottom - 3.0;
        for line in lines {
            let lw = self.fonts[0].width(&line, SMALL);
            let baseline = self.y - SMALL;
            self.text_at(
                Face::Regular,
                SMALL,
                (self.width - lw) / 2.0,
                baseline,
                &line,
            );
            self.y -= SMALL * 1.3;
        }
        self.y -= 8.0;
        Ok(())
    }

    /// The finished PDF.
    fn finish(mut self, title: &str) -> Vec<u8> {
        self.end_page();
        if self.done.is_empty() {
            // A booklet of no games still has its title page.
            self.page();
            self.end_page();
        }
        self.pdf.catalog(self.catalog).pages(self.tree);
        let count = i32::try_from(self.done.len()).unwrap_or(i32::MAX);
        self.pdf
            .pages(self.tree)
            .kids(self.done.iter().copied())
            .count(count);
        let mut alloc = self.alloc;
        for (font, id) in self.fonts.iter().zip(self.font_refs) {
            font.write(&mut self.pdf, &mut alloc, id);
        }
        let info = alloc.bump();
        self.pdf
            .document_info(info)
            .title(TextStr(title))
            .creator(TextStr("bao export pdf"));
        self.pdf.finish()
    }
}

/// A `Result` tag in words (`None` for a game in progress).
fn result_tag_words(result: &str) -> Option<String> {
    Some(
        match result {
            "1-0" => "South wins",
            "0-1" => "North wins",
            "1/2-1/2" => "Draw",
            _ => return None,
        }
        .to_owned(),
    )
}

/// "South" or "North".
fn side_word(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

/// A move as the record writes it, with its glyphs (`!`, `?!`).
fn move_text(m: &MoveNode<'_>) -> String {
    let item = m.written();
    let mut text = m
        .text()
        .map_or_else(|| item.token.value.to_string(), str::to_owned);
    for n in &item.nags {
        match n.value.glyph() {
            Some(g) => text.push_str(g),
            None => {
                let _ = write!(text, " ${}", n.value.0);
            }
        }
    }
    text
}

/// A variation as one run of text: numbered moves, comments, nested variations.
fn variation_text(out: &mut String, line: Line<'_>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let mut numbered = false;
    for node in line.nodes() {
        if !out.is_empty() && !out.ends_with('(') {
            out.push(' ');
        }
        match node {
            Written::Move(m) => {
                if let Some(p) = m.ply() {
                    let num = p.number.div_ceil(2);
                    match p.mover() {
                        Side::South => {
                            let _ = write!(out, "{num}. ");
                        }
                        Side::North if !numbered => {
                            let _ = write!(out, "{num}... ");
                        }
                        Side::North => {}
                    }
                }
                numbered = true;
                out.push_str(&move_text(&m));
            }
            Written::Comment(c, _) => {
                let text = Markup::strip(&c.text);
                if !text.is_empty() {
                    let _ = write!(out, "{{{text}}}");
                }
                numbered = false;
            }
            Written::Variation(v) => {
                out.push('(');
                variation_text(out, v, depth + 1);
                out.push(')');
                numbered = false;
            }
        }
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
}

/// A row of the move columns.
struct Row {
    number: usize,
    south: Option<String>,
    north: Option<String>,
}

/// The rows of moves not yet written (the last one may wait for North's move).
struct Moves {
    /// 1 when the game starts with North to move.
    offset: usize,
    rows: Vec<Row>,
}

impl Moves {
    fn new(offset: usize) -> Self {
        Self {
            offset,
            rows: Vec::new(),
        }
    }

    fn push(&mut self, ply: usize, side: Side, text: String) {
        let number = (ply + self.offset).div_ceil(2);
        match (side, self.rows.last_mut()) {
            (Side::North, Some(r)) if r.number == number && r.north.is_none() => {
                r.north = Some(text);
            }
            (Side::North, _) => self.rows.push(Row {
                number,
                south: None,
                north: Some(text),
            }),
            (Side::South, _) => self.rows.push(Row {
                number,
                south: Some(text),
                north: None,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{booklet_pdf, BookletRecord, Paper, PdfOptions};
    use crate::ExportError;

    fn book(text: &str, opts: &PdfOptions) -> Result<Vec<u8>, ExportError> {
        let record = bao_notation::parse_record(text).record;
        let replayed: Vec<_> = record
            .games
            .iter()
            .map(|g| bao_replay::replay_game(&g.value, None))
            .collect();
        booklet_pdf(
            &[BookletRecord {
                record: &record,
                replayed: &replayed,
            }],
            opts,
        )
    }

    /// How many diagrams the pages place (`/D1`, `/D2`, ... in their resources).
    fn diagrams(pdf: &[u8]) -> usize {
        (1..100)
            .take_while(|n| {
                let name = format!("/D{n} ");
                pdf.windows(name.len()).any(|w| w == name.as_bytes())
            })
            .count()
    }

    const GAME: &str = "1. A7>* {[%diagram] A start} a6<* 2. A6> a5> {[%diagram]} \
                        3. A2<# 1-0\n";

    #[test]
    fn diagrams_where_asked_and_every_n_plies() {
        let opts = PdfOptions::default();
        let pdf = book(GAME, &opts).unwrap();
        assert_eq!(diagrams(&pdf), 2);
        // The same input, the same bytes.
        assert_eq!(pdf, book(GAME, &opts).unwrap());
        // Every second ply: plies 2 and 4 (4 asked too: one diagram), and the game's end
        // after ply 5 is not a multiple; ply 1 asked.
        let every = PdfOptions {
            every: Some(2),
            ..PdfOptions::default()
        };
        assert_eq!(diagrams(&book(GAME, &every).unwrap()), 3);
        let letter = PdfOptions {
            paper: Paper::Letter,
            ..PdfOptions::default()
        };
        let pdf = book(GAME, &letter).unwrap();
        let media = b"/MediaBox [0 0 612 792]";
        assert!(pdf.windows(media.len()).any(|w| w == media));
    }

    #[test]
    fn bad_sizes_are_refused() {
        for opts in [
            PdfOptions {
                diagram_mm: 10.0,
                ..PdfOptions::default()
            },
            PdfOptions {
                every: Some(0),
                ..PdfOptions::default()
            },
        ] {
            assert!(matches!(book(GAME, &opts), Err(ExportError::Render(_))));
        }
    }
}
