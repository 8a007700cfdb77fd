//! Gauss-Seidel sweeps while they converge fast, then the semismooth Newton method on the
//! cone from where they stopped.
//!
//! The two methods fail in complementary ways. The blocked nonsmooth Gauss-Seidel (NSGS)
//! solves each contact exactly given the others, so on a problem with a few weakly coupled
//! contacts it reaches `1e-8` in a handful of sweeps, each far cheaper than a Newton
//! iteration (no Jacobian, no factorisation); but it converges linearly, with a rate that
//! tends to one as the coupling grows (stacks, mass ratios), and then needs thousands of
//! sweeps. The Newton method converges quadratically near the answer but pays the
//! preparation and a factorisation per iteration however easy the problem is.
//!
//! [`cone_newton_gs_start`] runs NSGS and watches its rate: it stops the sweeps when the
//! error meets the tolerance (the answer is NSGS's), when one sweep fails to reduce the
//! error by the factor `rate`, or after `max_sweeps` sweeps, and then runs [`cone_newton`],
//! by default from the given start, as plain Newton would. The cost over plain Newton on a
//! hard problem is at most `max_sweeps` sweeps (usually two or three: the rate test stops
//! them); the gain on an easy one is Newton's fixed cost. Starting Newton from the sweeps'
//! iterate instead ([`NewtonFrom::Sweeps`]) is a warm start that saves Newton iterations
//! on some problems and costs many more on others, so it is an option, not the default. This is the
//! combination Acary, Bremond and Huber (2018) recommend in spirit (a cheap first-order
//! method hands over to Newton), with the switch made on the observed rate rather than on
//! a fixed error level as in [`super::prox_then_newton`].
//!
//! Checked by `tests/laws/gs_then_newton.rs`.

use crate::solver::MethodOptions;
use std::ops::ControlFlow;

use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use crate::newton::{ConeNewtonOptions, ConeNewtonStats, cone_newton};
use crate::problem::{FrictionContact, ProblemError, check_len};
use crate::solver::{Iterate, NonExhaustive, Params, SolveError, Solved, Status};
use crate::splitting::{Nsgs, NsgsOptions};

/// Options of [`cone_newton_gs_start`] (`gs-nsn` in the registry); every field optional
/// in options files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GsNsnOptions {
    /// Most NSGS sweeps before Newton takes over (`>= 1`). Default 20.
    pub max_sweeps: usize,
    /// Newton takes over after the first sweep that leaves the error above `rate` times
    /// the previous sweep's (`0 < rate <= 1`). Default 0.5: a sweep that does not halve the
    /// error signals the slow linear regime.
    pub rate: f64,
    /// Where Newton starts when the sweeps did not meet the tolerance. Default
    /// [`NewtonFrom::Start`]: the sweeps are a cheap attempt at an easy problem, and a hard
    /// one is solved as plain Newton would solve it, at the cost of a few sweeps.
    pub newton_from: NewtonFrom,
    /// The NSGS options.
    pub nsgs: NsgsOptions,
    /// The Newton options. Default [`ConeNewtonOptions::default`].
    pub newton: ConeNewtonOptions,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for GsNsnOptions {
    fn default() -> Self {
        GsNsnOptions {
            max_sweeps: 20,
            rate: 0.5,
            newton_from: NewtonFrom::Start,
            nsgs: NsgsOptions::default(),
            newton: ConeNewtonOptions::default(),
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

/// Where [`cone_newton_gs_start`]'s Newton phase starts (`"start"` or `"sweeps"` in
/// options files).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NewtonFrom {
    /// From the `r` the caller passed in (zeros for a cold start), as plain Newton.
    Start,
    /// From the last sweep's iterate: a warm start that often saves Newton iterations
    /// (the book measures it) but, Newton's globalisation being heuristic for Coulomb
    /// friction, can also cost many more.
    Sweeps,
}

impl MethodOptions for GsNsnOptions {
    /// Checks the options.
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`] naming the option: `max_sweeps` zero, `rate`
    /// outside `(0, 1]`, or an invalid Newton option.
    fn check(&self) -> Result<(), ProblemError> {
        let bad = |option: &str, reason: String| {
            Err(crate::newton::invalid_option("gs-nsn", option, reason))
        };
        if self.max_sweeps == 0 {
            return bad(
                "max_sweeps",
                "0 is out of range (it must be at least 1)".into(),
            );
        }
        if !(self.rate > 0.0 && self.rate <= 1.0) {
            return bad("rate", format!("{} is outside (0, 1]", self.rate));
        }
        self.newton.check()
    }
}

/// What [`cone_newton_gs_start`] did in each phase.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GsNsnStats {
    /// NSGS sweeps done.
    pub sweeps: usize,
    /// Why the sweeps stopped: `converged`, `rate` (a sweep reduced the error by less than
    /// `rate`), `max-sweeps`, or `stopped` (the observer).
    pub switch: String,
    /// The error (Siconos 4.4 normalisation) when the sweeps stopped.
    pub switch_error: f64,
    /// The Newton phase; `None` when the sweeps met the tolerance.
    pub newton: Option<ConeNewtonStats>,
}

/// Solves a local [`FrictionContact`] (Coulomb or CCP, `3 nc` unknowns in the crate's
/// `[n, t1, t2]` layout) by NSGS sweeps while each reduces the error by at least the
/// factor `options.rate` (at most `options.max_sweeps`), then, unless the sweeps met the
/// tolerance, the semismooth Newton method ([`cone_newton`]) from their last iterate.
///
/// `r` is the start and receives the answer. When the sweeps meet `params.tol` the report
/// is theirs (`iterations` = sweeps); otherwise it is Newton's (`iterations` = Newton
/// iterations, the sweeps in [`GsNsnStats`]), with `seconds` covering both phases. The
/// observer sees every sweep and every Newton iteration; stopping it during the sweeps
/// ends the solve there ([`Status::Stopped`]).
///
/// # Errors
/// [`SolveError::Problem`] for a wrong `r` length or invalid options; otherwise the
/// errors of NSGS (a non-finite sweep: [`SolveError::Diverged`]) and of [`cone_newton`].
///
/// # Reference
/// Acary, Bremond, Huber 2018 (first-order methods handing over to Newton); Jean 1999
/// (NSGS).
///
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::composite::gs_then_newton::{GsNsnOptions, cone_newton_gs_start};
/// use nonsmooth::problem::{FrictionContact, FrictionKind};
/// use nonsmooth::solver::{Params, no_observer};
/// // One contact pushed into the ground, sliding: one exact local solve is the answer.
/// let fc = FrictionContact::new(DMatrix::<f64>::identity(3, 3).into(),
///     DVector::from_vec(vec![-1.0, 2.0, 0.0]), DVector::from_vec(vec![0.5]),
///     FrictionKind::Coulomb).unwrap();
/// let mut r = DVector::zeros(3);
/// let params = Params { tol: 1e-12, ..Default::default() };
/// let info = cone_newton_gs_start(&fc, &mut r, &params, &GsNsnOptions::default(),
///                                 &mut no_observer()).unwrap();
/// assert!(info.error.rel <= 1e-12);
/// assert!(info.stats.newton.is_none()); // the sweeps were enough
/// assert!((r[0] - 1.0).abs() < 1e-10 && (r[1] + 0.5).abs() < 1e-10);
/// ```
pub fn cone_newton_gs_start(
    fc: &FrictionContact,
    r: &mut DVector<f64>,
    params: &Params,
    options: &GsNsnOptions,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<Solved<GsNsnStats>, SolveError<GsNsnStats>> {
    check_len("r", fc.dim(), r.len())?;
    options.check()?;
    let started = std::time::Instant::now();
    let given = (options.newton_from == NewtonFrom::Start).then(|| r.clone());
    // the sweeps: error measured after each, the rate watched, the caller's observer asked
    let mut previous: Option<f64> = None;
    let mut slow = false;
    let mut stopped = false;
    let sweep_params = Params {
        max_iter: options.max_sweeps.min(params.max_iter.max(1)),
        check_every: 1,
        ..params.clone()
    };
    let first =
        crate::solver::solve::<Nsgs>(fc, r, &sweep_params, &options.nsgs, &mut |it: &Iterate| {
            if observer(it).is_break() {
                stopped = true;
                return ControlFlow::Break(());
            }
            let Some(e) = it.error.map(|e| e.get(params.measure)) else {
                return ControlFlow::Continue(());
            };
            let fast = previous.is_none_or(|p| e <= options.rate * p);
            previous = Some(e);
            if fast {
                ControlFlow::Continue(())
            } else {
                slow = true;
                ControlFlow::Break(())
            }
        });
    let first = match first {
        Ok(info) => info,
        Err(SolveError::NoConvergence(info)) => *info,
        Err(e) => return Err(e.lift()),
    };
    let (sweeps, switch_error) = (first.iterations, first.error.rel);
    let phase = |switch: &str, newton: Option<ConeNewtonStats>| GsNsnStats {
        sweeps,
        switch: switch.into(),
        switch_error,
        newton,
    };
    if first.status == Status::Converged {
        return Ok(first.map_stats(|()| phase("converged", None)));
    }
    if stopped {
        return Ok(first.map_stats(|()| phase("stopped", None)));
    }
    let switch = if slow { "rate" } else { "max-sweeps" };
    if let Some(given) = given {
        r.copy_from(&given);
    }
    let seconds = || started.elapsed().as_secs_f64();
    match cone_newton(fc, r, params, &options.newton, observer) {
        Ok(info) => Ok(Solved {
            seconds: seconds(),
            ..info.map_stats(|s| phase(switch, Some(s)))
        }),
        Err(SolveError::NoConvergence(info)) => Err(SolveError::NoConvergence(Box::new(Solved {
            seconds: seconds(),
            ..info.map_stats(|s| phase(switch, Some(s)))
        }))),
        Err(e) => Err(e.map_stats(|s| phase(switch, Some(s)))),
    }
}
