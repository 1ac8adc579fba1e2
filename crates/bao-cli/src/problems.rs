//! The problems of records (`[Problem "win in N"]`, spec/notation.md §5), each proven by the
//! solver before it is printed: the sheets of `bao export pdf --problems` and `bao export
//! svg|png --problems`. A tag the solver does not prove is reported with its place and left
//! off the sheet.

use std::fmt::Write as _;

use bao_analysis::{Solver, Verdict};
use bao_core::{Position, Side};
use bao_export::SheetProblem;
use bao_validate::Checked;

/// The most moves a problem may ask for (the solver's horizon is `2N - 1` plies).
pub(crate) const MAX_MOVES: u32 = 16;

/// Reads a `Problem` tag: `win in N` (any case and spacing), N from 1 to [`MAX_MOVES`].
pub(crate) fn win_in(value: &str) -> Option<u32> {
    let words: Vec<String> = value
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    match words.as_slice() {
        [w, i, n] if w == "win" && i == "in" => {
            n.parse().ok().filter(|n| (1..=MAX_MOVES).contains(n))
        }
        _ => None,
    }
}

/// Line and column (from 1, in characters) of a byte offset.
fn line_col(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = &bytes[..at.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let col = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
    (line, col)
}

/// Every problem of the records (name, text, checked record) the solver proves, in order;
/// `false` when some tag was not proven (each reported on stderr).
pub(crate) fn proven(records: &[(String, Vec<u8>, Checked)]) -> (Vec<SheetProblem>, bool) {
    let mut out = Vec::new();
    let mut all = true;
    for (name, bytes, checked) in records {
        for (i, game) in checked.record.games.iter().enumerate() {
            let Some(tag) = game.value.tag("Problem") else {
                continue;
            };
            let (line, col) = line_col(bytes, tag.span.start);
            let at = format!("{name}:{line}:{col}: game {}", i + 1);
            let Some(n) = win_in(&tag.value) else {
                eprintln!(
                    "bao: {at}: `[Problem \"{}\"]` is no problem: write `win in N`, N the moves \
                     of the side to move (1 to {MAX_MOVES}); left off the sheet",
                    tag.value
                );
                all = false;
                continue;
            };
            let Some(opening) = checked.replayed.get(i).and_then(|r| r.opening()) else {
                eprintln!("bao: {at}: the start cannot be set up; left off the sheet");
                all = false;
                continue;
            };
            let start = opening.start;
            let horizon = 2 * n - 1;
            let sol = Solver::new().solve(&start, horizon, false);
            let moves = |p: u32| p.div_ceil(2);
            match (sol.verdict, sol.plies) {
                (Verdict::Win, Some(p)) if moves(p) == n => {
                    let source = ["Event", "Source"]
                        .iter()
                        .filter_map(|t| game.value.tag(t))
                        .map(|t| t.value.trim().to_owned())
                        .filter(|t| !t.is_empty() && t != "?")
                        .collect::<Vec<_>>()
                        .join(" · ");
                    out.push(SheetProblem {
                        position: start,
                        moves: n,
                        source,
                        solution: solution_text(&start, &sol),
                    });
                }
                (Verdict::Win, Some(p)) => {
                    eprintln!(
                        "bao: {at}: `[Problem \"{}\"]` is not the shortest win: the solver \
                         proves a win in {} move{}; left off the sheet",
                        tag.value,
                        moves(p),
                        if moves(p) == 1 { "" } else { "s" }
                    );
                    all = false;
                }
                (verdict, _) => {
                    eprintln!(
                        "bao: {at}: `[Problem \"{}\"]` is not proven: within {horizon} pl{} \
                         the solver finds {}; left off the sheet",
                        tag.value,
                        if horizon == 1 { "y" } else { "ies" },
                        match verdict {
                            Verdict::Loss => "a loss for the side to move",
                            Verdict::Draw => "a draw",
                            _ => "no forced win",
                        }
                    );
                    all = false;
                }
            }
        }
    }
    (out, all)
}

/// The solver's line as numbered moves, and the other first moves that win as quickly.
fn solution_text(start: &Position, sol: &bao_analysis::Solution) -> String {
    let mut text = String::new();
    let mut pos = *start;
    let mut number = 1;
    for (i, mv) in sol.line.iter().enumerate() {
        let side = pos.to_move();
        match side {
            Side::South => {
                let _ = write!(text, "{number}. ");
            }
            Side::North if i == 0 => {
                let _ = write!(text, "{number}... ");
            }
            Side::North => {}
        }
        let _ = write!(text, "{mv} ");
        if side == Side::North {
            number += 1;
        }
        match pos.play(mv) {
            Ok((next, _)) => pos = next,
            Err(_) => break,
        }
    }
    let mut text = text.trim_end().to_owned();
    let others: Vec<String> = sol
        .moves
        .iter()
        .map(|w| w.mv.to_string())
        .filter(|m| sol.line.first().is_none_or(|f| f.to_string() != *m))
        .collect();
    if !others.is_empty() {
        let _ = write!(text, " (as quick: {})", others.join(", "));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::{line_col, win_in};

    #[test]
    fn reads_the_tag() {
        assert_eq!(win_in("win in 3"), Some(3));
        assert_eq!(win_in("  Win  In 2 "), Some(2));
        assert_eq!(win_in("win in 0"), None);
        assert_eq!(win_in("win in 17"), None);
        assert_eq!(win_in("mate in 2"), None);
        assert_eq!(win_in("win in"), None);
        assert_eq!(line_col(b"ab\ncd", 4), (2, 2));
    }
}
