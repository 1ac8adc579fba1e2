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

#[cfg(test)]
mod tests {
    use super::*;

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
            let dir = if next(&mut state).is_multiple_of(2) {
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
