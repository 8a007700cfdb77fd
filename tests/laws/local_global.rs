//! Law: the local problem built directly (`W = J M^-1 J^T` with the block-diagonal
//! inverse, `q = J (u + dt M^-1 f_ext) + b`) equals `GlobalFrictionContact::to_local()`
//! of the assembled global problem (which eliminates `v` with a Cholesky factorisation
//! of `M`), to 1e-12 relative.

use crate::bodies;

use nonsmooth::multibody::Assembly;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn direct_local_problem_equals_eliminated_global(sys in bodies::system(6, 12)) {
        let asm = Assembly::new(&sys.bodies, &sys.contacts, &sys.step).unwrap();
        let direct = asm.local().unwrap();
        let global = asm.global().unwrap();
        let eliminated = global.to_local().unwrap();

        prop_assert_eq!(direct.kind(), eliminated.kind());
        prop_assert_eq!(direct.mu(), eliminated.mu());
        let (w1, w2) = (direct.w().to_dense(), eliminated.w().to_dense());
        let scale = w1.amax().max(f64::MIN_POSITIVE);
        prop_assert!((&w1 - &w2).amax() <= 1e-12 * scale,
            "W differs by {:e} (max |W| {:e})", (&w1 - &w2).amax(), scale);

        // q = J u_free + b: relative to the size of the terms that make it up, since q
        // itself may cancel to nearly zero.
        let (q1, q2) = (direct.q(), eliminated.q());
        let j = asm.jacobian().to_dense().abs();
        let terms = j * asm.free_velocity().abs() + asm.b().abs();
        for i in 0..q1.len() {
            let s = terms[i].max(q1.amax()).max(f64::MIN_POSITIVE);
            prop_assert!((q1[i] - q2[i]).abs() <= 1e-12 * s,
                "q[{}] = {:e} vs {:e} (scale {:e})", i, q1[i], q2[i], s);
        }
    }
}
