//! Aiming a cannon ball: the launch position and velocity that bring a ball, under
//! gravity alone, to a target point at a chosen time (used by [`super::roof_tower`] and
//! [`super::wall_push`]; the cannon ball of Erleben 2007 fig. 16, 20-22).
//!
//! The ball starts at the target's height, `distance` before it along a horizontal
//! direction `d`, and flies on the parabola
//!
//! ```text
//! x(t) = x0 + (distance / T) d t,    z(t) = z0 + (g T / 2) t - g t² / 2
//! ```
//!
//! (`g > 0` the magnitude of gravity along `-z`), which is back at height `z0` at
//! `t = T`, `distance` further along `d`, and rises `g T² / 8` above `z0` at `t = T / 2`.
//! These are the exact solutions of the equations of motion; a semi-implicit Euler step of
//! size `h` (the stepper's position update after its velocity update) follows the same
//! horizontal motion and arrives `g h T / 2` lower (6 cm for `h = 0.01` s, `T = 1.2` s).

use nalgebra::Vector3;

use super::invalid;
use crate::multibody::{MultibodyError, check_positive};
use crate::world::{MaterialId, Shape, World};

/// Where a ball starts and how fast, from [`aim`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shot {
    /// The ball's centre at `t = 0` in m.
    pub position: Vector3<f64>,
    /// The ball's velocity at `t = 0` in m/s.
    pub velocity: Vector3<f64>,
}

impl Shot {
    /// The centre at time `t` (s) of the exact flight under gravity `(0, 0, -g)` (m/s²).
    pub fn at(&self, t: f64, g: f64) -> Vector3<f64> {
        self.position + self.velocity * t - Vector3::new(0.0, 0.0, 0.5 * g * t * t)
    }

    /// Adds to `world` a solid ball of radius `radius` (m) and mass `mass` (kg), material
    /// 0, at the shot's position with its velocity (no spin), and returns its index.
    ///
    /// # Errors
    /// As [`Shape::sphere`], [`Shape::body_with_mass`] and [`World::add_body`] (a radius
    /// or mass that is not finite and positive).
    pub fn add_ball(
        &self,
        world: &mut World,
        radius: f64,
        mass: f64,
    ) -> Result<usize, MultibodyError> {
        let ball = Shape::sphere(radius)?;
        let body = ball
            .body_with_mass(mass, self.position)?
            .with_velocity(self.velocity, Vector3::zeros());
        world.add_body(body, ball, MaterialId(0))
    }
}

/// The shot whose centre reaches `target` (m) at time `time` (s, `> 0`) after flying
/// `distance` (m, `> 0`) horizontally along `direction` (any horizontal vector, normalised
/// here) under gravity `(0, 0, -g)` with `g > 0` (m/s²); see the module documentation.
///
/// # Errors
/// [`MultibodyError::NonPositive`] or [`MultibodyError::NonFinite`] for a distance, time
/// or `g` that is not finite and positive, [`MultibodyError::NonFinite`] for a target that
/// is not finite, [`MultibodyError::InvalidScene`] for a direction that is not horizontal
/// and nonzero.
pub fn aim(
    target: Vector3<f64>,
    direction: Vector3<f64>,
    distance: f64,
    time: f64,
    g: f64,
) -> Result<Shot, MultibodyError> {
    check_positive("cannon ball flight distance", distance)?;
    check_positive("cannon ball flight time", time)?;
    check_positive("gravity", g)?;
    crate::multibody::check_finite("cannon ball target", target.as_slice())?;
    let n = direction.norm();
    if !(n.is_finite() && n > 0.0 && direction.z == 0.0) {
        return Err(invalid(format!(
            "cannon: the direction of flight must be horizontal and nonzero, found {direction:?}"
        )));
    }
    let d = direction / n;
    let position = target - d * distance;
    let velocity = d * (distance / time) + Vector3::new(0.0, 0.0, 0.5 * g * time);
    Ok(Shot { position, velocity })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exact_flight_reaches_the_target_at_the_time() {
        let target = Vector3::new(1.0, 2.0, 3.0);
        let s = aim(target, Vector3::new(3.0, 4.0, 0.0), 10.0, 1.25, 9.81).unwrap();
        assert!((s.at(1.25, 9.81) - target).norm() < 1e-12);
        assert!((s.position - target + Vector3::new(6.0, 8.0, 0.0)).norm() < 1e-12);
        // the apex, g T² / 8 above the target's height, at T / 2
        let apex = s.at(0.625, 9.81).z - target.z;
        assert!((apex - 9.81 * 1.25 * 1.25 / 8.0).abs() < 1e-12);
    }

    #[test]
    fn bad_aims_are_errors() {
        let t = Vector3::zeros();
        let x = Vector3::x();
        assert!(aim(t, x, 0.0, 1.0, 9.81).is_err());
        assert!(aim(t, x, 1.0, -1.0, 9.81).is_err());
        assert!(aim(t, x, 1.0, f64::NAN, 9.81).is_err());
        assert!(aim(t, x, 1.0, 1.0, 0.0).is_err());
        assert!(aim(t, Vector3::z(), 1.0, 1.0, 9.81).is_err());
        assert!(aim(t, Vector3::zeros(), 1.0, 1.0, 9.81).is_err());
        assert!(aim(Vector3::new(f64::NAN, 0.0, 0.0), x, 1.0, 1.0, 9.81).is_err());
    }
}
