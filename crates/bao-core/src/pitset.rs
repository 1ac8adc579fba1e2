//! Sets of pits of one ring as bits ([`PitSet`]), and the byte-parallel seed counts that
//! build them: all eight pits of a row compared with one addition.

use std::ops::{BitAnd, BitOr, Not};

use crate::engine::front_word;
use crate::types::{RING, ROW_PITS};

/// One in every byte of a word.
const LOW_BYTES: u64 = u64::from_le_bytes([1; 8]);

/// A set of pits of one side's ring: bit `r` stands for ring index `r` (front row
/// `0..ROW_PITS`, back row `ROW_PITS..RING`). Sets are combined with `&`, `|` and `!`, and
/// cost no more than the `u16` inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct PitSet(u16);

impl PitSet {
    /// No pit.
    pub(crate) const EMPTY: Self = Self(0);
    /// The front row.
    pub(crate) const FRONT: Self = Self((1 << ROW_PITS) - 1);
    /// The back row.
    pub(crate) const BACK: Self = Self(!Self::FRONT.0);

    /// The set of the one pit at ring index `r` (below [`RING`]).
    #[inline]
    pub(crate) const fn single(r: usize) -> Self {
        Self(1 << r)
    }

    /// The bits: bit `r` set for ring index `r`.
    #[inline]
    pub(crate) const fn bits(self) -> u16 {
        self.0
    }

    /// Whether ring index `r` is in the set.
    #[inline]
    pub(crate) const fn contains(self, r: usize) -> bool {
        r < RING && self.0 & (1 << r) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of pits in the set.
    #[inline]
    pub(crate) const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The set without ring index `r`.
    #[inline]
    pub(crate) const fn without(self, r: usize) -> Self {
        Self(self.0 & !(1 << r))
    }

    /// The ring indices in the set, in increasing order.
    #[inline]
    pub(crate) fn iter(self) -> impl Iterator<Item = usize> {
        let mut b = self.0;
        std::iter::from_fn(move || {
            (b != 0).then(|| {
                let r = b.trailing_zeros() as usize;
                b &= b - 1;
                r
            })
        })
    }

    /// The pits of `ring` holding at least `min` seeds.
    #[inline]
    pub(crate) fn holding(ring: &[u8; RING], min: u8) -> Self {
        Self(pits_holding(ring, min) as u16)
    }

    /// The front pits of `ring` holding at least `min` seeds (the back row not looked at).
    #[inline]
    pub(crate) fn front_holding(ring: &[u8; RING], min: u8) -> Self {
        Self(bytes_at_least(front_word(ring), min) as u16)
    }

    /// The front pits of `own` that are occupied and face an occupied pit of `opp` (own
    /// ring index `i` faces the opponent's `7 - i`): where a lap can capture.
    #[inline]
    pub(crate) fn facing_seeds(own: &[u8; RING], opp: &[u8; RING]) -> Self {
        Self(facing_seeds(own, opp) as u16)
    }
}

impl BitAnd for PitSet {
    type Output = Self;
    #[inline]
    fn bitand(self, rhs: Self) -> Self {
        Self(self.0 & rhs.0)
    }
}

impl BitOr for PitSet {
    type Output = Self;
    #[inline]
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

impl Not for PitSet {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Self(!self.0)
    }
}

/// Bit i set when byte i of `x` holds at least `min`, every byte holding at most 64 seeds
/// ([`TOTAL_SEEDS`](crate::TOTAL_SEEDS)): all eight compared at once (adding `128 - min`
/// sets a byte's high bit exactly when it holds `min` or more, and no byte carries into the
/// next), the high bits then gathered by one multiplication.
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
    bytes_at_least(front_word(ring), min) | bytes_at_least(back_word(ring), min) << ROW_PITS
}

/// The front pits (ring indices, as bits) of `own` that are occupied and face an occupied
/// pit of `opp` (own ring index i faces the opponent's 7 - i): where a lap can capture.
#[inline]
fn facing_seeds(own: &[u8; RING], opp: &[u8; RING]) -> u32 {
    bytes_at_least(front_word(own), 1) & bytes_at_least(front_word(opp).swap_bytes(), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
