//! The one shape of every method: prepare once, iterate, and one loop around it (see
//! [`Method`]).

use std::ops::ControlFlow;

use nalgebra::DVector;

use crate::merit::Residual;
use crate::problem::{Dim, check_len};

use super::{Driver, Iterate, Next, Params, SolveError, Solved, StallRule, Status};

/// What one iteration did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `x` holds a new iterate.
    Moved,
    /// `x` is unchanged: the iteration was rejected (a PROX sweep rolled back). It counts
    /// against [`Params::max_iter`] but is neither measured nor shown to the observer.
    Rejected,
    /// `x` holds a new iterate, and the method ends there on its own terms (Lemke's method
    /// found its complementary basis, a PROX step test fired). The loop first treats the
    /// iterate as after [`Step::Moved`] (measure, observer, tolerance, cap: if one of them
    /// ends the solve, its status is reported). Otherwise the claim is reported, with the
    /// error measured on `x`: `Stopped`, `MaxIterations` and `Stalled` as they are, `Converged` only if
    /// the error meets the tolerance (else the solve did not converge,
    /// [`SolveError::NoConvergence`]).
    Finished(Status),
}

// ANCHOR: method_trait
/// One method of the crate: prepare once, iterate, and one loop around it.
///
/// A method is a type implementing [`Method`]. It says what problem it works on, its options
/// (`<Method>Options`), its statistics, and three things:
///
/// * [`Method::prepare`]: the symbolic and layout work (block storage, factorisation
///   patterns, r-factor strategies), done once and reusable across solves of problems with
///   the same structure (the contact problems of consecutive time steps);
/// * [`Method::start`]: the numeric work for one problem (the r-factors of this `W`,
///   workspace reset), given the warm start. Numeric work `prepare` already did for the
///   problem it saw (NSGS's diagonal blocks and their inverses) is redone only for a
///   problem whose numbers differ;
/// * [`Method::step`]: **one iteration**, what the book shows: a sweep, a Newton step, a
///   pivot.
///
/// [`solve`] and [`solve_prepared`] own everything else: the warm start, stopping on the
/// error of [`Params::measure`], the observer, the history, the finiteness guard and the
/// timing. No method writes its own loop.
///
/// # How a solve ends
/// After each step the loop, in this order: measures `x` (every [`Params::check_every`]
/// iterations and at the cap), returns [`SolveError::Diverged`] on a non-finite error, shows
/// the iterate to the observer (which may stop the solve, [`Status::Stopped`]), ends with
/// [`Status::Converged`] when the error meets the tolerance (unless the method asks not to,
/// [`Method::stops_at_tolerance`]) and with [`Status::MaxIterations`] at the cap. Only then
/// does a method's own end ([`Step::Finished`]) take effect. Whoever ended it, the loop
/// tells the method ([`Method::ended`]) so that its statistics can say why.
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

    /// Whether the loop may end the solve because the measured error meets the tolerance, at
    /// the warm start and after a step. Default `true`. A method whose path must not be cut
    /// short answers `false` (Lemke's method while it pivots: its intermediate bases are
    /// compared pivot for pivot with other implementations, and its answer is the one its
    /// last pivot makes). The loop then still measures, records and shows every iterate, and
    /// still reports `Converged` when the error meets the tolerance at the iteration cap or
    /// on a [`Step::Finished`] claim.
    fn stops_at_tolerance(prepared: &Self::Prepared) -> bool {
        let _ = prepared;
        true
    }

    /// When this method has stalled ([`StallRule`]): by default the splitting rule
    /// ([`StallRule::SPLITTING`]); Newton methods answer [`StallRule::NEWTON`], methods that
    /// end on their own in finitely many steps (Lemke's pivoting) [`StallRule::NEVER`].
    /// [`Params::stall`] overrides it.
    fn stall_rule(prepared: &Self::Prepared) -> StallRule {
        let _ = prepared;
        StallRule::SPLITTING
    }

    /// Called once when the loop ends the solve with a report ([`Solved`], also inside
    /// [`SolveError::NoConvergence`]), with the reported status and `claimed = true` when the
    /// method's own [`Step::Finished`] ended it (`false`: the warm start, the tolerance, the
    /// cap or the observer). Lets the statistics say why it stopped (PROX's
    /// [`crate::prox::StopReason`]). Default: nothing.
    fn ended(prepared: &Self::Prepared, stats: &mut Self::Stats, status: Status, claimed: bool) {
        let _ = (prepared, stats, status, claimed);
    }
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
    let mut driver = Driver::new(params, M::stall_rule(prepared));
    let e0 = M::error(prepared, problem, x);
    if let Next::Finish(status) = driver.start_with(x, e0, M::stops_at_tolerance(prepared)) {
        M::ended(prepared, &mut stats, status, false);
        return driver.finish_with(status, 0, e0, stats);
    }
    // ANCHOR: the_loop
    let mut k = 0;
    loop {
        let step = M::step(prepared, problem, x, &mut stats);
        k += 1;
        let claim = match step {
            Err(e) => {
                // keep the last finite iterate
                driver.restore(x);
                return Err(e.lift());
            }
            Ok(Step::Rejected) => {
                if let Some(status) = driver.after_rejected(k, x) {
                    let e = driver
                        .last_error()
                        .unwrap_or_else(|| M::error(prepared, problem, x));
                    M::ended(prepared, &mut stats, status, false);
                    return driver.finish_with(status, k, e, stats);
                }
                if k >= params.max_iter {
                    let e = M::error(prepared, problem, x);
                    M::ended(prepared, &mut stats, Status::MaxIterations, false);
                    return driver.finish_with(Status::MaxIterations, k, e, stats);
                }
                continue;
            }
            Ok(Step::Moved) => None,
            Ok(Step::Finished(claimed)) => Some(claimed),
        };
        let may_stop = M::stops_at_tolerance(prepared);
        let measure = |x: &DVector<f64>| M::error(prepared, problem, x);
        match driver.after_iteration_with(k, x, measure, observer, may_stop) {
            Err(e) => return Err(e.lift()),
            Ok(Next::Continue) => {}
            Ok(Next::Finish(status)) => {
                let e = match (status, driver.last_error()) {
                    (Status::Stopped, _) | (_, None) => M::error(prepared, problem, x),
                    (_, Some(e)) => e,
                };
                M::ended(prepared, &mut stats, status, false);
                return driver.finish_with(status, k, e, stats);
            }
        }
        if let Some(claimed) = claim {
            let e = M::error(prepared, problem, x);
            let status = match claimed {
                Status::Converged if !e.meets(params.tol, params.measure) => Status::MaxIterations,
                s => s,
            };
            M::ended(prepared, &mut stats, status, true);
            return driver.finish_with(status, k, e, stats);
        }
    }
    // ANCHOR_END: the_loop
}
