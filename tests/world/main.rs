//! The rigid-body world (`nonsmooth::world`): collision detection, the step problem,
//! the SVG renderer and the named scenes and scene files.

mod collision;
mod problem;
mod render;
mod scenes;
