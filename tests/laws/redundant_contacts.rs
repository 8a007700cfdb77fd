//! Law (chapter "From Newton-Euler to the contact problem", the midpoint argument): for a
//! frictionless contact problem `LCP(W, q)` with `W = J M^-1 J^T` and `q = J v` in the range
//! of `J`, the impulses need not be unique when `W` is singular, but the generalised impulse
//! `J^T r`, hence the motion and `W r`, is. Lemke's method run on the contacts in two orders
//! (the given one and the reverse) must give the same `J^T r` and `W r`, whether or not it
//! gives the same `r`.

use nalgebra::{DMatrix, DVector, Vector3};
use nonsmooth::matrix::Matrix;
use nonsmooth::multibody::{BodyRef, Contact, RigidBody, Scene, StepParams};
use nonsmooth::pivoting::{LemkeOptions, lemke};
use nonsmooth::problem::Lcp;
use nonsmooth::solver::{Params, no_observer};
use proptest::prelude::*;

/// Solves `LCP(W, q)` by Lemke with the rows taken in the order `order` and returns the
/// solution in the original order.
fn lemke_in_order(w: &DMatrix<f64>, q: &DVector<f64>, order: &[usize]) -> DVector<f64> {
    let n = q.len();
    let wp = DMatrix::from_fn(n, n, |i, j| w[(order[i], order[j])]);
    let qp = DVector::from_fn(n, |i, _| q[order[i]]);
    let lcp = Lcp::new(Matrix::Dense(wp), qp).unwrap();
    let mut xp = DVector::zeros(n);
    let params = Params {
        tol: 1e-10,
        ..Default::default()
    };
    lemke(
        &lcp,
        &mut xp,
        &params,
        &LemkeOptions::default(),
        &mut no_observer(),
    )
    .expect("a feasible LCP with a PSD matrix");
    let mut x = DVector::zeros(n);
    for (i, &o) in order.iter().enumerate() {
        x[o] = xp[i];
    }
    x
}

// ANCHOR: law
proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn two_lemke_solutions_give_the_same_motion(
        dofs in 2..5usize,
        extra in 1..5usize,
        seed in prop::collection::vec(-1.0..1.0f64, 64),
        eps in 0.05..1.0f64,
    ) {
        // More contacts than degrees of freedom: the rows of J are dependent, W is singular.
        // Every contact can open along one common direction (the first column of J is
        // positive), as a resting body can lift off; then no non-negative combination of
        // contact impulses cancels (J^T d = 0, d >= 0 forces d = 0) and, rounding included,
        // the LCP has a solution.
        let nc = dofs + extra;
        let mut s = seed.iter().cycle().copied();
        let mut j = DMatrix::from_fn(nc, dofs, |_, _| s.next().unwrap());
        for c in 0..nc {
            j[(c, 0)] = 0.1 + j[(c, 0)].abs();
        }
        let b = DMatrix::from_fn(dofs, dofs, |_, _| s.next().unwrap());
        let m = &b * b.transpose() + DMatrix::identity(dofs, dofs) * eps;
        let v = DVector::from_fn(dofs, |_, _| s.next().unwrap());
        let w = &j * m.clone().try_inverse().unwrap() * j.transpose();
        let q = &j * &v; // q in the range of J: a solution exists

        let forward: Vec<usize> = (0..nc).collect();
        let backward: Vec<usize> = (0..nc).rev().collect();
        let r1 = lemke_in_order(&w, &q, &forward);
        let r2 = lemke_in_order(&w, &q, &backward);

        let scale = 1.0 + (j.transpose() * &r1).amax();
        prop_assert!((j.transpose() * (&r1 - &r2)).amax() <= 1e-8 * scale);
        prop_assert!((&w * (&r1 - &r2)).amax() <= 1e-8 * scale);
    }
}
// ANCHOR_END: law

/// The law is not vacuous: a box resting on eight contacts (its four bottom corners and
/// the midpoints of its four bottom edges) has many frictionless solutions, and the two
/// orders find different ones that move the box the same way.
#[test]
fn a_resting_box_on_eight_contacts_has_different_solutions_with_the_same_motion() {
    let half = Vector3::new(0.05, 0.05, 0.05);
    let body = RigidBody::solid_box(half, 1000.0, Vector3::new(0.0, 0.0, 0.05)).unwrap();
    let points = [
        (-1.0, -1.0),
        (0.0, -1.0),
        (1.0, -1.0),
        (1.0, 0.0),
        (1.0, 1.0),
        (0.0, 1.0),
        (-1.0, 1.0),
        (-1.0, 0.0),
    ];
    let contacts = points
        .iter()
        .map(|&(x, y)| {
            let p = Vector3::new(x * half.x, y * half.y, 0.0);
            Contact::new(BodyRef::World, 0, p, Vector3::z(), 0.0).unwrap()
        })
        .collect();
    let scene = Scene {
        name: "box_on_eight".into(),
        description: String::new(),
        bodies: vec![body],
        half_extents: vec![half],
        contacts,
        step: StepParams::default(),
    };
    let fc = scene.local_problem().unwrap();
    let normals: Vec<usize> = (0..8).map(|c| 3 * c).collect();
    let w = DMatrix::from_fn(8, 8, |i, k| fc.w().get(normals[i], normals[k]));
    let q = DVector::from_fn(8, |i, _| fc.q()[normals[i]]);
    let r1 = lemke_in_order(&w, &q, &(0..8).collect::<Vec<_>>());
    let r2 = lemke_in_order(&w, &q, &(0..8).rev().collect::<Vec<_>>());
    assert!((&r1 - &r2).amax() > 1e-3 * r1.amax(), "{r1} vs {r2}");
    assert!((&w * (&r1 - &r2)).amax() <= 1e-12, "{}", &w * (&r1 - &r2));
    // both carry the box's weight for one step: sum r_n = m g dt
    let total = 1.0 * 9.81 * 0.01;
    assert!((r1.sum() - total).abs() <= 1e-12 && (r2.sum() - total).abs() <= 1e-12);
}
