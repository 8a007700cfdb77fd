//! Law (Dembo, Eisenstat, Steihaug 1982; Saad 2003 §6.5): the GMRES inner solve of the cone
//! Newton method (`linear=gmres`, block-Jacobi preconditioned) returns a Newton direction
//! `Δ` with `‖H Δ + Φ‖ <= η ‖Φ‖` for the `H = I - D + D ρ W` of the direct solve, hence
//! within `κ(H) η` of the direct direction; and the method with that inner solve still
//! reaches `1e-8` on the problems the direct one solves.

use crate::strategies;

use nalgebra::DVector;
use nonsmooth::merit::friction_error;
use nonsmooth::newton::{ConeNewtonOptions, ConeReformulation, NewtonLinear, cone_newton};
use nonsmooth::problem::FrictionKind;
use nonsmooth::solver::{Params, no_observer};
use proptest::prelude::*;
use strategies::friction_problem;

/// Contacts of the random problems: `3 * 24 = 72` unknowns, above the dense size.
const NC: usize = 24;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn krylov_direction_matches_the_direct_one(
        fc in prop_oneof![friction_problem(NC, FrictionKind::Coulomb), friction_problem(NC, FrictionKind::Ccp)],
        r0 in prop::collection::vec(-1.0..1.0f64, 3 * NC),
    ) {
        let reform = ConeReformulation::new(&fc, 1.0).unwrap();
        let r = DVector::from_vec(r0);
        let phi = reform.phi(&r);
        prop_assume!(phi.norm() > 0.0);
        let h = reform.jacobian(&r);
        let svd = h.clone().svd(false, false);
        let (smax, smin) = (svd.singular_values.max(), svd.singular_values.min());
        prop_assume!(smin > 1e-8 * smax);
        let kappa = smax / smin;
        let direct = h.clone().lu().solve(&(-&phi)).unwrap();
        let tol = 1e-10;
        let (d, out) = reform.krylov_direction(&r, tol, 5_000);
        prop_assert!(out.converged, "GMRES stopped at {:e} after {}", out.relative_residual, out.iterations);
        // the residual, measured with the dense H of the direct solve
        let res = (&h * &d + &phi).norm() / phi.norm();
        prop_assert!(res <= 2.0 * tol + 1e-13, "‖H d + Φ‖ / ‖Φ‖ = {res:e}");
        prop_assert!((res - out.relative_residual).abs() <= 1e-12, "reported {:e}, measured {res:e}", out.relative_residual);
        // hence within kappa * residual of the direct direction (plus its own rounding)
        let gap = (&d - &direct).norm() / direct.norm().max(f64::MIN_POSITIVE);
        prop_assert!(gap <= kappa * (res + 1e-14), "gap {gap:e}, kappa {kappa:e}, residual {res:e}");
    }

    #[test]
    fn gmres_newton_reaches_what_lu_newton_reaches(
        fc in prop_oneof![friction_problem(NC, FrictionKind::Coulomb), friction_problem(NC, FrictionKind::Ccp)],
    ) {
        let params = Params { tol: 1e-8, max_iter: 200, ..Default::default() };
        let run = |linear| {
            let mut r = DVector::zeros(3 * NC);
            let options = ConeNewtonOptions { linear, ..Default::default() };
            let out = cone_newton(&fc, &mut r, &params, &options, &mut no_observer());
            (out, r)
        };
        let (lu, _) = run(NewtonLinear::Lu);
        prop_assume!(lu.is_ok());
        prop_assert_eq!(lu.as_ref().unwrap().stats.krylov_products, 0);
        let (gm, r) = run(NewtonLinear::Gmres);
        let info = gm.map_err(|e| TestCaseError::fail(format!("gmres: {e}")))?;
        prop_assert!(info.stats.krylov_products > 0);
        // the error measured anew on the answer
        let e = friction_error(&fc, &r);
        prop_assert!(e.meets(1e-8, params.measure), "error {:?}", e);
    }
}
