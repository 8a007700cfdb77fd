//! Certificates that a contact problem has no solution.
//!
//! A solver that fails on a problem says why it stopped; it cannot say that nothing would
//! have succeeded. A **certificate** can: a direction `d` whose existence contradicts every
//! solution, checked here with a few products, whoever found it.
//!
//! # The three certificates (the book's chapter "Reading real problems and judging an
//! # answer", section "Problems without a solution")
//!
//! * **LCP** `0 <= x ⊥ A x + b >= 0`: `y >= 0` with `Aᵀ y <= 0` and `b · y < 0`. For every
//!   `x >= 0`, `y · (A x + b) = (Aᵀ y) · x + b · y < 0`, so some `(A x + b)_i < 0`: no `x` is
//!   even feasible (Farkas's lemma; Cottle, Pang, Stone 1992 §3.8). For a copositive-plus `A`
//!   Lemke's secondary ray ends in such a `y` ([`crate::pivoting`]).
//! * **CCP** `K ∋ r ⊥ u = W r + q ∈ K*`: `d ∈ K` with `-Wᵀ d ∈ K*` and `q · d < 0`. Every
//!   solution has `u ∈ K*`, so `d · u >= 0`; but `d · u = (Wᵀ d) · r + q · d <= q · d < 0`
//!   since `(Wᵀ d) · r <= 0` for `r ∈ K`. This is the Farkas alternative of the conic program
//!   `min ½ rᵀ W r + q · r, r ∈ K` being unbounded below (for a positive semidefinite `W`,
//!   `-Wᵀ d ∈ K*` with `d ∈ K` forces `W d = 0`: a direction of `K` that `W` does not see and
//!   `q` pushes into).
//! * **Coulomb** (De Saxcé's form): every solution has `u_n,c >= 0` at every contact (a
//!   contact either opens, `r = 0` and `u_n >= 0`, or holds, `u_n = 0`, sticking or sliding).
//!   A *normal* direction `d = Σ_c y_c e_n,c` with `y >= 0`, `-Wᵀ d ∈ K*` and `q · d < 0` then
//!   gives `Σ_c y_c u_n,c = (Wᵀ d) · r + q · d < 0`, a contact with `u_n < 0`. (Tangential
//!   parts are not allowed: De Saxcé's `û = u + mu ‖u_t‖ e_n` adds a term of either sign
//!   to `d · û`.) For a positive semidefinite `W` this says that the frictionless normal
//!   problem `(W_nn, q_n)` has no feasible point: nothing can stop the penetration.
//!
//! # Rounding
//! `Wᵀ d` is computed in floating point, so `-Wᵀ d` may miss `K*` by a residual `ρ =
//! ‖(-Wᵀ d) - P_{K*}(-Wᵀ d)‖`. The argument above still holds for every answer with
//! `‖r‖ < |q · d| / ρ` (the term `(Wᵀ d) · r` is at most `ρ ‖r‖`): [`Certificate::radius`].
//! A certificate is accepted when that radius is at least [`ACCEPT_RADIUS`] times the
//! problem's force scale `‖q‖ / w` (`w` the smallest positive diagonal entry of `W`, the
//! stiffest contact, which needs the largest impulse to stop): no solution exists
//! within a billion times the impulses the problem's own numbers produce. With an exact
//! null direction (`W = 0`, or rows that cancel exactly) the radius is infinite.
//!
//! # Where the direction comes from
//! [`find`] tries two candidates: the answer a method stopped on (an iterate that grows
//! without bound points along `d`), and for problems up to [`NULL_SPACE_LIMIT`] unknowns the
//! projection of `-q` on the null space of `W` (of `W_nn` for Coulomb), put into the cone.
//! Both are checked by [`verify_friction`] / [`verify_lcp`]; a problem whose certificate
//! neither finds is reported with the status the method gave, never as infeasible.
//!
//! Checked by `tests/laws/trust.rs`.

use std::fmt;

use nalgebra::{DMatrix, DVector};
use serde::Serialize;

use crate::friction::{project_on_cone, project_on_dual_cone};
use crate::merit::scaled_norm;
use crate::problem::{AnyProblem, FrictionContact, FrictionKind, Lcp};

/// A certificate is accepted when no solution exists with `‖r‖` below this many times the
/// problem's force scale.
pub const ACCEPT_RADIUS: f64 = 1e9;

/// Problems up to this many unknowns (normal rows, for Coulomb) also get the null-space
/// candidate, which needs a dense symmetric eigendecomposition.
pub const NULL_SPACE_LIMIT: usize = 600;

/// Proof that a problem has no solution (see the [module docs](self)).
///
/// Its `Debug` form shows at most 16 entries of `direction` and `support` (a certificate of
/// a problem with 10^6 unknowns would otherwise print megabytes in a failed assertion).
#[derive(Clone, PartialEq, Serialize)]
pub struct Certificate {
    /// `"lcp"`, `"ccp"` or `"coulomb"`: which argument proves it.
    pub law: &'static str,
    /// The direction `d` (the unknowns' layout: `y` for an LCP, `3 nc` entries `[n, t1, t2]`
    /// per contact for a friction problem), scaled to unit length.
    pub direction: Vec<f64>,
    /// `q · d` (or `b · y`): negative.
    pub q_dot_d: f64,
    /// How far `-Wᵀ d` is from `K*` (LCP: `‖max(0, Aᵀ y)‖`), in the units of `W d`.
    pub residual: f64,
    /// No solution exists with `‖r‖` below this (infinite when `residual = 0`).
    pub radius: f64,
    /// The contacts (LCP: the rows) where `d` is not zero.
    pub support: Vec<usize>,
}

impl fmt::Debug for Certificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn head<T: fmt::Debug>(v: &[T]) -> String {
            if v.len() <= 16 {
                format!("{v:?}")
            } else {
                format!("{:?} (first 16 of {})", &v[..16], v.len())
            }
        }
        f.debug_struct("Certificate")
            .field("law", &self.law)
            .field("direction", &format_args!("{}", head(&self.direction)))
            .field("q_dot_d", &self.q_dot_d)
            .field("residual", &self.residual)
            .field("radius", &self.radius)
            .field("support", &format_args!("{}", head(&self.support)))
            .finish()
    }
}

impl fmt::Display for Certificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.law {
            "lcp" => "rows",
            _ => "contacts",
        };
        let list: Vec<String> = self.support.iter().take(8).map(|c| c.to_string()).collect();
        let more = if self.support.len() > 8 { ", ..." } else { "" };
        let why = match self.law {
            "lcp" => {
                "y >= 0 with A^T y <= 0 and b.y < 0: some row of Ax + b is negative for every x >= 0"
            }
            "ccp" => {
                "d in the friction cone with -W^T d in the dual cone and q.d < 0: no velocity in the dual cone"
            }
            _ => {
                "a normal direction d >= 0 with -W^T d in the dual cone and q.d < 0: some contact penetrates whatever the impulses"
            }
        };
        let radius = if self.radius.is_infinite() {
            "for every answer".to_string()
        } else {
            format!("for every answer with |r| < {:.3e}", self.radius)
        };
        write!(
            f,
            "certificate on {what} [{}{more}]: {why} (q.d = {:.3e}, residual {:.1e}; {radius})",
            list.join(", "),
            self.q_dot_d,
            self.residual
        )
    }
}

/// How negative `q · d` (with `‖d‖ = 1`) must be to be more than rounding: `64 n eps ‖q‖`.
fn rounding(q: &DVector<f64>) -> f64 {
    64.0 * q.len() as f64 * f64::EPSILON * scaled_norm(q.as_slice())
}

/// The force scale `‖q‖ / w` of a problem with free velocity `q` and matrix `a`, `w` the
/// smallest positive diagonal entry (the stiffest contact, which needs the largest impulse
/// to stop; 1 when none is positive; the scale is 1 when `q = 0`).
fn force_scale(a: &crate::matrix::Matrix, q: &DVector<f64>) -> f64 {
    let w = a
        .diagonal()
        .iter()
        .filter(|d| **d > 0.0)
        .fold(f64::INFINITY, |m, d| m.min(*d));
    let w = if w.is_finite() { w } else { 1.0 };
    let v = scaled_norm(q.as_slice());
    if v > 0.0 { v / w } else { 1.0 }
}

/// Checks the direction `d` (`3 nc` entries) as a certificate for `fc` under `kind`: for
/// Coulomb its tangential entries must be zero and its normal ones `>= 0`, for CCP `d` must
/// lie in `K` (rounding of `1e-12 ‖d‖` allowed). `Some` when it proves that `fc` has no
/// solution within [`ACCEPT_RADIUS`] times the problem's force scale.
pub fn verify_friction(
    fc: &FrictionContact,
    d: &DVector<f64>,
    kind: FrictionKind,
) -> Option<Certificate> {
    let norm = scaled_norm(d.as_slice());
    if !(norm > 0.0 && norm.is_finite()) || d.len() != fc.dim() {
        return None;
    }
    let d = d / norm;
    let mu = fc.mu();
    for c in 0..fc.contacts() {
        let dc = [d[3 * c], d[3 * c + 1], d[3 * c + 2]];
        let ok = match kind {
            FrictionKind::Coulomb => dc[0] >= 0.0 && dc[1] == 0.0 && dc[2] == 0.0,
            FrictionKind::Ccp => {
                let p = project_on_cone(dc, mu[c]);
                scaled_norm(&[dc[0] - p[0], dc[1] - p[1], dc[2] - p[2]]) <= 1e-12
            }
        };
        if !ok {
            return None;
        }
    }
    let qd = fc.q().dot(&d);
    if !(qd < -rounding(fc.q())) {
        return None;
    }
    let g = fc.w().tr_mul_vec(&d);
    let mut miss = Vec::with_capacity(g.len());
    for c in 0..fc.contacts() {
        let m = [-g[3 * c], -g[3 * c + 1], -g[3 * c + 2]];
        let p = project_on_dual_cone(m, mu[c]);
        miss.extend_from_slice(&[m[0] - p[0], m[1] - p[1], m[2] - p[2]]);
    }
    let residual = scaled_norm(&miss);
    let radius = if residual == 0.0 {
        f64::INFINITY
    } else {
        -qd / residual
    };
    if !(radius >= ACCEPT_RADIUS * force_scale(fc.w(), fc.q())) {
        return None;
    }
    let support = (0..fc.contacts())
        .filter(|&c| d[3 * c] != 0.0 || d[3 * c + 1] != 0.0 || d[3 * c + 2] != 0.0)
        .collect();
    Some(Certificate {
        law: match kind {
            FrictionKind::Coulomb => "coulomb",
            FrictionKind::Ccp => "ccp",
        },
        direction: d.as_slice().to_vec(),
        q_dot_d: qd,
        residual,
        radius,
        support,
    })
}

/// Checks `y` as an LCP certificate: `y >= 0`, `b · y < 0`, and `Aᵀ y <= 0` up to a
/// residual `‖max(0, Aᵀ y)‖` small enough that no `x >= 0` with `‖x‖` below
/// [`ACCEPT_RADIUS`] times the problem's scale `‖b‖ / min_i A_ii` is feasible.
pub fn verify_lcp(lcp: &Lcp, y: &DVector<f64>) -> Option<Certificate> {
    let norm = scaled_norm(y.as_slice());
    if !(norm > 0.0 && norm.is_finite()) || y.len() != lcp.b().len() || y.iter().any(|v| *v < 0.0) {
        return None;
    }
    let y = y / norm;
    let by = lcp.b().dot(&y);
    if !(by < -rounding(lcp.b())) {
        return None;
    }
    let g = lcp.a().tr_mul_vec(&y);
    let miss: Vec<f64> = g.iter().map(|v| v.max(0.0)).collect();
    let residual = scaled_norm(&miss);
    let radius = if residual == 0.0 {
        f64::INFINITY
    } else {
        -by / residual
    };
    let diag = lcp.a().diagonal().iter().fold(0.0f64, |m, d| m.max(*d));
    let nb = scaled_norm(lcp.b().as_slice());
    let scale = if diag > 0.0 && nb > 0.0 {
        nb / diag
    } else {
        1.0
    };
    if !(radius >= ACCEPT_RADIUS * scale) {
        return None;
    }
    let support = (0..y.len()).filter(|&i| y[i] != 0.0).collect();
    Some(Certificate {
        law: "lcp",
        direction: y.as_slice().to_vec(),
        q_dot_d: by,
        residual,
        radius,
        support,
    })
}

/// An orthonormal basis (columns) of the null space of the symmetric part of `a`
/// (eigenvalues at most `1e-12` times the largest in magnitude; all of them when `a = 0`);
/// `None` when it is `{0}`.
fn null_space(a: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let sym = (a + a.transpose()) * 0.5;
    let eig = nalgebra::SymmetricEigen::try_new(sym, 1e-14, 10_000)?;
    let top = eig.eigenvalues.iter().fold(0.0f64, |m, l| m.max(l.abs()));
    let cols: Vec<_> = eig
        .eigenvalues
        .iter()
        .enumerate()
        .filter(|(_, l)| l.abs() <= 1e-12 * top || top == 0.0)
        .map(|(k, _)| eig.eigenvectors.column(k).into_owned())
        .collect();
    (!cols.is_empty()).then(|| DMatrix::from_columns(&cols))
}

/// `N Nᵀ v`: the projection on the span of the orthonormal columns of `n`.
fn project_on(n: &DMatrix<f64>, v: &DVector<f64>) -> DVector<f64> {
    n * (n.transpose() * v)
}

/// Alternating projections between the null space spanned by `n` and the cone (`cone`),
/// from `start`, renormalised every step and pulled along `-q` so that they do not settle
/// at zero: a point of both (up to rounding) when they meet in more than the origin along
/// a direction `q` pushes into. [`ALTERNATIONS`] rounds; every iterate is a candidate.
fn alternate(
    n: &DMatrix<f64>,
    q: &DVector<f64>,
    start: &DVector<f64>,
    cone: impl Fn(&DVector<f64>) -> DVector<f64>,
    accept: impl Fn(&DVector<f64>) -> Option<Certificate>,
) -> Option<Certificate> {
    let nq = scaled_norm(q.as_slice()).max(f64::MIN_POSITIVE);
    let mut d = start.clone();
    for _ in 0..ALTERNATIONS {
        let c = cone(&project_on(n, &d));
        if let Some(cert) = accept(&c) {
            return Some(cert);
        }
        let norm = scaled_norm(c.as_slice());
        if !(norm > 0.0 && norm.is_finite()) {
            return None;
        }
        d = &c / norm - q * (0.1 / nq);
    }
    None
}

/// LCPs up to this many unknowns also try each pushed row alone as `y`.
const UNIT_CANDIDATES: usize = 100;

/// Rounds of [`alternate`].
const ALTERNATIONS: usize = 1000;

/// `d` put into the set a certificate of `kind` must lie in: the normal entries' positive
/// parts (Coulomb), or the projection on `K` (CCP).
fn into_cone(fc: &FrictionContact, d: &DVector<f64>, kind: FrictionKind) -> DVector<f64> {
    let mut out = DVector::zeros(d.len());
    for c in 0..fc.contacts() {
        let k = 3 * c;
        match kind {
            FrictionKind::Coulomb => out[k] = d[k].max(0.0),
            FrictionKind::Ccp => {
                let p = project_on_cone([d[k], d[k + 1], d[k + 2]], fc.mu()[c]);
                out[k] = p[0];
                out[k + 1] = p[1];
                out[k + 2] = p[2];
            }
        }
    }
    out
}

/// An answer more than this many times the problem's force scale is checked for a
/// certificate even when its solve converged: at that size `W r` carries a rounding of
/// about `1e-8 ‖q‖`, and a small relative error is weak evidence (a proximal Newton answer beyond it met both
/// error measures on a problem with a planted certificate,
/// `tests/proptest-regressions/trust.txt`). The check only ever turns an answer into a proved [`Certificate`].
pub const IMPLAUSIBLE: f64 = 1e8;

/// `true` when `x` is more than [`IMPLAUSIBLE`] times the force scale of `problem` (LCPs and
/// local friction problems; `false` for the others).
pub fn implausible(problem: &AnyProblem, x: &DVector<f64>) -> bool {
    let scale = match problem {
        AnyProblem::Lcp(l) => force_scale(l.a(), l.b()),
        AnyProblem::Friction(f) => force_scale(f.w(), f.q()),
        _ => return false,
    };
    scaled_norm(x.as_slice()) > IMPLAUSIBLE * scale
}

/// Looks for a certificate that `problem` has no solution, from the answer `hint` a method
/// stopped on (its length is the problem's `dim`) and, for problems up to
/// [`NULL_SPACE_LIMIT`] unknowns, from the null space of `W`. A global problem is judged by
/// its local form. `None` when no candidate is proved (which does not mean the problem has
/// a solution); always `None` for boxed LCPs (their finite boxes make them solvable) and
/// generic mechanical problems.
pub fn find(problem: &AnyProblem, hint: &DVector<f64>) -> Option<Certificate> {
    match problem {
        AnyProblem::Lcp(lcp) => find_lcp(lcp, hint),
        AnyProblem::Friction(fc) => find_friction(fc, hint),
        AnyProblem::Global(g) => {
            let local = g.to_local().ok()?;
            find_friction(&local, hint)
        }
        AnyProblem::Boxed(_) | AnyProblem::Generic(_) => None,
    }
}

fn find_lcp(lcp: &Lcp, hint: &DVector<f64>) -> Option<Certificate> {
    if hint.len() == lcp.b().len() {
        if let Some(c) = verify_lcp(lcp, &hint.map(|v| v.max(0.0))) {
            return Some(c);
        }
    }
    let n = lcp.b().len();
    // the rows that b pushes in, together and one at a time (a row i with A_ii <= 0 and
    // b_i < 0 may prove it alone)
    let pushed = lcp.b().map(|v| (-v).max(0.0));
    if let Some(c) = verify_lcp(lcp, &pushed) {
        return Some(c);
    }
    if n <= UNIT_CANDIDATES {
        for i in (0..n).filter(|&i| lcp.b()[i] < 0.0) {
            let mut e = DVector::zeros(n);
            e[i] = 1.0;
            if let Some(c) = verify_lcp(lcp, &e) {
                return Some(c);
            }
        }
    }
    if n > NULL_SPACE_LIMIT {
        return None;
    }
    let null = null_space(&lcp.a().to_dense())?;
    let b = lcp.b();
    alternate(
        &null,
        b,
        &(-b),
        |d| d.map(|v| v.max(0.0)),
        |d| verify_lcp(lcp, d),
    )
}

fn find_friction(fc: &FrictionContact, hint: &DVector<f64>) -> Option<Certificate> {
    let kind = fc.kind();
    if hint.len() == fc.dim() {
        if let Some(c) = verify_friction(fc, &into_cone(fc, hint, kind), kind) {
            return Some(c);
        }
    }
    let nc = fc.contacts();
    match kind {
        FrictionKind::Coulomb if nc <= NULL_SPACE_LIMIT => {
            // the normal rows: y >= 0 in the null space of W_nn with q_n . y < 0
            let w = fc.w();
            let wnn = DMatrix::from_fn(nc, nc, |i, j| w.get(3 * i, 3 * j));
            let qn = DVector::from_fn(nc, |i, _| fc.q()[3 * i]);
            let null = null_space(&wnn)?;
            let lift = |y: &DVector<f64>| {
                let mut d = DVector::zeros(fc.dim());
                for c in 0..nc {
                    d[3 * c] = y[c];
                }
                d
            };
            let start = if hint.len() == fc.dim() {
                DVector::from_fn(nc, |i, _| hint[3 * i].max(0.0)) - &qn
            } else {
                -&qn
            };
            alternate(
                &null,
                &qn,
                &start,
                |y| y.map(|v| v.max(0.0)),
                |y| verify_friction(fc, &lift(y), kind),
            )
        }
        FrictionKind::Ccp if fc.dim() <= NULL_SPACE_LIMIT => {
            let null = null_space(&fc.w().to_dense())?;
            let q = fc.q();
            let start = if hint.len() == fc.dim() {
                into_cone(fc, hint, kind) / scaled_norm(hint.as_slice()).max(f64::MIN_POSITIVE)
                    - q / scaled_norm(q.as_slice()).max(f64::MIN_POSITIVE)
            } else {
                -q
            };
            alternate(
                &null,
                q,
                &start,
                |d| into_cone(fc, d, kind),
                |d| verify_friction(fc, d, kind),
            )
        }
        _ => None,
    }
}
