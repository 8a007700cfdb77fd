//! The falling roof and the cannon ball (Erleben 2007 section 5, fig. 16 and 20-22): a
//! round brick tower, a heavy slab (the "roof") dropped onto its top, and a heavy ball
//! shot at it so that it collapses.
//!
//! The paper's tower is 40 rings high with 800 bricks (20 a ring) and is simulated with a
//! time step of 0.01 s and 10 iterations under velocity-based shock propagation; the roof
//! lands, comes to rest, and the ball hits the tower around frames 110-140 (fig. 20-22).
//! The paper gives no sizes or masses for the roof and the ball; the defaults here are
//! chosen to match its description ("a large block", "a canonball"), and are stated
//! below.
//!
//! * The tower is [`tower::build`] with [`RoofTowerParams::tower`]: by default 40 rings of
//!   20 bricks of 0.4 x 0.2 x 0.2 m, 16 kg each, on the circle of radius
//!   [`TowerParams::radius`] (1.38 m; the outer faces at 1.48 m), 8 m high.
//! * The roof is a box of half extents [`RoofTowerParams::roof_half_extents`] (default
//!   3.6 x 3.6 x 0.5 m, wider than the tower) and mass [`RoofTowerParams::roof_mass`]
//!   (default 3000 kg, about 190 bricks), centred on the tower's axis, at rest, its bottom
//!   [`RoofTowerParams::roof_drop`] (default 1 m) above the tower's top: it lands after
//!   `sqrt(2 drop / g)` = 0.45 s at `sqrt(2 g drop)` = 4.4 m/s.
//! * The cannon ball is a sphere of radius [`RoofTowerParams::ball_radius`] (default
//!   0.4 m) and mass [`RoofTowerParams::ball_mass`] (default 500 kg), flying along `+x`
//!   in the plane `y = 0`. It is aimed with [`cannon::aim`] so that its centre reaches
//!   `(-(R + b + r), 0, z_t)` at [`RoofTowerParams::impact_time`] (default 1.2 s, frame
//!   120 at 0.01 s): there its surface touches the outer face of the bricks of the even
//!   rings that face `-x` (`R + b` from the axis). `z_t` is half the tower's height (or
//!   the ball's radius, if larger). It starts [`RoofTowerParams::ball_distance`] (default
//!   12 m) before that point at the same height, with velocity
//!   `(distance / T, 0, g T / 2)`: (10, 0, 5.89) m/s by default, the top of its arc
//!   `g T² / 8` = 1.77 m above `z_t`, below the tower's top.
//!
//! Bodies: the bricks ring by ring as [`tower::build`] numbers them, then the roof
//! ([`RoofTowerParams::roof_index`]), then the ball ([`RoofTowerParams::ball_index`]).
//! Only the ball moves at build; the roof and the ball touch nothing, so the contacts at
//! build are the tower's.

use nalgebra::{UnitQuaternion, Vector3};

use super::cannon::{self, Shot};
use super::tower::{self, TowerParams};
use crate::multibody::{MultibodyError, check_positive};
use crate::world::{MaterialId, Shape, World};

/// The parameters of [`build`].
#[derive(Debug, Clone, PartialEq)]
pub struct RoofTowerParams {
    /// The tower. Default [`TowerParams::default`] with 40 rings of 20 bricks (800 bricks,
    /// Erleben 2007 section 5).
    pub tower: TowerParams,
    /// Half extents of the roof in m (`> 0`). Default `(1.8, 1.8, 0.25)`.
    pub roof_half_extents: Vector3<f64>,
    /// Mass of the roof in kg (`> 0`). Default 3000.
    pub roof_mass: f64,
    /// Height in m of the roof's bottom above the tower's top at build (`> 0`). Default 1.
    pub roof_drop: f64,
    /// Radius of the cannon ball in m (`> 0`). Default 0.4.
    pub ball_radius: f64,
    /// Mass of the cannon ball in kg (`> 0`). Default 500.
    pub ball_mass: f64,
    /// Horizontal distance in m the ball flies before it touches the tower (`> 0`).
    /// Default 12.
    pub ball_distance: f64,
    /// Time in s at which the ball touches the tower (`> 0`). Default 1.2.
    pub impact_time: f64,
}

impl Default for RoofTowerParams {
    fn default() -> Self {
        RoofTowerParams {
            tower: TowerParams {
                layers: 40,
                per_layer: 20,
                ..TowerParams::default()
            },
            roof_half_extents: Vector3::new(1.8, 1.8, 0.25),
            roof_mass: 3000.0,
            roof_drop: 1.0,
            ball_radius: 0.4,
            ball_mass: 500.0,
            ball_distance: 12.0,
            impact_time: 1.2,
        }
    }
}

impl RoofTowerParams {
    /// The tower's height in m: `2 c layers` for bricks of half height `c`.
    pub fn tower_height(&self) -> f64 {
        2.0 * self.tower.half_extents.z * self.tower.layers as f64
    }

    /// The distance in m from the axis to the outer face of a brick, `R + b`
    /// ([`TowerParams::radius`] plus the brick's half depth).
    pub fn outer_radius(&self) -> f64 {
        self.tower.radius() + self.tower.half_extents.y
    }

    /// The height in m at which the ball hits: half the tower's height, or the ball's
    /// radius if larger (so that the ball starts above the ground).
    pub fn target_height(&self) -> f64 {
        (0.5 * self.tower_height()).max(self.ball_radius)
    }

    /// The ball's centre in m when it touches the tower: `(-(R + b + r), 0, z_t)`.
    pub fn impact_point(&self) -> Vector3<f64> {
        Vector3::new(
            -(self.outer_radius() + self.ball_radius),
            0.0,
            self.target_height(),
        )
    }

    /// The ball's start under gravity `(0, 0, -g)` (see the module documentation).
    ///
    /// # Errors
    /// As [`cannon::aim`].
    pub fn shot(&self, g: f64) -> Result<Shot, MultibodyError> {
        cannon::aim(
            self.impact_point(),
            Vector3::x(),
            self.ball_distance,
            self.impact_time,
            g,
        )
    }

    /// The roof's body index: after the `layers per_layer` bricks.
    pub fn roof_index(&self) -> usize {
        self.tower.layers * self.tower.per_layer
    }

    /// The ball's body index: the last body.
    pub fn ball_index(&self) -> usize {
        self.roof_index() + 1
    }
}

/// The tower, the roof above it at rest and the ball in flight (see the module
/// documentation).
///
/// # Errors
/// As [`tower::build`] for the tower; [`MultibodyError::NonPositive`] or
/// [`MultibodyError::NonFinite`] for a roof or ball size or mass, a drop, distance or
/// time that is not finite and positive.
pub fn build(p: &RoofTowerParams) -> Result<World, MultibodyError> {
    let mut w = tower::build(&p.tower)?;
    super::check_half_extents("roof half extent", &p.roof_half_extents)?;
    check_positive("roof mass", p.roof_mass)?;
    check_positive("roof drop height", p.roof_drop)?;
    check_positive("cannon ball radius", p.ball_radius)?;
    check_positive("cannon ball mass", p.ball_mass)?;
    let shot = p.shot(-w.gravity().z)?;
    let h = p.roof_half_extents;
    let roof = Shape::cuboid(h.x, h.y, h.z)?;
    let top = p.tower_height();
    w.add_with_mass(
        roof,
        p.roof_mass,
        Vector3::new(0.0, 0.0, top + p.roof_drop + h.z),
        UnitQuaternion::identity(),
        MaterialId(0),
    )?;
    shot.add_ball(&mut w, p.ball_radius, p.ball_mass)?;
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multibody::MultibodyError;

    fn small() -> RoofTowerParams {
        let mut p = RoofTowerParams::default();
        p.tower.layers = 6;
        p
    }

    #[test]
    fn counts_and_indices() {
        let p = small();
        let w = build(&p).unwrap();
        assert_eq!(w.bodies().len(), 6 * 20 + 2);
        assert_eq!(p.roof_index(), 120);
        assert_eq!(p.ball_index(), 121);
        assert_eq!(w.bodies()[120].body.mass, 3000.0);
        assert_eq!(w.bodies()[121].body.mass, 500.0);
        // only the tower touches anything at build
        let cs = w.contacts().unwrap();
        let tower = tower::build(&p.tower).unwrap().contacts().unwrap();
        assert_eq!(cs.len(), tower.len());
        assert!(cs.iter().all(|c| c.id.b < 120));
        // the roof is above the tower's top, wider than the tower
        let roof = &w.bodies()[120].body;
        assert_eq!(roof.position.z - 0.25, p.tower_height() + p.roof_drop);
        assert!(p.roof_half_extents.x > p.outer_radius());
    }

    #[test]
    fn default_is_the_papers_tower_of_800_bricks() {
        let p = RoofTowerParams::default();
        assert_eq!(p.roof_index(), 800);
        assert_eq!(p.tower_height(), 8.0);
        let s = p.shot(9.81).unwrap();
        assert!((s.velocity - Vector3::new(10.0, 0.0, 5.886)).norm() < 1e-12);
    }

    #[test]
    fn deterministic() {
        assert_eq!(build(&small()).unwrap(), build(&small()).unwrap());
    }

    /// Integrates the built ball's flight (semi-implicit Euler, 0.1 ms steps, from the
    /// position and velocity `build` gave it and the world's gravity) until its surface
    /// reaches the tower's outer radius: at the stated time and height.
    #[test]
    fn the_ball_reaches_the_tower_at_the_impact_time() {
        for layers in [1, 4, 40] {
            let mut p = RoofTowerParams::default();
            p.tower.layers = layers;
            let w = build(&p).unwrap();
            let b = &w.bodies()[p.ball_index()].body;
            let g = *w.gravity();
            let (mut x, mut v, mut t) = (b.position, b.linear_velocity, 0.0);
            let h = 1e-4;
            while x.x + p.ball_radius < -p.outer_radius() && t < 10.0 {
                // (a step of h arrives g h T / 2 = 0.6 mm low: the cannon module)
                assert!(x.z >= p.ball_radius - 1e-3, "the ball touched the ground");
                // the default ball flies below the top of the default tower
                assert!(layers < 40 || x.z + p.ball_radius < p.tower_height());
                v += g * h;
                x += v * h;
                t += h;
            }
            assert!((t - p.impact_time).abs() < 2e-3, "{layers} rings: at {t} s");
            assert!(
                (x.z - p.target_height()).abs() < 1e-2,
                "{layers}: at {} m",
                x.z
            );
            assert!(x.y == 0.0);
        }
    }

    #[test]
    fn bad_parameters_are_errors() {
        let bad: Vec<fn(&mut RoofTowerParams)> = vec![
            |p| p.tower.layers = 0,
            |p| p.tower.per_layer = 2,
            |p| p.roof_mass = 0.0,
            |p| p.roof_mass = f64::NAN,
            |p| p.roof_half_extents.x = -1.0,
            |p| p.roof_drop = 0.0,
            |p| p.ball_radius = -0.1,
            |p| p.ball_mass = f64::INFINITY,
            |p| p.ball_distance = 0.0,
            |p| p.impact_time = -1.0,
            |p| p.impact_time = f64::NAN,
        ];
        for (k, f) in bad.into_iter().enumerate() {
            let mut p = small();
            f(&mut p);
            let e = build(&p).unwrap_err();
            assert!(
                matches!(
                    e,
                    MultibodyError::InvalidScene { .. }
                        | MultibodyError::NonPositive { .. }
                        | MultibodyError::NonFinite { .. }
                ),
                "{k}: {e}"
            );
        }
    }
}
