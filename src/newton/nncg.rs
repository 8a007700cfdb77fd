//! NNCG: the nonsmooth nonlinear conjugate gradient method, Fletcher-Reeves acceleration of
//! projected Gauss-Seidel (Silcowitz-Hansen, Niebe, Erleben 2010; NOTES §3.2).

use std::ops::ControlFlow;

use nalgebra::DVector;

use super::rows::NewtonProblem;
use crate::problem::{ProblemError, check_positive_diagonal};
use crate::solver::{Driver, Iterate, Next, NonExhaustive, Params, SolveError, SolveInfo, Status};

/// Options of [`nncg`].
#[derive(Debug, Clone, PartialEq)]
pub struct Nncg {
    /// Restart (drop the search direction) when the Fletcher-Reeves ratio
    /// `beta = ‖g_{k+1}‖² / ‖g_k‖²` exceeds this, that is when the PGS step grew.
    /// Default `1` (the paper's rule); `> 0`.
    pub restart_above: f64,
    /// Project onto the bounds after the `beta p` step (default `false`: as published, the
    /// next sweep projects; the returned `x` is then the last sweep's output plus a
    /// momentum step, and its error is measured as it is).
    pub reproject: bool,
    #[doc(hidden)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for Nncg {
    fn default() -> Self {
        Nncg {
            restart_above: 1.0,
            reproject: false,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

// ANCHOR: nncg
/// Solves an LCP or boxed LCP by NNCG: projected Gauss-Seidel seen as a nonsmooth map
/// `x -> PGS(x)` whose increment is minus a gradient, accelerated by Fletcher-Reeves
/// conjugate directions with restarts:
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
/// One iteration costs one sweep (one pass over `A`) and a few vector operations. `x` is
/// the start and receives the answer; the loop stops on the crate's error in
/// `params.measure`.
///
/// # Requirements
/// `A` must have a positive diagonal (checked; PGS divides by it). No convergence theorem
/// is known for the accelerated iteration; restarts fall back to plain PGS steps.
///
/// # Errors
/// [`SolveError::Problem`] for a non-positive diagonal, wrong `x` length or invalid
/// options; [`SolveError::NoConvergence`] at `params.max_iter`;
/// [`SolveError::Diverged`] if an iterate overflows.
///
/// # Reference
/// Silcowitz-Hansen, Niebe, Erleben 2010, *A nonsmooth nonlinear conjugate gradient method
/// for interactive contact force problems*, The Visual Computer 26; Niebe and Erleben 2015.
pub fn nncg<P: NewtonProblem + ?Sized>(
    problem: &P,
    x: &mut DVector<f64>,
    params: &Params,
    options: &Nncg,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<SolveInfo, SolveError> {
    let rows = problem.rows();
    rows.check_x(x)?;
    check_positive_diagonal("A", rows.a())?;
    if !(options.restart_above > 0.0) {
        return Err(ProblemError::Unsupported {
            reason: format!("restart_above = {} must be > 0", options.restart_above),
        }
        .into());
    }
    let measure = |x: &DVector<f64>| rows.error(x);
    let mut driver = Driver::new(params);
    if let Next::Finish(status) = driver.start(x, measure(x)) {
        let e = measure(x);
        return driver.finish(status, 0, e);
    }
    let mut p = DVector::zeros(x.len());
    let mut gg_old = f64::NAN;
    let mut k = 0;
    loop {
        let before = x.clone();
        problem.pgs_sweep(x);
        let g = &before - &*x;
        let gg = g.norm_squared();
        if k == 0 {
            p = -g;
        } else {
            let beta = if gg_old > 0.0 { gg / gg_old } else { 0.0 };
            if !(beta <= options.restart_above) {
                p.fill(0.0);
            } else {
                x.axpy(beta, &p, 1.0);
                p = &p * beta - g;
            }
        }
        if options.reproject {
            rows.project(x);
        }
        gg_old = gg;
        k += 1;
        if let Next::Finish(status) = driver.after_iteration(k, x, measure, observer)? {
            let e = match (status, driver.last_error()) {
                (Status::Stopped, _) | (_, None) => measure(x),
                (_, Some(e)) => e,
            };
            return driver.finish(status, k, e);
        }
    }
}
// ANCHOR_END: nncg
