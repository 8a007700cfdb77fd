//! Residuals and error measures, named and normalised as in the field.
//!
//! Every solver reports a [`Residual`]: the absolute error and two relative ones, so that a
//! number from this crate can be compared with a number from Siconos (either version).
//!
//! | problem | absolute error | `rel` (Siconos 4.4) | `rel_q` (Siconos <= 4.3, Acary et al. 2018) | `normal` |
//! |---|---|---|---|---|
//! | LCP | `‖x - max(0, x - w)‖₂ = ‖min(x, w)‖₂` | `/ ‖b‖` | `/ ‖b‖` | 0 |
//! | boxed LCP | `‖min(x - lo, max(x - hi, w))‖₂` (Erleben 2007 eq. 37) | `/ ‖b‖` | `/ ‖b‖` | 0 |
//! | fc3d Coulomb | natural map of De Saxce's form, below | `/ max(‖q‖, ‖r‖, ‖u‖)` | `/ ‖q‖` | `‖(max(0, -u_n), max(0, -r_n))‖ / max(‖q‖, ‖r‖, ‖u‖)` |
//! | fc3d CCP | the same without the De Saxce term | `/ max(‖q‖, ‖r‖, ‖u‖)` | `/ ‖q‖` | the same |
//!
//! (with the fallbacks below when a denominator is exactly zero).
//!
//! Fc3d natural map (Siconos `fc3d_compute_error`): with `u = W r + q`, per contact
//! `x_c = r_c - (u_c + [mu_c ‖u_t,c‖, 0, 0])`, `e_c = r_c - P_{K_mu_c}(x_c)`, and
//! `abs = sqrt(Σ_c ‖e_c‖²)`.
//!
//! # Where this departs from Siconos, and why
//!
//! * **Tiny denominators.** Siconos skips the division when the denominator is below
//!   machine epsilon, so a problem with `‖q‖ <= 2.2e-16` is judged by its absolute error
//!   and "converges" at `r = 0` whatever its solution (`A = I, b = -1e-17` read as solved
//!   with a 100 % error). Here a relative error divides whenever its denominator is
//!   positive: the measure is invariant under scaling the problem. A denominator that is
//!   exactly zero falls back: for the LCP and boxed measures `‖b‖ = 0` gives
//!   `max(‖x‖, ‖w‖)` (and the norm of the finite fixed bounds, for a boxed LCP); for
//!   `rel_q` of a friction problem `‖q‖ = 0` gives the `rel` denominator
//!   `max(‖r‖, ‖u‖)`. An all-zero problem at `x = 0` has error 0 (`0 / 0` reads as 0).
//!   On every problem with denominators above `2.2e-16` (and norms below `1e154`, where
//!   Siconos's overflow) the numbers are Siconos's.
//! * **Norms do not overflow or underflow.** Every norm here is computed with scaling
//!   ([`scaled_norm`], [`SumSquares`]: LAPACK's `dnrm2`/`dlassq`), so `‖q‖ = 1e200` or
//!   `1e-300` is measured exactly instead of as `inf` or 0.
//! * **The normal condition on its own** ([`Residual::normal`]). In the De Saxce map the
//!   term `mu ‖u_t‖` is added to `u_n`; with a huge `mu` it swallows `u_n` in rounding and
//!   a penetrating contact (`u_n < 0`) reads as solved (`mu = 1e300`, `r = 0`, `u_n = -1`:
//!   natural-map error 0). So a friction answer also reports
//!   `‖(max(0, -u_n,c), max(0, -r_n,c))_c‖` (no penetration, no pulling) in the Siconos
//!   4.4 normalisation, and [`Residual::meets`] — the stopping test of every solver —
//!   requires it `<= tol` too. `abs`, `rel` and `rel_q` stay Siconos's numbers. At a
//!   tolerance `tol` the natural map cannot see `u_n` once `mu > tol / eps`
//!   ([`mu_beyond_resolution`]).
//!
//! Checked by `tests/laws/de_saxce.rs` and `tests/laws/error_measures.rs`.

use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use crate::friction::{project_on_cone, project_on_dual_cone};
use crate::ncp::{FischerBurmeister, MinMap, boxed_reformulation, lcp_reformulation};
pub use crate::problem::natural_map_contact;
use crate::problem::{BoxedLcp, FrictionContact, FrictionKind, Lcp, RowBound};

pub(crate) use crate::norm::{SAFE_SUM, scaled_norm_seq};
pub use crate::norm::{SumSquares, scaled_norm};

/// An error measured three ways (see the [module table](self)), and the normal condition
/// of a friction answer on its own.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Residual {
    /// The absolute error.
    pub abs: f64,
    /// Relative error in the Siconos 4.4 normalisation (for LCPs: `/ ‖b‖`).
    pub rel: f64,
    /// Relative error in the `‖q‖` normalisation of Siconos <= 4.3 and the 2018
    /// benchmark (for LCPs the same as `rel`).
    pub rel_q: f64,
    /// The normal condition of a friction answer, checked on its own:
    /// `‖(max(0, -u_n,c), max(0, -r_n,c))_c‖` (penetration and pulling), divided by the
    /// denominator of `rel` (Siconos 4.4). Zero at a solution; zero for LCPs and boxed
    /// LCPs. The natural map alone cannot see `u_n` when `mu ‖u_t‖` swallows it (see the
    /// [module docs](self)), so [`Residual::meets`] requires this too.
    #[serde(default)]
    pub normal: f64,
    /// The same, absolute (for [`Measure::Absolute`]).
    #[serde(skip)]
    normal_abs: f64,
    /// The error measured against the problem's own scale, which no answer can shrink by
    /// being large: for a friction problem [`scaled_natural_map`] (the natural map and the
    /// normal condition over Siconos's denominator with `‖r‖` replaced by the part of `r`
    /// that `W` sees); for an LCP or a boxed LCP, whose error is already divided by `‖b‖`
    /// alone, the same number as `rel`. [`Residual::meets`] requires it `<= tol` beside `rel`: `rel` divides by
    /// `max(‖q‖, ‖r‖, ‖u‖)`, so an answer that grows without bound along a direction `W`
    /// does not see makes `rel` as small as one likes (the book's chapter "Reading real
    /// problems and judging an answer", section "A verdict that scale cannot fool").
    #[serde(default)]
    pub scaled: f64,
}

/// `x / d` for a relative error: infinite when `d` is not finite (an overflowed norm must
/// not read as a small error), `x / d` when `d > 0`, and for `d = 0` zero if `x` is zero
/// (an all-zero problem at zero) and infinite otherwise.
pub(crate) fn relative(x: f64, d: f64) -> f64 {
    if !d.is_finite() {
        f64::INFINITY
    } else if d > 0.0 {
        x / d
    } else if x == 0.0 {
        0.0
    } else {
        f64::INFINITY
    }
}

impl Residual {
    /// `abs` divided by each denominator, with no normal condition (LCPs, boxed LCPs).
    ///
    /// The division is done whenever the denominator is positive (see the module docs for
    /// the fallbacks the callers use when it is zero); `0 / 0` is 0 and `x / 0` infinite.
    /// A denominator that is not finite gives an infinite relative error: a norm that
    /// overflows (only possible when the true norm exceeds `f64::MAX`, the norms here are
    /// scaled) must not report a runaway iterate as an exact solution. Solvers report a
    /// non-finite error as [`crate::solver::SolveError::Diverged`].
    pub fn new(abs: f64, denom: f64, denom_q: f64) -> Residual {
        let rel = relative(abs, denom);
        Residual {
            abs,
            rel,
            rel_q: relative(abs, denom_q),
            normal: 0.0,
            normal_abs: 0.0,
            scaled: rel,
        }
    }

    /// As [`Residual::new`] for a friction answer whose normal condition has the absolute
    /// residual `normal_abs` (divided by `denom`, the Siconos 4.4 denominator), and whose
    /// error in the problem's own scale is `scaled` ([`scaled_natural_map`]).
    pub fn friction(abs: f64, normal_abs: f64, denom: f64, denom_q: f64, scaled: f64) -> Residual {
        Residual {
            abs,
            rel: relative(abs, denom),
            rel_q: relative(abs, denom_q),
            normal: relative(normal_abs, denom),
            normal_abs,
            scaled,
        }
    }

    /// A residual with the given numbers (the absolute normal residual is taken equal to
    /// `normal`, the problem-scaled error to `rel`): for tests and for errors reported by
    /// other programs.
    pub fn from_parts(abs: f64, rel: f64, rel_q: f64, normal: f64) -> Residual {
        Residual {
            abs,
            rel,
            rel_q,
            normal,
            normal_abs: normal,
            scaled: rel,
        }
    }

    /// The number a stopping test compares with the tolerance: the largest of the chosen
    /// measure, the normal condition and (for the relative measures) the problem-scaled
    /// error. [`Residual::meets`] is `worst(measure) <= tol`.
    pub fn worst(&self, measure: Measure) -> f64 {
        let e = self.get(measure).max(self.normal_for(measure));
        match measure {
            Measure::Relative | Measure::RelativeQ => e.max(self.scaled),
            Measure::Absolute => e,
        }
    }

    /// The value of the chosen measure.
    pub fn get(&self, measure: Measure) -> f64 {
        match measure {
            Measure::Relative => self.rel,
            Measure::RelativeQ => self.rel_q,
            Measure::Absolute => self.abs,
        }
    }

    /// The normal-condition residual for `measure`: [`Residual::normal`] for both relative
    /// measures (the Siconos 4.4 normalisation), absolute for [`Measure::Absolute`].
    pub fn normal_for(&self, measure: Measure) -> f64 {
        match measure {
            Measure::Relative | Measure::RelativeQ => self.normal,
            Measure::Absolute => self.normal_abs,
        }
    }

    /// `true` if the answer solves the problem to `tol` in `measure`: the error is at most
    /// `tol` **and** so is the normal condition ([`Residual::normal_for`]) **and**, for the
    /// relative measures, so is the error in the problem's own scale ([`Residual::scaled`]).
    /// This is the stopping test of every solver and the verdict of [`crate::check`]; use
    /// it, not `get(measure) <= tol`, to judge an answer.
    pub fn meets(&self, tol: f64, measure: Measure) -> bool {
        self.get(measure) <= tol
            && self.normal_for(measure) <= tol
            && (measure == Measure::Absolute || self.scaled <= tol)
    }

    /// `true` if every field is finite.
    pub fn is_finite(&self) -> bool {
        self.abs.is_finite()
            && self.rel.is_finite()
            && self.rel_q.is_finite()
            && self.normal.is_finite()
            && self.scaled.is_finite()
    }

    /// The same error for the problem scaled by `1 / factor` (every vector of the problem
    /// and of the answer divided by `factor`): the absolute numbers are divided by it, the
    /// relative ones unchanged. Exact when `factor` is a power of two.
    pub fn unscaled(self, factor: f64) -> Residual {
        Residual {
            abs: self.abs / factor,
            normal_abs: self.normal_abs / factor,
            ..self
        }
    }
}

/// Which of the three numbers of a [`Residual`] a stopping test compares with the
/// tolerance (the normal condition of a friction answer is always compared too: see
/// [`Residual::meets`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Siconos 4.4 normalisation (the default).
    #[default]
    Relative,
    /// `‖q‖` normalisation.
    RelativeQ,
    /// Absolute.
    Absolute,
}

fn norm(v: &DVector<f64>) -> f64 {
    scaled_norm(v.as_slice())
}

/// The denominator of the LCP and boxed errors: `‖b‖`, or when `b = 0` exactly
/// `max(‖x‖, ‖w‖, ‖finite fixed bounds‖)` (a problem whose only scale is in `x`, `w` or
/// its bounds).
pub(crate) fn box_denominator(
    b: &DVector<f64>,
    x: &DVector<f64>,
    w: impl FnOnce() -> DVector<f64>,
    bounds: Option<&[RowBound]>,
) -> f64 {
    let nb = norm(b);
    if nb > 0.0 || nb.is_nan() {
        return nb;
    }
    let mut d = norm(x).max(norm(&w()));
    if let Some(bounds) = bounds {
        let mut acc = SumSquares::new();
        for bound in bounds {
            if let RowBound::Fixed { lo, hi } = *bound {
                for v in [lo, hi] {
                    if v.is_finite() {
                        acc.add(v);
                    }
                }
            }
        }
        d = d.max(acc.norm());
    }
    d
}

/// The LCP error Siconos reports (`lcp_compute_error`): `‖x - max(0, x - w)‖₂ / ‖b‖`,
/// `w = A x + b`. Note `x - max(0, x - w) = min(x, w)`: the natural map and the minimum
/// map coincide for the LCP. When `b = 0` exactly the denominator is `max(‖x‖, ‖w‖)`
/// (module docs). Its [`Residual::scaled`] is the same number.
pub fn lcp_error(lcp: &Lcp, x: &DVector<f64>) -> Residual {
    let abs = norm(&lcp_reformulation::<MinMap>(lcp, x));
    let d = box_denominator(lcp.b(), x, || lcp.w(x), None);
    Residual::new(abs, d, d)
}

/// The minimum-map merit `1/2 ‖min(x, A x + b)‖²`.
pub fn lcp_minmap_merit(lcp: &Lcp, x: &DVector<f64>) -> f64 {
    0.5 * lcp_reformulation::<MinMap>(lcp, x).norm_squared()
}

/// The Fischer merit `Psi(x) = 1/2 ‖Phi_FB(x)‖²` (Silcowitz et al. 2009 eq. 35).
pub fn lcp_fischer_merit(lcp: &Lcp, x: &DVector<f64>) -> f64 {
    0.5 * lcp_reformulation::<FischerBurmeister>(lcp, x).norm_squared()
}

/// The boxed error `‖H(x)‖₂` with `H(x) = min(x - lo, max(x - hi, w))` (Erleben 2007 eq.
/// 37), normalised by `‖b‖` (when `b = 0` exactly, by `max(‖x‖, ‖w‖, ‖finite fixed
/// bounds‖)`).
pub fn boxed_error(blcp: &BoxedLcp, x: &DVector<f64>) -> Residual {
    let abs = norm(&boxed_reformulation::<MinMap>(blcp, x));
    let d = box_denominator(blcp.b(), x, || blcp.w(x), Some(blcp.row_bounds()));
    Residual::new(abs, d, d)
}

/// The boxed minimum-map merit `theta(x) = 1/2 ‖H(x)‖²` (Erleben 2007 eq. 38).
pub fn boxed_minmap_merit(blcp: &BoxedLcp, x: &DVector<f64>) -> f64 {
    0.5 * boxed_reformulation::<MinMap>(blcp, x).norm_squared()
}

/// The boxed Fischer merit `1/2 ‖Phi(x)‖²` of the nested reformulation (Silcowitz et al.
/// 2009 eq. 29, 35).
pub fn boxed_fischer_merit(blcp: &BoxedLcp, x: &DVector<f64>) -> f64 {
    0.5 * boxed_reformulation::<FischerBurmeister>(blcp, x).norm_squared()
}

/// The absolute natural-map error `sqrt(Σ_c ‖e_c‖²)` for given `r` and `u` (scaled: no
/// overflow or underflow).
pub fn natural_map_abs(r: &[f64], u: &[f64], mu: &[f64], kind: FrictionKind) -> f64 {
    natural_map_and_normal(r, u, mu, kind).0
}

/// The absolute natural-map error and the absolute normal-condition residual
/// `‖(max(0, -u_n,c), max(0, -r_n,c))_c‖` (see [`Residual::normal`]), both scaled.
pub fn natural_map_and_normal(r: &[f64], u: &[f64], mu: &[f64], kind: FrictionKind) -> (f64, f64) {
    norms_of_terms(mu.len(), |c, s, sn| {
        let k = 3 * c;
        s(&natural_map_contact(
            [r[k], r[k + 1], r[k + 2]],
            [u[k], u[k + 1], u[k + 2]],
            mu[c],
            kind,
        ));
        sn(&[(-u[k]).max(0.0), (-r[k]).max(0.0)]);
    })
}

/// Two norms of terms produced contact by contact: `terms(c, first, second)` passes
/// contact `c`'s terms of each norm. The plain sums of squares are used when they are
/// safely in range; otherwise the terms are produced again into [`SumSquares`].
pub(crate) fn norms_of_terms(
    contacts: usize,
    terms: impl Fn(usize, &mut dyn FnMut(&[f64]), &mut dyn FnMut(&[f64])),
) -> (f64, f64) {
    // (sum of squares, largest magnitude) of each norm
    let (mut s, mut sn) = ((0.0, 0.0f64), (0.0, 0.0f64));
    // each contact's squares summed first, then added (the order the sums had before
    // they were scaled, so that in range the numbers are unchanged)
    let plain = |acc: &mut (f64, f64), t: &[f64]| {
        acc.0 += t.iter().map(|x| x * x).sum::<f64>();
        for x in t {
            acc.1 = acc.1.max(x.abs());
        }
    };
    for c in 0..contacts {
        terms(c, &mut |t| plain(&mut s, t), &mut |t| plain(&mut sn, t));
    }
    // all zero, or a sum that lost nothing to underflow or overflow
    let safe = |(s, m): (f64, f64)| m == 0.0 || (s.is_finite() && s >= SAFE_SUM);
    if safe(s) && safe(sn) {
        return (s.0.sqrt(), sn.0.sqrt());
    }
    let (mut acc, mut accn) = (SumSquares::new(), SumSquares::new());
    for c in 0..contacts {
        terms(c, &mut |t| acc.add_all(t), &mut |t| accn.add_all(t));
    }
    (acc.norm(), accn.norm())
}

/// `Some(explanation)` when a friction coefficient as large as `mu_max` is beyond what the
/// De Saxce natural map can resolve at the tolerance `tol`, `None` otherwise.
///
/// The map adds `mu ‖u_t‖` to `u_n`; the rounding of that sum is about
/// `eps mu ‖u_t‖` (`eps = 2.2e-16`), so relative to the velocities the map sees `u_n` only
/// to about `eps mu`. At a tolerance `tol` it is blind to `u_n` once `eps mu > tol`, that
/// is `mu > tol / eps` (`4.5e7` at `tol = 1e-8`). [`Residual::normal`] checks the normal
/// condition separately so that a solver cannot stop on a penetrating answer; this
/// function is for telling the user that the friction itself is then judged only to
/// about `eps mu`.
///
/// ```
/// use nonsmooth::merit::mu_beyond_resolution;
/// assert!(mu_beyond_resolution(0.5, 1e-8).is_none());
/// assert!(mu_beyond_resolution(1e6, 1e-8).is_none());
/// assert!(mu_beyond_resolution(1e300, 1e-8).is_some());
/// ```
pub fn mu_beyond_resolution(mu_max: f64, tol: f64) -> Option<String> {
    let limit = tol / f64::EPSILON;
    (mu_max > limit).then(|| {
        format!(
            "friction coefficient {mu_max:.3e} is beyond what the natural map resolves at \
             tolerance {tol:.1e}: the rounding of u_n + mu |u_t| (about {:.1e} |u_t|) \
             exceeds the tolerance once mu > tol / eps = {limit:.3e}; the normal condition \
             is checked on its own, but the friction law is judged only to about eps * mu",
            f64::EPSILON * mu_max
        )
    })
}

/// The natural-map error of `r` for the problem's own friction law, with `u = W r + q`:
/// [`fc3d_error`] for Coulomb, [`ccp_error`] for CCP.
pub fn friction_error(fc: &FrictionContact, r: &DVector<f64>) -> Residual {
    let u = fc.velocity(r);
    friction_error_with_velocity(fc, r, &u, fc.kind())
}

/// The error of `(r, u)` for the law `kind`, where `u` is `W r + q` computed by the
/// caller (solvers that keep `u` up to date avoid a product).
pub fn friction_error_with_velocity(
    fc: &FrictionContact,
    r: &DVector<f64>,
    u: &DVector<f64>,
    kind: FrictionKind,
) -> Residual {
    friction_residual(
        r.as_slice(),
        u.as_slice(),
        fc.q().as_slice(),
        fc.mu().as_slice(),
        kind,
        norm(fc.q()),
    )
}

/// The friction [`Residual`] of `(r, u)` (`u = W r + q`, `‖q‖ = norm_q`): the natural map
/// divided by `max(‖q‖, ‖r‖, ‖u‖)` and by `‖q‖` (by the former when `q = 0`), the normal
/// condition, and the error against the problem's own scale ([`scaled_natural_map`]).
pub fn friction_residual(
    r: &[f64],
    u: &[f64],
    q: &[f64],
    mu: &[f64],
    kind: FrictionKind,
    norm_q: f64,
) -> Residual {
    let (abs, normal) = natural_map_and_normal(r, u, mu, kind);
    let denom = norm_q.max(scaled_norm(r)).max(scaled_norm(u));
    let denom_q = if norm_q == 0.0 { denom } else { norm_q };
    let scaled = scaled_natural_map(abs, normal, r, u, q);
    Residual::friction(abs, normal, denom, denom_q, scaled)
}

// ANCHOR: scaled_natural_map
/// The natural-map error of `(r, u)` against the problem's own scale, so that no answer can
/// make it small by being large: with `abs` and `normal_abs` the absolute natural-map error
/// and normal condition ([`natural_map_and_normal`]),
///
/// ```text
/// scaled = max(abs, normal_abs) / max(‖q‖, ‖u‖, min(‖r‖, |rᵀ W r| / ‖q‖))
/// ```
///
/// (`rᵀ W r = r · (u - q)`; `‖u‖` alone when `q = 0`, [`scaled_denominator`]). This is
/// Siconos's
/// `max(‖q‖, ‖r‖, ‖u‖)` normalisation with `‖r‖` replaced by the part of the answer the
/// problem can see:
///
/// * along a direction `n` with `W n = 0` the quadratic form `rᵀ W r` does not change, so
///   adding `s n` to an answer (`s → ∞`) leaves the denominator bounded while the residual
///   stays away from zero: the error no longer falls;
/// * along a direction `W` does see, `rᵀ W r` grows like `s²` and the minimum is `‖r‖`:
///   the number is Siconos's, which tends to a positive constant there;
/// * at a true solution friction dissipates (`r · u <= 0`), so
///   `rᵀ W r <= -r · q <= ‖r‖ ‖q‖`, and when the answer carries no large component `W`
///   does not see, the two terms are of one size: the number is Siconos's `rel` (or its
///   normal condition), to within a small factor.
///
/// An answer so large that `W r` is rounding (`‖r‖ ~ 1e16`) makes every number here
/// rounding too; the solvers' loop does not accept such an iterate
/// ([`crate::solver::StallRule::GROWTH`]).
///
/// Unchanged when the problem and the answer are scaled together (`q → q / f`, `r → r / f`).
pub fn scaled_natural_map(abs: f64, normal_abs: f64, r: &[f64], u: &[f64], q: &[f64]) -> f64 {
    relative(abs.max(normal_abs), scaled_denominator(r, u, q))
}
// ANCHOR_END: scaled_natural_map

/// The denominator of [`scaled_natural_map`]:
/// `max(‖q‖, ‖u‖, min(‖r‖, |r · (u - q)| / ‖q‖))`, and `‖u‖` when `q = 0`: a problem with
/// no free velocity has no scale of its own for the impulses (`r = 0` solves it, and every
/// solution direction is one along which `u` does not grow), so an answer is judged by the
/// velocities it produces.
pub fn scaled_denominator(r: &[f64], u: &[f64], q: &[f64]) -> f64 {
    let nq = scaled_norm(q);
    let nu = scaled_norm(u);
    if nq == 0.0 {
        return nu;
    }
    let nr = scaled_norm(r);
    let mut rwr = 0.0;
    for i in 0..r.len() {
        rwr += r[i] * (u[i] - q[i]);
    }
    let v = rwr.abs() / nq;
    let seen = if v.is_finite() { nr.min(v) } else { nr };
    nq.max(nu).max(seen)
}

/// The Coulomb (De Saxce) natural-map error, exactly as Siconos 4.4's
/// `fc3d_compute_error` computes it, whatever kind `fc` declares.
pub fn fc3d_error(fc: &FrictionContact, r: &DVector<f64>) -> Residual {
    let u = fc.velocity(r);
    friction_error_with_velocity(fc, r, &u, FrictionKind::Coulomb)
}

/// The CCP natural-map error (no De Saxce term), whatever kind `fc` declares.
pub fn ccp_error(fc: &FrictionContact, r: &DVector<f64>) -> Residual {
    let u = fc.velocity(r);
    friction_error_with_velocity(fc, r, &u, FrictionKind::Ccp)
}

/// How one contact's `(r, u)` satisfies its law, term by term (all absolute, in the
/// problem's units; zero for an exact solution except `dissipation`): the one per-contact
/// record of the crate. [`check_contacts`] fills the measures; [`crate::check::check`]
/// adds the label and the distance to a reference; a generic mechanical problem's blocks
/// carry their `law` and `dim`. The command line's tables, the answer files' `contacts`
/// and Python's structured arrays are this record, field for field, in this order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContactCheck {
    /// Contact index (for a generic mechanical problem, the block's index).
    pub contact: usize,
    /// Label from the problem's provenance (`geom 3 / geom 7`), if any.
    #[serde(default)]
    pub label: Option<String>,
    /// Normal reaction `r_n`.
    pub r_n: f64,
    /// Normal velocity `u_n` (positive separates).
    pub u_n: f64,
    /// Tangential speed `‖u_t‖`.
    pub slip: f64,
    /// Penetration velocity `max(0, -u_n)`: the bodies approach.
    pub penetration: f64,
    /// Distance of `r` from the friction cone `K_mu`.
    pub cone_violation: f64,
    /// Distance of `û` (Coulomb) or `u` (CCP) from the dual cone `K_mu*`.
    pub dual_violation: f64,
    /// `|r · û|` (Coulomb) or `|r · u|` (CCP): zero when complementary.
    pub complementarity: f64,
    /// Power of the friction force, `-r_t · u_t`: `>= 0` when friction dissipates, `< 0`
    /// when it injects energy.
    pub dissipation: f64,
    /// `‖e_c‖`, the contact's natural-map residual.
    pub error: f64,
    /// `‖r_c - r*_c‖`, the distance to a reference solution, when one was found.
    #[serde(default)]
    pub distance: Option<f64>,
    /// The block's law (`"equality"`, `"unilateral"`, `"interval"`, `"contact"`) for a
    /// generic mechanical problem; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub law: Option<String>,
    /// The block's number of rows, for a generic mechanical problem (for a pyramid
    /// contact, its number of edge rows); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dim: Option<usize>,
    /// The tangential force `[r_t1, r_t2]` in the contact frame, for a contact of an LCP
    /// whose unknowns are pyramid-edge forces (summed back, [`crate::problem::Pyramid`]);
    /// absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r_t1: Option<f64>,
    /// See `r_t1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r_t2: Option<f64>,
}

/// Checks every contact of an answer `r` (with `u = W r + q`) against the law `kind`.
pub fn check_contacts(
    fc: &FrictionContact,
    r: &DVector<f64>,
    kind: FrictionKind,
) -> Vec<ContactCheck> {
    let u = fc.velocity(r);
    (0..fc.contacts())
        .map(|c| {
            let k = 3 * c;
            let mu = fc.mu()[c];
            let rc = [r[k], r[k + 1], r[k + 2]];
            let uc = [u[k], u[k + 1], u[k + 2]];
            let slip = uc[1].hypot(uc[2]);
            let uhat = match kind {
                FrictionKind::Coulomb => [uc[0] + mu * slip, uc[1], uc[2]],
                FrictionKind::Ccp => uc,
            };
            let pr = project_on_cone(rc, mu);
            let pu = project_on_dual_cone(uhat, mu);
            let dist = |a: [f64; 3], b: [f64; 3]| {
                scaled_norm_seq(&[a[0] - b[0], a[1] - b[1], a[2] - b[2]])
            };
            let e = natural_map_contact(rc, uc, mu, kind);
            ContactCheck {
                contact: c,
                label: None,
                r_n: rc[0],
                u_n: uc[0],
                slip,
                penetration: (-uc[0]).max(0.0),
                cone_violation: dist(rc, pr),
                dual_violation: dist(uhat, pu),
                complementarity: (rc[0] * uhat[0] + rc[1] * uhat[1] + rc[2] * uhat[2]).abs(),
                dissipation: -(rc[1] * uc[1] + rc[2] * uc[2]),
                error: scaled_norm_seq(&e),
                distance: None,
                law: None,
                dim: None,
                r_t1: None,
                r_t2: None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::Matrix;
    use nalgebra::DMatrix;

    /// A runaway iterate must not read as converged: found by the PROX property tests,
    /// where a divergent Jacobi run at `1e154` had `rel = 0` (the squared norm overflowed).
    /// The norms are scaled now: at `1e154` the error is measured (`rel = 1`), and only a
    /// norm truly beyond `f64::MAX` is infinite.
    #[test]
    fn an_overflowing_denominator_is_an_infinite_error_not_zero() {
        let fc = FrictionContact::new(
            Matrix::Dense(DMatrix::identity(3, 3)),
            DVector::from_vec(vec![-1.0, 0.0, 0.0]),
            DVector::from_vec(vec![0.5]),
            FrictionKind::Ccp,
        )
        .unwrap();
        let r = DVector::from_vec(vec![2e154, 0.0, 0.0]);
        let e = ccp_error(&fc, &r);
        assert!(e.is_finite() && (e.rel - 1.0).abs() < 1e-15, "{e:?}");
        let r = DVector::from_vec(vec![1.5e308, 1.5e308, 0.0]);
        let e = ccp_error(&fc, &r);
        assert!(!e.is_finite() && e.rel != 0.0, "{e:?}");
        // a finite error over an overflowed norm
        let e = Residual::new(1e150, f64::INFINITY, 2.0);
        assert_eq!((e.rel, e.rel_q), (f64::INFINITY, 5e149));
        assert!(!e.is_finite());
    }

    #[test]
    fn scaled_sums_of_squares_neither_overflow_nor_underflow() {
        for scale in [1.0, 1e-300, 1e-320, 1e200, 1e300] {
            let n = scaled_norm(&[3.0 * scale, 0.0, -4.0 * scale]);
            assert!((n / (5.0 * scale) - 1.0).abs() < 1e-3, "{scale}: {n}");
        }
        assert_eq!(scaled_norm(&[]), 0.0);
        assert_eq!(scaled_norm(&[0.0, -0.0]), 0.0);
        assert!(scaled_norm(&[1.0, f64::NAN]).is_nan());
        assert_eq!(
            scaled_norm(&[1.0, f64::INFINITY, f64::INFINITY]),
            f64::INFINITY
        );
        assert_eq!(scaled_norm(&[f64::MAX, f64::MAX]), f64::INFINITY);
        let mut a = SumSquares::new();
        a.add_all(&[3e-200, 4e-200]);
        let mut b = SumSquares::new();
        b.add(12e-200);
        a.merge(b);
        assert!((a.norm() / 13e-200 - 1.0).abs() < 1e-15);
        let mut z = SumSquares::new();
        z.merge(SumSquares::new());
        assert_eq!(z.norm(), 0.0);
    }

    #[test]
    fn relative_errors_divide_by_any_positive_denominator() {
        let e = Residual::new(1e-17, 1e-17, 1e-17);
        assert_eq!((e.rel, e.rel_q), (1.0, 1.0));
        assert_eq!(Residual::new(0.0, 0.0, 0.0).rel, 0.0);
        assert_eq!(Residual::new(1.0, 0.0, 0.0).rel, f64::INFINITY);
        let e = Residual::friction(0.0, 0.5, 2.0, 1.0, 0.0);
        assert_eq!((e.rel, e.normal), (0.0, 0.25));
        assert!(!e.meets(1e-8, Measure::Relative) && !e.meets(1e-8, Measure::Absolute));
        assert!(e.meets(0.3, Measure::Relative) && !e.meets(0.3, Measure::Absolute));
    }

    #[test]
    fn lcp_error_of_solution_is_zero_and_of_zero_is_relative_to_b() {
        let lcp = Lcp::new(
            Matrix::Dense(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0])),
            DVector::from_vec(vec![-5.0, -6.0]),
        )
        .unwrap();
        let x = DVector::from_vec(vec![4.0 / 3.0, 7.0 / 3.0]);
        assert!(lcp_error(&lcp, &x).abs < 1e-14);
        let e0 = lcp_error(&lcp, &DVector::zeros(2));
        // min(0, b) = b, so the relative error of zero is exactly 1.
        assert!((e0.rel - 1.0).abs() < 1e-15);
    }

    #[test]
    fn fc3d_error_of_take_off_is_zero() {
        // q_n > 0: r = 0 is the solution (the contact opens).
        let fc = FrictionContact::new(
            Matrix::Dense(DMatrix::identity(3, 3)),
            DVector::from_vec(vec![1.0, 0.5, -0.2]),
            DVector::from_vec(vec![0.3]),
            FrictionKind::Coulomb,
        )
        .unwrap();
        assert_eq!(fc3d_error(&fc, &DVector::zeros(3)).abs, 0.0);
        // r = 0 is not a CCP solution: q is not in the dual cone (0.3 * 0.54 < 1 holds,
        // so it is in the dual cone: also zero).
        assert_eq!(ccp_error(&fc, &DVector::zeros(3)).abs, 0.0);
    }
}

/// The complementarity gap `Σ_c |r_c · û_c|` of an answer for the law `kind` (`û = u` for
/// CCP, `u + mu ‖u_t‖ e_n` for Coulomb), in the problem's units (impulse times velocity).
/// Zero at a solution; together with [`feasibility`] it is another way to read the
/// natural-map error.
pub fn complementarity_gap(fc: &FrictionContact, r: &DVector<f64>, kind: FrictionKind) -> f64 {
    check_contacts(fc, r, kind)
        .iter()
        .map(|c| c.complementarity)
        .sum()
}

/// How far an answer is from being feasible: `(primal, dual)` with
/// `primal = sqrt(Σ_c dist(r_c, K_mu)²)` and `dual = sqrt(Σ_c dist(û_c, K_mu*)²)`.
pub fn feasibility(fc: &FrictionContact, r: &DVector<f64>, kind: FrictionKind) -> (f64, f64) {
    let checks = check_contacts(fc, r, kind);
    let primal: Vec<f64> = checks.iter().map(|c| c.cone_violation).collect();
    let dual: Vec<f64> = checks.iter().map(|c| c.dual_violation).collect();
    (scaled_norm_seq(&primal), scaled_norm_seq(&dual))
}

// The error of the generic mechanical problem is a method of the problem, written here
// beside the other measures so that the problem model does not depend on them.
impl crate::problem::GenericMechanical {
    /// The error of `r` (`n` entries) with `u = W r + q` computed by the caller: the
    /// natural map of every block (the [module docs](crate::problem::generic)), absolute, divided by
    /// `max(‖q‖, ‖r‖, ‖u‖)` (Siconos 4.4) and by `‖q‖`, and the normal condition.
    pub fn error_with_velocity(&self, r: &[f64], u: &[f64]) -> Residual {
        let (abs, normal) = norms_of_terms(self.blocks().len(), |b, s, sn| {
            s(&self.block_terms(b, r, u));
            let k = self.offsets()[b];
            if matches!(
                self.blocks()[b],
                crate::problem::Block::Unilateral | crate::problem::Block::Contact { .. }
            ) {
                sn(&[(-u[k]).max(0.0), (-r[k]).max(0.0)]);
            }
        });
        let norm_q = scaled_norm(self.q().as_slice());
        let denom = norm_q.max(scaled_norm(r)).max(scaled_norm(u));
        let denom_q = if norm_q == 0.0 { denom } else { norm_q };
        Residual::friction(
            abs,
            normal,
            denom,
            denom_q,
            scaled_natural_map(abs, normal, r, u, self.q().as_slice()),
        )
    }

    /// The error of `r` (see [`Self::error_with_velocity`]).
    ///
    /// # Panics
    /// If `r` does not have [`Self::dim`] entries.
    pub fn error(&self, r: &DVector<f64>) -> Residual {
        let u = self.velocity(r);
        self.error_with_velocity(r.as_slice(), u.as_slice())
    }
}
