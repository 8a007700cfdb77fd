//! Fischer-Newton: the generalised Newton method on the Fischer reformulation of the boxed
//! LCP with variable bounds (Silcowitz, Niebe, Erleben 2009).

use std::ops::ControlFlow;

use nalgebra::DVector;

use super::inner::{InnerSolver, SparseLu, gmres, jacobi_preconditioner, quasi_ncg};
use super::jacobian::{
    GeneralizedJacobian, JacobianOptions, KinkStrategy, SplitMix64, newton_pattern,
};
use super::line_search::{Armijo, Direction, LineSearch, MeritPath, globalised_step};
use super::report::{NewtonReport, NewtonStep, Stepped, newton_loop};
use super::rows::{NewtonProblem, Rows};
use crate::problem::ProblemError;
use crate::solver::{Iterate, NonExhaustive, Params, SolveError, SolveInfo};

/// The Newton iteration limit of the paper's preset (Silcowitz et al. 2009, figure 10).
pub const PAPER_NEWTON_ITERATIONS: usize = 10;

/// Where a Fischer-Newton solve starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Start {
    /// From the `x` passed in: zeros for a cold start, a previous solution (the last time
    /// step's) for a warm start. The default.
    Given,
    /// Semi-staggered (Silcowitz et al. 2009 §3): from the `x` passed in, first solve with
    /// every friction row pinned to zero ([`Rows::without_friction`]) until the Fischer
    /// residual of that problem `‖Phi‖` is at most `threshold` (absolute, in the units of
    /// `x` and `w`) or `max_iter` iterations were spent on it, then switch friction on and
    /// solve the full problem from there. Iterations of both phases count toward
    /// [`Params::max_iter`]. For an LCP (no friction rows) it is the same as `Given`.
    SemiStaggered {
        /// Absolute threshold on `‖Phi‖` of the frictionless problem (`>= 0`).
        threshold: f64,
        /// Iteration cap of the first phase.
        max_iter: usize,
    },
}

/// What to do when the Newton system is singular (the sparse LU fails or gives a
/// non-finite answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnSingular {
    /// Solve the singular system approximately by GMRES instead (the default): from a zero
    /// start GMRES minimises the residual over a Krylov space, which for a consistent
    /// system with a symmetric matrix approaches the minimum-norm solution. If that
    /// direction fails the descent test, the gradient step follows as usual.
    Gmres,
    /// Take a gradient step instead: the merit still decreases.
    Gradient,
    /// Stop with [`SolveError::Singular`].
    Error,
}

/// The GMRES used as the fallback for singular systems: restart 30, at most
/// 200 products, forcing term `min(1e-2, ‖rhs‖)`.
pub(crate) fn fallback_gmres(
    apply: &mut dyn FnMut(&DVector<f64>) -> DVector<f64>,
    rhs: &DVector<f64>,
    inv_diag: &DVector<f64>,
) -> (Option<DVector<f64>>, super::KrylovOutcome) {
    let mut d = DVector::zeros(rhs.len());
    let eta = 1e-2f64.min(rhs.norm());
    let out = gmres(
        apply,
        rhs,
        &mut d,
        Some(inv_diag),
        30,
        (2 * rhs.len()).max(100),
        eta,
    );
    let ok = d.iter().all(|v| v.is_finite());
    (ok.then_some(d), out)
}

/// Options of [`fischer_newton`]. Build with `FischerNewton { inner: InnerSolver::GMRES,
/// ..Default::default() }`; [`FischerNewton::paper`] is the preset of Silcowitz et al. 2009.
#[derive(Debug, Clone, PartialEq)]
pub struct FischerNewton {
    /// How `H d = -Phi` is solved. Default [`InnerSolver::GMRES`] (restart 30, 100
    /// products, forcing term `min(1e-2, ‖Phi‖)`): on the over-determined contact problems
    /// of the book (a heavy box on a light one, pyramids, stacks) it needed fewer Newton
    /// iterations than the exact LU, whose steps along the near null space of a singular
    /// `H` are huge and cut short by the line search (chapter *Inexact Newton and Krylov
    /// inner solves*). [`InnerSolver::Lu`] is the exact solve.
    pub inner: InnerSolver,
    /// The element of the B-subdifferential at kinks. Default: `(1, 0)` within `1e-28`.
    pub jacobian: JacobianOptions,
    /// Globalisation. Default Armijo backtracking, `c = 1e-4`, `shrink = 0.5`, 40 trials.
    pub line_search: LineSearch,
    /// Descent test: the Newton direction `d` is used only if
    /// `grad Psi^T d <= -descent_rho ‖d‖²` and `grad Psi^T d < 0`; otherwise the gradient
    /// direction. Default `0` (only strict descent is required). A positive value is the
    /// test of De Luca, Facchinei, Kanzow 1996 and num4lcp; it is not invariant to the
    /// scaling of `x`, and with `descent_rho = f64::EPSILON` it rejected the GMRES
    /// directions of the heavy-on-light scene (mass ratio 1000) near the solution, whose
    /// null-space components are large, so the run stalled on gradient steps.
    pub descent_rho: f64,
    /// Singular Newton systems. Default [`OnSingular::Gmres`].
    pub on_singular: OnSingular,
    /// Start. Default [`Start::Given`].
    pub start: Start,
    #[doc(hidden)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for FischerNewton {
    fn default() -> Self {
        FischerNewton {
            inner: InnerSolver::GMRES,
            jacobian: JacobianOptions::default(),
            line_search: LineSearch::default(),
            descent_rho: 0.0,
            on_singular: OnSingular::Gmres,
            start: Start::Given,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

impl FischerNewton {
    /// The preset of Silcowitz, Niebe, Erleben 2009 (figure 10): the quasi-NCG inner
    /// solver limited to 15 iterations, a line search limited to 7 trials. Pair it with
    /// [`FischerNewton::paper_params`] for the Newton limit of 10.
    pub fn paper() -> Self {
        FischerNewton {
            inner: InnerSolver::QuasiNcg {
                max_iter: 15,
                rel_tol: 1e-2,
                fd_step: 1e-7,
            },
            line_search: LineSearch::Armijo(Armijo {
                max_iter: 7,
                ..Armijo::default()
            }),
            ..FischerNewton::default()
        }
    }

    /// [`Params`] with the paper's Newton limit ([`PAPER_NEWTON_ITERATIONS`]) and `tol`.
    pub fn paper_params(tol: f64) -> Params {
        Params {
            tol,
            max_iter: PAPER_NEWTON_ITERATIONS,
            ..Params::default()
        }
    }

    fn check(&self) -> Result<(), ProblemError> {
        let bad = |reason: String| Err(ProblemError::Unsupported { reason });
        if let Err(r) = self.inner.check() {
            return bad(r);
        }
        if let LineSearch::Armijo(a) = &self.line_search {
            if let Err(r) = a.check() {
                return bad(r);
            }
        }
        if !(self.descent_rho >= 0.0) || !self.descent_rho.is_finite() {
            return bad(format!("descent_rho = {} must be >= 0", self.descent_rho));
        }
        if !(self.jacobian.kink_tol >= 0.0) || !self.jacobian.kink_tol.is_finite() {
            return bad(format!(
                "kink_tol = {} must be >= 0",
                self.jacobian.kink_tol
            ));
        }
        if let Start::SemiStaggered { threshold, .. } = self.start {
            if !(threshold >= 0.0) {
                return bad(format!(
                    "semi-staggered threshold = {threshold} must be >= 0"
                ));
            }
        }
        Ok(())
    }
}

// ANCHOR: merit
/// The Fischer merit `Psi(x) = 1/2 ‖Phi(x)‖²` of `rows` (Silcowitz et al. 2009 eq. 35).
pub fn fischer_merit(rows: &Rows<'_>, x: &DVector<f64>) -> f64 {
    let w = rows.w(x);
    0.5 * rows.fischer(x, &w).norm_squared()
}
// ANCHOR_END: merit

/// One Fischer-Newton iteration at a time on fixed rows, keeping what iterations share
/// (the symbolic LU, the random generator). [`fischer_newton`] is the loop around it; use
/// this directly to time or inspect single iterations.
pub struct FischerNewtonSolver<'a> {
    rows: Rows<'a>,
    opts: FischerNewton,
    lu: Option<SparseLu>,
    values: Vec<f64>,
    rng: SplitMix64,
}

impl std::fmt::Debug for FischerNewtonSolver<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FischerNewtonSolver")
            .field("n", &self.rows.dim())
            .field("opts", &self.opts)
            .finish()
    }
}

impl<'a> FischerNewtonSolver<'a> {
    /// Prepares iterations on `rows` (for [`InnerSolver::Lu`], the symbolic analysis of the
    /// pattern of `H`).
    ///
    /// # Errors
    /// [`SolveError::Problem`] for invalid options; [`SolveError::Singular`] if the
    /// symbolic analysis fails.
    pub fn new(rows: Rows<'a>, opts: &FischerNewton) -> Result<Self, SolveError> {
        opts.check()?;
        let lu = match opts.inner {
            InnerSolver::Lu => Some(SparseLu::new(rows.dim(), &newton_pattern(&rows)).map_err(
                |e| SolveError::Singular {
                    what: format!("Fischer-Newton system: {e}"),
                },
            )?),
            _ => None,
        };
        let seed = match opts.jacobian.kink {
            KinkStrategy::Random { seed } => seed,
            _ => 0,
        };
        Ok(FischerNewtonSolver {
            rows,
            opts: opts.clone(),
            lu,
            values: Vec::new(),
            rng: SplitMix64::new(seed),
        })
    }

    /// The rows being solved.
    pub fn rows(&self) -> Rows<'a> {
        self.rows
    }

    // ANCHOR: iterate
    /// One Fischer-Newton iteration from `x`, in place (Silcowitz et al. 2009 eq. 31-39):
    ///
    /// 1. `w = A x + b`, `Phi(x)` and an element `H` of its B-subdifferential;
    /// 2. the Newton direction from `H d = -Phi` (exact or inexact);
    /// 3. the descent test `grad Psi^T d <= -rho ‖d‖²` with `grad Psi = H^T Phi`;
    /// 4. the line search on `Psi` along `d`; if the test or the search fails (or `H` is
    ///    singular), the same along the gradient direction `-grad Psi`, starting from its
    ///    Cauchy step `‖g‖² / ‖H g‖²`;
    /// 5. `x <- x + alpha d`.
    ///
    /// Returns what happened. `x` is unchanged when no direction decreases `Psi`
    /// ([`Direction::None`]).
    ///
    /// # Errors
    /// [`SolveError::Singular`] when `H` is singular and [`OnSingular::Error`] is set.
    pub fn iterate(&mut self, x: &mut DVector<f64>) -> Result<NewtonStep, SolveError> {
        let rows = self.rows;
        let mut passes = 1;
        let w = rows.w(x);
        let (phi, h) =
            GeneralizedJacobian::fischer_with_rng(rows, x, &w, &self.opts.jacobian, &mut self.rng);
        let merit = 0.5 * phi.norm_squared();
        let grad = h.apply_transpose(&phi);
        passes += 1;
        let mut rhs = -&phi;
        for i in 0..rhs.len() {
            if h.is_held(i) {
                rhs[i] = 0.0;
            }
        }
        // 2. the Newton direction
        let mut inner_iterations = 0;
        let mut inner_residual = None;
        let mut singular = false;
        let newton = match self.opts.inner {
            InnerSolver::Lu => {
                h.fill_values(&mut self.values);
                let lu = self.lu.as_ref().expect("created for InnerSolver::Lu");
                match lu.solve(&self.values, &rhs) {
                    Ok(d) => Some(d),
                    Err(_) => {
                        singular = true;
                        None
                    }
                }
            }
            InnerSolver::Gmres {
                restart,
                max_iter,
                rel_tol,
            } => {
                let eta = rel_tol.min(phi.norm());
                let inv = jacobi_preconditioner(h.diagonal_reduced());
                let mut d = DVector::zeros(rows.dim());
                let out = gmres(
                    &mut |v| h.apply_reduced(v),
                    &rhs,
                    &mut d,
                    Some(&inv),
                    restart,
                    max_iter,
                    eta,
                );
                passes += out.iterations;
                inner_iterations = out.iterations;
                inner_residual = Some(out.relative_residual);
                Some(d)
            }
            InnerSolver::QuasiNcg {
                max_iter,
                rel_tol,
                fd_step,
            } => {
                let eta = rel_tol.min(phi.norm());
                let xnorm = x.norm().max(1.0);
                let xs: &DVector<f64> = x;
                let mut product = |p: &DVector<f64>| {
                    let pn = p.norm();
                    if pn == 0.0 {
                        return DVector::zeros(p.len());
                    }
                    let t = fd_step * xnorm / pn;
                    let xt = xs + p * t;
                    let wt = rows.w(&xt);
                    (rows.fischer(&xt, &wt) - &phi) / t
                };
                let (d, out) = quasi_ncg(&mut product, &phi, max_iter, eta);
                passes += out.iterations;
                inner_iterations = out.iterations;
                inner_residual = Some(out.relative_residual);
                Some(d)
            }
        };
        let mut newton = newton.filter(|d| d.iter().all(|v| v.is_finite()));
        if newton.is_none() {
            singular = true;
            match self.opts.on_singular {
                OnSingular::Error => {
                    return Err(SolveError::Singular {
                        what: "the Fischer-Newton system H d = -Phi".into(),
                    });
                }
                OnSingular::Gradient => {}
                OnSingular::Gmres => {
                    let inv = jacobi_preconditioner(h.diagonal_reduced());
                    let (d, out) = fallback_gmres(&mut |v| h.apply_reduced(v), &rhs, &inv);
                    passes += out.iterations;
                    inner_iterations += out.iterations;
                    inner_residual = Some(out.relative_residual);
                    newton = d;
                }
            }
        }
        let mut step = NewtonStep {
            merit,
            merit_after: merit,
            alpha: 0.0,
            slope: 0.0,
            direction: Direction::None,
            inner_iterations,
            inner_residual,
            line_search_trials: 0,
            armijo: false,
            singular,
            kinks: h.kinks(),
            held: h.held_count(),
            passes: 0,
            friction: rows.friction_enabled(),
        };
        // 3.-5. descent test and line search along the Newton direction, or the gradient
        let path = FischerPath { rows, h: &h };
        globalised_step(
            &self.opts.line_search,
            self.opts.descent_rho,
            &path,
            x,
            newton,
            &grad,
            &mut step,
            &mut passes,
        );
        step.passes = passes;
        Ok(step)
    }
    // ANCHOR_END: iterate
}

/// Fischer-Newton's line-search path: `x(alpha) = x + alpha d`, merit `Psi`
/// (Silcowitz et al. 2009 eq. 35, 37).
struct FischerPath<'r, 'a> {
    rows: Rows<'a>,
    h: &'r GeneralizedJacobian<'a>,
}

impl MeritPath for FischerPath<'_, '_> {
    fn trial(&self, x: &DVector<f64>, d: &DVector<f64>, alpha: f64) -> (DVector<f64>, f64) {
        let xt = x + d * alpha;
        let wt = self.rows.w(&xt);
        let merit = 0.5 * self.rows.fischer(&xt, &wt).norm_squared();
        (xt, merit)
    }

    fn apply_jacobian(&self, v: &DVector<f64>) -> DVector<f64> {
        self.h.apply(v)
    }
}

/// Solves an [`Lcp`](crate::problem::Lcp) or a [`BoxedLcp`](crate::problem::BoxedLcp)
/// (friction rows with bounds `±mu x_n`) by the Fischer-Newton method.
///
/// `x` is the start (see [`Start`]) and receives the answer. Each iteration is
/// [`FischerNewtonSolver::iterate`]; the loop stops when the crate's error of the problem
/// ([`crate::merit::lcp_error`] or [`crate::merit::boxed_error`], in `params.measure`) is
/// at most `params.tol`, after `params.max_iter` iterations, or when no direction decreases
/// the merit `Psi` (a stationary point of `Psi` that is not a solution, reported as
/// [`SolveError::NoConvergence`]).
///
/// # Requirements
/// None are checked beyond the shapes. Local quadratic convergence holds at a solution
/// where every element of the B-subdifferential is nonsingular (Qi and Sun; Silcowitz et
/// al. 2009 Theorem 3.1), for example a nondegenerate solution of an LCP with a P-matrix.
/// Global convergence to a stationary point of `Psi` follows from the line search; for a
/// P-matrix LCP stationary points of the Fischer merit are solutions (Facchinei and Soares
/// 1997).
///
/// # Errors
/// [`SolveError::Problem`] for a wrong `x` length or invalid options;
/// [`SolveError::NoConvergence`] at the cap or on a stall (with the measured error);
/// [`SolveError::Singular`] only with [`OnSingular::Error`]; [`SolveError::Diverged`] if
/// an iterate overflows. Never NaN: a singular `H` gives a gradient step by default.
///
/// # Reference
/// Silcowitz, Niebe, Erleben 2009, eq. 27-39 and §3; Qi and Sun 1993 (semismooth Newton).
///
/// # Example
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::newton::{FischerNewton, fischer_newton};
/// use nonsmooth::problem::Lcp;
/// use nonsmooth::solver::{Params, no_observer};
/// let lcp = Lcp::new(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]).into(),
///                    DVector::from_vec(vec![-5.0, -6.0])).unwrap();
/// let mut x = DVector::zeros(2);
/// let params = Params { tol: 1e-12, ..Default::default() };
/// let info = fischer_newton(&lcp, &mut x, &params, &FischerNewton::default(),
///                           &mut no_observer()).unwrap();
/// assert!(info.iterations < 10 && (x[0] - 4.0 / 3.0).abs() < 1e-10);
/// ```
pub fn fischer_newton<P: NewtonProblem + ?Sized>(
    problem: &P,
    x: &mut DVector<f64>,
    params: &Params,
    options: &FischerNewton,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<SolveInfo, SolveError> {
    fischer_newton_traced(problem, x, params, options, observer).0
}

/// [`fischer_newton`], also returning what every iteration did.
pub fn fischer_newton_traced<P: NewtonProblem + ?Sized>(
    problem: &P,
    x: &mut DVector<f64>,
    params: &Params,
    options: &FischerNewton,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> (Result<SolveInfo, SolveError>, NewtonReport) {
    let mut report = NewtonReport::default();
    let result = solve_rows(problem.rows(), x, params, options, observer, &mut report);
    (result, report)
}

/// The Fischer-Newton loop on `rows`, with the start policy.
pub(crate) fn solve_rows(
    rows: Rows<'_>,
    x: &mut DVector<f64>,
    params: &Params,
    options: &FischerNewton,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
    report: &mut NewtonReport,
) -> Result<SolveInfo, SolveError> {
    rows.check_x(x)?;
    options.check()?;
    let has_friction = (0..rows.dim()).any(|i| rows.dependency(i).is_some());
    let staggered = match options.start {
        Start::SemiStaggered {
            threshold,
            max_iter,
        } if has_friction => Some((threshold, max_iter)),
        _ => None,
    };
    let mut solver = match staggered {
        Some(_) => FischerNewtonSolver::new(rows.without_friction(), options)?,
        None => FischerNewtonSolver::new(rows, options)?,
    };
    let mut first_phase = staggered;
    let mut phase_iterations = 0;
    newton_loop(rows, x, params, observer, report, |x, report| {
        let step = solver.iterate(x)?;
        phase_iterations += 1;
        let stalled = step.direction == Direction::None;
        if let Some((threshold, max_iter)) = first_phase {
            let done = (2.0 * step.merit_after).sqrt() <= threshold;
            if done || stalled || phase_iterations >= max_iter {
                solver = FischerNewtonSolver::new(rows, options)?;
                first_phase = None;
                report.friction_enabled_at = Some(report.steps.len() + 1);
                return Ok(Stepped {
                    step,
                    stalled: false,
                });
            }
        }
        Ok(Stepped { step, stalled })
    })
}
