//! Law: on random symmetric positive definite LCPs (unique solution) NNCG, the
//! Fletcher-Reeves acceleration of projected Gauss-Seidel with restarts
//! (Silcowitz-Hansen, Niebe, Erleben 2010), converges from zero to Lemke's answer, with and
//! without re-projection after the momentum step.

use crate::strategies;

use nalgebra::DVector;
use nonsmooth::newton::{NncgOptions, nncg};
use nonsmooth::pivoting::{LemkeOptions, lemke};
use nonsmooth::solver::{Params, no_observer};
use proptest::prelude::*;
use strategies::{lcp_planted, spd};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn spd_lcps((lcp, _) in lcp_planted(spd(8), 8), reproject in any::<bool>()) {
        let params = Params { tol: 1e-12, max_iter: 200_000, ..Default::default() };
        let mut xl = DVector::zeros(8);
        lemke(&lcp, &mut xl, &params, &LemkeOptions::default(), &mut no_observer()).unwrap();
        // ANCHOR: law
        let mut x = DVector::zeros(8);
        let options = NncgOptions { reproject, ..Default::default() };
        let r = nncg(&lcp, &mut x, &params, &options, &mut no_observer());
        prop_assert!(r.is_ok(), "{:?}", r);
        prop_assert!((&x - &xl).amax() <= 1e-6 * (1.0 + xl.amax()), "{} vs {}", x, xl);
        // ANCHOR_END: law
    }
}
