//! The general shock-propagation algorithm of Erleben 2007 figure 12:
//!
//! ```text
//! algorithm shock-propagation(algorithm A)
//!   compute contact graph
//!   for each stack layer in bottom-up order
//!     fixate bottom-most objects of layer
//!     apply algorithm A to layer
//!     un-fixate bottom-most objects of layer
//! ```
//!
//! "Fixate" means infinite mass: the bottom bodies keep the velocities the layers below
//! gave them (they enter the layer's problem as prescribed motion, like a conveyor belt)
//! and the layer's impulses do not move them. Here every body that is not fixed is held
//! fixed for the whole pass and only the top of the current layer is released while `A`
//! runs, so the world `A` sees has exactly the layer's top bodies free: its assembly has
//! `6 |top|` degrees of freedom however large the world is.
//!
//! Contact points are not re-evaluated during the pass (section 4: collision detection
//! stays separate from the dynamics). Their gaps are carried forward to first order
//! instead ([`predicted_gap`]): a layer solved after the bodies below it moved sees the
//! gaps those motions made, along the normals found by collision detection.

use nalgebra::Vector3;

use super::layers::{Layer, StackLayers};
use crate::stepping::SimulationError;
use crate::world::{World, WorldContact};

/// An algorithm applied to one layer: the world with only the layer's top bodies free,
/// the layer, and its contacts (with predicted gaps).
pub type LayerAlgorithm<'a> =
    dyn FnMut(&mut World, &Layer, Vec<WorldContact>) -> Result<(), SimulationError> + 'a;

// ANCHOR: predicted_gap
/// The gap of contact `c` after the bodies moved from their poses in `then` (where `c`
/// was found) to those in `now`, to first order along the contact's normal `n`:
/// `g + n . (d_b(p) - d_a(p))`, with `d(p) = dx + dtheta x (p - x)` the displacement
/// of the contact point `p` by a body's translation `dx` and rotation vector `dtheta`
/// (the ground does not move). This is `g + J_n dq`, the linearised gap of the position
/// LCP (Erleben 2017 eq. 43).
pub fn predicted_gap(c: &WorldContact, then: &World, now: &World) -> f64 {
    let p = c.contact.point();
    let moved = |i: usize| {
        let (b0, b1) = (&then.bodies()[i].body, &now.bodies()[i].body);
        let dx = b1.position - b0.position;
        let dtheta = (b1.orientation * b0.orientation.inverse()).scaled_axis();
        dx + dtheta.cross(&(p - b0.position))
    };
    let da = c.id.a.map_or_else(Vector3::zeros, moved);
    c.gap + c.contact.normal().dot(&(moved(c.id.b) - da))
}
// ANCHOR_END: predicted_gap

/// The contacts of `layer` (indices into `contacts`, found at the poses of `detected`)
/// with their gaps predicted at the poses of `now` ([`predicted_gap`]).
pub fn layer_contacts(
    layer: &Layer,
    contacts: &[WorldContact],
    detected: &World,
    now: &World,
) -> Vec<WorldContact> {
    layer
        .contacts
        .iter()
        .map(|&c| WorldContact {
            gap: predicted_gap(&contacts[c], detected, now),
            ..contacts[c].clone()
        })
        .collect()
}

// ANCHOR: shock_propagation
/// Applies `algorithm` to each layer of `layers` bottom-up, with the layer's bottom (and
/// everything outside the layer) fixed (Erleben 2007 figure 12). `contacts` are the
/// step's contacts, found at the poses of `detected`; each layer gets its own with the
/// gaps predicted at the current poses ([`predicted_gap`]).
///
/// The fixed flags of `world` are restored before returning, also on error.
///
/// # Errors
/// The first error of `algorithm`.
pub fn shock_propagation(
    world: &mut World,
    detected: &World,
    contacts: &[WorldContact],
    layers: &StackLayers,
    algorithm: &mut LayerAlgorithm<'_>,
) -> Result<(), SimulationError> {
    let free: Vec<usize> = (0..world.bodies().len())
        .filter(|&i| !world.bodies()[i].body.fixed)
        .collect();
    let set_fixed = |world: &mut World, bodies: &[usize], fixed: bool| {
        for &i in bodies {
            world.body_mut(i).expect("a body of the world").body.fixed = fixed;
        }
    };
    set_fixed(world, &free, true);
    let mut run = || {
        for layer in &layers.layers {
            set_fixed(world, &layer.top, false);
            let mine = layer_contacts(layer, contacts, detected, world);
            let out = algorithm(world, layer, mine);
            set_fixed(world, &layer.top, true);
            out?;
        }
        Ok(())
    };
    let out = run();
    set_fixed(world, &free, false);
    out
}
// ANCHOR_END: shock_propagation
