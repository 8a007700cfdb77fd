//! Law: Lemke's method finds the unique solution of a P-matrix LCP (Cottle, Pang, Stone
//! 1992 Thm. 4.4.8), and ends on a ray, reported as an error, when the LCP is infeasible.

mod strategies;

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::merit::lcp_error;
use nonsmooth::pivoting::{LemkeOptions, lemke};
use nonsmooth::problem::Lcp;
use nonsmooth::solver::{Params, SolveError, no_observer};
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
    fn infeasible_lcp_ends_on_a_ray(n in 1..6usize, b in prop::collection::vec(-2.0..-0.1f64, 6)) {
        // w = -x + b with b < 0 needs x <= b < 0: no x >= 0 gives w >= 0.
        let lcp = Lcp::new(Matrix::Dense(-DMatrix::identity(n, n)), DVector::from_vec(b[..n].to_vec())).unwrap();
        let mut x = DVector::zeros(n);
        let r = lemke(&lcp, &mut x, &Params::default(), &LemkeOptions::default(), &mut no_observer());
        prop_assert!(matches!(r, Err(SolveError::RayTermination { .. })), "{:?}", r);
        prop_assert!(x.iter().all(|v| v.is_finite()));
    }
}
