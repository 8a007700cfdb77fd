//! A brick wall hit by a cannon ball (the wall of Erleben 2007 fig. 10 knocked over, as
//! the tower of fig. 16 and 20-22 is): [`wall::build`] and a heavy sphere flying at the
//! middle of its face.
//!
//! The wall runs along `x`, centred at the origin, one brick deep in `y` (half depth `b`),
//! `2 c rows` high. The ball, of radius [`WallPushParams::ball_radius`] (default 0.3 m) and
//! mass [`WallPushParams::ball_mass`] (default 200 kg, about 12 bricks), flies along `+y`
//! in the plane `x = 0` and is aimed with [`cannon::aim`] so that its centre reaches
//! `(0, -(b + r), z_t)` at [`WallPushParams::impact_time`] (default 0.5 s): there its
//! surface touches the wall's face at `y = -b`. `z_t` is half the wall's height (or the
//! ball's radius, if larger). It starts [`WallPushParams::ball_distance`] (default 5 m)
//! before that point at the same height with velocity `(0, distance / T, g T / 2)`:
//! (0, 10, 2.45) m/s by default.
//!
//! Bodies: the wall's bricks as [`wall::build`] numbers them, then the ball (the last
//! body). Only the ball moves at build, and it touches nothing: the contacts at build are
//! the wall's ([`wall::contact_count`]).

use nalgebra::Vector3;

use super::cannon::{self, Shot};
use super::wall::{self, WallParams};
use crate::multibody::{MultibodyError, check_positive};
use crate::world::World;

/// The parameters of [`build`].
#[derive(Debug, Clone, PartialEq)]
pub struct WallPushParams {
    /// The wall. Default [`WallParams::default`] (10 rows of 20 bricks, 2 m high).
    pub wall: WallParams,
    /// Radius of the ball in m (`> 0`). Default 0.3.
    pub ball_radius: f64,
    /// Mass of the ball in kg (`> 0`). Default 200.
    pub ball_mass: f64,
    /// Horizontal distance in m the ball flies before it touches the wall (`> 0`).
    /// Default 5.
    pub ball_distance: f64,
    /// Time in s at which the ball touches the wall (`> 0`). Default 0.5.
    pub impact_time: f64,
}

impl Default for WallPushParams {
    fn default() -> Self {
        WallPushParams {
            wall: WallParams::default(),
            ball_radius: 0.3,
            ball_mass: 200.0,
            ball_distance: 5.0,
            impact_time: 0.5,
        }
    }
}

impl WallPushParams {
    /// The height in m at which the ball hits: half the wall's height `c rows`, or the
    /// ball's radius if larger.
    pub fn target_height(&self) -> f64 {
        (self.wall.half_extents.z * self.wall.rows as f64).max(self.ball_radius)
    }

    /// The ball's centre in m when it touches the wall: `(0, -(b + r), z_t)`.
    pub fn impact_point(&self) -> Vector3<f64> {
        Vector3::new(
            0.0,
            -(self.wall.half_extents.y + self.ball_radius),
            self.target_height(),
        )
    }

    /// The ball's start under gravity `(0, 0, -g)`.
    ///
    /// # Errors
    /// As [`cannon::aim`].
    pub fn shot(&self, g: f64) -> Result<Shot, MultibodyError> {
        cannon::aim(
            self.impact_point(),
            Vector3::y(),
            self.ball_distance,
            self.impact_time,
            g,
        )
    }
}

/// The wall at rest and the ball in flight (see the module documentation).
///
/// # Errors
/// As [`wall::build`]; [`MultibodyError::NonPositive`] or [`MultibodyError::NonFinite`]
/// for a ball radius, mass, distance or time that is not finite and positive.
pub fn build(p: &WallPushParams) -> Result<World, MultibodyError> {
    let mut w = wall::build(&p.wall)?;
    check_positive("cannon ball radius", p.ball_radius)?;
    check_positive("cannon ball mass", p.ball_mass)?;
    let shot = p.shot(-w.gravity().z)?;
    shot.add_ball(&mut w, p.ball_radius, p.ball_mass)?;
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_contacts() {
        let p = WallPushParams::default();
        let w = build(&p).unwrap();
        assert_eq!(w.bodies().len(), wall::body_count(10, 20) + 1);
        assert_eq!(w.contacts().unwrap().len(), wall::contact_count(10, 20));
        let ball = &w.bodies().last().unwrap().body;
        assert_eq!(ball.mass, 200.0);
        assert!((ball.linear_velocity - Vector3::new(0.0, 10.0, 2.4525)).norm() < 1e-12);
        assert_eq!(build(&p).unwrap(), w);
    }

    /// Integrates the built ball's flight (semi-implicit Euler, 0.1 ms steps) until its
    /// surface reaches the wall's face: at the stated time and height.
    #[test]
    fn the_ball_reaches_the_wall_at_the_impact_time() {
        for rows in [1, 10] {
            let p = WallPushParams {
                wall: WallParams {
                    rows,
                    ..WallParams::default()
                },
                ..WallPushParams::default()
            };
            let w = build(&p).unwrap();
            let b = &w.bodies().last().unwrap().body;
            let (mut x, mut v, mut t) = (b.position, b.linear_velocity, 0.0);
            let face = -p.wall.half_extents.y;
            while x.y + p.ball_radius < face && t < 10.0 {
                // (a step of h arrives g h T / 2 = 0.6 mm low: the cannon module)
                assert!(x.z >= p.ball_radius - 1e-3, "the ball touched the ground");
                v += w.gravity() * 1e-4;
                x += v * 1e-4;
                t += 1e-4;
            }
            assert!((t - p.impact_time).abs() < 2e-3, "{rows} rows: at {t} s");
            assert!(
                (x.z - p.target_height()).abs() < 1e-2,
                "{rows}: at {} m",
                x.z
            );
        }
    }

    #[test]
    fn bad_parameters_are_errors() {
        let bad: Vec<fn(&mut WallPushParams)> = vec![
            |p| p.wall.rows = 0,
            |p| p.ball_radius = 0.0,
            |p| p.ball_mass = f64::NAN,
            |p| p.ball_distance = -5.0,
            |p| p.impact_time = 0.0,
        ];
        for (k, f) in bad.into_iter().enumerate() {
            let mut p = WallPushParams::default();
            f(&mut p);
            assert!(build(&p).is_err(), "{k}");
        }
    }
}
