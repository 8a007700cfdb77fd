//! The registry of methods: every method of the crate by its name, the problem types it
//! applies to, and its options as a serde struct. The command line, the benchmarks, the
//! book's tables (and the Python package) call methods through it; there is no other
//! dispatcher.
//!
//! A [`Choice`] is a method with its options: made from a name, changed one option at a
//! time from text (`--set key=value` on the command line) or JSON, checked as it is made
//! (an unknown option or a value of the wrong type is an [`OptionError`]), and run by
//! [`solve`] on any [`AnyProblem`] from a warm start.
//!
//! ```
//! use nalgebra::{DMatrix, DVector};
//! use nonsmooth::problem::AnyProblem;
//! use nonsmooth::problem::Lcp;
//! use nonsmooth::solver::{Params, no_observer};
//! use nonsmooth::registry::{Choice, solve};
//! // 0 <= x ⊥ 2x - 1 >= 0 has x = 1/2.
//! let lcp = Lcp::new(DMatrix::from_element(1, 1, 2.0).into(), DVector::from_element(1, -1.0))
//!     .unwrap();
//! let problem = AnyProblem::Lcp(lcp);
//! let psor: Choice = "psor".parse::<Choice>().unwrap().set_text("omega", "1.5").unwrap();
//! let out = solve(&problem, &psor, DVector::zeros(1), &Params::default(), &mut no_observer());
//! assert_eq!(out.status(), "converged");
//! assert!((out.x[0] - 0.5).abs() < 1e-8);
//! // an option the method does not have is refused, with the ones it has
//! let e = psor.clone().set_text("window", "10").unwrap_err();
//! assert!(e.to_string().contains("omega"));
//! ```

pub mod auto;
mod choice;
mod options;
mod run;

pub use choice::{Choice, OptionError};

use crate::composite::prox_then_newton::ProxNsnOptions;
use std::fmt;
use std::ops::ControlFlow;

use nalgebra::DVector;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use self::options::{GS, JACOBI, Typed, defaults, no_options, prox_defaults, prox_typed, typed};
use self::run::{run, run_either, run_gs_nsn, run_lemke, run_ppa, run_prox, run_prox_nsn};
use crate::generic::{GmpNewton, GmpNewtonOptions, GmpPgs, GmpPgsOptions};
use crate::merit::{Residual, boxed_error, friction_error, lcp_error};
use crate::newton::{
    ConeNewton, ConeNewtonOptions, FischerNewton, FischerNewtonOptions, MinMapNewton,
    MinMapNewtonOptions, Nncg, NncgOptions,
};
use crate::pivoting::LemkeOptions;
use crate::problem::{AnyProblem, BoxedLcp, FrictionKind, Lcp, ProblemError, check_len};
use crate::proximal_point::ProximalPointOptions;
use crate::solver::scaling::solve_scaled;
use crate::solver::{Iterate, Params, SolveError, Solved};
use crate::splitting::{
    Nsgs, NsgsOptions, PgsOptions, PjOptions, ProjectedSplitting, PsorOptions, Vgs, VgsOptions,
};

/// The problem types of the crate, as the registry names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemType {
    /// [`Lcp`].
    Lcp,
    /// [`BoxedLcp`].
    BoxedLcp,
    /// A local friction problem ([`crate::problem::FrictionContact`]).
    Fc3d,
    /// A global friction problem ([`crate::problem::GlobalFrictionContact`]).
    Gfc3d,
    /// A generic mechanical problem ([`crate::problem::GenericMechanical`]).
    Gmp,
}

impl ProblemType {
    /// The type of `problem`.
    pub fn of(problem: &AnyProblem) -> Self {
        match problem {
            AnyProblem::Lcp(_) => ProblemType::Lcp,
            AnyProblem::Boxed(_) => ProblemType::BoxedLcp,
            AnyProblem::Friction(_) => ProblemType::Fc3d,
            AnyProblem::Global(_) => ProblemType::Gfc3d,
            AnyProblem::Generic(_) => ProblemType::Gmp,
        }
    }

    /// `"lcp"`, `"boxed-lcp"`, `"fc3d"`, `"gfc3d"`, `"gmp"` (as [`AnyProblem::type_name`]).
    pub fn name(self) -> &'static str {
        match self {
            ProblemType::Lcp => "lcp",
            ProblemType::BoxedLcp => "boxed-lcp",
            ProblemType::Fc3d => "fc3d",
            ProblemType::Gfc3d => "gfc3d",
            ProblemType::Gmp => "gmp",
        }
    }
}

/// The options struct of a method, as the registry handles it: serde both ways, a
/// default, and a range check.
pub trait MethodOptions:
    Serialize + DeserializeOwned + Default + Clone + Send + Sync + 'static
{
    /// Checks the values against their ranges.
    ///
    /// # Errors
    /// `(option, reason)` for the first value out of range.
    fn validate(&self) -> Result<(), (String, String)> {
        Ok(())
    }
}

/// A method's statistics, type-erased for the registry: the method's `Stats` struct as
/// JSON (`null` for methods that count nothing).
pub type Stats = Value;

/// The observer every solve takes.
pub type Observer<'a> = dyn FnMut(&Iterate) -> ControlFlow<()> + 'a;

/// A method's settings read as its options struct and range-checked: `(option, reason)`
/// for the first one refused.
type ReadFn = fn(&Map<String, Value>) -> Result<Typed, (String, String)>;

/// A method run with its options as [`ReadFn`] read them.
type RunFn = fn(
    &AnyProblem,
    &mut DVector<f64>,
    &Params,
    &Typed,
    &mut Observer<'_>,
) -> Result<Solved<Stats>, SolveError<Stats>>;

/// One method of the registry.
pub struct MethodSpec {
    /// The name on the command line and in tables.
    pub name: &'static str,
    /// Other names accepted for it.
    pub aliases: &'static [&'static str],
    /// One line: what it is and where it comes from.
    pub summary: &'static str,
    /// The problem types it solves (others are refused, never converted silently).
    pub applies_to: &'static [ProblemType],
    /// The iteration cap the command line uses when none is given.
    pub default_max_iter: usize,
    defaults: fn() -> Value,
    read: ReadFn,
    run: RunFn,
}

impl fmt::Debug for MethodSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MethodSpec")
            .field("name", &self.name)
            .field("applies_to", &self.applies_to)
            .finish_non_exhaustive()
    }
}

impl MethodSpec {
    /// The method's options with their default values, as a JSON object (`{}` for `auto`).
    pub fn default_options(&self) -> Value {
        (self.defaults)()
    }

    /// The names of the method's options.
    pub fn option_names(&self) -> Vec<String> {
        match self.default_options() {
            Value::Object(m) => m.keys().cloned().collect(),
            _ => Vec::new(),
        }
    }

    /// `true` if the method solves problems of type `t`.
    pub fn applies_to(&self, t: ProblemType) -> bool {
        self.applies_to.contains(&t)
    }
}

/// The command line's iteration cap (sweeps, Newton steps or pivots) when `--max-iter` is
/// not given, for every method but PROX.
pub const DEFAULT_MAX_ITER: usize = 100_000;

/// The command line's iteration cap for Newton methods and the proximal-point method when
/// `--max-iter` is not given: Newton steps (outer iterations for `ppa`), in the hundreds as
/// Siconos's Newton solvers use. A Newton method that has not converged in 500 steps has
/// stalled long before: the stall rule ([`crate::solver::StallRule::NEWTON`]) usually ends
/// it first.
pub const NEWTON_DEFAULT_MAX_ITER: usize = 500;

/// The command line's sweep cap for prox-gs and prox-jacobi when `--max-iter` is not
/// given: PROX Gauss-Seidel with its recommended options needs about 261 000 sweeps on the
/// shared `BoxesStack1` file (`book/src/generated/prox_shared.txt`), more than
/// [`DEFAULT_MAX_ITER`].
pub const PROX_DEFAULT_MAX_ITER: usize = 1_000_000;

use ProblemType::{BoxedLcp as B, Fc3d as F, Gfc3d as G, Gmp as M, Lcp as L};

/// Every method of the crate.
pub static METHODS: &[MethodSpec] = &[
    MethodSpec {
        name: "auto",
        aliases: &[],
        summary: "a strategy: methods in turn, each until it stalls, chosen by what is \
                  measured on the problem (LCP: Lemke up to 200 unknowns, Fischer-Newton, \
                  Lemke up to 3000; friction: an NSGS probe, then NSGS, semismooth Newton, \
                  the proximal-point method; see `registry::auto`)",
        applies_to: &[L, B, F, G, M],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: || Value::Object(Map::new()),
        read: no_options,
        run: |p, x, params, _, obs| auto::run_auto(p, x, params, obs),
    },
    MethodSpec {
        name: "lemke",
        aliases: &[],
        summary: "Lemke's complementary pivoting, lexicographic (Cottle, Pang, Stone 1992 §4.4); \
                  pivots from its own initial basis, so a warm start is not used",
        applies_to: &[L],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<LemkeOptions>,
        read: typed::<LemkeOptions>,
        run: run_lemke,
    },
    MethodSpec {
        name: "pj",
        aliases: &["jacobi"],
        summary: "projected Jacobi (Erleben 2009 slides eq. 20-37)",
        applies_to: &[L, B],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<PjOptions>,
        read: typed::<PjOptions>,
        run: |p, x, params, o, obs| {
            run_either::<PjOptions, ProjectedSplitting<Lcp>, ProjectedSplitting<BoxedLcp>>(
                "pj", p, x, params, o, obs,
            )
        },
    },
    MethodSpec {
        name: "pgs",
        aliases: &["gs"],
        summary: "projected Gauss-Seidel (Erleben 2009 slides eq. 20-37)",
        applies_to: &[L, B],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<PgsOptions>,
        read: typed::<PgsOptions>,
        run: |p, x, params, o, obs| {
            run_either::<PgsOptions, ProjectedSplitting<Lcp>, ProjectedSplitting<BoxedLcp>>(
                "pgs", p, x, params, o, obs,
            )
        },
    },
    MethodSpec {
        name: "psor",
        aliases: &["sor"],
        summary: "projected successive over-relaxation (Erleben 2009 slides eq. 20-37)",
        applies_to: &[L, B],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<PsorOptions>,
        read: typed::<PsorOptions>,
        run: |p, x, params, o, obs| {
            run_either::<PsorOptions, ProjectedSplitting<Lcp>, ProjectedSplitting<BoxedLcp>>(
                "psor", p, x, params, o, obs,
            )
        },
    },
    MethodSpec {
        name: "nsgs",
        aliases: &[],
        summary: "blocked nonsmooth Gauss-Seidel (Jean 1999; Acary, Bremond, Huber 2018); \
                  a global problem is reduced to its local form first",
        applies_to: &[F, G],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<NsgsOptions>,
        read: typed::<NsgsOptions>,
        run: |p, x, params, o, obs| run::<NsgsOptions, Nsgs>("nsgs", p, x, params, o, obs),
    },
    MethodSpec {
        name: "vgs",
        aliases: &[],
        summary: "velocity-space blocked Gauss-Seidel, W never formed",
        applies_to: &[G],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<VgsOptions>,
        read: typed::<VgsOptions>,
        run: |p, x, params, o, obs| run::<VgsOptions, Vgs>("vgs", p, x, params, o, obs),
    },
    MethodSpec {
        name: "fischer-newton",
        aliases: &["fn"],
        summary: "Fischer-Burmeister Newton, B-subdifferential, Armijo line search (Silcowitz, Niebe, Erleben 2009 eq. 27-39)",
        applies_to: &[L, B],
        default_max_iter: NEWTON_DEFAULT_MAX_ITER,
        defaults: defaults::<FischerNewtonOptions>,
        read: typed::<FischerNewtonOptions>,
        run: |p, x, params, o, obs| {
            run_either::<FischerNewtonOptions, FischerNewton<Lcp>, FischerNewton<BoxedLcp>>(
                "fischer-newton",
                p,
                x,
                params,
                o,
                obs,
            )
        },
    },
    MethodSpec {
        name: "minmap-newton",
        aliases: &["min-map-newton", "mmn"],
        summary: "minimum-map Newton, active set, projected line search (Niebe and Erleben 2015)",
        applies_to: &[L, B],
        default_max_iter: NEWTON_DEFAULT_MAX_ITER,
        defaults: defaults::<MinMapNewtonOptions>,
        read: typed::<MinMapNewtonOptions>,
        run: |p, x, params, o, obs| {
            run_either::<MinMapNewtonOptions, MinMapNewton<Lcp>, MinMapNewton<BoxedLcp>>(
                "minmap-newton",
                p,
                x,
                params,
                o,
                obs,
            )
        },
    },
    MethodSpec {
        name: "nncg",
        aliases: &[],
        summary: "nonsmooth nonlinear conjugate gradient on PGS (Silcowitz-Hansen, Niebe, Erleben 2010)",
        applies_to: &[L, B],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<NncgOptions>,
        read: typed::<NncgOptions>,
        run: |p, x, params, o, obs| {
            run_either::<NncgOptions, Nncg<Lcp>, Nncg<BoxedLcp>>("nncg", p, x, params, o, obs)
        },
    },
    MethodSpec {
        name: "prox-gs",
        aliases: &["prox"],
        summary: "PROX Gauss-Seidel with adaptive r-factors (Erleben 2017 Algorithm 2)",
        applies_to: &[L, B, F, G],
        default_max_iter: PROX_DEFAULT_MAX_ITER,
        defaults: prox_defaults::<GS>,
        read: prox_typed::<GS>,
        run: run_prox::<GS>,
    },
    MethodSpec {
        name: "prox-jacobi",
        aliases: &[],
        summary: "PROX Jacobi with adaptive r-factors (Erleben 2017 Algorithm 1)",
        applies_to: &[L, B, F, G],
        default_max_iter: PROX_DEFAULT_MAX_ITER,
        defaults: prox_defaults::<JACOBI>,
        read: prox_typed::<JACOBI>,
        run: run_prox::<JACOBI>,
    },
    MethodSpec {
        name: "nsn",
        aliases: &["newton"],
        summary: "semismooth Newton on the friction cone: Alart-Curnier (Coulomb), natural \
                  map (CCP); a global problem is reduced to its local form first",
        applies_to: &[F, G],
        default_max_iter: NEWTON_DEFAULT_MAX_ITER,
        defaults: defaults::<ConeNewtonOptions>,
        read: typed::<ConeNewtonOptions>,
        run: |p, x, params, o, obs| {
            run::<ConeNewtonOptions, ConeNewton>("nsn", p, x, params, o, obs)
        },
    },
    MethodSpec {
        name: "prox-nsn",
        aliases: &[],
        summary: "PROX Gauss-Seidel to 1e-2, then the semismooth Newton method on the cone",
        applies_to: &[F, G],
        default_max_iter: NEWTON_DEFAULT_MAX_ITER,
        defaults: defaults::<ProxNsnOptions>,
        read: typed::<ProxNsnOptions>,
        run: run_prox_nsn,
    },
    MethodSpec {
        name: "gs-nsn",
        aliases: &[],
        summary: "blocked Gauss-Seidel (NSGS) while each sweep at least halves the error (at \
                  most 20 sweeps); if they did not finish, the semismooth Newton method on \
                  the cone from the given start (newton_from=sweeps: from their iterate)",
        applies_to: &[F, G],
        default_max_iter: NEWTON_DEFAULT_MAX_ITER,
        defaults: defaults::<crate::composite::gs_then_newton::GsNsnOptions>,
        read: typed::<crate::composite::gs_then_newton::GsNsnOptions>,
        run: run_gs_nsn,
    },
    MethodSpec {
        name: "ppa",
        aliases: &["prox-point", "proximal-point"],
        summary: "proximal-point method: outer W + rho I, q - rho r^k, inner semismooth \
                  Newton (nsn), rho = 5 mean(diag W) error (Siconos PROX; Acary, Bremond, \
                  Huber 2018); a global problem is reduced to its local form first",
        applies_to: &[F, G],
        default_max_iter: NEWTON_DEFAULT_MAX_ITER,
        defaults: defaults::<ProximalPointOptions>,
        read: typed::<ProximalPointOptions>,
        run: run_ppa,
    },
    MethodSpec {
        name: "gmp-newton",
        aliases: &[],
        summary: "semismooth Newton on the scaled natural map of the generic mechanical \
                  problem, Armijo line search, gradient fallback (Acary, Bremond, Huber 2018)",
        applies_to: &[M],
        default_max_iter: NEWTON_DEFAULT_MAX_ITER,
        defaults: defaults::<GmpNewtonOptions>,
        read: typed::<GmpNewtonOptions>,
        run: |p, x, params, o, obs| {
            run::<GmpNewtonOptions, GmpNewton>("gmp-newton", p, x, params, o, obs)
        },
    },
    MethodSpec {
        name: "gmp-pgs",
        aliases: &[],
        summary: "projected block Gauss-Seidel on the generic mechanical problem, local \
                  Newton per contact in scaled variables (Jean 1999; Acary, Bremond, Huber 2018)",
        applies_to: &[M],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<GmpPgsOptions>,
        read: typed::<GmpPgsOptions>,
        run: |p, x, params, o, obs| run::<GmpPgsOptions, GmpPgs>("gmp-pgs", p, x, params, o, obs),
    },
];

/// Every method name, in the registry's order.
pub fn names() -> Vec<&'static str> {
    METHODS.iter().map(|m| m.name).collect()
}

/// The names of the methods that solve problems of type `ty`, in the registry's order:
/// what every list of methods in help texts and messages is made from.
pub fn names_for(ty: ProblemType) -> Vec<&'static str> {
    METHODS
        .iter()
        .filter(|m| m.applies_to(ty))
        .map(|m| m.name)
        .collect()
}

/// The method called `name` (or one of its aliases; case-insensitive).
///
/// # Errors
/// [`OptionError::UnknownMethod`] with the names there are.
pub fn find(name: &str) -> Result<&'static MethodSpec, OptionError> {
    let lower = name.to_ascii_lowercase();
    METHODS
        .iter()
        .find(|m| m.name == lower || m.aliases.contains(&lower.as_str()))
        .ok_or_else(|| OptionError::UnknownMethod {
            name: name.to_string(),
        })
}

/// What a solve produced, converged or not.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The method actually run (`auto` resolved).
    pub method: Choice,
    /// The answer (`x` for LCPs, `r` for friction problems), or the last finite iterate;
    /// the warm start, untouched, when the solve was refused.
    pub x: DVector<f64>,
    /// The friction law solved (`None` for LCPs).
    pub kind: Option<FrictionKind>,
    /// How it ended, with the method's statistics as JSON.
    pub result: Result<Solved<Stats>, SolveError<Stats>>,
}

impl Outcome {
    /// `"converged"`, `"max-iterations"`, `"stopped"`, or the error's status name.
    pub fn status(&self) -> &'static str {
        match &self.result {
            Ok(info) => info.status.name(),
            Err(e) => e.status_name(),
        }
    }

    /// The method's name for tables: its name, and for `auto` the method its strategy
    /// ended with (`auto:ppa`; the whole route is in the statistics, `route`).
    pub fn method_label(&self) -> String {
        let name = self.method.name();
        match self.info().and_then(|i| auto::route(&i.stats)) {
            Some(route) if name == "auto" => {
                format!("auto:{}", route.rsplit('>').next().unwrap_or(route))
            }
            _ => name.to_string(),
        }
    }

    /// The report of a finished or non-converged solve.
    pub fn info(&self) -> Option<&Solved<Stats>> {
        match &self.result {
            Ok(info) => Some(info),
            Err(SolveError::NoConvergence(info)) => Some(info),
            _ => None,
        }
    }
}

/// The problem's own error measure at `x`: the LCP error, the boxed error, or the
/// natural-map error of the problem's friction law (for a global problem, of its local
/// form). Every method's reported error is this measure.
///
/// # Errors
/// A global problem whose local form cannot be made.
pub fn measure(problem: &AnyProblem, x: &DVector<f64>) -> Result<Residual, SolveError> {
    Ok(match problem {
        AnyProblem::Lcp(p) => lcp_error(p, x),
        AnyProblem::Boxed(p) => boxed_error(p, x),
        AnyProblem::Friction(p) => friction_error(p, x),
        AnyProblem::Global(p) => friction_error(&p.to_local()?, x),
        AnyProblem::Generic(p) => p.error(x),
    })
}

/// A failed solve of a problem that has no solution, reported as such: when the method
/// did not converge (whatever it reported: the cap, a stall, divergence, a ray, a singular
/// system, a diagonal it cannot divide by), a certificate is looked for from its last
/// iterate `x` ([`crate::certificate::find`]); if one is proved, the result is
/// [`SolveError::Infeasible`]. A solve that converged is questioned only when its answer is
/// of implausible size ([`crate::certificate::implausible`]), where `W r` is rounding and
/// a small error no evidence.
fn with_certificate(
    problem: &AnyProblem,
    x: &DVector<f64>,
    result: Result<Solved<Stats>, SolveError<Stats>>,
) -> Result<Solved<Stats>, SolveError<Stats>> {
    match result {
        // a converged answer of implausible size (where `W r` is rounding) is checked too
        Ok(info) if crate::certificate::implausible(problem, x) => {
            match crate::certificate::find(problem, x) {
                Some(c) => Err(SolveError::Infeasible(Box::new(c))),
                None => Ok(info),
            }
        }
        Ok(info) => Ok(info),
        Err(SolveError::Infeasible(c)) => Err(SolveError::Infeasible(c)),
        Err(e) => match crate::certificate::find(problem, x) {
            Some(c) => Err(SolveError::Infeasible(Box::new(c))),
            None => Err(e),
        },
    }
}

/// Solves `problem` with `choice` from the warm start `x` (zeros for a cold start; its
/// length is [`AnyProblem::dim`]); [`Outcome::x`] holds the answer, or the last finite
/// iterate.
///
/// The friction law solved is the problem's own ([`AnyProblem::with_kind`] changes it).
/// A method that does not apply to the problem type is refused
/// (`Err(SolveError::Problem)` in the outcome); so is a wrong `x` length. Problems whose
/// numbers are far from order one are solved rescaled by exact powers of two, and the
/// answer is measured again on the original (see the scaling section of the book's
/// command-line chapter).
pub fn solve(
    problem: &AnyProblem,
    choice: &Choice,
    mut x: DVector<f64>,
    params: &Params,
    observer: &mut Observer<'_>,
) -> Outcome {
    let choice = choice.resolve(problem);
    let kind = match problem {
        AnyProblem::Friction(p) => Some(p.kind()),
        AnyProblem::Global(p) => Some(p.kind()),
        _ => None,
    };
    let t = ProblemType::of(problem);
    let result = if !choice.spec.applies_to(t) {
        Err(SolveError::Problem(ProblemError::Unsupported {
            reason: format!(
                "method `{}` does not apply to {} (it solves: {})",
                choice.name(),
                problem.noun(),
                choice
                    .spec
                    .applies_to
                    .iter()
                    .map(|t| t.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }))
    } else if let Err(e) = check_len("the warm start", problem.dim(), x.len()) {
        Err(SolveError::Problem(e))
    } else {
        // The settings were read into the method's options struct and checked when the
        // choice was made (`Choice::set`): nothing is parsed per solve.
        let settings = &choice.options;
        let run = choice.spec.run;
        let result = solve_scaled(
            problem,
            &mut x,
            params,
            observer,
            &measure,
            &mut |p, x, params, obs| run(p, x, params, settings, obs),
        );
        if params.certify {
            with_certificate(problem, &x, result)
        } else {
            result
        }
    };
    Outcome {
        method: choice,
        x,
        kind,
        result,
    }
}
