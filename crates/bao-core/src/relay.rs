//! Plain takasa relays seen from the pit being sown from: the frame in which long
//! never-ending relays are decided.
//!
//! A plain relay (a takasa lap with no house, no takasia'd pit and no capture in play)
//! depends only on the mover's 16-pit ring, the pit where the last lap ended and the
//! direction; the opponent's ring, the hands and the stage stay as they were. Its laps
//! commute with turning the ring (and, for anticlockwise sowing, with mirroring it): the same
//! counts one pit further round give the same laps one pit further round. So a relay is
//! followed here in its *frame*: the ring turned so that byte `i` holds the seeds `i` pits
//! ahead of the current pit in the sowing direction. Frame states that repeat repeat the
//! relay up to a turn; if the frame repeats after `p` laps while the ring has turned by `d`
//! pits, the relay itself repeats after `p * 16 / gcd(d, 16)` laps (and not before: the
//! relay's states return only where their frames do). Deciding a never-ending relay in its
//! frame therefore runs up to 16 times fewer laps (BENCHMARKS.md, "Never-ending relays").
//!
//! The one rule that does not turn with the ring is the front-row guard (G10): a takasa
//! lap lifted from the last front pit before the back row, leaving the front row empty,
//! ends the move. Its frame pattern (the seven pits behind the lifted one all empty) is
//! watched, and a relay that shows it is followed round its whole cycle before it is called
//! never-ending.

use crate::types::{Direction, RING};

/// `SOW_LO[n]` and `SOW_HI[n]`: what a lap of `n` seeds lifted from frame pit 0 does to the
/// frame's low and high halves, seen from the frame after the turn (the pit where the lap
/// ends as pit 0): `n / 16` seeds in every pit and one more in each pit the lap passed,
/// less the `n` lifted from the pit left behind (added with wrapping: the true sum has no
/// carry out of a byte, as that pit held `n`). The lap then is the turn first and one
/// addition after it ([`sow_frame`]), so that the addition's look-up runs beside the turn
/// instead of before it. For every byte value, so that a look-up needs no bound check; two
/// tables of 8-byte entries, so that the look-ups take the seed count as it is (a scaled
/// index) and need no step before them.
static SOW_LO: [u64; 256] = sow_table(false);
static SOW_HI: [u64; 256] = sow_table(true);

const fn sow_table(high: bool) -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut n = 0;
    while n < 256 {
        let mut pits = [(n / RING) as u8; RING];
        let mut i = 1;
        while i <= n % RING {
            pits[i] += 1;
            i += 1;
        }
        // Turned so that frame pit `n % 16` is pit 0: the pit lifted from is then pit
        // `left`, in the half `left / 8`.
        let turned = u128::from_le_bytes(pits).rotate_right(8 * (n % RING) as u32);
        let left = (RING - n % RING) % RING;
        let lifted = (n as u64) << (8 * (left % 8));
        t[n] = if high {
            let half = (turned >> 64) as u64;
            if left >= 8 {
                half.wrapping_sub(lifted)
            } else {
                half
            }
        } else {
            let half = turned as u64;
            if left < 8 {
                half.wrapping_sub(lifted)
            } else {
                half
            }
        };
        n += 1;
    }
    t
}

/// The frame of a ring whose last lap ended at `cur`, sowing in `dir`: byte `i` holds the
/// seeds of the pit `i` steps ahead of `cur`.
#[inline]
pub(crate) fn to_frame(ring: u128, cur: usize, dir: Direction) -> u128 {
    let cur = (cur % RING) as u32;
    match dir {
        Direction::Clockwise => ring.rotate_right(8 * cur),
        Direction::Anticlockwise => ring.swap_bytes().rotate_right(8 * (15 - cur)),
    }
}

/// The ring of a frame whose pit 0 is ring pit `cur` ([`to_frame`] undone).
#[inline]
pub(crate) fn from_frame(q: u128, cur: usize, dir: Direction) -> u128 {
    let cur = (cur % RING) as u32;
    match dir {
        Direction::Clockwise => q.rotate_left(8 * cur),
        Direction::Anticlockwise => q.rotate_left(8 * (15 - cur)).swap_bytes(),
    }
}

/// How a relay ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The last lap ended in an empty pit.
    Done,
    /// The front-row guard ended the move (the lifted pit is already empty).
    FrontRowEmptied,
}

/// A plain relay being followed in its frame.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Relay {
    /// The frame (byte 0: the pit where the last lap ended).
    pub(crate) q: u128,
    /// The ring index of frame pit 0.
    pub(crate) cur: usize,
    pub(crate) dir: Direction,
    /// Whether the front-row guard applies (a takasa under the strict guard).
    pub(crate) guard: bool,
    /// Whether the guard's frame pattern has been met, guard or not (see the module
    /// documentation).
    pub(crate) pattern_seen: bool,
    pub(crate) laps: u64,
    pub(crate) sown: u64,
}

impl Relay {
    /// A relay at the end of a lap that ended in ring pit `cur`.
    pub(crate) fn new(ring: u128, cur: usize, dir: Direction, guard: bool) -> Self {
        Self {
            q: to_frame(ring, cur, dir),
            cur: cur % RING,
            dir,
            guard,
            pattern_seen: false,
            laps: 0,
            sown: 0,
        }
    }

    /// The ring as it is now.
    pub(crate) fn ring(&self) -> u128 {
        from_frame(self.q, self.cur, self.dir)
    }

    /// The ring pit where the guard can fire: the last front pit before the back row.
    fn guard_pit(&self) -> usize {
        match self.dir {
            Direction::Clockwise => 7,
            Direction::Anticlockwise => 0,
        }
    }

    /// Plays one lap: lifts frame pit 0 and sows it. `Some` when the move ends instead.
    #[inline(always)]
    pub(crate) fn lap(&mut self) -> Option<Stop> {
        let n = (self.q & 0xff) as usize;
        if n == 1 {
            return Some(Stop::Done);
        }
        let q = self.q - n as u128;
        let pattern = q >> 72 == 0;
        self.pattern_seen |= pattern;
        if self.guard && pattern && self.cur == self.guard_pit() {
            self.q = q;
            return Some(Stop::FrontRowEmptied);
        }
        self.q = sow_frame(self.q, n);
        self.cur = (self.cur + (n % RING) * self.dir.step()) % RING;
        self.laps += 1;
        self.sown += n as u64;
        None
    }

    /// Plays laps as [`Relay::lap`] does until the move ends, `laps` reaches `until` (at
    /// least one lap is played), or a lap leaves a frame `mark` picks. The hot loop of
    /// never-ending detection: the relay is held in locals, and a lap is the lift, the
    /// sowing, one comparison for the lap limit and `mark`.
    ///
    /// The front-row guard's pattern is looked for only before the first lap: no relay lap
    /// can leave it. A lap lifts `n >= 2` seeds from frame pit 0 and sows pits `1..=n`
    /// (every pit when `n >= 16`), so the pit behind the one it ends in (frame pit 15 after
    /// the turn) holds a seed, and the pattern needs frame pits 9 to 15 empty (the test
    /// `the_guard_pattern_never_follows_a_relay_lap`; debug builds assert it at every lap).
    /// The sum of the seeds sown is the sum of the turns, so one counter gives both.
    #[inline(never)]
    pub(crate) fn run_until(&mut self, until: u64, mark: impl Fn(u128) -> bool) -> Pause {
        let n = (self.q & 0xff) as usize;
        if n == 1 {
            return Pause::Stop(Stop::Done);
        }
        // The guard's pattern: frame pits 9..16 empty.
        if ((self.q >> 64) as u64) < 0x100 {
            self.pattern_seen = true;
            if self.guard && self.cur == self.guard_pit() {
                self.q &= !0xff;
                return Pause::Stop(Stop::FrontRowEmptied);
            }
        }
        let (mut q, mut laps) = (self.q, self.laps);
        // The seeds sown since the start, which is also how far the frame has turned.
        let mut sown = 0u64;
        let pause = loop {
            let n = (q & 0xff) as usize;
            if n == 1 {
                break Pause::Stop(Stop::Done);
            }
            // Byte 0 held `n`: the lap lifts it.
            q = sow_frame(q, n);
            debug_assert!(
                (q >> 64) as u64 >= 0x100,
                "a relay lap left the guard's pattern"
            );
            sown += n as u64;
            laps += 1;
            if laps >= until {
                break Pause::Reached;
            }
            if mark(q) {
                break Pause::Marked;
            }
        };
        self.q = q;
        self.laps = laps;
        self.sown += sown;
        self.cur = (self.cur + (sown % RING as u64) as usize * self.dir.step()) % RING;
        pause
    }
}

/// Why [`Relay::run_until`] paused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pause {
    /// The move ended.
    Stop(Stop),
    /// The lap count reached the one asked for.
    Reached,
    /// The frame just left is one the caller picked.
    Marked,
}

/// A lap's sowing in the frame: `n` seeds (frame pit 0 held `n`) lifted and sown into frame
/// pits 1, 2, ...: `n / 16` to every pit, one more to pits `1..=n % 16`; then the frame is
/// turned so that the pit where the lap ended is pit 0. Done the other way round: the frame
/// is turned by `k = n % 16` bytes, then the turned sowing ([`SOW_LO`], [`SOW_HI`]) is added,
/// so that the look-ups (which wait only for `n`) overlap the turn and a lap's chain of
/// dependent steps is the turn and one addition. No byte carries (counts stay below 65), so
/// the two halves are added apart.
#[inline(always)]
fn sow_frame(q: u128, n: usize) -> u128 {
    let (t_lo, t_hi) = (SOW_LO[n & 0xff], SOW_HI[n & 0xff]);
    let (lo, hi) = (q as u64, (q >> 64) as u64);
    // Turned by whole halves first (k >= 8), then by s = 8 * (k % 8) bits within them
    // (`(x << 1) << (63 - s)` is `x << (64 - s)`, and 0 for s = 0).
    let (lo, hi) = if n & 8 != 0 { (hi, lo) } else { (lo, hi) };
    let s = 8 * (n % 8) as u32;
    let lo2 = (lo >> s | (hi << 1) << (63 - s)).wrapping_add(t_lo);
    let hi2 = (hi >> s | (lo << 1) << (63 - s)).wrapping_add(t_hi);
    u128::from(hi2) << 64 | u128::from(lo2)
}

/// The relay's period from its frame's period `frame_period` and the turn `turn` (in pits)
/// the ring made over it.
pub(crate) fn period(frame_period: u64, turn: usize) -> u64 {
    let g = gcd(turn % RING, RING) as u64;
    frame_period * (RING as u64 / g)
}

fn gcd(a: usize, b: usize) -> usize {
    if a == 0 {
        b
    } else {
        gcd(b % a, a)
    }
}

/// The turn from ring pit `from` to ring pit `to` in direction `dir`, in pits (0..16).
pub(crate) fn turn(from: usize, to: usize, dir: Direction) -> usize {
    match dir {
        Direction::Clockwise => (to + RING - from) % RING,
        Direction::Anticlockwise => (from + RING - to) % RING,
    }
}

/// The most distinguished points the memo keeps (about 80 bytes each, with their cycle's list).
pub(crate) const MEMO_POINTS: usize = 1 << 18;

/// Whether a frame is a distinguished point: its hash ([`dp_hash`]) is below `dp_limit`
/// (`RelayConfig::dp_limit`: one frame in `2^dp_bits` on average, 4,096 at the release
/// scale), so that a relay on a known cycle meets one within a few thousand laps.
#[inline(always)]
pub(crate) fn distinguished(q: u128, dp_limit: u64) -> bool {
    dp_hash(q) < dp_limit
}

/// The hash that picks distinguished frames: the two halves added, times an odd constant
/// (2^64 over the golden ratio); its top bits decide. Three instructions in the lap loop;
/// the test `distinguished_frames_are_as_rare_as_meant` checks its top bits on relay frames.
#[inline(always)]
fn dp_hash(q: u128) -> u64 {
    ((q >> 64) as u64)
        .wrapping_add(q as u64)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// A relay cycle in the memo: its frame period, the turn over one frame period, whether
/// some frame on it shows the front-row guard's pattern, and its distinguished points with
/// their offsets on the cycle (from a fixed frame of it), in order.
#[derive(Debug)]
struct Cycle {
    frame_period: u64,
    turn: usize,
    pattern: bool,
    points: Vec<(u64, u128)>,
}

/// A known cycle met at a distinguished point: what a relay needs to decide itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Known {
    /// The cycle's frame period.
    pub(crate) frame_period: u64,
    /// The turn over one frame period.
    pub(crate) turn: usize,
    /// A frame of the cycle behind the point met ([`Memo::recall`]).
    pub(crate) earlier: u128,
    /// How many laps behind the point met `earlier` is (at most a frame period).
    pub(crate) laps_behind: u64,
}

/// The memo of long relay cycles decided so far, keyed by their distinguished frames (an
/// `Engine`'s: nothing global). Frames do not depend on the direction, so one entry serves
/// both. Empty, it is one null pointer: an engine made for one call costs nothing to make
/// or drop.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    table: Option<Box<Table>>,
    /// The decisions logged for the study of recurring cycles (unit tests only).
    #[cfg(test)]
    pub(crate) log: Option<Vec<study_log::Met>>,
}

/// The memo's contents, made at its first cycle.
#[derive(Debug, Default)]
struct Table {
    points: std::collections::HashMap<u128, (u32, u64)>,
    cycles: Vec<Cycle>,
}

impl Memo {
    /// Looks a distinguished frame up: the cycle it lies on, if known, with a frame of that
    /// cycle at least `behind_at_least` laps behind it (the nearest distinguished point that
    /// far back, or the frame itself one frame period back). `None` when the cycle is not
    /// known, when it shows the guard's pattern and `guard` applies (then only a full run
    /// decides), or when it is shorter than `behind_at_least` laps.
    pub(crate) fn recall(&mut self, q: u128, guard: bool, behind_at_least: u64) -> Option<Known> {
        let table = self.table.as_deref()?;
        let &(c, offset) = table.points.get(&q)?;
        let cycle = &table.cycles[c as usize];
        let fp = cycle.frame_period;
        #[cfg(test)]
        if let Some(log) = self.log.as_mut() {
            log.push(study_log::Met {
                canon: cycle.points.iter().map(|&(_, q)| q).min(),
                frame_period: fp,
                warm: true,
            });
        }
        if (guard && cycle.pattern) || fp < behind_at_least {
            return None;
        }
        let n = cycle.points.len();
        let at = cycle.points.partition_point(|&(o, _)| o < offset);
        (1..=n).find_map(|back| {
            let (o, earlier) = cycle.points[(at + n - back) % n];
            let laps_behind = match (offset + fp - o) % fp {
                0 => fp,
                d => d,
            };
            (laps_behind >= behind_at_least).then_some(Known {
                frame_period: fp,
                turn: cycle.turn,
                earlier,
                laps_behind,
            })
        })
    }

    /// Stores a decided cycle: its frame period, turn, pattern flag and its distinguished
    /// frames with their offsets (from one walk round the cycle). Ignored when the memo is
    /// full or the cycle is shorter than `min_frame_period` or already known.
    pub(crate) fn remember(
        &mut self,
        min_frame_period: u64,
        (frame_period, turn, pattern): (u64, usize, bool),
        points: &[(u64, u128)],
    ) {
        #[cfg(test)]
        if let Some(log) = self.log.as_mut() {
            log.push(study_log::Met {
                canon: points.iter().map(|&(_, q)| q).min(),
                frame_period,
                warm: false,
            });
        }
        if frame_period < min_frame_period || points.is_empty() {
            return;
        }
        // One cycle takes at most an eighth of the memo: beyond that, every k-th point (any
        // points of the cycle will do; fewer only mean longer walks to the first one met).
        let table = self.table.get_or_insert_with(Box::default);
        let room = (MEMO_POINTS - table.points.len()).min(MEMO_POINTS / 8);
        if room == 0 || table.points.contains_key(&points[0].1) {
            return;
        }
        let Ok(c) = u32::try_from(table.cycles.len()) else {
            return;
        };
        let mut sorted: Vec<(u64, u128)> = points
            .iter()
            .step_by(points.len().div_ceil(room))
            .map(|&(o, q)| (o % frame_period, q))
            .collect();
        sorted.sort_unstable_by_key(|&(o, _)| o);
        for &(o, q) in &sorted {
            table.points.insert(q, (c, o));
        }
        table.cycles.push(Cycle {
            frame_period,
            turn: turn % RING,
            pattern,
            points: sorted,
        });
    }

    /// Forgets every cycle (the memory is given back).
    pub(crate) fn forget(&mut self) {
        self.table = None;
    }

    /// How many cycles the memo holds.
    pub(crate) fn cycles_known(&self) -> usize {
        self.table.as_ref().map_or(0, |t| t.cycles.len())
    }
}

/// What the study of recurring cycles reads: every decision of a never-ending relay that
/// reached the memo, cold (a whole frame period run) or warm (recalled), logged in the
/// memo of the study's own engine.
#[cfg(test)]
pub(crate) mod study_log {
    /// One decision.
    #[derive(Debug, Clone)]
    pub(crate) struct Met {
        /// The smallest distinguished frame on the cycle (its name up to turning), if any.
        pub(crate) canon: Option<u128>,
        pub(crate) frame_period: u64,
        pub(crate) warm: bool,
    }
}

/// The thresholds the unit tests use so that random relays exercise the memo: dense
/// distinguished points (one in 8), short cycles kept, a short first stretch for Brent.
#[cfg(test)]
pub(crate) const SMALL: crate::context::RelayConfig = crate::context::RelayConfig {
    dp_bits: 3,
    memo_min_frame_period: 64,
    no_point_stretch: 1 << 10,
};

/// An engine at the unit tests' small scale ([`SMALL`]).
#[cfg(test)]
pub(crate) fn small_engine() -> crate::context::Engine {
    crate::context::Engine::with_config(SMALL)
}

/// A mtaji position of `rules` for the tests of long relays: `to_move` to move on `pits`
/// (rows A, B, a, b), both hands empty, both houses destroyed.
#[cfg(test)]
pub(crate) fn bare_position(
    rules: crate::RuleSet,
    to_move: crate::Side,
    pits: [[u8; 8]; 4],
) -> crate::Position {
    use crate::{BySide, HouseState, Setup};
    let mut s = Setup::start(rules);
    s.to_move = to_move;
    s.hands = BySide::new(0, 0);
    s.pits = pits;
    s.houses = BySide::new(HouseState::Destroyed, HouseState::Destroyed);
    crate::Position::from_setup(s).expect("valid")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::sow_ring;

    /// 31 random bits from the tests' generator.
    fn next(state: &mut bao_testkit::Lcg) -> u64 {
        state.next_u64() >> 33
    }

    #[test]
    fn frames_turn_back_into_rings() {
        let mut s = bao_testkit::Lcg::new(5);
        for _ in 0..1000 {
            let ring = u128::from(next(&mut s)) << 64 | u128::from(next(&mut s));
            for cur in 0..RING {
                for dir in [Direction::Clockwise, Direction::Anticlockwise] {
                    let q = to_frame(ring, cur, dir);
                    assert_eq!(from_frame(q, cur, dir), ring);
                    // Byte i of the frame is the pit i steps ahead.
                    let ahead = (cur + 3 * dir.step()) % RING;
                    assert_eq!((q >> 24) as u8, (ring >> (8 * ahead)) as u8);
                }
            }
        }
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
            let dir = if next(&mut s) % 2 == 0 {
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

    /// Why the guard's walk round a cycle never changes what the memo keeps: the guard's
    /// frame pattern (the seven pits behind the lifted one empty) cannot follow a relay lap,
    /// which leaves a seed in the pit behind the one it ends in. So the pattern shows, if at
    /// all, on a relay's first lap, which is then not on its cycle, and a cycle found by its
    /// anchor (the only kind remembered) has no pattern to walk for.
    #[test]
    fn the_guard_pattern_never_follows_a_relay_lap() {
        let mut state = bao_testkit::Lcg::new(21);
        for _ in 0..20_000 {
            let mut pits = [0u8; RING];
            for _ in 0..4 + next(&mut state) % 40 {
                pits[(next(&mut state) % 16) as usize] += 1;
            }
            let cur = (next(&mut state) % 16) as usize;
            if pits[cur] < 2 {
                continue;
            }
            let dir = if next(&mut state) % 2 == 0 {
                Direction::Clockwise
            } else {
                Direction::Anticlockwise
            };
            let mut relay = Relay::new(u128::from_le_bytes(pits), cur, dir, false);
            if relay.lap().is_some() {
                continue;
            }
            relay.pattern_seen = false;
            for _ in 0..200 {
                if relay.lap().is_some() {
                    break;
                }
                assert!(!relay.pattern_seen, "{pits:?} {cur} {dir:?}");
            }
        }
    }

    /// On the frames of random relays, the share of distinguished ones is close to the one
    /// meant: one in 8 at the unit tests' density, one in 4,096 at the release one.
    #[test]
    fn distinguished_frames_are_as_rare_as_meant() {
        let mut s = bao_testkit::Lcg::new(41);
        let (mut frames, mut dense, mut sparse) = (0u64, 0u64, 0u64);
        while frames < 1_000_000 {
            let mut pits = [0u8; RING];
            for _ in 0..20 + next(&mut s) % 45 {
                pits[(next(&mut s) % 16) as usize] += 1;
            }
            let cur = (next(&mut s) % 16) as usize;
            let mut relay = Relay::new(u128::from_le_bytes(pits), cur, Direction::Clockwise, false);
            // Distinct frames only: a short cycle run round many times would weigh its few.
            let mut seen = std::collections::HashSet::new();
            for _ in 0..20_000 {
                if relay.lap().is_some() || !seen.insert(relay.q) {
                    break;
                }
                frames += 1;
                let h = dp_hash(relay.q);
                dense += u64::from(h >> 61 == 0);
                sparse += u64::from(h >> 52 == 0);
            }
        }
        let (dense, sparse) = (dense as f64 / frames as f64, sparse as f64 / frames as f64);
        assert!((0.9 / 8.0..1.1 / 8.0).contains(&dense), "{dense}");
        assert!(
            (0.8 / 4096.0..1.25 / 4096.0).contains(&sparse),
            "{sparse} ({frames} frames)"
        );
    }

    #[test]
    fn periods_follow_the_turn() {
        assert_eq!(period(57, 4), 228);
        assert_eq!(period(10, 0), 10);
        assert_eq!(period(3, 1), 48);
        assert_eq!(period(3, 8), 6);
        assert_eq!(turn(3, 1, Direction::Anticlockwise), 2);
        assert_eq!(turn(3, 1, Direction::Clockwise), 14);
    }
}

/// The study behind BENCHMARKS.md's "Never-ending relays" section: run with
/// `cargo test --release -p bao-core study_long_relays -- --ignored --nocapture`.
#[cfg(test)]
mod study {
    use std::collections::HashMap;

    use super::*;
    use crate::engine::{execute_quick_into, relay_entry, Finish, Outcome};
    use crate::position::{House, Position};
    use crate::rules::RuleSet;
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
