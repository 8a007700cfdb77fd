//! Checked by `tests/laws/parallel_sweep.rs` and `tests/laws/velocity_gauss_seidel.rs`.

use std::ops::ControlFlow;

use crate::solver::MethodOptions;
use nalgebra::{DVector, Matrix3, Vector3};

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::colour::ContactColouring;
use super::contact::{LocalBlock, solve_block};
use super::packed::PackedRows;
use crate::linalg::csr_row_dot;
use crate::merit::{Residual, friction_residual, scaled_norm};
use serde::{Deserialize, Serialize};

use crate::problem::{FrictionKind, GlobalFrictionContact, ProblemError, check_len};
use crate::solver::{
    Iterate, Method, NonExhaustive, Params, SolveError, SolveInfo, Step, solve_started,
};

/// The velocity-space ("factorised") blocked Gauss-Seidel for a
/// [`GlobalFrictionContact`]: the same iteration as [`BlockedGaussSeidel`](super::BlockedGaussSeidel)
/// on `W = H^T M^-1 H`, without ever forming `W`.
///
/// It keeps the velocity `v = M^-1 (q + H r)` up to date. Contact `c` reads its velocity
/// `u_c = H_c^T v + b_c` (a sparse row product), solves its 3x3 problem with
/// `q̃ = u_c - W_cc r_c`, and pushes the change `Δr_c` back with `v += T_c Δr_c`, where
/// `T = M^-1 H` is precomputed once (Erleben 2007 eq. 31-33; Erleben 2017 eq. 25-26).
/// A sweep costs `O(nnz(H) + nnz(T))`; for rigid bodies (block-diagonal `M`) `T` has the
/// sparsity of `H`, so a sweep is linear in the number of contacts.
#[derive(Debug)]
pub struct VelocityGaussSeidel<'a> {
    problem: &'a GlobalFrictionContact,
    prepared: VgsPrepared,
}

/// What the velocity-space Gauss-Seidel keeps between sweeps (it does not borrow the
/// problem): the rows of `H^T` and `T^T = (M^-1 H)^T` packed contact by contact, the
/// diagonal blocks and the law.
#[derive(Debug, Clone)]
pub struct VgsPrepared {
    /// Contact `c`'s rows of `H^T` and `T^T` (`3nc x ndof` each; row `3c+k` is contact `c`,
    /// direction `k`), stored once per column they touch.
    rows: PackedRows,
    /// Unknowns of `v`.
    ndof: usize,
    diag: Vec<LocalBlock>,
    norm_q_local: f64,
    /// The local problem's `q` (`3 nc`), for the problem-scaled error.
    q_local: DVector<f64>,

    kind: FrictionKind,
}

impl VgsPrepared {
    /// Precomputes `T = M^-1 H` (sparse solves against the problem's Cholesky factor), the
    /// diagonal blocks `W_cc = H_c^T T_c` and `‖q_loc‖` for the error measure.
    ///
    /// # Errors
    /// [`ProblemError::NonPositiveDiagonal`] if a contact's `W_nn <= 0`;
    /// [`ProblemError::Unsupported`] if `v` has more than `u32::MAX` unknowns.
    pub fn new(problem: &GlobalFrictionContact, kind: FrictionKind) -> Result<Self, ProblemError> {
        let jac = problem.h().to_csr().transpose();
        let tt = problem.mass_factor().solve_columns(problem.h()).transpose();
        let nc = problem.contacts();
        let mut scratch = vec![0.0; problem.dofs()];
        let mut diag = Vec::with_capacity(nc);
        for c in 0..nc {
            let w =
                Matrix3::from_fn(|k, l| csr_row_dot(&jac, 3 * c + k, &tt, 3 * c + l, &mut scratch));
            if !(w[(0, 0)] > 0.0) {
                return Err(ProblemError::NonPositiveDiagonal {
                    what: "W = H^T M^-1 H",
                    row: 3 * c,
                    value: w[(0, 0)],
                });
            }
            diag.push(LocalBlock::new(w));
        }
        let free = problem.mass_factor().solve(problem.q());
        let q_local = problem.h().tr_mul_vec(&free) + problem.b();
        let rows = PackedRows::new(&jac, &tt)?;
        Ok(VgsPrepared {
            rows,
            ndof: problem.dofs(),
            diag,
            norm_q_local: scaled_norm(q_local.as_slice()),
            q_local,
            kind,
        })
    }

    // ANCHOR: velocity_sweep
    /// One sweep over all contacts: updates `r` (`3nc`) and keeps `v` (`ndof`) equal to
    /// `M^-1 (q + H r)`.
    pub fn sweep(
        &self,
        problem: &GlobalFrictionContact,
        r: &mut DVector<f64>,
        v: &mut DVector<f64>,
    ) {
        let (b, mu) = (problem.b().as_slice(), problem.mu().as_slice());
        let v = std::cell::Cell::from_mut(v.as_mut_slice()).as_slice_of_cells();
        for c in 0..self.diag.len() {
            let rc = [r[3 * c], r[3 * c + 1], r[3 * c + 2]];
            let new = self.update(
                c,
                b,
                mu[c],
                rc,
                |j| v[j].get(),
                |j, x| v[j].set(v[j].get() + x),
            );
            r.fixed_rows_mut::<3>(3 * c).copy_from_slice(&new);
        }
    }

    /// Contact `c`'s step of the sweep: reads `u_c = H_c^T v + b_c` through `get`, solves
    /// the 3x3 problem with `q̃ = u_c - W_cc r_c`, pushes `v += T_c Δr_c` through `add`
    /// and returns the new `r_c`.
    #[inline]
    fn update(
        &self,
        c: usize,
        b: &[f64],
        mu: f64,
        rc: [f64; 3],
        get: impl Fn(usize) -> f64,
        mut add: impl FnMut(usize, f64),
    ) -> [f64; 3] {
        let k = 3 * c;
        let (cols, vals) = self.rows.contact(c);
        // u_c = H_c^T v + b_c: one read of v per column of the contact
        let mut u = [b[k], b[k + 1], b[k + 2]];
        for (&j, x) in cols.iter().zip(vals.chunks_exact(6)) {
            let vj = get(j as usize);
            u[0] += x[0] * vj;
            u[1] += x[1] * vj;
            u[2] += x[2] * vj;
        }
        let qt = Vector3::from(u) - self.diag[c].w * Vector3::from(rc);
        let sol = solve_block(&self.diag[c], &qt, mu, self.kind, rc, false);
        // v += T_c Δr_c: one write of v per column
        let d = [sol.r[0] - rc[0], sol.r[1] - rc[1], sol.r[2] - rc[2]];
        if d != [0.0; 3] {
            for (&j, x) in cols.iter().zip(vals.chunks_exact(6)) {
                add(j as usize, x[3] * d[0] + x[4] * d[1] + x[5] * d[2]);
            }
        }
        sol.r
    }
    // ANCHOR_END: velocity_sweep

    /// The sweep of [`Self::sweep`] taken over the contacts in `order` (each once, or
    /// some skipped or repeated: the order is followed as given). With
    /// [`ContactColouring::order`] it does what [`Self::sweep_coloured`] does, one contact
    /// at a time.
    ///
    /// # Panics
    /// If `order` names a contact `>= nc`.
    pub fn sweep_in_order(
        &self,
        problem: &GlobalFrictionContact,
        order: &[usize],
        r: &mut DVector<f64>,
        v: &mut DVector<f64>,
    ) {
        let (b, mu) = (problem.b().as_slice(), problem.mu().as_slice());
        let v = std::cell::Cell::from_mut(v.as_mut_slice()).as_slice_of_cells();
        for &c in order {
            let rc = [r[3 * c], r[3 * c + 1], r[3 * c + 2]];
            let new = self.update(
                c,
                b,
                mu[c],
                rc,
                |j| v[j].get(),
                |j, x| v[j].set(v[j].get() + x),
            );
            r.fixed_rows_mut::<3>(3 * c).copy_from_slice(&new);
        }
    }

    // ANCHOR: coloured_sweep
    /// One sweep colour by colour, the blocks of a colour in parallel (rayon's current
    /// thread pool), the contacts of a block one after another. `colouring` must be
    /// [`Self::colouring`] (or another proper colouring of the same contacts): blocks of
    /// one colour then read and write disjoint entries of `v` and of `r`, and the result
    /// equals [`Self::sweep_in_order`] over [`ContactColouring::order`] exactly (the same
    /// operations on the same numbers).
    ///
    /// `r` is split into the blocks' disjoint slices; `v` is held as [`AtomicU64`] bit
    /// patterns during the sweep (copied in and out, `O(ndof)`), so that the parallel
    /// updates are safe Rust: with a colouring that is not proper the result would be
    /// wrong, but never undefined behaviour.
    ///
    /// # Panics
    /// If `colouring` was made for another number of contacts.
    pub fn sweep_coloured(
        &self,
        problem: &GlobalFrictionContact,
        colouring: &ContactColouring,
        r: &mut DVector<f64>,
        v: &mut DVector<f64>,
    ) {
        assert_eq!(
            colouring.contacts(),
            self.diag.len(),
            "sweep_coloured: a colouring of another problem"
        );
        let (b, mu) = (problem.b().as_slice(), problem.mu().as_slice());
        let va: Vec<AtomicU64> = v
            .as_slice()
            .par_iter()
            .map(|y| AtomicU64::new(y.to_bits()))
            .collect();
        let load = |a: &AtomicU64| f64::from_bits(a.load(Relaxed));
        let colour_of = colouring.blocks().colour_of();
        let size = colouring.block();
        for k in 0..colouring.colours() {
            r.as_mut_slice()
                .par_chunks_mut(3 * size)
                .enumerate()
                .filter(|(blk, _)| colour_of[*blk] == k)
                .for_each(|(blk, rb)| {
                    for (i, c) in colouring.contacts_of(blk).enumerate() {
                        let rc = [rb[3 * i], rb[3 * i + 1], rb[3 * i + 2]];
                        let new = self.update(
                            c,
                            b,
                            mu[c],
                            rc,
                            |j| load(&va[j]),
                            |j, x| va[j].store((load(&va[j]) + x).to_bits(), Relaxed),
                        );
                        rb[3 * i..3 * i + 3].copy_from_slice(&new);
                    }
                });
        }
        v.as_mut_slice()
            .par_iter_mut()
            .zip(&va)
            .for_each(|(y, z)| *y = load(z));
    }
    // ANCHOR_END: coloured_sweep

    /// The greedy colouring of the contacts in blocks of `block` consecutive contacts
    /// ([`ContactColouring`]; `block` 0 is taken as 1): two blocks conflict when rows of
    /// `H^T` or of `T^T = (M^-1 H)^T` of their contacts share a column (for rigid bodies:
    /// a contact of each shares a body that is not fixed).
    pub fn colouring(&self, block: usize) -> ContactColouring {
        ContactColouring::new(self.diag.len(), self.ndof, block, |c, f| {
            self.rows.columns(c, f)
        })
    }

    /// Number of contacts.
    pub fn contacts(&self) -> usize {
        self.diag.len()
    }

    /// Bytes of per-contact data a sweep reads from memory, summed over all contacts: the
    /// packed rows of `H^T` and `T^T` (values, column indices and offsets), the 3x3 blocks
    /// with their inverses, `b` and `mu`, and `r` read and written. The velocity `v` is not
    /// counted (it is shared by the contacts of a body and mostly read from cache), so
    /// this is a lower bound on the traffic of one sweep.
    pub fn bytes_streamed(&self) -> usize {
        let f = std::mem::size_of::<f64>();
        let nc = self.diag.len();
        self.rows.bytes() + nc * std::mem::size_of::<LocalBlock>() + nc * (3 * f + f + 2 * 3 * f)
    }

    /// The natural-map error of `r` with the contact velocity `u = H^T v + b`, normalised
    /// as for the local problem (`max(‖q_loc‖, ‖r‖, ‖u‖)` and `‖q_loc‖`).
    pub fn error(
        &self,
        problem: &GlobalFrictionContact,
        r: &DVector<f64>,
        v: &DVector<f64>,
    ) -> Residual {
        let u = problem.contact_velocity(v);
        friction_residual(
            r.as_slice(),
            u.as_slice(),
            self.q_local.as_slice(),
            problem.mu().as_slice(),
            self.kind,
            self.norm_q_local,
        )
    }
}

/// Options of the velocity-space Gauss-Seidel ([`Vgs`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VgsOptions {
    /// The law solved: `None` (default) the problem's own, or Coulomb or CCP.
    pub kind: Option<FrictionKind>,
    /// Sweep in parallel (default `false`): contacts are coloured greedily so that no two
    /// of one colour share a body ([`VgsPrepared::colouring`]), and each colour is swept
    /// with rayon on all cores ([`VgsPrepared::sweep_coloured`]). The sweep order is then
    /// colour by colour, so the iterates differ from the sequential sweep's.
    pub parallel: bool,
    /// With `parallel`, contacts per block of the colouring (default
    /// [`DEFAULT_COLOUR_BLOCK`]; at least 1): consecutive contacts are coloured and swept
    /// together, in Gauss-Seidel order inside a block ([`ContactColouring`]).
    pub block: usize,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl MethodOptions for VgsOptions {}

impl Default for VgsOptions {
    fn default() -> Self {
        VgsOptions {
            kind: None,
            parallel: false,
            block: DEFAULT_COLOUR_BLOCK,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

/// The default [`VgsOptions::block`]: 4096 consecutive contacts per block of the colouring.
/// Large blocks keep most of the plain sweep's order (and so its convergence per sweep) and
/// its memory locality, and need few colours; `examples/sweep_scale.rs` compares block
/// sizes on generated walls (the book's *The sweep at scale*, `splitting-scale.md`). A scene
/// needs many times this many contacts for its blocks to be shared evenly among threads.
pub const DEFAULT_COLOUR_BLOCK: usize = 4096;

/// The velocity-space blocked Gauss-Seidel as a [`Method`]: one iteration is one sweep
/// ([`VgsPrepared::sweep`]), with `v = M^-1 (q + H r)` kept in the prepared state.
#[derive(Debug, Clone, Copy)]
pub struct Vgs;

/// [`Vgs`]'s state: the options, the prepared operators, and the velocity `v`.
#[derive(Debug, Clone)]
pub struct VgsState {
    options: VgsOptions,
    prepared: Option<VgsPrepared>,
    colouring: Option<ContactColouring>,
    v: DVector<f64>,
}

impl VgsState {
    /// The velocity `v = M^-1 (q + H r)` of the last iterate.
    pub fn velocity(&self) -> &DVector<f64> {
        &self.v
    }
}

impl Method for Vgs {
    type Problem = GlobalFrictionContact;
    type Options = VgsOptions;
    type Prepared = VgsState;
    type Stats = ();

    fn prepare(_: &GlobalFrictionContact, options: &VgsOptions) -> Result<VgsState, SolveError> {
        if options.block == 0 {
            return Err(SolveError::Problem(ProblemError::InvalidOption {
                method: "vgs".into(),
                option: "block".into(),
                reason: "block = 0: a block holds at least one contact".into(),
            }));
        }
        Ok(VgsState {
            options: options.clone(),
            prepared: None,
            colouring: None,
            v: DVector::zeros(0),
        })
    }

    fn start(
        state: &mut VgsState,
        problem: &GlobalFrictionContact,
        r: &DVector<f64>,
    ) -> Result<(), SolveError> {
        let kind = state.options.kind.unwrap_or(problem.kind());
        let prepared = VgsPrepared::new(problem, kind)?;
        state.colouring = state
            .options
            .parallel
            .then(|| prepared.colouring(state.options.block));
        state.prepared = Some(prepared);
        state.v = problem.velocity_dofs(r);
        Ok(())
    }

    fn step(
        state: &mut VgsState,
        problem: &GlobalFrictionContact,
        r: &mut DVector<f64>,
        _: &mut (),
    ) -> Result<Step, SolveError> {
        let p = state.prepared.as_ref().expect("started");
        match &state.colouring {
            Some(colouring) => p.sweep_coloured(problem, colouring, r, &mut state.v),
            None => p.sweep(problem, r, &mut state.v),
        }
        Ok(Step::Moved)
    }

    fn error(state: &VgsState, problem: &GlobalFrictionContact, r: &DVector<f64>) -> Residual {
        let p = state.prepared.as_ref().expect("started");
        p.error(problem, r, &state.v)
    }
}

impl<'a> VelocityGaussSeidel<'a> {
    /// Precomputes `T = M^-1 H` (sparse solves against the problem's Cholesky factor), the
    /// diagonal blocks `W_cc = H_c^T T_c` and `‖q_loc‖` for the error measure.
    ///
    /// # Errors
    /// [`ProblemError::NonPositiveDiagonal`] if a contact's `W_nn <= 0`.
    pub fn new(problem: &'a GlobalFrictionContact) -> Result<Self, ProblemError> {
        Ok(VelocityGaussSeidel {
            problem,
            prepared: VgsPrepared::new(problem, problem.kind())?,
        })
    }

    /// Solves for the law `kind` instead of the problem's own.
    pub fn with_kind(mut self, kind: FrictionKind) -> Self {
        self.prepared.kind = kind;
        self
    }

    /// `v = M^-1 (q + H r)` for a given `r`.
    pub fn velocity_dofs(&self, r: &DVector<f64>) -> DVector<f64> {
        self.problem.velocity_dofs(r)
    }

    /// One sweep over all contacts: updates `r` (`3nc`) and keeps `v` (`ndof`) equal to
    /// `M^-1 (q + H r)`.
    pub fn sweep(&self, r: &mut DVector<f64>, v: &mut DVector<f64>) {
        self.prepared.sweep(self.problem, r, v)
    }

    /// The natural-map error of `r` with the contact velocity `u = H^T v + b`.
    pub fn error(&self, r: &DVector<f64>, v: &DVector<f64>) -> Residual {
        self.prepared.error(self.problem, r, v)
    }

    /// Sweeps until the error meets `params.tol`. `r` is the warm start and answer; `v`
    /// receives the velocities `M^-1 (q + H r)` (its input value is ignored).
    pub fn solve(
        &self,
        r: &mut DVector<f64>,
        v: &mut DVector<f64>,
        params: &Params,
        observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
    ) -> Result<SolveInfo, SolveError> {
        check_len("r", self.problem.dim(), r.len())?;
        let mut state = VgsState {
            options: VgsOptions {
                kind: Some(self.prepared.kind),
                ..Default::default()
            },
            prepared: Some(self.prepared.clone()),
            colouring: None,
            v: self.velocity_dofs(r),
        };
        let result = solve_started::<Vgs>(&mut state, self.problem, r, params, observer);
        *v = match result {
            // r was restored to the last finite iterate: bring v in line
            Err(SolveError::Diverged { .. }) => self.velocity_dofs(r),
            _ => state.v,
        };
        result
    }
}

/// Solves a [`GlobalFrictionContact`] by the velocity-space blocked Gauss-Seidel (see
/// [`VelocityGaussSeidel`]); `r` is the warm start and answer, and the returned vector is
/// the velocity `v`.
///
/// # Errors
/// As [`blocked_gauss_seidel`](super::blocked_gauss_seidel).
pub fn velocity_gauss_seidel(
    problem: &GlobalFrictionContact,
    r: &mut DVector<f64>,
    params: &Params,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<(SolveInfo, DVector<f64>), SolveError> {
    let solver = VelocityGaussSeidel::new(problem)?;
    let mut v = DVector::zeros(problem.dofs());
    let info = solver.solve(r, &mut v, params, observer)?;
    Ok((info, v))
}
