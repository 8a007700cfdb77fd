//! The box stack: a column of `n` cubes on the ground, `4n` contacts (Erleben 2007 §5,
//! stacking).

use crate::multibody::MultibodyError;
use crate::multibody::scenes::layout::{course, finish, need_positive};
use crate::multibody::scenes::params::SceneParams;
use crate::multibody::scenes::scene::Scene;
use crate::multibody::scenes::sizing::{SceneSpec, check_size};

/// A column of `n` boxes on the ground, default parameters ([`SceneParams::cubes`]).
/// `4n` contacts.
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `n = 0`.
pub fn box_stack(n: usize) -> Result<Scene, MultibodyError> {
    box_stack_with(n, &SceneParams::cubes())
}

/// A column of `n` boxes on the ground with parameters `p`. Body `i` (after the ground,
/// if it is a body) is the `i`-th from the bottom; contacts `4i..4i+4` are under it.
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `n = 0`, and [`SceneParams::validate`].
pub fn box_stack_with(n: usize, p: &SceneParams) -> Result<Scene, MultibodyError> {
    p.validate()?;
    need_positive("the number of boxes", n)?;
    check_size(SceneSpec::BoxStack { n }, p)?;
    let h = p.half_extents;
    let courses = (0..n)
        .map(|k| course(1, h, 0.0, 2.0 * h.z * k as f64, p))
        .collect();
    finish(
        format!("box_stack_{n}"),
        format!("a stack of {n} boxes resting on the ground"),
        courses,
        p,
    )
}
