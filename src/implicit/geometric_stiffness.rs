//! The diagonal geometric stiffness approximation (Macklin et al. 2019 §8.3; NOTES 2.10,
//! rebuilt).
//!
//! The exact Newton matrix has `M~ = M - h² K` with the geometric stiffness
//! `K = ∂(J^T λ)/∂q`: how the constraint forces turn as the bodies move. It needs the
//! constraints' second derivatives and makes `M~` neither block diagonal nor definite, so
//! it is usually dropped. The paper instead estimates its diagonal from the last two
//! Newton iterates, a secant (Broyden-like) update:
//!
//! ```text
//! Δq = q^k - q^(k-1) = h (u^k - u^(k-1)),     Δf = J(q^k)^T λ^k - J(q^(k-1))^T λ^k,
//! k_i = Δf_i / Δq_i,                           M~_ii = M_ii + h² max(0, -k_i).
//! ```
//!
//! Only a positive shift is kept ("we clamp the shift to be positive"), so `M~` stays
//! block diagonal and positive definite and the Schur complement is unchanged in
//! structure. The shift changes the iteration, not its solution: at a converged point the
//! equations do not contain `M~`.

use nalgebra::DVector;
use nalgebra_sparse::CsrMatrix;

/// The secant estimate across the iterations of one time step.
#[derive(Debug, Clone, Default)]
pub struct GeometricStiffness {
    previous: Option<(DVector<f64>, CsrMatrix<f64>)>,
    /// The current shift `h² max(0, -k_i)` of each entry of `M` (kg, kg m²).
    pub shift: DVector<f64>,
}

impl GeometricStiffness {
    /// No shift, for `n` velocity entries.
    pub fn new(n: usize) -> Self {
        GeometricStiffness {
            previous: None,
            shift: DVector::zeros(n),
        }
    }

    // ANCHOR: update
    /// Records the iterate `u` with its Jacobian `j` and multipliers `lambda` (N), and
    /// updates the shift from the previous iterate (time step `h` in s). Entries whose
    /// position did not change (`|Δq_i| <= 1e-14`, m or rad) keep their shift.
    pub fn update(&mut self, u: &DVector<f64>, j: &CsrMatrix<f64>, lambda: &DVector<f64>, h: f64) {
        if let Some((u_prev, j_prev)) = &self.previous {
            if j_prev.nrows() == j.nrows() && j_prev.ncols() == j.ncols() {
                let df = j.transpose() * lambda - j_prev.transpose() * lambda;
                for i in 0..u.len() {
                    let dq = h * (u[i] - u_prev[i]);
                    if dq.abs() > 1e-14 {
                        let k = df[i] / dq;
                        self.shift[i] = h * h * (-k).max(0.0);
                    }
                }
            }
        }
        self.previous = Some((u.clone(), j.clone()));
    }
    // ANCHOR_END: update
}
