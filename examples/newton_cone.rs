//! The figures and tables of the chapter "Newton on the friction cone".
//!
//! ```text
//! cargo run --release --example newton_cone
//! ```
//!
//! * `generated/newton_cone_quadratic.txt`: the error sequence of semismooth Newton on a
//!   small Coulomb and CCP problem, with `e_{k+1} / e_k²`;
//! * `figures/newton_cone.svg` (+ `.csv`): the natural-map error against Newton
//!   iterations on shared Siconos problems;
//! * `generated/newton_cone_shared.txt`: every shared fc3d file, our semismooth Newton
//!   beside Siconos 4.4's NSN_AC and NSN_FB (from `data/reference`).
//!
//! The test at the bottom recomputes everything and fails if a committed file differs.

#[path = "support/mod.rs"]
mod support;

use nonsmooth::composite::prox_then_newton::{ProxNsnOptions, cone_newton_prox_start};
use std::fmt::Write;
use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector};
use nonsmooth::io::{AnyProblem, discover, load};
use nonsmooth::matrix::Matrix;
use nonsmooth::merit::Measure;
use nonsmooth::newton::{ConeNewtonOptions, cone_newton};
use nonsmooth::problem::{FrictionContact, FrictionKind};
use nonsmooth::solver::{Params, SolveError, no_observer};
use support::plot::{Curve, Figure};

/// Runs the Newton method from zero, recording the error at every iteration.
fn errors(fc: &FrictionContact, measure: Measure, tol: f64) -> (Vec<(usize, f64)>, String) {
    let mut r = DVector::zeros(fc.dim());
    let params = Params {
        tol,
        max_iter: 1000,
        measure,
        ..Default::default()
    };
    let mut points = Vec::new();
    let result = cone_newton(
        fc,
        &mut r,
        &params,
        &ConeNewtonOptions::default(),
        &mut |it| {
            if let Some(e) = it.error {
                points.push((it.iteration, e.get(measure)));
            }
            ControlFlow::Continue(())
        },
    );
    let status = match result {
        Ok(info) => {
            format!(
                "{} iterations, {} Gauss-Seidel sweeps",
                info.iterations, info.stats.gs_sweeps
            )
        }
        Err(e) => e.to_string(),
    };
    (points, status)
}

/// A small dense problem with a positive definite W (four contacts).
fn small_problem(kind: FrictionKind) -> FrictionContact {
    let b = DMatrix::from_fn(12, 12, |i, j| ((i * 7 + j * 13) % 11) as f64 / 11.0 - 0.5);
    let w = &b * b.transpose() + DMatrix::identity(12, 12) * 0.3;
    let q = DVector::from_fn(12, |i, _| ((i * 5) % 7) as f64 / 7.0 - 0.6);
    FrictionContact::new(Matrix::Dense(w), q, DVector::from_element(4, 0.4), kind).unwrap()
}

fn quadratic_table() -> String {
    let mut t =
        String::from("| law | k | absolute error e_k | e_k / e_(k-1)² |\n|---|---:|---:|---:|\n");
    for kind in [FrictionKind::Coulomb, FrictionKind::Ccp] {
        let (points, _) = errors(&small_problem(kind), Measure::Absolute, 1e-15);
        let mut prev: Option<f64> = None;
        for (k, e) in points {
            // once e_k reaches rounding level the ratio says nothing about the method
            let ratio = match prev {
                Some(p) if p > 0.0 && e > 1e-13 => support::sci(e / (p * p)),
                Some(_) => "(rounding)".into(),
                None => "-".into(),
            };
            writeln!(t, "| {kind} | {k} | {} | {ratio} |", support::sci(e)).unwrap();
            prev = Some(e);
        }
    }
    t
}

/// PROX Gauss-Seidel to `1e-2`, then Newton to `1e-8` ([`cone_newton_prox_start`] with
/// its defaults): what it did, and the error it reached.
fn prox_start(fc: &FrictionContact) -> (String, String) {
    prox_start_at(fc, ProxNsnOptions::default().switch_tol)
}

/// The same with PROX stopped at `switch_tol`.
fn prox_start_at(fc: &FrictionContact, switch_tol: f64) -> (String, String) {
    let options = ProxNsnOptions {
        switch_tol,
        ..Default::default()
    };
    let mut r = DVector::zeros(fc.dim());
    let params = Params {
        tol: 1e-8,
        max_iter: 1000,
        ..Default::default()
    };
    match cone_newton_prox_start(fc, &mut r, &params, &options, &mut no_observer()) {
        Ok(info) => (
            format!(
                "{} PROX sweeps, {} iterations, {} Gauss-Seidel sweeps",
                info.stats.prox.sweeps, info.iterations, info.stats.newton.gs_sweeps
            ),
            support::sci(info.error.rel),
        ),
        Err(SolveError::NoConvergence(info)) => (
            format!("failed ({} iterations)", info.iterations),
            support::sci(info.error.rel),
        ),
        Err(e) => (format!("failed: {}", e.status_name()), "-".into()),
    }
}

/// Where PROX hands over: the switch tolerance against the work of each phase, on three
/// shared files.
fn switch_table(dir: &std::path::Path) -> String {
    let mut t = String::from(
        "| file | PROX stops at | PROX sweeps, Newton iterations, fallback sweeps | error |\n|---|---:|---|---:|\n",
    );
    for name in [
        "BoxesStack1-i100000-32.hdf5.dat",
        "Capsules-i101-404.dat",
        "Capsules-i122-1617.dat",
    ] {
        let Ok(lp) = load(dir.join("siconos/fc3d").join(name)) else {
            continue;
        };
        let AnyProblem::Friction(fc) = &lp.problem else {
            continue;
        };
        for switch_tol in [1e-1, 1e-2, 1e-3, 1e-4, 1e-6] {
            let (status, error) = prox_start_at(fc, switch_tol);
            writeln!(t, "| {name} | {switch_tol:.0e} | {status} | {error} |").unwrap();
        }
    }
    t
}

fn shared() -> Option<(Figure, String)> {
    let dir = support::shared_data()?;
    let reference =
        std::fs::read_to_string(support::reference_dir(&dir).join("siconos-4.4-fc3d.tsv")).ok()?;
    let siconos = |file: &str, solver: &str| -> String {
        reference
            .lines()
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .find(|f| f.len() > 7 && f[0] == file && f[2] == solver)
            .map(|f| {
                if f[6] == "0" {
                    f[7].to_string()
                } else {
                    format!("failed ({})", f[7])
                }
            })
            .unwrap_or_else(|| "-".into())
    };
    let mut table = String::from(
        "| file | contacts | Siconos NSN_AC | Siconos NSN_FB | ours: semismooth Newton (Alart-Curnier) | error | ours: PROX start, then Newton | error |\n\
         |---|---:|---:|---:|---|---:|---|---:|\n",
    );
    let mut curves = Vec::new();
    let shown = [
        "Capsules-i122-1617.dat",
        "Rover1039.dat",
        "BoxesStack1-i100000-32.hdf5.dat",
        "OneObject-i100000-316.hdf5.dat",
    ];
    for path in discover(dir.join("siconos/fc3d")).ok()? {
        let name = path.file_name()?.to_string_lossy().into_owned();
        // The FCLIB file needs the hdf5 feature: left out so the table reads the same with
        // and without it (with the feature, tests/real/fc3d_newton.rs solves it).
        if name.ends_with(".hdf5") {
            continue;
        }
        let Ok(lp) = load(&path) else {
            continue;
        };
        let AnyProblem::Friction(fc) = &lp.problem else {
            continue;
        };
        let (points, status) = errors(fc, Measure::Relative, 1e-8);
        let last = points.last().map(|p| p.1).unwrap_or(f64::NAN);
        let (prox_status, prox_error) = prox_start(fc);
        writeln!(
            table,
            "| {name} | {} | {} | {} | {status} | {} | {prox_status} | {prox_error} |",
            fc.contacts(),
            siconos(&name, "NSN_AC"),
            siconos(&name, "NSN_FB"),
            support::sci(last)
        )
        .unwrap();
        if shown.contains(&name.as_str()) {
            curves.push(Curve {
                label: name.trim_end_matches(".dat").to_string(),
                points,
            });
        }
    }
    let figure = Figure {
        name: "newton_cone".into(),
        caption: "Semismooth Newton (Alart-Curnier) on Siconos fc3d problems".into(),
        x_desc: "iterations",
        y_desc: "Coulomb error (Siconos 4.4 normalisation)",
        semilog: false,
        curves,
        tol: 1e-8,
    };
    Some((figure, table))
}

fn main() {
    support::publish("generated/newton_cone_quadratic.txt", &quadratic_table());
    if let Some((figure, table)) = shared() {
        figure.publish();
        support::publish("generated/newton_cone_shared.txt", &table);
    }
    if let Some(dir) = support::shared_data() {
        support::publish("generated/newton_cone_switch.txt", &switch_table(&dir));
    }
}

#[test]
fn newton_cone_outputs_match_the_book() {
    main();
}
