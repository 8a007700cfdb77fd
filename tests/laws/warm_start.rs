//! Law: warm starting by contact identity (`policy::warm_start::by_identity`) gives every
//! contact that persists exactly its previous impulse and every new contact zeros,
//! whatever the order of either list; and a converged answer used as the warm start of the
//! same problem costs no iteration.

use std::collections::HashSet;

use nalgebra::{DMatrix, DVector};
use nonsmooth::policy::warm_start::{by_identity, given};
use nonsmooth::problem::{AnyProblem, FrictionContact, FrictionKind};
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::{Params, no_observer};
use proptest::prelude::*;

/// Distinct identities (as a body pair and a feature) for the previous and current steps,
/// drawn from a small pool so that they overlap.
fn ids() -> impl Strategy<Value = Vec<(u8, u8)>> {
    proptest::collection::hash_set((0u8..6, 0u8..4), 0..12)
        .prop_map(|s| s.into_iter().collect::<Vec<_>>())
        .prop_shuffle()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn persisting_contacts_keep_their_impulse_and_new_ones_start_at_zero(
        previous in ids(),
        current in ids(),
        rows in 1usize..5,
        seed in 0u64..1000,
    ) {
        let r_prev: Vec<f64> =
            (0..rows * previous.len()).map(|i| (i as f64 + 1.0) * (seed as f64 + 0.5)).collect();
        let r = by_identity(&previous, &r_prev, &current, rows).unwrap();
        prop_assert_eq!(r.len(), rows * current.len());
        let before: HashSet<_> = previous.iter().collect();
        for (c, k) in current.iter().enumerate() {
            let got = &r.as_slice()[rows * c..rows * (c + 1)];
            match previous.iter().position(|p| p == k) {
                Some(p) => prop_assert_eq!(got, &r_prev[rows * p..rows * (p + 1)]),
                None => {
                    prop_assert!(!before.contains(k));
                    prop_assert!(got.iter().all(|v| *v == 0.0));
                }
            }
        }
    }
}

#[test]
fn bad_previous_answers_are_refused() {
    assert!(by_identity(&[1, 2], &[0.0; 5], &[1], 3).is_err());
    assert!(by_identity(&[1], &[0.0, f64::NAN, 0.0], &[1], 3).is_err());
    assert!(given(vec![0.0; 2], 3).is_err());
    assert!(given(vec![0.0, f64::INFINITY, 0.0], 3).is_err());
    assert_eq!(given(vec![1.0, 2.0], 2).unwrap().as_slice(), &[1.0, 2.0]);
}

/// The same problem solved again from its own answer, with contacts renumbered: the warm
/// start carries the answer over, and the solve converges at once.
#[test]
fn a_converged_answer_renumbered_is_a_converged_start() {
    let w = DMatrix::from_fn(6, 6, |i, j| match (i == j, (i + j) % 2 == 0) {
        (true, _) => 2.0,
        (false, true) => 0.3,
        _ => 0.0,
    });
    let q = [-1.0, 0.4, -0.2, -0.5, 0.1, 0.3];
    let fc = |w: DMatrix<f64>, q: Vec<f64>| {
        AnyProblem::Friction(
            FrictionContact::new(
                w.into(),
                DVector::from_vec(q),
                DVector::from_vec(vec![0.5, 0.5]),
                FrictionKind::Coulomb,
            )
            .unwrap(),
        )
    };
    let params = Params {
        tol: 1e-10,
        ..Default::default()
    };
    let choice: Choice = "nsgs".parse().unwrap();
    let first = solve(
        &fc(w.clone(), q.to_vec()),
        &choice,
        DVector::zeros(6),
        &params,
        &mut no_observer(),
    );
    assert_eq!(first.status(), "converged");
    // The next step lists the two contacts the other way round.
    let swap = |i: usize| if i < 3 { i + 3 } else { i - 3 };
    let w2 = DMatrix::from_fn(6, 6, |i, j| w[(swap(i), swap(j))]);
    let q2: Vec<f64> = (0..6).map(|i| q[swap(i)]).collect();
    let start = by_identity(
        &["left", "right"],
        first.x.as_slice(),
        &["right", "left"],
        3,
    )
    .unwrap();
    let again = solve(&fc(w2, q2), &choice, start, &params, &mut no_observer());
    assert_eq!(again.status(), "converged");
    assert_eq!(
        again.info().unwrap().iterations,
        0,
        "the start was already the answer"
    );
}
