//! The velocity-based shock-propagation (VSP) scheme of Erleben 2007 figure 14:
//!
//! ```text
//! algorithm velocity-based-shock-propagation(a, dT)
//!   collision detection at time t
//!   dynamics(a dT)
//!   shock-propagation( dynamics((1 - a) dT), correction() )
//!   collision detection at time t + dT
//!   correction()
//!   t = t + dT
//! ```
//!
//! `dynamics(h)` is eq. 45a-e over a duration `h`: the contact problem of the whole
//! system, `u += h M^-1 f_ext + M^-1 J^T lambda` and `s += h S u`. The first call lets
//! every body feel the weight of everything above it, but only for a fraction `a` of the
//! step. The rest of the step is taken layer by layer ([`super::propagate`]): in each
//! layer the bottom bodies are fixed, the top bodies take `dynamics((1 - a) dT)` and
//! then `correction()` (eq. 46) against bodies that no longer move. The last two lines
//! are the simulation's: collision detection at the new poses and its configured
//! correction ([`crate::stepping::Settings::correction`]), which the paper needs
//! because the layers did not re-evaluate contact points.
//!
//! # The weight `a`
//!
//! `a = 1` is the plain velocity-based scheme (with layered corrections); `a = 0` is
//! pure shock propagation, in which a layer's top bodies never feel the weight of the
//! layers above (their layer is solved before those exist for it), so friction that
//! depends on that weight is too weak. The paper uses `0 < a < 0.01`
//! ([`crate::stepping::Settings::vsp_weight`], default [`DEFAULT_VSP_WEIGHT`]).

use crate::names::named;
use std::time::Instant;

use nalgebra::DVector;

use super::correction::correct_layer;
use super::graph::{edges, world_heights};
use super::layers::StackLayers;
use super::propagate::{layer_contacts, shock_propagation};
use crate::registry::Choice;
use crate::stepping::dynamics::{
    Dynamics, SolveSummary, WarmStart, apply_velocity, dynamics, integrate_positions, posed_step,
};
use crate::stepping::{Settings, SimulationError};
use crate::world::{World, WorldContact};

/// The default weight `a` of the whole-system dynamics: inside the range the paper
/// used, `0 < a < 0.01` (Erleben 2007 section 4).
pub const DEFAULT_VSP_WEIGHT: f64 = 0.005;

/// The default iteration budget of the whole-system solve `dynamics(a dT)`
/// ([`Settings::vsp_whole_budget`]). The paper never used more than 10 iterations for
/// `dynamics()` (Erleben 2007 section 4); the budget is measured on towers, the 25-box
/// stack and a falling pile in `examples/simulation_scale.rs` (`whole-budget`,
/// `generated/simulation_whole_budget.txt`).
pub const DEFAULT_VSP_WHOLE_BUDGET: usize = 10;

/// The velocity a fixed bottom body has in the problem of the layer above it.
///
/// Figure 12 fixes the bottom of a layer (infinite mass) but does not say which
/// velocity the fixed body has in the layer's problem, and the choice decides whether
/// the method is stable:
///
/// * [`Updated`](Self::Updated) keeps the velocity the body's own layer gave it. The
///   velocity error of each layer solve then drives the layer above kinematically, and a
///   contact can only push (an error upward lifts the body above, one downward is not
///   followed), so on rings of bricks bridging the joints below the error grows by a
///   roughly constant factor per ring, and a tower of a few dozen rings at rest is set
///   rocking in one step (`examples/shock_propagation.rs`, `generated/shock_bottoms.txt`).
/// * [`WholeSystem`](Self::WholeSystem) uses the velocity after `dynamics(a dT)`, so no
///   layer's error reaches the next in the same step; the top is solved against a
///   bottom that then moves differently, and the mismatch accumulates over steps.
/// * [`AtRest`](Self::AtRest) (the default) solves each layer against bottoms at rest:
///   exact for a structure at rest, stable on every tower measured; the cost is that a
///   body carried on a moving body is dragged back, during the layered part of the step,
///   towards rest (the book's shock-propagation chapter measures all three).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BottomVelocity {
    /// The velocity its own layer gave it (the newest value: a block Gauss-Seidel
    /// order for velocities too).
    Updated,
    /// The velocity it had after `dynamics(a dT)`, before the layered pass.
    WholeSystem,
    /// Zero: the layer is solved against bottoms at rest.
    AtRest,
    /// The part of its own layer's velocity that carries a body resting on it: the
    /// linear velocity across gravity and the spin about the vertical, with the lift,
    /// the fall and the rocking removed (zero under zero gravity).
    Carried,
}

named!(BottomVelocity {
    Updated => "updated",
    WholeSystem => "whole-system",
    AtRest => "at-rest",
    Carried => "carried",
});

/// The part of the twist `(v, omega)` that carries a body resting on the moving one,
/// for gravity `g`: `v` without its component along `g`, `omega` only its component
/// along `g`. The stack layers are ordered by height along `g`, so the contacts between
/// a layer and its bottom have normals near `g`: the removed parts are the ones that
/// move the contact points along their normals.
fn carried((v, o): Twist, g: &nalgebra::Vector3<f64>) -> Twist {
    let n2 = g.norm_squared();
    if n2 == 0.0 || !n2.is_finite() {
        return Default::default();
    }
    let up = g / n2.sqrt();
    (v - up * up.dot(&v), up * up.dot(&o))
}

/// What a VSP step did besides its [`Dynamics`].
#[derive(Debug, Clone, Default)]
pub struct VspReport {
    /// The number of stack layers.
    pub layers: usize,
    /// Layer solves of `dynamics((1 - a) dT)` made (layers with contacts).
    pub layer_solves: usize,
    /// Layer passes of `correction()` made (layers with a penetrating contact).
    pub layer_corrections: usize,
    /// The impulses of the whole-system solve `dynamics(a dT)` alone (`3nc`, the step's
    /// contacts; zero when `a = 0`): the start of the next step's whole-system solve
    /// ([`WarmStart::for_whole_system`]).
    pub whole_impulses: DVector<f64>,
    /// How the whole-system solve `dynamics(a dT)` went when layer solves follow it
    /// (`a < 1`): status `budget` when it used its whole iteration budget
    /// ([`Settings::vsp_whole_budget`]), a planned stop and not a failure; `no-contacts`
    /// when `a = 0` or there were no contacts. The returned [`Dynamics::solve`] then
    /// describes the layer solves alone. With `a = 1` the whole-system solve is the
    /// step's only solve: it has no budget, [`Dynamics::solve`] describes it, and this
    /// field is empty (its default).
    pub whole: SolveSummary,
}

/// The status of a whole-system solve that used its budget: a planned stop.
pub const BUDGET: &str = "budget";

// ANCHOR: vsp_method
/// The settings of a stage of the VSP step: time step `h` (the fraction of the step the
/// stage covers), and `auto` resolved to NSGS, the blocked (contact by contact) form of
/// the paper's projected Gauss-Seidel.
///
/// A layer solved against fixed bottoms often holds a body pressed between two of them
/// from opposite sides. Its Delassus operator is then singular, and equal and opposite
/// impulses of any size solve the problem. A warm-started Newton method can walk far
/// along such a direction and still report convergence. When the bodies then turn, the
/// directions are no longer opposite and those impulses become velocities, and a
/// falling pile of 200 bodies gains energy by orders of magnitude in one step
/// (`tests/laws/shock_propagation.rs`, `vsp_defaults_do_not_create_energy_in_a_falling_pile`,
/// fails with the cone Newton). NSGS only moves an impulse as far as its own contact
/// needs, so it does not drift.
fn over(settings: &Settings, h: f64) -> Settings {
    let mut s = Settings {
        dt: h,
        ..settings.clone()
    };
    if s.method.name() == "auto" {
        s.method = Choice::new("nsgs").expect("nsgs is a registered method");
    }
    s
}
// ANCHOR_END: vsp_method

/// Adds the summary of one solve to the summary of the step: iterations and times add
/// up, the error is the worst, the status the first that is not `converged`, the
/// method names are listed once each, the solver's statistics are dropped.
fn merge(total: &mut SolveSummary, one: &SolveSummary) {
    if one.status == "no-contacts" {
        return;
    }
    if total.status == "no-contacts" {
        *total = one.clone();
        return;
    }
    if !total.method.split('+').any(|m| m == one.method) {
        total.method = format!("{}+{}", total.method, one.method);
    }
    if total.status == "converged" {
        total.status = one.status.clone();
    }
    total.iterations += one.iterations;
    total.error = total.error.max(one.error);
    total.seconds += one.seconds;
    total.stats = serde_json::Value::Null;
}

type Twist = (nalgebra::Vector3<f64>, nalgebra::Vector3<f64>);

fn velocity_of(w: &World, i: usize) -> Twist {
    let b = &w.bodies()[i].body;
    (b.linear_velocity, b.angular_velocity)
}

fn set_velocity(w: &mut World, i: usize, (v, o): Twist) {
    let b = &mut w.body_mut(i).expect("a body of the world").body;
    b.linear_velocity = v;
    b.angular_velocity = o;
}

/// The bottom bodies of `layer` that its contacts touch and that are fixed only for
/// the pass (not the world's own fixed bodies, whose prescribed motion stays).
fn bottoms_of(layer: &super::Layer, contacts: &[WorldContact], detected: &World) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for &c in &layer.contacts {
        let id = contacts[c].id;
        for i in id.a.into_iter().chain([id.b]) {
            let is_top = layer.top.binary_search(&i).is_ok();
            if !is_top && !detected.bodies()[i].body.fixed {
                out.push(i);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

// ANCHOR: vsp_step
/// One VSP step (figure 14) of `settings.dt` on `world`, whose contacts at the current
/// poses are `contacts`, up to the position update and the layered corrections (the
/// final collision detection and correction are the simulation's).
///
/// The returned [`Dynamics`] describes the whole step: the step problem at `t` and the
/// problem `dynamics(a dT)` solved (posed, not solved, when `a = 0`), the impulses
/// summed over the whole-system solve and the layer solves (per contact, `3nc`), the
/// velocities at the end, and the solves' merged summary.
///
/// # Errors
/// [`SimulationError`] from the assembly or a solver; [`SimulationError::Solve`] at stage
/// `"stack layers"` for a malformed contact graph.
pub fn step(
    world: &mut World,
    contacts: Vec<WorldContact>,
    settings: &Settings,
    warm: &WarmStart,
    step_index: usize,
) -> Result<(Dynamics, VspReport), SimulationError> {
    let (a, dt) = (settings.vsp_weight, settings.dt);
    let detected = world.clone();
    let layers = world_heights(world, &contacts)
        .and_then(|heights| StackLayers::new(heights, &edges(&contacts)))
        .map_err(|e| SimulationError::Solve {
            step: step_index,
            stage: "stack layers",
            message: e.to_string(),
        })?;
    let mut report = VspReport {
        layers: layers.len(),
        ..Default::default()
    };

    // dynamics(a dT) of the whole system, within its iteration budget.
    let mut whole = if a > 0.0 {
        let mut whole_settings = over(settings, a * dt);
        if a < 1.0 {
            let budget = whole_settings
                .params
                .max_iter
                .min(settings.vsp_whole_budget);
            whole_settings.params.max_iter = budget;
        }
        let d = dynamics(
            world,
            contacts.clone(),
            a * dt,
            &whole_settings,
            &warm.for_whole_system(a),
            step_index,
        )?;
        apply_velocity(world, &d.step, &d.velocity);
        integrate_positions(world, a * dt);
        d
    } else {
        let t0 = Instant::now();
        let (step, problem) = posed_step(world, contacts.clone(), dt, settings, step_index)?;
        let nc = step.contacts.len();
        Dynamics {
            velocity: step.assembly.velocity().clone(),
            step,
            problem,
            r: DVector::zeros(3 * nc),
            solve: SolveSummary::nothing(settings.method.name()),
            assembly_seconds: t0.elapsed().as_secs_f64(),
        }
    };

    // shock-propagation(dynamics((1 - a) dT), correction()).
    report.whole_impulses = whole.r.clone();
    if a < 1.0 {
        report.whole = std::mem::replace(
            &mut whole.solve,
            SolveSummary::nothing(over(settings, dt).method.name()),
        );
        if report.whole.status == "max-iterations" {
            report.whole.status = BUDGET.into();
        }
    }
    let h = (1.0 - a) * dt;
    let after_whole =
        (settings.vsp_bottom_velocity == BottomVelocity::WholeSystem).then(|| world.clone());
    let layered_correction = settings.vsp_layered_correction;
    if h > 0.0 || layered_correction {
        let (layer_settings, layer_warm) = (over(settings, h), warm.for_layers(a));
        let (r, solve, seconds) = (&mut whole.r, &mut whole.solve, &mut whole.assembly_seconds);
        shock_propagation(
            world,
            &detected,
            &contacts,
            &layers,
            &mut |w, layer, mine| {
                if h > 0.0 {
                    let bottoms = bottoms_of(layer, &contacts, &detected);
                    let kept: Vec<Twist> = bottoms.iter().map(|&i| velocity_of(w, i)).collect();
                    for &i in &bottoms {
                        let v = match settings.vsp_bottom_velocity {
                            BottomVelocity::Updated => velocity_of(w, i),
                            BottomVelocity::WholeSystem => {
                                velocity_of(after_whole.as_ref().expect("kept for whole-system"), i)
                            }
                            BottomVelocity::AtRest => Default::default(),
                            BottomVelocity::Carried => carried(velocity_of(w, i), w.gravity()),
                        };
                        set_velocity(w, i, v);
                    }
                    let d = dynamics(w, mine, h, &layer_settings, &layer_warm, step_index);
                    for (&i, &v) in bottoms.iter().zip(&kept) {
                        set_velocity(w, i, v);
                    }
                    let d = d?;
                    apply_velocity(w, &d.step, &d.velocity);
                    for &i in &layer.top {
                        w.body_mut(i)
                            .expect("a body of the world")
                            .body
                            .integrate_position(h);
                    }
                    for (k, &c) in layer.contacts.iter().enumerate() {
                        for j in 0..3 {
                            r[3 * c + j] += d.r[3 * k + j];
                        }
                    }
                    if !layer.contacts.is_empty() {
                        report.layer_solves += 1;
                    }
                    merge(solve, &d.solve);
                    *seconds += d.assembly_seconds;
                }
                if layered_correction {
                    // The gaps again: the layer's top has just moved.
                    let mine = layer_contacts(layer, &contacts, &detected, w);
                    if correct_layer(w, mine, settings, step_index)?.is_some() {
                        report.layer_corrections += 1;
                    }
                }
                Ok(())
            },
        )?;
    }
    let dofs = whole.step.assembly.dof_map();
    let mut u = DVector::zeros(6 * dofs.blocks());
    for k in 0..dofs.blocks() {
        let b = &world.bodies()[dofs.body(k)].body;
        u.fixed_rows_mut::<3>(6 * k).copy_from(&b.linear_velocity);
        u.fixed_rows_mut::<3>(6 * k + 3)
            .copy_from(&b.angular_velocity);
    }
    whole.velocity = u;
    Ok((whole, report))
}
// ANCHOR_END: vsp_step

#[cfg(test)]
mod tests {
    use super::carried;
    use nalgebra::Vector3;

    /// Under gravity the carried part keeps the velocity across gravity and the spin
    /// about it, and drops the lift, the fall and the rocking; under zero gravity (no
    /// up, no stack to carry) it is zero, so the layers are solved against bottoms at
    /// rest, as with `at-rest`.
    #[test]
    fn carried_keeps_what_carries_and_is_zero_without_gravity() {
        let v = Vector3::new(1.0, -2.0, 3.0);
        let o = Vector3::new(0.5, 0.25, -4.0);
        let g = Vector3::new(0.0, 0.0, -9.81);
        let (cv, co) = carried((v, o), &g);
        assert_eq!(cv, Vector3::new(1.0, -2.0, 0.0));
        assert_eq!(co, Vector3::new(0.0, 0.0, -4.0));
        // A slanted gravity: what is left is orthogonal (linear) or parallel (angular).
        let g = Vector3::new(1.0, 2.0, -9.0);
        let (cv, co) = carried((v, o), &g);
        assert!(cv.dot(&g).abs() <= 1e-12 * v.norm() * g.norm());
        assert!(co.cross(&g).norm() <= 1e-12 * o.norm() * g.norm());
        assert!((cv + g * (v.dot(&g) / g.norm_squared()) - v).norm() <= 1e-12);
        for g in [Vector3::zeros(), Vector3::new(f64::NAN, 0.0, 0.0)] {
            assert_eq!(carried((v, o), &g), (Vector3::zeros(), Vector3::zeros()));
        }
    }
}
