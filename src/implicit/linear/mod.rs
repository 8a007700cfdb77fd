//! The inner linear solvers of the non-smooth Newton method of Macklin, Erleben, Müller,
//! Chentanez, Jeschke, Makoviychuk 2019, "Non-smooth Newton methods for deformable
//! multi-body dynamics", §8.2.
//!
//! Each Newton iteration solves the Schur-complement system `A x = b` with
//! `A = J M~^-1 J^T + C (+ eps I)`: an `n x n` symmetric positive (semi-)definite sparse
//! matrix, given here as a [`CsrMatrix`]. The units of `x` and `b` are those of the caller's
//! system (the Newton step of the constraint multipliers and the residual it cancels);
//! nothing here depends on them. Every method is reached through [`solve`]:
//!
//! | [`InnerSolver`] | method | products with `A` per iteration |
//! |---|---|---|
//! | `Pcr` (default) | preconditioned conjugate residual, `P = diag(A)` ([`pcr`]) | 1 |
//! | `Cg` | preconditioned conjugate gradient, `P = diag(A)` ([`cg`]) | 1 |
//! | `Jacobi` | one Jacobi sweep `x += P^-1 (b - A x)` ([`relaxation`]) | 1 |
//! | `GaussSeidel` | one forward Gauss-Seidel sweep ([`relaxation`]) | 1 (the sweep) |
//! | `Direct` | sparse LU with a fill-reducing ordering (faer, [`direct`]); one "iteration" | — |
//! | `Gmres` | restarted GMRES, Jacobi right preconditioner ([`gmres`]); for `A` not symmetric | 1 |
//!
//! The report's residuals ([`InnerReport::residuals`]) are the true residuals
//! `‖b - A x‖_2`, computed from the iterate: that monitoring costs one more product with
//! `A` per iteration, on top of the method's own.
//!
//! ## PCR, the paper's choice
//! The paper runs a fixed number `M` of PCR iterations per Newton iteration (10 to 80 in its
//! table 2; default here 20). PCR "requires one matrix-vector product, two inner products,
//! and one extra vector multiply-add per iteration" compared to conjugate gradient, and
//! the paper's figure 11 reports that it "often has an order of magnitude lower residual
//! for the same iteration count" than Jacobi, Gauss-Seidel and PCG; it converges "for close
//! to singular contact systems when CG and even direct Cholesky solvers may fail". The
//! paper's equations of the method were lost in the text extraction available to this
//! project (`NOTES.md` §2.9): the recurrence in [`pcr`] is a reconstruction, the standard
//! preconditioned conjugate residual method matching that prose. Its properties (Fong and
//! Saunders 2012, "CG versus MINRES: an empirical comparison"): for SPD `A` it minimises
//! the preconditioned residual norm `‖r‖_{P^-1} = sqrt(r^T P^-1 r)` over the Krylov space,
//! so that norm decreases monotonically (with `P = I`, the 2-norm of `r`); its iterates
//! are those of MINRES on the symmetrically preconditioned system.
//!
//! ## Errors and the iterate on error
//! [`solve`] checks its input first (square `A`, lengths of `b` and `x`, finite entries,
//! and for the Jacobi-preconditioned methods PCR, CG, Jacobi and Gauss-Seidel a positive
//! diagonal); on an input error `x` is unchanged. If an iteration produces a non-finite
//! value, [`solve`] returns [`InnerError::NonFinite`] with `what = "iterate"` and leaves
//! `x` at the last finite iterate (the start if the first iteration failed). The direct
//! solver leaves `x` unchanged on [`InnerError::Singular`]. No function here panics on bad
//! input or returns NaN.
//!
//! Checked by `tests/laws/inner_linear_solvers.rs`.

pub mod cg;
pub mod direct;
pub mod gmres;
pub mod pcr;
pub mod relaxation;

use crate::names::named;
use nalgebra::DVector;
use nalgebra_sparse::CsrMatrix;
use serde::{Deserialize, Serialize};

/// Which method solves `A x = b`. Serialised in kebab-case (`"pcr"`, `"cg"`, `"jacobi"`,
/// `"gauss-seidel"`, `"direct"`), the same strings as [`InnerSolver::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InnerSolver {
    /// Preconditioned conjugate residual with the Jacobi preconditioner `P = diag(A)`
    /// (Macklin et al. 2019 §8.2; the reconstructed recurrence in [`pcr`]). The default.
    Pcr,
    /// Preconditioned conjugate gradient with `P = diag(A)` ([`cg`]).
    Cg,
    /// Plain (undamped) Jacobi relaxation, one sweep per iteration ([`relaxation`]). It can
    /// diverge when `A` is not diagonally dominant, even for SPD `A`.
    Jacobi,
    /// Forward Gauss-Seidel relaxation, one sweep per iteration ([`relaxation`]). It
    /// converges for SPD `A`.
    GaussSeidel,
    /// Sparse LU with a fill-reducing ordering (faer); one "iteration" ([`direct`]).
    Direct,
    /// Restarted GMRES with a Jacobi preconditioner ([`gmres`]): for the Schur
    /// complements that are not symmetric (natural-map friction).
    Gmres,
}

named!(InnerSolver {
    Pcr => "pcr",
    Cg => "cg",
    Jacobi => "jacobi",
    GaussSeidel => "gauss-seidel",
    Direct => "direct",
    Gmres => "gmres",
});

impl InnerSolver {
    /// `true` for the methods that divide by the diagonal of `A` (all but `Direct`).
    fn needs_positive_diagonal(self) -> bool {
        !matches!(self, InnerSolver::Direct | InnerSolver::Gmres)
    }

    /// Whether the method is meant for matrices that are not symmetric.
    pub fn handles_nonsymmetric(self) -> bool {
        matches!(self, InnerSolver::Direct | InnerSolver::Gmres)
    }
}

/// Options of [`solve`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InnerOptions {
    /// The method. Default [`InnerSolver::Pcr`].
    pub solver: InnerSolver,
    /// The number of iterations (`M` of the paper's algorithm 1), run in full unless
    /// `rel_tol` stops earlier or the method breaks down (converged or stagnated). Default
    /// 20. Ignored by [`InnerSolver::Direct`], which always does its one solve.
    pub iterations: usize,
    /// Relative tolerance (dimensionless). `0.0` (the default, as the paper): run the fixed
    /// count. `> 0`: stop as soon as `‖b - A x‖_2 <= rel_tol ‖b‖_2`, also before the first
    /// iteration. Negative values act as `0.0`; a non-finite value is an input error.
    pub rel_tol: f64,
}

impl Default for InnerOptions {
    fn default() -> Self {
        InnerOptions {
            solver: InnerSolver::Pcr,
            iterations: 20,
            rel_tol: 0.0,
        }
    }
}

/// What a [`solve`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct InnerReport {
    /// Iterations done (`<= InnerOptions::iterations`, except [`InnerSolver::Direct`]:
    /// always 1).
    pub iterations: usize,
    /// The true residual `‖b - A x‖_2` (units of `b`) at the start and after each
    /// iteration: length `iterations + 1`.
    pub residuals: Vec<f64>,
}

/// Why [`solve`] failed.
#[derive(Debug, Clone, PartialEq)]
pub enum InnerError {
    /// `A` is not square.
    NotSquare {
        /// Rows of `A`.
        rows: usize,
        /// Columns of `A`.
        cols: usize,
    },
    /// `b` or `x` does not have the dimension of `A`.
    DimensionMismatch {
        /// `"b"` or `"x"`.
        what: &'static str,
        /// The dimension of `A`.
        expected: usize,
        /// The vector's length.
        got: usize,
    },
    /// A NaN or infinite value: in the input (`what` is `"A"`, `"b"`, `"x"` or
    /// `"rel_tol"`) or produced by an iteration (`what = "iterate"`; `x` then holds the
    /// last finite iterate).
    NonFinite {
        /// Where.
        what: &'static str,
    },
    /// A diagonal entry of `A` is zero (or absent), negative: the Jacobi preconditioner
    /// `P = diag(A)` of PCR, CG, Jacobi and Gauss-Seidel needs it positive.
    NonPositiveDiagonal {
        /// The row (0-based).
        row: usize,
        /// The entry (0 if absent).
        value: f64,
    },
    /// The direct solver's factorisation failed or gave a non-finite answer (a singular
    /// or numerically singular `A`); the message says which.
    Singular(String),
}

impl std::fmt::Display for InnerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InnerError::NotSquare { rows, cols } => {
                write!(f, "the matrix A is not square: {rows} rows, {cols} columns")
            }
            InnerError::DimensionMismatch {
                what,
                expected,
                got,
            } => write!(
                f,
                "the vector {what} has length {got}, but A is {expected} x {expected}"
            ),
            InnerError::NonFinite { what: "iterate" } => write!(
                f,
                "an iteration produced a non-finite value (x keeps the last finite iterate)"
            ),
            InnerError::NonFinite { what } => write!(f, "{what} has a NaN or infinite value"),
            InnerError::NonPositiveDiagonal { row, value } => write!(
                f,
                "diagonal entry {row} of A is {value}, but the Jacobi preconditioner needs \
                 a positive diagonal"
            ),
            InnerError::Singular(msg) => write!(f, "the direct solve failed: {msg}"),
        }
    }
}

impl std::error::Error for InnerError {}

/// Solves `A x = b` with the method and iteration count of `opts`.
///
/// `a`: `n x n`, symmetric positive (semi-)definite for the iterative methods (their
/// convergence assumes it; only `Direct` is meant for other matrices), with a positive
/// diagonal for PCR, CG, Jacobi and Gauss-Seidel. `b`: length `n`. `x`: length `n`, the
/// start on entry and the answer on return.
///
/// # Errors
/// See [`InnerError`]; on an input error `x` is unchanged, on a non-finite iterate it holds
/// the last finite iterate, on [`InnerError::Singular`] it is unchanged.
///
/// # Source
/// Macklin et al. 2019 §8.2 (see the [module documentation](self)).
///
/// ```
/// use nalgebra::DVector;
/// use nalgebra_sparse::{CooMatrix, CsrMatrix};
/// use nonsmooth::implicit::linear::{InnerOptions, solve};
/// let mut coo = CooMatrix::new(2, 2);
/// for (i, j, v) in [(0, 0, 4.0), (0, 1, 1.0), (1, 0, 1.0), (1, 1, 3.0)] {
///     coo.push(i, j, v);
/// }
/// let a = CsrMatrix::from(&coo);
/// let b = DVector::from_vec(vec![1.0, 2.0]);
/// let mut x = DVector::zeros(2);
/// let report = solve(&a, &b, &mut x, &InnerOptions::default()).unwrap();
/// assert!(report.residuals.last().unwrap() < &1e-12);
/// assert!((x[0] - 1.0 / 11.0).abs() < 1e-12 && (x[1] - 7.0 / 11.0).abs() < 1e-12);
/// ```
pub fn solve(
    a: &CsrMatrix<f64>,
    b: &DVector<f64>,
    x: &mut DVector<f64>,
    opts: &InnerOptions,
) -> Result<InnerReport, InnerError> {
    let inv_diag = check(a, b, x, opts)?;
    match opts.solver {
        InnerSolver::Pcr => pcr::pcr(a, b, x, &inv_diag, opts, None),
        InnerSolver::Cg => cg::cg(a, b, x, &inv_diag, opts),
        InnerSolver::Jacobi => relaxation::jacobi(a, b, x, &inv_diag, opts),
        InnerSolver::GaussSeidel => relaxation::gauss_seidel(a, b, x, &inv_diag, opts),
        InnerSolver::Direct => direct::direct(a, b, x),
        InnerSolver::Gmres => gmres::gmres(a, b, x, opts),
    }
}

/// [`solve`] with [`InnerSolver::Pcr`] (whatever `opts.solver` says), also returning the
/// preconditioned residual norms `‖r‖_{P^-1} = sqrt(r^T P^-1 r)`, `r = b - A x` the true
/// residual, `P = diag(A)`, at the start and after each iteration (same length as
/// [`InnerReport::residuals`]). For SPD `A` these do not increase, up to rounding (Fong
/// and Saunders 2012): the law tested in `tests/laws/inner_linear_solvers.rs`.
///
/// # Errors
/// As [`solve`].
pub fn pcr_with_history(
    a: &CsrMatrix<f64>,
    b: &DVector<f64>,
    x: &mut DVector<f64>,
    opts: &InnerOptions,
) -> Result<(InnerReport, Vec<f64>), InnerError> {
    let opts = InnerOptions {
        solver: InnerSolver::Pcr,
        ..*opts
    };
    let inv_diag = check(a, b, x, &opts)?;
    let mut history = Vec::new();
    let report = pcr::pcr(a, b, x, &inv_diag, &opts, Some(&mut history))?;
    Ok((report, history))
}

/// Checks the input of [`solve`]; returns `1 / A_ii` (empty for `Direct`).
fn check(
    a: &CsrMatrix<f64>,
    b: &DVector<f64>,
    x: &DVector<f64>,
    opts: &InnerOptions,
) -> Result<DVector<f64>, InnerError> {
    let (rows, cols) = (a.nrows(), a.ncols());
    if rows != cols {
        return Err(InnerError::NotSquare { rows, cols });
    }
    for (what, v) in [("b", b), ("x", x)] {
        if v.len() != rows {
            return Err(InnerError::DimensionMismatch {
                what,
                expected: rows,
                got: v.len(),
            });
        }
    }
    if !a.values().iter().all(|v| v.is_finite()) {
        return Err(InnerError::NonFinite { what: "A" });
    }
    if !b.iter().all(|v| v.is_finite()) {
        return Err(InnerError::NonFinite { what: "b" });
    }
    if !x.iter().all(|v| v.is_finite()) {
        return Err(InnerError::NonFinite { what: "x" });
    }
    if !opts.rel_tol.is_finite() {
        return Err(InnerError::NonFinite { what: "rel_tol" });
    }
    if !opts.solver.needs_positive_diagonal() {
        return Ok(DVector::zeros(0));
    }
    let mut inv_diag = DVector::zeros(rows);
    for row in 0..rows {
        let value = diagonal(a, row);
        let inv = 1.0 / value;
        if !(value > 0.0) || !inv.is_finite() {
            return Err(InnerError::NonPositiveDiagonal { row, value });
        }
        inv_diag[row] = inv;
    }
    Ok(inv_diag)
}

/// `A_ii`, 0 if the entry is not stored.
fn diagonal(a: &CsrMatrix<f64>, i: usize) -> f64 {
    let (start, end) = (a.row_offsets()[i], a.row_offsets()[i + 1]);
    let cols = &a.col_indices()[start..end];
    match cols.binary_search(&i) {
        Ok(k) => a.values()[start + k],
        Err(_) => 0.0,
    }
}

/// `out = A v` (lengths already checked).
/// `‖b - A x‖_2`, the true residual the reports carry.
pub(crate) fn residual_norm(a: &CsrMatrix<f64>, b: &DVector<f64>, x: &DVector<f64>) -> f64 {
    let mut ax = DVector::zeros(b.len());
    mul_into(a, x, &mut ax);
    (b - ax).norm()
}

pub(crate) fn mul_into(a: &CsrMatrix<f64>, v: &DVector<f64>, out: &mut DVector<f64>) {
    let (offsets, cols, vals) = (a.row_offsets(), a.col_indices(), a.values());
    for (i, o) in out.iter_mut().enumerate() {
        let mut s = 0.0;
        for k in offsets[i]..offsets[i + 1] {
            s += vals[k] * v[cols[k]];
        }
        *o = s;
    }
}

/// The bookkeeping shared by the iterative methods: the true residual after each iterate,
/// the stopping test, the copy of each finite iterate into the caller's `x`.
pub(crate) struct Monitor<'a> {
    a: &'a CsrMatrix<f64>,
    b: &'a DVector<f64>,
    inv_diag: &'a DVector<f64>,
    /// Stop when `‖r‖ <= target`; negative: never (the fixed count).
    target: f64,
    /// True residual of the last accepted iterate.
    pub(crate) r: DVector<f64>,
    residuals: Vec<f64>,
    history: Option<&'a mut Vec<f64>>,
}

impl<'a> Monitor<'a> {
    /// Starts monitoring at `x0` (finite, checked). Returns the monitor and whether
    /// `x0` already meets the tolerance.
    pub(crate) fn start(
        a: &'a CsrMatrix<f64>,
        b: &'a DVector<f64>,
        x0: &DVector<f64>,
        inv_diag: &'a DVector<f64>,
        opts: &InnerOptions,
        history: Option<&'a mut Vec<f64>>,
    ) -> Result<(Self, bool), InnerError> {
        let target = if opts.rel_tol > 0.0 {
            opts.rel_tol * b.norm()
        } else {
            -1.0
        };
        let mut m = Monitor {
            a,
            b,
            inv_diag,
            target,
            r: DVector::zeros(b.len()),
            residuals: Vec::with_capacity(opts.iterations + 1),
            history,
        };
        if let Some(h) = m.history.as_deref_mut() {
            h.clear();
        }
        let done = m.record(x0)?;
        Ok((m, done))
    }

    /// Computes and records the true residual of `xk`; `true` if it meets the tolerance.
    fn record(&mut self, xk: &DVector<f64>) -> Result<bool, InnerError> {
        mul_into(self.a, xk, &mut self.r);
        for (ri, bi) in self.r.iter_mut().zip(self.b.iter()) {
            *ri = bi - *ri;
        }
        let norm = self.r.norm();
        if !norm.is_finite() {
            return Err(InnerError::NonFinite { what: "iterate" });
        }
        if let Some(h) = self.history.as_deref_mut() {
            let s: f64 = self
                .r
                .iter()
                .zip(self.inv_diag.iter())
                .map(|(r, p)| r * r * p)
                .sum();
            h.push(s.sqrt());
        }
        self.residuals.push(norm);
        Ok(norm <= self.target)
    }

    /// Accepts the new iterate `xk`: errors if it (or its residual) is not finite, leaving
    /// `x` at the previous iterate; otherwise copies it into `x` and returns `true` if the
    /// tolerance is met.
    pub(crate) fn accept(
        &mut self,
        xk: &DVector<f64>,
        x: &mut DVector<f64>,
    ) -> Result<bool, InnerError> {
        if !xk.iter().all(|v| v.is_finite()) {
            return Err(InnerError::NonFinite { what: "iterate" });
        }
        let done = self.record(xk)?;
        x.copy_from(xk);
        Ok(done)
    }

    /// The report.
    pub(crate) fn finish(self) -> InnerReport {
        InnerReport {
            iterations: self.residuals.len() - 1,
            residuals: self.residuals,
        }
    }
}
