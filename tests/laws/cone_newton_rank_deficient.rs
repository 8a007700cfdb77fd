//! Law: with more contacts than degrees of freedom, `W = J M^-1 J^T` is singular and so
//! may be the Newton matrix; the semismooth Newton method must still never return NaN: it
//! regularises, falls back, and either meets the tolerance or reports an error with a
//! finite iterate.

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::merit::friction_error;
use nonsmooth::newton::{ConeNewtonOptions, cone_newton};
use nonsmooth::problem::{FrictionContact, FrictionKind};
use nonsmooth::solver::{Params, no_observer};
use proptest::prelude::*;

// ANCHOR: law
proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn never_nan_on_rank_deficient_w(
        ndof in 2..6usize,
        j in prop::collection::vec(-1.0..1.0f64, 12 * 6),
        q in prop::collection::vec(-1.0..1.0f64, 12),
        mu in 0.0..1.0f64,
        kind in prop_oneof![Just(FrictionKind::Coulomb), Just(FrictionKind::Ccp)],
    ) {
        // four contacts (12 rows) on at most 5 degrees of freedom: rank(W) <= 5 < 12
        let jm = DMatrix::from_fn(12, ndof, |i, k| j[i * 6 + k]);
        let mut w = &jm * jm.transpose();
        for i in 0..12 { w[(i, i)] += 1e-12; } // keep W_nn > 0 even for a zero row of J
        let fc = FrictionContact::new(
            Matrix::Dense(w), DVector::from_vec(q), DVector::from_element(4, mu), kind,
        ).unwrap();
        let mut r = DVector::zeros(12);
        let params = Params { tol: 1e-8, max_iter: 200, ..Default::default() };
        let result = cone_newton(&fc, &mut r, &params, &ConeNewtonOptions::default(), &mut no_observer());
        prop_assert!(r.iter().all(|v| v.is_finite()), "{:?}", r);
        match result {
            Ok(info) => {
                prop_assert!(info.error.rel <= 1e-8);
                prop_assert_eq!(info.error, friction_error(&fc, &r));
            }
            Err(e) => prop_assert!(!e.to_string().contains("NaN"), "{}", e),
        }
    }
}
// ANCHOR_END: law
