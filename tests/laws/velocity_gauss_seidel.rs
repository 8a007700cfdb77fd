//! Law (Erleben 2007 eq. 31-33): the velocity-space Gauss-Seidel is the blocked
//! Gauss-Seidel on `W = H^T M^-1 H`: from the same start, every sweep gives the same
//! iterate, and it keeps `v = M^-1 (q + H r)`.

use crate::strategies;

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::{FrictionKind, GlobalFrictionContact};
use nonsmooth::splitting::{BlockedGaussSeidel, VelocityGaussSeidel};
use proptest::prelude::*;
use strategies::{entry, spd};

// ANCHOR: law
proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn same_iterates_as_blocked_gauss_seidel(
        m in spd(8),
        h in prop::collection::vec(entry(), 8 * 9),
        q in prop::collection::vec(-1.0..1.0f64, 8),
        b in prop::collection::vec(-0.5..0.5f64, 9),
        mu in prop::collection::vec(0.0..1.0f64, 3),
        kind in prop_oneof![Just(FrictionKind::Coulomb), Just(FrictionKind::Ccp)],
    ) {
        let mut h = DMatrix::from_vec(8, 9, h);
        // every contact needs a nonzero normal row: W_nn > 0
        for c in 0..3 { h[(c, 3 * c)] += 1.0; }
        let g = GlobalFrictionContact::new(
            Matrix::Dense(m), Matrix::Dense(h).to_csr().into(), DVector::from_vec(q),
            DVector::from_vec(b), DVector::from_vec(mu), kind,
        ).unwrap();
        let local = g.to_local().unwrap();
        let blocked = BlockedGaussSeidel::new(&local).unwrap();
        let velocity = VelocityGaussSeidel::new(&g).unwrap();
        let mut r1 = DVector::zeros(9);
        let mut r2 = DVector::zeros(9);
        let mut v = velocity.velocity_dofs(&r2);
        for _ in 0..20 {
            blocked.sweep(&mut r1);
            velocity.sweep(&mut r2, &mut v);
            prop_assert!((&r1 - &r2).amax() <= 1e-9 * (1.0 + r1.amax()), "{} vs {}", r1, r2);
        }
        let v_direct = g.velocity_dofs(&r2);
        prop_assert!((&v - &v_direct).amax() <= 1e-9 * (1.0 + v_direct.amax()));
    }
}
// ANCHOR_END: law
