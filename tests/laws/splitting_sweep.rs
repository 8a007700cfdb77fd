//! Law (Erleben 2009 slides eq. 20-34): one projected sweep of Jacobi, Gauss-Seidel or SOR
//! solves the splitting subproblem `LCP(M, b - N x^k)` exactly, with `A = M - N` from
//! `splitting_matrices`: the sweep code is the derivation. A sweep of the boxed LCP keeps
//! every friction row inside the box of its contact's current normal value. And a sweep
//! does not see a symmetric diagonal scaling of the problem: on `(S A S, S b)` it makes
//! the iterates `S^-1 x` of the sweeps on `(A, b)`.

use crate::strategies;

use nalgebra::DVector;
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::{BoxedLcp, Lcp, RowBound};
use nonsmooth::splitting::{Splitting, splitting_matrices, sweep_boxed, sweep_lcp};
use proptest::prelude::*;
use strategies::{hplus, spd};

fn method() -> impl Strategy<Value = Splitting> {
    prop_oneof![
        (0.2..1.0f64).prop_map(|omega| Splitting::Jacobi { omega }),
        Just(Splitting::GaussSeidel),
        (0.1..1.9f64).prop_map(|omega| Splitting::Sor { omega }),
    ]
}

// ANCHOR: subproblem
proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn sweep_solves_the_splitting_subproblem(
        a in prop_oneof![spd(5), hplus(5)],
        b in prop::collection::vec(-2.0..2.0f64, 5),
        xk in prop::collection::vec(prop_oneof![Just(0.0), 0.0..2.0f64], 5),
        method in method(),
    ) {
        let lcp = Lcp::new(Matrix::Dense(a.clone()), DVector::from_vec(b.clone())).unwrap();
        let xk = DVector::from_vec(xk);
        let mut x = xk.clone();
        sweep_lcp(&lcp, &mut x, method);
        let (m, n) = splitting_matrices(lcp.a(), method);
        prop_assert!((&m - &n - &a).amax() < 1e-14);
        // x^{k+1} solves LCP(M, c) with c = b - N x^k
        let c = DVector::from_vec(b) - &n * &xk;
        let w = &m * &x + &c;
        let scale = 1.0 + c.amax() + (&m * &x).amax();
        for i in 0..5 {
            prop_assert!(x[i] >= 0.0);
            prop_assert!(w[i] >= -1e-12 * scale);
            prop_assert!(x[i].min(w[i]).abs() <= 1e-12 * scale, "row {} x {} w {}", i, x[i], w[i]);
        }
    }
    // ANCHOR_END: subproblem

    // ANCHOR: boxed

    #[test]
    fn boxed_sweep_clamps_to_the_current_friction_box(
        a in spd(6),
        b in prop::collection::vec(-2.0..2.0f64, 6),
        mu in 0.0..1.0f64,
    ) {
        // two contacts [n, t1, t2]: tangents bounded by mu times their own normal
        let bounds = vec![
            RowBound::Fixed { lo: 0.0, hi: f64::INFINITY },
            RowBound::Friction { dep: 0, factor: mu },
            RowBound::Friction { dep: 0, factor: mu },
            RowBound::Fixed { lo: 0.0, hi: f64::INFINITY },
            RowBound::Friction { dep: 3, factor: mu },
            RowBound::Friction { dep: 3, factor: mu },
        ];
        let blcp = BoxedLcp::new(Matrix::Dense(a), DVector::from_vec(b), bounds).unwrap();
        let mut x = DVector::zeros(6);
        for _ in 0..3 {
            sweep_boxed(&blcp, &mut x, Splitting::GaussSeidel);
            for c in 0..2 {
                let n = x[3 * c];
                prop_assert!(n >= 0.0);
                prop_assert!(x[3 * c + 1].abs() <= mu * n * (1.0 + 1e-15));
                prop_assert!(x[3 * c + 2].abs() <= mu * n * (1.0 + 1e-15));
            }
        }
    }
    // ANCHOR_END: boxed

    // ANCHOR: scaling
    #[test]
    fn sweeps_do_not_see_a_diagonal_scaling(
        a in prop_oneof![spd(5), hplus(5)],
        b in prop::collection::vec(-2.0..2.0f64, 5),
        x0 in prop::collection::vec(0.0..2.0f64, 5),
        s in prop::collection::vec(0.1..10.0f64, 5),
        method in method(),
    ) {
        let s = DVector::from_vec(s);
        let sd = nalgebra::DMatrix::from_diagonal(&s);
        let lcp = Lcp::new(Matrix::Dense(a.clone()), DVector::from_vec(b.clone())).unwrap();
        let scaled = Lcp::new(Matrix::Dense(&sd * &a * &sd), DVector::from_vec(b).component_mul(&s)).unwrap();
        let mut x = DVector::from_vec(x0);
        let mut y = x.component_div(&s);
        for _ in 0..5 {
            sweep_lcp(&lcp, &mut x, method);
            sweep_lcp(&scaled, &mut y, method);
            let back = y.component_mul(&s);
            prop_assert!((&back - &x).amax() <= 1e-12 * (1.0 + x.amax()), "{} vs {}", back, x);
        }
    }
    // ANCHOR_END: scaling
}
