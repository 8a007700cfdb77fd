//! Bridges to physics engines run in the same process: an engine's world after a step
//! becomes the crate's contact problem at the engine's own contacts, with the engine's
//! impulses as the answer to judge (chapter *The rapier bridge*).
//!
//! | module | engine | feature |
//! |---|---|---|
//! | `rapier` (`src/bridge/rapier.rs`) | `rapier3d-f64` 0.36 | `rapier` |
//!
//! Without a bridge feature this module is empty: the bridges need the engines as
//! dependencies, which the crate does not pull in by default.

#[cfg(feature = "rapier")]
pub mod rapier;
