//! One file per method of the registry: its [`MethodSpec`](super::MethodSpec) (`SPEC`: name,
//! aliases, summary, the problem types it solves, its iteration cap, how its options are
//! read) and how its options run it ([`Configured`](super::options::Configured)). Adding a
//! method is one file here and one line in [`super::METHODS`]. Methods that are one
//! pattern with other options share a file (`prox`: PROX Gauss-Seidel and Jacobi;
//! `splitting`: PJ, PGS, PSOR).
//!
//! The options structs and their range checks ([`crate::solver::MethodOptions`]) live
//! beside each method, in its family; these files only name and run them.

pub(super) mod auto;
pub(super) mod fischer_newton;
pub(super) mod gmp_newton;
pub(super) mod gmp_pgs;
pub(super) mod gs_nsn;
pub(super) mod lemke;
pub(super) mod minmap_newton;
pub(super) mod nncg;
pub(super) mod nsgs;
pub(super) mod nsn;
pub(super) mod ppa;
pub(super) mod prox;
pub(super) mod prox_nsn;
pub(super) mod splitting;
pub(super) mod vgs;

/// What every method file uses.
mod prelude {
    pub(super) use super::super::options::{Configured, configured, defaults};
    pub(super) use super::super::run::Ran;
    pub(super) use super::super::{
        DEFAULT_MAX_ITER, MethodSpec, NEWTON_DEFAULT_MAX_ITER, Observer, ProblemType,
    };
    pub(super) use crate::problem::AnyProblem;
    pub(super) use crate::solver::Params;
    pub(super) use nalgebra::DVector;
}
