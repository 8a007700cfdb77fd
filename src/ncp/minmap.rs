use super::NcpFunction;

/// The minimum map `phi(a, b) = min(a, b)` (Erleben 2009 slides eq. 25; Macklin et al.
/// 2019 §4.1).
///
/// Why it works: if `min(a, b) = 0` then both are `>= 0` and one of them is zero; the
/// table on slide "The Minimum Map Formulation" checks the nine sign cases.
///
/// B-subdifferential: `(1, 0)` where `a < b`, `(0, 1)` where `a > b`. At the kink `a = b`
/// both are limits of gradients; we return **`(1, 0)`**, the derivative of the first
/// argument. In an LCP `phi(x, w)` that marks the row *inactive* (the Newton step drives
/// `x_i` to zero), the choice of num4lcp (Niebe and Erleben 2015).
///
/// ```
/// use nonsmooth::ncp::{MinMap, NcpFunction};
/// assert_eq!(MinMap::value(0.0, 3.0), 0.0);
/// assert_eq!(MinMap::grad(2.0, 2.0), (1.0, 0.0));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct MinMap;

impl NcpFunction for MinMap {
    const NAME: &'static str = "min";

    #[inline]
    fn value(a: f64, b: f64) -> f64 {
        a.min(b)
    }

    #[inline]
    fn grad(a: f64, b: f64) -> (f64, f64) {
        if a <= b { (1.0, 0.0) } else { (0.0, 1.0) }
    }
}
