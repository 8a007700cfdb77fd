//! A brick wall in running bond: every other row is offset by half a brick, so every
//! brick rests on two below (Erleben 2007 fig. 10; the wall of Erleben 2017 fig. 3).
//!
//! Row `r` (from the ground) lies at height `(2r + 1) c` for half height `c`; the wall
//! runs along `x`, centred at `x = 0`, one brick deep in `y` and centred at `y = 0`.
//! Even rows (0, 2, ...) hold `per_row` bricks; odd rows hold `per_row - 1` bricks
//! between two half bricks, so that both ends of the wall are flush, as a mason builds
//! it. All joints are closed: neighbours in a row touch (gap 0) and every row rests on
//! the one below.
//!
//! # How many contacts
//! Collision detection reports four contacts per touching pair of faces (at the corners
//! of the rectangle where they overlap). With `c = per_row`, `r = rows`, `e = ceil(r/2)`
//! even rows and `o = floor(r/2)` odd rows:
//!
//! * the ground: `4c` (row 0 has `c` bricks);
//! * joints in a row: `4(c - 1)` in an even row, `4c` in an odd row;
//! * between two rows: `4 (2c)` (the two rows' joints cut the wall into `2c` overlaps);
//!
//! in all `4c + 4(e(c - 1) + o c) + 8c(r - 1)` ([`contact_count`]), about 12 per brick.
//! The default 10 x 20 wall (205 bodies: 195 bricks and 10 half bricks) has 2300
//! contacts; a 40 x 60 wall (2420 bodies) has 28 480, and the command line's `--n 60`
//! (30 rows of 60, 1815 bodies) 21 300. Ten thousand contacts need about 860 bricks: 20 rows
//! of 43 give 10 108, and `--n 42` (21 rows of 42) gives 10 372.

use nalgebra::{UnitQuaternion, Vector3};

use super::{check_count, check_half_extents, check_total, world_with_friction};
use crate::multibody::{MultibodyError, check_positive};
use crate::world::{MaterialId, Shape, World};

/// The parameters of [`build`].
#[derive(Debug, Clone, PartialEq)]
pub struct WallParams {
    /// Rows of bricks (`>= 1`). Default 10.
    pub rows: usize,
    /// Whole bricks in an even row (`>= 1`); odd rows have one fewer and two half bricks.
    /// Default 20 (so the default wall is 200 bricks' worth, Erleben 2007 fig. 10).
    pub per_row: usize,
    /// Half extents `(a, b, c)` of a brick in m (`> 0`): length along the wall, depth,
    /// height. Default `(0.2, 0.1, 0.1)`: 0.4 x 0.2 x 0.2 m bricks. A half brick is
    /// `(a/2, b, c)`.
    pub half_extents: Vector3<f64>,
    /// Density in kg/m³ (`> 0`). Default 1000 (16 kg per brick).
    pub density: f64,
    /// Friction coefficient of every contact (`>= 0`). Default 0.5.
    pub friction: f64,
}

impl Default for WallParams {
    fn default() -> Self {
        WallParams {
            rows: 10,
            per_row: 20,
            half_extents: Vector3::new(0.2, 0.1, 0.1),
            density: 1000.0,
            friction: 0.5,
        }
    }
}

/// The number of bodies of a wall: `rows per_row` bricks plus one more piece per odd
/// row (two half bricks instead of one brick).
pub fn body_count(rows: usize, per_row: usize) -> usize {
    rows * per_row + rows / 2
}

/// The number of contacts collision detection reports for the wall at build:
/// `4c + 4(e(c - 1) + o c) + 8c(r - 1)` (see the module documentation).
pub fn contact_count(rows: usize, per_row: usize) -> usize {
    if rows == 0 || per_row == 0 {
        return 0;
    }
    let (c, r) = (per_row, rows);
    let (e, o) = (r.div_ceil(2), r / 2);
    4 * c + 4 * (e * (c - 1) + o * c) + 8 * c * (r - 1)
}

/// The wall at rest: bodies row by row from the ground, each row from `-x` to `+x`.
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `rows == 0` or `per_row == 0` (or more than
/// [`MAX_SCENE_BODIES`](super::MAX_SCENE_BODIES) bodies); [`MultibodyError::NonPositive`]
/// or [`MultibodyError::NonFinite`] for a size or density;
/// [`MultibodyError::NegativeFriction`].
pub fn build(p: &WallParams) -> Result<World, MultibodyError> {
    check_count("wall", "rows", p.rows, 1)?;
    check_count("wall", "per_row", p.per_row, 1)?;
    check_total(
        "wall",
        p.rows
            .checked_mul(p.per_row)
            .and_then(|n| n.checked_add(p.rows / 2)),
    )?;
    check_half_extents("brick half extent", &p.half_extents)?;
    check_positive("density", p.density)?;
    let mut w = world_with_friction(p.friction)?;
    let h = p.half_extents;
    let brick = Shape::cuboid(h.x, h.y, h.z)?;
    let half = Shape::cuboid(0.5 * h.x, h.y, h.z)?;
    let q = UnitQuaternion::identity();
    let c = p.per_row;
    // The wall's left end; brick k of an even row spans [x0 + 2ak, x0 + 2a(k+1)].
    let x0 = -(c as f64) * h.x;
    for r in 0..p.rows {
        let z = (2 * r + 1) as f64 * h.z;
        let at = |x: f64| Vector3::new(x, 0.0, z);
        if r % 2 == 0 {
            for k in 0..c {
                let x = x0 + (2 * k + 1) as f64 * h.x;
                w.add(brick, p.density, at(x), q, MaterialId(0))?;
            }
        } else {
            w.add(half, p.density, at(x0 + 0.5 * h.x), q, MaterialId(0))?;
            for k in 1..c {
                let x = x0 + (2 * k) as f64 * h.x;
                w.add(brick, p.density, at(x), q, MaterialId(0))?;
            }
            let x = -x0 - 0.5 * h.x;
            w.add(half, p.density, at(x), q, MaterialId(0))?;
        }
    }
    Ok(w)
}
