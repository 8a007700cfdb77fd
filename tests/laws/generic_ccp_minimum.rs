//! Law (chapter "The generic mechanical problem"): for SPD `W` the CCP of a generic
//! mechanical problem is the optimality condition of `min ½ r'Wr + q'r` over the product of
//! the blocks' sets (free rows, `r >= 0`, `[lo, hi]`, elliptic cones). `gmp-newton`'s
//! answer is feasible and no sampled feasible point has a lower objective.

use crate::strategies;

use nalgebra::DVector;
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::generic::{Block, GenericMechanical};
use nonsmooth::problem::{AnyProblem, FrictionKind};
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::{Params, no_observer};
use proptest::prelude::*;
use strategies::spd;

fn blocks() -> Vec<Block> {
    vec![
        Block::Equality,
        Block::Unilateral,
        Block::Interval { lo: -0.2, hi: 0.3 },
        Block::Contact { mu: vec![0.6, 0.6] },
        Block::Contact {
            mu: vec![0.4, 0.9, 0.05],
        },
    ]
}

/// A point of the blocks' sets from free numbers `z` (n entries in [-1, 1]).
fn feasible(z: &[f64]) -> Vec<f64> {
    let mut r = z.to_vec();
    r[1] = r[1].abs();
    r[2] = -0.2 + 0.5 * (z[2] + 1.0) / 2.0;
    for (a, mu) in [(3usize, vec![0.6, 0.6]), (6, vec![0.4, 0.9, 0.05])] {
        r[a] = z[a].abs();
        // scale the tangential part into the elliptic cone
        let t: f64 = mu
            .iter()
            .enumerate()
            .map(|(k, m)| (z[a + 1 + k] / m).powi(2))
            .sum::<f64>()
            .sqrt();
        let f = if t > r[a] { r[a] / t } else { 1.0 };
        for k in 0..mu.len() {
            r[a + 1 + k] = f * z[a + 1 + k];
        }
    }
    r
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn ccp_answer_minimises_the_program(
        w in spd(10),
        q in prop::collection::vec(-1.0..1.0f64, 10),
        samples in prop::collection::vec(prop::collection::vec(-1.0..1.0f64, 10), 50),
    ) {
        let p = GenericMechanical::new(Matrix::Dense(w.clone()), DVector::from_vec(q.clone()),
            blocks(), FrictionKind::Ccp).unwrap();
        let choice: Choice = "gmp-newton".parse().unwrap();
        let params = Params { tol: 1e-12, max_iter: 500, ..Default::default() };
        let out = solve(&AnyProblem::Generic(p), &choice, DVector::zeros(10), &params,
            &mut no_observer());
        prop_assert_eq!(out.status(), "converged");
        let q = DVector::from_vec(q);
        let obj = |r: &DVector<f64>| 0.5 * r.dot(&(&w * r)) + q.dot(r);
        let r = &out.x;
        // feasible (to rounding)
        prop_assert!(r[1] >= -1e-12 && r[2] >= -0.2 - 1e-12 && r[2] <= 0.3 + 1e-12);
        let best = obj(r);
        for z in &samples {
            let x = DVector::from_vec(feasible(z));
            prop_assert!(best <= obj(&x) + 1e-9, "answer {best} > sample {}", obj(&x));
            // and along the segment towards the sample (feasible by convexity)
            let mid = (r + &x) * 0.5;
            prop_assert!(best <= obj(&mid) + 1e-9);
        }
    }
}
