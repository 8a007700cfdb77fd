//! PROX Jacobi and Gauss-Seidel (Erleben 2017 §4, Algorithms 1 and 2) with adaptive
//! r-factors.

use std::ops::ControlFlow;

use nalgebra::DVector;
use nalgebra_sparse::CsrMatrix;
use serde::{Deserialize, Serialize};

use super::problem::{Form, ProxProblem};
use super::rfactor::{RBlock, RFactor, initial_blocks, power_extremes};
use crate::matrix::Matrix;
use crate::merit::Residual;
use crate::problem::{ProblemError, check_len};
use crate::solver::{Driver, Iterate, Next, NonExhaustive, Params, SolveError, SolveInfo, Status};

/// Jacobi (Algorithm 1) or Gauss-Seidel (Algorithm 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scheme {
    /// Every contact reads the previous iterate `λ^k` (eq. 22-23); the friction set is
    /// scaled by the previous normal value `λ_N^k`.
    Jacobi,
    /// Contacts in order, each reading the latest values (eq. 24-26); the friction set is
    /// scaled by the new normal value `λ_N^{k+1}`.
    #[default]
    GaussSeidel,
}

impl Scheme {
    /// `"prox-jacobi"` or `"prox-gs"`.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Jacobi => "prox-jacobi",
            Scheme::GaussSeidel => "prox-gs",
        }
    }
}

/// The blocks a Gauss-Seidel sweep updates one at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Blocks {
    /// One contact at a time: `z_I = λ_I - R_I v_I` for all its rows, then project
    /// (Algorithm 2 as printed).
    #[default]
    Contact,
    /// One factor of the contact's set at a time ([`crate::prox::ContactLaw::factors`]):
    /// the friction part reads the normal value just computed. For the box law the factors
    /// are single rows, and with fixed local r-factors this sweep *is* projected
    /// Gauss-Seidel ([`crate::splitting::sweep_boxed`]). Ignored by Jacobi.
    Factor,
}

/// Relative size below which a step equal to the last is rounding noise, not a two-cycle
/// (see the loop of [`Prox::solve`]).
const EQUAL_STEP_NOISE: f64 = 1e-12;

/// The window of the nonmonotone divergence test in [`ProxOptions::recommended`], in
/// accepted sweeps.
pub const RECOMMENDED_WINDOW: usize = 1000;

/// The options of a PROX solve (the loop's tolerance and iteration cap are in
/// [`Params`]). Build with `ProxOptions { r_factor: RFactor::Local, ..Default::default() }`.
///
/// # Two settings: the paper's and the recommended one
/// [`ProxOptions::default`] (the same as [`ProxOptions::paper`]) is Erleben 2017 exactly:
/// Gauss-Seidel, `Global { r: 5 }`, `ν = 0.5`, and the divergence test against the last
/// step (window 1). The crate's experiments are written as "the paper's scheme with one
/// thing changed" (`ProxOptions { r_factor, ..Default::default() }`), so the default stays
/// the paper's. It is **not** the setting to use on real problems: on the shared Siconos
/// fc3d files it converges on 19 of 27 (`book/src/generated/prox_shared.txt`).
///
/// [`ProxOptions::recommended`] is the measured best setting per scheme, and what the
/// method registry ([`crate::method`]) and the command line run for `prox-gs` and
/// `prox-jacobi`: Gauss-Seidel with Local r-factors and a nonmonotone window of
/// [`RECOMMENDED_WINDOW`] sweeps (27 of 27 shared `.dat` files), Jacobi with Blocked
/// r-factors and the same window (23 of 27). The two schemes need different r-factors,
/// which is why the recommended setting is a function of the scheme rather than the
/// `Default`.
#[derive(Debug, Clone, PartialEq)]
pub struct ProxOptions {
    /// Jacobi or Gauss-Seidel. Default Gauss-Seidel.
    pub scheme: Scheme,
    /// The initial r-factors. Default `Global { r: 5.0 }` (the paper's; see
    /// [`ProxOptions::recommended`] for the setting that converges on more problems).
    pub r_factor: RFactor,
    /// Backtracking factor `ν` in `(0, 1)`; `None` (default) takes the strategy's
    /// ([`RFactor::default_nu`]: 0.9 Local, 0.5 otherwise).
    pub nu: Option<f64>,
    /// Roll back and shrink `R` when the step grows (default `true`). `false` keeps `R`
    /// fixed: the classical projected schemes.
    pub adaptive: bool,
    /// The initial `R` is multiplied by `omega > 0` (default 1): with `Local` on the box
    /// law, `omega` is the relaxation of projected SOR.
    pub omega: f64,
    /// Gauss-Seidel blocks. Default [`Blocks::Contact`].
    pub blocks: Blocks,
    /// Divergence test window `W >= 1`: a sweep is rolled back when its step exceeds the
    /// largest of the last `W` accepted steps. Default 1, the paper's test `r^{k+1} > r^k` (with
    /// equality counted as growth, see the loop).
    /// A wider window is a nonmonotone test (Grippo, Lampariello, Lucidi 1986) that lets a
    /// convergent but nonmonotone Gauss-Seidel sequence keep its r-factors; it is not in
    /// Erleben 2017 (see the book's *PROX experiments* for why it matters). `usize::MAX`
    /// compares with every accepted step: only a step larger than all before it counts as
    /// divergence.
    pub window: usize,
    /// Stop (status `Stopped`) when the step `‖λ^{k+1} - λ^k‖_∞ <= step_abs_tol` (the
    /// paper's absolute test, in the units of `λ`). Default 0: off.
    pub step_abs_tol: f64,
    /// Stop (status `Stopped`) when `|r^{k+1} - r^k| <= step_rel_tol r^k` for the steps
    /// `r` (the paper's relative test). Default 0: off.
    pub step_rel_tol: f64,
    #[doc(hidden)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for ProxOptions {
    /// Erleben 2017's setting, [`ProxOptions::paper`]`(Scheme::GaussSeidel)`; not the
    /// recommended one ([`ProxOptions::recommended`]).
    fn default() -> Self {
        ProxOptions {
            scheme: Scheme::GaussSeidel,
            r_factor: RFactor::default(),
            nu: None,
            adaptive: true,
            omega: 1.0,
            blocks: Blocks::Contact,
            window: 1,
            step_abs_tol: 0.0,
            step_rel_tol: 0.0,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

impl ProxOptions {
    /// Erleben 2017's setting exactly (the same as [`ProxOptions::default`]): `scheme`,
    /// `Global { r: 5 }` (§4.2, the hardwired value of the paper's experiments), `ν = 0.5`,
    /// and a sweep rolled back when its step is not shorter than the last (window 1;
    /// eq. 27 with equality counted as growth, see [`Prox::solve_with_stats`]).
    pub fn paper(scheme: Scheme) -> Self {
        ProxOptions {
            scheme,
            ..Default::default()
        }
    }

    /// The setting that converges on the most problems, measured per scheme; what
    /// [`crate::method::solve`] and `nonsmooth solve --method prox-gs` / `prox-jacobi`
    /// run. Both use the nonmonotone divergence test with a window of
    /// [`RECOMMENDED_WINDOW`] sweeps (Grippo, Lampariello, Lucidi 1986; not in Erleben 2017):
    ///
    /// * Gauss-Seidel: [`RFactor::Local`] (eq. 39, `ν = 0.9`). On the 27 shared Siconos
    ///   fc3d `.dat` files at tolerance 1e-8 it converges on all 27 (the paper's setting: 19),
    ///   the slowest (`BoxesStack1`) in 261 346 sweeps, which is why the command line's
    ///   default sweep cap for PROX is [`crate::method::PROX_DEFAULT_MAX_ITER`]
    ///   (`book/src/generated/prox_shared.txt`); on the 45
    ///   generated scenes at 1e-6 it converges on as many as any Gauss-Seidel setting (36)
    ///   with the fewest rollbacks (`book/src/generated/prox_schemes.txt`).
    /// * Jacobi: [`RFactor::Blocked`] (`ν = 0.5`). On the generated scenes it converges on
    ///   39 of 45, as many as any Jacobi setting, where Local with the window converges on
    ///   only 26 (a truly divergent Jacobi sweep is accepted until it beats the largest
    ///   recent step); on the shared files it converges on 23 of 27 within 10^5 sweeps,
    ///   where Local with the paper's test converges on 20 (its rollbacks shrink `R` until
    ///   the iterates stop moving). Jacobi does not converge everywhere Gauss-Seidel does.
    pub fn recommended(scheme: Scheme) -> Self {
        let r_factor = match scheme {
            Scheme::GaussSeidel => RFactor::Local,
            Scheme::Jacobi => RFactor::Blocked,
        };
        ProxOptions {
            scheme,
            r_factor,
            window: RECOMMENDED_WINDOW,
            ..Default::default()
        }
    }

    /// `ν` in effect.
    pub fn nu(&self) -> f64 {
        self.nu.unwrap_or(self.r_factor.default_nu())
    }

    fn check(&self) -> Result<(), ProblemError> {
        let bad = |what: &str, v: f64| {
            Err(ProblemError::Unsupported {
                reason: format!("PROX option {what} = {v} is out of range"),
            })
        };
        let nu = self.nu();
        if !(nu > 0.0 && nu < 1.0) {
            return bad("nu (must lie in (0, 1))", nu);
        }
        if !(self.omega > 0.0 && self.omega.is_finite()) {
            return bad("omega (must be positive)", self.omega);
        }
        if self.window == 0 {
            return bad("window (must be at least 1)", 0.0);
        }
        if !(self.step_abs_tol >= 0.0) {
            return bad("step_abs_tol", self.step_abs_tol);
        }
        if !(self.step_rel_tol >= 0.0) {
            return bad("step_rel_tol", self.step_rel_tol);
        }
        if let RFactor::Global { r } = self.r_factor
            && !(r > 0.0 && r.is_finite())
        {
            return bad("global r-factor", r);
        }
        Ok(())
    }
}

/// Why a PROX solve stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// The measured error met `Params::tol`.
    Converged,
    /// The step met [`ProxOptions::step_abs_tol`].
    StepAbsolute,
    /// The step stagnated: [`ProxOptions::step_rel_tol`].
    StepRelative,
    /// The sweep cap `Params::max_iter` was reached.
    MaxIterations,
    /// The observer asked to stop.
    Observer,
    /// An iterate became non-finite (only without adaptive backtracking).
    Diverged,
}

/// What a PROX solve did besides its [`SolveInfo`] (filled on success and on failure).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProxStats {
    /// Sweeps done, accepted or rolled back (the `iterations` of the [`SolveInfo`]).
    pub sweeps: usize,
    /// Sweeps accepted (`k` of Algorithms 1-2).
    pub accepted: usize,
    /// Sweeps rolled back because the step grew (`r^{k+1} >= r^k`).
    pub rollbacks: usize,
    /// The factor `ν^rollbacks` by which `R` was shrunk in the end.
    pub r_scale: f64,
    /// `‖λ^{k+1} - λ^k‖_∞` of the last accepted sweep (infinite before the first).
    pub last_step: f64,
    /// Why it stopped (`None` before a solve).
    pub stop: Option<StopReason>,
}

impl Default for ProxStats {
    fn default() -> Self {
        ProxStats {
            sweeps: 0,
            accepted: 0,
            rollbacks: 0,
            r_scale: 1.0,
            last_step: f64::INFINITY,
            stop: None,
        }
    }
}

/// The local form's `A` as variable-size blocks by contact (a block CSR): the layout a
/// per-contact sweep reads. Blocks that are entirely zero are not stored.
#[derive(Debug, Clone)]
struct LocalOp {
    ptr: Vec<usize>,
    col: Vec<usize>,
    start: Vec<usize>,
    vals: Vec<f64>,
    offsets: Vec<usize>,
}

impl LocalOp {
    fn new(a: &Matrix, offsets: &[usize]) -> Self {
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

    /// `acc[k] += (A λ)_{o_c + k}` for the rows of contact `c`.
    #[inline]
    fn block_product(&self, c: usize, lam: &[f64], acc: &mut [f64; 4]) {
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
    fn row_product(&self, c: usize, k: usize, lam: &[f64]) -> f64 {
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
    fn diag_block(&self, c: usize) -> [f64; 16] {
        let d = self.offsets[c + 1] - self.offsets[c];
        let mut out = [0.0; 16];
        for s in self.ptr[c]..self.ptr[c + 1] {
            if self.col[s] == c {
                out[..d * d].copy_from_slice(&self.vals[self.start[s]..self.start[s] + d * d]);
            }
        }
        out
    }

    fn mul(&self, lam: &[f64], out: &mut [f64]) {
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
struct GlobalOp {
    jac: CsrMatrix<f64>,
    tt: CsrMatrix<f64>,
    free: DVector<f64>,
}

impl GlobalOp {
    #[inline]
    fn row_velocity(&self, i: usize, v: &[f64]) -> f64 {
        let row = self.jac.row(i);
        row.col_indices()
            .iter()
            .zip(row.values())
            .map(|(j, x)| x * v[*j])
            .sum()
    }

    #[inline]
    fn push(&self, i: usize, delta: f64, v: &mut [f64]) {
        if delta != 0.0 {
            let row = self.tt.row(i);
            for (j, x) in row.col_indices().iter().zip(row.values()) {
                v[*j] += x * delta;
            }
        }
    }

    fn reset(&self, lam: &[f64], v: &mut [f64]) {
        v.copy_from_slice(self.free.as_slice());
        for (i, l) in lam.iter().enumerate() {
            self.push(i, *l, v);
        }
    }

    fn entry(&self, i: usize, j: usize, scratch: &mut [f64]) -> f64 {
        let ra = self.jac.row(i);
        for (k, v) in ra.col_indices().iter().zip(ra.values()) {
            scratch[*k] = *v;
        }
        let rb = self.tt.row(j);
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

    /// `y = H^T M^-1 H x = H^T (T x)`.
    fn apply(&self, x: &DVector<f64>) -> DVector<f64> {
        let mut v = vec![0.0; self.free.len()];
        for (i, l) in x.iter().enumerate() {
            self.push(i, *l, &mut v);
        }
        DVector::from_fn(x.len(), |i, _| self.row_velocity(i, &v))
    }
}

#[derive(Debug, Clone)]
enum Op {
    Local(LocalOp),
    Global(GlobalOp),
}

/// The state a sweep carries besides `λ`: the body velocity `v` of the global form (empty
/// for the local form) and the current r-factors.
#[derive(Debug, Clone)]
pub struct ProxState {
    v: Vec<f64>,
    r: Vec<RBlock>,
}

impl ProxState {
    /// For the global form, the velocities `v = M^-1 (q + H λ)` (`ndof`); empty for the
    /// local form.
    pub fn body_velocity(&self) -> &[f64] {
        &self.v
    }
}

/// A PROX solver for one [`ProxProblem`]: the precomputed layout (the block rows of `A`,
/// or `H^T` and `M^-1 H` for the global form) and the initial r-factors.
///
/// # Reference
/// Erleben 2017 §4, Algorithms 1-2 (the Gauss-Seidel variant uses the `w = M^-1 J^T λ`
/// factorisation of Erleben 2007, eq. 25-26); r-factor strategies §4.2.
#[derive(Debug, Clone)]
pub struct Prox<'a> {
    problem: &'a ProxProblem,
    op: Op,
    r0: Vec<RBlock>,
    options: ProxOptions,
    free_norm: f64,
    global_r: f64,
}

impl<'a> Prox<'a> {
    /// Precomputes the layout and the initial r-factors of `options.r_factor`.
    ///
    /// # Errors
    /// [`ProblemError::Unsupported`] for out-of-range options;
    /// [`ProblemError::NonPositiveDiagonal`] if a strategy that divides by `A_ii` (all but
    /// the global ones) meets `A_ii <= 0`; [`ProblemError::SingularBlock`] for
    /// `BlockedMatrix` with a singular friction block.
    pub fn new(problem: &'a ProxProblem, options: ProxOptions) -> Result<Self, ProblemError> {
        options.check()?;
        let nc = problem.contacts();
        let op = match &problem.form {
            Form::Local(a) => Op::Local(LocalOp::new(a, &problem.offsets)),
            Form::Global { h, q, factor, .. } => Op::Global(GlobalOp {
                jac: h.to_csr().transpose(),
                tt: factor.solve_columns(h).transpose(),
                free: factor.solve(q),
            }),
        };
        let blocks: Vec<[f64; 16]> = match &op {
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
        };
        let global_r = match options.r_factor {
            RFactor::Global { r } => r,
            RFactor::GlobalSpectral => {
                let (lo, hi) = spectral_extremes(problem, &op);
                let s = lo.abs() + hi.abs();
                if !(s > 0.0 && s.is_finite()) {
                    return Err(ProblemError::Unsupported {
                        reason: "the Delassus operator is zero: no spectral r-factor".into(),
                    });
                }
                1.0 / s
            }
            _ => 0.0,
        };
        let mut r0 = initial_blocks(
            &problem.laws,
            &problem.offsets,
            &blocks,
            options.r_factor,
            global_r,
        )?;
        for r in &mut r0 {
            r.scale(options.omega);
        }
        let free_norm = match &op {
            Op::Local(_) => crate::merit::scaled_norm(problem.b.as_slice()),
            Op::Global(g) => {
                let mut u = problem.b.clone();
                for i in 0..u.len() {
                    u[i] += g.row_velocity(i, g.free.as_slice());
                }
                crate::merit::scaled_norm(u.as_slice())
            }
        };
        Ok(Prox {
            problem,
            op,
            r0,
            options,
            free_norm,
            global_r,
        })
    }

    /// The options in effect.
    pub fn options(&self) -> &ProxOptions {
        &self.options
    }

    /// The constant of the global strategies (the `r` of `Global`, or the spectral
    /// `1 / (|λ_min| + |λ_max|)`); 0 for the others.
    pub fn global_r(&self) -> f64 {
        self.global_r
    }

    /// The initial r-factor of row `i`'s diagonal (for inspection and tests).
    pub fn initial_r(&self, row: usize) -> f64 {
        let c = self.problem.offsets.partition_point(|&o| o <= row) - 1;
        let k = row - self.problem.offsets[c];
        let r = &self.r0[c];
        r.m[k * r.d + k]
    }

    /// A fresh state for the iterate `λ` (initial r-factors; `v = M^-1 (q + H λ)` for the
    /// global form).
    pub fn state(&self, lam: &DVector<f64>) -> ProxState {
        let mut v = Vec::new();
        if let Op::Global(g) = &self.op {
            v = vec![0.0; g.free.len()];
            g.reset(lam.as_slice(), &mut v);
        }
        ProxState {
            v,
            r: self.r0.clone(),
        }
    }

    /// The contact velocity `v = A λ + b` of `λ` with its state (`out` has `m` entries).
    fn velocity_into(&self, lam: &[f64], st: &ProxState, out: &mut [f64]) {
        let b = self.problem.b.as_slice();
        match &self.op {
            Op::Local(l) => {
                l.mul(lam, out);
                for (o, bi) in out.iter_mut().zip(b) {
                    *o += bi;
                }
            }
            Op::Global(g) => {
                for (i, o) in out.iter_mut().enumerate() {
                    *o = g.row_velocity(i, &st.v) + b[i];
                }
            }
        }
    }

    /// The error of `λ` in the measure of [`ProxProblem::error_with_velocity`].
    pub fn error(&self, lam: &DVector<f64>, st: &ProxState) -> Residual {
        let mut v = vec![0.0; lam.len()];
        self.velocity_into(lam.as_slice(), st, &mut v);
        self.problem
            .error_with_velocity(lam.as_slice(), &v, self.free_norm)
    }

    /// One sweep with the state's r-factors, in place: `λ^{k+1}` from `λ^k` (Algorithm 1
    /// lines 3-9, or Algorithm 2 lines 3-10). `scratch` is used by Jacobi (`m` entries)
    /// and may be empty for Gauss-Seidel.
    pub fn sweep(&self, lam: &mut DVector<f64>, st: &mut ProxState, scratch: &mut Vec<f64>) {
        match (self.options.scheme, self.options.blocks) {
            (Scheme::GaussSeidel, Blocks::Contact) => self.sweep_gs(lam.as_mut_slice(), st),
            (Scheme::GaussSeidel, Blocks::Factor) => self.sweep_gs_factors(lam.as_mut_slice(), st),
            (Scheme::Jacobi, _) => self.sweep_jacobi(lam.as_mut_slice(), st, scratch),
        }
    }

    // ANCHOR: prox_gs_sweep
    /// Algorithm 2, one contact at a time.
    fn sweep_gs(&self, lam: &mut [f64], st: &mut ProxState) {
        let p = self.problem;
        let b = p.b.as_slice();
        for (c, law) in p.laws.iter().enumerate() {
            let o = p.offsets[c];
            let d = p.offsets[c + 1] - o;
            // v_I = (A λ + b)_I, or (J w + b)_I with w = M^-1 J^T λ kept up to date.
            let mut v = [0.0; 4];
            match &self.op {
                Op::Local(l) => l.block_product(c, lam, &mut v),
                Op::Global(g) => {
                    for (k, vk) in v.iter_mut().enumerate().take(d) {
                        *vk = g.row_velocity(o + k, &st.v);
                    }
                }
            }
            for k in 0..d {
                v[k] += b[o + k];
            }
            // z_I = λ_I - R_I v_I (line 6), then the proximal maps (lines 7-8).
            let mut z = [0.0; 4];
            st.r[c].apply(&lam[o..o + d], &v[..d], &mut z[..d]);
            let mut new = [0.0; 4];
            law.project(&z[..d], None, &mut new[..d]);
            // w += (M^-1 J^T)_{B,I} (λ_I^{k+1} - λ_I^k) (line 9).
            if let Op::Global(g) = &self.op {
                for k in 0..d {
                    g.push(o + k, new[k] - lam[o + k], &mut st.v);
                }
            }
            lam[o..o + d].copy_from_slice(&new[..d]);
        }
    }
    // ANCHOR_END: prox_gs_sweep

    /// Gauss-Seidel one factor of each contact's set at a time.
    fn sweep_gs_factors(&self, lam: &mut [f64], st: &mut ProxState) {
        let p = self.problem;
        let b = p.b.as_slice();
        for (c, law) in p.laws.iter().enumerate() {
            let o = p.offsets[c];
            for (f, &(s, len)) in law.factors().iter().enumerate() {
                let mut v = [0.0; 4];
                for (k, vk) in v.iter_mut().enumerate().take(len) {
                    let i = o + s + k;
                    *vk = b[i]
                        + match &self.op {
                            Op::Local(l) => l.row_product(c, s + k, lam),
                            Op::Global(g) => g.row_velocity(i, &st.v),
                        };
                }
                let mut z = [0.0; 4];
                st.r[c].apply_rows(s, len, &lam[o + s..o + s + len], &v[..len], &mut z[..len]);
                let mut new = [0.0; 4];
                law.project_factor(f, &z[..len], lam[o], &mut new[..len]);
                if let Op::Global(g) = &self.op {
                    for k in 0..len {
                        g.push(o + s + k, new[k] - lam[o + s + k], &mut st.v);
                    }
                }
                lam[o + s..o + s + len].copy_from_slice(&new[..len]);
            }
        }
    }

    // ANCHOR: prox_jacobi_sweep
    /// Algorithm 1: `z = λ^k - R (A λ^k + b)`, then every contact's proximal map, the
    /// friction set scaled by `λ_N^k`.
    fn sweep_jacobi(&self, lam: &mut [f64], st: &mut ProxState, scratch: &mut Vec<f64>) {
        let p = self.problem;
        scratch.resize(lam.len(), 0.0);
        self.velocity_into(lam, st, scratch);
        for (c, law) in p.laws.iter().enumerate() {
            let o = p.offsets[c];
            let d = p.offsets[c + 1] - o;
            let mut z = [0.0; 4];
            st.r[c].apply(&lam[o..o + d], &scratch[o..o + d], &mut z[..d]);
            let mut new = [0.0; 4];
            law.project(&z[..d], Some(lam[o]), &mut new[..d]);
            lam[o..o + d].copy_from_slice(&new[..d]);
        }
        if let Op::Global(g) = &self.op {
            g.reset(lam, &mut st.v);
        }
    }
    // ANCHOR_END: prox_jacobi_sweep

    /// Solves from the warm start `x` (`m` entries), which receives the answer. See
    /// [`Prox::solve_with_stats`].
    pub fn solve(
        &self,
        x: &mut DVector<f64>,
        params: &Params,
        observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
    ) -> Result<SolveInfo, SolveError> {
        self.solve_with_stats(x, params, &mut ProxStats::default(), observer)
    }

    // ANCHOR: prox_loop
    /// Algorithms 1-2 with adaptive r-factors: sweep; if the step `‖λ^{k+1} - λ^k‖_∞`
    /// grew (or is not finite), roll back to `λ^k` and shrink `R <- ν R`; otherwise accept.
    /// After each accepted sweep the error ([`ProxProblem::error_with_velocity`]) is
    /// measured every `params.check_every` sweeps and compared with `params.tol`; the
    /// paper's step tests ([`ProxOptions::step_abs_tol`], [`ProxOptions::step_rel_tol`])
    /// stop with status `Stopped` when set. Every sweep, rolled back or not, counts
    /// towards `params.max_iter` and in [`SolveInfo::iterations`].
    ///
    /// # Errors
    /// [`SolveError::Problem`] for a wrong `x` length; [`SolveError::NoConvergence`] at the
    /// sweep cap (with the measured error of the last accepted iterate);
    /// [`SolveError::Diverged`] if an iterate overflows without backtracking.
    pub fn solve_with_stats(
        &self,
        x: &mut DVector<f64>,
        params: &Params,
        stats: &mut ProxStats,
        observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
    ) -> Result<SolveInfo, SolveError> {
        check_len("x", self.problem.dim(), x.len())?;
        *stats = ProxStats::default();
        let mut st = self.state(x);
        let mut driver = Driver::new(params);
        let e0 = self.error(x, &st);
        if let Next::Finish(status) = driver.start(x, e0) {
            stats.stop = Some(StopReason::Converged);
            return driver.finish(status, 0, e0);
        }
        let nu = self.options.nu();
        let mut trial = x.clone();
        let mut trial_st = st.clone();
        let mut scratch = Vec::new();
        let mut step = f64::INFINITY; // r^k
        // The largest of the last `window` accepted steps.
        let mut recent = WindowMax::new(self.options.window);
        loop {
            trial.copy_from(x);
            trial_st.v.copy_from_slice(&st.v);
            self.sweep(&mut trial, &mut trial_st, &mut scratch);
            stats.sweeps += 1;
            let new_step = (&trial - &*x).amax();
            let reference = recent.max();
            // The paper's test is `r^{k+1} > r^k`. A step exactly as long as the reference
            // also counts: when `R` is too large for a block, the projection clamps it back
            // to where it was and the sweep cycles between two points with equal steps
            // (`W = diag(2, 1, 1)`, `r = 5`: `λ_n` alternates between 0 and 5 forever).
            // Only a step well above rounding counts so: once `R` is small the steps sit at
            // the rounding level of `λ`, where equal steps are noise, not a cycle.
            let noise = EQUAL_STEP_NOISE * x.amax().max(trial.amax());
            let grew = !(new_step <= reference) || (new_step == reference && new_step > noise);
            if self.options.adaptive && grew {
                // Divergence detected: keep λ^k, shrink every r-factor.
                stats.rollbacks += 1;
                stats.r_scale *= nu;
                for (r, r_trial) in st.r.iter_mut().zip(trial_st.r.iter_mut()) {
                    r.scale(nu);
                    *r_trial = *r;
                }
                if stats.sweeps >= params.max_iter {
                    stats.stop = Some(StopReason::MaxIterations);
                    let e = self.error(x, &st);
                    return driver.finish(Status::MaxIterations, stats.sweeps, e);
                }
                continue;
            }
            std::mem::swap(x, &mut trial);
            std::mem::swap(&mut st, &mut trial_st);
            let old_step = step;
            step = new_step;
            recent.push(step);
            stats.accepted += 1;
            stats.last_step = step;
            let measure = |lam: &DVector<f64>| self.error(lam, &st);
            let next = match driver.after_iteration(stats.sweeps, x, measure, observer) {
                Ok(n) => n,
                Err(e) => {
                    stats.stop = Some(StopReason::Diverged);
                    return Err(e);
                }
            };
            let stop = match next {
                Next::Finish(Status::Converged) => Some((Status::Converged, StopReason::Converged)),
                Next::Finish(Status::Stopped) => Some((Status::Stopped, StopReason::Observer)),
                Next::Finish(Status::MaxIterations) => {
                    Some((Status::MaxIterations, StopReason::MaxIterations))
                }
                Next::Continue
                    if self.options.step_abs_tol > 0.0 && step <= self.options.step_abs_tol =>
                {
                    Some((Status::Stopped, StopReason::StepAbsolute))
                }
                Next::Continue
                    if old_step.is_finite()
                        && (old_step - step).abs() <= self.options.step_rel_tol * old_step
                        && self.options.step_rel_tol > 0.0 =>
                {
                    Some((Status::Stopped, StopReason::StepRelative))
                }
                Next::Continue => None,
            };
            if let Some((status, reason)) = stop {
                stats.stop = Some(reason);
                let e = match (status, driver.last_error()) {
                    (Status::Converged | Status::MaxIterations, Some(e)) => e,
                    _ => self.error(x, &st),
                };
                return driver.finish(status, stats.sweeps, e);
            }
        }
    }
    // ANCHOR_END: prox_loop
}

/// The maximum of the last `w` values pushed (infinite before the first), in amortised
/// constant time: a deque of (index, value) with decreasing values.
struct WindowMax {
    w: usize,
    count: usize,
    q: std::collections::VecDeque<(usize, f64)>,
}

impl WindowMax {
    fn new(w: usize) -> Self {
        WindowMax {
            w,
            count: 0,
            q: std::collections::VecDeque::new(),
        }
    }

    fn push(&mut self, v: f64) {
        while self.q.back().is_some_and(|b| b.1 <= v) {
            self.q.pop_back();
        }
        self.q.push_back((self.count, v));
        self.count += 1;
        while self.q.front().is_some_and(|f| self.count - f.0 > self.w) {
            self.q.pop_front();
        }
    }

    fn max(&self) -> f64 {
        self.q.front().map_or(f64::INFINITY, |f| f.1)
    }
}

/// `(λ_min, λ_max)` of `A`: exact for `m <= 300`, else 300 power iterations each.
fn spectral_extremes(problem: &ProxProblem, op: &Op) -> (f64, f64) {
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

/// Solves a [`ProxProblem`] by PROX Jacobi or Gauss-Seidel (see [`Prox`]), from the warm
/// start `x`, returning the [`SolveInfo`] and filling `stats`.
///
/// # Errors
/// As [`Prox::new`] and [`Prox::solve_with_stats`].
///
/// # Example
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::problem::{FrictionContact, FrictionKind};
/// use nonsmooth::prox::{ProxOptions, ProxProblem, ProxStats, RFactor, prox_solve};
/// use nonsmooth::solver::{Params, no_observer};
/// // One contact pushed into the ground with a small tangential velocity: it sticks.
/// let fc = FrictionContact::new(DMatrix::<f64>::identity(3, 3).into(),
///     DVector::from_vec(vec![-1.0, 0.1, 0.0]), DVector::from_vec(vec![0.5]),
///     FrictionKind::Coulomb).unwrap();
/// let p = ProxProblem::from_friction_contact(&fc);
/// let mut r = DVector::zeros(3);
/// let mut stats = ProxStats::default();
/// let opts = ProxOptions { r_factor: RFactor::Local, ..Default::default() };
/// let info = prox_solve(&p, &mut r, opts, &Params { tol: 1e-12, ..Default::default() },
///                       &mut stats, &mut no_observer()).unwrap();
/// assert!(info.error.rel <= 1e-12 && (r[0] - 1.0).abs() < 1e-12 && (r[1] + 0.1).abs() < 1e-12);
/// ```
pub fn prox_solve(
    problem: &ProxProblem,
    x: &mut DVector<f64>,
    options: ProxOptions,
    params: &Params,
    stats: &mut ProxStats,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<SolveInfo, SolveError> {
    Prox::new(problem, options)?.solve_with_stats(x, params, stats, observer)
}
