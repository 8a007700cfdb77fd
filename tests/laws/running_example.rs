//! The book's running example ([`nonsmooth::problem::running_example`]) is what the book
//! says it is: `W` symmetric positive definite with coupled contacts, the hand-worked
//! solution solves it with contact 1 sticking and contact 2 sliding (each contact's own
//! one-contact solve, [`solve_contact`], given the other's impulse, finds that case), and
//! every friction method of the registry ends there, from zero and from random starts (the
//! evidence that the solution is the only one the methods find).

use nalgebra::{Matrix3, Vector3};
use nonsmooth::merit::friction_error;
use nonsmooth::problem::{AnyProblem, running_example, running_example_solution};
use nonsmooth::registry::{Choice, solve};
use nonsmooth::rng::SplitMix64;
use nonsmooth::solver::{Params, no_observer};
use nonsmooth::splitting::{ContactCase, solve_contact};

#[test]
fn the_delassus_operator_is_positive_definite_and_couples_the_contacts() {
    let p = running_example();
    let w = p.w().to_dense();
    assert_eq!(w, w.transpose());
    let eig = w.clone().symmetric_eigen();
    assert!(
        eig.eigenvalues.iter().all(|&l| l > 0.1),
        "{}",
        eig.eigenvalues
    );
    assert!(w.view((0, 3), (3, 3)).norm() > 0.0);
}

#[test]
fn the_hand_worked_solution_solves_it_with_one_stick_and_one_slide() {
    let p = running_example();
    let r = running_example_solution();
    let e = friction_error(&p, &r);
    assert!(e.rel <= 1e-15 && e.normal == 0.0, "{e:?}");
    let w = p.w().to_dense();
    let cases = [ContactCase::Stick, ContactCase::Slide];
    for c in 0..2 {
        let o = 1 - c;
        let wcc = Matrix3::from_fn(|i, j| w[(3 * c + i, 3 * c + j)]);
        let wco = w.view((3 * c, 3 * o), (3, 3)).into_owned();
        let q = p.q().rows(3 * c, 3) + wco * r.rows(3 * o, 3);
        let one = solve_contact(
            &wcc,
            &Vector3::new(q[0], q[1], q[2]),
            p.mu()[c],
            p.kind(),
            [0.0; 3],
        );
        assert_eq!(one.case, cases[c], "contact {}", c + 1);
        for i in 0..3 {
            assert!(
                (one.r[i] - r[3 * c + i]).abs() <= 1e-12,
                "contact {}",
                c + 1
            );
        }
    }
    let u = p.velocity(&r);
    // contact 1 sticks strictly inside its cone, contact 2 slides at 0.3 m/s
    assert!(u.rows(0, 3).norm() <= 1e-15);
    assert!(r.rows(1, 2).norm() < p.mu()[0] * r[0] - 1.0);
    assert!((u.rows(4, 2).norm() - 0.3).abs() <= 1e-12 && u[3].abs() <= 1e-15);
}

#[test]
fn every_friction_method_ends_at_the_solution() {
    let p = running_example();
    let exact = running_example_solution();
    let any = AnyProblem::Friction(p.clone());
    let params = Params {
        tol: 1e-10,
        certify: false,
        ..Default::default()
    };
    let methods = [
        "nsgs",
        "prox-gs",
        "prox-jacobi",
        "nsn",
        "prox-nsn",
        "gs-nsn",
        "ppa",
        "auto",
    ];
    let mut rng = SplitMix64::new(34);
    for m in methods {
        let choice: Choice = m.parse().expect("registered");
        for start in 0..6 {
            let x0 = if start == 0 {
                nalgebra::DVector::zeros(6)
            } else {
                nalgebra::DVector::from_fn(6, |_, _| rng.uniform(-10.0, 10.0))
            };
            let out = solve(&any, &choice, x0, &params, &mut no_observer());
            assert_eq!(out.status(), "converged", "{m}, start {start}");
            let gap = (&out.x - &exact).norm();
            assert!(gap <= 1e-7, "{m}, start {start}: {gap:e} from the solution");
        }
    }
}
