//! Proptest strategies shared by the property tests: random matrices of the classes the
//! theorems need, and problems with a planted solution.
#![allow(dead_code)]

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::{FrictionContact, FrictionKind, Lcp};
use proptest::prelude::*;

/// A value in [-1, 1] with a fair chance of being exactly 0.
pub fn entry() -> impl Strategy<Value = f64> {
    prop_oneof![3 => -1.0..1.0f64, 1 => Just(0.0)]
}

/// A symmetric positive definite `n x n` matrix `B B^T + eps I` (eps in [0.05, 1]).
pub fn spd(n: usize) -> impl Strategy<Value = DMatrix<f64>> {
    (prop::collection::vec(-1.0..1.0f64, n * n), 0.05..1.0f64).prop_map(move |(v, eps)| {
        let b = DMatrix::from_vec(n, n, v);
        &b * b.transpose() + DMatrix::identity(n, n) * eps
    })
}

/// A nonsymmetric matrix with positive diagonal, strictly diagonally dominant by rows
/// (an H+-matrix, hence a P-matrix): every projected splitting method converges on it.
pub fn hplus(n: usize) -> impl Strategy<Value = DMatrix<f64>> {
    (
        prop::collection::vec(entry(), n * n),
        prop::collection::vec(0.1..1.0f64, n),
    )
        .prop_map(move |(v, margin)| {
            let mut a = DMatrix::from_vec(n, n, v);
            for i in 0..n {
                let off: f64 = (0..n).filter(|j| *j != i).map(|j| a[(i, j)].abs()).sum();
                a[(i, i)] = off + margin[i];
            }
            a
        })
}

/// Support pattern and magnitudes of a planted complementary pair `(x, w)`.
pub fn planted(n: usize) -> impl Strategy<Value = (DVector<f64>, DVector<f64>)> {
    (
        prop::collection::vec(any::<bool>(), n),
        prop::collection::vec(0.0..2.0f64, n),
    )
        .prop_map(move |(active, mag)| {
            let x = DVector::from_fn(n, |i, _| if active[i] { mag[i] } else { 0.0 });
            let w = DVector::from_fn(n, |i, _| if active[i] { 0.0 } else { mag[i] });
            (x, w)
        })
}

/// An LCP `LCP(A, w* - A x*)` whose solution `x*` is planted, with `A` from `mat`.
pub fn lcp_planted(
    mat: impl Strategy<Value = DMatrix<f64>>,
    n: usize,
) -> impl Strategy<Value = (Lcp, DVector<f64>)> {
    (mat, planted(n)).prop_map(|(a, (x, w))| {
        let b = &w - &a * &x;
        (Lcp::new(Matrix::Dense(a), b).unwrap(), x)
    })
}

/// A random frictional contact problem with `nc` contacts, `W` SPD, `mu` in [0, 1.2].
pub fn friction_problem(nc: usize, kind: FrictionKind) -> impl Strategy<Value = FrictionContact> {
    (
        spd(3 * nc),
        prop::collection::vec(-1.0..1.0f64, 3 * nc),
        prop::collection::vec(0.0..1.2f64, nc),
    )
        .prop_map(move |(w, q, mu)| {
            FrictionContact::new(
                Matrix::Dense(w),
                DVector::from_vec(q),
                DVector::from_vec(mu),
                kind,
            )
            .unwrap()
        })
}

/// A boxed LCP in the box model of `nc` contacts (rows `[n, t1, t2]`, the tangent rows
/// bounded by `±mu x_n`, `mu` in [0, 1]) with `A` from `mat` (`3nc x 3nc`) and `b` in
/// [-1, 1].
pub fn boxed_friction(
    mat: impl Strategy<Value = DMatrix<f64>>,
    nc: usize,
) -> impl Strategy<Value = nonsmooth::problem::BoxedLcp> {
    (
        mat,
        prop::collection::vec(-1.0..1.0f64, 3 * nc),
        prop::collection::vec(0.0..1.0f64, nc),
    )
        .prop_map(move |(a, b, mu)| {
            let fc = FrictionContact::new(
                Matrix::Dense(a),
                DVector::from_vec(b),
                DVector::from_vec(mu),
                FrictionKind::Coulomb,
            )
            .unwrap();
            nonsmooth::problem::BoxedLcp::from_friction_contact(&fc)
        })
}

/// A symmetric positive definite `n x n` matrix whose off-diagonal part is at most
/// `ratio` times the diagonal in every row (strictly diagonally dominant for `ratio < 1`).
pub fn spd_dominant(n: usize, ratio: f64) -> impl Strategy<Value = DMatrix<f64>> {
    (
        prop::collection::vec(-1.0..1.0f64, n * n),
        prop::collection::vec(0.5..2.0f64, n),
    )
        .prop_map(move |(v, d)| {
            let b = DMatrix::from_vec(n, n, v);
            let mut s = (&b + b.transpose()) * 0.5;
            for i in 0..n {
                s[(i, i)] = 0.0;
            }
            let mut a = DMatrix::zeros(n, n);
            for i in 0..n {
                let off: f64 = (0..n).map(|j| s[(i, j)].abs()).sum();
                a[(i, i)] = d[i];
                let scale = if off > 0.0 { ratio * d[i] / off } else { 0.0 };
                for j in 0..n {
                    if j != i {
                        a[(i, j)] = s[(i, j)] * scale;
                    }
                }
            }
            // symmetrise (keeps dominance: each row's scale is bounded by the smaller one)
            DMatrix::from_fn(n, n, |i, j| {
                if i == j {
                    a[(i, i)]
                } else if a[(i, j)].abs() <= a[(j, i)].abs() {
                    a[(i, j)]
                } else {
                    a[(j, i)]
                }
            })
        })
}
