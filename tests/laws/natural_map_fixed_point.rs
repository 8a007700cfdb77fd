//! Law (Erleben 2009 slides eq. 26-34): `x = max(0, x - r (A x + b))` holds for one
//! `r > 0` iff it holds for every `r > 0` iff `x` solves the LCP: on LCPs built around a
//! planted solution, and on random LCPs solved by Lemke's method.

use crate::strategies;

use nalgebra::DVector;
use nonsmooth::matrix::Matrix;
use nonsmooth::merit::lcp_error;
use nonsmooth::pivoting::{LemkeOptions, lemke};
use nonsmooth::problem::Lcp;
use nonsmooth::solver::{Params, no_observer};
use proptest::prelude::*;
use strategies::{lcp_planted, spd};

fn fixed_point_residual(lcp: &Lcp, x: &DVector<f64>, r: f64) -> f64 {
    let w = lcp.w(x);
    (x - (x - w * r).map(|v| v.max(0.0))).amax()
}

// ANCHOR: law
proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn one_r_iff_all_r_iff_solution(
        (lcp, xs) in lcp_planted(spd(4), 4),
        perturb in prop::option::of((0..4usize, -0.5..0.5f64)),
        r1 in 1e-3..1e3f64,
        r2 in 1e-3..1e3f64,
    ) {
        let mut x = xs.clone();
        if let Some((i, d)) = perturb {
            x[i] = (x[i] + d).max(0.0);
        }
        let tol = 1e-10 * (1.0 + lcp.b().amax()) * (1.0 + r1.max(r2));
        let is_solution = lcp_error(&lcp, &x).abs <= 1e-10 * (1.0 + lcp.b().amax());
        let fixed1 = fixed_point_residual(&lcp, &x, r1) <= tol;
        let fixed2 = fixed_point_residual(&lcp, &x, r2) <= tol;
        prop_assert_eq!(fixed1, fixed2);
        prop_assert_eq!(fixed1, is_solution);
    }


    #[test]
    fn holds_for_every_r_at_lemke_solutions_and_fails_when_perturbed(
        a in spd(5),
        b in prop::collection::vec(-1.0..1.0f64, 5),
        rs in prop::collection::vec(1e-3..1e3f64, 4),
        (i, d) in (0..5usize, 0.01..0.5f64),
    ) {
        let lcp = Lcp::new(Matrix::Dense(a), DVector::from_vec(b)).unwrap();
        let mut x = DVector::zeros(5);
        let lemke_params = Params { tol: 1e-12, ..Default::default() };
        lemke(&lcp, &mut x, &lemke_params, &LemkeOptions::default(), &mut no_observer()).unwrap();
        let tol = |r: f64| 1e-10 * (1.0 + lcp.b().amax()) * (1.0 + r);
        // at the solution: a fixed point for every r
        for &r in &rs {
            prop_assert!(fixed_point_residual(&lcp, &x, r) <= tol(r), "r = {}", r);
        }
        // moved off it (up, so that x stays feasible): a fixed point for no r
        let mut y = x.clone();
        y[i] += d;
        for &r in &rs {
            prop_assert!(fixed_point_residual(&lcp, &y, r) > tol(r), "r = {}", r);
        }
    }
}
// ANCHOR_END: law
