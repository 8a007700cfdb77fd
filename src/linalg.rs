//! Linear algebra the project does not write itself: a sparse Cholesky factorisation of
//! a symmetric positive definite matrix, from `faer` (fill-reducing ordering, supernodal
//! or simplicial as faer decides).
//!
//! The symbolic analysis is done once in [`SpdFactor::new`]; solves reuse it.

use faer::Side;
use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Llt, SymbolicLlt};
use faer::sparse::{SparseColMat, Triplet};
use nalgebra::DVector;
use nalgebra_sparse::{CooMatrix, CsrMatrix};

use crate::matrix::Matrix;
use crate::problem::ProblemError;

/// A sparse `L L^T` factorisation of a symmetric positive definite matrix.
pub struct SpdFactor {
    n: usize,
    llt: Llt<usize, f64>,
}

impl std::fmt::Debug for SpdFactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpdFactor").field("n", &self.n).finish()
    }
}

impl SpdFactor {
    /// Factorises `m` (`n x n`). Only the lower triangle is read; symmetry is not checked
    /// here (the callers check it, with a named error).
    ///
    /// # Errors
    /// [`ProblemError::NotSquare`] or [`ProblemError::NotPositiveDefinite`] (`what` names
    /// the matrix in the message).
    pub fn new(what: &'static str, m: &Matrix) -> Result<Self, ProblemError> {
        if m.nrows() != m.ncols() {
            return Err(ProblemError::NotSquare {
                what,
                rows: m.nrows(),
                cols: m.ncols(),
            });
        }
        let n = m.nrows();
        let mut triplets = Vec::with_capacity(m.nnz());
        for i in 0..n {
            m.for_each_in_row(i, |j, v| {
                if j <= i && v != 0.0 {
                    triplets.push(Triplet::new(i, j, v));
                }
            });
        }
        let mat = SparseColMat::<usize, f64>::try_new_from_triplets(n, n, &triplets)
            .map_err(|_| ProblemError::NotPositiveDefinite { what })?;
        let symbolic = SymbolicLlt::try_new(mat.symbolic(), Side::Lower)
            .map_err(|_| ProblemError::NotPositiveDefinite { what })?;
        let llt = Llt::try_new_with_symbolic(symbolic, mat.as_ref(), Side::Lower)
            .map_err(|_| ProblemError::NotPositiveDefinite { what })?;
        Ok(SpdFactor { n, llt })
    }

    /// Dimension `n`.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// Solves `M x = rhs` in place (`rhs` has `n` entries).
    pub fn solve_in_place(&self, rhs: &mut [f64]) {
        assert_eq!(rhs.len(), self.n, "SpdFactor::solve_in_place: wrong length");
        let mat = faer::MatMut::from_column_major_slice_mut(rhs, self.n, 1);
        self.llt.solve_in_place(mat);
    }

    /// Returns `M^-1 rhs`.
    pub fn solve(&self, rhs: &DVector<f64>) -> DVector<f64> {
        let mut x = rhs.clone();
        self.solve_in_place(x.as_mut_slice());
        x
    }

    /// `M^-1 H` for a sparse `H` (`n x k`), column by column, keeping only entries that
    /// are not exactly zero. When `M` is block diagonal (rigid bodies) the result has the
    /// sparsity of `H`; in general it may fill in.
    pub fn solve_columns(&self, h: &Matrix) -> CsrMatrix<f64> {
        let k = h.ncols();
        // Gather the columns of H.
        let ht = h.transpose();
        let mut coo = CooMatrix::new(self.n, k);
        let mut col = vec![0.0; self.n];
        for j in 0..k {
            col.iter_mut().for_each(|v| *v = 0.0);
            let mut any = false;
            ht.for_each_in_row(j, |i, v| {
                col[i] += v;
                any = true;
            });
            if !any {
                continue;
            }
            self.solve_in_place(&mut col);
            for (i, v) in col.iter().enumerate() {
                if *v != 0.0 {
                    coo.push(i, j, *v);
                }
            }
        }
        CsrMatrix::from(&coo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    #[test]
    fn solves_spd_system_and_rejects_indefinite() {
        let a = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.0, 1.0, 3.0, 1.0, 0.0, 1.0, 2.0]);
        let f = SpdFactor::new("M", &Matrix::Dense(a.clone())).unwrap();
        let b = DVector::from_vec(vec![1.0, 2.0, 3.0]);
        let x = f.solve(&b);
        assert!((&a * &x - &b).amax() < 1e-14);
        let bad = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0]);
        assert!(matches!(
            SpdFactor::new("M", &Matrix::Dense(bad)),
            Err(ProblemError::NotPositiveDefinite { .. })
        ));
    }
}
