//! The solver against a plain minimax written here from bao-core alone (no table, no
//! ordering, no lap budget): on random late positions of every kind, the verdict, the
//! distance and every winning first move agree.

use bao_analysis::{Solver, Verdict};
use bao_core::{Position, RuleSet};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Plain minimax: the side to move forces a win within `d` plies.
fn wins(pos: &Position, d: u32) -> bool {
    if let Some(o) = pos.outcome() {
        return o.winner == Some(pos.to_move());
    }
    d > 0
        && pos.legal_moves().iter().any(|m| {
            let (next, _) = pos.play(m).expect("legal");
            loses(&next, d - 1)
        })
}

/// Plain minimax: every move of the side to move loses within `d` plies.
fn loses(pos: &Position, d: u32) -> bool {
    if let Some(o) = pos.outcome() {
        return o.winner == Some(pos.to_move().opponent());
    }
    d > 0
        && pos.legal_moves().iter().all(|m| {
            let (next, _) = pos.play(m).expect("legal");
            wins(&next, d - 1)
        })
}

/// Random games played to their end; the positions of their last `tail` plies.
fn late_positions(rules: RuleSet, games: usize, tail: usize, seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(rules);
        let mut seen = vec![pos];
        while seen.len() < 400 {
            if pos.play_random_move(&mut |n| rng.gen_range(0..n)).is_none() {
                break;
            }
            seen.push(pos);
        }
        let from = seen.len().saturating_sub(tail);
        out.extend_from_slice(&seen[from..]);
    }
    out
}

/// Checks the solver against minimax at `depth` on `positions`; returns the verdict counts.
fn agree(positions: &[Position], depth: u32) -> [usize; 4] {
    let mut counts = [0; 4];
    for pos in positions {
        let sol = Solver::new().exact().solve(pos, depth, false);
        let all = Solver::new().exact().solve(pos, depth, true);
        // Each first move's shortest win within the depth, by minimax.
        let mut expect_all = Vec::new();
        if pos.outcome().is_none() {
            for m in pos.legal_moves() {
                let (next, _) = pos.play(&m).expect("legal");
                if let Some(n) = (0..depth).find(|&n| loses(&next, n)) {
                    expect_all.push((m, n + 1));
                }
            }
        }
        let got_all: Vec<_> = all.moves.iter().map(|w| (w.mv, w.plies)).collect();
        assert_eq!(got_all, expect_all, "--all at depth {depth}:\n{pos}");
        let shortest = expect_all.iter().map(|&(_, n)| n).min();
        let expect: Vec<_> = expect_all
            .iter()
            .filter(|&&(_, n)| Some(n) == shortest)
            .copied()
            .collect();
        let got: Vec<_> = sol.moves.iter().map(|w| (w.mv, w.plies)).collect();
        assert_eq!(got, expect, "winning moves at depth {depth}:\n{pos}");
        let over = pos.outcome();
        let verdict = if wins(pos, depth) {
            if over.is_none() {
                assert_eq!(sol.plies, shortest, "{pos}");
            }
            Verdict::Win
        } else if loses(pos, depth) {
            let n = (0..=depth).find(|&n| loses(pos, n));
            assert_eq!(sol.plies, n, "loss distance:\n{pos}");
            Verdict::Loss
        } else if over.is_some() {
            Verdict::Draw
        } else {
            // (No rule set tested here draws a game short of an ended one.)
            Verdict::Unknown
        };
        assert_eq!(sol.verdict, verdict, "verdict at depth {depth}:\n{pos}");
        if verdict == Verdict::Win && over.is_none() {
            assert_eq!(sol.line.first(), sol.moves.first().map(|w| &w.mv), "{pos}");
        }
        counts[verdict as usize] += 1;
    }
    counts
}

#[test]
fn the_solver_agrees_with_minimax_on_thousands_of_late_kiswahili_positions() {
    let positions = late_positions(RuleSet::KISWAHILI, 250, 8, 17);
    assert!(positions.len() >= 1_900, "{}", positions.len());
    let counts = agree(&positions, 3);
    // Both wins and losses occur, and positions where nothing is forced.
    assert!(counts[Verdict::Win as usize] > 100, "{counts:?}");
    assert!(counts[Verdict::Loss as usize] > 50, "{counts:?}");
    assert!(counts[Verdict::Unknown as usize] > 100, "{counts:?}");
}

#[test]
fn the_solver_agrees_with_minimax_at_depth_four_and_in_other_rule_sets() {
    for (i, rules) in [
        RuleSet::KISWAHILI,
        RuleSet::KETE,
        RuleSet::KUJIFUNZA,
        RuleSet::ABSTRACTPLAY,
    ]
    .into_iter()
    .enumerate()
    {
        let positions = late_positions(rules, 25, 6, 100 + i as u64);
        agree(&positions, 4);
    }
}
