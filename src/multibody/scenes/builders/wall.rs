//! The wall: bricks in running bond, courses offset by half a brick,
//! `4c + 8c(r-1) + 4(e(c-1) + o c)` contacts (Erleben 2007 §5, dense structured
//! stacking).

use nalgebra::Vector3;

use crate::multibody::MultibodyError;
use crate::multibody::scenes::layout::{course, finish, need_positive};
use crate::multibody::scenes::params::SceneParams;
use crate::multibody::scenes::scene::Scene;
use crate::multibody::scenes::sizing::{SceneSpec, check_size};

/// A wall of `rows` courses of bricks in running bond, default parameters
/// ([`SceneParams::bricks`]).
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `rows = 0` or `cols = 0`.
pub fn wall(rows: usize, cols: usize) -> Result<Scene, MultibodyError> {
    wall_with(rows, cols, &SceneParams::bricks())
}

/// A wall of `rows` courses in running bond with parameters `p`: even courses (from 0,
/// at the bottom) are `cols` whole bricks; odd courses are offset by half a brick, so
/// they are a half brick, `cols - 1` whole bricks and a half brick (ends flush). Every
/// brick of an even course above the first rests on two pieces below. With gap `g`, a
/// half brick is `(2a - g) / 2` long so the ends stay flush.
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `rows = 0` or `cols = 0`, and
/// [`SceneParams::validate`].
pub fn wall_with(rows: usize, cols: usize, p: &SceneParams) -> Result<Scene, MultibodyError> {
    p.validate()?;
    need_positive("the number of rows", rows)?;
    need_positive("the number of columns", cols)?;
    check_size(SceneSpec::Wall { rows, cols }, p)?;
    let h = p.half_extents;
    let half_brick = Vector3::new(0.5 * h.x - 0.25 * p.gap, h.y, h.z);
    let courses = (0..rows)
        .map(|r| {
            let z0 = 2.0 * h.z * r as f64;
            if r % 2 == 0 {
                course(cols, h, 0.0, z0, p)
            } else {
                let mut c = course(1, half_brick, 0.0, z0, p);
                let x0 = 2.0 * half_brick.x + p.gap;
                c.extend(course(cols - 1, h, x0, z0, p));
                let x1 = x0 + (cols - 1) as f64 * (2.0 * h.x + p.gap);
                c.extend(course(1, half_brick, x1, z0, p));
                c
            }
        })
        .collect();
    finish(
        format!("wall_{rows}x{cols}"),
        format!(
            "a wall of {rows} courses of {cols} bricks in running bond (odd courses: half, \
             {} whole, half)",
            cols - 1
        ),
        courses,
        p,
    )
}
