//! Legal moves, playing a move, the end of the game, perft.

use crate::engine::{execute, execute_quick_into, front_word, Finish, Outcome as Run, Tracer};
use crate::illegal::{IllegalReason, PlayError, ResolveError};
use crate::position::{EndReason, House, Outcome, Position};
use crate::rules::{EndCheck, EndlessMove, Takasia};
use crate::trace::{Event, MoveTrace};
use crate::types::{Direction, Move, MoveSpec, Pit, Row, Side, Sign, Stage, RING};

/// A random choice: `pick(n)` returns a number below `n`.
type Picker<'a> = Option<&'a mut dyn FnMut(usize) -> usize>;

/// What the bits of a [`MoveSet`] stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Namua captures: bit `4 * ring + 2 * sign + safari` (front pits only).
    NamuaCapture,
    /// Mtaji captures: bit `2 * ring + direction` (clockwise 0).
    MtajiCapture,
    /// Takasa moves: bit `2 * ring + sign` (`<` 0).
    Takasa,
}

/// A set of moves of one kind and one side as the bits of a `u32`: move generation
/// allocates and copies nothing, and sets are tested and combined with bit operations.
/// Iteration follows the generation order (ring index, then sign or direction).
#[derive(Debug, Clone, Copy)]
struct MoveSet {
    bits: u32,
    kind: Kind,
    side: Side,
}

const fn sign_bit(sign: Sign) -> u32 {
    match sign {
        Sign::Left => 0,
        Sign::Right => 1,
    }
}

const fn bit_sign(bit: u32) -> Sign {
    if bit & 1 == 0 {
        Sign::Left
    } else {
        Sign::Right
    }
}

impl MoveSet {
    const fn empty(kind: Kind, side: Side) -> MoveSet {
        MoveSet {
            bits: 0,
            kind,
            side,
        }
    }

    /// The bit of `mv` in this set's encoding, if `mv` is of this set's kind and side.
    fn bit_of(&self, mv: &Move) -> Option<u32> {
        if mv.pit.side() != self.side {
            return None;
        }
        let ring = mv.pit.ring() as u32;
        match self.kind {
            Kind::NamuaCapture => (!mv.takasa && ring < 8)
                .then(|| 4 * ring + 2 * sign_bit(mv.sign) + u32::from(mv.safari)),
            Kind::MtajiCapture => (!mv.takasa && !mv.safari).then(|| {
                let dir = mv.sign.sowing_direction(mv.pit.row());
                2 * ring + u32::from(dir == Direction::Anticlockwise)
            }),
            Kind::Takasa => (mv.takasa && !mv.safari).then(|| 2 * ring + sign_bit(mv.sign)),
        }
    }

    /// The move of bit `bit`.
    fn move_at(&self, bit: u32) -> Move {
        match self.kind {
            Kind::NamuaCapture => Move {
                pit: Pit::from_ring(self.side, (bit / 4) as usize),
                sign: bit_sign(bit / 2),
                takasa: false,
                safari: bit & 1 == 1,
            },
            Kind::MtajiCapture => {
                let pit = Pit::from_ring(self.side, (bit / 2) as usize);
                let dir = if bit & 1 == 0 {
                    Direction::Clockwise
                } else {
                    Direction::Anticlockwise
                };
                Move {
                    pit,
                    sign: Sign::for_sowing(pit.row(), dir),
                    takasa: false,
                    safari: false,
                }
            }
            Kind::Takasa => Move {
                pit: Pit::from_ring(self.side, (bit / 2) as usize),
                sign: bit_sign(bit),
                takasa: true,
                safari: false,
            },
        }
    }

    #[inline]
    fn insert(&mut self, mv: &Move) {
        if let Some(b) = self.bit_of(mv) {
            self.bits |= 1 << b;
        }
    }

    #[inline]
    fn contains(&self, mv: &Move) -> bool {
        self.bit_of(mv).is_some_and(|b| self.bits & (1 << b) != 0)
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.bits == 0
    }

    #[inline]
    fn len(&self) -> usize {
        self.bits.count_ones() as usize
    }

    /// The bit of the `i`-th move (from 0, in order); `i` below `len()`.
    #[inline]
    fn nth_bit(&self, i: usize) -> u32 {
        let mut b = self.bits;
        for _ in 0..i {
            b &= b - 1;
        }
        b.trailing_zeros()
    }

    #[inline]
    fn first(&self) -> Option<Move> {
        (!self.is_empty()).then(|| self.move_at(self.bits.trailing_zeros()))
    }

    /// The set bits, in order.
    fn bit_iter(&self) -> impl Iterator<Item = u32> {
        let mut b = self.bits;
        std::iter::from_fn(move || {
            (b != 0).then(|| {
                let i = b.trailing_zeros();
                b &= b - 1;
                i
            })
        })
    }

    fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.bit_iter().map(|b| self.move_at(b))
    }

    fn moves(&self) -> Vec<Move> {
        self.iter().collect()
    }
}

/// The legal moves of a position.
#[derive(Debug)]
struct Analysis {
    /// Legal captures (after never-ending and priority filters).
    captures: MoveSet,
    /// Legal takasa moves (empty when captures exist).
    takasas: MoveSet,
    /// With a picker: the move kept and its run (the one `random_move` plays).
    chosen: Chosen,
}

/// A move picked at random and its run. Candidates are run straight into `run`, so the run
/// of the move kept is never copied.
#[derive(Debug)]
struct Chosen {
    mv: Option<Move>,
    /// The run of `mv`; with `mv` unset, that of the last candidate tried, or a placeholder.
    run: Run,
}

impl Chosen {
    fn new() -> Chosen {
        Chosen {
            mv: None,
            run: Run::UNPLAYED,
        }
    }
}

impl Analysis {
    /// An empty analysis of `pos`: the capture kind of its stage.
    fn new(pos: &Position) -> Analysis {
        let capture_kind = match pos.stage() {
            Stage::Namua => Kind::NamuaCapture,
            Stage::Mtaji => Kind::MtajiCapture,
        };
        let side = pos.to_move;
        Analysis {
            captures: MoveSet::empty(capture_kind, side),
            takasas: MoveSet::empty(Kind::Takasa, side),
            chosen: Chosen::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.captures.is_empty() && self.takasas.is_empty()
    }

    fn legal(&self) -> &MoveSet {
        if self.captures.is_empty() {
            &self.takasas
        } else {
            &self.captures
        }
    }

    fn moves(&self) -> Vec<Move> {
        self.legal().moves()
    }

    fn captures(&self) -> Vec<Move> {
        self.captures.moves()
    }
}

/// One in every byte of a word.
const LOW_BYTES: u64 = u64::from_le_bytes([1; 8]);

/// Bit i set when byte i of `x` holds at least `min`, every byte holding at most 64 seeds:
/// all eight compared at once (adding `128 - min` sets a byte's high bit exactly when it
/// holds `min` or more, and no byte carries into the next), the high bits then gathered by
/// one multiplication.
#[inline]
fn bytes_at_least(x: u64, min: u8) -> u32 {
    match min {
        0 => 0xff,
        1..=128 => {
            let high = (x + LOW_BYTES * u64::from(128 - min)) & (LOW_BYTES << 7);
            ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
        }
        _ => 0,
    }
}

/// The eight back pits of a ring as one word (byte i: ring index 8 + i).
#[inline]
fn back_word(ring: &[u8; RING]) -> u64 {
    let [.., a, b, c, d, e, f, g, h] = *ring;
    u64::from_le_bytes([a, b, c, d, e, f, g, h])
}

/// The ring pits (as bits) holding at least `min` seeds.
#[inline]
fn pits_holding(ring: &[u8; RING], min: u8) -> u32 {
    bytes_at_least(front_word(ring), min) | bytes_at_least(back_word(ring), min) << 8
}

/// The front pits (ring indices, as bits) of `own` that are occupied and face an occupied
/// pit of `opp` (own ring index i faces the opponent's 7 - i): where a lap can capture.
#[inline]
fn facing_seeds(own: &[u8; RING], opp: &[u8; RING]) -> u32 {
    bytes_at_least(front_word(own), 1) & bytes_at_least(front_word(opp).swap_bytes(), 1)
}

/// `NAMUA_SIGNS[f]`: the namua capture bits (`4 * i` for `<`, `4 * i + 2` for `>`) of the
/// front pits `f` (bit i: ring index i); a kimbi pit enters at its own kichwa only.
static NAMUA_SIGNS: [u32; 256] = namua_signs();

const fn namua_signs() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut f = 0;
    while f < 256 {
        let mut i = 0;
        while i < 8 {
            if f & (1 << i) != 0 {
                let signs: u32 = if i <= 1 {
                    0b0001
                } else if i >= 6 {
                    0b0100
                } else {
                    0b0101
                };
                t[f] |= signs << (4 * i);
            }
            i += 1;
        }
        f += 1;
    }
    t
}

/// Both takasa directions from every ring pit in `pits` (16 bits), as [`Kind::Takasa`] bits.
#[inline]
fn both_signs(pits: u32) -> u32 {
    let mut out = 0;
    let mut p = pits;
    while p != 0 {
        out |= takasa_bits(p.trailing_zeros() as usize);
        p &= p - 1;
    }
    out
}

/// Both directions of a takasa from ring pit `r`, as bits of a [`Kind::Takasa`] set.
const fn takasa_bits(r: usize) -> u32 {
    0b11 << (2 * r)
}

/// The ring index where a first lap of `n` seeds (fewer than 16) from ring `r` ends.
fn first_lap_end(r: usize, n: usize, dir: Direction) -> usize {
    match dir {
        Direction::Clockwise => (r + n) % RING,
        Direction::Anticlockwise => (r + RING - n % RING) % RING,
    }
}

impl Position {
    fn m(&self) -> usize {
        self.to_move.index()
    }

    fn ring(&self, side: Side) -> &[u8; RING] {
        &self.board[side.index()]
    }

    /// Runs a move without tracing.
    fn simulate(&self, mv: Move) -> Run {
        execute(self, mv, &mut ())
    }

    fn endless_is_illegal(&self) -> bool {
        self.rules.endless_move == EndlessMove::Illegal
    }

    /// A run that makes its move illegal (G10, or G11 under the `illegal` policy).
    fn run_is_illegal(&self, run: &Run) -> bool {
        match run.finish {
            Finish::FrontRowEmptied => true,
            Finish::NeverEnding(_) => self.endless_is_illegal(),
            _ => false,
        }
    }

    /// The outcome decided by the board alone (front rows), in the rule set's order.
    fn front_row_outcome(&self) -> Option<Outcome> {
        if front_word(&self.board[0]) != 0 && front_word(&self.board[1]) != 0 {
            // Both front rows hold seeds (nearly always): no order to look at.
            return None;
        }
        let y = self.to_move;
        let x = y.opponent();
        let order = match self.rules.end_check {
            EndCheck::OpponentFirst => [y, x],
            EndCheck::SouthFirst => [Side::South, Side::North],
        };
        for loser in order {
            if crate::engine::front_empty(self.ring(loser)) {
                let reason = if loser == y {
                    EndReason::BaoHamna
                } else {
                    EndReason::OwnFrontRowEmpty
                };
                return Some(Outcome {
                    winner: Some(loser.opponent()),
                    reason,
                });
            }
        }
        None
    }

    /// The outcome if the game is over: a recorded end (never-ending move), an empty front
    /// row, or no legal move for the side to move.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.ended {
            return Some(o);
        }
        if let Some(o) = self.front_row_outcome() {
            return Some(o);
        }
        if !self.has_legal_move() {
            return Some(Outcome {
                winner: Some(self.to_move.opponent()),
                reason: EndReason::NoLegalMove,
            });
        }
        None
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Every legal move, sorted.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.ended.is_some() || self.front_row_outcome().is_some() {
            return Vec::new();
        }
        let mut moves = self.analyse(None).moves();
        moves.sort_unstable();
        moves
    }

    /// Whether the side to move has a legal move (the end test of E2), stopping at the
    /// first legal candidate instead of running them all.
    fn has_legal_move(&self) -> bool {
        !self.analyse(Some(&mut |_| 0)).is_empty()
    }

    /// A legal move chosen at random, with the position after it; `None` when the game is
    /// over. `pick(n)` must return a number below `n`.
    ///
    /// Exact (only legal moves come out) but cheaper than [`Position::legal_moves`]:
    /// candidates are run in random order until one is legal, instead of running them all,
    /// and the run that proved the move legal is the one played. A candidate still going
    /// after 64 laps (where never-ending detection begins) is set aside and decided only if
    /// no other candidate of its group is legal, so a random game seldom pays for a cycle of
    /// millions of laps (rules-reference §5.1); such a long move can still come out, but
    /// only when nothing quicker is legal. Not uniform over the legal list.
    pub fn random_move(&self, pick: &mut dyn FnMut(usize) -> usize) -> Option<(Move, Position)> {
        let mut next = *self;
        let mv = next.play_random_move(pick)?;
        Some((mv, next))
    }

    /// [`Position::random_move`] played in place: the position becomes the one after the
    /// move, which is returned; `None` (the position unchanged) when the game is over. The
    /// same move as `random_move` for the same `pick`, without copying whole positions: the
    /// form for playouts.
    pub fn play_random_move(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> Option<Move> {
        if self.ended.is_some() || self.front_row_outcome().is_some() {
            return None;
        }
        let mut a = Analysis::new(self);
        self.analyse_into(Some(pick), &mut a);
        if let Some(mv) = a.chosen.mv {
            self.settle(&mv, &a.chosen.run, None);
            return Some(mv);
        }
        let mv = a.captures.first().or_else(|| a.takasas.first())?;
        let run = self.simulate(mv);
        self.settle(&mv, &run, None);
        Some(mv)
    }

    /// Classifies the candidates and runs them. With `pick`, each group is tried in random
    /// order and only its first legal move is kept.
    fn analyse(&self, pick: Option<&mut dyn FnMut(usize) -> usize>) -> Analysis {
        let mut a = Analysis::new(self);
        self.analyse_into(pick, &mut a);
        a
    }

    /// [`Position::analyse`] into an analysis the caller keeps: a random playout reads the
    /// chosen run where it was written, not from a copy.
    fn analyse_into(&self, mut pick: Option<&mut dyn FnMut(usize) -> usize>, a: &mut Analysis) {
        match self.stage() {
            Stage::Namua => self.analyse_namua(&mut pick, a),
            Stage::Mtaji => self.analyse_mtaji(&mut pick, a),
        }
    }

    /// Runs candidates and keeps the legal ones: all of them, or with `pick` the first
    /// found in a random order, left with its run in `chosen`.
    ///
    /// With `pick`, a candidate still going where never-ending detection would begin is set
    /// aside, and decided exactly only if no other candidate is legal: a random playout
    /// rarely pays for a cycle of millions of laps when another move will do. The move
    /// chosen is legal all the same.
    fn select(&self, mut cands: MoveSet, pick: &mut Picker<'_>, chosen: &mut Chosen) -> MoveSet {
        let mut out = MoveSet { bits: 0, ..cands };
        match pick {
            Some(rng) => {
                let mut set_aside = MoveSet { bits: 0, ..cands };
                while !cands.is_empty() {
                    let n = cands.len();
                    let b = cands.nth_bit(rng(n).min(n - 1));
                    cands.bits &= !(1 << b);
                    let mv = cands.move_at(b);
                    execute_quick_into(self, mv, &mut chosen.run);
                    if chosen.run.finish == Finish::Undecided {
                        set_aside.bits |= 1 << b;
                        continue;
                    }
                    if !self.run_is_illegal(&chosen.run) {
                        out.bits |= 1 << b;
                        chosen.mv = Some(mv);
                        return out;
                    }
                }
                for b in set_aside.bit_iter() {
                    let mv = set_aside.move_at(b);
                    chosen.run = self.simulate(mv);
                    if !self.run_is_illegal(&chosen.run) {
                        out.bits |= 1 << b;
                        chosen.mv = Some(mv);
                        return out;
                    }
                }
                out
            }
            None => {
                for b in cands.bit_iter() {
                    let run = self.simulate(cands.move_at(b));
                    if !self.run_is_illegal(&run) {
                        out.bits |= 1 << b;
                    }
                }
                out
            }
        }
    }

    /// Whether some move of `cands` has a finite run (a legal move, when they are the
    /// candidates of one group).
    ///
    /// Candidates that need a never-ending decision are decided last, only if none of the
    /// others is legal.
    fn any_legal(&self, cands: &MoveSet) -> bool {
        // The random selection with a fixed choice: the first candidate in order that is
        // legal, those needing a cycle decision last.
        !self
            .select(*cands, &mut Some(&mut |_| 0), &mut Chosen::new())
            .is_empty()
    }

    /// Namua capture candidates (N2): an occupied front pit facing seeds, each sign that
    /// may enter at a kichwa from it (no safari).
    fn namua_capture_candidates(&self) -> MoveSet {
        self.namua_capture_candidates_from(0xff)
    }

    /// The namua capture candidates from the front pits of `pits` (bit i: ring index i).
    fn namua_capture_candidates_from(&self, pits: u32) -> MoveSet {
        let side = self.to_move;
        let targets = facing_seeds(self.ring(side), self.ring(side.opponent())) & pits;
        MoveSet {
            bits: NAMUA_SIGNS[targets as usize & 0xff],
            ..MoveSet::empty(Kind::NamuaCapture, side)
        }
    }

    fn analyse_namua(&self, pick: &mut Picker<'_>, a: &mut Analysis) {
        let side = self.to_move;
        let cands = self.namua_capture_candidates();
        if pick.is_some() {
            // The first legal capture in random order; where it stops in the functional
            // nyumba, a coin decides whether it goes on (safari), when that is legal.
            a.captures = self.select(cands, pick, &mut a.chosen);
            if let (Some(mv), Some(rng)) = (a.chosen.mv, pick.as_mut()) {
                if a.chosen.run.stopped_at_house && rng(2) != 0 {
                    let safari = Move { safari: true, ..mv };
                    let srun = self.simulate(safari);
                    if !self.run_is_illegal(&srun) {
                        a.captures.bits = 0;
                        a.captures.insert(&safari);
                        a.chosen.mv = Some(safari);
                        a.chosen.run = srun;
                    }
                }
            }
        } else {
            // Every candidate, each run once (its run also tells whether it stops at the
            // house, where the safari is a second move).
            for b in cands.bit_iter() {
                let mv = cands.move_at(b);
                let run = self.simulate(mv);
                if self.run_is_illegal(&run) {
                    continue;
                }
                a.captures.insert(&mv);
                if run.stopped_at_house {
                    let safari = Move { safari: true, ..mv };
                    if !self.run_is_illegal(&self.simulate(safari)) {
                        a.captures.insert(&safari);
                    }
                }
            }
        }
        if !a.captures.is_empty() {
            return;
        }
        let places = self.namua_placements();
        let mut cands = MoveSet::empty(Kind::Takasa, side);
        for i in 0..8 {
            if places & (1 << i) != 0 {
                cands.bits |= takasa_bits(i);
            }
        }
        a.takasas = self.select(cands, pick, &mut a.chosen);
    }

    /// Front pits (ring indices, as bits) where a namua takasa may place its seed (N3a, N3b).
    fn namua_placements(&self) -> u16 {
        let side = self.to_move;
        let own = self.ring(side);
        let house_owned = self.rules.houses && self.houses[side.index()] == House::Owned;
        let occupied = bytes_at_least(front_word(own), 1) as u16;
        let multi = bytes_at_least(front_word(own), 2) as u16;
        if house_owned && own[4] >= 6 {
            // N3a: a functional nyumba only when it is the only occupied front pit.
            let others = occupied & !(1 << 4);
            return if others == 0 { 1 << 4 } else { others };
        }
        let excluded = if house_owned && !self.rules.dormant_house_placeable {
            1 << 4
        } else {
            0
        };
        if multi & !excluded != 0 {
            return multi & !excluded;
        }
        if occupied & !excluded != 0 {
            return occupied & !excluded;
        }
        occupied
    }

    /// Mtaji capture candidates by the first-lap rule (G6, M2), before execution.
    fn mtaji_capture_candidates(&self, side: Side) -> MoveSet {
        self.mtaji_capture_candidates_from(side, u32::MAX)
    }

    /// The mtaji capture candidates that start in the pits of `starts` (bit r: ring index
    /// r): the same as [`Position::mtaji_capture_candidates`] restricted to those pits,
    /// cheaper when they are few (a validator asking about one written move).
    fn mtaji_capture_candidates_from(&self, side: Side, starts: u32) -> MoveSet {
        let own = self.ring(side);
        let opp = self.ring(side.opponent());
        let mut out = MoveSet::empty(Kind::MtajiCapture, side);
        // Front pits where a first lap captures: occupied, facing seeds.
        let targets = facing_seeds(own, opp);
        if targets == 0 {
            return out;
        }
        // Doubled so that a first lap ending at r + n (mod 16) is bit r + n.
        let wrapped = targets | targets << RING;
        let blocked_start = match self.rules.takasia {
            Takasia::Standard => self.blocked[side.index()].map_or(0, |h| 1 << h),
            _ => 0,
        };
        // Starts of two seeds or more, below the threshold (G6, M2), not takasia'd.
        let mut pits = starts
            & pits_holding(own, 2)
            & !pits_holding(own, self.rules.capture_threshold)
            & !blocked_start;
        while pits != 0 {
            let r = pits.trailing_zeros() as usize;
            pits &= pits - 1;
            let n = usize::from(own[r]) % RING;
            let cw = (wrapped >> (r + n)) & 1;
            let acw = (wrapped >> (r + RING - n)) & 1;
            out.bits |= (cw | acw << 1) << (2 * r);
        }
        out
    }

    /// The pit the side to move must capture (T5/K4), if the rules give priority.
    fn priority_pit(&self) -> Option<u8> {
        if !self.rules.capture_priority {
            return None;
        }
        self.blocked[self.to_move.opponent().index()]
    }

    fn analyse_mtaji(&self, pick: &mut Picker<'_>, a: &mut Analysis) {
        let side = self.to_move;
        let cands = self.mtaji_capture_candidates(side);
        if let Some(h) = self.priority_pit().filter(|_| !cands.is_empty()) {
            // Priority needs every capture run: keep those that take h (T5/K4).
            let (mut all, mut kept) = (cands, cands);
            (all.bits, kept.bits) = (0, 0);
            for b in cands.bit_iter() {
                let run = self.simulate(cands.move_at(b));
                if !self.run_is_illegal(&run) {
                    all.bits |= 1 << b;
                    if run.captured_mask & (1 << h) != 0 {
                        kept.bits |= 1 << b;
                    }
                }
            }
            let pool = if !kept.is_empty() {
                kept
            } else if self.rules.takasia == Takasia::AbstractPlay {
                // AbstractPlay: no capture takes the pit, so there is no move at all.
                return;
            } else {
                all
            };
            a.captures = match pick {
                Some(rng) if !pool.is_empty() => {
                    let n = pool.len();
                    MoveSet {
                        bits: 1 << pool.nth_bit(rng(n).min(n - 1)),
                        ..pool
                    }
                }
                _ => pool,
            };
        } else {
            a.captures = self.select(cands, pick, &mut a.chosen);
        }
        if !a.captures.is_empty() {
            return;
        }
        if self.kuu_first() {
            let kuu = MoveSet {
                bits: takasa_bits(4),
                ..a.takasas
            };
            a.takasas = self.select(kuu, pick, &mut a.chosen);
            if !a.takasas.is_empty() {
                return;
            }
        }
        let cands = MoveSet {
            bits: self.mtaji_takasa_bits(),
            ..a.takasas
        };
        a.takasas = self.select(cands, pick, &mut a.chosen);
    }

    /// K3: while the kuu stands (and can be sown, and is not the mover's takasia'd pit), a
    /// mtaji takata must start from it. Where neither direction is legal the rule lapses
    /// (A.4.11); the callers test that.
    fn kuu_first(&self) -> bool {
        self.rules.first_takata_from_kuu
            && self.rules.houses
            && self.houses[self.m()] == House::Owned
            && self.ring(self.to_move)[4] >= 2
            && self.takasa_excluded() != Some(4)
    }

    /// The front pit (ring index) the side to move may not start a mtaji takasa from (T3).
    fn takasa_excluded(&self) -> Option<usize> {
        match self.rules.takasia {
            Takasia::Off => None,
            Takasia::Standard => self.blocked[self.m()].map(usize::from),
            Takasia::AbstractPlay => self.abstractplay_exclusion(),
        }
    }

    /// The mtaji takasa candidates as [`Kind::Takasa`] bits, K3 aside (M4, T3).
    fn mtaji_takasa_bits(&self) -> u32 {
        let own = self.ring(self.to_move);
        let excluded = self.takasa_excluded();
        let multi = pits_holding(own, 2);
        let multi_front = both_signs(multi & 0xff);
        let front = multi_front & !excluded.map_or(0, takasa_bits);
        let back_allowed = match self.rules.takasia {
            // A takasia'd pit counts as holding two or more (A.4.10).
            Takasia::Standard | Takasia::Off => multi_front == 0,
            Takasia::AbstractPlay => front == 0,
        };
        if !back_allowed {
            return front;
        }
        both_signs(multi & 0xff00)
    }

    /// AbstractPlay recomputes the takasia exclusion of the side to move at generation time.
    fn abstractplay_exclusion(&self) -> Option<usize> {
        if !self.last_move_takasa || self.hands != [0, 0] {
            return None;
        }
        let mut as_blocker = *self;
        as_blocker.to_move = self.to_move.opponent();
        as_blocker.abstractplay_detect().map(usize::from)
    }

    /// AbstractPlay `getBlocked` with the side to move as the blocker X: the pit of Y that
    /// every capture of X takes first.
    fn abstractplay_detect(&self) -> Option<u8> {
        let priority = self.priority_pit();
        let mut first: Option<Option<u8>> = None;
        for mv in self.mtaji_capture_candidates(self.to_move).iter() {
            let run = self.simulate(mv);
            if self.run_is_illegal(&run)
                || priority.is_some_and(|h| run.captured_mask & (1 << h) == 0)
            {
                continue;
            }
            match first {
                None => first = Some(run.first_capture),
                Some(f) if f != run.first_capture => return None,
                Some(_) => {}
            }
        }
        let first = first??;
        (!self.takasia_exempt(usize::from(first))).then_some(first)
    }

    /// T2: the victim's (the side not to move) pit `h` cannot be takasia'd: it is his
    /// functional nyumba, his only occupied front pit, or his only front pit holding more
    /// than one seed.
    fn takasia_exempt(&self, h: usize) -> bool {
        let y = self.to_move.opponent();
        let yr = self.ring(y);
        let functional_house =
            self.rules.houses && h == 4 && self.houses[y.index()] == House::Owned && yr[4] >= 6;
        let occupied = (0..8).filter(|&i| yr[i] > 0).count();
        let only_occupied = occupied == 1 && yr[h] > 0;
        let only_multi = yr[h] >= 2 && (0..8).filter(|&i| yr[i] >= 2).count() == 1;
        functional_house || only_occupied || only_multi
    }

    /// Standard takasia (T1, T2; A.4.6): after the blocker's mtaji takasa, with the blocker
    /// to move on `self`; only when the victim is in mtaji too. Cheap first-lap tests come
    /// first; moves are run only where a never-ending capture could change the answer.
    fn standard_detect(&self) -> Option<u8> {
        let x = self.to_move;
        // The victim must be in mtaji too (both hands empty, P1): a victim still in namua
        // is not tested with mtaji captures, and keeps every pit.
        if self.hands != [0, 0] {
            return None;
        }
        let mut cands = self.mtaji_capture_candidates(x);
        // In mtaji the first capture is the pit facing the first lap's end.
        let first = |mv: Move| -> usize {
            let n = usize::from(self.get(mv.pit));
            7 - first_lap_end(mv.pit.ring(), n, mv.sign.sowing_direction(mv.pit.row()))
        };
        let h = first(cands.first()?);
        let agree = cands.iter().all(|mv| first(mv) == h);
        if !agree {
            // Only finite captures count: keep them, and they must still agree.
            for b in cands.bit_iter() {
                if self.run_is_illegal(&self.simulate(cands.move_at(b))) {
                    cands.bits &= !(1 << b);
                }
            }
            let h = first(cands.first()?);
            if cands.iter().any(|mv| first(mv) != h) {
                return None;
            }
        }
        let h = first(cands.first()?);
        // The cheap test first (T2), then the victim's captures (one legal capture of his
        // undoes the takasia), and only then whether the blocker's captures are finite
        // (already known when they disagreed): each test that fails saves the runs after it.
        if self.takasia_exempt(h) {
            return None;
        }
        let mut victim = *self;
        victim.to_move = x.opponent();
        victim.blocked = [None, None];
        if victim.any_legal(&victim.mtaji_capture_candidates(victim.to_move)) {
            return None;
        }
        if agree && !self.any_legal(&cands) {
            return None;
        }
        Some(h as u8)
    }

    /// Whether `mv` is legal here: the same answer as `legal_moves().contains(mv)`, found
    /// without generating every legal move. A capture is legal when it is a candidate by
    /// its first lap and its run is finite (and, under priority, takes the reserved pit when
    /// another capture does); a takasa when no capture is legal and its pit is allowed.
    #[must_use]
    pub fn is_legal(&self, mv: &Move) -> bool {
        self.legal_run(mv, &mut ()).is_some()
    }

    /// Plays `mv` with its trace when it is legal (`None` otherwise): the same as
    /// [`Position::play`] on a legal move, but the move is run once, with its trace, and
    /// its legality is decided without generating every legal move.
    #[must_use]
    pub fn play_if_legal(&self, mv: &Move) -> Option<(Position, MoveTrace)> {
        let mut trace = MoveTrace::new(*mv, self.to_move, self.stage());
        let run = self.legal_run(mv, &mut trace)?;
        Some(self.complete_traced(mv, &run, trace, true))
    }

    /// [`Position::play_if_legal`] without the costly half of the end test: `trace.outcome`
    /// holds only what the board shows (an empty front row, a recorded end), not whether
    /// the side to move next has no legal move (E2). For a caller that often learns that
    /// otherwise, such as a validator whose next move turns out legal; else
    /// `next.outcome()` completes it.
    #[must_use]
    pub fn play_if_legal_deferred(&self, mv: &Move) -> Option<(Position, MoveTrace)> {
        let mut trace = MoveTrace::new(*mv, self.to_move, self.stage());
        let run = self.legal_run(mv, &mut trace)?;
        Some(self.complete_traced(mv, &run, trace, false))
    }

    /// [`Position::play_if_legal_deferred`] into a trace the caller keeps and reuses: the
    /// trace is emptied and refilled, so a replay of many moves allocates nothing once its
    /// lists have grown. Returns the next position when `mv` is legal; when it is not
    /// (`None`), the trace holds an unspecified part of the run.
    pub fn play_if_legal_deferred_into(
        &self,
        mv: &Move,
        trace: &mut MoveTrace,
    ) -> Option<Position> {
        trace.reset(*mv, self.to_move, self.stage());
        let run = self.legal_run(mv, trace)?;
        Some(self.complete_traced_in(mv, &run, trace, false))
    }

    /// Decides whether `mv` is legal, running it (with `tracer`) once; the run when legal.
    fn legal_run<T: Tracer>(&self, mv: &Move, tracer: &mut T) -> Option<Run> {
        if self.ended.is_some() || self.front_row_outcome().is_some() {
            return None;
        }
        let side = self.to_move;
        if mv.pit.side() != side {
            return None;
        }
        let own_run = |tracer: &mut T| {
            let run = execute(self, *mv, tracer);
            (!self.run_is_illegal(&run)).then_some(run)
        };
        match self.stage() {
            Stage::Namua => {
                if !mv.takasa {
                    // Whether the move is a candidate depends on its own pit only.
                    let cands = self.namua_capture_candidates_from(1 << mv.pit.ring());
                    let plain = Move {
                        safari: false,
                        ..*mv
                    };
                    if !cands.contains(&plain) {
                        return None;
                    }
                    if mv.safari {
                        let prun = self.simulate(plain);
                        if self.run_is_illegal(&prun) || !prun.stopped_at_house {
                            return None;
                        }
                    }
                    return own_run(tracer);
                }
                let cands = self.namua_capture_candidates();
                let placements = self.namua_placements();
                if mv.safari
                    || mv.pit.ring() >= 8
                    || placements & (1 << mv.pit.ring()) == 0
                    || self.any_legal(&cands)
                {
                    return None;
                }
                own_run(tracer)
            }
            Stage::Mtaji => {
                if !mv.takasa {
                    // Whether the move is a candidate depends on its own pit only; the other
                    // candidates matter only under priority.
                    let own = self.mtaji_capture_candidates_from(side, 1 << mv.pit.ring());
                    if !own.contains(mv) {
                        return None;
                    }
                    let run = own_run(tracer)?;
                    // A candidate exists (this one), so priority applies when the rules give it.
                    let priority = self.priority_pit();
                    if let Some(h) = priority.filter(|&h| run.captured_mask & (1 << h) == 0) {
                        let cands = self.mtaji_capture_candidates(side);
                        // Not taking the reserved pit: legal only when no capture does.
                        if self.rules.takasia == Takasia::AbstractPlay {
                            return None;
                        }
                        let another_takes = cands.iter().any(|c| {
                            let r = self.simulate(c);
                            !self.run_is_illegal(&r) && r.captured_mask & (1 << h) != 0
                        });
                        if another_takes {
                            return None;
                        }
                    }
                    return Some(run);
                }
                let cands = self.mtaji_capture_candidates(side);
                let priority = self.priority_pit().filter(|_| !cands.is_empty());
                let takasas = MoveSet::empty(Kind::Takasa, side);
                // A takasa shape (no safari).
                takasas.bit_of(mv)?;
                // A takasa: no capture may be legal (with AbstractPlay priority, a capture
                // candidate leaves either captures or no move at all).
                if !cands.is_empty()
                    && ((priority.is_some() && self.rules.takasia == Takasia::AbstractPlay)
                        || self.any_legal(&cands))
                {
                    return None;
                }
                if self.kuu_first() {
                    if mv.pit == Pit::nyumba(side) {
                        return own_run(tracer);
                    }
                    let kuu = MoveSet {
                        bits: takasa_bits(4),
                        ..takasas
                    };
                    if self.any_legal(&kuu) {
                        return None;
                    }
                }
                let allowed = MoveSet {
                    bits: self.mtaji_takasa_bits(),
                    ..takasas
                };
                if !allowed.contains(mv) {
                    return None;
                }
                own_run(tracer)
            }
        }
    }

    /// Plays a move, returning the next position and the trace.
    ///
    /// # Errors
    /// The move is not legal here: why, as data (the reason is worked out only then).
    pub fn play(&self, mv: &Move) -> Result<(Position, MoveTrace), PlayError> {
        self.play_if_legal(mv).ok_or_else(|| self.diagnose(mv))
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]).
    #[must_use]
    pub fn play_unchecked(&self, mv: &Move) -> (Position, MoveTrace) {
        let mut trace = MoveTrace::new(*mv, self.to_move, self.stage());
        let run = execute(self, *mv, &mut trace);
        self.complete_traced(mv, &run, trace, true)
    }

    /// The next position and the finished trace of a traced run; without `end_test`, the
    /// outcome leaves out the no-legal-move test.
    fn complete_traced(
        &self,
        mv: &Move,
        run: &Run,
        mut trace: MoveTrace,
        end_test: bool,
    ) -> (Position, MoveTrace) {
        let next = self.complete_traced_in(mv, run, &mut trace, end_test);
        (next, trace)
    }

    /// [`Position::complete_traced`] on a borrowed trace.
    fn complete_traced_in(
        &self,
        mv: &Move,
        run: &Run,
        trace: &mut MoveTrace,
        end_test: bool,
    ) -> Position {
        // `trace.placement` was set by the tracer at the `Placed` event.
        trace.laps_total = run.laps;
        trace.seeds_sown = run.sown;
        let next = self.finish_move(mv, run, Some(trace));
        trace.outcome = if end_test {
            next.outcome_after_move()
        } else {
            next.ended.or_else(|| next.front_row_outcome())
        };
        next
    }

    /// Plays a legal move without a trace (fast path for playouts and perft).
    #[must_use]
    pub fn play_fast(&self, mv: &Move) -> Position {
        let run = self.simulate(*mv);
        self.finish_move(mv, &run, None)
    }

    /// The outcome right after a move, without the (costly) no-legal-move test.
    fn outcome_after_move(&self) -> Option<Outcome> {
        self.ended.or_else(|| self.front_row_outcome()).or_else(|| {
            (!self.has_legal_move()).then(|| Outcome {
                winner: Some(self.to_move.opponent()),
                reason: EndReason::NoLegalMove,
            })
        })
    }

    /// The position after a move: [`Position::settle`] on a copy.
    fn finish_move(&self, mv: &Move, run: &Run, trace: Option<&mut MoveTrace>) -> Position {
        let mut next = *self;
        next.settle(mv, run, trace);
        next
    }

    /// Everything after the sowing, in place (`self` is the position the move was played
    /// from, `run` its run): the board the run left, takasia bookkeeping, side switch,
    /// recorded ends. In place, so that a playout never copies a whole position.
    fn settle(&mut self, mv: &Move, run: &Run, trace: Option<&mut MoveTrace>) {
        let mover = self.to_move;
        let (m, o) = (mover.index(), mover.opponent().index());
        let mtaji = self.stage() == Stage::Mtaji;
        let next = self;
        // A never-ending move cannot be carried out: the board stays as it was. Otherwise
        // the run changed the board, the hands, the houses and the takasia marks.
        if !matches!(run.finish, Finish::NeverEnding(_)) {
            next.board = run.after.board;
            next.hands = run.after.hands;
            next.houses = run.after.houses;
            next.blocked = run.after.blocked;
        }
        next.to_move = mover.opponent();
        next.last_move_takasa = mv.takasa;
        let mut set = None;
        // A game that ends keeps no takasia or priority pit (standard takasia; AbstractPlay
        // keeps its stored block, T4).
        let standard = next.rules.takasia == Takasia::Standard;
        match run.finish {
            Finish::NeverEnding(ne) => {
                if standard {
                    next.blocked = [None, None];
                }
                next.ended = Some(Outcome {
                    winner: match next.rules.endless_move {
                        EndlessMove::Draw => None,
                        _ => Some(mover.opponent()),
                    },
                    reason: EndReason::NeverEnding,
                });
                if let Some(t) = trace {
                    t.never_ending = Some(ne);
                }
                return;
            }
            Finish::Capped => {
                if standard {
                    next.blocked = [None, None];
                }
                next.ended = Some(Outcome {
                    winner: Some(mover.opponent()),
                    reason: EndReason::NeverEnding,
                });
                return;
            }
            // (A quick run's `Undecided` never reaches here: it is decided in full first.)
            Finish::Done | Finish::BaoHamna | Finish::FrontRowEmptied | Finish::Undecided => {}
        }
        match next.rules.takasia {
            Takasia::Off => {}
            Takasia::Standard => {
                // The mover's own takasia lasted this move; under Kete priority it now
                // tells the opponent which pit he must capture. The pit the mover had to
                // capture is spent.
                let priority = if next.rules.capture_priority {
                    next.blocked[m]
                } else {
                    None
                };
                next.blocked = [None, None];
                next.blocked[m] = priority;
                if mv.takasa
                    && mtaji
                    && run.finish == Finish::Done
                    && next.front_row_outcome().is_none()
                {
                    let mut blocker = *next;
                    blocker.to_move = mover;
                    blocker.blocked = [None, None];
                    if let Some(h) = blocker.standard_detect() {
                        next.blocked[o] = Some(h);
                        set = Some(h);
                    }
                }
            }
            Takasia::AbstractPlay => {
                if mv.takasa && next.hands == [0, 0] {
                    let mut blocker = *next;
                    blocker.to_move = mover;
                    if let Some(h) = blocker.abstractplay_detect() {
                        next.blocked[o] = Some(h);
                        set = Some(h);
                    }
                }
            }
        }
        if standard && next.blocked != [None, None] {
            if next.front_row_outcome().is_some() {
                next.blocked = [None, None];
                set = None;
            } else if !next.has_legal_move() {
                next.blocked = [None, None];
                set = None;
                // Recorded only where the board without the pit shows a legal move.
                if next.has_legal_move() {
                    next.ended = Some(Outcome {
                        winner: Some(next.to_move.opponent()),
                        reason: EndReason::NoLegalMove,
                    });
                }
            }
        }
        if let (Some(h), Some(t)) = (set, trace) {
            t.events.push(Event::TakasiaSet {
                pit: Pit::from_ring(mover.opponent(), usize::from(h)),
            });
        }
    }

    /// Resolves a move token (sign or `*` left out where forced) against this position.
    ///
    /// ```
    /// use bao_core::{MoveSpec, Position, ResolveError, RuleSet};
    ///
    /// let start = Position::start(RuleSet::KISWAHILI);
    /// // The `*` may be left out: no capture exists, so the move is a takasa.
    /// let spec: MoveSpec = "A6<".parse().unwrap();
    /// assert_eq!(start.resolve(&spec).unwrap().to_string(), "A6<*");
    /// // The sign may not: both directions are legal.
    /// let spec: MoveSpec = "A6".parse().unwrap();
    /// assert!(matches!(start.resolve(&spec), Err(ResolveError::Ambiguous(m)) if m.len() == 2));
    /// ```
    ///
    /// # Errors
    /// No legal move matches ([`ResolveError::Illegal`], with the likeliest reading of the
    /// spec and why it is illegal: for a sign left out, the left one unless only its
    /// direction is forbidden by the kichwa rule G7), or several do
    /// ([`ResolveError::Ambiguous`]: the sign is needed).
    pub fn resolve(&self, spec: &MoveSpec) -> Result<Move, ResolveError> {
        let legal = self.legal_moves();
        let matches: Vec<Move> = legal.iter().copied().filter(|m| spec.matches(m)).collect();
        match matches.as_slice() {
            [one] => Ok(*one),
            [] => {
                let mv = Move {
                    pit: spec.pit,
                    sign: spec.sign.unwrap_or(Sign::Left),
                    takasa: spec.takasa,
                    safari: spec.safari,
                };
                let err = if spec.sign.is_none() {
                    let other = Move {
                        sign: Sign::Right,
                        ..mv
                    };
                    let e1 = self.diagnose(&mv);
                    if matches!(e1.reason, IllegalReason::KichwaNotChoosable { .. }) {
                        self.diagnose(&other)
                    } else {
                        e1
                    }
                } else {
                    self.diagnose(&mv)
                };
                let err = match err.reason {
                    IllegalReason::NeverEnding(_) => err,
                    _ => self
                        .never_ending_takasa_reading(spec, &legal)
                        .unwrap_or(err),
                };
                Err(ResolveError::Illegal(err))
            }
            many => Err(ResolveError::Ambiguous(many.to_vec())),
        }
    }

    /// Where no capture exists, a token written without `*` is read as the takasa: when that
    /// takasa never ends, its refusal (G11, with the cycle), whatever the reading as a capture
    /// says (spec/notation.md, "Leaving out `*`").
    fn never_ending_takasa_reading(&self, spec: &MoveSpec, legal: &[Move]) -> Option<PlayError> {
        let no_capture = legal.first().is_some_and(|m| m.takasa);
        if spec.takasa || spec.safari || !no_capture {
            return None;
        }
        let signs: &[Sign] = match spec.sign {
            Some(Sign::Left) => &[Sign::Left],
            Some(Sign::Right) => &[Sign::Right],
            None => &[Sign::Left, Sign::Right],
        };
        signs.iter().find_map(|&sign| {
            let takasa = Move {
                pit: spec.pit,
                sign,
                takasa: true,
                safari: false,
            };
            let e = self.diagnose(&takasa);
            matches!(e.reason, IllegalReason::NeverEnding(_)).then_some(e)
        })
    }

    /// Explains why a move is not legal here: the reason of the first rule it breaks, in
    /// the order of `spec/rules.md`'s checks (the game's end, the pit, the stage, the
    /// captures, the sowing). Meant for a move [`Position::play_if_legal`] refused; for a
    /// legal move the answer is meaningless.
    #[must_use]
    pub fn diagnose(&self, mv: &Move) -> PlayError {
        let fail = |reason| PlayError { mv: *mv, reason };
        let side = self.to_move;
        let a = self.analyse(None);
        let over = self.ended.or_else(|| self.front_row_outcome()).or_else(|| {
            a.is_empty().then(|| Outcome {
                winner: Some(side.opponent()),
                reason: EndReason::NoLegalMove,
            })
        });
        if let Some(outcome) = over {
            return fail(IllegalReason::GameOver { outcome });
        }
        if mv.pit.side() != side {
            return fail(IllegalReason::NotOwnPit {
                pit: mv.pit,
                mover: side,
            });
        }
        let legal = a.moves();
        let captures = a.captures();
        let count = self.get(mv.pit);
        let stage = self.stage();
        if stage == Stage::Namua {
            if mv.pit.row() == Row::Back {
                return fail(IllegalReason::NamuaBackRow { pit: mv.pit });
            }
            if count == 0 {
                return fail(IllegalReason::NamuaEmptyPit { pit: mv.pit });
            }
        } else if count < 2 {
            return fail(IllegalReason::TooFewSeeds { pit: mv.pit, count });
        }
        if mv.takasa && !captures.is_empty() {
            return fail(IllegalReason::CaptureMandatory { captures });
        }
        // Only a move of the right shape is run: a namua capture needs seeds facing it.
        let no_namua_capture =
            stage == Stage::Namua && !mv.takasa && mv.pit.facing().is_none_or(|f| self.get(f) == 0);
        let run = (!no_namua_capture).then(|| self.simulate(*mv));
        if let Some(run) = run.filter(|r| self.run_is_illegal(r)) {
            return fail(match run.finish {
                Finish::NeverEnding(ne) => IllegalReason::NeverEnding(ne),
                _ => IllegalReason::FrontRowGuard { mover: side },
            });
        }
        if !mv.takasa {
            let as_takasa = Move {
                takasa: true,
                safari: false,
                ..*mv
            };
            if mv.safari {
                let plain = Move {
                    safari: false,
                    ..*mv
                };
                if captures.contains(&plain) {
                    return fail(IllegalReason::SafariWithoutHouse { plain });
                }
            }
            if stage == Stage::Namua && mv.pit.facing().is_some_and(|f| self.get(f) > 0) {
                let forced = if mv.pit.number() <= 2 {
                    Some(Sign::Left)
                } else if mv.pit.number() >= 7 {
                    Some(Sign::Right)
                } else {
                    None
                };
                if let Some(forced) = forced.filter(|f| *f != mv.sign) {
                    return fail(IllegalReason::KichwaNotChoosable {
                        pit: mv.pit,
                        forced,
                    });
                }
            }
            if stage == Stage::Mtaji && count >= self.rules.capture_threshold {
                return fail(IllegalReason::TooManySeedsToCapture {
                    pit: mv.pit,
                    count,
                    threshold: self.rules.capture_threshold,
                });
            }
            if captures.is_empty() {
                return fail(IllegalReason::NoCaptureExists {
                    takasa: legal.contains(&as_takasa).then_some(as_takasa),
                });
            }
            if let (Some(h), true) = (self.priority_pit(), stage == Stage::Mtaji) {
                if self.mtaji_capture_candidates(side).contains(mv) {
                    return fail(IllegalReason::CapturePriority {
                        variant: self.rules.variant,
                        reserved: Pit::from_ring(side.opponent(), usize::from(h)),
                        captures,
                    });
                }
            }
            if self.rules.takasia == Takasia::Standard
                && self.blocked[side.index()] == Some(mv.pit.ring() as u8)
            {
                return fail(IllegalReason::TakasiaPit { pit: mv.pit });
            }
            return fail(IllegalReason::NotACapture { captures });
        }
        // A takasa while no capture exists.
        if stage == Stage::Namua {
            let placements = self.namua_placements();
            if placements & (1 << mv.pit.ring()) == 0 {
                let functional = self.house_state(side) == crate::HouseState::Functional;
                return fail(if functional && mv.pit == Pit::nyumba(side) {
                    IllegalReason::NamuaHousePlacement { pit: mv.pit }
                } else {
                    IllegalReason::NamuaPlacement { pit: mv.pit }
                });
            }
        } else {
            let m = side.index();
            if self.rules.takasia != Takasia::Off && self.blocked[m] == Some(mv.pit.ring() as u8) {
                return fail(IllegalReason::TakasiaPit { pit: mv.pit });
            }
            if self.rules.first_takata_from_kuu
                && self.houses[m] == House::Owned
                && mv.pit != Pit::nyumba(side)
                && legal.iter().all(|l| l.pit == Pit::nyumba(side))
            {
                return fail(IllegalReason::FirstTakataFromKuu {
                    house: Pit::nyumba(side),
                });
            }
            if mv.pit.row() == Row::Back {
                return fail(IllegalReason::BackRowTakasa { pit: mv.pit });
            }
        }
        fail(IllegalReason::NotLegal { legal })
    }
}

/// Counts the leaves of the legal-move tree to `depth` plies (finished games count as 0
/// below depth 0).
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| perft(&pos.play_fast(mv), depth - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{RuleSet, PRESET_NAMES};

    /// The first-lap capture test written out pit by pit, as the rules state it.
    fn capture_candidates_by_the_book(pos: &Position, side: Side) -> Vec<Move> {
        let own = pos.ring(side);
        let opp = pos.ring(side.opponent());
        let blocked = match pos.rules.takasia {
            Takasia::Standard => pos.blocked[side.index()].map(usize::from),
            _ => None,
        };
        let mut out = Vec::new();
        for r in 0..RING {
            let n = own[r];
            if n < 2 || n >= pos.rules.capture_threshold || Some(r) == blocked {
                continue;
            }
            for dir in [Direction::Clockwise, Direction::Anticlockwise] {
                let end = first_lap_end(r, usize::from(n), dir);
                if end < 8 && own[end] > 0 && opp[7 - end] > 0 {
                    let pit = Pit::from_ring(side, r);
                    out.push(Move {
                        pit,
                        sign: Sign::for_sowing(pit.row(), dir),
                        takasa: false,
                        safari: false,
                    });
                }
            }
        }
        out
    }

    /// A small deterministic choice of a number below `n` (an LCG) for random games.
    fn lcg(seed: u64) -> impl FnMut(usize) -> usize {
        bao_testkit::Lcg::new(seed).picker()
    }

    /// Mancala World Problem 3 (as in `tests/it/never_ending.rs`): the namua takasa `A3<*`
    /// never ends (cycle from lap 1, period 228); the other takasas end.
    fn problem_3(rules: RuleSet) -> Position {
        let mut s = crate::position::Setup::start(rules);
        s.hands = crate::types::BySide::new(11, 11);
        s.pits = [
            [1, 6, 3, 1, 0, 5, 4, 0],
            [2, 1, 0, 5, 0, 3, 0, 1],
            [1, 0, 0, 9, 0, 0, 0, 0],
            [0; 8],
        ];
        s.houses = crate::types::BySide::new(
            crate::position::HouseState::Destroyed,
            crate::position::HouseState::Destroyed,
        );
        Position::from_setup(s).expect("Problem 3 is a valid position")
    }

    fn takasas(pos: &Position, moves: &[&str]) -> MoveSet {
        let mut set = MoveSet::empty(Kind::Takasa, pos.to_move);
        for mv in moves {
            set.insert(&mv.parse().expect("a move"));
        }
        set
    }

    #[test]
    fn bytewise_counts_agree_with_a_loop() {
        let mut rng = bao_testkit::Lcg::new(3);
        for _ in 0..20_000 {
            let seed = rng.next_u64();
            // Bytes 0..=64 (a pit never holds more), often small or equal to `min`.
            let bytes = (seed >> 8)
                .to_le_bytes()
                .map(|b| if b & 0x80 == 0 { b & 7 } else { b % 65 });
            let word = u64::from_le_bytes(bytes);
            for min in (0..=70).chain([127, 128, 129, 200, 255]) {
                let by_loop = (0..8).fold(0, |bits, i| bits | u32::from(bytes[i] >= min) << i);
                assert_eq!(bytes_at_least(word, min), by_loop, "{bytes:?} >= {min}");
            }
            let mut ring = [0u8; RING];
            ring[..8].copy_from_slice(&bytes);
            ring[8..].copy_from_slice(&bytes.map(|b| 64 - b));
            let holding = (0..RING).fold(0, |bits, i| bits | u32::from(ring[i] >= 3) << i);
            assert_eq!(pits_holding(&ring, 3), holding);
            let mut opp = ring;
            opp.rotate_left(3);
            let facing = (0..8).fold(0, |bits, i| {
                bits | u32::from(ring[i] > 0 && opp[7 - i] > 0) << i
            });
            assert_eq!(facing_seeds(&ring, &opp), facing);
        }
    }

    #[test]
    fn a_candidate_set_aside_is_decided_when_no_other_is_legal() {
        let endless: Move = "A3<*".parse().expect("a move");
        let mut draw = RuleSet::KISWAHILI;
        draw.set_option("endless_move", "draw").expect("an option");
        for rules in [RuleSet::KISWAHILI, draw] {
            let pos = problem_3(rules);
            let legal = rules.endless_move == EndlessMove::Draw;
            // Alone, it is decided in full: illegal (G11) by default, legal under `draw`.
            let alone = takasas(&pos, &["A3<*"]);
            let mut chosen = Chosen::new();
            let kept = pos.select(alone, &mut Some(&mut |_| 0), &mut chosen);
            assert_eq!(kept.contains(&endless), legal, "{rules:?}");
            match chosen.mv {
                Some(mv) => {
                    assert!(legal);
                    assert_eq!(mv, endless);
                    assert_eq!(
                        chosen.run.finish,
                        Finish::NeverEnding(crate::trace::NeverEnding {
                            cycle_start_lap: 1,
                            period: 228
                        })
                    );
                }
                None => assert!(!legal),
            }
            assert_eq!(pos.any_legal(&alone), legal);
            // Beside a move that ends, it is set aside even when picked first (the lower
            // bit, index 0), under either policy.
            let pair = takasas(&pos, &["A3<*", "A6<*"]);
            assert_eq!(pair.nth_bit(0), alone.nth_bit(0));
            let mut chosen = Chosen::new();
            let kept = pos.select(pair, &mut Some(&mut |_| 0), &mut chosen);
            let other: Move = "A6<*".parse().expect("a move");
            assert_eq!(kept.iter().collect::<Vec<_>>(), [other]);
            assert_eq!(chosen.mv, Some(other));
            assert_eq!(chosen.run.finish, Finish::Done);
            assert!(pos.any_legal(&pair));
        }
    }

    #[test]
    fn quick_runs_agree_with_full_runs() {
        let mut pick = lcg(11);
        let (mut decided, mut undecided) = (0, 0);
        let mut check = |pos: &Position, cands: MoveSet| {
            for mv in cands.iter() {
                let full = pos.simulate(mv);
                let mut quick = Run::UNPLAYED;
                execute_quick_into(pos, mv, &mut quick);
                match (quick.finish != Finish::Undecided).then_some(quick) {
                    Some(quick) => {
                        decided += 1;
                        assert_eq!(quick.after, full.after, "{mv} in\n{pos}");
                        assert_eq!(quick.finish, full.finish, "{mv} in\n{pos}");
                        assert_eq!(quick.laps, full.laps, "{mv} in\n{pos}");
                        assert_eq!(quick.sown, full.sown, "{mv} in\n{pos}");
                        assert_eq!(quick.captured_mask, full.captured_mask);
                        assert_eq!(quick.first_capture, full.first_capture);
                        assert_eq!(quick.stopped_at_house, full.stopped_at_house);
                    }
                    None => {
                        undecided += 1;
                        assert!(full.laps >= 64, "{mv} in\n{pos}");
                    }
                }
            }
            let by_definition = cands
                .iter()
                .any(|mv| !pos.run_is_illegal(&pos.simulate(mv)));
            assert_eq!(pos.any_legal(&cands), by_definition, "{pos}");
        };
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).expect("preset");
            for _ in 0..12 {
                let mut pos = Position::start(rules);
                while let Some((_, next)) = pos.random_move(&mut pick) {
                    if pos.stage() == Stage::Mtaji {
                        check(&pos, pos.mtaji_capture_candidates(pos.to_move));
                        check(
                            &pos,
                            MoveSet {
                                bits: pos.mtaji_takasa_bits(),
                                ..MoveSet::empty(Kind::Takasa, pos.to_move)
                            },
                        );
                    } else {
                        check(&pos, pos.namua_capture_candidates());
                    }
                    pos = next;
                }
            }
        }
        check(
            &problem_3(RuleSet::KISWAHILI),
            takasas(&problem_3(RuleSet::KISWAHILI), &["A3<*", "A3>*"]),
        );
        assert!(decided > 5000, "{decided} quick runs decided");
        assert!(undecided > 0, "no quick run was left undecided");
    }

    #[test]
    fn bitmask_capture_candidates_agree_with_the_book() {
        let mut pick = lcg(5);
        let mut checked = 0;
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).expect("preset");
            for _ in 0..20 {
                let mut pos = Position::start(rules);
                while let Some((_, next)) = pos.random_move(&mut pick) {
                    for side in Side::ALL {
                        let fast: Vec<Move> = pos.mtaji_capture_candidates(side).iter().collect();
                        assert_eq!(fast, capture_candidates_by_the_book(&pos, side), "{pos}");
                        checked += 1;
                    }
                    pos = next;
                }
            }
        }
        assert!(checked > 1000);
    }
}
