//! Law (chapter "From Newton-Euler to the contact problem", eq. 22-23): the minimiser of the
//! convex program `min 1/2 r'Wr + q'r` subject to `r_c ∈ K_mu_c` satisfies the cone
//! complementarity conditions (22) contact by contact; a contact that pushes while it slides
//! separates with `u_n = mu ‖u_t‖`; and when no pushing contact slides, the minimiser also
//! solves the Coulomb problem (21).
//!
//! The minimiser is computed by an independent solver that knows only the program (23):
//! projected gradient descent with step `1 / λ_max(W)` and the crate's cone projection. The
//! blocked Gauss-Seidel of the crate, asked for the CCP, must land on the same point (the
//! program is strictly convex, so the point is unique).

use crate::strategies;

use nalgebra::DVector;
use nonsmooth::friction::{in_cone, in_dual_cone, project_on_cone};
use nonsmooth::matrix::Matrix;
use nonsmooth::merit::fc3d_error;
use nonsmooth::problem::{FrictionContact, FrictionKind};
use nonsmooth::solver::{Params, no_observer};
use nonsmooth::splitting::blocked_gauss_seidel;
use proptest::prelude::*;
use strategies::spd;

const NC: usize = 3;

// ANCHOR: law
proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn minimiser_of_23_satisfies_22(
        w in spd(3 * NC),
        q in prop::collection::vec(-1.0..1.0f64, 3 * NC),
        mu in prop::collection::vec(0.0..1.2f64, NC),
    ) {
        let eig = w.symmetric_eigenvalues();
        let (lmin, lmax) = (eig.min(), eig.max());
        prop_assume!(lmax / lmin < 50.0);
        let q = DVector::from_vec(q);

        // Projected gradient on (23): r <- P_K(r - (W r + q) / λ_max), contact by contact.
        let mut r = DVector::zeros(3 * NC);
        for _ in 0..(80.0 * lmax / lmin) as usize + 200 {
            let g = &w * &r + &q;
            for (c, &mu_c) in mu.iter().enumerate() {
                let k = 3 * c;
                let p = project_on_cone(
                    [r[k] - g[k] / lmax, r[k + 1] - g[k + 1] / lmax, r[k + 2] - g[k + 2] / lmax],
                    mu_c,
                );
                r.fixed_rows_mut::<3>(k).copy_from_slice(&p);
            }
        }
        let u = &w * &r + &q;
        let tol = 1e-9;

        let mut a_pushing_contact_slides = false;
        for (c, &mu_c) in mu.iter().enumerate() {
            let k = 3 * c;
            let (rc, uc) = ([r[k], r[k + 1], r[k + 2]], [u[k], u[k + 1], u[k + 2]]);
            // (22): r_c in the cone, u_c in the dual cone, r_c . u_c = 0
            prop_assert!(in_cone(rc, mu_c, tol), "contact {}: r = {:?}", c, rc);
            prop_assert!(in_dual_cone(uc, mu_c, tol), "contact {}: u = {:?}", c, uc);
            prop_assert!((rc[0] * uc[0] + rc[1] * uc[1] + rc[2] * uc[2]).abs() <= tol);
            // a pushing, sliding contact separates: u_n = mu |u_t|
            let slip = uc[1].hypot(uc[2]);
            if rc[0] > 1e-8 && slip > 1e-8 {
                a_pushing_contact_slides = true;
                prop_assert!((uc[0] - mu_c * slip).abs() <= tol, "contact {}: u = {:?}", c, uc);
            }
        }
        let fc = FrictionContact::new(Matrix::Dense(w), q, DVector::from_vec(mu), FrictionKind::Ccp).unwrap();
        if !a_pushing_contact_slides {
            // nothing slides: the CCP solution is a Coulomb solution
            prop_assert!(fc3d_error(&fc, &r).abs <= 1e-7);
        }

        // The crate's blocked Gauss-Seidel, asked for the CCP, finds the same point.
        let mut r_gs = DVector::zeros(3 * NC);
        let params = Params { tol: 1e-13, max_iter: 100_000, ..Default::default() };
        blocked_gauss_seidel(&fc, &mut r_gs, &params, &mut no_observer()).unwrap();
        prop_assert!((&r_gs - &r).amax() <= 1e-7 * (1.0 + r.amax()), "{} vs {}", r_gs, r);
    }
}
// ANCHOR_END: law
