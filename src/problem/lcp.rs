use nalgebra::DVector;

use super::{ProblemError, check_finite_mat, check_finite_vec, check_len, check_square};
use crate::matrix::Matrix;

/// The linear complementarity problem LCP(A, b): find `x` with
///
/// ```text
/// w = A x + b,    0 <= x  ⊥  w >= 0.
/// ```
///
/// In contact mechanics `x` is the vector of normal impulses and `w` the normal
/// velocities after the step (Erleben 2009 slides, eq. 16-20: `A = J M^-1 J^T`,
/// `b = J (u + h M^-1 f_ext)`).
///
/// Shapes: `A` is `n x n` (dense or sparse), `b` has `n` entries. Siconos calls the same
/// data `M` and `q`.
///
/// # Errors
/// [`Lcp::new`] rejects a non-square `A`, a `b` of the wrong length and any NaN or
/// infinity. Nothing else is assumed: `A` may be nonsymmetric or indefinite (each
/// solver states what it needs).
///
/// # Example
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::problem::Lcp;
/// let lcp = Lcp::new(
///     DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]).into(),
///     DVector::from_vec(vec![-5.0, -6.0]),
/// ).unwrap();
/// assert_eq!(lcp.dim(), 2);
/// let w = lcp.w(&DVector::from_vec(vec![4.0 / 3.0, 7.0 / 3.0]));
/// assert!(w.amax() < 1e-14);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Lcp {
    a: Matrix,
    b: DVector<f64>,
}

impl Lcp {
    /// Builds and validates `LCP(A, b)`.
    pub fn new(a: Matrix, b: DVector<f64>) -> Result<Self, ProblemError> {
        check_square("A", &a)?;
        check_len("b", a.nrows(), b.len())?;
        check_finite_mat("A", &a)?;
        check_finite_vec("b", b.as_slice())?;
        Ok(Lcp { a, b })
    }

    /// Number of unknowns `n`.
    pub fn dim(&self) -> usize {
        self.b.len()
    }

    /// The matrix `A` (`n x n`).
    pub fn a(&self) -> &Matrix {
        &self.a
    }

    /// The vector `b` (`n`).
    pub fn b(&self) -> &DVector<f64> {
        &self.b
    }

    /// `w = A x + b`.
    pub fn w(&self, x: &DVector<f64>) -> DVector<f64> {
        let mut w = self.b.clone();
        self.a.mul_vec_add(x, &mut w);
        w
    }

    /// Takes the problem apart into `(A, b)`.
    pub fn into_parts(self) -> (Matrix, DVector<f64>) {
        (self.a, self.b)
    }
}
