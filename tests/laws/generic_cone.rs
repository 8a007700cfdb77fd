//! Law (chapter "The generic mechanical problem"): the projection onto the isotropic unit
//! second-order cone `K` of dimension 2..6 is idempotent, nonexpansive, and gives Moreau's
//! decomposition `x = P_K(x) - P_K(-x)` (`K` is self-dual, so `P_{K°}(x) = -P_K(-x)`), with
//! the two parts orthogonal; its B-subdifferential element ([`project_with_jacobian`])
//! equals central finite differences away from the region boundaries.

use nalgebra::{DMatrix, DVector};
use nonsmooth::generic::cone::{project_on_isotropic_cone, project_with_jacobian};
use proptest::prelude::*;

fn proj(x: &[f64]) -> Vec<f64> {
    let mut p = vec![0.0; x.len()];
    project_on_isotropic_cone(x, 1.0, &mut p);
    p
}

fn vec_of_dim() -> impl Strategy<Value = Vec<f64>> {
    (2..=6usize).prop_flat_map(|d| prop::collection::vec(-2.0..2.0f64, d))
}

fn dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).powi(2))
        .sum::<f64>()
        .sqrt()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn idempotent_and_moreau(x in vec_of_dim()) {
        let p = proj(&x);
        prop_assert!(dist(&proj(&p), &p) <= 1e-14);
        let neg: Vec<f64> = x.iter().map(|v| -v).collect();
        let pn = proj(&neg);
        let sum: Vec<f64> = p.iter().zip(&pn).map(|(a, b)| a - b).collect();
        prop_assert!(dist(&sum, &x) <= 1e-13, "{x:?}: {p:?} - {pn:?}");
        let dot: f64 = p.iter().zip(&pn).map(|(a, b)| a * b).sum();
        prop_assert!(dot.abs() <= 1e-13);
        // p in the cone
        let t: f64 = p[1..].iter().map(|v| v * v).sum::<f64>().sqrt();
        prop_assert!(t <= p[0] * (1.0 + 1e-14) + 1e-15);
    }

    #[test]
    fn nonexpansive(
        (x, y) in (2..=6usize).prop_flat_map(|d| (
            prop::collection::vec(-2.0..2.0f64, d),
            prop::collection::vec(-2.0..2.0f64, d),
        )),
    ) {
        prop_assert!(dist(&proj(&x), &proj(&y)) <= dist(&x, &y) * (1.0 + 1e-14) + 1e-15);
    }

    #[test]
    fn jacobian_is_the_derivative(x in vec_of_dim(), m in 0.1..3.0f64) {
        let d = x.len();
        let s: f64 = x[1..].iter().map(|v| v * v).sum::<f64>().sqrt();
        // away from the boundaries s = m x_n and m s = -x_n, and from s = 0
        prop_assume!((s - m * x[0]).abs() > 1e-3 && (m * s + x[0]).abs() > 1e-3 && s > 1e-3);
        let mut p = vec![0.0; d];
        let mut jac = DMatrix::zeros(d, d);
        project_with_jacobian(&x, m, &mut p, &mut jac);
        let h = 1e-6;
        for j in 0..d {
            let (mut a, mut b) = (x.clone(), x.clone());
            a[j] += h;
            b[j] -= h;
            let (mut pa, mut pb) = (vec![0.0; d], vec![0.0; d]);
            project_on_isotropic_cone(&a, m, &mut pa);
            project_on_isotropic_cone(&b, m, &mut pb);
            let fd = (DVector::from_vec(pa) - DVector::from_vec(pb)) / (2.0 * h);
            for i in 0..d {
                prop_assert!((fd[i] - jac[(i, j)]).abs() <= 1e-6, "({i},{j}) fd {} jac {}", fd[i], jac[(i, j)]);
            }
        }
    }
}
