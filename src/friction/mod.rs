//! Friction sets and projections onto them.
//!
//! This module holds the second-order (Coulomb) cone `K_mu = { r : ||r_t|| <= mu r_n }`,
//! its projection, and the per-contact algebra the friction solvers and error measures
//! share. The general convex sets of Erleben 2017 (box, ellipse, Coulomb-Contensou
//! ellipsoid) join it in the PROX work.

mod cone;

pub use cone::{in_cone, in_dual_cone, project_on_cone, project_on_dual_cone};
