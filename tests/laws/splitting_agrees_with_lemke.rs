//! Law: on random P-matrix (strictly diagonally dominant, nonsymmetric) and symmetric
//! positive definite LCPs, whose solution is unique, every projected splitting method
//! converges to Lemke's answer.

use crate::strategies;

use nalgebra::DVector;
use nonsmooth::pivoting::{LemkeOptions, lemke};
use nonsmooth::solver::{Params, no_observer};
use nonsmooth::splitting::{Splitting, solve_lcp};
use proptest::prelude::*;
use strategies::{hplus, lcp_planted, spd};

fn params() -> Params {
    Params {
        tol: 1e-12,
        max_iter: 200_000,
        ..Default::default()
    }
}

// ANCHOR: law
proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn p_matrix_lcps((lcp, _) in lcp_planted(hplus(6), 6), omega in 0.3..1.0f64) {
        let mut xl = DVector::zeros(6);
        lemke(&lcp, &mut xl, &params(), &LemkeOptions::default(), &mut no_observer()).unwrap();
        for method in [Splitting::Jacobi { omega }, Splitting::GaussSeidel, Splitting::Sor { omega }] {
            let mut x = DVector::zeros(6);
            solve_lcp(&lcp, &mut x, method, &params(), &mut no_observer()).unwrap();
            prop_assert!((&x - &xl).amax() <= 1e-8 * (1.0 + xl.amax()), "{:?}: {} vs {}", method, x, xl);
        }
    }

    #[test]
    fn spd_lcps((lcp, _) in lcp_planted(spd(6), 6), omega in 0.2..1.8f64) {
        let mut xl = DVector::zeros(6);
        lemke(&lcp, &mut xl, &params(), &LemkeOptions::default(), &mut no_observer()).unwrap();
        for method in [Splitting::GaussSeidel, Splitting::Sor { omega }] {
            let mut x = DVector::zeros(6);
            solve_lcp(&lcp, &mut x, method, &params(), &mut no_observer()).unwrap();
            // the solution of an SPD LCP is unique; how close the iterate is depends on the
            // conditioning, so compare through the error bound ‖x - x*‖ <= c ‖min(x, w)‖
            prop_assert!((&x - &xl).amax() <= 1e-6 * (1.0 + xl.amax()), "{:?}: {} vs {}", method, x, xl);
        }
    }
}
// ANCHOR_END: law
