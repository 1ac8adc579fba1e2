//! Move generation: candidate moves as bit sets ([`MoveSet`]), the legal moves of a
//! position, and random choice among them for playouts.

use crate::context::{Engine, Known};
use crate::engine::{
    execute_quick_into, finish_of, quick_finish_of, sow_ring, Finish, Outcome as Run,
};
use crate::pitset::PitSet;
use crate::position::{House, Position, HOUSE_THRESHOLD};
use crate::rules::{FrontRowGuard, Takasia};
use crate::types::{Direction, Move, MoveKind, Pit, Side, Sign, Stage, HOUSE_RING, RING, ROW_PITS};

/// The fewest seeds a mtaji move may start from (G6, M2, M4): a pit of one seed is not sown.
pub(crate) const MTAJI_MIN_SEEDS: u8 = 2;

/// A random choice: `pick(n)` returns a number below `n`.
pub(crate) type Picker<'a> = Option<&'a mut dyn FnMut(usize) -> usize>;

/// What the bits of a [`MoveSet`] stand for (in this order: the discriminants index the
/// look-up tables, [`KINDS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
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
pub(crate) struct MoveSet {
    pub(crate) bits: u32,
    pub(crate) kind: Kind,
    pub(crate) side: Side,
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
    pub(crate) const fn empty(kind: Kind, side: Side) -> Self {
        Self {
            bits: 0,
            kind,
            side,
        }
    }

    /// The bit of `mv` in this set's encoding, if `mv` is of this set's kind and side.
    pub(crate) fn bit_of(&self, mv: &Move) -> Option<u32> {
        if mv.pit.side() != self.side {
            return None;
        }
        let ring = mv.pit.ring() as u32;
        match self.kind {
            Kind::NamuaCapture => (mv.is_capture() && ring < 8)
                .then(|| 4 * ring + 2 * sign_bit(mv.sign) + u32::from(mv.is_safari())),
            Kind::MtajiCapture => (mv.kind == MoveKind::Capture).then(|| {
                let dir = mv.sign.sowing_direction(mv.pit.row());
                2 * ring + u32::from(dir == Direction::Anticlockwise)
            }),
            Kind::Takasa => mv.is_takasa().then(|| 2 * ring + sign_bit(mv.sign)),
        }
    }

    /// The move of bit `bit` (below 32).
    #[inline]
    pub(crate) fn move_at(&self, bit: u32) -> Move {
        MOVE_AT[self.kind as usize][self.side.index()][bit as usize % 32]
    }

    #[inline]
    fn insert(&mut self, mv: &Move) {
        if let Some(b) = self.bit_of(mv) {
            self.bits |= 1 << b;
        }
    }

    #[inline]
    pub(crate) fn contains(&self, mv: &Move) -> bool {
        self.bit_of(mv).is_some_and(|b| self.bits & (1 << b) != 0)
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.bits == 0
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
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
    pub(crate) fn first(&self) -> Option<Move> {
        (!self.is_empty()).then(|| self.move_at(self.bits.trailing_zeros()))
    }

    /// The set bits, in order.
    pub(crate) fn bit_iter(&self) -> impl Iterator<Item = u32> {
        let mut b = self.bits;
        std::iter::from_fn(move || {
            (b != 0).then(|| {
                let i = b.trailing_zeros();
                b &= b - 1;
                i
            })
        })
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.bit_iter().map(|b| self.move_at(b))
    }

    pub(crate) fn moves(&self) -> Vec<Move> {
        self.iter().collect()
    }

    /// The moves, sorted ([`Move`]'s order), in a [`MoveList`]: each bit is mapped to its
    /// move's place in that order ([`order_key`]), so nothing is compared or moved about.
    pub(crate) fn sorted_moves(&self) -> MoveList {
        let key_of = &ORDER_KEY[self.kind as usize];
        let keys = self
            .bit_iter()
            .fold(0u64, |keys, b| keys | 1 << key_of[b as usize % 32]);
        let of_key = &MOVE_OF_KEY[self.kind as usize][self.side.index()];
        let mut out = MoveList::new();
        let mut k = keys;
        while k != 0 {
            out.moves[usize::from(out.len) % MoveList::CAPACITY] =
                of_key[k.trailing_zeros() as usize % 64];
            out.len += 1;
            k &= k - 1;
        }
        out
    }
}

/// The legal moves of a position, in [`Move`]'s order, as [`Position::legal_moves`] gives
/// them: at most [`MoveList::CAPACITY`], held in the list itself (nothing is allocated).
/// Reads as a slice of moves (it dereferences to `[Move]`: `len`, `iter`, indexing,
/// `contains`...), compares equal to a vector, slice or array of the same moves, and
/// iterates by value or by reference; `to_vec` or `Vec::from` make a vector.
///
/// ```
/// use bao_core::{Move, MoveList, Position, RuleSet};
///
/// let moves: MoveList = Position::start(RuleSet::KISWAHILI).legal_moves();
/// assert_eq!(moves.len(), 4);
/// let written: Vec<String> = moves.iter().map(ToString::to_string).collect();
/// assert_eq!(written, ["A6<*", "A6>*", "A7<*", "A7>*"]);
/// let first: Move = "A6<*".parse().unwrap();
/// assert!(moves.contains(&first));
/// assert_eq!(moves, Vec::from(moves));
/// ```
#[derive(Clone, Copy)]
pub struct MoveList {
    len: u8,
    moves: [Move; LIST_CAPACITY],
}

/// [`MoveList::CAPACITY`].
const LIST_CAPACITY: usize = 32;

impl MoveList {
    /// The most moves a list holds: a position never has more legal moves (each group of
    /// candidates is a set of at most 32).
    pub const CAPACITY: usize = LIST_CAPACITY;

    /// An empty list.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            len: 0,
            // Never read (only the first `len` are): the move whose fields are all the
            // first of their kinds, so that filling is clearing.
            moves: [Move::new(
                Pit::from_ring(Side::South, 0),
                Sign::Left,
                MoveKind::Capture,
            ); Self::CAPACITY],
        }
    }

    /// The moves as a slice.
    #[must_use]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..usize::from(self.len)]
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..usize::from(self.len)]
    }
}

impl AsRef<[Move]> for MoveList {
    fn as_ref(&self) -> &[Move] {
        self.as_slice()
    }
}

/// Shown as a list of moves.
impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveList {}

impl std::hash::Hash for MoveList {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl PartialEq<Vec<Move>> for MoveList {
    fn eq(&self, other: &Vec<Move>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl PartialEq<MoveList> for Vec<Move> {
    fn eq(&self, other: &MoveList) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl PartialEq<[Move]> for MoveList {
    fn eq(&self, other: &[Move]) -> bool {
        self.as_slice() == other
    }
}

impl PartialEq<&[Move]> for MoveList {
    fn eq(&self, other: &&[Move]) -> bool {
        self.as_slice() == *other
    }
}

impl<const N: usize> PartialEq<[Move; N]> for MoveList {
    fn eq(&self, other: &[Move; N]) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl From<MoveList> for Vec<Move> {
    fn from(list: MoveList) -> Self {
        list.as_slice().to_vec()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = std::iter::Take<std::array::IntoIter<Move, LIST_CAPACITY>>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.into_iter().take(usize::from(self.len))
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl MoveSet {}

/// The move of bit `bit` of a set of kind `kind` and side `side`.
const fn move_at(kind: Kind, side: Side, bit: u32) -> Move {
    match kind {
        Kind::NamuaCapture => Move::new(
            Pit::from_ring(side, (bit / 4) as usize),
            bit_sign(bit / 2),
            if bit & 1 == 1 {
                MoveKind::Safari
            } else {
                MoveKind::Capture
            },
        ),
        Kind::MtajiCapture => {
            let pit = Pit::from_ring(side, (bit / 2) as usize);
            let dir = if bit & 1 == 0 {
                Direction::Clockwise
            } else {
                Direction::Anticlockwise
            };
            Move::capture(pit, Sign::for_sowing(pit.row(), dir))
        }
        Kind::Takasa => Move::takasa(Pit::from_ring(side, (bit / 2) as usize), bit_sign(bit)),
    }
}

/// The place of bit `bit`'s move in [`Move`]'s order (pit: row, then number; then sign;
/// then kind), as a number below 64: within a set the pit, the sign and (for namua
/// captures) the safari flag tell moves apart, and the key orders them as `Move` does.
const fn order_key(kind: Kind, bit: u32) -> u32 {
    let (ring, sign, safari) = match kind {
        Kind::NamuaCapture => (bit / 4, (bit / 2) & 1, bit & 1),
        Kind::Takasa => (bit / 2, bit & 1, 0),
        // Bit 1 is anticlockwise: `<` from the front row, `>` from the back (G5).
        Kind::MtajiCapture => (bit / 2, (bit & 1) ^ (bit < 16) as u32, 0),
    };
    let (row, index) = if ring < 8 { (0, ring) } else { (1, 15 - ring) };
    row << 5 | index << 2 | sign << 1 | safari
}

/// The move whose [`order_key`] is `key` in a set of kind `kind` and side `side`.
const fn move_of_key(kind: Kind, side: Side, key: u32) -> Move {
    let ring = if key >> 5 == 0 {
        (key >> 2) & 7
    } else {
        15 - ((key >> 2) & 7)
    };
    let sign = bit_sign(key >> 1);
    let kind = match kind {
        Kind::Takasa => MoveKind::Takasa,
        Kind::NamuaCapture if key & 1 == 1 => MoveKind::Safari,
        Kind::NamuaCapture | Kind::MtajiCapture => MoveKind::Capture,
    };
    Move::new(Pit::from_ring(side, ring as usize), sign, kind)
}

/// The namua capture bits whose captured seeds are sown anticlockwise, from the right
/// kichwa: those of pits 7 and 8, and `>` from a central pit (G7).
const NAMUA_ANTICLOCKWISE: u32 = {
    let mut t = 0u32;
    let mut b = 0;
    while b < 32 {
        let anticlockwise = match forced_kichwa(b / 4) {
            Some(sign) => matches!(sign, Sign::Right),
            None => (b / 2) & 1 == 1,
        };
        if anticlockwise {
            t |= 1 << b;
        }
        b += 1;
    }
    t
};

/// The pit where `seeds` captured seeds (1 to 15) sown from a kichwa end: from the left
/// kichwa (ring 0) clockwise, or from the right (ring 7) anticlockwise; `None` for no seeds
/// or 16 and more.
const fn captured_lap_end(seeds: usize, anticlockwise: bool) -> Option<usize> {
    if seeds == 0 || seeds >= RING {
        return None;
    }
    Some(if anticlockwise {
        (ROW_PITS + RING - seeds) % RING
    } else {
        seeds - 1
    })
}

/// `CAPTURED_END[anticlockwise][seeds]`: the bit of the ring pit where [`captured_lap_end`]
/// ends (0 where it gives `None`), for seeds 0 to 255; a look-up instead of the branches.
static CAPTURED_END: [[u32; 256]; 2] = {
    let mut t = [[0u32; 256]; 2];
    let mut a = 0;
    while a < 2 {
        let mut seeds = 0;
        while seeds < 256 {
            if let Some(end) = captured_lap_end(seeds, a == 1) {
                t[a][seeds] = 1 << end;
            }
            seeds += 1;
        }
        a += 1;
    }
    t
};

/// The kinds in the order of their discriminants (the first index of the tables below).
const KINDS: [Kind; 3] = [Kind::NamuaCapture, Kind::MtajiCapture, Kind::Takasa];

/// `MOVE_AT[kind][side][bit]`: [`move_at`] (the generation's bit-to-move map as a look-up).
static MOVE_AT: [[[Move; 32]; 2]; 3] = {
    let mut t = [[[Move::takasa(Pit::from_ring(Side::South, 0), Sign::Left); 32]; 2]; 3];
    let mut k = 0;
    while k < 3 {
        let mut s = 0;
        while s < 2 {
            let mut bit = 0;
            while bit < 32 {
                t[k][s][bit] = move_at(KINDS[k], Side::ALL[s], bit as u32);
                bit += 1;
            }
            s += 1;
        }
        k += 1;
    }
    t
};

/// `ORDER_KEY[kind][bit]`: [`order_key`].
static ORDER_KEY: [[u8; 32]; 3] = {
    let mut t = [[0u8; 32]; 3];
    let mut k = 0;
    while k < 3 {
        let mut bit = 0;
        while bit < 32 {
            t[k][bit] = order_key(KINDS[k], bit as u32) as u8;
            bit += 1;
        }
        k += 1;
    }
    t
};

/// `MOVE_OF_KEY[kind][side][key]`: [`move_of_key`].
static MOVE_OF_KEY: [[[Move; 64]; 2]; 3] = {
    let mut t = [[[Move::takasa(Pit::from_ring(Side::South, 0), Sign::Left); 64]; 2]; 3];
    let mut k = 0;
    while k < 3 {
        let mut s = 0;
        while s < 2 {
            let mut key = 0;
            while key < 64 {
                t[k][s][key] = move_of_key(KINDS[k], Side::ALL[s], key as u32);
                key += 1;
            }
            s += 1;
        }
        k += 1;
    }
    t
};

/// The legal moves of a position.
#[derive(Debug)]
pub(crate) struct Analysis {
    /// Legal captures (after never-ending and priority filters).
    captures: MoveSet,
    /// Legal takasa moves (empty when captures exist).
    takasas: MoveSet,
    /// With a picker: the move kept and its run (the one `random_move` plays).
    chosen: Chosen,
    /// The candidates already decided ([`Position::legal_moves`]: its end test's note).
    known: Known,
}

/// What an analysis wants of the runs of the candidates it tries, as a type parameter (not
/// a field tested at run time), so each use compiles without what it does not need: without
/// a picker, where each candidate found legal goes with its run (nowhere for the move lists,
/// `()`; a vector for [`Position::successors`]); with a picker, whether the chosen
/// candidate's run is wanted (a playout plays it, [`Play`]; the end test only asks whether
/// some move is legal, `()`, or [`Known`] to note what it decided).
trait Keep {
    /// Whether the runs are wanted: without, a candidate is only tested for legality, by
    /// how its run ends ([`finish_of`]), and no run is written out. A picker without runs
    /// is the in-order one (`|_| 0`: the end test and [`Position::any_legal`] take the first
    /// legal candidate in order), so it is not called.
    const RUNS: bool;
    fn keep(&mut self, mv: Move, run: Run);
    /// Bit `bit` of `set` was run with a picker and decided: legal or not, and whether it
    /// stopped in the functional nyumba (a namua capture whose safari is a second move).
    #[inline(always)]
    fn decided(&mut self, _set: &MoveSet, _bit: u32, _legal: bool, _stopped_at_house: bool) {}
    /// The candidates `set` were looked at without running ([`Position::seen_to_end`]).
    #[inline(always)]
    fn looked(&mut self, _set: &MoveSet) {}
}

impl Keep for () {
    const RUNS: bool = false;
    #[inline(always)]
    fn keep(&mut self, _: Move, _: Run) {}
}

/// A random playout: the chosen candidate's run is wanted (it is played), none is kept.
struct Play;

impl Keep for Play {
    const RUNS: bool = true;
    #[inline(always)]
    fn keep(&mut self, _: Move, _: Run) {}
}

impl Keep for Vec<(Move, Run)> {
    const RUNS: bool = true;
    fn keep(&mut self, mv: Move, run: Run) {
        self.push((mv, run));
    }
}

impl Known {
    /// Whether `mv` is one of the moves of `pos` (the position this note is kept in) that
    /// its end test decided legal. Such a move is in the legal list (the end test looks at
    /// a group only when no earlier group has a legal move, notes legal only finite runs
    /// that do not stop in the functional nyumba, and runs no group under priority), so it
    /// needs no other legality test than its own run.
    #[inline]
    pub(crate) fn notes_legal(&self, pos: &Position, mv: &Move) -> bool {
        if self.legal == [0; 2] {
            return false;
        }
        let (kind, k) = if mv.is_takasa() {
            (Kind::Takasa, 1)
        } else {
            match pos.stage() {
                Stage::Namua => (Kind::NamuaCapture, 0),
                Stage::Mtaji => (Kind::MtajiCapture, 0),
            }
        };
        let set = MoveSet {
            bits: self.legal[k],
            kind,
            side: pos.to_move,
        };
        // The move exactly as the list gives it (no other spelling of its bit).
        set.bit_of(mv)
            .is_some_and(|b| set.bits & (1 << b) != 0 && set.move_at(b) == *mv)
    }

    /// The capture candidates of the position, when its end test looked at them (the set
    /// the capture group was selected from, every bit of it).
    #[inline]
    fn capture_candidates(&self, kind: Kind, side: Side) -> Option<MoveSet> {
        self.captures_looked.then_some(MoveSet {
            bits: self.looked[0],
            kind,
            side,
        })
    }

    /// The slot of a set's kind.
    #[inline]
    fn slot(kind: Kind) -> usize {
        usize::from(kind == Kind::Takasa)
    }

    /// The candidates of `set` noted legal, those noted at all (legal or not), and those
    /// looked at without running.
    #[inline]
    fn of(&self, set: &MoveSet) -> (u32, u32, u32) {
        let k = Self::slot(set.kind);
        (
            set.bits & self.legal[k],
            set.bits & (self.legal[k] | self.illegal[k]),
            set.bits & self.looked[k],
        )
    }
}

/// The end test that notes what it decides.
impl Keep for Known {
    const RUNS: bool = false;
    #[inline(always)]
    fn keep(&mut self, _: Move, _: Run) {}
    #[inline(always)]
    fn decided(&mut self, set: &MoveSet, bit: u32, legal: bool, stopped_at_house: bool) {
        let k = Self::slot(set.kind);
        if !legal {
            self.illegal[k] |= 1 << bit;
        } else if !stopped_at_house {
            self.legal[k] |= 1 << bit;
        }
    }
    #[inline(always)]
    fn looked(&mut self, set: &MoveSet) {
        let k = Self::slot(set.kind);
        self.looked[k] |= set.bits;
        // The capture group is selected once, from all of its candidates.
        self.captures_looked |= k == 0;
    }
}

/// A move picked at random and its run. Candidates are run straight into `run`, so the run
/// of the move kept is never copied.
#[derive(Debug)]
struct Chosen {
    mv: Option<Move>,
    /// The run of `mv`; with `mv` unset, that of the last candidate tried. `None` until a
    /// run is wanted ([`Keep::RUNS`]): the list and the end test never write one, so they
    /// do not pay for a placeholder run either.
    run: Option<Run>,
}

impl Chosen {
    fn new() -> Self {
        Self {
            mv: None,
            run: None,
        }
    }
}

impl Analysis {
    /// An empty analysis of `pos`: the capture kind of its stage.
    fn new(pos: &Position) -> Self {
        let capture_kind = match pos.stage() {
            Stage::Namua => Kind::NamuaCapture,
            Stage::Mtaji => Kind::MtajiCapture,
        };
        let side = pos.to_move;
        Self {
            captures: MoveSet::empty(capture_kind, side),
            takasas: MoveSet::empty(Kind::Takasa, side),
            chosen: Chosen::new(),
            known: Known::NONE,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.captures.is_empty() && self.takasas.is_empty()
    }

    fn legal(&self) -> &MoveSet {
        if self.captures.is_empty() {
            &self.takasas
        } else {
            &self.captures
        }
    }

    pub(crate) fn moves(&self) -> Vec<Move> {
        self.legal().moves()
    }

    /// The legal moves, sorted.
    pub(crate) fn sorted_moves(&self) -> MoveList {
        self.legal().sorted_moves()
    }

    pub(crate) fn captures(&self) -> Vec<Move> {
        self.captures.moves()
    }
}

/// The number of sets of front pits (one bit a pit).
const FRONT_SETS: usize = 1 << ROW_PITS;

/// `NAMUA_SIGNS[f]`: the namua capture bits (`4 * i` for `<`, `4 * i + 2` for `>`) of the
/// front pits `f` (bit i: ring index i); a kimbi pit enters at its own kichwa only.
static NAMUA_SIGNS: [u32; FRONT_SETS] = namua_signs();

/// The kichwa a namua capture from front pit `ring` (ring index 0..8) must enter at (G7):
/// a kimbi's own one (pits 1 and 2 the left, 7 and 8 the right); `None` for a central pit,
/// whose capture may enter at either.
pub(crate) const fn forced_kichwa(ring: usize) -> Option<Sign> {
    if ring <= 1 {
        Some(Sign::Left)
    } else if ring >= ROW_PITS - 2 {
        Some(Sign::Right)
    } else {
        None
    }
}

const fn namua_signs() -> [u32; FRONT_SETS] {
    let mut t = [0u32; FRONT_SETS];
    let mut f = 0;
    while f < FRONT_SETS {
        let mut i = 0;
        while i < ROW_PITS {
            if f & (1 << i) != 0 {
                let signs: u32 = match forced_kichwa(i) {
                    Some(Sign::Left) => 0b0001,
                    Some(Sign::Right) => 0b0100,
                    None => 0b0101,
                };
                t[f] |= signs << (4 * i);
            }
            i += 1;
        }
        f += 1;
    }
    t
}

/// Both takasa directions from every ring pit in `pits`, as [`Kind::Takasa`] bits.
#[inline]
fn both_signs(pits: PitSet) -> u32 {
    pits.iter().fold(0, |out, r| out | takasa_bits(r))
}

/// Both directions of a takasa from ring pit `r`, as bits of a [`Kind::Takasa`] set.
pub(crate) const fn takasa_bits(r: usize) -> u32 {
    0b11 << (2 * r)
}

impl Position {
    /// Every legal move, sorted, in a [`MoveList`] (nothing allocated).
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        self.legal_moves_in(&mut Engine::new())
    }

    /// [`Position::legal_moves`] with the caller's engine.
    pub(crate) fn legal_moves_in(&self, cx: &mut Engine) -> MoveList {
        self.legal_moves_with(None, cx)
    }

    /// [`Position::legal_moves`] with this position's note when the caller holds it
    /// ([`crate::Noted`]); `None` asks the engine for the note it keeps.
    pub(crate) fn legal_moves_with(&self, known: Option<&Known>, cx: &mut Engine) -> MoveList {
        if self.ended.is_some() || self.front_row_outcome().is_some() {
            return MoveList::new();
        }
        let mut a = Analysis::new(self);
        a.known = match known {
            Some(known) => *known,
            None => cx.known_for(self),
        };
        self.analyse_into(None, &mut a, &mut (), cx);
        a.sorted_moves()
    }

    /// Every legal move with the position after it, sorted by move: the same as
    /// [`Position::legal_moves`] with [`Position::play_fast`] of each, but each move is run
    /// once (the run that proves it legal is the one played), so a search expanding a node
    /// pays about half.
    ///
    /// ```
    /// use bao_core::{Position, RuleSet};
    ///
    /// let start = Position::start(RuleSet::KISWAHILI);
    /// let by_play: Vec<_> = start.legal_moves().iter().map(|m| (*m, start.play_fast(m))).collect();
    /// assert_eq!(start.successors(), by_play);
    /// ```
    #[must_use]
    pub fn successors(&self) -> Vec<(Move, Self)> {
        self.successors_in(&mut Engine::new())
    }

    /// [`Position::successors`] with the caller's engine.
    pub(crate) fn successors_in(&self, cx: &mut Engine) -> Vec<(Move, Self)> {
        if self.ended.is_some() || self.front_row_outcome().is_some() {
            return Vec::new();
        }
        let mut a = Analysis::new(self);
        let mut kept: Vec<(Move, Run)> = Vec::new();
        self.analyse_into(None, &mut a, &mut kept, cx);
        let legal = *a.legal();
        let mut out: Vec<(Move, Self)> = kept
            .into_iter()
            .filter(|(mv, _)| legal.contains(mv))
            .map(|(mv, run)| {
                let mut next = *self;
                next.settle(&mv, &run, None, cx);
                (mv, next)
            })
            .collect();
        out.sort_unstable_by_key(|(mv, _)| *mv);
        out.dedup_by_key(|(mv, _)| *mv);
        out
    }

    /// Whether the side to move has a legal move (the end test of E2), stopping at the
    /// first legal candidate instead of running them all.
    pub(crate) fn has_legal_move(&self, cx: &mut Engine) -> bool {
        self.first_legal(&mut (), cx)
    }

    /// [`Position::has_legal_move`], leaving what it decided in the engine ([`Known`], noted
    /// for this position) for the engine's next [`Position::legal_moves`] of it.
    pub(crate) fn has_legal_move_noted(&self, cx: &mut Engine) -> bool {
        let mut known = Known::NONE;
        let found = self.first_legal(&mut known, cx);
        cx.note(self, known);
        found
    }

    /// [`Position::has_legal_move`], adding what it decided to `known` (for the caller to
    /// keep beside this position).
    #[inline]
    pub(crate) fn has_legal_move_into(&self, known: &mut Known, cx: &mut Engine) -> bool {
        self.first_legal(known, cx)
    }

    /// Whether some candidate is legal, trying them in order (those needing a never-ending
    /// decision last) and stopping at the first legal one; what is decided goes to `note`.
    fn first_legal<K: Keep>(&self, note: &mut K, cx: &mut Engine) -> bool {
        let mut a = Analysis::new(self);
        self.analyse_into(Some(&mut |_| 0), &mut a, note, cx);
        !a.is_empty()
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
    pub fn random_move(&self, pick: &mut dyn FnMut(usize) -> usize) -> Option<(Move, Self)> {
        self.random_move_in(pick, &mut Engine::new())
    }

    /// [`Position::random_move`] with the caller's engine.
    pub(crate) fn random_move_in(
        &self,
        pick: &mut dyn FnMut(usize) -> usize,
        cx: &mut Engine,
    ) -> Option<(Move, Self)> {
        let mut next = *self;
        let mv = next.play_random_move_in(pick, cx)?;
        Some((mv, next))
    }

    /// [`Position::random_move`] played in place: the position becomes the one after the
    /// move, which is returned; `None` (the position unchanged) when the game is over. The
    /// same move as `random_move` for the same `pick`, without copying whole positions: the
    /// form for playouts.
    pub fn play_random_move(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> Option<Move> {
        self.play_random_move_in(pick, &mut Engine::new())
    }

    /// [`Position::play_random_move`] with the caller's engine.
    pub(crate) fn play_random_move_in(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        cx: &mut Engine,
    ) -> Option<Move> {
        if self.ended.is_some() || self.front_row_outcome().is_some() {
            return None;
        }
        let mut a = Analysis::new(self);
        self.analyse_into(Some(pick), &mut a, &mut Play, cx);
        if let (Some(mv), Some(run)) = (a.chosen.mv, a.chosen.run.as_ref()) {
            self.settle(&mv, run, None, cx);
            return Some(mv);
        }
        let mv = a.captures.first().or_else(|| a.takasas.first())?;
        let run = self.simulate(mv, cx);
        self.settle(&mv, &run, None, cx);
        Some(mv)
    }

    /// Classifies the candidates and runs them. With `pick`, each group is tried in random
    /// order and only its first legal move is kept.
    pub(crate) fn analyse(
        &self,
        pick: Option<&mut dyn FnMut(usize) -> usize>,
        cx: &mut Engine,
    ) -> Analysis {
        let mut a = Analysis::new(self);
        self.analyse_into(pick, &mut a, &mut (), cx);
        a
    }

    /// [`Position::analyse`] into an analysis the caller keeps: a random playout reads the
    /// chosen run where it was written, not from a copy.
    /// Without `pick`, each legal candidate is also handed to `kept` with its run.
    fn analyse_into(
        &self,
        mut pick: Option<&mut dyn FnMut(usize) -> usize>,
        a: &mut Analysis,
        kept: &mut impl Keep,
        cx: &mut Engine,
    ) {
        match self.stage() {
            Stage::Namua => self.analyse_namua(&mut pick, a, kept, cx),
            Stage::Mtaji => self.analyse_mtaji(&mut pick, a, kept, cx),
        }
    }

    /// Runs candidates and keeps the legal ones: all of them, or with `pick` the first
    /// found in a random order, left with its run in `chosen`.
    ///
    /// With `pick`, a candidate still going where never-ending detection would begin is set
    /// aside, and decided exactly only if no other candidate is legal: a random playout
    /// rarely pays for a cycle of millions of laps when another move will do. The move
    /// chosen is legal all the same.
    /// Without `pick`, each legal candidate is handed to `kept` with its run.
    fn select<K: Keep>(
        &self,
        mut cands: MoveSet,
        pick: &mut Picker<'_>,
        chosen: &mut Chosen,
        kept: &mut K,
        known: &Known,
        cx: &mut Engine,
    ) -> MoveSet {
        let mut out = MoveSet { bits: 0, ..cands };
        match pick {
            Some(rng) => {
                if !K::RUNS {
                    // Only whether some candidate is legal is asked: when some are seen to
                    // end without running, all of those are noted legal and the first in
                    // order is kept.
                    let ends = MoveSet {
                        bits: self.seen_to_end(&cands),
                        ..cands
                    };
                    kept.looked(&cands);
                    if !ends.is_empty() {
                        for b in ends.bit_iter() {
                            kept.decided(&cands, b, true, false);
                        }
                        let first = ends.bits.trailing_zeros();
                        out.bits = 1 << first;
                        chosen.mv = Some(ends.move_at(first));
                        return out;
                    }
                }
                let mut set_aside = MoveSet { bits: 0, ..cands };
                while !cands.is_empty() {
                    // Without runs the picker is the in-order one (`Keep::RUNS`): not called.
                    let b = if K::RUNS {
                        let n = cands.len();
                        cands.nth_bit(rng(n).min(n - 1))
                    } else {
                        cands.bits.trailing_zeros()
                    };
                    cands.bits &= !(1 << b);
                    let mv = cands.move_at(b);
                    let (finish, stopped) = if K::RUNS {
                        let run = chosen.run.get_or_insert(Run::UNPLAYED);
                        execute_quick_into(self, mv, run, cx);
                        (run.finish, run.stopped_at_house)
                    } else {
                        quick_finish_of(self, mv, cx)
                    };
                    if finish == Finish::Undecided {
                        set_aside.bits |= 1 << b;
                        continue;
                    }
                    let legal = !self.finish_is_illegal(finish);
                    kept.decided(&cands, b, legal, stopped);
                    if legal {
                        out.bits |= 1 << b;
                        chosen.mv = Some(mv);
                        return out;
                    }
                }
                for b in set_aside.bit_iter() {
                    let mv = set_aside.move_at(b);
                    let (finish, stopped) = if K::RUNS {
                        let run = chosen.run.insert(self.simulate(mv, cx));
                        (run.finish, run.stopped_at_house)
                    } else {
                        finish_of(self, mv, cx)
                    };
                    let legal = !self.finish_is_illegal(finish);
                    // A run a lap budget stopped is not decided.
                    if finish != Finish::Undecided {
                        kept.decided(&cands, b, legal, stopped);
                    }
                    if legal {
                        out.bits |= 1 << b;
                        chosen.mv = Some(mv);
                        return out;
                    }
                }
                out
            }
            None if K::RUNS => {
                for b in cands.bit_iter() {
                    let mv = cands.move_at(b);
                    let run = self.simulate(mv, cx);
                    if !self.run_is_illegal(&run) {
                        out.bits |= 1 << b;
                        kept.keep(mv, run);
                    }
                }
                out
            }
            None => {
                // Candidates an end test decided are not run again.
                let (legal, noted, looked) = known.of(&cands);
                cands.bits &= !noted;
                // Nor those seen to end without running (looked at here unless the end test
                // did).
                let ends = self.seen_to_end(&MoveSet {
                    bits: cands.bits & !looked,
                    ..cands
                });
                out.bits = legal | ends;
                cands.bits &= !ends;
                for b in cands.bit_iter() {
                    if !self.finish_is_illegal(finish_of(self, cands.move_at(b), cx).0) {
                        out.bits |= 1 << b;
                    }
                }
                out
            }
        }
    }

    /// The candidates of `set` (of the side to move) whose run is seen to end without
    /// running it: a takasa whose first lap ends in an empty pit (and does not empty the
    /// mover's front row at its lift, G10), a namua capture whose captured seeds end in an
    /// empty pit, a mtaji capture whose first capture's seeds do. Such a run is finite and
    /// does not stop in the nyumba, so the move is legal wherever a candidate's legality is
    /// its run's (every group but mtaji captures under priority, which read what each run
    /// captures). Worked out from the board as the candidates are (first laps of fewer than
    /// 16 seeds, each pit sown at most once); a candidate not seen to end is left to its run
    /// (and may well end all the same). Laps that meet a house or a takasia'd pit of the
    /// mover at their start are left to the run too.
    pub(crate) fn seen_to_end(&self, set: &MoveSet) -> u32 {
        if set.is_empty() {
            return 0;
        }
        let side = self.to_move;
        let (m, own, opp) = (side.index(), self.ring(side), self.ring(side.opponent()));
        // Bit i (and i + 16): the mover's ring pit i is empty (a lap ending there ends).
        let empty = !PitSet::holding(own, 1).bits();
        let empty = u32::from(empty) | u32::from(empty) << RING;
        let mut out = 0;
        match set.kind {
            Kind::Takasa => {
                let namua = self.stage() == Stage::Namua;
                // A takasia'd pit of the mover may stop a move at its start (AbstractPlay);
                // a namua takasa from an owned nyumba may be taxed (two seeds lifted).
                let mut skip = self.blocked[m].map_or(0, |h| takasa_bits(usize::from(h) % RING));
                if namua && self.houses[m] == House::Owned {
                    skip |= takasa_bits(HOUSE_RING);
                }
                // G10: a lift that leaves the front row empty and sows its first seed into
                // the back row (`<` from pit 1, `>` from pit 8).
                if self.rules.front_row_guard == FrontRowGuard::Strict {
                    let front = PitSet::front_holding(own, 1).bits();
                    if front & !1 == 0 {
                        skip |= 1;
                    }
                    if front & !(1 << (ROW_PITS - 1)) == 0 {
                        skip |= 2 << (2 * (ROW_PITS - 1));
                    }
                }
                let mut bits = set.bits & !skip;
                while bits != 0 {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    let r = (b / 2) as usize % RING;
                    // Every seed of the pit is lifted (in namua with the one placed there);
                    // `>` sows clockwise from the front row, `<` from the back (G5).
                    let n = usize::from(own[r]) + usize::from(namua);
                    if n >= RING {
                        continue;
                    }
                    let clockwise = (b & 1 == 1) != (r >= ROW_PITS);
                    let end = if clockwise { r + n } else { r + RING - n };
                    if (empty >> end) & 1 != 0 {
                        out |= 1 << b;
                    }
                }
            }
            Kind::NamuaCapture => {
                // Only plain captures (even bits): `4 * p + 2 * sign`.
                let mut bits = set.bits & 0x5555_5555;
                while bits != 0 {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    // The seed is placed in front pit p, which captures the pit facing it.
                    let p = (b / 4) as usize % ROW_PITS;
                    let seeds = usize::from(opp[ROW_PITS - 1 - p]);
                    let anticlockwise = (NAMUA_ANTICLOCKWISE >> b) & 1;
                    let end = CAPTURED_END[anticlockwise as usize][seeds];
                    if end & empty & !(1 << p) != 0 {
                        out |= 1 << b;
                    }
                }
            }
            Kind::MtajiCapture => {
                let ring = u128::from_le_bytes(*own);
                let mut bits = set.bits;
                while bits != 0 {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    let r = (b / 2) as usize % RING;
                    let n = usize::from(own[r]);
                    if !(2..RING).contains(&n) {
                        continue;
                    }
                    let dir = if b & 1 == 0 {
                        Direction::Clockwise
                    } else {
                        Direction::Anticlockwise
                    };
                    let (after, i) = sow_ring(ring & !(0xff << (8 * r)), r, n, dir);
                    if i >= ROW_PITS || own[i] == 0 {
                        continue;
                    }
                    let seeds = usize::from(opp[ROW_PITS - 1 - i]);
                    let anticlockwise = match i {
                        0 | 1 => false,
                        6 | 7 => true,
                        _ => dir == Direction::Anticlockwise,
                    };
                    if let Some(end) = captured_lap_end(seeds, anticlockwise) {
                        if (after >> (8 * end)) as u8 == 0 {
                            out |= 1 << b;
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether some move of `cands` has a finite run (a legal move, when they are the
    /// candidates of one group).
    ///
    /// Candidates that need a never-ending decision are decided last, only if none of the
    /// others is legal.
    pub(crate) fn any_legal(&self, cands: &MoveSet, cx: &mut Engine) -> bool {
        // The random selection with a fixed choice: the first candidate in order that is
        // legal, those needing a cycle decision last.
        !self
            .select(
                *cands,
                &mut Some(&mut |_| 0),
                &mut Chosen::new(),
                &mut (),
                &Known::NONE,
                cx,
            )
            .is_empty()
    }

    /// Namua capture candidates (N2): an occupied front pit facing seeds, each sign that
    /// may enter at a kichwa from it (no safari).
    pub(crate) fn namua_capture_candidates(&self) -> MoveSet {
        self.namua_capture_candidates_from(PitSet::FRONT)
    }

    /// The namua capture candidates from the front pits of `pits`.
    pub(crate) fn namua_capture_candidates_from(&self, pits: PitSet) -> MoveSet {
        let side = self.to_move;
        let targets = PitSet::facing_seeds(self.ring(side), self.ring(side.opponent())) & pits;
        MoveSet {
            bits: NAMUA_SIGNS[usize::from((targets & PitSet::FRONT).bits())],
            ..MoveSet::empty(Kind::NamuaCapture, side)
        }
    }

    fn analyse_namua<K: Keep>(
        &self,
        pick: &mut Picker<'_>,
        a: &mut Analysis,
        kept: &mut K,
        cx: &mut Engine,
    ) {
        let side = self.to_move;
        // The list of a position whose end test looked at its captures takes their
        // candidates from the note.
        let cands = match a.known.capture_candidates(Kind::NamuaCapture, side) {
            Some(cands) if !K::RUNS && pick.is_none() => cands,
            _ => self.namua_capture_candidates(),
        };
        if pick.is_some() {
            // The first legal capture in random order; where it stops in the functional
            // nyumba, a coin decides whether it goes on (safari), when that is legal.
            a.captures = self.select(cands, pick, &mut a.chosen, kept, &a.known, cx);
            if let (Some(mv), Some(rng)) = (a.chosen.mv, pick.as_mut()) {
                let stopped = a.chosen.run.as_ref().is_some_and(|r| r.stopped_at_house);
                if stopped && rng(2) != 0 {
                    let safari = mv.with_kind(MoveKind::Safari);
                    let srun = self.simulate(safari, cx);
                    if !self.run_is_illegal(&srun) {
                        a.captures.bits = 0;
                        a.captures.insert(&safari);
                        a.chosen.mv = Some(safari);
                        a.chosen.run = Some(srun);
                    }
                }
            }
        } else {
            // Every candidate, each run once (its run also tells whether it stops at the
            // house, where the safari is a second move); those an end test decided
            // ([`Known`]: never one that stops at the house) are not run again.
            let (legal, noted, looked) = if K::RUNS {
                (0, 0, 0)
            } else {
                a.known.of(&cands)
            };
            // Nor those seen to end without running (never in the nyumba: no safari).
            let ends = if K::RUNS {
                0
            } else {
                self.seen_to_end(&MoveSet {
                    bits: cands.bits & !(noted | looked),
                    ..cands
                })
            };
            a.captures.bits = legal | ends;
            for b in cands.bit_iter().filter(|b| (noted | ends) & (1 << b) == 0) {
                let mv = cands.move_at(b);
                let safari = mv.with_kind(MoveKind::Safari);
                if !K::RUNS {
                    let (finish, stopped_at_house) = finish_of(self, mv, cx);
                    if self.finish_is_illegal(finish) {
                        continue;
                    }
                    a.captures.insert(&mv);
                    if stopped_at_house && !self.finish_is_illegal(finish_of(self, safari, cx).0) {
                        a.captures.insert(&safari);
                    }
                    continue;
                }
                let run = self.simulate(mv, cx);
                if self.run_is_illegal(&run) {
                    continue;
                }
                a.captures.insert(&mv);
                if run.stopped_at_house {
                    let srun = self.simulate(safari, cx);
                    if !self.run_is_illegal(&srun) {
                        a.captures.insert(&safari);
                        kept.keep(safari, srun);
                    }
                }
                kept.keep(mv, run);
            }
        }
        if !a.captures.is_empty() {
            return;
        }
        let cands = MoveSet {
            bits: both_signs(self.namua_placements()),
            ..MoveSet::empty(Kind::Takasa, side)
        };
        a.takasas = self.select(cands, pick, &mut a.chosen, kept, &a.known, cx);
    }

    /// Front pits where a namua takasa may place its seed (N3a, N3b).
    pub(crate) fn namua_placements(&self) -> PitSet {
        let side = self.to_move;
        let own = self.ring(side);
        let house_owned = self.rules.houses && self.houses[side.index()] == House::Owned;
        let occupied = PitSet::front_holding(own, 1);
        let multi = PitSet::front_holding(own, 2);
        if house_owned && own[HOUSE_RING] >= HOUSE_THRESHOLD {
            // N3a: a functional nyumba only when it is the only occupied front pit.
            let others = occupied.without(HOUSE_RING);
            return if others.is_empty() {
                PitSet::single(HOUSE_RING)
            } else {
                others
            };
        }
        let allowed = if house_owned && !self.rules.dormant_house_placeable {
            PitSet::FRONT.without(HOUSE_RING)
        } else {
            PitSet::FRONT
        };
        if !(multi & allowed).is_empty() {
            return multi & allowed;
        }
        if !(occupied & allowed).is_empty() {
            return occupied & allowed;
        }
        occupied
    }

    /// Mtaji capture candidates by the first-lap rule (G6, M2), before execution (those of
    /// one start: [`Position::mtaji_capture_candidates_at`]).
    pub(crate) fn mtaji_capture_candidates(&self, side: Side) -> MoveSet {
        let own = self.ring(side);
        let mut out = MoveSet::empty(Kind::MtajiCapture, side);
        let targets = capture_targets(own, self.ring(side.opponent()));
        if targets == 0 {
            return out;
        }
        for r in self.mtaji_capture_starts(side).iter() {
            out.bits |= first_lap_captures(own, r, targets);
        }
        out
    }

    /// The mtaji capture candidates that start in ring index `r`: those of
    /// [`Position::mtaji_capture_candidates`] from `r` (the legality test of one written
    /// move).
    pub(crate) fn mtaji_capture_candidates_at(&self, side: Side, r: usize) -> MoveSet {
        let mut out = MoveSet::empty(Kind::MtajiCapture, side);
        if self.mtaji_capture_starts(side).contains(r) {
            let own = self.ring(side);
            let targets = capture_targets(own, self.ring(side.opponent()));
            out.bits = first_lap_captures(own, r, targets);
        }
        out
    }

    /// The pits a mtaji capture may start from: two seeds or more, below the threshold
    /// (G6, M2), not takasia'd.
    #[inline(always)]
    fn mtaji_capture_starts(&self, side: Side) -> PitSet {
        let own = self.ring(side);
        let blocked_start = self
            .capture_excluded(side)
            .map_or(PitSet::EMPTY, PitSet::single);
        PitSet::holding(own, MTAJI_MIN_SEEDS)
            & !PitSet::holding(own, self.rules.capture_threshold)
            & !blocked_start
    }

    /// The pit the side to move must capture (T5/K4), if the rules give priority.
    pub(crate) fn priority_pit(&self) -> Option<u8> {
        if !self.rules.capture_priority {
            return None;
        }
        self.blocked[self.to_move.opponent().index()]
    }

    fn analyse_mtaji(
        &self,
        pick: &mut Picker<'_>,
        a: &mut Analysis,
        kept: &mut impl Keep,
        cx: &mut Engine,
    ) {
        let side = self.to_move;
        // As in namua: the end test's capture candidates when it looked at them (it did
        // only where priority does not apply, so the same branch is taken below).
        let cands = match a.known.capture_candidates(Kind::MtajiCapture, side) {
            Some(cands) if pick.is_none() => cands,
            _ => self.mtaji_capture_candidates(side),
        };
        if let Some(h) = self.priority_pit().filter(|_| !cands.is_empty()) {
            // Priority needs every capture run: keep those that take h (T5/K4).
            let (mut all, mut taking) = (cands, cands);
            (all.bits, taking.bits) = (0, 0);
            for b in cands.bit_iter() {
                let mv = cands.move_at(b);
                let run = self.simulate(mv, cx);
                if !self.run_is_illegal(&run) {
                    all.bits |= 1 << b;
                    if run.captured_mask & (1 << h) != 0 {
                        taking.bits |= 1 << b;
                    }
                    kept.keep(mv, run);
                }
            }
            let pool = if !taking.is_empty() {
                taking
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
            a.captures = self.select(cands, pick, &mut a.chosen, kept, &a.known, cx);
        }
        if !a.captures.is_empty() {
            return;
        }
        if self.kuu_first(cx) {
            let kuu = MoveSet {
                bits: takasa_bits(HOUSE_RING),
                ..a.takasas
            };
            a.takasas = self.select(kuu, pick, &mut a.chosen, kept, &a.known, cx);
            if !a.takasas.is_empty() {
                return;
            }
        }
        let cands = MoveSet {
            bits: self.mtaji_takasa_bits(cx),
            ..a.takasas
        };
        a.takasas = self.select(cands, pick, &mut a.chosen, kept, &a.known, cx);
    }

    /// K3: while the kuu stands (and can be sown, and is not the mover's takasia'd pit), a
    /// mtaji takata must start from it. Where neither direction is legal the rule lapses
    /// (A.4.11); the callers test that.
    pub(crate) fn kuu_first(&self, cx: &mut Engine) -> bool {
        self.rules.first_takata_from_kuu
            && self.rules.houses
            && self.houses[self.m()] == House::Owned
            && self.ring(self.to_move)[HOUSE_RING] >= MTAJI_MIN_SEEDS
            && self.takasa_excluded(cx) != Some(HOUSE_RING)
    }

    /// The pit (ring index) `side` may not start a mtaji capture from: its takasia pit under
    /// standard takasia (T3; AbstractPlay's block stops takasas only).
    pub(crate) fn capture_excluded(&self, side: Side) -> Option<usize> {
        match self.rules.takasia {
            Takasia::Standard => self.blocked[side.index()].map(usize::from),
            Takasia::Off | Takasia::AbstractPlay => None,
        }
    }

    /// The front pit (ring index) the side to move may not start a mtaji takasa from (T3).
    fn takasa_excluded(&self, cx: &mut Engine) -> Option<usize> {
        match self.rules.takasia {
            Takasia::Off => None,
            Takasia::Standard => self.blocked[self.m()].map(usize::from),
            Takasia::AbstractPlay => self.abstractplay_exclusion(cx),
        }
    }

    /// The mtaji takasa candidates as [`Kind::Takasa`] bits, K3 aside (M4, T3).
    pub(crate) fn mtaji_takasa_bits(&self, cx: &mut Engine) -> u32 {
        let own = self.ring(self.to_move);
        let excluded = self.takasa_excluded(cx);
        let multi = PitSet::holding(own, MTAJI_MIN_SEEDS);
        let multi_front = both_signs(multi & PitSet::FRONT);
        let front = multi_front & !excluded.map_or(0, takasa_bits);
        let back_allowed = match self.rules.takasia {
            // A takasia'd pit counts as holding two or more (A.4.10).
            Takasia::Standard | Takasia::Off => multi_front == 0,
            Takasia::AbstractPlay => front == 0,
        };
        if !back_allowed {
            return front;
        }
        both_signs(multi & PitSet::BACK)
    }
}

/// The front pits where a mtaji first lap captures (occupied, facing seeds, looked at
/// before the start is lifted), doubled so that a first lap ending at `r + n` (mod 16) is
/// bit `r + n` ([`first_lap_captures`]).
#[inline(always)]
fn capture_targets(own: &[u8; RING], opp: &[u8; RING]) -> u32 {
    let targets = u32::from(PitSet::facing_seeds(own, opp).bits());
    targets | targets << RING
}

/// The mtaji capture candidates of a first lap from ring index `r` (holding its seeds in
/// `own`), as bits of a [`MoveSet`]: clockwise and anticlockwise, each where the lap ends
/// in a pit of `targets` ([`capture_targets`]).
#[inline(always)]
fn first_lap_captures(own: &[u8; RING], r: usize, targets: u32) -> u32 {
    let n = usize::from(own[r]) % RING;
    let cw = (targets >> (r + n)) & 1;
    let acw = (targets >> (r + RING - n)) & 1;
    (cw | acw << 1) << (2 * r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lap_end;
    use crate::rules::{EndlessMove, RuleSet, PRESET_NAMES};

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
                let end = lap_end(r, usize::from(n), dir);
                if end < 8 && own[end] > 0 && opp[7 - end] > 0 {
                    let pit = Pit::from_ring(side, r);
                    out.push(Move::capture(pit, Sign::for_sowing(pit.row(), dir)));
                }
            }
        }
        out
    }

    /// Moves listed in key order come out as sorting them would put them, for every kind
    /// and side and many sets of bits.
    #[test]
    fn sorted_moves_are_the_moves_sorted() {
        let mut bits = bao_testkit::Lcg::new(7);
        for kind in [Kind::NamuaCapture, Kind::MtajiCapture, Kind::Takasa] {
            for side in Side::ALL {
                for i in 0..4000u32 {
                    // Single bits, then random sets, sparse and dense.
                    let r = (bits.next_u64() >> 32) as u32;
                    let b = match i {
                        0..32 => 1 << i,
                        _ if i % 2 == 0 => r & (bits.next_u64() >> 32) as u32,
                        _ => r,
                    };
                    let set = MoveSet {
                        bits: b,
                        kind,
                        side,
                    };
                    let mut want = set.moves();
                    // Each bit's move (a look-up table) is the one whose bit it is.
                    for (b, mv) in set.bit_iter().zip(&want) {
                        assert_eq!(set.bit_of(mv), Some(b), "{kind:?} {side:?} {mv}");
                    }
                    want.sort_unstable();
                    let got = set.sorted_moves();
                    assert_eq!(got, want, "{kind:?} {side:?} {b:#x}");
                }
            }
        }
    }

    #[test]
    fn successors_are_the_legal_moves_played() {
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).expect("a preset");
            let mut pick = lcg(31);
            for _ in 0..60 {
                let mut pos = Position::start(rules);
                loop {
                    let by_play: Vec<(Move, Position)> = pos
                        .legal_moves()
                        .iter()
                        .map(|m| (*m, pos.play_fast(m)))
                        .collect();
                    assert_eq!(pos.successors(), by_play, "{name}:\n{pos}");
                    if pos.play_random_move(&mut pick).is_none() {
                        break;
                    }
                }
            }
        }
    }

    /// The end test's note ([`Known`]) never changes an answer of legality: along random
    /// games of every preset played with an engine's `play`, every move of every pit, sign
    /// and kind is legal by that engine (which holds the note of the position) exactly when
    /// it is by a fresh one (no note), and the note's two uses are met (takasas decided
    /// legal by the note alone, and capture candidates taken from it).
    #[test]
    fn the_end_tests_note_never_changes_legality() {
        let (mut by_note, mut candidates_noted) = (0, 0);
        let cx = &mut Engine::new();
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).expect("a preset");
            let mut pick = lcg(53);
            for _ in 0..8 {
                let mut pos = Position::start(rules);
                loop {
                    let known = cx.known_for(&pos);
                    candidates_noted += usize::from(known.captures_looked);
                    for side in Side::ALL {
                        for r in 0..RING {
                            for sign in [Sign::Left, Sign::Right] {
                                for kind in MoveKind::ALL {
                                    let mv = Move::new(Pit::from_ring(side, r), sign, kind);
                                    by_note += usize::from(known.notes_legal(&pos, &mv));
                                    assert_eq!(
                                        cx.is_legal(&pos, &mv),
                                        pos.is_legal(&mv),
                                        "{name} {mv}:\n{pos}"
                                    );
                                }
                            }
                        }
                    }
                    let moves = cx.legal_moves(&pos);
                    let Some(&mv) = moves.get(pick(moves.len().max(1))) else {
                        break;
                    };
                    pos = cx.play(&pos, &mv).expect("a listed move is legal").0;
                }
            }
        }
        assert!(by_note > 1000, "{by_note} moves legal by the note");
        assert!(
            candidates_noted > 1000,
            "{candidates_noted} candidate sets noted"
        );
    }

    /// The end test's note ([`Known`]) never changes a list: along random games of every
    /// preset played with an engine's `play`, each position's legal moves by that engine
    /// (which holds the note) are those by a fresh engine (no note), and those of the
    /// position the faster `play_fast` reaches (which notes nothing); and the notes do skip runs, legal and illegal (a takasa that
    /// would empty the mover's front row, G10: along random games the end test now nearly
    /// always finds a candidate seen to end first, so that one is set up).
    #[test]
    fn the_end_tests_note_never_changes_the_list() {
        let mut noted_legal = 0;
        let cx = &mut Engine::new();
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).expect("a preset");
            let mut pick = lcg(47);
            for _ in 0..40 {
                let mut pos = Position::start(rules);
                loop {
                    let moves = cx.legal_moves(&pos);
                    assert_eq!(moves, pos.legal_moves(), "{name}:\n{pos}");
                    noted_legal += usize::from(cx.known_for(&pos).legal != [0; 2]);
                    let Some(&mv) = moves.get(pick(moves.len().max(1))) else {
                        break;
                    };
                    let (next, _) = cx.play(&pos, &mv).expect("a listed move is legal");
                    assert_eq!(next, pos.play_fast(&mv));
                    assert_eq!(cx.legal_moves(&next), pos.play_fast(&mv).legal_moves());
                    pos = next;
                }
            }
        }
        assert!(noted_legal > 1000, "{noted_legal} legal notes");
        // South's only front seeds are A1's nine: `A1<*` would sow its first seed into the
        // back row with the front row empty (G10, illegal; not seen to end, so run first in
        // order), `A1>*` relays on from B7 (run).
        let mut s = crate::position::Setup::start(RuleSet::KISWAHILI);
        s.hands = crate::types::BySide::new(0, 0);
        s.pits = [
            [9, 0, 0, 0, 0, 0, 0, 0],
            [2; 8],
            [5, 5, 5, 5, 5, 5, 5, 0],
            [1, 1, 1, 1, 0, 0, 0, 0],
        ];
        s.houses = crate::types::BySide::new(
            crate::position::HouseState::Destroyed,
            crate::position::HouseState::Destroyed,
        );
        let pos = Position::from_setup(s).expect("a valid position");
        let cx = &mut Engine::new();
        assert!(pos.has_legal_move_noted(cx));
        assert_ne!(cx.known_for(&pos).illegal, [0; 2], "{pos}");
        let a1: Move = "A1>*".parse().expect("a move");
        assert_eq!(cx.legal_moves(&pos), [a1]);
        assert_eq!(pos.legal_moves(), [a1]);
        // The note is of that position only.
        let mut other = pos;
        other.last_move_takasa = !other.last_move_takasa;
        assert_eq!(cx.known_for(&other), Known::NONE);
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
            let kept = pos.select(
                alone,
                &mut Some(&mut |_| 0),
                &mut chosen,
                &mut Play,
                &Known::NONE,
                &mut Engine::new(),
            );
            assert_eq!(kept.contains(&endless), legal, "{rules:?}");
            match chosen.mv {
                Some(mv) => {
                    assert!(legal);
                    assert_eq!(mv, endless);
                    assert_eq!(
                        chosen.run.expect("the chosen move's run").finish,
                        Finish::NeverEnding(crate::trace::NeverEnding {
                            cycle_start_lap: 1,
                            period: 228
                        })
                    );
                }
                None => assert!(!legal),
            }
            assert_eq!(pos.any_legal(&alone, &mut Engine::new()), legal);
            // Beside a move that ends, it is set aside even when picked first (the lower
            // bit, index 0), under either policy.
            let pair = takasas(&pos, &["A3<*", "A6<*"]);
            assert_eq!(pair.nth_bit(0), alone.nth_bit(0));
            let mut chosen = Chosen::new();
            let kept = pos.select(
                pair,
                &mut Some(&mut |_| 0),
                &mut chosen,
                &mut Play,
                &Known::NONE,
                &mut Engine::new(),
            );
            let other: Move = "A6<*".parse().expect("a move");
            assert_eq!(kept.iter().collect::<Vec<_>>(), [other]);
            assert_eq!(chosen.mv, Some(other));
            assert_eq!(
                chosen.run.expect("the chosen move's run").finish,
                Finish::Done
            );
            assert!(pos.any_legal(&pair, &mut Engine::new()));
        }
    }

    #[test]
    fn quick_runs_agree_with_full_runs() {
        let mut pick = lcg(11);
        let (mut decided, mut undecided) = (0, 0);
        let mut check = |pos: &Position, cands: MoveSet| {
            for mv in cands.iter() {
                let full = pos.simulate(mv, &mut Engine::new());
                let mut quick = Run::UNPLAYED;
                execute_quick_into(pos, mv, &mut quick, &mut Engine::new());
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
                .any(|mv| !pos.run_is_illegal(&pos.simulate(mv, &mut Engine::new())));
            assert_eq!(
                pos.any_legal(&cands, &mut Engine::new()),
                by_definition,
                "{pos}"
            );
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
                                bits: pos.mtaji_takasa_bits(&mut Engine::new()),
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

    /// A candidate seen to end without running ([`Position::seen_to_end`]) does end, legal
    /// and not in the nyumba, with its first lap (a takasa) or the lap of its first capture's
    /// seeds; and many are seen so. Along random games of every preset, every group of
    /// candidates a list runs.
    #[test]
    fn candidates_seen_to_end_do_end() {
        let mut pick = lcg(23);
        let (mut seen, mut candidates) = ([0usize; 3], [0usize; 3]);
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).expect("preset");
            for _ in 0..30 {
                let mut pos = Position::start(rules);
                while let Some((_, next)) = pos.random_move(&mut pick) {
                    let side = pos.to_move;
                    let takasas = |bits| MoveSet {
                        bits,
                        ..MoveSet::empty(Kind::Takasa, side)
                    };
                    let groups = match pos.stage() {
                        Stage::Namua => [
                            pos.namua_capture_candidates(),
                            takasas(both_signs(pos.namua_placements())),
                        ],
                        Stage::Mtaji => [
                            pos.mtaji_capture_candidates(side),
                            takasas(pos.mtaji_takasa_bits(&mut Engine::new())),
                        ],
                    };
                    for set in groups {
                        let ends = pos.seen_to_end(&set);
                        assert_eq!(ends & !set.bits, 0);
                        candidates[set.kind as usize] += set.len();
                        for b in set.bit_iter().filter(|b| ends & (1 << b) != 0) {
                            let mv = set.move_at(b);
                            let run = pos.simulate(mv, &mut Engine::new());
                            // (Or bao hamna at the capture, where the rules end a move so.)
                            let laps = if mv.is_takasa() || pos.stage() == Stage::Namua {
                                1
                            } else {
                                2
                            };
                            let end = (run.finish, run.laps, run.stopped_at_house);
                            assert!(
                                end == (Finish::Done, laps, false)
                                    || (end.0 == Finish::BaoHamna && end.1 < laps),
                                "{name} {mv} in\n{pos}"
                            );
                            seen[set.kind as usize] += 1;
                        }
                    }
                    pos = next;
                }
            }
        }
        // About four in ten candidates of each kind.
        for k in 0..3 {
            assert!(seen[k] * 5 > candidates[k], "{seen:?} of {candidates:?}");
        }
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
                        // One start at a time: the same candidates, pit by pit.
                        let by_pit: Vec<Move> = (0..RING)
                            .flat_map(|r| pos.mtaji_capture_candidates_at(side, r).moves())
                            .collect();
                        assert_eq!(by_pit, fast, "{pos}");
                        checked += 1;
                    }
                    pos = next;
                }
            }
        }
        assert!(checked > 1000);
    }
}

#[cfg(test)]
mod one_rule_once {
    use super::*;
    use crate::illegal::IllegalReason;
    use crate::rules::{RuleSet, PRESET_NAMES};

    /// G7 is written once (`forced_kichwa`): the namua capture directions generated for a
    /// front pit and the reason `diagnose` gives for the other direction agree, pit by pit.
    #[test]
    fn the_kichwa_rule_is_the_same_for_generation_and_diagnosis() {
        for ring in 0..ROW_PITS {
            let signs = (NAMUA_SIGNS[1 << ring] >> (4 * ring)) & 0b0101;
            let expected = match forced_kichwa(ring) {
                Some(Sign::Left) => 0b0001,
                Some(Sign::Right) => 0b0100,
                None => 0b0101,
            };
            assert_eq!(signs, expected, "ring {ring}");
        }
        // Along random namua play: every legal capture from a kimbi (pits 1, 2, 7, 8) goes
        // the way `forced_kichwa` says, and the other way is G7 naming that sign (unless its
        // run is refused first, G10/G11).
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).expect("preset");
            let mut pick = bao_testkit::Lcg::new(11).picker();
            let mut pos = Position::start(rules);
            for _ in 0..40 {
                if pos.stage() != Stage::Namua || pos.outcome().is_some() {
                    break;
                }
                for mv in pos.legal_moves().iter().filter(|m| m.is_capture()) {
                    let Some(forced) = forced_kichwa(mv.pit.ring()) else {
                        continue;
                    };
                    assert_eq!(mv.sign, forced, "{name} {mv}");
                    let wrong = Move::new(mv.pit, forced.flipped(), mv.kind());
                    if pos.run_is_illegal(&pos.simulate(wrong, &mut Engine::new())) {
                        continue;
                    }
                    let reason = pos.diagnose(&wrong).reason;
                    assert_eq!(
                        reason,
                        IllegalReason::KichwaNotChoosable {
                            pit: mv.pit,
                            forced
                        },
                        "{name} {wrong}"
                    );
                }
                let _ = pos.play_random_move(&mut pick);
            }
        }
    }

    /// T3 is tested with the pit move generation excludes: a mtaji takasa of two seeds or
    /// more from the pit `takasa_excluded` names, refused while takasas are the legal moves
    /// (and its run not refused first, G10/G11), is diagnosed takasia, under every preset
    /// with a stored takasia. (AbstractPlay's block recomputed from a position's last-move
    /// flag is no stored takasia: that refusal is `not_legal`, spec/diagnostics.md.)
    #[test]
    fn takasia_is_diagnosed_where_generation_excludes_the_pit() {
        let mut seen = 0;
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).expect("preset");
            for seed in 0..60 {
                let mut pick = bao_testkit::Lcg::new(seed).picker();
                let mut pos = Position::start(rules);
                for _ in 0..200 {
                    if pos.outcome().is_some() {
                        break;
                    }
                    let excluded = (pos.stage() == Stage::Mtaji)
                        .then(|| pos.takasa_excluded(&mut Engine::new()))
                        .flatten()
                        .filter(|&r| pos.blocked[pos.m()] == Some(r as u8));
                    let legal = pos.legal_moves();
                    if let Some(r) = excluded.filter(|_| legal[0].is_takasa()) {
                        let pit = Pit::from_ring(pos.to_move, r);
                        for sign in [Sign::Left, Sign::Right] {
                            let mv = Move::takasa(pit, sign);
                            if pos.get(pit) < MTAJI_MIN_SEEDS
                                || legal.contains(&mv)
                                || pos.run_is_illegal(&pos.simulate(mv, &mut Engine::new()))
                            {
                                continue;
                            }
                            seen += 1;
                            assert_eq!(
                                pos.diagnose(&mv).reason,
                                IllegalReason::TakasiaPit { pit },
                                "{name} seed {seed} {mv}"
                            );
                        }
                    }
                    if pos.play_random_move(&mut pick).is_none() {
                        break;
                    }
                }
            }
        }
        assert!(seen > 0, "no takasia pit met");
    }
}
