//! The tables and figure of the chapter "PROX experiments" (Erleben 2017 §5, reproduced on
//! the project's generated scenes).
//!
//! ```text
//! cargo run --release --example prox_experiments
//! ```
//!
//! Every problem is a generated scene of resting boxes (`nonsmooth::multibody::scenes`):
//! box stacks, brick walls, pyramids and a heavy box on a light one, each with three
//! friction coefficients, solved as Coulomb friction from zero to the relative error 1e-6
//! (Siconos 4.4 normalisation) within `CAP` sweeps. Nothing here reads shared data, so the
//! output is the same in a fresh clone.
//!
//! * `generated/prox_schemes.txt`: Gauss-Seidel against Jacobi, for each r-factor
//!   strategy: how many problems converge, the quartiles of the sweeps to tolerance, the
//!   rollbacks;
//! * `generated/prox_families.txt`: Gauss-Seidel by scene family and strategy;
//! * `generated/prox_mass_ratio.txt`: the heavy-on-light scene as the mass ratio grows,
//!   where the blocked r-factors (eq. 40) fail;
//! * `figures/prox_convergence.svg` (+ `.csv`): error against sweeps on one pyramid.
//!
//! The test at the bottom recomputes everything and fails if a committed file differs.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::DVector;
use nonsmooth::multibody::scenes::{self, Scene, SceneParams};
use nonsmooth::prox::{ProxOptions, ProxProblem, ProxStats, RFactor, Scheme, prox_solve};
use nonsmooth::solver::{Params, SolveError, no_observer};
use support::plot::{Figure, record};

/// The tolerance (relative error, Siconos 4.4 normalisation) and the sweep cap.
const TOL: f64 = 1e-6;
const CAP: usize = 5000;
/// The sweep cap of the mass-ratio table (8 contacts: cheap).
const RATIO_CAP: usize = 100_000;

/// The strategies of Erleben 2017 §4.2; `BlockedMatrix` is eq. 40 as printed, `Blocked`
/// its one-scalar-per-factor variant (see `nonsmooth::prox::RFactor`).
const STRATEGIES: [RFactor; 5] = [
    RFactor::Global { r: 5.0 },
    RFactor::GlobalSpectral,
    RFactor::Local,
    RFactor::Blocked,
    RFactor::BlockedMatrix,
];

fn label(r: RFactor) -> String {
    match r {
        RFactor::Global { r } => format!("global r = {r}"),
        other => other.name().to_string(),
    }
}

/// One generated problem: its family and the problem.
struct Case {
    family: &'static str,
    name: String,
    fc: nonsmooth::problem::FrictionContact,
}

impl Case {
    /// The problem in the proximal model (a view of `fc`).
    fn problem(&self) -> ProxProblem<'_> {
        ProxProblem::from_friction_contact(&self.fc)
    }
}

fn case(family: &'static str, scene: Scene) -> Case {
    let fc = scene.local_problem().expect("generated scenes assemble");
    Case {
        family,
        name: scene.name.clone(),
        fc,
    }
}

// ANCHOR: problem_set
/// The problem set: 4 families, several sizes, friction coefficients 0.2, 0.5 and 0.9.
fn problems() -> Vec<Case> {
    let mut v = Vec::new();
    for mu in [0.2, 0.5, 0.9] {
        let cubes = SceneParams {
            mu,
            ..SceneParams::cubes()
        };
        let bricks = SceneParams {
            mu,
            ..SceneParams::bricks()
        };
        for n in [1, 2, 4, 8, 16] {
            v.push(case(
                "box stack",
                scenes::box_stack_with(n, &cubes).unwrap(),
            ));
        }
        for k in [2, 3, 4] {
            v.push(case("wall", scenes::wall_with(k, k, &bricks).unwrap()));
        }
        for base in [2, 3, 4, 5] {
            v.push(case("pyramid", scenes::pyramid_with(base, &cubes).unwrap()));
        }
        for ratio in [1.0, 10.0, 100.0] {
            let scene = scenes::heavy_on_light_with(ratio, &cubes).unwrap();
            v.push(case("heavy on light", scene));
        }
    }
    v
}
// ANCHOR_END: problem_set

/// What one solve did.
#[derive(Clone, Copy)]
struct Outcome {
    converged: bool,
    sweeps: usize,
    rollbacks: usize,
    r_scale: f64,
    error: f64,
}

fn solve(p: &ProxProblem, scheme: Scheme, r_factor: RFactor) -> Outcome {
    solve_with(p, scheme, r_factor, 1, CAP)
}

/// As [`solve`] with the divergence test's window (1 is the paper's test) and a sweep cap.
fn solve_with(
    p: &ProxProblem,
    scheme: Scheme,
    r_factor: RFactor,
    window: usize,
    cap: usize,
) -> Outcome {
    let mut x = DVector::zeros(p.dim());
    let params = Params {
        tol: TOL,
        max_iter: cap,
        ..Default::default()
    };
    let options = ProxOptions {
        scheme,
        r_factor,
        window,
        ..Default::default()
    };
    let result = prox_solve(p, &mut x, &params, &options, &mut no_observer());
    let (error, stats) = match &result {
        Ok(info) => (info.error.rel, info.stats.clone()),
        Err(SolveError::NoConvergence(info)) => (info.error.rel, info.stats.clone()),
        Err(_) => (f64::NAN, ProxStats::default()),
    };
    Outcome {
        converged: result.is_ok(),
        sweeps: stats.sweeps,
        rollbacks: stats.rollbacks,
        r_scale: stats.r_scale,
        error,
    }
}

/// The strategies also run with a nonmonotone divergence test of window `WINDOW`.
const WINDOWED: [RFactor; 2] = [RFactor::Local, RFactor::Blocked];
const WINDOW: usize = 1000;

/// The runs on one problem: `[scheme][strategy]`, scheme 0 Gauss-Seidel, 1 Jacobi.
struct Runs {
    paper: [[Outcome; 5]; 2],
    window: [[Outcome; 2]; 2],
}

/// Quartiles (nearest rank) of the sweeps, a failure counting as more than any success:
/// `-` where the quartile falls on a failure.
fn quartiles(runs: &[Outcome]) -> [String; 3] {
    let mut v: Vec<usize> = runs
        .iter()
        .map(|o| if o.converged { o.sweeps } else { usize::MAX })
        .collect();
    v.sort_unstable();
    [0.25, 0.5, 0.75].map(|q| {
        let k = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
        if v[k] == usize::MAX {
            "-".to_string()
        } else {
            v[k].to_string()
        }
    })
}

fn summary_row(t: &mut String, first: &str, runs: &[Outcome]) {
    let [q1, q2, q3] = quartiles(runs);
    let ok = runs.iter().filter(|o| o.converged).count();
    let rollbacks: usize = runs.iter().map(|o| o.rollbacks).sum();
    let with = runs.iter().filter(|o| o.rollbacks > 0).count();
    writeln!(
        t,
        "| {first} | {ok} / {} | {q1} | {q2} | {q3} | {rollbacks} | {with} |",
        runs.len()
    )
    .unwrap();
}

const HEADER: &str =
    "| converged | sweeps Q1 | median | Q3 | rollbacks (total) | problems with a rollback |";

fn schemes_table(cases: &[Case], runs: &[Runs]) -> String {
    let mut t = format!(
        "{} problems, tolerance {TOL:e}, at most {CAP} sweeps.\n\n| scheme, r-factors {HEADER}\n|---|---:|---:|---:|---:|---:|---:|\n",
        cases.len()
    );
    for (s, scheme) in ["Gauss-Seidel", "Jacobi"].iter().enumerate() {
        for (k, &r) in STRATEGIES.iter().enumerate() {
            let col: Vec<Outcome> = runs.iter().map(|per| per.paper[s][k]).collect();
            summary_row(&mut t, &format!("{scheme}, {}", label(r)), &col);
        }
        for (k, &r) in WINDOWED.iter().enumerate() {
            let col: Vec<Outcome> = runs.iter().map(|per| per.window[s][k]).collect();
            summary_row(
                &mut t,
                &format!("{scheme}, {}, window {WINDOW}", label(r)),
                &col,
            );
        }
    }
    t
}

fn families_table(cases: &[Case], runs: &[Runs]) -> String {
    let mut t = format!(
        "Gauss-Seidel only.\n\n| family, r-factors {HEADER}\n|---|---:|---:|---:|---:|---:|---:|\n"
    );
    for family in ["box stack", "wall", "pyramid", "heavy on light"] {
        for (k, &r) in STRATEGIES.iter().enumerate() {
            let col: Vec<Outcome> = cases
                .iter()
                .zip(runs)
                .filter(|(c, _)| c.family == family)
                .map(|(_, per)| per.paper[0][k])
                .collect();
            summary_row(&mut t, &format!("{family}, {}", label(r)), &col);
        }
    }
    t
}

fn cell(o: &Outcome) -> String {
    if o.converged {
        format!("{} ({})", o.sweeps, o.rollbacks)
    } else {
        format!(
            "failed: error {}, {} rollbacks, R x {:.0e}",
            support::sci(o.error),
            o.rollbacks,
            o.r_scale
        )
    }
}

fn mass_ratio_table() -> String {
    let mut t = format!(
        "Gauss-Seidel on the heavy-on-light scene (`mu = 0.5`), at most {RATIO_CAP} sweeps: sweeps (rollbacks), or how it failed.\n\n| mass ratio |",
    );
    for &r in &STRATEGIES {
        write!(t, " {} |", label(r)).unwrap();
    }
    write!(t, " local, window {WINDOW} |\n|---:|").unwrap();
    t.push_str(&"---|".repeat(STRATEGIES.len() + 1));
    t.push('\n');
    for ratio in [1.0, 10.0, 100.0, 1e3, 1e4, 1e5] {
        let scene = scenes::heavy_on_light_with(ratio, &SceneParams::cubes()).unwrap();
        let c = case("heavy on light", scene);
        write!(t, "| {ratio:e} |").unwrap();
        for &r in &STRATEGIES {
            let o = solve_with(&c.problem(), Scheme::GaussSeidel, r, 1, RATIO_CAP);
            write!(t, " {} |", cell(&o)).unwrap();
        }
        let o = solve_with(
            &c.problem(),
            Scheme::GaussSeidel,
            RFactor::Local,
            WINDOW,
            RATIO_CAP,
        );
        write!(t, " {} |", cell(&o)).unwrap();
        t.push('\n');
    }
    t
}

fn convergence_figure() -> Figure {
    let scene = scenes::pyramid_with(4, &SceneParams::cubes()).unwrap();
    let c = case("pyramid", scene);
    let mut curves = Vec::new();
    for scheme in [Scheme::GaussSeidel, Scheme::Jacobi] {
        for r_factor in [RFactor::GlobalSpectral, RFactor::Local] {
            let name = format!(
                "{} / {}",
                if scheme == Scheme::GaussSeidel {
                    "GS"
                } else {
                    "Jacobi"
                },
                label(r_factor)
            );
            let params = Params {
                tol: 1e-10,
                max_iter: CAP,
                ..Default::default()
            };
            let options = ProxOptions {
                scheme,
                r_factor,
                ..Default::default()
            };
            let run = record(&name, |obs| {
                let mut x = DVector::zeros(c.problem().dim());
                prox_solve(&c.problem(), &mut x, &params, &options, obs)
                    .map(|s| s.map_stats(|_| ()))
                    .map_err(SolveError::drop_stats)
            });
            curves.push(run.curve);
        }
    }
    // Gauss-Seidel with local r-factors and the nonmonotone test.
    let params = Params {
        tol: 1e-10,
        max_iter: CAP,
        ..Default::default()
    };
    let options = ProxOptions {
        r_factor: RFactor::Local,
        window: WINDOW,
        ..Default::default()
    };
    let run = record(&format!("GS / local / window {WINDOW}"), |obs| {
        let mut x = DVector::zeros(c.problem().dim());
        prox_solve(&c.problem(), &mut x, &params, &options, obs)
            .map(|s| s.map_stats(|_| ()))
            .map_err(SolveError::drop_stats)
    });
    curves.push(run.curve);
    Figure {
        name: "prox_convergence".into(),
        caption: format!(
            "PROX on {} ({} contacts, mu = 0.5)",
            c.name,
            c.problem().contacts()
        ),
        x_desc: "sweeps",
        y_desc: "Coulomb error (Siconos 4.4 normalisation)",
        semilog: false,
        curves,
        tol: 1e-10,
    }
}

fn main() {
    let cases = problems();
    let schemes = [Scheme::GaussSeidel, Scheme::Jacobi];
    let runs: Vec<Runs> = cases
        .iter()
        .map(|c| Runs {
            paper: schemes.map(|s| STRATEGIES.map(|r| solve(&c.problem(), s, r))),
            window: schemes.map(|s| WINDOWED.map(|r| solve_with(&c.problem(), s, r, WINDOW, CAP))),
        })
        .collect();
    support::publish("generated/prox_schemes.txt", &schemes_table(&cases, &runs));
    support::publish(
        "generated/prox_families.txt",
        &families_table(&cases, &runs),
    );
    support::publish("generated/prox_mass_ratio.txt", &mass_ratio_table());
    convergence_figure().publish();
}

#[test]
fn prox_experiments_match_the_book() {
    main();
}
