//! Smooth isotropic Coulomb friction as a fixed point: the friction compliance `W`
//! (Macklin et al. 2019 §4.3 and appendix A).
//!
//! # The law
//! For one contact with tangential relative velocity `D^T u` (2 components, m/s), friction
//! force `λ_f` (2 components, N) and normal force `λ_n > 0`, maximal dissipation with the
//! isotropic bound `‖λ_f‖ <= μ λ_n` is (Macklin et al. 2019 eq. 15-16)
//!
//! ```text
//! D^T u + ψ λ_f / ‖λ_f‖ = 0,     0 <= ψ ⊥ μ λ_n - ‖λ_f‖ >= 0,     ψ = ‖D^T u‖.
//! ```
//!
//! With an NCP function `φ` the complementarity is `φ(ψ, b) = 0`, `b = μ λ_n - ‖λ_f‖` the
//! cone slack. The fixed-point iteration `‖λ_f‖ <- ‖λ_f‖ + φ(ψ, b)`, `ψ <- ψ - φ(ψ, b)` has
//! exactly the roots of `φ` as fixed points; putting its ratio `ψ / ‖λ_f‖` into the first
//! equation turns friction into a compliance law
//!
//! ```text
//! D^T u + W λ_f = 0,      W = (ψ - φ) / (‖λ_f‖ + φ)     [(m/s)/N],
//! ```
//!
//! which the Newton iteration treats as constant within one iteration (`∂/∂λ_f = W I`).
//! With the complementarity preconditioner `r_f` ([`super::preconditioner`]) on the force
//! argument, `φ(ψ, r_f b)`, the update is `‖λ_f‖ <- ‖λ_f‖ + φ / r_f` and
//! `W = r_f (ψ - φ) / (r_f ‖λ_f‖ + φ)`.
//!
//! # The closed forms (rebuilt, NOTES 2.4; checked in `tests/laws/friction_compliance.rs`)
//! * minimum map: `W_min = max(0, ψ - r_f b) / (μ λ_n)`: zero while sticking
//!   (`ψ <= r_f b`), and growing linearly with `‖λ_f‖` outside the cone;
//! * Fischer-Burmeister, `s = sqrt(ψ² + r_f² b²)`:
//!   `W_FB = r_f (s - r_f b) / (ψ + r_f μ λ_n - s)`, whose denominator vanishes as `‖λ_f‖`
//!   grows past the cone: outside it `W` penalises the multiplier strongly (figure 6).
//!
//! Both are written here from the general form `r_f (ψ - φ) / (r_f ‖λ_f‖ + φ)` with the
//! crate's NCP functions, so a new NCP function gets its `W` for free.
//!
//! # Guards
//! * The slack `b` is **not** clamped at zero: with `b = μ λ_n - min(‖λ_f‖, μ λ_n)`
//!   the Fischer-Burmeister value is zero outside the cone and friction welds.
//! * `0/0` (no slip and no force: the first iterate of a sticking contact) gives `W = 0`,
//!   the sticking answer; a vanishing or negative denominator with a positive numerator
//!   (far outside the cone) gives the cap `W_MAX_FACTOR / r_f` ([`W_MAX_FACTOR`]); `W` is
//!   never negative and never NaN.
//! * Contacts without normal force (`μ λ_n <= 0`) have no friction law: the caller
//!   disables their rows (`λ_f = 0`, Macklin et al. 2019 §4.3).
//!
//! Checked by `tests/laws/friction_compliance.rs`.

use crate::ncp::NcpFunction;

/// `W` is capped at `W_MAX_FACTOR / r_f` ((m/s)/N): a friction row whose compliance is
/// this large drives its force to zero within one iteration, as an infinite `W` would.
pub const W_MAX_FACTOR: f64 = 1e12;

// ANCHOR: compliance
/// The friction compliance `W` of one contact, in (m/s)/N (Macklin et al. 2019 §4.3,
/// appendix A; NOTES 2.4).
///
/// * `slip`: `ψ = ‖D^T u‖ >= 0`, the tangential speed at the current iterate (m/s);
/// * `force`: `‖λ_f‖ >= 0`, the friction force magnitude at the current iterate (N);
/// * `limit`: `μ λ_n > 0`, the radius of the friction disk from the normal force of the
///   previous iterate (N);
/// * `r_f > 0`: the complementarity preconditioner of the friction rows ((m/s)/N; 1 when
///   unpreconditioned).
///
/// Returns `W = r_f (ψ - φ) / (r_f ‖λ_f‖ + φ)` with `φ = F(ψ, r_f (μ λ_n - ‖λ_f‖))`, in
/// `[0, W_MAX_FACTOR / r_f]`. Assumes finite, non-negative `slip` and `force` and positive
/// `limit` and `r_f` (not checked; the Newton loop guarantees them).
///
/// ```
/// use nonsmooth::implicit::friction::compliance;
/// use nonsmooth::ncp::{FischerBurmeister, MinMap};
/// // sticking: slow slip, force inside the disk
/// assert_eq!(compliance::<MinMap>(0.0, 1.0, 2.0, 1.0), 0.0);
/// // sliding at the bound: W = psi / |lambda_f|
/// let w = compliance::<FischerBurmeister>(0.5, 2.0, 2.0, 1.0);
/// assert!((w - 0.25).abs() < 1e-12);
/// ```
pub fn compliance<F: NcpFunction>(slip: f64, force: f64, limit: f64, r_f: f64) -> f64 {
    let slack = limit - force; // not clamped: negative outside the cone
    let phi = F::value(slip, r_f * slack);
    let numerator = r_f * (slip - phi);
    let denominator = r_f * force + phi;
    let cap = W_MAX_FACTOR / r_f;
    // phi <= min-like of its arguments, so slip - phi >= 0 up to rounding.
    let numerator = numerator.max(0.0);
    if numerator == 0.0 {
        return 0.0;
    }
    if denominator <= numerator / cap {
        return cap;
    }
    (numerator / denominator).min(cap)
}
// ANCHOR_END: compliance

/// The closed form of appendix A for the minimum map, `max(0, ψ - r_f b) / (μ λ_n)`
/// (arguments as [`compliance`]): the oracle the tests hold [`compliance`] to.
pub fn compliance_min_closed_form(slip: f64, force: f64, limit: f64, r_f: f64) -> f64 {
    (slip - r_f * (limit - force)).max(0.0) / limit
}

/// The closed form of appendix A for Fischer-Burmeister,
/// `r_f (s - r_f b) / (ψ + r_f μ λ_n - s)`, `s = sqrt(ψ² + r_f² b²)` (arguments as
/// [`compliance`]; no guards: the denominator may vanish or turn negative outside the
/// cone).
pub fn compliance_fb_closed_form(slip: f64, force: f64, limit: f64, r_f: f64) -> f64 {
    let b = limit - force;
    let s = slip.hypot(r_f * b);
    r_f * (s - r_f * b) / (slip + r_f * limit - s)
}
