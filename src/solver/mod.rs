//! The vocabulary every solver shares: parameters, what a solve reports, how it fails,
//! and the observer that watches iterations.
//!
//! Every iterative solver in the crate has the shape
//!
//! ```text
//! fn solve(problem: &P, x: &mut DVector<f64>,   // warm start in, solution out
//!          params: &Params,                      // tolerance, limits, history
//!          /* method options */,
//!          observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>)
//!     -> Result<SolveInfo, SolveError>
//! ```
//!
//! On success `x` holds the answer and [`SolveInfo`] its measured [`Residual`]. On
//! failure `x` holds the last finite iterate (never NaN) and the error says why, with the
//! measured residual where there is one.

use std::fmt;
use std::ops::ControlFlow;
use std::time::Instant;

use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use crate::merit::{Measure, Residual};
use crate::problem::ProblemError;

mod method;
mod options;

pub(crate) mod scaling;

pub use scaling::{SCALE_WINDOW, mul_pow2};

pub use crate::problem::Dim;
pub use method::{Method, Step, solve, solve_prepared, solve_started};
pub use options::MethodOptions;

/// Hidden field that keeps [`Params`] open to new fields: build it with
/// `Params { tol: 1e-10, ..Default::default() }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NonExhaustive(());

/// Parameters shared by the iterative solvers.
///
/// ```
/// use nonsmooth::solver::Params;
/// let p = Params { tol: 1e-10, max_iter: 500, ..Default::default() };
/// assert_eq!(p.check_every, 1);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Stop when the chosen [`Measure`] of the error is `<= tol`, and for a friction problem
    /// the normal condition too ([`Residual::meets`]). Default `1e-8`;
    /// any value `>= 0` (0 runs to `max_iter`). Dimensionless for relative measures,
    /// the problem's units for `Absolute`.
    pub tol: f64,
    /// Iteration cap (sweeps for splitting methods, pivots for Lemke). Default `10_000`.
    pub max_iter: usize,
    /// Which error is compared with `tol`. Default [`Measure::Relative`] (Siconos 4.4).
    pub measure: Measure,
    /// Measure the error every `check_every` iterations (it costs about one matrix-vector
    /// product). Default `1`; `0` is treated as `1`.
    pub check_every: usize,
    /// Record the error at every check in [`SolveInfo::history`]. Default `false`.
    pub record_history: bool,
    /// Wall-clock budget in seconds: the solve ends with [`Status::TimeLimit`] and its best
    /// iterate once this much time has passed (checked after every iteration). Default
    /// `None` (no limit). Must be positive.
    pub time_limit: Option<f64>,
    /// The stall rule ([`StallRule`]): `None` (the default) uses the method's own
    /// ([`Method::stall_rule`]); `Some(StallRule::NEVER)` turns stall detection off.
    pub stall: Option<StallRule>,
    /// Look for a certificate of infeasibility when a solve through the registry fails
    /// ([`crate::certificate`]). Default `true`; the time steppers turn it off (a step goes
    /// on with its last iterate either way, and the search costs a dense eigendecomposition).
    pub certify: bool,
    #[doc(hidden)]
    pub non_exhaustive: NonExhaustive,
}

// ANCHOR: stall_rule
/// When a solve has stalled: its best error (the largest of the stopping test's numbers,
/// [`Residual::worst`]) has not fallen by the fraction `fraction` over the last `window`
/// iterations. The solve then ends with [`Status::Stalled`] and its best iterate.
///
/// A method that shrinks its error by a factor `ρ` per iteration shrinks it by `ρ^window`
/// over a window; the rule fires when `ρ^window > 1 - fraction`, that is when reaching the
/// tolerance from an error `e` would take more than
/// `window · ln(e / tol) / (-ln(1 - fraction))` iterations. Each family states its rule
/// ([`Method::stall_rule`]) so that this bound lies well beyond its default iteration cap:
/// a method the rule stops would not have converged within the cap either.
///
/// The same window also detects divergence: when the rule fires and the iterate's norm has
/// grown more than [`StallRule::GROWTH`] times beyond that of the best iterate, the iterate
/// grows without bound while its error stays, and the solve ends with
/// [`SolveError::Diverged`] (the registry then looks for a certificate that the problem has
/// no solution, [`crate::certificate`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StallRule {
    /// Iterations (sweeps, Newton steps, outer iterations) without enough progress; 0
    /// never stalls.
    pub window: usize,
    /// The fraction by which the best error must fall within the window, in `(0, 1)`.
    pub fraction: f64,
}
// ANCHOR_END: stall_rule

impl StallRule {
    /// No stall detection.
    pub const NEVER: StallRule = StallRule {
        window: 0,
        fraction: 0.0,
    };
    /// Newton methods: the best error has not halved in 150 Newton steps. A Newton method
    /// near a solution at least halves it every step; far from one a line search can creep
    /// through kinks (the PROX-started Newton method on the shipped `BoxesStack1` file
    /// goes 103 steps without halving its error, then converges). One that needs 150 steps
    /// per halving would need more than 3 500 steps from `1e-1` to `1e-8`, far beyond its
    /// default cap of 500.
    pub const NEWTON: StallRule = StallRule {
        window: 150,
        fraction: 0.5,
    };
    /// The outer iterations of the proximal-point method, which converge linearly: the best
    /// error has not halved in 100 of them, more than 2 600 per factor 1e8, beyond its
    /// default cap of 500.
    pub const PROXIMAL_POINT: StallRule = StallRule {
        window: 100,
        fraction: 0.5,
    };
    /// Splitting methods (Gauss-Seidel, Jacobi, SOR): the best error has not fallen by 1 %
    /// in 10 000 sweeps (the shipped Capsules files rest on plateaus of more than 2 000): a
    /// rate above `0.99^(1/10000)` per sweep, which needs more than 18 million sweeps per
    /// factor 1e8, beyond the default cap of 100 000.
    pub const SPLITTING: StallRule = StallRule {
        window: 10_000,
        fraction: 0.01,
    };
    /// PROX, whose error can rest on a plateau for thousands of sweeps while its r-factors
    /// adapt: 1 % in 50 000 sweeps, more than 90 million sweeps per factor 1e8, beyond its
    /// default cap of a million.
    pub const PROX: StallRule = StallRule {
        window: 50_000,
        fraction: 0.01,
    };
    /// An iterate whose norm grew more than this many times beyond the best iterate's,
    /// while the error did not fall, is diverging.
    pub const GROWTH: f64 = 1e6;
    /// An iterate whose norm grew more than this many times beyond the first nonzero one is
    /// never accepted as converged (its error is rounding); the solve reports
    /// [`SolveError::Diverged`].
    pub const RUNAWAY: f64 = 1e10;

    /// `true` if this rule can fire.
    pub fn active(&self) -> bool {
        self.window > 0 && self.fraction > 0.0
    }
}

impl Default for Params {
    fn default() -> Self {
        Params {
            tol: 1e-8,
            max_iter: 10_000,
            measure: Measure::Relative,
            check_every: 1,
            record_history: false,
            time_limit: None,
            stall: None,
            certify: true,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

/// How a solve ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The tolerance was met.
    Converged,
    /// The iteration cap was reached first.
    MaxIterations,
    /// The observer asked to stop.
    Stopped,
    /// The method could make no more progress before the tolerance: no direction it
    /// tries decreases its merit (a Newton method whose Newton and gradient line searches
    /// both failed, [`crate::newton::Direction::None`]). Like [`Status::MaxIterations`],
    /// reported as [`SolveError::NoConvergence`], at the iteration where it happened.
    /// Also the status of the stall rule ([`StallRule`]): the best error did not fall by
    /// the rule's fraction over its window; the best iterate is returned.
    Stalled,
    /// The wall-clock budget ([`Params::time_limit`]) ran out first; the best iterate is
    /// returned. Reported as [`SolveError::NoConvergence`].
    TimeLimit,
}

impl Status {
    /// The name used in tables and JSON (`"converged"`, `"max-iterations"`, `"stopped"`,
    /// `"stalled"`, `"time-limit"`).
    pub fn name(self) -> &'static str {
        match self {
            Status::Converged => "converged",
            Status::MaxIterations => "max-iterations",
            Status::Stopped => "stopped",
            Status::Stalled => "stalled",
            Status::TimeLimit => "time-limit",
        }
    }
}

/// One point of a convergence history.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HistoryPoint {
    /// Iteration count when measured.
    pub iteration: usize,
    /// The error then.
    pub error: Residual,
    /// Seconds since the solve started.
    pub seconds: f64,
}

/// What a solve reports: how it ended, the measured error of the answer, and what the method
/// counted (`S`, its statistics).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Solved<S = ()> {
    /// How it ended.
    pub status: Status,
    /// Iterations done.
    pub iterations: usize,
    /// The error of the returned `x`, measured on it (not estimated).
    pub error: Residual,
    /// Wall time in seconds.
    pub seconds: f64,
    /// The error at every check, when [`Params::record_history`] is set.
    pub history: Vec<HistoryPoint>,
    /// What the method counted.
    pub stats: S,
}

/// A report without statistics.
pub type SolveInfo = Solved<()>;

impl<S> Solved<S> {
    /// The report with other statistics.
    pub fn map_stats<T>(self, f: impl FnOnce(S) -> T) -> Solved<T> {
        Solved {
            status: self.status,
            iterations: self.iterations,
            error: self.error,
            seconds: self.seconds,
            history: self.history,
            stats: f(self.stats),
        }
    }
}

/// What the observer sees after each iteration.
#[derive(Debug)]
pub struct Iterate<'a> {
    /// Iterations done so far.
    pub iteration: usize,
    /// The current iterate.
    pub x: &'a DVector<f64>,
    /// The error, when it was measured at this iteration.
    pub error: Option<Residual>,
}

/// An observer that never interrupts.
pub fn no_observer() -> impl FnMut(&Iterate) -> ControlFlow<()> {
    |_| ControlFlow::Continue(())
}

/// Why a solve failed. `x` then holds the last finite iterate. `S` is the method's
/// statistics, carried by [`SolveError::NoConvergence`].
#[derive(Debug, Clone, PartialEq)]
pub enum SolveError<S = ()> {
    /// The input is invalid, or does not meet what the method requires.
    Problem(ProblemError),
    /// The iteration cap was reached, or the method stalled, before the tolerance
    /// ([`Solved::status`] says which: [`Status::MaxIterations`] or [`Status::Stalled`]).
    /// The info carries the measured residual of the returned iterate.
    NoConvergence(Box<Solved<S>>),
    /// An iterate became non-finite (`x` was restored to the last finite iterate), or it
    /// grew without bound while its error did not fall ([`StallRule`]; `x` holds the
    /// growing iterate, the evidence a certificate of infeasibility is looked for along).
    Diverged {
        /// Iteration at which it happened.
        iteration: usize,
        /// The last finite error.
        error: Residual,
    },
    /// Lemke's method ended on a secondary ray: no solution was found (for a
    /// copositive-plus matrix this proves the LCP infeasible).
    RayTermination {
        /// Pivots done.
        pivots: usize,
    },
    /// A linear system the method needs is singular.
    Singular {
        /// Which system.
        what: String,
    },
    /// The problem has no solution, and the certificate proves it
    /// ([`crate::certificate::Certificate`]); `x` holds the method's last iterate.
    Infeasible(Box<crate::certificate::Certificate>),
}

impl SolveError<()> {
    /// The same error in the type of a method with statistics `S` (default statistics for
    /// [`SolveError::NoConvergence`]).
    pub fn lift<S: Default>(self) -> SolveError<S> {
        match self {
            SolveError::Problem(e) => SolveError::Problem(e),
            SolveError::NoConvergence(info) => {
                SolveError::NoConvergence(Box::new(info.map_stats(|()| S::default())))
            }
            SolveError::Diverged { iteration, error } => SolveError::Diverged { iteration, error },
            SolveError::RayTermination { pivots } => SolveError::RayTermination { pivots },
            SolveError::Singular { what } => SolveError::Singular { what },
            SolveError::Infeasible(c) => SolveError::Infeasible(c),
        }
    }
}

impl<S> SolveError<S> {
    /// The same error without the statistics.
    pub fn drop_stats(self) -> SolveError {
        self.map_stats(|_| ())
    }

    /// The same error with the statistics of [`SolveError::NoConvergence`] mapped by `f`.
    pub fn map_stats<T>(self, f: impl FnOnce(S) -> T) -> SolveError<T> {
        match self {
            SolveError::Problem(e) => SolveError::Problem(e),
            SolveError::NoConvergence(info) => {
                SolveError::NoConvergence(Box::new(info.map_stats(f)))
            }
            SolveError::Diverged { iteration, error } => SolveError::Diverged { iteration, error },
            SolveError::RayTermination { pivots } => SolveError::RayTermination { pivots },
            SolveError::Singular { what } => SolveError::Singular { what },
            SolveError::Infeasible(c) => SolveError::Infeasible(c),
        }
    }

    /// The method's statistics, which only [`SolveError::NoConvergence`] carries.
    pub fn stats(&self) -> Option<&S> {
        match self {
            SolveError::NoConvergence(info) => Some(&info.stats),
            _ => None,
        }
    }

    /// The short status name used in tables and JSON.
    pub fn status_name(&self) -> &'static str {
        match self {
            SolveError::Problem(_) => "invalid",
            SolveError::NoConvergence(info) => info.status.name(),
            SolveError::Diverged { .. } => "diverged",
            SolveError::RayTermination { .. } => "ray-termination",
            SolveError::Singular { .. } => "singular",
            SolveError::Infeasible(_) => "infeasible",
        }
    }
}

impl<S> fmt::Display for SolveError<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Problem(e) => write!(f, "{e}"),
            SolveError::NoConvergence(info) if info.status == Status::Stalled => write!(
                f,
                "stalled after {} iterations: the error stopped decreasing \
                 (error {:.3e}, problem-scaled {:.3e})",
                info.iterations, info.error.rel, info.error.scaled
            ),
            SolveError::NoConvergence(info) if info.status == Status::TimeLimit => write!(
                f,
                "time limit reached after {} iterations (error {:.3e}, problem-scaled {:.3e})",
                info.iterations, info.error.rel, info.error.scaled
            ),
            SolveError::NoConvergence(info) => write!(
                f,
                "no convergence after {} iterations (error {:.3e}, problem-scaled {:.3e})",
                info.iterations, info.error.rel, info.error.scaled
            ),
            SolveError::Diverged { iteration, error } => write!(
                f,
                "diverged at iteration {iteration} (last finite error {:.3e})",
                error.rel
            ),
            SolveError::RayTermination { pivots } => {
                write!(
                    f,
                    "Lemke's method ended on a secondary ray after {pivots} pivots"
                )
            }
            SolveError::Singular { what } => write!(f, "singular system: {what}"),
            SolveError::Infeasible(c) => write!(f, "the problem has no solution: {c}"),
        }
    }
}

impl<S: fmt::Debug> std::error::Error for SolveError<S> {}

impl<S> From<ProblemError> for SolveError<S> {
    fn from(e: ProblemError) -> Self {
        SolveError::Problem(e)
    }
}

/// The loop policy shared by the iterative solvers: when to measure, when to stop, what
/// to record, the finiteness guard, the stall rule, the time limit, and the best iterate.
/// A solver calls [`Driver::after_iteration_with`] after each step with a closure that
/// measures the error.
pub(crate) struct Driver<'p> {
    params: &'p Params,
    start: Instant,
    history: Vec<HistoryPoint>,
    last: Option<Residual>,
    /// The last iterate whose error was finite, restored on divergence.
    backup: DVector<f64>,
    /// The stall rule in force.
    stall: StallRule,
    /// The best measured iterate: its stopping number ([`Residual::worst`]), its error and
    /// a copy of it (kept only when a stall rule or a time limit may return it).
    best: Option<(f64, Residual, DVector<f64>)>,
    /// The stall window's anchor: the iteration and stopping number of the last iterate that
    /// improved on the anchor before it by the rule's fraction.
    anchor: (usize, f64),
    /// The norm of the first nonzero measured iterate: with the best iterate's, the base
    /// against which growth is measured.
    first_norm: f64,
}

/// What the loop should do next.
pub(crate) enum Next {
    Continue,
    Finish(Status),
}

impl<'p> Driver<'p> {
    pub(crate) fn new(params: &'p Params, stall: StallRule) -> Self {
        Driver {
            params,
            start: Instant::now(),
            history: Vec::new(),
            last: None,
            backup: DVector::zeros(0),
            stall: params.stall.unwrap_or(stall),
            best: None,
            anchor: (0, f64::INFINITY),
            first_norm: 0.0,
        }
    }

    fn keeps_best(&self) -> bool {
        self.stall.active() || self.params.time_limit.is_some()
    }

    /// Records the starting point and its error (so that a warm start that already solves
    /// the problem costs no iteration): returns `Finish(Converged)` if it does, unless
    /// `may_stop = false`, which records the error without ending the solve (see
    /// [`Method::stops_at_tolerance`]).
    pub(crate) fn start_with(&mut self, x: &DVector<f64>, error: Residual, may_stop: bool) -> Next {
        self.backup = x.clone();
        self.record(0, error);
        self.track(0, x, error);
        if may_stop && error.meets(self.params.tol, self.params.measure) {
            Next::Finish(Status::Converged)
        } else {
            Next::Continue
        }
    }

    fn record(&mut self, iteration: usize, error: Residual) {
        self.last = Some(error);
        if self.params.record_history {
            self.history.push(HistoryPoint {
                iteration,
                error,
                seconds: self.start.elapsed().as_secs_f64(),
            });
        }
    }

    /// Updates the best iterate and the stall window's anchor with a measured iterate.
    fn track(&mut self, iteration: usize, x: &DVector<f64>, error: Residual) {
        let v = error.worst(self.params.measure);
        if !v.is_finite() {
            return;
        }
        if self.first_norm == 0.0 {
            self.first_norm = crate::merit::scaled_norm(x.as_slice());
        }
        if self.keeps_best() && self.best.as_ref().is_none_or(|(b, _, _)| v < *b) {
            match &mut self.best {
                Some((b, e, bx)) if bx.len() == x.len() => {
                    *b = v;
                    *e = error;
                    bx.copy_from(x);
                }
                _ => self.best = Some((v, error, x.clone())),
            }
        }
        if v < self.anchor.1 * (1.0 - self.stall.fraction) || self.anchor.1.is_infinite() {
            self.anchor = (iteration, v);
        }
    }

    /// The end the stall rule or the time limit calls for after iteration `iteration`, if
    /// any: `Some(Ok(status))` to finish (the best iterate put into `x`), `Some(Err(..))`
    /// for an iterate that grows without bound.
    fn budget(
        &mut self,
        iteration: usize,
        x: &mut DVector<f64>,
    ) -> Option<Result<Status, SolveError>> {
        let stalled = self.stall.active() && iteration >= self.anchor.0 + self.stall.window;
        let timed_out = self
            .params
            .time_limit
            .is_some_and(|t| self.start.elapsed().as_secs_f64() >= t);
        if !stalled && !timed_out {
            return None;
        }
        if stalled {
            if let Some((_, e, bx)) = &self.best {
                let grown = crate::merit::scaled_norm(x.as_slice());
                let base = crate::merit::scaled_norm(bx.as_slice()).max(self.first_norm);
                if base > 0.0 && grown > StallRule::GROWTH * base {
                    return Some(Err(SolveError::Diverged {
                        iteration,
                        error: *e,
                    }));
                }
            }
        }
        if let Some((_, e, bx)) = &self.best {
            if bx.len() == x.len() {
                x.copy_from(bx);
                self.last = Some(*e);
            }
        }
        Some(Ok(if timed_out {
            Status::TimeLimit
        } else {
            Status::Stalled
        }))
    }

    /// `iteration` is the number of iterations done. `measure` computes the error of the
    /// current iterate; it is called only on check iterations and on the last one. With
    /// `may_stop = false` an error that meets the tolerance ends the solve only at the
    /// iteration cap (see [`Method::stops_at_tolerance`]): it is still measured, recorded
    /// and observed.
    pub(crate) fn after_iteration_with(
        &mut self,
        iteration: usize,
        x: &mut DVector<f64>,
        measure: impl FnOnce(&DVector<f64>) -> Residual,
        observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
        may_stop: bool,
    ) -> Result<Next, SolveError> {
        let every = self.params.check_every.max(1);
        let last_iteration = iteration >= self.params.max_iter;
        let mut error = None;
        let finite = x.iter().all(|v| v.is_finite());
        if iteration % every == 0 || last_iteration || !finite {
            let e = if finite {
                measure(x)
            } else {
                Residual::new(f64::NAN, 1.0, 1.0)
            };
            if !e.is_finite() {
                if self.backup.len() == x.len() {
                    x.copy_from(&self.backup);
                }
                return Err(SolveError::Diverged {
                    iteration,
                    error: self.last.unwrap_or(e),
                });
            }
            self.backup.copy_from(x);
            self.record(iteration, e);
            self.track(iteration, x, e);
            error = Some(e);
        }
        if let ControlFlow::Break(()) = observer(&Iterate {
            iteration,
            x: &*x,
            error,
        }) {
            return Ok(Next::Finish(Status::Stopped));
        }
        if let Some(e) = error {
            if (may_stop || last_iteration) && e.meets(self.params.tol, self.params.measure) {
                if self.runaway(x) {
                    return Err(SolveError::Diverged {
                        iteration,
                        error: e,
                    });
                }
                return Ok(Next::Finish(Status::Converged));
            }
        }
        if last_iteration {
            return Ok(Next::Finish(Status::MaxIterations));
        }
        if may_stop {
            match self.budget(iteration, x) {
                Some(Ok(status)) => return Ok(Next::Finish(status)),
                Some(Err(e)) => return Err(e),
                None => {}
            }
        }
        Ok(Next::Continue)
    }

    /// `true` for an iterate grown [`StallRule::RUNAWAY`] times beyond the first nonzero
    /// one: at such sizes `W x` is rounding, every error measure with it, and a small error
    /// is no evidence (an LCP without solution "solved" at `‖x‖ = 1e16`).
    fn runaway(&self, x: &DVector<f64>) -> bool {
        self.first_norm > 0.0
            && crate::merit::scaled_norm(x.as_slice()) > StallRule::RUNAWAY * self.first_norm
    }

    /// After a rejected iteration (not measured): the time limit still applies.
    pub(crate) fn after_rejected(
        &mut self,
        iteration: usize,
        x: &mut DVector<f64>,
    ) -> Option<Status> {
        if self
            .params
            .time_limit
            .is_some_and(|t| self.start.elapsed().as_secs_f64() >= t)
        {
            if let Some((_, e, bx)) = &self.best {
                if bx.len() == x.len() {
                    x.copy_from(bx);
                    self.last = Some(*e);
                }
            }
            let _ = iteration;
            return Some(Status::TimeLimit);
        }
        None
    }

    /// Builds the result with the method's statistics. `final_error` is the error of the
    /// returned iterate (measured again if the last check was not on it).
    pub(crate) fn finish_with<S>(
        self,
        status: Status,
        iterations: usize,
        final_error: Residual,
        stats: S,
    ) -> Result<Solved<S>, SolveError<S>> {
        let info = Solved {
            status,
            iterations,
            error: final_error,
            seconds: self.start.elapsed().as_secs_f64(),
            history: self.history,
            stats,
        };
        match status {
            Status::MaxIterations | Status::Stalled | Status::TimeLimit => {
                Err(SolveError::NoConvergence(Box::new(info)))
            }
            _ => Ok(info),
        }
    }

    /// Puts the last finite iterate back into `x` (after a method failed mid-iteration).
    pub(crate) fn restore(&self, x: &mut DVector<f64>) {
        if self.backup.len() == x.len() && x.iter().any(|v| !v.is_finite()) {
            x.copy_from(&self.backup);
        }
    }

    /// The last measured error, if any.
    pub(crate) fn last_error(&self) -> Option<Residual> {
        self.last
    }
}
