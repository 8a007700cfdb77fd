//! Newton methods for nonsmooth equations: the Newton family for the LCP and the boxed LCP
//! with variable (friction) bounds, and the semismooth Newton on the friction cone.
//!
//! | method | equation | step | source | book chapter |
//! |---|---|---|---|---|
//! | [`fischer_newton`] ([`FischerNewton`]) | `Phi(x) = phi_FB(x - lo, -phi_FB(-w, hi - x)) = 0` | `H d = -Phi`, `H` in the B-subdifferential, by [`InnerSolver`]; Armijo on `Psi = 1/2 ‖Phi‖²` | Silcowitz, Niebe, Erleben 2009 eq. 27-39 | *Fischer-Newton* |
//! | [`min_map_newton`] ([`MinMapNewton`]) | `H(x) = min(x - lo, max(x - hi, w)) = 0` | active set, Schur reduction onto the free rows; projected Armijo | Niebe and Erleben 2015 | *Minimum-map Newton* |
//! | [`nncg`] ([`Nncg`]) | `x = PGS(x)` | Fletcher-Reeves on the PGS increment, restarts | Silcowitz-Hansen, Niebe, Erleben 2010 | *NNCG* |
//! | [`cone_newton`] ([`ConeNewton`]) | Alart-Curnier (Coulomb) or the cone natural map (CCP) on `FrictionContact` | sparse LU of the generalised Jacobian, Armijo, blocked Gauss-Seidel fallback | Alart and Curnier 1991; Acary, Bremond, Huber 2018 | *Newton on the friction cone* |
//!
//! Every method is a [`Method`](crate::solver::Method) (one iteration is one Newton step, or
//! one accelerated sweep for NNCG) run by the crate's one loop, [`crate::solver::solve`]; the
//! LCP methods are generic over the problem, `FischerNewton<Lcp>` or
//! `FischerNewton<BoxedLcp>` ([`NewtonProblem`]). The free functions are that loop with the
//! crate's shape: `x` in (start) and out (answer), [`Params`] for the tolerance and the
//! iteration cap, the method's `<Method>Options`, an observer, and
//! `Result<Solved<Stats>, SolveError<Stats>>` with the method's statistics in
//! [`Solved::stats`](crate::solver::Solved::stats) (or in the report of
//! [`SolveError::NoConvergence`](crate::solver::SolveError::NoConvergence)):
//! [`NewtonReport`] (one [`NewtonStep`] per iteration) for Fischer-Newton and minimum-map
//! Newton, [`NncgStats`], [`ConeNewtonStats`]. The cone Newton started from PROX or from
//! Gauss-Seidel sweeps is a composite method ([`crate::composite`]). A Newton method that finds
//! no direction decreasing its merit ends the solve as not converged. Options out of range
//! are refused with [`ProblemError::InvalidOption`](crate::problem::ProblemError::InvalidOption).
//! Every options type is serde (field names as keys, every field optional, unknown ones
//! refused; the option enums by kebab-case name or as a tagged object).
//!
//! Shared pieces: [`Rows`] (the problem as rows with boxes; an LCP row is `[0, +inf)`),
//! [`GeneralizedJacobian`] (an element of the B-subdifferential of the Fischer
//! reformulation, with the [`KinkStrategy`] at nonsmooth points), the inner solvers
//! ([`InnerSolver`]: sparse LU, [`gmres`], [`quasi_ncg`]), the line search
//! ([`LineSearch`], [`Armijo`]), the start policy ([`crate::policy::staggered::Start`]: given, or semi-staggered) and
//! the per-iteration record ([`NewtonStep`], [`NewtonReport`]). A singular Newton system
//! never produces NaN: by default the iteration takes a GMRES or gradient step instead
//! ([`OnSingular`]).
//!
//! [`Params`]: crate::solver::Params

pub mod cone;
mod fischer;
mod inner;
mod jacobian;
mod line_search;
mod minmap;
mod named;
mod nncg;
pub mod precondition;

mod report;
mod rows;

pub use cone::{
    ConeNewton, ConeNewtonOptions, ConeNewtonPrepared, ConeNewtonStats, ConeReformulation,
    DENSE_NEWTON_MAX, KRYLOV_FILL_RATIO, KRYLOV_MAX_PRODUCTS, KRYLOV_MIN_UNKNOWNS, KRYLOV_RESTART,
    NewtonLinear, cone_newton,
};
pub use fischer::{
    FischerNewton, FischerNewtonOptions, FischerNewtonPrepared, OnSingular,
    PAPER_NEWTON_ITERATIONS, fischer_merit, fischer_newton,
};
pub use inner::{InnerSolver, KrylovOutcome, gmres, gmres_with, quasi_ncg};
/// The crate's deterministic generator, shared with the seeded scenes of
/// [`crate::world::scenes`].
pub use jacobian::{GeneralizedJacobian, JacobianOptions, KinkStrategy};
pub use line_search::{Armijo, LineSearch};
pub use minmap::{MinMapNewton, MinMapNewtonOptions, MinMapNewtonPrepared, min_map_newton};
pub use nncg::{Nncg, NncgOptions, NncgPrepared, NncgStats, nncg};
pub use precondition::{BlockPreconditioner, NewtonPreconditioner};
pub use report::{Direction, NewtonReport, NewtonStep};
pub use rows::{NewtonProblem, Rows};

/// The error for an option of `method` out of its range.
pub(crate) fn invalid_option(
    method: &str,
    option: &str,
    reason: impl Into<String>,
) -> crate::problem::ProblemError {
    crate::problem::ProblemError::InvalidOption {
        method: method.into(),
        option: option.into(),
        reason: reason.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::composite::prox_then_newton::{ProxNsnOptions, ProxNsnStats};
    use crate::policy::staggered::Start;
    use crate::prox::RFactor;

    fn read<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    fn round_trip<T>(o: &T)
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let json = serde_json::to_string(o).unwrap();
        assert_eq!(&read::<T>(&json).unwrap(), o, "{json}");
    }

    #[test]
    fn options_round_trip_through_json() {
        round_trip(&FischerNewtonOptions::default());
        round_trip(&FischerNewtonOptions::paper());
        round_trip(&FischerNewtonOptions {
            inner: InnerSolver::Lu,
            line_search: LineSearch::None,
            jacobian: JacobianOptions {
                kink: KinkStrategy::Random { seed: 7 },
                kink_tol: 0.0,
            },
            on_singular: OnSingular::Gradient,
            start: Start::SemiStaggered {
                threshold: 1e-6,
                max_iter: 30,
            },
            ..Default::default()
        });
        round_trip(&MinMapNewtonOptions::default());
        round_trip(&NncgOptions::default());
        round_trip(&ConeNewtonOptions::default());
        round_trip(&ProxNsnOptions::default());
        assert_eq!(
            serde_json::to_value(FischerNewtonOptions::default()).unwrap()["inner"],
            serde_json::json!({"gmres": {"restart": 30, "max_iter": 100, "rel_tol": 0.01}})
        );
    }

    #[test]
    fn option_enums_read_bare_names_and_partial_objects() {
        let o: FischerNewtonOptions = read(
            r#"{"inner": "lu", "line_search": "none", "on_singular": "error",
                "jacobian": {"kink": "zero"}, "start": "given"}"#,
        )
        .unwrap();
        assert_eq!(o.inner, InnerSolver::Lu);
        assert_eq!(o.line_search, LineSearch::None);
        assert_eq!(o.on_singular, OnSingular::Error);
        assert_eq!(o.jacobian.kink, KinkStrategy::Zero);
        assert_eq!(o.jacobian.kink_tol, 1e-28);
        let o: FischerNewtonOptions = read(r#"{"inner": "gmres"}"#).unwrap();
        assert_eq!(o.inner, InnerSolver::GMRES);
        let o: FischerNewtonOptions = read(r#"{"inner": "quasi-ncg"}"#).unwrap();
        assert_eq!(o.inner, InnerSolver::QUASI_NCG);
        let o: FischerNewtonOptions = read(
            r#"{"inner": {"gmres": {"restart": 10}},
                "line_search": {"armijo": {"max_iter": 7}},
                "jacobian": {"kink": {"random": {"seed": 3}}},
                "start": {"semi-staggered": {"threshold": 1e-6, "max_iter": 30}}}"#,
        )
        .unwrap();
        assert_eq!(
            o.inner,
            InnerSolver::Gmres {
                restart: 10,
                max_iter: 100,
                rel_tol: 1e-2
            }
        );
        assert_eq!(
            o.line_search,
            LineSearch::Armijo(Armijo {
                max_iter: 7,
                ..Armijo::default()
            })
        );
        assert_eq!(o.jacobian.kink, KinkStrategy::Random { seed: 3 });
        assert_eq!(
            o.start,
            Start::SemiStaggered {
                threshold: 1e-6,
                max_iter: 30
            }
        );
        let o: ProxNsnOptions = read(
            r#"{"switch_tol": 1e-3, "prox": {"r_factor": "global=2.5", "window": 3},
                "newton": {"gs_sweeps": 0}}"#,
        )
        .unwrap();
        assert_eq!(o.switch_tol, 1e-3);
        assert_eq!(o.prox.r_factor, RFactor::Global { r: 2.5 });
        assert_eq!(o.prox.window, 3);
        assert_eq!(o.newton.gs_sweeps, 0);
        assert_eq!(o.newton.armijo, 1e-4);
    }

    #[test]
    fn unknown_options_and_names_are_refused() {
        for json in [
            r#"{"inerr": "lu"}"#,
            r#"{"inner": "cholesky"}"#,
            r#"{"inner": {"gmres": {"restrat": 3}}}"#,
            r#"{"line_search": {"armijo": {"cc": 0.1}}}"#,
            r#"{"start": "semi-staggered"}"#,
            r#"{"jacobian": {"kink": "nearest"}}"#,
            r#"{"on_singular": "panic"}"#,
        ] {
            assert!(read::<FischerNewtonOptions>(json).is_err(), "{json}");
        }
        let e = read::<FischerNewtonOptions>(r#"{"inner": "cholesky"}"#).unwrap_err();
        assert!(e.contains("lu, gmres or qncg"), "{e}");
        assert!(read::<MinMapNewtonOptions>(r#"{"start": "given"}"#).is_err());
        assert!(read::<NncgOptions>(r#"{"restart": 1}"#).is_err());
        assert!(read::<ConeNewtonOptions>(r#"{"windw": 3}"#).is_err());
        assert!(read::<ProxNsnOptions>(r#"{"prox": {"windw": 3}}"#).is_err());
        assert!(read::<ProxNsnOptions>(r#"{"prox": {"r_factor": "nearest"}}"#).is_err());
    }

    #[test]
    fn stats_serialise() {
        let json = serde_json::to_value(NewtonReport::default()).unwrap();
        assert_eq!(json["steps"], serde_json::json!([]));
        let json = serde_json::to_value(ConeNewtonStats::default()).unwrap();
        assert_eq!(json["gs_sweeps"], 0);
        let json = serde_json::to_value(NncgStats::default()).unwrap();
        assert_eq!(json["restarts"], 0);
        let json = serde_json::to_value(ProxNsnStats::default()).unwrap();
        assert_eq!(json["newton"]["backtracks"], 0);
    }

    /// One preparation serves consecutive problems: the same answers and counts as fresh
    /// solves, whether the pattern is kept or changes (the symbolic analysis is redone).
    #[test]
    fn one_preparation_serves_problems_of_any_pattern() {
        use crate::matrix::Matrix;
        use crate::problem::{FrictionContact, FrictionKind, Lcp};
        use crate::solver::{Method, Params, no_observer, solve_prepared};
        use nalgebra::{DMatrix, DVector};
        let params = Params {
            tol: 1e-12,
            ..Default::default()
        };
        let lcp = |a: &[f64], b: &[f64]| {
            Lcp::new(
                Matrix::Dense(DMatrix::from_row_slice(3, 3, a)),
                DVector::from_column_slice(b),
            )
            .unwrap()
        };
        let full = lcp(
            &[4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0],
            &[-1.0, -2.0, 0.5],
        );
        let diag = lcp(
            &[2.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 1.0],
            &[-1.0, 1.0, -3.0],
        );
        let options = FischerNewtonOptions {
            inner: InnerSolver::Lu,
            ..Default::default()
        };
        let mut prepared = FischerNewton::<Lcp>::prepare(&full, &options).unwrap();
        for p in [&full, &diag, &full] {
            let mut x = DVector::zeros(3);
            let reused = solve_prepared::<FischerNewton<Lcp>>(
                &mut prepared,
                p,
                &mut x,
                &params,
                &mut no_observer(),
            )
            .unwrap();
            let mut y = DVector::zeros(3);
            let fresh = fischer_newton(p, &mut y, &params, &options, &mut no_observer()).unwrap();
            assert_eq!(
                (x, reused.iterations, reused.stats),
                (y, fresh.iterations, fresh.stats)
            );
        }
        let fc = |w: DMatrix<f64>| {
            FrictionContact::new(
                Matrix::Dense(w),
                DVector::from_vec(vec![-1.0, 0.3, 0.0, -0.5, -0.2, 0.1]),
                DVector::from_vec(vec![0.5, 0.3]),
                FrictionKind::Coulomb,
            )
            .unwrap()
        };
        let coupled = fc(DMatrix::from_fn(6, 6, |i, j| {
            if i == j {
                2.0
            } else {
                0.1 / (1.0 + (i + j) as f64)
            }
        }));
        let decoupled = fc(DMatrix::from_fn(6, 6, |i, j| {
            if i == j {
                1.5
            } else if i / 3 == j / 3 {
                0.2
            } else {
                0.0
            }
        }));
        let options = ConeNewtonOptions::default();
        let mut prepared = ConeNewton::prepare(&coupled, &options).unwrap();
        for p in [&coupled, &decoupled, &coupled] {
            let mut r = DVector::zeros(6);
            let reused =
                solve_prepared::<ConeNewton>(&mut prepared, p, &mut r, &params, &mut no_observer())
                    .unwrap();
            let mut s = DVector::zeros(6);
            let fresh = cone_newton(p, &mut s, &params, &options, &mut no_observer()).unwrap();
            assert_eq!(
                (r, reused.iterations, reused.stats),
                (s, fresh.iterations, fresh.stats)
            );
        }
    }
}
