//! Newton methods for nonsmooth equations.
//!
//! * [`cone`]: semismooth Newton on the friction cone (Alart-Curnier for Coulomb, the
//!   natural map for the CCP) on local frictional contact problems.

pub mod cone;

pub use cone::{ConeNewtonOptions, ConeNewtonStats, ConeReformulation, cone_newton};
