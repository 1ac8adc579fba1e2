//! Legality: whether a move is legal without generating every legal move, resolving a
//! written move, and why a move is illegal.

use crate::context::{Engine, Known};
use crate::engine::{execute_into, execute_quick_into, finish_of, Finish, Outcome as Run, Tracer};
use crate::illegal::{IllegalReason, PlayError, ResolveError};
use crate::movegen::{forced_kichwa, takasa_bits, Kind, MoveSet, MTAJI_MIN_SEEDS};
use crate::pitset::PitSet;
use crate::position::{EndReason, House, Outcome, Position};
use crate::rules::Takasia;
use crate::types::{Move, MoveKind, MoveSpec, Pit, Row, Sign, Stage, HOUSE_RING};

impl Position {
    /// Whether `mv` is legal here: the same answer as `legal_moves().contains(mv)`, found
    /// without generating every legal move. A capture is legal when it is a candidate by
    /// its first lap and its run is finite (and, under priority, takes the reserved pit when
    /// another capture does); a takasa when no capture is legal and its pit is allowed.
    #[must_use]
    pub fn is_legal(&self, mv: &Move) -> bool {
        self.is_legal_in(mv, &mut Engine::new())
    }

    /// [`Position::is_legal`] with the caller's engine.
    pub(crate) fn is_legal_in(&self, mv: &Move, cx: &mut Engine) -> bool {
        self.legal_run(mv, &mut (), cx).is_some()
    }

    /// Decides whether `mv` is legal, running it (with `tracer`) once; the run when legal.
    pub(crate) fn legal_run<T: Tracer>(
        &self,
        mv: &Move,
        tracer: &mut T,
        cx: &mut Engine,
    ) -> Option<Run> {
        let mut run = Run::UNPLAYED;
        self.legal_run_into(mv, tracer, &mut run, cx).then_some(run)
    }

    /// [`Position::legal_run`] into a slot the caller keeps (written where it is read next,
    /// not copied there): whether `mv` is legal; `out` then holds its run.
    pub(crate) fn legal_run_into<T: Tracer>(
        &self,
        mv: &Move,
        tracer: &mut T,
        out: &mut Run,
        cx: &mut Engine,
    ) -> bool {
        self.legal_run_with(
            mv,
            |pos, out, cx| execute_into(pos, *mv, tracer, out, cx),
            None,
            out,
            cx,
        )
        .is_some()
    }

    /// [`Position::legal_run`] with the move's own run stopped where never-ending detection
    /// would begin (64 laps, untraced), into a slot the caller keeps: whether `mv` may be
    /// legal; `out` then holds its run, whose finish is [`Finish::Undecided`] when it was
    /// still going then, and legality is not decided (the caller decides it with
    /// [`Position::legal_run`]). `known`: this position's note when the caller holds it
    /// ([`crate::Noted`]); `None` asks the engine for the note it keeps.
    pub(crate) fn legal_run_quick_into(
        &self,
        mv: &Move,
        known: Option<&Known>,
        out: &mut Run,
        cx: &mut Engine,
    ) -> bool {
        self.legal_run_with(
            mv,
            |pos, out, cx| execute_quick_into(pos, *mv, out, cx),
            known,
            out,
            cx,
        )
        .is_some()
    }

    /// [`Position::legal_run_into`] with the move's own run made by `run` into `out`
    /// (called at most once): `None` for an illegal move. `known`: as for
    /// [`Position::legal_run_quick_into`].
    #[inline(always)]
    fn legal_run_with(
        &self,
        mv: &Move,
        run: impl FnOnce(&Self, &mut Run, &mut Engine),
        known: Option<&Known>,
        out: &mut Run,
        cx: &mut Engine,
    ) -> Option<()> {
        if self.ended.is_some() || self.front_row_outcome().is_some() {
            return None;
        }
        let side = self.to_move;
        if mv.pit.side() != side {
            return None;
        }
        let own_run = move |cx: &mut Engine| {
            run(self, out, cx);
            (!self.run_is_illegal(out)).then_some(out)
        };
        match self.stage() {
            Stage::Namua => {
                if mv.is_capture() {
                    // Whether the move is a candidate depends on its own pit only.
                    let cands = self.namua_capture_candidates_from(PitSet::single(mv.pit.ring()));
                    let plain = mv.with_kind(MoveKind::Capture);
                    if !cands.contains(&plain) {
                        return None;
                    }
                    if mv.is_safari() {
                        // Only how the plain capture ends is read: nothing is written out.
                        let (finish, stopped_at_house) = finish_of(self, plain, cx);
                        if self.finish_is_illegal(finish) || !stopped_at_house {
                            return None;
                        }
                    }
                    return own_run(cx).map(drop);
                }
                // A takasa this position's end test decided legal (`Known`, the note `play`
                // leaves in the position it returns) needs only its run: the captures were
                // decided illegal then, which is what is costly to find again.
                if noted_legal(self, mv, known, cx) {
                    return own_run(cx).map(drop);
                }
                let cands = self.namua_capture_candidates();
                let placements = self.namua_placements();
                if !placements.contains(mv.pit.ring()) || self.any_legal(&cands, cx) {
                    return None;
                }
                own_run(cx).map(drop)
            }
            Stage::Mtaji => {
                if mv.is_capture() {
                    // Whether the move is a candidate depends on its own pit only; the other
                    // candidates matter only under priority.
                    let own = self.mtaji_capture_candidates_at(side, mv.pit.ring());
                    if !own.contains(mv) {
                        return None;
                    }
                    let run = own_run(cx)?;
                    if run.finish == Finish::Undecided {
                        // A quick run still going: what it captures is not known yet.
                        return Some(());
                    }
                    // A candidate exists (this one), so priority applies when the rules give it.
                    let priority = self.priority_pit();
                    if let Some(h) = priority.filter(|&h| run.captured_mask & (1 << h) == 0) {
                        let cands = self.mtaji_capture_candidates(side);
                        // Not taking the reserved pit: legal only when no capture does.
                        if self.rules.takasia == Takasia::AbstractPlay {
                            return None;
                        }
                        let another_takes = cands.iter().any(|c| {
                            let r = self.simulate(c, cx);
                            !self.run_is_illegal(&r) && r.captured_mask & (1 << h) != 0
                        });
                        if another_takes {
                            return None;
                        }
                    }
                    return Some(());
                }
                // As in namua: a takasa the end test decided legal.
                if noted_legal(self, mv, known, cx) {
                    return own_run(cx).map(drop);
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
                        || self.any_legal(&cands, cx))
                {
                    return None;
                }
                if self.kuu_first(cx) {
                    if mv.pit == Pit::nyumba(side) {
                        return own_run(cx).map(drop);
                    }
                    let kuu = MoveSet {
                        bits: takasa_bits(HOUSE_RING),
                        ..takasas
                    };
                    if self.any_legal(&kuu, cx) {
                        return None;
                    }
                }
                let allowed = MoveSet {
                    bits: self.mtaji_takasa_bits(cx),
                    ..takasas
                };
                if !allowed.contains(mv) {
                    return None;
                }
                own_run(cx).map(drop)
            }
        }
    }

    /// Resolves a written move (sign or `*` left out where forced) against this position:
    /// the one decision of what a written move stands for, used by every reader of moves
    /// (the replay of a record, `bao replay`, a live session).
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
    /// ([`ResolveError::Ambiguous`]: the sign is needed). A namua move from the mover's back
    /// row is refused by N1 before anything is sown; a token written without `*` where no
    /// capture exists is read as the takasa, and when that takasa never ends the refusal is
    /// G11 with its cycle (spec/notation.md, "Leaving out `*`"). Under every
    /// `endless_move` option the reasons are those of the rules in force.
    pub fn resolve(&self, spec: &MoveSpec) -> Result<Move, ResolveError> {
        self.resolve_in(spec, &mut Engine::new())
    }

    /// [`Position::resolve`] with the caller's engine.
    pub(crate) fn resolve_in(
        &self,
        spec: &MoveSpec,
        cx: &mut Engine,
    ) -> Result<Move, ResolveError> {
        if self.stage() == Stage::Namua
            && spec.pit.side() == self.to_move
            && spec.pit.row() == Row::Back
            && self.outcome_in(cx).is_none()
        {
            return Err(ResolveError::Illegal(PlayError {
                mv: spec_reading(spec, Sign::Left),
                reason: IllegalReason::NamuaBackRow { pit: spec.pit },
            }));
        }
        let legal = self.legal_moves_in(cx);
        let matches: Vec<Move> = legal.iter().copied().filter(|m| spec.matches(m)).collect();
        match matches.as_slice() {
            [one] => Ok(*one),
            [] => {
                let mv = spec_reading(spec, Sign::Left);
                let err = if spec.sign.is_none() {
                    let other = spec_reading(spec, Sign::Right);
                    let e1 = self.diagnose_in(&mv, cx);
                    if matches!(e1.reason, IllegalReason::KichwaNotChoosable { .. }) {
                        self.diagnose_in(&other, cx)
                    } else {
                        e1
                    }
                } else {
                    self.diagnose_in(&mv, cx)
                };
                let err = match err.reason {
                    IllegalReason::NeverEnding(_) => err,
                    _ => self
                        .never_ending_takasa_reading(spec, &legal, cx)
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
    fn never_ending_takasa_reading(
        &self,
        spec: &MoveSpec,
        legal: &[Move],
        cx: &mut Engine,
    ) -> Option<PlayError> {
        let no_capture = legal.first().is_some_and(|m| m.is_takasa());
        if spec.takasa || spec.safari || !no_capture {
            return None;
        }
        let signs: &[Sign] = match spec.sign {
            Some(Sign::Left) => &[Sign::Left],
            Some(Sign::Right) => &[Sign::Right],
            None => &[Sign::Left, Sign::Right],
        };
        signs.iter().find_map(|&sign| {
            let takasa = Move::takasa(spec.pit, sign);
            let e = self.diagnose_in(&takasa, cx);
            matches!(e.reason, IllegalReason::NeverEnding(_)).then_some(e)
        })
    }

    /// Explains why a move is not legal here: the reason of the first rule it breaks, in
    /// the order of `spec/rules.md`'s checks (the game's end, the pit, the stage, the
    /// captures, the sowing). Meant for a move [`Position::play_into`] or [`Position::is_legal`] refused; for a
    /// legal move the answer is meaningless.
    #[must_use]
    pub fn diagnose(&self, mv: &Move) -> PlayError {
        self.diagnose_in(mv, &mut Engine::new())
    }

    /// [`Position::diagnose`] with the caller's engine.
    pub(crate) fn diagnose_in(&self, mv: &Move, cx: &mut Engine) -> PlayError {
        let fail = |reason| PlayError { mv: *mv, reason };
        let side = self.to_move;
        let a = self.analyse(None, cx);
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
        } else if count < MTAJI_MIN_SEEDS {
            return fail(IllegalReason::TooFewSeeds { pit: mv.pit, count });
        }
        if mv.is_takasa() && !captures.is_empty() {
            return fail(IllegalReason::CaptureMandatory { captures });
        }
        // Only a move of the right shape is run: a namua capture needs seeds facing it.
        let no_namua_capture = stage == Stage::Namua
            && mv.is_capture()
            && mv.pit.facing().is_none_or(|f| self.get(f) == 0);
        let run = (!no_namua_capture).then(|| self.simulate(*mv, cx));
        if let Some(run) = run.filter(|r| self.run_is_illegal(r)) {
            return fail(match run.finish {
                Finish::NeverEnding(ne) => IllegalReason::NeverEnding(ne),
                _ => IllegalReason::FrontRowGuard { mover: side },
            });
        }
        if mv.is_capture() {
            let as_takasa = mv.with_kind(MoveKind::Takasa);
            if mv.is_safari() {
                let plain = mv.with_kind(MoveKind::Capture);
                if captures.contains(&plain) {
                    return fail(IllegalReason::SafariWithoutHouse { plain });
                }
            }
            if stage == Stage::Namua && mv.pit.facing().is_some_and(|f| self.get(f) > 0) {
                if let Some(forced) = forced_kichwa(mv.pit.ring()).filter(|f| *f != mv.sign) {
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
            if self.capture_excluded(side) == Some(mv.pit.ring()) {
                return fail(IllegalReason::TakasiaPit { pit: mv.pit });
            }
            return fail(IllegalReason::NotACapture { captures });
        }
        // A takasa while no capture exists.
        if stage == Stage::Namua {
            let placements = self.namua_placements();
            if !placements.contains(mv.pit.ring()) {
                let functional = self.house_state(side) == crate::HouseState::Functional;
                return fail(if functional && mv.pit == Pit::nyumba(side) {
                    IllegalReason::NamuaHousePlacement { pit: mv.pit }
                } else {
                    IllegalReason::NamuaPlacement { pit: mv.pit }
                });
            }
        } else {
            let m = side.index();
            // A stored takasia only: AbstractPlay's block recomputed from a position's
            // last-move flag (`takasa_excluded`) is refused as not legal, the one record
            // that reaches `not_legal` (spec/diagnostics.md).
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

/// The move a spec is read as when no legal move matches it: its sign, or `unwritten` when
/// none is written. A spec with both `*` and `+` (no reader makes one) is no move: it is
/// explained as the takasa it claims to be.
fn spec_reading(spec: &MoveSpec, unwritten: Sign) -> Move {
    let kind = MoveKind::from_suffixes(spec.takasa, spec.safari).unwrap_or(MoveKind::Takasa);
    Move::new(spec.pit, spec.sign.unwrap_or(unwritten), kind)
}

/// Whether the end test of `pos` noted `mv` legal: by the note the caller holds (`known`),
/// or else by the one the engine keeps.
#[inline(always)]
fn noted_legal(pos: &Position, mv: &Move, known: Option<&Known>, cx: &Engine) -> bool {
    match known {
        Some(known) => known.notes_legal(pos, mv),
        None => cx.notes_legal(pos, mv),
    }
}
