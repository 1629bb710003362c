//! The deal's random source.
//!
//! TurboBASIC's `RAND(N)` reads POKEY's free-running RANDOM register, which depends on the cycle at
//! which it is read and so cannot be reproduced from a seed. This is a small seeded generator of
//! our own (SplitMix64) so that every deal is reproducible from its seed. It is *not* Atari's RNG:
//! seed S here gives no deal the Atari ever dealt.

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, every seed a good stream.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator started from `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
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
