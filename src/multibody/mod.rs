//! Rigid bodies, contact Jacobians and generated scenes: where the contact problems of
//! [`crate::problem`] come from.
//!
//! The modules follow the derivation of Erleben 2007 §2 (and Erleben 2017 appendix A):
//!
//! | module | what | source |
//! |---|---|---|
//! | [`body`] | [`RigidBody`]: mass, inertia, pose, velocity; world inertia `R I R^T`; quaternion position update | Erleben 2007 eq. 17, 23-26; Erleben 2017 eq. 58, 65-67 |
//! | [`contact`] | [`Contact`]: two bodies, a point, a normal from `a` to `b`, a tangent basis, `mu` | Erleben 2007 eq. 2, 6; Erleben 2017 eq. 52-53 |
//! | [`assembly`] | [`Assembly`]: `J`, `M`, `M^-1`, `f_ext`, and the global and local problems | Erleben 2007 eq. 10-22; Erleben 2017 eq. 17-18, 57-62 |
//! | [`scenes`] | [`Scene`]: resting stacks, walls and pyramids of boxes with analytic contacts | Silcowitz et al. 2009 test cases; Erleben 2007 §5 |
//!
//! # Conventions
//!
//! * **Generalised velocity.** Each body that is not fixed owns six consecutive entries
//!   `[v, omega]` of `u` (Erleben 2007 eq. 10): linear velocity of the centre of mass in
//!   m/s, then angular velocity in rad/s, both in world coordinates. Bodies are numbered
//!   in the order they are given; fixed bodies own no entries (see [`DofMap`]).
//! * **Contacts.** Contact `k` owns rows `3k, 3k+1, 3k+2` = `[n, t1, t2]` of `J`. The
//!   normal points from body `a` to body `b`, so `(J u)_{3k} > 0` means `b` moves away
//!   from `a` (separation), matching [`crate::problem`].
//! * **Units.** SI throughout: m, kg, s, N. The unknowns of the generated problems are
//!   impulses `r` in N s (Erleben 2007 eq. 20 moves `dt` into the multiplier), the
//!   contact velocities `u = W r + q` in m/s.
//! * **Fixed bodies and the world.** A fixed body (or [`BodyRef::World`]) has infinite
//!   mass. A fixed body may move with a prescribed velocity (a conveyor, a moving
//!   platform); that velocity enters the constant term `b` of the contact velocity.
//!
//! # Example
//!
//! ```
//! use nonsmooth::multibody::scenes;
//! let scene = scenes::box_stack(3).unwrap();
//! assert_eq!(scene.contacts.len(), 12);
//! let local = scene.local_problem().unwrap();   // W = J M^-1 J^T, q = J(u + dt M^-1 f) + b
//! assert_eq!(local.dim(), 36);
//! ```
//!
//! Checked by `tests/laws/resting_box.rs`.

pub mod assembly;
pub mod body;
pub mod contact;
pub mod scenes;

pub use assembly::{Assembly, DofMap, StepParams};
pub use body::{Gyroscopic, RigidBody};
pub use contact::{BodyRef, Contact, tangent_basis};
pub use scenes::{Ground, Scene, SceneKind, SceneParams};

use std::fmt;

use crate::error::fmt_num;
use crate::problem::ProblemError;

/// What is wrong with a body, a contact, a scene description or the step parameters.
///
/// Indices are `None` when the error comes from a constructor that does not know where
/// the object will be stored, and `Some` when [`Assembly::new`] checks a whole scene.
#[derive(Debug, Clone, PartialEq)]
pub enum MultibodyError {
    /// A NaN or an infinity in a body, contact, or parameter.
    NonFinite {
        /// Which quantity (for example `"position"`, `"contact point"`, `"dt"`).
        what: &'static str,
        /// The body index, if known.
        body: Option<usize>,
        /// The contact index, if known.
        contact: Option<usize>,
    },
    /// A mass that is zero or negative (a body that is not fixed needs `m > 0`).
    NonPositiveMass {
        /// The body index, if known.
        body: Option<usize>,
        /// The mass found, in kg.
        mass: f64,
    },
    /// A body-frame inertia tensor that is not symmetric positive definite.
    InvalidInertia {
        /// The body index, if known.
        body: Option<usize>,
    },
    /// An orientation quaternion whose norm is not 1 (to within `1e-9`).
    NonUnitOrientation {
        /// The body index, if known.
        body: Option<usize>,
        /// The norm found.
        norm: f64,
    },
    /// A parameter that must be strictly positive is not (box half extents, density,
    /// time step, scene size).
    NonPositive {
        /// Which parameter.
        what: &'static str,
        /// The value found.
        value: f64,
    },
    /// A contact normal of (numerically) zero length.
    ZeroNormal {
        /// The contact index, if known.
        contact: Option<usize>,
    },
    /// A friction coefficient below zero.
    NegativeFriction {
        /// The contact index, if known.
        contact: Option<usize>,
        /// The coefficient found.
        mu: f64,
    },
    /// A coefficient of restitution outside `[0, 1]`.
    InvalidRestitution {
        /// The contact index, if known.
        contact: Option<usize>,
        /// The coefficient found.
        value: f64,
    },
    /// A contact names a body that does not exist.
    UnknownBody {
        /// The contact index.
        contact: usize,
        /// The body index it names.
        body: usize,
        /// How many bodies there are.
        bodies: usize,
    },
    /// A contact between a body and itself.
    SelfContact {
        /// The contact index, if known.
        contact: Option<usize>,
        /// The body.
        body: usize,
    },
    /// A contact whose two sides are both fixed (or fixed and the world): its rows of
    /// `J` would be zero and its block of `W` singular.
    NoDynamicBody {
        /// The contact index.
        contact: usize,
    },
    /// A scene size that cannot be built (for example a pyramid with base 0).
    InvalidScene {
        /// Why.
        reason: String,
    },
    /// A body or the ground names a material that is not in the world's table
    /// (`crate::world::Materials`).
    UnknownMaterial {
        /// The material index found.
        material: usize,
        /// How many materials there are.
        materials: usize,
    },
    /// Collision detection failed (the collision library does not support a pair of
    /// shapes; not expected for the shapes of `crate::world`).
    Collision {
        /// Why.
        reason: String,
    },
    /// The assembled data was rejected by a problem constructor.
    Problem(ProblemError),
}

impl MultibodyError {
    /// The same error, located at body `index`.
    pub(crate) fn at_body(self, index: usize) -> Self {
        use MultibodyError::*;
        match self {
            NonFinite { what, contact, .. } => NonFinite {
                what,
                body: Some(index),
                contact,
            },
            NonPositiveMass { mass, .. } => NonPositiveMass {
                body: Some(index),
                mass,
            },
            InvalidInertia { .. } => InvalidInertia { body: Some(index) },
            NonUnitOrientation { norm, .. } => NonUnitOrientation {
                body: Some(index),
                norm,
            },
            other => other,
        }
    }
}

fn location(body: &Option<usize>, contact: &Option<usize>) -> String {
    match (body, contact) {
        (Some(b), Some(c)) => format!(" (body {b}, contact {c})"),
        (Some(b), None) => format!(" (body {b})"),
        (None, Some(c)) => format!(" (contact {c})"),
        (None, None) => String::new(),
    }
}

impl fmt::Display for MultibodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use MultibodyError::*;
        match self {
            NonFinite {
                what,
                body,
                contact,
            } => write!(
                f,
                "{what} has a NaN or infinite entry{}",
                location(body, contact)
            ),
            NonPositiveMass { body, mass } => write!(
                f,
                "mass must be positive, found {} kg{}",
                fmt_num(*mass),
                location(body, &None)
            ),
            InvalidInertia { body } => write!(
                f,
                "the body-frame inertia tensor must be symmetric positive definite{}",
                location(body, &None)
            ),
            NonUnitOrientation { body, norm } => write!(
                f,
                "the orientation quaternion must have norm 1, found {}{}",
                fmt_num(*norm),
                location(body, &None)
            ),
            NonPositive { what, value } => {
                write!(f, "{what} must be positive, found {}", fmt_num(*value))
            }
            ZeroNormal { contact } => write!(
                f,
                "the contact normal has zero length{}",
                location(&None, contact)
            ),
            NegativeFriction { contact, mu } => write!(
                f,
                "the friction coefficient must be >= 0, found {}{}",
                fmt_num(*mu),
                location(&None, contact)
            ),
            InvalidRestitution { contact, value } => write!(
                f,
                "the coefficient of restitution must lie in [0, 1], found {}{}",
                fmt_num(*value),
                location(&None, contact)
            ),
            UnknownBody {
                contact,
                body,
                bodies,
            } => write!(
                f,
                "contact {contact} names body {body}, but there are only {bodies} bodies"
            ),
            SelfContact { contact, body } => write!(
                f,
                "a contact joins body {body} to itself{}",
                location(&None, contact)
            ),
            NoDynamicBody { contact } => write!(
                f,
                "contact {contact} joins two fixed bodies (or a fixed body and the world)"
            ),
            InvalidScene { reason } => write!(f, "invalid scene: {reason}"),
            UnknownMaterial {
                material,
                materials,
            } => write!(
                f,
                "material {material} does not exist (there are {materials} materials)"
            ),
            Collision { reason } => write!(f, "collision detection failed: {reason}"),
            Problem(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MultibodyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MultibodyError::Problem(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ProblemError> for MultibodyError {
    fn from(e: ProblemError) -> Self {
        MultibodyError::Problem(e)
    }
}

/// Checks that every component is finite.
pub(crate) fn check_finite(what: &'static str, values: &[f64]) -> Result<(), MultibodyError> {
    if values.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(MultibodyError::NonFinite {
            what,
            body: None,
            contact: None,
        })
    }
}

/// Checks that `value` is finite and strictly positive.
pub(crate) fn check_positive(what: &'static str, value: f64) -> Result<(), MultibodyError> {
    if !value.is_finite() {
        Err(MultibodyError::NonFinite {
            what,
            body: None,
            contact: None,
        })
    } else if value <= 0.0 {
        Err(MultibodyError::NonPositive { what, value })
    } else {
        Ok(())
    }
}
