//! Block preconditioners for the GMRES inner solve of the cone Newton method: block Jacobi,
//! block symmetric Gauss-Seidel and block ILU(0) on the 3x3 block rows of
//! `H = I - D + D ρ W`.
//!
//! # Shapes and assumptions
//!
//! `H` has `nc` block rows and columns of size 3 (one per contact, `[n, t1, t2]`). Its
//! off-diagonal block `H_cd = D_c ρ_c W_cd` is nonzero only where the Delassus operator `W`
//! stores a block, so the block pattern of `H` is that of `W` plus the diagonal; it does not
//! change between Newton iterations (only `D` does). The pattern (sorted block columns per
//! block row, the position of each diagonal block, and where each stored block of `W`
//! lands in it) is computed once by `BlockPreconditioner::new` — the symbolic part —
//! and reused by every `BlockPreconditioner::factor` of the solve.
//!
//! Write `H = B + L + U` with `B` the block diagonal, `L` (`U`) the strictly lower (upper)
//! block triangle in the contact order. The three preconditioners `M ≈ H`:
//!
//! * **Block Jacobi**: `M = B`. Sees each contact alone.
//! * **Block symmetric Gauss-Seidel** (block SSOR with `ω = 1`; Saad 2003, §10.2.1):
//!   `M = (B + L) B⁻¹ (B + U)`, so `M - H = L B⁻¹ U`. `M⁻¹ v` is a forward block-triangular
//!   sweep `(B + L) y = v` followed by a backward one `(B + U) z = B y`; no factorisation
//!   beyond the `nc` diagonal blocks.
//! * **Block ILU(0)** (Saad 2003, §10.3.2 and Alg. 10.4 in its block form): `M = L̃ Ũ` with
//!   `L̃` unit block lower triangular and `Ũ` block upper triangular, both restricted to the
//!   block pattern of `H` (fill outside it is dropped), computed by Gaussian elimination
//!   in the IKJ order: `L̃_ik = H̃_ik Ũ_kk⁻¹`, `H̃_ij -= L̃_ik Ũ_kj` for `(i, j)` in the
//!   pattern. Exact (`M = H`) when elimination creates no fill outside the pattern, for
//!   example when `H` is block diagonal or block tridiagonal. `M⁻¹ v` is one forward and
//!   one backward block-triangular solve.
//!
//! Applying either triangular preconditioner reads every stored block of `H` once, about
//! the cost of one product `H v`. The numeric part stores one copy of `H`'s blocks (72
//! bytes each) and the `nc` inverted diagonal blocks.
//!
//! A diagonal (pivot) block that cannot be inverted — a contact whose row of `H` is
//! degenerate — is shifted by `sqrt(eps) max(1, max |entry|) I` and, if that fails too,
//! replaced by the identity, so the preconditioner is always defined.
//!
//! What was measured (`examples/newton_scale.rs`, the book's table). Block SSOR needs
//! fewer products per Newton iteration than block Jacobi (three to six times fewer near a
//! thousand contacts, twice fewer on the wall of four thousand) but more Newton iterations,
//! and on the larger wall and pyramid each of its iterations takes longer (an application
//! costs about one more product); it is kept as an option, block Jacobi stays the default. Block ILU(0) is unstable on the generated scenes: their
//! `W` is rank deficient (a brick resting on its neighbours through more contact rows than
//! it has freedoms), so once the elimination has used up a body's freedoms the incomplete
//! Schur complement blocks of its remaining contacts are (nearly) singular, their shifted
//! inverses are huge, and the factors overflow or make GMRES stall; the Newton method then
//! lives on its Gauss-Seidel fallback. It is exact, and useful, where `W` has full rank and
//! little fill is dropped.
//!
//! Checked by `tests/laws/newton_preconditioner.rs`.

use nalgebra::{DVector, Matrix3, Vector3};
use serde::{Deserialize, Serialize};

use crate::splitting::BlockRows;

/// The preconditioner of the GMRES inner solve of the cone Newton method
/// ([`crate::newton::ConeNewtonOptions::precondition`]; `precondition=jacobi|sgs|ilu0` on the
/// command line). See the [module docs](self).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NewtonPreconditioner {
    /// The inverses of the 3x3 diagonal blocks `I - D_c + D_c ρ_c W_cc`. The default: on
    /// the generated walls, pyramids and box stacks neither triangular preconditioner below
    /// made the Newton solve faster beyond a thousand contacts (`examples/newton_scale.rs`).
    #[default]
    Jacobi,
    /// Block symmetric Gauss-Seidel: `M = (B + L) B⁻¹ (B + U)`.
    Sgs,
    /// Block incomplete LU with no fill beyond the block pattern of `W`.
    Ilu0,
}

/// A block preconditioner of `H = I - D + D ρ W` (see the [module docs](self)): the
/// symbolic part built once per block pattern, `factor` once per Newton
/// iteration, [`apply`](Self::apply) once per GMRES product.
#[derive(Debug, Clone)]
pub struct BlockPreconditioner {
    kind: NewtonPreconditioner,
    /// `ptr[c]..ptr[c+1]`: the slots of block row `c` of `H`, block columns ascending.
    ptr: Vec<usize>,
    /// Block column of each slot.
    col: Vec<usize>,
    /// Slot of the diagonal block of each block row (zeros for block Jacobi, which keeps
    /// no pattern).
    diag: Vec<usize>,
    /// For each stored block of `W`, in [`BlockRows::blocks_of`] order row after row, its
    /// slot in this pattern.
    w_slot: Vec<usize>,
    /// Numeric blocks by slot: `H` (block SSOR) or its ILU(0) factors (`L̃` strictly below
    /// the diagonal, `Ũ` on and above); empty for block Jacobi.
    vals: Vec<Matrix3<f64>>,
    /// The inverted diagonal blocks (of `H` for Jacobi and SSOR, of `Ũ` for ILU(0)).
    inv_diag: Vec<Matrix3<f64>>,
    /// Scratch of the ILU(0) elimination: block column -> slot in the current block row.
    marker: Vec<usize>,
}

impl BlockPreconditioner {
    /// The symbolic part for the block pattern of `rows` (`nc` block rows): sorted block
    /// columns with the diagonal added. Nothing numeric yet (call `factor`).
    /// Block Jacobi needs no pattern: only the `nc` diagonal blocks are kept.
    pub(crate) fn new(kind: NewtonPreconditioner, rows: &BlockRows) -> Self {
        let nc = rows.block_count();
        if kind == NewtonPreconditioner::Jacobi {
            return BlockPreconditioner {
                kind,
                ptr: Vec::new(),
                col: Vec::new(),
                diag: vec![0; nc],
                w_slot: Vec::new(),
                vals: Vec::new(),
                inv_diag: vec![Matrix3::identity(); nc],
                marker: Vec::new(),
            };
        }
        let mut ptr = Vec::with_capacity(nc + 1);
        let mut col = Vec::new();
        let mut diag = Vec::with_capacity(nc);
        let mut w_slot = Vec::new();
        ptr.push(0);
        let mut cols: Vec<usize> = Vec::new();
        for c in 0..nc {
            cols.clear();
            cols.extend(rows.block_columns(c));
            if !cols.contains(&c) {
                cols.push(c);
            }
            cols.sort_unstable();
            let start = col.len();
            col.extend_from_slice(&cols);
            diag.push(start + cols.binary_search(&c).expect("the diagonal was added"));
            for d in rows.block_columns(c) {
                w_slot.push(start + cols.binary_search(&d).expect("a column of the row"));
            }
            ptr.push(col.len());
        }
        BlockPreconditioner {
            kind,
            ptr,
            col,
            diag,
            w_slot,
            vals: Vec::new(),
            inv_diag: vec![Matrix3::identity(); nc],
            marker: Vec::new(),
        }
    }

    /// Which preconditioner this is.
    pub fn kind(&self) -> NewtonPreconditioner {
        self.kind
    }

    /// Block rows (contacts).
    pub fn contacts(&self) -> usize {
        self.diag.len()
    }

    /// Heap bytes of the numeric part (the stored blocks and inverted diagonal blocks) and
    /// of the pattern.
    pub fn heap_bytes(&self) -> usize {
        let words = self.ptr.capacity()
            + self.col.capacity()
            + self.diag.capacity()
            + self.w_slot.capacity()
            + self.marker.capacity();
        words * std::mem::size_of::<usize>()
            + (self.vals.capacity() + self.inv_diag.capacity())
                * std::mem::size_of::<Matrix3<f64>>()
    }

    /// The numeric part for `H = I - D + D ρ W` with the derivative blocks `blocks[c] = D_c`
    /// and `rho[c] = [ρ_n, ρ_t]` (`ρ_c = diag(ρ_n, ρ_t, ρ_t)`), `W` read from `rows` (the
    /// block pattern given to [`new`](Self::new)): the inverted diagonal blocks, and for the
    /// triangular preconditioners the blocks of `H` (block SSOR) or their ILU(0) factors.
    pub(crate) fn factor(&mut self, rows: &BlockRows, blocks: &[Matrix3<f64>], rho: &[[f64; 2]]) {
        let nc = self.contacts();
        debug_assert_eq!(blocks.len(), nc);
        // D_c ρ_c: column l of D_c scaled by ρ_l
        let d_rho = |c: usize| {
            let mut m = blocks[c];
            for i in 0..3 {
                m[(i, 1)] *= rho[c][1];
                m[(i, 2)] *= rho[c][1];
                m[(i, 0)] *= rho[c][0];
            }
            m
        };
        let w_block = |b: &[f64; 9]| Matrix3::from_row_slice(b);
        if self.kind == NewtonPreconditioner::Jacobi {
            for (c, d) in blocks.iter().enumerate() {
                let wcc = rows
                    .blocks_of(c)
                    .find(|(col, _)| *col == c)
                    .map_or([0.0; 9], |(_, b)| b);
                let rho_row = [rho[c][0], rho[c][1], rho[c][1]];
                let mut h = Matrix3::identity() - d;
                for i in 0..3 {
                    for j in 0..3 {
                        let mut v = 0.0;
                        for l in 0..3 {
                            v += d[(i, l)] * rho_row[l] * wcc[3 * l + j];
                        }
                        h[(i, j)] += v;
                    }
                }
                self.inv_diag[c] = invert_or_shift(&h);
            }
            return;
        }
        // the blocks of H in the pattern
        self.vals.clear();
        self.vals.resize(self.col.len(), Matrix3::zeros());
        let mut k = 0;
        for (c, d) in blocks.iter().enumerate() {
            let dr = d_rho(c);
            self.vals[self.diag[c]] = Matrix3::identity() - d;
            for (_, b) in rows.blocks_of(c) {
                self.vals[self.w_slot[k]] += dr * w_block(&b);
                k += 1;
            }
        }
        match self.kind {
            NewtonPreconditioner::Sgs => {
                for c in 0..nc {
                    self.inv_diag[c] = invert_or_shift(&self.vals[self.diag[c]]);
                }
            }
            NewtonPreconditioner::Ilu0 => self.eliminate(),
            NewtonPreconditioner::Jacobi => unreachable!("handled above"),
        }
    }

    /// Block ILU(0) in place on `vals` (Saad 2003, Alg. 10.4, IKJ order, by blocks).
    fn eliminate(&mut self) {
        let nc = self.contacts();
        self.marker.clear();
        self.marker.resize(nc, usize::MAX);
        for i in 0..nc {
            for s in self.ptr[i]..self.ptr[i + 1] {
                self.marker[self.col[s]] = s;
            }
            for s in self.ptr[i]..self.diag[i] {
                let k = self.col[s];
                // L̃_ik = H̃_ik Ũ_kk⁻¹ (row k is final: k < i)
                let l = self.vals[s] * self.inv_diag[k];
                self.vals[s] = l;
                for t in self.diag[k] + 1..self.ptr[k + 1] {
                    let slot = self.marker[self.col[t]];
                    if slot != usize::MAX {
                        let u = self.vals[t];
                        self.vals[slot] -= l * u;
                    }
                }
            }
            self.inv_diag[i] = invert_or_shift(&self.vals[self.diag[i]]);
            for s in self.ptr[i]..self.ptr[i + 1] {
                self.marker[self.col[s]] = usize::MAX;
            }
        }
    }

    /// `M⁻¹ v` (`v` has `3 nc` entries).
    pub fn apply(&self, v: &DVector<f64>) -> DVector<f64> {
        let nc = self.contacts();
        let get = |x: &DVector<f64>, c: usize| Vector3::new(x[3 * c], x[3 * c + 1], x[3 * c + 2]);
        let mut out = DVector::zeros(3 * nc);
        let put = |x: &mut DVector<f64>, c: usize, y: Vector3<f64>| {
            x[3 * c] = y[0];
            x[3 * c + 1] = y[1];
            x[3 * c + 2] = y[2];
        };
        match self.kind {
            NewtonPreconditioner::Jacobi => {
                for c in 0..nc {
                    put(&mut out, c, self.inv_diag[c] * get(v, c));
                }
            }
            NewtonPreconditioner::Sgs => {
                // (B + L) y = v
                for c in 0..nc {
                    let mut acc = get(v, c);
                    for s in self.ptr[c]..self.diag[c] {
                        acc -= self.vals[s] * get(&out, self.col[s]);
                    }
                    put(&mut out, c, self.inv_diag[c] * acc);
                }
                // (B + U) z = B y: z_c = y_c - B_c⁻¹ Σ_{d>c} H_cd z_d
                for c in (0..nc).rev() {
                    let mut acc = Vector3::zeros();
                    for s in self.diag[c] + 1..self.ptr[c + 1] {
                        acc += self.vals[s] * get(&out, self.col[s]);
                    }
                    let z = get(&out, c) - self.inv_diag[c] * acc;
                    put(&mut out, c, z);
                }
            }
            NewtonPreconditioner::Ilu0 => {
                // L̃ y = v (unit diagonal)
                for c in 0..nc {
                    let mut acc = get(v, c);
                    for s in self.ptr[c]..self.diag[c] {
                        acc -= self.vals[s] * get(&out, self.col[s]);
                    }
                    put(&mut out, c, acc);
                }
                // Ũ z = y
                for c in (0..nc).rev() {
                    let mut acc = get(&out, c);
                    for s in self.diag[c] + 1..self.ptr[c + 1] {
                        acc -= self.vals[s] * get(&out, self.col[s]);
                    }
                    put(&mut out, c, self.inv_diag[c] * acc);
                }
            }
        }
        out
    }
}

/// `m⁻¹`; if `m` is singular or its inverse not finite, `(m + δ I)⁻¹` with
/// `δ = sqrt(eps) max(1, max |m_ij|)`; failing that, the identity.
fn invert_or_shift(m: &Matrix3<f64>) -> Matrix3<f64> {
    let finite = |x: &Matrix3<f64>| x.iter().all(|v| v.is_finite());
    if let Some(inv) = m.try_inverse().filter(finite) {
        return inv;
    }
    let delta = f64::EPSILON.sqrt() * m.amax().max(1.0);
    (m + Matrix3::identity() * delta)
        .try_inverse()
        .filter(finite)
        .unwrap_or_else(Matrix3::identity)
}
