//! The world: bodies with shapes and materials, a ground plane, and collision detection
//! that produces the contacts of each time step (the first stage of the velocity-based
//! time step of Erleben 2007 eq. 45), assembled into contact problems by
//! [`crate::multibody`].
//!
//! | module | what | source |
//! |---|---|---|
//! | `shape` | [`Shape`]: box, sphere, capsule; volume, mass and inertia | Erleben 2007 eq. 17 |
//! | `material` | [`Material`], [`Materials`]: `mu` and `e` per body, combined per pair, overrides | Erleben 2007 eq. 5-9, 21-22 |
//! | `ground` | [`GroundPlane`]: the fixed half space `z <= height` | Erleben 2007 eq. 10-13 (the static world) |
//! | `bodies` | [`World`], [`WorldBody`]: bodies (a [`RigidBody`](crate::multibody::RigidBody) each), gravity, margin; [`World::contacts`] | Erleben 2007 eq. 16-18, 23-26, 45 |
//! | `broad_phase` | sweep and prune over bounding boxes | — |
//! | `narrow_phase` | parry's contact manifolds as contacts with gap and identity | Erleben 2007 eq. 2, 6 |
//! | `contact` | [`WorldContact`], [`ContactId`] | Erleben 2007 eq. 2, 6, 46 (the gap) |
//! | `step_problem` | [`StepProblem`], [`World::contact_problem`] | Erleben 2007 eq. 10-22 |
//! | `convert` | nalgebra <-> parry (glam) at the boundary | — |
//! | [`render`] | pictures of the world as SVG: frames, strips, animations | — |
//! | [`scenes`] | named scenes (box stack, heavy on light, wall, tower, ball grid, pile, roof-tower, wall-push) as worlds at rest or with a cannon ball in flight, [`scenes::SceneKind`], [`scenes::build`] | Erleben 2007 fig. 9-11, 13, 16; Silcowitz et al. 2009 fig. 9-10; Erleben 2017 fig. 3 |
//! | [`scene_file`] | the JSON scene format: [`read_scene`], [`scene_from_path`], [`write_scene`], [`SceneFileError`] | — |
//!
//! Collision detection is parry3d-f64 0.31 (its types are glam's; `convert.rs` is the only
//! file that sees them). The time steppers that move the world are in [`crate::stepping`].
//!
//! # Example
//!
//! ```
//! use nalgebra::{UnitQuaternion, Vector3};
//! use nonsmooth::world::{MaterialId, Shape, World};
//!
//! let mut world = World::new();
//! let cube = Shape::cuboid(0.5, 0.5, 0.5).unwrap();
//! // A unit cube sunk 1 mm into the ground.
//! world
//!     .add(cube, 1000.0, Vector3::new(0.0, 0.0, 0.499), UnitQuaternion::identity(), MaterialId::default())
//!     .unwrap();
//! let contacts = world.contacts().unwrap();
//! assert_eq!(contacts.len(), 4);
//! assert!(contacts.iter().all(|c| (c.gap + 0.001).abs() < 1e-12));
//! let step = world.contact_problem(0.01).unwrap();
//! assert_eq!(step.local().unwrap().dim(), 12);
//! ```

mod bodies;
mod broad_phase;
mod contact;
mod convert;
mod ground;
mod material;
mod narrow_phase;
pub mod render;
pub mod scene_file;
pub mod scenes;
mod shape;
mod step_problem;
#[cfg(test)]
mod tests;

pub use bodies::{
    DEFAULT_MARGIN, MAX_CONTACTS_BASE, MAX_CONTACTS_PER_BODY, MAX_COUPLING_BASE,
    MAX_COUPLING_PER_BODY, World, WorldBody,
};
pub use contact::{ContactId, WorldContact, feature_name, identities};
pub use ground::GroundPlane;
pub use material::{Material, MaterialId, Materials};
pub use scene_file::{SceneFileError, read_scene, scene_from_path, write_scene};
pub use shape::Shape;
pub use step_problem::StepProblem;
