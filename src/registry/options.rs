//! The options of each method as the registry reads them: defaults as JSON, settings laid
//! over them, the method's own range checks ([`MethodOptions::validate`]).

use crate::composite::prox_then_newton::ProxNsnOptions;
use std::any::Any;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{MethodOptions, Stats};
use crate::newton::{ConeNewtonOptions, FischerNewtonOptions, MinMapNewtonOptions, NncgOptions};
use crate::pivoting::LemkeOptions;
use crate::problem::ProblemError;
use crate::prox::{ProxOptions, Scheme};
use crate::solver::SolveError;
use crate::splitting::{
    NsgsOptions, PgsOptions, PjOptions, PsorOptions, SplittingOptions, VgsOptions,
};

pub(super) fn defaults<O: MethodOptions>() -> Value {
    serde_json::to_value(O::default()).unwrap_or(Value::Object(Map::new()))
}

pub(super) fn no_options(m: &Map<String, Value>) -> Result<Typed, (String, String)> {
    match m.keys().next() {
        Some(k) => Err((k.clone(), "`auto` takes no options; name a method".into())),
        None => Ok(Typed(Arc::new(()))),
    }
}

/// A method's options struct, read and checked once when the [`super::Choice`] is made,
/// behind a type-erased pointer: each run takes its own type back out ([`Typed::get`]).
#[derive(Clone)]
pub(super) struct Typed(pub(super) Arc<dyn Any + Send + Sync>);

impl std::fmt::Debug for Typed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Typed(..)")
    }
}

impl Typed {
    /// The options as `O`, the type the method's registry entry reads them as.
    ///
    /// # Errors
    /// An internal error if they are of another type (a registry entry whose read and run
    /// disagree; `tests/auto_choice.rs` runs every method, so this is not reached).
    pub(super) fn get<O: 'static>(&self, method: &str) -> Result<&O, SolveError<Stats>> {
        self.0.downcast_ref::<O>().ok_or_else(|| {
            SolveError::Problem(ProblemError::Unsupported {
                reason: format!(
                    "internal: the registry read the options of `{method}` as another type"
                ),
            })
        })
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

/// The settings `m` read as the options `O` and checked, type-erased for the [`super::Choice`].
pub(super) fn typed<O: MethodOptions>(m: &Map<String, Value>) -> Result<Typed, (String, String)> {
    read::<O>(m).map(|o| Typed(Arc::new(o)))
}

fn range(option: &str, ok: bool, reason: String) -> Result<(), (String, String)> {
    if ok {
        Ok(())
    } else {
        Err((option.into(), reason))
    }
}

/// The relaxation parameter of PJ and PSOR: `0 < ω < 2`, where PSOR converges for
/// symmetric positive definite `A` (Erleben 2009 slides eq. 20-37).
fn relaxation(w: f64) -> Result<(), (String, String)> {
    range(
        "omega",
        w > 0.0 && w < 2.0,
        format!("{w} is outside (0, 2)"),
    )
}

impl MethodOptions for PjOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        relaxation(self.omega)
    }
}

impl MethodOptions for PgsOptions {}

impl MethodOptions for PsorOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        relaxation(self.omega)
    }
}

impl MethodOptions for NsgsOptions {}
impl MethodOptions for VgsOptions {}

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
        from_check(self.check())
    }
}

impl MethodOptions for crate::proximal_point::ProximalPointOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        from_check(self.check())
    }
}

impl MethodOptions for crate::composite::gs_then_newton::GsNsnOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        from_check(self.check())
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

pub(super) const GS: bool = true;
pub(super) const JACOBI: bool = false;

fn scheme(gauss_seidel: bool) -> Scheme {
    if gauss_seidel {
        Scheme::GaussSeidel
    } else {
        Scheme::Jacobi
    }
}

/// The options of prox-gs (`SEIDEL = true`) or prox-jacobi: [`ProxOptions::recommended`] for
/// the scheme, without `scheme` (the method's name fixes it).
pub(super) fn prox_defaults<const SEIDEL: bool>() -> Value {
    let mut v =
        serde_json::to_value(ProxOptions::recommended(scheme(SEIDEL))).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.remove("scheme");
    }
    v
}

pub(super) fn prox_read<const SEIDEL: bool>(
    m: &Map<String, Value>,
) -> Result<ProxOptions, (String, String)> {
    let mut o: ProxOptions = read_over(prox_defaults::<SEIDEL>(), m)?;
    o.scheme = scheme(SEIDEL);
    Ok(o)
}

pub(super) fn prox_typed<const SEIDEL: bool>(
    m: &Map<String, Value>,
) -> Result<Typed, (String, String)> {
    prox_read::<SEIDEL>(m).map(|o| Typed(Arc::new(o)))
}

impl MethodOptions for ProxOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        from_check(self.check())
    }
}

impl MethodOptions for LemkeOptions {}

impl MethodOptions for crate::generic::GmpNewtonOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        from_check(self.check())
    }
}

impl MethodOptions for crate::generic::GmpPgsOptions {
    fn validate(&self) -> Result<(), (String, String)> {
        from_check(self.check())
    }
}

/// The options as the registry reads them (`Self`), turned into those the method's
/// [`crate::solver::Method`] takes: the same struct, except for the three splitting methods,
/// which read their own and share [`SplittingOptions`].
pub(super) trait IntoOptions<T> {
    /// The method's options.
    fn into_options(self) -> T;
}

impl<T> IntoOptions<T> for T {
    fn into_options(self) -> T {
        self
    }
}

/// The three splitting methods read their own options and share [`SplittingOptions`].
macro_rules! into_splitting_options {
    ($($o:ty),*) => {$(
        impl IntoOptions<SplittingOptions> for $o {
            fn into_options(self) -> SplittingOptions {
                SplittingOptions::from(&self)
            }
        }
    )*};
}

into_splitting_options!(PjOptions, PgsOptions, PsorOptions);
