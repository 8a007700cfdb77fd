//! The book's *PROX over time* chapter: Erleben 2017 figures 4-9 (Global, Local and
//! Blocked r-factors; Gauss-Seidel against Jacobi; divergence detections) measured on the
//! sequence of contact problems of a simulation rather than on single problems.
//!
//! Each scene is simulated with the reference solver (the [`Settings`] default, method
//! `auto`, tolerance 1e-8); the local friction problem of every step is kept and solved
//! again from zero by each PROX variant at the paper's stopping thresholds.
//!
//! ```text
//! cargo run --release --example prox_over_time
//! ```
//!
//! Writes `book/src/generated/prox_over_time.txt`; its test checks the committed file.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::DVector;
use nonsmooth::problem::{AnyProblem, FrictionContact};
use nonsmooth::prox::{
    ProxOptions, ProxProblem, ProxStats, RFactor, Scheme, StopReason, prox_solve,
};
use nonsmooth::registry::Choice;
use nonsmooth::solver::{Params, SolveError, no_observer};
use nonsmooth::stepping::{Settings, Simulation};
use nonsmooth::world::scenes::{self, SceneKind};

/// Steps recorded per scene (at the default `dt` of 0.01 s); 100 keeps the run near 30 s
/// (the error is measured after every sweep, a dense product on each problem).
const STEPS: usize = 100;

/// The reference solver of the simulation. NSGS rather than the default `auto` (the cone
/// Newton below 500 contacts), which made the recording take minutes.
const REFERENCE: &str = "nsgs";

/// The scenes and their sizes ([`scenes::build`]): the tower with 4 rings of 8 bricks,
/// the wall with 4 rows of 8 bricks.
const SCENES: [(SceneKind, usize, &str); 2] = [
    (SceneKind::Tower, 4, "tower, 4 rings of 8 bricks"),
    (SceneKind::Wall, 8, "wall, 4 rows of 8 bricks"),
];

/// The paper's thresholds (Erleben 2017 section 5: "absolute and relative stopping
/// thresholds of 0.001") and its iteration cap.
const THRESHOLD: f64 = 1e-3;
const CAP: usize = 1000;

const VARIANTS: [(Scheme, RFactor); 6] = [
    (Scheme::GaussSeidel, RFactor::Global { r: 5.0 }),
    (Scheme::GaussSeidel, RFactor::Local),
    (Scheme::GaussSeidel, RFactor::Blocked),
    (Scheme::Jacobi, RFactor::Global { r: 5.0 }),
    (Scheme::Jacobi, RFactor::Local),
    (Scheme::Jacobi, RFactor::Blocked),
];

/// The paper's setting ([`ProxOptions::paper`]: window 1, the strategy's `nu`) with
/// `r_factor`, and its two step tests at 1e-3.
fn options(scheme: Scheme, r_factor: RFactor) -> ProxOptions {
    ProxOptions {
        r_factor,
        step_abs_tol: THRESHOLD,
        step_rel_tol: THRESHOLD,
        ..ProxOptions::paper(scheme)
    }
}

fn params() -> Params {
    Params {
        tol: THRESHOLD,
        max_iter: CAP,
        ..Params::default()
    }
}

/// The local friction problem of every step with contacts, and the contacts of the first
/// and the last.
fn record(kind: SceneKind, size: usize) -> (Vec<FrictionContact>, usize, usize) {
    let world = scenes::build(kind, Some(size), 0).unwrap();
    let settings = Settings {
        method: Choice::new(REFERENCE).unwrap(),
        ..Settings::default()
    };
    let mut sim = Simulation::new(world, settings).unwrap();
    let mut problems = Vec::with_capacity(STEPS);
    for _ in 0..STEPS {
        let r = sim.step().unwrap();
        if r.contacts == 0 {
            continue;
        }
        match sim.last_problem() {
            Some(AnyProblem::Friction(fc)) => problems.push(fc.clone()),
            other => panic!("a step posed {other:?}, not a local friction problem"),
        }
    }
    let contacts = |fc: &FrictionContact| fc.contacts();
    let first = problems.first().map_or(0, contacts);
    let last = problems.last().map_or(0, contacts);
    (problems, first, last)
}

struct Run {
    sweeps: usize,
    rollbacks: usize,
    stop: Option<StopReason>,
    error: f64,
}

fn run(p: &ProxProblem, o: &ProxOptions) -> Run {
    let mut x = DVector::zeros(p.dim());
    let info = match prox_solve(p, &mut x, &params(), o, &mut no_observer()) {
        Ok(info) => info,
        Err(SolveError::NoConvergence(info)) => *info,
        Err(e) => panic!("{e}"),
    };
    let ProxStats {
        sweeps,
        rollbacks,
        stop,
        ..
    } = info.stats;
    Run {
        sweeps,
        rollbacks,
        stop,
        error: info.error.rel,
    }
}

/// Min, Q1, median, Q3, max (the `ceil(q n)`-th smallest).
fn five(mut v: Vec<usize>) -> [usize; 5] {
    v.sort_unstable();
    let n = v.len();
    [0.0, 0.25, 0.5, 0.75, 1.0].map(|q| v[((q * n as f64).ceil() as usize).clamp(1, n) - 1])
}

fn stop_name(s: Option<StopReason>) -> &'static str {
    match s {
        Some(StopReason::Converged) => "converged",
        Some(StopReason::StepAbsolute) => "step-abs",
        Some(StopReason::StepRelative) => "step-rel",
        Some(StopReason::MaxIterations) => "max-iter",
        Some(StopReason::Observer) => "observer",
        Some(StopReason::Stalled) => "stalled",
        Some(StopReason::TimeLimit) => "time-limit",
        None => "none",
    }
}

fn build() -> String {
    let mut out = String::new();
    writeln!(
        out,
        "Every step's local friction problem, recorded over {STEPS} steps (dt 0.01 s, the \
         velocity-based scheme,\nthe reference solver `{REFERENCE}` at tolerance 1e-8 and at most 1000 sweeps, warm-started),\n\
         solved again from zero by each PROX variant.\n\
         Paper's setting (ProxOptions::paper: window 1, nu 0.5 for global and blocked, 0.9 for \
         local) with\nstep_abs_tol = step_rel_tol = {THRESHOLD:e} (the paper's absolute and \
         relative thresholds, on the step of eq. 27),\nParams {{ tol: {THRESHOLD:e}, measure: \
         Relative (Siconos 4.4), max_iter: {CAP} }}.\n\
         converged: the measured error met 1e-3 (stop `converged`); err<=1e-3: solves whose \
         final error is <= 1e-3,\nwhatever stopped them. sweeps include rolled-back ones. \
         rollback: solves with at least one rollback\n(a divergence detection, Erleben 2017 \
         figure 9). stops: converged / step-abs / step-rel / max-iter.\n"
    )
    .unwrap();
    for (kind, size, label) in SCENES {
        let t0 = std::time::Instant::now();
        let (problems, first, last) = record(kind, size);
        eprintln!("{label}: recorded in {:.1} s", t0.elapsed().as_secs_f64());
        let n = problems.len();
        writeln!(
            out,
            "{label}: {n} problems, {first} contacts at the first step, {last} at the last\n"
        )
        .unwrap();
        writeln!(
            out,
            "  {:<22} {:>9} {:>10}  {:>4} {:>4} {:>6} {:>4} {:>4}  {:>9} {:>8}  {}",
            "variant",
            "converged",
            "err<=1e-3",
            "min",
            "Q1",
            "median",
            "Q3",
            "max",
            "rollbacks",
            "rollback",
            "stops"
        )
        .unwrap();
        let prox: Vec<ProxProblem> = problems
            .iter()
            .map(ProxProblem::from_friction_contact)
            .collect();
        for (scheme, r_factor) in VARIANTS {
            let o = options(scheme, r_factor);
            let runs: Vec<Run> = prox.iter().map(|p| run(p, &o)).collect();
            let count = |s: StopReason| runs.iter().filter(|r| r.stop == Some(s)).count();
            let q = five(runs.iter().map(|r| r.sweeps).collect());
            let rollbacks: usize = runs.iter().map(|r| r.rollbacks).sum();
            let with = runs.iter().filter(|r| r.rollbacks > 0).count();
            let small = runs.iter().filter(|r| r.error <= THRESHOLD).count();
            assert!(
                runs.iter()
                    .all(|r| r.stop.is_some_and(|s| s != StopReason::Observer)),
                "{}: a solve stopped by {:?}",
                scheme.name(),
                runs.iter()
                    .map(|r| stop_name(r.stop))
                    .find(|s| *s == "none" || *s == "observer")
            );
            writeln!(
                out,
                "  {:<22} {:>9} {:>10}  {:>4} {:>4} {:>6} {:>4} {:>4}  {:>9} {:>8}  {} / {} / {} / {}",
                format!("{} {}", scheme.name(), r_factor.name()),
                format!("{}/{n}", count(StopReason::Converged)),
                format!("{small}/{n}"),
                q[0],
                q[1],
                q[2],
                q[3],
                q[4],
                rollbacks,
                format!("{:.2}", with as f64 / n as f64),
                count(StopReason::Converged),
                count(StopReason::StepAbsolute),
                count(StopReason::StepRelative),
                count(StopReason::MaxIterations),
            )
            .unwrap();
        }
        out.push('\n');
    }
    out
}

fn main() {
    let t0 = std::time::Instant::now();
    let out = build();
    eprintln!("{:.1} s", t0.elapsed().as_secs_f64());
    print!("{out}");
    support::publish("generated/prox_over_time.txt", &out);
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_output_is_current() {
        super::support::publish("generated/prox_over_time.txt", &super::build());
    }
}
