//! Pivoting methods: exact answers for small LCPs.
//!
//! [`lemke`] ([`Lemke`] as a [`crate::solver::Method`], one pivot per iteration) is the
//! project's oracle: the splitting and Newton solvers are checked against
//! it on random problems, and it is checked against Siconos on the shared LCPs.

mod lemke;

pub use lemke::{Lemke, LemkeOptions, LemkePrepared, LemkeStats, MAX_DIM, ZERO_TOL, lemke};
