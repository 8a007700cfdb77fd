//! Issue 8, item 3: with `mu = 1e300` every method reported "converged" at `r = 0` with
//! error 0 while the contact penetrated (`u_n = -1`): in the De Saxce natural map the
//! term `mu ‖u_t‖` swallows `u_n`. The normal condition is now checked on its own
//! (`Residual::normal`), and "converged" requires it.

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::merit::{Measure, fc3d_error, lcp_error, mu_beyond_resolution};
use nonsmooth::problem::AnyProblem;
use nonsmooth::problem::{FrictionContact, FrictionKind, Lcp};
use nonsmooth::registry::{Choice, measure, names, solve};
use nonsmooth::solver::{Params, no_observer};

fn problem(mu: f64, kind: FrictionKind) -> FrictionContact {
    FrictionContact::new(
        Matrix::Dense(DMatrix::identity(3, 3)),
        DVector::from_vec(vec![-1.0, 1.0, 0.0]),
        DVector::from_element(1, mu),
        kind,
    )
    .unwrap()
}

#[test]
fn a_penetrating_answer_is_not_solved_whatever_mu() {
    let p = problem(1e300, FrictionKind::Coulomb);
    let e = fc3d_error(&p, &DVector::zeros(3));
    // Siconos's number is kept: the natural map cannot see u_n here ...
    assert_eq!(e.rel, 0.0, "{e:?}");
    // ... the normal condition can: u_n = -1 over max(‖q‖, ‖r‖, ‖u‖) = sqrt(2)
    assert!((e.normal - 0.5f64.sqrt()).abs() < 1e-15, "{e:?}");
    for m in [Measure::Relative, Measure::RelativeQ, Measure::Absolute] {
        assert!(!e.meets(1e-8, m), "{m:?}");
    }
    // the sticking solution r = [1, -1, 0] (u = 0) meets everything
    let e = fc3d_error(&p, &DVector::from_vec(vec![1.0, -1.0, 0.0]));
    assert!(e.meets(1e-15, Measure::Relative), "{e:?}");
    // a pulling reaction (r_n < 0) is caught too
    let e = fc3d_error(&p, &DVector::from_vec(vec![-1.0, 0.0, 0.0]));
    assert!(e.normal > 0.1, "{e:?}");
    // LCPs have no such term
    let l = Lcp::new(
        Matrix::Dense(DMatrix::identity(1, 1)),
        DVector::from_element(1, -1.0),
    )
    .unwrap();
    assert_eq!(lcp_error(&l, &DVector::zeros(1)).normal, 0.0);
}

#[test]
fn every_friction_method_sticks_or_says_it_did_not_converge() {
    let stick = DVector::from_vec(vec![1.0, -1.0, 0.0]);
    for kind in [FrictionKind::Coulomb, FrictionKind::Ccp] {
        let p = AnyProblem::Friction(problem(1e300, kind));
        for name in names() {
            let m: Choice = name.parse().unwrap();
            let o = solve(
                &p,
                &m,
                DVector::zeros(p.dim()),
                &Params::default(),
                &mut no_observer(),
            );
            if matches!(o.result, Err(nonsmooth::solver::SolveError::Problem(_))) {
                continue; // not a friction method
            }
            assert!(o.x.iter().all(|v| v.is_finite()), "{kind:?} {name}");
            let e = measure(&p, &o.x).unwrap();
            if o.status() == "converged" {
                assert!(e.meets(1e-8, Measure::Relative), "{kind:?} {name}: {e:?}");
                assert!((&o.x - &stick).amax() < 1e-6, "{kind:?} {name}: {}", o.x);
            } else {
                assert!(!e.meets(1e-8, Measure::Relative), "{kind:?} {name}: {e:?}");
            }
            if name == "auto" || name == "nsgs" {
                assert_eq!(o.status(), "converged", "{kind:?} {name}: {:?}", o.result);
            }
        }
    }
}

#[test]
fn the_resolution_limit_of_the_natural_map_is_tol_over_eps() {
    let limit = 1e-8 / f64::EPSILON;
    assert!(mu_beyond_resolution(0.9 * limit, 1e-8).is_none());
    let why = mu_beyond_resolution(1.1 * limit, 1e-8).expect("beyond");
    assert!(why.contains("tol / eps"), "{why}");
    assert!(mu_beyond_resolution(1e300, 1e-8).is_some());
    assert!(mu_beyond_resolution(1e6, 1e-8).is_none());
    // a looser tolerance resolves more
    assert!(mu_beyond_resolution(1e300, 1e-8).is_some());
    assert!(mu_beyond_resolution(1e8, 1e-4).is_none());
}
