//! Law (Qi and Sun 1993): semismooth Newton converges locally quadratically when every
//! element of the B-subdifferential at the solution is nonsingular. On random problems with
//! a positive definite `W`, started near the solution, the ratio `e_{k+1} / e_k²` of
//! successive absolute natural-map errors stays bounded.

use crate::strategies;

use std::ops::ControlFlow;

use nalgebra::DVector;
use nonsmooth::merit::Measure;
use nonsmooth::newton::{ConeNewtonOptions, cone_newton};
use nonsmooth::problem::FrictionKind;
use nonsmooth::solver::{Params, no_observer};
use nonsmooth::splitting::blocked_gauss_seidel;
use proptest::prelude::*;
use strategies::friction_problem;

// ANCHOR: law
proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn errors_fall_quadratically(
        fc in prop_oneof![friction_problem(4, FrictionKind::Coulomb), friction_problem(4, FrictionKind::Ccp)],
        push in prop::collection::vec(-1e-3..1e-3f64, 12),
    ) {
        // the solution, to high accuracy (any method)
        let mut star = DVector::zeros(12);
        let tight = Params { tol: 1e-14, max_iter: 100_000, ..Default::default() };
        prop_assume!(blocked_gauss_seidel(&fc, &mut star, &tight, &mut no_observer()).is_ok());
        // start nearby and record every error
        let mut r = &star + DVector::from_vec(push);
        let mut errors = Vec::new();
        let params = Params { tol: 1e-15, max_iter: 30, measure: Measure::Absolute, ..Default::default() };
        let opts = ConeNewtonOptions { gs_sweeps: 0, ..Default::default() };
        let _ = cone_newton(&fc, &mut r, &params, &opts, &mut |it| {
            if let Some(e) = it.error {
                errors.push(e.abs);
            }
            ControlFlow::Continue(())
        });
        // ratios over the steps where both errors are above rounding level
        let floor = 1e-11 * (1.0 + star.amax());
        for w in errors.windows(2) {
            if w[0] > floor && w[1] > floor {
                prop_assert!(w[1] / (w[0] * w[0]) <= 1e6 * (1.0 + 1.0 / (1.0 + star.amax())),
                    "e_k+1 / e_k^2 = {} (errors {:?})", w[1] / (w[0] * w[0]), errors);
            }
        }
    }
}
// ANCHOR_END: law
