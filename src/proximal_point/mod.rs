//! The proximal-point method on the friction problem, as Siconos defines it
//! (`fc3d_proximal`, the `PROX` solver of Acary, Bremond, Huber 2018): an outer proximal
//! regularisation `W + ρ I` with an inner semismooth Newton solve, `ρ` adapted.
//!
//! # The iteration
//!
//! For a local [`FrictionContact`] `(W, q, μ)` and the iterate `r^k`, the next iterate
//! `r^{k+1}` solves the same friction problem (same law, Coulomb or CCP) with
//!
//! ```text
//! W_ρ = W + ρ_k I,        q_ρ = q - ρ_k r^k,
//! ```
//!
//! so `u_ρ = W_ρ r + q_ρ = W r + q + ρ_k (r - r^k)`: the velocity of the original problem
//! plus a spring pulling `r` back to `r^k`. For the CCP, `0 ∈ W r + q + N_K(r)` is the zero
//! set of a maximal monotone operator `T` (`W` positive semidefinite), and the regularised
//! problem says `0 ∈ T(r) + ρ_k (r - r^k)`, i.e. `r^{k+1} = (I + T / ρ_k)^{-1} r^k`, the
//! resolvent of `T` (Rockafellar 1976): firmly nonexpansive, its fixed points are the
//! solutions, and the iteration converges for any `ρ_k` bounded away from infinity. For
//! Coulomb friction the operator is not monotone and the same fixed-point iteration is a
//! heuristic (Acary, Bremond, Huber 2018 §5 use it so); its fixed points are still exactly
//! the solutions (at `r^{k+1} = r^k` the spring vanishes).
//!
//! The inner problem is better conditioned than the original (`W + ρ I` is positive
//! definite even when `W` is rank deficient, more contacts than degrees of freedom), and
//! the crate's semismooth Newton method on the cone ([`crate::newton::cone_newton`], `nsn`)
//! solves it from `r^k`.
//!
//! # The choices (Siconos 4.4 `fc3d_proximal`, strategy `PROX`)
//!
//! * `ρ_k = σ d̄ e_k^ν` with `e_k` the problem's own error at `r^k` (Siconos 4.4
//!   normalisation), `d̄` the mean diagonal entry of `W` and Siconos's defaults `σ = 5`,
//!   `ν = 1`. Siconos takes `α = σ e^ν` with no `d̄`; the factor `d̄` makes `ρ` carry the
//!   units of `W` (the rule is invariant under a rescaling of `W` and `q`). As the error
//!   drops, `ρ` drops with it and the iteration approaches a Newton iteration on the
//!   original problem.
//! * When the inner solve fails (its iteration cap, a singular system), `ρ` is multiplied by
//!   [`ProximalPointOptions::growth`] (Siconos: 10): a stronger spring, an easier inner
//!   problem. Its iterate is kept if it lowered the outer error, else the outer iteration
//!   is rejected (`r^k` kept).
//! * Inexact inner solves: the inner tolerance is `max(tol, inner_ratio · e_k)` (Siconos's
//!   adaptive internal error strategy with ratio 10, `inner_ratio = 0.1`); when `r^k`
//!   already meets it (the inner problem's error is normalised by `‖q - ρ r^k‖`), the
//!   inner solve is redone to `tol`, so that the outer iteration moves. Here `e_k` is the
//!   larger of the natural-map error and the normal condition ([`Residual::meets`]); when
//!   it already meets `tol` and only the error in the problem's own scale
//!   ([`Residual::scaled`]) does not, the inner tolerance is `inner_ratio · e_k`.
//! * Three choices not in Siconos. `ρ` has a floor near the tolerance,
//!   `ρ_k = σ d̄ max(e_k, floor · tol)^ν` ([`ProximalPointOptions::floor`]); the rule is
//!   softened (divided by `growth`) after a converged inner solve that left the outer error
//!   where it was ([`SLOW_PROGRESS`]) and stiffened back after a failed one; and the inner
//!   Newton systems are solved by GMRES while `ρ >= KRYLOV_RHO d̄` ([`KRYLOV_RHO`]):
//!   `W + ρ I` is then well conditioned, where the LU costs the same whatever `ρ`.
//! * The outer loop stops on the problem's own error at the given tolerance, like every
//!   friction solver of the crate ([`crate::solver::solve`]).
//!
//! One outer iteration is one [`Method::step`]; the inner Newton iterations, failures and
//! the `ρ` used are in [`ProximalPointStats`].
//!
//! Checked by `tests/laws/proximal_point.rs`.

use crate::solver::MethodOptions;
use std::ops::ControlFlow;

use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use crate::matrix::Matrix;
use crate::merit::{Residual, friction_error};
use crate::newton::{ConeNewton, ConeNewtonOptions, ConeNewtonPrepared, NewtonLinear};
use crate::problem::{FrictionContact, ProblemError, check_len};
use crate::solver::{
    Iterate, Method, NonExhaustive, Params, SolveError, Solved, Step, no_observer, solve_prepared,
};

/// Options of the proximal-point method ([`ProximalPoint`], [`proximal_point`]; `ppa` on
/// the command line). Serialised with the field names, every field optional, unknown ones
/// refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProximalPointOptions {
    /// `σ` of `ρ_k = σ d̄ e_k^ν`. Default 5 (Siconos 4.4 `fc3d_proximal`); positive and
    /// finite, dimensionless.
    pub sigma: f64,
    /// `ν` of `ρ_k = σ d̄ e_k^ν`. Default 1 (Siconos); in `[0, 2]` (0: `ρ` fixed at
    /// `σ d̄` but for the failure growth).
    pub nu: f64,
    /// Factor applied to `ρ` after an inner solve fails. Default 10 (Siconos); `> 1`.
    pub growth: f64,
    /// Inner tolerance as a fraction of the outer error: `max(tol, inner_ratio · e_k)`.
    /// Default 0.1 (Siconos's internal error ratio 10); in `[0, 1]` (0: every inner
    /// solve to `tol`, the exact proximal point iteration).
    pub inner_ratio: f64,
    /// Newton iteration cap of each inner solve. Default 20; `>= 1`. A warm-started inner
    /// Newton solve that has not converged by then is usually stuck on a nearly singular
    /// `W + ρ I`; a larger `ρ` (after [`ProximalPointOptions::growth`]) is cheaper than
    /// more iterations (on the simulation dumps of a 548-contact wall, a cap of 50 spent
    /// 850 of 1 116 inner iterations in failed solves).
    pub inner_max_iter: usize,
    /// Floor of `ρ` near the tolerance: `ρ_k = σ d̄ max(e_k, floor · tol)^ν`. Default 100;
    /// `>= 0` and finite (0: `ρ` follows the error all the way down, as Siconos does).
    /// After an inner solve the original problem's velocity is the inner one minus the
    /// spring `ρ (r^{k+1} - r^k)`, so once `ρ ‖r^{k+1} - r^k‖` is below the tolerance a
    /// smaller `ρ` only makes the inner problem as ill-conditioned as `W`. Not in Siconos.
    pub floor: f64,
    /// Soften the spring on a stall ([`SLOW_PROGRESS`]). Default `true`; `false` keeps
    /// Siconos's rule (but for the floor).
    pub soften: bool,
    /// Options of the inner semismooth Newton solve. Default [`ConeNewtonOptions::default`].
    pub newton: ConeNewtonOptions,
    /// Stall safeguard: after this many outer iterations without the outer error halving,
    /// one plain Newton solve (`ρ = 0`, the original problem, from `r^k`, capped at
    /// `inner_max_iter`) is tried and kept if it meets the tolerance. Default 10; 0 turns it
    /// off. Not in Siconos: with a very large `μ` the leftover `ρ (r^k - r)` in the
    /// tangential velocity is multiplied by `μ` in the error, and the outer loop stalled
    /// (`μ = 1e300`, `1e6`) where plain Newton converges.
    pub stall: usize,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for ProximalPointOptions {
    fn default() -> Self {
        ProximalPointOptions {
            sigma: 5.0,
            nu: 1.0,
            growth: 10.0,
            inner_ratio: 0.1,
            inner_max_iter: 20,
            floor: 100.0,
            soften: true,
            newton: ConeNewtonOptions::default(),
            stall: 10,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

impl MethodOptions for ProximalPointOptions {
    /// Checks every value against its range (see the fields).
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`] naming the first value out of range.
    fn check(&self) -> Result<(), ProblemError> {
        let bad = |option: &str, reason: String| {
            Err(ProblemError::InvalidOption {
                method: "ppa".into(),
                option: option.into(),
                reason,
            })
        };
        if !(self.sigma > 0.0 && self.sigma.is_finite()) {
            return bad(
                "sigma",
                format!("{} is not positive and finite", self.sigma),
            );
        }
        if !(0.0..=2.0).contains(&self.nu) {
            return bad("nu", format!("{} is outside [0, 2]", self.nu));
        }
        if !(self.growth > 1.0 && self.growth.is_finite()) {
            return bad("growth", format!("{} is not finite and > 1", self.growth));
        }
        if !(0.0..=1.0).contains(&self.inner_ratio) {
            return bad(
                "inner_ratio",
                format!("{} is outside [0, 1]", self.inner_ratio),
            );
        }
        if !(self.floor >= 0.0 && self.floor.is_finite()) {
            return bad("floor", format!("{} is not finite and >= 0", self.floor));
        }
        if self.inner_max_iter == 0 {
            return bad("inner_max_iter", "0 is out of range (at least 1)".into());
        }
        self.newton.check()
    }
}

/// What a proximal-point solve counted (its `iterations` are outer iterations).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProximalPointStats {
    /// Inner solves run (one per outer iteration, two when `r^k` already met the loose
    /// inner tolerance and the solve was redone to the outer one).
    pub inner_solves: usize,
    /// Newton iterations over all inner solves.
    pub inner_iterations: usize,
    /// Inner solves that did not reach their tolerance (iteration cap, singular system,
    /// divergence); `ρ` grew after each.
    pub inner_failures: usize,
    /// Outer iterations whose inner result was rejected (it failed and did not lower the
    /// outer error): `r^k` was kept.
    pub rejected: usize,
    /// `ρ` of each outer iteration, in the units of `W`.
    pub rho: Vec<f64>,
    /// Inner solves whose Newton systems were solved by GMRES ([`KRYLOV_RHO`]).
    #[serde(default)]
    pub krylov_solves: usize,
    /// Plain Newton solves tried by the stall safeguard ([`ProximalPointOptions::stall`]).
    #[serde(default)]
    pub stall_newton: usize,
}

/// The proximal-point method as a [`Method`] (`ppa`): one step is one outer iteration.
/// Use [`proximal_point`], which passes the outer tolerance to the inner solves; run by
/// [`crate::solver::solve`] directly, the inner tolerance floor is `1e-8`.
#[derive(Debug, Clone, Copy)]
pub struct ProximalPoint;

/// What [`ProximalPoint`] keeps between iterations.
#[derive(Debug)]
pub struct ProximalPointPrepared {
    options: ProximalPointOptions,
    /// The regularised problem; its `W` stores every diagonal entry.
    reg: Option<FrictionContact>,
    /// For a sparse `W`: the index in the CSR values of each diagonal entry.
    diag_index: Vec<usize>,
    /// The diagonal of the original `W`.
    diag: DVector<f64>,
    inner: ConeNewtonPrepared,
    /// The inner Newton solve by GMRES, for the outer iterations whose `ρ` is at least
    /// [`KRYLOV_RHO`] `d̄` (made when first needed; only with `linear = auto`).
    krylov: Option<ConeNewtonPrepared>,
    /// Newton on the original problem, for the stall safeguard (made when first needed).
    plain: Option<ConeNewtonPrepared>,
    /// The smallest outer error that started a stall count, and the outer iterations since.
    best: f64,
    stalled: usize,
    /// `d̄`, the mean diagonal entry of `W` (1 if it is not positive).
    scale: f64,
    /// The softening of the `ρ` rule, `ρ = soft · σ d̄ max(e, floor · tol)^ν`: divided by
    /// `growth` after a converged inner solve that left the outer error above
    /// [`SLOW_PROGRESS`] times its value, multiplied by it (up to 1) after a failed one.
    soft: f64,
    rho: f64,
    tol: f64,
}

/// `W` with every diagonal entry stored (explicit zeros in a sparse `W`), and the index of
/// each diagonal entry in the CSR values (empty for a dense `W`).
fn with_diagonal(w: &Matrix) -> Result<(Matrix, Vec<usize>), ProblemError> {
    match w {
        Matrix::Dense(m) => Ok((Matrix::Dense(m.clone()), Vec::new())),
        Matrix::Sparse(m) => {
            let n = m.nrows();
            let mut t: Vec<(usize, usize, f64)> =
                m.triplet_iter().map(|(i, j, v)| (i, j, *v)).collect();
            t.extend((0..n).map(|i| (i, i, 0.0)));
            let s = Matrix::from_triplets(n, n, &t).ok_or_else(|| ProblemError::Unsupported {
                reason: "internal: W + rho I could not be assembled".into(),
            })?;
            let mut idx = Vec::with_capacity(n);
            if let Matrix::Sparse(c) = &s {
                let (off, cols) = (c.row_offsets(), c.col_indices());
                for i in 0..n {
                    let k = (off[i]..off[i + 1])
                        .find(|&k| cols[k] == i)
                        .ok_or_else(|| ProblemError::Unsupported {
                            reason: "internal: a diagonal entry of W + rho I is missing".into(),
                        })?;
                    idx.push(k);
                }
            }
            Ok((s, idx))
        }
    }
}

impl ProximalPointPrepared {
    /// Sets the regularised problem to `W + ρ I`, `q - ρ r^k`.
    fn regularise(
        &mut self,
        fc: &FrictionContact,
        rho: f64,
        rk: &DVector<f64>,
    ) -> Result<(), ProblemError> {
        let reg = self.reg.take().ok_or_else(|| ProblemError::Unsupported {
            reason: "internal: the regularised problem is missing".into(),
        })?;
        let (mut w, mut q, mu, kind) = reg.into_parts();
        match &mut w {
            Matrix::Dense(m) => {
                for i in 0..m.nrows() {
                    m[(i, i)] = self.diag[i] + rho;
                }
            }
            Matrix::Sparse(c) => {
                let vals = c.values_mut();
                for (i, &k) in self.diag_index.iter().enumerate() {
                    vals[k] = self.diag[i] + rho;
                }
            }
        }
        q.copy_from(fc.q());
        q.axpy(-rho, rk, 1.0);
        self.reg = Some(FrictionContact::new(w, q, mu, kind)?);
        Ok(())
    }

    fn rho_for(&self, error: f64) -> f64 {
        // near the tolerance the spring only has to stay below it: a smaller ρ would make
        // the inner problem as singular as W without speeding the outer loop
        let error = error.max(self.options.floor * self.tol);
        let r = self.soft * self.options.sigma * self.scale * error.powf(self.options.nu);
        // never 0 (a singular W stays regularised), never infinite
        r.clamp(f64::EPSILON * self.scale, 1e12 * self.scale)
    }
}

/// The inner Newton systems `H Δ = -Φ` of an outer iteration are solved by GMRES (3x3
/// block-Jacobi preconditioner) instead of the LU when `ρ >= KRYLOV_RHO d̄` and the inner
/// options leave the choice to the method (`linear = auto`): the regularised `W + ρ I`
/// has its eigenvalues in `[ρ, λ_max + ρ]`, so a large `ρ` bounds the condition number of
/// the inner systems and a few products solve them, where a factorisation costs the same
/// whatever `ρ`. Below, near the solution, `ρ` follows the error down, the inner systems
/// become as ill-conditioned as the problem, and the LU takes over.
pub const KRYLOV_RHO: f64 = 1e-3;

/// The GMRES inner solves of [`KRYLOV_RHO`] only on problems of at least this many
/// unknowns. Below, a sparse LU per Newton iteration costs a few milliseconds and is exact;
/// the inexact GMRES directions cost inner failures instead (on a Siconos Capsules file of
/// 286 contacts, 4 failed inner solves and 12 times the LU path's time).
pub const INNER_KRYLOV_MIN_UNKNOWNS: usize = 1000;

/// A converged inner solve that leaves the outer error above this fraction of its value
/// (a stall, not slow progress: `ρ` follows a falling error down anyway) softens the `ρ`
/// rule, floor included ([`ProximalPointOptions::floor`]), by
/// [`ProximalPointOptions::growth`]: the spring is too stiff for the problem's slow
/// modes. On a heavy box resting on a light one (mass ratio `1e5`),
/// `d̄` is set by the light box, the outer contraction `ρ / (λ + ρ)` of the heavy box's
/// modes (`λ` five orders below `d̄`) is 1 to six digits, and without softening the error
/// stayed at 0.71 for 100 outer iterations. Not in Siconos.
pub const SLOW_PROGRESS: f64 = 0.99;

/// The outer error that sets `ρ` and the inner tolerance: the larger of the natural-map
/// error and the normal condition (Siconos 4.4 normalisation), both of which a converged
/// answer must meet ([`Residual::meets`]).
fn outer_error(fc: &FrictionContact, r: &DVector<f64>) -> f64 {
    let e = friction_error(fc, r);
    e.rel.max(e.normal)
}

/// The stall safeguard ([`ProximalPointOptions::stall`]): plain Newton on `fc` from `r`;
/// `Some(Moved)` with `r` replaced when it meets the tolerance (and so lowers the outer
/// error `ek`), `None` otherwise: `r^k` is kept and the proximal iteration goes on.
fn stall_newton(
    prepared: &mut ProximalPointPrepared,
    fc: &FrictionContact,
    r: &mut DVector<f64>,
    ek: f64,
    stats: &mut ProximalPointStats,
) -> Result<Option<Step>, SolveError> {
    if prepared.plain.is_none() {
        prepared.plain = Some(ConeNewton::prepare(fc, &prepared.options.newton)?);
    }
    let Some(plain) = prepared.plain.as_mut() else {
        return Ok(None);
    };
    stats.stall_newton += 1;
    let params = Params {
        tol: prepared.tol,
        max_iter: prepared.options.inner_max_iter,
        ..Params::default()
    };
    let mut y = r.clone();
    match solve_prepared::<ConeNewton>(plain, fc, &mut y, &params, &mut no_observer()) {
        Ok(info) => stats.inner_iterations += info.iterations,
        Err(SolveError::NoConvergence(info)) => stats.inner_iterations += info.iterations,
        Err(SolveError::Problem(e)) => return Err(e.into()),
        Err(_) => return Ok(None),
    }
    let e = outer_error(fc, &y);
    // kept only when it solves the problem: a partial Newton result would leave the
    // proximal path (on a rank-deficient CCP it then stalled where the path converges)
    if e.is_finite() && e < ek && e <= prepared.tol && y.iter().all(|v| v.is_finite()) {
        r.copy_from(&y);
        prepared.rho = prepared.rho_for(e);
        return Ok(Some(Step::Moved));
    }
    Ok(None)
}

impl Method for ProximalPoint {
    type Problem = FrictionContact;
    type Options = ProximalPointOptions;
    type Prepared = ProximalPointPrepared;
    type Stats = ProximalPointStats;

    /// Checks the options; `W` with its diagonal stored, the inner Newton preparation on
    /// its pattern.
    /// Outer iterations converge linearly ([`crate::solver::StallRule::PROXIMAL_POINT`]).
    fn stall_rule(_: &Self::Prepared) -> crate::solver::StallRule {
        crate::solver::StallRule::PROXIMAL_POINT
    }

    fn prepare(
        fc: &FrictionContact,
        options: &ProximalPointOptions,
    ) -> Result<ProximalPointPrepared, SolveError> {
        options.check()?;
        let (w, diag_index) = with_diagonal(fc.w())?;
        let reg = FrictionContact::new(w, fc.q().clone(), fc.mu().clone(), fc.kind())?;
        let inner = ConeNewton::prepare(&reg, &options.newton)?;
        Ok(ProximalPointPrepared {
            options: options.clone(),
            reg: Some(reg),
            diag_index,
            diag: fc.w().diagonal(),
            inner,
            krylov: None,
            plain: None,
            best: f64::INFINITY,
            stalled: 0,
            scale: 1.0,
            soft: 1.0,
            rho: 1.0,
            tol: Params::default().tol,
        })
    }

    /// `d̄` of this `W` and `ρ_0 = σ d̄ e_0^ν`.
    fn start(
        prepared: &mut ProximalPointPrepared,
        fc: &FrictionContact,
        r: &DVector<f64>,
    ) -> Result<(), SolveError> {
        prepared.diag = fc.w().diagonal();
        let n = prepared.diag.len().max(1);
        let mean = prepared.diag.sum() / n as f64;
        prepared.scale = if mean > 0.0 && mean.is_finite() {
            mean
        } else {
            1.0
        };
        prepared.soft = 1.0;
        let e0 = outer_error(fc, r);
        prepared.best = f64::INFINITY;
        prepared.stalled = 0;
        prepared.rho = prepared.rho_for(if e0.is_finite() { e0 } else { 1.0 });
        Ok(())
    }

    // ANCHOR: outer_step
    fn step(
        prepared: &mut ProximalPointPrepared,
        fc: &FrictionContact,
        r: &mut DVector<f64>,
        stats: &mut ProximalPointStats,
    ) -> Result<Step, SolveError> {
        let ek = outer_error(fc, r);
        if ek <= 0.5 * prepared.best {
            prepared.best = ek;
            prepared.stalled = 0;
        } else {
            prepared.stalled += 1;
        }
        if prepared.options.stall > 0 && prepared.stalled >= prepared.options.stall {
            prepared.stalled = 0;
            if let Some(step) = stall_newton(prepared, fc, r, ek, stats)? {
                return Ok(step);
            }
        }
        let rho = prepared.rho;
        stats.rho.push(rho);
        // the inner problem: W + ρ I, q - ρ r^k, the same law
        prepared.regularise(fc, rho, r)?;
        let inner_params = Params {
            // when the natural-map error already meets the tolerance and only the error in
            // the problem's own scale does not (`Residual::meets`), the inner solve must go
            // below it, or it would return r^k unchanged
            tol: if ek > prepared.tol {
                prepared.tol.max(prepared.options.inner_ratio * ek)
            } else {
                (prepared.options.inner_ratio * ek).max(f64::EPSILON)
            },
            max_iter: prepared.options.inner_max_iter,
            ..Params::default()
        };
        let reg = prepared
            .reg
            .as_ref()
            .ok_or_else(|| ProblemError::Unsupported {
                reason: "internal: the regularised problem is missing".into(),
            })?;
        // Newton from r^k
        let mut y = r.clone();
        stats.inner_solves += 1;
        let krylov = prepared.options.newton.linear == NewtonLinear::Auto
            && reg.dim() >= INNER_KRYLOV_MIN_UNKNOWNS
            && rho >= KRYLOV_RHO * prepared.scale;
        if krylov {
            stats.krylov_solves += 1;
        }
        if krylov && prepared.krylov.is_none() {
            let options = ConeNewtonOptions {
                linear: NewtonLinear::Gmres,
                ..prepared.options.newton.clone()
            };
            prepared.krylov = Some(ConeNewton::prepare(reg, &options)?);
        }
        let inner = match prepared.krylov.as_mut() {
            Some(k) if krylov => k,
            _ => &mut prepared.inner,
        };
        let out =
            solve_prepared::<ConeNewton>(inner, reg, &mut y, &inner_params, &mut no_observer());
        let solved = match out {
            Ok(info) => {
                stats.inner_iterations += info.iterations;
                true
            }
            Err(SolveError::NoConvergence(info)) => {
                stats.inner_iterations += info.iterations;
                false
            }
            Err(SolveError::Diverged { iteration, .. }) => {
                stats.inner_iterations += iteration;
                false
            }
            Err(SolveError::Problem(e)) => return Err(e.into()),
            Err(_) => false,
        };
        let e_new = outer_error(fc, &y);
        if solved && e_new.is_finite() {
            // the resolvent's value: accepted, ρ follows the error down; a spring so stiff
            // that the outer error hardly moved is softened
            if prepared.options.soften && e_new > SLOW_PROGRESS * ek {
                prepared.soft /= prepared.options.growth;
            }
            r.copy_from(&y);
            prepared.rho = prepared.rho_for(e_new);
            return Ok(Step::Moved);
        }
        // a failed inner solve: a stronger spring next time
        stats.inner_failures += 1;
        prepared.soft = (prepared.soft * prepared.options.growth).min(1.0);
        prepared.rho = (rho * prepared.options.growth).min(1e12 * prepared.scale);
        if e_new.is_finite() && e_new < ek {
            r.copy_from(&y);
            Ok(Step::Moved)
        } else {
            stats.rejected += 1;
            Ok(Step::Rejected)
        }
    }
    // ANCHOR_END: outer_step

    fn error(_: &ProximalPointPrepared, fc: &FrictionContact, r: &DVector<f64>) -> Residual {
        friction_error(fc, r)
    }
}

/// Solves a local [`FrictionContact`] (Coulomb or CCP, `3 nc` unknowns in the crate's
/// `[n, t1, t2]` layout) by the proximal-point method with inner semismooth Newton solves
/// (see the [module docs](self)).
///
/// `r` is the start and receives the answer (or the last finite iterate). The returned
/// [`Solved`] counts outer iterations; the inner Newton iterations, failures and `ρ` are
/// in [`ProximalPointStats`]. The error is the problem's own ([`friction_error`], Siconos
/// 4.4 normalisation by default), measured on the returned `r`.
///
/// # Errors
/// [`SolveError::Problem`] for a wrong `r` length or options out of range;
/// [`SolveError::NoConvergence`] (with the statistics) when `params.max_iter` outer
/// iterations do not reach `params.tol`. A failed inner solve is not an error: it is
/// counted in [`ProximalPointStats::inner_failures`] and `ρ` grows.
///
/// # Reference
/// Rockafellar 1976 (the proximal point algorithm); Acary, Bremond, Huber 2018 (the `PROX`
/// solver of Siconos with an inner Newton solver); Siconos 4.4 `fc3d_proximal.c` (the `ρ`
/// rule and the inner tolerance).
///
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::proximal_point::{ProximalPointOptions, proximal_point};
/// use nonsmooth::problem::{FrictionContact, FrictionKind};
/// use nonsmooth::solver::{Params, no_observer};
/// // One contact pushed into the ground, sliding: r_t is on the cone's boundary.
/// let fc = FrictionContact::new(DMatrix::<f64>::identity(3, 3).into(),
///     DVector::from_vec(vec![-1.0, 2.0, 0.0]), DVector::from_vec(vec![0.5]),
///     FrictionKind::Coulomb).unwrap();
/// let mut r = DVector::zeros(3);
/// let params = Params { tol: 1e-12, ..Default::default() };
/// let info = proximal_point(&fc, &mut r, &params, &ProximalPointOptions::default(),
///                           &mut no_observer()).unwrap();
/// assert!(info.error.rel <= 1e-12);
/// assert!((r[0] - 1.0).abs() < 1e-10 && (r[1] + 0.5).abs() < 1e-10);
/// ```
pub fn proximal_point(
    fc: &FrictionContact,
    r: &mut DVector<f64>,
    params: &Params,
    options: &ProximalPointOptions,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<Solved<ProximalPointStats>, SolveError<ProximalPointStats>> {
    check_len("r", fc.dim(), r.len())?;
    let mut prepared = ProximalPoint::prepare(fc, options).map_err(SolveError::lift)?;
    prepared.tol = params.tol;
    solve_prepared::<ProximalPoint>(&mut prepared, fc, r, params, observer)
}
