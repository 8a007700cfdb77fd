//! The figures of the Newton chapters (Silcowitz, Niebe, Erleben 2009, figures 2, 3 and 8,
//! reproduced on the project's own problems), with the tables computed from the same runs.
//!
//! ```text
//! cargo run --release --example newton_figures
//! ```
//!
//! Writes into `book/src/figures/` an SVG per figure and the CSV of what it plots
//! (`panel,curve,x,y`), and into `book/src/generated/` the tables:
//!
//! * `newton_quadratic` (figure 2): Fischer-Newton with each inner solver, minimum-map
//!   Newton and projected Gauss-Seidel on a small LCP with a nondegenerate solution; the
//!   table lists the error ratios `e_{k+1} / e_k²`;
//! * `newton_mass_ratio_scene` and `newton_mass_ratio_mujoco` (figure 8): the Fischer merit
//!   of the normal and friction rows against the cost in passes over `A` (the cost of one
//!   projected Gauss-Seidel sweep), on the generated heavy box on a light box (mass ratio
//!   1000) and on MuJoCo's 1000:1 file in its hard, unregularised view, both in the box
//!   model; table `newton_mass_ratio.txt`;
//! * `newton_line_search` (figure 3): Fischer-Newton with and without the line search on a
//!   pyramid of boxes with friction; table of the same name.
//!
//! The MuJoCo figure needs `data/` and is skipped, with a notice, when it is
//! absent. The test at the bottom recomputes everything and fails if a committed file
//! differs.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;
use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector};
use nonsmooth::io::mujoco;
use nonsmooth::matrix::Matrix;
use nonsmooth::multibody::scenes;
use nonsmooth::newton::{
    FischerNewtonOptions, InnerSolver, LineSearch, MinMapNewtonOptions, NewtonReport, Rows,
    fischer_newton, min_map_newton,
};
use nonsmooth::policy::staggered::Start;
use nonsmooth::problem::{BoxedLcp, Lcp};
use nonsmooth::solver::{Iterate, Params, SolveError, SolveInfo, Solved};
use nonsmooth::splitting::{Splitting, solve_boxed, solve_lcp};
use support::panels::{Curve, Figure, Panel};
use support::plot::thin;

/// Every iterate of a run (the start first), and how the run ended.
struct Run {
    iterates: Vec<DVector<f64>>,
    result: Result<SolveInfo, SolveError>,
    report: NewtonReport,
}

impl Run {
    /// The cumulative cost, in passes over `A`, at each iterate (a Newton run's per-step
    /// counts; one pass per sweep for projected Gauss-Seidel, whose report is empty).
    fn costs(&self) -> Vec<f64> {
        let mut c = vec![0.0];
        for k in 0..self.iterates.len() - 1 {
            let step = self.report.steps.get(k).map(|s| s.passes).unwrap_or(1);
            c.push(c[k] + step as f64);
        }
        c
    }

    fn outcome(&self) -> String {
        match &self.result {
            Ok(i) => format!("converged, {} iterations", i.iterations),
            Err(SolveError::NoConvergence(i)) => {
                format!("not converged in {} iterations", i.iterations)
            }
            Err(e) => e.status_name().to_string(),
        }
    }
}

/// A Newton solve's result and its report (the statistics of the solve; empty when it
/// failed otherwise than by not converging).
fn split(
    result: Result<Solved<NewtonReport>, SolveError<NewtonReport>>,
) -> (Result<SolveInfo, SolveError>, NewtonReport) {
    let report = match &result {
        Ok(info) => info.stats.clone(),
        Err(SolveError::NoConvergence(info)) => info.stats.clone(),
        Err(_) => NewtonReport::default(),
    };
    let result = result
        .map(|info| info.map_stats(|_| ()))
        .map_err(SolveError::drop_stats);
    (result, report)
}

/// Runs a solver with an observer that keeps every iterate.
fn record(
    x0: &DVector<f64>,
    solve: impl FnOnce(
        &mut DVector<f64>,
        &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
    ) -> (Result<SolveInfo, SolveError>, NewtonReport),
) -> Run {
    let mut iterates = vec![x0.clone()];
    let mut observer = |it: &Iterate| {
        iterates.push(it.x.clone());
        ControlFlow::Continue(())
    };
    let mut x = x0.clone();
    let (result, report) = solve(&mut x, &mut observer);
    // A step that finds no descent direction ends the solve without being shown to the
    // observer; it costs passes and leaves `x` where it was.
    while iterates.len() < report.steps.len() + 1 {
        iterates.push(x.clone());
    }
    Run {
        iterates,
        result,
        report,
    }
}

// ANCHOR: split_merit
/// The Fischer merit `Psi = 1/2 ‖Phi‖²` of the normal rows (fixed bounds) and of the
/// friction rows separately (Silcowitz et al. 2009, figure 8 splits it the same way).
fn split_merit(p: &BoxedLcp, x: &DVector<f64>) -> (f64, f64) {
    let rows = Rows::boxed(p);
    let phi = rows.fischer(x, &rows.w(x));
    let (mut normal, mut friction) = (0.0, 0.0);
    for i in 0..x.len() {
        if rows.is_friction_row(i) {
            friction += 0.5 * phi[i] * phi[i];
        } else {
            normal += 0.5 * phi[i] * phi[i];
        }
    }
    (normal, friction)
}
// ANCHOR_END: split_merit

fn sci(v: f64) -> String {
    format!("{v:.2e}")
}

// ---------------------------------------------------------------------------------------
// Figure 2: quadratic convergence on a small problem

// ANCHOR: small_problem
/// A 6 x 6 LCP with a planted nondegenerate solution: `A = M M^T + I / 2` with a fixed
/// `M`, `x* = (1.2, 0, 0.7, 0, 0.4, 0)`, `w* = (0, 0.5, 0, 1.1, 0, 0.8)`, `b = w* - A x*`.
fn small_problem() -> (Lcp, DVector<f64>) {
    let m = DMatrix::from_fn(6, 6, |i, j| ((i * 7 + j * 3) as f64).sin());
    let a = &m * m.transpose() + DMatrix::identity(6, 6) * 0.5;
    let xs = DVector::from_vec(vec![1.2, 0.0, 0.7, 0.0, 0.4, 0.0]);
    let ws = DVector::from_vec(vec![0.0, 0.5, 0.0, 1.1, 0.0, 0.8]);
    let b = &ws - &a * &xs;
    (Lcp::new(Matrix::Dense(a), b).expect("finite data"), xs)
}
// ANCHOR_END: small_problem

fn quadratic() {
    let (lcp, xs) = small_problem();
    let x0 = DVector::zeros(6);
    let params = Params {
        tol: 1e-15,
        max_iter: 30,
        ..Default::default()
    };
    let rows = Rows::lcp(&lcp);
    let error = |x: &DVector<f64>| rows.error(x).rel;
    let mut curves = Vec::new();
    let mut lu_run = None;
    for (label, inner) in [
        ("Fischer-Newton, LU", InnerSolver::Lu),
        ("Fischer-Newton, GMRES", InnerSolver::GMRES),
        ("Fischer-Newton, quasi-NCG", InnerSolver::QUASI_NCG),
    ] {
        let options = FischerNewtonOptions {
            inner,
            ..Default::default()
        };
        let run = record(&x0, |x, obs| {
            split(fischer_newton(&lcp, x, &params, &options, obs))
        });
        let pts = run
            .iterates
            .iter()
            .enumerate()
            .map(|(k, x)| (k as f64, error(x)))
            .collect();
        curves.push(Curve::new(label, pts));
        if inner == InnerSolver::Lu {
            lu_run = Some(run);
        }
    }
    let run = record(&x0, |x, obs| {
        split(min_map_newton(
            &lcp,
            x,
            &params,
            &MinMapNewtonOptions::default(),
            obs,
        ))
    });
    curves.push(Curve::new(
        "minimum-map Newton",
        run.iterates
            .iter()
            .enumerate()
            .map(|(k, x)| (k as f64, error(x)))
            .collect(),
    ));
    let pgs = record(&x0, |x, obs| {
        (
            solve_lcp(&lcp, x, Splitting::GaussSeidel, &params, obs),
            NewtonReport::default(),
        )
    });
    curves.push(Curve::new(
        "projected Gauss-Seidel",
        pgs.iterates
            .iter()
            .enumerate()
            .map(|(k, x)| (k as f64, error(x)))
            .collect(),
    ));
    Figure {
        name: "newton_quadratic".into(),
        caption: "Local quadratic convergence on a 6 x 6 LCP".into(),
        panels: vec![Panel {
            title: "LCP error ‖min(x, Ax + b)‖ / ‖b‖".into(),
            x_desc: "iteration".into(),
            y_desc: "error".into(),
            log_x: false,
            curves,
            markers: vec![],
        }],
    }
    .publish();

    let run = lu_run.expect("ran");
    let mut t = String::from(
        "| k | ‖x_k - x*‖∞ | ‖Phi(x_k)‖ | step α | e_k+1 / e_k² |\n|---:|---:|---:|---:|---:|\n",
    );
    let e: Vec<f64> = run.iterates.iter().map(|x| (x - &xs).amax()).collect();
    for (k, x) in run.iterates.iter().enumerate() {
        let phi = rows.fischer(x, &rows.w(x)).norm();
        let alpha = run
            .report
            .steps
            .get(k)
            .map(|s| format!("{}", s.alpha))
            .unwrap_or_default();
        let ratio = match e.get(k + 1) {
            Some(&next) if e[k] > 0.0 && next > 0.0 => format!("{:.3}", next / (e[k] * e[k])),
            _ => String::new(),
        };
        writeln!(
            t,
            "| {k} | {} | {} | {alpha} | {ratio} |",
            sci(e[k]),
            sci(phi)
        )
        .unwrap();
    }
    writeln!(
        t,
        "\nFischer-Newton with the exact LU inner solve: {}.",
        run.outcome()
    )
    .unwrap();
    support::publish("generated/newton_quadratic.txt", &t);
}

// ---------------------------------------------------------------------------------------
// Figure 8: large mass ratio, against projected Gauss-Seidel, in units of sweeps

const PGS_SWEEPS: usize = 5_000;

fn mass_ratio_figure(name: &str, what: &str, p: &BoxedLcp, table: &mut String) {
    let x0 = DVector::zeros(p.dim());
    let params = Params {
        tol: 1e-12,
        max_iter: 60,
        ..Default::default()
    };
    let mut runs: Vec<(String, Run)> = Vec::new();
    let threshold = 1e-6 * p.b().norm();
    let variants = [
        ("Fischer-Newton", FischerNewtonOptions::default()),
        (
            "Fischer-Newton, semi-staggered",
            FischerNewtonOptions {
                start: Start::SemiStaggered {
                    threshold,
                    max_iter: 30,
                },
                ..Default::default()
            },
        ),
        (
            "Fischer-Newton, paper preset",
            FischerNewtonOptions::paper(),
        ),
    ];
    for (label, options) in variants {
        let run = record(&x0, |x, obs| {
            split(fischer_newton(p, x, &params, &options, obs))
        });
        runs.push((label.to_string(), run));
    }
    let pgs_params = Params {
        tol: 1e-12,
        max_iter: PGS_SWEEPS,
        ..Default::default()
    };
    let pgs = record(&x0, |x, obs| {
        (
            solve_boxed(p, x, Splitting::GaussSeidel, &pgs_params, obs),
            NewtonReport::default(),
        )
    });
    runs.push(("projected Gauss-Seidel".to_string(), pgs));

    let mut normal = Vec::new();
    let mut friction = Vec::new();
    let mut markers = Vec::new();
    for (label, run) in &runs {
        let costs = run.costs();
        let merits: Vec<(f64, f64)> = run.iterates.iter().map(|x| split_merit(p, x)).collect();
        let n: Vec<(f64, f64)> = costs.iter().zip(&merits).map(|(c, m)| (*c, m.0)).collect();
        let f: Vec<(f64, f64)> = costs.iter().zip(&merits).map(|(c, m)| (*c, m.1)).collect();
        normal.push(Curve::new(label.clone(), thin(&n, 30.0)));
        friction.push(Curve::new(label.clone(), thin(&f, 30.0)));
        if let Some(k) = run.report.friction_enabled_at {
            markers.push((costs[k], format!("{label}: friction on")));
        }
        // the table: cost to reach an error (relative boxed error) of 1e-6 and 1e-10
        let rows = Rows::boxed(p);
        let reach = |tol: f64| {
            run.iterates
                .iter()
                .zip(&costs)
                .find(|(x, _)| rows.error(x).rel <= tol)
                .map(|(_, c)| format!("{c}"))
                .unwrap_or_else(|| "—".into())
        };
        let last = run.iterates.last().expect("start");
        let (mn, mf) = split_merit(p, last);
        writeln!(
            table,
            "| {what} | {label} | {} | {} | {} | {} | {} | {} |",
            reach(1e-6),
            reach(1e-10),
            costs.last().expect("start"),
            sci(rows.error(last).rel),
            sci(mn),
            sci(mf)
        )
        .unwrap();
    }
    let panel = |title: &str, curves: Vec<Curve>| Panel {
        title: title.into(),
        x_desc: "cost (passes over A = PGS sweeps)".into(),
        y_desc: "Fischer merit".into(),
        log_x: true,
        curves,
        markers: markers.clone(),
    };
    Figure {
        name: name.into(),
        caption: format!("Fischer-Newton and projected Gauss-Seidel: {what}"),
        panels: vec![
            panel("normal rows", normal),
            panel("friction rows", friction),
        ],
    }
    .publish();
}

fn mass_ratio() {
    let mut table = String::from(
        "| problem | method | cost to error 1e-6 | cost to error 1e-10 | cost of the run | final error | final Ψ normal | final Ψ friction |\n\
         |---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    let scene = scenes::heavy_on_light(1000.0)
        .expect("valid scene")
        .local_problem()
        .expect("valid problem");
    mass_ratio_figure(
        "newton_mass_ratio_scene",
        "heavy on light, 1000:1 (generated)",
        &BoxedLcp::from_friction_contact(&scene),
        &mut table,
    );
    match support::shared_data() {
        Some(dir) => {
            let m = mujoco::read(dir.join("mujoco/mujoco_heavy_on_light_1000to1_elliptic.json"))
                .expect("the shared MuJoCo file reads");
            let hard = m.hard.expect("the file has a hard view");
            mass_ratio_figure(
                "newton_mass_ratio_mujoco",
                "MuJoCo 1000:1, hard view",
                &BoxedLcp::from_friction_contact(&hard.problem),
                &mut table,
            );
        }
        None => eprintln!("skipping the MuJoCo figure"),
    }
    writeln!(
        table,
        "\nCost in passes over `A` (one projected Gauss-Seidel sweep each); error = boxed \
         minimum-map error / ‖b‖; Newton runs stop at error 1e-12 or 60 iterations, projected \
         Gauss-Seidel at 1e-12 or {PGS_SWEEPS} sweeps; the semi-staggered threshold is \
         1e-6 ‖b‖ on the frictionless ‖Phi‖."
    )
    .unwrap();
    support::publish("generated/newton_mass_ratio.txt", &table);
}

// ---------------------------------------------------------------------------------------
// Figure 3: the effect of the line search on a pyramid with friction

fn line_search() {
    let fc = scenes::pyramid(4)
        .expect("valid scene")
        .local_problem()
        .expect("valid problem");
    let p = BoxedLcp::from_friction_contact(&fc);
    let x0 = DVector::zeros(p.dim());
    let params = Params {
        tol: 1e-12,
        max_iter: 40,
        ..Default::default()
    };
    let mut normal = Vec::new();
    let mut friction = Vec::new();
    let mut table = String::from(
        "| inner solve | line search | outcome | final error | final Ψ normal | final Ψ friction |\n\
         |---|---|---|---:|---:|---:|\n",
    );
    let rows = Rows::boxed(&p);
    for (inner_label, base) in [
        ("GMRES", FischerNewtonOptions::default()),
        ("quasi-NCG (paper preset)", FischerNewtonOptions::paper()),
    ] {
        for (ls_label, line_search) in [("Armijo", base.line_search), ("none", LineSearch::None)] {
            let options = FischerNewtonOptions {
                line_search,
                ..base.clone()
            };
            let run = record(&x0, |x, obs| {
                split(fischer_newton(&p, x, &params, &options, obs))
            });
            let label = format!("{inner_label}, {ls_label}");
            let m: Vec<(f64, f64)> = run.iterates.iter().map(|x| split_merit(&p, x)).collect();
            normal.push(Curve::new(
                label.clone(),
                m.iter().enumerate().map(|(k, v)| (k as f64, v.0)).collect(),
            ));
            friction.push(Curve::new(
                label,
                m.iter().enumerate().map(|(k, v)| (k as f64, v.1)).collect(),
            ));
            let last = run.iterates.last().expect("start");
            let (mn, mf) = split_merit(&p, last);
            writeln!(
                table,
                "| {inner_label} | {ls_label} | {} | {} | {} | {} |",
                run.outcome(),
                sci(rows.error(last).rel),
                sci(mn),
                sci(mf)
            )
            .unwrap();
        }
    }
    writeln!(
        table,
        "\nPyramid of 4 courses ({} contacts, {} unknowns, friction box model, mu = 0.5); runs stop \
         at error 1e-12 or 40 iterations.",
        p.dim() / 3,
        p.dim()
    )
    .unwrap();
    support::publish("generated/newton_line_search.txt", &table);
    let panel = |title: &str, curves: Vec<Curve>| Panel {
        title: title.into(),
        x_desc: "Newton iteration".into(),
        y_desc: "Fischer merit".into(),
        log_x: false,
        curves,
        markers: vec![],
    };
    Figure {
        name: "newton_line_search".into(),
        caption: format!(
            "Fischer-Newton with and without line search: pyramid, {} contacts",
            p.dim() / 3
        ),
        panels: vec![
            panel("normal rows", normal),
            panel("friction rows", friction),
        ],
    }
    .publish();
}

fn main() {
    quadratic();
    mass_ratio();
    line_search();
}

#[test]
fn figures_are_up_to_date() {
    main();
}
