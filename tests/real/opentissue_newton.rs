//! On real input: OpenTissue's boxed LCP `dlm/72` (friction box, bounds that follow the
//! normal values). Fischer-Newton (default GMRES and exact LU inner solves) and minimum-map
//! Newton reach the minimum-map merit `1/2 ‖min(x - lo, max(x - hi, w))‖² <= 1e-10` that
//! boxed projected Gauss-Seidel reaches (`tests/real/opentissue.rs`), each in fewer
//! iterations than Gauss-Seidel needs sweeps, and with a merit at least as small.

use crate::common;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::merit::{Measure, boxed_minmap_merit};
use nonsmooth::newton::{
    FischerNewtonOptions, InnerSolver, MinMapNewtonOptions, fischer_newton, min_map_newton,
};
use nonsmooth::solver::{Params, no_observer};
use nonsmooth::splitting::{Splitting, solve_boxed};

#[test]
fn newton_methods_on_dlm72() {
    let Some(path) = common::shared_file("opentissue/dlm/72") else {
        return;
    };
    let lp = load(path).unwrap();
    let AnyProblem::Boxed(p) = &lp.problem else {
        panic!("not a boxed LCP")
    };
    let start = DVector::from_vec(lp.warm_start.clone().unwrap_or_else(|| vec![0.0; p.dim()]));
    let params = |max_iter| Params {
        tol: (2e-10f64).sqrt(),
        measure: Measure::Absolute,
        max_iter,
        ..Default::default()
    };
    let mut x = start.clone();
    let pgs = solve_boxed(
        p,
        &mut x,
        Splitting::GaussSeidel,
        &params(10_000),
        &mut no_observer(),
    )
    .unwrap();
    let pgs_merit = boxed_minmap_merit(p, &x);
    eprintln!(
        "dlm/72: PGS {} sweeps, merit {pgs_merit:.2e}",
        pgs.iterations
    );
    for (label, options) in [
        ("Fischer-Newton (GMRES)", FischerNewtonOptions::default()),
        (
            "Fischer-Newton (LU)",
            FischerNewtonOptions {
                inner: InnerSolver::Lu,
                ..Default::default()
            },
        ),
    ] {
        let mut x = start.clone();
        let info = fischer_newton(p, &mut x, &params(100), &options, &mut no_observer()).unwrap();
        let merit = boxed_minmap_merit(p, &x);
        eprintln!(
            "dlm/72: {label} {} iterations, merit {merit:.2e}",
            info.iterations
        );
        assert!(merit <= 1e-10 && merit <= pgs_merit);
        assert!(info.iterations < pgs.iterations);
    }
    let mut x = start.clone();
    let info = min_map_newton(
        p,
        &mut x,
        &params(100),
        &MinMapNewtonOptions::default(),
        &mut no_observer(),
    )
    .unwrap();
    let merit = boxed_minmap_merit(p, &x);
    eprintln!(
        "dlm/72: minimum-map Newton {} iterations, merit {merit:.2e}",
        info.iterations
    );
    assert!(merit <= 1e-10 && merit <= pgs_merit);
    assert!(info.iterations < pgs.iterations);
}
