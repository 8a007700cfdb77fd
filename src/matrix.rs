//! One matrix type for every problem: dense (`nalgebra::DMatrix`) for teaching-size
//! problems, compressed sparse rows (`nalgebra_sparse::CsrMatrix`) for real sizes.
//!
//! Solvers read a [`Matrix`] through a handful of row-oriented operations
//! ([`Matrix::row_dot`], [`Matrix::for_each_in_row`], [`Matrix::mul_vec`]), so each
//! algorithm is written once and runs on either storage.

use crate::error::ProblemError;
use nalgebra::{DMatrix, DVector};
use nalgebra_sparse::{CooMatrix, CsrMatrix};

/// The most entries a dense copy of a matrix may have: 2^27 (1 GiB of `f64`).
///
pub use crate::error::MAX_DENSE_ENTRIES;

/// Fails with [`ProblemError::TooLarge`] if a dense `rows x cols` matrix would have more
/// than [`MAX_DENSE_ENTRIES`] entries; `what` names who needs it.
///
/// ```
/// use nonsmooth::matrix::check_dense;
/// assert!(check_dense("a test", 1000, 1000).is_ok());
/// assert!(check_dense("a test", 1 << 20, 1 << 20).is_err());
/// ```
///
/// # Errors
/// [`ProblemError::TooLarge`].
pub fn check_dense(what: &str, rows: usize, cols: usize) -> Result<(), ProblemError> {
    match rows.checked_mul(cols) {
        Some(n) if n <= MAX_DENSE_ENTRIES => Ok(()),
        _ => Err(ProblemError::TooLarge {
            what: what.to_string(),
            rows,
            cols,
        }),
    }
}

/// A real matrix, dense or sparse (CSR).
///
/// Shapes are whatever the problem needs; the problem constructors check them.
/// Values are read as given: nothing is symmetrised or scaled.
#[derive(Debug, Clone, PartialEq)]
pub enum Matrix {
    /// Dense, column-major (nalgebra's layout).
    Dense(DMatrix<f64>),
    /// Compressed sparse rows. Explicitly stored zeros are kept.
    Sparse(CsrMatrix<f64>),
}

impl From<DMatrix<f64>> for Matrix {
    fn from(m: DMatrix<f64>) -> Self {
        Matrix::Dense(m)
    }
}

impl From<CsrMatrix<f64>> for Matrix {
    fn from(m: CsrMatrix<f64>) -> Self {
        Matrix::Sparse(m)
    }
}

impl Matrix {
    /// A sparse matrix from `(row, col, value)` triplets; duplicates are summed (in the
    /// order they are given), explicitly stored zeros are kept, columns end up sorted
    /// within each row.
    ///
    /// The compressed rows are built directly (count per row, scatter, sort each row,
    /// merge duplicates in place): besides `triplets` it needs the result's
    /// 16 bytes per entry and `8 (nrows + 1)` bytes of row offsets, so that a reader
    /// holding the triplets of a large file does not need several more copies of them.
    ///
    /// Returns `None` if an index is out of range.
    pub fn from_triplets(
        nrows: usize,
        ncols: usize,
        triplets: &[(usize, usize, f64)],
    ) -> Option<Matrix> {
        let mut offsets = vec![0usize; nrows.checked_add(1)?];
        for &(i, j, _) in triplets {
            if i >= nrows || j >= ncols {
                return None;
            }
            offsets[i + 1] += 1;
        }
        for i in 0..nrows {
            offsets[i + 1] += offsets[i];
        }
        let n = triplets.len();
        let mut cols = vec![0usize; n];
        let mut vals = vec![0.0f64; n];
        // `next[i]`: where the next entry of row `i` goes.
        let mut next = offsets.clone();
        let mut sorted = true;
        let mut last: Option<(usize, usize)> = None;
        for &(i, j, v) in triplets {
            // Already in row-major order without duplicates (what every writer of ours
            // produces): no sort or merge is needed.
            if last.is_some_and(|l| (i, j) <= l) {
                sorted = false;
            }
            last = Some((i, j));
            cols[next[i]] = j;
            vals[next[i]] = v;
            next[i] += 1;
        }
        drop(next);
        if !sorted {
            // Sort each row by column (stable: duplicates keep their order) and merge
            // duplicates, compacting in place; one row at a time goes through `row`.
            let mut row: Vec<(usize, f64)> = Vec::new();
            let mut write = 0;
            let mut start = 0;
            for i in 0..nrows {
                let end = offsets[i + 1];
                row.clear();
                row.extend(
                    cols[start..end]
                        .iter()
                        .copied()
                        .zip(vals[start..end].iter().copied()),
                );
                row.sort_by_key(|e| e.0);
                let row_start = write;
                for &(j, v) in &row {
                    if write > row_start && cols[write - 1] == j {
                        vals[write - 1] += v;
                    } else {
                        cols[write] = j;
                        vals[write] = v;
                        write += 1;
                    }
                }
                offsets[i] = row_start;
                start = end;
            }
            offsets[nrows] = write;
            cols.truncate(write);
            vals.truncate(write);
        }
        CsrMatrix::try_from_csr_data(nrows, ncols, offsets, cols, vals)
            .ok()
            .map(Matrix::Sparse)
    }

    /// The `n x n` identity, stored sparse.
    pub fn identity(n: usize) -> Matrix {
        Matrix::Sparse(CsrMatrix::identity(n))
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        match self {
            Matrix::Dense(m) => m.nrows(),
            Matrix::Sparse(m) => m.nrows(),
        }
    }

    /// Number of columns.
    pub fn ncols(&self) -> usize {
        match self {
            Matrix::Dense(m) => m.ncols(),
            Matrix::Sparse(m) => m.ncols(),
        }
    }

    /// `true` for the sparse storage.
    pub fn is_sparse(&self) -> bool {
        matches!(self, Matrix::Sparse(_))
    }

    /// Number of nonzero entries (for dense storage: entries that are not exactly zero;
    /// for sparse storage: stored entries).
    pub fn nnz(&self) -> usize {
        match self {
            Matrix::Dense(m) => m.iter().filter(|v| **v != 0.0).count(),
            Matrix::Sparse(m) => m.nnz(),
        }
    }

    /// Entry `(i, j)`; zero where nothing is stored. Panics if out of range
    /// (an internal-use accessor: callers index within the shape they checked).
    pub fn get(&self, i: usize, j: usize) -> f64 {
        match self {
            Matrix::Dense(m) => m[(i, j)],
            Matrix::Sparse(m) => {
                let row = m.row(i);
                match row.col_indices().binary_search(&j) {
                    Ok(k) => row.values()[k],
                    // CSR built by nalgebra-sparse has sorted columns; fall back to a scan
                    // in case a caller built one with unsorted columns.
                    Err(_) => row
                        .col_indices()
                        .iter()
                        .zip(row.values())
                        .filter(|(c, _)| **c == j)
                        .map(|(_, v)| *v)
                        .sum(),
                }
            }
        }
    }

    /// The main diagonal (length `min(nrows, ncols)`).
    pub fn diagonal(&self) -> DVector<f64> {
        let n = self.nrows().min(self.ncols());
        DVector::from_fn(n, |i, _| self.get(i, i))
    }

    /// `(A x)_i`, the dot product of row `i` with `x`.
    #[inline]
    pub fn row_dot(&self, i: usize, x: &[f64]) -> f64 {
        match self {
            Matrix::Dense(m) => {
                let mut s = 0.0;
                for j in 0..m.ncols() {
                    s += m[(i, j)] * x[j];
                }
                s
            }
            Matrix::Sparse(m) => {
                let row = m.row(i);
                row.col_indices()
                    .iter()
                    .zip(row.values())
                    .map(|(j, v)| v * x[*j])
                    .sum()
            }
        }
    }

    /// Calls `f(j, a_ij)` for every stored entry of row `i`.
    #[inline]
    pub fn for_each_in_row(&self, i: usize, mut f: impl FnMut(usize, f64)) {
        match self {
            Matrix::Dense(m) => {
                for j in 0..m.ncols() {
                    f(j, m[(i, j)]);
                }
            }
            Matrix::Sparse(m) => {
                let row = m.row(i);
                for (j, v) in row.col_indices().iter().zip(row.values()) {
                    f(*j, *v);
                }
            }
        }
    }

    /// `y = A x`. `x` must have `ncols` entries.
    pub fn mul_vec(&self, x: &DVector<f64>) -> DVector<f64> {
        let mut y = DVector::zeros(self.nrows());
        self.mul_vec_add(x, &mut y);
        y
    }

    /// `y += A x`.
    pub fn mul_vec_add(&self, x: &DVector<f64>, y: &mut DVector<f64>) {
        match self {
            Matrix::Dense(m) => {
                y.gemv(1.0, m, x, 1.0);
            }
            Matrix::Sparse(m) => {
                for (i, row) in m.row_iter().enumerate() {
                    let mut s = 0.0;
                    for (j, v) in row.col_indices().iter().zip(row.values()) {
                        s += v * x[*j];
                    }
                    y[i] += s;
                }
            }
        }
    }

    /// `y = A^T x`. `x` must have `nrows` entries.
    pub fn tr_mul_vec(&self, x: &DVector<f64>) -> DVector<f64> {
        match self {
            Matrix::Dense(m) => m.tr_mul(x),
            Matrix::Sparse(m) => {
                let mut y = DVector::zeros(m.ncols());
                for (i, row) in m.row_iter().enumerate() {
                    let xi = x[i];
                    if xi != 0.0 {
                        for (j, v) in row.col_indices().iter().zip(row.values()) {
                            y[*j] += v * xi;
                        }
                    }
                }
                y
            }
        }
    }

    /// A dense copy.
    pub fn to_dense(&self) -> DMatrix<f64> {
        match self {
            Matrix::Dense(m) => m.clone(),
            Matrix::Sparse(m) => {
                let mut d = DMatrix::zeros(m.nrows(), m.ncols());
                for (i, row) in m.row_iter().enumerate() {
                    for (j, v) in row.col_indices().iter().zip(row.values()) {
                        d[(i, *j)] += *v;
                    }
                }
                d
            }
        }
    }

    /// A CSR copy (exact zeros of a dense matrix are dropped).
    pub fn to_csr(&self) -> CsrMatrix<f64> {
        match self {
            Matrix::Dense(m) => {
                let mut coo = CooMatrix::new(m.nrows(), m.ncols());
                for j in 0..m.ncols() {
                    for i in 0..m.nrows() {
                        let v = m[(i, j)];
                        if v != 0.0 {
                            coo.push(i, j, v);
                        }
                    }
                }
                CsrMatrix::from(&coo)
            }
            Matrix::Sparse(m) => m.clone(),
        }
    }

    /// The transpose, in the same storage.
    pub fn transpose(&self) -> Matrix {
        match self {
            Matrix::Dense(m) => Matrix::Dense(m.transpose()),
            Matrix::Sparse(m) => Matrix::Sparse(m.transpose()),
        }
    }

    /// The dense sub-block of rows `r0..r0+nr` and columns `c0..c0+nc`.
    pub fn block(&self, r0: usize, nr: usize, c0: usize, nc: usize) -> DMatrix<f64> {
        let mut b = DMatrix::zeros(nr, nc);
        for i in 0..nr {
            self.for_each_in_row(r0 + i, |j, v| {
                if j >= c0 && j < c0 + nc {
                    b[(i, j - c0)] += v;
                }
            });
        }
        b
    }

    /// Largest `|a_ij - a_ji|` over all entries, divided by the largest `|a_ij|`
    /// (0 for a zero matrix). A square matrix is assumed.
    pub fn relative_asymmetry(&self) -> f64 {
        let mut scale: f64 = 0.0;
        let mut worst: f64 = 0.0;
        for i in 0..self.nrows() {
            self.for_each_in_row(i, |j, v| {
                scale = scale.max(v.abs());
                worst = worst.max((v - self.get(j, i)).abs());
            });
        }
        if scale == 0.0 { 0.0 } else { worst / scale }
    }

    /// Index and value of the first entry that is NaN or infinite, if any.
    pub fn first_non_finite(&self) -> Option<(usize, usize, f64)> {
        for i in 0..self.nrows() {
            let mut found = None;
            self.for_each_in_row(i, |j, v| {
                if found.is_none() && !v.is_finite() {
                    found = Some((i, j, v));
                }
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// Fraction of entries that are stored/nonzero: `nnz / (nrows * ncols)`.
    pub fn density(&self) -> f64 {
        let total = (self.nrows() * self.ncols()) as f64;
        if total == 0.0 {
            0.0
        } else {
            self.nnz() as f64 / total
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_and_sparse_agree() {
        let d = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.0, 1.0, 3.0, -1.0, 0.0, -1.0, 2.0]);
        let s = Matrix::Dense(d.clone()).to_csr();
        let a = Matrix::Dense(d);
        let b = Matrix::Sparse(s);
        let x = DVector::from_vec(vec![1.0, -2.0, 0.5]);
        assert_eq!(a.mul_vec(&x), b.mul_vec(&x));
        assert_eq!(a.tr_mul_vec(&x), b.tr_mul_vec(&x));
        assert_eq!(a.diagonal(), b.diagonal());
        assert_eq!(a.to_dense(), b.to_dense());
        assert_eq!(a.relative_asymmetry(), 0.0);
        for i in 0..3 {
            assert_eq!(a.row_dot(i, x.as_slice()), b.row_dot(i, x.as_slice()));
        }
        assert_eq!(b.nnz(), 7);
        assert_eq!(
            a.block(1, 2, 1, 2),
            DMatrix::from_row_slice(2, 2, &[3.0, -1.0, -1.0, 2.0])
        );
    }

    #[test]
    fn triplets_sum_duplicates_and_reject_out_of_range() {
        let m = Matrix::from_triplets(2, 2, &[(0, 0, 1.0), (0, 0, 2.0), (1, 0, 5.0)]).unwrap();
        assert_eq!(m.get(0, 0), 3.0);
        assert_eq!(m.get(1, 0), 5.0);
        assert_eq!(m.get(1, 1), 0.0);
        assert!(Matrix::from_triplets(2, 2, &[(2, 0, 1.0)]).is_none());
        assert!(m.relative_asymmetry() > 0.0);
    }

    /// The direct construction gives what nalgebra-sparse's COO conversion gives, for
    /// triplets in any order, with duplicates, explicit zeros and empty rows.
    #[test]
    fn triplets_build_the_same_rows_as_coo() {
        let (nrows, ncols) = (7, 5);
        let mut t = Vec::new();
        let mut x: u64 = 12345;
        for k in 0..60 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = (x >> 33) as usize % nrows;
            let j = (x >> 13) as usize % ncols;
            if i == 3 {
                continue; // an empty row
            }
            let v = if k % 11 == 0 {
                0.0
            } else {
                (k as f64) * 0.37 - 5.0
            };
            t.push((i, j, v));
        }
        let coo = CooMatrix::try_from_triplets(
            nrows,
            ncols,
            t.iter().map(|e| e.0).collect(),
            t.iter().map(|e| e.1).collect(),
            t.iter().map(|e| e.2).collect(),
        )
        .unwrap();
        let want = CsrMatrix::from(&coo);
        let Some(Matrix::Sparse(got)) = Matrix::from_triplets(nrows, ncols, &t) else {
            panic!("sparse expected");
        };
        assert_eq!(got.row_offsets(), want.row_offsets());
        assert_eq!(got.col_indices(), want.col_indices());
        for (a, b) in got.values().iter().zip(want.values()) {
            assert!((a - b).abs() <= 1e-12 * (1.0 + b.abs()), "{a} vs {b}");
        }
        // Sorted input without duplicates is taken as it is.
        let sorted = [(0, 1, 2.0), (0, 3, 0.0), (2, 0, -1.0), (6, 4, 3.0)];
        let Some(Matrix::Sparse(m)) = Matrix::from_triplets(nrows, ncols, &sorted) else {
            panic!("sparse expected");
        };
        assert_eq!(m.row_offsets(), &[0, 2, 2, 3, 3, 3, 3, 4]);
        assert_eq!(m.col_indices(), &[1, 3, 0, 4]);
        assert_eq!(m.values(), &[2.0, 0.0, -1.0, 3.0]);
        assert!(Matrix::from_triplets(0, 0, &[]).is_some());
        assert!(Matrix::from_triplets(3, 3, &[(0, 3, 1.0)]).is_none());
    }
}
