//! The velocity-based scheme of Erleben 2007 eq. 45, which is also the discrete model of
//! the 2009 slides (eq. 11-18: `v^{n+1} = h(lambda)`, `r^{n+1} = r^n + dt v^{n+1}`):
//!
//! 1. collision detection at `q^t` (the contacts found at the end of the previous step
//!    are reused: the poses have not changed since);
//! 2. `dynamics(dt)`: the contact problem with `J`, `M` at `q^t`, and
//!    `u^{t+1} = u^t + dt M^-1 f_ext + M^-1 J^T lambda` (eq. 45a-d);
//! 3. the position update `q^{t+1} = q^t + dt S u^{t+1}` (eq. 45e): semi-implicit
//!    (symplectic) Euler, first order.
//!
//! A contact found apart (gap `> 0`) may close by the end of the step: it enters with
//! `gap / dt` ([`super::posed`]).

use super::dynamics::{Dynamics, WarmStart, apply_velocity, dynamics, integrate_positions};
use super::{Settings, SimulationError};
use crate::world::{World, WorldContact};

// ANCHOR: velocity_step
/// One step of eq. 45 on `world`, whose contacts at the current poses are `contacts`.
///
/// # Errors
/// As [`dynamics`].
pub fn step(
    world: &mut World,
    contacts: Vec<WorldContact>,
    settings: &Settings,
    warm: &WarmStart,
    step_index: usize,
) -> Result<Dynamics, SimulationError> {
    let d = dynamics(world, contacts, settings.dt, settings, warm, step_index)?;
    apply_velocity(world, &d.step, &d.velocity);
    integrate_positions(world, settings.dt);
    Ok(d)
}
// ANCHOR_END: velocity_step
