//! Plain-text board diagrams for terminals and record comments.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};
use bao_core::{BySide, HouseState, Pit, Position, Side};

use crate::layout::{
    number_at, outcome_text, pit_at, rows_top_to_bottom, side_title, status_line, viewer,
};
use crate::overlay::Overlay;

/// Options of [`board_text`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextOptions {
    /// North's rows at the bottom.
    pub flip: bool,
    /// Row letters and pit numbers.
    pub coordinates: bool,
    /// Player names, shown beside "South" and "North".
    pub names: BySide<Option<String>>,
    /// The pits of the move that led to the position, marked after their counts; `None`
    /// (the default) marks nothing.
    pub last_move: Option<LastMove>,
    /// Colour the last move's pits and marks with ANSI escape codes (for a terminal that
    /// shows colour); the marks and their legend are written either way.
    pub colour: bool,
}

impl Default for TextOptions {
    fn default() -> Self {
        Self {
            flip: false,
            coordinates: true,
            names: BySide::new(None, None),
            last_move: None,
            colour: false,
        }
    }
}

/// The pits of one move a text board marks: where it started (`^`), where its last lap
/// ended (`$`) and what it captured (`x`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LastMove {
    /// The pit the move started from (in namua: where its seed was placed).
    pub start: Option<Pit>,
    /// The pit where its last seed fell; `None` for a move that never ends, or when the
    /// last lap is not known.
    pub end: Option<Pit>,
    /// The opponent's pits it emptied, in the order captured (each once).
    pub captured: Vec<Pit>,
}

impl LastMove {
    /// A move that only names its start pit.
    #[must_use]
    pub fn start(pit: Pit) -> Self {
        Self {
            start: Some(pit),
            ..Self::default()
        }
    }

    /// The pits of the ply an overlay describes ([`Overlay::from_trace`]).
    #[must_use]
    pub fn of(overlay: &Overlay) -> Self {
        // A move that never ends has no last seed; a trace cut short does not know it.
        let end = overlay
            .lap_ends
            .last()
            .filter(|(n, _)| overlay.cycle.is_none() && *n == overlay.laps_total)
            .map(|(_, pit)| *pit);
        let mut captured: Vec<Pit> = Vec::new();
        for c in &overlay.captures {
            if !captured.contains(&c.pit) {
                captured.push(c.pit);
            }
        }
        Self {
            start: overlay.start,
            end,
            captured,
        }
    }
}

/// The marks a pit can carry after its count, in the order they are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Takasia,
    Start,
    End,
    Captured,
}

impl Mark {
    const fn char(self) -> char {
        match self {
            Self::Takasia => '!',
            Self::Start => '^',
            Self::End => '$',
            Self::Captured => 'x',
        }
    }

    /// The colour of the mark and of the count it follows; the takasia keeps the plain text.
    fn style(self) -> Style {
        let colour = match self {
            Self::Takasia => return Style::new(),
            Self::Start => AnsiColor::Yellow,
            Self::End => AnsiColor::Green,
            Self::Captured => AnsiColor::Red,
        };
        Style::new().fg_color(Some(colour.into())).bold()
    }
}

/// Draws a position as plain ASCII text, one line per row, as
/// seen by South (or by North with `flip`).
///
/// Empty pits are `.`; the house is `[n]` while it works and `(n)` while dormant (a destroyed
/// house is an ordinary pit); a takasia'd pit carries `!`; the last move
/// ([`TextOptions::last_move`]) marks its start `^`, its end `$` and its captures `x`, in
/// colour too with [`TextOptions::colour`]. Each side's line shows its hand, stage and house,
/// and the side to move is marked; a legend explains the marks used.
///
/// ```
/// use bao_core::{Position, RuleSet};
/// use bao_export::{board_text, TextOptions};
///
/// let text = board_text(&Position::start(RuleSet::KISWAHILI), &TextOptions::default());
/// assert!(text.contains("[ 6]"));
/// assert!(text.contains("South (to move)"));
/// ```
#[must_use]
pub fn board_text(pos: &Position, opts: &TextOptions) -> String {
    text_diagram(pos, opts, outcome_text(pos, false).as_deref())
}

/// [`board_text`] with the outcome text already known.
pub(crate) fn text_diagram(pos: &Position, opts: &TextOptions, outcome: Option<&str>) -> String {
    let near = viewer(opts.flip);
    let far = near.opponent();
    let mut out = String::with_capacity(1024);
    let mut marks = Marks::default();

    side_line(&mut out, pos, far, opts, outcome.is_some());
    if opts.coordinates {
        numbers_line(&mut out, far, opts.flip);
    }
    for (screen_row, (side, row)) in rows_top_to_bottom(opts.flip).into_iter().enumerate() {
        if screen_row == 2 {
            out.push_str("    ");
            out.push_str(&"-".repeat(8 * 5 - 1));
            out.push('\n');
        }
        let letter = Pit::new(side, row, 1).map_or(' ', Pit::row_letter);
        if opts.coordinates {
            let _ = write!(out, " {letter}  ");
        } else {
            out.push_str("    ");
        }
        for col in 0..8u8 {
            if let Some(pit) = pit_at(screen_row, col, opts.flip) {
                cell(&mut out, pos, pit, opts, &mut marks);
            }
        }
        trim_end(&mut out);
        out.push('\n');
    }
    if opts.coordinates {
        numbers_line(&mut out, near, opts.flip);
    }
    side_line(&mut out, pos, near, opts, outcome.is_some());
    if let Some(o) = outcome {
        let _ = writeln!(out, "Game over: {o}");
    }
    let names = pos.rules().names();
    let mut legend = Vec::new();
    if marks.house {
        legend.push(format!("[n] {}", names.nyumba));
    }
    if marks.dormant {
        legend.push(format!("(n) dormant {}", names.nyumba));
    }
    if marks.takasia {
        legend.push(format!("n! {}", names.takasia));
    }
    for (shown, mark, words) in [
        (marks.start, Mark::Start, "last move's start"),
        (marks.end, Mark::End, "its end"),
        (marks.captured, Mark::Captured, "captured by it"),
    ] {
        if shown {
            let style = if opts.colour {
                mark.style()
            } else {
                Style::new()
            };
            legend.push(format!("n{style}{}{style:#} {words}", mark.char()));
        }
    }
    if !legend.is_empty() {
        let _ = writeln!(out, "{}", legend.join("   "));
    }
    out
}

/// The marks a board used, for its legend.
#[derive(Default)]
struct Marks {
    house: bool,
    dormant: bool,
    takasia: bool,
    start: bool,
    end: bool,
    captured: bool,
}

/// One pit: five columns: the house bracket, the count right-aligned in two, then two columns
/// for the house's closing bracket and the marks (takasia `!`, the last move's start `^`, end
/// `$`, capture `x`), in that order, as many as fit. Only a house that is both the start and
/// the end of a move leaves a mark out (its end); with colour, the count takes the colour of
/// its first last-move mark.
fn cell(out: &mut String, pos: &Position, pit: Pit, opts: &TextOptions, marks: &mut Marks) {
    let n = pos.get(pit);
    let house = if pit == Pit::nyumba(pit.side()) {
        pos.house_state(pit.side())
    } else {
        HouseState::None
    };
    let (open, close) = match house {
        HouseState::Functional => {
            marks.house = true;
            ('[', ']')
        }
        HouseState::Dormant => {
            marks.dormant = true;
            ('(', ')')
        }
        _ => (' ', ' '),
    };
    let last = opts.last_move.as_ref();
    let wanted = [
        (pos.blocked_pit(pit.side()) == Some(pit), Mark::Takasia),
        (last.is_some_and(|l| l.start == Some(pit)), Mark::Start),
        (last.is_some_and(|l| l.end == Some(pit)), Mark::End),
        (
            last.is_some_and(|l| l.captured.contains(&pit)),
            Mark::Captured,
        ),
    ];
    let room = if close == ' ' { 2 } else { 1 };
    let shown: Vec<Mark> = wanted
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, m)| *m)
        .take(room)
        .collect();
    for m in &shown {
        match m {
            Mark::Takasia => marks.takasia = true,
            Mark::Start => marks.start = true,
            Mark::End => marks.end = true,
            Mark::Captured => marks.captured = true,
        }
    }
    let paint = |m: Mark| if opts.colour { m.style() } else { Style::new() };
    let count_style = shown
        .iter()
        .find(|m| **m != Mark::Takasia)
        .map_or_else(Style::new, |m| paint(*m));
    let count = if n == 0 {
        " .".to_owned()
    } else {
        format!("{n:>2}")
    };
    out.push(open);
    let mut pen = Pen::default();
    pen.put(out, count_style, &count);
    if close != ' ' {
        pen.put(out, Style::new(), &close.to_string());
    }
    for m in &shown {
        pen.put(out, paint(*m), &m.char().to_string());
    }
    pen.put(out, Style::new(), "");
    for _ in shown.len() + usize::from(close != ' ')..2 {
        out.push(' ');
    }
}

/// Writes text in styles, with an escape code only where the style changes.
#[derive(Default)]
struct Pen {
    style: Style,
}

impl Pen {
    fn put(&mut self, out: &mut String, style: Style, text: &str) {
        if style != self.style {
            let _ = write!(out, "{:#}{style}", self.style);
            self.style = style;
        }
        out.push_str(text);
    }
}

fn trim_end(out: &mut String) {
    let len = out.trim_end_matches(' ').len();
    out.truncate(len);
}

fn numbers_line(out: &mut String, side: Side, flip: bool) {
    out.push_str("    ");
    for col in 0..8u8 {
        let _ = write!(out, "  {}  ", number_at(side, col, flip));
    }
    trim_end(out);
    out.push('\n');
}

fn side_line(out: &mut String, pos: &Position, side: Side, opts: &TextOptions, over: bool) {
    out.push_str(side_title(side));
    if let Some(name) = opts.names.get(side) {
        let _ = write!(out, ": {name}");
    }
    if pos.to_move() == side && !over {
        out.push_str(" (to move)");
    }
    let _ = writeln!(out, "  {}", status_line(pos, side, ", ", over, false));
}

#[cfg(test)]
mod tests {
    use super::{board_text, TextOptions};
    use bao_core::{Position, RuleSet};

    #[test]
    fn start_diagram() {
        let text = board_text(
            &Position::start(RuleSet::KISWAHILI),
            &TextOptions::default(),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "North  hand 22, namua, nyumba functional");
        assert_eq!(lines[1], "      8    7    6    5    4    3    2    1");
        assert_eq!(lines[3], " a    .    2    2  [ 6]   .    .    .    .");
        assert_eq!(lines[5], " A    .    .    .    .  [ 6]   2    2    .");
        assert_eq!(lines[7], "      1    2    3    4    5    6    7    8");
    }
}
