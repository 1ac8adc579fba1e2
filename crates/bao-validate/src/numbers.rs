//! `bao::record::move_number_mismatch`: a written move number that is not the number of the
//! ply it stands before.
//!
//! The count is structural (it needs no replay, so it reaches past an illegal move): the
//! main line's plies are counted from 1 from the game's start, a variation's first ply is the
//! ply it replaces (the move written before it) and its count goes on from there. Ply `p`
//! (from 1) of a game whose first mover is South is South's ply of move `F + (p - 1) / 2`
//! when `p` is odd and North's when it is even; when North moves first every ply is shifted
//! by one (ply 1 is North's ply of move `F`, ply 2 South's of move `F + 1`). `F` is 1, except
//! after a `Position` tag (a position string has no move number): there it is the number
//! written before the main line's first move, if one is (spec/notation.md §3).
//!
//! `N.` stands before South's ply of move `N` and `N...` before North's; `N.` before North's
//! ply (PGN writes `N...` there) or `N...` before South's is the same warning.

use bao_core::Side;
use bao_notation::{Game, MoveNumber, PositionString, Spanned};

use crate::codes::Code;
use crate::diagnostic::{CheckDiagnostic, Rewrite};
use crate::words::{side_in, Lang};
use bao_i18n::t;

/// Where a game's count starts: the number of its first move and who plays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Start {
    number: u32,
    side: Side,
}

impl Start {
    /// The game's start, or `None` when a `Position` tag does not read (the side to move is
    /// not known; its own diagnostic says why). `first` is the side to move of the start
    /// position when the replay read it (so the tag is not read twice).
    fn of(game: &Game, first: Option<Side>) -> Option<Self> {
        let Some(tag) = game.tag("Position") else {
            return Some(Self {
                number: 1,
                side: Side::South,
            });
        };
        let side = match first {
            Some(side) => side,
            None => tag.value.parse::<PositionString>().ok()?.to_move,
        };
        let number = game
            .main_line()
            .next()
            .and_then(|m| m.number.as_ref())
            .map_or(1, |n| n.value.number);
        Some(Self { number, side })
    }

    /// The number ply `ply` (counted from 1) stands for.
    fn number_of(self, ply: usize) -> MoveNumber {
        let half = ply - 1 + usize::from(self.side == Side::North);
        let turn = u32::try_from(half / 2).unwrap_or(u32::MAX);
        MoveNumber {
            number: self.number.saturating_add(turn),
            ellipsis: half % 2 == 1,
        }
    }
}

/// The diagnostics of the move numbers of game `n` that disagree with their plies; `first`
/// is the side to move of its start position, if its replay read it.
pub(crate) fn check_numbers(
    lang: Lang,
    game: &Game,
    n: usize,
    first: Option<Side>,
) -> Vec<CheckDiagnostic> {
    let mut out = Vec::new();
    if let Some(start) = Start::of(game, first) {
        game.for_each_move_with_ply(|ply, m| {
            if let Some(written) = &m.number {
                let right = start.number_of(ply);
                if written.value != right {
                    out.push(diagnostic(lang, written, right, ply, n));
                }
            }
        });
    }
    out
}

/// The warning of the number `written` before ply `ply`, whose number is `right`.
fn diagnostic(
    lang: Lang,
    written: &Spanned<MoveNumber>,
    right: MoveNumber,
    ply: usize,
    n: usize,
) -> CheckDiagnostic {
    let side = side_in(
        lang,
        if right.ellipsis {
            Side::North
        } else {
            Side::South
        },
    );
    let mut d = CheckDiagnostic::new(
        Code::MoveNumberMismatch,
        n,
        t!(
            lang,
            "move-number-mismatch",
            written = written.value.to_string(),
            ply = ply,
            side = side,
            number = right.number
        ),
    )
    .primary(
        written.span,
        t!(lang, "move-number-label", right = right.to_string()),
    )
    .help(t!(lang, "move-number-help", right = right.to_string()))
    .at_ply(ply);
    d.rewrite = Some(Rewrite::Renumber { number: right });
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrong(text: &str) -> Vec<(String, String)> {
        let parsed = bao_notation::parse_record(text);
        let game = &parsed.record.games[0].value;
        check_numbers(Lang::En, game, 1, None)
            .into_iter()
            .map(|d| {
                let span = d.span().expect("a span");
                let Some(Rewrite::Renumber { number, .. }) = d.rewrite else {
                    panic!("a renumber");
                };
                (text[span.start..span.end].to_owned(), number.to_string())
            })
            .collect()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    }

    #[test]
    fn the_issue_example_has_two_wrong_numbers() {
        assert_eq!(
            wrong("1. A6L* a6R 3. A4R a6R 7... A5L a3R *\n"),
            pairs(&[("3.", "2."), ("7...", "3.")])
        );
    }

    #[test]
    fn right_numbers_and_missing_ones_are_fine() {
        assert!(wrong("1. A6<* a6<* 2. A4< 2... a6< A5< 3... a3< *\n").is_empty());
        assert!(wrong("A6<* a6<* A4< { x } 2... a6< *\n").is_empty());
    }

    #[test]
    fn a_number_with_the_wrong_dots_is_wrong() {
        assert_eq!(
            wrong("1. A6<* 1. a6<* 2... A4< *\n"),
            pairs(&[("1.", "1..."), ("2...", "2.")])
        );
    }

    #[test]
    fn variations_continue_their_branch_points_count() {
        assert!(wrong("1. A6<* a6<* 2. A4< (2. A5< a5<) (2. A3<) a6< *\n").is_empty());
        assert!(wrong("1. A6<* a6<* (1... a5<* 2. A4<) 2. A4< *\n").is_empty());
        assert_eq!(
            wrong("1. A6<* a6<* (2... a5<*) *\n"),
            pairs(&[("2...", "1...")])
        );
    }

    #[test]
    fn a_position_tag_gives_the_first_mover_and_number() {
        let north = "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 N FF -";
        let text = format!("[Position \"{north}\"]\n\n12... a6<* 13. A6<* a5<* *\n");
        assert!(wrong(&text).is_empty());
        let text = format!("[Position \"{north}\"]\n\n12. a6<* 13. A6<* 13... a5<* *\n");
        assert_eq!(wrong(&text), pairs(&[("12.", "12...")]));
        let text = format!("[Position \"{north}\"]\n\na6<* 5. A6<* *\n");
        assert_eq!(wrong(&text), pairs(&[("5.", "2.")]));
    }

    #[test]
    fn without_a_position_tag_the_count_starts_at_one() {
        assert_eq!(
            wrong("12. A6<* a6<* 13. A4< *\n"),
            pairs(&[("12.", "1."), ("13.", "2.")])
        );
    }
}
