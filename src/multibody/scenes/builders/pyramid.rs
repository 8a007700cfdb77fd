//! The pyramid: courses shrinking by one box, each box on two below,
//! `4b + 4b(b-1) + 2b(b-1)` contacts (Erleben 2007 §5).

use crate::multibody::MultibodyError;
use crate::multibody::scenes::layout::{course, finish, need_positive};
use crate::multibody::scenes::params::SceneParams;
use crate::multibody::scenes::scene::Scene;
use crate::multibody::scenes::sizing::{SceneSpec, check_size};

/// A pyramid with `base` boxes in the bottom course, default parameters
/// ([`SceneParams::cubes`]).
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `base = 0`.
pub fn pyramid(base: usize) -> Result<Scene, MultibodyError> {
    pyramid_with(base, &SceneParams::cubes())
}

/// A pyramid with parameters `p`: course `k` (from 0 at the bottom) has `base - k`
/// boxes, shifted by half a pitch (`(2a + gap) / 2`) from the course below, so each box
/// above the first course rests on two boxes.
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `base = 0`, and [`SceneParams::validate`].
pub fn pyramid_with(base: usize, p: &SceneParams) -> Result<Scene, MultibodyError> {
    p.validate()?;
    need_positive("the pyramid base", base)?;
    check_size(SceneSpec::Pyramid { base }, p)?;
    let h = p.half_extents;
    let pitch = 2.0 * h.x + p.gap;
    let courses = (0..base)
        .map(|k| course(base - k, h, 0.5 * pitch * k as f64, 2.0 * h.z * k as f64, p))
        .collect();
    finish(
        format!("pyramid_{base}"),
        format!("a pyramid of {base} courses, {base} boxes at the base, each box above on two"),
        courses,
        p,
    )
}
