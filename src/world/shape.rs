//! The shapes a body of the world can have: boxes, spheres and capsules, with their
//! volume, mass and body-frame inertia (the `M` of Erleben 2007 eq. 17).
//!
//! Every shape is centred at the body's centre of mass and expressed in the body frame
//! (the frame the orientation `Q` of Erleben 2007 eq. 23-26 rotates into the world), so
//! its inertia tensor is diagonal there.
//!
//! | shape | volume `V` | body-frame inertia of mass `m` |
//! |---|---|---|
//! | box, half extents `(a, b, c)` | `8 a b c` | `m/3 diag(b²+c², a²+c², a²+b²)` ([`RigidBody::box_inertia`]) |
//! | sphere, radius `r` | `4/3 π r³` | `2/5 m r² 1` |
//! | capsule, half height `h/2` along `z`, radius `r` | `π r² h + 4/3 π r³` | see [`Shape::inertia`] |

use nalgebra::{Matrix3, Vector3};

use crate::multibody::{MultibodyError, RigidBody};

/// The geometry of a body, in its body frame, centred at its centre of mass.
///
/// Sizes are in m and must be finite and strictly positive ([`Shape::validate`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// A box with half extents `(a, b, c)` along the body axes `x, y, z`.
    Box {
        /// Half extents in m.
        half_extents: Vector3<f64>,
    },
    /// A sphere of radius `r`.
    Sphere {
        /// Radius in m.
        radius: f64,
    },
    /// A capsule: the set of points within `radius` of the segment from
    /// `(0, 0, -half_height)` to `(0, 0, half_height)` (a cylinder of length
    /// `2 half_height` capped by two hemispheres).
    Capsule {
        /// Half the length of the core segment, along the body `z` axis, in m.
        half_height: f64,
        /// Radius in m.
        radius: f64,
    },
}

impl Shape {
    /// A box with half extents `(a, b, c)` (m).
    ///
    /// # Errors
    /// As [`Shape::validate`].
    pub fn cuboid(a: f64, b: f64, c: f64) -> Result<Self, MultibodyError> {
        let s = Shape::Box {
            half_extents: Vector3::new(a, b, c),
        };
        s.validate().map(|_| s)
    }

    /// A sphere of radius `r` (m).
    ///
    /// # Errors
    /// As [`Shape::validate`].
    pub fn sphere(radius: f64) -> Result<Self, MultibodyError> {
        let s = Shape::Sphere { radius };
        s.validate().map(|_| s)
    }

    /// A capsule of core half height `half_height` along `z` and radius `radius` (m).
    ///
    /// # Errors
    /// As [`Shape::validate`].
    pub fn capsule(half_height: f64, radius: f64) -> Result<Self, MultibodyError> {
        let s = Shape::Capsule {
            half_height,
            radius,
        };
        s.validate().map(|_| s)
    }

    /// Checks that every size is finite and strictly positive.
    ///
    /// # Errors
    /// [`MultibodyError::NonFinite`] or [`MultibodyError::NonPositive`].
    pub fn validate(&self) -> Result<(), MultibodyError> {
        match self {
            Shape::Box { half_extents } => half_extents
                .iter()
                .try_for_each(|&v| positive("box half extent", v)),
            Shape::Sphere { radius } => positive("sphere radius", *radius),
            Shape::Capsule {
                half_height,
                radius,
            } => {
                positive("capsule half height", *half_height)?;
                positive("capsule radius", *radius)
            }
        }
    }

    /// The volume in m^3.
    pub fn volume(&self) -> f64 {
        use std::f64::consts::PI;
        match *self {
            Shape::Box { half_extents: h } => 8.0 * h.x * h.y * h.z,
            Shape::Sphere { radius: r } => 4.0 / 3.0 * PI * r * r * r,
            Shape::Capsule {
                half_height,
                radius: r,
            } => PI * r * r * (2.0 * half_height) + 4.0 / 3.0 * PI * r * r * r,
        }
    }

    // ANCHOR: inertia
    /// The body-frame inertia tensor (kg m^2) of the shape filled uniformly with total
    /// mass `m` (kg).
    ///
    /// * Box: [`RigidBody::box_inertia`].
    /// * Sphere: `2/5 m r^2` about every axis (a solid ball).
    /// * Capsule with core length `h = 2 half_height`: the mass splits by volume into
    ///   the cylinder, `m_c = m π r² h / V`, and the two hemispheres, `m_s = m - m_c`.
    ///   About the axis `z`: `I_zz = m_c r²/2 + 2/5 m_s r²`. About `x` and `y`:
    ///   `I_xx = m_c (h²/12 + r²/4) + m_s (2/5 r² + h²/4 + 3/8 h r)`, where the last
    ///   bracket is a hemisphere's own inertia moved by the parallel-axis theorem from
    ///   its centroid (`3r/8` from its flat face) to the capsule's centre. These are the
    ///   cylinder and hemisphere entries of the standard tables (for example Meriam and
    ///   Kraige, *Engineering Mechanics: Dynamics*, appendix D); the test suite checks
    ///   them against parry's mass properties.
    pub fn inertia(&self, m: f64) -> Matrix3<f64> {
        match *self {
            Shape::Box { half_extents } => RigidBody::box_inertia(half_extents, m),
            Shape::Sphere { radius: r } => Matrix3::identity() * (0.4 * m * r * r),
            Shape::Capsule {
                half_height,
                radius: r,
            } => {
                let h = 2.0 * half_height;
                let cylinder = std::f64::consts::PI * r * r * h;
                let m_c = m * cylinder / self.volume();
                let m_s = m - m_c;
                let axial = m_c * r * r / 2.0 + 0.4 * m_s * r * r;
                let across = m_c * (h * h / 12.0 + r * r / 4.0)
                    + m_s * (0.4 * r * r + h * h / 4.0 + 3.0 / 8.0 * h * r);
                Matrix3::from_diagonal(&Vector3::new(across, across, axial))
            }
        }
    }
    // ANCHOR_END: inertia

    /// A body of this shape with total `mass` (kg) centred at `position` (m), at rest,
    /// identity orientation.
    ///
    /// # Errors
    /// [`Shape::validate`]; [`MultibodyError::NonPositiveMass`] or
    /// [`MultibodyError::NonFinite`] for the mass; [`RigidBody::new`] for the position.
    pub fn body_with_mass(
        &self,
        mass: f64,
        position: Vector3<f64>,
    ) -> Result<RigidBody, MultibodyError> {
        self.validate()?;
        // RigidBody::new checks the mass (finite, then > 0) before the inertia made from it.
        RigidBody::new(mass, self.inertia(mass), position)
    }

    /// A body of this shape of uniform `density` (kg/m^3): mass `density V`.
    ///
    /// # Errors
    /// As [`Shape::body_with_mass`], and [`MultibodyError::NonPositive`] for a density
    /// `<= 0`.
    pub fn body_with_density(
        &self,
        density: f64,
        position: Vector3<f64>,
    ) -> Result<RigidBody, MultibodyError> {
        self.validate()?;
        positive("density", density)?;
        self.body_with_mass(density * self.volume(), position)
    }

    /// The radius of the smallest sphere about the centre that holds the shape (m).
    pub fn bounding_radius(&self) -> f64 {
        match *self {
            Shape::Box { half_extents } => half_extents.norm(),
            Shape::Sphere { radius } => radius,
            Shape::Capsule {
                half_height,
                radius,
            } => half_height + radius,
        }
    }
}

fn positive(what: &'static str, v: f64) -> Result<(), MultibodyError> {
    if !v.is_finite() {
        Err(MultibodyError::NonFinite {
            what,
            body: None,
            contact: None,
        })
    } else if v <= 0.0 {
        Err(MultibodyError::NonPositive { what, value: v })
    } else {
        Ok(())
    }
}
