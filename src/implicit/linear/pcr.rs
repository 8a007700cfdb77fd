//! Preconditioned conjugate residual (PCR) with the Jacobi preconditioner `P = diag(A)`:
//! the inner solver of Macklin et al. 2019 §8.2.
//!
//! The paper's equations were lost in the text extraction (`NOTES.md` §2.9); this is the
//! standard preconditioned CR, reconstructed to match the paper's prose ("one
//! matrix-vector product, two inner products, one extra vector multiply-add per
//! iteration" compared to CG):
//!
//! ```text
//! r = b - A x;   z = P^-1 r;   p = z;   Az = A z;   Ap = Az
//! for k = 0..M-1:
//!     y     = P^-1 Ap
//!     alpha = (z . Az) / (Ap . y)
//!     x    += alpha p
//!     r    -= alpha Ap          (residual)
//!     z    -= alpha y           (preconditioned residual)
//!     Az_new = A z              (the one mat-vec)
//!     beta  = (z . Az_new) / (z_old . Az_old)
//!     p     = z + beta p
//!     Ap    = Az_new + beta Ap
//! ```
//!
//! It is CR on the symmetrically preconditioned system `P^-1/2 A P^-1/2`, so for SPD `A`
//! it minimises `‖r‖_{P^-1} = sqrt(r^T P^-1 r)` over the Krylov space and that norm does not
//! increase (Fong and Saunders 2012). Breakdowns: if `z . Az` or `Ap . y` is not positive
//! (zero when converged, or for semi-definite `A` when `z` lies in the null space:
//! stagnation), the iteration stops cleanly with the current iterate; the report then has
//! fewer iterations than asked. It also stops when `z . Az` has fallen below `eps^2` times
//! its start (`eps` the machine epsilon): the true residual has then reached its rounding
//! floor, and iterating on an underflowing recurrence only amplifies rounding.
//!
//! The recurrence's line `r -= alpha Ap` only monitors; here the monitor instead recomputes
//! the true residual `b - A x` from the iterate ([`super::InnerReport::residuals`]), so that
//! line is not executed.

use super::{InnerError, InnerOptions, InnerReport, Monitor, mul_into};
use nalgebra::DVector;
use nalgebra_sparse::CsrMatrix;

/// PCR for `A x = b` (input already checked by [`super::solve`]); `inv_diag = 1 / diag(A)`.
/// `history`, if given, receives the preconditioned true-residual norms.
pub(crate) fn pcr(
    a: &CsrMatrix<f64>,
    b: &DVector<f64>,
    x: &mut DVector<f64>,
    inv_diag: &DVector<f64>,
    opts: &InnerOptions,
    history: Option<&mut Vec<f64>>,
) -> Result<InnerReport, InnerError> {
    let n = b.len();
    let (mut monitor, done) = Monitor::start(a, b, x, inv_diag, opts, history)?;
    if done || opts.iterations == 0 {
        return Ok(monitor.finish());
    }
    let mut xk = x.clone();
    // r = b - A x (the monitor computed it), z = P^-1 r, p = z, Az = A z, Ap = Az
    let mut z = monitor.r.component_mul(inv_diag);
    let mut p = z.clone();
    let mut az = DVector::zeros(n);
    mul_into(a, &z, &mut az);
    let mut ap = az.clone();
    let mut zaz = z.dot(&az);
    let floor = zaz * f64::EPSILON * f64::EPSILON;
    let mut y = DVector::zeros(n);
    for _ in 0..opts.iterations {
        y.copy_from(&ap);
        y.component_mul_assign(inv_diag);
        let denom = ap.dot(&y);
        if !(zaz > floor) || !(denom > 0.0) || !zaz.is_finite() || !denom.is_finite() {
            break; // converged, or stagnated (semi-definite, or the rounding floor)
        }
        let alpha = zaz / denom;
        xk.axpy(alpha, &p, 1.0);
        z.axpy(-alpha, &y, 1.0);
        mul_into(a, &z, &mut az);
        let zaz_new = z.dot(&az);
        let beta = zaz_new / zaz;
        // p = z + beta p; Ap = Az_new + beta Ap
        p.axpy(1.0, &z, beta);
        ap.axpy(1.0, &az, beta);
        zaz = zaz_new;
        if monitor.accept(&xk, x)? {
            break;
        }
    }
    Ok(monitor.finish())
}
