//! Jacobi and Gauss-Seidel relaxation, one sweep per iteration: the splittings the paper
//! compares PCR with (Macklin et al. 2019 §8.2, figure 11). With `A = D + L + U` (diagonal,
//! strictly lower, strictly upper):
//!
//! * Jacobi: `x += D^-1 (b - A x)`, i.e. `x_new = D^-1 (b - (L + U) x)`. Plain (no damping
//!   weight): it converges when the iteration matrix `I - D^-1 A` has spectral radius below
//!   one, e.g. for strictly diagonally dominant `A`; for SPD `A` that is not diagonally
//!   dominant it can diverge (it converges for SPD `A` iff `2 D - A` is also positive
//!   definite). Divergence ends in [`super::InnerError::NonFinite`] if the iterate overflows.
//! * Gauss-Seidel: `x_i = (b_i - Σ_{j<i} A_ij x_j^new - Σ_{j>i} A_ij x_j) / A_ii` for
//!   `i = 0..n-1` (forward sweep). It converges for every SPD `A` (Saad 2003 Thm. 4.10,
//!   the Ostrowski-Reich theorem), monotonically in the `A`-norm of the error.

use super::{InnerError, InnerOptions, InnerReport, Monitor};
use nalgebra::DVector;
use nalgebra_sparse::CsrMatrix;

/// Plain Jacobi sweeps for `A x = b` (input checked by [`super::solve`]);
/// `inv_diag = 1 / diag(A)`.
pub(crate) fn jacobi(
    a: &CsrMatrix<f64>,
    b: &DVector<f64>,
    x: &mut DVector<f64>,
    inv_diag: &DVector<f64>,
    opts: &InnerOptions,
) -> Result<InnerReport, InnerError> {
    let (mut monitor, done) = Monitor::start(a, b, x, inv_diag, opts, None)?;
    if done {
        return Ok(monitor.finish());
    }
    let mut xk = x.clone();
    for _ in 0..opts.iterations {
        // the monitor holds r = b - A x of the last accepted iterate, which is xk
        xk.axpy(1.0, &monitor.r.component_mul(inv_diag), 1.0);
        if monitor.accept(&xk, x)? {
            break;
        }
    }
    Ok(monitor.finish())
}

/// Forward Gauss-Seidel sweeps for `A x = b` (input checked by [`super::solve`]);
/// `inv_diag = 1 / diag(A)`.
pub(crate) fn gauss_seidel(
    a: &CsrMatrix<f64>,
    b: &DVector<f64>,
    x: &mut DVector<f64>,
    inv_diag: &DVector<f64>,
    opts: &InnerOptions,
) -> Result<InnerReport, InnerError> {
    let (mut monitor, done) = Monitor::start(a, b, x, inv_diag, opts, None)?;
    if done {
        return Ok(monitor.finish());
    }
    let (offsets, cols, vals) = (a.row_offsets(), a.col_indices(), a.values());
    let mut xk = x.clone();
    for _ in 0..opts.iterations {
        for i in 0..b.len() {
            let mut s = b[i];
            for k in offsets[i]..offsets[i + 1] {
                if cols[k] != i {
                    s -= vals[k] * xk[cols[k]];
                }
            }
            xk[i] = s * inv_diag[i];
        }
        if monitor.accept(&xk, x)? {
            break;
        }
    }
    Ok(monitor.finish())
}
