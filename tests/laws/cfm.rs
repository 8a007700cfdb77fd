//! Constraint force mixing (Erleben 2007 eq. 41-44, `src/stepping/cfm.rs`): the LCP with
//! `A + gamma I` is the regularised quadratic programme, and damping never strengthens
//! the constraint forces.

use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::{AnyProblem, Lcp};
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::Params;
use nonsmooth::stepping::cfm::with_cfm;
use proptest::prelude::*;

/// `A = B B^T` with `B` of `n x k`, `k < n` possible: symmetric positive semidefinite,
/// singular when `k < n` (redundant contacts).
fn semidefinite(n: usize, k: usize, entries: &[f64]) -> DMatrix<f64> {
    let b = DMatrix::from_fn(n, k, |i, j| entries[(i * k + j) % entries.len()]);
    &b * b.transpose()
}

fn lemke(a: &DMatrix<f64>, b: &DVector<f64>) -> DVector<f64> {
    let p = AnyProblem::Lcp(Lcp::new(Matrix::Dense(a.clone()), b.clone()).unwrap());
    let params = Params {
        tol: 1e-12,
        ..Params::default()
    };
    let out = solve(
        &p,
        &Choice::new("lemke").unwrap(),
        DVector::zeros(b.len()),
        &params,
        &mut |_| ControlFlow::Continue(()),
    );
    assert!(out.result.is_ok(), "{:?}", out.status());
    out.x
}

/// `f(x) = 1/2 x^T A x + x^T b + gamma/2 |x|^2`, eq. 42 with the halves.
fn objective(a: &DMatrix<f64>, b: &DVector<f64>, gamma: f64, x: &DVector<f64>) -> f64 {
    0.5 * x.dot(&(a * x)) + x.dot(b) + 0.5 * gamma * x.norm_squared()
}

/// The QP minimised independently of any LCP method: projected gradient descent with
/// step `1/L` (`L` the largest eigenvalue of `A + gamma I`), which converges linearly
/// because the objective is strongly convex with modulus `gamma`.
fn projected_gradient(a: &DMatrix<f64>, b: &DVector<f64>, gamma: f64) -> DVector<f64> {
    let ap = a + DMatrix::identity(a.nrows(), a.ncols()) * gamma;
    let l = ap.symmetric_eigenvalues().max();
    let mut x = DVector::zeros(b.len());
    for _ in 0..200_000 {
        let g = &ap * &x + b;
        let next = (&x - g / l).map(|v| v.max(0.0));
        let moved = (&next - &x).norm();
        x = next;
        if moved < 1e-15 {
            break;
        }
    }
    x
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Eq. 41-43: the solution of the LCP `(A + gamma I, b)` minimises the regularised
    /// QP over `x >= 0`; it agrees with an independent QP solve and no feasible
    /// perturbation lowers the objective.
    #[test]
    fn cfm_lcp_is_the_regularised_qp(
        n in 2usize..8,
        k in 1usize..8,
        entries in prop::collection::vec(-1.0f64..1.0, 64),
        b in prop::collection::vec(-1.0f64..1.0, 8),
        gamma in 0.01f64..1.0,
        dirs in prop::collection::vec(-1.0f64..1.0, 32),
    ) {
        let a = semidefinite(n, k, &entries);
        let b = DVector::from_iterator(n, b.into_iter().take(n));
        let cfm = with_cfm(&Matrix::Dense(a.clone()), gamma).to_dense();
        prop_assert_eq!(&cfm, &(&a + DMatrix::identity(n, n) * gamma));
        let x = lemke(&cfm, &b);
        let y = projected_gradient(&a, &b, gamma);
        prop_assert!((&x - &y).norm() <= 1e-7 * (1.0 + x.norm()), "lemke {x} qp {y}");
        let f = objective(&a, &b, gamma, &x);
        for d in dirs.chunks(n).filter(|d| d.len() == n) {
            let z = (&x + DVector::from_column_slice(d) * 1e-3).map(|v| v.max(0.0));
            prop_assert!(objective(&a, &b, gamma, &z) >= f - 1e-12);
        }
    }

    /// Damping weakens the constraint forces: `|lambda(gamma)|` does not grow with
    /// `gamma` (the last term of eq. 42 pulls the norm down).
    #[test]
    fn damping_never_strengthens_the_impulses(
        n in 2usize..8,
        k in 1usize..8,
        entries in prop::collection::vec(-1.0f64..1.0, 64),
        b in prop::collection::vec(-1.0f64..1.0, 8),
        g1 in 0.001f64..1.0,
        factor in 1.0f64..10.0,
    ) {
        let a = semidefinite(n, k, &entries);
        let b = DVector::from_iterator(n, b.into_iter().take(n));
        let g2 = g1 * factor;
        let x1 = lemke(&(&a + DMatrix::identity(n, n) * g1), &b);
        let x2 = lemke(&(&a + DMatrix::identity(n, n) * g2), &b);
        prop_assert!(x2.norm() <= x1.norm() * (1.0 + 1e-9) + 1e-12, "{} > {}", x2.norm(), x1.norm());
    }
}

#[test]
fn sparse_cfm_adds_gamma_to_the_diagonal_only() {
    let a =
        Matrix::from_triplets(3, 3, &[(0, 0, 2.0), (0, 2, 1.0), (2, 0, 1.0), (1, 1, 0.0)]).unwrap();
    let c = with_cfm(&a, 0.5).to_dense();
    let expected = DMatrix::from_row_slice(3, 3, &[2.5, 0.0, 1.0, 0.0, 0.5, 0.0, 1.0, 0.0, 0.5]);
    assert_eq!(c, expected);
    assert_eq!(with_cfm(&a, 0.0).to_dense(), a.to_dense());
}
