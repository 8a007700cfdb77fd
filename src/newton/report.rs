//! What each Newton iteration did: the statistics of [`super::FischerNewton`] and
//! [`super::MinMapNewton`] (the loop around the iterations is [`crate::solver::solve`]).

use serde::{Deserialize, Serialize};

/// Which direction an iteration took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// The (generalised) Newton direction.
    Newton,
    /// Steepest descent of the merit, `-grad merit`: the Newton direction failed the
    /// descent test, its inner solve failed (a singular system), or its line search did.
    Gradient,
    /// No step was taken: neither direction decreased the merit.
    None,
}

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

/// The record of a Newton solve, the statistics of [`super::FischerNewton`] and
/// [`super::MinMapNewton`]: one [`NewtonStep`] per iteration. It is in
/// [`Solved::stats`](crate::solver::Solved::stats) on success and in the report carried by
/// [`SolveError::NoConvergence`](crate::solver::SolveError::NoConvergence) otherwise (on
/// any other error the steps are lost).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NewtonReport {
    /// The iterations, in order (`steps[k]` took iterate `k` to `k + 1`); its length is
    /// the `iterations` of the solve.
    pub steps: Vec<NewtonStep>,
    /// The iteration count after which friction was switched on (semi-staggered start
    /// only, Silcowitz, Niebe, Erleben 2009 §3); `None` if it never was.
    pub friction_enabled_at: Option<usize>,
}
