//! A [`Frame`]: what the renderer draws, copied out of a [`World`] at one time.

use nalgebra::{UnitQuaternion, Vector3};

use crate::multibody::MultibodyError;
use crate::world::{Shape, World};

/// The pose of one body in a [`Frame`]: its shape, where it is and how it is turned.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyPose {
    /// The geometry in the body frame, centred at `position` (sizes in m).
    pub shape: Shape,
    /// The centre of mass in world coordinates, m (`z` up).
    pub position: Vector3<f64>,
    /// The rotation from the body frame to the world frame.
    pub orientation: UnitQuaternion<f64>,
    /// A fixed body (drawn grey).
    pub fixed: bool,
}

impl BodyPose {
    /// The axis-aligned bounding box `(lo, hi)` of the body in world coordinates (m),
    /// exact for every shape: a box's is `|R| h` about the centre, a sphere's `r`, a
    /// capsule's the box of its two segment ends grown by `r`.
    pub fn aabb(&self) -> (Vector3<f64>, Vector3<f64>) {
        let c = self.position;
        let half = match self.shape {
            Shape::Box { half_extents } => {
                self.orientation.to_rotation_matrix().matrix().abs() * half_extents
            }
            Shape::Sphere { radius } => Vector3::repeat(radius),
            Shape::Capsule {
                half_height,
                radius,
            } => {
                let axis = self.orientation * Vector3::new(0.0, 0.0, half_height);
                axis.abs() + Vector3::repeat(radius)
            }
        };
        (c - half, c + half)
    }

    /// Checks the shape ([`Shape::validate`]) and that the position and the orientation's
    /// quaternion are finite.
    ///
    /// # Errors
    /// [`MultibodyError::InvalidScene`] naming body `index`.
    pub fn validate(&self, index: usize) -> Result<(), MultibodyError> {
        self.shape
            .validate()
            .map_err(|e| invalid(format!("body {index}: {e}")))?;
        if !self.position.iter().all(|v| v.is_finite()) {
            return Err(invalid(format!("body {index}: position is not finite")));
        }
        if !self.orientation.coords.iter().all(|v| v.is_finite()) {
            return Err(invalid(format!("body {index}: orientation is not finite")));
        }
        Ok(())
    }
}

/// A snapshot of the world at one time: the ground height and each body's pose.
///
/// A frame owns copies of a few numbers per body (no masses, velocities or materials),
/// so an animation can keep hundreds of them.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// The simulation time in s (printed as the frame's label).
    pub time: f64,
    /// The height `z` of the ground plane in m, if the world has one.
    pub ground: Option<f64>,
    /// The bodies, in the world's index order (the index [`RenderOptions::highlight`]
    /// refers to).
    ///
    /// [`RenderOptions::highlight`]: super::RenderOptions::highlight
    pub bodies: Vec<BodyPose>,
}

impl Frame {
    /// The poses of `world`'s bodies and its ground, labelled with `time` (s).
    pub fn of(world: &World, time: f64) -> Frame {
        Frame {
            time,
            ground: world.ground().map(|g| g.height),
            bodies: world
                .bodies()
                .iter()
                .map(|b| BodyPose {
                    shape: b.shape,
                    position: b.body.position,
                    orientation: b.body.orientation,
                    fixed: b.body.fixed,
                })
                .collect(),
        }
    }

    /// Checks that the time and the ground height are finite and every body is valid
    /// ([`BodyPose::validate`]).
    ///
    /// # Errors
    /// [`MultibodyError::InvalidScene`].
    pub fn validate(&self) -> Result<(), MultibodyError> {
        if !self.time.is_finite() {
            return Err(invalid("frame time is not finite".into()));
        }
        if self.ground.is_some_and(|g| !g.is_finite()) {
            return Err(invalid("ground height is not finite".into()));
        }
        for (i, b) in self.bodies.iter().enumerate() {
            b.validate(i)?;
        }
        Ok(())
    }
}

/// The renderer's error: [`MultibodyError::InvalidScene`] with `reason`.
pub(super) fn invalid(reason: String) -> MultibodyError {
    MultibodyError::InvalidScene { reason }
}
