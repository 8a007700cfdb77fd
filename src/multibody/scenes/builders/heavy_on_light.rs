//! Heavy on light: a heavy cube on a light cube on the ground, 8 contacts (Silcowitz et
//! al. 2009, large mass ratio).

use crate::multibody::scenes::layout::{course, finish};
use crate::multibody::scenes::params::SceneParams;
use crate::multibody::scenes::scene::Scene;
use crate::multibody::{MultibodyError, check_positive};

/// A heavy box on a light box on the ground; the top box is `mass_ratio` times as dense
/// as the bottom one (same size). Default parameters ([`SceneParams::cubes`]: a 1 kg
/// box under a `mass_ratio` kg box). 1000 is the reference case (Silcowitz et al. 2009
/// use large mass ratios to defeat splitting methods). 8 contacts.
///
/// # Errors
/// [`MultibodyError::NonPositive`] or [`MultibodyError::NonFinite`] for a ratio that is
/// not a positive number.
pub fn heavy_on_light(mass_ratio: f64) -> Result<Scene, MultibodyError> {
    heavy_on_light_with(mass_ratio, &SceneParams::cubes())
}

/// [`heavy_on_light`] with parameters `p` (`p.density` is the light box's).
///
/// # Errors
/// As [`heavy_on_light`], and [`SceneParams::validate`].
pub fn heavy_on_light_with(mass_ratio: f64, p: &SceneParams) -> Result<Scene, MultibodyError> {
    p.validate()?;
    check_positive("mass ratio", mass_ratio)?;
    let h = p.half_extents;
    let bottom = course(1, h, 0.0, 0.0, p);
    let mut top = course(1, h, 0.0, 2.0 * h.z, p);
    top[0].density = p.density * mass_ratio;
    finish(
        format!("heavy_on_light_{mass_ratio}"),
        format!(
            "a box {mass_ratio} times as heavy as the box it rests on, which rests on the ground"
        ),
        vec![bottom, top],
        p,
    )
}
