use bao_core::json::PositionJson;
use bao_core::{
    BySide, EndReason, Event, HouseState, LapEnd, Move, MoveTrace, Pit, Position, RuleSet, Setup,
    Side,
};

fn mv(s: &str) -> Move {
    s.parse().expect("move")
}

/// Moves as their sorted strings.
fn names(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(ToString::to_string).collect();
    v.sort();
    v
}

fn pit(s: &str) -> Pit {
    s.parse().expect("pit")
}

fn rules(preset: &str, options: &[(&str, &str)]) -> RuleSet {
    let mut r = RuleSet::preset(preset).expect("preset");
    for (name, value) in options {
        r.set_option(name, value).expect("option");
    }
    r
}

/// A position from its rows (`A`, `B`, `a`, `b`, pits 1..8 from the owner's left).
fn position(
    rules: RuleSet,
    to_move: Side,
    hands: (u8, u8),
    pits: [[u8; 8]; 4],
    houses: (HouseState, HouseState),
    blocked: &[&str],
) -> Position {
    let mut s = Setup::start(rules);
    s.to_move = to_move;
    s.hands = BySide::new(hands.0, hands.1);
    s.pits = pits;
    s.houses = BySide::new(houses.0, houses.1);
    for b in blocked {
        let p = pit(b);
        *s.blocked.get_mut(p.side()) = Some(p);
    }
    Position::from_setup(s).expect("a valid position")
}

/// A small deterministic generator for `random_move`.
fn lcg(seed: u64) -> impl FnMut(usize) -> usize {
    bao_testkit::Lcg::new(seed).picker()
}

/// The position after `m` by every way of playing it, which must agree: `play`,
/// `play_unchecked`, `play_fast`, `play_into` (its end test completed by `outcome`), and, with `random`, `random_move` and `play_random_move` once they draw `m`.
fn after_every_path(pos: &Position, m: Move, random: bool) -> Position {
    let (next, trace) = pos.play(&m).expect("legal");
    let (n2, t2) = pos.play_unchecked(&m);
    assert_eq!((n2, &t2), (next, &*trace), "play_unchecked {m}");
    assert_eq!(pos.play_fast(&m), next, "play_fast {m}");
    let mut t3 = MoveTrace::new(m, pos.to_move(), pos.stage());
    let n3 = pos.play_into(&m, &mut t3).expect("legal");
    assert_eq!(n3, next, "play_into {m}");
    assert_eq!(t3.outcome.or_else(|| n3.outcome()), trace.outcome);
    t3.outcome = trace.outcome;
    assert_eq!(t3, trace, "play_into {m}");
    assert_eq!(trace.outcome, next.outcome());
    if random {
        let drawn = (0..200).any(|seed| {
            let (rm, rnext) = pos.random_move(&mut lcg(seed)).expect("a move");
            let mut inplace = *pos;
            assert_eq!(inplace.play_random_move(&mut lcg(seed)), Some(rm));
            assert_eq!(inplace, rnext, "play_random_move {rm}");
            rm == m && {
                assert_eq!(rnext, next, "random_move {m}");
                true
            }
        });
        assert!(drawn, "random_move never drew {m}");
    }
    next
}

/// No takasia or priority pit anywhere in `pos`, also in its position JSON.
fn assert_no_takasia(pos: &Position) {
    assert_eq!(pos.takasia(), None, "\n{pos}");
    assert_eq!(pos.blocked_pit(Side::South), None);
    assert_eq!(pos.blocked_pit(Side::North), None);
    assert_eq!(PositionJson::from_position(pos).takasia, None);
    assert_eq!(pos.to_setup().blocked, BySide::new(None, None));
}

/// The position: South to move in mtaji, North still in namua with 5 seeds.
fn north_in_namua() -> Position {
    position(
        RuleSet::KISWAHILI,
        Side::South,
        (0, 5),
        [
            [0, 0, 3, 2, 0, 0, 1, 0],
            [0; 8],
            [0, 2, 0, 0, 0, 2, 0, 0],
            [13, 18, 18, 0, 0, 0, 0, 0],
        ],
        (HouseState::Destroyed, HouseState::Destroyed),
        &[],
    )
}

/// T1, A.4.6: a takasa reserves no pit of a victim still in namua (his hand not empty),
/// however his captures would look under mtaji rules; every next position is valid (P1)
/// and the victim's capture from a2 is legal.
#[test]
fn t1_no_takasia_while_the_victim_is_in_namua() {
    let pos = north_in_namua();
    let legal = pos.legal_moves();
    assert_eq!(names(&legal), ["A3<*", "A3>*", "A4<*", "A4>*"]);
    for &m in &legal {
        let next = after_every_path(&pos, m, true);
        let (_, trace) = pos.play(&m).expect("legal");
        assert_eq!(trace.takasia_set(), None, "{m}");
        assert_no_takasia(&next);
        Position::from_setup(next.to_setup()).expect("P1 holds after the move");
    }
    let (next, _) = pos.play(&mv("A3>*")).expect("legal");
    let captures: Vec<Move> = next
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_capture())
        .collect();
    assert!(captures.contains(&mv("a2<")), "{captures:?}\n{next}");
}

/// The same board with North's 5 seeds on his back row (b1) instead of in hand: North is in
/// mtaji, cannot capture, and A3>* does reserve a2 (T1 still applies when both are in mtaji).
#[test]
fn t1_the_same_takasa_reserves_a2_when_the_victim_is_in_mtaji() {
    let pos = position(
        RuleSet::KISWAHILI,
        Side::South,
        (0, 0),
        [
            [0, 0, 3, 2, 0, 0, 1, 0],
            [0; 8],
            [0, 2, 0, 0, 0, 2, 0, 0],
            [18, 18, 18, 0, 0, 0, 0, 0],
        ],
        (HouseState::Destroyed, HouseState::Destroyed),
        &[],
    );
    let (next, trace) = pos.play(&mv("A3>*")).expect("legal");
    assert_eq!(trace.takasia_set(), Some(pit("a2")));
    assert_eq!(next.takasia(), Some(pit("a2")));
    assert!(!next.legal_moves().iter().any(|m| m.pit == pit("a2")));
}

/// T3, G4, A.4.7: the takasia stop comes before the house rules. South's dormant house A5
/// (5 seeds) is takasia'd; A3>* ends its lap there, making it functional (6): the move stops
/// by the takasia, also where a functional house would relay (`mtaji_takasa_house=relay`).
#[test]
fn t3_the_takasia_stop_comes_before_the_house_rules() {
    for options in [&[][..], &[("mtaji_takasa_house", "relay")][..]] {
        let pos = position(
            rules("kiswahili", options),
            Side::South,
            (0, 0),
            [
                [0, 0, 2, 0, 5, 0, 0, 0],
                [0; 8],
                [2, 0, 0, 0, 0, 0, 0, 0],
                [7, 7, 7, 7, 7, 7, 7, 6],
            ],
            (HouseState::Dormant, HouseState::Destroyed),
            &["A5"],
        );
        assert_eq!(pos.house_state(Side::South), HouseState::Dormant);
        let (next, trace) = pos.play(&mv("A3>*")).expect("legal");
        assert_eq!(trace.laps.len(), 1, "{options:?}: {:?}", trace.laps);
        assert_eq!(trace.laps[0].ended, LapEnd::TakasiaStop, "{options:?}");
        assert!(trace
            .events
            .contains(&Event::TakasiaStop { pit: pit("A5") }));
        assert!(!trace.events.contains(&Event::HouseStop));
        assert_eq!(next.get(pit("A5")), 6);
        assert_eq!(next.house_state(Side::South), HouseState::Functional);
        assert_eq!(next.to_setup().pits[0], [0, 0, 0, 1, 6, 0, 0, 0]);
    }
}

/// Capture priority without the Kete house rules (Kiswahili with `capture_priority`).
fn with_priority(extra: &[(&str, &str)]) -> RuleSet {
    let mut options = vec![("capture_priority", "true")];
    options.extend_from_slice(extra);
    rules("kiswahili", &options)
}

/// E1 with a takasia: South, whose A7 is takasia'd (the pit North must capture next under
/// priority), captures North's only front seeds (A3<, taking a8): bao hamna, and no
/// priority pit is left in the final position.
#[test]
fn end_by_bao_hamna_leaves_no_priority_pit() {
    let pos = position(
        with_priority(&[]),
        Side::South,
        (0, 0),
        [
            [1, 0, 2, 0, 0, 0, 2, 0],
            [0; 8],
            [0, 0, 0, 0, 0, 0, 0, 1],
            [8, 8, 7, 7, 7, 7, 7, 7],
        ],
        (HouseState::Destroyed, HouseState::Destroyed),
        &["A7"],
    );
    let captures: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_capture())
        .collect();
    assert_eq!(captures, [mv("A3<")]);
    let next = after_every_path(&pos, mv("A3<"), true);
    let outcome = next.outcome().expect("over");
    assert_eq!(outcome.reason, EndReason::BaoHamna);
    assert_eq!(outcome.winner, Some(Side::South));
    assert_no_takasia(&next);
}

/// E2 with a takasia: South (A7 takasia'd) plays a takasa after which North holds single
/// seeds only: North has no legal move, and no pit is left recorded.
#[test]
fn end_by_no_legal_move_leaves_no_priority_pit() {
    let pos = position(
        with_priority(&[]),
        Side::South,
        (0, 0),
        [
            [0, 0, 2, 0, 0, 0, 2, 0],
            [8, 8, 8, 8, 8, 8, 8, 3],
            [1, 0, 0, 0, 0, 0, 0, 0],
            [0; 8],
        ],
        (HouseState::Destroyed, HouseState::Destroyed),
        &["A7"],
    );
    // A7 is takasia'd, no capture, the back row is closed (M4).
    assert_eq!(names(&pos.legal_moves()), ["A3<*", "A3>*"]);
    for m in [mv("A3<*"), mv("A3>*")] {
        let next = after_every_path(&pos, m, true);
        let outcome = next.outcome().expect("over");
        assert_eq!(outcome.reason, EndReason::NoLegalMove, "{m}");
        assert_eq!(outcome.winner, Some(Side::South));
        assert!(next.legal_moves().is_empty());
        assert_no_takasia(&next);
        // North has no legal move with or without the pit: nothing is recorded beyond the
        // board, which reads back into the same position.
        assert_eq!(Position::from_setup(next.to_setup()).ok(), Some(next));
    }
}

/// A never-ending move under `draw` with a priority pit recorded: Problem 3's relay (cycle
/// from lap 1, period 228) played in mtaji (A3 holds the placed seed already, hands empty).
#[test]
fn end_by_a_never_ending_move_leaves_no_priority_pit() {
    let pos = position(
        with_priority(&[("endless_move", "draw")]),
        Side::South,
        (0, 0),
        [
            [1, 6, 4, 1, 0, 5, 4, 0],
            [2, 1, 0, 5, 0, 3, 0, 1],
            [1, 0, 0, 9, 0, 0, 0, 0],
            [21, 0, 0, 0, 0, 0, 0, 0],
        ],
        (HouseState::Destroyed, HouseState::Destroyed),
        &["a4"],
    );
    let (next, trace) = pos.play(&mv("A3<*")).expect("legal under draw");
    let ne = trace.never_ending.expect("never-ending");
    assert_eq!((ne.cycle_start_lap, ne.period), (1, 228));
    let outcome = next.outcome().expect("over");
    assert_eq!(
        (outcome.reason, outcome.winner),
        (EndReason::NeverEnding, None)
    );
    assert_eq!(after_every_path(&pos, mv("A3<*"), false), next);
    assert_no_takasia(&next);
}

/// K3, A.4.11: the kuu rule lapses when neither direction from the kuu is legal. Here the
/// kuu (a dormant house of 3, under Kiswahili with `first_takata_from_kuu`) is South's
/// takasia'd pit (T3): the takata starts elsewhere, and not from the kuu.
#[test]
fn k3_lapses_when_no_kuu_takata_is_legal() {
    let k3 = rules("kiswahili", &[("first_takata_from_kuu", "true")]);
    let board = [
        [0, 2, 0, 0, 3, 0, 0, 0],
        [0; 8],
        [1, 0, 0, 0, 0, 0, 0, 0],
        [16, 16, 16, 10, 0, 0, 0, 0],
    ];
    let houses = (HouseState::Dormant, HouseState::Destroyed);
    let free = position(k3, Side::South, (0, 0), board, houses, &[]);
    assert_eq!(names(&free.legal_moves()), ["A5<*", "A5>*"], "K3 applies");
    let blocked = position(k3, Side::South, (0, 0), board, houses, &["A5"]);
    let legal = blocked.legal_moves();
    assert_eq!(names(&legal), ["A2<*", "A2>*"], "K3 lapses");
    for m in [mv("A5<*"), mv("A5>*")] {
        assert!(!blocked.is_legal(&m), "{m}");
        assert!(blocked.play(&m).is_err(), "{m}");
    }
    for &m in &legal {
        assert!(blocked.is_legal(&m), "{m}");
        after_every_path(&blocked, m, true);
    }
}
