//! What each Newton iteration did, and the loop every Newton-type method shares.

use std::ops::ControlFlow;

use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use super::line_search::Direction;
use super::rows::Rows;
use crate::solver::{Driver, Iterate, Next, Params, SolveError, SolveInfo, Status};

/// One iteration of a Newton-type method, as it happened.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct NewtonStep {
    /// The merit before the step: `Psi = 1/2 ‖Phi‖²` (Fischer-Newton) or
    /// `theta = 1/2 ‖H‖²` (minimum-map Newton), of the rows being solved (in the first
    /// phase of a semi-staggered start, those without friction).
    pub merit: f64,
    /// The merit after the step.
    pub merit_after: f64,
    /// The step length taken (0 if none).
    pub alpha: f64,
    /// `grad merit^T d` along the direction taken (0 if none).
    pub slope: f64,
    /// The direction taken.
    pub direction: Direction,
    /// Iterations of the inner solver (0 for LU).
    pub inner_iterations: usize,
    /// `‖H d + Phi‖ / ‖Phi‖` reported by an iterative inner solver (`None` for LU).
    pub inner_residual: Option<f64>,
    /// Merit evaluations made by the line search (over both directions).
    pub line_search_trials: usize,
    /// `true` if the Armijo condition (`c` of the line search, `1e-4` without one) holds
    /// at the step taken.
    pub armijo: bool,
    /// `true` if the Newton system was singular (the LU failed or gave a non-finite
    /// answer).
    pub singular: bool,
    /// Scalar nonsmooth evaluations found at a kink (Fischer-Newton: of the `2n` scalar
    /// Fischer-Burmeister functions; minimum-map Newton: rows at a tie).
    pub kinks: usize,
    /// Rows held by [`super::KinkStrategy::Zero`].
    pub held: usize,
    /// Passes over `A` (products `A v` or `A^T v`, evaluations of `w = A x + b`) made by
    /// this iteration, the cost unit of one projected Gauss-Seidel sweep. An LU
    /// factorisation is not a pass and is not counted.
    pub passes: usize,
    /// `false` during the frictionless phase of a semi-staggered start.
    pub friction: bool,
}

/// The record of a Newton solve: one [`NewtonStep`] per iteration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NewtonReport {
    /// The iterations, in order (`steps[k]` took iterate `k` to `k + 1`).
    pub steps: Vec<NewtonStep>,
    /// The iteration count after which friction was switched on (semi-staggered start
    /// only).
    pub friction_enabled_at: Option<usize>,
}

/// What one call of a method's step returns to the loop.
pub(crate) struct Stepped {
    pub step: NewtonStep,
    /// `true` if the method cannot move any more (no direction decreases the merit).
    pub stalled: bool,
}

/// The loop shared by the Newton-type methods: measure the start, step, measure, stop
/// (tolerance, iteration cap, observer, or a stall, which ends as
/// [`SolveError::NoConvergence`]).
pub(crate) fn newton_loop(
    rows: Rows<'_>,
    x: &mut DVector<f64>,
    params: &Params,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
    report: &mut NewtonReport,
    mut step: impl FnMut(&mut DVector<f64>, &mut NewtonReport) -> Result<Stepped, SolveError>,
) -> Result<SolveInfo, SolveError> {
    let measure = |x: &DVector<f64>| rows.error(x);
    let mut driver = Driver::new(params);
    if let Next::Finish(status) = driver.start(x, measure(x)) {
        let e = measure(x);
        return driver.finish(status, 0, e);
    }
    let mut k = 0;
    loop {
        let stepped = step(x, report)?;
        report.steps.push(stepped.step);
        k += 1;
        let next = driver.after_iteration(k, x, measure, observer)?;
        let status = match next {
            Next::Finish(status) => Some(status),
            Next::Continue if stepped.stalled => Some(Status::MaxIterations),
            Next::Continue => None,
        };
        if let Some(status) = status {
            let e = match (status, driver.last_error()) {
                (Status::Stopped, _) | (_, None) => measure(x),
                _ if stepped.stalled => measure(x),
                (_, Some(e)) => e,
            };
            return driver.finish(status, k, e);
        }
    }
}
