//! Residuals and error measures, named and normalised as in the field.
//!
//! Every solver reports a [`Residual`]: the absolute error and two relative ones, so that a
//! number from this crate can be compared with a number from Siconos (either version).
//!
//! | problem | absolute error | `rel` (Siconos 4.4) | `rel_q` (Siconos <= 4.3, Acary et al. 2018) |
//! |---|---|---|---|
//! | LCP | `‖x - max(0, x - w)‖₂ = ‖min(x, w)‖₂` | `/ ‖b‖` | `/ ‖b‖` |
//! | boxed LCP | `‖min(x - lo, max(x - hi, w))‖₂` (Erleben 2007 eq. 37) | `/ ‖b‖` | `/ ‖b‖` |
//! | fc3d Coulomb | natural map of De Saxce's form, below | `/ max(‖q‖, ‖r‖, ‖u‖)` | `/ ‖q‖` |
//! | fc3d CCP | the same without the De Saxce term | `/ max(‖q‖, ‖r‖, ‖u‖)` | `/ ‖q‖` |
//!
//! Fc3d natural map (Siconos `fc3d_compute_error`): with `u = W r + q`, per contact
//! `x_c = r_c - (u_c + [mu_c ‖u_t,c‖, 0, 0])`, `e_c = r_c - P_{K_mu_c}(x_c)`, and
//! `abs = sqrt(Σ_c ‖e_c‖²)`. A division is skipped when the denominator is below machine
//! epsilon, as Siconos does. The two relative errors can differ by orders of magnitude
//! (`../shared/data/README.md`): always report both.

use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use crate::friction::{project_on_cone, project_on_dual_cone};
use crate::ncp::{FischerBurmeister, MinMap, boxed_reformulation, lcp_reformulation};
use crate::problem::{BoxedLcp, FrictionContact, FrictionKind, Lcp};

/// An error measured three ways (see the [module table](self)).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Residual {
    /// The absolute error.
    pub abs: f64,
    /// Relative error in the Siconos 4.4 normalisation (for LCPs: `/ ‖b‖`).
    pub rel: f64,
    /// Relative error in the `‖q‖` normalisation of Siconos <= 4.3 and the 2018
    /// benchmark (for LCPs the same as `rel`).
    pub rel_q: f64,
}

impl Residual {
    /// `abs` divided by each denominator (skipped below machine epsilon).
    ///
    /// A denominator that is not finite gives an infinite relative error. That happens
    /// when a norm in it overflows (entries beyond about `1e154`, whose squares exceed
    /// `f64::MAX`); dividing by it would report a runaway iterate as an exact solution.
    /// Solvers report a non-finite error as [`crate::solver::SolveError::Diverged`].
    pub fn new(abs: f64, denom: f64, denom_q: f64) -> Residual {
        let div = |d: f64| {
            if !d.is_finite() {
                f64::INFINITY
            } else if d > f64::EPSILON {
                abs / d
            } else {
                abs
            }
        };
        Residual {
            abs,
            rel: div(denom),
            rel_q: div(denom_q),
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

    /// `true` if every field is finite.
    pub fn is_finite(&self) -> bool {
        self.abs.is_finite() && self.rel.is_finite() && self.rel_q.is_finite()
    }
}

/// Which of the three numbers of a [`Residual`] a stopping test compares with the
/// tolerance.
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
    v.norm()
}

/// The LCP error Siconos reports (`lcp_compute_error`): `‖x - max(0, x - w)‖₂ / ‖b‖`,
/// `w = A x + b`. Note `x - max(0, x - w) = min(x, w)`: the natural map and the minimum
/// map coincide for the LCP.
pub fn lcp_error(lcp: &Lcp, x: &DVector<f64>) -> Residual {
    let abs = norm(&lcp_reformulation::<MinMap>(lcp, x));
    let nb = norm(lcp.b());
    Residual::new(abs, nb, nb)
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
/// 37), normalised by `‖b‖`.
pub fn boxed_error(blcp: &BoxedLcp, x: &DVector<f64>) -> Residual {
    let abs = norm(&boxed_reformulation::<MinMap>(blcp, x));
    let nb = norm(blcp.b());
    Residual::new(abs, nb, nb)
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

/// The per-contact natural-map residual `e_c = r_c - P_K(r_c - û_c)` of one contact, with
/// `û_c = u_c + [mu ‖u_t‖, 0, 0]` for Coulomb (De Saxce) and `û_c = u_c` for CCP.
#[inline]
pub fn natural_map_contact(r: [f64; 3], u: [f64; 3], mu: f64, kind: FrictionKind) -> [f64; 3] {
    let shift = match kind {
        FrictionKind::Coulomb => mu * u[1].hypot(u[2]),
        FrictionKind::Ccp => 0.0,
    };
    let p = project_on_cone([r[0] - (u[0] + shift), r[1] - u[1], r[2] - u[2]], mu);
    [r[0] - p[0], r[1] - p[1], r[2] - p[2]]
}

/// The absolute natural-map error `sqrt(Σ_c ‖e_c‖²)` for given `r` and `u`.
pub fn natural_map_abs(r: &[f64], u: &[f64], mu: &[f64], kind: FrictionKind) -> f64 {
    let mut s = 0.0;
    for (c, &m) in mu.iter().enumerate() {
        let k = 3 * c;
        let e = natural_map_contact(
            [r[k], r[k + 1], r[k + 2]],
            [u[k], u[k + 1], u[k + 2]],
            m,
            kind,
        );
        s += e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
    }
    s.sqrt()
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
    let abs = natural_map_abs(r.as_slice(), u.as_slice(), fc.mu().as_slice(), kind);
    let nq = norm(fc.q());
    let denom = nq.max(norm(r)).max(norm(u));
    Residual::new(abs, denom, nq)
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
/// problem's units; zero for an exact solution except `dissipation`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ContactCheck {
    /// Contact index.
    pub contact: usize,
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
                ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
            };
            let e = natural_map_contact(rc, uc, mu, kind);
            ContactCheck {
                contact: c,
                r_n: rc[0],
                u_n: uc[0],
                slip,
                penetration: (-uc[0]).max(0.0),
                cone_violation: dist(rc, pr),
                dual_violation: dist(uhat, pu),
                complementarity: (rc[0] * uhat[0] + rc[1] * uhat[1] + rc[2] * uhat[2]).abs(),
                dissipation: -(rc[1] * uc[1] + rc[2] * uc[2]),
                error: (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]).sqrt(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::Matrix;
    use nalgebra::DMatrix;

    /// A runaway iterate whose norm overflows must not read as converged: found by the
    /// PROX property tests, where a divergent Jacobi run at `1e154` had `rel = 0`.
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
        assert!(!e.is_finite() && e.rel != 0.0, "{e:?}");
        // a finite error over an overflowed norm
        let e = Residual::new(1e150, f64::INFINITY, 2.0);
        assert_eq!((e.rel, e.rel_q), (f64::INFINITY, 5e149));
        assert!(!e.is_finite());
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
    let primal = checks
        .iter()
        .map(|c| c.cone_violation * c.cone_violation)
        .sum::<f64>()
        .sqrt();
    let dual = checks
        .iter()
        .map(|c| c.dual_violation * c.dual_violation)
        .sum::<f64>()
        .sqrt();
    (primal, dual)
}
