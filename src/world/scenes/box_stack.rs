//! A column of boxes, each resting exactly on the one below (Erleben 2007 fig. 9: a
//! stack of 25 boxes).
//!
//! Box `k` (body `k`, counted from the ground) is centred at `(0, 0, (2k + 1) c)` for
//! half height `c`: its bottom face touches the ground or the top face of box `k - 1`
//! with gap 0 (to rounding). Collision detection reports four contacts per touching pair
//! of faces, one at each corner (parry reports each corner twice, once as a vertex of
//! either box; the world keeps one), so the stack has exactly `4 count` contacts at build.
//! The stack is the classic test of error accumulation: the bottom box carries the weight
//! of all the others, and a solver that stops early lets the column sink or drift.

use nalgebra::{UnitQuaternion, Vector3};

use super::{check_count, check_half_extents, world_with_friction};
use crate::multibody::{MultibodyError, check_positive};
use crate::world::{MaterialId, Shape, World};

/// The parameters of [`build`].
#[derive(Debug, Clone, PartialEq)]
pub struct BoxStackParams {
    /// How many boxes (`>= 1`). Default 10; Erleben 2007 fig. 9 uses 25.
    pub count: usize,
    /// Half extents `(a, b, c)` of each box in m (`> 0`). Default `(0.5, 0.5, 0.5)`: 1 m
    /// cubes.
    pub half_extents: Vector3<f64>,
    /// Density in kg/m³ (`> 0`). Default 1000 (1000 kg per 1 m cube).
    pub density: f64,
    /// Friction coefficient of every contact (`>= 0`). Default 0.5.
    pub friction: f64,
}

impl Default for BoxStackParams {
    fn default() -> Self {
        BoxStackParams {
            count: 10,
            half_extents: Vector3::new(0.5, 0.5, 0.5),
            density: 1000.0,
            friction: 0.5,
        }
    }
}

/// The box stack: `count` boxes at rest, body `k` the `k`-th from the ground.
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `count == 0` (or above
/// [`MAX_SCENE_BODIES`](super::MAX_SCENE_BODIES)); [`MultibodyError::NonPositive`] or
/// [`MultibodyError::NonFinite`] for a size or density; [`MultibodyError::NegativeFriction`].
pub fn build(p: &BoxStackParams) -> Result<World, MultibodyError> {
    check_count("box-stack", "count", p.count, 1)?;
    check_half_extents("box half extent", &p.half_extents)?;
    check_positive("density", p.density)?;
    let mut w = world_with_friction(p.friction)?;
    let h = p.half_extents;
    let shape = Shape::cuboid(h.x, h.y, h.z)?;
    for k in 0..p.count {
        let z = (2 * k + 1) as f64 * h.z;
        w.add(
            shape,
            p.density,
            Vector3::new(0.0, 0.0, z),
            UnitQuaternion::identity(),
            MaterialId(0),
        )?;
    }
    Ok(w)
}
