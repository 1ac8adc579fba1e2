use std::collections::HashMap;

use bao_core::{
    BySide, EndReason, EndlessMove, HouseState, IllegalReason, Move, NeverEnding, Position,
    ResolveError, RuleSet, Setup, Side,
};

/// Mancala World Problem 3 (rules-reference B5.3-19): South to move in namua, hands 11/11,
/// both houses destroyed. Rows list pits 1..8 from the owner's left.
fn problem_3(rules: RuleSet) -> Position {
    let mut s = Setup::start(rules);
    s.to_move = Side::South;
    s.hands = BySide::new(11, 11);
    s.pits = [
        [1, 6, 3, 1, 0, 5, 4, 0], // A
        [2, 1, 0, 5, 0, 3, 0, 1], // B
        [1, 0, 0, 9, 0, 0, 0, 0], // a
        [0; 8],                   // b
    ];
    s.houses = BySide::new(HouseState::Destroyed, HouseState::Destroyed);
    Position::from_setup(s).expect("Problem 3 is a valid position")
}

fn with_policy(policy: &str) -> RuleSet {
    let mut r = RuleSet::KISWAHILI;
    r.set_option("endless_move", policy).unwrap();
    r
}

fn a3_left_takasa() -> Move {
    "A3<*".parse().unwrap()
}

const CYCLE: NeverEnding = NeverEnding {
    cycle_start_lap: 1,
    period: 228,
};

#[test]
fn a3_takasa_is_rejected_by_g11_with_its_cycle() {
    let pos = problem_3(RuleSet::KISWAHILI);
    assert_eq!(RuleSet::KISWAHILI.endless_move, EndlessMove::Illegal);
    let err = pos.play(&a3_left_takasa()).unwrap_err();
    assert_eq!(err.rule(), "G11", "{err}");
    assert_eq!(err.reason.never_ending(), Some(CYCLE));
    assert_eq!(err.mv.to_string(), "A3<*");
    // The cycle from lap 1, every 228 laps, is the reason's data.
    assert_eq!(err.reason, IllegalReason::NeverEnding(CYCLE));
    // diagnose and resolve give the same answer.
    assert_eq!(pos.diagnose(&a3_left_takasa()), err);
    let spec = "A3<*".parse().unwrap();
    assert_eq!(pos.resolve(&spec).unwrap_err(), ResolveError::Illegal(err));
}

/// No capture exists, so `A3<` (or `A3L`) written without `*` is read as the takasa
/// `A3<*`, which never ends: resolving it gives G11 with the cycle, not G6 (issue 14).
#[test]
fn a3_written_without_star_is_read_as_the_takasa_and_rejected_by_g11() {
    let pos = problem_3(RuleSet::KISWAHILI);
    assert!(
        pos.legal_moves().iter().all(|m| m.is_takasa()),
        "no capture exists"
    );
    for text in ["A3<", "A3L"] {
        let spec = text.parse().unwrap();
        let Err(ResolveError::Illegal(err)) = pos.resolve(&spec) else {
            panic!("{text} resolved");
        };
        assert_eq!(err.mv, a3_left_takasa(), "{text}");
        assert_eq!(err.reason, IllegalReason::NeverEnding(CYCLE), "{text}");
    }
    // Without a sign the token is A3>*, the one legal move from A3.
    let spec = "A3".parse().unwrap();
    assert_eq!(pos.resolve(&spec), Ok("A3>*".parse().unwrap()));
}

#[test]
fn a3_takasa_is_not_a_legal_move_under_the_default_policy() {
    let pos = problem_3(RuleSet::KISWAHILI);
    let legal = pos.legal_moves();
    assert!(!legal.contains(&a3_left_takasa()), "{legal:?}");
    assert!(!legal.is_empty());
    assert_eq!(pos.outcome(), None);
    // Every remaining move is a finite takasa.
    for mv in &legal {
        assert!(mv.is_takasa(), "{mv}");
        let (_, trace) = pos.play(mv).unwrap();
        assert_eq!(trace.never_ending, None, "{mv}");
    }
    // random_move never picks it either.
    let mut pick = bao_testkit::Lcg::new(1).picker();
    for _ in 0..200 {
        let (mv, _) = pos.random_move(&mut pick).unwrap();
        assert_ne!(mv, a3_left_takasa());
    }
}

#[test]
fn under_draw_it_is_legal_and_the_game_is_drawn() {
    let pos = problem_3(with_policy("draw"));
    assert!(pos.legal_moves().contains(&a3_left_takasa()));
    let (next, trace) = pos.play(&a3_left_takasa()).unwrap();
    assert_eq!(trace.never_ending, Some(CYCLE));
    let outcome = next.outcome().expect("the game is over");
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.loser(), None);
    assert_eq!(outcome.reason, EndReason::NeverEnding);
    assert_eq!(trace.outcome, Some(outcome));
    // The board is left as it was before the move; the side to move switches (readings 4, 5).
    assert_eq!(next.to_setup().pits, pos.to_setup().pits);
    assert_eq!(next.hand(Side::South), 11);
    assert_eq!(next.to_move(), Side::North);
    assert_eq!(next.total_seeds(), 64);
    assert!(next.legal_moves().is_empty());
    assert_eq!(next.diagnose(&"a4<*".parse().unwrap()).rule(), "E4");
}

#[test]
fn under_mover_loses_north_wins() {
    let pos = problem_3(with_policy("mover_loses"));
    let (next, trace) = pos.play(&a3_left_takasa()).unwrap();
    assert_eq!(trace.never_ending, Some(CYCLE));
    let outcome = next.outcome().expect("the game is over");
    assert_eq!(outcome.winner, Some(Side::North));
    assert_eq!(outcome.reason, EndReason::NeverEnding);
    assert_eq!(next.to_setup().pits, pos.to_setup().pits);
    assert!(next.legal_moves().is_empty());
}

/// An independent model of this one move: a namua takasa with no house and no takasia is a
/// chain of relays on South's ring (front 1..8, back 8..1) that ends when a last seed falls
/// into an empty pit. The state at a lap end is the ring and the pit where the lap ended
/// (the direction never changes in a takasa), so the first repeated state gives the cycle.
#[test]
fn an_independent_relay_model_agrees_on_lap_1_and_period_228() {
    let pos = problem_3(RuleSet::KISWAHILI);
    let s = pos.to_setup();
    let mut ring = [0u8; 16];
    for i in 0..8 {
        ring[i] = s.pits[0][i]; // A1..A8
        ring[15 - i] = s.pits[1][i]; // B1..B8 at 15..8
    }
    ring[2] += 1; // the reserve seed goes into A3
    let mut cur = 2usize;
    let step = 15; // `<` on the front row: anticlockwise
    let mut seen: HashMap<([u8; 16], usize), u64> = HashMap::new();
    for lap in 1..=10_000u64 {
        let mut hand = std::mem::take(&mut ring[cur]);
        while hand > 0 {
            cur = (cur + step) % 16;
            ring[cur] += 1;
            hand -= 1;
            assert!(ring[..8].iter().any(|&n| n > 0), "G10 would apply");
        }
        assert_ne!(ring[cur], 1, "the model says the move ends at lap {lap}");
        if let Some(first) = seen.insert((ring, cur), lap) {
            assert_eq!((first, lap - first), (1, 228));
            return;
        }
    }
    panic!("no cycle within 10000 laps");
}

/// The stress case of rules-reference §5.1: South to move in mtaji, both houses destroyed,
/// hands 0; the takasa `A4>*` never ends, with a cycle from lap 1 of 156,182,288 laps,
/// found exactly (bao-core is built with `opt-level = 3` in the test profile for this).
#[test]
fn section_5_1_stress_case_has_period_156_182_288() {
    let mut s = Setup::start(with_policy("draw"));
    s.pits = [
        [3, 0, 3, 2, 7, 1, 13, 2], // A
        [4, 3, 2, 1, 2, 1, 4, 9],  // B
        [0, 1, 0, 0, 0, 0, 0, 0],  // a
        [1, 1, 2, 0, 0, 1, 0, 1],  // b
    ];
    s.hands = BySide::new(0, 0);
    s.houses = BySide::new(HouseState::Destroyed, HouseState::Destroyed);
    let pos = Position::from_setup(s).expect("valid");
    let (next, trace) = pos
        .play(&"A4>*".parse().unwrap())
        .expect("legal under draw");
    assert_eq!(
        trace.never_ending,
        Some(NeverEnding {
            cycle_start_lap: 1,
            period: 156_182_288,
        })
    );
    assert_eq!(
        next.outcome().map(|o| o.reason),
        Some(EndReason::NeverEnding)
    );
}
