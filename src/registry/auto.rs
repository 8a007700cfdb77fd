//! `auto`: a strategy, not a table. It runs methods in turn, each under its stall rule, and
//! decides from what it measures on the problem at hand, never from a list of files.
//!
//! The strategy (the book's chapter "Choosing a method", section "What `auto` does"):
//!
//! * **LCP.** Up to [`LEMKE_FIRST`] unknowns, Lemke's method (exact pivoting: it solves
//!   every LCP it can in at most a few hundred pivots there, in milliseconds); then the
//!   Fischer-Newton method; if that stalls or stops, Lemke's method up to [`LEMKE_LIMIT`]
//!   unknowns. So `auto` solves every LCP of up to [`LEMKE_LIMIT`] unknowns that Lemke's
//!   method solves.
//! * **Friction problems** (fc3d; a global problem is solved in its local form). A probe of
//!   [`PROBE_SWEEPS`] NSGS sweeps measures the contraction per sweep `ρ` over its second
//!   half. If the rate predicts the tolerance within [`GS_PREDICTED`] sweeps, NSGS goes on
//!   for three times the prediction (cheap sweeps, fast enough), and once more when the
//!   rate measured over that run predicts it within [`GS_EXTEND_PREDICTED`]; a run the
//!   caller's iteration cap cut short is followed by another while the rate measured over
//!   it predicts the tolerance within what is left of [`GS_EXTEND_PREDICTED`]. If that does
//!   not finish, the semismooth Newton method takes the best iterate (up to
//!   [`NEWTON_CONTACTS`] contacts, where its linear solves stay cheap; it gives way after
//!   [`NEWTON_STALL_WINDOW`] iterations without a tenfold fall of the error); then the
//!   proximal-point method (`ppa`, whose regularised inner problems Newton solves where the
//!   plain one stalls on rank-deficient, redundant contacts), started from the probe's
//!   iterate; if that stalls too and NSGS has not had its run, NSGS from the best iterate,
//!   to the cap.
//! * **Boxed LCP**: NNCG, then the Fischer-Newton method, then projected Gauss-Seidel.
//! * **Generic mechanical problem**: its Newton method, then its Gauss-Seidel.
//!
//! Every stage but the proximal-point one starts from the best iterate so far; all run
//! under the caller's tolerance, time limit and (capped by each stage's own) iteration
//! limit. The answer is the best
//! iterate met; its status is `converged` when a stage converged, otherwise the last
//! stage's. The statistics list the stages (`route`, and per stage its method, status,
//! iterations and error).

use std::time::Instant;

use nalgebra::DVector;
use serde_json::{Value, json};

use super::run::Ran;
use super::{Choice, Observer, ProblemType, Stats};
use crate::merit::Residual;
use crate::problem::AnyProblem;
use crate::solver::{Iterate, Params, SolveError, Solved, Status};

/// LCPs up to this many unknowns go to Lemke's method first.
pub const LEMKE_FIRST: usize = 200;
/// Lemke's method is the fallback of LCPs up to this many unknowns (its dense tableau
/// needs `8 n²` bytes: 72 MB here).
pub const LEMKE_LIMIT: usize = 3000;
/// NSGS sweeps of the friction probe.
pub const PROBE_SWEEPS: usize = 20;
/// NSGS goes on after the probe when its measured rate predicts the tolerance within this
/// many more sweeps.
pub const GS_PREDICTED: f64 = 1000.0;
/// After the NSGS run the probe called for, NSGS goes on once more when the rate measured
/// over that run (a steadier measure than the probe's) predicts the tolerance within this
/// many more sweeps; runs cut short by the caller's iteration cap are continued while the
/// prediction fits in what is left of this many sweeps.
pub const GS_EXTEND_PREDICTED: f64 = 5000.0;
/// The semismooth Newton stage runs on problems up to this many contacts.
pub const NEWTON_CONTACTS: usize = 20_000;
/// The friction strategy's Newton stage gives way to the next stage when its best error
/// has not fallen tenfold in this many iterations (the method's own rule waits 150 for a
/// halving): on the redundant contacts of walls and towers the cone Newton method crawls
/// on its Gauss-Seidel fallback for hundreds of iterations and stalls near 3e-8, where the
/// proximal-point stage converges. A caller's own stall rule ([`Params::stall`]) wins.
pub const NEWTON_STALL_WINDOW: usize = 30;

/// One stage's record.
struct StageRecord {
    method: &'static str,
    status: &'static str,
    iterations: usize,
    error: Option<Residual>,
}

/// The state of a strategy run: the best iterate, the records, the clock.
struct Run<'a, 'o> {
    problem: &'a AnyProblem,
    params: &'a Params,
    observer: &'a mut Observer<'o>,
    start: Instant,
    stages: Vec<StageRecord>,
    best: Option<(f64, Residual, DVector<f64>)>,
    last: Option<Ran>,
    done: usize,
    stopped: bool,
}

impl<'a, 'o> Run<'a, 'o> {
    fn new(problem: &'a AnyProblem, params: &'a Params, observer: &'a mut Observer<'o>) -> Self {
        Run {
            problem,
            params,
            observer,
            start: Instant::now(),
            stages: Vec::new(),
            best: None,
            last: None,
            done: 0,
            stopped: false,
        }
    }

    /// Seconds left of the caller's time limit (`None`: no limit).
    fn remaining(&self) -> Option<f64> {
        self.params
            .time_limit
            .map(|t| t - self.start.elapsed().as_secs_f64())
    }

    fn out_of_time(&self) -> bool {
        self.remaining().is_some_and(|r| r <= 0.0)
    }

    /// `true` once a stage converged (or the observer or the clock ended the run).
    fn finished(&self) -> bool {
        self.stopped
            || self.out_of_time()
            || matches!(&self.last, Some(Ok(s)) if s.status == Status::Converged)
    }

    /// Runs `method` (its default options) from the best iterate so far (or `x`), at most
    /// `cap` iterations (and the caller's `max_iter`), with `stall` if given, recording
    /// `history` when asked. Returns the stage's result; keeps the best iterate.
    fn stage(
        &mut self,
        method: &'static str,
        x: &mut DVector<f64>,
        cap: usize,
        history: bool,
    ) -> Option<Ran> {
        self.stage_with(method, x, cap, history, None, None)
    }

    /// [`Run::stage`] under the stall rule `stall` unless the caller set one, started from
    /// `from` if given (else from the best iterate so far).
    fn stage_with(
        &mut self,
        method: &'static str,
        x: &mut DVector<f64>,
        cap: usize,
        history: bool,
        stall: Option<crate::solver::StallRule>,
        from: Option<&DVector<f64>>,
    ) -> Option<Ran> {
        if self.finished() {
            return None;
        }
        let choice = Choice::new(method).expect("registered");
        let params = Params {
            max_iter: cap.min(self.params.max_iter).max(1),
            record_history: history || self.params.record_history,
            time_limit: self.remaining(),
            stall: self.params.stall.or(stall),
            ..self.params.clone()
        };
        if let Some(start) = from {
            x.copy_from(start);
        } else if let Some((_, _, bx)) = &self.best {
            x.copy_from(bx);
        }
        let offset = self.done;
        let stopped = &mut self.stopped;
        let observer = &mut *self.observer;
        let mut obs = |it: &Iterate| {
            let shifted = Iterate {
                iteration: offset + it.iteration,
                x: it.x,
                error: it.error,
            };
            let flow = observer(&shifted);
            if flow.is_break() {
                *stopped = true;
            }
            flow
        };
        let ran = choice.options.run(self.problem, x, &params, &mut obs);
        let info = match &ran {
            Ok(s) => Some(s),
            Err(SolveError::NoConvergence(s)) => Some(&**s),
            _ => None,
        };
        let iterations = info.map_or(0, |s| s.iterations);
        let error = info.map(|s| s.error);
        self.done += iterations;
        self.stages.push(StageRecord {
            method,
            status: match &ran {
                Ok(s) => s.status.name(),
                Err(e) => e.status_name(),
            },
            iterations,
            error,
        });
        if let Some(e) = error {
            let v = e.worst(self.params.measure);
            if v.is_finite() && self.best.as_ref().is_none_or(|(b, _, _)| v < *b) {
                self.best = Some((v, e, x.clone()));
            }
        }
        self.last = Some(ran.clone());
        Some(ran)
    }

    /// The strategy's report: the converged stage's, or the best iterate with the last
    /// stage's status; the statistics list the stages.
    fn finish(self, x: &mut DVector<f64>) -> Ran {
        let route: Vec<&str> = self.stages.iter().map(|s| s.method).collect();
        let stages: Vec<Value> = self
            .stages
            .iter()
            .map(|s| {
                // no per-stage wall time: the statistics stay the same from run to run
                // (the solve's own `seconds` has the total)
                json!({
                    "method": s.method, "status": s.status, "iterations": s.iterations,
                    "error": s.error.map(|e| e.rel), "scaled": s.error.map(|e| e.scaled),
                })
            })
            .collect();
        let stats = json!({ "route": route.join(">"), "stages": stages });
        let seconds = self.start.elapsed().as_secs_f64();
        let converged = matches!(&self.last, Some(Ok(s)) if s.status == Status::Converged);
        let stopped = self.stopped;
        let out_of_time = self.out_of_time();
        let last = self.last.unwrap_or_else(|| {
            Err(SolveError::Problem(
                crate::problem::ProblemError::Unsupported {
                    reason: "auto ran no method".into(),
                },
            ))
        });
        if converged {
            return last.map(|s| Solved {
                seconds,
                iterations: self.done,
                stats,
                ..s
            });
        }
        let status = if stopped {
            Status::Stopped
        } else if out_of_time {
            Status::TimeLimit
        } else {
            match &last {
                Ok(s) => s.status,
                Err(SolveError::NoConvergence(s)) => s.status,
                _ => Status::Stalled,
            }
        };
        match (self.best, last) {
            (Some((_, e, bx)), last) if !matches!(last, Err(SolveError::Infeasible(_))) => {
                x.copy_from(&bx);
                let info = Solved {
                    status,
                    iterations: self.done,
                    error: e,
                    seconds,
                    history: Vec::new(),
                    stats,
                };
                match status {
                    Status::Converged | Status::Stopped => Ok(info),
                    _ => Err(SolveError::NoConvergence(Box::new(info))),
                }
            }
            (_, last) => last,
        }
    }
}

/// The rate per sweep measured from the fraction `from` of a run's history to its end
/// (0.5: its second half), and the last error (`None` without two positive points).
fn measured_rate(ran: &Ran, measure: crate::merit::Measure, from: f64) -> Option<(f64, f64)> {
    let info = match ran {
        Ok(s) => s,
        Err(SolveError::NoConvergence(s)) => s,
        _ => return None,
    };
    let h = &info.history;
    let last = h.last()?;
    let first = h.first()?.iteration;
    // the first iterate at or after `from` of the way from the run's first to its last
    let at = first as f64 + from * (last.iteration - first) as f64;
    let mid = h.iter().find(|p| p.iteration as f64 >= at)?;
    let (e1, e0) = (last.error.worst(measure), mid.error.worst(measure));
    let k = last.iteration.checked_sub(mid.iteration)?;
    if k == 0 || !(e0 > 0.0) || !(e1 > 0.0) {
        return None;
    }
    Some(((e1 / e0).powf(1.0 / k as f64), e1))
}

/// Iterations a stage ran (0 when it failed before iterating).
fn iterations_of(ran: &Ran) -> usize {
    match ran {
        Ok(s) => s.iterations,
        Err(SolveError::NoConvergence(s)) => s.iterations,
        _ => 0,
    }
}

/// Sweeps a contraction `rate` per sweep needs from the error `e` to `tol` (infinite for a
/// rate of 1 or more).
fn predicted_sweeps(rate: f64, e: f64, tol: f64) -> f64 {
    if rate < 1.0 && tol > 0.0 {
        (tol / e).ln().min(0.0) / rate.ln()
    } else {
        f64::INFINITY
    }
}

// ANCHOR: auto_friction
/// The friction strategy (module docs).
fn friction(run: &mut Run<'_, '_>, x: &mut DVector<f64>, contacts: usize) {
    let tol = run.params.tol;
    let probe = run.stage("nsgs", x, PROBE_SWEEPS, true);
    // the proximal-point stage starts from the probe's iterate, not from the best one: its
    // rho follows the error it starts from (rho = sigma mean(diag W) e), and started near
    // the solution of a rank-deficient problem (3e-8, after thousands of NSGS sweeps or a
    // stalled Newton run on a wall of bricks) its inner problems are as singular as the
    // problem itself and it stalled near 1e-8; from the probe's 1e-3 it converged in 4 to 8
    // outer iterations
    let probed = run.best.as_ref().map(|(_, _, bx)| bx.clone());
    // sweeps the rate measured over the probe's second half needs to reach tol
    let predicted = probe
        .as_ref()
        .and_then(|p| measured_rate(p, run.params.measure, 0.5))
        .map_or(f64::INFINITY, |(rate, e)| predicted_sweeps(rate, e, tol));
    let mut swept = false;
    if predicted <= GS_PREDICTED {
        // three times the prediction: the rate of a Gauss-Seidel method slows as it nears
        // the solution
        let want = 3 * predicted.ceil() as usize + 100;
        let mut last = run.stage("nsgs", x, want, true);
        swept = true;
        // more while the rate measured over the last run (a steadier measure than the
        // probe's) predicts the tolerance within GS_EXTEND_PREDICTED sweeps in all (a
        // tower of bricks: 658 sweeps to 2.7e-6, 2 082 in all, where a Newton iteration
        // costs as much as hundreds of sweeps). A run the caller's iteration cap cut short
        // of its own is followed by another while the prediction still fits; one that used
        // its own is the last.
        // After a run the cap cut, the rate is measured over its last quarter: an NSGS
        // error can drop suddenly and then stay flat (Capsules-i101: 4.3e-7 to 2.1e-8 in 100
        // sweeps, then 2.07e-8 to 1.97e-8 in 424), and the second half's rate, which holds
        // the drop, then promises the tolerance within about a hundred sweeps.
        let mut left = GS_EXTEND_PREDICTED;
        let mut from = 0.5;
        while let Some(ran) = last.as_ref() {
            let again = measured_rate(ran, run.params.measure, from)
                .map_or(f64::INFINITY, |(rate, e)| predicted_sweeps(rate, e, tol));
            from = 0.75;
            if again > left {
                break;
            }
            let want = 3 * again.ceil() as usize + 100;
            last = run.stage("nsgs", x, want, true);
            let done = last.as_ref().map_or(0, iterations_of);
            left -= done as f64;
            if done >= want {
                break;
            }
        }
    }
    if contacts <= NEWTON_CONTACTS {
        let stall = crate::solver::StallRule {
            window: NEWTON_STALL_WINDOW,
            fraction: 0.9,
        };
        run.stage_with(
            "nsn",
            x,
            super::NEWTON_DEFAULT_MAX_ITER,
            false,
            Some(stall),
            None,
        );
        run.stage_with(
            "ppa",
            x,
            super::NEWTON_DEFAULT_MAX_ITER,
            false,
            None,
            probed.as_ref(),
        );
    }
    if !swept || contacts > NEWTON_CONTACTS {
        run.stage("nsgs", x, usize::MAX, false);
    }
}
// ANCHOR_END: auto_friction

// ANCHOR: auto_lcp
/// The LCP strategy (module docs).
fn lcp(run: &mut Run<'_, '_>, x: &mut DVector<f64>, n: usize) {
    if n <= LEMKE_FIRST {
        run.stage("lemke", x, usize::MAX, false);
    }
    run.stage("fischer-newton", x, super::NEWTON_DEFAULT_MAX_ITER, false);
    if n > LEMKE_FIRST && n <= LEMKE_LIMIT {
        run.stage("lemke", x, usize::MAX, false);
    }
}
// ANCHOR_END: auto_lcp

/// `auto` on any problem (module docs).
pub(super) fn run_auto(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    observer: &mut Observer<'_>,
) -> Ran {
    // a global problem is solved in its local form, made once
    let local;
    let (problem, t) = match p {
        AnyProblem::Global(g) => {
            local = AnyProblem::Friction(g.to_local()?);
            (&local, ProblemType::Fc3d)
        }
        _ => (p, ProblemType::of(p)),
    };
    let mut run = Run::new(problem, params, observer);
    match t {
        ProblemType::Lcp => lcp(&mut run, x, p.dim()),
        ProblemType::BoxedLcp => {
            for m in ["nncg", "fischer-newton", "pgs"] {
                run.stage(m, x, super::DEFAULT_MAX_ITER, false);
            }
        }
        ProblemType::Fc3d | ProblemType::Gfc3d => friction(&mut run, x, p.dim() / 3),
        ProblemType::Gmp => {
            run.stage("gmp-newton", x, super::NEWTON_DEFAULT_MAX_ITER, false);
            run.stage("gmp-pgs", x, super::DEFAULT_MAX_ITER, false);
        }
    }
    run.finish(x)
}

/// The route a strategy report took (`"nsgs>nsn"`), from its statistics.
pub fn route(stats: &Stats) -> Option<&str> {
    stats.get("route").and_then(Value::as_str)
}
