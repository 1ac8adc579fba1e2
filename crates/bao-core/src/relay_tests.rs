//! The tests and studies of relays that run the engine: a frame lap against a ring lap,
//! long cycles decided cold and warm, and the studies behind BENCHMARKS.md's "Never-ending
//! relays" (a module of its own above both `relay` and `engine`, so that neither imports
//! the other for its tests).

mod tests {
    use crate::context::{small_engine, SMALL};
    use crate::engine::sow_ring;
    use crate::position::bare_position;
    use crate::relay::{Relay, Stop};
    use crate::types::{Direction, RING};

    /// 31 random bits from the tests' generator.
    fn next(state: &mut bao_testkit::Lcg) -> u64 {
        state.next_u64() >> 33
    }

    #[test]
    fn a_frame_lap_is_a_ring_lap() {
        let mut s = bao_testkit::Lcg::new(9);
        for _ in 0..20_000 {
            // 64 seeds at most, spread at random.
            let mut pits = [0u8; RING];
            let total = 2 + next(&mut s) % 63;
            for _ in 0..total {
                pits[(next(&mut s) % 16) as usize] += 1;
            }
            let cur = (next(&mut s) % 16) as usize;
            let dir = if next(&mut s).is_multiple_of(2) {
                Direction::Clockwise
            } else {
                Direction::Anticlockwise
            };
            let ring = u128::from_le_bytes(pits);
            let mut relay = Relay::new(ring, cur, dir, false);
            let n = pits[cur] as usize;
            let stop = relay.lap();
            if n == 1 {
                assert_eq!(stop, Some(Stop::Done));
                continue;
            }
            assert_eq!(stop, None);
            let lifted = ring - ((n as u128) << (8 * cur));
            let (want, end) = sow_ring(lifted, cur, n, dir);
            assert_eq!(
                (relay.ring(), relay.cur),
                (want, end),
                "{pits:?} {cur} {dir:?}"
            );
        }
    }

    /// The §5.1 stress case (South to move, A4>* never ends: period 156,182,288 from lap
    /// 1), and the same board seen from North (the same relay, anticlockwise for the other
    /// side): cold, warm, and warm from the other side, all exact.
    #[test]
    fn the_stress_case_is_decided_the_same_cold_and_warm() {
        use crate::engine::{execute, execute_cold, Finish};
        use crate::trace::NeverEnding;
        use crate::{Move, RuleSet, Side};
        let rows = [
            [3, 0, 3, 2, 7, 1, 13, 2],
            [4, 3, 2, 1, 2, 1, 4, 9],
            [0, 1, 0, 0, 0, 0, 0, 0],
            [1, 1, 2, 0, 0, 1, 0, 1],
        ];
        let position = |side: Side| {
            let pits = if side == Side::South {
                rows
            } else {
                [rows[2], rows[3], rows[0], rows[1]]
            };
            bare_position(RuleSet::KISWAHILI, side, pits)
        };
        let want = Finish::NeverEnding(NeverEnding {
            cycle_start_lap: 1,
            period: 156_182_288,
        });
        let south = position(Side::South);
        let mv: Move = "A4>*".parse().expect("move");
        assert_eq!(execute_cold(&south, mv, SMALL).finish, want);
        // One engine for the rest, at the unit tests' scale (set here, as any test must).
        let cx = &mut small_engine();
        assert_eq!(execute(&south, mv, &mut (), cx).finish, want);
        assert_eq!(cx.relay_cycles_known(), 1);
        let warm = execute(&south, mv, &mut (), cx);
        assert_eq!(warm.finish, want);
        // Warm: decided at a distinguished point, long before a frame period.
        assert!(warm.laps < 1_000_000, "{} laps", warm.laps);
        let north = position(Side::North);
        let mv: Move = "a4>*".parse().expect("move");
        let warm = execute(&north, mv, &mut (), cx);
        assert_eq!(warm.finish, want);
        assert!(warm.laps < 1_000_000, "{} laps", warm.laps);
        // The release scale decides it the same, cold and warm.
        let cx = &mut crate::context::Engine::new();
        let south_mv: Move = "A4>*".parse().expect("move");
        assert_eq!(execute(&south, south_mv, &mut (), cx).finish, want);
        assert_eq!(cx.relay_cycles_known(), 1);
        let warm = execute(&north, mv, &mut (), cx);
        assert_eq!(warm.finish, want);
        assert!(warm.laps < 1_000_000, "{} laps", warm.laps);
    }

    /// A position from a random search (South to move, hands 0, houses destroyed): the
    /// takasa `B8<*` enters, after 64 laps, a relay whose frame repeats every 189 laps while
    /// the ring turns by an odd number of pits, so the move repeats every 3,024 laps.
    fn turning_relay(guard: crate::FrontRowGuard) -> crate::Position {
        let rules = crate::RuleSet {
            front_row_guard: guard,
            ..crate::RuleSet::KISWAHILI
        };
        let pits = [
            [2, 3, 0, 1, 2, 1, 0, 1],
            [1, 2, 0, 1, 0, 1, 0, 2],
            [0, 3, 2, 6, 4, 6, 0, 3],
            [4, 2, 5, 4, 2, 0, 5, 1],
        ];
        bare_position(rules, crate::Side::South, pits)
    }

    /// The memo keeps a cycle's turn as the relay that decided it measured it, guarded or
    /// not (commit 377ad28 took it after the guard's walk): a relay remembered under the
    /// strict front-row guard, then recalled by one without it (and the other way round),
    /// gives the period the plain detector finds with the memo cleared, and its first lap.
    #[test]
    fn a_cycle_remembered_by_a_guarded_relay_gives_an_unguarded_one_its_real_period() {
        use crate::engine::{execute, execute_cold, Finish};
        use crate::trace::NeverEnding;
        use crate::{FrontRowGuard, Move};
        let mv: Move = "B8<*".parse().expect("move");
        let strict = turning_relay(FrontRowGuard::Strict);
        let off = turning_relay(FrontRowGuard::Off);
        let want = Finish::NeverEnding(NeverEnding {
            cycle_start_lap: 1,
            period: 3024,
        });
        for (first, then) in [(&strict, &off), (&off, &strict)] {
            assert_eq!(execute_cold(then, mv, SMALL).finish, want);
            // Short cycles are remembered at the unit tests' scale only.
            let cx = &mut small_engine();
            let remembered = execute(first, mv, &mut (), cx);
            assert_eq!(remembered.finish, want);
            assert_eq!(remembered.frame_period, 189);
            // This engine's memo: nothing else reaches it.
            assert_eq!(cx.relay_cycles_known(), 1);
            let recalled = execute(then, mv, &mut (), cx);
            assert_eq!(recalled.finish, want);
            // Recalled at a distinguished point, before a whole frame period was run.
            assert!(recalled.laps < remembered.laps, "{} laps", recalled.laps);
        }
    }
}

/// The study behind BENCHMARKS.md's "Never-ending relays" section: run with
/// `cargo test --release -p bao-core study_long_relays -- --ignored --nocapture`.
mod study {
    use std::collections::HashMap;

    use crate::engine::{execute_quick_into, relay_entry, Finish, Outcome};
    use crate::position::bare_position;
    use crate::position::{House, Position};
    use crate::relay::{period, study_log, turn, Relay};
    use crate::rules::RuleSet;
    use crate::types::{Direction, RING};
    use crate::types::{Move, MoveKind, Pit, Side, Sign, Stage};

    fn pos_from(rows: [[u8; 8]; 4], side: Side, rules: RuleSet) -> Position {
        bare_position(rules, side, rows)
    }

    /// What one long relay's cycle looks like.
    struct Found {
        seeds: u32,
        entry_lap: u64,
        frame_period: u64,
        turn: usize,
        period: u64,
        /// Laps after the entry before the frame is on its cycle.
        tail: u64,
        /// The smallest frame state on the cycle: the cycle's name up to turning.
        canon: u128,
    }

    /// Follows a relay's frame for at most `limit` laps; its cycle if it has one by then.
    fn follow(
        ring: u128,
        cur: usize,
        dir: Direction,
        limit: u64,
    ) -> Option<(u64, usize, u64, u128)> {
        let start = Relay::new(ring, cur, dir, false);
        // Brent on the frame.
        let mut hare = start;
        let mut tort = start;
        let (mut power, mut lam) = (1u64, 0u64);
        loop {
            hare.lap().map_or(Some(()), |_| None)?;
            lam += 1;
            if hare.q == tort.q {
                break;
            }
            if lam == power {
                tort = hare;
                power *= 2;
                lam = 0;
            }
            if hare.laps > limit {
                return None;
            }
        }
        let t = turn(tort.cur, hare.cur, dir);
        // Tail: two frames `lam` apart from the entry.
        let (mut a, mut b) = (start, start);
        for _ in 0..lam {
            b.lap();
        }
        let mut tail = 0;
        while a.q != b.q {
            a.lap();
            b.lap();
            tail += 1;
        }
        let mut canon = a.q;
        for _ in 0..lam {
            a.lap();
            canon = canon.min(a.q);
        }
        Some((lam, t, tail, canon))
    }

    impl std::fmt::Display for Found {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(
                f,
                "seeds {} entry lap {} frame period {} turn {} period {} tail {} canon {:032x}",
                self.seeds,
                self.entry_lap,
                self.frame_period,
                self.turn,
                self.period,
                self.tail,
                self.canon
            )
        }
    }

    fn study_move(pos: &Position, mv: Move, limit: u64) -> Option<Found> {
        let (ring, cur, dir, _, lap) = relay_entry(pos, mv, 64, 100_000)?;
        let (frame_period, turn, tail, canon) = follow(ring, cur, dir, limit)?;
        Some(Found {
            seeds: ring.to_le_bytes().iter().map(|&x| u32::from(x)).sum(),
            entry_lap: lap,
            frame_period,
            turn,
            period: period(frame_period, turn),
            tail,
            canon,
        })
    }

    #[test]
    #[ignore = "a study: minutes in release mode"]
    fn study_long_relays() {
        let known = [
            (
                "issue 15 first",
                pos_from(
                    [
                        [3, 1, 4, 1, 8, 5, 0, 1],
                        [18, 0, 1, 2, 1, 2, 10, 0],
                        [0, 1, 0, 0, 0, 0, 0, 0],
                        [1, 1, 0, 1, 1, 0, 1, 1],
                    ],
                    Side::South,
                    RuleSet::KISWAHILI,
                ),
            ),
            (
                "issue 15 second",
                pos_from(
                    [
                        [0, 0, 0, 0, 1, 0, 0, 0],
                        [0, 0, 1, 0, 3, 1, 2, 0],
                        [4, 3, 1, 9, 13, 3, 2, 1],
                        [5, 0, 7, 0, 7, 0, 1, 0],
                    ],
                    Side::North,
                    RuleSet::KISWAHILI,
                ),
            ),
            (
                "stress 5.1",
                pos_from(
                    [
                        [3, 0, 3, 2, 7, 1, 13, 2],
                        [4, 3, 2, 1, 2, 1, 4, 9],
                        [0, 1, 0, 0, 0, 0, 0, 0],
                        [1, 1, 2, 0, 0, 1, 0, 1],
                    ],
                    Side::South,
                    RuleSet::KISWAHILI,
                ),
            ),
        ];
        let mut cycles: HashMap<u128, (u64, u64, u32)> = HashMap::new();
        for (name, pos) in &known {
            for mv in all_moves(pos) {
                if let Some(f) = study_move(pos, mv, 400_000_000) {
                    println!("{name} {mv}: {f}");
                    cycles
                        .entry(f.canon)
                        .or_insert((f.period, f.frame_period, f.seeds));
                }
            }
        }
        // Random positions of every preset, from random games.
        let positions: usize = std::env::var("STUDY_POSITIONS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20_000);
        let mut seed = bao_testkit::Lcg::new(3);
        let mut seen = 0;
        let mut undecided = 0;
        let mut long = Vec::new();
        let mut quick = Outcome::UNPLAYED;
        'games: for g in 0.. {
            let rules = RuleSet::preset(crate::PRESET_NAMES[g % crate::PRESET_NAMES.len()])
                .expect("preset");
            let mut pos = Position::start(rules);
            for _ in 0..300 {
                if seen >= positions {
                    break 'games;
                }
                seen += 1;
                if pos.stage() == Stage::Mtaji {
                    for mv in all_moves(&pos) {
                        execute_quick_into(&pos, mv, &mut quick, &mut Default::default());
                        if quick.finish != Finish::Undecided {
                            continue;
                        }
                        undecided += 1;
                        if let Some(f) = study_move(&pos, mv, 50_000_000) {
                            if f.period > 10_000 {
                                println!("random {mv} {:?}: {f}", pos.to_setup().pits);
                            }
                            long.push(f.period);
                            cycles
                                .entry(f.canon)
                                .or_insert((f.period, f.frame_period, f.seeds));
                        }
                    }
                }
                let mut pick = |n: usize| seed.below(n);
                if pos.play_random_move(&mut pick).is_none() {
                    break;
                }
            }
        }
        long.sort_unstable();
        println!(
            "{seen} positions, {undecided} moves past 64 laps, {} cycles found",
            long.len()
        );
        println!(
            "periods (sorted, every tenth): {:?}",
            long.iter().step_by(10).collect::<Vec<_>>()
        );
        println!("distinct cycles (up to turning): {}", cycles.len());
        let mut by_size: Vec<_> = cycles.values().collect();
        by_size.sort_unstable();
        println!(
            "largest: {:?}",
            by_size.iter().rev().take(20).collect::<Vec<_>>()
        );
        let _ = House::Owned;
    }

    /// Plays `games` uniform random legal games of `rules` (the whole list from
    /// `legal_moves`, one move picked, `play_fast`), seeded with `seed`; returns the
    /// decisions logged game by game.
    fn random_legal_games(
        rules: RuleSet,
        games: usize,
        seed: u64,
        cx: &mut crate::context::Engine,
    ) -> Vec<Vec<study_log::Met>> {
        let mut rng = bao_testkit::XorShift64Star::new(seed);
        let mut out = Vec::with_capacity(games);
        for _ in 0..games {
            let mut pos = Position::start(rules);
            loop {
                let moves = cx.legal_moves(&pos);
                let Some(mv) = moves.get(rng.below(moves.len().max(1))) else {
                    break;
                };
                pos = cx.play_fast(&pos, mv);
            }
            out.push(cx.memo.log.as_mut().map(std::mem::take).unwrap_or_default());
        }
        out
    }

    /// Which cycles the never-ending decisions of random legal games meet, and how much of
    /// the laps of their first meetings a table of the cycles met in other games would save.
    /// `cargo test --release -p bao-core --lib study_cycle_recurrence -- --ignored
    /// --nocapture` (`STUDY_GAMES` games a preset to build from and as many held out, 20,000
    /// by default).
    #[test]
    #[ignore = "a study: minutes in release mode"]
    fn study_cycle_recurrence() {
        let games: usize = std::env::var("STUDY_GAMES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20_000);
        // The release scale, logged.
        let cx = &mut crate::context::Engine::new();
        cx.memo.log = Some(Vec::new());
        for name in ["kiswahili", "kete", "kujifunza"] {
            let rules = RuleSet::preset(name).expect("preset");
            cx.forget_relay_cycles();
            let built = random_legal_games(rules, games, 0x5eed_0001, cx);
            // The game by which each cycle was first met.
            let mut first: HashMap<u128, usize> = HashMap::new();
            let mut by_cycle: HashMap<u128, (u64, u32)> = HashMap::new();
            for (g, mets) in built.iter().enumerate() {
                for m in mets {
                    if let Some(c) = m.canon {
                        first.entry(c).or_insert(g);
                        let e = by_cycle.entry(c).or_insert((m.frame_period, 0));
                        e.1 += 1;
                    }
                }
            }
            cx.forget_relay_cycles();
            let held = random_legal_games(rules, games, 0x5eed_0002, cx);
            // Cold decisions of the held-out games, by size.
            let buckets = [0u64, 4096, 1 << 16, 1 << 20, u64::MAX];
            let mut cost = [(0u64, 0u64); 4];
            let mut warm = 0;
            let mut cold: Vec<(Option<u128>, u64)> = Vec::new();
            let mut short_seen: HashMap<u128, u32> = HashMap::new();
            for m in held.iter().flatten() {
                if m.warm {
                    warm += 1;
                    continue;
                }
                let b = buckets
                    .windows(2)
                    .position(|w| m.frame_period < w[1])
                    .unwrap_or(3);
                cost[b].0 += 1;
                cost[b].1 += m.frame_period;
                cold.push((m.canon, m.frame_period));
                if let (Some(c), true) = (m.canon, m.frame_period < 1 << 16) {
                    *short_seen.entry(c).or_insert(0) += 1;
                }
            }
            let total: u64 = cold.iter().map(|c| c.1).sum();
            println!("== {name}: {games} games to build, {games} held out");
            println!(
                "built: {} distinct cycles with distinguished frames; held out: {} cold \
                 decisions, {warm} warm; {total} frame laps cold",
                first.len(),
                cold.len()
            );
            for (b, (n, laps)) in cost.iter().enumerate() {
                println!(
                    "  frame period {}..{}: {n} cold decisions, {laps} frame laps",
                    buckets[b],
                    buckets[b + 1]
                );
            }
            println!(
                "  short cycles (4096..65536) met cold in the held-out games: {} distinct, {} \
                 meetings",
                short_seen.len(),
                short_seen.values().sum::<u32>()
            );
            let mut n = 250;
            while n <= games {
                let saved: u64 = cold
                    .iter()
                    .filter(|(c, _)| c.and_then(|c| first.get(&c)).is_some_and(|&g| g < n))
                    .map(|c| c.1)
                    .sum();
                let long_saved: u64 = cold
                    .iter()
                    .filter(|(c, fp)| {
                        *fp >= 1 << 16 && c.and_then(|c| first.get(&c)).is_some_and(|&g| g < n)
                    })
                    .map(|c| c.1)
                    .sum();
                println!(
                    "  table from {n} games: {:.1}% of the cold laps known ({:.1}% in cycles \
                     of 65,536+ frame laps)",
                    100.0 * saved as f64 / total.max(1) as f64,
                    100.0 * long_saved as f64 / total.max(1) as f64,
                );
                n *= 2;
            }
            let mut top: Vec<_> = by_cycle.iter().collect();
            top.sort_unstable_by_key(|(_, &(fp, k))| std::cmp::Reverse(fp * u64::from(k)));
            for (c, (fp, k)) in top.iter().take(12) {
                println!("  cycle {c:032x}: frame period {fp}, met {k} times (build games)");
            }
        }
    }

    /// Every move from every pit of the mover, takasa and capturing, either way.
    fn all_moves(pos: &Position) -> Vec<Move> {
        let mut out = Vec::new();
        for ring in 0..RING {
            for (sign, kind) in [
                (Sign::Left, MoveKind::Takasa),
                (Sign::Right, MoveKind::Takasa),
                (Sign::Left, MoveKind::Capture),
                (Sign::Right, MoveKind::Capture),
            ] {
                let mv = Move::new(Pit::from_ring(pos.to_move(), ring), sign, kind);
                if pos.get(mv.pit) >= 2 {
                    out.push(mv);
                }
            }
        }
        out
    }
}
