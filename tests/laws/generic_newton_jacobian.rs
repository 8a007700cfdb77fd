//! Law (chapter "The generic mechanical problem"): the Newton matrix `H = I - D + C W̃` of
//! `gmp-newton` is the derivative of the scaled natural map `F(r̃)` (every block kind,
//! anisotropic contacts, a zero coefficient, Coulomb's De Saxcé shift and the CCP): it
//! equals central finite differences of `F` at points away from the kinks, which are
//! detected by comparing the two one-sided differences.

use crate::strategies;

use nalgebra::{DMatrix, DVector};
use nonsmooth::generic::natural::{BlockJacobians, Scaled};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::FrictionKind;
use nonsmooth::problem::generic::{Block, GenericMechanical};
use proptest::prelude::*;
use strategies::spd;

fn blocks() -> Vec<Block> {
    vec![
        Block::Equality,
        Block::Unilateral,
        Block::Interval { lo: -0.3, hi: 0.4 },
        Block::Contact { mu: vec![0.7, 0.7] },
        Block::Contact {
            mu: vec![0.5, 0.9, 0.0],
        },
        Block::Contact {
            mu: vec![0.8, 0.8, 0.05, 0.02, 0.02],
        },
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn newton_matrix_is_the_derivative(
        w in spd(16),
        q in prop::collection::vec(-1.0..1.0f64, 16),
        r in prop::collection::vec(-1.0..1.0f64, 16),
        coulomb in any::<bool>(),
    ) {
        let kind = if coulomb { FrictionKind::Coulomb } else { FrictionKind::Ccp };
        let p = GenericMechanical::new(Matrix::Dense(w), DVector::from_vec(q), blocks(), kind)
            .unwrap();
        let sc = Scaled::new(&p);
        let rt = sc.to_scaled(&DVector::from_vec(r));
        let n = p.dim();
        let mut f = DVector::zeros(n);
        let mut jac: BlockJacobians = Vec::new();
        sc.eval(&p, &rt, &mut f, Some(&mut jac));
        let mut h = DMatrix::<f64>::zeros(n, n);
        for (i, j, v) in sc.jacobian_triplets(&p, &jac, 0.0) {
            h[(i, j)] += v;
        }
        let step = 1e-7;
        let mut compared = 0;
        for j in 0..n {
            let (mut a, mut b) = (rt.clone(), rt.clone());
            a[j] += step;
            b[j] -= step;
            let (mut fa, mut fb) = (DVector::zeros(n), DVector::zeros(n));
            sc.eval(&p, &a, &mut fa, None);
            sc.eval(&p, &b, &mut fb, None);
            let fwd = (&fa - &f) / step;
            let bwd = (&f - &fb) / step;
            if (&fwd - &bwd).amax() > 1e-4 {
                continue; // a kink along this direction
            }
            compared += 1;
            let fd: DVector<f64> = (fa - fb) / (2.0 * step);
            for i in 0..n {
                prop_assert!((fd[i] - h[(i, j)]).abs() <= 1e-5 * (1.0 + h[(i, j)].abs()),
                    "H[{i},{j}] = {} but finite differences give {}", h[(i, j)], fd[i]);
            }
        }
        prop_assert!(compared > 0);
    }
}
