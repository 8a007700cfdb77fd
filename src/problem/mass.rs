//! [`MassMatrix`]: the generalised mass matrix `M` of a global problem, validated and
//! factorised once.
//!
//! A global problem (`M v = q + H r`, Erleben 2007 eq. 16-20; Erleben 2017 eq. 18) needs
//! `M^-1` applied many times: to form the Delassus operator `H^T M^-1 H`, for the free
//! velocity, in every sweep of the velocity-space Gauss-Seidel and of global PROX. Checking
//! `M` and factorising it is done here, once, when the problem is built; every method and
//! every view of the problem ([`crate::prox::ProxProblem::from_global`]) borrows the same
//! factor.

use super::{ProblemError, check_finite_mat, check_square};
use crate::linalg::SpdFactor;
use crate::matrix::Matrix;

/// Relative asymmetry `max |m_ij - m_ji| / max |m_ij|` above which `M` is rejected as not
/// symmetric. `1e-10` leaves room for the rounding of a matrix assembled in floating point
/// (`R I R^T` blocks) while rejecting any real asymmetry.
pub const SYMMETRY_TOL: f64 = 1e-10;

/// A symmetric positive definite mass matrix with its sparse Cholesky factor
/// `M = L L^T` (`ndof x ndof`; kg on translational, kg m² on rotational rows).
///
/// # Errors
/// [`MassMatrix::new`] rejects a non-square matrix, NaN/inf, a relative asymmetry above
/// [`SYMMETRY_TOL`] and a matrix that is not positive definite (the factorisation fails).
#[derive(Debug)]
pub struct MassMatrix {
    m: Matrix,
    factor: SpdFactor,
}

impl MassMatrix {
    /// Validates and factorises `m`.
    ///
    /// # Errors
    /// See the [type documentation](MassMatrix#errors).
    ///
    /// # Example
    /// ```
    /// use nalgebra::DMatrix;
    /// use nonsmooth::problem::{MassMatrix, ProblemError};
    /// let m = MassMatrix::new(DMatrix::from_diagonal_element(2, 2, 3.0).into()).unwrap();
    /// assert_eq!(m.dofs(), 2);
    /// let bad = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 0.0, 1.0]);
    /// assert!(matches!(MassMatrix::new(bad.into()), Err(ProblemError::NotSymmetric { .. })));
    /// ```
    pub fn new(m: Matrix) -> Result<Self, ProblemError> {
        check_square("M", &m)?;
        check_finite_mat("M", &m)?;
        let asym = m.relative_asymmetry();
        if asym > SYMMETRY_TOL {
            return Err(ProblemError::NotSymmetric {
                what: "M",
                relative_asymmetry: asym,
            });
        }
        let factor = SpdFactor::new("M", &m)?;
        Ok(MassMatrix { m, factor })
    }

    /// `M` itself.
    pub fn matrix(&self) -> &Matrix {
        &self.m
    }

    /// The Cholesky factor of `M`.
    pub fn factor(&self) -> &SpdFactor {
        &self.factor
    }

    /// Number of velocity unknowns `ndof`.
    pub fn dofs(&self) -> usize {
        self.m.nrows()
    }
}
