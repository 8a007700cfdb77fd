//! The Delassus operator as the sweeps read it: the local form's `A` by contact blocks, or
//! the global form's `H^T` and `M^-1 H` (Erleben 2017 eq. 18, 25-26), and the extreme
//! eigenvalues the spectral r-factor needs.
//!
//! Checked by `tests/laws/prox_fixed_point.rs`.

use nalgebra::DVector;
use nalgebra_sparse::CsrMatrix;

use super::problem::{Form, ProxProblem};
use super::rfactor::power_extremes;
use crate::matrix::Matrix;

/// The local form's `A` as variable-size blocks by contact (a block CSR): the layout a
/// per-contact sweep reads. Blocks that are entirely zero are not stored.
#[derive(Debug, Clone)]
pub(super) struct LocalOp {
    /// `ptr[c]..ptr[c+1]` indexes the blocks of block row `c`.
    ptr: Vec<usize>,
    /// Block column of each stored block (sorted within a block row).
    col: Vec<usize>,
    /// Where each block's values start in `vals` (row-major `d_c x d_e`).
    start: Vec<usize>,
    vals: Vec<f64>,
    /// The contacts' first rows (`nc + 1`).
    offsets: Vec<usize>,
}

impl LocalOp {
    /// The block layout of `a` and its values.
    pub(super) fn new(a: &Matrix, offsets: &[usize]) -> Self {
        let nc = offsets.len() - 1;
        let mut contact_of = vec![0usize; offsets[nc]];
        for c in 0..nc {
            contact_of[offsets[c]..offsets[c + 1]].fill(c);
        }
        let mut ptr = Vec::with_capacity(nc + 1);
        let mut col = Vec::new();
        let mut start = Vec::new();
        let mut vals = Vec::new();
        let mut slot = vec![usize::MAX; nc];
        ptr.push(0);
        for c in 0..nc {
            let first = col.len();
            let dc = offsets[c + 1] - offsets[c];
            for k in 0..dc {
                a.for_each_in_row(offsets[c] + k, |j, v| {
                    if v == 0.0 {
                        return;
                    }
                    let e = contact_of[j];
                    let de = offsets[e + 1] - offsets[e];
                    if slot[e] == usize::MAX {
                        slot[e] = col.len();
                        col.push(e);
                        start.push(vals.len());
                        vals.resize(vals.len() + dc * de, 0.0);
                    }
                    vals[start[slot[e]] + k * de + (j - offsets[e])] += v;
                });
            }
            // Sort the block row by column (CSR rows arrive sorted, dense ones too, but the
            // first-seen order of blocks follows the first row only).
            let mut order: Vec<usize> = (first..col.len()).collect();
            order.sort_by_key(|&s| col[s]);
            let (c2, s2): (Vec<usize>, Vec<usize>) =
                order.iter().map(|&s| (col[s], start[s])).unzip();
            col[first..].copy_from_slice(&c2);
            start[first..].copy_from_slice(&s2);
            for &e in &col[first..] {
                slot[e] = usize::MAX;
            }
            ptr.push(col.len());
        }
        LocalOp {
            ptr,
            col,
            start,
            vals,
            offsets: offsets.to_vec(),
        }
    }

    /// Puts the values of `a` into this layout (for a problem with the structure of the one
    /// it was built from). Returns `false`, with the values undefined, when `a` has a
    /// nonzero outside the stored blocks or other contact offsets: the layout must then be
    /// built anew. For the matrix it was built from, the values are those of
    /// [`LocalOp::new`] bit for bit (the same entries summed in the same order).
    pub(super) fn refill(&mut self, a: &Matrix, offsets: &[usize]) -> bool {
        if offsets != self.offsets.as_slice() || a.nrows() != offsets[offsets.len() - 1] {
            return false;
        }
        self.vals.fill(0.0);
        let mut fits = true;
        for c in 0..offsets.len() - 1 {
            let dc = offsets[c + 1] - offsets[c];
            let cols = &self.col[self.ptr[c]..self.ptr[c + 1]];
            for k in 0..dc {
                a.for_each_in_row(offsets[c] + k, |j, v| {
                    if v == 0.0 || !fits {
                        return;
                    }
                    let e = offsets.partition_point(|&o| o <= j) - 1;
                    match cols.binary_search(&e) {
                        Ok(i) => {
                            let de = offsets[e + 1] - offsets[e];
                            let s = self.start[self.ptr[c] + i];
                            self.vals[s + k * de + (j - offsets[e])] += v;
                        }
                        Err(_) => fits = false,
                    }
                });
            }
        }
        fits
    }

    /// `acc[k] += (A λ)_{o_c + k}` for the rows of contact `c`.
    #[inline]
    pub(super) fn block_product(&self, c: usize, lam: &[f64], acc: &mut [f64; 4]) {
        let dc = self.offsets[c + 1] - self.offsets[c];
        for s in self.ptr[c]..self.ptr[c + 1] {
            let e = self.col[s];
            let o = self.offsets[e];
            let de = self.offsets[e + 1] - o;
            let b = &self.vals[self.start[s]..self.start[s] + dc * de];
            if dc == 3 && de == 3 {
                let (x0, x1, x2) = (lam[o], lam[o + 1], lam[o + 2]);
                acc[0] += b[0] * x0 + b[1] * x1 + b[2] * x2;
                acc[1] += b[3] * x0 + b[4] * x1 + b[5] * x2;
                acc[2] += b[6] * x0 + b[7] * x1 + b[8] * x2;
            } else {
                let x = &lam[o..o + de];
                for (k, a) in acc.iter_mut().enumerate().take(dc) {
                    let row = &b[k * de..(k + 1) * de];
                    *a += row.iter().zip(x).map(|(p, q)| p * q).sum::<f64>();
                }
            }
        }
    }

    /// `(A λ)_{o_c + k}`.
    #[inline]
    pub(super) fn row_product(&self, c: usize, k: usize, lam: &[f64]) -> f64 {
        let dc = self.offsets[c + 1] - self.offsets[c];
        let mut s = 0.0;
        for p in self.ptr[c]..self.ptr[c + 1] {
            let e = self.col[p];
            let o = self.offsets[e];
            let de = self.offsets[e + 1] - o;
            let row = &self.vals[self.start[p] + k * de..self.start[p] + (k + 1) * de];
            debug_assert!(k < dc);
            for (l, v) in row.iter().enumerate() {
                s += v * lam[o + l];
            }
        }
        s
    }

    /// The diagonal block `A_cc` (row-major, zeros where nothing is stored).
    pub(super) fn diag_block(&self, c: usize) -> [f64; 16] {
        let d = self.offsets[c + 1] - self.offsets[c];
        let mut out = [0.0; 16];
        for s in self.ptr[c]..self.ptr[c + 1] {
            if self.col[s] == c {
                out[..d * d].copy_from_slice(&self.vals[self.start[s]..self.start[s] + d * d]);
            }
        }
        out
    }

    pub(super) fn mul(&self, lam: &[f64], out: &mut [f64]) {
        for c in 0..self.offsets.len() - 1 {
            let mut acc = [0.0; 4];
            self.block_product(c, lam, &mut acc);
            let o = self.offsets[c];
            let d = self.offsets[c + 1] - o;
            out[o..o + d].copy_from_slice(&acc[..d]);
        }
    }
}

/// The global form: `H^T` and `T^T = (M^-1 H)^T` by rows, and `M^-1 q`.
#[derive(Debug, Clone)]
pub(super) struct GlobalOp {
    /// `H^T` (`m x ndof`).
    jac: CsrMatrix<f64>,
    /// `T^T = (M^-1 H)^T` (`m x ndof`).
    tt: CsrMatrix<f64>,
    /// `M^-1 q` (`ndof`): the body velocity at `λ = 0`.
    pub(super) free: DVector<f64>,
}

impl GlobalOp {
    /// `H^T`, `(M^-1 H)^T` by sparse solves against `M`'s factor, and `M^-1 q`.
    fn new(h: &Matrix, q: &DVector<f64>, factor: &crate::linalg::SpdFactor) -> Self {
        GlobalOp {
            jac: h.to_csr().transpose(),
            tt: factor.solve_columns(h).transpose(),
            free: factor.solve(q),
        }
    }

    #[inline]
    pub(super) fn row_velocity(&self, i: usize, v: &[f64]) -> f64 {
        let row = self.jac.row(i);
        row.col_indices()
            .iter()
            .zip(row.values())
            .map(|(j, x)| x * v[*j])
            .sum()
    }

    #[inline]
    pub(super) fn push(&self, i: usize, delta: f64, v: &mut [f64]) {
        if delta != 0.0 {
            let row = self.tt.row(i);
            for (j, x) in row.col_indices().iter().zip(row.values()) {
                v[*j] += x * delta;
            }
        }
    }

    pub(super) fn reset(&self, lam: &[f64], v: &mut [f64]) {
        v.copy_from_slice(self.free.as_slice());
        for (i, l) in lam.iter().enumerate() {
            self.push(i, *l, v);
        }
    }

    pub(super) fn entry(&self, i: usize, j: usize, scratch: &mut [f64]) -> f64 {
        crate::linalg::csr_row_dot(&self.jac, i, &self.tt, j, scratch)
    }

    /// `y = H^T M^-1 H x = H^T (T x)`.
    pub(super) fn apply(&self, x: &DVector<f64>) -> DVector<f64> {
        let mut v = vec![0.0; self.free.len()];
        for (i, l) in x.iter().enumerate() {
            self.push(i, *l, &mut v);
        }
        DVector::from_fn(x.len(), |i, _| self.row_velocity(i, &v))
    }
}

/// The operator of either form.
#[derive(Debug, Clone)]
pub(super) enum Op {
    Local(LocalOp),
    Global(GlobalOp),
}

impl Op {
    /// The operator of `problem`, reusing the block layout of `previous` (a local operator
    /// of the same structure) when it fits.
    pub(super) fn load(problem: &ProxProblem, previous: Option<Op>) -> Op {
        match (&problem.form, previous) {
            (Form::Local(a), Some(Op::Local(mut l))) => {
                if !l.refill(a, &problem.offsets) {
                    l = LocalOp::new(a, &problem.offsets);
                }
                Op::Local(l)
            }
            (Form::Local(a), _) => Op::Local(LocalOp::new(a, &problem.offsets)),
            (Form::Global { mass, h, q }, _) => Op::Global(GlobalOp::new(h, q, mass.factor())),
        }
    }

    /// The diagonal block `A_cc` of every contact (row-major `d_c x d_c` in a 4x4 array).
    pub(super) fn diag_blocks(&self, problem: &ProxProblem) -> Vec<[f64; 16]> {
        let nc = problem.contacts();
        match self {
            Op::Local(l) => (0..nc).map(|c| l.diag_block(c)).collect(),
            Op::Global(g) => {
                let mut scratch = vec![0.0; g.free.len()];
                (0..nc)
                    .map(|c| {
                        let o = problem.offsets[c];
                        let d = problem.offsets[c + 1] - o;
                        let mut b = [0.0; 16];
                        for k in 0..d {
                            for l in 0..d {
                                b[k * d + l] = g.entry(o + k, o + l, &mut scratch);
                            }
                        }
                        b
                    })
                    .collect()
            }
        }
    }

    /// `‖v(0)‖`, the free contact velocity's norm ([`crate::merit::scaled_norm`]) that
    /// [`ProxProblem::error_with_velocity`] divides by.
    pub(super) fn free_norm(&self, problem: &ProxProblem) -> f64 {
        match self {
            Op::Local(_) => crate::merit::scaled_norm(problem.b.as_slice()),
            Op::Global(g) => {
                let mut u = problem.b.clone();
                for i in 0..u.len() {
                    u[i] += g.row_velocity(i, g.free.as_slice());
                }
                crate::merit::scaled_norm(u.as_slice())
            }
        }
    }

    /// The contact velocity `v = A λ + b` (`out` has `m` entries); `body` is the body
    /// velocity `M^-1 (q + H λ)` of the global form (unused by the local form).
    pub(super) fn velocity_into(&self, b: &[f64], lam: &[f64], body: &[f64], out: &mut [f64]) {
        match self {
            Op::Local(l) => {
                l.mul(lam, out);
                for (o, bi) in out.iter_mut().zip(b) {
                    *o += bi;
                }
            }
            Op::Global(g) => {
                for (i, o) in out.iter_mut().enumerate() {
                    *o = g.row_velocity(i, body) + b[i];
                }
            }
        }
    }
}

/// `(λ_min, λ_max)` of `A` (symmetrised): exact for `m <= 300`, else 300 power iterations
/// each.
pub(super) fn spectral_extremes(problem: &ProxProblem, op: &Op) -> (f64, f64) {
    let n = problem.dim();
    match op {
        Op::Local(l) => {
            if n <= 300 {
                let a = problem.delassus().expect("local form has A").to_dense();
                let s = (&a + a.transpose()) * 0.5;
                let e = s.symmetric_eigenvalues();
                (e.min(), e.max())
            } else {
                power_extremes(n, 300, |x| {
                    let mut y = DVector::zeros(n);
                    l.mul(x.as_slice(), y.as_mut_slice());
                    y
                })
            }
        }
        Op::Global(g) => {
            if n <= 300 {
                let a = nalgebra::DMatrix::from_fn(n, n, |i, j| {
                    let mut e = DVector::zeros(n);
                    e[j] = 1.0;
                    g.apply(&e)[i]
                });
                let s = (&a + a.transpose()) * 0.5;
                let e = s.symmetric_eigenvalues();
                (e.min(), e.max())
            } else {
                power_extremes(n, 300, |x| g.apply(x))
            }
        }
    }
}
