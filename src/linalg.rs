//! Linear algebra the project does not write itself, from `faer` and `nalgebra`:
//!
//! * [`SpdFactor`], a sparse Cholesky factorisation of a symmetric positive definite
//!   matrix (fill-reducing ordering, supernodal or simplicial as faer decides); the
//!   symbolic analysis is done once in [`SpdFactor::new`], solves reuse it;
//! * [`PatternLu`], the LU of square matrices that share one sparsity pattern (the Newton
//!   matrices of every Newton method of the crate): the pattern is analysed once (faer's
//!   `SymbolicLu`, COLAMD ordering), each new set of values is factorised numerically
//!   (`Lu::try_new_with_symbolic`) and solved; systems of at most a given size are solved
//!   by dense LU with partial pivoting instead (nalgebra), where the sparse bookkeeping
//!   costs more than the whole dense factorisation.

use faer::Side;
use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Llt, Lu, SymbolicLlt, SymbolicLu};
use faer::sparse::{Argsort, Pair, SparseColMat, SymbolicSparseColMat, Triplet};
use nalgebra::{DMatrix, DVector};
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

/// The dot product of row `i` of `a` and row `j` of `b` (two CSR matrices with the same
/// number of columns): row `i` of `a` is scattered into `scratch` (as long as the rows,
/// all zeros on entry and on return), then row `j` of `b` is gathered against it. This is
/// one entry `(A Bᵀ)_ij`; the velocity-space Gauss-Seidel and the PROX operator use it for
/// entries of the Delassus operator `W = Hᵀ M⁻¹ H` from `Hᵀ` and `(M⁻¹ H)ᵀ`.
///
/// # Panics
/// If `scratch` is shorter than the rows.
pub fn csr_row_dot(
    a: &CsrMatrix<f64>,
    i: usize,
    b: &CsrMatrix<f64>,
    j: usize,
    scratch: &mut [f64],
) -> f64 {
    let ra = a.row(i);
    for (k, v) in ra.col_indices().iter().zip(ra.values()) {
        scratch[*k] = *v;
    }
    let rb = b.row(j);
    let s = rb
        .col_indices()
        .iter()
        .zip(rb.values())
        .map(|(k, v)| scratch[*k] * v)
        .sum();
    for k in ra.col_indices() {
        scratch[*k] = 0.0;
    }
    s
}

// ANCHOR: pattern_lu
/// The LU factorisation of `n x n` matrices that share one sparsity pattern.
///
/// The pattern is the sequence of `(row, col)` positions of the values each
/// [`PatternLu::solve`] receives, in that order; a position given twice has its values
/// summed. For `n > dense_max` the pattern is analysed once when the `PatternLu` is made
/// (faer's symbolic LU with a fill-reducing column ordering); every solve then factorises
/// the new values numerically and solves. For `n <= dense_max` every solve assembles the
/// dense matrix and factorises it by LU with partial pivoting (nalgebra).
///
/// ```
/// use nalgebra::DVector;
/// use nonsmooth::linalg::PatternLu;
/// // [[2, 1], [0, 4]] x = [3, 4], sparse (dense_max 0) and dense (dense_max 10)
/// let pattern = [(0, 0), (0, 1), (1, 1)];
/// for dense_max in [0, 10] {
///     let lu = PatternLu::new(2, &pattern, dense_max).unwrap();
///     let x = lu.solve(&[2.0, 1.0, 4.0], &DVector::from_vec(vec![3.0, 4.0])).unwrap();
///     assert!((x[0] - 1.0).abs() < 1e-15 && (x[1] - 1.0).abs() < 1e-15);
/// }
/// ```
pub struct PatternLu {
    n: usize,
    pattern: Vec<(usize, usize)>,
    sparse: Option<SparseAnalysis>,
}

/// faer's symbolic structures of one pattern.
struct SparseAnalysis {
    symbolic: SymbolicSparseColMat<usize>,
    argsort: Argsort<usize>,
    lu: SymbolicLu<usize>,
}

impl std::fmt::Debug for PatternLu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternLu")
            .field("n", &self.n)
            .field("entries", &self.pattern.len())
            .field("sparse", &self.sparse.is_some())
            .finish()
    }
}

impl PatternLu {
    /// The factorisation of `n x n` matrices with values at `pattern`; dense LU when
    /// `n <= dense_max`.
    ///
    /// # Errors
    /// A position outside the matrix, or faer's symbolic analysis failing (the message
    /// says which).
    pub fn new(n: usize, pattern: &[(usize, usize)], dense_max: usize) -> Result<Self, String> {
        Self::new_unless(n, pattern, dense_max, |_| false).map(|lu| lu.expect("never refused"))
    }

    /// As [`PatternLu::new`], but `None` when `refuse` says no to the sparse pattern (a
    /// caller that would rather not factorise, for example when the factors would fill in
    /// too much), before the symbolic LU is computed. `refuse` is not asked for a dense
    /// system.
    ///
    /// # Errors
    /// As [`PatternLu::new`].
    pub fn new_unless(
        n: usize,
        pattern: &[(usize, usize)],
        dense_max: usize,
        refuse: impl FnOnce(&SymbolicSparseColMat<usize>) -> bool,
    ) -> Result<Option<Self>, String> {
        if let Some(&(i, j)) = pattern.iter().find(|(i, j)| *i >= n || *j >= n) {
            return Err(format!("position ({i}, {j}) is outside a {n} x {n} matrix"));
        }
        let sparse = if n <= dense_max {
            None
        } else {
            let pairs: Vec<Pair<usize, usize>> = pattern
                .iter()
                .map(|&(row, col)| Pair { row, col })
                .collect();
            let (symbolic, argsort) = SymbolicSparseColMat::try_new_from_indices(n, n, &pairs)
                .map_err(|e| format!("sparse pattern: {e:?}"))?;
            if refuse(&symbolic) {
                return Ok(None);
            }
            let lu = SymbolicLu::try_new(symbolic.as_ref())
                .map_err(|e| format!("symbolic LU: {e:?}"))?;
            Some(SparseAnalysis {
                symbolic,
                argsort,
                lu,
            })
        };
        Ok(Some(PatternLu {
            n,
            pattern: pattern.to_vec(),
            sparse,
        }))
    }

    /// Whether `pattern` is the pattern this was made for (then [`PatternLu::solve`]
    /// takes its values without a new analysis).
    pub fn has_pattern(&self, n: usize, pattern: impl IntoIterator<Item = (usize, usize)>) -> bool {
        let mut it = pattern.into_iter();
        n == self.n && self.pattern.iter().all(|p| it.next() == Some(*p)) && it.next().is_none()
    }

    /// Unknowns.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// Whether the systems are factorised sparse (`n > dense_max`) rather than dense.
    pub fn is_sparse(&self) -> bool {
        self.sparse.is_some()
    }

    /// Factorises the matrix with `values` (in the order of the pattern) and solves
    /// `A x = rhs`.
    ///
    /// # Errors
    /// `values` or `rhs` of the wrong length, the numeric factorisation failing, or an
    /// answer that is not finite (a singular matrix).
    pub fn solve(&self, values: &[f64], rhs: &DVector<f64>) -> Result<DVector<f64>, String> {
        if values.len() != self.pattern.len() || rhs.len() != self.n {
            return Err(format!(
                "{} values and {} right-hand side entries for a pattern of {} entries in \
                 {} rows",
                values.len(),
                rhs.len(),
                self.pattern.len(),
                self.n
            ));
        }
        let x = match &self.sparse {
            None => {
                let mut a = DMatrix::zeros(self.n, self.n);
                for (&(i, j), v) in self.pattern.iter().zip(values) {
                    a[(i, j)] += *v;
                }
                a.lu()
                    .solve(rhs)
                    .ok_or_else(|| "the LU factors have a zero pivot".to_string())?
            }
            Some(sp) => {
                let mat = SparseColMat::new_from_argsort(sp.symbolic.clone(), &sp.argsort, values)
                    .map_err(|e| format!("sparse values: {e:?}"))?;
                let lu = Lu::try_new_with_symbolic(sp.lu.clone(), mat.as_ref())
                    .map_err(|e| format!("LU: {e:?}"))?;
                let mut x = rhs.clone();
                let view = faer::MatMut::from_column_major_slice_mut(x.as_mut_slice(), self.n, 1);
                lu.solve_in_place(view);
                x
            }
        };
        if x.iter().all(|v| v.is_finite()) {
            Ok(x)
        } else {
            Err("the LU factors have a zero pivot".to_string())
        }
    }
}
// ANCHOR_END: pattern_lu

#[cfg(test)]
mod tests {
    #[test]
    fn pattern_lu_sums_duplicates_reuses_its_pattern_and_reports_singular() {
        // [[2, 1], [1, 1 + 2]], the last position given twice; sparse and dense alike
        let pairs = [(0, 0), (0, 1), (1, 0), (1, 1), (1, 1)];
        for dense_max in [0, 2] {
            let lu = PatternLu::new(2, &pairs, dense_max).unwrap();
            assert!(lu.has_pattern(2, pairs.iter().copied()));
            assert!(!lu.has_pattern(2, pairs[..4].iter().copied()));
            let rhs = DVector::from_vec(vec![3.0, 5.0]);
            let x = lu.solve(&[2.0, 1.0, 1.0, 1.0, 2.0], &rhs).unwrap();
            assert!((x[0] - 0.8).abs() < 1e-14 && (x[1] - 1.4).abs() < 1e-14);
            // the same pattern, new values: [[1, 1], [1, 1]] is singular
            assert!(lu.solve(&[1.0, 1.0, 1.0, 0.5, 0.5], &rhs).is_err());
            assert!(lu.solve(&[1.0], &rhs).is_err());
        }
        assert!(PatternLu::new(2, &[(2, 0)], 0).is_err());
        assert!(
            PatternLu::new_unless(2, &pairs, 0, |_| true)
                .unwrap()
                .is_none()
        );
    }

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
