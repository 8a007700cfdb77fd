//! Solvers of the generic mechanical problem ([`crate::problem::GenericMechanical`]):
//! semismooth Newton on its natural map (`gmp-newton`, [`GmpNewton`]) and projected block
//! Gauss-Seidel (`gmp-pgs`, [`GmpPgs`]), both in the scaled unknowns `r̃ = S⁺ r` where every
//! elliptic cone is the isotropic unit second-order cone ([`natural`]), whose projection
//! and its B-subdifferential are in [`cone`].
//!
//! ```
//! use nalgebra::{DMatrix, DVector};
//! use nonsmooth::generic::{GmpNewton, GmpNewtonOptions};
//! use nonsmooth::problem::FrictionKind;
//! use nonsmooth::problem::generic::{Block, GenericMechanical};
//! use nonsmooth::solver::{Params, no_observer, solve};
//! // an equality row and a condim-4 contact pressed down and pushed sideways
//! let w = DMatrix::<f64>::identity(5, 5) * 2.0;
//! let q = DVector::from_vec(vec![1.0, -1.0, 0.5, 0.0, 0.1]);
//! let blocks = vec![Block::Equality, Block::Contact { mu: vec![0.5, 0.5, 0.1] }];
//! let p = GenericMechanical::new(w.into(), q, blocks, FrictionKind::Ccp).unwrap();
//! let mut r = DVector::zeros(5);
//! let params = Params { tol: 1e-12, ..Default::default() };
//! let info = solve::<GmpNewton>(&p, &mut r, &params, &GmpNewtonOptions::default(),
//!                               &mut no_observer()).unwrap();
//! assert!(info.error.rel <= 1e-12);
//! assert!((r[0] + 0.5).abs() < 1e-10); // u_0 = 2 r_0 + 1 = 0
//! ```
//!
//! Checked by `tests/laws/generic_anisotropic_scaling.rs`,
//! `tests/laws/generic_ccp_minimum.rs`, `tests/laws/generic_condim6.rs`,
//! `tests/laws/generic_equivalence.rs` and `tests/laws/generic_rank_deficient.rs`.

pub mod cone;
pub mod natural;
pub mod newton;
pub mod pgs;

pub use newton::{GmpNewton, GmpNewtonOptions, GmpNewtonPrepared, GmpNewtonStats};
pub use pgs::{GmpPgs, GmpPgsOptions, GmpPgsPrepared, GmpPgsStats};

/// The problem's dimension for the solver loop (the lead's `problem` module has none yet
/// for this type; the methods here are its first).
impl crate::problem::Dim for crate::problem::GenericMechanical {
    fn dim(&self) -> usize {
        GenericMechanical::dim(self)
    }
}

use crate::problem::GenericMechanical;
