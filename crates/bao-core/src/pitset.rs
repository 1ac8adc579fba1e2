//! Pit-set bits: the pits of a ring holding at least so many seeds, all compared at once.

use crate::engine::front_word;
use crate::types::RING;

/// One in every byte of a word.
const LOW_BYTES: u64 = u64::from_le_bytes([1; 8]);

/// Bit i set when byte i of `x` holds at least `min`, every byte holding at most 64 seeds:
/// all eight compared at once (adding `128 - min` sets a byte's high bit exactly when it
/// holds `min` or more, and no byte carries into the next), the high bits then gathered by
/// one multiplication.
#[inline]
pub(crate) fn bytes_at_least(x: u64, min: u8) -> u32 {
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
pub(crate) fn back_word(ring: &[u8; RING]) -> u64 {
    let [.., a, b, c, d, e, f, g, h] = *ring;
    u64::from_le_bytes([a, b, c, d, e, f, g, h])
}

/// The ring pits (as bits) holding at least `min` seeds.
#[inline]
pub(crate) fn pits_holding(ring: &[u8; RING], min: u8) -> u32 {
    bytes_at_least(front_word(ring), min) | bytes_at_least(back_word(ring), min) << 8
}

/// The front pits (ring indices, as bits) of `own` that are occupied and face an occupied
/// pit of `opp` (own ring index i faces the opponent's 7 - i): where a lap can capture.
#[inline]
pub(crate) fn facing_seeds(own: &[u8; RING], opp: &[u8; RING]) -> u32 {
    bytes_at_least(front_word(own), 1) & bytes_at_least(front_word(opp).swap_bytes(), 1)
}
