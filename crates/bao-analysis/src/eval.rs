//! The static evaluation: how good a position is for the side to move, in centi-seeds
//! (100 = one seed more than the opponent). spec/engine.md, "Evaluation", lists the terms.

use bao_core::{HouseState, Pit, Position, Row, Side};

/// One seed, in evaluation units.
pub const SEED: i32 = 100;

/// The weights of the evaluation terms, each in centi-seeds per unit of its term.
///
/// [`Weights::default`] is the tuned set (spec/engine.md says how it was tuned).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights {
    /// Per seed a side owns (board and reserve).
    pub material: i32,
    /// Per seed on the front row (the seeds that capture, and the ones that can be taken).
    pub front: i32,
    /// Per occupied front pit (a front row nearly empty is close to bao hamna).
    pub front_pits: i32,
    /// Per seed of the largest opponent front pit facing an occupied pit of ours: roughly
    /// the best capture the side to move threatens.
    pub threat: i32,
    /// Per seed of our largest front pit facing an occupied opponent pit: what the
    /// opponent threatens after our move.
    pub exposed: i32,
    /// A functional house (nyumba/kuu holding 6 or more, not destroyed).
    pub house: i32,
    /// Per pit holding two seeds or more (a pit a mtaji move can start from): mobility.
    pub mobility: i32,
    /// Per seed still in the reserve (namua), beyond its material.
    pub hand: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Self {
            material: SEED,
            front: 4,
            front_pits: 0,
            threat: 40,
            exposed: 25,
            house: 30,
            mobility: 0,
            hand: 5,
        }
    }
}

/// One side's figures, as the evaluation reads them.
#[derive(Debug, Default, Clone, Copy)]
struct Side4 {
    owned: i32,
    front: i32,
    front_pits: i32,
    movable: i32,
    hand: i32,
    house: bool,
}

fn figures(pos: &Position, side: Side) -> Side4 {
    let mut f = Side4 {
        hand: i32::from(pos.hand(side)),
        ..Side4::default()
    };
    f.owned = f.hand;
    for n in 1..=8 {
        for row in [Row::Front, Row::Back] {
            let Some(pit) = Pit::new(side, row, n) else {
                continue;
            };
            let s = i32::from(pos.get(pit));
            f.owned += s;
            if s >= 2 {
                f.movable += 1;
            }
            if row == Row::Front {
                f.front += s;
                f.front_pits += i32::from(s > 0);
            }
        }
    }
    f.house = pos.house_state(side) == HouseState::Functional;
    f
}

/// The largest front pit of `victim` facing an occupied front pit of the other side.
fn largest_facing(pos: &Position, victim: Side) -> i32 {
    (1..=8)
        .filter_map(|n| Pit::new(victim, Row::Front, n))
        .filter(|p| p.facing().is_some_and(|f| pos.get(f) > 0))
        .map(|p| i32::from(pos.get(p)))
        .max()
        .unwrap_or(0)
}

/// The evaluation of `pos` from the side to move's view, with `w`.
#[must_use]
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let me = pos.to_move();
    let (a, b) = (figures(pos, me), figures(pos, me.opponent()));
    let mut score = w.material * (a.owned - b.owned)
        + w.front * (a.front - b.front)
        + w.front_pits * (a.front_pits - b.front_pits)
        + w.mobility * (a.movable - b.movable)
        + w.hand * (a.hand - b.hand)
        + w.house * (i32::from(a.house) - i32::from(b.house));
    score += w.threat * largest_facing(pos, me.opponent());
    score -= w.exposed * largest_facing(pos, me);
    score
}

/// The evaluation of `pos` from the side to move's view, with the default weights.
#[must_use]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Weights::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_core::RuleSet;

    #[test]
    fn the_start_is_even_and_a_seed_ahead_is_worth_about_a_seed() {
        let start = Position::start(RuleSet::KISWAHILI);
        assert_eq!(evaluate(&start), 0);
        // After South's first capture South (now not to move) is ahead: North's view is worse.
        let next = start.play_fast(&start.legal_moves()[0]);
        assert!(evaluate(&next) < 0, "{}", evaluate(&next));
    }
}
