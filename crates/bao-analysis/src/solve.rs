//! The exact solver: proves within a horizon of plies that the side to move wins, loses or
//! draws, with no evaluation anywhere. Every defence is checked; a node whose moves cannot
//! be decided within the lap budget proves nothing.
//!
//! Two questions are asked of a position `p` and a horizon `d` (plies):
//! `wins(p, d)`: the side to move can force the game to end in his win within `d` plies;
//! `loses(p, d)`: whatever he does, the game ends in his loss within `d` plies. At an
//! ended game both are answered by its outcome; otherwise, at `d = 0` both are false, and
//! `wins(p, d)` holds when some move leads to a position `c` with `loses(c, d - 1)`,
//! `loses(p, d)` when every move leads to a `c` with `wins(c, d - 1)`. Answers are kept in
//! a table keyed by the exact position ([`Key`]), with the horizon they were proven (or
//! refuted) at: a win within `d` is a win within any longer horizon, a refutation within
//! `d` a refutation within any shorter one.

use std::collections::HashMap;
use std::time::Instant;

use bao_core::{Move, Position};

use crate::key::Key;
use crate::node::{expand_exact_with, expand_with, Expansion, SEARCH_LAP_BUDGET};

/// What the solver proved, from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The side to move forces a win.
    Win,
    /// Every move loses.
    Loss,
    /// Every line ends within the horizon, and best play draws.
    Draw,
    /// The horizon proves none of these.
    Unknown,
}

impl Verdict {
    /// The JSON name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Win => "win",
            Self::Loss => "loss",
            Self::Draw => "draw",
            Self::Unknown => "unknown",
        }
    }
}

/// A first move that wins, and the shortest horizon it wins within.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WinningMove {
    /// The move.
    pub mv: Move,
    /// It wins within this many plies (counting itself), and not fewer.
    pub plies: u32,
}

/// The solver's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The verdict.
    pub verdict: Verdict,
    /// For a win, the shortest forced win; for a loss, the longest defence (plies until
    /// the loss under best defence); for a draw, the longest line; otherwise `None`.
    pub plies: Option<u32>,
    /// Every first move that wins within `plies` (a win), or, when asked for all, every
    /// first move that wins within the horizon, each with its own distance; in bao-core's
    /// move order.
    pub moves: Vec<WinningMove>,
    /// A principal line: the winner's quickest win against the longest defence.
    pub line: Vec<Move>,
    /// Positions expanded.
    pub nodes: u64,
    /// Milliseconds taken.
    pub ms: u64,
}

/// Proven horizons of one position: `win_at`: the smallest `d` with `wins(p, d)` known true;
/// `no_win_to`: the largest `d` with it known false (`-1`: none); likewise for losses.
#[derive(Debug, Clone, Copy)]
struct Proofs {
    win_at: i32,
    no_win_to: i32,
    loss_at: i32,
    no_loss_to: i32,
}

impl Default for Proofs {
    fn default() -> Self {
        Self {
            win_at: i32::MAX,
            no_win_to: -1,
            loss_at: i32::MAX,
            no_loss_to: -1,
        }
    }
}

/// What a node's expansion tells the solver.
enum Node {
    Won,
    Lost,
    Drawn,
    Open(Vec<(Move, Position)>),
    Unknown,
}

/// The solver, with its proof table. One solver serves one rule set's positions at a time.
#[derive(Debug, Default)]
pub struct Solver {
    table: HashMap<Key, Proofs>,
    nodes: u64,
    laps: Option<u64>,
    /// The engine every node is expanded with (its memo of long relay cycles is kept).
    engine: bao_core::Engine,
}

impl Solver {
    /// A solver with an empty table and the search lap budget
    /// ([`SEARCH_LAP_BUDGET`](crate::SEARCH_LAP_BUDGET)).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Decides every never-ending move exactly, however long it takes (no node is left
    /// unknown for want of laps).
    #[must_use]
    pub fn exact(mut self) -> Self {
        self.laps = Some(u64::MAX);
        self
    }

    fn node(&mut self, pos: &Position) -> Node {
        self.nodes += 1;
        let e = match self.laps {
            Some(l) => expand_with(&mut self.engine, pos, l),
            None => expand_with(&mut self.engine, pos, SEARCH_LAP_BUDGET),
        };
        match e {
            Expansion::Over(o) => match o.winner {
                Some(w) if w == pos.to_move() => Node::Won,
                Some(_) => Node::Lost,
                None => Node::Drawn,
            },
            Expansion::Moves(m) => Node::Open(m),
            Expansion::Undecided(_) => Node::Unknown,
        }
    }

    /// `wins(pos, d)`: the side to move forces a win within `d` plies.
    pub fn wins(&mut self, pos: &Position, d: u32) -> bool {
        let d = i32::try_from(d).unwrap_or(i32::MAX);
        self.wins_i(pos, d)
    }

    /// `loses(pos, d)`: every move of the side to move loses within `d` plies.
    pub fn loses(&mut self, pos: &Position, d: u32) -> bool {
        let d = i32::try_from(d).unwrap_or(i32::MAX);
        self.loses_i(pos, d)
    }

    fn wins_i(&mut self, pos: &Position, d: i32) -> bool {
        let key = Key::of(pos);
        if let Some(p) = self.table.get(&key) {
            if p.win_at <= d {
                return true;
            }
            if p.no_win_to >= d {
                return false;
            }
        }
        let found = match self.node(pos) {
            Node::Won => return true,
            Node::Lost | Node::Drawn => return false,
            Node::Unknown => false,
            Node::Open(_) if d <= 0 => false,
            Node::Open(children) => {
                // Moves that end the game at once first: a win in one needs no search.
                children.iter().any(|(_, c)| self.loses_i(c, 0))
                    || children.iter().any(|(_, c)| self.loses_i(c, d - 1))
            }
        };
        let p = self.table.entry(key).or_default();
        if found {
            p.win_at = p.win_at.min(d);
        } else {
            p.no_win_to = p.no_win_to.max(d);
        }
        found
    }

    fn loses_i(&mut self, pos: &Position, d: i32) -> bool {
        let key = Key::of(pos);
        if let Some(p) = self.table.get(&key) {
            if p.loss_at <= d {
                return true;
            }
            if p.no_loss_to >= d {
                return false;
            }
        }
        let found = match self.node(pos) {
            Node::Lost => return true,
            Node::Won | Node::Drawn => return false,
            Node::Unknown => false,
            Node::Open(_) if d <= 0 => false,
            Node::Open(children) => children.iter().all(|(_, c)| self.wins_i(c, d - 1)),
        };
        let p = self.table.entry(key).or_default();
        if found {
            p.loss_at = p.loss_at.min(d);
        } else {
            p.no_loss_to = p.no_loss_to.max(d);
        }
        found
    }

    /// Whether best play from `pos` is a draw with every line ending within `d` plies.
    fn draws(&mut self, pos: &Position, d: i32) -> bool {
        match self.node(pos) {
            Node::Drawn => true,
            Node::Won | Node::Lost | Node::Unknown => false,
            Node::Open(_) if d <= 0 => false,
            Node::Open(children) => {
                let mut some_draw = false;
                for (_, c) in &children {
                    if self.loses_i(c, d - 1) {
                        return false;
                    }
                    if self.draws(c, d - 1) {
                        some_draw = true;
                    } else if !self.wins_i(c, d - 1) {
                        return false;
                    }
                }
                some_draw
            }
        }
    }

    /// The smallest `n <= d` with `wins(pos, n)`.
    fn win_distance(&mut self, pos: &Position, d: i32) -> Option<i32> {
        if !self.wins_i(pos, d) {
            return None;
        }
        (0..=d).find(|&n| self.wins_i(pos, n))
    }

    /// The smallest `n <= d` with `loses(pos, n)`.
    fn loss_distance(&mut self, pos: &Position, d: i32) -> Option<i32> {
        if !self.loses_i(pos, d) {
            return None;
        }
        (0..=d).find(|&n| self.loses_i(pos, n))
    }

    /// A principal line from `pos`, which wins (`winning`) or loses within `d` plies.
    fn line(&mut self, pos: &Position, d: i32, winning: bool, out: &mut Vec<Move>) {
        if d <= 0 || out.len() > 256 {
            return;
        }
        let Node::Open(children) = self.node(pos) else {
            return;
        };
        if winning {
            // The quickest win: a move after which the opponent loses within d - 1.
            for (mv, c) in &children {
                if self.loses_i(c, d - 1) {
                    out.push(*mv);
                    let n = self.loss_distance(c, d - 1).unwrap_or(d - 1);
                    self.line(c, n, false, out);
                    return;
                }
            }
        } else {
            // The longest defence: the move whose win for the opponent is furthest off.
            let mut best: Option<(i32, Move, Position)> = None;
            for (mv, c) in &children {
                let n = self.win_distance(c, d - 1).unwrap_or(d - 1);
                if best.as_ref().is_none_or(|(b, _, _)| n > *b) {
                    best = Some((n, *mv, *c));
                }
            }
            if let Some((n, mv, c)) = best {
                out.push(mv);
                self.line(&c, n, true, out);
            }
        }
    }

    /// Solves `pos` within `depth` plies. With `all`, `moves` lists every first move that
    /// wins within `depth`, each with its own distance; otherwise those that win within
    /// the shortest distance.
    pub fn solve(&mut self, pos: &Position, depth: u32, all: bool) -> Solution {
        let start = Instant::now();
        let d = i32::try_from(depth).unwrap_or(i32::MAX);
        let mut sol = Solution {
            verdict: Verdict::Unknown,
            plies: None,
            moves: Vec::new(),
            line: Vec::new(),
            nodes: 0,
            ms: 0,
        };
        let children = match expand_exact_with(&mut self.engine, pos) {
            Expansion::Over(o) => {
                sol.verdict = match o.winner {
                    Some(w) if w == pos.to_move() => Verdict::Win,
                    Some(_) => Verdict::Loss,
                    None => Verdict::Draw,
                };
                sol.plies = Some(0);
                Vec::new()
            }
            Expansion::Moves(m) => m,
            Expansion::Undecided(_) => Vec::new(),
        };
        if !children.is_empty() {
            // Each first move's own distance: the smallest n with loses(child, n - 1).
            let mut wins = Vec::new();
            for (mv, c) in &children {
                if let Some(n) = self.loss_distance(c, d - 1) {
                    wins.push(WinningMove {
                        mv: *mv,
                        plies: u32::try_from(n + 1).unwrap_or(u32::MAX),
                    });
                }
            }
            if let Some(shortest) = wins.iter().map(|w| w.plies).min() {
                sol.verdict = Verdict::Win;
                sol.plies = Some(shortest);
                if !all {
                    wins.retain(|w| w.plies == shortest);
                }
                sol.moves = wins;
                self.line(
                    pos,
                    i32::try_from(shortest).unwrap_or(d),
                    true,
                    &mut sol.line,
                );
            } else if let Some(n) = self.loss_distance(pos, d) {
                sol.verdict = Verdict::Loss;
                sol.plies = u32::try_from(n).ok();
                self.line(pos, n, false, &mut sol.line);
            } else if let Some(n) = (1..=d).find(|&n| self.draws(pos, n)) {
                sol.verdict = Verdict::Draw;
                sol.plies = u32::try_from(n).ok();
            }
        }
        sol.nodes = self.nodes;
        sol.ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
        sol
    }
}
