//! Pivoting methods: exact answers for small LCPs.
//!
//! [`lemke`] is the project's oracle: the splitting and Newton solvers are checked against
//! it on random problems, and it is checked against Siconos on the shared LCPs.

mod lemke;

pub use lemke::{MAX_DIM, lemke};
