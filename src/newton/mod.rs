//! Newton methods for nonsmooth equations: the Newton family for the LCP and the boxed LCP
//! with variable (friction) bounds, and the semismooth Newton on the friction cone.
//!
//! | method | equation | step | source | book chapter |
//! |---|---|---|---|---|
//! | [`fischer_newton`] | `Phi(x) = phi_FB(x - lo, -phi_FB(-w, hi - x)) = 0` | `H d = -Phi`, `H` in the B-subdifferential, by [`InnerSolver`]; Armijo on `Psi = 1/2 ‖Phi‖²` | Silcowitz, Niebe, Erleben 2009 eq. 27-39 | *Fischer-Newton* |
//! | [`min_map_newton`] | `H(x) = min(x - lo, max(x - hi, w)) = 0` | active set, Schur reduction onto the free rows; projected Armijo | Niebe and Erleben 2015 | *Minimum-map Newton* |
//! | [`nncg`] | `x = PGS(x)` | Fletcher-Reeves on the PGS increment, restarts | Silcowitz-Hansen, Niebe, Erleben 2010 | *NNCG* |
//! | [`cone_newton`] | Alart-Curnier (Coulomb) or the cone natural map (CCP) on `FrictionContact` | sparse LU of the generalised Jacobian, Armijo, blocked Gauss-Seidel fallback | Alart and Curnier 1991; Acary, Bremond, Huber 2018 | *Newton on the friction cone* |
//! | [`cone_newton_prox_start`] | the same, started from PROX Gauss-Seidel | PROX sweeps to a loose tolerance, then [`cone_newton`] | Acary, Bremond, Huber 2018; Erleben 2017 Alg. 2 | *Newton on the friction cone* |
//!
//! Shared pieces: [`Rows`] (the problem as rows with boxes; an LCP row is `[0, +inf)`),
//! [`GeneralizedJacobian`] (an element of the B-subdifferential of the Fischer
//! reformulation, with the [`KinkStrategy`] at nonsmooth points), the inner solvers
//! ([`InnerSolver`]: sparse LU, [`gmres`], [`quasi_ncg`]), the line search
//! ([`LineSearch`], [`Armijo`]), the start policy ([`Start`]: given, or semi-staggered) and
//! the per-iteration record ([`NewtonStep`], [`NewtonReport`]).
//!
//! Every solver has the crate's shape: `x` in (start) and out (answer), [`Params`] for the
//! tolerance and the iteration cap, an observer, `Result<SolveInfo, SolveError>`; the
//! `*_traced` variants also return the [`NewtonReport`]. A singular Newton system never
//! produces NaN: by default the iteration takes a gradient step instead
//! ([`OnSingular`]).
//!
//! [`Params`]: crate::solver::Params

pub mod cone;
mod fischer;
mod inner;
mod jacobian;
mod line_search;
mod minmap;
mod nncg;
mod prox_start;
mod report;
mod rows;

pub use cone::{
    ConeNewton, ConeNewtonOptions, ConeNewtonPrepared, ConeNewtonStats, ConeReformulation,
    cone_newton,
};
pub use fischer::{
    FischerNewton, FischerNewtonSolver, OnSingular, PAPER_NEWTON_ITERATIONS, Start, fischer_merit,
    fischer_newton, fischer_newton_traced,
};
pub use inner::{InnerSolver, KrylovOutcome, gmres, quasi_ncg};
pub use jacobian::{GeneralizedJacobian, JacobianOptions, KinkStrategy};
pub use line_search::{Armijo, Direction, LineSearch};
pub use minmap::{MinMapNewton, MinMapNewtonSolver, min_map_newton, min_map_newton_traced};
pub use nncg::{Nncg, nncg};
pub use prox_start::{ProxNsnOptions, ProxNsnStats, cone_newton_prox_start};
pub use report::{NewtonReport, NewtonStep};
pub use rows::{NewtonProblem, Rows};
