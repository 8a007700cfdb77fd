//! Running a method of the registry on an [`AnyProblem`]: read the method's options from
//! the settings, take out the problem type its [`Method`] works on, and run the one loop
//! ([`crate::solver::solve`]). The methods' files under `registry/methods/` run through
//! [`run`] (or [`run_either`] for a method with an LCP and a boxed LCP form); Lemke's
//! method, PROX and the methods with a driver of their own use the other functions here,
//! each for a stated reason.

use nalgebra::DVector;
use serde::Serialize;
use serde_json::Value;

use super::{Observer, Stats};
use crate::pivoting::{LemkeOptions, lemke};
use crate::problem::{
    AnyProblem, BoxedLcp, FrictionContact, GlobalFrictionContact, Held, Lcp, ProblemError,
};
use crate::prox::{ProxOptions, ProxProblem, prox_solve};
use crate::solver::{Method, Params, SolveError, Solved, solve};

/// What every run returns: the solve with its statistics as JSON.
pub(crate) type Ran = Result<Solved<Stats>, SolveError<Stats>>;

/// A problem type a [`Method`] works on, as it is taken out of an [`AnyProblem`].
pub(super) trait Posed: Sized {
    /// The problem as this type: borrowed, or made (the local form of a global friction
    /// problem, `W = H^T M^-1 H`, for the methods that work on `W`); `None` for another
    /// problem type.
    ///
    /// # Errors
    /// The local form cannot be made (the elimination overflows).
    fn of(p: &AnyProblem) -> Result<Option<Held<'_, Self>>, ProblemError>;
}

/// `Posed` for the problem type held by the variant `$variant` as it is.
macro_rules! posed_as_is {
    ($t:ty, $variant:ident) => {
        impl Posed for $t {
            fn of(p: &AnyProblem) -> Result<Option<Held<'_, Self>>, ProblemError> {
                Ok(match p {
                    AnyProblem::$variant(q) => Some(Held::Borrowed(q)),
                    _ => None,
                })
            }
        }
    };
}

posed_as_is!(Lcp, Lcp);
posed_as_is!(BoxedLcp, Boxed);
posed_as_is!(GlobalFrictionContact, Global);
posed_as_is!(crate::problem::GenericMechanical, Generic);

impl Posed for FrictionContact {
    fn of(p: &AnyProblem) -> Result<Option<Held<'_, Self>>, ProblemError> {
        Ok(match p {
            AnyProblem::Friction(q) => Some(Held::Borrowed(q)),
            AnyProblem::Global(g) => Some(Held::Owned(g.to_local()?)),
            _ => None,
        })
    }
}

/// Statistics to JSON.
fn erase<S: Serialize>(r: Result<Solved<S>, SolveError<S>>) -> Ran {
    let json = |s: S| serde_json::to_value(s).unwrap_or(Value::Null);
    match r {
        Ok(s) => Ok(s.map_stats(json)),
        Err(e) => Err(e.map_stats(json)),
    }
}

fn unsupported(method: &str, problem: &AnyProblem) -> Ran {
    Err(SolveError::Problem(ProblemError::Unsupported {
        reason: format!("method `{method}` does not apply to {}", problem.noun()),
    }))
}

/// `M` on `p` if `p` is of `M`'s problem type, with options `o`.
fn attempt<M>(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    o: &M::Options,
    obs: &mut Observer<'_>,
) -> Option<Ran>
where
    M: Method,
    M::Problem: Posed,
    M::Stats: Serialize,
{
    match M::Problem::of(p) {
        Ok(Some(q)) => Some(erase(solve::<M>(&q, x, params, o, obs))),
        Ok(None) => None,
        Err(e) => Some(Err(e.into())),
    }
}

/// Method `M`, called `name`, on `p` if `p` is of `M`'s problem type (or can be posed as
/// it), with options `o`.
pub(super) fn run<M>(
    name: &str,
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    o: &M::Options,
    obs: &mut Observer<'_>,
) -> Ran
where
    M: Method,
    M::Problem: Posed,
    M::Stats: Serialize,
{
    attempt::<M>(p, x, params, o, obs).unwrap_or_else(|| unsupported(name, p))
}

/// As [`run`] for a method with two forms on two problem types (an LCP and a boxed LCP):
/// `A` on `A`'s problems, `B` on `B`'s.
pub(super) fn run_either<A, B>(
    name: &str,
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    o: &A::Options,
    obs: &mut Observer<'_>,
) -> Ran
where
    A: Method,
    A::Problem: Posed,
    A::Stats: Serialize,
    B: Method<Options = A::Options>,
    B::Problem: Posed,
    B::Stats: Serialize,
{
    attempt::<A>(p, x, params, o, obs)
        .or_else(|| attempt::<B>(p, x, params, o, obs))
        .unwrap_or_else(|| unsupported(name, p))
}

/// Lemke's method: [`lemke`] rather than the bare loop, because it pivots from its own
/// initial basis and sets `x` to it (the warm start is not used).
pub(super) fn run_lemke(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    o: &LemkeOptions,
    obs: &mut Observer<'_>,
) -> Ran {
    match p {
        AnyProblem::Lcp(p) => erase(lemke(p, x, params, o, obs)),
        _ => unsupported("lemke", p),
    }
}

/// A method of the local friction problem with its own driver (not the bare loop): the
/// options `O` of method `name`, the problem's local form (made from a global problem),
/// then `driver`.
pub(super) fn run_local_driver<O, S: Serialize>(
    name: &str,
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    o: &O,
    obs: &mut Observer<'_>,
    driver: impl FnOnce(
        &FrictionContact,
        &mut DVector<f64>,
        &Params,
        &O,
        &mut dyn FnMut(&crate::solver::Iterate) -> std::ops::ControlFlow<()>,
    ) -> Result<Solved<S>, SolveError<S>>,
) -> Ran {
    match FrictionContact::of(p) {
        Ok(Some(fc)) => erase(driver(&fc, x, params, o, obs)),
        Ok(None) => unsupported(name, p),
        Err(e) => Err(e.into()),
    }
}

/// PROX (Gauss-Seidel or Jacobi, as `options.scheme` says) on the proximal view of any
/// problem type ([`ProxProblem`]).
pub(super) fn run_prox(
    name: &str,
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    options: &ProxOptions,
    obs: &mut Observer<'_>,
) -> Ran {
    let pp = match p {
        AnyProblem::Lcp(p) => ProxProblem::from_lcp(p),
        AnyProblem::Boxed(p) => ProxProblem::from_boxed(p)?,
        AnyProblem::Friction(p) => ProxProblem::from_friction_contact_as(p, p.kind()),
        AnyProblem::Global(g) => ProxProblem::from_global(g, g.kind()),
        AnyProblem::Generic(_) => return unsupported(name, p),
    };
    erase(prox_solve(&pp, x, params, options, obs))
}
