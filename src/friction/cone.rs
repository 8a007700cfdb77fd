//! The Coulomb friction cone and its projection.
//!
//! Per contact, with rows `[n, t1, t2]`:
//!
//! ```text
//! K_mu   = { r : ||r_t|| <= mu r_n }          (admissible reactions)
//! K_mu*  = { u : mu ||u_t|| <= u_n }          (its dual cone)
//! K_mu°  = -K_mu* = { x : mu ||x_t|| <= -x_n }  (its polar cone)
//! ```
//!
//! The Euclidean projection of `x = (x_n, x_t)` onto `K_mu` has three cases (Moreau's
//! decomposition `x = P_K(x) + P_{K°}(x)`):
//!
//! * `||x_t|| <= mu x_n`: `x` is in the cone, `P(x) = x`;
//! * `mu ||x_t|| <= -x_n`: `x` is in the polar cone, `P(x) = 0`;
//! * otherwise `P(x) = a (1, mu x_t / ||x_t||)` with `a = (x_n + mu ||x_t||) / (1 + mu^2)`.
//!
//! For `mu = 0` the cone degenerates to the ray `{ r_t = 0, r_n >= 0 }` and the formula
//! gives `(max(x_n, 0), 0, 0)`.
//!
//! Checked by `tests/laws/cone_projection.rs`.

/// Projects `x = [x_n, x_t1, x_t2]` onto `K_mu` (`mu >= 0` assumed, not checked).
///
/// Never produces NaN for finite input: it divides by `||x_t||` only in the boundary
/// case, where `||x_t|| > 0`.
///
/// # Example
/// ```
/// use nonsmooth::friction::project_on_cone;
/// assert_eq!(project_on_cone([1.0, 0.1, 0.0], 0.5), [1.0, 0.1, 0.0]); // inside
/// assert_eq!(project_on_cone([-1.0, 0.1, 0.0], 0.5), [0.0, 0.0, 0.0]); // polar
/// let p = project_on_cone([0.0, 1.0, 0.0], 1.0); // halfway onto the boundary
/// assert!((p[0] - 0.5).abs() < 1e-15 && (p[1] - 0.5).abs() < 1e-15);
/// ```
#[inline]
pub fn project_on_cone(x: [f64; 3], mu: f64) -> [f64; 3] {
    let xn = x[0];
    let nt = x[1].hypot(x[2]);
    // (`xn >= 0` matters only for mu = 0, where `nt <= mu xn` reads `0 <= -0`.)
    if nt <= mu * xn && xn >= 0.0 {
        return x;
    }
    if mu * nt <= -xn {
        return [0.0, 0.0, 0.0];
    }
    // Here nt > 0: if nt were 0 the first test (0 <= mu xn) or the second (0 <= -xn)
    // would have held.
    let k = 1.0 + mu * mu;
    if k.is_finite() {
        let a = (xn + mu * nt) / k;
        let s = mu * a / nt;
        [a, s * x[1], s * x[2]]
    } else {
        // mu beyond 1e154: `mu²` overflows. The tangential size of the projection is
        // `pt = mu a = (xn / mu + nt) / (1 + 1 / mu²)`, and `a = pt / mu`.
        let pt = (xn / mu + nt) / (1.0 + 1.0 / mu / mu);
        let s = pt / nt;
        [pt / mu, s * x[1], s * x[2]]
    }
}

/// Projects `x` onto the dual cone `K_mu* = { u : mu ||u_t|| <= u_n }`.
///
/// Uses `K_mu* = K_{1/mu}` up to the scaling of the tangential part; for `mu = 0` the dual
/// cone is the half-space `u_n >= 0`.
#[inline]
pub fn project_on_dual_cone(x: [f64; 3], mu: f64) -> [f64; 3] {
    // Moreau: x = P_K(x) + P_{K°}(x) and K° = -K*, so P_{K*}(x) = -P_{K°}(-x)
    //                                                  = -(-x - P_K(-x)) = x + P_K(-x).
    let p = project_on_cone([-x[0], -x[1], -x[2]], mu);
    [x[0] + p[0], x[1] + p[1], x[2] + p[2]]
}

/// `true` if `r` lies in `K_mu` up to an absolute slack `tol`.
#[inline]
pub fn in_cone(r: [f64; 3], mu: f64, tol: f64) -> bool {
    r[1].hypot(r[2]) <= mu * r[0] + tol && r[0] >= -tol
}

/// `true` if `u` lies in `K_mu*` up to an absolute slack `tol`.
#[inline]
pub fn in_dual_cone(u: [f64; 3], mu: f64, tol: f64) -> bool {
    mu * u[1].hypot(u[2]) <= u[0] + tol
}
