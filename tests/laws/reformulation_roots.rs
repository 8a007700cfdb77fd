//! Law: the reformulations `Phi(x) = phi(x, Ax + b)` have exactly the LCP's roots: zero at
//! a solution, nonzero at any point that is not one, for both NCP functions.

use crate::strategies;

use nalgebra::DVector;
use nonsmooth::merit::lcp_error;
use nonsmooth::ncp::{FischerBurmeister, MinMap, lcp_reformulation};
use proptest::prelude::*;
use strategies::{hplus, lcp_planted, spd};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn planted_solutions_are_roots((lcp, x) in prop_oneof![lcp_planted(spd(5), 5), lcp_planted(hplus(5), 5)]) {
        let scale = 1.0 + lcp.b().amax();
        prop_assert!(lcp_reformulation::<MinMap>(&lcp, &x).amax() <= 1e-12 * scale);
        prop_assert!(lcp_reformulation::<FischerBurmeister>(&lcp, &x).amax() <= 1e-12 * scale);
    }

    #[test]
    fn non_solutions_are_not_roots(
        (lcp, x) in lcp_planted(spd(4), 4),
        i in 0..4usize,
        push in prop_oneof![-1.0..-0.01f64, 0.01..1.0f64],
    ) {
        // Moving one component of the unique solution (A is SPD, hence P) off it breaks
        // complementarity or feasibility in that row or in the residual.
        let mut y = x.clone();
        y[i] += push;
        let min_zero = lcp_reformulation::<MinMap>(&lcp, &y).amax() == 0.0;
        let fb_zero = lcp_reformulation::<FischerBurmeister>(&lcp, &y).amax() == 0.0;
        prop_assert!(!min_zero && !fb_zero);
        prop_assert!(lcp_error(&lcp, &y).abs > 0.0);
    }

    #[test]
    fn both_reformulations_vanish_together(
        (lcp, x) in lcp_planted(spd(4), 4),
        noise in prop::collection::vec(prop_oneof![Just(0.0), -0.5..0.5f64], 4),
    ) {
        let y = &x + DVector::from_vec(noise);
        let m = lcp_reformulation::<MinMap>(&lcp, &y);
        let f = lcp_reformulation::<FischerBurmeister>(&lcp, &y);
        for i in 0..4 {
            prop_assert_eq!(m[i] == 0.0, f[i] == 0.0, "row {}: min {} fb {}", i, m[i], f[i]);
        }
    }
}
