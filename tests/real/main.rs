//! The solvers on real problems: the third-party collections shipped in `data/`
//! (Siconos, FCLIB, OpenTissue, MuJoCo exports), cross-checked with Siconos where it is
//! installed, and the generated problem files checked against the code that makes them.

#[path = "../common/mod.rs"]
mod common;
#[path = "../exact_lemke/mod.rs"]
mod exact_lemke;

mod data_files;
mod dumps;
mod fc3d_newton;
mod fc3d_nsgs;
mod global;
mod lcp_lemke;
mod lcp_newton;
mod mujoco;
mod mujoco_pyramid;
mod opentissue;
mod opentissue_newton;
mod siconos_crosscheck;
