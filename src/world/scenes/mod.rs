//! Named scenes of the 3D world: worlds of bodies with shapes, built at rest (unless
//! stated: the pile falls, and a cannon ball flies in roof-tower and wall-push), ready for
//! a time stepper.
//!
//! Unlike [`crate::multibody::scenes`], which writes down the contacts of resting boxes by
//! hand, these scenes are [`World`]s: their contacts come from collision detection
//! ([`World::contacts`]) at every step. Every scene has `z` up, the ground plane at
//! `z = 0`, SI units (m, kg, s), the default margin
//! ([`DEFAULT_MARGIN`](super::DEFAULT_MARGIN), 1 mm) and gravity `(0, 0, -9.81)` m/s², one
//! material (material 0) with the scene's friction and restitution 0, and is deterministic:
//! the same parameters give a bit-identical world.
//!
//! | scene | what | bodies (default) | contacts at build (default) | reproduces |
//! |---|---|---|---|---|
//! | [`box_stack`] | `count` boxes in a column, each resting exactly on the one below | 10 | `4 count` = 40 | Erleben 2007 fig. 9 (25 boxes) |
//! | [`heavy_on_light`] | a heavy box on a light box on the ground, mass ratio `ratio` | 2 | 8 | Silcowitz et al. 2009 fig. 9-10 |
//! | [`wall`] | a brick wall in running bond, `rows` rows of `per_row` bricks | 205 | 2300, see [`wall::contact_count`] | Erleben 2007 fig. 10; Erleben 2017 fig. 3 |
//! | [`tower`] | a round tower, `layers` rings of `per_layer` bricks, alternate rings turned by half a brick | 80 | 896, see [`tower::contact_count`] | Erleben 2007 fig. 11; Erleben 2017 fig. 3 |
//! | [`ball_grid`] | `n`³ spheres in a bin, every contact overlapping by `overlap_ratio` of the radius | 125 + 4 walls | 325, see [`ball_grid::contact_count`] | Erleben 2007 fig. 13 |
//! | [`pile`] | `count` random boxes, spheres and capsules above a bin, falling in | 60 + 4 walls | 0 (all in the air) | — (a stress test at scale) |
//! | [`roof_tower`] | a tower of `layers` rings of 20 bricks, a 3 t roof dropped onto it, a cannon ball shot at it (not at rest) | 800 + 2 | 9440, all the tower's (the roof and the ball touch nothing) | Erleben 2007 fig. 16, 20-22 |
//! | [`wall_push`] | the [`wall`] and a cannon ball shot at the middle of its face (not at rest) | 205 + 1 | 2300, the wall's | Erleben 2007 fig. 10, 16 |
//!
//! [`cannon::aim`] computes the launch of a ball that reaches a point at a given time.
//!
//! Each scene has a parameter struct with [`Default`] and a `build` function in its module
//! that checks the parameters ([`MultibodyError`], never a panic, for zero counts,
//! non-positive sizes or ratios, NaN). [`SceneKind`] and [`build`] pick a scene by name
//! with one size, as the command line does.
//!
//! # Example
//!
//! ```
//! use nonsmooth::world::scenes::{self, SceneKind, box_stack::BoxStackParams};
//!
//! let world = scenes::box_stack::build(&BoxStackParams { count: 3, ..Default::default() })?;
//! assert_eq!(world.bodies().len(), 3);
//! assert_eq!(world.contacts()?.len(), 12); // four corners per touching face
//! let same = scenes::build(SceneKind::from_name("box-stack").unwrap(), Some(3), 0)?;
//! assert_eq!(world, same);
//! # Ok::<(), nonsmooth::multibody::MultibodyError>(())
//! ```

pub mod ball_grid;
pub mod box_stack;
pub mod cannon;
pub mod heavy_on_light;
pub mod pile;
pub mod roof_tower;
pub mod tower;
pub mod wall;
pub mod wall_push;

pub use ball_grid::BallGridParams;
pub use box_stack::BoxStackParams;
pub use heavy_on_light::HeavyOnLightParams;
pub use pile::PileParams;
pub use roof_tower::RoofTowerParams;
pub use tower::TowerParams;
pub use wall::WallParams;
pub use wall_push::WallPushParams;

use crate::names::named;
use std::fmt;

use nalgebra::{UnitQuaternion, Vector3};

use super::{Material, MaterialId, Shape, World};
use crate::multibody::{MultibodyError, check_positive};

/// The most bodies a scene may have; larger sizes are refused
/// ([`MultibodyError::InvalidScene`]) before anything is allocated.
pub const MAX_SCENE_BODIES: usize = 1_000_000;

/// The named scenes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SceneKind {
    /// [`box_stack`].
    BoxStack,
    /// [`heavy_on_light`].
    HeavyOnLight,
    /// [`wall`].
    Wall,
    /// [`tower`].
    Tower,
    /// [`ball_grid`].
    BallGrid,
    /// [`pile`].
    Pile,
    /// [`roof_tower`].
    RoofTower,
    /// [`wall_push`].
    WallPush,
}

named!(SceneKind {
    BoxStack => "box-stack",
    HeavyOnLight => "heavy-on-light",
    Wall => "wall",
    Tower => "tower",
    BallGrid => "ball-grid",
    Pile => "pile",
    RoofTower => "roof-tower",
    WallPush => "wall-push",
});

impl SceneKind {
    /// One line for a `--help`-style listing.
    pub fn summary(self) -> &'static str {
        match self {
            SceneKind::BoxStack => {
                "boxes stacked in a column, each resting on the one below (Erleben 2007 fig. 9)"
            }
            SceneKind::HeavyOnLight => {
                "a box 1000 times heavier resting on a light box (Silcowitz et al. 2009 fig. 9-10)"
            }
            SceneKind::Wall => {
                "a brick wall in running bond, about 200 bricks (Erleben 2007 fig. 10)"
            }
            SceneKind::Tower => {
                "a round tower of bricks, alternate rings turned by half a brick (Erleben 2007 fig. 11)"
            }
            SceneKind::BallGrid => {
                "n x n x n spheres in a bin, initially overlapping by 10% of the radius (Erleben 2007 fig. 13)"
            }
            SceneKind::Pile => "random boxes, spheres and capsules falling into a bin (seeded)",
            SceneKind::RoofTower => {
                "a roof dropped onto a tower of 800 bricks, then a cannon ball (Erleben 2007 fig. 16)"
            }
            SceneKind::WallPush => {
                "a cannon ball shot into a brick wall (Erleben 2007 fig. 10, 16)"
            }
        }
    }

    /// What the `size` of [`build`] sets for this scene, or `None` if the scene has no
    /// size (heavy-on-light).
    pub fn size_meaning(self) -> Option<&'static str> {
        match self {
            SceneKind::BoxStack => Some("number of boxes (default 10)"),
            SceneKind::HeavyOnLight => None,
            SceneKind::Wall => Some("bricks per row, with half as many rows (default 20, 10 rows)"),
            SceneKind::Tower => Some("number of layers of 8 bricks (default 10)"),
            SceneKind::BallGrid => Some("balls per side n, n^3 balls (default 5)"),
            SceneKind::Pile => Some("number of falling bodies (default 60)"),
            SceneKind::RoofTower => Some("number of layers of 20 bricks (default 40)"),
            SceneKind::WallPush => {
                Some("bricks per row, with half as many rows (default 20, 10 rows)")
            }
        }
    }
}

impl fmt::Display for SceneKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The scene `kind` with its default parameters, except its main count `size` when
/// given, and the `seed` of the random scenes.
///
/// | kind | `size` sets | `seed` |
/// |---|---|---|
/// | box-stack | [`BoxStackParams::count`] | ignored |
/// | heavy-on-light | nothing: `Some(_)` is an error | ignored |
/// | wall | [`WallParams::per_row`] = `size`, [`WallParams::rows`] = `max(1, size / 2)` | ignored |
/// | tower | [`TowerParams::layers`] | ignored |
/// | ball-grid | [`BallGridParams::n`] | ignored |
/// | pile | [`PileParams::count`] | [`PileParams::seed`] |
/// | roof-tower | `tower.layers` of [`RoofTowerParams`] | ignored |
/// | wall-push | the wall of [`WallPushParams`] as for wall | ignored |
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for a size given to heavy-on-light, and the errors
/// of the scene's `build` (a size of 0, a size too large for [`MAX_SCENE_BODIES`]).
pub fn build(kind: SceneKind, size: Option<usize>, seed: u64) -> Result<World, MultibodyError> {
    match kind {
        SceneKind::BoxStack => {
            let mut p = BoxStackParams::default();
            if let Some(n) = size {
                p.count = n;
            }
            box_stack::build(&p)
        }
        SceneKind::HeavyOnLight => {
            if let Some(n) = size {
                return Err(invalid(format!(
                    "heavy-on-light has no size (it is always 2 boxes), but a size of {n} was \
                     given; set the mass ratio with HeavyOnLightParams::ratio"
                )));
            }
            heavy_on_light::build(&HeavyOnLightParams::default())
        }
        SceneKind::Wall => {
            let mut p = WallParams::default();
            if let Some(n) = size {
                p.per_row = n;
                p.rows = (n / 2).max(1);
            }
            wall::build(&p)
        }
        SceneKind::Tower => {
            let mut p = TowerParams::default();
            if let Some(n) = size {
                p.layers = n;
            }
            tower::build(&p)
        }
        SceneKind::BallGrid => {
            let mut p = BallGridParams::default();
            if let Some(n) = size {
                p.n = n;
            }
            ball_grid::build(&p)
        }
        SceneKind::Pile => {
            let mut p = PileParams {
                seed,
                ..PileParams::default()
            };
            if let Some(n) = size {
                p.count = n;
            }
            pile::build(&p)
        }
        SceneKind::RoofTower => {
            let mut p = RoofTowerParams::default();
            if let Some(n) = size {
                p.tower.layers = n;
            }
            roof_tower::build(&p)
        }
        SceneKind::WallPush => {
            let mut p = WallPushParams::default();
            if let Some(n) = size {
                p.wall.per_row = n;
                p.wall.rows = (n / 2).max(1);
            }
            wall_push::build(&p)
        }
    }
}

// ---------------------------------------------------------------------------------------
// Helpers shared by the scenes.

fn invalid(reason: String) -> MultibodyError {
    MultibodyError::InvalidScene { reason }
}

/// Checks `min <= n` and that `n` (a number of bodies, or a factor of it) is at most
/// [`MAX_SCENE_BODIES`].
fn check_count(scene: &str, what: &str, n: usize, min: usize) -> Result<(), MultibodyError> {
    if n < min {
        return Err(invalid(format!(
            "{scene}: {what} must be at least {min}, found {n}"
        )));
    }
    if n > MAX_SCENE_BODIES {
        return Err(invalid(format!(
            "{scene}: {what} = {n} is more than the {MAX_SCENE_BODIES} bodies a scene may have"
        )));
    }
    Ok(())
}

/// Checks that the scene's total number of bodies is at most [`MAX_SCENE_BODIES`].
fn check_total(scene: &str, total: Option<usize>) -> Result<usize, MultibodyError> {
    match total {
        Some(t) if t <= MAX_SCENE_BODIES => Ok(t),
        _ => Err(invalid(format!(
            "{scene}: the parameters ask for more than the {MAX_SCENE_BODIES} bodies a scene \
             may have"
        ))),
    }
}

/// Checks a vector of half extents: finite and strictly positive.
fn check_half_extents(what: &'static str, h: &Vector3<f64>) -> Result<(), MultibodyError> {
    h.iter().try_for_each(|&v| check_positive(what, v))
}

/// An empty world (ground at 0, default gravity and margin) whose material 0 has friction
/// `friction` and restitution 0.
fn world_with_friction(friction: f64) -> Result<World, MultibodyError> {
    let mut w = World::new();
    w.set_material(MaterialId(0), Material::new(friction, 0.0)?)?;
    Ok(w)
}

/// Adds an axis-aligned fixed box with its lower corner `lo` and upper corner `hi`.
fn add_fixed_box(
    w: &mut World,
    lo: Vector3<f64>,
    hi: Vector3<f64>,
) -> Result<usize, MultibodyError> {
    let half = (hi - lo) * 0.5;
    let shape = Shape::cuboid(half.x, half.y, half.z)?;
    w.add_fixed(
        shape,
        (lo + hi) * 0.5,
        UnitQuaternion::identity(),
        MaterialId(0),
    )
}

/// Four fixed walls standing on the ground around the rectangle
/// `[-half_x, half_x] x [-half_y, half_y]` (their inner faces), `thickness` thick and
/// `height` high. The walls along `y` (at `x = ±half_x`) fit between the two along `x`,
/// so no two walls overlap. Returns nothing: the walls are bodies of `w`.
fn add_bin_walls(
    w: &mut World,
    half_x: f64,
    half_y: f64,
    thickness: f64,
    height: f64,
) -> Result<(), MultibodyError> {
    let (x, y, t) = (half_x, half_y, thickness);
    // -x and +x walls, between the other two
    add_fixed_box(
        w,
        Vector3::new(-x - t, -y, 0.0),
        Vector3::new(-x, y, height),
    )?;
    add_fixed_box(w, Vector3::new(x, -y, 0.0), Vector3::new(x + t, y, height))?;
    // -y and +y walls, the whole width
    add_fixed_box(
        w,
        Vector3::new(-x - t, -y - t, 0.0),
        Vector3::new(x + t, -y, height),
    )?;
    add_fixed_box(
        w,
        Vector3::new(-x - t, y, 0.0),
        Vector3::new(x + t, y + t, height),
    )?;
    Ok(())
}
