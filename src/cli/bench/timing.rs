//! Timing our side: a method run through [`crate::registry::solve`] (the call
//! every user makes), best of several runs, per iteration or per whole solve.

use std::time::Instant;

use nalgebra::DVector;

use crate::io::AnyProblem;
use crate::registry::{Choice, solve};
use crate::solver::{Params, no_observer};

/// One timing of ours: best seconds (per iteration, or per whole solve), with the status,
/// iterations and error of the last run.
pub(super) struct Timed {
    pub(super) seconds: f64,
    pub(super) status: String,
    pub(super) iterations: Option<usize>,
    pub(super) error: Option<f64>,
    /// Why the solve failed, if it did.
    pub(super) message: Option<String>,
}

/// Best of `repeat` runs of `choice` on `problem` from zero. Per iteration: `iterations`
/// iterations with tolerance 0 and the error measured once, at the end (one measure is
/// about one sweep: the figure is within `1/iterations` of the pure sweep time); the time
/// is divided by the iterations done. Per whole solve: to `tol`, checked every iteration.
pub(super) fn time_ours(
    problem: &AnyProblem,
    choice: &Choice,
    params: &Params,
    repeat: usize,
) -> Timed {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..repeat.max(1) {
        let x = DVector::zeros(problem.dim());
        let t = Instant::now();
        let out = solve(problem, choice, x, params, &mut no_observer());
        let seconds = t.elapsed().as_secs_f64();
        let per = if params.tol == 0.0 {
            out.info().map_or(1, |i| i.iterations.max(1))
        } else {
            1
        };
        best = best.min(seconds / per as f64);
        last = Some(out);
    }
    let out = last.expect("at least one run");
    Timed {
        seconds: best,
        status: out.status().into(),
        iterations: out.info().map(|i| i.iterations),
        error: out.info().map(|i| i.error.rel),
        message: out.result.as_ref().err().map(|e| e.to_string()),
    }
}
