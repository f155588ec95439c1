//! A small seeded random generator (Steele, Lea and Flood's SplitMix64):
//! the same seed gives the same numbers on every machine and in every
//! version, which the size estimate, `play` and `simulate` rely on.

/// SplitMix64: one `u64` of state, a fixed increment and a mixing step.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The generator of stream `stream` of `seed`: its state is a mix of
    /// both, so that streams start far apart in the generator's cycle
    /// (seeding stream `k` with `seed + k` would make it the next stream
    /// shifted by one step).
    pub fn stream(seed: u64, stream: u64) -> SplitMix64 {
        SplitMix64(seed ^ SplitMix64(stream).next())
    }

    /// The next 64 random bits.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number in [0, 1) with 53 random bits.
    #[inline]
    pub fn uniform(&mut self) -> f64 {
        (self.next() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    /// The first outputs for seed 1234567 of the reference C code
    /// (splitmix64.c by Sebastiano Vigna, in xoshiro's sources).
    #[test]
    fn matches_the_reference_outputs() {
        let mut rng = SplitMix64(1234567);
        let got: Vec<u64> = (0..3).map(|_| rng.next()).collect();
        assert_eq!(got, [6457827717110365317, 3203168211198807973, 9817491932198370423]);
    }

    #[test]
    fn uniform_numbers_are_in_the_unit_interval_and_streams_differ() {
        let mut rng = SplitMix64::stream(7, 0);
        assert!((0..1000).all(|_| (0.0..1.0).contains(&rng.uniform())));
        assert_ne!(SplitMix64::stream(7, 0).next(), SplitMix64::stream(7, 1).next());
    }
}
