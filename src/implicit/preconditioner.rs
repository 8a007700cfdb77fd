//! The complementarity preconditioner (Macklin et al. 2019 §7; NOTES 2.7).
//!
//! An NCP function's roots do not change when one argument is scaled by a positive
//! constant: `φ(r λ, C) = 0` has the roots of `φ(λ, C) = 0`. The paper chooses `r` so
//! that the two arguments move at the same rate when the multiplier changes. For a
//! normal row at the position level, `C_n(q⁻ + h u)` with `u = ũ + h M⁻¹ J^T λ` gives
//! `∂C_n/∂λ_n = h² (J M⁻¹ J^T)_ii` (m/N), so
//!
//! ```text
//! r_n = h² (J M~⁻¹ J^T)_ii  [m/N],        r_f = h (J M~⁻¹ J^T)_ii  [(m/s)/N]
//! ```
//!
//! for the friction rows, whose first argument is a velocity. With this `r`, a single
//! contact's `min(C₀ + r λ, r λ)` is a straight line in `λ` on each side of its kink with
//! the same slope, and Newton solves it in one step from any start (figure 9; tested in
//! `tests/laws/complementarity_preconditioner.rs`). The diagonal is the one the Jacobi
//! preconditioner of the inner solver needs anyway ("when using a Jacobi preconditioner
//! the diagonal of the system matrix is already computed").
//!
//! The inverse choice `h² / (J M⁻¹ J^T)_ii` is ruled out by its units (s² kg, not m/N).
//!
//! Checked by `tests/laws/complementarity_preconditioner.rs`.

use super::rows::RowKind;

// ANCHOR: r_factor
/// The r-factor of a row of kind `kind` with Delassus diagonal `d = (J M~⁻¹ J^T)_ii`
/// (1/kg for a translation row) and time step `h` (s): `h² d` for unilateral rows,
/// `h d` for friction rows, 1 for bilateral rows (which have no NCP). A row that moves
/// nothing (`d = 0`) gets 1.
pub fn r_factor(kind: &RowKind, d: f64, h: f64) -> f64 {
    let r = match kind {
        RowKind::Unilateral { .. } => h * h * d,
        RowKind::Friction { .. } => h * d,
        RowKind::Bilateral { .. } => 1.0,
    };
    if r > 0.0 && r.is_finite() { r } else { 1.0 }
}
// ANCHOR_END: r_factor
