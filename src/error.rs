//! The error every problem constructor and every solver reports for bad data:
//! [`ProblemError`], with the place (matrix, row, contact) that is wrong.
//!
//! This module sits at the bottom of the crate: it imports nothing from it, so that the
//! matrix and linear-algebra layers below the problem model can report the same errors
//! (see the architecture section of the crate documentation).

use std::fmt;

/// A sparse file of a few bytes can describe a matrix of any size (an OpenTissue header
/// `1048576 1048576 0`, a Siconos sparse-block matrix with no blocks); a dense copy of it
/// would need `rows * cols * 8` bytes. Every place that makes one (Lemke's tableau, the
/// dense Newton systems, the NumPy writer, `info`'s spectrum) checks this first with
/// [`check_dense`](crate::matrix::check_dense) and refuses with [`ProblemError::TooLarge`] instead of allocating.
pub const MAX_DENSE_ENTRIES: usize = 1 << 27;

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
    /// [`MAX_DENSE_ENTRIES`]: a method or a writer that
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
                MAX_DENSE_ENTRIES,
                (MAX_DENSE_ENTRIES * 8) >> 30
            ),
        }
    }
}

impl std::error::Error for ProblemError {}
