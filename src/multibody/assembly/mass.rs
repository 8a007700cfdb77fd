//! The block-diagonal mass matrix `M = diag(m 1_3, R I_body R^T)` and its inverse, as
//! per-body data and as a CSR matrix (Erleben 2007 eq. 17, Erleben 2017 eq. 59-60).

use nalgebra::Matrix3;
use nalgebra_sparse::CsrMatrix;

use super::push_nonzero;
use crate::matrix::Matrix;

/// Inverse mass data of one body block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct InvMass {
    pub(super) inv_m: f64,
    pub(super) inv_i: Matrix3<f64>,
}

/// A `6n x 6n` block-diagonal CSR matrix with blocks `diag(s 1_3, B)`.
pub(super) fn block_diagonal(blocks: impl ExactSizeIterator<Item = (f64, Matrix3<f64>)>) -> Matrix {
    let n = blocks.len();
    let mut offsets = Vec::with_capacity(6 * n + 1);
    let mut cols = Vec::with_capacity(12 * n);
    let mut vals = Vec::with_capacity(12 * n);
    offsets.push(0);
    for (k, (s, b)) in blocks.enumerate() {
        for i in 0..3 {
            push_nonzero(&mut cols, &mut vals, 6 * k + i, s);
            offsets.push(cols.len());
        }
        for i in 0..3 {
            for jj in 0..3 {
                push_nonzero(&mut cols, &mut vals, 6 * k + 3 + jj, b[(i, jj)]);
            }
            offsets.push(cols.len());
        }
    }
    Matrix::Sparse(
        CsrMatrix::try_from_csr_data(6 * n, 6 * n, offsets, cols, vals)
            .expect("rows are built with sorted, unique, in-range columns"),
    )
}
