//! Generated scenes of resting boxes with analytic contacts (no collision detection).
//!
//! Every scene is built from *courses*: horizontal layers of axis-aligned boxes resting
//! on the layer below (the first on the ground). Where two box faces touch, the scene
//! has four contacts, one at each corner of the rectangle where the faces overlap, with
//! the normal pointing from the lower (or left) box to the upper (or right) one:
//!
//! * **vertical**: a box on the ground or on a box of the course below, normal `+z`;
//! * **side**: neighbours in a course whose faces touch, normal `+x`. They touch when
//!   [`SceneParams::gap`] is 0 (the default); with a positive gap they do not and get
//!   no contacts.
//!
//! Generation is linear in the number of boxes (courses are merged like sorted lists).
//! Coordinates: `z` up, courses along `x`, scenes one box deep in `y` and centred on
//! `y = 0`, the ground's top face at `z = 0`, the first box's left face at `x = 0`.
//!
//! | scene | what | contacts (gap 0) | source |
//! |---|---|---|---|
//! | [`box_stack`] | `n` cubes in a column | `4n` | Erleben 2007 §5 (stacking) |
//! | [`heavy_on_light`] | a heavy cube on a light cube on the ground | `8` | Silcowitz et al. 2009 (large mass ratio) |
//! | [`wall`] | bricks in running bond, courses offset by half a brick | `4c + 8c(r-1) + 4(e(c-1) + o c)` | Erleben 2007 §5 (dense structured stacking) |
//! | [`pyramid`] | courses shrinking by one, each box on two below | `4b + 4b(b-1) + 2b(b-1)` | Erleben 2007 §5 |
//!
//! (`r` rows, `c` columns, `e`/`o` the number of even/odd courses, `b` the base.)
//! Every box starts at rest. The defaults: 0.1 m cubes (or 0.2 x 0.1 x 0.05 m bricks)
//! of density 1000 kg/m^3 (so 1 kg each), `mu = 0.5`, `dt = 0.01` s, gravity
//! `-9.81` m/s^2 along `z`, the ground as [`BodyRef::World`](crate::multibody::BodyRef::World); see [`SceneParams`].
//! [`SceneSpec::for_contacts`] picks the size of a scene for a target number of contacts.
//!
//! # Layout
//! The parameters are in `params.rs`, [`Scene`] in `scene.rs`, the course layout and the
//! contacts it gets in `layout.rs`, one file per scene under `builders/` (`box_stack.rs`,
//! `heavy_on_light.rs`, `wall.rs`, `pyramid.rs`), and the sizing logic ([`SceneSpec`],
//! [`SceneKind`], [`sized_for`]) in `sizing.rs`.

mod builders;
mod layout;
mod params;
mod scene;
mod sizing;
#[cfg(test)]
mod tests;

pub use builders::{
    box_stack, box_stack_with, heavy_on_light, heavy_on_light_with, pyramid, pyramid_with, wall,
    wall_with,
};
pub use params::{Ground, SceneParams};
pub use scene::Scene;
pub use sizing::{MAX_SCENE_CONTACTS, SceneKind, SceneSpec, sized_for};
