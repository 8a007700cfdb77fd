//! The fixed ground: the half space `z <= height` with outward normal `+z`.
//!
//! The ground is the static world of the contact problem ([`BodyRef::World`]): it owns
//! no column of `J` and no entry of `u` (Erleben 2007 eq. 10-13 count only the bodies
//! that move). A contact with the ground has `a = World`, `b` the body, and normal `+z`,
//! pointing from the ground to the body, so a positive normal velocity separates.
//!
//! [`BodyRef::World`]: crate::multibody::BodyRef::World

use super::material::MaterialId;
use crate::multibody::MultibodyError;

/// The ground plane `z = height` (m), normal `+z`, with a material.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroundPlane {
    /// The height of the plane in m (default 0).
    pub height: f64,
    /// Its surface (default material 0).
    pub material: MaterialId,
}

impl Default for GroundPlane {
    fn default() -> Self {
        GroundPlane {
            height: 0.0,
            material: MaterialId::default(),
        }
    }
}

impl GroundPlane {
    /// The plane `z = height` with material `material`.
    ///
    /// # Errors
    /// [`MultibodyError::NonFinite`] for a height that is not finite.
    pub fn new(height: f64, material: MaterialId) -> Result<Self, MultibodyError> {
        if !height.is_finite() {
            return Err(MultibodyError::NonFinite {
                what: "ground height",
                body: None,
                contact: None,
            });
        }
        Ok(GroundPlane { height, material })
    }
}
