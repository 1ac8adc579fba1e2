//! The evaluating search: iterative deepening, principal variation search (alpha-beta with
//! null windows after the first move), a transposition table over Zobrist keys, move
//! ordering by the table's move, killer moves and a history table, and win/loss scores that
//! carry their distance in plies.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bao_core::{Move, MoveKind, Outcome, Position, Side};

use crate::eval::{evaluate_with, Weights};
use crate::key::zobrist;
use crate::node::{expand_exact_with, expand_with, Expansion, SEARCH_LAP_BUDGET};

/// The score of a won game at the root; a win in `n` plies scores `WIN - n`.
const WIN: i32 = 1_000_000;
/// Scores beyond this are wins (or, negated, losses) with a distance.
const WIN_BOUND: i32 = WIN - 10_000;
/// The deepest search (plies).
pub const MAX_DEPTH: u32 = 64;
const MAX_PLY: usize = 128;
/// The clock is read at most this many nodes apart (at about 1.4 M nodes a second, every
/// 0.2 ms); fewer where nodes are slow (long sowings in an endgame: [`CLOCK_GAP`]), and
/// after every node whose expansion ran out of its lap budget, the slowest kind.
pub(crate) const CLOCK_EVERY: u64 = 256;
/// The time the clock readings aim to stay within: when the nodes since the last reading
/// took longer, the next readings come four times as often (down to every node); when much
/// shorter, twice as rarely (up to [`CLOCK_EVERY`]).
const CLOCK_GAP: Duration = Duration::from_micros(500);
/// The half-width of the first aspiration window (centi-seeds).
const ASPIRATION: i32 = 50;

/// A score from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// An evaluation in centi-seeds (100 = one seed ahead).
    Eval(i32),
    /// A forced win within this many plies.
    Win(u32),
    /// A forced loss within this many plies (the longest defence found).
    Loss(u32),
}

impl Score {
    fn from_raw(s: i32) -> Self {
        if s >= WIN_BOUND {
            Self::Win((WIN - s).unsigned_abs())
        } else if s <= -WIN_BOUND {
            Self::Loss((WIN + s).unsigned_abs())
        } else {
            Self::Eval(s)
        }
    }

    /// The score seen by the other side (one ply further away from the root is not
    /// added: the same line, the other player's view).
    #[must_use]
    pub const fn negate(self) -> Self {
        match self {
            Self::Eval(s) => Self::Eval(-s),
            Self::Win(n) => Self::Loss(n),
            Self::Loss(n) => Self::Win(n),
        }
    }

    /// An order on scores, for comparing them: losses (the quickest lowest), evaluations,
    /// wins (the quickest highest).
    #[must_use]
    pub const fn rank(self) -> i64 {
        match self {
            Self::Eval(s) => s as i64,
            Self::Win(n) => WIN as i64 - n as i64,
            Self::Loss(n) => -(WIN as i64) + n as i64,
        }
    }
}

/// When to stop a search. Without any limit a search runs to [`MAX_DEPTH`] or until
/// stopped through [`Searcher::stop_flag`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search this many plies deep, then stop.
    pub depth: Option<u32>,
    /// Stop after this many nodes (the result is deterministic).
    pub nodes: Option<u64>,
    /// Stop after this much time.
    pub movetime: Option<Duration>,
}

/// What a finished iteration found; also the search's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The depth of the iteration (plies).
    pub depth: u32,
    /// Its score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The principal variation; its first move is the best move.
    pub pv: Vec<Move>,
}

impl Report {
    /// The best move, if the position has a move at all.
    #[must_use]
    pub fn best(&self) -> Option<Move> {
        self.pv.first().copied()
    }

    /// Nodes a second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        let us = self.elapsed.as_micros().max(1);
        u64::try_from(u128::from(self.nodes) * 1_000_000 / us).unwrap_or(u64::MAX)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    key: u64,
    best: Option<Move>,
    score: i32,
    depth: i16,
    bound: Bound,
}

/// The transposition table: one entry a slot, replaced when the new search is at least as
/// deep or the slot holds another position.
#[derive(Debug)]
struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    fn new(bits: u32) -> Self {
        Self {
            slots: vec![None; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    fn slot(&self, key: u64) -> usize {
        // The high bits: the low ones also pick nothing else, but keep them independent.
        (key >> 20) as usize & self.mask
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.slot(key)].filter(|e| e.key == key)
    }

    fn store(&mut self, e: Entry) {
        let i = self.slot(e.key);
        let keep = self.slots[i].is_some_and(|old| old.key == e.key && old.depth > e.depth);
        if !keep {
            self.slots[i] = Some(e);
        }
    }

    fn clear(&mut self) {
        self.slots.fill(None);
    }
}

/// A win score `s` at `ply` from the root, as the table keeps it: from this node.
const fn to_table(s: i32, ply: usize) -> i32 {
    if s >= WIN_BOUND {
        s + ply as i32
    } else if s <= -WIN_BOUND {
        s - ply as i32
    } else {
        s
    }
}

const fn from_table(s: i32, ply: usize) -> i32 {
    if s >= WIN_BOUND {
        s - ply as i32
    } else if s <= -WIN_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// A move as an index for the history table.
fn move_index(mv: &Move) -> usize {
    let kind = match mv.kind() {
        MoveKind::Capture => 0,
        MoveKind::Safari => 1,
        MoveKind::Takasa => 2,
    };
    let sign = usize::from(mv.sign.as_char() == '>');
    ((mv.pit.side().index() * 16 + mv.pit.ring()) * 2 + sign) * 3 + kind
}

/// The searcher: its transposition table, killer and history tables, and the stop flag.
/// Reuse one searcher for the moves of a game; [`Searcher::clear`] forgets everything
/// (a fresh or cleared searcher gives the same result for the same position and depth or
/// node limit).
#[derive(Debug)]
pub struct Searcher {
    table: Table,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    weights: Weights,
    stop: Arc<AtomicBool>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Nodes until the clock is read next, and the nodes between readings now.
    clock_in: u64,
    clock_every: u64,
    /// When the clock was read last.
    clock_read: Instant,
    aborted: bool,
    pv: Vec<Vec<Move>>,
    /// The engine every node is expanded with: its memo of long relay cycles is kept from
    /// node to node and search to search (until [`Searcher::clear`]).
    engine: bao_core::Engine,
    /// Plies a leaf may be extended while the side to move has only captures (0: none).
    quiescence: u32,
    /// Late-move reductions (off by default: see [`Searcher::with_reductions`]).
    reductions: bool,
    /// Aspiration windows at the root (see [`Searcher::with_aspiration`]).
    aspiration: bool,
}

impl Default for Searcher {
    fn default() -> Self {
        Self::new(20)
    }
}

impl Searcher {
    /// A searcher with a transposition table of `2^table_bits` entries
    /// ([`Searcher::table_bytes`]; bits clamped to 4..=28).
    #[must_use]
    pub fn new(table_bits: u32) -> Self {
        Self {
            table: Table::new(table_bits.clamp(4, 28)),
            killers: vec![[None; 2]; MAX_PLY],
            history: vec![0; 2 * 16 * 2 * 3],
            weights: Weights::default(),
            stop: Arc::new(AtomicBool::new(false)),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            clock_in: CLOCK_EVERY,
            clock_every: CLOCK_EVERY,
            clock_read: Instant::now(),
            aborted: false,
            pv: vec![Vec::new(); MAX_PLY + 1],
            engine: bao_core::Engine::new(),
            quiescence: 0,
            reductions: false,
            aspiration: false,
        }
    }

    /// Late-move reductions: at a node at least 3 plies from the horizon, a move ordered
    /// fourth or later is first searched one ply shallower (two from the ninth move on) with
    /// a null window, and searched again at the full depth only when it beats the best
    /// score so far.
    #[must_use]
    pub fn with_reductions(mut self, on: bool) -> Self {
        self.reductions = on;
        self
    }

    /// Aspiration windows: from depth 4, each iteration is first searched with a window of
    /// ±0.5 seeds around the score of the iteration two before (the same parity: scores
    /// swing between odd and even depths), widened (four times, then fully) on the side it
    /// fails.
    #[must_use]
    pub fn with_aspiration(mut self, on: bool) -> Self {
        self.aspiration = on;
        self
    }

    /// Extends the leaves by up to `plies` plies while the side to move has nothing but
    /// captures (a capture is compulsory in Bao, so such a leaf is not quiet: its static
    /// evaluation misses the seeds about to change hands). 0 (the default): no extension.
    #[must_use]
    pub fn with_quiescence(mut self, plies: u32) -> Self {
        self.quiescence = plies.min(MAX_PLY as u32 / 2);
        self
    }

    /// The bytes of a transposition table of `2^table_bits` entries.
    #[must_use]
    pub const fn table_bytes(table_bits: u32) -> usize {
        size_of::<Option<Entry>>() << table_bits
    }

    /// The largest table size (in bits, as [`Searcher::new`] takes it) that fits in
    /// `megabytes` MiB.
    #[must_use]
    pub fn table_bits_for(megabytes: u32) -> u32 {
        let bytes = u64::from(megabytes.max(1)) << 20;
        let entries = bytes / size_of::<Option<Entry>>() as u64;
        (63 - entries.max(16).leading_zeros()).clamp(4, 28)
    }

    /// Uses these evaluation weights.
    #[must_use]
    pub fn with_weights(mut self, weights: Weights) -> Self {
        self.weights = weights;
        self
    }

    /// The flag that stops a running search (from another thread): set it, and the search
    /// returns its last finished iteration soon after. A search clears it when it starts.
    #[must_use]
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Forgets the transposition, killer and history tables, and the relay cycles its
    /// engine decided.
    pub fn clear(&mut self) {
        self.table.clear();
        self.killers.fill([None; 2]);
        self.history.fill(0);
        self.engine.forget_relay_cycles();
    }

    /// Searches `pos` within `limits`, calling `on_iteration` after each finished depth.
    /// Returns the last finished iteration (its `pv` empty when the game is over), or, when
    /// not even depth 1 finished, the first legal move with the static evaluation.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: Limits,
        on_iteration: impl FnMut(&Report),
    ) -> Report {
        self.search_among(pos, limits, None, on_iteration)
    }

    /// [`Searcher::search`] with the root's moves limited to those of `only` that are legal
    /// (all of them when `only` is `None`): the score of one move at the same depth as the
    /// best one's, for comparing them (`bao analyse`).
    pub fn search_among(
        &mut self,
        pos: &Position,
        limits: Limits,
        only: Option<&[Move]>,
        mut on_iteration: impl FnMut(&Report),
    ) -> Report {
        let start = Instant::now();
        self.stop.store(false, Ordering::Relaxed);
        self.nodes = 0;
        self.aborted = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.movetime.map(|t| start + t);
        (self.clock_in, self.clock_every, self.clock_read) = (CLOCK_EVERY, CLOCK_EVERY, start);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let root_moves = match expand_exact_with(&mut self.engine, pos) {
            Expansion::Moves(mut m) => {
                if let Some(only) = only {
                    m.retain(|(mv, _)| only.contains(mv));
                    if m.is_empty() {
                        return Report {
                            depth: 0,
                            score: Score::Eval(evaluate_with(pos, &self.weights)),
                            nodes: 0,
                            elapsed: start.elapsed(),
                            pv: Vec::new(),
                        };
                    }
                }
                m
            }
            Expansion::Over(o) => {
                let raw = self.terminal(pos.to_move(), o, 0);
                return Report {
                    depth: 0,
                    score: Score::from_raw(raw),
                    nodes: 1,
                    elapsed: start.elapsed(),
                    pv: Vec::new(),
                };
            }
            // Unbounded: not reached.
            Expansion::Undecided(_) => Vec::new(),
        };
        let mut best = Report {
            depth: 0,
            score: Score::Eval(evaluate_with(pos, &self.weights)),
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: root_moves
                .first()
                .map(|(m, _)| vec![*m])
                .unwrap_or_default(),
        };
        // The scores of the last two iterations: Bao's swing by several seeds between odd and
        // even depths (the side to move's tempo), so a window is centred on the score of
        // the same parity, two iterations back.
        let mut last = [0; 2];
        for depth in 1..=max_depth {
            let score = self.iteration(pos, &root_moves, depth, only.is_none(), last[0]);
            if self.aborted {
                break;
            }
            best = Report {
                depth,
                score: Score::from_raw(score),
                nodes: self.nodes,
                elapsed: start.elapsed(),
                pv: self.pv[0].clone(),
            };
            on_iteration(&best);
            last = [last[1], score];
            // A win or loss proven inside the depth searched will not change.
            if score.abs() >= WIN_BOUND && (WIN - score.abs()) < i32::try_from(depth).unwrap_or(0) {
                break;
            }
        }
        best.nodes = self.nodes;
        best.elapsed = start.elapsed();
        best
    }

    fn terminal(&self, to_move: Side, o: Outcome, ply: usize) -> i32 {
        let d = ply as i32;
        match o.winner {
            Some(w) if w == to_move => WIN - d,
            Some(_) => -(WIN - d),
            None => 0,
        }
    }

    /// Whether the search must stop: the node limit, or (every `clock_every` nodes, at
    /// most [`CLOCK_EVERY`]) the stop flag or the deadline.
    fn poll(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        self.clock_in -= 1;
        if self.clock_in == 0 {
            self.out_of_time();
        }
        self.aborted
    }

    /// Whether the stop flag is set or the deadline has passed (sets `aborted`); sets when
    /// the clock is read next, by how long the nodes since the last reading took.
    fn out_of_time(&mut self) -> bool {
        let now = Instant::now();
        let gap = now.duration_since(self.clock_read);
        self.clock_read = now;
        self.clock_every = if gap > CLOCK_GAP {
            (self.clock_every / 4).max(1)
        } else if gap < CLOCK_GAP / 4 {
            (self.clock_every * 2).min(CLOCK_EVERY)
        } else {
            self.clock_every
        };
        self.clock_in = self.clock_every;
        if self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| now >= d) {
            self.aborted = true;
        }
        self.aborted
    }

    /// One iteration: with aspiration windows (from depth 4, when the score two iterations
    /// back, `last`, was an evaluation), else with the full window.
    fn iteration(
        &mut self,
        pos: &Position,
        root_moves: &[(Move, Position)],
        depth: u32,
        store: bool,
        last: i32,
    ) -> i32 {
        if !self.aspiration || depth < 4 || last.abs() >= WIN_BOUND {
            return self.root(pos, root_moves, depth, store, -WIN - 1, WIN + 1);
        }
        let mut width = ASPIRATION;
        let (mut lo, mut hi) = (last - width, last + width);
        loop {
            let score = self.root(pos, root_moves, depth, store, lo, hi);
            if self.aborted {
                return score;
            }
            width = width.saturating_mul(4);
            let wide = width > 16 * ASPIRATION;
            if score <= lo {
                lo = if wide { -WIN - 1 } else { score - width };
            } else if score >= hi {
                hi = if wide { WIN + 1 } else { score + width };
            } else {
                return score;
            }
        }
    }

    /// Orders `children` for the node at `ply`: the table's move, killers, then history
    /// and the static evaluation of the position after the move.
    fn order(&self, children: &mut [(Move, Position)], tt: Option<Move>, ply: usize) {
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        children.sort_by_cached_key(|(m, after)| {
            if Some(*m) == tt {
                i64::MIN
            } else if killers.contains(&Some(*m)) {
                i64::MIN / 2
            } else {
                -i64::from(self.history[move_index(m)]) * 4
                    + i64::from(evaluate_with(after, &self.weights))
            }
        });
    }

    /// One iteration at the root; `store`: whether its result is the position's (not that
    /// of a restricted move list) and goes into the table.
    fn root(
        &mut self,
        pos: &Position,
        root_moves: &[(Move, Position)],
        depth: u32,
        store: bool,
        lo: i32,
        hi: i32,
    ) -> i32 {
        let mut children = root_moves.to_vec();
        let tt = self.table.probe(zobrist(pos)).and_then(|e| e.best);
        // Last iteration's best move first, then the rest in order.
        self.order(&mut children, tt.or_else(|| self.pv[0].first().copied()), 0);
        let (mut alpha, beta) = (lo, hi);
        let d = i32::try_from(depth).unwrap_or(1);
        let mut best_move = children[0].0;
        let mut line = Vec::new();
        for (i, (mv, after)) in children.iter().enumerate() {
            let score = if i == 0 {
                -self.pvs(after, d - 1, -beta, -alpha, 1)
            } else {
                let s = -self.pvs(after, d - 1, -alpha - 1, -alpha, 1);
                if s > alpha && !self.aborted {
                    -self.pvs(after, d - 1, -beta, -alpha, 1)
                } else {
                    s
                }
            };
            if self.aborted {
                return alpha;
            }
            if score > alpha {
                alpha = score;
                best_move = *mv;
                line.clear();
                line.push(*mv);
                line.extend_from_slice(&self.pv[1]);
                if alpha >= beta {
                    // Failed high (an aspiration window): searched again, wider.
                    return alpha;
                }
            }
        }
        if line.is_empty() {
            // Failed low: every move at most `lo`; searched again, wider.
            return alpha;
        }
        self.pv[0] = line;
        if !store {
            return alpha;
        }
        self.table.store(Entry {
            key: zobrist(pos),
            best: Some(best_move),
            score: to_table(alpha, 0),
            depth: i16::try_from(depth).unwrap_or(i16::MAX),
            bound: Bound::Exact,
        });
        alpha
    }

    fn pvs(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        if self.poll() {
            return 0;
        }
        if pos.front_row_seeds(Side::South) == 0 || pos.front_row_seeds(Side::North) == 0 {
            if let Some(o) = pos.outcome() {
                return self.terminal(pos.to_move(), o, ply);
            }
        }
        if ply >= MAX_PLY - 1 || depth <= -i32::try_from(self.quiescence).unwrap_or(0) {
            return evaluate_with(pos, &self.weights);
        }
        let key = zobrist(pos);
        let entry = self.table.probe(key);
        if let Some(e) = entry {
            if i32::from(e.depth) >= depth {
                let s = from_table(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    if let Some(m) = e.best {
                        self.pv[ply].push(m);
                    }
                    return s;
                }
            }
        }
        let mut children = match expand_with(&mut self.engine, pos, SEARCH_LAP_BUDGET) {
            Expansion::Moves(m) => m,
            Expansion::Over(o) => return self.terminal(pos.to_move(), o, ply),
            // A never-ending decision too long for a search: this node is a leaf.
            Expansion::Undecided(_) => {
                // The slowest expansion there is (its whole lap budget): read the clock.
                self.out_of_time();
                return evaluate_with(pos, &self.weights);
            }
        };
        // Past the horizon (quiescence): a leaf is quiet unless every move captures; a
        // capture sequence is followed with the static evaluation as a floor (stand pat).
        let mut stand = None;
        if depth <= 0 {
            let s = evaluate_with(pos, &self.weights);
            if children.iter().any(|(m, _)| !m.is_capture()) || s >= beta {
                return s;
            }
            stand = Some(s);
        }
        self.order(&mut children, entry.and_then(|e| e.best), ply);
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        if let Some(s) = stand {
            best = s;
            alpha = alpha.max(s);
        }
        let mut best_move = None;
        let reduce = self.reductions && depth >= 3 && stand.is_none();
        for (i, (mv, after)) in children.iter().enumerate() {
            let score = if i == 0 {
                -self.pvs(after, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let mut s = alpha + 1;
                if reduce && i >= 3 {
                    let r = if i >= 8 { 2 } else { 1 };
                    s = -self.pvs(after, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && !self.aborted {
                    s = -self.pvs(after, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && !self.aborted {
                    -self.pvs(after, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(*mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(*mv);
                    head[ply].extend_from_slice(&tail[0]);
                }
            }
            if alpha >= beta {
                let k = &mut self.killers[ply];
                if k[0] != Some(*mv) {
                    k[1] = k[0];
                    k[0] = Some(*mv);
                }
                let h = &mut self.history[move_index(mv)];
                *h = (*h + depth * depth).min(1 << 20);
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(Entry {
            key,
            best: best_move,
            score: to_table(best, ply),
            depth: i16::try_from(depth).unwrap_or(i16::MAX),
            bound,
        });
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_core::RuleSet;

    #[test]
    fn a_fixed_depth_search_is_deterministic_and_plays_a_legal_move() {
        let start = Position::start(RuleSet::KISWAHILI);
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let a = Searcher::new(16).search(&start, limits, |_| {});
        let b = Searcher::new(16).search(&start, limits, |_| {});
        assert_eq!(a.pv, b.pv);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.depth, 4);
        assert!(start.legal_moves().contains(&a.best().expect("a move")));
    }

    /// The quiescence extension follows capture sequences past the horizon: more nodes at
    /// the same depth, still deterministic and legal.
    #[test]
    fn quiescence_extends_the_leaves_where_captures_are_forced() {
        let start = Position::start(RuleSet::KISWAHILI);
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let plain = Searcher::new(16).search(&start, limits, |_| {});
        let a = Searcher::new(16)
            .with_quiescence(4)
            .search(&start, limits, |_| {});
        let b = Searcher::new(16)
            .with_quiescence(4)
            .search(&start, limits, |_| {});
        assert_eq!((a.pv.clone(), a.nodes), (b.pv, b.nodes));
        assert!(a.nodes > plain.nodes, "{} <= {}", a.nodes, plain.nodes);
        assert!(start.legal_moves().contains(&a.best().expect("a move")));
    }

    /// A position of a middle game, the same every time.
    fn middle_game() -> Position {
        let mut pos = Position::start(RuleSet::KISWAHILI);
        let mut x: u64 = 7;
        for _ in 0..30 {
            pos.play_random_move(&mut |n| {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                usize::try_from(x >> 33).unwrap_or(0) % n
            });
        }
        pos
    }

    /// A time limit already over stops the search at its first clock reading: within
    /// [`CLOCK_EVERY`] nodes, which is small enough to read the clock at least every few
    /// tenths of a millisecond.
    #[test]
    fn the_clock_is_read_within_a_few_hundred_nodes() {
        const { assert!(CLOCK_EVERY <= 256) };
        let limits = Limits {
            movetime: Some(Duration::ZERO),
            ..Limits::default()
        };
        let start = Position::start(RuleSet::KISWAHILI);
        let r = Searcher::new(16).search(&start, limits, |_| {});
        assert!(r.nodes <= CLOCK_EVERY, "{} nodes", r.nodes);
        assert!(start.legal_moves().contains(&r.best().expect("a move")));
    }

    /// The stop flag, set while a search runs, ends it within a clock reading.
    #[test]
    fn the_stop_flag_ends_a_running_search() {
        let mut s = Searcher::new(16);
        let flag = s.stop_flag();
        let pos = middle_game();
        let mut stopped_at = None;
        let r = s.search(&pos, Limits::default(), |it| {
            if it.depth == 1 {
                flag.store(true, Ordering::Relaxed);
                stopped_at = Some(it.nodes);
            }
        });
        let at = stopped_at.expect("depth 1 finished");
        assert!(r.depth < MAX_DEPTH);
        assert!(
            r.nodes <= at + CLOCK_EVERY,
            "{} > {at} + {CLOCK_EVERY}",
            r.nodes
        );
    }

    /// Late-move reductions and aspiration windows: deterministic, legal, and the reductions
    /// search fewer nodes to the same depth.
    #[test]
    fn reductions_and_aspiration_are_deterministic_and_reductions_save_nodes() {
        let pos = middle_game();
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let plain = Searcher::new(18).search(&pos, limits, |_| {});
        for (lmr, asp) in [(true, false), (false, true), (true, true)] {
            let run = || {
                Searcher::new(18)
                    .with_reductions(lmr)
                    .with_aspiration(asp)
                    .search(&pos, limits, |_| {})
            };
            let (a, b) = (run(), run());
            assert_eq!((&a.pv, a.nodes, a.score), (&b.pv, b.nodes, b.score));
            assert_eq!(a.depth, 7);
            assert!(pos.legal_moves().contains(&a.best().expect("a move")));
            if lmr {
                assert!(a.nodes < plain.nodes, "{} >= {}", a.nodes, plain.nodes);
            }
        }
    }

    #[test]
    fn a_node_limit_stops_the_search_at_the_same_place_every_time() {
        let start = Position::start(RuleSet::KISWAHILI);
        let limits = Limits {
            nodes: Some(5_000),
            ..Limits::default()
        };
        let a = Searcher::new(16).search(&start, limits, |_| {});
        let b = Searcher::new(16).search(&start, limits, |_| {});
        assert_eq!((a.pv, a.nodes, a.depth), (b.pv, b.nodes, b.depth));
        assert!(a.nodes <= 5_000);
    }
}
