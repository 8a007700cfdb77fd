//! NCP functions: turning complementarity into root finding.
//!
//! An **NCP function** `phi: R^2 -> R` satisfies
//!
//! ```text
//! phi(a, b) = 0   <=>   a >= 0,  b >= 0,  a b = 0.
//! ```
//!
//! With one, the LCP `0 <= x ⊥ A x + b >= 0` becomes the nonsmooth equation
//! `Phi(x) = phi(x, A x + b) = 0` (componentwise), which splitting methods turn into fixed
//! points and Newton methods into root searches.
//!
//! # Sign convention (chosen once for the whole crate)
//!
//! Both functions here have **the sign of `min(a, b)`**: negative when either argument is
//! negative, positive when both are positive.
//!
//! * minimum map: `phi_min(a, b) = min(a, b)` (Erleben 2009 slides eq. 25);
//! * Fischer-Burmeister: `phi_FB(a, b) = a + b - sqrt(a^2 + b^2)` (Macklin et al. 2019
//!   §4.2, the sign Fischer used).
//!
//! Silcowitz, Niebe, Erleben 2009 (eq. 21) and Erleben's codes use the opposite sign,
//! `sqrt(a^2 + b^2) - a - b = -phi_FB`. Both have the same roots; the sign only matters
//! when NCP functions are nested, as in the boxed reformulation
//! ([`nested_box`]), where we write `phi(x - lo, -phi(-y, hi - x))` where the paper writes
//! `phi(x - lo, phi(-y, hi - x))` with its own sign.
//!
//! Each function also returns an element of its **B-subdifferential** (the limits of
//! gradients at nearby points where it is differentiable), the generalised derivative
//! that semismooth Newton methods use (Silcowitz et al. 2009 eq. 30; Qi and Sun 1993).
//!
//! Checked by `tests/laws/generalized_derivatives.rs`,
//! `tests/laws/natural_map_fixed_point.rs`, `tests/laws/ncp_functions.rs` and
//! `tests/laws/reformulation_roots.rs`.

mod boxed;
mod fischer;
mod minmap;

pub use boxed::{BoxPartials, nested_box, nested_box_grad};
pub use fischer::FischerBurmeister;
pub use minmap::MinMap;

use nalgebra::DVector;

use crate::problem::{BoxedLcp, Lcp};

/// A scalar NCP function with an element of its B-subdifferential.
pub trait NcpFunction {
    /// Short name for tables (`"min"`, `"fb"`).
    const NAME: &'static str;

    /// `phi(a, b)`. Infinite arguments are allowed (bounds may be infinite) and give the
    /// limit value; the result is never NaN for non-NaN input.
    fn value(a: f64, b: f64) -> f64;

    /// An element `(d phi/d a, d phi/d b)` of the B-subdifferential at `(a, b)`; the plain
    /// gradient wherever `phi` is differentiable. Each implementation documents its choice
    /// at the kink.
    fn grad(a: f64, b: f64) -> (f64, f64);
}

/// `Phi(x) = phi(x, A x + b)`, the reformulation of an LCP as `Phi(x) = 0`
/// (`n` entries). Its roots are exactly the LCP's solutions.
pub fn lcp_reformulation<F: NcpFunction>(lcp: &Lcp, x: &DVector<f64>) -> DVector<f64> {
    let w = lcp.w(x);
    DVector::from_fn(x.len(), |i, _| F::value(x[i], w[i]))
}

/// `Phi(x)_i = phi(x_i - lo_i(x), -phi(-w_i, hi_i(x) - x_i))` with `w = A x + b`: the nested
/// reformulation of a boxed LCP with variable bounds (Silcowitz, Niebe, Erleben 2009
/// eq. 27-29, written in this crate's sign convention). Its roots are exactly the
/// solutions of the boxed problem.
pub fn boxed_reformulation<F: NcpFunction>(blcp: &BoxedLcp, x: &DVector<f64>) -> DVector<f64> {
    let w = blcp.w(x);
    DVector::from_fn(x.len(), |i, _| {
        let (lo, hi) = blcp.bounds_at(i, x.as_slice());
        nested_box::<F>(x[i], lo, hi, w[i])
    })
}
