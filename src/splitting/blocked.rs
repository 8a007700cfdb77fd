//! Checked by `tests/laws/blocked_gauss_seidel.rs`, `tests/laws/ccp_optimality.rs` and
//! `tests/laws/nsgs_prepared.rs`.

use std::ops::ControlFlow;

use crate::solver::MethodOptions;
use nalgebra::{DVector, Matrix3, Vector3};

use super::contact::{LocalBlock, solve_block};
use crate::matrix::Matrix;
use serde::{Deserialize, Serialize};

use crate::merit::{Residual, friction_residual, scaled_norm};
use crate::problem::{FrictionContact, FrictionKind, ProblemError};
use crate::solver::{
    Iterate, Method, NonExhaustive, Params, SolveError, SolveInfo, Step, solve_started,
};

/// `W` stored as 3x3 blocks by block row (a block CSR), the layout a per-contact sweep
/// reads. Blocks that are entirely zero are not stored.
#[derive(Debug, Clone)]
pub(crate) struct BlockRows {
    /// `ptr[c]..ptr[c+1]` indexes the blocks of block row `c`.
    ptr: Vec<usize>,
    /// Block column of each stored block.
    col: Vec<usize>,
    /// The blocks, row-major `[w00, w01, w02, w10, ...]`.
    val: Vec<[f64; 9]>,
}

impl BlockRows {
    pub(crate) fn new(w: &Matrix) -> Self {
        let mut rows = BlockRows {
            ptr: Vec::new(),
            col: Vec::new(),
            val: Vec::new(),
        };
        rows.fill(w, &mut Vec::new());
        rows
    }

    /// Rebuilds the layout and the blocks of `w` in place, reusing the storage (`slot` is
    /// scratch, as long as the block count or longer, every entry `usize::MAX`).
    fn fill(&mut self, w: &Matrix, slot: &mut Vec<usize>) {
        let nc = w.nrows() / 3;
        self.ptr.clear();
        self.col.clear();
        self.val.clear();
        self.ptr.push(0);
        match w {
            Matrix::Dense(m) => {
                // Block by block, block columns in order; a block is stored unless its nine
                // entries are all zero (`0.0 + v` stores a zero entry as +0.0, as the sparse
                // path's sums do).
                for c in 0..nc {
                    for d in 0..nc {
                        let mut b = [0.0; 9];
                        let mut any = false;
                        for k in 0..3 {
                            for l in 0..3 {
                                let v = m[(3 * c + k, 3 * d + l)];
                                any |= v != 0.0;
                                b[3 * k + l] = 0.0 + v;
                            }
                        }
                        if any {
                            self.col.push(d);
                            self.val.push(b);
                        }
                    }
                    self.ptr.push(self.col.len());
                }
            }
            Matrix::Sparse(_) => {
                // Scratch: block column -> slot in this block row.
                if slot.len() < nc {
                    slot.resize(nc, usize::MAX);
                }
                for c in 0..nc {
                    let start = self.col.len();
                    for k in 0..3 {
                        w.for_each_in_row(3 * c + k, |j, v| {
                            if v == 0.0 {
                                return;
                            }
                            let d = j / 3;
                            if slot[d] == usize::MAX {
                                slot[d] = self.col.len();
                                self.col.push(d);
                                self.val.push([0.0; 9]);
                            }
                            self.val[slot[d]][3 * k + (j % 3)] += v;
                        });
                    }
                    for s in start..self.col.len() {
                        slot[self.col[s]] = usize::MAX;
                    }
                    self.ptr.push(self.col.len());
                }
            }
        }
    }

    /// Block rows (contacts).
    pub(crate) fn block_count(&self) -> usize {
        self.ptr.len() - 1
    }

    /// The block columns stored in block row `c`.
    pub(crate) fn block_columns(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        self.col[self.ptr[c]..self.ptr[c + 1]].iter().copied()
    }

    /// The blocks `(d, W_cd)` of block row `c` (row-major 3x3).
    pub(crate) fn blocks_of(&self, c: usize) -> impl Iterator<Item = (usize, [f64; 9])> + '_ {
        (self.ptr[c]..self.ptr[c + 1]).map(|s| (self.col[s], self.val[s]))
    }

    /// `u = W r + q` by block rows (`u` has `3nc` entries).
    pub(crate) fn velocity_into(&self, q: &[f64], r: &[f64], u: &mut [f64]) {
        for c in 0..self.ptr.len() - 1 {
            let k = 3 * c;
            let mut acc = [0.0; 3];
            self.row_product(c, r, &mut acc);
            u[k] = q[k] + acc[0];
            u[k + 1] = q[k + 1] + acc[1];
            u[k + 2] = q[k + 2] + acc[2];
        }
    }

    /// The friction error of `r` for the law `kind`, `u = W r + q` by block rows: the same
    /// numbers as [`friction_error_with_velocity`](crate::merit::friction_error_with_velocity)
    /// with that `u` (`norm_q = ‖q‖`), without allocating for small problems.
    pub(crate) fn error(
        &self,
        problem: &FrictionContact,
        r: &[f64],
        kind: FrictionKind,
        norm_q: f64,
    ) -> Residual {
        /// Problems up to this many unknowns keep `u` on the stack.
        const STACK: usize = 48;
        let n = problem.q().len();
        let mut stack = [0.0; STACK];
        let mut heap = Vec::new();
        let u = if n <= STACK {
            &mut stack[..n]
        } else {
            heap.resize(n, 0.0);
            &mut heap[..]
        };
        self.velocity_into(problem.q().as_slice(), r, u);
        friction_residual(
            r,
            u,
            problem.q().as_slice(),
            problem.mu().as_slice(),
            kind,
            norm_q,
        )
    }

    /// `acc += Σ_{d≠c} W_cd r_d` over block row `c`, the diagonal block left out.
    #[inline]
    pub(crate) fn row_product_off_diagonal(&self, c: usize, r: &[f64], acc: &mut [f64; 3]) {
        for s in self.ptr[c]..self.ptr[c + 1] {
            if self.col[s] == c {
                continue;
            }
            let d = 3 * self.col[s];
            let b = &self.val[s];
            let (r0, r1, r2) = (r[d], r[d + 1], r[d + 2]);
            acc[0] += b[0] * r0 + b[1] * r1 + b[2] * r2;
            acc[1] += b[3] * r0 + b[4] * r1 + b[5] * r2;
            acc[2] += b[6] * r0 + b[7] * r1 + b[8] * r2;
        }
    }

    /// `acc += Σ_d W_cd r_d` over block row `c`.
    #[inline]
    pub(crate) fn row_product(&self, c: usize, r: &[f64], acc: &mut [f64; 3]) {
        for s in self.ptr[c]..self.ptr[c + 1] {
            let d = 3 * self.col[s];
            let b = &self.val[s];
            let (r0, r1, r2) = (r[d], r[d + 1], r[d + 2]);
            acc[0] += b[0] * r0 + b[1] * r1 + b[2] * r2;
            acc[1] += b[3] * r0 + b[4] * r1 + b[5] * r2;
            acc[2] += b[6] * r0 + b[7] * r1 + b[8] * r2;
        }
    }
}

/// The blocked (per-contact) nonsmooth Gauss-Seidel for [`FrictionContact`], with its
/// precomputed data (the symbolic part: block layout, diagonal blocks and their inverses).
///
/// One sweep visits the contacts in order; contact `c` sees the others frozen,
/// `q̃ = q_c + Σ_{d≠c} W_cd r_d`, and its 3x3 problem is solved exactly
/// ([`solve_contact`](super::solve_contact)), on the Coulomb cone with the De Saxce term or
/// for the CCP, so that the sweep is a true block Gauss-Seidel.
///
/// # Reference
/// Jean 1999 and Moreau 1999 (nonsmooth contact dynamics); Erleben 2007 §3 (the
/// row-by-row box version); Acary, Bremond, Huber 2018 (NSGS in Siconos).
#[derive(Debug, Clone)]
pub struct BlockedGaussSeidel<'a> {
    problem: &'a FrictionContact,
    prepared: NsgsPrepared,
}

/// What NSGS keeps between sweeps: the block layout of `W`, the diagonal blocks with their
/// inverses, and the law solved. It does not borrow the problem, so that one preparation
/// serves consecutive problems: [`NsgsPrepared::refresh`] brings it to another problem of
/// the same size, rebuilding only what changed.
#[derive(Debug, Clone)]
pub struct NsgsPrepared {
    rows: BlockRows,
    diag: Vec<LocalBlock>,
    kind: FrictionKind,
    /// `‖q‖` of the problem last refreshed (the denominator of the relative error).
    norm_q: f64,
    /// The stored numbers of the `W` that `rows` and `diag` were built from.
    seen: SeenMatrix,
    /// Scratch for [`BlockRows::fill`].
    slot: Vec<usize>,
}

/// A copy of a matrix's storage, to tell cheaply whether the next problem has the same `W`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct SeenMatrix {
    dense: bool,
    nrows: usize,
    /// Sparse: the row offsets and column indices.
    pattern: (Vec<usize>, Vec<usize>),
    values: Vec<f64>,
}

impl SeenMatrix {
    /// Whether `w` stores exactly these numbers (`-0.0` and `0.0` alike, as the blocks do).
    pub(crate) fn same(&self, w: &Matrix) -> bool {
        match w {
            Matrix::Dense(m) => {
                self.dense && self.nrows == m.nrows() && self.values == m.as_slice()
            }
            Matrix::Sparse(m) => {
                !self.dense
                    && self.nrows == m.nrows()
                    && self.pattern.0 == m.row_offsets()
                    && self.pattern.1 == m.col_indices()
                    && self.values == m.values()
            }
        }
    }

    pub(crate) fn set(&mut self, w: &Matrix) {
        fn copy<T: Copy>(to: &mut Vec<T>, from: &[T]) {
            to.clear();
            to.extend_from_slice(from);
        }
        self.nrows = w.nrows();
        match w {
            Matrix::Dense(m) => {
                self.dense = true;
                self.pattern.0.clear();
                self.pattern.1.clear();
                copy(&mut self.values, m.as_slice());
            }
            Matrix::Sparse(m) => {
                self.dense = false;
                copy(&mut self.pattern.0, m.row_offsets());
                copy(&mut self.pattern.1, m.col_indices());
                copy(&mut self.values, m.values());
            }
        }
    }
}

impl NsgsPrepared {
    /// The block layout and diagonal blocks of `problem`'s `W`, for the law `kind`.
    ///
    /// # Errors
    /// [`ProblemError::NonPositiveDiagonal`] if a normal diagonal entry `W_nn` of a contact
    /// is not positive (its normal row carries no information).
    pub fn new(problem: &FrictionContact, kind: FrictionKind) -> Result<Self, ProblemError> {
        let mut p = NsgsPrepared {
            rows: BlockRows {
                ptr: Vec::new(),
                col: Vec::new(),
                val: Vec::new(),
            },
            diag: Vec::new(),
            kind,
            norm_q: 0.0,
            seen: SeenMatrix::default(),
            slot: Vec::new(),
        };
        p.rebuild(problem)?;
        Ok(p)
    }

    /// Brings the preparation to `problem` (same number of contacts or not) for the law
    /// `kind`: when its `W` stores the same numbers as the last one's (a time stepper's
    /// unchanged `W`, or the problem just prepared), only `‖q‖` is read again; otherwise the
    /// blocks are rebuilt in the storage already allocated, and a diagonal block's inverse is
    /// recomputed only if the block changed.
    ///
    /// # Errors
    /// As [`NsgsPrepared::new`].
    pub fn refresh(
        &mut self,
        problem: &FrictionContact,
        kind: FrictionKind,
    ) -> Result<(), ProblemError> {
        self.kind = kind;
        if self.seen.same(problem.w()) {
            self.norm_q = scaled_norm(problem.q().as_slice());
            Ok(())
        } else {
            self.rebuild(problem)
        }
    }

    fn rebuild(&mut self, problem: &FrictionContact) -> Result<(), ProblemError> {
        // forget the old `W` until the new one is fully taken (an error leaves it unseen)
        self.seen.values.clear();
        self.seen.nrows = usize::MAX;
        self.rows.fill(problem.w(), &mut self.slot);
        let nc = problem.contacts();
        self.diag.truncate(nc);
        for c in 0..nc {
            let mut b = Matrix3::zeros();
            for s in self.rows.ptr[c]..self.rows.ptr[c + 1] {
                if self.rows.col[s] == c {
                    b = Matrix3::from_row_slice(&self.rows.val[s]);
                }
            }
            if !(b[(0, 0)] > 0.0) {
                return Err(ProblemError::NonPositiveDiagonal {
                    what: "W",
                    row: 3 * c,
                    value: b[(0, 0)],
                });
            }
            match self.diag.get_mut(c) {
                Some(old) if old.w == b => {}
                Some(old) => *old = LocalBlock::new(b),
                None => self.diag.push(LocalBlock::new(b)),
            }
        }
        self.norm_q = scaled_norm(problem.q().as_slice());
        self.seen.set(problem.w());
        Ok(())
    }

    /// `u = W r + q`, with the block layout (cheaper than a general product when `W` was
    /// given dense).
    pub fn velocity(&self, problem: &FrictionContact, r: &DVector<f64>) -> DVector<f64> {
        let mut u = DVector::zeros(problem.q().len());
        self.rows
            .velocity_into(problem.q().as_slice(), r.as_slice(), u.as_mut_slice());
        u
    }

    /// The error of `r` in every measure, for the law prepared: the same numbers as
    /// [`friction_error_with_velocity`](crate::merit::friction_error_with_velocity) with
    /// [`NsgsPrepared::velocity`], without allocating for small problems.
    pub fn error(&self, problem: &FrictionContact, r: &DVector<f64>) -> Residual {
        self.rows
            .error(problem, r.as_slice(), self.kind, self.norm_q)
    }

    // ANCHOR: nsgs_sweep
    /// One sweep over all contacts, in place (`r` has `3nc` entries).
    pub fn sweep(&self, problem: &FrictionContact, r: &mut DVector<f64>) {
        let q = problem.q();
        let mu = problem.mu();
        for c in 0..self.diag.len() {
            let k = 3 * c;
            // q̃ = q_c + Σ_{d≠c} W_cd r_d
            let mut acc = [q[k], q[k + 1], q[k + 2]];
            self.rows
                .row_product_off_diagonal(c, r.as_slice(), &mut acc);
            let qt = Vector3::from(acc);
            let warm = [r[k], r[k + 1], r[k + 2]];
            let sol = solve_block(&self.diag[c], &qt, mu[c], self.kind, warm, false);
            r[k] = sol.r[0];
            r[k + 1] = sol.r[1];
            r[k + 2] = sol.r[2];
        }
    }
    // ANCHOR_END: nsgs_sweep
}

/// Options of the blocked nonsmooth Gauss-Seidel ([`Nsgs`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NsgsOptions {
    /// The law solved: `None` (default) the problem's own, or Coulomb or CCP.
    pub kind: Option<FrictionKind>,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl MethodOptions for NsgsOptions {}

// ANCHOR: nsgs_method
/// The blocked nonsmooth Gauss-Seidel (NSGS) as a [`Method`]: one iteration is one sweep
/// ([`NsgsPrepared::sweep`]); see [`blocked_gauss_seidel`].
#[derive(Debug, Clone, Copy)]
pub struct Nsgs;

impl Method for Nsgs {
    type Problem = FrictionContact;
    type Options = NsgsOptions;
    type Prepared = (NsgsOptions, NsgsPrepared);
    type Stats = ();

    /// The block layout, the diagonal blocks and their inverses of `problem`'s `W`.
    fn prepare(
        problem: &FrictionContact,
        options: &NsgsOptions,
    ) -> Result<Self::Prepared, SolveError> {
        let kind = options.kind.unwrap_or(problem.kind());
        Ok((options.clone(), NsgsPrepared::new(problem, kind)?))
    }

    /// Nothing for the problem prepared; for another one, the blocks of its `W` that differ
    /// ([`NsgsPrepared::refresh`]).
    fn start(
        prepared: &mut Self::Prepared,
        problem: &FrictionContact,
        _: &DVector<f64>,
    ) -> Result<(), SolveError> {
        let kind = prepared.0.kind.unwrap_or(problem.kind());
        prepared.1.refresh(problem, kind)?;
        Ok(())
    }

    fn step(
        prepared: &mut Self::Prepared,
        problem: &FrictionContact,
        r: &mut DVector<f64>,
        _: &mut (),
    ) -> Result<Step, SolveError> {
        prepared.1.sweep(problem, r);
        Ok(Step::Moved)
    }

    fn error(prepared: &Self::Prepared, problem: &FrictionContact, r: &DVector<f64>) -> Residual {
        prepared.1.error(problem, r)
    }
}
// ANCHOR_END: nsgs_method

impl<'a> BlockedGaussSeidel<'a> {
    /// Precomputes the block layout and the diagonal blocks.
    ///
    /// # Errors
    /// [`ProblemError::NonPositiveDiagonal`] if a normal diagonal entry `W_nn` of a contact
    /// is not positive (its normal row carries no information).
    pub fn new(problem: &'a FrictionContact) -> Result<Self, ProblemError> {
        Ok(BlockedGaussSeidel {
            problem,
            prepared: NsgsPrepared::new(problem, problem.kind())?,
        })
    }

    /// Solves for the law `kind` instead of the problem's own.
    pub fn with_kind(mut self, kind: FrictionKind) -> Self {
        self.prepared.kind = kind;
        self
    }

    /// The law being solved.
    pub fn kind(&self) -> FrictionKind {
        self.prepared.kind
    }

    /// `u = W r + q`, with the block layout.
    pub fn velocity(&self, r: &DVector<f64>) -> DVector<f64> {
        self.prepared.velocity(self.problem, r)
    }

    /// One sweep over all contacts, in place (`r` has `3nc` entries).
    pub fn sweep(&self, r: &mut DVector<f64>) {
        self.prepared.sweep(self.problem, r)
    }

    /// Sweeps until the natural-map error of `kind` meets `params.tol` (see
    /// [`blocked_gauss_seidel`]).
    pub fn solve(
        &self,
        r: &mut DVector<f64>,
        params: &Params,
        observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
    ) -> Result<SolveInfo, SolveError> {
        let mut prepared = (NsgsOptions::default(), self.prepared.clone());
        // `start` would rebuild what `new` built: run the loop on it as it is.
        solve_started::<Nsgs>(&mut prepared, self.problem, r, params, observer)
            .map_err(SolveError::drop_stats)
    }
}

/// Solves a [`FrictionContact`] problem (Coulomb or CCP, as the problem declares) by the
/// blocked nonsmooth Gauss-Seidel (NSGS).
///
/// `r` is the warm start and receives the answer (`3nc`). Stops when the natural-map error
/// ([`friction_error`](crate::merit::friction_error); Siconos 4.4 normalisation by default,
/// see [`Params::measure`]) is at most `params.tol`.
///
/// # Requirements
/// Every contact's `W_nn > 0` (checked). No convergence theorem covers Coulomb friction in
/// general; for CCP with `W` positive definite the method converges (it is block coordinate
/// descent on a strictly convex quadratic over a product of cones).
///
/// # Errors
/// [`SolveError::Problem`] (a non-positive `W_nn`, a wrong `r` length),
/// [`SolveError::NoConvergence`] at the sweep cap, [`SolveError::Diverged`] on overflow.
///
/// # Example
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::problem::{FrictionContact, FrictionKind};
/// use nonsmooth::solver::{Params, no_observer};
/// use nonsmooth::splitting::blocked_gauss_seidel;
/// // One contact pushed into the ground: it sticks with r = -W^-1 q.
/// let fc = FrictionContact::new(DMatrix::<f64>::identity(3, 3).into(),
///     DVector::from_vec(vec![-1.0, 0.1, 0.0]), DVector::from_vec(vec![0.5]),
///     FrictionKind::Coulomb).unwrap();
/// let mut r = DVector::zeros(3);
/// let info = blocked_gauss_seidel(&fc, &mut r, &Params::default(), &mut no_observer()).unwrap();
/// assert_eq!(info.iterations, 1);
/// assert!((r[0] - 1.0).abs() < 1e-15 && (r[1] + 0.1).abs() < 1e-15);
/// ```
pub fn blocked_gauss_seidel(
    problem: &FrictionContact,
    r: &mut DVector<f64>,
    params: &Params,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<SolveInfo, SolveError> {
    BlockedGaussSeidel::new(problem)?.solve(r, params, observer)
}
