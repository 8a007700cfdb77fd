//! Law: away from its kinks the Alart-Curnier function (Coulomb) and the cone natural map
//! (CCP) are differentiable, and the generalised Jacobian the semismooth Newton method uses,
//! `H = I - D + D ρ W`, is their Jacobian: it matches central finite differences.

use crate::strategies;

use nalgebra::DVector;
use nonsmooth::newton::ConeReformulation;
use nonsmooth::problem::FrictionKind;
use proptest::prelude::*;
use strategies::friction_problem;

// ANCHOR: law
proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn jacobian_matches_finite_differences(
        fc in prop_oneof![friction_problem(3, FrictionKind::Coulomb), friction_problem(3, FrictionKind::Ccp)],
        r in prop::collection::vec(-1.0..1.0f64, 9),
        rho_scale in 0.2..2.0f64,
    ) {
        let f = ConeReformulation::new(&fc, rho_scale).unwrap();
        let r = DVector::from_vec(r);
        let h = f.jacobian(&r);
        let step = 1e-7;
        for j in 0..9 {
            let mut rp = r.clone();
            let mut rm = r.clone();
            rp[j] += step;
            rm[j] -= step;
            let fd = (f.phi(&rp) - f.phi(&rm)) / (2.0 * step);
            // One-sided differences that disagree mean a kink within the step: skip.
            let fwd = (f.phi(&rp) - f.phi(&r)) / step;
            let bwd = (f.phi(&r) - f.phi(&rm)) / step;
            if (&fwd - &bwd).amax() > 1e-4 * (1.0 + fwd.amax()) {
                continue;
            }
            for i in 0..9 {
                prop_assert!((h[(i, j)] - fd[i]).abs() <= 1e-5 * (1.0 + fd[i].abs()),
                    "H[{},{}] = {} vs finite difference {}", i, j, h[(i, j)], fd[i]);
            }
        }
    }
}
// ANCHOR_END: law
