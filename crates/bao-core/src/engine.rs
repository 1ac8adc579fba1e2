//! Executing one move lap by lap, with optional tracing and exact never-ending detection.

use crate::context::Engine;
use crate::position::{House, Position, HOUSE_THRESHOLD};
use crate::relay::{self, Relay, Stop};
use crate::rules::{EndlessMove, FrontRowGuard, HouseLap, Takasia};
use crate::trace::{Capture, Event, Lap, LapEnd, LapSource, MoveTrace, NeverEnding};
use crate::types::{Direction, Move, Pit, Row, Side, Sign, HOUSE_RING, RING};

/// Laps played before never-ending detection starts (keeps it off the hot path).
const DETECT_AFTER: u64 = 64;

/// One seed in every pit of half a ring.
const ONES_64: u64 = u64::from_le_bytes([1; 8]);

/// `SOW[dir][cur][n]`: one seed in each of the `n` pits after `cur` in direction `dir`
/// (indexed by `Direction as usize`).
static SOW: [[[u128; RING]; RING]; 2] = [sow_table(1), sow_table(RING - 1)];

const fn sow_table(step: usize) -> [[u128; RING]; RING] {
    let mut t = [[0u128; RING]; RING];
    let mut cur = 0;
    while cur < RING {
        let mut n = 1;
        while n < RING {
            let pit = (cur + n * step) % RING;
            t[cur][n] = t[cur][n - 1] | (1u128 << (8 * pit));
            n += 1;
        }
        cur += 1;
    }
    t
}

/// Receives what happens during a move. The no-op `()` tracer compiles away.
pub(crate) trait Tracer {
    const ON: bool;
    /// What a lean run keeps of its current lap for this tracer: a [`LapMark`] when
    /// traced, nothing (`()`) when not.
    type Mark: Copy;
    /// The mark of a lap of `side`'s from ring index `start`, its seeds from `source`.
    fn mark(side: Side, start: usize, source: LapSource) -> Self::Mark;
    /// What a mark says (read only when [`Tracer::ON`]).
    fn lap_mark(mark: Self::Mark) -> LapMark;
    /// Whether the tracer keeps no more laps: a plain relay lap then records nothing, so
    /// it may run untraced.
    fn saturated(&self) -> bool;
    fn lap(&mut self, lap: Lap);
    fn capture(&mut self, capture: Capture);
    fn event(&mut self, event: Event);
}

impl Tracer for () {
    const ON: bool = false;
    type Mark = ();
    #[inline(always)]
    fn mark(_: Side, _: usize, _: LapSource) {}
    #[inline(always)]
    fn lap_mark((): ()) -> LapMark {
        LapMark {
            side: Side::South,
            start: 0,
            source: LapSource::Lifted,
        }
    }
    #[inline]
    fn saturated(&self) -> bool {
        true
    }
    #[inline]
    fn lap(&mut self, _: Lap) {}
    #[inline]
    fn capture(&mut self, _: Capture) {}
    #[inline]
    fn event(&mut self, _: Event) {}
}

impl Tracer for MoveTrace {
    const ON: bool = true;
    type Mark = LapMark;
    #[inline(always)]
    fn mark(side: Side, start: usize, source: LapSource) -> LapMark {
        LapMark {
            side,
            start,
            source,
        }
    }
    #[inline(always)]
    fn lap_mark(mark: LapMark) -> LapMark {
        mark
    }
    fn saturated(&self) -> bool {
        self.laps.len() >= Self::LAP_LIMIT
    }
    fn lap(&mut self, lap: Lap) {
        if self.laps.len() < Self::LAP_LIMIT {
            self.laps.push(lap);
        }
    }
    fn capture(&mut self, capture: Capture) {
        if self.captures.len() < Self::LAP_LIMIT {
            self.captures.push(capture);
        }
    }
    fn event(&mut self, event: Event) {
        if let (Event::Placed { pit }, None) = (event, self.placement) {
            self.placement = Some(pit);
        }
        if self.events.len() < Self::LAP_LIMIT {
            self.events.push(event);
        }
    }
}

/// Where a traced lean run's current lap started, as its [`Lap`] records it.
#[derive(Clone, Copy)]
pub(crate) struct LapMark {
    /// The mover.
    side: Side,
    /// The ring index lifted, or the kichwa where captured seeds enter.
    start: usize,
    source: LapSource,
}

/// How a move's execution ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Finish {
    /// The move ended normally (empty pit, house stop, takasia stop).
    Done,
    /// The opponent's front row became empty mid-move (only with `bao_hamna_mid_move`).
    BaoHamna,
    /// A takasa would have left the mover's front row empty (G10), at this lap.
    FrontRowEmptied,
    /// The move never ends.
    NeverEnding(NeverEnding),
    /// AbstractPlay's seed cap aborted the move.
    Capped,
    /// A quick run ([`execute_quick_into`]) reached the lap where never-ending detection would
    /// begin, or a budgeted one (the engine's lap budget) ran out of laps: the move is not
    /// decided.
    Undecided,
}

impl Finish {
    /// `Some(self)` for a never-ending finish whose cycle start is still unknown.
    fn filter_unknown_start(self) -> Option<Self> {
        match self {
            Self::NeverEnding(ne) if ne.cycle_start_lap == 0 => Some(self),
            _ => None,
        }
    }
}

/// The in-move state compared for never-ending detection (the mover's ring first).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct LapState {
    me: [u8; RING],
    op: [u8; RING],
    houses: [House; 2],
    blocked: [Option<u8>; 2],
    cur: u8,
    dir: Direction,
    captured: bool,
}

/// What a move changes in a position (the rest, the side to move and the rules, it keeps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Changed {
    pub(crate) board: [[u8; RING]; 2],
    pub(crate) hands: [u8; 2],
    pub(crate) houses: [House; 2],
    pub(crate) blocked: [Option<u8>; 2],
}

/// The result of running a move.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Outcome {
    /// The position's board, hands, houses and takasia marks after the move.
    pub(crate) after: Changed,
    pub(crate) finish: Finish,
    /// The move stopped in the functional nyumba where a safari was possible.
    pub(crate) stopped_at_house: bool,
    /// The opponent front pit (ring 0..8) of the first capture.
    pub(crate) first_capture: Option<u8>,
    /// Bit i set: the opponent's front pit with ring index i was captured.
    pub(crate) captured_mask: u8,
    pub(crate) laps: u64,
    pub(crate) sown: u64,
    /// For a never-ending move decided in the relay frame ([`crate::relay`]): the frame's
    /// period, which the search for the cycle's first lap steps by; 0 otherwise.
    pub(crate) frame_period: u64,
}

impl Outcome {
    /// A placeholder for a run not made yet, to be overwritten by one (an empty board, no
    /// laps). A constant, so that filling a slot with it reads no position just written.
    pub(crate) const UNPLAYED: Self = Self {
        after: Changed {
            board: [[0; RING]; 2],
            hands: [0; 2],
            houses: [House::Absent; 2],
            blocked: [None; 2],
        },
        finish: Finish::Done,
        stopped_at_house: false,
        first_capture: None,
        captured_mask: 0,
        laps: 0,
        sown: 0,
        frame_period: 0,
    };
}

/// A run the lean loop handed over ([`Lean::run`]), or a fresh one stepped lap by lap: the
/// [`Lean`] state it goes on from, and what the rare rules need besides. Its usual laps are
/// the lean run's own steps ([`Lean::sow`], [`Lean::lap_end`]); it adds the laps those leave
/// to it (a lift from or a lap ending in the mover's takasia'd pit, a capture that may clear
/// a takasia or end the move in bao hamna, a house lost at the first mtaji capture), the
/// starts the lean run does not take (a taxed namua house,
/// an AbstractPlay takasa from the blocked pit, a first capture of those kinds), and, from
/// lap 64 on, never-ending detection. It also steps the fresh runs that find a cycle's first
/// lap.
pub(crate) struct Runner<'t, T: Tracer> {
    /// The run's state, as the lean run keeps it.
    s: Lean<T>,
    pos_at_start: &'t Position,
    tracer: &'t mut T,
    mv: Move,
    /// What the move's captures read (as a capturing lean run's).
    cr: CaptureRules,
    /// The front-row guard applies (a takasa under the strict guard).
    guard: bool,
    /// The seed cap (`u64::MAX`: none).
    cap: u64,
    /// The takasia marks as the move leaves them (only the runner's laps change them).
    blocked: [Option<u8>; 2],
    /// Stop undecided where never-ending detection would begin ([`execute_quick_into`]).
    quick: bool,
    /// The frame period of a never-ending relay decided in its frame (see [`Outcome`]).
    frame_period: u64,
    /// The lap at which never-ending detection gives up (the lap budget; `u64::MAX`:
    /// never, the default).
    limit: u64,
}

/// How a step of the move ended it (a never-ending move is decided elsewhere). One byte, so
/// that the hot steps return it in a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Done,
    BaoHamna,
    FrontRowEmptied,
    Capped,
}

impl From<End> for Finish {
    #[inline]
    fn from(end: End) -> Self {
        match end {
            End::Done => Self::Done,
            End::BaoHamna => Self::BaoHamna,
            End::FrontRowEmptied => Self::FrontRowEmptied,
            End::Capped => Self::Capped,
        }
    }
}

enum Flow {
    Continue,
    End(End),
}

/// The eight front pits of a ring as one word (byte i: ring index i).
#[inline]
pub(crate) fn front_word(ring: &[u8; RING]) -> u64 {
    let [a, b, c, d, e, f, g, h, ..] = *ring;
    u64::from_le_bytes([a, b, c, d, e, f, g, h])
}

#[inline]
pub(crate) fn front_empty(ring: &[u8; RING]) -> bool {
    // The eight front pits read as one word: no loop, no branch.
    front_word(ring) == 0
}

/// Ring index of the last pit of a lap of `n` seeds sown from after `cur`.
#[inline]
pub(crate) fn lap_end(cur: usize, n: usize, dir: Direction) -> usize {
    // Anticlockwise steps are 15 = -1 (mod 16).
    (cur + n * dir.step()) % RING
}

/// One lap on a ring held as a `u128` (a byte per pit; counts never exceed 64, so no byte
/// carries into the next): `n` seeds sown from after `cur` in direction `dir`. Returns the
/// ring and the pit of the last seed. A table look-up and an addition, no loop over seeds.
#[inline(always)]
pub(crate) fn sow_ring(r: u128, cur: usize, n: usize, dir: Direction) -> (u128, usize) {
    let cur = cur % RING;
    // Added as two halves with one multiplication: no byte carries, so no half does.
    let t = SOW[dir as usize][cur][n % RING];
    let full = (n / RING) as u64 * ONES_64;
    let lo = (r as u64) + (t as u64) + full;
    let hi = ((r >> 64) as u64) + ((t >> 64) as u64) + full;
    (u128::from(hi) << 64 | u128::from(lo), lap_end(cur, n, dir))
}

impl<'t, T: Tracer> Runner<'t, T> {
    /// A fresh run of `mv` from `pos`, before anything is placed or lifted.
    pub(crate) fn new(pos: &'t Position, mv: Move, tracer: &'t mut T) -> Self {
        Self::from_lean(Lean::new(pos), pos, mv, tracer)
    }

    /// The runner that goes on from the lean state `s` of `mv` from `pos`.
    fn from_lean(s: Lean<T>, pos: &'t Position, mv: Move, tracer: &'t mut T) -> Self {
        Runner {
            s,
            pos_at_start: pos,
            tracer,
            mv,
            cr: CaptureRules::of(pos, mv),
            guard: mv.is_takasa() && pos.rules.front_row_guard == FrontRowGuard::Strict,
            cap: seed_cap(pos),
            blocked: pos.blocked,
            quick: false,
            frame_period: 0,
            limit: u64::MAX,
        }
    }

    /// The mover's index.
    fn m(&self) -> usize {
        self.pos_at_start.to_move.index() & 1
    }

    fn pit(&self, ring: usize) -> Pit {
        Pit::from_ring(self.pos_at_start.to_move, ring)
    }

    /// The houses as they stand now (those falling at the move's end still standing).
    fn houses(&self) -> [House; 2] {
        if self.s.fall_at_end {
            return self.pos_at_start.houses;
        }
        self.s.houses(self.pos_at_start)
    }

    /// The standing house of `who` falls (now, or when the move is over).
    fn destroy_house(&mut self, who: usize) {
        if self.houses()[who] != House::Owned {
            return;
        }
        if who == self.m() {
            self.s.house_falls(self.tracer);
        } else {
            self.s.opp_house_fell = true;
            if T::ON && !self.s.fall_at_end {
                let side = self.pos_at_start.to_move.opponent();
                self.tracer.event(Event::HouseDestroyed { side });
            }
        }
    }

    /// Lifts `n` seeds from `ring` to start a lap ([`Lean::lift_n`]), with what a lift from
    /// the mover's house or takasia'd pit does besides.
    fn lift(&mut self, ring: usize, n: u8, source: LapSource) -> Flow {
        let ring = ring % RING;
        if self.s.look & (1 << ring) != 0 {
            self.lift_special(ring, source);
        }
        if self.s.lift_n(ring, n, source, self.guard) {
            return Flow::End(End::FrontRowEmptied);
        }
        Flow::Continue
    }

    /// A lift from the mover's house (it falls) or his stored AbstractPlay block (cleared).
    #[cold]
    #[inline(never)]
    fn lift_special(&mut self, ring: usize, source: LapSource) {
        let rules = &self.pos_at_start.rules;
        let m = self.m();
        if ring == HOUSE_RING && rules.houses && source != LapSource::Taxed {
            self.destroy_house(m);
        }
        if rules.takasia == Takasia::AbstractPlay && self.blocked[m] == Some(ring as u8) {
            self.blocked[m] = None;
            if T::ON {
                let pit = self.pit(ring);
                self.tracer.event(Event::TakasiaCleared { pit });
            }
        }
    }

    /// Starts the move: by the lean run's start ([`Lean::start`]), or where that hands
    /// over, by [`Runner::begin_special`].
    #[inline]
    fn begin(&mut self) -> Flow {
        match self.s.start(self.pos_at_start, self.mv, self.tracer, ()) {
            Ok(()) => Flow::Continue,
            Err(LeanStop::End(end)) => Flow::End(end),
            Err(_) => self.begin_special(),
        }
    }

    /// Goes on from where [`Lean::start`] handed the move over (nothing recorded yet): a
    /// namua capture whose first capture is the runner's, or a lift from the mover's
    /// takasia'd pit, or a namua takasa from his functional house (taxed or not), or an
    /// AbstractPlay takasa from his blocked pit.
    #[cold]
    #[inline(never)]
    fn begin_special(&mut self) -> Flow {
        let p = self.mv.pit.ring() % RING;
        if T::ON && self.s.namua {
            self.tracer.event(Event::Placed { pit: self.mv.pit });
        }
        if self.s.namua && self.mv.is_capture() {
            return self.capture_at(p, true);
        }
        let rules = &self.pos_at_start.rules;
        let m = self.m();
        let count = self.s.me[p];
        if self.s.namua {
            let functional_before = rules.houses
                && p == HOUSE_RING
                && self.houses()[m] == House::Owned
                && count > HOUSE_THRESHOLD;
            if functional_before && !(rules.kuu_floor && count - 2 < HOUSE_THRESHOLD) {
                if T::ON {
                    self.tracer.event(Event::HouseTaxed { left: count - 2 });
                }
                return self.lift(p, 2, LapSource::Taxed);
            }
        } else if self.mv.is_takasa()
            && rules.takasia == Takasia::AbstractPlay
            && self.blocked[m] == Some(p as u8)
        {
            // AbstractPlay: a takasa from the stored blocked pit stops at once (a pass).
            if T::ON {
                self.tracer.event(Event::TakasiaStop { pit: self.mv.pit });
            }
            return Flow::End(End::Done);
        }
        self.lift(p, count, LapSource::Lifted)
    }

    /// Captures the opponent pit facing own front pit `i` ([`Lean::take`]), with what a
    /// capture that the lean run leaves to the runner does besides (`choose_kichwa`: the
    /// first capture of a namua move).
    #[cold]
    #[inline(never)]
    fn capture_at(&mut self, i: usize, choose_kichwa: bool) -> Flow {
        if i >= 8 || self.s.op[7 - i] == 0 {
            // Not a capture at all (a malformed move run anyway): nothing to sow.
            return Flow::End(End::Done);
        }
        let j = 7 - i;
        self.capture_special(i, j);
        let seeds = self.s.op[j];
        self.s.op[j] = 0;
        self.s.take(&self.cr, i, seeds, choose_kichwa, self.tracer);
        if front_empty(&self.s.op) && self.pos_at_start.rules.bao_hamna_mid_move {
            self.s.hand_m += seeds;
            if T::ON {
                self.tracer.event(Event::BaoHamna);
            }
            return Flow::End(End::BaoHamna);
        }
        Flow::Continue
    }

    /// What capturing the opponent's front pit `j` (facing `i`) does to houses and takasia
    /// marks beyond what [`Lean::take`] does.
    fn capture_special(&mut self, i: usize, j: usize) {
        let m = self.m();
        let o = 1 - m;
        let rules = &self.pos_at_start.rules;
        if rules.houses && j == HOUSE_RING {
            self.destroy_house(o);
        }
        if rules.takasia == Takasia::AbstractPlay {
            if self.blocked[o] == Some(j as u8) {
                self.blocked[o] = None;
            }
            if self.blocked[m] == Some(i as u8) {
                self.blocked[m] = None;
            }
        }
        if !self.s.namua && rules.house_lost_on_first_mtaji_capture {
            self.destroy_house(m);
        }
    }

    /// Decides what the lap that just ended leads to: the lean run's step
    /// ([`Lean::lap_end`]), or where that leaves the lap to the runner,
    /// [`Runner::after_lap_special`].
    #[inline(always)]
    fn after_lap(&mut self) -> Flow {
        let cr = if self.s.capturing {
            Some(&self.cr)
        } else {
            None
        };
        match self.s.lap_end(cr, self.guard, self.cap, self.tracer) {
            Step::Sow => Flow::Continue,
            Step::End(end) => Flow::End(end),
            Step::Runner => self.after_lap_special(),
        }
    }

    /// A lap the lean step leaves to the runner (not ending in an empty pit): a capture of
    /// [`CaptureRules::special`] or in bao hamna, or a lap ending in the mover's takasia'd
    /// pit (or where it was).
    #[cold]
    #[inline(never)]
    fn after_lap_special(&mut self) -> Flow {
        let cur = self.s.cur % RING;
        let count = self.s.me[cur];
        if self.s.capturing && cur < 8 && self.s.op[7 - cur] > 0 {
            self.s.record_lap(self.tracer, LapEnd::Capture);
            return self.capture_at(cur, false);
        }
        let rules = self.pos_at_start.rules;
        let m = self.m();
        // The takasia stop comes before the house rules (A.4.7): a takasia'd dormant house
        // that this lap makes functional again stops the move like any takasia'd pit.
        if let Some(h) = self.blocked[m] {
            if usize::from(h) == cur {
                let stops = match rules.takasia {
                    Takasia::Off => false,
                    Takasia::Standard => !(self.s.lap == 1 && self.started_in_functional_house()),
                    Takasia::AbstractPlay => self.mv.is_takasa(),
                };
                if stops {
                    self.s.record_lap(self.tracer, LapEnd::TakasiaStop);
                    if T::ON {
                        let pit = self.pit(cur);
                        self.tracer.event(Event::TakasiaStop { pit });
                    }
                    return Flow::End(End::Done);
                }
            }
        }
        let house = rules.houses && cur == HOUSE_RING && self.houses()[m] == House::Owned;
        if let Some(end) = self
            .s
            .go_on(count, house, self.s.capturing, self.cap, self.tracer)
        {
            return Flow::End(end);
        }
        self.lift(cur, count, LapSource::Lifted)
    }

    /// The move started by lifting the mover's functional nyumba.
    fn started_in_functional_house(&self) -> bool {
        let pos = self.pos_at_start;
        pos.rules.houses
            && self.mv.pit.ring() == HOUSE_RING
            && pos.houses[self.m()] == House::Owned
            && pos.board[self.m()][HOUSE_RING] >= HOUSE_THRESHOLD
    }

    fn state(&self) -> LapState {
        LapState {
            me: self.s.me,
            op: self.s.op,
            houses: self.houses(),
            blocked: self.blocked,
            cur: self.s.cur as u8,
            dir: self.s.dir,
            captured: self.s.captured_mask != 0,
        }
    }

    /// Writes the run that ended with `finish` into `out`.
    fn write_out(&mut self, finish: Finish, out: &mut Outcome) {
        self.s.record_falls_at_end(self.pos_at_start, self.tracer);
        self.s.write_out(self.pos_at_start, finish, out);
        out.frame_period = self.frame_period;
        out.after.blocked = self.blocked;
    }

    /// Whether never-ending moves are detected exactly (no seed cap).
    fn exact(&self) -> bool {
        !matches!(
            self.pos_at_start.rules.endless_move,
            EndlessMove::SeedCap(_)
        )
    }

    /// Runs the move from its start to its end.
    #[cfg(test)]
    fn run_inner(&mut self, cx: &mut Engine) -> Finish {
        if let Flow::End(f) = self.begin() {
            return f.into();
        }
        self.s.sow();
        self.run_on_from_lap_end(cx)
    }

    /// Runs the move on from where a lean run stopped (`stop`) to its end.
    fn run_on_from(&mut self, stop: LeanStop, cx: &mut Engine) -> Finish {
        match stop {
            LeanStop::End(end) => end.into(),
            LeanStop::Start => {
                if let Flow::End(f) = self.begin_special() {
                    return f.into();
                }
                self.s.sow();
                self.run_on_from_lap_end(cx)
            }
            LeanStop::LapEnd => self.run_on_from_lap_end(cx),
        }
    }

    /// Runs the move on from the end of a lap (after [`Lean::sow`]) to its end.
    fn run_on_from_lap_end(&mut self, cx: &mut Engine) -> Finish {
        loop {
            if self.s.lap >= DETECT_AFTER && self.exact() {
                if self.quick {
                    return Finish::Undecided;
                }
                return self.run_detecting(cx);
            }
            if let Flow::End(f) = self.next_lap() {
                return f.into();
            }
        }
    }

    /// Whether the next laps are plain relays of a takasa: no capture, no house of the mover,
    /// no takasia'd pit of his, no seed cap, nothing left to trace. Then they may be
    /// followed in the relay's frame ([`Runner::run_detecting_fast`]).
    fn fast_eligible(&self) -> bool {
        let own_house = self.pos_at_start.rules.houses && self.houses()[self.m()] == House::Owned;
        let tracing = T::ON && !self.tracer.saturated();
        !(self.s.capturing || own_house || self.blocked[self.m()].is_some() || tracing)
    }

    /// Plays the next lap (from a lap end to the next lap end).
    #[inline]
    fn next_lap(&mut self) -> Flow {
        if let Flow::End(f) = self.after_lap() {
            return Flow::End(f);
        }
        self.s.sow();
        Flow::Continue
    }

    /// Whether the in-move state equals a saved one (cheap fields first).
    #[inline]
    fn same_state(&self, s: &LapState) -> bool {
        self.s.cur == usize::from(s.cur)
            && self.s.me == s.me
            && self.s.op == s.op
            && self.s.dir == s.dir
            && (self.s.captured_mask != 0) == s.captured
            && self.houses() == s.houses
            && self.blocked == s.blocked
    }

    /// Plays `k` laps (fewer if the move ends: then how it ended).
    fn advance(&mut self, k: u64) -> Option<End> {
        for _ in 0..k {
            if let Flow::End(f) = self.next_lap() {
                return Some(f);
            }
        }
        None
    }

    /// The slow path after many laps: Brent's cycle detection on the lap-end states, in O(1)
    /// memory. Returns the period; the cycle's start is found afterwards by [`execute`].
    #[cold]
    #[inline(never)]
    fn run_detecting(&mut self, cx: &mut Engine) -> Finish {
        self.limit = self.s.lap.saturating_add(cx.laps_allowed());
        let mut tortoise = self.state();
        let mut power: u64 = 1;
        let mut lam: u64 = 0;
        loop {
            if self.fast_eligible() {
                return self.run_detecting_fast(cx);
            }
            if let Flow::End(f) = self.next_lap() {
                return f.into();
            }
            if self.s.lap >= self.limit {
                return self.give_up(cx);
            }
            lam += 1;
            if self.same_state(&tortoise) {
                return Finish::NeverEnding(NeverEnding {
                    cycle_start_lap: 0,
                    period: lam,
                });
            }
            if lam == power {
                tortoise = self.state();
                power *= 2;
                lam = 0;
            }
        }
    }

    /// Cycle detection while the laps are plain takasa relays, in the relay's frame
    /// ([`crate::relay`]): only the mover's ring and the current pit change, and a frame
    /// that repeats after `p` laps repeats the relay after `p` times 16 over the gcd of the
    /// turn and 16, so up to 16 times fewer laps are run than the period. (Once a move's laps
    /// are plain relays they stay so, so its cycle, if any, lies wholly in this phase.)
    ///
    /// Each lap compares one frame, the *watch*, and tests for a distinguished frame:
    /// - the watch is the frame where this phase starts (the anchor), met again after exactly
    ///   one frame period when it is on the cycle, the usual case;
    /// - a cycle that does not hold the anchor is found at its first distinguished frame met
    ///   twice (exactly one frame period apart: the first frame of the cycle met again is
    ///   the first repeat), from the distinguished frames kept;
    /// - a cycle with no distinguished frame in a stretch of `no_point_stretch` laps
    ///   ([`crate::context::RelayConfig`]; or
    ///   met when the distinguished frames kept are already [`relay::MEMO_POINTS`]) has the
    ///   watch moved there and then to every point twice as far on (Brent's method), so
    ///   every cycle is found.
    ///
    /// The first lap on the cycle is then found from the distinguished frames kept, with a
    /// short walk ([`Runner::first_lap_on_cycle`]).
    fn run_detecting_fast(&mut self, cx: &mut Engine) -> Finish {
        let guard = self.guard;
        let mut relay = Relay::new(
            u128::from_le_bytes(self.s.me),
            self.s.cur,
            self.s.dir,
            guard,
        );
        let anchor_lap = self.s.lap;
        // The watched frame, where it was (laps since the anchor) and its pit; Brent's
        // stretch once the watch has left the anchor (0 before).
        let (mut watch, mut watch_at, mut watch_cur) = (relay.q, 0u64, relay.cur);
        let (anchored, pointed) = cx.detectors;
        let no_point_stretch = cx.config.no_point_stretch;
        let dp_limit = cx.config.dp_limit();
        if !anchored {
            // (Tests only.) No frame has a pit of 255 seeds: the anchor is never met.
            watch = u128::MAX;
        }
        let mut stretch = 0u64;
        let mut move_watch_at = no_point_stretch;
        // The distinguished frames met, with their laps since the anchor (in order) and
        // where each was met (for a repeat).
        let mut points: Vec<(u64, u128)> = Vec::new();
        let mut met: std::collections::HashMap<u128, (u64, usize)> =
            std::collections::HashMap::new();
        let allowed = self.limit.saturating_sub(self.s.lap);
        // The cycle: its frame period, and where a frame of it was met (laps since the
        // anchor, the frame, its pit).
        let (frame_period, on_cycle_at, on_cycle, from_cur) = loop {
            // Laps run in the relay's hot loop until one needs a look: a distinguished
            // frame, the watch met again (compared by low halves there, in full here), or
            // a lap limit.
            let watch_lo = watch as u64;
            let until = move_watch_at.min(allowed);
            let pause = if pointed {
                relay.run_until(until, move |q| {
                    q as u64 == watch_lo || relay::distinguished(q, dp_limit)
                })
            } else {
                relay.run_until(until, move |q| q as u64 == watch_lo)
            };
            if let relay::Pause::Stop(stop) = pause {
                return self.leave_relay(&relay, stop).into();
            }
            if relay.laps >= allowed {
                self.leave_relay(&relay, Stop::Done);
                return self.give_up(cx);
            }
            let since_anchor = relay.laps;
            if relay.q == watch {
                break (since_anchor - watch_at, watch_at, watch, watch_cur);
            }
            if pointed && relay::distinguished(relay.q, dp_limit) {
                let lap = anchor_lap + since_anchor;
                if let Some(known) = cx.memo.recall(relay.q, guard, lap - 1) {
                    return self.decide_known(&relay, known, lap);
                }
                if let Some(&(at, cur)) = met.get(&relay.q) {
                    break (since_anchor - at, at, relay.q, cur);
                }
                // Kept while there is room; once there is none, the stretch is no longer
                // renewed, so that Brent's method takes over and every cycle is still found.
                if points.len() < relay::MEMO_POINTS {
                    points.push((since_anchor, relay.q));
                    met.insert(relay.q, (since_anchor, relay.cur));
                    if stretch == 0 {
                        move_watch_at = since_anchor + no_point_stretch;
                    }
                }
            }
            if since_anchor >= move_watch_at {
                // A long stretch without a distinguished frame: Brent's method from here.
                stretch = stretch.saturating_mul(2).max(no_point_stretch);
                (watch, watch_at, watch_cur) = (relay.q, since_anchor, relay.cur);
                move_watch_at = since_anchor + stretch;
            }
        };
        // How far the frame has turned over one frame period: taken here, before the guard's
        // walk below moves the relay on round the whole cycle.
        let turn = relay::turn(from_cur, relay.cur, self.s.dir);
        let period = relay::period(frame_period, turn);
        if relay.pattern_seen && guard {
            // The front-row guard does not turn with the ring: follow the relay round the
            // rest of its cycle, where it may still fire.
            for _ in frame_period..period {
                if let Some(stop) = relay.lap() {
                    return self.leave_relay(&relay, stop).into();
                }
                if relay.laps >= allowed {
                    self.leave_relay(&relay, Stop::Done);
                    return self.give_up(cx);
                }
            }
        }
        // The distinguished frames of the cycle (those from the frame found on it on).
        let from = points.partition_point(|&(at, _)| at < on_cycle_at);
        let cycle_points = &points[from..];
        cx.memo.remember(
            cx.config.memo_min_frame_period,
            (frame_period, turn, relay.pattern_seen),
            cycle_points,
        );
        self.leave_relay(&relay, Stop::Done);
        self.frame_period = frame_period;
        // A frame of the cycle at lap `base` of the move; the frames at laps `1 + m *
        // frame_period` (those a fresh run's first lap is compared with) lie `ahead` laps
        // on from it round the cycle. Start from the distinguished frame nearest behind
        // that point (or the frame found) and walk the rest.
        let base = anchor_lap + on_cycle_at;
        let ahead = (frame_period - (base - 1) % frame_period) % frame_period;
        let target = on_cycle_at + ahead;
        let (at, q) = cycle_points[..cycle_points.partition_point(|&(at, _)| at <= target)]
            .last()
            .copied()
            .unwrap_or((on_cycle_at, on_cycle));
        let along = Relay {
            q,
            guard: false,
            ..relay
        };
        let cycle_start_lap = self.first_lap_on_cycle(along, target - at, base);
        Finish::NeverEnding(NeverEnding {
            cycle_start_lap,
            period,
        })
    }

    /// The first lap of a never-ending move on its cycle, found by a fresh run from lap 1
    /// beside `along`, a walk along the cycle that `walk` laps on reaches the frame the
    /// fresh run's first lap has if that lap is on the cycle (one a whole number of frame
    /// periods later): the first lap whose frame (and the rest of the state, the runner's
    /// as it is now) agrees is on the cycle, and no earlier one is. Laps up to `up_to`, one
    /// known to be on the cycle, are tried; 0 if none agrees (then [`execute`] looks again).
    fn first_lap_on_cycle(&self, mut along: Relay, walk: u64, up_to: u64) -> u64 {
        let fixed = self.state();
        for _ in 0..walk {
            along.lap();
        }
        let mut unit = ();
        let mut fresh = Runner::new(self.pos_at_start, self.mv, &mut unit);
        if matches!(fresh.begin(), Flow::Continue) {
            fresh.s.sow();
            for k in 1..=up_to {
                if fresh.same_state_except_ring(&fixed) && fresh.frame() == along.q {
                    return k;
                }
                if matches!(fresh.next_lap(), Flow::End(_)) || along.lap().is_some() {
                    break;
                }
            }
        }
        0
    }

    /// A relay that reached, at lap `lap`, a distinguished frame of a cycle in the memo:
    /// never-ending, with the cycle's period. Its first lap on the cycle is found by a fresh
    /// run from lap 1 beside a walk along the cycle from `known.earlier`, placed so that
    /// both reach the frame met at lap `lap` together.
    fn decide_known(&mut self, relay: &Relay, known: relay::Known, lap: u64) -> Finish {
        self.leave_relay(relay, Stop::Done);
        self.frame_period = known.frame_period;
        let along = Relay {
            q: known.earlier,
            guard: false,
            ..*relay
        };
        let cycle_start_lap = self.first_lap_on_cycle(along, known.laps_behind - (lap - 1), lap);
        Finish::NeverEnding(NeverEnding {
            cycle_start_lap,
            period: relay::period(known.frame_period, known.turn),
        })
    }

    /// The lap budget ran out: the move is not decided (noted in the engine).
    #[cold]
    fn give_up(&self, cx: &mut Engine) -> Finish {
        cx.gave_up(self.s.lap);
        Finish::Undecided
    }

    /// The mover's ring and lap count taken back from a relay followed in its frame;
    /// `stop`, how it ended, as an [`End`].
    fn leave_relay(&mut self, relay: &Relay, stop: Stop) -> End {
        self.s.me = relay.ring().to_le_bytes();
        self.s.cur = relay.cur;
        self.s.lap += relay.laps;
        self.s.sown += relay.sown;
        match stop {
            Stop::Done => End::Done,
            Stop::FrontRowEmptied => End::FrontRowEmptied,
        }
    }

    /// The mover's ring in the relay frame of the current pit.
    fn frame(&self) -> u128 {
        relay::to_frame(u128::from_le_bytes(self.s.me), self.s.cur, self.s.dir)
    }

    /// Whether everything but the mover's ring and the current pit equals a saved state.
    fn same_state_except_ring(&self, s: &LapState) -> bool {
        self.s.op == s.op
            && self.s.dir == s.dir
            && (self.s.captured_mask != 0) == s.captured
            && self.houses() == s.houses
            && self.blocked == s.blocked
    }
}

/// Where a move becomes a plain relay still going after `min_laps` laps: its ring, the
/// pit where the lap ended, the direction, whether the front-row guard applies, and the lap.
/// `None` when the move ends first, or stays outside plain relays for `limit` laps.
#[cfg(test)]
pub(crate) fn relay_entry(
    pos: &Position,
    mv: Move,
    min_laps: u64,
    limit: u64,
) -> Option<(u128, usize, Direction, bool, u64)> {
    let mut unit = ();
    let mut r = Runner::new(pos, mv, &mut unit);
    if matches!(r.begin(), Flow::End(_)) {
        return None;
    }
    r.s.sow();
    loop {
        if r.s.lap >= min_laps && r.fast_eligible() {
            let guard = mv.is_takasa() && pos.rules.front_row_guard == FrontRowGuard::Strict;
            return Some((
                u128::from_le_bytes(r.s.me),
                r.s.cur,
                r.s.dir,
                guard,
                r.s.lap,
            ));
        }
        if r.s.lap > limit || matches!(r.next_lap(), Flow::End(_)) {
            return None;
        }
    }
}

/// Finds the first lap on the cycle of a never-ending move, its period known: two fresh
/// runners `period` laps apart step together until their states agree. With a relay frame
/// period (`frame_period` > 0; the cycle is a plain relay's), they run that far apart and
/// compare frames: a plain-relay state is on the cycle exactly when its frame is on the
/// frame's cycle, and no other state is (houses, takasia marks and captures never come
/// back within a move).
fn cycle_start(pos: &Position, mv: Move, period: u64, frame_period: u64) -> u64 {
    let (mut a, mut b) = ((), ());
    let mut trail = Runner::new(pos, mv, &mut a);
    let mut lead = Runner::new(pos, mv, &mut b);
    if matches!(trail.begin(), Flow::End(_)) || matches!(lead.begin(), Flow::End(_)) {
        return 0;
    }
    trail.s.sow();
    lead.s.sow();
    let gap = if frame_period > 0 {
        frame_period
    } else {
        period
    };
    if lead.advance(gap).is_some() {
        return 0;
    }
    loop {
        let on_cycle = if frame_period > 0 {
            trail.fast_eligible()
                && trail.same_state_except_ring(&lead.state())
                && trail.frame() == lead.frame()
        } else {
            trail.same_state(&lead.state())
        };
        if on_cycle {
            return trail.s.lap;
        }
        if trail.advance(1).is_some() || lead.advance(1).is_some() {
            return 0;
        }
    }
}

/// The state of a move being run, and the one statement of its usual laps. The position it
/// starts from is only read (its rules, its side to move); what changes is held here, the
/// two rings relative to the mover, and is written out once at the end ([`Changed`]). Its
/// counters live in registers, the two rings in the stack frame (a pit is read or written by
/// one instruction). Rule tests that cannot change during a move and would run at every lap
/// are folded into the masks `look`, `special` and [`CaptureRules`], so that the usual lap
/// tests nothing else.
///
/// Usual laps ([`Lean::lap_end`]) are those that end in an empty pit, a capture or a relay,
/// under the seed cap or not, and a relay or a capture that takes a house (which falls at
/// once or at the move's end), and a lap that ends in the mover's functional house (a stop,
/// a safari, a mtaji relay). Everything else (a lift from or a lap ending in a takasia'd pit,
/// a capture that may clear a takasia or end the move in bao hamna, a house lost at the
/// first mtaji capture, the lap where never-ending detection begins, the starts it does not
/// take) is the
/// [`Runner`]'s, which holds this state and goes on from it, its own usual laps made by the
/// same steps.
///
/// Traced or not by the tracer its steps are given (a [`Tracer`]; `()` compiles every record
/// away): a step that leaves its lap to the runner has changed and recorded nothing of it
/// (at the start: nothing at all), so that the runner records the lap whole.
struct Lean<T: Tracer> {
    /// The mover's ring.
    me: [u8; RING],
    /// The opponent's ring.
    op: [u8; RING],
    /// Bit i: a lap ending at ring index i needs more than the empty-pit and capture tests
    /// (the mover's standing house, or a pit of `special`).
    look: u16,
    /// Bit r: a lift from or a lap ending at the mover's ring index r is the runner's (his
    /// takasia'd pit).
    special: u16,
    /// The mover's house fell during this run (or falls at its end).
    house_fell: bool,
    /// A lap ending in the mover's functional house stops the move (else it goes on, the
    /// house lifted: a safari, or a mtaji relay).
    house_stops: bool,
    /// The run stopped in the functional nyumba where a safari was possible.
    stopped_at_house: bool,
    /// The mover is in namua.
    namua: bool,
    /// The opponent's house fell during this run (or falls at its end).
    opp_house_fell: bool,
    /// Houses fall at the move's end: one that falls during the run stands until then.
    fall_at_end: bool,
    /// The pit of the last seed sown (after a lift or a capture: the pit before the first).
    cur: usize,
    /// Seeds in hand for the next lap.
    hand: usize,
    dir: Direction,
    /// Laps sown so far.
    lap: u64,
    /// Seeds sown so far.
    sown: u64,
    /// The mover's reserve.
    hand_m: u8,
    /// Bit i set: the opponent's front pit with ring index i was captured.
    captured_mask: u8,
    /// The opponent front pit (ring 0..8) of the first capture.
    first_capture: Option<u8>,
    /// The move captures (decided at its start).
    capturing: bool,
    /// Where the current lap started (kept when traced only).
    mark: T::Mark,
}

/// How a lean run stopped.
#[derive(Clone, Copy)]
enum LeanStop {
    /// The move ended.
    End(End),
    /// The runner goes on from the start ([`Runner::begin_special`]; nothing recorded yet).
    Start,
    /// The runner runs it on from the end of the lap just sown.
    LapEnd,
}

/// What the end of a lap led to ([`Lean::lap_end`]).
#[derive(Clone, Copy)]
enum Step {
    /// The next lap's seeds are in hand.
    Sow,
    /// The move ended.
    End(End),
    /// The lap is the runner's ([`Runner::after_lap_special`]); nothing of it changed or
    /// recorded.
    Runner,
}

/// What a capturing run reads of the position and the move, computed once per run.
#[derive(Clone, Copy)]
struct CaptureRules {
    /// Bit j: capturing the opponent's front pit j is the runner's (it may clear a takasia;
    /// every capture when the mover's house falls at his first mtaji capture).
    special: u8,
    /// Bit j: capturing the opponent's front pit j takes his standing house (it falls, at
    /// once or at the move's end).
    opp_house: u8,
    bao_hamna: bool,
    /// The move's sign is `>` (the kichwa a namua capture chooses).
    right: bool,
}

impl CaptureRules {
    #[inline(always)]
    fn of(pos: &Position, mv: Move) -> Self {
        let m = pos.to_move.index() & 1;
        let o = 1 - m;
        let rules = &pos.rules;
        let mut special = 0u8;
        if let Some(h) = pos.blocked[m] {
            special |= 1 << (7 - h % 8);
        }
        if let Some(h) = pos.blocked[o] {
            special |= 1 << (h % 8);
        }
        let opp_house = u8::from(pos.houses[o] == House::Owned) << HOUSE_RING;
        if rules.house_lost_on_first_mtaji_capture
            && pos.hands[m] == 0
            && pos.houses[m] == House::Owned
        {
            special = u8::MAX;
        }
        Self {
            special,
            opp_house,
            bao_hamna: rules.bao_hamna_mid_move,
            right: mv.sign == Sign::Right,
        }
    }
}

/// What follows a lean start ([`Lean::start`]) that leaves the first lap's seeds in hand:
/// given the capture rules when the move captures, and whether the front-row guard applies.
trait Then<T: Tracer> {
    type Out;
    fn laps(
        self,
        s: &mut Lean<T>,
        cr: Option<&CaptureRules>,
        guard: bool,
        tracer: &mut T,
    ) -> Self::Out;
}

/// A fresh runner's start: nothing follows (it steps its laps itself).
impl<T: Tracer> Then<T> for () {
    type Out = ();
    #[inline(always)]
    fn laps(self, _: &mut Lean<T>, _: Option<&CaptureRules>, _: bool, _: &mut T) {}
}

/// A lean run's start: its laps follow ([`Lean::laps`]) under the seed cap `cap`.
struct LeanLaps {
    cap: u64,
}

impl<T: Tracer> Then<T> for LeanLaps {
    type Out = LeanStop;
    #[inline(always)]
    fn laps(
        self,
        s: &mut Lean<T>,
        cr: Option<&CaptureRules>,
        guard: bool,
        tracer: &mut T,
    ) -> LeanStop {
        match (cr, guard) {
            (Some(cr), _) => s.laps::<true, false>(Some(cr), self.cap, tracer),
            (None, true) => s.laps::<false, true>(None, self.cap, tracer),
            (None, false) => s.laps::<false, false>(None, self.cap, tracer),
        }
    }
}

/// The seed cap of a run from `pos` (`u64::MAX`: none).
#[inline(always)]
fn seed_cap(pos: &Position) -> u64 {
    match pos.rules.endless_move {
        EndlessMove::SeedCap(cap) => u64::from(cap),
        _ => u64::MAX,
    }
}

/// Whether a lap ending in the mover's functional house stops the move: always a namua
/// takasa, a namua capture unless a safari, never a mtaji capture, a mtaji takasa as the
/// rules say.
#[inline(always)]
fn house_stops(namua: bool, capturing: bool, mv: Move, pos: &Position) -> bool {
    match (namua, capturing) {
        (true, false) => true,
        (true, true) => !mv.is_safari(),
        (false, true) => false,
        (false, false) => pos.rules.mtaji_takasa_house == HouseLap::Stop,
    }
}

impl<T: Tracer> Lean<T> {
    /// The state at the start of `mv` from `pos`, before anything is placed or lifted.
    #[inline(always)]
    fn new(pos: &Position) -> Self {
        let m = pos.to_move.index() & 1;
        let mut special = 0u16;
        if let Some(h) = pos.blocked[m] {
            special |= 1 << (h % 16);
        }
        let look = u16::from(pos.rules.houses && pos.houses[m] == House::Owned) << HOUSE_RING;
        Self {
            me: pos.board[m],
            op: pos.board[1 - m],
            look: look | special,
            special,
            house_fell: false,
            house_stops: false,
            stopped_at_house: false,
            namua: pos.hands[m] > 0,
            opp_house_fell: false,
            fall_at_end: pos.rules.houses_fall_at_move_end,
            cur: 0,
            hand: 0,
            dir: Direction::Clockwise,
            lap: 0,
            sown: 0,
            hand_m: pos.hands[m],
            captured_mask: 0,
            first_capture: None,
            capturing: false,
            mark: T::mark(pos.to_move, 0, LapSource::Lifted),
        }
    }

    /// Runs `mv` from `pos` while its laps are usual ones: to its end, or to where the
    /// runner takes over. Recorded by `tracer` as the runner records it.
    #[inline(always)]
    fn run(&mut self, pos: &Position, mv: Move, tracer: &mut T) -> LeanStop {
        let cap = seed_cap(pos);
        match self.start(pos, mv, tracer, LeanLaps { cap }) {
            Ok(stop) | Err(stop) => stop,
        }
    }

    /// Starts `mv` from `pos`: the namua placement, then the first capture or the first
    /// lift. Then the first lap's seeds are in hand and `laps` goes on (given the capture
    /// rules when the move captures, and whether the front-row guard applies); or the move
    /// ended; or ([`LeanStop::Start`]) the runner goes on from here, nothing recorded yet.
    #[inline(always)]
    fn start<R>(
        &mut self,
        pos: &Position,
        mv: Move,
        tracer: &mut T,
        then: impl Then<T, Out = R>,
    ) -> Result<R, LeanStop> {
        let rules = &pos.rules;
        let p = mv.pit.ring() % RING;
        self.cur = p;
        let namua = self.namua;
        if namua {
            // The seed is placed.
            self.hand_m -= 1;
            self.me[p] += 1;
            if mv.is_capture() {
                self.capturing = true;
                if p >= 8 || self.op[7 - p] == 0 {
                    // Not a capture at all (a malformed move run anyway): nothing to sow.
                    if T::ON {
                        tracer.event(Event::Placed { pit: mv.pit });
                    }
                    return Err(LeanStop::End(End::Done));
                }
                self.house_stops = house_stops(true, true, mv, pos);
                let cr = CaptureRules::of(pos, mv);
                // (Its placement recorded by the capture.)
                if !self.capture(&cr, p, true, tracer) {
                    return Err(LeanStop::Start);
                }
                return Ok(then.laps(self, Some(&cr), false, tracer));
            }
            self.dir = mv.sign.sowing_direction(Row::Front);
        } else {
            self.dir = mv.sign.sowing_direction(mv.pit.row());
            self.capturing = mv.is_capture() && self.me[p] < rules.capture_threshold;
        }
        self.house_stops = house_stops(namua, self.capturing, mv, pos);
        let bit = 1 << p;
        let from_house = self.look & bit != 0;
        // A lift from the mover's house falls it; a namua takasa from the functional house
        // may be taxed, the runner's, as a lift from a pit of `special`. (Nothing is
        // recorded before a hand-over.)
        if from_house && (self.special & bit != 0 || (namua && self.me[p] > HOUSE_THRESHOLD)) {
            return Err(LeanStop::Start);
        }
        if T::ON && namua {
            tracer.event(Event::Placed { pit: mv.pit });
        }
        if from_house {
            self.house_falls(tracer);
        }
        let guard = mv.is_takasa() && rules.front_row_guard == FrontRowGuard::Strict;
        if self.lift(p, guard) {
            return Err(LeanStop::End(End::FrontRowEmptied));
        }
        if self.capturing {
            let cr = CaptureRules::of(pos, mv);
            Ok(then.laps(self, Some(&cr), false, tracer))
        } else {
            Ok(then.laps(self, None, guard, tracer))
        }
    }

    /// The mover lifts his standing house (not taxed), or loses it: it falls.
    #[inline(always)]
    fn house_falls(&mut self, tracer: &mut T) {
        self.house_fell = true;
        if self.fall_at_end {
            // It stands (and is recorded as fallen) until the move is over.
            return;
        }
        self.look = self.special;
        if T::ON {
            let side = T::lap_mark(self.mark).side;
            tracer.event(Event::HouseDestroyed { side });
        }
    }

    /// Records the houses that fell during the run when they fall at the move's end (South's
    /// first).
    #[inline(always)]
    fn record_falls_at_end(&self, pos: &Position, tracer: &mut T) {
        if T::ON && self.fall_at_end {
            let m = pos.to_move.index() & 1;
            for (who, side) in [(0, Side::South), (1, Side::North)] {
                if (who == m && self.house_fell) || (who != m && self.opp_house_fell) {
                    tracer.event(Event::HouseDestroyed { side });
                }
            }
        }
    }

    /// Lifts all the seeds of `ring` ([`Lean::lift_n`]).
    #[inline(always)]
    fn lift(&mut self, ring: usize, guard: bool) -> bool {
        let ring = ring % RING;
        let n = self.me[ring];
        self.lift_n(ring, n, LapSource::Lifted, guard)
    }

    /// Lifts `n` seeds from `ring` (their `source`: lifted, or the taxed house's two) to
    /// start a lap; whether the front-row guard (`guard`: it applies) ends the move.
    #[inline(always)]
    fn lift_n(&mut self, ring: usize, n: u8, source: LapSource, guard: bool) -> bool {
        let ring = ring % RING;
        self.hand = usize::from(n);
        self.me[ring] -= n;
        self.cur = ring;
        if T::ON {
            self.mark = T::mark(T::lap_mark(self.mark).side, ring, source);
        }
        guard && ring < 8 && front_empty(&self.me) && (ring + self.dir.step()) % RING >= 8
    }

    /// Records the lap just sown, which ended as `ended`.
    #[inline(always)]
    fn record_lap(&self, tracer: &mut T, ended: LapEnd) {
        if T::ON {
            let mark = T::lap_mark(self.mark);
            tracer.lap(Lap {
                number: self.lap,
                start: Pit::from_ring(mark.side, mark.start),
                source: mark.source,
                direction: self.dir,
                seeds: self.hand as u32,
                end: Pit::from_ring(mark.side, self.cur % RING),
                ended,
            });
        }
    }

    /// Captures the opponent's pit facing the mover's front pit `i` (< 8, not empty) and
    /// prepares the captured lap ([`Lean::take`]); `false`, changing and recording nothing,
    /// when the capture is the runner's. Recorded with the lap that made it
    /// (`choose_kichwa`: the namua placement, recorded instead).
    #[inline(always)]
    fn capture(
        &mut self,
        cr: &CaptureRules,
        i: usize,
        choose_kichwa: bool,
        tracer: &mut T,
    ) -> bool {
        let j = 7 - i % 8;
        if cr.special & (1 << j) != 0 {
            return false;
        }
        let seeds = self.op[j];
        self.op[j] = 0;
        if cr.bao_hamna && front_empty(&self.op) {
            self.op[j] = seeds;
            return false;
        }
        if T::ON {
            if choose_kichwa {
                // The placement's pit is the move's.
                let side = T::lap_mark(self.mark).side;
                tracer.event(Event::Placed {
                    pit: Pit::from_ring(side, i),
                });
            } else {
                self.record_lap(tracer, LapEnd::Capture);
            }
        }
        self.take(cr, i, seeds, choose_kichwa, tracer);
        true
    }

    /// The capture of the `seeds` just taken from the opponent's pit facing the mover's
    /// front pit `i`: his standing house there falls, and the captured lap is prepared from
    /// the kichwa (fixed at the ends of the row; chosen by the sign at the first capture of
    /// a namua move, `choose_kichwa`; otherwise the one the sowing comes from).
    #[inline(always)]
    fn take(
        &mut self,
        cr: &CaptureRules,
        i: usize,
        seeds: u8,
        choose_kichwa: bool,
        tracer: &mut T,
    ) {
        let j = 7 - i % 8;
        let side = T::lap_mark(self.mark).side;
        if cr.opp_house & (1 << j) != 0 {
            if T::ON && !self.opp_house_fell && !self.fall_at_end {
                let side = side.opponent();
                tracer.event(Event::HouseDestroyed { side });
            }
            self.opp_house_fell = true;
        }
        self.captured_mask |= 1 << j;
        if self.first_capture.is_none() {
            self.first_capture = Some(j as u8);
        }
        let anticlockwise = match i {
            0 | 1 => false,
            6 | 7 => true,
            _ if choose_kichwa => cr.right,
            _ => self.dir == Direction::Anticlockwise,
        };
        // From the pit before the kichwa: 15 (clockwise from 0) or 8 (anticlockwise from 7).
        (self.dir, self.cur) = if anticlockwise {
            (Direction::Anticlockwise, 8)
        } else {
            (Direction::Clockwise, RING - 1)
        };
        self.hand = usize::from(seeds);
        if T::ON {
            let kichwa = if anticlockwise { 7 } else { 0 };
            let kp = Pit::from_ring(side, kichwa);
            if choose_kichwa && (2..6).contains(&i) {
                tracer.event(Event::KichwaChosen { kichwa: kp });
            }
            tracer.capture(Capture {
                pit: Pit::from_ring(side.opponent(), j),
                seeds,
                kichwa: kp,
                direction: self.dir,
                after_lap: self.lap,
            });
            self.mark = T::mark(side, kichwa, LapSource::Captured);
        }
    }

    /// Sows the hand ([`sow_ring`]): the state at the lap's end is then ready for
    /// [`Lean::lap_end`], or for comparison.
    #[inline(always)]
    fn sow(&mut self) {
        let n = self.hand;
        let r;
        (r, self.cur) = sow_ring(u128::from_le_bytes(self.me), self.cur, n, self.dir);
        self.me = r.to_le_bytes();
        self.lap += 1;
        self.sown += n as u64;
    }

    /// The usual lap's end, from the end of the lap just sown to the next lap's seeds in
    /// hand: it ends in an empty pit; or captures (`cr` given: the move captures); or in
    /// the mover's standing house stops the move, or goes on (a safari in namua, a relay
    /// in mtaji) and the house falls; or relays; unless the seed cap `cap` (`u64::MAX`:
    /// none) aborts a relay or a safari; a lift checks the front-row guard (`guard`: it
    /// applies). [`Step::Runner`] where the lap is the runner's.
    #[inline(always)]
    fn lap_end(
        &mut self,
        cr: Option<&CaptureRules>,
        guard: bool,
        cap: u64,
        tracer: &mut T,
    ) -> Step {
        let cur = self.cur % RING;
        let count = self.me[cur];
        if count == 1 {
            self.record_lap(tracer, LapEnd::EmptyPit);
            return Step::End(End::Done);
        }
        if let Some(cr) = cr {
            if cur < 8 && self.op[7 - cur] > 0 {
                // (The lap recorded by the capture.)
                if !self.capture(cr, cur, false, tracer) {
                    return Step::Runner;
                }
                return Step::Sow;
            }
        }
        let bit = 1 << cur;
        let capturing = cr.is_some();
        if self.look & bit != 0 {
            if self.special & bit != 0 {
                return Step::Runner;
            }
            // The mover's standing house: lifted if the move goes on, and falls.
            if let Some(end) = self.go_on(count, true, capturing, cap, tracer) {
                return Step::End(end);
            }
            self.house_falls(tracer);
        } else if let Some(end) = self.go_on(count, false, capturing, cap, tracer) {
            return Step::End(end);
        }
        if self.lift(cur, guard) {
            return Step::End(End::FrontRowEmptied);
        }
        Step::Sow
    }

    /// Whether the move goes on from the pit where the lap just sown ended, holding `count`
    /// seeds (more than one) and making no capture (`capturing`: the move captures): in the
    /// mover's standing house (`house`), functional, it may stop the move (in namua, a
    /// capture where a safari was possible); else the seed cap `cap` (`u64::MAX`: none) may
    /// abort it; else the lap is recorded as going on (a safari from the functional house
    /// in namua, a relay). `Some` when the move ended; else its next lap is lifted from
    /// there.
    #[inline(always)]
    fn go_on(
        &mut self,
        count: u8,
        house: bool,
        capturing: bool,
        cap: u64,
        tracer: &mut T,
    ) -> Option<End> {
        let functional = house && count >= HOUSE_THRESHOLD;
        if functional && self.house_stops {
            self.stopped_at_house = capturing && self.namua;
            self.record_lap(tracer, LapEnd::HouseStop);
            if T::ON {
                tracer.event(Event::HouseStop);
            }
            return Some(End::Done);
        }
        if self.sown > cap {
            self.record_lap(tracer, LapEnd::Aborted);
            return Some(End::Capped);
        }
        if T::ON {
            if functional && self.namua {
                self.record_lap(tracer, LapEnd::Safari);
                tracer.event(Event::Safari);
            } else {
                self.record_lap(tracer, LapEnd::Relay);
            }
        }
        None
    }

    /// The laps of a lean run: `CAPTURING`, the move captures (never changes during a move;
    /// then `cr` is given); `GUARD`, the front-row guard applies (a takasa, so never
    /// together); `cap`, the seed cap (`u64::MAX`: none). Until the move ends, a lap is the
    /// runner's, or never-ending detection would begin.
    #[inline(always)]
    fn laps<const CAPTURING: bool, const GUARD: bool>(
        &mut self,
        cr: Option<&CaptureRules>,
        cap: u64,
        tracer: &mut T,
    ) -> LeanStop {
        let cr = if CAPTURING { cr } else { None };
        loop {
            self.sow();
            if self.lap >= DETECT_AFTER {
                return LeanStop::LapEnd;
            }
            match self.lap_end(cr, GUARD, cap, tracer) {
                Step::Sow => {}
                Step::End(end) => return LeanStop::End(end),
                Step::Runner => return LeanStop::LapEnd,
            }
        }
    }

    /// The houses as this run left them.
    #[inline(always)]
    fn houses(&self, pos: &Position) -> [House; 2] {
        let mut houses = pos.houses;
        let m = pos.to_move.index() & 1;
        if self.house_fell {
            houses[m] = House::Destroyed;
        }
        if self.opp_house_fell {
            houses[1 - m] = House::Destroyed;
        }
        houses
    }

    /// Writes the run that ended with `finish` into `out` (the takasia marks unchanged, no
    /// relay frame: the runner writes its own).
    #[inline(always)]
    fn write_out(&self, pos: &Position, finish: Finish, out: &mut Outcome) {
        let m = pos.to_move.index() & 1;
        out.finish = finish;
        out.stopped_at_house = self.stopped_at_house;
        out.first_capture = self.first_capture;
        out.captured_mask = self.captured_mask;
        out.laps = self.lap;
        out.sown = self.sown;
        out.frame_period = 0;
        out.after.hands = pos.hands;
        out.after.hands[m] = self.hand_m;
        out.after.board[m] = self.me;
        out.after.board[1 - m] = self.op;
        out.after.houses = self.houses(pos);
        out.after.blocked = pos.blocked;
    }
}

/// How `mv` from `pos` ends, untraced (`quick`: undecided where never-ending detection would
/// begin), and whether it stopped in the functional nyumba where a safari was possible.
#[inline(always)]
fn lean_finish(pos: &Position, mv: Move, quick: bool, cx: &mut Engine) -> (Finish, bool) {
    let mut s = Lean::new(pos);
    match s.run(pos, mv, &mut ()) {
        LeanStop::End(end) => (end.into(), s.stopped_at_house),
        stop => finish_by_runner(pos, mv, quick, s, stop, cx),
    }
}

/// [`lean_finish`] where the runner takes over.
#[cold]
#[inline(never)]
fn finish_by_runner(
    pos: &Position,
    mv: Move,
    quick: bool,
    s: Lean<()>,
    stop: LeanStop,
    cx: &mut Engine,
) -> (Finish, bool) {
    let mut unit = ();
    let mut runner = Runner::from_lean(s, pos, mv, &mut unit);
    runner.quick = quick;
    let finish = runner.run_on_from(stop, cx);
    (finish, runner.s.stopped_at_house)
}

/// Runs `mv` from `pos` into `out`, recorded by `tracer` (`quick`: undecided where
/// never-ending detection would begin).
#[inline(always)]
fn lean_into<T: Tracer>(
    pos: &Position,
    mv: Move,
    quick: bool,
    out: &mut Outcome,
    tracer: &mut T,
    cx: &mut Engine,
) {
    let mut s = Lean::new(pos);
    match s.run(pos, mv, tracer) {
        LeanStop::End(end) => {
            s.record_falls_at_end(pos, tracer);
            s.write_out(pos, end.into(), out);
        }
        stop => into_by_runner(pos, mv, quick, s, stop, out, tracer, cx),
    }
}

/// [`lean_into`] where the runner takes over (`quick` as there).
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn into_by_runner<T: Tracer>(
    pos: &Position,
    mv: Move,
    quick: bool,
    s: Lean<T>,
    stop: LeanStop,
    out: &mut Outcome,
    tracer: &mut T,
    cx: &mut Engine,
) {
    let mut runner = Runner::from_lean(s, pos, mv, tracer);
    runner.quick = quick;
    let finish = runner.run_on_from(stop, cx);
    runner.write_out(finish, out);
}

/// Runs `mv` from `pos` untraced as far as the lap where never-ending detection would begin
/// (64 laps), into a slot the caller keeps: its outcome if it ended by then (the same as
/// [`execute`]'s), or one whose finish is [`Finish::Undecided`] if it is still going. A
/// caller that needs only some legal move can try the other candidates before paying for a
/// cycle decision (rules-reference §5.1 meets periods of 10^8 laps).
pub(crate) fn execute_quick_into(pos: &Position, mv: Move, out: &mut Outcome, cx: &mut Engine) {
    lean_into(pos, mv, true, out, &mut (), cx);
}

/// How `mv` from `pos` ends, run untraced, and whether it stopped in the functional nyumba
/// where a safari was possible: all that a legality test reads of a run, without writing out
/// the position after it or, for a never-ending move, finding the first lap of its cycle
/// (its `cycle_start_lap` is then 0 when the period alone was found).
pub(crate) fn finish_of(pos: &Position, mv: Move, cx: &mut Engine) -> (Finish, bool) {
    lean_finish(pos, mv, false, cx)
}

/// How `mv` from `pos` ends, as [`finish_of`], when it ends by the lap where never-ending
/// detection would begin; [`Finish::Undecided`] if it is still going then (as
/// [`execute_quick_into`]).
pub(crate) fn quick_finish_of(pos: &Position, mv: Move, cx: &mut Engine) -> (Finish, bool) {
    lean_finish(pos, mv, true, cx)
}

/// Runs `mv` from `pos` with a tracer; never-ending moves get their exact cycle start.
pub(crate) fn execute<T: Tracer>(
    pos: &Position,
    mv: Move,
    tracer: &mut T,
    cx: &mut Engine,
) -> Outcome {
    let mut out = Outcome::UNPLAYED;
    execute_into(pos, mv, tracer, &mut out, cx);
    out
}

/// [`execute`] with a fresh engine of the given thresholds (an empty memo): the plain
/// detector.
#[cfg(test)]
pub(crate) fn execute_cold(
    pos: &Position,
    mv: Move,
    config: crate::context::RelayConfig,
) -> Outcome {
    execute(pos, mv, &mut (), &mut Engine::with_config(config))
}

/// [`execute`] into a slot the caller keeps (written where it is read next, not copied
/// there): the lean run, traced or not, and the runner where it hands over.
#[inline]
pub(crate) fn execute_into<T: Tracer>(
    pos: &Position,
    mv: Move,
    tracer: &mut T,
    out: &mut Outcome,
    cx: &mut Engine,
) {
    lean_into(pos, mv, false, out, tracer, cx);
    if let Some(Finish::NeverEnding(ne)) = out.finish.filter_unknown_start() {
        out.finish = Finish::NeverEnding(NeverEnding {
            cycle_start_lap: cycle_start(pos, mv, ne.period, out.frame_period),
            period: ne.period,
        });
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::rules::RuleSet;
    use crate::types::{MoveKind, Pit, Sign, Stage};

    use crate::context::{small_engine, SMALL};

    /// An engine at the unit tests' scale with never-ending detection's anchor and
    /// distinguished frames on or off (Brent's method alone when both are off).
    fn with_detectors(anchored: bool, pointed: bool) -> Engine {
        let mut cx = small_engine();
        cx.detectors = (anchored, pointed);
        cx
    }

    /// The obvious exact method: remember every lap-end state until one repeats.
    fn naive(pos: &Position, mv: Move, limit: u64) -> Option<NeverEnding> {
        let mut unit = ();
        let mut r = Runner::new(pos, mv, &mut unit);
        if matches!(r.begin(), Flow::End(_)) {
            return None;
        }
        r.s.sow();
        let mut seen: HashMap<LapState, u64> = HashMap::new();
        loop {
            if let Some(first) = seen.insert(r.state(), r.s.lap) {
                return Some(NeverEnding {
                    cycle_start_lap: first,
                    period: r.s.lap - first,
                });
            }
            if r.s.lap > limit || matches!(r.next_lap(), Flow::End(_)) {
                return None;
            }
        }
    }

    /// A tiny deterministic generator for positions from random play.
    fn lcg(state: &mut bao_testkit::Lcg, n: usize) -> usize {
        state.below(n)
    }

    /// A mtaji position, houses gone, hands empty: the mover (South) holds `ring`, North
    /// the rest of the 64 seeds in his back row.
    fn relay_position(rules: RuleSet, ring: [u8; RING]) -> Option<Position> {
        let mut s = crate::Setup::start(rules);
        s.hands = crate::BySide::new(0, 0);
        let mine: u32 = ring.iter().map(|&x| u32::from(x)).sum();
        let rest = 64u32.checked_sub(mine)?;
        let mut pits = [[0u8; 8]; 4];
        for (r, &x) in ring.iter().enumerate() {
            let p = Pit::from_ring(Side::South, r);
            pits[usize::from(p.row() == Row::Back)][p.number() as usize - 1] = x;
        }
        for (i, pit) in pits[3].iter_mut().enumerate() {
            *pit = (rest / 8 + u32::from((i as u32) < rest % 8)) as u8;
        }
        s.pits = pits;
        let house = if rules.houses {
            crate::HouseState::Destroyed
        } else {
            crate::HouseState::None
        };
        s.houses = crate::BySide::new(house, house);
        Position::from_setup(s).ok()
    }

    /// Every takasa of at least two seeds from South's pits of `rounds` random relay
    /// positions (a seed count in `seeds` spread at random over South's ring; Kiswahili and
    /// Kujifunza in turn; the front-row guard off in the rounds `guard_off` picks).
    fn relay_moves(
        seed: u64,
        rounds: usize,
        seeds: std::ops::Range<usize>,
        guard_off: impl Fn(usize) -> bool,
    ) -> impl Iterator<Item = (Position, Move)> {
        let mut seed = bao_testkit::Lcg::new(seed);
        (0..rounds)
            .filter_map(move |round| {
                let mut rules = [RuleSet::KISWAHILI, RuleSet::KUJIFUNZA][round % 2];
                if guard_off(round) {
                    rules.front_row_guard = FrontRowGuard::Off;
                }
                let mut ring = [0u8; RING];
                for _ in 0..seeds.start + lcg(&mut seed, seeds.len()) {
                    ring[lcg(&mut seed, RING)] += 1;
                }
                relay_position(rules, ring)
            })
            .flat_map(|pos| {
                (0..RING)
                    .flat_map(|r| {
                        [Sign::Left, Sign::Right]
                            .map(|sign| Move::takasa(Pit::from_ring(Side::South, r), sign))
                    })
                    .filter(move |mv| pos.get(mv.pit) >= 2)
                    .map(move |mv| (pos, mv))
            })
    }

    #[test]
    fn frame_detection_agrees_on_random_relays() {
        let (mut cycles, mut late, mut in_frame, mut ended) = (0, 0, 0, 0);
        let cx = &mut small_engine();
        // Long relays need many seeds on the ring: 40 to 63, spread at random.
        for (pos, mv) in relay_moves(29, 2000, 40..64, |round| round % 3 == 0) {
            let want = naive(&pos, mv, 300_000);
            let got = execute(&pos, mv, &mut (), cx);
            // The memo never changes an answer: cold, and warm once more.
            let cold = execute_cold(&pos, mv, SMALL);
            assert_eq!(cold.finish, got.finish, "{mv}\n{pos}");
            if !matches!(got.finish, Finish::NeverEnding(_)) {
                assert_eq!((cold.laps, cold.sown), (got.laps, got.sown), "{mv}\n{pos}");
            }
            assert_eq!(
                execute(&pos, mv, &mut (), cx).finish,
                got.finish,
                "{mv}\n{pos}"
            );
            match (want, got.finish) {
                (Some(w), Finish::NeverEnding(g)) => {
                    assert_eq!(w, g, "{mv} in\n{pos}");
                    cycles += 1;
                    late += usize::from(w.cycle_start_lap > 64);
                    in_frame += usize::from(got.frame_period > 0);
                }
                (Some(w), other) => panic!("{mv}: {w:?} vs {other:?}\n{pos}"),
                (None, Finish::NeverEnding(g)) => {
                    assert!(g.period > 100_000, "{mv}: finite, {g:?}\n{pos}");
                }
                (None, f) => {
                    ended += usize::from(got.laps > 64);
                    // The same end as a run that never looks for cycles.
                    let plain = naive_end(&pos, mv);
                    if let Some((end, laps)) = plain {
                        assert_eq!((Finish::from(end), got.laps), (f, laps), "{mv}\n{pos}");
                    }
                }
            }
        }
        assert!(
            ended >= 10,
            "{cycles} cycles ({late} late, {in_frame} in the frame), {ended} long ends"
        );
    }

    /// How a move ends when run lap by lap without cycle detection (`None` past 10^6 laps).
    fn naive_end(pos: &Position, mv: Move) -> Option<(End, u64)> {
        let mut unit = ();
        let mut r = Runner::new(pos, mv, &mut unit);
        if let Flow::End(e) = r.begin() {
            return Some((e, r.s.lap));
        }
        r.s.sow();
        while r.s.lap < 1_000_000 {
            if let Flow::End(e) = r.after_lap() {
                return Some((e, r.s.lap));
            }
            r.s.sow();
        }
        None
    }

    #[test]
    fn cycle_detection_agrees_with_remembering_every_state() {
        let mut seed = bao_testkit::Lcg::new(11);
        let mut found = 0;
        let mut late_start = 0;
        let mut memo_sized = 0;
        let cx = &mut small_engine();
        for rules in [RuleSet::KUJIFUNZA, RuleSet::KISWAHILI] {
            for _game in 0..150 {
                let mut pos = Position::start(rules);
                for _ply in 0..200 {
                    // Every move from every pit of the mover, legal or not, run as a takasa
                    // and as a capturing move.
                    for ring in 0..RING {
                        for (sign, kind) in [
                            (Sign::Left, MoveKind::Takasa),
                            (Sign::Right, MoveKind::Takasa),
                            (Sign::Left, MoveKind::Capture),
                            (Sign::Right, MoveKind::Capture),
                        ] {
                            let mv = Move::new(Pit::from_ring(pos.to_move, ring), sign, kind);
                            if pos.stage() == Stage::Mtaji && pos.get(mv.pit) >= 2 {
                                let want = naive(&pos, mv, 200_000);
                                let got = execute(&pos, mv, &mut (), cx);
                                // The memo never changes an answer: cold, and warm again.
                                assert_eq!(
                                    execute_cold(&pos, mv, SMALL).finish,
                                    got.finish,
                                    "{mv}"
                                );
                                assert_eq!(
                                    execute(&pos, mv, &mut (), cx).finish,
                                    got.finish,
                                    "{mv}"
                                );
                                if got.frame_period >= SMALL.memo_min_frame_period {
                                    memo_sized += 1;
                                }
                                match (want, got.finish) {
                                    (Some(w), Finish::NeverEnding(g)) => {
                                        assert_eq!(w, g, "{mv} in\n{pos}");
                                        found += 1;
                                        if w.cycle_start_lap > 1 {
                                            late_start += 1;
                                        }
                                    }
                                    (Some(w), other) => panic!("{mv}: {w:?} vs {other:?}\n{pos}"),
                                    (None, Finish::NeverEnding(g)) if g.period < 100_000 => {
                                        panic!("{mv}: finite by the naive method, {g:?}\n{pos}")
                                    }
                                    _ => {}
                                }
                            }
                        }
                    }
                    let mut pick = |n: usize| lcg(&mut seed, n);
                    match pos.random_move(&mut pick) {
                        Some((_, next)) => pos = next,
                        None => break,
                    }
                }
                if found >= 12 && memo_sized >= 3 {
                    return;
                }
            }
        }
        // Every cycle met so far starts at lap 1 (`late_start` stays 0): relay sowing seems
        // to return to its first state; the comparison covers the other case all the same.
        assert!(
            found >= 5 && memo_sized >= 1,
            "only {found} never-ending moves met ({late_start} late, {memo_sized} long)"
        );
    }

    /// A fresh runner alone, untraced, from the start of `mv`, stepping every lap itself
    /// (`quick` as [`execute_quick_into`]; the memo of long relay cycles off, so that where
    /// a run stops in a cycle does not depend on the runs before).
    fn runner_only(
        pos: &Position,
        mv: Move,
        quick: bool,
        cx: &mut Engine,
    ) -> (Outcome, (Finish, bool)) {
        runner_traced(pos, mv, quick, &mut (), cx)
    }

    /// [`runner_only`], recorded by `tracer`.
    fn runner_traced<T: Tracer>(
        pos: &Position,
        mv: Move,
        quick: bool,
        tracer: &mut T,
        cx: &mut Engine,
    ) -> (Outcome, (Finish, bool)) {
        let mut runner = Runner::new(pos, mv, tracer);
        runner.quick = quick;
        let finish = runner.run_inner(cx);
        let stopped_at_house = runner.s.stopped_at_house;
        let mut out = Outcome::UNPLAYED;
        runner.write_out(finish, &mut out);
        (out, (finish, stopped_at_house))
    }

    /// The lean loop with its hand-overs gives the answers of a fresh runner stepping every
    /// lap itself (both by the one lap step, [`Lean::lap_end`]; the runner's stepping is
    /// what never-ending detection and the search for a cycle's first lap use), and a
    /// traced run those of an untraced one: on every move (legal or not, every pit, sign
    /// and kind) of the positions of random games of every preset and of variants that
    /// reach the rarer paths (no front-row guard, no bao hamna mid-move, houses
    /// that fall at the move's end, a house lost at the first mtaji capture), quick and in
    /// full, the outcome written out and the finish alone; traced, the same outcome and the
    /// runner's whole trace (laps, captures, events, placement), each hand-over (at the
    /// start, at a lap end) met traced too.
    #[test]
    fn lean_loop_agrees_with_runner_steps_traced_or_not() {
        let mut seed = bao_testkit::Lcg::new(5);
        let mut variants = vec![
            RuleSet::KISWAHILI,
            RuleSet::KETE,
            RuleSet::KUJIFUNZA,
            RuleSet::ABSTRACTPLAY,
            RuleSet::ABSTRACTPLAY_KUJIFUNZA,
        ];
        let mut k = RuleSet::KISWAHILI;
        k.front_row_guard = FrontRowGuard::Off;
        k.bao_hamna_mid_move = false;
        k.houses_fall_at_move_end = true;
        variants.push(k);
        let mut k = RuleSet::KISWAHILI;
        k.house_lost_on_first_mtaji_capture = true;
        k.mtaji_takasa_house = HouseLap::Relay;
        variants.push(k);
        // Lean runs that ended, handed over at the start, handed over at a lap end; traced
        // runs without and with a lap recorded.
        let mut seen = [0usize; 3];
        let mut traced = [0usize; 2];
        for rules in variants {
            for _game in 0..6 {
                let mut pos = Position::start(rules);
                for _ply in 0..150 {
                    for ring in 0..RING {
                        for sign in [Sign::Left, Sign::Right] {
                            for kind in [MoveKind::Takasa, MoveKind::Capture, MoveKind::Safari] {
                                let mv = Move::new(Pit::from_ring(pos.to_move, ring), sign, kind);
                                if pos.stage() == Stage::Mtaji && pos.get(mv.pit) == 0 {
                                    // Nothing to sow, ever: under a seed cap no run of it
                                    // ends.
                                    continue;
                                }
                                let mut s = Lean::<()>::new(&pos);
                                seen[match s.run(&pos, mv, &mut ()) {
                                    LeanStop::End(_) => 0,
                                    LeanStop::Start => 1,
                                    LeanStop::LapEnd => 2,
                                }] += 1;
                                for quick in [true, false] {
                                    // A small budget: past where detection begins, short
                                    // of the long cycles' decisions.
                                    let (want, want_finish) = small_engine()
                                        .within(2_000, |cx| runner_only(&pos, mv, quick, cx))
                                        .unwrap_or((Outcome::UNPLAYED, (Finish::Undecided, false)));
                                    let (got, got_finish) = small_engine()
                                        .within(2_000, |cx| {
                                            let mut out = Outcome::UNPLAYED;
                                            lean_into(&pos, mv, quick, &mut out, &mut (), cx);
                                            // A fresh engine for the second run too.
                                            let fresh = &mut small_engine();
                                            (out, lean_finish(&pos, mv, quick, fresh))
                                        })
                                        .unwrap_or((Outcome::UNPLAYED, (Finish::Undecided, false)));
                                    let untraced = got;
                                    // Everything the outcome says, compared by its `Debug` form.
                                    let at = || format!("{mv} (quick: {quick}) in\n{pos}");
                                    assert_eq!(format!("{got:?}"), format!("{want:?}"), "{}", at());
                                    assert_eq!(got_finish, want_finish, "{}", at());
                                    // Traced: the same outcome and the runner's whole trace.
                                    let fresh = || MoveTrace::new(mv, pos.to_move, pos.stage());
                                    let (mut want_trace, mut got_trace) = (fresh(), fresh());
                                    let want = small_engine().within(2_000, |cx| {
                                        runner_traced(&pos, mv, quick, &mut want_trace, cx).0
                                    });
                                    let got = small_engine().within(2_000, |cx| {
                                        let mut out = Outcome::UNPLAYED;
                                        lean_into(&pos, mv, quick, &mut out, &mut got_trace, cx);
                                        out
                                    });
                                    assert_eq!(format!("{got:?}"), format!("{want:?}"), "{}", at());
                                    // Traced or not, the same end (a never-ending move
                                    // is decided elsewhere traced: the same period; and
                                    // the lap budget may run out in one only).
                                    if let Ok(traced_run) = got {
                                        match (traced_run.finish, untraced.finish) {
                                            (Finish::NeverEnding(a), Finish::NeverEnding(b)) => {
                                                assert_eq!(a.period, b.period, "{}", at());
                                            }
                                            (Finish::Undecided, _) | (_, Finish::Undecided)
                                                if !quick => {}
                                            _ => assert_eq!(
                                                format!("{traced_run:?}"),
                                                format!("{untraced:?}"),
                                                "{}",
                                                at()
                                            ),
                                        }
                                    }
                                    assert_eq!(got_trace, want_trace, "{}", at());
                                    traced[usize::from(!got_trace.laps.is_empty())] += 1;
                                }
                            }
                        }
                    }
                    let mut pick = |n: usize| lcg(&mut seed, n);
                    match pos.random_move(&mut pick) {
                        Some((_, next)) => pos = next,
                        None => break,
                    }
                }
            }
        }
        assert!(seen.iter().all(|&n| n >= 100), "{seen:?}");
        assert!(traced.iter().all(|&n| n >= 100), "{traced:?}");
    }

    /// Each of never-ending detection's ways to find a cycle alone gives the answers of
    /// remembering every state, on random relays: the anchor (no distinguished frames), the
    /// distinguished frames met twice (no anchor, so that cycles that hold it, all those
    /// met, are found as if they had a tail), and Brent's method alone (neither); cold and
    /// warm.
    #[test]
    fn each_detector_alone_agrees_with_remembering_every_state() {
        let (mut found, mut long) = (0, 0);
        for (pos, mv) in relay_moves(31, 20_000, 20..60, |_| true) {
            let Some(want) = naive(&pos, mv, 300_000) else {
                continue;
            };
            found += 1;
            for (anchored, pointed) in [(true, false), (false, true), (false, false)] {
                // Cold on a fresh engine, then warm on the same one.
                let cx = &mut with_detectors(anchored, pointed);
                let cold = execute(&pos, mv, &mut (), cx);
                let at = format!("{mv} ({anchored}, {pointed}) in\n{pos}");
                assert_eq!(cold.finish, Finish::NeverEnding(want), "{at}");
                // Longer than Brent's first stretch: his watch moves on.
                if !pointed && cold.frame_period > SMALL.no_point_stretch {
                    long += 1;
                }
                let warm = execute(&pos, mv, &mut (), cx);
                assert_eq!(warm.finish, Finish::NeverEnding(want), "{at}");
            }
            if found >= 20 && long >= 4 {
                return;
            }
        }
        panic!("only {found} never-ending moves met ({long} longer than Brent's first stretch)");
    }
}
