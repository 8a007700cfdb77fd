//! A round tower of bricks: `layers` rings of `per_layer` bricks laid on a circle, each
//! ring turned by half a brick against the one below, so that every brick bridges the
//! joint between two bricks below (Erleben 2007 fig. 11; the tower of Erleben 2017 fig. 3
//! has 49 bodies, about 6 rings of 8).
//!
//! Brick `k` of ring `l` (body `l per_layer + k`) is centred at angle
//! `θ = 2π k / n + (l mod 2) π / n` (`n = per_layer`) on the circle of radius `R` about the
//! `z` axis, at height `(2l + 1) c`, with its long axis (`x`, half length `a`) along the
//! tangent and its depth (`y`, half depth `b`) along the radius. The radius is the
//! smallest at which the inner corners of two neighbours in a ring are `gap` apart:
//! `R = b + (a + s) / tan(π/n)` with `s = gap / (2 cos(π/n))`. Neighbours in a ring do not
//! touch (with a gap wider than the margin they have no contacts), rings touch with gap 0.
//!
//! # How many contacts
//! A brick and each of the two bricks it bridges touch over a polygon that is not a
//! rectangle (the rings are turned against each other); parry's box-box manifold reports
//! its corners, six of them for the default brick and ring. So the default tower
//! (8 bricks per ring) has 4 contacts per brick at the ground and 12 per brick between two
//! rings: `32 + 96 (l - 1)` for `l` rings ([`contact_count`]), 896 for the default 10.
//! Other bricks and rings give other polygons; count their contacts with
//! [`World::contacts`].

use nalgebra::{UnitQuaternion, Vector3};

use super::{check_count, check_half_extents, check_total, world_with_friction};
use crate::multibody::{MultibodyError, check_finite, check_positive};
use crate::world::{MaterialId, Shape, World};

/// The parameters of [`build`].
#[derive(Debug, Clone, PartialEq)]
pub struct TowerParams {
    /// Rings of bricks (`>= 1`). Default 10.
    pub layers: usize,
    /// Bricks per ring (`>= 3`). Default 8.
    pub per_layer: usize,
    /// Half extents `(a, b, c)` of a brick in m (`> 0`): along the tangent, along the
    /// radius, height. Default `(0.2, 0.1, 0.1)`: 0.4 x 0.2 x 0.2 m bricks.
    pub half_extents: Vector3<f64>,
    /// Distance in m between the inner corners of neighbours in a ring (`>= 0`). Default
    /// 0.005 (5 mm, more than the 1 mm margin, so neighbours in a ring have no contacts).
    pub gap: f64,
    /// Density in kg/m³ (`> 0`). Default 1000.
    pub density: f64,
    /// Friction coefficient of every contact (`>= 0`). Default 0.5.
    pub friction: f64,
}

impl Default for TowerParams {
    fn default() -> Self {
        TowerParams {
            layers: 10,
            per_layer: 8,
            half_extents: Vector3::new(0.2, 0.1, 0.1),
            gap: 0.005,
            density: 1000.0,
            friction: 0.5,
        }
    }
}

impl TowerParams {
    /// The radius `R` of the circle of brick centres in m (see the module documentation).
    pub fn radius(&self) -> f64 {
        let half_angle = std::f64::consts::PI / self.per_layer as f64;
        let s = self.gap / (2.0 * half_angle.cos());
        self.half_extents.y + (self.half_extents.x + s) / half_angle.tan()
    }
}

/// The contacts at build of a tower of `layers` rings with the default brick, ring and
/// gap: `32 + 96 (layers - 1)` (measured: 4 per brick at the ground, 6 per touching pair
/// of bricks, two pairs per brick, between two rings). For other parameters count them
/// with [`World::contacts`].
pub fn contact_count(layers: usize) -> usize {
    if layers == 0 {
        0
    } else {
        32 + 96 * (layers - 1)
    }
}

/// The tower at rest: bodies ring by ring from the ground, each ring counter-clockwise.
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `layers == 0`, `per_layer < 3` (or more than
/// [`MAX_SCENE_BODIES`](super::MAX_SCENE_BODIES) bodies), or a gap `< 0`;
/// [`MultibodyError::NonPositive`] or [`MultibodyError::NonFinite`] for a size or
/// density; [`MultibodyError::NegativeFriction`].
pub fn build(p: &TowerParams) -> Result<World, MultibodyError> {
    check_count("tower", "layers", p.layers, 1)?;
    check_count("tower", "per_layer", p.per_layer, 3)?;
    check_total("tower", p.layers.checked_mul(p.per_layer))?;
    check_half_extents("brick half extent", &p.half_extents)?;
    check_positive("density", p.density)?;
    check_finite("gap", &[p.gap])?;
    if p.gap < 0.0 {
        return Err(super::invalid(format!(
            "tower: the gap between neighbours in a ring must be >= 0, found {} m",
            p.gap
        )));
    }
    let mut w = world_with_friction(p.friction)?;
    let h = p.half_extents;
    let brick = Shape::cuboid(h.x, h.y, h.z)?;
    let n = p.per_layer as f64;
    let radius = p.radius();
    for l in 0..p.layers {
        let z = (2 * l + 1) as f64 * h.z;
        for k in 0..p.per_layer {
            let turn = if l % 2 == 0 { 0.0 } else { 0.5 };
            let theta = 2.0 * std::f64::consts::PI * (k as f64 + turn) / n;
            let (s, c) = theta.sin_cos();
            // A quarter turn more than theta: the brick's x axis along the tangent
            // (-sin, cos), its y axis along the inward radius.
            let q = UnitQuaternion::from_axis_angle(
                &Vector3::z_axis(),
                theta + std::f64::consts::FRAC_PI_2,
            );
            w.add(
                brick,
                p.density,
                Vector3::new(radius * c, radius * s, z),
                q,
                MaterialId(0),
            )?;
        }
    }
    Ok(w)
}
