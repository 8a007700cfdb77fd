//! The one shape of every method: prepare once, iterate, and one loop around it.
//!
//! A method is a type implementing [`Method`]. It says what problem it works on, its options
//! (`<Method>Options`), its statistics, and three things:
//!
//! * [`Method::prepare`]: the symbolic and layout work (block storage, factorisation
//!   patterns, r-factor strategies), done once and reusable across solves of problems with
//!   the same structure (the contact problems of consecutive time steps);
//! * [`Method::start`]: the numeric work for one problem (diagonal block inverses, the
//!   r-factors of this `W`, workspace reset), given the warm start;
//! * [`Method::step`]: **one iteration**, what the book shows: a sweep, a Newton step, a
//!   pivot.
//!
//! [`solve`] and [`solve_prepared`] own everything else: the warm start, stopping on the
//! error of [`Params::measure`], the observer, the history, the finiteness guard and the
//! timing. No method writes its own loop.

use std::ops::ControlFlow;

use nalgebra::DVector;

use crate::merit::Residual;
use crate::problem::check_len;

use super::{Driver, Iterate, Next, Params, SolveError, Solved, Status};

/// What one iteration did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `x` holds a new iterate.
    Moved,
    /// `x` is unchanged: the iteration was rejected (a PROX sweep rolled back). It counts
    /// against [`Params::max_iter`] but is neither measured nor shown to the observer.
    Rejected,
    /// The method ended on its own terms (Lemke's method found its complementary basis, a
    /// PROX step test fired). The loop measures `x`: a `Converged` claim is granted only if
    /// the error meets the tolerance, and otherwise reported as not converged.
    Finished(Status),
}

/// A problem whose unknown vector has a known length.
pub trait Dim {
    /// The number of unknowns (`x` for LCPs, `r` for friction problems).
    fn dim(&self) -> usize;
}

// ANCHOR: method_trait
/// One method of the crate. See the [module docs](self).
pub trait Method {
    /// The problem the method works on.
    type Problem: Dim + ?Sized;
    /// The method's options, `<Method>Options`.
    type Options: Default + Clone + std::fmt::Debug;
    /// What [`Method::prepare`] computes and the iterations use.
    type Prepared;
    /// What the method counts (rollbacks, line-search steps, inner iterations).
    type Stats: Default + Clone + std::fmt::Debug;

    /// The symbolic work for problems shaped like `problem`; validates the options.
    ///
    /// # Errors
    /// [`SolveError::Problem`] for invalid options or a problem the method cannot take.
    fn prepare(
        problem: &Self::Problem,
        options: &Self::Options,
    ) -> Result<Self::Prepared, SolveError>;

    /// The numeric work for `problem` (which has the structure `prepare` saw), from the warm
    /// start `x`. Called once per solve, before the first iteration.
    fn start(
        prepared: &mut Self::Prepared,
        problem: &Self::Problem,
        x: &DVector<f64>,
    ) -> Result<(), SolveError>;

    /// One iteration from `x`, in place.
    fn step(
        prepared: &mut Self::Prepared,
        problem: &Self::Problem,
        x: &mut DVector<f64>,
        stats: &mut Self::Stats,
    ) -> Result<Step, SolveError>;

    /// The error of `x` in every measure (what [`Params::measure`] picks from).
    fn error(prepared: &Self::Prepared, problem: &Self::Problem, x: &DVector<f64>) -> Residual;
}
// ANCHOR_END: method_trait

/// Solves `problem` with method `M` from the warm start `x` (zeros for a cold start); `x`
/// receives the answer, or on failure the last finite iterate.
///
/// # Errors
/// [`SolveError::Problem`] (invalid options, a wrong `x` length, a problem the method cannot
/// take), [`SolveError::NoConvergence`] with the statistics when the iteration cap or the
/// method's own end came before the tolerance, [`SolveError::Diverged`], and the method's own
/// failures ([`SolveError::Singular`], [`SolveError::RayTermination`]).
pub fn solve<M: Method>(
    problem: &M::Problem,
    x: &mut DVector<f64>,
    params: &Params,
    options: &M::Options,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<Solved<M::Stats>, SolveError<M::Stats>> {
    let mut prepared = M::prepare(problem, options).map_err(SolveError::lift)?;
    solve_prepared::<M>(&mut prepared, problem, x, params, observer)
}

/// [`solve`] with the preparation done by the caller, to reuse it across problems of one
/// structure.
pub fn solve_prepared<M: Method>(
    prepared: &mut M::Prepared,
    problem: &M::Problem,
    x: &mut DVector<f64>,
    params: &Params,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<Solved<M::Stats>, SolveError<M::Stats>> {
    check_len("x", problem.dim(), x.len()).map_err(SolveError::Problem)?;
    M::start(prepared, problem, x).map_err(SolveError::lift)?;
    solve_started::<M>(prepared, problem, x, params, observer)
}

/// [`solve_prepared`] after [`Method::start`] was called by the caller: the loop alone.
pub fn solve_started<M: Method>(
    prepared: &mut M::Prepared,
    problem: &M::Problem,
    x: &mut DVector<f64>,
    params: &Params,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<Solved<M::Stats>, SolveError<M::Stats>> {
    check_len("x", problem.dim(), x.len()).map_err(SolveError::Problem)?;
    let mut stats = M::Stats::default();
    let mut driver = Driver::new(params);
    let e0 = M::error(prepared, problem, x);
    if let Next::Finish(status) = driver.start(x, e0) {
        return driver.finish_with(status, 0, e0, stats);
    }
    // ANCHOR: the_loop
    let mut k = 0;
    loop {
        let step = M::step(prepared, problem, x, &mut stats);
        k += 1;
        match step {
            Err(e) => {
                // keep the last finite iterate
                driver.restore(x);
                return Err(e.lift());
            }
            Ok(Step::Rejected) => {
                if k >= params.max_iter {
                    let e = M::error(prepared, problem, x);
                    return driver.finish_with(Status::MaxIterations, k, e, stats);
                }
                continue;
            }
            Ok(Step::Finished(claimed)) => {
                let e = M::error(prepared, problem, x);
                let status = match claimed {
                    Status::Converged if !e.meets(params.tol, params.measure) => {
                        Status::MaxIterations
                    }
                    s => s,
                };
                return driver.finish_with(status, k, e, stats);
            }
            Ok(Step::Moved) => {}
        }
        let measure = |x: &DVector<f64>| M::error(prepared, problem, x);
        match driver.after_iteration(k, x, measure, observer) {
            Err(e) => return Err(e.lift()),
            Ok(Next::Continue) => {}
            Ok(Next::Finish(status)) => {
                let e = match (status, driver.last_error()) {
                    (Status::Stopped, _) | (_, None) => M::error(prepared, problem, x),
                    (_, Some(e)) => e,
                };
                return driver.finish_with(status, k, e, stats);
            }
        }
    }
    // ANCHOR_END: the_loop
}
