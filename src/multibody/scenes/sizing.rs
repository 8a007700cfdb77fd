//! Sizing scenes: [`SceneKind`] and [`SceneSpec`] with the closed-form contact counts,
//! the search for the scene nearest a target number of contacts ([`sized_for`]) and the
//! cap [`MAX_SCENE_CONTACTS`] every generator checks.

use super::super::MultibodyError;
use super::layout::need_positive;
use super::params::SceneParams;
use super::scene::Scene;
use super::{box_stack_with, pyramid_with, wall_with};

/// The largest scene the generators build: at most this many contacts (one million).
/// A scene of `nc` contacts needs about 1 KB per contact while it is assembled (bodies,
/// Jacobian, `W`), so the cap keeps a generated scene within a few GB; a size read from a
/// command line or a file can never make a generator allocate without bound.
pub const MAX_SCENE_CONTACTS: usize = 1_000_000;

/// Fails unless `spec` has at most [`MAX_SCENE_CONTACTS`] contacts.
pub(super) fn check_size(spec: SceneSpec, p: &SceneParams) -> Result<(), MultibodyError> {
    let count = spec.contact_count(p);
    if count > MAX_SCENE_CONTACTS {
        let size = match spec {
            SceneSpec::BoxStack { n } => format!("a stack of {n} boxes"),
            SceneSpec::Wall { rows, cols } => format!("a wall of {rows} x {cols} bricks"),
            SceneSpec::Pyramid { base } => format!("a pyramid of base {base}"),
        };
        let count = if count == usize::MAX {
            "more than 2^64".to_string()
        } else {
            count.to_string()
        };
        return Err(MultibodyError::InvalidScene {
            reason: format!(
                "{size} would have {count} contacts; the generators build at most \
                 {MAX_SCENE_CONTACTS}"
            ),
        });
    }
    Ok(())
}

/// The kinds of scene that can be sized for a number of contacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SceneKind {
    /// [`box_stack`](super::box_stack).
    BoxStack,
    /// [`wall`](super::wall) with as many rows as columns.
    Wall,
    /// [`pyramid`](super::pyramid).
    Pyramid,
}

/// A scene kind with its dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SceneSpec {
    /// A stack of `n` boxes.
    BoxStack {
        /// Number of boxes.
        n: usize,
    },
    /// A wall of `rows` courses of `cols` bricks.
    Wall {
        /// Number of courses.
        rows: usize,
        /// Whole bricks per even course.
        cols: usize,
    },
    /// A pyramid.
    Pyramid {
        /// Boxes in the bottom course.
        base: usize,
    },
}

impl SceneSpec {
    /// The number of contacts the scene has, in closed form (side contacts count only
    /// when `p.gap == 0`). Saturates instead of overflowing.
    pub fn contact_count(&self, p: &SceneParams) -> usize {
        let side = p.gap == 0.0;
        let s = |n: usize| if side { n } else { 0 };
        match *self {
            SceneSpec::BoxStack { n } => n.saturating_mul(4),
            SceneSpec::Wall { rows, cols } => {
                if rows == 0 || cols == 0 {
                    return 0;
                }
                let (even, odd) = (rows.div_ceil(2), rows / 2);
                let joints = even
                    .saturating_mul(cols - 1)
                    .saturating_add(odd.saturating_mul(cols));
                cols.saturating_mul(4)
                    .saturating_add(cols.saturating_mul(8).saturating_mul(rows - 1))
                    .saturating_add(s(joints.saturating_mul(4)))
            }
            SceneSpec::Pyramid { base } => {
                if base == 0 {
                    return 0;
                }
                let pairs = base.saturating_mul(base - 1);
                base.saturating_mul(4)
                    .saturating_add(pairs.saturating_mul(4))
                    .saturating_add(s(pairs.saturating_mul(2)))
            }
        }
    }

    /// A scene of `kind` with at least `target` contacts and close to it (at least one
    /// box):
    ///
    /// * box stack: `ceil(target / 4)` boxes;
    /// * wall: the largest `rows` whose square wall (`rows = cols`) has at most
    ///   `target` contacts, then the fewest `cols` that reach `target` (so
    ///   `cols >= rows`, and the overshoot is less than one column, about
    ///   `12 rows ~ 3 sqrt(target)` contacts);
    /// * pyramid: the smallest base that reaches `target` (one parameter only, so the
    ///   overshoot is up to about `12 base ~ 4 sqrt(target)` contacts).
    ///
    /// # Errors
    /// [`MultibodyError::InvalidScene`] for `target = 0`, or `target` above
    /// [`MAX_SCENE_CONTACTS`] (checked before searching, so the search is bounded), or a
    /// nearest scene whose overshoot takes it above the cap.
    pub fn for_contacts(
        kind: SceneKind,
        target: usize,
        p: &SceneParams,
    ) -> Result<SceneSpec, MultibodyError> {
        need_positive("the number of contacts", target)?;
        if target > MAX_SCENE_CONTACTS {
            return Err(MultibodyError::InvalidScene {
                reason: format!(
                    "{target} contacts asked for; the generators build at most {MAX_SCENE_CONTACTS}"
                ),
            });
        }
        // Every search below ends: each step adds contacts, and the target is capped.
        let spec = match kind {
            SceneKind::BoxStack => SceneSpec::BoxStack {
                n: target.div_ceil(4),
            },
            SceneKind::Wall => {
                let count = |rows, cols| SceneSpec::Wall { rows, cols }.contact_count(p);
                let mut rows = 1;
                while count(rows + 1, rows + 1) <= target {
                    rows += 1;
                }
                let mut cols = 1;
                while count(rows, cols) < target {
                    cols += 1;
                }
                SceneSpec::Wall { rows, cols }
            }
            SceneKind::Pyramid => {
                let mut base = 1;
                while (SceneSpec::Pyramid { base }).contact_count(p) < target {
                    base += 1;
                }
                SceneSpec::Pyramid { base }
            }
        };
        check_size(spec, p)?;
        Ok(spec)
    }

    /// Builds the scene with parameters `p`.
    ///
    /// # Errors
    /// As the scene's constructor.
    pub fn build(&self, p: &SceneParams) -> Result<Scene, MultibodyError> {
        match *self {
            SceneSpec::BoxStack { n } => box_stack_with(n, p),
            SceneSpec::Wall { rows, cols } => wall_with(rows, cols, p),
            SceneSpec::Pyramid { base } => pyramid_with(base, p),
        }
    }
}

/// A scene of `kind` with at least `target` contacts ([`SceneSpec::for_contacts`]),
/// default parameters for the kind ([`SceneParams::bricks`] for walls, [`SceneParams::cubes`] otherwise).
///
/// ```
/// use nonsmooth::multibody::{scenes, SceneKind};
/// let s = scenes::sized_for(SceneKind::Pyramid, 1000).unwrap();
/// assert!(s.contacts.len() >= 1000 && s.contacts.len() < 1200);
/// ```
///
/// # Errors
/// As [`SceneSpec::for_contacts`] (`target` is 0 or above [`MAX_SCENE_CONTACTS`]).
pub fn sized_for(kind: SceneKind, target: usize) -> Result<Scene, MultibodyError> {
    let p = match kind {
        SceneKind::Wall => SceneParams::bricks(),
        _ => SceneParams::cubes(),
    };
    SceneSpec::for_contacts(kind, target, &p)?.build(&p)
}
