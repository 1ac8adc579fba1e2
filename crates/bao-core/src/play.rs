//! Legal moves, playing a move, the end of the game, perft.

use std::fmt;

use crate::engine::{execute, Finish, Outcome as Run};
use crate::position::{EndReason, House, Outcome, Position};
use crate::rules::{EndCheck, EndlessMove, Takasia};
use crate::trace::{Event, MoveTrace, NeverEnding};
use crate::types::{Direction, Move, MoveSpec, Pit, Row, Side, Sign, Stage, RING};

/// Why a move may not be played, naming the rule of `spec/rules.md` that forbids it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move as written.
    pub mv: String,
    /// The rule identifier (`G5`, `N3a`, `T3`, ...): a heading of `spec/rules.md`.
    pub rule: &'static str,
    /// One sentence: why, in the variant's own words.
    pub message: String,
    /// For a never-ending move: where its cycle starts and its period.
    pub never_ending: Option<NeverEnding>,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is illegal ({}): {}",
            self.mv, self.rule, self.message
        )
    }
}

impl std::error::Error for IllegalMove {}

/// The classified candidates of a position (before legality by execution).
#[derive(Debug, Default)]
struct Analysis {
    /// Legal captures (after never-ending and priority filters).
    captures: Vec<Move>,
    /// Legal takasa moves (empty when captures exist).
    takasas: Vec<Move>,
}

impl Analysis {
    fn is_empty(&self) -> bool {
        self.captures.is_empty() && self.takasas.is_empty()
    }
}

fn illegal(mv: impl fmt::Display, rule: &'static str, message: String) -> IllegalMove {
    IllegalMove {
        mv: mv.to_string(),
        rule,
        message,
        never_ending: None,
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
        let y = self.to_move;
        let x = y.opponent();
        let order = match self.rules.end_check {
            EndCheck::OpponentFirst => [y, x],
            EndCheck::SouthFirst => [Side::South, Side::North],
        };
        for loser in order {
            if self.front_row_seeds(loser) == 0 {
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
        if self.analyse().is_empty() {
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
        let a = self.analyse();
        let mut moves = if a.captures.is_empty() {
            a.takasas
        } else {
            a.captures
        };
        moves.sort_unstable();
        moves
    }

    fn analyse(&self) -> Analysis {
        match self.stage() {
            Stage::Namua => self.analyse_namua(),
            Stage::Mtaji => self.analyse_mtaji(),
        }
    }

    fn analyse_namua(&self) -> Analysis {
        let side = self.to_move;
        let own = self.ring(side);
        let opp = self.ring(side.opponent());
        let mut a = Analysis::default();
        for i in 0..8 {
            if own[i] == 0 || opp[7 - i] == 0 {
                continue;
            }
            let pit = Pit::from_ring(side, i);
            let signs: &[Sign] = if i <= 1 {
                &[Sign::Left]
            } else if i >= 6 {
                &[Sign::Right]
            } else {
                &[Sign::Left, Sign::Right]
            };
            for &sign in signs {
                let mv = Move {
                    pit,
                    sign,
                    takasa: false,
                    safari: false,
                };
                let run = self.simulate(mv);
                if !self.run_is_illegal(&run) {
                    a.captures.push(mv);
                }
                if run.stopped_at_house {
                    let safari = Move { safari: true, ..mv };
                    if !self.run_is_illegal(&self.simulate(safari)) {
                        a.captures.push(safari);
                    }
                }
            }
        }
        if !a.captures.is_empty() {
            return a;
        }
        for i in self.namua_placements() {
            self.push_takasas(&mut a.takasas, Pit::from_ring(side, i));
        }
        a
    }

    /// Front pits (ring indices) where a namua takasa may place its seed (N3a, N3b).
    fn namua_placements(&self) -> Vec<usize> {
        let side = self.to_move;
        let own = self.ring(side);
        let house_owned = self.rules.houses && self.houses[side.index()] == House::Owned;
        let occupied: Vec<usize> = (0..8).filter(|&i| own[i] > 0).collect();
        if house_owned && own[4] >= 6 {
            // N3a: a functional nyumba only when it is the only occupied front pit.
            let others: Vec<usize> = occupied.iter().copied().filter(|&i| i != 4).collect();
            return if others.is_empty() { vec![4] } else { others };
        }
        let excluded = |i: usize| i == 4 && house_owned && !self.rules.dormant_house_placeable;
        let multi: Vec<usize> = occupied
            .iter()
            .copied()
            .filter(|&i| own[i] >= 2 && !excluded(i))
            .collect();
        if !multi.is_empty() {
            return multi;
        }
        let singles: Vec<usize> = occupied.iter().copied().filter(|&i| !excluded(i)).collect();
        if !singles.is_empty() {
            return singles;
        }
        occupied
    }

    /// Adds both directions of a takasa from `pit` when legal by execution.
    fn push_takasas(&self, out: &mut Vec<Move>, pit: Pit) {
        for sign in [Sign::Left, Sign::Right] {
            let mv = Move {
                pit,
                sign,
                takasa: true,
                safari: false,
            };
            if !self.run_is_illegal(&self.simulate(mv)) {
                out.push(mv);
            }
        }
    }

    /// Mtaji capture candidates by the first-lap rule (G6, M2), before execution.
    fn mtaji_capture_candidates(&self, side: Side) -> Vec<Move> {
        let own = self.ring(side);
        let opp = self.ring(side.opponent());
        let blocked_start = match self.rules.takasia {
            Takasia::Standard => self.blocked[side.index()].map(usize::from),
            _ => None,
        };
        let mut out = Vec::new();
        for r in 0..RING {
            let n = own[r];
            if n < 2 || n >= self.rules.capture_threshold || Some(r) == blocked_start {
                continue;
            }
            for dir in [Direction::Clockwise, Direction::Anticlockwise] {
                let end = match dir {
                    Direction::Clockwise => (r + usize::from(n)) % RING,
                    Direction::Anticlockwise => (r + RING - usize::from(n)) % RING,
                };
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

    /// Legal mtaji captures with their runs (never-ending ones dropped).
    fn mtaji_captures(&self) -> Vec<(Move, Run)> {
        self.mtaji_capture_candidates(self.to_move)
            .into_iter()
            .filter_map(|mv| {
                let run = self.simulate(mv);
                (!self.run_is_illegal(&run)).then_some((mv, run))
            })
            .collect()
    }

    /// The pit the side to move must capture (T5/K4), if the rules give priority.
    fn priority_pit(&self) -> Option<u8> {
        if !self.rules.capture_priority {
            return None;
        }
        self.blocked[self.to_move.opponent().index()]
    }

    fn analyse_mtaji(&self) -> Analysis {
        let side = self.to_move;
        let m = self.m();
        let mut a = Analysis::default();
        let mut captures = self.mtaji_captures();
        if let Some(h) = self.priority_pit() {
            if !captures.is_empty() {
                let kept: Vec<(Move, Run)> = captures
                    .iter()
                    .copied()
                    .filter(|(_, run)| run.captured_mask & (1 << h) != 0)
                    .collect();
                if kept.is_empty() && self.rules.takasia == Takasia::AbstractPlay {
                    // AbstractPlay: no capture takes the pit, so no move at all.
                    return a;
                }
                if !kept.is_empty() {
                    captures = kept;
                }
            }
        }
        if !captures.is_empty() {
            a.captures = captures.into_iter().map(|(mv, _)| mv).collect();
            return a;
        }
        let own = self.ring(side);
        if self.rules.first_takata_from_kuu && self.rules.houses && self.houses[m] == House::Owned {
            if own[4] >= 2 {
                self.push_takasas(&mut a.takasas, Pit::nyumba(side));
            }
            if !a.takasas.is_empty() {
                return a;
            }
        }
        let excluded = match self.rules.takasia {
            Takasia::Off => None,
            Takasia::Standard => self.blocked[m].map(usize::from),
            Takasia::AbstractPlay => self.abstractplay_exclusion(),
        };
        let front: Vec<usize> = (0..8)
            .filter(|&i| own[i] >= 2 && Some(i) != excluded)
            .collect();
        for &i in &front {
            self.push_takasas(&mut a.takasas, Pit::from_ring(side, i));
        }
        let back_allowed = match self.rules.takasia {
            // A takasia'd pit counts as holding two or more (A.4.10).
            Takasia::Standard | Takasia::Off => !(0..8).any(|i| own[i] >= 2),
            Takasia::AbstractPlay => front.is_empty(),
        };
        if back_allowed {
            for (r, &n) in own.iter().enumerate().skip(8) {
                if n >= 2 {
                    self.push_takasas(&mut a.takasas, Pit::from_ring(side, r));
                }
            }
        }
        a
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
        let mut captures = self.mtaji_captures();
        if let Some(h) = self.priority_pit() {
            captures.retain(|(_, run)| run.captured_mask & (1 << h) != 0);
        }
        self.common_first_capture(&captures)
    }

    /// The pit every capture takes first, if they agree and the T2 exemptions do not apply.
    fn common_first_capture(&self, captures: &[(Move, Run)]) -> Option<u8> {
        let first = captures.first()?.1.first_capture?;
        if captures
            .iter()
            .any(|(_, run)| run.first_capture != Some(first))
        {
            return None;
        }
        let y = self.to_move.opponent();
        let yr = self.ring(y);
        let h = usize::from(first);
        let functional_house =
            self.rules.houses && h == 4 && self.houses[y.index()] == House::Owned && yr[4] >= 6;
        let occupied = (0..8).filter(|&i| yr[i] > 0).count();
        let multi: Vec<usize> = (0..8).filter(|&i| yr[i] >= 2).collect();
        let only_occupied = occupied == 1 && yr[h] > 0;
        let only_multi = multi == [h];
        if functional_house || only_occupied || only_multi {
            return None;
        }
        Some(first)
    }

    /// Standard takasia (T1, T2; A.4.6): after the blocker's mtaji takasa, with the blocker
    /// to move on `self`.
    fn standard_detect(&self) -> Option<u8> {
        let captures = self.mtaji_captures();
        if captures.is_empty() {
            return None;
        }
        let h = self.common_first_capture(&captures)?;
        // The victim must have no legal capture.
        let mut victim = *self;
        victim.to_move = self.to_move.opponent();
        victim.blocked = [None, None];
        let has_capture = victim
            .mtaji_capture_candidates(victim.to_move)
            .into_iter()
            .any(|mv| !victim.run_is_illegal(&victim.simulate(mv)));
        (!has_capture).then_some(h)
    }

    /// Plays a move, returning the next position and the trace.
    ///
    /// # Errors
    /// The move is not legal here: the rule that forbids it and why.
    pub fn play(&self, mv: &Move) -> Result<(Position, MoveTrace), IllegalMove> {
        if !self.legal_moves().contains(mv) {
            return Err(self.diagnose(mv));
        }
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]).
    #[must_use]
    pub fn play_unchecked(&self, mv: &Move) -> (Position, MoveTrace) {
        let mut trace = MoveTrace::new(*mv, self.to_move, self.stage());
        let run = execute(self, *mv, &mut trace);
        trace.laps_total = run.laps;
        trace.seeds_sown = run.sown;
        let next = self.finish_move(mv, &run, Some(&mut trace));
        trace.outcome = next.outcome_after_move();
        (next, trace)
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
            self.legal_moves().is_empty().then(|| Outcome {
                winner: Some(self.to_move.opponent()),
                reason: EndReason::NoLegalMove,
            })
        })
    }

    /// Everything after the sowing: takasia bookkeeping, side switch, recorded ends.
    fn finish_move(&self, mv: &Move, run: &Run, trace: Option<&mut MoveTrace>) -> Position {
        let mover = self.to_move;
        let (m, o) = (mover.index(), mover.opponent().index());
        let mut next = run.pos;
        next.to_move = mover.opponent();
        next.last_move_takasa = mv.takasa;
        let mut set = None;
        match run.finish {
            Finish::NeverEnding(ne) => {
                next.ended = Some(Outcome {
                    winner: match self.rules.endless_move {
                        EndlessMove::Draw => None,
                        _ => Some(mover.opponent()),
                    },
                    reason: EndReason::NeverEnding,
                });
                if let Some(t) = trace {
                    t.never_ending = Some(ne);
                }
                return next;
            }
            Finish::Capped => {
                next.ended = Some(Outcome {
                    winner: Some(mover.opponent()),
                    reason: EndReason::NeverEnding,
                });
                return next;
            }
            Finish::Done | Finish::BaoHamna | Finish::FrontRowEmptied => {}
        }
        match self.rules.takasia {
            Takasia::Off => {}
            Takasia::Standard => {
                // The mover's own takasia lasted this move; under Kete priority it now
                // tells the opponent which pit he must capture. The pit the mover had to
                // capture is spent.
                let priority = if self.rules.capture_priority {
                    next.blocked[m]
                } else {
                    None
                };
                next.blocked = [None, None];
                next.blocked[m] = priority;
                if mv.takasa
                    && self.stage() == Stage::Mtaji
                    && run.finish == Finish::Done
                    && next.front_row_outcome().is_none()
                {
                    let mut blocker = next;
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
                    let mut blocker = next;
                    blocker.to_move = mover;
                    if let Some(h) = blocker.abstractplay_detect() {
                        next.blocked[o] = Some(h);
                        set = Some(h);
                    }
                }
            }
        }
        if let (Some(h), Some(t)) = (set, trace) {
            t.events.push(Event::TakasiaSet {
                pit: Pit::from_ring(mover.opponent(), usize::from(h)),
            });
        }
        next
    }

    /// Resolves a move token (sign or `*` left out where forced) against this position.
    ///
    /// # Errors
    /// No legal move matches (with the rule that forbids the likeliest reading), or several
    /// do (the sign is needed).
    pub fn resolve(&self, spec: &MoveSpec) -> Result<Move, IllegalMove> {
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
                let mut err = if spec.sign.is_none() {
                    let other = Move {
                        sign: Sign::Right,
                        ..mv
                    };
                    let e1 = self.diagnose(&mv);
                    if e1.rule == "G7" {
                        self.diagnose(&other)
                    } else {
                        e1
                    }
                } else {
                    self.diagnose(&mv)
                };
                err.mv = spec.to_string();
                Err(err)
            }
            many => Err(illegal(
                spec,
                "G7",
                format!(
                    "ambiguous: {} are all legal; write the sign",
                    many.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }

    /// Explains why a move is not legal here.
    #[must_use]
    pub fn diagnose(&self, mv: &Move) -> IllegalMove {
        let names = self.rules.names();
        let side = self.to_move;
        if let Some(o) = self.outcome() {
            let who = o.winner.map_or("nobody".to_string(), |w| w.to_string());
            return illegal(
                mv,
                "E4",
                format!("the game is over ({} won: {})", who, o.reason.name()),
            );
        }
        if mv.pit.side() != side {
            return illegal(
                mv,
                "G3",
                format!(
                    "{} is not {side}'s pit: a player sows only his own pits",
                    mv.pit
                ),
            );
        }
        let a = self.analyse();
        let legal: Vec<Move> = if a.captures.is_empty() {
            a.takasas.clone()
        } else {
            a.captures.clone()
        };
        let list = |ms: &[Move]| {
            ms.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let count = self.get(mv.pit);
        let stage = self.stage();
        let run = (count > 0).then(|| self.simulate(*mv));
        if stage == Stage::Namua {
            if mv.pit.row() == Row::Back {
                return illegal(
                    mv,
                    "N1",
                    format!(
                        "in {} the reserve seed goes into an occupied front-row pit, never the back row",
                        names.namua
                    ),
                );
            }
            if count == 0 {
                return illegal(
                    mv,
                    "N1",
                    format!(
                        "{} is empty: in {} the reserve seed goes into an occupied front-row pit",
                        mv.pit, names.namua
                    ),
                );
            }
        } else if count < 2 {
            return illegal(
                mv,
                "M1",
                format!(
                    "{} holds {count} seed{}: a {} move starts from a pit with 2 seeds or more",
                    mv.pit,
                    if count == 1 { "" } else { "s" },
                    names.mtaji
                ),
            );
        }
        if mv.takasa && !a.captures.is_empty() {
            return illegal(
                mv,
                "G5",
                format!(
                    "captures are compulsory; the captures here are {}",
                    list(&a.captures)
                ),
            );
        }
        if let Some(run) = run.filter(|r| self.run_is_illegal(r)) {
            return match run.finish {
                Finish::NeverEnding(ne) => IllegalMove {
                    mv: mv.to_string(),
                    rule: "G11",
                    message: format!(
                        "the move never ends: from lap {} it repeats every {} laps",
                        ne.cycle_start_lap, ne.period
                    ),
                    never_ending: Some(ne),
                },
                _ => illegal(
                    mv,
                    "G10",
                    format!(
                        "this {} would leave {side}'s front row empty; a player's front row may never be emptied",
                        names.takasa
                    ),
                ),
            };
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
                if a.captures.contains(&plain) {
                    return illegal(
                        mv,
                        "N7",
                        format!(
                            "safari (+) is claimed, but {plain} never stops in the functional {}",
                            names.nyumba
                        ),
                    );
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
                if let Some(f) = forced.filter(|f| *f != mv.sign) {
                    return illegal(
                        mv,
                        "G7",
                        format!(
                            "a capture from a kimbi enters at the kichwa on its own side; write {}{}",
                            mv.pit,
                            f.as_char()
                        ),
                    );
                }
            }
            if stage == Stage::Mtaji && count >= self.rules.capture_threshold {
                return illegal(
                    mv,
                    "M2",
                    format!(
                        "{} holds {count} seeds: a first lap of {} or more never captures",
                        mv.pit, self.rules.capture_threshold
                    ),
                );
            }
            if a.captures.is_empty() {
                let hint = if legal.contains(&as_takasa) {
                    format!("; write {as_takasa}")
                } else {
                    String::new()
                };
                return illegal(
                    mv,
                    "G6",
                    format!(
                        "no capture is possible here, so every move is a {}{hint}",
                        names.takasa
                    ),
                );
            }
            if let (Some(h), true) = (self.priority_pit(), stage == Stage::Mtaji) {
                let hp = Pit::from_ring(side.opponent(), usize::from(h));
                if self.mtaji_capture_candidates(side).contains(mv) {
                    return illegal(
                        mv,
                        if self.rules.variant == crate::rules::Variant::Kete {
                            "K4"
                        } else {
                            "T5"
                        },
                        format!(
                            "{hp} is reserved by {}: this move must capture it; the captures that do are {}",
                            names.takasia,
                            list(&a.captures)
                        ),
                    );
                }
            }
            if self.rules.takasia == Takasia::Standard
                && self.blocked[side.index()] == Some(mv.pit.ring() as u8)
            {
                return illegal(
                    mv,
                    "T3",
                    format!(
                        "{} is {}: no move may start from it now",
                        mv.pit, names.takasia
                    ),
                );
            }
            return illegal(
                mv,
                "G6",
                format!(
                    "this move does not capture (its first lap does not end in a pit facing seeds); the captures here are {}",
                    list(&a.captures)
                ),
            );
        }
        // A takasa while no capture exists.
        if stage == Stage::Namua {
            let placements = self.namua_placements();
            if !placements.contains(&mv.pit.ring()) {
                let functional = self.house_state(side) == crate::HouseState::Functional;
                return if functional && mv.pit == Pit::nyumba(side) {
                    illegal(
                        mv,
                        "N3a",
                        format!(
                            "the functional {} takes the reserve seed of a {} only when it is the only occupied front pit",
                            names.nyumba, names.takasa
                        ),
                    )
                } else {
                    illegal(
                        mv,
                        "N3b",
                        format!(
                            "without a functional {} the reserve seed goes into a pit holding 2 seeds or more while one exists",
                            names.nyumba
                        ),
                    )
                };
            }
        } else {
            let m = side.index();
            if self.rules.takasia != Takasia::Off && self.blocked[m] == Some(mv.pit.ring() as u8) {
                return illegal(
                    mv,
                    "T3",
                    format!(
                        "{} is {}: no move may start from it now",
                        mv.pit, names.takasia
                    ),
                );
            }
            if self.rules.first_takata_from_kuu
                && self.houses[m] == House::Owned
                && mv.pit != Pit::nyumba(side)
                && legal.iter().all(|l| l.pit == Pit::nyumba(side))
            {
                return illegal(
                    mv,
                    "K3",
                    format!(
                        "while the {} stands, a {} {} must start from it",
                        names.nyumba, names.mtaji, names.takasa
                    ),
                );
            }
            if mv.pit.row() == Row::Back {
                return illegal(
                    mv,
                    "M4",
                    "a takasa may start from the back row only when no front pit holds 2 seeds or more"
                        .to_string(),
                );
            }
        }
        illegal(
            mv,
            "G4",
            format!(
                "not a legal move here; the legal moves are {}",
                list(&legal)
            ),
        )
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
