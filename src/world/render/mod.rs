//! Pictures of the world as SVG: still frames, strips of frames, and looping animations.
//!
//! A [`Frame`] is a snapshot of a [`World`](super::World) (each body's shape and pose, and
//! the ground height); it is drawn by an orthographic projection along a [`View`] into a
//! standalone SVG document, written by hand (no drawing library).
//!
//! | module | what |
//! |---|---|
//! | `frame` | [`Frame`], [`BodyPose`]: what is drawn, copied out of the world |
//! | `view` | [`View`] (what the picture looks along), [`RenderOptions`] |
//! | `camera` | [`auto_bounds`] (the bodies' world box), [`Camera`] (fits the bodies; world to pixels, depth) |
//! | `order` | the painter's order: of two bodies that overlap on screen, the one behind first |
//! | `draw` | bodies and ground to SVG elements: back-face culling, flat shading |
//! | `svg` | [`frame_svg`], [`strip_svg`] |
//! | `animate` | [`animated_svg`] (a SMIL flip-book) |
//!
//! Conventions: lengths in m, world `z` up (the ground plane is `z = height`), and every
//! view but [`View::Top`] shows `z` up on screen. A box is drawn as its visible faces,
//! flat shaded by a fixed light from the right, front and above; a sphere as a disc with a
//! great circle, a dot and a ring, a capsule as a stadium with a seam along its side, so that
//! rotation shows; fixed bodies are grey, [`RenderOptions::highlight`]ed ones orange, the
//! others blue; the ground is a slab with a grid under the bodies, cut at the picture's
//! edge (it does not set the framing: the bodies fill the picture). A band at the top
//! holds a caption (an optional title and the time) and a scale bar, in text that grows
//! with the document's width ([`text_px`]: at least 9 px when the picture is shown 390 px
//! wide); [`RenderOptions::labels`] write texts on the scene. Every coordinate is
//! written with two decimals, so the same input gives byte-identical SVG (the book checks
//! its figures that way). Bad input (no frames, a zero size, a non-finite number) is an
//! error, [`MultibodyError::InvalidScene`](crate::multibody::MultibodyError::InvalidScene),
//! never a panic.
//!
//! # Example
//!
//! ```
//! use nalgebra::{UnitQuaternion, Vector3};
//! use nonsmooth::world::render::{Frame, RenderOptions, View, frame_svg};
//! use nonsmooth::world::{MaterialId, Shape, World};
//!
//! let mut world = World::new();
//! let cube = Shape::cuboid(0.5, 0.5, 0.5).unwrap();
//! world
//!     .add(cube, 1000.0, Vector3::new(0.0, 0.0, 0.5), UnitQuaternion::identity(), MaterialId::default())
//!     .unwrap();
//! let opts = RenderOptions { view: View::Front, ..Default::default() };
//! let svg = frame_svg(&Frame::of(&world, 0.0), &opts).unwrap();
//! assert!(svg.starts_with("<svg"));
//! // Seen from the front, one face of the cube (body 0), in front of the ground's slab.
//! assert_eq!(svg.matches("data-body=\"0\" data-face=").count(), 1);
//! assert!(svg.contains("class=\"ground\""));
//! ```

mod animate;
mod camera;
mod draw;
mod frame;
mod order;
mod svg;
mod view;

#[cfg(test)]
mod tests;

pub use animate::animated_svg;
pub use camera::{
    Camera, LABEL_PX, MARGIN_PX, TEXT_FRACTION, TEXT_PX, auto_bounds, band_px, text_px,
};
pub use frame::{BodyPose, Frame};
pub use svg::{frame_svg, strip_svg};
pub use view::{RenderOptions, View};
