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
//! use nonsmooth::solver::registry::{Choice, solve};
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

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

use nalgebra::DVector;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::scaling::solve_scaled;
use super::{Iterate, Params, SolveError, Solved, solve as solve_with};
use crate::merit::{Residual, boxed_error, friction_error, lcp_error};
use crate::newton::{
    ConeNewtonOptions, FischerNewtonOptions, MinMapNewtonOptions, NncgOptions, ProxNsnOptions,
    cone_newton, cone_newton_prox_start, fischer_newton, min_map_newton, nncg,
};
use crate::pivoting::{LemkeOptions, lemke};
use crate::problem::AnyProblem;
use crate::problem::{BoxedLcp, FrictionContact, FrictionKind, Lcp, ProblemError, check_len};
use crate::prox::{ProxOptions, ProxProblem, Scheme, prox_solve};
use crate::splitting::{
    Nsgs, NsgsOptions, PgsOptions, PjOptions, ProjectedSplitting, PsorOptions, SplittingOptions,
    Vgs, VgsOptions,
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
}

impl ProblemType {
    /// The type of `problem`.
    pub fn of(problem: &AnyProblem) -> Self {
        match problem {
            AnyProblem::Lcp(_) => ProblemType::Lcp,
            AnyProblem::Boxed(_) => ProblemType::BoxedLcp,
            AnyProblem::Friction(_) => ProblemType::Fc3d,
            AnyProblem::Global(_) => ProblemType::Gfc3d,
        }
    }

    /// `"lcp"`, `"boxed-lcp"`, `"fc3d"`, `"gfc3d"` (as [`AnyProblem::type_name`]).
    pub fn name(self) -> &'static str {
        match self {
            ProblemType::Lcp => "lcp",
            ProblemType::BoxedLcp => "boxed-lcp",
            ProblemType::Fc3d => "fc3d",
            ProblemType::Gfc3d => "gfc3d",
        }
    }
}

/// The options struct of a method, as the registry handles it: serde both ways, a
/// default, and a range check.
pub trait MethodOptions: Serialize + DeserializeOwned + Default {
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

/// A range check of a method's settings: `(option, reason)` for the first one refused.
type CheckFn = fn(&Map<String, Value>) -> Result<(), (String, String)>;

type RunFn = fn(
    &AnyProblem,
    &mut DVector<f64>,
    &Params,
    &Map<String, Value>,
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
    check: CheckFn,
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

/// The command line's sweep cap for prox-gs and prox-jacobi when `--max-iter` is not
/// given: PROX Gauss-Seidel with its recommended options needs about 261 000 sweeps on the
/// shared `BoxesStack1` file (`book/src/generated/prox_shared.txt`), more than
/// [`DEFAULT_MAX_ITER`].
pub const PROX_DEFAULT_MAX_ITER: usize = 1_000_000;

use ProblemType::{BoxedLcp as B, Fc3d as F, Gfc3d as G, Lcp as L};

// ANCHOR: auto
/// What `auto` runs on each problem type: of the candidates measured by
/// `examples/auto_choice.rs` on every shared problem and on generated scenes (whole solve
/// from zero to 1e-8, `book/src/generated/auto_summary.txt`), the one that reaches the
/// tolerance on the most problems, then in the least time (geometric mean over the problems
/// every candidate solved). `tests/auto_choice.rs` checks that this table is the one the
/// committed summary picks.
pub const AUTO: &[(ProblemType, &str)] = &[
    (ProblemType::Lcp, "fischer-newton"),
    (ProblemType::BoxedLcp, "nncg"),
    (ProblemType::Fc3d, "nsn"),
    (ProblemType::Gfc3d, "prox-nsn"),
];
// ANCHOR_END: auto

/// Every method of the crate.
pub static METHODS: &[MethodSpec] = &[
    MethodSpec {
        name: "auto",
        aliases: &[],
        summary: "the measured best method per problem type (the AUTO table)",
        applies_to: &[L, B, F, G],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: || Value::Object(Map::new()),
        check: no_options,
        run: run_auto,
    },
    MethodSpec {
        name: "lemke",
        aliases: &[],
        summary: "Lemke's complementary pivoting, lexicographic (Cottle, Pang, Stone 1992 §4.4); \
                  pivots from its own initial basis, so a warm start is not used",
        applies_to: &[L],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<LemkeOptions>,
        check: check::<LemkeOptions>,
        run: run_lemke,
    },
    MethodSpec {
        name: "pj",
        aliases: &["jacobi"],
        summary: "projected Jacobi (Erleben 2009 slides eq. 20-37)",
        applies_to: &[L, B],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<PjOptions>,
        check: check::<PjOptions>,
        run: run_splitting::<PjOptions>,
    },
    MethodSpec {
        name: "pgs",
        aliases: &["gs"],
        summary: "projected Gauss-Seidel (Erleben 2009 slides eq. 20-37)",
        applies_to: &[L, B],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<PgsOptions>,
        check: check::<PgsOptions>,
        run: run_splitting::<PgsOptions>,
    },
    MethodSpec {
        name: "psor",
        aliases: &["sor"],
        summary: "projected successive over-relaxation (Erleben 2009 slides eq. 20-37)",
        applies_to: &[L, B],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<PsorOptions>,
        check: check::<PsorOptions>,
        run: run_splitting::<PsorOptions>,
    },
    MethodSpec {
        name: "nsgs",
        aliases: &[],
        summary: "blocked nonsmooth Gauss-Seidel (Jean 1999; Acary, Bremond, Huber 2018); \
                  a global problem is reduced to its local form first",
        applies_to: &[F, G],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<NsgsOptions>,
        check: check::<NsgsOptions>,
        run: run_nsgs,
    },
    MethodSpec {
        name: "vgs",
        aliases: &[],
        summary: "velocity-space blocked Gauss-Seidel, W never formed",
        applies_to: &[G],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<VgsOptions>,
        check: check::<VgsOptions>,
        run: run_vgs,
    },
    MethodSpec {
        name: "fischer-newton",
        aliases: &["fn"],
        summary: "Fischer-Burmeister Newton, B-subdifferential, Armijo line search (Silcowitz, Niebe, Erleben 2009 eq. 27-39)",
        applies_to: &[L, B],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<FischerNewtonOptions>,
        check: check::<FischerNewtonOptions>,
        run: run_fischer,
    },
    MethodSpec {
        name: "minmap-newton",
        aliases: &["min-map-newton", "mmn"],
        summary: "minimum-map Newton, active set, projected line search (Niebe and Erleben 2015)",
        applies_to: &[L, B],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<MinMapNewtonOptions>,
        check: check::<MinMapNewtonOptions>,
        run: run_minmap,
    },
    MethodSpec {
        name: "nncg",
        aliases: &[],
        summary: "nonsmooth nonlinear conjugate gradient on PGS (Silcowitz-Hansen, Niebe, Erleben 2010)",
        applies_to: &[L, B],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<NncgOptions>,
        check: check::<NncgOptions>,
        run: run_nncg,
    },
    MethodSpec {
        name: "prox-gs",
        aliases: &["prox"],
        summary: "PROX Gauss-Seidel with adaptive r-factors (Erleben 2017 Algorithm 2)",
        applies_to: &[L, B, F, G],
        default_max_iter: PROX_DEFAULT_MAX_ITER,
        defaults: prox_defaults::<GS>,
        check: prox_check::<GS>,
        run: run_prox::<GS>,
    },
    MethodSpec {
        name: "prox-jacobi",
        aliases: &[],
        summary: "PROX Jacobi with adaptive r-factors (Erleben 2017 Algorithm 1)",
        applies_to: &[L, B, F, G],
        default_max_iter: PROX_DEFAULT_MAX_ITER,
        defaults: prox_defaults::<JACOBI>,
        check: prox_check::<JACOBI>,
        run: run_prox::<JACOBI>,
    },
    MethodSpec {
        name: "nsn",
        aliases: &["newton"],
        summary: "semismooth Newton on the friction cone: Alart-Curnier (Coulomb), natural \
                  map (CCP); a global problem is reduced to its local form first",
        applies_to: &[F, G],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<ConeNewtonOptions>,
        check: check::<ConeNewtonOptions>,
        run: run_nsn,
    },
    MethodSpec {
        name: "prox-nsn",
        aliases: &[],
        summary: "PROX Gauss-Seidel to 1e-2, then the semismooth Newton method on the cone",
        applies_to: &[F, G],
        default_max_iter: DEFAULT_MAX_ITER,
        defaults: defaults::<ProxNsnOptions>,
        check: check::<ProxNsnOptions>,
        run: run_prox_nsn,
    },
];

/// Every method name, in the registry's order.
pub fn names() -> Vec<&'static str> {
    METHODS.iter().map(|m| m.name).collect()
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

/// Why a method or one of its options was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionError {
    /// No method has this name.
    UnknownMethod {
        /// The name given.
        name: String,
    },
    /// The method has no option of this name (it would be ignored).
    UnknownOption {
        /// The method.
        method: &'static str,
        /// The option given.
        option: String,
        /// The options the method has.
        expected: Vec<String>,
    },
    /// The value cannot be read as the option's type, or is out of its range.
    InvalidValue {
        /// The method.
        method: &'static str,
        /// The option.
        option: String,
        /// Why, with what is expected.
        reason: String,
    },
    /// A `key=value` setting without `=`.
    Malformed {
        /// The text given.
        text: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::UnknownMethod { name } => write!(
                f,
                "unknown method `{name}` (expected one of {})",
                names().join(", ")
            ),
            OptionError::UnknownOption { method, option, .. } if *method == "auto" => write!(
                f,
                "`auto` picks a method per problem and takes no options; name a method \
                 (--method NAME) to set `{option}`"
            ),
            OptionError::UnknownOption {
                method,
                option,
                expected,
            } if expected.is_empty() => write!(
                f,
                "method `{method}` has no option `{option}` (it has no options)"
            ),
            OptionError::UnknownOption {
                method,
                option,
                expected,
            } => write!(
                f,
                "method `{method}` has no option `{option}` (its options: {})",
                expected.join(", ")
            ),
            OptionError::InvalidValue {
                method,
                option,
                reason,
            } => write!(f, "option `{option}` of method `{method}`: {reason}"),
            OptionError::Malformed { text } => {
                write!(f, "`{text}` is not an option setting (expected key=value)")
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// A method of the registry with its options: what a solve runs.
#[derive(Debug, Clone)]
pub struct Choice {
    spec: &'static MethodSpec,
    settings: Map<String, Value>,
}

impl PartialEq for Choice {
    fn eq(&self, other: &Self) -> bool {
        self.spec.name == other.spec.name && self.settings == other.settings
    }
}

impl FromStr for Choice {
    type Err = OptionError;
    fn from_str(s: &str) -> Result<Self, OptionError> {
        Choice::new(s)
    }
}

impl Choice {
    /// The method called `name` with its default options.
    ///
    /// # Errors
    /// [`OptionError::UnknownMethod`].
    pub fn new(name: &str) -> Result<Choice, OptionError> {
        Ok(Choice {
            spec: find(name)?,
            settings: Map::new(),
        })
    }

    /// The method.
    pub fn spec(&self) -> &'static MethodSpec {
        self.spec
    }

    /// The method's name.
    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    /// The options set (the others have their defaults).
    pub fn settings(&self) -> &Map<String, Value> {
        &self.settings
    }

    /// All the method's options, defaults with the settings over them.
    pub fn options(&self) -> Value {
        let mut all = match self.spec.default_options() {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        for (k, v) in &self.settings {
            all.insert(k.clone(), v.clone());
        }
        Value::Object(all)
    }

    /// With option `key` (a field of the method's options; `-` may stand for `_`) set to
    /// the JSON `value`.
    ///
    /// # Errors
    /// [`OptionError::UnknownOption`] for a field the method does not have,
    /// [`OptionError::InvalidValue`] for a value of the wrong type or out of range.
    pub fn set(mut self, key: &str, value: Value) -> Result<Choice, OptionError> {
        let key = key.replace('-', "_");
        let expected = self.spec.option_names();
        if !expected.contains(&key) {
            return Err(OptionError::UnknownOption {
                method: self.spec.name,
                option: key,
                expected,
            });
        }
        let mut settings = self.settings.clone();
        settings.insert(key.clone(), value);
        (self.spec.check)(&settings).map_err(|(option, reason)| OptionError::InvalidValue {
            method: self.spec.name,
            option: if option.is_empty() { key } else { option },
            reason,
        })?;
        self.settings = settings;
        Ok(self)
    }

    /// [`Choice::set`] from text: JSON if it reads as JSON (`1.5`, `true`, `null`,
    /// `"text"`), otherwise the text as a string (`global=5`, `gmres`).
    ///
    /// # Errors
    /// As [`Choice::set`].
    pub fn set_text(self, key: &str, text: &str) -> Result<Choice, OptionError> {
        let value =
            serde_json::from_str::<Value>(text).unwrap_or_else(|_| Value::String(text.into()));
        self.set(key, value)
    }

    /// [`Choice::set_text`] from `key=value`.
    ///
    /// # Errors
    /// [`OptionError::Malformed`] without `=`, and as [`Choice::set`].
    pub fn set_pair(self, pair: &str) -> Result<Choice, OptionError> {
        let (k, v) = pair.split_once('=').ok_or_else(|| OptionError::Malformed {
            text: pair.to_string(),
        })?;
        self.set_text(k.trim(), v.trim())
    }

    /// The method `auto` stands for on `problem` (any other method: itself): [`AUTO`].
    pub fn resolve(&self, problem: &AnyProblem) -> Choice {
        if self.spec.name != "auto" {
            return self.clone();
        }
        let t = ProblemType::of(problem);
        let name = AUTO
            .iter()
            .find(|(k, _)| *k == t)
            .map_or("nsgs", |(_, m)| *m);
        Choice::new(name).expect("registered")
    }

    /// The iteration cap when none is given ([`MethodSpec::default_max_iter`]).
    pub fn default_max_iter(&self) -> usize {
        self.spec.default_max_iter
    }
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
    })
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
        // The settings were checked when the choice was made (`Choice::set`); each run
        // function reads them once more into the method's options struct.
        let settings = &choice.settings;
        let run = choice.spec.run;
        solve_scaled(
            problem,
            &mut x,
            params,
            observer,
            &measure,
            &mut |p, x, params, obs| run(p, x, params, settings, obs),
        )
    };
    Outcome {
        method: choice,
        x,
        kind,
        result,
    }
}

// ---- the options of each method, read from the settings ----

fn defaults<O: MethodOptions>() -> Value {
    serde_json::to_value(O::default()).unwrap_or(Value::Object(Map::new()))
}

fn no_options(m: &Map<String, Value>) -> Result<(), (String, String)> {
    match m.keys().next() {
        Some(k) => Err((k.clone(), "`auto` takes no options; name a method".into())),
        None => Ok(()),
    }
}

/// The options `O` from `base` (all fields, as JSON) with the settings `m` over it.
fn read_over<O: MethodOptions>(base: Value, m: &Map<String, Value>) -> Result<O, (String, String)> {
    let mut all = match base {
        Value::Object(b) => b,
        _ => Map::new(),
    };
    for (k, v) in m {
        all.insert(k.clone(), v.clone());
    }
    let o: O =
        serde_json::from_value(Value::Object(all)).map_err(|e| (String::new(), e.to_string()))?;
    o.validate()?;
    Ok(o)
}

fn read<O: MethodOptions>(m: &Map<String, Value>) -> Result<O, (String, String)> {
    read_over::<O>(defaults::<O>(), m)
}

fn check<O: MethodOptions>(m: &Map<String, Value>) -> Result<(), (String, String)> {
    read::<O>(m).map(|_| ())
}

fn options<O: MethodOptions>(method: &str, m: &Map<String, Value>) -> Result<O, SolveError<Stats>> {
    read::<O>(m).map_err(|(option, reason)| {
        SolveError::Problem(ProblemError::InvalidOption {
            method: method.into(),
            option,
            reason,
        })
    })
}

/// Statistics to JSON.
fn erase<S: Serialize>(
    r: Result<Solved<S>, SolveError<S>>,
) -> Result<Solved<Stats>, SolveError<Stats>> {
    let json = |s: S| serde_json::to_value(s).unwrap_or(Value::Null);
    match r {
        Ok(s) => Ok(s.map_stats(json)),
        Err(e) => Err(e.map_stats(json)),
    }
}

fn unsupported<T>(method: &str, problem: &AnyProblem) -> Result<T, SolveError<Stats>> {
    Err(SolveError::Problem(ProblemError::Unsupported {
        reason: format!("method `{method}` does not apply to {}", problem.noun()),
    }))
}

fn range(option: &str, ok: bool, reason: String) -> Result<(), (String, String)> {
    if ok {
        Ok(())
    } else {
        Err((option.into(), reason))
    }
}

impl MethodOptions for PjOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        let w = self.omega;
        range(
            "omega",
            w > 0.0 && w < 2.0,
            format!("{w} is outside (0, 2)"),
        )
    }
}

impl MethodOptions for PgsOptions {}

impl MethodOptions for PsorOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        let w = self.omega;
        range(
            "omega",
            w > 0.0 && w < 2.0,
            format!("{w} is outside (0, 2)"),
        )
    }
}

impl MethodOptions for NsgsOptions {}
impl MethodOptions for VgsOptions {}

// ---- running each method ----

fn run_auto(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    _: &Map<String, Value>,
    obs: &mut Observer<'_>,
) -> Result<Solved<Stats>, SolveError<Stats>> {
    let c = Choice::new("auto").expect("registered").resolve(p);
    (c.spec.run)(p, x, params, &Map::new(), obs)
}

fn run_lemke(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    m: &Map<String, Value>,
    obs: &mut Observer<'_>,
) -> Result<Solved<Stats>, SolveError<Stats>> {
    let o = options::<LemkeOptions>("lemke", m)?;
    match p {
        AnyProblem::Lcp(p) => erase(lemke(p, x, params, &o, obs)),
        _ => unsupported("lemke", p),
    }
}

fn run_splitting<O>(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    m: &Map<String, Value>,
    obs: &mut Observer<'_>,
) -> Result<Solved<Stats>, SolveError<Stats>>
where
    O: MethodOptions,
    for<'o> SplittingOptions: From<&'o O>,
{
    let o = SplittingOptions::from(&options::<O>("pj, pgs or psor", m)?);
    match p {
        AnyProblem::Lcp(p) => erase(solve_with::<ProjectedSplitting<Lcp>>(p, x, params, &o, obs)),
        AnyProblem::Boxed(p) => erase(solve_with::<ProjectedSplitting<BoxedLcp>>(
            p, x, params, &o, obs,
        )),
        _ => unsupported(o.splitting.name(), p),
    }
}

fn run_nsgs(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    m: &Map<String, Value>,
    obs: &mut Observer<'_>,
) -> Result<Solved<Stats>, SolveError<Stats>> {
    let o = options::<NsgsOptions>("nsgs", m)?;
    on_local("nsgs", p, |fc| solve_with::<Nsgs>(fc, x, params, &o, obs))
}

fn run_vgs(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    m: &Map<String, Value>,
    obs: &mut Observer<'_>,
) -> Result<Solved<Stats>, SolveError<Stats>> {
    let o = options::<VgsOptions>("vgs", m)?;
    match p {
        AnyProblem::Global(g) => erase(solve_with::<Vgs>(g, x, params, &o, obs)),
        _ => unsupported("vgs", p),
    }
}

fn run_fischer(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    m: &Map<String, Value>,
    obs: &mut Observer<'_>,
) -> Result<Solved<Stats>, SolveError<Stats>> {
    let o = options::<FischerNewtonOptions>("fischer-newton", m)?;
    match p {
        AnyProblem::Lcp(p) => erase(fischer_newton(p, x, params, &o, obs)),
        AnyProblem::Boxed(p) => erase(fischer_newton(p, x, params, &o, obs)),
        _ => unsupported("fischer-newton", p),
    }
}

fn run_minmap(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    m: &Map<String, Value>,
    obs: &mut Observer<'_>,
) -> Result<Solved<Stats>, SolveError<Stats>> {
    let o = options::<MinMapNewtonOptions>("minmap-newton", m)?;
    match p {
        AnyProblem::Lcp(p) => erase(min_map_newton(p, x, params, &o, obs)),
        AnyProblem::Boxed(p) => erase(min_map_newton(p, x, params, &o, obs)),
        _ => unsupported("minmap-newton", p),
    }
}

fn run_nncg(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    m: &Map<String, Value>,
    obs: &mut Observer<'_>,
) -> Result<Solved<Stats>, SolveError<Stats>> {
    let o = options::<NncgOptions>("nncg", m)?;
    match p {
        AnyProblem::Lcp(p) => erase(nncg(p, x, params, &o, obs)),
        AnyProblem::Boxed(p) => erase(nncg(p, x, params, &o, obs)),
        _ => unsupported("nncg", p),
    }
}

fn run_nsn(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    m: &Map<String, Value>,
    obs: &mut Observer<'_>,
) -> Result<Solved<Stats>, SolveError<Stats>> {
    let o = options::<ConeNewtonOptions>("nsn", m)?;
    on_local("nsn", p, |fc| cone_newton(fc, x, params, &o, obs))
}

fn run_prox_nsn(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    m: &Map<String, Value>,
    obs: &mut Observer<'_>,
) -> Result<Solved<Stats>, SolveError<Stats>> {
    let o = options::<ProxNsnOptions>("prox-nsn", m)?;
    on_local("prox-nsn", p, |fc| {
        cone_newton_prox_start(fc, x, params, &o, obs)
    })
}

/// Runs `solve` on a local friction problem, or on the local form of a global one (`W`
/// formed); refuses the other problem types.
fn on_local<S: Serialize>(
    method: &str,
    p: &AnyProblem,
    solve: impl FnOnce(&FrictionContact) -> Result<Solved<S>, SolveError<S>>,
) -> Result<Solved<Stats>, SolveError<Stats>> {
    match p {
        AnyProblem::Friction(fc) => erase(solve(fc)),
        AnyProblem::Global(g) => erase(solve(&g.to_local()?)),
        _ => unsupported(method, p),
    }
}

/// `(option, reason)` of a method's own range check.
fn from_check(r: Result<(), ProblemError>) -> Result<(), (String, String)> {
    r.map_err(|e| match e {
        ProblemError::InvalidOption { option, reason, .. } => (option, reason),
        e => (String::new(), e.to_string()),
    })
}

impl MethodOptions for FischerNewtonOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        from_check(self.check())
    }
}

impl MethodOptions for MinMapNewtonOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        from_check(self.check())
    }
}

impl MethodOptions for NncgOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        from_check(self.check())
    }
}

impl MethodOptions for ConeNewtonOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        self.check().map_err(|e| match e {
            ProblemError::InvalidOption { option, reason, .. } => (option, reason),
            e => (String::new(), e.to_string()),
        })
    }
}

impl MethodOptions for ProxNsnOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        if !(self.switch_tol >= 0.0) {
            return Err((
                "switch_tol".into(),
                format!("{} must be >= 0", self.switch_tol),
            ));
        }
        self.newton.validate()?;
        self.prox.validate()
    }
}

const GS: bool = true;
const JACOBI: bool = false;

fn scheme(gauss_seidel: bool) -> Scheme {
    if gauss_seidel {
        Scheme::GaussSeidel
    } else {
        Scheme::Jacobi
    }
}

/// The options of prox-gs (`SEIDEL = true`) or prox-jacobi: [`ProxOptions::recommended`] for
/// the scheme, without `scheme` (the method's name fixes it).
fn prox_defaults<const SEIDEL: bool>() -> Value {
    let mut v =
        serde_json::to_value(ProxOptions::recommended(scheme(SEIDEL))).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.remove("scheme");
    }
    v
}

fn prox_read<const SEIDEL: bool>(m: &Map<String, Value>) -> Result<ProxOptions, (String, String)> {
    let mut o: ProxOptions = read_over(prox_defaults::<SEIDEL>(), m)?;
    o.scheme = scheme(SEIDEL);
    Ok(o)
}

fn prox_check<const SEIDEL: bool>(m: &Map<String, Value>) -> Result<(), (String, String)> {
    prox_read::<SEIDEL>(m).map(|_| ())
}

impl MethodOptions for ProxOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        self.check().map_err(|e| match e {
            ProblemError::InvalidOption { option, reason, .. } => (option, reason),
            e => (String::new(), e.to_string()),
        })
    }
}

impl MethodOptions for LemkeOptions {}

fn run_prox<const SEIDEL: bool>(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    m: &Map<String, Value>,
    obs: &mut Observer<'_>,
) -> Result<Solved<Stats>, SolveError<Stats>> {
    let name = if SEIDEL { "prox-gs" } else { "prox-jacobi" };
    let options = prox_read::<SEIDEL>(m).map_err(|(option, reason)| {
        SolveError::Problem(ProblemError::InvalidOption {
            method: name.into(),
            option,
            reason,
        })
    })?;
    let pp = match p {
        AnyProblem::Lcp(p) => ProxProblem::from_lcp(p),
        AnyProblem::Boxed(p) => ProxProblem::from_boxed(p)?,
        AnyProblem::Friction(p) => ProxProblem::from_friction_contact_as(p, p.kind()),
        AnyProblem::Global(g) => ProxProblem::from_global(g, g.kind()),
    };
    erase(prox_solve(&pp, x, params, &options, obs))
}
