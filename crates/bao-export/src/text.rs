//! Plain-text board diagrams for terminals and record comments.

use std::fmt::Write as _;

use bao_core::{BySide, HouseState, Pit, Position, Side};

use crate::layout::{
    number_at, outcome_text, pit_at, rows_top_to_bottom, side_title, status_line, viewer,
};

/// Options of [`board_text`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextOptions {
    /// North's rows at the bottom.
    pub flip: bool,
    /// Row letters and pit numbers.
    pub coordinates: bool,
    /// Player names, shown beside "South" and "North".
    pub names: BySide<Option<String>>,
}

impl Default for TextOptions {
    fn default() -> Self {
        Self {
            flip: false,
            coordinates: true,
            names: BySide::new(None, None),
        }
    }
}

/// Draws a position as plain ASCII text, one line per row, as
/// seen by South (or by North with `flip`).
///
/// Empty pits are `.`; the house is `[n]` while it works and `(n)` while dormant (a destroyed
/// house is an ordinary pit); a takasia'd pit carries `!`. Each side's line shows its hand,
/// stage and house, and the side to move is marked; a legend explains the marks used.
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
                cell(&mut out, pos, pit, &mut marks);
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
    if !legend.is_empty() {
        let _ = writeln!(out, "{}", legend.join("   "));
    }
    out
}

#[derive(Default)]
struct Marks {
    house: bool,
    dormant: bool,
    takasia: bool,
}

/// One pit: five columns: the house bracket, the count right-aligned in two, the bracket, the
/// takasia mark.
fn cell(out: &mut String, pos: &Position, pit: Pit, marks: &mut Marks) {
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
    let blocked = pos.blocked_pit(pit.side()) == Some(pit);
    marks.takasia |= blocked;
    let (close, mark) = match (blocked, close) {
        (true, ' ') => ('!', ' '),
        (true, c) => (c, '!'),
        (false, c) => (c, ' '),
    };
    out.push(open);
    if n == 0 {
        out.push_str(" .");
    } else {
        let _ = write!(out, "{n:>2}");
    }
    out.push(close);
    out.push(mark);
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
