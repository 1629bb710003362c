//! The deal's random source.
//!
//! TurboBASIC's `RAND(N)` reads POKEY's free-running RANDOM register, which depends on the cycle at
//! which it is read and so cannot be reproduced from a seed. This is a small seeded generator of
//! our own (SplitMix64) so that every deal is reproducible from its seed. It is *not* Atari's RNG:
//! seed S here gives no deal the Atari ever dealt.

use playfield_rng::SplitMix64;

/// The workspace's SplitMix64 with TurboBASIC's `RAND(N)` on top.
#[derive(Debug, Clone)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator started from `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self(SplitMix64::new(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// `RAND(n)`: uniform in `0..n` (rejection sampling, no modulo bias). `n == 0` gives 0.
    pub fn rand(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Reject the top partial block so every residue is equally likely.
        let zone = u64::MAX - (u64::MAX % n + 1) % n;
        loop {
            let x = self.next_u64();
            if x <= zone {
                return x % n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_in_range() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for n in 1..200 {
            let x = a.rand(n);
            assert_eq!(x, b.rand(n));
            assert!(x < n);
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }

    #[test]
    fn rand_covers_every_value() {
        let mut r = Rng::new(7);
        let mut seen = [false; 83];
        for _ in 0..10_000 {
            seen[r.rand(83) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
