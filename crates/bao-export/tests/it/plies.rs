use bao_core::{Event, HouseState, MoveTrace, Pit, Position, RuleSet, Stage};

/// The shared test generator, its seed spread first: deterministic everywhere.
pub(crate) struct Lcg(bao_testkit::Lcg);

impl Lcg {
    pub(crate) fn new(seed: u64) -> Self {
        Self(bao_testkit::Lcg::new(
            seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1),
        ))
    }

    /// A number below `n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }
}

/// One ply: the position before, its trace, the position after.
pub(crate) struct Ply {
    pub(crate) before: Position,
    pub(crate) trace: MoveTrace,
    pub(crate) after: Position,
    /// Where it was found, for the test's messages.
    pub(crate) seed: u64,
    pub(crate) number: usize,
}

/// Plays seeded random games under `rules` and returns the first ply for which `want` holds.
pub(crate) fn find(rules: RuleSet, want: impl Fn(&Ply) -> bool) -> Ply {
    for seed in 1..=500u64 {
        let mut rng = Lcg::new(seed);
        let mut pos = Position::start(rules);
        for number in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let (after, trace) = pos.play(&mv).expect("a legal move plays");
            assert_eq!(after.total_seeds(), 64);
            let ply = Ply {
                before: pos,
                trace: trace.into_trace(),
                after,
                seed,
                number,
            };
            if want(&ply) {
                return ply;
            }
            pos = ply.after;
        }
    }
    panic!("no ply found in 500 seeded games");
}

/// The first ply whose trace has an event matching `pred`.
pub(crate) fn with_event(rules: RuleSet, pred: impl Fn(&Event) -> bool) -> Ply {
    find(rules, |p| p.trace.events.iter().any(&pred))
}

pub(crate) fn kichwa_chosen() -> Ply {
    with_event(RuleSet::KISWAHILI, |e| {
        matches!(e, Event::KichwaChosen { .. })
    })
}

pub(crate) fn safari() -> Ply {
    with_event(RuleSet::KISWAHILI, |e| matches!(e, Event::Safari))
}

pub(crate) fn takasia() -> Ply {
    with_event(RuleSet::KISWAHILI, |e| {
        matches!(e, Event::TakasiaSet { .. })
    })
}

pub(crate) fn bao_hamna() -> Ply {
    with_event(RuleSet::KISWAHILI, |e| matches!(e, Event::BaoHamna))
}

pub(crate) fn dormant_house() -> Ply {
    find(RuleSet::KISWAHILI, |p| {
        p.after.house_state(bao_core::Side::South) == HouseState::Dormant
            && p.after.house_state(bao_core::Side::North) != HouseState::Dormant
    })
}

/// Bao la Kete, rule K2 (the kuu floor): a nemo takata from the functional kuu that holds
/// seven seeds after the placement. Taxing two would leave five, below the floor of six, so
/// the kuu is not taxed: its seven seeds are sown and the kuu is destroyed.
pub(crate) fn kuu_floor() -> Ply {
    find(RuleSet::KETE, |p| {
        let kuu = Pit::nyumba(p.trace.mover);
        p.trace.stage == Stage::Namua
            && p.trace.mv.is_takasa()
            && p.trace.placement == Some(kuu)
            && p.before.house_state(p.trace.mover) == HouseState::Functional
            && p.before.get(kuu) + 1 == 7
    })
}

#[test]
fn the_search_is_deterministic() {
    let a = takasia();
    let b = takasia();
    assert_eq!((a.seed, a.number), (b.seed, b.number));
    assert_eq!(a.trace, b.trace);
}
