//! The contact problems, with their conventions stated once.
//!
//! # Conventions (used everywhere in the crate)
//!
//! * **Rows per contact.** A 3D contact owns three consecutive rows `[n, t1, t2]`: the
//!   normal first, then two orthonormal tangent directions. Contact `c` owns rows
//!   `3c, 3c+1, 3c+2`.
//! * **Sign.** The relative velocity `u` is measured so that a **positive normal velocity
//!   separates** the bodies; the normal reaction `r_n >= 0` pushes them apart.
//! * **Units.** At the velocity level (Siconos, FCLIB, the project's own scenes):
//!   `u` in m/s, `r` an impulse in N s, so the Delassus operator `W = J M^-1 J^T` is in
//!   m/(N s^2) = 1/kg (the lever arms in `J`'s angular part turn the 1/(kg m^2) of the
//!   inverse inertia into 1/kg as well). MuJoCo's files are at the
//!   acceleration level (`u` in m/s^2, `r` a force in N); the algebra is identical.
//! * **Complementarity.** `0 <= x ⊥ y >= 0` means `x >= 0`, `y >= 0`, `x_i y_i = 0`.
//!
//! | type | equations | source |
//! |---|---|---|
//! | [`Lcp`] | `w = A x + b`, `0 <= x ⊥ w >= 0` | Erleben 2009 slides eq. 19-20 |
//! | [`BoxedLcp`] | `w = A x + b`, `lo(x) <= x <= hi(x)`, box complementarity | Erleben 2007 eq. 15, 27-29; Silcowitz et al. 2009 eq. 19, 28 |
//! | [`FrictionContact`] | `u = W r + q`, `r_c ∈ K_{mu_c}`, Coulomb (De Saxce) or CCP | Acary, Bremond, Huber 2018; `data/README.md` |
//! | [`GenericMechanical`] | `u = W r + q`, per-block laws: equality, unilateral, interval, elliptic contact cones of any dimension | Acary, Bremond, Huber 2018 §2; MuJoCo's elliptic cones |
//! | [`GlobalFrictionContact`] | `M v = q + H r`, `u = H^T v + b` | Erleben 2007 eq. 16-20; Erleben 2017 eq. 25-26 |

mod any;
mod boxed;
mod friction;
pub mod generic;
mod global;
mod held;
pub mod law;
mod lcp;
mod mass;
mod provenance;
pub mod pyramid;
pub mod running;

pub use crate::error::ProblemError;
pub(crate) use crate::error::fmt_num;
pub use any::{ASYMMETRY_WARNING, AnyProblem};
pub use boxed::{BoxedLcp, RowBound};
pub use friction::{EngineAnswer, FrictionContact, FrictionKind};
pub use generic::{Block, GenericMechanical};
pub use global::GlobalFrictionContact;
pub(crate) use held::Held;
pub use law::{ContactLaw, natural_map_contact};
pub use lcp::Lcp;
pub use mass::{MassMatrix, SYMMETRY_TOL};
pub use provenance::Provenance;
pub use pyramid::{Pyramid, PyramidContact};
pub use running::{running_example, running_example_solution};

/// Checks that every entry of `v` is finite.
pub(crate) fn check_finite_vec(what: &'static str, v: &[f64]) -> Result<(), ProblemError> {
    match v.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(ProblemError::NonFinite {
            what,
            index,
            value: v[index],
        }),
        None => Ok(()),
    }
}

/// Checks that every entry of `m` is finite.
pub(crate) fn check_finite_mat(
    what: &'static str,
    m: &crate::matrix::Matrix,
) -> Result<(), ProblemError> {
    match m.first_non_finite() {
        Some((i, j, value)) => Err(ProblemError::NonFinite {
            what,
            index: i * m.ncols() + j,
            value,
        }),
        None => Ok(()),
    }
}

/// Checks that `m` is square.
pub(crate) fn check_square(
    what: &'static str,
    m: &crate::matrix::Matrix,
) -> Result<(), ProblemError> {
    if m.nrows() != m.ncols() {
        return Err(ProblemError::NotSquare {
            what,
            rows: m.nrows(),
            cols: m.ncols(),
        });
    }
    Ok(())
}

/// Checks that `v` has `expected` entries.
pub(crate) fn check_len(
    what: &'static str,
    expected: usize,
    found: usize,
) -> Result<(), ProblemError> {
    if expected != found {
        return Err(ProblemError::DimensionMismatch {
            what,
            expected,
            found,
        });
    }
    Ok(())
}

/// Checks the diagonal of `m` is strictly positive (what splitting methods divide by).
/// A problem whose unknown vector has a known length (what the solver loop needs of any
/// problem, [`crate::solver::Method::Problem`]).
pub trait Dim {
    /// The number of unknowns (`x` for LCPs, `r` for friction problems).
    fn dim(&self) -> usize;
}

pub(crate) fn check_positive_diagonal(
    what: &'static str,
    m: &crate::matrix::Matrix,
) -> Result<(), ProblemError> {
    let d = m.diagonal();
    match d.iter().position(|v| !(*v > 0.0)) {
        Some(row) => Err(ProblemError::NonPositiveDiagonal {
            what,
            row,
            value: d[row],
        }),
        None => Ok(()),
    }
}

impl Dim for Lcp {
    fn dim(&self) -> usize {
        Lcp::dim(self)
    }
}

impl Dim for BoxedLcp {
    fn dim(&self) -> usize {
        BoxedLcp::dim(self)
    }
}

impl Dim for FrictionContact {
    fn dim(&self) -> usize {
        FrictionContact::dim(self)
    }
}

impl Dim for GlobalFrictionContact {
    fn dim(&self) -> usize {
        GlobalFrictionContact::dim(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (issue 8): `1e308` was printed as a 309-digit integer, and a lower bound
    /// of `DBL_MAX` said "lower bound inf above its upper bound inf".
    #[test]
    fn messages_print_numbers_readably() {
        let e = ProblemError::NegativeFriction {
            contact: 0,
            mu: -1e308,
        }
        .to_string();
        assert!(e.contains("mu = -1e308"), "{e}");
        let e = ProblemError::InvalidBound {
            row: 0,
            lo: f64::INFINITY,
            hi: f64::INFINITY,
        }
        .to_string();
        assert!(
            e.contains("lower bound is +inf") && !e.contains("above"),
            "{e}"
        );
        assert_eq!(fmt_num(0.5), "0.5");
        assert_eq!(fmt_num(-3.0), "-3");
        assert_eq!(fmt_num(1e-300), "1e-300");
        assert_eq!(fmt_num(f64::NAN), "NaN");
        let e = ProblemError::InvalidOption {
            method: "prox-gs".into(),
            option: "window".into(),
            reason: "0 is out of range (it must be at least 1)".into(),
        };
        assert_eq!(
            e.to_string(),
            "invalid option `window` of prox-gs: 0 is out of range (it must be at least 1)"
        );
    }
}
