//! Law: the one-contact solver returns an exact solution of the contact's law — its
//! natural-map residual is zero to rounding — for random symmetric positive definite
//! blocks, both laws, all friction coefficients; each case has the structure the
//! derivation predicts; and for CCP (a strictly convex problem with a unique solution) it
//! agrees with an independent projected-gradient solve.

use nalgebra::{Matrix3, Vector3};
use nonsmooth::problem::FrictionKind;
use nonsmooth::splitting::{ContactCase, solve_contact};
use proptest::prelude::*;

fn spd3() -> impl Strategy<Value = Matrix3<f64>> {
    (prop::array::uniform9(-1.0..1.0f64), 0.01..1.0f64).prop_map(|(v, eps)| {
        let b = Matrix3::from_row_slice(&v);
        b * b.transpose() + Matrix3::identity() * eps
    })
}

fn kind() -> impl Strategy<Value = FrictionKind> {
    prop_oneof![Just(FrictionKind::Coulomb), Just(FrictionKind::Ccp)]
}

// ANCHOR: law
proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    #[test]
    fn solution_is_exact(
        w in spd3(),
        q in prop::array::uniform3(-2.0..2.0f64),
        mu in prop_oneof![Just(0.0), 0.0..2.0f64],
        kind in kind(),
    ) {
        let q = Vector3::from(q);
        let s = solve_contact(&w, &q, mu, kind, [0.0; 3]);
        let scale = q.norm() + w.norm() * Vector3::from(s.r).norm();
        prop_assert!(s.case != ContactCase::Fallback, "fallback: {:?}", s);
        prop_assert!(s.residual <= 1e-12 * scale, "{:?} scale {}", s, scale);
        let r = Vector3::from(s.r);
        let u = w * r + q;
        match s.case {
            ContactCase::TakeOff => prop_assert_eq!(r, Vector3::zeros()),
            ContactCase::Stick => prop_assert!(u.norm() <= 1e-12 * scale || mu == 0.0),
            ContactCase::Slide => {
                // on the cone boundary, slip opposite to the friction force
                prop_assert!((r.y.hypot(r.z) - mu * r.x).abs() <= 1e-12 * scale);
                prop_assert!(r.y * u.y + r.z * u.z <= 1e-12 * scale * scale);
                if kind == FrictionKind::Coulomb {
                    prop_assert!(u.x.abs() <= 1e-12 * scale);
                } else {
                    prop_assert!((u.x - mu * u.y.hypot(u.z)).abs() <= 1e-12 * scale);
                }
            }
            ContactCase::Fallback => unreachable!(),
        }
    }

    #[test]
    fn ccp_agrees_with_projected_gradient(
        w in spd3(),
        q in prop::array::uniform3(-2.0..2.0f64),
        mu in 0.0..2.0f64,
    ) {
        let q = Vector3::from(q);
        let s = solve_contact(&w, &q, mu, FrictionKind::Ccp, [0.0; 3]);
        // independent: projected gradient on min 1/2 r'Wr + q'r over K_mu
        let eig = w.symmetric_eigenvalues();
        let (lmin, lmax) = (eig.min(), eig.max());
        prop_assume!(lmax / lmin < 1e3);
        let step = 1.0 / lmax;
        let mut r = Vector3::zeros();
        for _ in 0..(60.0 * lmax / lmin) as usize + 100 {
            let g = w * r + q;
            let p = nonsmooth::friction::project_on_cone([r.x - step * g.x, r.y - step * g.y, r.z - step * g.z], mu);
            r = Vector3::from(p);
        }
        prop_assert!((r - Vector3::from(s.r)).norm() <= 1e-8 * (1.0 + r.norm()), "{} vs {:?}", r, s);
    }
}
// ANCHOR_END: law
