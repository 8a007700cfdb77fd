//! Law: the natural-map error of a friction answer is zero exactly when the answer is
//! feasible (`r ∈ K`, `û ∈ K*`) and complementary (`r · û = 0`), for both laws: the
//! natural map, the complementarity gap and the feasibility measures vanish together.

use crate::strategies;

use nalgebra::DVector;
use nonsmooth::merit::{complementarity_gap, feasibility, friction_error};
use nonsmooth::problem::FrictionKind;
use nonsmooth::solver::{Params, no_observer};
use nonsmooth::splitting::blocked_gauss_seidel;
use proptest::prelude::*;
use strategies::friction_problem;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn all_measures_vanish_at_a_solution_and_not_elsewhere(
        fc in prop_oneof![friction_problem(3, FrictionKind::Coulomb), friction_problem(3, FrictionKind::Ccp)],
        push in prop::collection::vec(-0.5..0.5f64, 9),
    ) {
        let mut r = DVector::zeros(9);
        let params = Params { tol: 1e-13, max_iter: 200_000, ..Default::default() };
        // Coulomb problems may not converge from every start; use only converged answers.
        prop_assume!(blocked_gauss_seidel(&fc, &mut r, &params, &mut no_observer()).is_ok());
        let kind = fc.kind();
        let scale = 1.0 + r.amax() + fc.q().amax();
        prop_assert!(friction_error(&fc, &r).abs <= 1e-11 * scale);
        prop_assert!(complementarity_gap(&fc, &r, kind) <= 1e-10 * scale * scale);
        let (p, d) = feasibility(&fc, &r, kind);
        prop_assert!(p <= 1e-11 * scale && d <= 1e-11 * scale);
        // move away: the error is positive iff one of the others is
        let y = &r + DVector::from_vec(push);
        let e = friction_error(&fc, &y).abs;
        let (p, d) = feasibility(&fc, &y, kind);
        let g = complementarity_gap(&fc, &y, kind);
        prop_assert_eq!(e > 1e-12 * scale, p > 1e-12 * scale || d > 1e-12 * scale || g > 1e-12 * scale * scale,
            "error {} primal {} dual {} gap {}", e, p, d, g);
    }
}
