//! The projection onto the isotropic second-order cone of any dimension and an element of
//! its B-subdifferential; the derivative of the scalar laws' clamp.
//!
//! For `x = [x_n, x_t]` (`x_t` of any length `k >= 0`) and the cone
//! `K_m = { r : ‖r_t‖ <= m r_n }`, with `s = ‖x_t‖` and `w = x_t / s`:
//!
//! * inside (`s <= m x_n`): `P(x) = x`, `D = I`;
//! * in the polar cone (`m s <= -x_n`): `P(x) = 0`, `D = 0`;
//! * otherwise, with `k = 1 / (1 + m²)` and `a = k (x_n + m s)`: `P(x) = [a, m a w]` and
//!   ```text
//!   D = [ k        m k wᵀ                          ]
//!       [ m k w    m² k w wᵀ + (m a / s)(I - w wᵀ) ]
//!   ```
//!   which for `m = 1` is the closed form `½ [1, wᵀ; w, (1 + x_n/s) I - (x_n/s) w wᵀ]` of
//!   Fukushima, Luo, Tseng 2001 (Prop. 4.3) and Hayashi, Yamashita, Fukushima 2005 (§3).
//!
//! On the two boundaries between regions (`s = m x_n` or `m s = -x_n`) `P` is not
//! differentiable; `D` is then the limit from the region named first above (inside, then
//! polar), an element of the B-subdifferential.
//!
//! Checked by `tests/laws/generic_cone.rs`.

use nalgebra::DMatrix;

use crate::merit::scaled_norm;
pub use crate::problem::generic::project_on_isotropic_cone;

// ANCHOR: soc_jacobian
/// `P_{K_m}(x)` into `p` and an element of its B-subdifferential into `d` (`x.len()`
/// square), for `x` of any length `>= 1` and `m >= 0` finite (see the [module docs](self)).
///
/// # Panics
/// If `p` or `d` do not have `x.len()` rows.
///
/// # Source
/// Fukushima, Luo, Tseng 2001, Prop. 4.3; Hayashi, Yamashita, Fukushima 2005, §3.
pub fn project_with_jacobian(x: &[f64], m: f64, p: &mut [f64], d: &mut DMatrix<f64>) {
    let dim = x.len();
    assert!(p.len() == dim && d.nrows() == dim && d.ncols() == dim);
    project_on_isotropic_cone(x, m, p);
    let s = scaled_norm(&x[1..]);
    d.fill(0.0);
    if s <= m * x[0] && x[0] >= 0.0 {
        d.fill_with_identity();
        return;
    }
    if m * s <= -x[0] || s == 0.0 {
        return;
    }
    let k = 1.0 / (1.0 + m * m);
    let a = k * (x[0] + m * s);
    d[(0, 0)] = k;
    for i in 1..dim {
        let wi = x[i] / s;
        d[(0, i)] = m * k * wi;
        d[(i, 0)] = m * k * wi;
        for j in 1..dim {
            let wj = x[j] / s;
            let delta = if i == j { 1.0 } else { 0.0 };
            d[(i, j)] = m * m * k * wi * wj + m * a / s * (delta - wi * wj);
        }
    }
}
// ANCHOR_END: soc_jacobian

/// `clamp(x, lo, hi)` and its derivative: 1 strictly inside `(lo, hi)`, 0 outside and at
/// the bounds (an element of the B-subdifferential). `lo <= hi`, either may be infinite:
/// `max(0, x)` is `(0, inf)`, the identity `(-inf, inf)`.
pub fn clamp_with_derivative(x: f64, lo: f64, hi: f64) -> (f64, f64) {
    if x > lo && x < hi {
        (x, 1.0)
    } else {
        (x.max(lo).min(hi), 0.0)
    }
}
