//! The time-stepping parameters of an assembly: the step `dt`, gravity and the friction
//! law the assembled problems pose.

use nalgebra::Vector3;

use super::super::{MultibodyError, check_finite, check_positive};
use crate::problem::FrictionKind;

/// The time-stepping parameters of an assembly.
#[derive(Debug, Clone, PartialEq)]
pub struct StepParams {
    /// Time step `dt` in s (`> 0`). Default `0.01`.
    pub dt: f64,
    /// Gravitational acceleration in m/s^2. Default `(0, 0, -9.81)` (z is up).
    pub gravity: Vector3<f64>,
    /// The friction law the problems pose. Default [`FrictionKind::Coulomb`].
    pub kind: FrictionKind,
    /// How the gyroscopic torque `-omega x I omega` enters `f_ext`. Default
    /// [`Gyroscopic::Explicit`] (Erleben 2007 eq. 18 as written).
    pub gyroscopic: Gyroscopic,
}

/// How the gyroscopic torque of a spinning body enters the step (Erleben 2007 eq. 18).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Gyroscopic {
    /// `-omega x I omega` at the start of the step, as eq. 18 writes it. Explicit Euler on
    /// Euler's equations: a body spinning fast about an axis that is not principal gains
    /// energy every step, and the spin can grow without bound (it grows quadratically in
    /// `omega`).
    #[default]
    Explicit,
    /// One Newton step of the implicit Euler update `I (omega' - omega) = -dt omega' x I
    /// omega'` from `omega' = omega`, entered as the torque `I (omega' - omega) / dt`
    /// ([`crate::multibody::RigidBody::implicit_gyroscopic_torque`]). Stable at any spin;
    /// the same to first order in `dt`.
    Implicit,
}

impl Default for StepParams {
    fn default() -> Self {
        StepParams {
            dt: 0.01,
            gravity: Vector3::new(0.0, 0.0, -9.81),
            kind: FrictionKind::Coulomb,
            gyroscopic: Gyroscopic::Explicit,
        }
    }
}

impl StepParams {
    /// Checks `dt > 0` and that everything is finite.
    ///
    /// # Errors
    /// [`MultibodyError::NonPositive`] or [`MultibodyError::NonFinite`].
    pub fn validate(&self) -> Result<(), MultibodyError> {
        check_positive("time step dt", self.dt)?;
        check_finite("gravity", self.gravity.as_slice())
    }
}
