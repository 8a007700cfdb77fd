//! Law: the Delassus operator `W = J M^-1 J^T` is exactly symmetric and positive
//! semidefinite (Erleben 2007 eq. 20).

use crate::bodies;

use nonsmooth::multibody::Assembly;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn delassus_is_symmetric_positive_semidefinite(sys in bodies::system(6, 12)) {
        let asm = Assembly::new(&sys.bodies, &sys.contacts, &sys.step).unwrap();
        let w = asm.delassus();
        prop_assert_eq!(w.nrows(), 3 * sys.contacts.len());
        // Exactly symmetric: each pair of blocks is computed once and mirrored.
        prop_assert_eq!(w.relative_asymmetry(), 0.0);
        if w.nrows() > 0 {
            let d = w.to_dense();
            let eig = d.clone().symmetric_eigen().eigenvalues;
            let max = eig.amax();
            prop_assert!(eig.min() >= -1e-12 * max, "min eigenvalue {} of max {}", eig.min(), max);
            // x^T W x = ||M^-1/2 J^T x||^2 >= 0 for a few x (the rank is at most 6 nb).
            for i in 0..d.nrows() {
                prop_assert!(d[(i, i)] > 0.0);
            }
        }
    }
}
