//! A heavy box resting on a light box on the ground: the large mass ratio of Silcowitz,
//! Niebe and Erleben 2009 (fig. 9-10, ratio 1000), which makes the contact problem badly
//! conditioned and stalls projected Gauss-Seidel.
//!
//! Body 0 is the light box, resting on the ground; body 1 the heavy box, resting on the
//! light one, both centred on the `z` axis with gap 0. The heavy box has the light box's
//! height and is `heavy_width` times as wide and deep; with `heavy_width >= 1` the
//! touching area is the light box's top face, so the scene has 8 contacts (4 at the
//! ground, 4 between the boxes).

use nalgebra::{UnitQuaternion, Vector3};

use super::{check_half_extents, world_with_friction};
use crate::multibody::{MultibodyError, check_positive};
use crate::world::{MaterialId, Shape, World};

/// The parameters of [`build`].
#[derive(Debug, Clone, PartialEq)]
pub struct HeavyOnLightParams {
    /// Half extents `(a, b, c)` of the light box in m (`> 0`). Default
    /// `(0.5, 0.5, 0.5)`: a 1 m cube.
    pub half_extents: Vector3<f64>,
    /// Mass of the light box in kg (`> 0`). Default 1.
    pub light_mass: f64,
    /// Mass of the heavy box over the light one (`> 0`). Default 1000 (Silcowitz et al.
    /// 2009 fig. 9-10).
    pub ratio: f64,
    /// Horizontal size of the heavy box over the light one (`> 0`; same height). Default
    /// 1: two equal cubes.
    pub heavy_width: f64,
    /// Friction coefficient of every contact (`>= 0`). Default 0.5.
    pub friction: f64,
}

impl Default for HeavyOnLightParams {
    fn default() -> Self {
        HeavyOnLightParams {
            half_extents: Vector3::new(0.5, 0.5, 0.5),
            light_mass: 1.0,
            ratio: 1000.0,
            heavy_width: 1.0,
            friction: 0.5,
        }
    }
}

/// The two boxes at rest: body 0 light (mass `light_mass`), body 1 heavy (mass
/// `ratio * light_mass`).
///
/// # Errors
/// [`MultibodyError::NonPositive`] or [`MultibodyError::NonFinite`] for a size, mass,
/// ratio or width (also when `ratio * light_mass` overflows);
/// [`MultibodyError::NegativeFriction`].
pub fn build(p: &HeavyOnLightParams) -> Result<World, MultibodyError> {
    check_half_extents("box half extent", &p.half_extents)?;
    check_positive("light box mass", p.light_mass)?;
    check_positive("mass ratio", p.ratio)?;
    check_positive("heavy box width ratio", p.heavy_width)?;
    check_positive("heavy box mass", p.ratio * p.light_mass)?;
    let mut w = world_with_friction(p.friction)?;
    let h = p.half_extents;
    let light = Shape::cuboid(h.x, h.y, h.z)?;
    let heavy = Shape::cuboid(h.x * p.heavy_width, h.y * p.heavy_width, h.z)?;
    let q = UnitQuaternion::identity();
    w.add_with_mass(
        light,
        p.light_mass,
        Vector3::new(0.0, 0.0, h.z),
        q,
        MaterialId(0),
    )?;
    w.add_with_mass(
        heavy,
        p.ratio * p.light_mass,
        Vector3::new(0.0, 0.0, 3.0 * h.z),
        q,
        MaterialId(0),
    )?;
    Ok(w)
}
