//! The contact problem a time step solves, posed from the step's assembly: the
//! Delassus operator with constraint force mixing, and a right-hand side that holds the
//! free velocity, the prescribed motion, Newton's impact law and the gaps.
//!
//! ```text
//! W' = J M^-1 J^T + gamma I                                   (Erleben 2007 eq. 45b, 41)
//! q  = J (u^t + dt M^-1 f_ext) + b_kin + b_n                  (eq. 45a)
//! b_n = gap / horizon     on a contact still apart (gap > 0), unless it bounces
//!     = e min(v_n^-, 0)   otherwise                           (eq. 21-22, Newton's law)
//! ```
//!
//! Collision detection reports contacts up to a margin apart ([`crate::world::World`]).
//! The plain velocity-level condition `u_n >= 0` would treat such a contact as touching
//! and stop the bodies short of it. The gap term lets a contact that is `gap` apart
//! approach by at most `gap` during the time left until the end of the step (`horizon`:
//! `dt` for the velocity-based scheme, `dt/2` after Moreau's half step), so it closes
//! exactly instead of stopping early, and it never acts on contacts that stay apart.
//!
//! A contact apart that bounces (`e > 0`) and would close within the step at its
//! approach velocity `v_n^-` (`gap + horizon v_n^- < 0`) takes Newton's law instead: the
//! impact happens during the step, and the law is applied to it then, not one step late
//! (when the velocity would already have been stopped by the gap term). The rebound
//! then starts up to `gap` (at most the margin) early.
//! A penetration (`gap < 0`) is not turned into a velocity: removing it is the error
//! correction's job ([`super::correction`]), as in Erleben 2007, so the velocities stay
//! those of the model.

use super::cfm::with_cfm;
use crate::matrix::Matrix;
use crate::problem::{FrictionContact, FrictionKind, GlobalFrictionContact};
use crate::world::StepProblem;
use nalgebra::DVector;

// ANCHOR: posed
/// The local problem `u = W' r + q` of a step (shape `3nc`; `r` in N s, `u` in m/s).
///
/// `horizon` (s, `> 0`) is the time from where the contacts were found to the end of
/// the step, or `None` for eq. 45 as printed: no gap term, every contact found within
/// the margin acts as touching ([`super::Settings::gap_term`]); `cfm` is `gamma` of
/// Erleben 2007 eq. 41 (1/kg, `>= 0`).
///
/// # Errors
/// As [`FrictionContact::new`] (only for non-finite data from extreme inputs).
pub fn pose(
    step: &StepProblem,
    horizon: Option<f64>,
    cfm: f64,
    kind: FrictionKind,
) -> Result<FrictionContact, crate::problem::ProblemError> {
    let a = &step.assembly;
    let q = a.jacobian().mul_vec(&a.free_velocity()) + posed_b(step, horizon);
    FrictionContact::new(with_cfm(&a.delassus(), cfm), q, a.mu().clone(), kind)
}
// ANCHOR_END: posed

/// The constant part of the contact velocity, `b_kin + b_n` (`3nc`, m/s): the
/// prescribed motion plus, on each normal row, the gap term or Newton's law as in
/// [`pose`] (so `q = J u_free + posed_b`).
fn posed_b(step: &StepProblem, horizon: Option<f64>) -> DVector<f64> {
    let a = &step.assembly;
    let mut b = a.b_kinematic().clone();
    let rest = a.b_restitution();
    let v_before = a.contact_velocity(a.velocity());
    for (c, contact) in step.contacts.iter().enumerate() {
        let (gap, e, vn) = (contact.gap, contact.contact.restitution(), v_before[3 * c]);
        b[3 * c] += match horizon {
            Some(h) if gap > 0.0 && !(e > 0.0 && gap + h * vn < 0.0) => gap / h,
            _ => rest[3 * c],
        };
    }
    b
}

// ANCHOR: posed_global
/// The same problem as [`pose`] with `cfm = 0`, posed in velocity space without forming
/// the Delassus operator (Erleben 2007 eq. 16-20; the factorisation `w = M^-1 J^T r` of
/// section 3):
///
/// ```text
/// M v = q_g + H r,   u = H^T v + b,   H = J^T,   q_g = M u_free,   b = b_kin + b_n
/// ```
///
/// (`M` the block-diagonal `6nb x 6nb` mass matrix in kg and kg m^2, `H` `6nb x 3nc`,
/// `q_g` in N s, `b` `3nc` in m/s). Eliminating `v` gives `W = H^T M^-1 H = J M^-1 J^T`
/// and `q = H^T u_free + b`, the `W` and `q` of [`pose`] up to rounding; memory is
/// `O(nnz(J))`, linear in the contacts, where `W` holds a block for every pair of
/// contacts that share a body. The problem a velocity-space method (`vgs`) solves.
///
/// # Errors
/// As [`GlobalFrictionContact::new`] (only for non-finite data from extreme inputs).
pub fn pose_global(
    step: &StepProblem,
    horizon: Option<f64>,
    kind: FrictionKind,
) -> Result<GlobalFrictionContact, crate::problem::ProblemError> {
    let a = &step.assembly;
    let m = a.mass_matrix();
    let q = m.mul_vec(&a.free_velocity());
    let h = Matrix::Sparse(a.jacobian().to_csr().transpose());
    GlobalFrictionContact::new(m, h, q, posed_b(step, horizon), a.mu().clone(), kind)
}
// ANCHOR_END: posed_global
