//! The tables of the Newton chapters on the project's generated scenes (box model of the
//! friction problem): inner solvers, the choices at kinks, and warm starts.
//!
//! ```text
//! cargo run --release --example newton_tables
//! ```
//!
//! Writes into `book/src/generated/`:
//!
//! * `newton_inner_solvers.txt`: Fischer-Newton with each inner solver, minimum-map Newton,
//!   NNCG and projected Gauss-Seidel on four scenes: iterations, passes over `A`, error;
//! * `newton_kink_strategies.txt`: Fischer-Newton with each element of the
//!   B-subdifferential at the kinks;
//! * `newton_descent_test.txt`: Fischer-Newton with three constants of the descent test;
//! * `newton_warm_start.txt`: the second time step of three scenes whose bodies start
//!   moving, from zero, from the first step's answer, and semi-staggered.
//!
//! The test at the bottom recomputes the tables and fails if a committed file differs.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::{DVector, Vector3};
use nonsmooth::multibody::{Scene, scenes};
use nonsmooth::newton::{
    FischerNewtonOptions, InnerSolver, JacobianOptions, KinkStrategy, MinMapNewtonOptions,
    NewtonReport, NncgOptions, fischer_newton, min_map_newton, nncg,
};
use nonsmooth::policy::staggered::Start;
use nonsmooth::problem::BoxedLcp;
use nonsmooth::solver::{Params, SolveError, Solved, no_observer};
use nonsmooth::splitting::{Splitting, solve_boxed};

const TOL: f64 = 1e-10;

fn params(max_iter: usize) -> Params {
    Params {
        tol: TOL,
        max_iter,
        ..Default::default()
    }
}

/// `iterations | passes | error | status` cells of a run.
fn cells<S>(r: &Result<Solved<S>, SolveError<S>>, passes: Option<usize>) -> String {
    let (it, err, status) = match r {
        Ok(i) => (i.iterations, i.error.rel, "converged".to_string()),
        Err(SolveError::NoConvergence(i)) => (i.iterations, i.error.rel, "not converged".into()),
        Err(e) => (0, f64::NAN, e.status_name().to_string()),
    };
    let passes = passes
        .map(|p| p.to_string())
        .unwrap_or_else(|| it.to_string());
    format!("{it} | {passes} | {err:.1e} | {status}")
}

fn passes(report: &NewtonReport) -> Option<usize> {
    Some(report.steps.iter().map(|s| s.passes).sum())
}

/// The report of a Newton solve: its statistics (empty when it failed otherwise than by not
/// converging, which leaves none).
fn report(r: &Result<Solved<NewtonReport>, SolveError<NewtonReport>>) -> NewtonReport {
    match r {
        Ok(i) => i.stats.clone(),
        Err(SolveError::NoConvergence(i)) => i.stats.clone(),
        Err(_) => NewtonReport::default(),
    }
}

fn box_model(scene: &Scene) -> BoxedLcp {
    BoxedLcp::from_friction_contact(&scene.local_problem().expect("valid scene"))
}

fn test_scenes() -> Vec<(String, BoxedLcp)> {
    vec![
        (
            "heavy on light 1000:1".into(),
            box_model(&scenes::heavy_on_light(1000.0).expect("scene")),
        ),
        (
            "stack of 5".into(),
            box_model(&scenes::box_stack(5).expect("scene")),
        ),
        (
            "pyramid of 4".into(),
            box_model(&scenes::pyramid(4).expect("scene")),
        ),
        (
            "wall 3 x 3".into(),
            box_model(&scenes::wall(3, 3).expect("scene")),
        ),
    ]
}

fn inner_solvers() {
    let mut t = String::from(
        "| scene | unknowns | method | iterations | passes over A | error | status |\n\
         |---|---:|---|---:|---:|---:|---|\n",
    );
    for (name, p) in test_scenes() {
        let n = p.dim();
        for inner in [InnerSolver::Lu, InnerSolver::GMRES, InnerSolver::QUASI_NCG] {
            let mut x = DVector::zeros(n);
            let options = FischerNewtonOptions {
                inner,
                ..Default::default()
            };
            let r = fischer_newton(&p, &mut x, &params(100), &options, &mut no_observer());
            let rep = report(&r);
            writeln!(
                t,
                "| {name} | {n} | Fischer-Newton, {} | {} |",
                inner.name(),
                cells(&r, passes(&rep))
            )
            .unwrap();
        }
        let mut x = DVector::zeros(n);
        let r = min_map_newton(
            &p,
            &mut x,
            &params(100),
            &MinMapNewtonOptions::default(),
            &mut no_observer(),
        );
        let rep = report(&r);
        writeln!(
            t,
            "| {name} | {n} | minimum-map Newton | {} |",
            cells(&r, passes(&rep))
        )
        .unwrap();
        let mut x = DVector::zeros(n);
        let r = nncg(
            &p,
            &mut x,
            &params(20_000),
            &NncgOptions::default(),
            &mut no_observer(),
        );
        writeln!(t, "| {name} | {n} | NNCG | {} |", cells(&r, None)).unwrap();
        let mut x = DVector::zeros(n);
        let r = solve_boxed(
            &p,
            &mut x,
            Splitting::GaussSeidel,
            &params(20_000),
            &mut no_observer(),
        );
        writeln!(
            t,
            "| {name} | {n} | projected Gauss-Seidel | {} |",
            cells(&r, None)
        )
        .unwrap();
    }
    writeln!(
        t,
        "\nFrom zero, to a boxed error of {TOL:.0e} (relative to ‖b‖); Newton methods stop after \
         100 iterations, NNCG and projected Gauss-Seidel after 20000 sweeps. NNCG and PGS \
         cost one pass per sweep."
    )
    .unwrap();
    support::publish("generated/newton_inner_solvers.txt", &t);
}

fn kink_strategies() {
    let mut t = String::from(
        "| scene | inner solve | strategy | kinks at the start | iterations | passes over A | error | status |\n\
         |---|---|---|---:|---:|---:|---:|---|\n",
    );
    let strategies = [
        ("fixed (1, 0)", KinkStrategy::Fixed),
        ("random, seed 1", KinkStrategy::Random { seed: 1 }),
        ("random, seed 2", KinkStrategy::Random { seed: 2 }),
        ("perturbation", KinkStrategy::Perturbation),
        ("zero (reduced)", KinkStrategy::Zero),
    ];
    for (name, p) in test_scenes().into_iter().take(3) {
        for inner in [InnerSolver::Lu, InnerSolver::GMRES] {
            for (label, kink) in strategies {
                let mut x = DVector::zeros(p.dim());
                let options = FischerNewtonOptions {
                    inner,
                    jacobian: JacobianOptions {
                        kink,
                        ..Default::default()
                    },
                    ..Default::default()
                };
                let r = fischer_newton(&p, &mut x, &params(100), &options, &mut no_observer());
                let rep = report(&r);
                let kinks = rep.steps.first().map(|s| s.kinks).unwrap_or(0);
                writeln!(
                    t,
                    "| {name} | {} | {label} | {kinks} | {} |",
                    inner.name(),
                    cells(&r, passes(&rep))
                )
                .unwrap();
            }
        }
    }
    writeln!(
        t,
        "\nFrom zero, to a boxed error of {TOL:.0e}, at most 100 iterations. \"Kinks at the start\" \
         counts the scalar Fischer-Burmeister functions (two per row) at their origin in the \
         first iteration (within 1e-28)."
    )
    .unwrap();
    support::publish("generated/newton_kink_strategies.txt", &t);
}

// ANCHOR: next_step
/// The scene one time step later: every body that is not fixed moves with the velocity
/// the impulses `r` give it (Erleben 2007 eq. 19). The generated contacts stay as they are
/// (the boxes rest, so they barely move in one step).
fn next_step(scene: &Scene, r: &DVector<f64>) -> Scene {
    let asm = scene.assemble().expect("valid scene");
    let u = asm.velocity_after(r);
    let mut next = scene.clone();
    for (i, body) in next.bodies.iter_mut().enumerate() {
        if let Some(o) = asm.dof_map().offset(i) {
            let v = Vector3::new(u[o], u[o + 1], u[o + 2]);
            let w = Vector3::new(u[o + 3], u[o + 4], u[o + 5]);
            *body = body.clone().with_velocity(v, w);
        }
    }
    next
}
// ANCHOR_END: next_step

/// The scene with every body moving (sideways, down, and turning about the vertical), so
/// that the first step must stop the motion and the second step's problem differs from the
/// first's.
fn moving(scene: Scene) -> Scene {
    let mut scene = scene;
    for (i, body) in scene.bodies.iter_mut().enumerate() {
        let side = (i % 3) as f64 - 1.0;
        let v = Vector3::new(0.2 * side, 0.1, -0.3);
        let w = Vector3::new(0.0, 0.0, 0.5 * side);
        *body = body.clone().with_velocity(v, w);
    }
    scene
}

fn warm_start() {
    let mut t = String::from(
        "| scene | start of step 2 | iterations | passes over A | error | status |\n\
         |---|---|---:|---:|---:|---|\n",
    );
    for (name, scene) in [
        ("heavy on light 1000:1", scenes::heavy_on_light(1000.0)),
        ("pyramid of 4", scenes::pyramid(4)),
        ("wall 3 x 3", scenes::wall(3, 3)),
    ] {
        let scene = moving(scene.expect("valid scene"));
        let p1 = box_model(&scene);
        // ANCHOR: warm_start
        // Step 1 from zero; step 2 from zero and from step 1's answer.
        let mut r1 = DVector::zeros(p1.dim());
        let options = FischerNewtonOptions::default();
        fischer_newton(&p1, &mut r1, &params(100), &options, &mut no_observer())
            .expect("step 1 converges");
        let p2 = box_model(&next_step(&scene, &r1));
        let semi = FischerNewtonOptions {
            start: Start::SemiStaggered {
                threshold: 1e-6 * p2.b().norm(),
                max_iter: 30,
            },
            ..Default::default()
        };
        for (label, x0, options) in [
            ("zero", DVector::zeros(p2.dim()), &options),
            ("step 1's answer", r1.clone(), &options),
            ("zero, semi-staggered", DVector::zeros(p2.dim()), &semi),
            ("step 1's answer, semi-staggered", r1.clone(), &semi),
        ] {
            let mut x = x0;
            let r = fischer_newton(&p2, &mut x, &params(100), options, &mut no_observer());
            let rep = report(&r);
            // ANCHOR_END: warm_start
            writeln!(t, "| {name} | {label} | {} |", cells(&r, passes(&rep))).unwrap();
        }
    }
    writeln!(
        t,
        "\nFischer-Newton (GMRES inner solve) to a boxed error of {TOL:.0e}, at most 100 \
         iterations; the semi-staggered threshold is 1e-6 ‖b‖ on the frictionless ‖Phi‖."
    )
    .unwrap();
    support::publish("generated/newton_warm_start.txt", &t);
}

fn descent_test() {
    let mut t = String::from(
        "| scene | inner solve | descent ρ | iterations | passes over A | error | status |\n\
         |---|---|---:|---:|---:|---:|---|\n",
    );
    for (name, p) in test_scenes() {
        for inner in [InnerSolver::Lu, InnerSolver::GMRES] {
            for (label, rho) in [("0", 0.0), ("2.2e-16 (ε)", f64::EPSILON), ("1e-8", 1e-8)] {
                let mut x = DVector::zeros(p.dim());
                let options = FischerNewtonOptions {
                    inner,
                    descent_rho: rho,
                    ..Default::default()
                };
                let r = fischer_newton(&p, &mut x, &params(100), &options, &mut no_observer());
                let rep = report(&r);
                writeln!(
                    t,
                    "| {name} | {} | {label} | {} |",
                    inner.name(),
                    cells(&r, passes(&rep))
                )
                .unwrap();
            }
        }
    }
    writeln!(
        t,
        "\nFischer-Newton from zero to a boxed error of {TOL:.0e}, at most 100 iterations; the \
         Newton direction d is used only if grad Psi^T d < 0 and grad Psi^T d <= -ρ ‖d‖²."
    )
    .unwrap();
    support::publish("generated/newton_descent_test.txt", &t);
}

fn main() {
    descent_test();
    inner_solvers();
    kink_strategies();
    warm_start();
}

#[test]
fn tables_are_up_to_date() {
    main();
}
