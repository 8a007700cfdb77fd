//! The time-stepping parameters of an assembly: the step `dt`, gravity and the friction
//! law the assembled problems pose.

use nalgebra::Vector3;

use super::super::{MultibodyError, check_finite, check_positive};
use crate::multibody::Gyroscopic;
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
