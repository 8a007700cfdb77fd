//! A small seeded generator: the crate's SplitMix64 ([`nonsmooth::rng`]), so the corpus
//! is the same on every machine and every run, and does not depend on a crate's sampling
//! algorithm changing.

pub use nonsmooth::rng::SplitMix64 as Rng;

/// One element of a non-empty slice.
pub fn pick<'a, T>(rng: &mut Rng, xs: &'a [T]) -> &'a T {
    &xs[rng.below(xs.len())]
}
