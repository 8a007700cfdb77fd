//! The parameters of a generated scene: box size, density, friction, gap between
//! neighbours, how the ground is represented, and the step parameters.

use nalgebra::Vector3;

use super::super::assembly::StepParams;
use super::super::{MultibodyError, check_finite, check_positive};

/// How the ground is represented.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Ground {
    /// The static world ([`BodyRef::World`](crate::multibody::BodyRef::World)): no body, contacts have one side.
    #[default]
    World,
    /// A fixed box (body 0) under the whole scene, its top face at `z = 0`, reaching
    /// one box size beyond the scene on every side, as thick as one box is high.
    FixedBody,
}

/// The parameters of a generated scene.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneParams {
    /// Half extents `(a, b, c)` of one box, in m, along `x` (the course), `y` (depth)
    /// and `z` (height). Half bricks in a wall are half as long.
    pub half_extents: Vector3<f64>,
    /// Density in kg/m^3 (for [`heavy_on_light`](super::heavy_on_light), of the light box).
    pub density: f64,
    /// Friction coefficient of every contact (`>= 0`).
    pub mu: f64,
    /// Horizontal gap in m between neighbours in a course (`>= 0`, less than a box's
    /// length). 0 makes their faces touch, which adds side contacts.
    pub gap: f64,
    /// The ground.
    pub ground: Ground,
    /// Time step, gravity and friction law.
    pub step: StepParams,
}

impl Default for SceneParams {
    /// [`SceneParams::cubes`].
    fn default() -> Self {
        SceneParams::cubes()
    }
}

impl SceneParams {
    /// 0.1 m cubes (half extents 0.05 m) of density 1000 kg/m^3 (1 kg each), `mu = 0.5`,
    /// no gap, ground as the world, default [`StepParams`] (`dt = 0.01` s, gravity
    /// `(0, 0, -9.81)` m/s^2, Coulomb).
    pub fn cubes() -> Self {
        SceneParams {
            half_extents: Vector3::new(0.05, 0.05, 0.05),
            density: 1000.0,
            mu: 0.5,
            gap: 0.0,
            ground: Ground::World,
            step: StepParams::default(),
        }
    }

    /// As [`SceneParams::cubes`] but with 0.2 x 0.1 x 0.05 m bricks (half extents
    /// `(0.1, 0.05, 0.025)` m), also 1 kg each.
    pub fn bricks() -> Self {
        SceneParams {
            half_extents: Vector3::new(0.1, 0.05, 0.025),
            ..SceneParams::cubes()
        }
    }

    /// Checks the parameters.
    ///
    /// # Errors
    /// [`MultibodyError::NonPositive`] for a half extent or density `<= 0`,
    /// [`MultibodyError::NegativeFriction`] for `mu < 0`, [`MultibodyError::InvalidScene`]
    /// for a negative gap or one of a box length or more, [`MultibodyError::NonFinite`],
    /// and the errors of [`StepParams::validate`].
    pub fn validate(&self) -> Result<(), MultibodyError> {
        for &h in self.half_extents.iter() {
            check_positive("box half extent", h)?;
        }
        check_positive("density", self.density)?;
        check_finite("friction coefficient", &[self.mu, self.gap])?;
        if self.mu < 0.0 {
            return Err(MultibodyError::NegativeFriction {
                contact: None,
                mu: self.mu,
            });
        }
        if !(self.gap >= 0.0 && self.gap < 2.0 * self.half_extents.x) {
            return Err(MultibodyError::InvalidScene {
                reason: format!(
                    "the gap {} m must be >= 0 and less than a box length {} m",
                    self.gap,
                    2.0 * self.half_extents.x
                ),
            });
        }
        self.step.validate()
    }

    pub(super) fn describe(&self) -> String {
        let h = &self.half_extents;
        let g = &self.step.gravity;
        format!(
            "box half extents ({}, {}, {}) m, density {} kg/m^3, mu {}, gap {} m, ground {}, \
             dt {} s, gravity ({}, {}, {}) m/s^2, law {}; all bodies at rest",
            h.x,
            h.y,
            h.z,
            self.density,
            self.mu,
            self.gap,
            match self.ground {
                Ground::World => "world",
                Ground::FixedBody => "fixed body 0",
            },
            self.step.dt,
            g.x,
            g.y,
            g.z,
            self.step.kind
        )
    }
}
