//! Damping, or constraint force mixing (Erleben 2007 eq. 41-44): the solver sees
//! `A' = A + gamma I` instead of the Delassus operator `A = J M^-1 J^T`.
//!
//! For `gamma > 0`, the LCP `0 <= lambda ⊥ (A + gamma I) lambda + b >= 0` is the
//! optimality condition of the strictly convex quadratic programme
//!
//! ```text
//! minimise  1/2 lambda^T A lambda + lambda^T b + gamma/2 |lambda|^2   subject to lambda >= 0
//! ```
//!
//! (eq. 42-43; the paper prints the objective without the halves, which has the
//! gradient `b + 2 (A + gamma I) lambda` and so the LCP of `(2A', b)`; the halves make it
//! the LCP of `(A', b)` exactly). The last term pulls `|lambda|` down: damping always
//! weakens the constraint forces, and `|lambda(gamma)|` does not grow with `gamma`
//! (`tests/laws/cfm.rs` checks both). `A'` is positive definite even where `A` is only
//! semidefinite (redundant contacts), which is why splitting methods converge faster on
//! it (the paper's figure 6; the book's chapter *Damping and CFM* measures it). It is a
//! change of the model, a compliance of `gamma` (m/s per N s) in every contact
//! direction, not a preconditioner (compare the r-factors of PROX, Erleben 2017 4.2).
//!
//! Checked by `tests/laws/cfm.rs`.

use crate::matrix::Matrix;

// ANCHOR: with_cfm
/// `A + gamma I` for a square `A`, stored sparse (a sparse `A` keeps its pattern plus the
/// diagonal; a dense `A` is kept dense).
///
/// `gamma` in the units of `A` (1/kg for a Delassus operator); `gamma = 0` returns a copy.
/// Assumes `A` is square (the problem types check it).
pub fn with_cfm(a: &Matrix, gamma: f64) -> Matrix {
    if gamma == 0.0 {
        return a.clone();
    }
    match a {
        Matrix::Dense(d) => {
            let mut d = d.clone();
            for i in 0..d.nrows().min(d.ncols()) {
                d[(i, i)] += gamma;
            }
            Matrix::Dense(d)
        }
        Matrix::Sparse(s) => {
            let n = s.nrows();
            let mut t = Vec::with_capacity(s.nnz() + n);
            for (i, row) in s.row_iter().enumerate() {
                for (&j, &v) in row.col_indices().iter().zip(row.values()) {
                    t.push((i, j, v));
                }
                t.push((i, i, gamma));
            }
            Matrix::from_triplets(n, s.ncols(), &t).expect("indices of a valid matrix")
        }
    }
}
// ANCHOR_END: with_cfm
