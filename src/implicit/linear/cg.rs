//! Jacobi-preconditioned conjugate gradient (PCG), `P = diag(A)`: one of the methods the
//! paper compares PCR with (Macklin et al. 2019 §8.2, figure 11).
//!
//! ```text
//! r = b - A x;   z = P^-1 r;   p = z
//! for k = 0..M-1:
//!     Ap    = A p               (the one mat-vec)
//!     alpha = (r . z) / (p . Ap)
//!     x    += alpha p
//!     r    -= alpha Ap
//!     z     = P^-1 r
//!     beta  = (r . z)_new / (r . z)_old
//!     p     = z + beta p
//! ```
//!
//! For SPD `A` it minimises the `A`-norm of the error over the Krylov space (Hestenes and
//! Stiefel 1952; Saad 2003 Alg. 9.1); the residual norm need not decrease monotonically.
//! Breakdowns: if `r . z` or `p . Ap` is not positive (zero when converged; for
//! semi-definite `A`, a direction in the null space), the iteration stops cleanly with the
//! current iterate. It also stops when the recurrence's `r . z` has fallen below `eps^2`
//! times its start (`eps` the machine epsilon): the true residual has then reached its
//! rounding floor, and further iterations on an underflowing recurrence only amplified
//! rounding (a test caught iterates growing to 1e63 after 2000 iterations).

use super::{InnerError, InnerOptions, InnerReport, Monitor, mul_into};
use nalgebra::DVector;
use nalgebra_sparse::CsrMatrix;

/// PCG for `A x = b` (input already checked by [`super::solve`]); `inv_diag = 1 / diag(A)`.
pub(crate) fn cg(
    a: &CsrMatrix<f64>,
    b: &DVector<f64>,
    x: &mut DVector<f64>,
    inv_diag: &DVector<f64>,
    opts: &InnerOptions,
) -> Result<InnerReport, InnerError> {
    let n = b.len();
    let (mut monitor, done) = Monitor::start(a, b, x, inv_diag, opts, None)?;
    if done || opts.iterations == 0 {
        return Ok(monitor.finish());
    }
    let mut xk = x.clone();
    let mut r = monitor.r.clone();
    let mut z = r.component_mul(inv_diag);
    let mut p = z.clone();
    let mut rz = r.dot(&z);
    let floor = rz * f64::EPSILON * f64::EPSILON;
    let mut ap = DVector::zeros(n);
    for _ in 0..opts.iterations {
        mul_into(a, &p, &mut ap);
        let pap = p.dot(&ap);
        if !(rz > floor) || !(pap > 0.0) || !rz.is_finite() || !pap.is_finite() {
            break; // converged, or stagnated (semi-definite, or the rounding floor)
        }
        let alpha = rz / pap;
        xk.axpy(alpha, &p, 1.0);
        r.axpy(-alpha, &ap, 1.0);
        z.copy_from(&r);
        z.component_mul_assign(inv_diag);
        let rz_new = r.dot(&z);
        p.axpy(1.0, &z, rz_new / rz);
        rz = rz_new;
        if monitor.accept(&xk, x)? {
            break;
        }
    }
    Ok(monitor.finish())
}
