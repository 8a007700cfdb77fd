//! The contact Jacobian `J` (`3nc x 6nb`) and the torsion rows, built from the `3 x 6`
//! block of each contact side: `[+-C^T  +-(r x C)^T]` in the columns of the side's body
//! (Erleben 2007 eq. 2, 6, 11-13; Erleben 2017 appendix A).
//!
//! Checked by `tests/laws/jacobian.rs`.

use nalgebra::Matrix3;
use nalgebra_sparse::CsrMatrix;

use super::push_nonzero;
use crate::matrix::Matrix;

/// The `3 x 6` block of one contact side: rows `[n, t1, t2]`, columns `[v, omega]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct SideBlock {
    /// Block index of the body.
    pub(super) k: usize,
    /// `+-C^T`: the linear part.
    pub(super) lin: Matrix3<f64>,
    /// `+-(r x C)^T`: the angular part.
    pub(super) ang: Matrix3<f64>,
}

/// Builds the CSR Jacobian: row `3c + i`, columns `6k..6k+6` of each dynamic side.
pub(super) fn build_jacobian(
    sides: &[([Option<SideBlock>; 2], usize)],
    nc: usize,
    nb: usize,
) -> Matrix {
    let mut offsets = Vec::with_capacity(3 * nc + 1);
    let mut cols = Vec::with_capacity(3 * nc * 12);
    let mut vals = Vec::with_capacity(3 * nc * 12);
    offsets.push(0);
    for (found, count) in sides {
        for i in 0..3 {
            for s in found[..*count].iter().flatten() {
                for jj in 0..3 {
                    push_nonzero(&mut cols, &mut vals, 6 * s.k + jj, s.lin[(i, jj)]);
                }
                for jj in 0..3 {
                    push_nonzero(&mut cols, &mut vals, 6 * s.k + 3 + jj, s.ang[(i, jj)]);
                }
            }
            offsets.push(cols.len());
        }
    }
    Matrix::Sparse(
        CsrMatrix::try_from_csr_data(3 * nc, 6 * nb, offsets, cols, vals)
            .expect("rows are built with sorted, unique, in-range columns"),
    )
}

/// Builds the CSR torsion rows: row `c` holds `± n^T` in the angular columns of each
/// dynamic side (the first row of the side's linear block is `± n^T`).
pub(super) fn build_torsion_jacobian(
    sides: &[([Option<SideBlock>; 2], usize)],
    nc: usize,
    nb: usize,
) -> Matrix {
    let mut offsets = Vec::with_capacity(nc + 1);
    let mut cols = Vec::with_capacity(nc * 6);
    let mut vals = Vec::with_capacity(nc * 6);
    offsets.push(0);
    for (found, count) in sides {
        for s in found[..*count].iter().flatten() {
            for jj in 0..3 {
                push_nonzero(&mut cols, &mut vals, 6 * s.k + 3 + jj, s.lin[(0, jj)]);
            }
        }
        offsets.push(cols.len());
    }
    Matrix::Sparse(
        CsrMatrix::try_from_csr_data(nc, 6 * nb, offsets, cols, vals)
            .expect("rows are built with sorted, unique, in-range columns"),
    )
}
