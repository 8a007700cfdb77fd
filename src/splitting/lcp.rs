//! Checked by `tests/laws/splitting_agrees_with_lemke.rs` and
//! `tests/laws/splitting_sweep.rs`.

use std::ops::ControlFlow;

use crate::solver::MethodOptions;
use nalgebra::{DMatrix, DVector};

use crate::matrix::Matrix;
use crate::merit::{Residual, boxed_error, lcp_error};
use crate::problem::{BoxedLcp, Lcp, ProblemError, check_positive_diagonal};
use serde::{Deserialize, Serialize};

use crate::solver::{Iterate, Method, NonExhaustive, Params, SolveError, SolveInfo, Step, solve};

/// Which splitting `A = M - N` drives the projected iteration (see the
/// [module table](super)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Splitting {
    /// Projected (damped) Jacobi, `M = D / omega`. `omega = 1` is plain Jacobi; it converges
    /// for strictly diagonally dominant `A` and may diverge otherwise (Erleben 2007 §3).
    Jacobi {
        /// Damping, `0 < omega <= 1` usually.
        omega: f64,
    },
    /// Projected Gauss-Seidel (PGS), `M = D + L`.
    GaussSeidel,
    /// Projected successive over-relaxation (PSOR), `M = D / omega + L`; `omega = 1` is PGS.
    /// For symmetric positive definite `A` it converges for `0 < omega < 2`.
    Sor {
        /// Relaxation, `0 < omega < 2`.
        omega: f64,
    },
}

impl Splitting {
    /// The relaxation factor `omega` (1 for Gauss-Seidel).
    pub fn omega(self) -> f64 {
        match self {
            Splitting::Jacobi { omega } | Splitting::Sor { omega } => omega,
            Splitting::GaussSeidel => 1.0,
        }
    }

    /// `true` for Jacobi (every row reads the previous iterate).
    pub fn is_jacobi(self) -> bool {
        matches!(self, Splitting::Jacobi { .. })
    }

    /// Short name: `"pj"`, `"pgs"`, `"psor"`.
    pub fn name(self) -> &'static str {
        match self {
            Splitting::Jacobi { .. } => "pj",
            Splitting::GaussSeidel => "pgs",
            Splitting::Sor { .. } => "psor",
        }
    }

    fn check(self) -> Result<(), ProblemError> {
        let omega = self.omega();
        if !(omega > 0.0 && omega < 2.0) {
            return Err(ProblemError::InvalidOption {
                method: self.name().into(),
                option: "omega".into(),
                reason: format!("relaxation factor omega = {omega} is outside (0, 2)"),
            });
        }
        Ok(())
    }
}

/// The dense splitting matrices `(M, N)` with `A = M - N` for `method` (the module table).
/// For teaching and for the property tests that check the sweep against the splitting.
///
/// # Panics
/// If `A` is too large for a dense copy ([`crate::matrix::check_dense`]); the solvers
/// never call this.
pub fn splitting_matrices(a: &Matrix, method: Splitting) -> (DMatrix<f64>, DMatrix<f64>) {
    if let Err(e) = crate::matrix::check_dense("splitting_matrices", a.nrows(), a.ncols()) {
        panic!("{e}");
    }
    let a = a.to_dense();
    let n = a.nrows();
    let omega = method.omega();
    let mut m = DMatrix::zeros(n, n);
    for i in 0..n {
        m[(i, i)] = a[(i, i)] / omega;
        if !method.is_jacobi() {
            for j in 0..i {
                m[(i, j)] = a[(i, j)];
            }
        }
    }
    let nmat = &m - &a;
    (m, nmat)
}

// ANCHOR: sweep
/// One sweep of the projected splitting method over all rows, in place.
///
/// Row `i` moves to `P_i(x_i - omega r_i / A_ii)` where `r_i = (A x + b)_i` is evaluated
/// at the current `x` (Gauss-Seidel, SOR) or at the previous sweep's `x` (Jacobi,
/// using `x_old` as scratch), and `P_i` clamps to `[lo_i(x), hi_i(x)]`.
///
/// `bounds(i, x)` gives row `i`'s interval at `x`. `A` must have a positive diagonal
/// (checked by the solvers, assumed here).
fn sweep(
    a: &Matrix,
    b: &DVector<f64>,
    x: &mut DVector<f64>,
    x_old: &mut DVector<f64>,
    method: Splitting,
    bounds: impl Fn(usize, &[f64]) -> (f64, f64),
) {
    let omega = method.omega();
    if method.is_jacobi() {
        x_old.copy_from(x);
    }
    for i in 0..x.len() {
        let read: &[f64] = if method.is_jacobi() {
            x_old.as_slice()
        } else {
            x.as_slice()
        };
        let residual = a.row_dot(i, read) + b[i];
        let trial = read[i] - omega * residual / a.get(i, i);
        let (lo, hi) = bounds(i, read);
        x[i] = trial.max(lo).min(hi);
    }
}
// ANCHOR_END: sweep

/// One projected sweep for the LCP (`P_i = max(0, ·)`), in place. See [`Splitting`].
pub fn sweep_lcp(lcp: &Lcp, x: &mut DVector<f64>, method: Splitting) {
    let mut old = DVector::zeros(if method.is_jacobi() { x.len() } else { 0 });
    sweep(lcp.a(), lcp.b(), x, &mut old, method, |_, _| {
        (0.0, f64::INFINITY)
    });
}

// ANCHOR: sweep_boxed
/// One projected sweep for the boxed LCP, in place: friction bounds follow the current
/// normal value (Erleben 2007 eq. 28-30).
pub fn sweep_boxed(blcp: &BoxedLcp, x: &mut DVector<f64>, method: Splitting) {
    let mut old = DVector::zeros(if method.is_jacobi() { x.len() } else { 0 });
    sweep(blcp.a(), blcp.b(), x, &mut old, method, |i, v| {
        blcp.bounds_at(i, v)
    });
}

// ANCHOR_END: sweep_boxed
/// Options of the projected splitting methods ([`ProjectedSplitting`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SplittingOptions {
    /// The splitting. Default [`Splitting::GaussSeidel`].
    pub splitting: Splitting,
    #[doc(hidden)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for SplittingOptions {
    fn default() -> Self {
        SplittingOptions {
            splitting: Splitting::GaussSeidel,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

/// Options of projected Jacobi (`pj` in the [registry](crate::registry)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PjOptions {
    /// Damping `omega` of the Jacobi step `x_i <- P_i(x_i - omega (Ax + b)_i / A_ii)`.
    /// Default `1` (plain projected Jacobi); range `(0, 2)`, dimensionless; `omega < 1`
    /// damps. Erleben 2009 slides eq. 35-37.
    pub omega: f64,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for PjOptions {
    fn default() -> Self {
        PjOptions {
            omega: 1.0,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

/// Options of projected Gauss-Seidel (`pgs` in the [registry](crate::registry)):
/// none; the struct is there so that every method has one.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PgsOptions {
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

/// Options of projected SOR (`psor` in the [registry](crate::registry)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PsorOptions {
    /// Relaxation `omega` of `x_i <- P_i(x_i - omega (Ax + b)_i / A_ii)` with the rows
    /// above already updated. Default `1.2`; range `(0, 2)` (convergent for symmetric
    /// positive definite `A`), dimensionless; `1` is PGS. Erleben 2009 slides eq. 35-37.
    pub omega: f64,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for PsorOptions {
    fn default() -> Self {
        PsorOptions {
            omega: 1.2,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

/// The relaxation parameter of PJ and PSOR: `0 < omega < 2`, where PSOR converges for
/// symmetric positive definite `A` (Erleben 2009 slides eq. 20-37).
fn relaxation(method: &str, omega: f64) -> Result<(), ProblemError> {
    if omega > 0.0 && omega < 2.0 {
        Ok(())
    } else {
        Err(ProblemError::InvalidOption {
            method: method.into(),
            option: "omega".into(),
            reason: format!("{} is outside (0, 2)", crate::error::fmt_num(omega)),
        })
    }
}

impl MethodOptions for PjOptions {
    fn check(&self) -> Result<(), ProblemError> {
        relaxation("pj", self.omega)
    }
}

impl MethodOptions for PgsOptions {}

impl MethodOptions for PsorOptions {
    fn check(&self) -> Result<(), ProblemError> {
        relaxation("psor", self.omega)
    }
}

impl From<&PjOptions> for SplittingOptions {
    fn from(o: &PjOptions) -> Self {
        SplittingOptions {
            splitting: Splitting::Jacobi { omega: o.omega },
            ..Default::default()
        }
    }
}

impl From<&PgsOptions> for SplittingOptions {
    fn from(_: &PgsOptions) -> Self {
        SplittingOptions::default()
    }
}

impl From<&PsorOptions> for SplittingOptions {
    fn from(o: &PsorOptions) -> Self {
        SplittingOptions {
            splitting: Splitting::Sor { omega: o.omega },
            ..Default::default()
        }
    }
}

/// PJ, PGS and PSOR as a [`Method`] on an [`Lcp`] or a [`BoxedLcp`]: one iteration is one
/// sweep ([`sweep_lcp`], [`sweep_boxed`]).
#[derive(Debug, Clone, Copy)]
pub struct ProjectedSplitting<P>(std::marker::PhantomData<P>);

/// What a projected splitting keeps: its splitting and the copy of `x` a Jacobi sweep reads.
#[derive(Debug, Clone)]
pub struct SplittingPrepared {
    splitting: Splitting,
    old: DVector<f64>,
}

fn prepare_splitting(
    a: &Matrix,
    options: &SplittingOptions,
) -> Result<SplittingPrepared, SolveError> {
    options.splitting.check()?;
    check_positive_diagonal("A", a)?;
    let n = if options.splitting.is_jacobi() {
        a.nrows()
    } else {
        0
    };
    Ok(SplittingPrepared {
        splitting: options.splitting,
        old: DVector::zeros(n),
    })
}

/// What a projected splitting sweeps: an [`Lcp`] (every row bounded below by zero) or a
/// [`BoxedLcp`] (row bounds that may depend on the iterate, as a friction row's on its
/// contact's normal value, Erleben 2007 eq. 28-30).
pub trait SweptProblem: crate::problem::Dim {
    /// The matrix `A` (`n × n`).
    fn a(&self) -> &Matrix;
    /// The vector `b` (length `n`).
    fn b(&self) -> &DVector<f64>;
    /// The bounds `(lo, hi)` of row `i` at the iterate `x`.
    fn bounds(&self, i: usize, x: &[f64]) -> (f64, f64);
    /// The problem's error measure at `x` ([`lcp_error`], [`boxed_error`]).
    fn error(&self, x: &DVector<f64>) -> Residual;
}

impl SweptProblem for Lcp {
    fn a(&self) -> &Matrix {
        Lcp::a(self)
    }
    fn b(&self) -> &DVector<f64> {
        Lcp::b(self)
    }
    fn bounds(&self, _: usize, _: &[f64]) -> (f64, f64) {
        (0.0, f64::INFINITY)
    }
    fn error(&self, x: &DVector<f64>) -> Residual {
        lcp_error(self, x)
    }
}

impl SweptProblem for BoxedLcp {
    fn a(&self) -> &Matrix {
        BoxedLcp::a(self)
    }
    fn b(&self) -> &DVector<f64> {
        BoxedLcp::b(self)
    }
    fn bounds(&self, i: usize, x: &[f64]) -> (f64, f64) {
        self.bounds_at(i, x)
    }
    fn error(&self, x: &DVector<f64>) -> Residual {
        boxed_error(self, x)
    }
}

impl<P: SweptProblem> Method for ProjectedSplitting<P> {
    type Problem = P;
    type Options = SplittingOptions;
    type Prepared = SplittingPrepared;
    type Stats = ();

    fn prepare(p: &P, options: &SplittingOptions) -> Result<SplittingPrepared, SolveError> {
        prepare_splitting(p.a(), options)
    }

    fn start(_: &mut SplittingPrepared, _: &P, _: &DVector<f64>) -> Result<(), SolveError> {
        Ok(())
    }

    fn step(
        s: &mut SplittingPrepared,
        p: &P,
        x: &mut DVector<f64>,
        _: &mut (),
    ) -> Result<Step, SolveError> {
        sweep(p.a(), p.b(), x, &mut s.old, s.splitting, |i, v| {
            p.bounds(i, v)
        });
        Ok(Step::Moved)
    }

    fn error(_: &SplittingPrepared, p: &P, x: &DVector<f64>) -> Residual {
        p.error(x)
    }
}

/// Solves an LCP with a projected splitting method (PJ, PGS or PSOR).
///
/// `x` is the warm start (use zeros for a cold start) and receives the answer. Stops when
/// the LCP error ([`lcp_error`], `‖min(x, Ax+b)‖ / ‖b‖`, the measure Siconos reports) is
/// at most `params.tol`.
///
/// # Requirements
/// `A` must have a strictly positive diagonal (checked). Convergence is guaranteed for
/// symmetric positive definite `A` with PGS and PSOR (`0 < omega < 2`); PJ needs more (for
/// example strict diagonal dominance).
///
/// # Errors
/// [`SolveError::Problem`] for a non-positive diagonal, a wrong `x` length or
/// `omega ∉ (0, 2)`; [`SolveError::NoConvergence`] at the iteration cap;
/// [`SolveError::Diverged`] if an iterate overflows (`x` is restored to the last finite
/// one).
///
/// # Reference
/// Erleben 2009 slides eq. 20-37; Cottle, Pang, Stone 1992 §5.
///
/// # Example
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::{problem::Lcp, solver::{Params, no_observer}};
/// use nonsmooth::splitting::{Splitting, solve_lcp};
/// let lcp = Lcp::new(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]).into(),
///                    DVector::from_vec(vec![-5.0, -6.0])).unwrap();
/// let mut x = DVector::zeros(2);
/// let info = solve_lcp(&lcp, &mut x, Splitting::GaussSeidel,
///                      &Params { tol: 1e-12, ..Default::default() }, &mut no_observer()).unwrap();
/// assert!(info.error.rel <= 1e-12);
/// assert!((x[0] - 4.0 / 3.0).abs() < 1e-10);
/// ```
pub fn solve_lcp(
    lcp: &Lcp,
    x: &mut DVector<f64>,
    method: Splitting,
    params: &Params,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<SolveInfo, SolveError> {
    let options = SplittingOptions {
        splitting: method,
        ..Default::default()
    };
    solve::<ProjectedSplitting<Lcp>>(lcp, x, params, &options, observer)
}

/// Solves a boxed LCP with variable (friction) bounds by a projected splitting method.
///
/// Stops when the boxed error `‖min(x - lo, max(x - hi, Ax + b))‖ / ‖b‖` ([`boxed_error`],
/// Erleben 2007 eq. 37) is at most `params.tol`. In each row the bounds are evaluated at
/// the current iterate, so with Gauss-Seidel a friction row sees its contact's freshly
/// updated normal value (Erleben 2007 eq. 28-30).
///
/// # Requirements, errors
/// As [`solve_lcp`]. The box model is a nonlinear complementarity problem: no convergence
/// guarantee is known in general; in practice PGS converges on contact problems with a
/// positive definite `A`.
///
/// # Reference
/// Erleben 2007 eq. 27-33; Silcowitz, Niebe, Erleben 2009 eq. 28.
pub fn solve_boxed(
    blcp: &BoxedLcp,
    x: &mut DVector<f64>,
    method: Splitting,
    params: &Params,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<SolveInfo, SolveError> {
    let options = SplittingOptions {
        splitting: method,
        ..Default::default()
    };
    solve::<ProjectedSplitting<BoxedLcp>>(blcp, x, params, &options, observer)
}
