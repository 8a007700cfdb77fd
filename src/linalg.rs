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

use crate::error::ProblemError;
use crate::matrix::Matrix;

/// Components of at most this many unknowns are also factorised densely, for
/// [`SpdFactor::solve_columns`].
const SMALL_COMPONENT: usize = 64;

/// A sparse `L L^T` factorisation of a symmetric positive definite matrix.
///
/// It also records the connected components of the matrix's sparsity graph (a rigid body's
/// 6x6 block is one), so that `M^-1 H` can be formed component by component in time
/// linear in the size of `H` when `M` is block diagonal.
pub struct SpdFactor {
    n: usize,
    llt: Llt<usize, f64>,
    /// Unknowns of each component, ascending.
    components: Vec<Vec<usize>>,
    /// Component of each unknown.
    component_of: Vec<usize>,
    /// Dense Cholesky factors of the small components.
    dense: Vec<Option<nalgebra::Cholesky<f64, nalgebra::Dyn>>>,
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
        let (components, component_of) = components(m);
        let dense = components
            .iter()
            .map(|dofs| {
                if dofs.len() > SMALL_COMPONENT {
                    return Ok(None);
                }
                let block = nalgebra::DMatrix::from_fn(dofs.len(), dofs.len(), |i, j| {
                    m.get(dofs[i], dofs[j])
                });
                nalgebra::Cholesky::new(block)
                    .map(Some)
                    .ok_or(ProblemError::NotPositiveDefinite { what })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SpdFactor {
            n,
            llt,
            components,
            component_of,
            dense,
        })
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

    /// `M^-1 H` for a sparse `H` (`n x k`), keeping only entries that are not exactly
    /// zero. Component by component: a small component (a rigid body) solves its block of
    /// `H` densely; a large one (a finite-element mesh) solves each column of `H` that
    /// touches it with the sparse factor. For block-diagonal `M` the cost is linear in the
    /// size of `H` and the result has `H`'s block sparsity.
    pub fn solve_columns(&self, h: &Matrix) -> CsrMatrix<f64> {
        let k = h.ncols();
        let mut coo = CooMatrix::new(self.n, k);
        // Rows of H grouped by component.
        let mut rows_of: Vec<Vec<usize>> = vec![Vec::new(); self.components.len()];
        for i in 0..self.n {
            rows_of[self.component_of[i]].push(i);
        }
        let mut col_slot = vec![usize::MAX; k];
        for (c, dofs) in self.components.iter().enumerate() {
            // The columns of H with a nonzero in this component.
            let mut cols = Vec::new();
            for &i in &rows_of[c] {
                h.for_each_in_row(i, |j, v| {
                    if v != 0.0 && col_slot[j] == usize::MAX {
                        col_slot[j] = cols.len();
                        cols.push(j);
                    }
                });
            }
            if cols.is_empty() {
                continue;
            }
            let local: std::collections::HashMap<usize, usize> =
                dofs.iter().enumerate().map(|(a, &d)| (d, a)).collect();
            match &self.dense[c] {
                Some(chol) => {
                    let mut rhs = nalgebra::DMatrix::zeros(dofs.len(), cols.len());
                    for &i in &rows_of[c] {
                        h.for_each_in_row(i, |j, v| {
                            if v != 0.0 {
                                rhs[(local[&i], col_slot[j])] += v;
                            }
                        });
                    }
                    chol.solve_mut(&mut rhs);
                    for (b, &j) in cols.iter().enumerate() {
                        for (a, &d) in dofs.iter().enumerate() {
                            let v = rhs[(a, b)];
                            if v != 0.0 {
                                coo.push(d, j, v);
                            }
                        }
                    }
                }
                None => {
                    let mut col = vec![0.0; self.n];
                    for &j in &cols {
                        col.iter_mut().for_each(|v| *v = 0.0);
                        for &i in &rows_of[c] {
                            h.for_each_in_row(i, |jj, v| {
                                if jj == j {
                                    col[i] += v;
                                }
                            });
                        }
                        self.solve_in_place(&mut col);
                        for &d in dofs {
                            if col[d] != 0.0 {
                                coo.push(d, j, col[d]);
                            }
                        }
                    }
                }
            }
            for &j in &cols {
                col_slot[j] = usize::MAX;
            }
        }
        CsrMatrix::from(&coo)
    }
}

/// Connected components of the sparsity graph of a square matrix: `(components, component
/// of each unknown)`, components sorted by their smallest unknown.
fn components(m: &Matrix) -> (Vec<Vec<usize>>, Vec<usize>) {
    let n = m.nrows();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for i in 0..n {
        m.for_each_in_row(i, |j, v| {
            if v != 0.0 && j != i {
                let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                if a != b {
                    parent[a.max(b)] = a.min(b);
                }
            }
        });
    }
    let mut id = vec![usize::MAX; n];
    let mut comps: Vec<Vec<usize>> = Vec::new();
    let mut of = vec![0; n];
    for i in 0..n {
        let r = find(&mut parent, i);
        if id[r] == usize::MAX {
            id[r] = comps.len();
            comps.push(Vec::new());
        }
        of[i] = id[r];
        comps[id[r]].push(i);
    }
    (comps, of)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    #[test]
    fn solve_columns_matches_dense_inverse_for_small_and_large_components() {
        // two 2x2 blocks (small components) and one 70x70 tridiagonal block (large)
        let n = 74;
        let mut m = DMatrix::<f64>::zeros(n, n);
        m[(0, 0)] = 4.0;
        m[(0, 1)] = 1.0;
        m[(1, 0)] = 1.0;
        m[(1, 1)] = 3.0;
        m[(2, 2)] = 2.0;
        m[(3, 3)] = 5.0;
        m[(2, 3)] = -1.0;
        m[(3, 2)] = -1.0;
        for i in 4..n {
            m[(i, i)] = 3.0;
            if i + 1 < n {
                m[(i, i + 1)] = -1.0;
                m[(i + 1, i)] = -1.0;
            }
        }
        let h = DMatrix::<f64>::from_fn(n, 5, |i, j| {
            if (i * 7 + j * 3) % 5 == 0 {
                1.0 + i as f64 * 0.1
            } else {
                0.0
            }
        });
        let f = SpdFactor::new("M", &Matrix::Dense(m.clone())).unwrap();
        let t = Matrix::Sparse(f.solve_columns(&Matrix::Dense(h.clone()))).to_dense();
        let expect = m.clone().cholesky().unwrap().solve(&h);
        assert!((t - expect).amax() < 1e-12);
    }

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
