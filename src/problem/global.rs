//! Checked by `tests/laws/local_global.rs`.

use nalgebra::DVector;

use super::MassMatrix;
use super::{
    FrictionContact, FrictionKind, ProblemError, check_finite_mat, check_finite_vec, check_len,
    check_square,
};
use crate::linalg::SpdFactor;
use crate::matrix::Matrix;

/// The global (velocity-space) 3D frictional contact problem
///
/// ```text
/// M v = q + H r,      u = H^T v + b,      r_c ∈ K_{mu_c},  complementarity per kind,
/// ```
///
/// before the Delassus operator is formed (Siconos `gfc3d`, FCLIB global problems;
/// Erleben 2007 eq. 16-20 with `H = J^T`, `q = M u^t + h f_ext`).
///
/// Shapes: `M` is `ndof x ndof` symmetric positive definite, `H` is `ndof x 3nc`, `q` has
/// `ndof` entries, `b` has `3nc` and `mu` has `nc`. Units: `v` in m/s (or rad/s),
/// `r` in N s, `M` in kg (kg m^2), `q` in N s.
///
/// Eliminating `v = M^-1 (q + H r)` gives the local problem ([`Self::to_local`]):
/// `W = H^T M^-1 H`, `q_loc = H^T M^-1 q + b`.
///
/// # Errors
/// [`GlobalFrictionContact::new`] rejects wrong shapes, NaN/inf, `mu < 0`, a nonsymmetric
/// `M` (relative asymmetry above 1e-10) and an `M` that is not positive definite (its
/// sparse Cholesky factorisation fails).
#[derive(Debug)]
pub struct GlobalFrictionContact {
    mass: MassMatrix,
    h: Matrix,
    q: DVector<f64>,
    b: DVector<f64>,
    mu: DVector<f64>,
    kind: FrictionKind,
}

impl GlobalFrictionContact {
    /// Builds, validates and factorises (`M = L L^T`, kept for later solves).
    pub fn new(
        m: Matrix,
        h: Matrix,
        q: DVector<f64>,
        b: DVector<f64>,
        mu: DVector<f64>,
        kind: FrictionKind,
    ) -> Result<Self, ProblemError> {
        check_square("M", &m)?;
        check_len("H rows", m.nrows(), h.nrows())?;
        if h.ncols() % 3 != 0 {
            return Err(ProblemError::NotContactSized {
                what: "H columns",
                size: h.ncols(),
            });
        }
        check_len("q", m.nrows(), q.len())?;
        check_len("b", h.ncols(), b.len())?;
        check_len("mu", h.ncols() / 3, mu.len())?;
        check_finite_mat("M", &m)?; // before H's, as the message order always was
        check_finite_mat("H", &h)?;
        check_finite_vec("q", q.as_slice())?;
        check_finite_vec("b", b.as_slice())?;
        check_finite_vec("mu", mu.as_slice())?;
        if let Some(contact) = mu.iter().position(|v| *v < 0.0) {
            return Err(ProblemError::NegativeFriction {
                contact,
                mu: mu[contact],
            });
        }
        let mass = MassMatrix::new(m)?;
        Ok(GlobalFrictionContact {
            mass,
            h,
            q,
            b,
            mu,
            kind,
        })
    }

    /// Number of contacts `nc`.
    pub fn contacts(&self) -> usize {
        self.mu.len()
    }

    /// Number of velocity unknowns `ndof`.
    pub fn dofs(&self) -> usize {
        self.q.len()
    }

    /// Number of reaction unknowns `3 nc`.
    pub fn dim(&self) -> usize {
        self.b.len()
    }

    /// The mass matrix `M` (`ndof x ndof`).
    pub fn m(&self) -> &Matrix {
        self.mass.matrix()
    }

    /// `M` validated, with its factor.
    pub fn mass(&self) -> &MassMatrix {
        &self.mass
    }

    /// `H` (`ndof x 3nc`), the transpose of the contact Jacobian.
    pub fn h(&self) -> &Matrix {
        &self.h
    }

    /// `q` (`ndof`).
    pub fn q(&self) -> &DVector<f64> {
        &self.q
    }

    /// `b` (`3nc`).
    pub fn b(&self) -> &DVector<f64> {
        &self.b
    }

    /// Friction coefficients (`nc`).
    pub fn mu(&self) -> &DVector<f64> {
        &self.mu
    }

    /// Which law is posed.
    pub fn kind(&self) -> FrictionKind {
        self.kind
    }

    /// The same data posed with another friction law.
    pub fn with_kind(mut self, kind: FrictionKind) -> Self {
        self.kind = kind;
        self
    }

    /// The Cholesky factor of `M`.
    pub fn mass_factor(&self) -> &SpdFactor {
        self.mass.factor()
    }

    /// `v = M^-1 (q + H r)`.
    pub fn velocity_dofs(&self, r: &DVector<f64>) -> DVector<f64> {
        let mut rhs = self.q.clone();
        rhs += self.h.mul_vec(r);
        self.mass.factor().solve(&rhs)
    }

    /// `u = H^T v + b` for a given `v`.
    pub fn contact_velocity(&self, v: &DVector<f64>) -> DVector<f64> {
        self.h.tr_mul_vec(v) + &self.b
    }

    /// Forms the local problem `W = H^T M^-1 H`, `q_loc = H^T M^-1 q + b`, with sparse
    /// solves against the Cholesky factor (no dense inverse). `W` is stored sparse.
    ///
    /// # Errors
    /// [`ProblemError::NonFinite`] if the elimination overflows (an `M` so badly
    /// conditioned that `M^-1 H` is not representable).
    pub fn to_local(&self) -> Result<FrictionContact, ProblemError> {
        let t = self.mass.factor().solve_columns(&self.h); // M^-1 H, ndof x 3nc
        let ht = self.h.to_csr().transpose();
        let w = &ht * &t;
        let q_loc = self.h.tr_mul_vec(&self.mass.factor().solve(&self.q)) + &self.b;
        FrictionContact::new(Matrix::Sparse(w), q_loc, self.mu.clone(), self.kind)
    }
}
