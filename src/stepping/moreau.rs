//! Moreau's mid-point scheme (Moreau 1999; Erleben 2017 eq. 41-42):
//!
//! ```text
//! q^{t+1/2} = q^t + dt/2 u^t                                            (41)
//! lambda    = contact solve with M, J, h at q^{t+1/2} and u^t           (42a)
//! u^{t+1}   = u^t + dt M^-1 h + M^-1 J^T lambda                         (42b)
//! q^{t+1}   = q^{t+1/2} + dt/2 u^{t+1}                                  (42c)
//! ```
//!
//! The positions advance with the mean of the two velocities, a second-order update: a
//! free body falling under gravity follows the exact parabola and keeps its energy
//! exactly (`tests/laws/time_stepping.rs`). Contacts are found at the mid-point, so a
//! contact enters the problem when the bodies overlap half-way through the step (the
//! "softness" the paper mentions). With Newton's impact law (eq. 21-22 of Erleben 2007,
//! [`crate::multibody::Assembly`]) a touching contact leaves with `-e` times its
//! approach velocity. A contact found apart enters with `gap / (dt/2)`, the time left
//! ([`super::posed`]).

use super::dynamics::{Dynamics, WarmStart, apply_velocity, dynamics, integrate_positions};
use super::{Settings, SimulationError, correction::Detect};
use crate::world::World;

// ANCHOR: moreau_step
/// One step of eq. 41-42 on `world`; `detect` is collision detection (at the mid-point).
///
/// # Errors
/// As [`dynamics`] and `detect`.
pub fn step(
    world: &mut World,
    settings: &Settings,
    warm: &WarmStart,
    step_index: usize,
    detect: &mut Detect<'_>,
) -> Result<Dynamics, SimulationError> {
    let half = 0.5 * settings.dt;
    integrate_positions(world, half);
    let contacts = detect(world)?;
    let d = dynamics(world, contacts, half, settings, warm, step_index)?;
    apply_velocity(world, &d.step, &d.velocity);
    integrate_positions(world, half);
    Ok(d)
}
// ANCHOR_END: moreau_step
