//! NNCG: the nonsmooth nonlinear conjugate gradient method, Fletcher-Reeves acceleration of
//! projected Gauss-Seidel (Silcowitz-Hansen, Niebe, Erleben 2010; NOTES §3.2).
//!
//! Checked by `tests/laws/nncg_agrees_with_lemke.rs`.

use crate::solver::MethodOptions;
use std::marker::PhantomData;
use std::ops::ControlFlow;

use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use super::invalid_option;
use super::rows::NewtonProblem;
use crate::merit::Residual;
use crate::problem::{ProblemError, check_positive_diagonal};
use crate::solver::{Iterate, Method, NonExhaustive, Params, SolveError, Solved, Step, solve};

/// Options of NNCG ([`Nncg`], [`nncg`]). Build with
/// `NncgOptions { reproject: true, ..Default::default() }`. Serialised with the field names
/// (the keys of `key=value` settings), every field optional, unknown ones refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NncgOptions {
    /// Restart (drop the search direction) when the Fletcher-Reeves ratio
    /// `beta = ‖g_{k+1}‖² / ‖g_k‖²` exceeds this, that is when the PGS step grew.
    /// Default `1` (the rule of Silcowitz-Hansen, Niebe, Erleben 2010, Algorithm 1);
    /// `> 0`, dimensionless (`+inf` never restarts).
    pub restart_above: f64,
    /// Project onto the bounds after the `beta p` step (default `false`: as published, the
    /// next sweep projects; the returned `x` is then the last sweep's output plus a
    /// momentum step, and its error is measured as it is).
    pub reproject: bool,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for NncgOptions {
    fn default() -> Self {
        NncgOptions {
            restart_above: 1.0,
            reproject: false,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

impl MethodOptions for NncgOptions {
    /// Checks every value against its range (see the fields).
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`] naming the first value out of range.
    fn check(&self) -> Result<(), ProblemError> {
        if !(self.restart_above > 0.0) {
            return Err(invalid_option(
                "nncg",
                "restart_above",
                format!("{} must be > 0", self.restart_above),
            ));
        }
        Ok(())
    }
}

/// What NNCG counted, in [`Solved::stats`] (and in the report of
/// [`SolveError::NoConvergence`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NncgStats {
    /// Iterations whose Fletcher-Reeves ratio exceeded
    /// [`NncgOptions::restart_above`]: the search direction was dropped and the iteration
    /// was a plain projected Gauss-Seidel sweep.
    pub restarts: usize,
}

/// NNCG as a [`Method`] on `P`, an [`Lcp`](crate::problem::Lcp) or a
/// [`BoxedLcp`](crate::problem::BoxedLcp): one iteration is one projected Gauss-Seidel
/// sweep followed by the Fletcher-Reeves momentum step ([`nncg`] has the algorithm).
#[derive(Debug, Clone, Copy)]
pub struct Nncg<P>(PhantomData<P>);

/// What NNCG keeps between iterations: its options, the search direction `p_k` and
/// `‖g_k‖²`. It does not borrow the problem; [`Method::start`] resets the direction.
#[derive(Debug, Clone)]
pub struct NncgPrepared {
    options: NncgOptions,
    /// The search direction `p_k` (`n` entries).
    p: DVector<f64>,
    /// `‖g_k‖²` of the last iteration (NaN before the first).
    gg_old: f64,
    /// No iteration was done yet.
    first: bool,
}

impl<P: NewtonProblem> Method for Nncg<P> {
    type Problem = P;
    type Options = NncgOptions;
    type Prepared = NncgPrepared;
    type Stats = NncgStats;

    /// Checks the options.
    fn prepare(problem: &P, options: &NncgOptions) -> Result<NncgPrepared, SolveError> {
        options.check()?;
        Ok(NncgPrepared {
            options: options.clone(),
            p: DVector::zeros(problem.dim()),
            gg_old: f64::NAN,
            first: true,
        })
    }

    /// Checks that `A` has a positive diagonal (the sweep divides by it) and resets the
    /// search direction.
    fn start(state: &mut NncgPrepared, problem: &P, x: &DVector<f64>) -> Result<(), SolveError> {
        check_positive_diagonal("A", problem.rows().a())?;
        state.p = DVector::zeros(x.len());
        state.gg_old = f64::NAN;
        state.first = true;
        Ok(())
    }

    fn step(
        state: &mut NncgPrepared,
        problem: &P,
        x: &mut DVector<f64>,
        stats: &mut NncgStats,
    ) -> Result<Step, SolveError> {
        nncg_step(state, problem, x, stats);
        Ok(Step::Moved)
    }

    /// The crate's error of the problem ([`super::Rows::error`]).
    fn error(_: &NncgPrepared, problem: &P, x: &DVector<f64>) -> Residual {
        problem.rows().error(x)
    }
}

// ANCHOR: nncg
/// One NNCG iteration from `x`, in place: a projected Gauss-Seidel sweep, then the
/// Fletcher-Reeves step along the previous direction, or a restart (Silcowitz-Hansen,
/// Niebe, Erleben 2010, Algorithm 1):
///
/// ```text
/// x_{k+1} = PGS(x_k);  g_{k+1} = x_k - x_{k+1}
/// first iteration:  p_{k+1} = -g_{k+1}
/// otherwise:        beta = ‖g_{k+1}‖² / ‖g_k‖²
///     if beta > restart_above:  p_{k+1} = 0                            (restart)
///     else:                     x_{k+1} += beta p_k;  p_{k+1} = beta p_k - g_{k+1}
/// ```
fn nncg_step<P: NewtonProblem>(
    state: &mut NncgPrepared,
    problem: &P,
    x: &mut DVector<f64>,
    stats: &mut NncgStats,
) {
    let before = x.clone();
    problem.pgs_sweep(x);
    let g = &before - &*x;
    let gg = g.norm_squared();
    if state.first {
        state.p = -g;
        state.first = false;
    } else {
        let beta = if state.gg_old > 0.0 {
            gg / state.gg_old
        } else {
            0.0
        };
        if !(beta <= state.options.restart_above) {
            state.p.fill(0.0);
            stats.restarts += 1;
        } else {
            x.axpy(beta, &state.p, 1.0);
            state.p = &state.p * beta - g;
        }
    }
    if state.options.reproject {
        problem.rows().project(x);
    }
    state.gg_old = gg;
}
// ANCHOR_END: nncg

/// Solves an LCP or boxed LCP by NNCG: [`solve`]`::<`[`Nncg<P>`]`>`. Projected
/// Gauss-Seidel is seen as a nonsmooth map `x -> PGS(x)` whose increment is minus a
/// gradient, accelerated by Fletcher-Reeves conjugate directions with restarts:
///
/// ```text
/// x1 = PGS(x0);  g1 = x0 - x1;  p1 = -g1
/// for k = 1, 2, ...
///     x_{k+1} = PGS(x_k);  g_{k+1} = x_k - x_{k+1}
///     beta = ‖g_{k+1}‖² / ‖g_k‖²
///     if beta > 1:  p_{k+1} = 0                                   (restart)
///     else:         x_{k+1} += beta p_k;  p_{k+1} = beta p_k - g_{k+1}
/// ```
///
/// One iteration costs one sweep (one pass over `A`) and a few vector operations. `x`
/// (`n` entries) is the start and receives the answer; the loop stops on the crate's error
/// in `params.measure`. The statistics ([`NncgStats`]) count the restarts.
///
/// # Requirements
/// `A` must have a positive diagonal (checked; PGS divides by it). No convergence theorem
/// is known for the accelerated iteration; restarts fall back to plain PGS steps.
///
/// # Errors
/// [`SolveError::Problem`] for a non-positive diagonal, a wrong `x` length or an option
/// out of range ([`ProblemError::InvalidOption`]); [`SolveError::NoConvergence`] at
/// `params.max_iter`; [`SolveError::Diverged`] if an iterate overflows.
///
/// # Reference
/// Silcowitz-Hansen, Niebe, Erleben 2010, *A nonsmooth nonlinear conjugate gradient method
/// for interactive contact force problems*, The Visual Computer 26; Niebe and Erleben 2015.
///
/// # Example
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::newton::{NncgOptions, nncg};
/// use nonsmooth::problem::Lcp;
/// use nonsmooth::solver::{Params, no_observer};
/// let lcp = Lcp::new(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]).into(),
///                    DVector::from_vec(vec![-5.0, -6.0])).unwrap();
/// let mut x = DVector::zeros(2);
/// let params = Params { tol: 1e-12, ..Default::default() };
/// let info = nncg(&lcp, &mut x, &params, &NncgOptions::default(), &mut no_observer()).unwrap();
/// assert!((x[0] - 4.0 / 3.0).abs() < 1e-10 && info.stats.restarts <= info.iterations);
/// ```
pub fn nncg<P: NewtonProblem>(
    problem: &P,
    x: &mut DVector<f64>,
    params: &Params,
    options: &NncgOptions,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<Solved<NncgStats>, SolveError<NncgStats>> {
    solve::<Nncg<P>>(problem, x, params, options, observer)
}
