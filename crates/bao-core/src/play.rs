//! Playing a move: the position after it, its trace, and the end of the game.

use crate::context::{Engine, Known, Noted};
use crate::engine::{execute, front_word, Finish, Outcome as Run};
use crate::illegal::PlayError;
use crate::position::{EndReason, Outcome, Position};
use crate::rules::{EndCheck, EndlessMove, Takasia};
use crate::trace::LazyTrace;
use crate::trace::{Event, MoveTrace};
use crate::types::{Move, Pit, Side, Stage, RING};

impl Position {
    pub(crate) fn m(&self) -> usize {
        self.to_move.index()
    }

    pub(crate) fn ring(&self, side: Side) -> &[u8; RING] {
        &self.board[side.index()]
    }

    /// Runs a move without tracing.
    pub(crate) fn simulate(&self, mv: Move, cx: &mut Engine) -> Run {
        execute(self, mv, &mut (), cx)
    }

    fn endless_is_illegal(&self) -> bool {
        self.rules.endless_move == EndlessMove::Illegal
    }

    /// A run that makes its move illegal (G10, or G11 under the `illegal` policy).
    pub(crate) fn run_is_illegal(&self, run: &Run) -> bool {
        self.finish_is_illegal(run.finish)
    }

    /// An end of a run that makes its move illegal ([`Position::run_is_illegal`]).
    pub(crate) fn finish_is_illegal(&self, finish: Finish) -> bool {
        match finish {
            Finish::FrontRowEmptied => true,
            Finish::NeverEnding(_) => self.endless_is_illegal(),
            _ => false,
        }
    }

    /// The outcome decided by the board alone (front rows), in the rule set's order.
    pub(crate) fn front_row_outcome(&self) -> Option<Outcome> {
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
        self.outcome_in(&mut Engine::new())
    }

    /// [`Position::outcome`] with the caller's engine.
    pub(crate) fn outcome_in(&self, cx: &mut Engine) -> Option<Outcome> {
        self.board_outcome()
            .or_else(|| (!self.has_legal_move(cx)).then(|| self.no_legal_move()))
    }

    /// [`Position::outcome`], leaving what its end test decided in the engine (for the
    /// next [`Position::legal_moves`] of this position: `Known`).
    fn outcome_noted(&self, cx: &mut Engine) -> Option<Outcome> {
        self.board_outcome()
            .or_else(|| (!self.has_legal_move_noted(cx)).then(|| self.no_legal_move()))
    }

    /// [`Position::outcome`], adding what its end test decided to `known` (nothing when the
    /// board alone ends the game), for the caller to keep beside the position ([`Noted`]).
    #[inline]
    fn outcome_into(&self, known: &mut Known, cx: &mut Engine) -> Option<Outcome> {
        self.board_outcome()
            .or_else(|| (!self.has_legal_move_into(known, cx)).then(|| self.no_legal_move()))
    }

    /// The outcome without the no-legal-move test: a recorded end or an empty front row.
    fn board_outcome(&self) -> Option<Outcome> {
        self.ended.or_else(|| self.front_row_outcome())
    }

    /// The side to move has no legal move: the opponent wins (E2).
    fn no_legal_move(&self) -> Outcome {
        Outcome {
            winner: Some(self.to_move.opponent()),
            reason: EndReason::NoLegalMove,
        }
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Plays a move: the next position and the [`MoveTrace`] of everything that happened
    /// inside the move (as a [`LazyTrace`], worked out when first read), or why the move is
    /// illegal. The checked way to play a move that comes from outside (a player, a
    /// record); the crate docs ("Playing moves") list the faster forms and when each fits.
    ///
    /// Legality is decided without generating every legal move, the move is run once
    /// (untraced; its trace is recorded only when read, or at once for a move of 64 laps
    /// or more), and the reason of a refusal is worked out only then.
    ///
    /// # Errors
    /// The move is not legal here: why, as data.
    pub fn play(&self, mv: &Move) -> Result<(Self, LazyTrace), PlayError> {
        self.play_in(mv, &mut Engine::new())
    }

    /// [`Position::play`] with the caller's engine, which keeps the next position's note
    /// (for its next question about an equal position).
    pub(crate) fn play_in(
        &self,
        mv: &Move,
        cx: &mut Engine,
    ) -> Result<(Self, LazyTrace), PlayError> {
        self.play_with(mv, None, cx, |next, known, cx| {
            cx.note(&next, known);
            next
        })
    }

    /// [`Position::play`] for a caller that holds the position's note ([`Noted`]), in
    /// place: `noted` becomes the next position with its own note, the engine keeps none.
    /// On an illegal move `noted` is left as it was.
    pub(crate) fn play_noted_in(
        noted: &mut Noted,
        mv: &Move,
        cx: &mut Engine,
    ) -> Result<LazyTrace, PlayError> {
        // (Written through `noted` here, not returned: a returned position, note and trace
        // together are copied once more, as a block.)
        let ((next, next_known), trace) =
            noted
                .position()
                .play_with(mv, Some(noted.known()), cx, |next, known, _| (next, known))?;
        *noted = Noted::with(next, next_known);
        Ok(trace)
    }

    /// [`Position::play`]: the next position with its note (what its end test decided),
    /// as `keep` keeps them, and the trace. `known`: this position's note when the caller
    /// holds it; `None` asks the engine for the note it keeps. (`keep` builds the answer in
    /// place: no position is copied from one result into another.)
    #[inline(always)]
    fn play_with<N>(
        &self,
        mv: &Move,
        known: Option<&Known>,
        cx: &mut Engine,
        keep: impl FnOnce(Self, Known, &mut Engine) -> N,
    ) -> Result<(N, LazyTrace), PlayError> {
        let mut run = Run::UNPLAYED;
        match self
            .legal_run_quick_into(mv, known, &mut run, cx)
            .then_some(run)
        {
            None => Err(self.diagnose_in(mv, cx)),
            Some(run) if run.finish != Finish::Undecided => {
                let next = self.finish_move(mv, &run, None, cx);
                let mut next_known = Known::NONE;
                let outcome = next.outcome_into(&mut next_known, cx);
                Ok((
                    keep(next, next_known, cx),
                    LazyTrace::later(*self, *mv, outcome),
                ))
            }
            // Still going after 64 laps: decided in full, traced while it runs.
            Some(_) => {
                let mut trace = MoveTrace::new(*mv, self.to_move, self.stage());
                match self.legal_run(mv, &mut trace, cx) {
                    Some(run) => {
                        let (next, trace) = self.complete_traced(mv, &run, trace, true, cx);
                        // (This rare path's end test left its note in the engine.)
                        let next_known = cx.known_for(&next);
                        Ok((
                            keep(next, next_known, cx),
                            LazyTrace::recorded(*self, trace),
                        ))
                    }
                    None => Err(self.diagnose_in(mv, cx)),
                }
            }
        }
    }

    /// The trace of `mv` (legal here) as [`Position::play`] records it, with the outcome
    /// its end test found.
    pub(crate) fn trace_of(&self, mv: &Move, outcome: Option<Outcome>) -> MoveTrace {
        let cx = &mut Engine::new();
        let mut trace = MoveTrace::new(*mv, self.to_move, self.stage());
        let run = execute(self, *mv, &mut trace, cx);
        self.complete_traced_in(mv, &run, &mut trace, false, cx);
        trace.outcome = outcome;
        trace
    }

    /// Plays `mv` when it is legal into a trace the caller keeps and reuses: the form for
    /// replaying a record move after move. The trace is emptied and refilled, so a replay
    /// allocates nothing once its lists have grown; legality is decided as by
    /// [`Position::play`], and the move is run once.
    ///
    /// Returns the next position, or `None` when `mv` is illegal ([`Position::diagnose`]
    /// says why; the trace then holds an unspecified part of the run).
    ///
    /// The end test is left half done, for a replay that usually learns it from the next
    /// move: `trace.outcome` holds what the board shows (an empty front row, a recorded
    /// end), not whether the side to move next has no legal move (E2); `next.outcome()`
    /// completes it.
    ///
    /// ```
    /// use bao_core::{Move, MoveTrace, Position, RuleSet};
    ///
    /// let mut pos = Position::start(RuleSet::KISWAHILI);
    /// let first: Move = "A6<*".parse().unwrap();
    /// let mut trace = MoveTrace::new(first, pos.to_move(), pos.stage());
    /// for _ in 0..10 {
    ///     let mv = pos.legal_moves()[0]; // in a replay: the record's next move
    ///     pos = pos.play_into(&mv, &mut trace).expect("legal");
    ///     assert_eq!(trace.mv, mv);
    /// }
    /// // An illegal move is refused; `diagnose` says why.
    /// let back_row: Move = "b1<*".parse().unwrap();
    /// assert!(pos.play_into(&back_row, &mut trace).is_none());
    /// ```
    pub fn play_into(&self, mv: &Move, trace: &mut MoveTrace) -> Option<Self> {
        self.play_into_in(mv, trace, &mut Engine::new())
    }

    /// [`Position::play_into`] with the caller's engine.
    pub(crate) fn play_into_in(
        &self,
        mv: &Move,
        trace: &mut MoveTrace,
        cx: &mut Engine,
    ) -> Option<Self> {
        trace.reset(*mv, self.to_move, self.stage());
        let mut run = Run::UNPLAYED;
        if !self.legal_run_into(mv, trace, &mut run, cx) {
            return None;
        }
        Some(self.complete_traced_in(mv, &run, trace, false, cx))
    }

    /// [`Position::play_into`] without recording the run: legality is decided and the move
    /// run as by [`Position::play`] (untraced), and `trace` gets what needs no record of the
    /// laps: the move, mover, stage, namua placement, lap and seed counts, never-ending, the
    /// takasia the move set (its one event) and the board's outcome (the end test left half
    /// done, as by `play_into`). Its laps and captures are left empty (but for a move of 64
    /// laps or more, recorded in full as [`Position::play`] records it). For a replay that
    /// reads a move's laps only now and then: [`Position::play_into`] (or
    /// [`Position::play`]'s trace) records them when wanted.
    ///
    /// Returns the next position (the one `play_into` gives), or `None` when `mv` is illegal.
    ///
    /// ```
    /// use bao_core::{Move, MoveTrace, Position, RuleSet};
    ///
    /// let pos = Position::start(RuleSet::KISWAHILI);
    /// let mv: Move = "A6<*".parse().unwrap();
    /// let (mut full, mut counted) = (MoveTrace::new(mv, pos.to_move(), pos.stage()), MoveTrace::new(mv, pos.to_move(), pos.stage()));
    /// let next = pos.play_into(&mv, &mut full);
    /// assert_eq!(pos.play_into_counted(&mv, &mut counted), next);
    /// assert_eq!((counted.laps_total, counted.seeds_sown), (full.laps_total, full.seeds_sown));
    /// assert!(counted.laps.is_empty());
    /// ```
    pub fn play_into_counted(&self, mv: &Move, trace: &mut MoveTrace) -> Option<Self> {
        self.play_into_counted_in(mv, trace, &mut Engine::new())
    }

    /// [`Position::play_into_counted`] with the caller's engine.
    pub(crate) fn play_into_counted_in(
        &self,
        mv: &Move,
        trace: &mut MoveTrace,
        cx: &mut Engine,
    ) -> Option<Self> {
        trace.reset(*mv, self.to_move, self.stage());
        let mut run = Run::UNPLAYED;
        if !self.legal_run_quick_into(mv, None, &mut run, cx) {
            return None;
        }
        if run.finish == Finish::Undecided {
            // Still going after 64 laps: decided in full, traced while it runs (as by
            // `play`: the traced run's never-ending detection counts its laps its own way).
            return self.play_into_in(mv, trace, cx);
        }
        if trace.stage == Stage::Namua {
            // Every namua move places its reserve seed in its pit first.
            trace.placement = Some(mv.pit);
        }
        Some(self.complete_traced_in(mv, &run, trace, false, cx))
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`], say), with its
    /// trace: no legality test, and for an illegal move the result is unspecified; use
    /// [`Position::play`] for a move from outside.
    #[must_use]
    pub fn play_unchecked(&self, mv: &Move) -> (Self, MoveTrace) {
        self.play_unchecked_in(mv, &mut Engine::new())
    }

    /// [`Position::play_unchecked`] with the caller's engine.
    pub(crate) fn play_unchecked_in(&self, mv: &Move, cx: &mut Engine) -> (Self, MoveTrace) {
        let mut trace = MoveTrace::new(*mv, self.to_move, self.stage());
        let run = execute(self, *mv, &mut trace, cx);
        self.complete_traced(mv, &run, trace, true, cx)
    }

    /// The next position and the finished trace of a traced run; without `end_test`, the
    /// outcome leaves out the no-legal-move test.
    pub(crate) fn complete_traced(
        &self,
        mv: &Move,
        run: &Run,
        mut trace: MoveTrace,
        end_test: bool,
        cx: &mut Engine,
    ) -> (Self, MoveTrace) {
        let next = self.complete_traced_in(mv, run, &mut trace, end_test, cx);
        (next, trace)
    }

    /// [`Position::complete_traced`] on a borrowed trace.
    pub(crate) fn complete_traced_in(
        &self,
        mv: &Move,
        run: &Run,
        trace: &mut MoveTrace,
        end_test: bool,
        cx: &mut Engine,
    ) -> Self {
        // `trace.placement` was set by the tracer at the `Placed` event.
        trace.laps_total = run.laps;
        trace.seeds_sown = run.sown;
        let next = self.finish_move(mv, run, Some(trace), cx);
        trace.outcome = if end_test {
            next.outcome_noted(cx)
        } else {
            next.board_outcome()
        };
        next
    }

    /// Plays a move known to be legal without a trace: the fast path for search, perft and
    /// playouts, where nobody reads what happened inside the move. As with
    /// [`Position::play_unchecked`], the move is not tested.
    #[must_use]
    pub fn play_fast(&self, mv: &Move) -> Self {
        self.play_fast_in(mv, &mut Engine::new())
    }

    /// [`Position::play_fast`] with the caller's engine.
    pub(crate) fn play_fast_in(&self, mv: &Move, cx: &mut Engine) -> Self {
        let run = self.simulate(*mv, cx);
        self.finish_move(mv, &run, None, cx)
    }

    /// The position after a move: [`Position::settle`] on a copy.
    fn finish_move(
        &self,
        mv: &Move,
        run: &Run,
        trace: Option<&mut MoveTrace>,
        cx: &mut Engine,
    ) -> Self {
        let mut next = *self;
        next.settle(mv, run, trace, cx);
        next
    }

    /// Everything after the sowing, in place (`self` is the position the move was played
    /// from, `run` its run): the board the run left, takasia bookkeeping, side switch,
    /// recorded ends. In place, so that a playout never copies a whole position.
    pub(crate) fn settle(
        &mut self,
        mv: &Move,
        run: &Run,
        trace: Option<&mut MoveTrace>,
        cx: &mut Engine,
    ) {
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
        next.last_move_takasa = mv.is_takasa();
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
                if mv.is_takasa()
                    && mtaji
                    && run.finish == Finish::Done
                    && next.front_row_outcome().is_none()
                {
                    let mut blocker = *next;
                    blocker.to_move = mover;
                    blocker.blocked = [None, None];
                    if let Some(h) = blocker.standard_detect(cx) {
                        next.blocked[o] = Some(h);
                        set = Some(h);
                    }
                }
            }
            Takasia::AbstractPlay => {
                if mv.is_takasa() && next.hands == [0, 0] {
                    let mut blocker = *next;
                    blocker.to_move = mover;
                    if let Some(h) = blocker.abstractplay_detect(cx) {
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
            } else if !next.has_legal_move(cx) {
                next.blocked = [None, None];
                set = None;
                // Recorded only where the board without the pit shows a legal move.
                if next.has_legal_move(cx) {
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
}

#[cfg(test)]
mod tests {
    use crate::position::{HouseState, Setup};
    use crate::rules::{RuleSet, PRESET_NAMES};
    use crate::types::BySide;
    use crate::{Move, MoveTrace, Position};

    /// `play`'s trace ([`crate::LazyTrace`]: recorded when read, or at once for a move of 64
    /// laps or more) is the trace `play_unchecked` records, read before or after a clone
    /// and taken out with `into_trace` whether read or not: along random games of every
    /// preset, and for a never-ending move played under `endless_move draw` (Mancala World
    /// Problem 3's `A3<*`, cycle from lap 1, period 228).
    #[test]
    fn plays_trace_is_the_one_recorded_while_running() {
        let same = |pos: &Position, mv: &Move| {
            let (next, lazy) = pos.play(mv).expect("legal");
            let (n2, recorded) = pos.play_unchecked(mv);
            assert_eq!(next, n2, "{mv} in\n{pos}");
            let copy = lazy.clone();
            assert_eq!(*lazy, recorded, "{mv} in\n{pos}");
            assert_eq!(copy, recorded);
            assert_eq!(lazy.clone().into_trace(), recorded);
            assert_eq!(MoveTrace::from(pos.play(mv).expect("legal").1), recorded);
            recorded.laps_total
        };
        let mut long = 0;
        along_random_games(5, 15, |pos, mv| {
            if let Some(mv) = mv {
                long += usize::from(same(pos, mv) >= 64);
            }
        });
        let pos = problem_3_under_draw();
        let endless: Move = "A3<*".parse().expect("a move");
        long += usize::from(same(&pos, &endless) >= 64);
        let (_, trace) = pos.play(&endless).expect("legal under draw");
        assert!(trace.never_ending.is_some());
        assert!(long > 0, "no move of 64 laps or more met");
    }

    /// `play_into_counted` gives the position `play_into` gives and, of its trace, all but
    /// the laps, captures and events (the takasia set among them included), for every move
    /// of every pit, sign and kind (legal or not) along random games of every preset, and
    /// for a never-ending move under `endless_move draw`.
    #[test]
    fn a_counted_play_is_a_traced_one_without_its_lists() {
        use crate::types::{MoveKind, Pit, Sign, RING};
        let mv0: Move = "A6<*".parse().expect("a move");
        let (mut full, mut counted) = (
            MoveTrace::new(mv0, crate::types::Side::South, crate::types::Stage::Namua),
            MoveTrace::new(mv0, crate::types::Side::South, crate::types::Stage::Namua),
        );
        let mut same = |pos: &Position, mv: &Move| {
            let next = pos.play_into(mv, &mut full);
            assert_eq!(
                pos.play_into_counted(mv, &mut counted),
                next,
                "{mv} in\n{pos}"
            );
            next?;
            assert!(
                counted.laps_total >= 64
                    || (counted.laps.is_empty() && counted.captures.is_empty())
            );
            assert_eq!(counted.takasia_set(), full.takasia_set(), "{mv} in\n{pos}");
            let lists = |t: &MoveTrace| MoveTrace {
                laps: Vec::new(),
                captures: Vec::new(),
                events: Vec::new(),
                ..t.clone()
            };
            assert_eq!(lists(&counted), lists(&full), "{mv} in\n{pos}");
            Some((full.takasia_set().is_some(), full.never_ending.is_some()))
        };
        let (mut legal, mut set) = (0, 0);
        along_random_games(11, 4, |pos, _| {
            for r in 0..RING {
                for sign in [Sign::Left, Sign::Right] {
                    for kind in [MoveKind::Capture, MoveKind::Takasa, MoveKind::Safari] {
                        let mv = Move::new(Pit::from_ring(pos.to_move(), r), sign, kind);
                        if let Some((takasia, _)) = same(pos, &mv) {
                            legal += 1;
                            set += usize::from(takasia);
                        }
                    }
                }
            }
        });
        assert!(
            legal > 1000 && set > 0,
            "{legal} legal moves, {set} set a takasia"
        );
        let pos = problem_3_under_draw();
        let endless = same(&pos, &"A3<*".parse().expect("a move"));
        assert_eq!(endless, Some((false, true)));
    }

    /// Plays `games` uniform random legal games of every preset (moves picked by an LCG
    /// seeded with `seed`, played with `play_fast`), showing `at` every position reached and
    /// the move about to be played from it (`None` at a game's last position).
    fn along_random_games(seed: u64, games: usize, mut at: impl FnMut(&Position, Option<&Move>)) {
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).expect("a preset");
            let mut pick = bao_testkit::Lcg::new(seed).picker();
            for _ in 0..games {
                let mut pos = Position::start(rules);
                loop {
                    let moves = pos.legal_moves();
                    let mv = moves.get(pick(moves.len().max(1)));
                    at(&pos, mv);
                    let Some(mv) = mv else {
                        break;
                    };
                    pos = pos.play_fast(mv);
                }
            }
        }
    }

    /// Problem 3 (its `A3<*` never ends) under `endless_move draw`, where that move is legal.
    fn problem_3_under_draw() -> Position {
        let mut rules = RuleSet::KISWAHILI;
        rules.set_option("endless_move", "draw").expect("an option");
        let mut s = Setup::start(rules);
        s.hands = BySide::new(11, 11);
        s.pits = [
            [1, 6, 3, 1, 0, 5, 4, 0],
            [2, 1, 0, 5, 0, 3, 0, 1],
            [1, 0, 0, 9, 0, 0, 0, 0],
            [0; 8],
        ];
        s.houses = BySide::new(HouseState::Destroyed, HouseState::Destroyed);
        Position::from_setup(s).expect("Problem 3 is a valid position")
    }
}
