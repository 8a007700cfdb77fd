//! Minimum-map Newton: the active-set Newton method on `H(x) = min(x - lo, max(x - hi, w))`
//! with a Schur reduction onto the free rows and a projected Armijo line search (Niebe and
//! Erleben 2015; NOTES §3.3).

use crate::linalg::PatternLu;
use crate::solver::MethodOptions;
use std::marker::PhantomData;
use std::ops::ControlFlow;

use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use super::fischer::{OnSingular, fallback_gmres};
use super::inner::{InnerSolver, gmres, jacobi_preconditioner};
use super::invalid_option;
use super::line_search::{LineSearch, MeritPath, globalised_step};
use super::report::{Direction, NewtonReport, NewtonStep};
use super::rows::{NewtonProblem, Rows};
use crate::matrix::Matrix;
use crate::merit::Residual;
use crate::ncp::{MinMap, nested_box_grad};
use crate::problem::ProblemError;
use crate::solver::{
    Iterate, Method, NonExhaustive, Params, SolveError, Solved, Status, Step, solve,
};

/// Options of minimum-map Newton ([`MinMapNewton`], [`min_map_newton`]). Build with
/// `MinMapNewtonOptions { inner: InnerSolver::GMRES, ..Default::default() }`. Serialised
/// with the field names (the keys of `key=value` settings), every field optional, unknown
/// ones refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MinMapNewtonOptions {
    /// How the reduced system `S d_F = r_F` is solved: [`InnerSolver::Lu`] (default; the
    /// symbolic analysis is redone every iteration since `S` changes with the active set)
    /// or [`InnerSolver::Gmres`] (ranges on [`InnerSolver`]). [`InnerSolver::QuasiNcg`] is
    /// not offered here.
    pub inner: InnerSolver,
    /// Globalisation: projected Armijo backtracking, `x(tau) = P(x + tau d)` (Niebe and
    /// Erleben 2015). Default `shrink = 0.5` (their `alpha`), `c = 1e-4` (their `beta`),
    /// steps down to `1e-14` (`tau² >= 1e-28`, their `gamma`), 40 trials (ranges on
    /// [`super::Armijo`]).
    pub line_search: LineSearch,
    /// Descent test `grad theta^T d <= -rho ‖d‖²` (and `< 0`). Default `0`; `>= 0` and
    /// finite, in the units of `theta / ‖x‖²`; as
    /// [`FischerNewtonOptions::descent_rho`](super::FischerNewtonOptions::descent_rho).
    pub descent_rho: f64,
    /// Singular reduced systems. Default [`OnSingular::Gmres`].
    pub on_singular: OnSingular,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for MinMapNewtonOptions {
    fn default() -> Self {
        MinMapNewtonOptions {
            inner: InnerSolver::Lu,
            line_search: LineSearch::default(),
            descent_rho: 0.0,
            on_singular: OnSingular::Gmres,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

/// The method's name in errors and in the registry.
const METHOD: &str = "minmap-newton";

impl MethodOptions for MinMapNewtonOptions {
    /// Checks every value against its range (see the fields).
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`] naming the first value out of range.
    fn check(&self) -> Result<(), ProblemError> {
        let bad = |option: &str, reason: String| Err(invalid_option(METHOD, option, reason));
        if matches!(self.inner, InnerSolver::QuasiNcg { .. }) {
            return bad(
                "inner",
                "minimum-map Newton solves its reduced system by LU or GMRES".into(),
            );
        }
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
        Ok(())
    }
}

/// The role of a row in the active set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// `H_i = x_i - lo_i`: the row is held at its lower bound.
    Lower,
    /// `H_i = x_i - hi_i`: held at its upper bound.
    Upper,
    /// `H_i = w_i`: the row is free, its equation is `A_i. d = -w_i`.
    Free,
}

/// The minimum map and its active set at `x`.
struct ActiveSet {
    h: DVector<f64>,
    role: Vec<Role>,
    /// `c_i`: `dH_i/dx_dep` for a held friction row (`f` at the lower bound, `-f` at the
    /// upper), 0 otherwise.
    chain: Vec<f64>,
    ties: usize,
}

fn active_set(rows: &Rows<'_>, x: &DVector<f64>, w: &DVector<f64>) -> ActiveSet {
    let n = rows.dim();
    let mut h = DVector::zeros(n);
    let mut role = vec![Role::Free; n];
    let mut chain = vec![0.0; n];
    let mut ties = 0;
    for i in 0..n {
        let (lo, hi) = rows.bounds_at(i, x.as_slice());
        let (value, p) = nested_box_grad::<MinMap>(x[i], lo, hi, w[i]);
        h[i] = value;
        let g = -(-w[i]).min(hi - x[i]);
        ties += ((x[i] - lo) == g) as usize + ((-w[i]) == (hi - x[i])) as usize;
        role[i] = if p.dy != 0.0 {
            Role::Free
        } else if p.dlo != 0.0 {
            Role::Lower
        } else {
            Role::Upper
        };
        if role[i] != Role::Free {
            if let Some((_, f)) = rows.dependency(i) {
                // dH/dx_dep = dlo * (-f) + dhi * f
                chain[i] = -p.dlo * f + p.dhi * f;
            }
        }
    }
    ActiveSet {
        h,
        role,
        chain,
        ties,
    }
}

impl ActiveSet {
    /// `J v` for the generalised Jacobian `J` of the minimum map (one pass over `A`).
    fn apply(&self, rows: &Rows<'_>, v: &DVector<f64>) -> DVector<f64> {
        let av = rows.a().mul_vec(v);
        DVector::from_fn(v.len(), |i, _| match self.role[i] {
            Role::Free => av[i],
            _ => {
                let mut s = v[i];
                if let Some((dep, _)) = rows.dependency(i) {
                    s += self.chain[i] * v[dep];
                }
                s
            }
        })
    }

    /// `J^T v` (one pass over `A`).
    fn apply_transpose(&self, rows: &Rows<'_>, v: &DVector<f64>) -> DVector<f64> {
        let n = v.len();
        let free = DVector::from_fn(n, |i, _| {
            if self.role[i] == Role::Free {
                v[i]
            } else {
                0.0
            }
        });
        let mut out = rows.a().tr_mul_vec(&free);
        for i in 0..n {
            if self.role[i] != Role::Free {
                out[i] += v[i];
                if let Some((dep, _)) = rows.dependency(i) {
                    out[dep] += self.chain[i] * v[i];
                }
            }
        }
        out
    }
}

/// A held row's step as an affine function of at most one free unknown:
/// `d_i = constant + coeff d_j`.
#[derive(Debug, Clone, Copy)]
struct Affine {
    constant: f64,
    link: Option<(usize, f64)>,
}

/// Expresses every held row's step through the free unknowns: `d_i = -H_i - c_i d_dep`.
fn resolve_held(rows: &Rows<'_>, set: &ActiveSet) -> Result<Vec<Option<Affine>>, SolveError> {
    let n = rows.dim();
    let mut out: Vec<Option<Affine>> = vec![None; n];
    for start in 0..n {
        if set.role[start] == Role::Free || out[start].is_some() {
            continue;
        }
        // follow the chain of held rows until a free row, a fixed bound or a resolved row
        let mut chain = vec![start];
        loop {
            let i = *chain.last().expect("non-empty");
            let dep = match rows.dependency(i) {
                Some((dep, _)) if set.chain[i] != 0.0 => dep,
                _ => break,
            };
            if set.role[dep] == Role::Free || out[dep].is_some() {
                break;
            }
            if chain.contains(&dep) || chain.len() > n {
                return Err(SolveError::Problem(ProblemError::Unsupported {
                    reason: format!(
                        "the bounds of row {i} depend on row {dep}, which depends back on it"
                    ),
                }));
            }
            chain.push(dep);
        }
        for &i in chain.iter().rev() {
            let base = -set.h[i];
            let a = match rows.dependency(i) {
                Some((dep, _)) if set.chain[i] != 0.0 => {
                    let c = set.chain[i];
                    if set.role[dep] == Role::Free {
                        Affine {
                            constant: base,
                            link: Some((dep, -c)),
                        }
                    } else {
                        let d = out[dep].expect("resolved before its dependants");
                        Affine {
                            constant: base - c * d.constant,
                            link: d.link.map(|(j, s)| (j, -c * s)),
                        }
                    }
                }
                _ => Affine {
                    constant: base,
                    link: None,
                },
            };
            out[i] = Some(a);
        }
    }
    Ok(out)
}

/// The reduced system on the free rows `F`: `S d_F = r_F` with
/// `S = A_FF + (A_F,held through the links)` and `r_F = -w_F - A_F,held c_held`.
struct Reduced {
    free: Vec<usize>,
    triplets: Vec<(usize, usize, f64)>,
    rhs: DVector<f64>,
}

fn reduce(rows: &Rows<'_>, w: &DVector<f64>, set: &ActiveSet, held: &[Option<Affine>]) -> Reduced {
    let n = rows.dim();
    let free: Vec<usize> = (0..n).filter(|&i| set.role[i] == Role::Free).collect();
    let mut pos = vec![usize::MAX; n];
    for (k, &i) in free.iter().enumerate() {
        pos[i] = k;
    }
    let mut triplets = Vec::new();
    let mut rhs = DVector::zeros(free.len());
    for (k, &i) in free.iter().enumerate() {
        let mut r = -w[i];
        rows.a().for_each_in_row(i, |j, a| {
            // A dense `A` with structural zeros (MuJoCo's `J M⁻¹ Jᵀ + R` of a pile is 2 %
            // full) keeps a sparse pattern: zeros add nothing to the row.
            if a == 0.0 {
                return;
            }
            if pos[j] != usize::MAX {
                triplets.push((k, pos[j], a));
            } else if let Some(h) = held[j] {
                r -= a * h.constant;
                if let Some((f, s)) = h.link {
                    triplets.push((k, pos[f], a * s));
                }
            }
        });
        // keep the diagonal in the pattern even if A_ii is not stored
        triplets.push((k, k, 0.0));
        rhs[k] = r;
    }
    Reduced {
        free,
        triplets,
        rhs,
    }
}

/// Minimum-map Newton as a [`Method`] on `P`, an [`Lcp`](crate::problem::Lcp) or a
/// [`BoxedLcp`](crate::problem::BoxedLcp): one iteration is one active-set Newton step with
/// the projected line search (Niebe and Erleben 2015; the `iterate` listing of the book).
/// See [`min_map_newton`].
///
/// A step that finds no direction decreasing the merit ends the solve:
/// [`Step::Finished`] with [`Status::Stalled`], reported as
/// [`SolveError::NoConvergence`].
#[derive(Debug, Clone, Copy)]
pub struct MinMapNewton<P>(PhantomData<P>);

/// What minimum-map Newton keeps: its options (the reduced system changes with the active
/// set, so there is nothing symbolic to keep).
#[derive(Debug, Clone)]
pub struct MinMapNewtonPrepared {
    options: MinMapNewtonOptions,
}

impl<P: NewtonProblem> Method for MinMapNewton<P> {
    type Problem = P;
    type Options = MinMapNewtonOptions;
    type Prepared = MinMapNewtonPrepared;
    type Stats = NewtonReport;

    /// Checks the options.
    /// A Newton method: the best error has not halved in 150 steps ([`crate::solver::StallRule::NEWTON`]).
    fn stall_rule(_: &Self::Prepared) -> crate::solver::StallRule {
        crate::solver::StallRule::NEWTON
    }

    fn prepare(_: &P, options: &MinMapNewtonOptions) -> Result<MinMapNewtonPrepared, SolveError> {
        options.check()?;
        Ok(MinMapNewtonPrepared {
            options: options.clone(),
        })
    }

    fn start(_: &mut MinMapNewtonPrepared, _: &P, _: &DVector<f64>) -> Result<(), SolveError> {
        Ok(())
    }

    fn step(
        prepared: &mut MinMapNewtonPrepared,
        problem: &P,
        x: &mut DVector<f64>,
        report: &mut NewtonReport,
    ) -> Result<Step, SolveError> {
        let step = iterate(&prepared.options, problem.rows(), x)?;
        report.steps.push(step);
        Ok(if step.direction == Direction::None {
            Step::Finished(Status::Stalled)
        } else {
            Step::Moved
        })
    }

    /// The crate's error of the problem ([`Rows::error`]).
    fn error(_: &MinMapNewtonPrepared, problem: &P, x: &DVector<f64>) -> Residual {
        problem.rows().error(x)
    }
}

// ANCHOR: iterate
/// One minimum-map Newton iteration from `x`, in place:
///
/// 1. `w = A x + b`, `H = min(x - lo, max(x - hi, w))` and the active set: a row is
///    *held* at a bound where `H_i` is `x_i - lo_i` or `x_i - hi_i` (ties held, the
///    choice of [`MinMap`]) and *free* where `H_i = w_i`;
/// 2. the Newton step `J d = -H` by the Schur reduction: held rows give
///    `d_i = -H_i - c_i d_dep` (for an LCP `d_i = -x_i`), free rows
///    `A_F. d = -w_F`, and substituting the held steps leaves a system on the free rows
///    alone (for an LCP `A_FF d_F = -w_F - A_F,held d_held`);
/// 3. the descent test with `grad theta = J^T H`, `theta = 1/2 ‖H‖²`;
/// 4. the projected Armijo line search `x(tau) = P(x + tau d)`, accepting when
///    `theta(x(tau)) <= theta(x) + c tau grad theta^T d`; if the test or the search
///    fails, the same along `-grad theta`.
///
/// # Errors
/// [`SolveError::Singular`] with [`OnSingular::Error`]; [`SolveError::Problem`] if the
/// bounds depend on each other in a cycle.
fn iterate(
    opts: &MinMapNewtonOptions,
    rows: Rows<'_>,
    x: &mut DVector<f64>,
) -> Result<NewtonStep, SolveError> {
    let n = rows.dim();
    let mut passes = 1;
    let w = rows.w(x);
    let set = active_set(&rows, x, &w);
    let merit = 0.5 * set.h.norm_squared();
    let grad = set.apply_transpose(&rows, &set.h);
    passes += 1;
    let held = resolve_held(&rows, &set)?;
    let red = reduce(&rows, &w, &set, &held);
    let nf = red.free.len();
    let mut inner_iterations = 0;
    let mut inner_residual = None;
    let d_free: Option<DVector<f64>> = if nf == 0 {
        Some(DVector::zeros(0))
    } else {
        match opts.inner {
            InnerSolver::Gmres {
                restart,
                max_iter,
                rel_tol,
            } => {
                let s = Matrix::from_triplets(nf, nf, &red.triplets).expect("indices are in range");
                let inv = jacobi_preconditioner(s.diagonal());
                let eta = rel_tol.min(set.h.norm());
                let mut d = DVector::zeros(nf);
                let out = gmres(
                    &mut |v| s.mul_vec(v),
                    &red.rhs,
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
            _ => {
                let pairs: Vec<(usize, usize)> =
                    red.triplets.iter().map(|&(i, j, _)| (i, j)).collect();
                let values: Vec<f64> = red.triplets.iter().map(|t| t.2).collect();
                PatternLu::new(nf, &pairs, 0)
                    .and_then(|lu| lu.solve(&values, &red.rhs))
                    .ok()
            }
        }
    };
    let mut d_free = d_free.filter(|d| d.iter().all(|v| v.is_finite()));
    let singular = d_free.is_none();
    if singular {
        match opts.on_singular {
            OnSingular::Error => {
                return Err(SolveError::Singular {
                    what: "the reduced minimum-map Newton system".into(),
                });
            }
            OnSingular::Gradient => {}
            OnSingular::Gmres => {
                let s = Matrix::from_triplets(nf, nf, &red.triplets).expect("indices are in range");
                let inv = jacobi_preconditioner(s.diagonal());
                let (d, out) = fallback_gmres(&mut |v| s.mul_vec(v), &red.rhs, &inv);
                passes += out.iterations;
                inner_iterations += out.iterations;
                inner_residual = Some(out.relative_residual);
                d_free = d;
            }
        }
    }
    let newton = d_free.map(|df| {
        let mut d = DVector::zeros(n);
        for (k, &i) in red.free.iter().enumerate() {
            d[i] = df[k];
        }
        for i in 0..n {
            if let Some(h) = held[i] {
                d[i] = h.constant + h.link.map(|(j, s)| s * d[j]).unwrap_or(0.0);
            }
        }
        d
    });
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
        kinks: set.ties,
        held: n - nf,
        passes: 0,
        friction: rows.friction_enabled(),
    };
    // descent test and line search along the Newton direction, or the gradient
    let path = MinMapPath {
        rows: &rows,
        set: &set,
    };
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

/// Minimum-map Newton's line-search path: the projected point
/// `x(tau) = P_bounds(x + tau d)`, merit `theta = 1/2 ‖H‖²` (Niebe and Erleben 2015).
struct MinMapPath<'r, 'a> {
    rows: &'r Rows<'a>,
    set: &'r ActiveSet,
}

impl MeritPath for MinMapPath<'_, '_> {
    fn trial(&self, x: &DVector<f64>, d: &DVector<f64>, tau: f64) -> (DVector<f64>, f64) {
        let mut xt = x + d * tau;
        self.rows.project(&mut xt);
        let wt = self.rows.w(&xt);
        let merit = 0.5 * self.rows.minmap(&xt, &wt).norm_squared();
        (xt, merit)
    }

    fn apply_jacobian(&self, v: &DVector<f64>) -> DVector<f64> {
        self.set.apply(self.rows, v)
    }
}

/// Solves an [`Lcp`](crate::problem::Lcp) or a [`BoxedLcp`](crate::problem::BoxedLcp) by
/// minimum-map Newton with the projected line search: [`solve`]`::<`[`MinMapNewton<P>`]`>`.
///
/// `x` (`n` entries) is the start and receives the answer (projected onto the bounds by
/// every accepted step). The loop stops as [`super::fischer_newton`]'s does, on the crate's
/// error in `params.measure`, at the cap, or on a stall. The statistics are the
/// [`NewtonReport`], one [`NewtonStep`] per iteration, in [`Solved::stats`] (or in the
/// `NoConvergence` report).
///
/// # Requirements
/// None are checked beyond the shapes. Near a nondegenerate solution (no row at a tie)
/// with nonsingular reduced matrices the active set is found in finitely many steps and
/// the last step is exact; for a P-matrix LCP every `A_FF` is nonsingular. Far from the
/// solution the active set may cycle; the line search and the gradient fallback keep the
/// merit decreasing.
///
/// # Errors
/// As [`super::fischer_newton`]: [`SolveError::NoConvergence`] at the cap (status
/// [`Status::MaxIterations`]) or on a stall ([`Status::Stalled`], at the iteration whose
/// step found no direction decreasing `theta`),
/// [`SolveError::Singular`] only with [`OnSingular::Error`], [`SolveError::Problem`] for a
/// wrong `x` length, an option out of range ([`ProblemError::InvalidOption`]), or bounds
/// that depend on each other in a cycle.
///
/// # Reference
/// Niebe and Erleben 2015 (minimum-map Newton, projected line search, α = 0.5, β = 1e-4,
/// γ = 1e-28); Erleben 2007 eq. 37-38 (the boxed minimum map and its merit).
///
/// # Example
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::newton::{MinMapNewtonOptions, min_map_newton};
/// use nonsmooth::problem::Lcp;
/// use nonsmooth::solver::{Params, no_observer};
/// let lcp = Lcp::new(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]).into(),
///                    DVector::from_vec(vec![-5.0, -6.0])).unwrap();
/// let mut x = DVector::zeros(2);
/// let params = Params { tol: 1e-12, ..Default::default() };
/// let info = min_map_newton(&lcp, &mut x, &params, &MinMapNewtonOptions::default(),
///                           &mut no_observer()).unwrap();
/// assert!(info.iterations <= 3 && (x[1] - 7.0 / 3.0).abs() < 1e-12);
/// ```
pub fn min_map_newton<P: NewtonProblem>(
    problem: &P,
    x: &mut DVector<f64>,
    params: &Params,
    options: &MinMapNewtonOptions,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<Solved<NewtonReport>, SolveError<NewtonReport>> {
    solve::<MinMapNewton<P>>(problem, x, params, options, observer)
}
