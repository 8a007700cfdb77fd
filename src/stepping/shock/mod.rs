//! Velocity-based shock propagation (Erleben 2007 section 4): the contact graph, stack
//! heights and stack layers, the general shock-propagation algorithm, its use on the
//! projection correction, and the VSP time-stepping scheme.
//!
//! | module | what | source |
//! |---|---|---|
//! | [`graph`] | the contact graph; stack heights by one multi-source breadth-first traversal | Erleben 2007 section 4 |
//! | [`layers`] | [`StackLayers`]: bodies of heights `i`, `i + 1` and the contacts between them | section 4 |
//! | [`propagate`] | [`shock_propagation`]: fix the bottom, apply an algorithm, release, bottom-up | figure 12 |
//! | [`correction`] | [`shock_correction`]: `shock-propagation(correction())` | eq. 46, figure 13 |
//! | [`vsp`] | the VSP step: `dynamics(a dT)`, layered `dynamics((1 - a) dT)` and `correction()` | figure 14 |
//!
//! # Why it works
//!
//! Section 4 reads shock propagation as a two-stage block iteration with a
//! preconditioner. The outer stage splits the unknowns into blocks, one per stack layer,
//! and visits them once, bottom-up, each with the newest values of the blocks below (a
//! block Gauss-Seidel order, though the blocks are defined like a block Jacobi
//! splitting). The inner stage solves one block with any solver. What makes each block
//! easy is the "preconditioner": fixing the bottom bodies replaces their inverse masses
//! by zero in `J M^-1 J^T`, so the block's Delassus operator couples only the top bodies
//! and the stack's large mass ratios no longer slow the inner iteration. The price is
//! that a block never sees the blocks above it: a top body is solved before the weight
//! resting on it exists for its layer. `tests/laws/shock_propagation.rs` checks both
//! halves: one bottom-up pass equals the block scheme written out with the modified
//! inverse mass, and on a resting column each layer carries only its top body's weight.
//!
//! Checked by `tests/laws/shock_propagation.rs`.

pub mod correction;
pub mod graph;
pub mod layers;
pub mod propagate;
pub mod vsp;

pub use correction::{correct_layer, shock_correction};
pub use graph::{GraphError, stack_heights, world_heights};
pub use layers::{Layer, StackLayers};
pub use propagate::{layer_contacts, predicted_gap, shock_propagation};
pub use vsp::{DEFAULT_VSP_WEIGHT, DEFAULT_VSP_WHOLE_BUDGET, VspReport};
