//! `bao-testkit`: the deterministic pseudo-random generators of the workspace's tests,
//! benchmarks, examples and fuzz checks, in one place and without dependencies.
//!
//! None of them is for anything but reproducible test data: the same seed gives the same
//! stream on every machine and every run, so a failing random game can be replayed. Each
//! generator keeps the exact algorithm the tests were written against, because some of
//! them assert on counts or fingerprints of the stream they draw.
//!
//! ```
//! use bao_testkit::Lcg;
//!
//! // The picker form `Position::random_move` takes: a number below `n`.
//! let mut pick = Lcg::new(7).picker();
//! let first = pick(10);
//! assert!(first < 10);
//! assert_eq!(Lcg::new(7).picker()(10), first);
//! ```
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

/// A 64-bit linear congruential generator with Knuth's MMIX multiplier; a draw below `n`
/// takes bits 33 and up of the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lcg {
    state: u64,
    increment: u64,
}

impl Lcg {
    /// The multiplier (Knuth, MMIX).
    pub const MULTIPLIER: u64 = 6_364_136_223_846_793_005;
    /// The usual increment (Knuth, MMIX).
    pub const INCREMENT: u64 = 1_442_695_040_888_963_407;

    /// A generator from `seed` with the usual increment.
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self::with_increment(seed, Self::INCREMENT)
    }

    /// A generator from `seed` with another (odd) increment.
    #[must_use]
    pub const fn with_increment(seed: u64, increment: u64) -> Self {
        Self {
            state: seed,
            increment,
        }
    }

    /// Advances and returns the whole state.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self
            .state
            .wrapping_mul(Self::MULTIPLIER)
            .wrapping_add(self.increment);
        self.state
    }

    /// A number below `n` (`n` must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() >> 33) as usize % n
    }

    /// The generator as a closure drawing numbers below its argument.
    pub fn picker(mut self) -> impl FnMut(usize) -> usize {
        move |n| self.below(n)
    }
}

/// A 32-bit linear congruential generator (Knuth's multiplicative constant 2,654,435,761,
/// increment 1); a draw below `n` takes bits 7 and up of the state. Small and weak: for
/// drawing a few choices from a fuzz or proptest byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lcg32(u32);

impl Lcg32 {
    /// The multiplier.
    pub const MULTIPLIER: u32 = 2_654_435_761;

    /// A generator from `seed`.
    #[must_use]
    pub const fn new(seed: u32) -> Self {
        Self(seed)
    }

    /// Advances and returns the state.
    pub fn next_u32(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(Self::MULTIPLIER).wrapping_add(1);
        self.0
    }

    /// A number below `n` (`n` must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u32() >> 7) as usize % n
    }

    /// The generator as a closure drawing numbers below its argument.
    pub fn picker(mut self) -> impl FnMut(usize) -> usize {
        move |n| self.below(n)
    }
}

/// Marsaglia's xorshift64* (shifts 12, 25, 27, then a multiplication); a draw below `n`
/// takes bits 33 and up of the product.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XorShift64Star(u64);

impl XorShift64Star {
    /// The output multiplier.
    pub const MULTIPLIER: u64 = 0x2545_F491_4F6C_DD1D;

    /// A generator from a nonzero `seed` (zero stays zero).
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// Advances and returns the next output (the state times the multiplier).
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(Self::MULTIPLIER)
    }

    /// A number below `n` (`n` must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() >> 33) as usize % n
    }
}

/// Marsaglia's xorshift64 with shifts 13, 7, 17; the output is the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XorShift64(u64);

impl XorShift64 {
    /// A generator from a nonzero `seed` (zero stays zero).
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// Advances and returns the state.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Marsaglia's xorshift32 with shifts 13, 17, 5; the output is the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XorShift32(u32);

impl XorShift32 {
    /// A generator from a nonzero `seed` (zero stays zero).
    #[must_use]
    pub const fn new(seed: u32) -> Self {
        Self(seed)
    }

    /// Advances and returns the state.
    pub fn next_u32(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs, as the hand-written copies this crate replaced computed them.
    #[test]
    fn streams_are_the_ones_the_tests_were_written_against() {
        let mut s = 1u64;
        let mut lcg = Lcg::new(1);
        for _ in 0..100 {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            assert_eq!(lcg.below(1000), (s >> 33) as usize % 1000);
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut star = XorShift64Star::new(x);
        for _ in 0..100 {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            assert_eq!(star.next_u64(), x.wrapping_mul(0x2545_F491_4F6C_DD1D));
        }
        let mut y = 0x2545_f491u32;
        let mut x32 = XorShift32::new(y);
        for _ in 0..100 {
            y ^= y << 13;
            y ^= y >> 17;
            y ^= y << 5;
            assert_eq!(x32.next_u32(), y);
        }
        let mut k = 200u32;
        let mut lcg32 = Lcg32::new(k);
        for _ in 0..100 {
            k = k.wrapping_mul(2_654_435_761).wrapping_add(1);
            assert_eq!(lcg32.below(37), (k >> 7) as usize % 37);
        }
        let mut z = 12345u64;
        let mut x64 = XorShift64::new(z);
        for _ in 0..100 {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            assert_eq!(x64.next_u64(), z);
        }
    }

    #[test]
    fn an_increment_of_one_differs_from_the_usual() {
        let a = Lcg::new(5).next_u64();
        let b = Lcg::with_increment(5, 1).next_u64();
        assert_eq!(a.wrapping_sub(b), Lcg::INCREMENT - 1);
    }
}
