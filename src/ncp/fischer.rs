use super::NcpFunction;

/// The Fischer-Burmeister function `phi(a, b) = a + b - sqrt(a^2 + b^2)` (Fischer 1992;
/// Macklin et al. 2019 §4.2; Silcowitz et al. 2009 eq. 21 with the opposite sign).
///
/// Why it works: `sqrt(a^2 + b^2) = a + b` squares to `ab = 0` and needs `a + b >= 0`.
///
/// # Evaluation without cancellation
/// When `a + b > 0` the two terms of `a + b - sqrt(a^2 + b^2)` nearly cancel for small
/// `ab`; multiplying by the conjugate gives the equivalent
/// `2ab / (a + b + sqrt(a^2 + b^2))`, which loses nothing. When `a + b <= 0` both terms are
/// non-positive and the direct form is exact. `sqrt(a^2 + b^2)` is `hypot`, which does not
/// overflow.
///
/// Arguments beyond `1e±100` are scaled first (`phi(ta, tb) = t phi(a, b)` for `t > 0`), so
/// that `2ab` cannot overflow or underflow. Infinite arguments give the limits: `phi(a, +inf) = a`, `phi(+inf, b) = b`, and
/// `-inf` if either is `-inf`.
///
/// # B-subdifferential
/// Away from the origin the gradient is `(1 - a/h, 1 - b/h)`, `h = sqrt(a^2 + b^2)`. At
/// `(0, 0)` the B-subdifferential is the circle `{(1 - cos t, 1 - sin t)}`; we return
/// **`(1, 0)`** (`t = pi/2`, the limit along `a = 0, b -> 0+`), which marks an LCP row
/// `phi(x, w)` inactive, consistent with [`MinMap`](super::MinMap)'s choice at its kink and
/// with the choice Macklin et al. 2019 report (their arguments are in the other order).
///
/// ```
/// use nonsmooth::ncp::{FischerBurmeister as Fb, NcpFunction};
/// assert_eq!(Fb::value(0.0, 2.0), 0.0);
/// // no cancellation: a tiny product survives
/// let v = Fb::value(1e-20, 1.0);
/// assert!((v - 1e-20).abs() < 1e-35);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct FischerBurmeister;

impl NcpFunction for FischerBurmeister {
    const NAME: &'static str = "fb";

    #[inline]
    fn value(a: f64, b: f64) -> f64 {
        if a.is_infinite() || b.is_infinite() {
            if a == f64::NEG_INFINITY || b == f64::NEG_INFINITY {
                return f64::NEG_INFINITY;
            }
            // one of them is +inf, the other finite or +inf
            return if a == f64::INFINITY { b } else { a };
        }
        // phi is positively homogeneous of degree one: scale extreme arguments into a range
        // where 2ab neither overflows nor underflows.
        let m = a.abs().max(b.abs());
        if m > 1e100 || (m < 1e-100 && m > 0.0) {
            return m * Self::value(a / m, b / m);
        }
        let s = a + b;
        let h = a.hypot(b);
        if s > 0.0 {
            2.0 * a * b / (s + h)
        } else {
            s - h
        }
    }

    #[inline]
    fn grad(a: f64, b: f64) -> (f64, f64) {
        if a == f64::INFINITY {
            return (0.0, 1.0);
        }
        if b == f64::INFINITY {
            return (1.0, 0.0);
        }
        let h = a.hypot(b);
        if h == 0.0 {
            (1.0, 0.0)
        } else {
            (1.0 - a / h, 1.0 - b / h)
        }
    }
}
