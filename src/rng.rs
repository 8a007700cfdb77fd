//! A small deterministic random-number generator, SplitMix64 (Steele, Lea, Flood 2014,
//! "Fast splittable pseudorandom number generators", OOPSLA), for what the crate draws at
//! random: the element of the Fischer-Burmeister B-subdifferential at a kink
//! ([`crate::newton::KinkStrategy::Random`]) and the bodies of the generated pile scene.
//!
//! A fixed, documented stream (the same numbers on every machine and in every version)
//! matters more here than statistical quality, and no random-number crate's sampling
//! algorithm may change a generated scene; this module imports nothing from the crate.

/// SplitMix64: 64 bits of state, full period `2^64`, passes BigCrush.
///
/// ```
/// use nonsmooth::rng::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// let x = a.next_f64();
/// assert!((0.0..1.0).contains(&x));
/// assert_eq!(x, b.next_f64()); // the same seed, the same stream
/// ```
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator whose state is `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`: the top 53 bits of [`SplitMix64::next_u64`] over `2^53`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)`: `lo + (hi - lo) u` with `u` from [`SplitMix64::next_f64`].
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }

    /// Uniform in `0..n` for `n > 0`, by the remainder (its bias, below `n / 2^64`, does
    /// not matter for what the crate draws).
    ///
    /// # Panics
    /// If `n == 0`.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "SplitMix64::below(0)");
        (self.next_u64() % n as u64) as usize
    }
}
