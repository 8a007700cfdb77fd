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
mod methods;
mod options;
mod run;

pub use choice::{Choice, OptionError};

use std::fmt;
use std::ops::ControlFlow;

use nalgebra::DVector;
use serde::Serialize;
use serde_json::Value;

use self::options::ReadFn;
use crate::merit::{Residual, boxed_error, friction_error, lcp_error};
use crate::problem::{AnyProblem, FrictionKind, ProblemError, check_len};
use crate::solver::scaling::solve_scaled;
use crate::solver::{Iterate, Params, SolveError, Solved};

/// The problem types of the crate, as the registry names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemType {
    /// [`crate::problem::Lcp`].
    Lcp,
    /// [`crate::problem::BoxedLcp`].
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

/// A method's statistics, type-erased for the registry: the method's `Stats` struct as
/// JSON (`null` for methods that count nothing).
pub type Stats = Value;

/// The observer every solve takes.
pub type Observer<'a> = dyn FnMut(&Iterate) -> ControlFlow<()> + 'a;

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

/// Every method of the crate, in the order of the tables; each entry is the `SPEC` of its
/// file under `registry/methods/`.
pub static METHODS: &[MethodSpec] = &[
    methods::auto::SPEC,
    methods::lemke::SPEC,
    methods::splitting::SPEC_PJ,
    methods::splitting::SPEC_PGS,
    methods::splitting::SPEC_PSOR,
    methods::nsgs::SPEC,
    methods::vgs::SPEC,
    methods::fischer_newton::SPEC,
    methods::minmap_newton::SPEC,
    methods::nncg::SPEC,
    methods::prox::SPEC_GS,
    methods::prox::SPEC_JACOBI,
    methods::nsn::SPEC,
    methods::prox_nsn::SPEC,
    methods::gs_nsn::SPEC,
    methods::ppa::SPEC,
    methods::gmp_newton::SPEC,
    methods::gmp_pgs::SPEC,
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
        let method = &*choice.options;
        let result = solve_scaled(
            problem,
            &mut x,
            params,
            observer,
            &measure,
            &mut |p, x, params, obs| method.run(p, x, params, obs),
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
