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
use crate::merit::{Residual, boxed_error, friction_error, lcp_error};
use crate::newton::{ConeNewtonOptions, cone_newton};
use crate::newton::{
    FischerNewton, MinMapNewton, Nncg, ProxStart, cone_newton_prox_start, fischer_newton,
    min_map_newton, nncg,
};
use crate::pivoting::lemke;
use crate::problem::FrictionKind;
use crate::prox::{Prox, ProxOptions, ProxProblem, RFactor, Scheme};
use crate::solver::{Iterate, Params, SolveError, SolveInfo};
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
    /// problems; for LCPs and boxed LCPs the natural map of the box law, whose `rel_q`
    /// (divided by `‖b‖`) is the LCP or boxed error the other methods report.
    ProxGs {
        /// The initial r-factor strategy.
        r_factor: RFactor,
    },
    /// PROX Jacobi (Erleben 2017 Algorithm 1), on the same problems as `ProxGs`.
    ProxJacobi {
        /// The initial r-factor strategy.
        r_factor: RFactor,
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

    /// With the r-factor strategy set for the PROX methods.
    pub fn with_r_factor(self, r_factor: RFactor) -> Method {
        match self {
            Method::ProxGs { .. } => Method::ProxGs { r_factor },
            Method::ProxJacobi { .. } => Method::ProxJacobi { r_factor },
            m => m,
        }
    }

    /// With `omega` set for the methods that take one.
    pub fn with_omega(self, omega: f64) -> Method {
        match self {
            Method::Pj { .. } => Method::Pj { omega },
            Method::Psor { .. } => Method::Psor { omega },
            m => m,
        }
    }
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
            "prox-gs" | "prox" => Method::ProxGs {
                r_factor: RFactor::default(),
            },
            "prox-jacobi" => Method::ProxJacobi {
                r_factor: RFactor::default(),
            },
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

/// The problem's own error measure at `x` (LCP error, boxed error, or the natural-map error
/// of `kind`, Coulomb or CCP; for a global problem, of its local form).
pub fn measure(
    problem: &AnyProblem,
    x: &DVector<f64>,
    kind: Option<FrictionKind>,
) -> Result<Residual, SolveError> {
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

/// Solves `problem` with `method` from a zero start.
///
/// `kind` overrides the friction law of friction problems (`None`: the file's own).
/// A method that does not apply to the problem type gives `Err(SolveError::Problem)` in
/// the outcome.
pub fn solve(
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
        let (scheme, r_factor) = match method {
            Method::ProxGs { r_factor } => (Scheme::GaussSeidel, r_factor),
            Method::ProxJacobi { r_factor } => (Scheme::Jacobi, r_factor),
            _ => unreachable!("called for PROX methods only"),
        };
        let pp = pp?;
        let options = ProxOptions {
            scheme,
            r_factor,
            ..Default::default()
        };
        Prox::new(&pp, options)?.solve(x, params, observer)
    };
    let is_prox = matches!(method, Method::ProxGs { .. } | Method::ProxJacobi { .. });
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
            Method::FischerNewton => {
                fischer_newton(p, &mut x, params, &FischerNewton::default(), observer)
            }
            Method::MinMapNewton => {
                min_map_newton(p, &mut x, params, &MinMapNewton::default(), observer)
            }
            Method::Nncg => nncg(p, &mut x, params, &Nncg::default(), observer),
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
            Method::FischerNewton => {
                fischer_newton(p, &mut x, params, &FischerNewton::default(), observer)
            }
            Method::MinMapNewton => {
                min_map_newton(p, &mut x, params, &MinMapNewton::default(), observer)
            }
            Method::Nncg => nncg(p, &mut x, params, &Nncg::default(), observer),
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
                    cone_newton(&p, &mut x, params, &ConeNewtonOptions::default(), observer)
                        .map(|(info, _)| info)
                }
                Method::ProxNsn => {
                    let p = p.clone().with_kind(k);
                    cone_newton_prox_start(&p, &mut x, params, &ProxStart::default(), observer)
                        .map(|(info, _)| info)
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
                    cone_newton(
                        &local,
                        &mut x,
                        params,
                        &ConeNewtonOptions::default(),
                        observer,
                    )
                    .map(|(info, _)| info)
                }),
                Method::ProxNsn => p.to_local().map_err(SolveError::from).and_then(|local| {
                    let local = local.with_kind(k);
                    cone_newton_prox_start(&local, &mut x, params, &ProxStart::default(), observer)
                        .map(|(info, _)| info)
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
