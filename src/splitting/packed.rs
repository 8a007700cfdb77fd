//! The rows of `H^T` and `T^T = (M^-1 H)^T` packed contact by contact, for the
//! velocity-space sweep.
//!
//! In compressed sparse rows each of a contact's six rows (three of `H^T`, three of `T^T`)
//! carries its own column index per non-zero, and the sweep reads `v` once per non-zero of
//! `H^T` and writes it once per non-zero of `T^T`. For a rigid-body contact the six rows
//! share their columns (the unknowns of its two bodies), so here a contact stores the union
//! of its rows' columns once, as `u32`, and beside each column the six numbers
//! `[H^T_0j, H^T_1j, H^T_2j, T^T_0j, T^T_1j, T^T_2j]` (zeros where a row has no entry).
//! One contact's data is then one contiguous run in memory, its column indices a sixth of
//! what they were, and `v` is read and written once per column: a sweep streams each
//! contact's data once, in contact order.
//!
//! Checked by `tests/laws/velocity_gauss_seidel.rs` (the sweep on packed rows is the blocked
//! sweep on `W`) and `tests/laws/parallel_sweep.rs`.

use nalgebra_sparse::CsrMatrix;

use crate::problem::ProblemError;

/// Contact `c`'s columns and values (see the module docs).
#[derive(Debug, Clone)]
pub(crate) struct PackedRows {
    /// `offsets[c]..offsets[c + 1]` indexes contact `c`'s columns in `cols`, and six times
    /// it its numbers in `vals`.
    offsets: Vec<usize>,
    cols: Vec<u32>,
    vals: Vec<f64>,
}

impl PackedRows {
    /// Packs `jac = H^T` and `tt = T^T` (both `3nc x ndof`, three rows per contact).
    ///
    /// # Errors
    /// [`ProblemError::Unsupported`] if `ndof` does not fit a `u32` column index.
    pub(crate) fn new(jac: &CsrMatrix<f64>, tt: &CsrMatrix<f64>) -> Result<Self, ProblemError> {
        debug_assert_eq!((jac.nrows(), jac.ncols()), (tt.nrows(), tt.ncols()));
        if u32::try_from(jac.ncols()).is_err() {
            return Err(ProblemError::Unsupported {
                reason: format!(
                    "{} unknowns of v: the packed sweep indexes them with 32 bits",
                    jac.ncols()
                ),
            });
        }
        let nc = jac.nrows() / 3;
        // position of a column in the current contact's list, or usize::MAX
        let mut slot = vec![usize::MAX; jac.ncols()];
        let mut offsets = Vec::with_capacity(nc + 1);
        offsets.push(0);
        let mut cols: Vec<u32> = Vec::with_capacity(jac.nnz() / 3 + 1);
        let mut vals: Vec<f64> = Vec::with_capacity(2 * jac.nnz() + 6);
        for c in 0..nc {
            let start = cols.len();
            for (m, shift) in [(jac, 0), (tt, 3)] {
                for d in 0..3 {
                    let row = m.row(3 * c + d);
                    for (&j, &x) in row.col_indices().iter().zip(row.values()) {
                        if slot[j] == usize::MAX {
                            slot[j] = cols.len();
                            cols.push(j as u32);
                            vals.extend_from_slice(&[0.0; 6]);
                        }
                        vals[6 * slot[j] + shift + d] += x;
                    }
                }
            }
            for &j in &cols[start..] {
                slot[j as usize] = usize::MAX;
            }
            offsets.push(cols.len());
        }
        Ok(PackedRows {
            offsets,
            cols,
            vals,
        })
    }

    /// Contact `c`'s columns, and beside each its six numbers (`H^T` rows, then `T^T`
    /// rows), as chunks of 6.
    #[inline]
    pub(crate) fn contact(&self, c: usize) -> (&[u32], &[f64]) {
        let (s, e) = (self.offsets[c], self.offsets[c + 1]);
        (&self.cols[s..e], &self.vals[6 * s..6 * e])
    }

    /// Calls `f(j)` for each column `j` of contact `c`.
    pub(crate) fn columns(&self, c: usize, f: &mut dyn FnMut(usize)) {
        self.contact(c).0.iter().for_each(|&j| f(j as usize));
    }

    /// Bytes a sweep reads of this structure: values, column indices and offsets.
    pub(crate) fn bytes(&self) -> usize {
        self.vals.len() * std::mem::size_of::<f64>()
            + self.cols.len() * std::mem::size_of::<u32>()
            + self.offsets.len() * std::mem::size_of::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra_sparse::CooMatrix;

    fn csr(rows: usize, cols: usize, entries: &[(usize, usize, f64)]) -> CsrMatrix<f64> {
        let mut coo = CooMatrix::new(rows, cols);
        for &(i, j, x) in entries {
            coo.push(i, j, x);
        }
        CsrMatrix::from(&coo)
    }

    #[test]
    fn columns_are_the_union_of_the_six_rows_and_values_land_beside_them() {
        // contact 0: H^T rows touch 1, 4; T^T rows touch 4, 2. contact 1: only column 0.
        let jac = csr(6, 5, &[(0, 1, 1.0), (1, 4, 2.0), (2, 1, 3.0), (3, 0, 7.0)]);
        let tt = csr(6, 5, &[(0, 4, 4.0), (2, 2, 5.0), (5, 0, 8.0)]);
        let p = PackedRows::new(&jac, &tt).unwrap();
        let (cols, vals) = p.contact(0);
        let mut pairs: Vec<(u32, &[f64])> = cols.iter().copied().zip(vals.chunks(6)).collect();
        pairs.sort_by_key(|x| x.0);
        assert_eq!(pairs.len(), 3);
        assert_eq!(pairs[0], (1, &[1.0, 0.0, 3.0, 0.0, 0.0, 0.0][..]));
        assert_eq!(pairs[1], (2, &[0.0, 0.0, 0.0, 0.0, 0.0, 5.0][..]));
        assert_eq!(pairs[2], (4, &[0.0, 2.0, 0.0, 4.0, 0.0, 0.0][..]));
        let (cols, vals) = p.contact(1);
        assert_eq!(cols, &[0]);
        assert_eq!(vals, &[7.0, 0.0, 0.0, 0.0, 0.0, 8.0]);
        assert_eq!(p.bytes(), 4 * 6 * 8 + 4 * 4 + 3 * 8);
    }

    #[test]
    fn more_unknowns_than_a_u32_indexes_is_refused() {
        let n = u32::MAX as usize + 2;
        let empty = CsrMatrix::try_from_csr_data(3, n, vec![0; 4], vec![], vec![]).unwrap();
        let err = PackedRows::new(&empty, &empty).unwrap_err();
        assert!(err.to_string().contains("32 bits"), "{err}");
    }
}
