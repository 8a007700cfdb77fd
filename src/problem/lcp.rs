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
    /// let lcp = Lcp::frictionless(&running_example());
    /// assert_eq!(lcp.dim(), 2);
    /// assert_eq!((lcp.a().to_dense()[(1, 1)], lcp.b()[0]), (1.25, -1.0));
    /// ```
    pub fn frictionless(fc: &FrictionContact) -> Self {
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

    /// The LCP with friction directions of the contacts of `fc` (Stewart and Trinkle's form,
    /// Silcowitz, Niebe, Erleben 2009 eq. 1-8; the book's contact-problem chapter): the
    /// tangent plane of each contact spanned by the four directions `+t1, -t1, +t2, -t2`, so
    /// that friction lies in the square `Σ_k λ_k <= mu r_n` with its corners on the Coulomb
    /// circle (inside the cone). Per contact six unknowns, in this order,
    /// `y = [r_n, λ_{+t1}, λ_{-t1}, λ_{+t2}, λ_{-t2}, β]`, and the rows
    ///
    /// ```text
    /// u_n                       complementary to r_n
    /// β + d_k^T u_t             complementary to λ_k     (d_k = ±t1, ±t2)
    /// mu r_n - Σ_k λ_k          complementary to β
    /// ```
    ///
    /// with `u = W r + q` and `r = (r_n, λ_{+t1} - λ_{-t1}, λ_{+t2} - λ_{-t2})` per contact
    /// ([`Lcp::friction_direction_impulses`]). `A` is not symmetric (the `β` rows and
    /// columns); it is dense when `W` is, sparse otherwise. Coulomb's normal condition is
    /// kept: a sliding contact stays closed (`u_n = 0`), as in De Saxcé's form.
    ///
    /// ```
    /// use nonsmooth::problem::{Lcp, running_example};
    /// let lcp = Lcp::with_friction_directions(&running_example());
    /// assert_eq!(lcp.dim(), 12);
    /// ```
    pub fn with_friction_directions(fc: &FrictionContact) -> Self {
        // the unknowns of y that row `i` of r is made of, with their signs
        let parts = |i: usize| -> Vec<(usize, f64)> {
            let c = i / 3;
            match i % 3 {
                0 => vec![(6 * c, 1.0)],
                k => vec![(6 * c + 2 * k - 1, 1.0), (6 * c + 2 * k, -1.0)],
            }
        };
        let nc = fc.contacts();
        let n = 6 * nc;
        let w = fc.w();
        let mut t = Vec::new();
        for i in 0..3 * nc {
            w.for_each_in_row(i, |j, v| {
                for (yi, si) in parts(i) {
                    for (yj, sj) in parts(j) {
                        t.push((yi, yj, si * sj * v));
                    }
                }
            });
        }
        let mut b = DVector::zeros(n);
        for c in 0..nc {
            let beta = 6 * c + 5;
            for k in 1..5 {
                t.push((6 * c + k, beta, 1.0));
                t.push((beta, 6 * c + k, -1.0));
            }
            t.push((beta, 6 * c, fc.mu()[c]));
            for i in 3 * c..3 * c + 3 {
                for (yi, si) in parts(i) {
                    b[yi] = si * fc.q()[i];
                }
            }
        }
        t.sort_by_key(|&(i, j, _)| (i, j));
        let a = Matrix::from_triplets(n, n, &t).expect("indices below 6 per contact");
        let a = if w.is_sparse() {
            a
        } else {
            a.to_dense().into()
        };
        Lcp { a, b }
    }

    /// The contact impulses `r = [r_n, r_t1, r_t2]` per contact (N s, length `3 m`) of an
    /// answer `y` of [`Lcp::with_friction_directions`] (length `6 m`): `r_t1 = λ_{+t1} -
    /// λ_{-t1}`, `r_t2 = λ_{+t2} - λ_{-t2}` (Silcowitz, Niebe, Erleben 2009 eq. 5, with
    /// `J_D` the rows `±t1, ±t2`).
    ///
    /// # Errors
    /// [`ProblemError::DimensionMismatch`] when the length of `y` is not a multiple of six.
    ///
    /// ```
    /// use nalgebra::DVector;
    /// use nonsmooth::problem::Lcp;
    /// let y = DVector::from_vec(vec![4.0, 0.0, 0.2, 0.0, 0.6, 0.1]);
    /// let r = Lcp::friction_direction_impulses(&y).unwrap();
    /// assert_eq!(r.as_slice(), &[4.0, -0.2, -0.6]);
    /// assert!(Lcp::friction_direction_impulses(&DVector::zeros(7)).is_err());
    /// ```
    pub fn friction_direction_impulses(y: &DVector<f64>) -> Result<DVector<f64>, ProblemError> {
        let nc = y.len() / 6;
        check_len(
            "answer of the LCP with friction directions (6 per contact)",
            6 * nc,
            y.len(),
        )?;
        Ok(DVector::from_fn(3 * nc, |i, _| {
            let c = i / 3;
            match i % 3 {
                0 => y[6 * c],
                k => y[6 * c + 2 * k - 1] - y[6 * c + 2 * k],
            }
        }))
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
