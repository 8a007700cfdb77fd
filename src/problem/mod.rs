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

use std::fmt;

/// What is wrong with the data handed to a problem constructor or a solver.
///
/// Every variant names the offending index so that a user can find it in their file.
#[derive(Debug, Clone, PartialEq)]
pub enum ProblemError {
    /// A matrix that must be square is not.
    NotSquare {
        /// Which matrix (`"A"`, `"W"`, `"M"`).
        what: &'static str,
        /// Its rows.
        rows: usize,
        /// Its columns.
        cols: usize,
    },
    /// Two sizes that must agree do not.
    DimensionMismatch {
        /// Which object has the wrong size.
        what: &'static str,
        /// The size the other data implies.
        expected: usize,
        /// The size found.
        found: usize,
    },
    /// A NaN or an infinity where a finite number is required.
    NonFinite {
        /// Which object.
        what: &'static str,
        /// Flat index (row for vectors, `row * ncols + col` for matrices).
        index: usize,
        /// The value found.
        value: f64,
    },
    /// A friction coefficient below zero.
    NegativeFriction {
        /// Contact index.
        contact: usize,
        /// The coefficient found.
        mu: f64,
    },
    /// A diagonal entry that is zero or negative where a method divides by it
    /// (splitting methods, Gauss-Seidel).
    NonPositiveDiagonal {
        /// Which matrix.
        what: &'static str,
        /// Row index.
        row: usize,
        /// The value found.
        value: f64,
    },
    /// A matrix that must be symmetric is not (relative asymmetry given).
    NotSymmetric {
        /// Which matrix.
        what: &'static str,
        /// `max |a_ij - a_ji| / max |a_ij|`.
        relative_asymmetry: f64,
    },
    /// A matrix that must be positive definite is not (Cholesky failed).
    NotPositiveDefinite {
        /// Which matrix.
        what: &'static str,
    },
    /// A per-contact 3x3 diagonal block of the Delassus operator is singular, so the
    /// contact's local problem has no unique stick solution.
    SingularBlock {
        /// Contact index.
        contact: usize,
    },
    /// Fixed bounds with `lo > hi`.
    InvalidBound {
        /// Row index.
        row: usize,
        /// Lower bound.
        lo: f64,
        /// Upper bound.
        hi: f64,
    },
    /// A friction row whose bound depends on a row that does not exist, on itself, or
    /// with a negative or non-finite factor.
    InvalidDependency {
        /// Row index.
        row: usize,
        /// The row it depends on.
        dep: usize,
        /// The friction factor.
        factor: f64,
    },
    /// A boxed row's `dep` (OpenTissue's convention) that is neither `-1` (fixed bounds) nor
    /// a row index: read as `-1` before, silently.
    InvalidDepIndex {
        /// Row index.
        row: usize,
        /// The value given.
        dep: i64,
    },
    /// A vector or matrix size that is not a multiple of the contact dimension 3.
    NotContactSized {
        /// Which object.
        what: &'static str,
        /// Its size.
        size: usize,
    },
    /// A method cannot handle this problem (for example a dense pivoting method on a
    /// problem too large for it).
    Unsupported {
        /// Why.
        reason: String,
    },
    /// A method's option is out of its range, or does not fit this problem (PROX's local
    /// r-factors divide by a diagonal entry that is zero).
    InvalidOption {
        /// The method (`"prox-gs"`, `"lemke"`).
        method: String,
        /// The option, as named in the options struct's field name (snake_case, as in `--set`)
        /// (`"window"`, `"r_factor"`).
        option: String,
        /// Why, with the value found.
        reason: String,
    },
    /// A dense `rows x cols` copy of a matrix would exceed
    /// [`MAX_DENSE_ENTRIES`](crate::matrix::MAX_DENSE_ENTRIES): a method or a writer that
    /// needs one refuses instead of allocating.
    TooLarge {
        /// What needs the dense copy (`"Lemke's tableau"`, `"the NumPy writer"`).
        what: String,
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
}

/// A number for a message: plain when it reads well (`0.5`, `-3`), in exponent form when
/// it is very large or small (`1e308`, not a 309-digit integer), `NaN`, `inf`, `-inf`.
pub(crate) fn fmt_num(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else if x != 0.0 && (x.abs() >= 1e15 || x.abs() < 1e-4) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ProblemError::*;
        match self {
            NotSquare { what, rows, cols } => {
                write!(f, "{what} must be square, but it is {rows} x {cols}")
            }
            DimensionMismatch {
                what,
                expected,
                found,
            } => {
                write!(f, "{what} has size {found}, expected {expected}")
            }
            NonFinite { what, index, value } => {
                write!(
                    f,
                    "{what} has a non-finite entry {} at index {index}",
                    fmt_num(*value)
                )
            }
            NegativeFriction { contact, mu } => {
                write!(
                    f,
                    "contact {contact} has a negative friction coefficient mu = {}",
                    fmt_num(*mu)
                )
            }
            NonPositiveDiagonal { what, row, value } => write!(
                f,
                "{what} has a non-positive diagonal entry {} in row {row}; this method divides by the diagonal",
                fmt_num(*value)
            ),
            NotSymmetric {
                what,
                relative_asymmetry,
            } => write!(
                f,
                "{what} must be symmetric, but its relative asymmetry is {relative_asymmetry:.3e}"
            ),
            NotPositiveDefinite { what } => write!(f, "{what} is not positive definite"),
            SingularBlock { contact } => write!(
                f,
                "the 3x3 diagonal block of contact {contact} of the Delassus operator is singular"
            ),
            InvalidBound { row, lo, hi } => {
                if *lo == f64::INFINITY {
                    write!(
                        f,
                        "row {row}: the lower bound is +inf (a lower bound must be finite or -inf; \
                         OpenTissue files write DBL_MAX, which reads as +inf)"
                    )
                } else if *hi == f64::NEG_INFINITY {
                    write!(
                        f,
                        "row {row}: the upper bound is -inf (an upper bound must be finite or +inf)"
                    )
                } else {
                    write!(
                        f,
                        "row {row} has lower bound {} above its upper bound {}",
                        fmt_num(*lo),
                        fmt_num(*hi)
                    )
                }
            }
            InvalidDependency { row, dep, factor } => write!(
                f,
                "row {row} has an invalid friction dependency (dep = {dep}, factor = {})",
                fmt_num(*factor)
            ),
            InvalidDepIndex { row, dep } => write!(
                f,
                "row {row} has dep = {dep}; dep is -1 for fixed bounds or the index (>= 0) of \
                 the normal row a friction bound depends on"
            ),
            NotContactSized { what, size } => write!(
                f,
                "{what} has size {size}, which is not a multiple of the contact dimension 3"
            ),
            Unsupported { reason } => write!(f, "unsupported problem: {reason}"),
            InvalidOption {
                method,
                option,
                reason,
            } => write!(f, "invalid option `{option}` of {method}: {reason}"),
            TooLarge { what, rows, cols } => write!(
                f,
                "{what} needs a dense {rows} x {cols} matrix, more than the {} entries \
                 ({} GiB) allowed for dense copies",
                crate::matrix::MAX_DENSE_ENTRIES,
                (crate::matrix::MAX_DENSE_ENTRIES * 8) >> 30
            ),
        }
    }
}

impl std::error::Error for ProblemError {}

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
