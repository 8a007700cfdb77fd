use nalgebra::DVector;

use super::{
    FrictionContact, ProblemError, check_finite_mat, check_finite_vec, check_len, check_square,
};
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

    /// The frictionless problem of the contacts of `fc`: friction switched off (every
    /// tangential impulse zero), the normal impulses `x` solve the LCP with `A` the
    /// normal rows and columns of `W` (`A_ij = W_{3i,3j}`, one row per contact) and `b` the
    /// normal entries of `q`. For a positive semidefinite `W`, `A` is positive semidefinite
    /// (a principal submatrix), so Lemke's method solves it or proves it infeasible.
    ///
    /// ```
    /// use nonsmooth::problem::{Lcp, running_example};
    /// let lcp = Lcp::from_friction_contact(&running_example());
    /// assert_eq!(lcp.dim(), 2);
    /// assert_eq!((lcp.a().to_dense()[(1, 1)], lcp.b()[0]), (1.25, -1.0));
    /// ```
    pub fn from_friction_contact(fc: &FrictionContact) -> Self {
        let n = fc.contacts();
        let w = fc.w();
        let a = if w.is_sparse() {
            let mut t = Vec::new();
            for i in 0..n {
                w.for_each_in_row(3 * i, |j, v| {
                    if j % 3 == 0 {
                        t.push((i, j / 3, v));
                    }
                });
            }
            Matrix::from_triplets(n, n, &t).expect("indices below the number of contacts")
        } else {
            nalgebra::DMatrix::from_fn(n, n, |i, j| w.get(3 * i, 3 * j)).into()
        };
        let b = DVector::from_fn(n, |i, _| fc.q()[3 * i]);
        Lcp { a, b }
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
