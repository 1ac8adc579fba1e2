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

/// `fixtures/analysis/puzzles.jsonl`: each puzzle's verdict, distance and every winning
/// first move (with its own distance) are proven here by plain minimax, and the solver
/// finds the same.
#[test]
fn the_puzzles_are_what_minimax_and_the_solver_say() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/analysis/puzzles.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the puzzles");
    let mut count = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let p: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let name = p["name"].as_str().expect("name");
        let ps: bao_notation::PositionString = p["position"]
            .as_str()
            .expect("position")
            .parse()
            .expect("a position string");
        let pos = Position::from_setup(ps.to_setup(RuleSet::KISWAHILI)).expect("possible");
        let depth = u32::try_from(p["depth"].as_u64().expect("depth")).expect("small");
        let expect_moves: Vec<(String, u32)> = p["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| {
                let n = u32::try_from(m[1].as_u64().expect("plies")).expect("small");
                (m[0].as_str().expect("move").to_owned(), n)
            })
            .collect();
        let expect_plies = p["plies"]
            .as_u64()
            .map(|n| u32::try_from(n).expect("small"));
        // Plain minimax: every first move's shortest win within the depth; the verdict.
        {
            let mut by_minimax = Vec::new();
            for m in pos.legal_moves() {
                let (next, _) = pos.play(&m).expect("legal");
                if let Some(n) = (0..depth).find(|&n| loses(&next, n)) {
                    by_minimax.push((m.to_string(), n + 1));
                }
            }
            assert_eq!(by_minimax, expect_moves, "{name}: minimax");
            match p["result"].as_str().expect("result") {
                "win" => assert!(wins(&pos, depth), "{name}"),
                "loss" => assert!(loses(&pos, depth) && !loses(&pos, depth - 1), "{name}"),
                _ => assert!(!wins(&pos, depth) && !loses(&pos, depth), "{name}"),
            }
        }
        let sol = Solver::new().solve(&pos, depth, true);
        let got: Vec<_> = sol
            .moves
            .iter()
            .map(|w| (w.mv.to_string(), w.plies))
            .collect();
        assert_eq!(got, expect_moves, "{name}: solver");
        assert_eq!(
            sol.verdict.name(),
            p["result"].as_str().expect("result"),
            "{name}"
        );
        assert_eq!(sol.plies, expect_plies, "{name}");
        count += 1;
    }
    assert!(count >= 10);
}
