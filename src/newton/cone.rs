//! Semismooth Newton on the friction cone: the Alart-Curnier function for Coulomb friction
//! and the natural map for the CCP, with a line search.
//!
//! # The equations
//!
//! For a [`FrictionContact`] with `u = W r + q`, pick per contact `ρ_n, ρ_t > 0` and let
//! `x_c = r_c - ρ_c ∘ u_c` (`ρ_n` on the normal row, `ρ_t` on both tangent rows).
//!
//! * **Coulomb (Alart-Curnier 1991).** `Φ_c(r) = r_c - P_c(x_c)` with
//!   `P_c(x) = ( max(0, x_n),  proj_{D(μ max(0, x_n))}(x_t) )`, the disk `D(R)` of radius
//!   `R` centred at 0. `Φ = 0` says: the normal reaction is the projection of itself pushed
//!   by the normal velocity (Signorini, as a natural map), and the friction force is the
//!   projection onto the disk of radius `μ r_n` of itself pushed against the slip (maximal
//!   dissipation, Erleben 2017 eq. 9): Coulomb's law. Its roots do not depend on `ρ`.
//! * **CCP (natural map on the cone).** `Φ_c(r) = r_c - P_{K_μ}(r_c - ρ_c u_c)` with one
//!   scalar `ρ_c` per contact: `r_c ∈ K`, `u_c ∈ K*`, `r_c · u_c = 0`.
//!
//! Why these and not Fischer-Burmeister on the cone: both are piecewise smooth with a
//! B-subdifferential element that is cheap to write per contact (the derivatives of a
//! projection), and their Newton matrices `I - D_P (I - ρ W)` keep `W`'s sparsity. This is
//! the NSN_AC formulation of Acary, Bremond, Huber 2018, the strongest of their Newton
//! variants at high accuracy.
//!
//! # The method
//!
//! `H = ∂Φ/∂r = I - D + D ρ W` with `D` the block-diagonal derivative of the projections
//! (an element of the B-subdifferential; at a kink the inactive side is chosen). Each
//! iteration solves `H Δ = -Φ` by sparse LU (faer; the symbolic analysis is done once and
//! reused, the pattern is that of `W` plus the diagonal), or by dense LU when the system is
//! small ([`DENSE_NEWTON_MAX`] unknowns), or — chosen by [`ConeNewtonOptions::linear`], by
//! default when the predicted fill of the factors exceeds [`KRYLOV_FILL_RATIO`] — by
//! restarted GMRES on the matrix-free product with a preconditioner on the 3x3 blocks of
//! `H` (block Jacobi by default, block symmetric Gauss-Seidel or block ILU(0);
//! [`NewtonLinear`], [`crate::newton::precondition`]), then backtracks on the merit
//! `ψ = 1/2 ‖Φ‖²` until the Armijo condition `ψ(r + τ Δ) <= (1 - 2 σ τ) ψ(r)` holds
//! (Silcowitz et al. 2009 eq. 38). When `H` is singular — more contacts than degrees of
//! freedom make `W` rank deficient — it is regularised (`H + ε I`, `ε` growing). When the
//! LU solves a nearly singular `H` without complaint but the direction fails the line
//! search (a component in the null space of `W` that leaves the cone), the regularised
//! direction is tried once with a short line search. When no
//! step along the direction passes the test, the iteration falls back to a few blocked
//! Gauss-Seidel sweeps (the hybrid globalisation, the default) or, with
//! [`ConeNewtonOptions::gs_sweeps`] `= 0`, to the gradient direction `-H^T Φ`.
//! The loop stops on the natural-map error of [`crate::merit`] (Siconos 4.4 normalisation
//! by default), like every other friction solver here.
//!
//! [`ConeNewton`] is the method ([`crate::solver::Method`]): `prepare` analyses the pattern
//! of `H` (that of `W` by blocks) once, `start` computes `ρ` of the problem at hand (the
//! Gauss-Seidel fallback is prepared when first needed), and one `step` is one Newton
//! iteration; [`cone_newton`] runs it in the crate's loop.
//!
//! Checked by `tests/laws/cone_newton_jacobian.rs`, `tests/laws/cone_newton_quadratic.rs`,
//! `tests/laws/cone_newton_rank_deficient.rs` and `tests/laws/newton_preconditioner.rs`.

use crate::linalg::PatternLu;
use crate::policy::fallback::Fallback;
use crate::solver::MethodOptions;
use std::ops::ControlFlow;

use faer::sparse::SymbolicSparseColMat;
use nalgebra::{DVector, Matrix3};
use serde::{Deserialize, Serialize};

use super::inner::{KrylovOutcome, gmres_with};
use super::invalid_option;
use super::precondition::{BlockPreconditioner, NewtonPreconditioner};
use crate::friction::project_on_cone;
use crate::merit::{Residual, friction_error_with_velocity};
use crate::problem::{FrictionContact, FrictionKind, ProblemError};
use crate::solver::{Iterate, Method, NonExhaustive, Params, SolveError, Solved, Step, solve};
use crate::splitting::{BlockRows, NsgsPrepared, SeenMatrix};

/// Options of the semismooth Newton method on the friction cone ([`ConeNewton`],
/// [`cone_newton`]; `nsn` on the command line). Build with
/// `ConeNewtonOptions { line_search: false, ..Default::default() }`. Serialised with the
/// field names (the keys of `key=value` settings), every field optional, unknown ones
/// refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConeNewtonOptions {
    /// Backtrack on the merit `ψ = 1/2 ‖Φ‖²` (default `true`); `false` takes full Newton
    /// steps (the fallbacks still apply when the Newton system cannot be solved).
    pub line_search: bool,
    /// Armijo constant `σ` of the test `ψ(r + τ Δ) <= (1 - 2 σ τ) ψ_ref` (Silcowitz,
    /// Niebe, Erleben 2009 eq. 38), also the sufficient decrease of the gradient fallback.
    /// Default `1e-4`; in `(0, 1/2)`, dimensionless.
    pub armijo: f64,
    /// Step shrink factor `τ <- shrink τ` per backtrack. Default `0.5`; in `(0, 1)`.
    pub shrink: f64,
    /// Backtracks per iteration before the fallback (default 20; any count, 0 tries the
    /// full step only).
    pub max_backtracks: usize,
    /// Scale of `ρ`: `ρ_n = scale / W_nn`, `ρ_t = scale / max(W_t1t1, W_t2t2)` (Alart and
    /// Curnier 1991 leave `ρ > 0` free; Acary, Bremond, Huber 2018 take `1 / W_ii`).
    /// Default 1; positive and finite, dimensionless (`ρ` itself is in the units of
    /// `1 / W`).
    pub rho_scale: f64,
    /// Non-monotone window: a step is accepted when the merit decreases relative to the
    /// largest of the last `window` merits (Grippo, Lampariello, Lucidi 1986). Default 1,
    /// the monotone Armijo rule (on the shared Siconos problems a window of 5 needs
    /// several times the iterations on `BoxesStack1`: 276 against 38); `>= 1`.
    pub window: usize,
    /// Blocked Gauss-Seidel sweeps taken when the line search finds no acceptable Newton
    /// step (the hybrid globalisation of Acary, Bremond, Huber 2018; default 10; 0 falls
    /// back to the gradient direction `-H^T Φ` instead).
    pub gs_sweeps: usize,
    /// How the Newton system `H Δ = -Φ` is solved: `"auto"` (the default), `"lu"` (faer's
    /// sparse LU, dense LU up to [`DENSE_NEWTON_MAX`] unknowns) or `"gmres"` (restarted
    /// GMRES on the matrix-free product `H v`, preconditioned by
    /// [`ConeNewtonOptions::precondition`]). `"auto"`
    /// takes the LU unless the system has at least [`KRYLOV_MIN_UNKNOWNS`] unknowns and the
    /// symbolic Cholesky analysis of the pattern of `H` (AMD
    /// ordering) predicts more than [`KRYLOV_FILL_RATIO`] times the entries of `H` in the
    /// factors. See [`NewtonLinear`].
    pub linear: NewtonLinear,
    /// The right preconditioner of the GMRES inner solve (when [`ConeNewtonOptions::linear`]
    /// is `"gmres"`, or `"auto"` picks GMRES): `"jacobi"` (the inverses of the 3x3 diagonal
    /// blocks of `H`, the default), `"sgs"` (block symmetric Gauss-Seidel on the 3x3 block
    /// rows of `H`) or `"ilu0"` (block incomplete LU on the block pattern of `W`). See
    /// [`NewtonPreconditioner`] and [`crate::newton::precondition`].
    pub precondition: NewtonPreconditioner,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl MethodOptions for ConeNewtonOptions {
    /// Checks every value against its range (see the fields).
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`] naming the first value out of range.
    fn check(&self) -> Result<(), ProblemError> {
        let bad = |option: &str, reason: String| Err(invalid_option("nsn", option, reason));
        if !(self.armijo > 0.0 && self.armijo < 0.5) {
            return bad("armijo", format!("{} is outside (0, 1/2)", self.armijo));
        }
        if !(self.shrink > 0.0 && self.shrink < 1.0) {
            return bad("shrink", format!("{} is outside (0, 1)", self.shrink));
        }
        if !(self.rho_scale > 0.0 && self.rho_scale.is_finite()) {
            return bad(
                "rho_scale",
                format!("{} is not positive and finite", self.rho_scale),
            );
        }
        if self.window == 0 {
            return bad("window", "0 is out of range (it must be at least 1)".into());
        }
        Ok(())
    }
}

impl Default for ConeNewtonOptions {
    fn default() -> Self {
        ConeNewtonOptions {
            line_search: true,
            armijo: 1e-4,
            shrink: 0.5,
            max_backtracks: 20,
            rho_scale: 1.0,
            window: 1,
            gs_sweeps: 10,
            linear: NewtonLinear::Auto,
            precondition: NewtonPreconditioner::default(),
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

/// How the cone Newton method solves its Newton system `H Δ = -Φ`
/// ([`ConeNewtonOptions::linear`]; `linear=auto|lu|gmres` on the command line).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NewtonLinear {
    /// Sparse LU, unless the system has at least [`KRYLOV_MIN_UNKNOWNS`] unknowns and the
    /// symbolic analysis of `H`'s pattern predicts a fill above [`KRYLOV_FILL_RATIO`] (then
    /// GMRES). Systems of at most [`DENSE_NEWTON_MAX`] unknowns
    /// always take the dense LU.
    #[default]
    Auto,
    /// Direct: dense LU up to [`DENSE_NEWTON_MAX`] unknowns, faer's sparse LU (COLAMD
    /// column ordering, partial pivoting, symbolic analysis done once and reused) above.
    Lu,
    /// Inexact: restarted GMRES ([`crate::newton::gmres_with`], [`KRYLOV_RESTART`] vectors,
    /// at most [`KRYLOV_MAX_PRODUCTS`] products) on `H v = v + D (ρ ∘ W v - v)`, one pass
    /// over `W` per product, right-preconditioned by a preconditioner that sees the 3x3
    /// blocks of `H` ([`ConeNewtonOptions::precondition`]: by default block Jacobi, the
    /// inverses of the diagonal blocks `I - D_c + D_c ρ_c W_cc`; or block symmetric
    /// Gauss-Seidel, or block ILU(0); [`crate::newton::precondition`]). Forcing term
    /// `η = min(10⁻¹, (‖Φ‖ / ‖r‖)^{1/2})`, which keeps a superlinear local rate (Dembo,
    /// Eisenstat, Steihaug 1982, Theorem 3.3: `η_k = O(‖Φ_k‖^{1/2})` gives order 1.5);
    /// a direction with
    /// `‖H Δ + Φ‖ < 0.9 ‖Φ‖` is a descent direction of `ψ` and goes to the line search.
    /// Memory linear in the entries of `W` (the triangular preconditioners keep one copy
    /// of the blocks of `H`); no fill-in.
    Gmres,
}

// ANCHOR: krylov_constants
/// [`NewtonLinear::Auto`] switches to GMRES on systems of at least [`KRYLOV_MIN_UNKNOWNS`]
/// unknowns when the factors of `H` (`L` and `U`, estimated
/// as twice the entries of the Cholesky factor of `H`'s symmetric pattern under AMD
/// ordering) would hold more than this many times the entries of `H`.
pub const KRYLOV_FILL_RATIO: usize = 3;

/// [`NewtonLinear::Auto`] keeps the LU on systems of fewer unknowns than this, whatever
/// the fill: there a factorisation is cheap, exact and insensitive to conditioning.
pub const KRYLOV_MIN_UNKNOWNS: usize = 3_000;

/// Krylov vectors kept by the GMRES inner solve before a restart ([`NewtonLinear::Gmres`]).
pub const KRYLOV_RESTART: usize = 50;

/// Products `H v` per Newton iteration at most in the GMRES inner solve
/// ([`NewtonLinear::Gmres`]).
pub const KRYLOV_MAX_PRODUCTS: usize = 500;
// ANCHOR_END: krylov_constants

/// What a [`cone_newton`] solve counted, in [`Solved::stats`] (and in the report of
/// [`SolveError::NoConvergence`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConeNewtonStats {
    /// Newton matrices that had to be regularised.
    pub regularised: usize,
    /// Iterations that fell back to the gradient direction.
    pub gradient_steps: usize,
    /// Total backtracking steps.
    pub backtracks: usize,
    /// Blocked Gauss-Seidel sweeps taken by the hybrid fallback.
    pub gs_sweeps: usize,
    /// Products `H v` of the GMRES inner solves ([`NewtonLinear::Gmres`]; 0 when the
    /// Newton systems were factorised).
    pub krylov_products: usize,
}

/// The reformulation `Φ(r)` of a [`FrictionContact`] (Alart-Curnier for Coulomb, the cone
/// natural map for CCP) and its generalised Jacobian, for teaching and testing; the solver
/// assembles the same Jacobian sparse.
#[derive(Debug, Clone)]
pub struct ConeReformulation<'a> {
    fc: &'a FrictionContact,
    kind: FrictionKind,
    rho: Vec<[f64; 2]>,
}

impl<'a> ConeReformulation<'a> {
    /// `ρ_n = scale / W_nn`, `ρ_t = scale / max(W_t1t1, W_t2t2)` (one scalar `min(ρ_n, ρ_t)`
    /// per contact for CCP).
    ///
    /// # Errors
    /// [`ProblemError::NonPositiveDiagonal`] if a contact's `W_nn <= 0`.
    pub fn new(fc: &'a FrictionContact, rho_scale: f64) -> Result<Self, ProblemError> {
        Ok(ConeReformulation {
            fc,
            kind: fc.kind(),
            rho: rho_of(fc, rho_scale)?,
        })
    }

    /// `Φ(r)` (`3nc`).
    pub fn phi(&self, r: &DVector<f64>) -> DVector<f64> {
        let mut phi = DVector::zeros(r.len());
        eval(
            self.fc,
            self.kind,
            &self.rho,
            r,
            &self.fc.velocity(r),
            &mut phi,
            None,
        );
        phi
    }

    /// `Φ(r)` and, per contact, the 3x3 derivative block `D_c` of its projection.
    fn phi_and_blocks(&self, r: &DVector<f64>) -> (DVector<f64>, Vec<Matrix3<f64>>) {
        let mut phi = DVector::zeros(r.len());
        let mut blocks = vec![Matrix3::zeros(); self.rho.len()];
        let u = self.fc.velocity(r);
        eval(
            self.fc,
            self.kind,
            &self.rho,
            r,
            &u,
            &mut phi,
            Some(&mut blocks),
        );
        (phi, blocks)
    }

    /// An element `H = I - D + D ρ W` of the B-subdifferential of `Φ` at `r`, dense
    /// (`3nc x 3nc`; for tests and teaching, the solver assembles it sparse).
    ///
    /// # Panics
    /// If `H` is too large for a dense copy ([`crate::matrix::check_dense`]).
    pub fn jacobian(&self, r: &DVector<f64>) -> nalgebra::DMatrix<f64> {
        let n = r.len();
        if let Err(e) = crate::matrix::check_dense("the dense cone Newton matrix", n, n) {
            panic!("{e}");
        }
        let (_, blocks) = self.phi_and_blocks(r);
        let w = self.fc.w().to_dense();
        let mut h = nalgebra::DMatrix::identity(n, n);
        for (c, d) in blocks.iter().enumerate() {
            let rho = [self.rho[c][0], self.rho[c][1], self.rho[c][1]];
            for i in 0..3 {
                for j in 0..3 {
                    h[(3 * c + i, 3 * c + j)] -= d[(i, j)];
                }
                for col in 0..n {
                    let mut v = 0.0;
                    for l in 0..3 {
                        v += d[(i, l)] * rho[l] * w[(3 * c + l, col)];
                    }
                    h[(3 * c + i, col)] += v;
                }
            }
        }
        h
    }
}

impl ConeReformulation<'_> {
    /// The Newton direction `Δ` with `H Δ ≈ -Φ(r)` by the GMRES inner solve of
    /// [`NewtonLinear::Gmres`] with the block-Jacobi preconditioner (zero start), stopped at
    /// `‖H Δ + Φ‖ <= rel_tol ‖Φ‖` or after `max_products` products; with what GMRES did
    /// (its `relative_residual` is the true residual `‖H Δ + Φ‖ / ‖Φ‖`). For testing the
    /// inexact step against the direct one.
    pub fn krylov_direction(
        &self,
        r: &DVector<f64>,
        rel_tol: f64,
        max_products: usize,
    ) -> (DVector<f64>, KrylovOutcome) {
        self.krylov_direction_with(r, rel_tol, max_products, NewtonPreconditioner::Jacobi)
    }

    /// [`krylov_direction`](Self::krylov_direction) with the preconditioner `kind`.
    pub fn krylov_direction_with(
        &self,
        r: &DVector<f64>,
        rel_tol: f64,
        max_products: usize,
        kind: NewtonPreconditioner,
    ) -> (DVector<f64>, KrylovOutcome) {
        let (phi, blocks) = self.phi_and_blocks(r);
        let rows = BlockRows::new(self.fc.w());
        let mut precond = BlockPreconditioner::new(kind, &rows);
        precond.factor(&rows, &blocks, &self.rho);
        let rhs = -phi;
        krylov_solve(
            self.fc.w(),
            &blocks,
            &self.rho,
            &precond,
            &rhs,
            rel_tol,
            max_products,
        )
    }

    /// The preconditioner `kind` of the GMRES inner solve, factorised for the Newton matrix
    /// `H` at `r` (the [`jacobian`](Self::jacobian)); its
    /// [`apply`](BlockPreconditioner::apply) returns `M⁻¹ v`.
    pub fn preconditioner(
        &self,
        r: &DVector<f64>,
        kind: NewtonPreconditioner,
    ) -> BlockPreconditioner {
        let (_, blocks) = self.phi_and_blocks(r);
        let rows = BlockRows::new(self.fc.w());
        let mut precond = BlockPreconditioner::new(kind, &rows);
        precond.factor(&rows, &blocks, &self.rho);
        precond
    }
}

/// Solves `H Δ = rhs`, `H = I - D + D ρ W`, by restarted GMRES right-preconditioned by
/// `precond` (factorised for this `H`; see [`NewtonLinear::Gmres`]); zero start.
fn krylov_solve(
    w: &crate::matrix::Matrix,
    blocks: &[Matrix3<f64>],
    rho: &[[f64; 2]],
    precond: &BlockPreconditioner,
    rhs: &DVector<f64>,
    rel_tol: f64,
    max_products: usize,
) -> (DVector<f64>, KrylovOutcome) {
    let nc = blocks.len();
    let n = 3 * nc;
    let mut wv = DVector::zeros(n);
    let mut apply = |v: &DVector<f64>| -> DVector<f64> {
        // H v = v + D (ρ ∘ W v - v)
        wv.fill(0.0);
        w.mul_vec_add(v, &mut wv);
        let mut out = v.clone();
        for c in 0..nc {
            let k = 3 * c;
            let x = nalgebra::Vector3::new(
                rho[c][0] * wv[k] - v[k],
                rho[c][1] * wv[k + 1] - v[k + 1],
                rho[c][1] * wv[k + 2] - v[k + 2],
            );
            let y = blocks[c] * x;
            for i in 0..3 {
                out[k + i] += y[i];
            }
        }
        out
    };
    let mut precondition = |v: &DVector<f64>| precond.apply(v);
    let mut d = DVector::zeros(n);
    let out = gmres_with(
        &mut apply,
        &mut precondition,
        rhs,
        &mut d,
        KRYLOV_RESTART,
        max_products,
        rel_tol,
    );
    (d, out)
}

/// The `ρ` of every contact, `[ρ_n, ρ_t]`: `ρ_n = scale / W_nn`,
/// `ρ_t = scale / max(W_t1t1, W_t2t2)` (`scale / W_nn` when both tangent entries are zero),
/// one scalar `min(ρ_n, ρ_t)` for CCP.
///
/// # Errors
/// [`ProblemError::NonPositiveDiagonal`] if a contact's `W_nn <= 0`.
fn rho_of(fc: &FrictionContact, rho_scale: f64) -> Result<Vec<[f64; 2]>, ProblemError> {
    let nc = fc.contacts();
    let mut rho = Vec::with_capacity(nc);
    for c in 0..nc {
        let k = 3 * c;
        let wnn = fc.w().get(k, k);
        if !(wnn > 0.0) {
            return Err(ProblemError::NonPositiveDiagonal {
                what: "W",
                row: k,
                value: wnn,
            });
        }
        let wtt = fc.w().get(k + 1, k + 1).max(fc.w().get(k + 2, k + 2));
        let rt = if wtt > 0.0 {
            rho_scale / wtt
        } else {
            rho_scale / wnn
        };
        rho.push([rho_scale / wnn, rt]);
    }
    if fc.kind() == FrictionKind::Ccp {
        // the cone projection needs one scalar per contact
        for p in &mut rho {
            let m = p[0].min(p[1]);
            *p = [m, m];
        }
    }
    Ok(rho)
}

/// `Φ(r)` of `fc` for the law `kind` and the `ρ` of each contact, given `u = W r + q`;
/// with `blocks`, also the 3x3 derivative of each contact's projection with respect to
/// `x = r - ρ ∘ u`.
fn eval(
    fc: &FrictionContact,
    kind: FrictionKind,
    rho: &[[f64; 2]],
    r: &DVector<f64>,
    u: &DVector<f64>,
    phi: &mut DVector<f64>,
    mut blocks: Option<&mut Vec<Matrix3<f64>>>,
) {
    let mu = fc.mu();
    for c in 0..rho.len() {
        let k = 3 * c;
        let [rn, rt] = rho[c];
        let x = [
            r[k] - rn * u[k],
            r[k + 1] - rt * u[k + 1],
            r[k + 2] - rt * u[k + 2],
        ];
        let (p, d) = match kind {
            FrictionKind::Coulomb => alart_curnier_projection(x, mu[c]),
            FrictionKind::Ccp => cone_projection_derivative(x, mu[c]),
        };
        for i in 0..3 {
            phi[k + i] = r[k + i] - p[i];
        }
        if let Some(b) = blocks.as_deref_mut() {
            b[c] = d;
        }
    }
}

// ANCHOR: ac_projection
/// `P(x) = (max(0, x_n), proj_{D(μ max(0, x_n))}(x_t))` and its derivative (inactive side
/// at kinks).
fn alart_curnier_projection(x: [f64; 3], mu: f64) -> ([f64; 3], Matrix3<f64>) {
    let mut d = Matrix3::zeros();
    let pn = x[0].max(0.0);
    if x[0] > 0.0 {
        d[(0, 0)] = 1.0;
    }
    let radius = mu * pn;
    let s = x[1].hypot(x[2]);
    if s <= radius {
        d[(1, 1)] = 1.0;
        d[(2, 2)] = 1.0;
        return ([pn, x[1], x[2]], d);
    }
    // s > radius >= 0
    let e = [x[1] / s, x[2] / s];
    let f = radius / s;
    for i in 0..2 {
        for j in 0..2 {
            let delta = if i == j { 1.0 } else { 0.0 };
            d[(1 + i, 1 + j)] = f * (delta - e[i] * e[j]);
        }
        if x[0] > 0.0 {
            d[(1 + i, 0)] = mu * e[i];
        }
    }
    ([pn, radius * e[0], radius * e[1]], d)
}
// ANCHOR_END: ac_projection

/// `P_K(x)` onto the cone `‖x_t‖ <= μ x_n` and its derivative.
fn cone_projection_derivative(x: [f64; 3], mu: f64) -> ([f64; 3], Matrix3<f64>) {
    let p = project_on_cone(x, mu);
    let s = x[1].hypot(x[2]);
    if s <= mu * x[0] && x[0] >= 0.0 {
        return (p, Matrix3::identity());
    }
    if mu * s <= -x[0] || s == 0.0 {
        return (p, Matrix3::zeros());
    }
    let e = [x[1] / s, x[2] / s];
    let mut d = Matrix3::zeros();
    if !(1.0 + mu * mu).is_finite() {
        // mu beyond 1e154: the same terms written without `mu²`:
        // k = 1 / (1 + mu²), mu k = 1 / (mu + 1 / mu), mu² k = 1 / (1 + 1 / mu²),
        // mu a / s = (x_n / mu + s) mu² k / s.
        let (k, mk, mmk) = (
            1.0 / mu / mu,
            1.0 / (mu + 1.0 / mu),
            1.0 / (1.0 + 1.0 / mu / mu),
        );
        let ma_s = (x[0] / mu + s) * mmk / s;
        d[(0, 0)] = k;
        for i in 0..2 {
            d[(0, 1 + i)] = e[i] * mk;
            d[(1 + i, 0)] = e[i] * mk;
            for j in 0..2 {
                let delta = if i == j { 1.0 } else { 0.0 };
                d[(1 + i, 1 + j)] = mmk * e[i] * e[j] + ma_s * (delta - e[i] * e[j]);
            }
        }
        return (p, d);
    }
    let k = 1.0 / (1.0 + mu * mu);
    let a = (x[0] + mu * s) * k;
    d[(0, 0)] = k;
    for i in 0..2 {
        d[(0, 1 + i)] = mu * e[i] * k;
        d[(1 + i, 0)] = mu * e[i] * k;
        for j in 0..2 {
            let delta = if i == j { 1.0 } else { 0.0 };
            d[(1 + i, 1 + j)] = mu * mu * e[i] * e[j] * k + mu * a * (delta - e[i] * e[j]) / s;
        }
    }
    (p, d)
}

/// Newton systems with at most this many unknowns (20 contacts) are solved by dense LU
/// (nalgebra, partial pivoting) instead of faer's sparse LU. On such sizes the sparse
/// symbolic analysis and its per-step bookkeeping cost more than the whole dense
/// factorisation (`n³/3` = 72 000 flops at 60, a few microseconds), and the fc3d problems
/// of a few contacts are dense by blocks anyway. The Newton step is the same: the same
/// matrix and right-hand side, solved to rounding by another LU.
pub const DENSE_NEWTON_MAX: usize = 60;

/// The Newton matrix `H = I - D + D ρ W` with a fixed sparsity pattern (that of `W` by
/// blocks, plus the diagonal), factorised by the crate's one fixed-pattern LU
/// ([`PatternLu`]: the symbolic analysis once, dense below [`DENSE_NEWTON_MAX`]
/// unknowns), or solved by GMRES.
#[derive(Debug)]
struct NewtonMatrix {
    n: usize,
    /// The LU of the pattern; `None` for GMRES.
    lu: Option<PatternLu>,
    /// Solve by GMRES instead of a factorisation ([`NewtonLinear::Gmres`], or chosen by
    /// [`NewtonLinear::Auto`]).
    krylov: bool,
    /// The option this was built with.
    linear: NewtonLinear,
    /// `W`'s entries by block row: for contact c, blocks (d, W_cd).
    rows: BlockRows,
    /// The stored numbers of the `W` of `rows`.
    seen: SeenMatrix,
    /// The preconditioner of the GMRES inner solve (its symbolic part for the pattern of
    /// `rows`, refactorised every iteration); `None` with a factorisation.
    precond: Option<BlockPreconditioner>,
    /// The preconditioner option this was built with.
    precondition: NewtonPreconditioner,
}

impl NewtonMatrix {
    /// The Newton matrix solved by GMRES alone: no pattern, no factorisation.
    fn krylov_only(
        n: usize,
        linear: NewtonLinear,
        precondition: NewtonPreconditioner,
        rows: BlockRows,
        seen: SeenMatrix,
    ) -> Self {
        NewtonMatrix {
            n,
            lu: None,
            krylov: true,
            linear,
            precond: Some(BlockPreconditioner::new(precondition, &rows)),
            precondition,
            rows,
            seen,
        }
    }

    fn new(
        fc: &FrictionContact,
        linear: NewtonLinear,
        precondition: NewtonPreconditioner,
    ) -> Result<Self, SolveError> {
        let rows = BlockRows::new(fc.w());
        let mut seen = SeenMatrix::default();
        seen.set(fc.w());
        let n = fc.dim();
        if linear == NewtonLinear::Gmres {
            return Ok(Self::krylov_only(n, linear, precondition, rows, seen));
        }
        let nc = fc.contacts();
        let mut pairs = Vec::new();
        for c in 0..nc {
            let mut cols: Vec<usize> = rows.block_columns(c).collect();
            if !cols.contains(&c) {
                cols.push(c);
            }
            for i in 0..3 {
                for &d in &cols {
                    for j in 0..3 {
                        pairs.push((3 * c + i, 3 * d + j));
                    }
                }
            }
        }
        let singular = |e: String| SolveError::Singular {
            what: format!("Newton matrix pattern: {e}"),
        };
        let entries = pairs.len();
        let lu = PatternLu::new_unless(n, &pairs, DENSE_NEWTON_MAX, |symbolic| {
            linear == NewtonLinear::Auto
                && n >= KRYLOV_MIN_UNKNOWNS
                && too_much_fill(symbolic, entries)
        })
        .map_err(singular)?;
        let Some(lu) = lu else {
            return Ok(Self::krylov_only(n, linear, precondition, rows, seen));
        };
        Ok(NewtonMatrix {
            n,
            lu: Some(lu),
            krylov: false,
            linear,
            rows,
            seen,
            precond: None,
            precondition,
        })
    }

    /// Takes `fc`'s `W` (the values of `D ρ W` are read from it); the symbolic analysis is
    /// redone only if its block pattern differs from the one analysed.
    fn refresh(&mut self, fc: &FrictionContact) -> Result<(), SolveError> {
        if self.seen.same(fc.w()) {
            return Ok(());
        }
        let rows = BlockRows::new(fc.w());
        let nc = fc.contacts();
        let same = fc.dim() == self.n
            && (0..nc).all(|c| rows.block_columns(c).eq(self.rows.block_columns(c)));
        if same {
            self.rows = rows;
            self.seen.set(fc.w());
        } else {
            *self = NewtonMatrix::new(fc, self.linear, self.precondition)?;
        }
        Ok(())
    }

    /// Values of `H + eps I` in `pairs` order, into `vals`.
    fn values(&self, blocks: &[Matrix3<f64>], rho: &[[f64; 2]], eps: f64, vals: &mut Vec<f64>) {
        vals.clear();
        let nc = blocks.len();
        for c in 0..nc {
            let dblk = &blocks[c];
            // D ρ, row-scaled columns: (D ρ)_{ij} = D_ij ρ_j
            let rho_row = [rho[c][0], rho[c][1], rho[c][1]];
            // the block row's blocks, then a zero diagonal block if W has none (the
            // order of `pairs`)
            let missing = !self.rows.block_columns(c).any(|d| d == c);
            let cols = || {
                self.rows
                    .blocks_of(c)
                    .chain(missing.then_some((c, [0.0; 9])))
            };
            for i in 0..3 {
                for (d, w) in cols() {
                    for j in 0..3 {
                        // (D ρ W)_{ij} = Σ_l D_il ρ_l W_lj
                        let mut v = 0.0;
                        for l in 0..3 {
                            v += dblk[(i, l)] * rho_row[l] * w[3 * l + j];
                        }
                        if d == c {
                            let id = if i == j { 1.0 + eps } else { 0.0 };
                            v += id - dblk[(i, j)];
                        }
                        vals.push(v);
                    }
                }
            }
        }
    }

    /// Solves `(H + eps I) x = rhs`; `None` if the factorisation fails or the result is
    /// not finite.
    fn solve(&self, vals: &[f64], rhs: &DVector<f64>) -> Option<DVector<f64>> {
        self.lu.as_ref()?.solve(vals, rhs).ok()
    }
}

/// `true` when the factors of a matrix of pattern `symbolic` (`nnz` entries) would hold more
/// than [`KRYLOV_FILL_RATIO`] times its entries: `2 nnz(L)` of the symbolic Cholesky
/// factorisation of the pattern's upper triangle under AMD ordering (the pattern of `H` is
/// that of `W`, symmetric), an estimate of `nnz(L) + nnz(U)` of the LU. A failed analysis
/// counts as too much.
fn too_much_fill(symbolic: &SymbolicSparseColMat<usize>, nnz: usize) -> bool {
    use faer::sparse::linalg::cholesky::factorize_symbolic_cholesky;
    match factorize_symbolic_cholesky(
        symbolic.as_ref(),
        faer::Side::Upper,
        Default::default(),
        Default::default(),
    ) {
        Ok(chol) => 2 * chol.len_val() > KRYLOV_FILL_RATIO.saturating_mul(nnz),
        Err(_) => true,
    }
}

/// Solves a [`FrictionContact`] problem by semismooth Newton: Alart-Curnier for Coulomb,
/// the cone natural map for CCP (see the [module docs](self)):
/// [`solve`]`::<`[`ConeNewton`]`>`.
///
/// `r` (`3nc` entries, the crate's `[n, t1, t2]` layout) is the warm start (for example a
/// few PROX or NSGS sweeps) and receives the answer. The loop stops when the natural-map
/// error of the problem's law ([`crate::merit::friction_error`], in `params.measure`)
/// meets `params.tol`. Returns [`Solved`] with the method's statistics
/// ([`ConeNewtonStats`]).
///
/// # Requirements
/// Every contact's `W_nn > 0` (checked; it sets `ρ`). Local superlinear convergence at a
/// solution where the generalised Jacobian is nonsingular (Qi, Sun 1993); no global
/// guarantee, which is why the hybrid Gauss-Seidel fallback exists.
///
/// # Errors
/// [`SolveError::Problem`] for a wrong `r` length, an option out of range
/// ([`ProblemError::InvalidOption`]) or a non-positive `W_nn` (used for `ρ`);
/// [`SolveError::NoConvergence`] at the iteration cap (with the statistics);
/// [`SolveError::Singular`] if the symbolic analysis of the Newton matrix's pattern fails;
/// [`SolveError::Diverged`] if an iterate overflows. A singular Newton matrix is not an
/// error: it is regularised, and the step falls back to Gauss-Seidel sweeps or the
/// gradient.
///
/// # Reference
/// Alart, Curnier 1991; Acary, Bremond, Huber 2018 (NSN_AC); Qi, Sun 1993 (local
/// superlinear convergence of semismooth Newton).
///
/// # Example
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::newton::{ConeNewtonOptions, cone_newton};
/// use nonsmooth::problem::{FrictionContact, FrictionKind};
/// use nonsmooth::solver::{Params, no_observer};
/// // One contact pushed into the ground, sliding: r_t is on the cone's boundary.
/// let fc = FrictionContact::new(DMatrix::<f64>::identity(3, 3).into(),
///     DVector::from_vec(vec![-1.0, 2.0, 0.0]), DVector::from_vec(vec![0.5]),
///     FrictionKind::Coulomb).unwrap();
/// let mut r = DVector::zeros(3);
/// let params = Params { tol: 1e-12, ..Default::default() };
/// let info = cone_newton(&fc, &mut r, &params, &ConeNewtonOptions::default(),
///                        &mut no_observer()).unwrap();
/// assert!(info.error.rel <= 1e-12 && info.stats.gs_sweeps == 0);
/// assert!((r[0] - 1.0).abs() < 1e-10 && (r[1] + 0.5).abs() < 1e-10);
/// ```
pub fn cone_newton(
    fc: &FrictionContact,
    r: &mut DVector<f64>,
    params: &Params,
    options: &ConeNewtonOptions,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<Solved<ConeNewtonStats>, SolveError<ConeNewtonStats>> {
    solve::<ConeNewton>(fc, r, params, options, observer)
}

/// The semismooth Newton method on the friction cone as a [`Method`] on a
/// [`FrictionContact`]: one iteration is one Newton step (the direction with its
/// Levenberg-Marquardt regularisation, the non-monotone line search, and the hybrid
/// Gauss-Seidel or gradient fallback; the `newton_step` listing of the book). See
/// [`cone_newton`].
#[derive(Debug, Clone, Copy)]
pub struct ConeNewton;

/// What the cone Newton method keeps: its options, the Newton matrix's pattern with its
/// symbolic LU (from [`Method::prepare`], reused by problems with the same block pattern
/// of `W`) and, once started on a problem, that problem's `ρ`, the Gauss-Seidel fallback,
/// the non-monotone window and the workspace.
#[derive(Debug)]
pub struct ConeNewtonPrepared {
    options: ConeNewtonOptions,
    matrix: NewtonMatrix,
    state: Option<ConeState>,
}

/// The numeric state of one solve (from [`Method::start`]).
#[derive(Debug)]
struct ConeState {
    kind: FrictionKind,
    rho: Vec<[f64; 2]>,
    /// The blocked Gauss-Seidel of the hybrid fallback, prepared when first needed.
    gs: Option<NsgsPrepared>,
    /// `u = W r + q` at the current `r`.
    u: DVector<f64>,
    phi: DVector<f64>,
    blocks: Vec<Matrix3<f64>>,
    trial: DVector<f64>,
    /// `u` at `trial`.
    u_trial: DVector<f64>,
    phi_trial: DVector<f64>,
    /// The values of the Newton matrix (workspace).
    vals: Vec<f64>,
    /// `-Φ`, the right-hand side of the Newton system (workspace).
    rhs: DVector<f64>,
    /// The last merits, at most `window`, for the non-monotone test.
    history: Vec<f64>,
    /// `1 + max W_ii max ρ`, the scale of `H`.
    h_scale: f64,
    /// `‖ρ ∘ q‖`, a reaction-sized vector: the scale of `r` when `r` is zero.
    rho_q_norm: f64,
}

/// The trial workspace of a [`ConeState`] for [`line_search`], borrowed field by field (so
/// that `ρ` stays borrowed beside it).
macro_rules! trial_space {
    ($st:expr) => {
        TrialSpace {
            trial: &mut $st.trial,
            u_trial: &mut $st.u_trial,
            phi_trial: &mut $st.phi_trial,
            u: &mut $st.u,
        }
    };
}

/// The regularised retry is taken only when the failed plain direction is this many times
/// longer than the iterate (or `‖ρ ∘ q‖` at zero): the mark of a null-space component.
/// On the shipped `BoxesStack1` file a retry at 161 led the PROX-started Newton method to
/// stall at 1.2e-4 where the Gauss-Seidel fallback converges; on the heavy box settling on
/// a light one the first failed direction is 2.2e4 times the iterate.
const RETRY_BLOW_UP: f64 = 1e3;

/// Backtracks allowed to the regularised direction tried when the plain Newton direction
/// failed its line search (see [`ConeNewton`]'s step): `τ >= 1/4`.
const RETRY_BACKTRACKS: usize = 2;

/// Mutable workspace of one line search.
struct TrialSpace<'a> {
    trial: &'a mut DVector<f64>,
    u_trial: &'a mut DVector<f64>,
    phi_trial: &'a mut DVector<f64>,
    /// `u` at `r`, replaced by `u` at the accepted trial.
    u: &'a mut DVector<f64>,
}

/// Backtracking (non-monotone) line search on `ψ` along `d` from `r`: the first
/// `τ = shrink^k`, `k <= max_backtracks`, with `ψ(r + τ d) <= (1 - 2 σ τ) ψ_ref` (every
/// `τ = 1` without line search). Moves `r` and returns `true` when one passes.
#[allow(clippy::too_many_arguments)]
fn line_search(
    fc: &FrictionContact,
    kind: FrictionKind,
    rho: &[[f64; 2]],
    options: &ConeNewtonOptions,
    psi_ref: f64,
    r: &mut DVector<f64>,
    d: &DVector<f64>,
    ws: TrialSpace<'_>,
    stats: &mut ConeNewtonStats,
) -> bool {
    let mut tau = 1.0;
    for _ in 0..=options.max_backtracks {
        ws.trial.copy_from(r);
        ws.trial.axpy(tau, d, 1.0);
        velocity_into(fc, ws.trial, ws.u_trial);
        eval(fc, kind, rho, ws.trial, ws.u_trial, ws.phi_trial, None);
        let psi_t = 0.5 * ws.phi_trial.norm_squared();
        if !options.line_search || psi_t <= (1.0 - 2.0 * options.armijo * tau) * psi_ref {
            r.copy_from(ws.trial);
            std::mem::swap(ws.u, ws.u_trial);
            return true;
        }
        tau *= options.shrink;
        stats.backtracks += 1;
    }
    false
}

/// The Levenberg-Marquardt shift `eps` of the regularised Newton matrix `H + eps I`, tied
/// to the residual: `‖Φ‖` (in the units of `r`) or `h ‖Φ‖ / ‖r‖` (relative), whichever is
/// smaller, between `1e-12 h` and `1e-4 h` (`h` the scale of `H`). With the absolute term
/// alone eps stayed at its cap while `r` was large (heavy bodies, `‖r‖ ~ 1e5`) and the
/// method crawled linearly (2121 iterations on heavy_on_light(1e6), 19 with both); the
/// relative term alone slowed some Capsules files (41 -> 302 iterations).
fn lm_eps(r: &DVector<f64>, phi: &DVector<f64>, rho_q_norm: f64, h_scale: f64) -> f64 {
    let size = crate::merit::scaled_norm(r.as_slice()).max(rho_q_norm);
    let rel = if size > 0.0 {
        crate::merit::scaled_norm(phi.as_slice()) / size
    } else {
        1.0
    };
    (1e-12 * h_scale).max(phi.norm().min(h_scale * rel).min(1e-4 * h_scale))
}

impl Method for ConeNewton {
    type Problem = FrictionContact;
    type Options = ConeNewtonOptions;
    type Prepared = ConeNewtonPrepared;
    type Stats = ConeNewtonStats;

    /// Checks the options; the block pattern of `W` and the symbolic LU of the Newton
    /// matrix.
    /// A Newton method: the best error has not halved in 150 steps ([`crate::solver::StallRule::NEWTON`]).
    fn stall_rule(_: &Self::Prepared) -> crate::solver::StallRule {
        crate::solver::StallRule::NEWTON
    }

    fn prepare(
        fc: &FrictionContact,
        options: &ConeNewtonOptions,
    ) -> Result<ConeNewtonPrepared, SolveError> {
        options.check()?;
        Ok(ConeNewtonPrepared {
            options: options.clone(),
            matrix: NewtonMatrix::new(fc, options.linear, options.precondition)?,
            state: None,
        })
    }

    /// `ρ` and the scales of this problem, its `W` in the Newton matrix, `u` at the warm
    /// start, an empty non-monotone window.
    fn start(
        prepared: &mut ConeNewtonPrepared,
        fc: &FrictionContact,
        r: &DVector<f64>,
    ) -> Result<(), SolveError> {
        let rho = rho_of(fc, prepared.options.rho_scale)?;
        prepared.matrix.refresh(fc)?;
        let n = fc.dim();
        let h_scale =
            1.0 + fc.w().diagonal().amax() * rho.iter().map(|p| p[0].max(p[1])).fold(0.0, f64::max);
        let rho_q_norm = crate::merit::scaled_norm(
            &(0..n)
                .map(|i| fc.q()[i] * rho[i / 3][usize::from(i % 3 != 0)])
                .collect::<Vec<_>>(),
        );
        prepared.state = Some(ConeState {
            kind: fc.kind(),
            gs: None,
            u: {
                let mut u = DVector::zeros(n);
                velocity_into(fc, r, &mut u);
                u
            },
            u_trial: DVector::zeros(n),
            vals: Vec::new(),
            rhs: DVector::zeros(n),
            phi: DVector::zeros(n),
            blocks: vec![Matrix3::zeros(); fc.contacts()],
            trial: DVector::zeros(n),
            phi_trial: DVector::zeros(n),
            history: Vec::new(),
            h_scale,
            rho_q_norm,
            rho,
        });
        Ok(())
    }

    fn step(
        prepared: &mut ConeNewtonPrepared,
        fc: &FrictionContact,
        r: &mut DVector<f64>,
        stats: &mut ConeNewtonStats,
    ) -> Result<Step, SolveError> {
        let options = &prepared.options;
        let matrix = &mut prepared.matrix;
        let st = prepared.state.as_mut().ok_or_else(not_started)?;
        let (kind, rho, h_scale, rho_q_norm) = (st.kind, &st.rho, st.h_scale, st.rho_q_norm);
        eval(fc, kind, rho, r, &st.u, &mut st.phi, Some(&mut st.blocks));
        let psi = 0.5 * st.phi.norm_squared();
        st.history.push(psi);
        if st.history.len() > options.window.max(1) {
            st.history.remove(0);
        }
        let psi_ref = st.history.iter().copied().fold(psi, f64::max);
        // ANCHOR: newton_step
        // Newton direction; when H is singular (a rank-deficient W), Levenberg-Marquardt
        // style regularisation H + eps I with eps tied to the residual, growing on failure.
        let mut dir = None;
        let mut eps = 0.0;
        st.rhs.copy_from(&st.phi);
        st.rhs.neg_mut();
        if matrix.krylov {
            // GMRES with the forcing term eta = min(1e-1, (‖Φ‖ / ‖r‖)^(1/2)); any direction with
            // ‖H d + Φ‖ < 0.9 ‖Φ‖ is a descent direction of ψ.
            let size = crate::merit::scaled_norm(r.as_slice()).max(rho_q_norm);
            let rel = if size > 0.0 {
                crate::merit::scaled_norm(st.phi.as_slice()) / size
            } else {
                1.0
            };
            let eta = rel.sqrt().clamp(1e-14, 1e-1);
            let precond = matrix
                .precond
                .as_mut()
                .expect("a GMRES Newton matrix has a preconditioner");
            precond.factor(&matrix.rows, &st.blocks, rho);
            let (d, out) = krylov_solve(
                fc.w(),
                &st.blocks,
                rho,
                precond,
                &st.rhs,
                eta,
                KRYLOV_MAX_PRODUCTS,
            );
            stats.krylov_products += out.iterations;
            if out.relative_residual < 0.9 && d.iter().all(|v| v.is_finite()) {
                dir = Some(d);
            }
        }
        for _ in 0..8 {
            if matrix.krylov {
                break;
            }
            matrix.values(&st.blocks, rho, eps, &mut st.vals);
            if let Some(d) = matrix.solve(&st.vals, &st.rhs) {
                dir = Some(d);
                break;
            }
            if eps == 0.0 {
                stats.regularised += 1;
                eps = lm_eps(r, &st.phi, rho_q_norm, h_scale);
            } else {
                eps *= 100.0;
            }
        }
        let mut accepted = match &dir {
            Some(d) => line_search(
                fc,
                kind,
                rho,
                options,
                psi_ref,
                r,
                d,
                trial_space!(st),
                stats,
            ),
            None => false,
        };
        let blown_up = dir.as_ref().is_some_and(|d| {
            d.norm() > RETRY_BLOW_UP * crate::merit::scaled_norm(r.as_slice()).max(rho_q_norm)
        });
        if !accepted && !matrix.krylov && eps == 0.0 && blown_up {
            // The plain direction failed the line search. On a rank-deficient `W` (redundant
            // contacts: a box face resting on four corners, a heavy body on a light one) the
            // LU solves the singular system without complaint and returns a direction with
            // a huge component in the null space of `W`; it leaves the cone and no step
            // length passes. The regularised system `H + eps I` damps that component (the
            // regularised Newton method for singular problems: Li, Fukushima, Qi, Yamashita
            // 2004, eps tied to the residual). Its step is taken only if one of the first
            // RETRY_BACKTRACKS lengths passes: a shorter one crawled where the Gauss-Seidel
            // fallback converges (walls and towers of boxes, measured on their dumps).
            stats.regularised += 1;
            eps = lm_eps(r, &st.phi, rho_q_norm, h_scale);
            matrix.values(&st.blocks, rho, eps, &mut st.vals);
            if let Some(d) = matrix.solve(&st.vals, &st.rhs) {
                let short = ConeNewtonOptions {
                    max_backtracks: options.max_backtracks.min(RETRY_BACKTRACKS),
                    ..options.clone()
                };
                accepted = line_search(
                    fc,
                    kind,
                    rho,
                    &short,
                    psi_ref,
                    r,
                    &d,
                    trial_space!(st),
                    stats,
                );
            }
        }
        // ANCHOR_END: newton_step
        if !accepted {
            if let Fallback::GaussSeidel { sweeps } = Fallback::of(options.gs_sweeps) {
                // Hybrid globalisation: a few exact block Gauss-Seidel sweeps.
                let gs = match &mut st.gs {
                    Some(gs) => gs,
                    none => none.insert(NsgsPrepared::new(fc, fc.kind())?),
                };
                for _ in 0..sweeps {
                    gs.sweep(fc, r);
                }
                stats.gs_sweeps += sweeps;
                velocity_into(fc, r, &mut st.u);
                st.history.clear();
            } else {
                // Gradient fallback: -grad psi = -H^T phi, with the unregularised H.
                stats.gradient_steps += 1;
                let g = transpose_times(matrix, &st.blocks, rho, &st.phi);
                let gn = g.norm_squared();
                if gn > 0.0 && gn.is_finite() {
                    let mut tau = psi / gn;
                    for _ in 0..=options.max_backtracks {
                        st.trial.copy_from(r);
                        st.trial.axpy(-tau, &g, 1.0);
                        velocity_into(fc, &st.trial, &mut st.u_trial);
                        eval(
                            fc,
                            kind,
                            rho,
                            &st.trial,
                            &st.u_trial,
                            &mut st.phi_trial,
                            None,
                        );
                        if 0.5 * st.phi_trial.norm_squared() <= psi - options.armijo * tau * gn {
                            r.copy_from(&st.trial);
                            std::mem::swap(&mut st.u, &mut st.u_trial);
                            break;
                        }
                        tau *= options.shrink;
                        stats.backtracks += 1;
                    }
                }
            }
        }
        Ok(Step::Moved)
    }

    /// The natural-map error of the problem's law, `u` computed anew.
    fn error(prepared: &ConeNewtonPrepared, fc: &FrictionContact, r: &DVector<f64>) -> Residual {
        let kind = prepared.state.as_ref().map_or(fc.kind(), |s| s.kind);
        friction_error_with_velocity(fc, r, &fc.velocity(r), kind)
    }
}

/// `u = W r + q` into `u`: the numbers of [`FrictionContact::velocity`], without allocating.
fn velocity_into(fc: &FrictionContact, r: &DVector<f64>, u: &mut DVector<f64>) {
    u.copy_from(fc.q());
    fc.w().mul_vec_add(r, u);
}

fn not_started() -> SolveError {
    SolveError::Problem(ProblemError::Unsupported {
        reason: "the cone Newton method stepped before Method::start".into(),
    })
}

/// `H^T φ` with `H = I - D + D ρ W` (for the gradient fallback): `φ - D^T φ + W ρ D^T φ`
/// (W symmetric).
fn transpose_times(
    m: &NewtonMatrix,
    blocks: &[Matrix3<f64>],
    rho: &[[f64; 2]],
    phi: &DVector<f64>,
) -> DVector<f64> {
    let nc = blocks.len();
    let mut dt = DVector::zeros(3 * nc);
    for c in 0..nc {
        let v = blocks[c].transpose()
            * nalgebra::Vector3::new(phi[3 * c], phi[3 * c + 1], phi[3 * c + 2]);
        for i in 0..3 {
            dt[3 * c + i] = v[i];
        }
    }
    let mut rdt = dt.clone();
    for c in 0..nc {
        rdt[3 * c] *= rho[c][0];
        rdt[3 * c + 1] *= rho[c][1];
        rdt[3 * c + 2] *= rho[c][1];
    }
    let mut wrdt = DVector::zeros(3 * nc);
    for c in 0..nc {
        let mut acc = [0.0; 3];
        m.rows.row_product(c, rdt.as_slice(), &mut acc);
        for i in 0..3 {
            wrdt[3 * c + i] = acc[i];
        }
    }
    phi - dt + wrdt
}
