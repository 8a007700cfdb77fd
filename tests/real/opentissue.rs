//! On real input: OpenTissue's boxed LCP `dlm/72` (friction box, bounds that follow the
//! normal values): projected Gauss-Seidel reaches a boxed minimum-map merit
//! `1/2 ‖min(x - lo, max(x - hi, w))‖²` of at most 1e-10 (Erleben 2007 eq. 37-38).

use crate::common;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::merit::{Measure, boxed_minmap_merit};
use nonsmooth::solver::{Params, no_observer};
use nonsmooth::splitting::{Splitting, solve_boxed};

#[test]
fn boxed_pgs_reaches_merit_1e_10() {
    let Some(path) = common::shared_file("opentissue/dlm/72") else {
        return;
    };
    let lp = load(path).unwrap();
    let AnyProblem::Boxed(p) = &lp.problem else {
        panic!("not a boxed LCP")
    };
    let mut x = DVector::from_vec(lp.warm_start.clone().unwrap_or_else(|| vec![0.0; p.dim()]));
    // merit = abs^2 / 2 <= 1e-10  <=>  abs <= sqrt(2e-10)
    let params = Params {
        tol: (2e-10f64).sqrt(),
        measure: Measure::Absolute,
        max_iter: 10_000,
        ..Default::default()
    };
    let info = solve_boxed(
        p,
        &mut x,
        Splitting::GaussSeidel,
        &params,
        &mut no_observer(),
    )
    .unwrap();
    let merit = boxed_minmap_merit(p, &x);
    eprintln!("dlm/72: {} PGS sweeps, merit {merit:.2e}", info.iterations);
    assert!(merit <= 1e-10);
}
