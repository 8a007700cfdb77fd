//! Running a method of the registry on an [`AnyProblem`]: read the method's options from
//! the settings, take out the problem type its [`Method`] works on, and run the one loop
//! ([`crate::solver::solve`]). Every entry of [`super::METHODS`] runs through [`run`] (or
//! [`run_either`] for a method with an LCP and a boxed LCP form); only five methods have a
//! function of their own, each for a stated reason.

use crate::composite::prox_then_newton::cone_newton_prox_start;
use nalgebra::DVector;
use serde::Serialize;
use serde_json::Value;

use super::options::{IntoOptions, Typed};
use super::{MethodOptions, Observer, Stats};
use crate::pivoting::{LemkeOptions, lemke};
use crate::problem::{
    AnyProblem, BoxedLcp, FrictionContact, GlobalFrictionContact, Held, Lcp, ProblemError,
};
use crate::prox::{ProxOptions, ProxProblem, prox_solve};
use crate::proximal_point::proximal_point;
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

/// The registry's run of method `M`, called `name`, its options read as `O` from the
/// settings `m` and converted to `M`'s (`O` is `M::Options` itself but for the three
/// splitting methods, which share [`crate::splitting::SplittingOptions`]).
pub(super) fn run<O, M>(
    name: &str,
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    o: &Typed,
    obs: &mut Observer<'_>,
) -> Ran
where
    O: MethodOptions + IntoOptions<M::Options>,
    M: Method,
    M::Problem: Posed,
    M::Stats: Serialize,
{
    let o = o.get::<O>(name)?.clone().into_options();
    attempt::<M>(p, x, params, &o, obs).unwrap_or_else(|| unsupported(name, p))
}

/// As [`run`] for a method with two forms on two problem types (an LCP and a boxed LCP):
/// `A` on `A`'s problems, `B` on `B`'s.
pub(super) fn run_either<O, A, B>(
    name: &str,
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    o: &Typed,
    obs: &mut Observer<'_>,
) -> Ran
where
    O: MethodOptions + IntoOptions<A::Options>,
    A: Method,
    A::Problem: Posed,
    A::Stats: Serialize,
    B: Method<Options = A::Options>,
    B::Problem: Posed,
    B::Stats: Serialize,
{
    let o = o.get::<O>(name)?.clone().into_options();
    attempt::<A>(p, x, params, &o, obs)
        .or_else(|| attempt::<B>(p, x, params, &o, obs))
        .unwrap_or_else(|| unsupported(name, p))
}

/// Lemke's method: [`lemke`] rather than the bare loop, because it pivots from its own
/// initial basis and sets `x` to it (the warm start is not used).
pub(super) fn run_lemke(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    o: &Typed,
    obs: &mut Observer<'_>,
) -> Ran {
    let o = o.get::<LemkeOptions>("lemke")?;
    match p {
        AnyProblem::Lcp(p) => erase(lemke(p, x, params, o, obs)),
        _ => unsupported("lemke", p),
    }
}

/// A method of the local friction problem with its own driver (not the bare loop): the
/// options `O` of method `name`, the problem's local form (made from a global problem),
/// then `driver`.
fn run_local_driver<O: 'static, S: Serialize>(
    name: &str,
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    o: &Typed,
    obs: &mut Observer<'_>,
    driver: impl FnOnce(
        &FrictionContact,
        &mut DVector<f64>,
        &Params,
        &O,
        &mut dyn FnMut(&crate::solver::Iterate) -> std::ops::ControlFlow<()>,
    ) -> Result<Solved<S>, SolveError<S>>,
) -> Ran {
    let o = o.get::<O>(name)?;
    match FrictionContact::of(p) {
        Ok(Some(fc)) => erase(driver(&fc, x, params, o, obs)),
        Ok(None) => unsupported(name, p),
        Err(e) => Err(e.into()),
    }
}

/// PROX-started Newton: two methods in turn ([`cone_newton_prox_start`]).
pub(super) fn run_prox_nsn(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    o: &Typed,
    obs: &mut Observer<'_>,
) -> Ran {
    run_local_driver("prox-nsn", p, x, params, o, obs, cone_newton_prox_start)
}

/// Gauss-Seidel, then Newton: two methods in turn
/// ([`crate::composite::gs_then_newton::cone_newton_gs_start`]).
pub(super) fn run_gs_nsn(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    o: &Typed,
    obs: &mut Observer<'_>,
) -> Ran {
    run_local_driver(
        "gs-nsn",
        p,
        x,
        params,
        o,
        obs,
        crate::composite::gs_then_newton::cone_newton_gs_start,
    )
}

/// The proximal-point method: [`proximal_point`] rather than the bare loop, because the
/// inner solves' tolerance is tied to the outer one (`params.tol`).
pub(super) fn run_ppa(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    o: &Typed,
    obs: &mut Observer<'_>,
) -> Ran {
    run_local_driver("ppa", p, x, params, o, obs, proximal_point)
}

/// PROX (`SEIDEL`: Gauss-Seidel, else Jacobi) on the proximal view of any problem type
/// ([`ProxProblem`]): its options are the scheme's recommended ones, not the defaults.
pub(super) fn run_prox<const SEIDEL: bool>(
    p: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    o: &Typed,
    obs: &mut Observer<'_>,
) -> Ran {
    let name = if SEIDEL { "prox-gs" } else { "prox-jacobi" };
    let options = o.get::<ProxOptions>(name)?;
    let pp = match p {
        AnyProblem::Lcp(p) => ProxProblem::from_lcp(p),
        AnyProblem::Boxed(p) => ProxProblem::from_boxed(p)?,
        AnyProblem::Friction(p) => ProxProblem::from_friction_contact_as(p, p.kind()),
        AnyProblem::Global(g) => ProxProblem::from_global(g, g.kind()),
        AnyProblem::Generic(_) => return unsupported(name, p),
    };
    erase(prox_solve(&pp, x, params, options, obs))
}
