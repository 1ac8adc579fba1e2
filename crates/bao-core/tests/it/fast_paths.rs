//! The fast paths agree with the slow reference: `is_legal` and `play_into` (which decide
//! a move's legality without generating every legal move) against membership in
//! `legal_moves`, and `play_into`, with one trace reused for every move (its end test
//! completed by `outcome`), against `play_unchecked` and `play`, for every move shape in
//! every position of random games under every preset and a few option variants.

use bao_testkit::Lcg;

use bao_core::{
    Move, MoveKind, MoveTrace, Pit, Position, RuleSet, Setup, Side, Sign, Stage, PRESET_NAMES,
};

/// Every move: 32 pits, two signs, plain, safari or takasa.
fn every_move() -> Vec<Move> {
    let mut out = Vec::new();
    for pit in Pit::all() {
        for sign in [Sign::Left, Sign::Right] {
            for kind in MoveKind::ALL {
                out.push(Move::new(pit, sign, kind));
            }
        }
    }
    out
}

/// A small deterministic generator.
fn lcg(seed: u64) -> impl FnMut(usize) -> usize {
    Lcg::new(seed).picker()
}

fn rule_sets() -> Vec<RuleSet> {
    let mut out: Vec<RuleSet> = PRESET_NAMES
        .iter()
        .map(|n| RuleSet::preset(n).expect("preset"))
        .collect();
    for (preset, name, value) in [
        ("kiswahili", "mtaji_takasa_house", "relay"),
        ("kiswahili", "endless_move", "cap:800"),
        ("kete", "endless_move", "draw"),
    ] {
        let mut r = RuleSet::preset(preset).expect("preset");
        r.set_option(name, value).expect("option");
        out.push(r);
    }
    out
}

/// Checks every move shape in `pos`; returns how many were legal. `scratch` is the trace
/// reused from move to move (it holds the previous run's laps, captures and events).
fn check_position(pos: &Position, moves: &[Move], scratch: &mut MoveTrace) -> usize {
    let legal = pos.legal_moves();
    for mv in moves {
        let want = legal.contains(mv);
        assert_eq!(pos.is_legal(mv), want, "is_legal({mv}) in\n{pos}");
        match pos.play_into(mv, scratch) {
            Some(n3) => {
                assert!(want, "play_into played illegal {mv} in\n{pos}");
                let (n2, t2) = pos.play_unchecked(mv);
                assert_eq!(n3, n2, "{mv} in\n{pos}");
                let mut t3 = scratch.clone();
                if t3.outcome.is_none() {
                    // Only the no-legal-move test was left out.
                    t3.outcome = n3.outcome();
                }
                assert_eq!(t3, t2, "{mv} in\n{pos}");
                assert_eq!(
                    pos.play(mv).ok().map(|(n, t)| (n, t.into_trace())),
                    Some((n2, t2)),
                    "{mv} in\n{pos}"
                );
            }
            None => {
                assert!(!want, "play_into refused legal {mv} in\n{pos}");
                assert!(pos.play(mv).is_err(), "{mv} in\n{pos}");
            }
        }
    }
    legal.len()
}

#[test]
fn fast_legality_agrees_with_legal_moves() {
    let moves = every_move();
    let mut positions = 0;
    let mut legal_seen = 0;
    let mut scratch = MoveTrace::new(moves[0], Side::South, Stage::Namua);
    for (k, rules) in rule_sets().into_iter().enumerate() {
        for game in 0..8u64 {
            let mut pick = lcg(1000 * k as u64 + game);
            let mut pos = Position::start(rules);
            loop {
                positions += 1;
                legal_seen += check_position(&pos, &moves, &mut scratch);
                match pos.random_move(&mut pick) {
                    Some((mv, next)) => {
                        assert!(pos.is_legal(&mv), "random_move gave illegal {mv}\n{pos}");
                        assert_eq!(next, pos.play_fast(&mv), "{mv} in\n{pos}");
                        pos = next;
                    }
                    None => {
                        assert!(pos.legal_moves().is_empty() || pos.outcome().is_some());
                        break;
                    }
                }
            }
        }
    }
    assert!(positions > 2000, "only {positions} positions");
    assert!(legal_seen > positions, "{legal_seen} legal moves seen");
}

#[test]
fn start_positions_are_those_of_the_setups() {
    for rules in rule_sets() {
        let checked = Position::from_setup(Setup::start(rules)).expect("valid start");
        assert_eq!(Position::start(rules), checked, "{rules:?}");
    }
}

#[test]
fn a_random_move_played_in_place_is_the_random_move() {
    let mut plies = 0;
    for (k, rules) in rule_sets().into_iter().enumerate() {
        for game in 0..6u64 {
            let seed = 7_000 + 100 * k as u64 + game;
            let (mut copied, mut in_place) = (lcg(seed), lcg(seed));
            let mut pos = Position::start(rules);
            let mut played = pos;
            loop {
                let expected = pos.random_move(&mut copied);
                let before = played;
                let got = played.play_random_move(&mut in_place);
                match expected {
                    Some((mv, next)) => {
                        assert_eq!(got, Some(mv), "in\n{pos}");
                        assert_eq!(played, next, "{mv} in\n{pos}");
                        pos = next;
                        plies += 1;
                    }
                    None => {
                        assert_eq!(got, None, "in\n{pos}");
                        assert_eq!(played, before, "a finished game is left as it was");
                        break;
                    }
                }
            }
        }
    }
    assert!(plies > 1000, "only {plies} plies");
}
