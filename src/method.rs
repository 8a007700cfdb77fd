//! One entry point for every problem type and method: what the command line and the
//! benchmarks call.
//!
//! [`solve`] picks the solver for a [`Method`] and an [`AnyProblem`], runs it from a zero
//! start, and returns an [`Outcome`]: the answer, the measured error, and how the solve
//! ended, whether it converged or not.

use std::ops::ControlFlow;
use std::str::FromStr;

use nalgebra::DVector;

use crate::io::AnyProblem;
use crate::matrix::Matrix;
use crate::merit::Measure;
use crate::merit::{Residual, boxed_error, friction_error, lcp_error};
use crate::newton::{ConeNewtonOptions, cone_newton};
use crate::newton::{
    FischerNewtonOptions, MinMapNewtonOptions, NncgOptions, ProxNsnOptions, cone_newton_prox_start,
    fischer_newton, min_map_newton, nncg,
};
use crate::pivoting::lemke;
use crate::problem::{
    BoxedLcp, FrictionContact, FrictionKind, GlobalFrictionContact, Lcp, ProblemError, RowBound,
};
use crate::prox::{Prox, ProxOptions, ProxProblem, RFactor, Scheme};
use crate::solver::{Iterate, Params, SolveError, SolveInfo, Solved, Status};
use crate::splitting::{
    BlockedGaussSeidel, Splitting, VelocityGaussSeidel, solve_boxed, solve_lcp,
};

/// The methods the crate offers, by their names on the command line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Method {
    /// The default for the problem type: Lemke for LCPs up to 500 unknowns, PGS for
    /// larger LCPs and boxed LCPs, NSGS for local friction problems, velocity-space GS
    /// for global ones.
    Auto,
    /// Lemke's method (LCP only).
    Lemke,
    /// Projected Jacobi (LCP, boxed LCP).
    Pj {
        /// Damping.
        omega: f64,
    },
    /// Projected Gauss-Seidel (LCP, boxed LCP).
    Pgs,
    /// Projected SOR (LCP, boxed LCP).
    Psor {
        /// Relaxation.
        omega: f64,
    },
    /// Blocked nonsmooth Gauss-Seidel (friction problems; global ones are reduced to the
    /// local form first).
    Nsgs,
    /// Velocity-space blocked Gauss-Seidel (global friction problems).
    Vgs,
    /// Fischer-Newton with its default options (LCP, boxed LCP; [`crate::newton`]).
    FischerNewton,
    /// Minimum-map Newton with the projected line search (LCP, boxed LCP).
    MinMapNewton,
    /// Nonsmooth nonlinear conjugate gradient on projected Gauss-Seidel (LCP, boxed LCP).
    Nncg,
    /// PROX Gauss-Seidel (Erleben 2017 Algorithm 2) with adaptive r-factors: friction
    /// problems as disk (Coulomb) or cone (CCP) laws, global ones without forming `W`;
    /// boxed LCPs with the friction-box structure and LCPs as box and frictionless laws.
    /// The error it reports is [`ProxProblem::error`]: Siconos's natural map for friction
    /// problems; for LCPs and boxed LCPs the natural map of the box law divided by `‖b‖`,
    /// the LCP or boxed error the other methods report.
    ///
    /// Parsed from `"prox-gs"` with [`ProxOptions::recommended`]`(GaussSeidel)` (Local
    /// r-factors, window 1000), not the paper's `Global { r: 5 }` and window 1
    /// ([`ProxOptions::paper`]); the other options are [`ProxOptions::default`]'s.
    ProxGs {
        /// The initial r-factor strategy.
        r_factor: RFactor,
        /// The window of the divergence test ([`ProxOptions::window`], `>= 1`).
        window: usize,
    },
    /// PROX Jacobi (Erleben 2017 Algorithm 1), on the same problems as `ProxGs`. Parsed
    /// from `"prox-jacobi"` with [`ProxOptions::recommended`]`(Jacobi)` (Blocked
    /// r-factors, window 1000).
    ProxJacobi {
        /// The initial r-factor strategy.
        r_factor: RFactor,
        /// The window of the divergence test ([`ProxOptions::window`], `>= 1`).
        window: usize,
    },
    /// Semismooth Newton on the friction cone: Alart-Curnier for Coulomb, the cone natural
    /// map for CCP (friction problems; global ones are reduced to the local form first).
    Nsn,
    /// PROX Gauss-Seidel (local r-factors) to `1e-2`, then the semismooth Newton method on
    /// the cone ([`crate::newton::cone_newton_prox_start`]; friction problems, global ones
    /// reduced to the local form first).
    ProxNsn,
}

impl Method {
    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Lemke => "lemke",
            Method::Pj { .. } => "pj",
            Method::Pgs => "pgs",
            Method::Psor { .. } => "psor",
            Method::Nsgs => "nsgs",
            Method::Vgs => "vgs",
            Method::FischerNewton => "fischer-newton",
            Method::MinMapNewton => "minmap-newton",
            Method::Nncg => "nncg",
            Method::ProxGs { .. } => "prox-gs",
            Method::ProxJacobi { .. } => "prox-jacobi",
            Method::Nsn => "nsn",
            Method::ProxNsn => "prox-nsn",
        }
    }

    /// Every method name, for help texts.
    pub const NAMES: &'static [&'static str] = &[
        "auto",
        "lemke",
        "pj",
        "pgs",
        "psor",
        "nsgs",
        "vgs",
        "fischer-newton",
        "minmap-newton",
        "nncg",
        "prox-gs",
        "prox-jacobi",
        "nsn",
        "prox-nsn",
    ];

    /// The method `Auto` stands for on `problem`.
    pub fn resolve(self, problem: &AnyProblem) -> Method {
        match (self, problem) {
            (Method::Auto, AnyProblem::Lcp(p)) if p.dim() <= 500 => Method::Lemke,
            (Method::Auto, AnyProblem::Lcp(_)) | (Method::Auto, AnyProblem::Boxed(_)) => {
                Method::Pgs
            }
            (Method::Auto, AnyProblem::Friction(_)) => Method::Nsgs,
            (Method::Auto, AnyProblem::Global(_)) => Method::Vgs,
            (m, _) => m,
        }
    }

    /// `true` for the PROX methods (prox-gs, prox-jacobi), which take an r-factor
    /// strategy and a divergence-test window.
    pub fn is_prox(self) -> bool {
        matches!(self, Method::ProxGs { .. } | Method::ProxJacobi { .. })
    }

    /// With the r-factor strategy set for the PROX methods (the window is kept).
    ///
    /// # Errors
    /// For a method that is not PROX: the message names the methods that take it.
    pub fn with_r_factor(self, r_factor: RFactor) -> Result<Method, String> {
        match self {
            Method::ProxGs { window, .. } => Ok(Method::ProxGs { r_factor, window }),
            Method::ProxJacobi { window, .. } => Ok(Method::ProxJacobi { r_factor, window }),
            m => Err(not_for("--r-factor", "prox-gs and prox-jacobi", m)),
        }
    }

    /// With the divergence test's window set for the PROX methods (the r-factor strategy
    /// is kept).
    ///
    /// # Errors
    /// For a method that is not PROX, or `window == 0`.
    pub fn with_window(self, window: usize) -> Result<Method, String> {
        if window == 0 {
            return Err("--window must be at least 1 (1 is the paper's divergence test)".into());
        }
        match self {
            Method::ProxGs { r_factor, .. } => Ok(Method::ProxGs { r_factor, window }),
            Method::ProxJacobi { r_factor, .. } => Ok(Method::ProxJacobi { r_factor, window }),
            m => Err(not_for("--window", "prox-gs and prox-jacobi", m)),
        }
    }

    /// With `omega` set for the methods that take one.
    ///
    /// # Errors
    /// For a method other than pj and psor (the value would be ignored).
    pub fn with_omega(self, omega: f64) -> Result<Method, String> {
        match self {
            Method::Pj { .. } => Ok(Method::Pj { omega }),
            Method::Psor { .. } => Ok(Method::Psor { omega }),
            m => Err(not_for("--omega", "pj and psor", m)),
        }
    }

    /// The PROX options this method runs ([`ProxOptions::default`] with its scheme,
    /// r-factor strategy and window); `None` for the other methods.
    pub fn prox_options(self) -> Option<ProxOptions> {
        let (scheme, r_factor, window) = match self {
            Method::ProxGs { r_factor, window } => (Scheme::GaussSeidel, r_factor, window),
            Method::ProxJacobi { r_factor, window } => (Scheme::Jacobi, r_factor, window),
            _ => return None,
        };
        Some(ProxOptions {
            scheme,
            r_factor,
            window,
            ..Default::default()
        })
    }

    /// The iteration cap the command line uses when `--max-iter` is not given:
    /// [`DEFAULT_MAX_ITER`], or [`PROX_DEFAULT_MAX_ITER`] for the PROX methods, whose
    /// recommended setting needs about 261 000 sweeps on the shared `BoxesStack1` file.
    pub fn default_max_iter(self) -> usize {
        if self.is_prox() {
            PROX_DEFAULT_MAX_ITER
        } else {
            DEFAULT_MAX_ITER
        }
    }
}

/// The command line's iteration cap (sweeps, Newton steps or pivots) when `--max-iter` is
/// not given, for every method but PROX.
pub const DEFAULT_MAX_ITER: usize = 100_000;

/// The command line's sweep cap for prox-gs and prox-jacobi when `--max-iter` is not
/// given: PROX Gauss-Seidel with its recommended options needs about 261 000 sweeps on the
/// shared `BoxesStack1` file (`book/src/generated/prox_shared.txt`), more than
/// [`DEFAULT_MAX_ITER`].
pub const PROX_DEFAULT_MAX_ITER: usize = 1_000_000;

/// "`flag` applies to `which`, not `method`".
fn not_for(flag: &str, which: &str, m: Method) -> String {
    format!("{flag} applies to {which}, not {}", m.name())
}

impl FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "auto" => Method::Auto,
            "lemke" => Method::Lemke,
            "pj" | "jacobi" => Method::Pj { omega: 1.0 },
            "pgs" | "gs" => Method::Pgs,
            "psor" | "sor" => Method::Psor { omega: 1.2 },
            "nsgs" => Method::Nsgs,
            "vgs" => Method::Vgs,
            "fischer-newton" | "fn" => Method::FischerNewton,
            "minmap-newton" | "min-map-newton" | "mmn" => Method::MinMapNewton,
            "nncg" => Method::Nncg,
            "prox-gs" | "prox" => {
                let o = ProxOptions::recommended(Scheme::GaussSeidel);
                Method::ProxGs {
                    r_factor: o.r_factor,
                    window: o.window,
                }
            }
            "prox-jacobi" => {
                let o = ProxOptions::recommended(Scheme::Jacobi);
                Method::ProxJacobi {
                    r_factor: o.r_factor,
                    window: o.window,
                }
            }
            "nsn" | "newton" => Method::Nsn,
            "prox-nsn" => Method::ProxNsn,
            other => {
                return Err(format!(
                    "unknown method `{other}` (expected one of {})",
                    Method::NAMES.join(", ")
                ));
            }
        })
    }
}

/// What a solve produced, converged or not.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The method actually run (`Auto` resolved).
    pub method: Method,
    /// The friction law solved (`None` for LCPs).
    pub kind: Option<FrictionKind>,
    /// The answer: `x` for LCPs, `r` for friction problems (last finite iterate on failure).
    pub x: DVector<f64>,
    /// How it ended.
    pub result: Result<SolveInfo, SolveError>,
}

impl Outcome {
    /// `"converged"`, `"max-iterations"`, `"stopped"`, or the error's status name.
    pub fn status(&self) -> &'static str {
        match &self.result {
            Ok(info) => info.status.name(),
            Err(e) => e.status_name(),
        }
    }

    /// The info of a finished or non-converged solve.
    pub fn info(&self) -> Option<&SolveInfo> {
        match &self.result {
            Ok(info) => Some(info),
            Err(SolveError::NoConvergence(info)) => Some(info),
            _ => None,
        }
    }
}

/// Refuses a friction law asked for a problem that has none (an LCP or a boxed LCP): the
/// law would otherwise be ignored without a word.
///
/// # Errors
/// [`ProblemError::Unsupported`] naming the law
/// and the problem type.
pub fn check_kind(problem: &AnyProblem, kind: Option<FrictionKind>) -> Result<(), SolveError> {
    match (kind, problem) {
        (Some(k), AnyProblem::Lcp(_) | AnyProblem::Boxed(_)) => Err(SolveError::Problem(
            crate::problem::ProblemError::Unsupported {
                reason: format!(
                    "friction law `{}` asked for a problem of type {}; a friction law \
                     applies only to friction problems (fc3d, gfc3d)",
                    k.name(),
                    problem.type_name()
                ),
            },
        )),
        _ => Ok(()),
    }
}

/// The problem's own error measure at `x` (LCP error, boxed error, or the natural-map error
/// of `kind`, Coulomb or CCP; for a global problem, of its local form).
///
/// # Errors
/// A `kind` for an LCP or boxed LCP ([`check_kind`]); a global problem whose local form
/// cannot be made.
pub fn measure(
    problem: &AnyProblem,
    x: &DVector<f64>,
    kind: Option<FrictionKind>,
) -> Result<Residual, SolveError> {
    check_kind(problem, kind)?;
    Ok(match problem {
        AnyProblem::Lcp(p) => lcp_error(p, x),
        AnyProblem::Boxed(p) => boxed_error(p, x),
        AnyProblem::Friction(p) => {
            let k = kind.unwrap_or(p.kind());
            friction_error(&p.clone().with_kind(k), x)
        }
        AnyProblem::Global(p) => {
            let local = p.to_local()?;
            let k = kind.unwrap_or(p.kind());
            friction_error(&local.with_kind(k), x)
        }
    })
}

/// Data within `2^-SCALE_WINDOW ..= 2^SCALE_WINDOW` (about `1e-30 ..= 1e30`) are solved as
/// given; see [`solve`].
pub const SCALE_WINDOW: i32 = 100;

/// `x 2^k`, exact unless the result overflows or is subnormal (`k` may exceed the range of
/// one power of two: `2^1061` is applied as `2^1000 2^61`).
pub fn mul_pow2(mut x: f64, mut k: i32) -> f64 {
    let step = |k: i32| f64::from_bits(((k + 1023) as u64) << 52);
    while k > 1000 {
        x *= step(1000);
        k -= 1000;
    }
    while k < -1000 {
        x *= step(-1000);
        k += 1000;
    }
    x * step(k)
}

/// `floor(log2 m)` for a finite `m > 0` (subnormals included).
fn exponent(m: f64) -> Option<i32> {
    (m > 0.0 && m.is_finite()).then(|| m.log2().floor() as i32)
}

/// The largest magnitude among the entries of `v`.
fn max_abs<'a>(v: impl IntoIterator<Item = &'a f64>) -> f64 {
    v.into_iter()
        .filter(|x| x.is_finite())
        .fold(0.0f64, |m, x| m.max(x.abs()))
}

/// How [`solve`] rescales a problem: the operator (`A`, `W`) by `2^op` and the vectors
/// in the units of `q` (`q`, `b`) by `2^rhs`; the answer is then `2^(op - rhs)` times
/// the scaled problem's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Scaling {
    op: i32,
    rhs: i32,
}

impl Scaling {
    fn none(self) -> bool {
        self.op == 0 && self.rhs == 0
    }

    /// From the scaled problem's answer to the original's.
    fn answer(self, t: f64) -> f64 {
        mul_pow2(t, self.op - self.rhs)
    }
}

/// The [`Scaling`] [`solve`] applies. None when the data is within the window. When only
/// the vectors are out of range: the `2^rhs` that brings the largest entry of `q` (`b`) to
/// `[1, 2)` while keeping the solution's estimated size (`max |q| / max |W_ii|`) inside
/// the window too. When the operator's diagonal is out of range (`W = 1e-310 I`), a local
/// or LCP problem also has its operator brought to `[1, 2)` (not a global one).
fn scaling(problem: &AnyProblem) -> Scaling {
    let none = Scaling { op: 0, rhs: 0 };
    let (rhs, op) = match problem {
        AnyProblem::Lcp(p) => (max_abs(p.b().iter()), max_abs(p.a().diagonal().iter())),
        AnyProblem::Boxed(p) => {
            let bounds = p.row_bounds().iter().flat_map(|b| match *b {
                RowBound::Fixed { lo, hi } => [lo, hi],
                RowBound::Friction { .. } => [0.0, 0.0],
            });
            let m = max_abs(p.b().iter()).max(max_abs(bounds.collect::<Vec<_>>().iter()));
            (m, max_abs(p.a().diagonal().iter()))
        }
        AnyProblem::Friction(p) => (max_abs(p.q().iter()), max_abs(p.w().diagonal().iter())),
        AnyProblem::Global(p) => {
            // W = H^T M^-1 H is not formed: its size is about max|H|² / max|M_ii|, and
            // the free local velocity about max|b| + max|H| max|q| / max|M_ii|.
            let mut h = 0.0f64;
            for i in 0..p.h().nrows() {
                p.h().for_each_in_row(i, |_, v| {
                    if v.is_finite() {
                        h = h.max(v.abs());
                    }
                });
            }
            let m = max_abs(p.m().diagonal().iter());
            if m > 0.0 {
                let q = max_abs(p.q().iter()) / m * h;
                (max_abs(p.b().iter()).max(q), h / m * h)
            } else {
                (max_abs(p.b().iter()), 0.0)
            }
        }
    };
    let Some(lq) = exponent(rhs) else {
        return none;
    };
    let lw = exponent(op).unwrap_or(0);
    let inside = |l: i32| l.abs() <= SCALE_WINDOW;
    if !inside(lw) {
        return match problem {
            AnyProblem::Global(_) => none,
            _ => Scaling { op: -lw, rhs: -lq },
        };
    }
    // log2 of the solution's size
    let lr = lq - lw;
    if inside(lq) && inside(lr) {
        return none;
    }
    // k with both lq + k and lr + k in the window, nearest -lq (q to [1, 2))
    let lo = (-SCALE_WINDOW - lq).max(-SCALE_WINDOW - lr);
    let hi = (SCALE_WINDOW - lq).min(SCALE_WINDOW - lr);
    if lo > hi {
        none
    } else {
        Scaling {
            op: 0,
            rhs: (-lq).clamp(lo, hi),
        }
    }
}

/// The problem with its operator multiplied by `2^op` and its vectors in the units of `q`
/// (`q`, `b`) by `2^rhs`; fixed bounds (in the units of the answer) by `2^(rhs - op)`.
fn scaled_problem(problem: &AnyProblem, s: Scaling) -> Result<AnyProblem, ProblemError> {
    let v = |x: &DVector<f64>| x.map(|t| mul_pow2(t, s.rhs));
    let op = |m: &Matrix| {
        let mut m = m.clone();
        match &mut m {
            Matrix::Dense(d) => d.apply(|t| *t = mul_pow2(*t, s.op)),
            Matrix::Sparse(c) => c
                .values_mut()
                .iter_mut()
                .for_each(|t| *t = mul_pow2(*t, s.op)),
        }
        m
    };
    Ok(match problem {
        AnyProblem::Lcp(p) => AnyProblem::Lcp(Lcp::new(op(p.a()), v(p.b()))?),
        AnyProblem::Boxed(p) => {
            let bounds = p
                .row_bounds()
                .iter()
                .map(|b| match *b {
                    RowBound::Fixed { lo, hi } => RowBound::Fixed {
                        lo: mul_pow2(lo, s.rhs - s.op),
                        hi: mul_pow2(hi, s.rhs - s.op),
                    },
                    f => f,
                })
                .collect();
            AnyProblem::Boxed(BoxedLcp::new(op(p.a()), v(p.b()), bounds)?)
        }
        AnyProblem::Friction(p) => AnyProblem::Friction(FrictionContact::new(
            op(p.w()),
            v(p.q()),
            p.mu().clone(),
            p.kind(),
        )?),
        AnyProblem::Global(p) => AnyProblem::Global(GlobalFrictionContact::new(
            p.m().clone(),
            p.h().clone(),
            v(p.q()),
            v(p.b()),
            p.mu().clone(),
            p.kind(),
        )?),
    })
}

/// Solves `problem` with `method` from a zero start.
///
/// `kind` overrides the friction law of friction problems (`None`: the file's own); a
/// `kind` for an LCP or a boxed LCP, which have no friction law, is refused
/// ([`check_kind`]). A method that does not apply to the problem type gives
/// `Err(SolveError::Problem)` in the outcome, and so does a refused `kind`.
///
/// # Scaling
/// A problem whose data is far from order one (`‖q‖ ~ 1e200` or `1e-300`) would overflow
/// or underflow inside the solvers (squares of `1e160` are infinite). When the largest
/// entry of `q` (`b` for LCPs, with the fixed bounds of a boxed LCP), or the size of the
/// solution it implies with the operator's diagonal, lies outside `2^±`[`SCALE_WINDOW`],
/// the problem is solved with those vectors multiplied by the power of two `2^k` that
/// brings them to order one, and the answer is multiplied back by `2^-k`. Both are exact
/// (no rounding) unless an entry under- or overflows, and the relative errors of the
/// scaled problem are exactly the original's (the absolute ones scale by `2^k`, and so
/// does an absolute tolerance). When the operator's diagonal itself is out of the window
/// (`W = 1e-310 I`) the operator of a local or LCP problem is brought to order one as
/// well (the answer then scales by the ratio of the two factors; the errors, which mix
/// the units of the answer and of `q`, are those of the scaled problem during the solve).
/// In every case the answer is measured again on the original problem, the errors
/// reported (outcome, history, observer) are the original's, the observer sees the answer
/// in the original units, and "converged" is granted only if the answer meets the
/// tolerance on the original problem. Problems within the window are solved as given.
pub fn solve(
    problem: &AnyProblem,
    method: Method,
    kind: Option<FrictionKind>,
    params: &Params,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Outcome {
    if let Err(e) = check_kind(problem, kind) {
        return Outcome {
            method: method.resolve(problem),
            kind: None,
            x: DVector::zeros(problem.dim()),
            result: Err(e),
        };
    }
    let s = scaling(problem);
    if s.none() {
        return solve_as_given(problem, method, kind, params, observer);
    }
    let Ok(scaled) = scaled_problem(problem, s) else {
        return solve_as_given(problem, method, kind, params, observer);
    };
    // the factor of the absolute errors when only the vectors were scaled
    let factor = mul_pow2(1.0, s.rhs);
    let exact = s.op == 0;
    let scaled_params = Params {
        tol: match params.measure {
            Measure::Absolute if exact => mul_pow2(params.tol, s.rhs),
            _ => params.tol,
        },
        ..params.clone()
    };
    let mut back = DVector::zeros(problem.dim());
    // the original's errors at the observed iterations (when the operator was scaled)
    let mut seen: Vec<(usize, Residual)> = Vec::new();
    let mut wrapped = |it: &Iterate| {
        back.copy_from(it.x);
        back.apply(|t| *t = s.answer(*t));
        let error = match it.error {
            Some(e) if exact => Some(e.unscaled(factor)),
            Some(_) => measure(problem, &back, kind).ok().inspect(|e| {
                seen.push((it.iteration, *e));
            }),
            None => None,
        };
        observer(&Iterate {
            iteration: it.iteration,
            x: &back,
            error,
        })
    };
    let mut out = solve_as_given(&scaled, method, kind, &scaled_params, &mut wrapped);
    out.x.apply(|t| *t = s.answer(*t));
    let zero_error = measure(problem, &DVector::zeros(problem.dim()), out.kind).ok();
    let fix = |info: &mut SolveInfo, error: Residual| {
        info.error = error;
        for h in &mut info.history {
            h.error = if exact {
                h.error.unscaled(factor)
            } else if h.iteration == 0 {
                zero_error.unwrap_or(h.error)
            } else {
                seen.iter()
                    .rev()
                    .find(|(i, _)| *i == h.iteration)
                    .map_or(h.error, |(_, e)| *e)
            };
        }
    };
    let measured = measure(problem, &out.x, out.kind);
    out.result = match (out.result, measured) {
        (Ok(mut info), Ok(e)) => {
            fix(&mut info, e);
            if info.status == Status::Converged && !e.meets(params.tol, params.measure) {
                info.status = Status::MaxIterations;
                Err(SolveError::NoConvergence(Box::new(info)))
            } else {
                Ok(info)
            }
        }
        (Err(SolveError::NoConvergence(mut info)), Ok(e)) => {
            fix(&mut info, e);
            Err(SolveError::NoConvergence(info))
        }
        (Err(SolveError::Diverged { iteration, error }), _) if exact => Err(SolveError::Diverged {
            iteration,
            error: error.unscaled(factor),
        }),
        // the last finite iterate, measured on the original
        (Err(SolveError::Diverged { iteration, .. }), Ok(e)) => Err(SolveError::Diverged {
            iteration,
            error: e,
        }),
        (r, _) => r,
    };
    out
}

/// [`solve`] without the scaling.
/// A solve's result without the method's statistics.
fn without_stats<S>(result: Result<Solved<S>, SolveError<S>>) -> Result<SolveInfo, SolveError> {
    result
        .map(|info| info.map_stats(|_| ()))
        .map_err(SolveError::drop_stats)
}

fn solve_as_given(
    problem: &AnyProblem,
    method: Method,
    kind: Option<FrictionKind>,
    params: &Params,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Outcome {
    let method = method.resolve(problem);
    let mut x = DVector::zeros(problem.dim());
    let unsupported = |what: &str| {
        Err(SolveError::Problem(
            crate::problem::ProblemError::Unsupported {
                reason: format!(
                    "method `{}` does not apply to {what} problems",
                    method.name()
                ),
            },
        ))
    };
    let mut used_kind = None;
    // PROX: every problem type in the proximal model, then one solver.
    let prox = |pp: Result<ProxProblem, crate::problem::ProblemError>,
                x: &mut DVector<f64>,
                observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>| {
        let pp = pp?;
        let options = method.prox_options().ok_or_else(|| {
            SolveError::Problem(ProblemError::Unsupported {
                reason: format!("method `{}` is not a PROX method", method.name()),
            })
        })?;
        // The local and blocked r-factors divide by A_ii (eq. 39-40); a constant one does
        // not, so say which option gets around a zero diagonal (an LCP row, never a contact
        // of `J M^-1 J^T` with a nonzero Jacobian row).
        let r_factor = options.r_factor;
        let prox = Prox::new(&pp, options).map_err(|e| match e {
            ProblemError::NonPositiveDiagonal { .. } => ProblemError::Unsupported {
                reason: format!(
                    "{e} (the {} r-factors of {}; --r-factor global=R does not divide)",
                    r_factor.name(),
                    method.name()
                ),
            },
            e => e,
        })?;
        prox.solve(x, params, observer)
    };
    let is_prox = method.is_prox();
    let result = match problem {
        AnyProblem::Lcp(p) if is_prox => prox(Ok(ProxProblem::from_lcp(p)), &mut x, observer),
        AnyProblem::Boxed(p) if is_prox => prox(ProxProblem::from_boxed(p), &mut x, observer),
        AnyProblem::Friction(p) if is_prox => {
            let k = kind.unwrap_or(p.kind());
            used_kind = Some(k);
            prox(
                Ok(ProxProblem::from_friction_contact_as(p, k)),
                &mut x,
                observer,
            )
        }
        AnyProblem::Global(p) if is_prox => {
            let k = kind.unwrap_or(p.kind());
            used_kind = Some(k);
            prox(ProxProblem::from_global(p, k), &mut x, observer)
        }
        AnyProblem::Lcp(p) => match method {
            Method::Lemke => lemke(p, &mut x, params),
            Method::Pgs => solve_lcp(p, &mut x, Splitting::GaussSeidel, params, observer),
            Method::Pj { omega } => {
                solve_lcp(p, &mut x, Splitting::Jacobi { omega }, params, observer)
            }
            Method::Psor { omega } => {
                solve_lcp(p, &mut x, Splitting::Sor { omega }, params, observer)
            }
            Method::FischerNewton => without_stats(fischer_newton(
                p,
                &mut x,
                params,
                &FischerNewtonOptions::default(),
                observer,
            )),
            Method::MinMapNewton => without_stats(min_map_newton(
                p,
                &mut x,
                params,
                &MinMapNewtonOptions::default(),
                observer,
            )),
            Method::Nncg => {
                without_stats(nncg(p, &mut x, params, &NncgOptions::default(), observer))
            }
            _ => unsupported("LCP"),
        },
        AnyProblem::Boxed(p) => match method {
            Method::Pgs => solve_boxed(p, &mut x, Splitting::GaussSeidel, params, observer),
            Method::Pj { omega } => {
                solve_boxed(p, &mut x, Splitting::Jacobi { omega }, params, observer)
            }
            Method::Psor { omega } => {
                solve_boxed(p, &mut x, Splitting::Sor { omega }, params, observer)
            }
            Method::FischerNewton => without_stats(fischer_newton(
                p,
                &mut x,
                params,
                &FischerNewtonOptions::default(),
                observer,
            )),
            Method::MinMapNewton => without_stats(min_map_newton(
                p,
                &mut x,
                params,
                &MinMapNewtonOptions::default(),
                observer,
            )),
            Method::Nncg => {
                without_stats(nncg(p, &mut x, params, &NncgOptions::default(), observer))
            }
            _ => unsupported("boxed LCP"),
        },
        AnyProblem::Friction(p) => {
            let k = kind.unwrap_or(p.kind());
            used_kind = Some(k);
            match method {
                Method::Nsgs => BlockedGaussSeidel::new(p)
                    .map_err(SolveError::from)
                    .and_then(|s| s.with_kind(k).solve(&mut x, params, observer)),
                Method::Nsn => {
                    let p = p.clone().with_kind(k);
                    without_stats(cone_newton(
                        &p,
                        &mut x,
                        params,
                        &ConeNewtonOptions::default(),
                        observer,
                    ))
                }
                Method::ProxNsn => {
                    let p = p.clone().with_kind(k);
                    without_stats(cone_newton_prox_start(
                        &p,
                        &mut x,
                        params,
                        &ProxNsnOptions::default(),
                        observer,
                    ))
                }
                _ => unsupported("local friction"),
            }
        }
        AnyProblem::Global(p) => {
            let k = kind.unwrap_or(p.kind());
            used_kind = Some(k);
            match method {
                Method::Vgs => VelocityGaussSeidel::new(p)
                    .map_err(SolveError::from)
                    .and_then(|s| {
                        let mut v = DVector::zeros(p.dofs());
                        s.with_kind(k).solve(&mut x, &mut v, params, observer)
                    }),
                Method::Nsgs => p.to_local().map_err(SolveError::from).and_then(|local| {
                    let local = local.with_kind(k);
                    BlockedGaussSeidel::new(&local)
                        .map_err(SolveError::from)
                        .and_then(|s| s.solve(&mut x, params, observer))
                }),
                Method::Nsn => p.to_local().map_err(SolveError::from).and_then(|local| {
                    let local = local.with_kind(k);
                    without_stats(cone_newton(
                        &local,
                        &mut x,
                        params,
                        &ConeNewtonOptions::default(),
                        observer,
                    ))
                }),
                Method::ProxNsn => p.to_local().map_err(SolveError::from).and_then(|local| {
                    let local = local.with_kind(k);
                    without_stats(cone_newton_prox_start(
                        &local,
                        &mut x,
                        params,
                        &ProxNsnOptions::default(),
                        observer,
                    ))
                }),
                _ => unsupported("global friction"),
            }
        }
    };
    Outcome {
        method,
        kind: used_kind,
        x,
        result,
    }
}
