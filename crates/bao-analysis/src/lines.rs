//! What a player or a teacher asks of the search beyond its best move: several best lines
//! (`MultiPV`), a weaker level for club players to practise against, and the time a move may
//! take on a clock.

use std::time::Duration;

use bao_core::{Move, Position};

use crate::key::zobrist;
use crate::search::{Limits, Report, Score, Searcher};

/// The most lines [`search_lines`] gives (more are as many as the position has moves).
pub const MAX_LINES: usize = 64;

/// The strongest level: the searcher's own choice, no limit of its own.
pub const FULL_STRENGTH: u8 = 20;

/// The `n` best lines of `pos` (`MultiPV`): line 1 is the search's best line; line `k` the
/// best line among the moves that are not the first move of an earlier line, searched with
/// the same limits, so that their scores compare. A depth or node limit holds for each line;
/// a time limit is shared out between the lines. Fewer lines when the position has fewer
/// moves; none when the game is over. `on_iteration` is called with the line's number (from
/// 1) after each finished depth of that line.
pub fn search_lines(
    searcher: &mut Searcher,
    pos: &Position,
    limits: Limits,
    n: usize,
    mut on_iteration: impl FnMut(usize, &Report),
) -> Vec<Report> {
    let n = n.clamp(1, MAX_LINES);
    let mut each = limits;
    if n > 1 {
        if let Some(t) = limits.movetime {
            each.movetime = Some(t / u32::try_from(n).unwrap_or(u32::MAX));
        }
    }
    let first = searcher.search(pos, each, |r| on_iteration(1, r));
    let Some(best) = first.best() else {
        return vec![first];
    };
    let mut lines = vec![first];
    if n == 1 {
        return lines;
    }
    let mut left: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| *m != best)
        .collect();
    for k in 2..=n {
        // A search stopped from outside (`stop`) gives the lines it has.
        if left.is_empty()
            || searcher
                .stop_flag()
                .load(std::sync::atomic::Ordering::Relaxed)
        {
            break;
        }
        let report = searcher.search_among(pos, each, Some(&left), |r| on_iteration(k, r));
        let Some(mv) = report.best() else { break };
        left.retain(|m| *m != mv);
        lines.push(report);
    }
    lines
}

/// The depth a level searches to (levels below [`FULL_STRENGTH`]): 1 at level 1, 10 at
/// level 19.
#[must_use]
pub fn level_depth(level: u8) -> u32 {
    u32::from(level.clamp(1, FULL_STRENGTH - 1)).div_ceil(2)
}

/// How far below the best score (centi-seeds) a move may be and still be chosen at a level:
/// 380 at level 1 (almost four seeds), 20 at level 19.
#[must_use]
pub fn level_margin(level: u8) -> i32 {
    i32::from(FULL_STRENGTH - level.clamp(1, FULL_STRENGTH)) * 20
}

/// The move a player of `level` (1 to 20) chooses in `pos`, with the line it was searched
/// with. Level 20 is the searcher's best move within `limits`. Below it the search goes at
/// most [`level_depth`] plies deep and every move is scored ([`search_lines`]); the move is
/// drawn among those within [`level_margin`] of the best, the better ones more likely, by a
/// generator seeded with the position and the level (the same position at the same level
/// gets the same move). A move that loses by force is never drawn where another does not,
/// and a forced win is always taken: the imperfection is a club player's, not a random
/// mover's. `None` when the game is over.
pub fn choose_at_level(
    searcher: &mut Searcher,
    pos: &Position,
    limits: Limits,
    level: u8,
) -> Option<Report> {
    let level = level.clamp(1, FULL_STRENGTH);
    if level == FULL_STRENGTH {
        let r = searcher.search(pos, limits, |_| {});
        return r.best().map(|_| r);
    }
    let depth = level_depth(level);
    let capped = Limits {
        depth: Some(limits.depth.map_or(depth, |d| d.min(depth))),
        ..limits
    };
    let mut lines = search_lines(searcher, pos, capped, MAX_LINES, |_, _| {});
    lines.retain(|r| r.best().is_some());
    let best = lines.first()?.score;
    if matches!(best, Score::Win(_)) {
        return lines.into_iter().next();
    }
    let floor = best.rank() - i64::from(level_margin(level));
    let candidates: Vec<Report> = lines
        .into_iter()
        .filter(|r| !matches!(r.score, Score::Loss(_)) || matches!(best, Score::Loss(_)))
        .filter(|r| r.score.rank() >= floor)
        .collect();
    // Weights: the best move counts most, the last within the margin least.
    let weight = |r: &Report| u64::try_from(r.score.rank() - floor + 1).unwrap_or(1);
    let total: u64 = candidates.iter().map(weight).sum();
    let mut draw = mix(zobrist(pos) ^ u64::from(level)) % total.max(1);
    for r in &candidates {
        let w = weight(r);
        if draw < w {
            return Some(r.clone());
        }
        draw -= w;
    }
    candidates.into_iter().next()
}

/// A 64-bit mixer (splitmix64's finaliser): a seed to a well-spread draw.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The time to think about one move on a clock: the mover's `remaining` time and
/// `increment` a move, and `moves_to_go` until the next time control (`None`: the rest of
/// the game). A share of what is left (a thirtieth, or the moves to go, plus three quarters
/// of the increment), never more than a third of it, less a 5% margin for the time the
/// answer takes to reach the clock; at least a millisecond.
///
/// ```
/// use std::time::Duration;
/// use bao_analysis::time_for_move;
///
/// let t = time_for_move(Duration::from_secs(300), Duration::from_secs(2), None);
/// assert_eq!(t, Duration::from_millis(10_925)); // (10 s + 1.5 s) less 5%
/// ```
#[must_use]
pub fn time_for_move(
    remaining: Duration,
    increment: Duration,
    moves_to_go: Option<u32>,
) -> Duration {
    let moves = moves_to_go.unwrap_or(30).max(1);
    let share = remaining / moves + increment * 3 / 4;
    let t = share.min(remaining / 3);
    (t * 19 / 20).max(Duration::from_millis(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_core::RuleSet;

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    #[test]
    fn lines_start_with_different_moves_and_the_first_is_the_search() {
        let start = Position::start(RuleSet::KISWAHILI);
        let mut s = Searcher::new(16);
        let best = s.search(&start, depth(3), |_| {});
        let lines = search_lines(&mut Searcher::new(16), &start, depth(3), 4, |_, _| {});
        assert_eq!(lines.len(), 4.min(start.legal_moves().len()));
        assert_eq!(lines[0].best(), best.best());
        let mut firsts: Vec<Move> = lines.iter().filter_map(Report::best).collect();
        firsts.dedup();
        assert_eq!(firsts.len(), lines.len());
        // Each line's score is no better than the one before it.
        assert!(lines
            .windows(2)
            .all(|w| w[0].score.rank() >= w[1].score.rank()));
    }

    #[test]
    fn more_lines_than_moves_gives_every_move() {
        let start = Position::start(RuleSet::KISWAHILI);
        let n = start.legal_moves().len();
        let lines = search_lines(&mut Searcher::new(16), &start, depth(2), 60, |_, _| {});
        assert_eq!(lines.len(), n);
    }

    #[test]
    fn levels_play_legal_moves_and_the_low_ones_differ_from_the_best() {
        let mut pos = Position::start(RuleSet::KISWAHILI);
        let (mut differ, mut plies) = (0, 0);
        while pos.outcome().is_none() && plies < 24 {
            let strong = choose_at_level(&mut Searcher::new(16), &pos, depth(4), 20).unwrap();
            let weak = choose_at_level(&mut Searcher::new(16), &pos, depth(4), 1).unwrap();
            let again = choose_at_level(&mut Searcher::new(16), &pos, depth(4), 1).unwrap();
            assert_eq!(
                weak.best(),
                again.best(),
                "the same move for the same position"
            );
            let mv = weak.best().unwrap();
            assert!(pos.legal_moves().contains(&mv));
            differ += usize::from(strong.best() != weak.best());
            pos = pos.play(&mv).unwrap().0;
            plies += 1;
        }
        assert!(
            differ > 0,
            "level 1 played the best move in all {plies} plies"
        );
    }

    #[test]
    fn levels_deepen_and_narrow_as_they_rise() {
        assert_eq!((level_depth(1), level_depth(19)), (1, 10));
        assert_eq!(
            (level_margin(1), level_margin(19), level_margin(20)),
            (380, 20, 0)
        );
    }

    #[test]
    fn a_clock_gives_a_share_of_what_is_left() {
        let s = Duration::from_secs;
        assert_eq!(time_for_move(s(60), s(0), Some(1)), s(20) * 19 / 20);
        assert_eq!(time_for_move(s(60), s(0), Some(10)), s(6) * 19 / 20);
        assert_eq!(
            time_for_move(Duration::ZERO, s(0), None),
            Duration::from_millis(1)
        );
        // Never more than a third of what is left, whatever the increment.
        assert!(time_for_move(s(3), s(10), None) <= s(1));
    }
}
