//! Checked by `tests/laws/nested_box.rs`.

use super::NcpFunction;

/// The nested reformulation of one boxed-complementarity row:
///
/// ```text
/// psi(x, lo, hi, y) = phi( x - lo,  -phi(-y, hi - x) ).
/// ```
///
/// `psi = 0` holds exactly when one of the three box cases holds (with `lo <= hi`):
///
/// * `x = lo` and `y >= 0`,
/// * `x = hi` and `y <= 0`,
/// * `lo < x < hi` and `y = 0`.
///
/// Derivation (Silcowitz, Niebe, Erleben 2009 eq. 23-27, in this crate's sign): the
/// inner `g = -phi(-y, hi - x)` is `>= 0` unless `y < 0` and `x < hi`, and is zero exactly
/// when `y <= 0`, `x <= hi` and `y (hi - x) = 0`; the outer `phi(x - lo, g) = 0` then asks
/// `x >= lo`, `g >= 0` and `(x - lo) g = 0`. With `phi = min` this is
/// `min(x - lo, max(x - hi, y))`, the reformulation Erleben 2007 eq. 37 plots.
///
/// Infinite bounds are allowed: `hi = +inf` reduces the row to `phi(x - lo, y)`, the LCP
/// row, and `lo = -inf, hi = +inf` to `y = 0`.
#[inline]
pub fn nested_box<F: NcpFunction>(x: f64, lo: f64, hi: f64, y: f64) -> f64 {
    let inner = -F::value(-y, hi - x);
    F::value(x - lo, inner)
}

/// Partial derivatives of [`nested_box`] (an element of its B-subdifferential, by the
/// chain rule on each function's chosen element).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxPartials {
    /// `d psi / d x` (with `lo`, `hi`, `y` held fixed).
    pub dx: f64,
    /// `d psi / d lo`.
    pub dlo: f64,
    /// `d psi / d hi`.
    pub dhi: f64,
    /// `d psi / d y`.
    pub dy: f64,
}

/// The value and partials of [`nested_box`].
///
/// With `g = -phi(-y, hi - x)`, `(p_a, p_b) = grad phi(x - lo, g)` and
/// `(q_a, q_b) = grad phi(-y, hi - x)`:
/// `dpsi/dx = p_a + p_b q_b`, `dpsi/dlo = -p_a`, `dpsi/dhi = -p_b q_b`, `dpsi/dy = p_b q_a`.
pub fn nested_box_grad<F: NcpFunction>(x: f64, lo: f64, hi: f64, y: f64) -> (f64, BoxPartials) {
    let (qa, qb) = F::grad(-y, hi - x);
    let g = -F::value(-y, hi - x);
    let (pa, pb) = F::grad(x - lo, g);
    let value = F::value(x - lo, g);
    // d g / d x = -qb * (-1) = qb ; d g / d y = -qa * (-1) = qa ; d g / d hi = -qb
    let partials = BoxPartials {
        dx: pa + pb * qb,
        dlo: -pa,
        dhi: -pb * qb,
        dy: pb * qa,
    };
    (value, partials)
}
