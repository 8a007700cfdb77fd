//! A grid of `n x n x n` spheres in a bin, stacked and initially overlapping (Erleben 2007
//! fig. 13): every contact of the scene starts with the same penetration, `overlap_ratio`
//! times the radius, so that the error correction of the time stepper (Erleben 2007
//! eq. 46) has something to remove.
//!
//! Bodies 0-3 are the bin: four fixed walls standing on the ground (the floor), their
//! inner faces around the grid. Then ball `(i, j, l)` (body `4 + i + n j + n² l`, layer
//! `l` from the ground) is centred at `((i - (n-1)/2) d, (j - (n-1)/2) d, r - δ + l d)`
//! with radius `r`, overlap `δ = overlap_ratio r` and spacing `d = 2r - δ`: neighbours
//! along `x`, `y` and `z` overlap by `δ` and the bottom layer sinks `δ` into the ground.
//! Diagonal neighbours are apart as long as `δ < (2 - √2) r`, so the ratio is limited to
//! `[0, 0.5]`.
//!
//! The walls stand where the outer balls of the grid without overlap (spacing `2r`)
//! would touch them, so the bin holds the relaxed grid exactly: every penetration can be
//! removed (the position LCP of the error correction has a solution). With walls pressed
//! into the outer balls as well, a row of balls between two walls would need more room
//! than the bin has, and no correction could remove the overlap.
//!
//! # How many contacts
//! One per overlapping pair: `n²` with the ground and `3 n² (n - 1)` between neighbours,
//! `n² (3n - 2)` in all ([`contact_count`]), 325 for the default `n = 5`; every one has
//! gap `-δ`. The outer balls are `(n - 1) δ / 2` from the walls, so they touch them only
//! when that is within the world's margin (`n = 1`, or no overlap).

use nalgebra::{UnitQuaternion, Vector3};

use super::{add_bin_walls, check_count, check_total, world_with_friction};
use crate::multibody::{MultibodyError, check_finite, check_positive};
use crate::world::{MaterialId, Shape, World};

/// The parameters of [`build`].
#[derive(Debug, Clone, PartialEq)]
pub struct BallGridParams {
    /// Balls per side (`>= 1`); the grid has `n³`. Default 5 (125 balls, Erleben 2007
    /// fig. 13).
    pub n: usize,
    /// Radius of every ball in m (`> 0`). Default 0.1.
    pub radius: f64,
    /// The initial penetration of every contact over the radius (dimensionless, in
    /// `[0, 0.5]`). Default 0.1 (1 cm for the default radius).
    pub overlap_ratio: f64,
    /// Density in kg/m³ (`> 0`). Default 1000 (4.19 kg per default ball).
    pub density: f64,
    /// Friction coefficient of every contact (`>= 0`). Default 0.5.
    pub friction: f64,
}

impl Default for BallGridParams {
    fn default() -> Self {
        BallGridParams {
            n: 5,
            radius: 0.1,
            overlap_ratio: 0.1,
            density: 1000.0,
            friction: 0.5,
        }
    }
}

impl BallGridParams {
    /// The initial penetration depth of every contact, `overlap_ratio radius`, in m.
    pub fn overlap(&self) -> f64 {
        self.overlap_ratio * self.radius
    }
}

/// The number of overlapping contacts at build: `n² (3n - 2)` (see the module
/// documentation).
pub fn contact_count(n: usize) -> usize {
    n * n * (3 * n - 2)
}

/// The ball grid: four fixed walls (bodies 0-3), then the balls layer by layer, at rest.
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `n == 0` (or more than
/// [`MAX_SCENE_BODIES`](super::MAX_SCENE_BODIES) balls) or an overlap ratio outside
/// `[0, 0.5]`; [`MultibodyError::NonPositive`] or [`MultibodyError::NonFinite`] for the
/// radius or density; [`MultibodyError::NegativeFriction`].
pub fn build(p: &BallGridParams) -> Result<World, MultibodyError> {
    check_count("ball-grid", "n", p.n, 1)?;
    check_total(
        "ball-grid",
        p.n.checked_mul(p.n).and_then(|m| m.checked_mul(p.n)),
    )?;
    check_positive("sphere radius", p.radius)?;
    check_positive("density", p.density)?;
    check_finite("overlap ratio", &[p.overlap_ratio])?;
    if !(0.0..=0.5).contains(&p.overlap_ratio) {
        return Err(super::invalid(format!(
            "ball-grid: the overlap ratio must lie in [0, 0.5], found {}",
            p.overlap_ratio
        )));
    }
    let mut w = world_with_friction(p.friction)?;
    let r = p.radius;
    let delta = p.overlap();
    let d = 2.0 * r - delta;
    let mid = 0.5 * (p.n - 1) as f64;
    // Inner faces of the walls: the outer balls' surfaces in the grid without overlap.
    let inner = mid * 2.0 * r + r;
    let height = (p.n - 1) as f64 * d + 2.0 * r;
    add_bin_walls(&mut w, inner, inner, r, height)?;
    let ball = Shape::sphere(r)?;
    let q = UnitQuaternion::identity();
    for l in 0..p.n {
        for j in 0..p.n {
            for i in 0..p.n {
                let centre = Vector3::new(
                    (i as f64 - mid) * d,
                    (j as f64 - mid) * d,
                    r - delta + l as f64 * d,
                );
                w.add(ball, p.density, centre, q, MaterialId(0))?;
            }
        }
    }
    Ok(w)
}
