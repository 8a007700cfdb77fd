//! Fischer-Newton: the generalised Newton method on the Fischer reformulation of the boxed
//! LCP with variable bounds (Silcowitz, Niebe, Erleben 2009).
//!
//! Checked by `tests/laws/newton_agrees_with_lemke.rs` and
//! `tests/laws/newton_quadratic.rs`.

use crate::linalg::PatternLu;
use crate::rng::SplitMix64;
use crate::solver::MethodOptions;
use std::marker::PhantomData;
use std::ops::ControlFlow;

use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use super::inner::{InnerSolver, gmres, jacobi_preconditioner, quasi_ncg};
use super::invalid_option;
use super::jacobian::{GeneralizedJacobian, JacobianOptions, KinkStrategy, newton_pattern};
use super::line_search::{Armijo, LineSearch, MeritPath, globalised_step};
use super::report::{Direction, NewtonReport, NewtonStep};
use super::rows::{NewtonProblem, Rows};
use crate::merit::Residual;
use crate::policy::staggered::FirstPhase;
use crate::policy::staggered::Start;
use crate::problem::ProblemError;
use crate::solver::{
    Iterate, Method, NonExhaustive, Params, SolveError, Solved, Status, Step, solve,
};

/// The Newton iteration limit of the paper's preset (Silcowitz et al. 2009, figure 10).
pub const PAPER_NEWTON_ITERATIONS: usize = 10;

/// What to do when the Newton system is singular (the sparse LU fails or gives a
/// non-finite answer). In options files: `"gmres"`, `"gradient"` or `"error"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
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
/// `max(2n, 100)` products, forcing term `min(1e-2, ‖rhs‖)`.
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

/// Options of Fischer-Newton ([`FischerNewton`], [`fischer_newton`]). Build with
/// `FischerNewtonOptions { inner: InnerSolver::Lu, ..Default::default() }`;
/// [`FischerNewtonOptions::paper`] is the preset of Silcowitz et al. 2009. Serialised with
/// the field names (the keys of `key=value` settings), every field optional, unknown ones
/// refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FischerNewtonOptions {
    /// How `H d = -Phi` is solved (Silcowitz et al. 2009 eq. 32-34). Default
    /// [`InnerSolver::GMRES`] (restart 30, 100 products, forcing term
    /// `min(1e-2, ‖Phi‖)`): on the over-determined contact problems of the book (a heavy box
    /// on a light one, pyramids, stacks) it needed fewer Newton iterations than the exact
    /// LU, whose steps along the near null space of a singular `H` are huge and cut short
    /// by the line search (chapter *Inexact Newton and Krylov inner solves*).
    /// [`InnerSolver::Lu`] is the exact solve. The ranges of each variant are on
    /// [`InnerSolver`].
    pub inner: InnerSolver,
    /// The element of the B-subdifferential at kinks (Silcowitz et al. 2009 eq. 30-31).
    /// Default: the fixed element `(1, 0)` within `kink_tol = 1e-28`; `kink_tol >= 0`.
    pub jacobian: JacobianOptions,
    /// Globalisation on the merit `Psi = 1/2 ‖Phi‖²` (Silcowitz et al. 2009 eq. 35-39).
    /// Default Armijo backtracking, `c = 1e-4`, `shrink = 0.5`, 40 trials, steps down to
    /// `1e-14` (ranges on [`Armijo`]).
    pub line_search: LineSearch,
    /// Descent test: the Newton direction `d` is used only if
    /// `grad Psi^T d <= -descent_rho ‖d‖²` and `grad Psi^T d < 0`; otherwise the gradient
    /// direction. Default `0` (only strict descent is required); `>= 0` and finite, in the
    /// units of `Psi / ‖x‖²`. A positive value is the test of De Luca, Facchinei, Kanzow
    /// 1996 and num4lcp; it is not invariant to the scaling of `x`, and with
    /// `descent_rho = f64::EPSILON` it rejected the GMRES directions of the heavy-on-light
    /// scene (mass ratio 1000) near the solution, whose null-space components are large,
    /// so the run stalled on gradient steps.
    pub descent_rho: f64,
    /// Singular Newton systems. Default [`OnSingular::Gmres`].
    pub on_singular: OnSingular,
    /// Start (Silcowitz et al. 2009 §3). Default [`Start::Given`]; a semi-staggered
    /// threshold must be `>= 0`.
    pub start: Start,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for FischerNewtonOptions {
    fn default() -> Self {
        FischerNewtonOptions {
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

impl FischerNewtonOptions {
    /// The preset of Silcowitz, Niebe, Erleben 2009 (figure 10): the quasi-NCG inner
    /// solver limited to 15 iterations, a line search limited to 7 trials. Pair it with
    /// [`FischerNewtonOptions::paper_params`] for the Newton limit of 10.
    pub fn paper() -> Self {
        FischerNewtonOptions {
            inner: InnerSolver::QuasiNcg {
                max_iter: 15,
                rel_tol: 1e-2,
                fd_step: 1e-7,
            },
            line_search: LineSearch::Armijo(Armijo {
                max_iter: 7,
                ..Armijo::default()
            }),
            ..FischerNewtonOptions::default()
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
}

impl MethodOptions for FischerNewtonOptions {
    /// Checks every value against its range (see the fields).
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`] naming the first value out of range.
    fn check(&self) -> Result<(), ProblemError> {
        let bad = |option: &str, reason: String| Err(invalid_option(METHOD, option, reason));
        if let Err(r) = self.inner.check() {
            return bad("inner", r);
        }
        if let Err(r) = self.line_search.check() {
            return bad("line_search", r);
        }
        if !(self.descent_rho >= 0.0) || !self.descent_rho.is_finite() {
            return bad(
                "descent_rho",
                format!("{} must be >= 0 and finite", self.descent_rho),
            );
        }
        if !(self.jacobian.kink_tol >= 0.0) || !self.jacobian.kink_tol.is_finite() {
            return bad(
                "jacobian",
                format!(
                    "kink_tol = {} must be >= 0 and finite",
                    self.jacobian.kink_tol
                ),
            );
        }
        if let Start::SemiStaggered { threshold, .. } = self.start {
            if !(threshold >= 0.0) {
                return bad(
                    "start",
                    format!("the semi-staggered threshold {threshold} must be >= 0"),
                );
            }
        }
        Ok(())
    }
}

/// The method's name in errors and in the registry.
const METHOD: &str = "fischer-newton";

// ANCHOR: merit
/// The Fischer merit `Psi(x) = 1/2 ‖Phi(x)‖²` of `rows` (Silcowitz et al. 2009 eq. 35).
pub fn fischer_merit(rows: &Rows<'_>, x: &DVector<f64>) -> f64 {
    let w = rows.w(x);
    0.5 * rows.fischer(x, &w).norm_squared()
}
// ANCHOR_END: merit

/// What Fischer-Newton iterations on one set of rows share: the symbolic LU of the pattern
/// of `H` ([`InnerSolver::Lu`] only, with the pattern it was built for), the buffer of its
/// values, and the generator of [`KinkStrategy::Random`].
struct FischerCore {
    pattern: Vec<(usize, usize)>,
    lu: Option<PatternLu>,
    values: Vec<f64>,
    rng: SplitMix64,
}

impl FischerCore {
    fn new() -> Self {
        FischerCore {
            pattern: Vec::new(),
            lu: None,
            values: Vec::new(),
            rng: SplitMix64::new(0),
        }
    }

    /// For [`InnerSolver::Lu`], the symbolic analysis of the pattern of `H` on `rows`,
    /// redone only if the pattern differs from the one analysed before.
    fn analyse(&mut self, rows: &Rows<'_>, opts: &FischerNewtonOptions) -> Result<(), SolveError> {
        if opts.inner != InnerSolver::Lu {
            self.lu = None;
            return Ok(());
        }
        let pattern = newton_pattern(rows);
        if self.lu.is_none() || pattern != self.pattern {
            let lu = PatternLu::new(rows.dim(), &pattern, 0).map_err(|e| SolveError::Singular {
                what: format!("Fischer-Newton system: {e}"),
            })?;
            self.lu = Some(lu);
            self.pattern = pattern;
        }
        Ok(())
    }

    /// Restarts the generator of [`KinkStrategy::Random`] from its seed.
    fn reseed(&mut self, opts: &FischerNewtonOptions) {
        let seed = match opts.jacobian.kink {
            KinkStrategy::Random { seed } => seed,
            _ => 0,
        };
        self.rng = SplitMix64::new(seed);
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
    fn iterate(
        &mut self,
        opts: &FischerNewtonOptions,
        rows: Rows<'_>,
        x: &mut DVector<f64>,
    ) -> Result<NewtonStep, SolveError> {
        let mut passes = 1;
        let w = rows.w(x);
        let (phi, h) =
            GeneralizedJacobian::fischer_with_rng(rows, x, &w, &opts.jacobian, &mut self.rng);
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
        let newton = match opts.inner {
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
            match opts.on_singular {
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
            &opts.line_search,
            opts.descent_rho,
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

/// Fischer-Newton as a [`Method`] on `P`, an [`Lcp`](crate::problem::Lcp) or a
/// [`BoxedLcp`](crate::problem::BoxedLcp): one iteration is one globalised Newton step on
/// the Fischer reformulation (Silcowitz, Niebe, Erleben 2009 eq. 31-39; the `iterate`
/// listing of the book), in the first phase of a semi-staggered start on the rows without
/// friction. See [`fischer_newton`].
///
/// A step that finds no direction decreasing the merit (a stationary point of `Psi` that
/// is not a solution) ends the solve: [`Step::Finished`] with
/// [`Status::Stalled`], reported as [`SolveError::NoConvergence`].
#[derive(Debug, Clone, Copy)]
pub struct FischerNewton<P>(PhantomData<P>);

/// What Fischer-Newton keeps between iterations: its options, the symbolic LU of the
/// Newton pattern of the full rows and, for a semi-staggered start, of the frictionless
/// rows ([`InnerSolver::Lu`] only), and where the semi-staggered start is. It does not
/// borrow the problem: one preparation serves consecutive problems (the symbolic analysis
/// is redone by [`Method::start`] only when the pattern changed).
pub struct FischerNewtonPrepared {
    options: FischerNewtonOptions,
    full: FischerCore,
    frictionless: FischerCore,
    /// The frictionless first phase of a semi-staggered start, while it runs.
    phase: Option<FirstPhase>,
}

impl std::fmt::Debug for FischerNewtonPrepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FischerNewtonPrepared")
            .field("options", &self.options)
            .field("phase", &self.phase)
            .finish_non_exhaustive()
    }
}

impl FischerNewtonPrepared {
    /// The first phase of a semi-staggered start applies to `rows` (it has friction rows).
    fn staggered(&self, rows: &Rows<'_>) -> Option<FirstPhase> {
        let has_friction = (0..rows.dim()).any(|i| rows.dependency(i).is_some());
        FirstPhase::of(self.options.start, has_friction)
    }

    /// The symbolic analyses `rows` needs (see [`FischerCore::analyse`]).
    fn analyse(&mut self, rows: &Rows<'_>) -> Result<(), SolveError> {
        self.full.analyse(rows, &self.options)?;
        if self.staggered(rows).is_some() {
            self.frictionless
                .analyse(&rows.without_friction(), &self.options)?;
        }
        Ok(())
    }
}

impl<P: NewtonProblem> Method for FischerNewton<P> {
    type Problem = P;
    type Options = FischerNewtonOptions;
    type Prepared = FischerNewtonPrepared;
    type Stats = NewtonReport;

    /// Checks the options; for [`InnerSolver::Lu`], the symbolic analysis of the pattern of
    /// `H` (that of `A`, the diagonal and the friction dependencies).
    /// A Newton method: the best error has not halved in 150 steps ([`crate::solver::StallRule::NEWTON`]).
    fn stall_rule(_: &Self::Prepared) -> crate::solver::StallRule {
        crate::solver::StallRule::NEWTON
    }

    fn prepare(
        problem: &P,
        options: &FischerNewtonOptions,
    ) -> Result<FischerNewtonPrepared, SolveError> {
        options.check()?;
        let mut prepared = FischerNewtonPrepared {
            options: options.clone(),
            full: FischerCore::new(),
            frictionless: FischerCore::new(),
            phase: None,
        };
        prepared.analyse(&problem.rows())?;
        Ok(prepared)
    }

    /// Resets the start policy and the generators; redoes the symbolic analysis if the
    /// pattern of `problem` differs from the prepared one.
    fn start(
        prepared: &mut FischerNewtonPrepared,
        problem: &P,
        _: &DVector<f64>,
    ) -> Result<(), SolveError> {
        let rows = problem.rows();
        prepared.analyse(&rows)?;
        prepared.phase = prepared.staggered(&rows);
        let options = &prepared.options;
        prepared.full.reseed(options);
        prepared.frictionless.reseed(options);
        Ok(())
    }

    fn step(
        prepared: &mut FischerNewtonPrepared,
        problem: &P,
        x: &mut DVector<f64>,
        report: &mut NewtonReport,
    ) -> Result<Step, SolveError> {
        let rows = problem.rows();
        let options = &prepared.options;
        let step = match prepared.phase {
            Some(_) => prepared
                .frictionless
                .iterate(options, rows.without_friction(), x)?,
            None => prepared.full.iterate(options, rows, x)?,
        };
        report.steps.push(step);
        let stalled = step.direction == Direction::None;
        if let Some(phase) = &mut prepared.phase {
            if phase.ends_after((2.0 * step.merit_after).sqrt(), stalled) {
                // switch friction on; a stall of the first phase is not the end
                prepared.phase = None;
                report.friction_enabled_at = Some(report.steps.len());
                return Ok(Step::Moved);
            }
        }
        Ok(if stalled {
            Step::Finished(Status::Stalled)
        } else {
            Step::Moved
        })
    }

    /// The crate's error of the full problem ([`Rows::error`]), in both phases.
    fn error(_: &FischerNewtonPrepared, problem: &P, x: &DVector<f64>) -> Residual {
        problem.rows().error(x)
    }
}

/// Solves an [`Lcp`](crate::problem::Lcp) or a [`BoxedLcp`](crate::problem::BoxedLcp)
/// (friction rows with bounds `±mu x_n`) by the Fischer-Newton method:
/// [`solve`]`::<`[`FischerNewton<P>`]`>`.
///
/// `x` (`n` entries) is the start (see [`Start`]) and receives the answer. Each iteration
/// is one globalised Newton step; the loop stops when the crate's error of the problem
/// ([`crate::merit::lcp_error`] or [`crate::merit::boxed_error`], in `params.measure`) is
/// at most `params.tol`, after `params.max_iter` iterations, or when no direction decreases
/// the merit `Psi` (a stationary point of `Psi` that is not a solution, reported as
/// [`SolveError::NoConvergence`]). The statistics are the [`NewtonReport`], one
/// [`NewtonStep`] per iteration, in [`Solved::stats`] (or in the `NoConvergence` report).
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
/// [`SolveError::Problem`] for a wrong `x` length or an option out of range
/// ([`ProblemError::InvalidOption`]); [`SolveError::NoConvergence`] at the cap (status
/// [`Status::MaxIterations`]) or on a stall ([`Status::Stalled`]), with the measured error
/// and the report; [`SolveError::Singular`] only with
/// [`OnSingular::Error`] (or if the symbolic analysis of [`InnerSolver::Lu`] fails);
/// [`SolveError::Diverged`] if an iterate overflows. Never NaN: a singular `H` gives a
/// GMRES or gradient step by default.
///
/// # Reference
/// Silcowitz, Niebe, Erleben 2009, eq. 27-39 and §3; Qi and Sun 1993 (semismooth Newton).
///
/// # Example
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::newton::{FischerNewtonOptions, fischer_newton};
/// use nonsmooth::problem::Lcp;
/// use nonsmooth::solver::{Params, no_observer};
/// let lcp = Lcp::new(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]).into(),
///                    DVector::from_vec(vec![-5.0, -6.0])).unwrap();
/// let mut x = DVector::zeros(2);
/// let params = Params { tol: 1e-12, ..Default::default() };
/// let info = fischer_newton(&lcp, &mut x, &params, &FischerNewtonOptions::default(),
///                           &mut no_observer()).unwrap();
/// assert!(info.iterations < 10 && (x[0] - 4.0 / 3.0).abs() < 1e-10);
/// assert_eq!(info.stats.steps.len(), info.iterations);
/// ```
pub fn fischer_newton<P: NewtonProblem>(
    problem: &P,
    x: &mut DVector<f64>,
    params: &Params,
    options: &FischerNewtonOptions,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<Solved<NewtonReport>, SolveError<NewtonReport>> {
    solve::<FischerNewton<P>>(problem, x, params, options, observer)
}
