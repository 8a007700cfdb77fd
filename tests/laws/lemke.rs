//! Law: Lemke's method finds the unique solution of a P-matrix LCP (Cottle, Pang, Stone
//! 1992 Thm. 4.4.8), and ends on a ray, reported as an error, when the LCP is infeasible.
//! As a `solver::Method` one iteration is one pivot: the observer sees every pivot's basic
//! solution (`x >= 0`), the report's iterations are the pivots, and no intermediate basis
//! ends the path because it happens to meet the tolerance.

use crate::strategies;

use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::merit::lcp_error;
use nonsmooth::pivoting::{LemkeOptions, lemke};
use nonsmooth::problem::{Lcp, ProblemError};
use nonsmooth::solver::{Iterate, Params, SolveError, Status, no_observer};
use proptest::prelude::*;
use strategies::{hplus, lcp_planted, spd};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn finds_the_planted_solution((lcp, xs) in prop_oneof![lcp_planted(hplus(8), 8), lcp_planted(spd(8), 8)]) {
        let mut x = DVector::zeros(8);
        let info = lemke(&lcp, &mut x, &Params { tol: 1e-10, ..Default::default() }, &LemkeOptions::default(), &mut no_observer()).unwrap();
        prop_assert!(info.error.rel <= 1e-10);
        prop_assert_eq!(info.error, lcp_error(&lcp, &x));
        prop_assert!((&x - &xs).amax() <= 1e-8 * (1.0 + xs.amax()));
    }

    #[test]
    fn one_iteration_is_one_pivot((lcp, _) in lcp_planted(spd(8), 8)) {
        let params = Params { tol: 1e-10, record_history: true, ..Default::default() };
        let mut seen: Vec<(usize, DVector<f64>)> = Vec::new();
        let mut observer = |it: &Iterate| {
            seen.push((it.iteration, it.x.clone()));
            ControlFlow::Continue(())
        };
        let mut x = DVector::from_element(8, 7.0); // ignored: Lemke needs no start
        let info = lemke(&lcp, &mut x, &params, &LemkeOptions::default(), &mut observer).unwrap();
        prop_assert_eq!(info.stats.pivots, info.iterations);
        prop_assert_eq!(seen.len(), info.iterations);
        prop_assert!(seen.iter().enumerate().all(|(k, (i, x))| *i == k + 1 && x.iter().all(|v| *v >= 0.0)));
        match seen.last() {
            Some((_, last)) => prop_assert_eq!(last, &x),
            None => prop_assert!(x.iter().all(|v| *v == 0.0)), // b >= 0: x = 0, no pivot
        }
        prop_assert_eq!(info.history.len(), info.iterations + 1);
        // The same pivots with the loose tolerance at which some intermediate basis may
        // already pass: the path is not cut short.
        let loose = Params { tol: 0.5, ..Default::default() };
        let mut y = DVector::zeros(8);
        let r = lemke(&lcp, &mut y, &loose, &LemkeOptions::default(), &mut no_observer()).unwrap();
        prop_assert_eq!(r.iterations, info.iterations);
    }

    #[test]
    fn infeasible_lcp_ends_on_a_ray(n in 1..6usize, b in prop::collection::vec(-2.0..-0.1f64, 6)) {
        // w = -x + b with b < 0 needs x <= b < 0: no x >= 0 gives w >= 0.
        let lcp = Lcp::new(Matrix::Dense(-DMatrix::identity(n, n)), DVector::from_vec(b[..n].to_vec())).unwrap();
        let mut x = DVector::zeros(n);
        let r = lemke(&lcp, &mut x, &Params::default(), &LemkeOptions::default(), &mut no_observer());
        prop_assert!(matches!(r, Err(SolveError::RayTermination { .. })), "{:?}", r);
        prop_assert!(x.iter().all(|v| v.is_finite()));
    }
}

/// `b >= 0`: `x = 0` solves it without a pivot; an out-of-range option is named.
#[test]
fn trivial_lcp_and_invalid_options() {
    let lcp = Lcp::new(
        Matrix::Dense(DMatrix::identity(2, 2)),
        DVector::from_vec(vec![1.0, 0.0]),
    )
    .unwrap();
    let mut x = DVector::from_element(2, 3.0);
    let info = lemke(
        &lcp,
        &mut x,
        &Params::default(),
        &LemkeOptions::default(),
        &mut no_observer(),
    )
    .unwrap();
    assert_eq!(
        (info.status, info.iterations, x.amax()),
        (Status::Converged, 0, 0.0)
    );
    let bad = LemkeOptions {
        zero_tol: -1.0,
        ..Default::default()
    };
    let r = lemke(&lcp, &mut x, &Params::default(), &bad, &mut no_observer());
    assert!(
        matches!(&r, Err(SolveError::Problem(ProblemError::InvalidOption { method, option, .. }))
            if method == "lemke" && option == "zero_tol"),
        "{r:?}"
    );
}
