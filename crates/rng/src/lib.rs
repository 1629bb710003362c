//! SplitMix64 (Steele, Lea and Flood, 2014): the workspace's one seeded generator.
//!
//! Every seeded thing in playfield draws from it: the standard game's pieces, the minijong deals,
//! the NES players' per-game seeds and the test movies. It is small, fast and well mixed, and
//! each stream is fully determined by its seed, so every game, deal and movie replays from its
//! seed alone. It is not a cryptographic generator.

/// SplitMix64: a 64-bit state that advances by a fixed odd constant and is mixed on output.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `next_u64() % n`: cheap and, for the small `n` of menus and input styles, as good as
    /// uniform (the modulo bias is below 2^-50). `n == 0` counts as 1.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// Uniform (as [`SplitMix64::below`]) in `lo..=hi`.
    ///
    /// # Panics
    /// If `hi < lo`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        lo + (self.next_u64() % (hi - lo + 1) as u64) as usize
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// One of `items`, each as likely.
    ///
    /// # Panics
    /// If `items` is empty.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.range(0, items.len() - 1)]
    }
}

/// One SplitMix64 step from `z`: a well-mixed function of a seed, for deriving seeds (a game's
/// seed from a run's, a wait from a game's). Equal to `SplitMix64::new(z).next_u64()`.
#[must_use]
pub const fn split_mix(z: u64) -> u64 {
    let mut z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_output() {
        // The first outputs of SplitMix64 from seed 1234567 in the reference implementation
        // (Vigna's splitmix64.c).
        let mut g = SplitMix64::new(1_234_567);
        let first: Vec<u64> = (0..5).map(|_| g.next_u64()).collect();
        assert_eq!(
            first,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821,
            ]
        );
    }

    #[test]
    fn split_mix_is_one_step() {
        for seed in [0, 1, 42, u64::MAX] {
            assert_eq!(split_mix(seed), SplitMix64::new(seed).next_u64());
        }
    }

    #[test]
    fn ranges_stay_in_bounds() {
        let mut g = SplitMix64::new(9);
        for _ in 0..1_000 {
            assert!((3..=7).contains(&g.range(3, 7)));
            assert!(g.below(5) < 5);
            assert_eq!(g.below(0), 0);
        }
        assert_eq!(g.pick(&[4]), 4);
    }
}
