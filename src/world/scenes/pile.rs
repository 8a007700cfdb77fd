//! A seeded random pile: `count` boxes, spheres and capsules of varied sizes and
//! orientations, placed without overlap above a bin so that they fall into it (the
//! random configurations of Erleben 2007 §5).
//!
//! Bodies 0-3 are the bin: four fixed walls standing on the ground, which is the bin's
//! floor. The falling bodies follow, one per cell of a grid above the bin: `k x k` cells
//! per layer over the bin's inside (`k` the smallest with `k³ >= count`), as many layers as
//! needed, filled layer by layer from the bottom, the lowest layer starting at the top of
//! the walls, which are half as high as the layers of cells (at least one cell). A cell is
//! a cube of side `s = 2.1 max_radius + 2 mm`; each body's centre is placed at a random
//! point of its cell such that its bounding sphere (radius at most `max_radius`) stays at
//! least `s/2 - max_radius = 0.05 max_radius + 1 mm` inside the cell's faces. So two bodies
//! are at least `0.1 max_radius + 2 mm` apart, more than the contact margin, and nothing
//! touches at build: the scene has no contacts until the bodies fall. Building is linear
//! in `count`, so piles of thousands of bodies are cheap.
//!
//! Each body draws, from [SplitMix64](https://prng.di.unimi.it/splitmix64.c) seeded with
//! `seed`: its kind (box, sphere or capsule, equally likely), its sizes, a uniformly
//! random orientation (Shoemake 1992) and its offset in the cell. The same parameters give
//! a bit-identical world; another seed gives another pile.
//!
//! | kind | sizes (`ρ = max_radius`, `u` uniform in `[0, 1)`) |
//! |---|---|
//! | sphere | radius `ρ (0.5 + 0.5u)` |
//! | box | half extents `ρ/√3 (0.4 + 0.6u)` each |
//! | capsule | radius `ρ (0.2 + 0.3u)`, half height `(ρ - radius)(0.3 + 0.7u)` |

use nalgebra::{Quaternion, UnitQuaternion, Vector3};

use super::{add_bin_walls, check_count, world_with_friction};
use crate::multibody::{MultibodyError, check_positive};
use crate::rng::SplitMix64;
use crate::world::{MaterialId, Shape, World};

/// The parameters of [`build`].
#[derive(Debug, Clone, PartialEq)]
pub struct PileParams {
    /// Falling bodies (`>= 1`). Default 60.
    pub count: usize,
    /// Seed of the random choices. Default 0.
    pub seed: u64,
    /// The radius of the largest body's bounding sphere in m (`> 0`). Default 0.1.
    pub max_radius: f64,
    /// Density in kg/m³ (`> 0`). Default 1000.
    pub density: f64,
    /// Friction coefficient of every contact (`>= 0`). Default 0.5.
    pub friction: f64,
}

impl Default for PileParams {
    fn default() -> Self {
        PileParams {
            count: 60,
            seed: 0,
            max_radius: 0.1,
            density: 1000.0,
            friction: 0.5,
        }
    }
}

/// The cells per side `k` of a layer: the smallest `k >= 1` with `k³ >= count`.
fn cells_per_side(count: usize) -> usize {
    let mut k = (count as f64).cbrt().floor().max(1.0) as usize;
    while k.saturating_mul(k).saturating_mul(k) < count {
        k += 1;
    }
    k
}

/// The pile: four fixed walls (bodies 0-3), then `count` bodies at rest above the bin.
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `count == 0` (or above
/// [`MAX_SCENE_BODIES`](super::MAX_SCENE_BODIES)); [`MultibodyError::NonPositive`] or
/// [`MultibodyError::NonFinite`] for `max_radius` or the density;
/// [`MultibodyError::NegativeFriction`].
pub fn build(p: &PileParams) -> Result<World, MultibodyError> {
    check_count("pile", "count", p.count, 1)?;
    check_positive("max_radius", p.max_radius)?;
    check_positive("density", p.density)?;
    let mut w = world_with_friction(p.friction)?;
    let rho = p.max_radius;
    // Two bounding spheres in neighbouring cells are at least `clearance` apart.
    let clearance = 0.1 * rho + 2e-3;
    let cell = 2.0 * rho + clearance;
    let k = cells_per_side(p.count);
    let layers = p.count.div_ceil(k * k);
    let half_width = 0.5 * k as f64 * cell;
    let wall_height = cell * layers.div_ceil(2) as f64;
    add_bin_walls(&mut w, half_width, half_width, 0.5 * cell, wall_height)?;

    let mut rng = SplitMix64::new(p.seed);
    for b in 0..p.count {
        let (i, j, l) = (b % k, (b / k) % k, b / (k * k));
        let mut u = || rng.next_f64();
        let shape = match (3.0 * u()) as usize {
            0 => Shape::sphere(rho * (0.5 + 0.5 * u()))?,
            1 => {
                let side = rho / 3f64.sqrt();
                Shape::cuboid(
                    side * (0.4 + 0.6 * u()),
                    side * (0.4 + 0.6 * u()),
                    side * (0.4 + 0.6 * u()),
                )?
            }
            _ => {
                let radius = rho * (0.2 + 0.3 * u());
                Shape::capsule((rho - radius) * (0.3 + 0.7 * u()), radius)?
            }
        };
        let orientation = random_rotation(u(), u(), u());
        // The bounding sphere stays `clearance / 2` inside the cell.
        let play = 0.5 * cell - 0.5 * clearance - shape.bounding_radius();
        let mut jitter = || play * (2.0 * u() - 1.0);
        let centre = Vector3::new(
            -half_width + (i as f64 + 0.5) * cell + jitter(),
            -half_width + (j as f64 + 0.5) * cell + jitter(),
            wall_height + (l as f64 + 0.5) * cell + jitter(),
        );
        w.add(shape, p.density, centre, orientation, MaterialId(0))?;
    }
    Ok(w)
}

/// A uniformly distributed rotation from three uniform numbers in `[0, 1)` (Shoemake,
/// "Uniform random rotations", Graphics Gems III, 1992).
fn random_rotation(u1: f64, u2: f64, u3: f64) -> UnitQuaternion<f64> {
    use std::f64::consts::TAU;
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    let (s2, c2) = (TAU * u2).sin_cos();
    let (s3, c3) = (TAU * u3).sin_cos();
    // Quaternion::new(w, i, j, k)
    UnitQuaternion::new_normalize(Quaternion::new(b * c3, a * s2, a * c2, b * s3))
}
