//! Position keys: a Zobrist hash over everything that decides a position's future (pits,
//! hands, houses, takasia marks, the side to move and the takasa flag AbstractPlay's takasia
//! reads), for the search's transposition table, and [`Key`], the exact compact form the
//! solver's proof table compares.

use bao_core::{HouseState, Pit, Position, Side};

/// The exact state of a position under fixed rules, compact: pits (board order, South ring
/// then North ring), hands, house states, takasia'd pits, side to move and whether the last
/// move was a takasa. Two positions with equal keys have the same legal moves and futures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pits: [u8; 32],
    /// hands (2), houses (2), blocked pits (2, 0 = none), side to move, takasa flag.
    rest: [u8; 8],
}

const fn house_code(h: HouseState) -> u8 {
    match h {
        HouseState::Functional => 0,
        HouseState::Dormant => 1,
        HouseState::Destroyed => 2,
        HouseState::None => 3,
    }
}

/// The pits of a position in a fixed order (index `side * 16 + ring`).
fn pit_index(pit: Pit) -> usize {
    pit.side().index() * 16 + pit.ring()
}

impl Key {
    /// The key of a position.
    #[must_use]
    pub fn of(pos: &Position) -> Self {
        let mut pits = [0u8; 32];
        for pit in Pit::all() {
            pits[pit_index(pit)] = pos.get(pit);
        }
        let blocked = |s: Side| pos.blocked_pit(s).map_or(0, |p| p.ring() as u8 + 1);
        Self {
            pits,
            rest: [
                pos.hand(Side::South),
                pos.hand(Side::North),
                house_code(pos.house_state(Side::South)),
                house_code(pos.house_state(Side::North)),
                blocked(Side::South),
                blocked(Side::North),
                pos.to_move().index() as u8,
                u8::from(pos.last_move_takasa()),
            ],
        }
    }

    /// The Zobrist hash of this key.
    #[must_use]
    pub fn zobrist(&self) -> u64 {
        let z = &*ZOBRIST;
        let mut h = 0u64;
        for (i, &n) in self.pits.iter().enumerate() {
            h ^= z.pits[i][usize::from(n.min(64))];
        }
        for (i, &v) in self.rest.iter().enumerate() {
            h ^= z.rest[i][usize::from(v.min(64))];
        }
        h
    }
}

/// The Zobrist hash of a position: [`Key::zobrist`] of its [`Key`].
#[must_use]
pub fn zobrist(pos: &Position) -> u64 {
    Key::of(pos).zobrist()
}

/// The random numbers: one per (pit, count) and per (field, value).
struct Tables {
    pits: [[u64; 65]; 32],
    rest: [[u64; 65]; 8],
}

/// `SplitMix64`: a fixed sequence, so that keys (and so searches) are the same in every run.
const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

static ZOBRIST: std::sync::LazyLock<Tables> = std::sync::LazyLock::new(|| {
    let mut state = 0x0BA0_5EED_u64;
    let mut t = Tables {
        pits: [[0; 65]; 32],
        rest: [[0; 65]; 8],
    };
    for row in &mut t.pits {
        for v in row.iter_mut() {
            *v = splitmix(&mut state);
        }
    }
    for row in &mut t.rest {
        for v in row.iter_mut() {
            *v = splitmix(&mut state);
        }
    }
    t
});

#[cfg(test)]
mod tests {
    use super::*;
    use bao_core::RuleSet;

    #[test]
    fn keys_tell_apart_positions_that_differ_in_side_to_move_or_hands() {
        let start = Position::start(RuleSet::KISWAHILI);
        let mut setup = start.to_setup();
        setup.to_move = Side::North;
        let north = Position::from_setup(setup).expect("valid");
        assert_ne!(Key::of(&start), Key::of(&north));
        assert_ne!(zobrist(&start), zobrist(&north));
        let after = start.play_fast(&start.legal_moves()[0]);
        assert_ne!(zobrist(&start), zobrist(&after));
        assert_eq!(
            zobrist(&start),
            zobrist(&Position::start(RuleSet::KISWAHILI))
        );
    }
}
