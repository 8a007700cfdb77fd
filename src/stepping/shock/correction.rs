//! Shock propagation of the projection `correction()` (Erleben 2007 section 4, figure
//! 13): the position LCP of eq. 46 solved layer by layer, bottom-up, each layer with its
//! bottom bodies fixed.
//!
//! A plain `correction()` with a few projected Gauss-Seidel sweeps pushes every
//! penetrating pair apart a little at a time, and in a deep stack the push of one pair
//! is largely undone by the next (the mass ratios of the stack make the LCP slowly
//! convergent). With the bottom of each layer fixed, a layer's LCP only moves its top
//! bodies away from bodies that no longer move, which a few sweeps solve well; the next
//! layer then starts from penetrations that already include this layer's push (the
//! gaps are carried forward, [`super::propagate::predicted_gap`]).

use std::time::Instant;

use super::graph::{edges, world_heights};
use super::layers::StackLayers;
use super::propagate::shock_propagation;
use crate::stepping::correction::{CorrectionSummary, pass, worst_penetration};
use crate::stepping::{Settings, SimulationError};
use crate::world::{World, WorldContact};

/// `correction()` of one layer: one pass of the position LCP of `mine` (the layer's
/// contacts with their current gaps) in a world where only the layer's top is free, or
/// nothing when no contact of the layer penetrates (the LCP's answer is then zero).
/// Returns the iterations and error of the pass, if one was made.
///
/// # Errors
/// [`SimulationError`] from the assembly or the correction solver.
pub fn correct_layer(
    world: &mut World,
    mine: Vec<WorldContact>,
    settings: &Settings,
    step_index: usize,
) -> Result<Option<(usize, f64)>, SimulationError> {
    if worst_penetration(&mine) == 0.0 {
        return Ok(None);
    }
    pass(world, mine, settings, step_index, settings.vsp_layer_push).map(Some)
}

// ANCHOR: shock_correction
/// `shock-propagation(correction())`: for each stack layer of `contacts` (found at the
/// current poses of `world`) bottom-up, one pass of the position LCP of the layer's
/// contacts with the correction solver ([`Settings::correction_method`] within
/// [`Settings::correction_params`]), moving only the layer's top bodies. A layer none of
/// whose contacts penetrates is skipped (its LCP's answer is zero).
///
/// Returns the summary (`passes` counts the layers solved) and the layers.
///
/// # Errors
/// [`SimulationError`] from the assembly or the correction solver;
/// [`SimulationError::Solve`] at stage `"stack layers"` for a malformed contact graph.
pub fn shock_correction(
    world: &mut World,
    contacts: &[WorldContact],
    settings: &Settings,
    step_index: usize,
) -> Result<(CorrectionSummary, StackLayers), SimulationError> {
    let layers = world_heights(world, contacts)
        .and_then(|heights| StackLayers::new(heights, &edges(contacts)))
        .map_err(|e| SimulationError::Solve {
            step: step_index,
            stage: "stack layers",
            message: e.to_string(),
        })?;
    let detected = world.clone();
    let mut s = CorrectionSummary {
        penetration_before: worst_penetration(contacts),
        ..Default::default()
    };
    shock_propagation(world, &detected, contacts, &layers, &mut |w, _, mine| {
        let t0 = Instant::now();
        if let Some((iterations, error)) = correct_layer(w, mine, settings, step_index)? {
            s.seconds += t0.elapsed().as_secs_f64();
            s.passes += 1;
            s.iterations += iterations;
            s.error = s.error.max(error);
        }
        Ok(())
    })?;
    Ok((s, layers))
}
// ANCHOR_END: shock_correction
