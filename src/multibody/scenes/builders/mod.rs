//! The scene builders, one file per scene: the box stack, heavy on light, the wall and
//! the pyramid (Erleben 2007 §5; Silcowitz et al. 2009), each with default parameters
//! and with given [`SceneParams`](super::SceneParams).

mod box_stack;
mod heavy_on_light;
mod pyramid;
mod wall;

pub use box_stack::{box_stack, box_stack_with};
pub use heavy_on_light::{heavy_on_light, heavy_on_light_with};
pub use pyramid::{pyramid, pyramid_with};
pub use wall::{wall, wall_with};
