//! Takasia detection (T1, T2; A.4.6): which pit of the victim a takata blocks, in the
//! standard reading and in AbstractPlay's.

use crate::context::Engine;
use crate::engine::{finish_of, lap_end};
use crate::pitset::PitSet;
use crate::position::{House, Position, HOUSE_THRESHOLD};
use crate::types::{Move, HOUSE_RING};

impl Position {
    /// AbstractPlay recomputes the takasia exclusion of the side to move at generation time.
    pub(crate) fn abstractplay_exclusion(&self, cx: &mut Engine) -> Option<usize> {
        if !self.last_move_takasa || self.hands != [0, 0] {
            return None;
        }
        let mut as_blocker = *self;
        as_blocker.to_move = self.to_move.opponent();
        as_blocker.abstractplay_detect(cx).map(usize::from)
    }

    /// AbstractPlay `getBlocked` with the side to move as the blocker X: the pit of Y that
    /// every capture of X takes first.
    pub(crate) fn abstractplay_detect(&self, cx: &mut Engine) -> Option<u8> {
        let priority = self.priority_pit();
        let mut first: Option<Option<u8>> = None;
        for mv in self.mtaji_capture_candidates(self.to_move).iter() {
            let run = self.simulate(mv, cx);
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
        let functional_house = self.rules.houses
            && h == HOUSE_RING
            && self.houses[y.index()] == House::Owned
            && yr[HOUSE_RING] >= HOUSE_THRESHOLD;
        let occupied = PitSet::front_holding(yr, 1).len();
        let only_occupied = occupied == 1 && yr[h] > 0;
        let only_multi = yr[h] >= 2 && PitSet::front_holding(yr, 2).len() == 1;
        functional_house || only_occupied || only_multi
    }

    /// Standard takasia (T1, T2; A.4.6): after the blocker's mtaji takasa, with the blocker
    /// to move on `self`; only when the victim is in mtaji too. Cheap first-lap tests come
    /// first; moves are run only where a never-ending capture could change the answer.
    pub(crate) fn standard_detect(&self, cx: &mut Engine) -> Option<u8> {
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
            7 - lap_end(mv.pit.ring(), n, mv.sign.sowing_direction(mv.pit.row()))
        };
        let h = first(cands.first()?);
        let agree = cands.iter().all(|mv| first(mv) == h);
        if !agree {
            // Only finite captures count: keep them, and they must still agree.
            for b in cands.bit_iter() {
                // Only how the run ends is read: nothing is written out.
                if self.finish_is_illegal(finish_of(self, cands.move_at(b), cx).0) {
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
        if victim.any_legal(&victim.mtaji_capture_candidates(victim.to_move), cx) {
            return None;
        }
        if agree && !self.any_legal(&cands, cx) {
            return None;
        }
        Some(h as u8)
    }
}
