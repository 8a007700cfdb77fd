//! Restarted GMRES with a Jacobi preconditioner for the Schur complements that are not
//! symmetric: those of sliding contacts under the natural-map friction
//! ([`crate::implicit::system::FrictionForm::NaturalMap`]). The Krylov method itself is
//! the crate's ([`crate::newton::gmres`], Saad and Schultz 1986), shared with the cone
//! Newton method.

use super::{InnerError, InnerOptions, InnerReport, mul_into, residual_norm};
use nalgebra::DVector;
use nalgebra_sparse::CsrMatrix;

/// The restart length: GMRES keeps this many Krylov vectors.
pub const RESTART: usize = 30;

/// Solves `A x = b` by at most `opts.iterations` GMRES iterations (restarted every
/// [`RESTART`]), right-preconditioned by `1 / A_ii` where `|A_ii| > 0` (1 elsewhere),
/// stopping at `opts.rel_tol` (0: run them all). The report's residuals are the true
/// residual at the start and at the end (two entries).
pub(crate) fn gmres(
    a: &CsrMatrix<f64>,
    b: &DVector<f64>,
    x: &mut DVector<f64>,
    opts: &InnerOptions,
) -> Result<InnerReport, InnerError> {
    let n = b.len();
    let residual = |v: &DVector<f64>| residual_norm(a, b, v);
    let r0 = residual(x);
    let mut inv_diag = DVector::from_element(n, 1.0);
    for (r, c, v) in a.triplet_iter() {
        if r == c && v.abs() > 0.0 {
            inv_diag[r] = 1.0 / v;
        }
    }
    let mut apply = |v: &DVector<f64>| {
        let mut av = DVector::zeros(n);
        mul_into(a, v, &mut av);
        av
    };
    let mut y = x.clone();
    let out = crate::newton::gmres(
        &mut apply,
        b,
        &mut y,
        Some(&inv_diag),
        RESTART,
        opts.iterations,
        opts.rel_tol.max(0.0),
    );
    if !y.iter().all(|v| v.is_finite()) {
        return Err(InnerError::NonFinite { what: "iterate" });
    }
    x.copy_from(&y);
    Ok(InnerReport {
        iterations: out.iterations.max(1),
        residuals: vec![r0, residual(x)],
    })
}
