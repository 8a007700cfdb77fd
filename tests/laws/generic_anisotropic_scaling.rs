//! Law (chapter "The generic mechanical problem", the scaling to the unit cone): the CCP
//! with elliptic cones `mu = [a, b, ..]` and Delassus `W` is the isotropic unit-`mu` CCP
//! with `W̃ = S W S`, `q̃ = S q`, `S = blockdiag(1, diag(1, mu))`: `gmp-newton`'s answers
//! satisfy `r = S r̃` (the CCP with SPD `W` is a strictly convex program, so each answer is
//! unique).

use crate::strategies;

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::generic::{Block, GenericMechanical};
use nonsmooth::problem::{AnyProblem, FrictionKind};
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::{Params, no_observer};
use proptest::prelude::*;
use strategies::spd;

fn answer(w: DMatrix<f64>, q: DVector<f64>, blocks: Vec<Block>) -> DVector<f64> {
    let p = GenericMechanical::new(Matrix::Dense(w), q, blocks, FrictionKind::Ccp).unwrap();
    let n = p.dim();
    let choice: Choice = "gmp-newton".parse().unwrap();
    let params = Params {
        tol: 1e-13,
        max_iter: 500,
        ..Default::default()
    };
    let out = solve(
        &AnyProblem::Generic(p),
        &choice,
        DVector::zeros(n),
        &params,
        &mut no_observer(),
    );
    assert_eq!(
        out.status(),
        "converged",
        "{:?}",
        out.info().map(|i| i.error)
    );
    out.x
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn elliptic_is_scaled_isotropic(
        w in spd(8),
        q in prop::collection::vec(-1.0..1.0f64, 8),
        mu3 in prop::collection::vec(0.05..2.0f64, 2),
        mu4 in prop::collection::vec(0.05..2.0f64, 3),
    ) {
        // rows: a limit (1), an anisotropic condim 3 (3), an anisotropic condim 4 (4)
        let q = DVector::from_vec(q);
        let blocks = vec![
            Block::Unilateral,
            Block::Contact { mu: mu3.clone() },
            Block::Contact { mu: mu4.clone() },
        ];
        let mut sd = vec![1.0, 1.0];
        sd.extend(mu3.iter());
        sd.push(1.0);
        sd.extend(mu4.iter());
        let sm = DMatrix::from_diagonal(&DVector::from_vec(sd));
        let unit: Vec<Block> = blocks
            .iter()
            .map(|b| match b {
                Block::Contact { mu } => Block::Contact { mu: vec![1.0; mu.len()] },
                b => b.clone(),
            })
            .collect();
        let r = answer(w.clone(), q.clone(), blocks);
        let rt = answer(&sm * &w * &sm, &sm * &q, unit);
        let back = &sm * &rt;
        prop_assert!((&r - &back).amax() <= 1e-8 * (1.0 + r.amax()), "r {r} S r̃ {back}");
    }
}
