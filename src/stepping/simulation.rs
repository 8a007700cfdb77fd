//! [`Simulation`]: a world, its settings, and the state carried between steps (time,
//! the warm start, the contacts at the current poses).

use std::cell::Cell;
use std::ops::ControlFlow;
use std::time::Instant;

use super::correction::{post_stabilise, projection, worst_penetration};
use super::diagnostics::{
    StepRecord, angular_momentum, kinetic_energy, momentum, potential_energy,
};
use super::dynamics::{Dynamics, SolveSummary, WarmStart};
use super::shock::vsp;
use super::{Correction, Settings, SimulationError, Stepper, moreau, velocity};
use crate::implicit::{self, Model, NewtonReport};
use crate::problem::AnyProblem;
use crate::world::{World, WorldContact};

/// A simulation over time.
///
/// Each [`Simulation::step`] takes the world from `t` to `t + dt`: the scheme's
/// collision detection and contact solve ([`super::velocity`], [`super::moreau`] or
/// [`super::shock::vsp`]),
/// then the error correction ([`super::correction`]), then the diagnostics of the new
/// state ([`StepRecord`]). Everything is deterministic: the same world and settings give
/// bit-identical trajectories (only the timings in the records differ).
///
/// # Example
///
/// ```
/// use nalgebra::{UnitQuaternion, Vector3};
/// use nonsmooth::stepping::{Settings, Simulation};
/// use nonsmooth::world::{MaterialId, Shape, World};
///
/// let mut world = World::new();
/// let cube = Shape::cuboid(0.5, 0.5, 0.5).unwrap();
/// world.add(cube, 1000.0, Vector3::new(0.0, 0.0, 0.5), UnitQuaternion::identity(), MaterialId::default()).unwrap();
/// let mut sim = Simulation::new(world, Settings::default()).unwrap();
/// for _ in 0..100 {
///     let record = sim.step().unwrap();
///     assert_eq!(record.contacts, 4);
///     assert_eq!(record.status, "converged");
/// }
/// // The resting box has not moved by more than a micrometre in one second.
/// assert!((sim.world().bodies()[0].body.position.z - 0.5).abs() < 1e-6);
/// ```
#[derive(Debug)]
pub struct Simulation {
    world: World,
    settings: Settings,
    time: f64,
    steps: usize,
    warm: WarmStart,
    /// The implicit stepper's start for the next step.
    implicit_warm: implicit::step::WarmStart,
    contacts: Option<Vec<WorldContact>>,
    last_problem: Option<AnyProblem>,
    /// The impulses the last step applied, when they are the unknowns of `last_problem`.
    last_answer: Option<Vec<f64>>,
    last_stats: serde_json::Value,
    model: Model,
    last_implicit: Option<NewtonReport>,
}

/// What the dynamics of a step produced.
enum Outcome {
    /// A velocity-level contact problem and its solution.
    Contact(Dynamics),
    /// The implicit Newton stepper's report.
    Implicit {
        contacts: usize,
        solve: SolveSummary,
        report: NewtonReport,
    },
}

impl Outcome {
    fn solve(&self) -> &SolveSummary {
        match self {
            Outcome::Contact(d) => &d.solve,
            Outcome::Implicit { solve, .. } => solve,
        }
    }

    fn contacts(&self) -> usize {
        match self {
            Outcome::Contact(d) => d.step.contacts.len(),
            Outcome::Implicit { contacts, .. } => *contacts,
        }
    }
}

impl Simulation {
    /// A simulation of `world` from time 0.
    ///
    /// # Errors
    /// [`SimulationError::Settings`] for settings out of range, [`SimulationError::World`]
    /// (step 0) for an invalid world.
    pub fn new(world: World, settings: Settings) -> Result<Self, SimulationError> {
        Simulation::with_model(world, Model::default(), settings)
    }

    /// A simulation of `world` and `model` (particles, joints, deformable elements:
    /// [`crate::implicit::Model`]) from time 0. Only [`Stepper::ImplicitNewton`] moves a
    /// model; the other steppers refuse a non-empty one.
    ///
    /// # Errors
    /// As [`Simulation::new`], and [`SimulationError::Settings`] for a model that does not
    /// validate ([`Model::validate`]) or a non-empty model with a stepper other than the
    /// implicit Newton stepper.
    pub fn with_model(
        world: World,
        model: Model,
        settings: Settings,
    ) -> Result<Self, SimulationError> {
        settings.validate()?;
        model
            .validate(world.bodies().len())
            .map_err(|reason| SimulationError::Settings {
                reason: format!("the model: {reason}"),
            })?;
        if !model.is_empty() && settings.stepper != Stepper::ImplicitNewton {
            return Err(SimulationError::Settings {
                reason: format!(
                    "the scene has joints, particles or deformable elements, which only the \
                     implicit-newton stepper simulates (not {})",
                    settings.stepper.name()
                ),
            });
        }
        world.validate().map_err(SimulationError::world(0))?;
        Ok(Simulation {
            world,
            settings,
            time: 0.0,
            steps: 0,
            warm: WarmStart::default(),
            implicit_warm: Default::default(),
            contacts: None,
            last_problem: None,
            last_answer: None,
            last_stats: serde_json::Value::Null,
            model,
            last_implicit: None,
        })
    }

    /// The world in its current state.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The particles, joints and elements beside the world (empty unless built with
    /// [`Simulation::with_model`]).
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The implicit Newton stepper's report of the last step (its rows and multipliers),
    /// if the last step was implicit.
    pub fn last_implicit(&self) -> Option<&NewtonReport> {
        self.last_implicit.as_ref()
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Simulated time in s.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Steps taken.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The contact problem the last step solved (local form, with the gap, restitution
    /// and CFM terms of [`super::posed`]; global form for `vgs`): what
    /// `nonsmooth simulate --dump-problems` writes.
    pub fn last_problem(&self) -> Option<&AnyProblem> {
        self.last_problem.as_ref()
    }

    /// The impulses the last step applied (N s), as the unknowns of
    /// [`Simulation::last_problem`] (`dim()` entries): the solver's answer to that problem.
    /// `None` when the last step solved nothing, was implicit, or applied impulses that are
    /// not that problem's unknowns.
    pub fn last_answer(&self) -> Option<&[f64]> {
        self.last_answer.as_deref()
    }

    /// The contact solver's own statistics of the last step as JSON (for PROX,
    /// [`crate::prox::ProxStats`]: sweeps, rollbacks, why it stopped); `null` when the
    /// last step solved nothing, made several solves (a VSP step with layers) or was
    /// implicit.
    ///
    /// ```
    /// use nalgebra::{UnitQuaternion, Vector3};
    /// use nonsmooth::registry::Choice;
    /// use nonsmooth::stepping::{Settings, Simulation};
    /// use nonsmooth::world::{MaterialId, Shape, World};
    ///
    /// let mut world = World::new();
    /// let cube = Shape::cuboid(0.5, 0.5, 0.5).unwrap();
    /// let (at, q) = (Vector3::new(0.0, 0.0, 0.5), UnitQuaternion::identity());
    /// world.add(cube, 1000.0, at, q, MaterialId::default()).unwrap();
    /// let method = Choice::new("prox-gs").unwrap().set_pair("r_factor=global=5").unwrap();
    /// let settings = Settings { method, ..Settings::default() };
    /// let mut sim = Simulation::new(world, settings).unwrap();
    /// sim.step().unwrap();
    /// let stats = sim.last_solver_stats();
    /// assert!(stats["sweeps"].as_u64().is_some() && stats["rollbacks"].as_u64().is_some());
    /// ```
    pub fn last_solver_stats(&self) -> &serde_json::Value {
        &self.last_stats
    }

    // ANCHOR: step
    /// Takes one step of `dt` and returns its record.
    ///
    /// # Errors
    /// [`SimulationError`] from collision detection, the assembly or a solver; the
    /// world, time and warm start are then left as they were before the step.
    pub fn step(&mut self) -> Result<StepRecord, SimulationError> {
        let index = self.steps;
        let s = &self.settings;
        let mut world = self.world.clone();
        let collision = Cell::new(0.0);
        let mut detect = |w: &World| {
            let t0 = Instant::now();
            let c = w.contacts().map_err(SimulationError::world(index));
            collision.set(collision.get() + t0.elapsed().as_secs_f64());
            c
        };

        // Collision detection, dynamics and the position update of the scheme.
        let t0 = Instant::now();
        let mut layers = 0;
        let mut whole_impulses = None;
        let mut whole_solve: Option<SolveSummary> = None;
        let mut model = self.model.clone();
        let mut implicit_warm = self.implicit_warm.clone();
        let outcome = match s.stepper {
            Stepper::Velocity | Stepper::Vsp => {
                let contacts = match &self.contacts {
                    Some(c) => c.clone(),
                    None => detect(&world)?,
                };
                if s.stepper == Stepper::Vsp {
                    let (d, report) = vsp::step(&mut world, contacts, s, &self.warm, index)?;
                    layers = report.layers;
                    whole_impulses = Some(report.whole_impulses);
                    whole_solve = Some(report.whole).filter(|w| !w.method.is_empty());
                    Outcome::Contact(d)
                } else {
                    Outcome::Contact(velocity::step(&mut world, contacts, s, &self.warm, index)?)
                }
            }
            Stepper::Moreau => {
                Outcome::Contact(moreau::step(&mut world, s, &self.warm, index, &mut detect)?)
            }
            Stepper::ImplicitNewton => {
                // Detection once at the start, with a margin that covers the step's
                // motion (not the last step's end contacts, found within the world's
                // margin): the gaps are then evaluated at the Newton iterates' positions.
                let t = Instant::now();
                let margin = implicit::step::speculative_margin(&world, &model, s.dt);
                let contacts = world
                    .contacts_within(margin)
                    .map_err(SimulationError::world(index));
                collision.set(collision.get() + t.elapsed().as_secs_f64());
                let contacts = contacts?;
                let t = Instant::now();
                let report = implicit::step::step_warm(
                    &mut world,
                    &mut model,
                    &contacts,
                    s.dt,
                    &s.implicit,
                    &mut implicit_warm,
                )
                .map_err(|e| SimulationError::Solve {
                    step: index,
                    stage: "contact solve",
                    message: e.to_string(),
                })?;
                let solve = SolveSummary {
                    method: "implicit-newton".into(),
                    status: if report.converged {
                        "converged"
                    } else {
                        "max-iterations"
                    }
                    .into(),
                    iterations: report.iterations,
                    error: report.residual,
                    seconds: t.elapsed().as_secs_f64(),
                    stats: serde_json::Value::Null,
                };
                Outcome::Implicit {
                    contacts: report.contacts,
                    solve,
                    report,
                }
            }
        };
        let d_solve = outcome.solve().clone();
        let dynamics_seconds = t0.elapsed().as_secs_f64() - collision.get();
        check_motion(&world, index)?;

        // Error correction at the new poses.
        let end = detect(&world)?;
        let (correction, end) = match s.correction {
            Correction::None => (Default::default(), end),
            Correction::Projection => projection(&mut world, end, s, index, &mut detect)?,
            Correction::PostStabilisation => {
                post_stabilise(&mut world, end, s, index, &mut detect)?
            }
        };
        // Contacts between joined bodies touch by construction: not contacts.
        let end: Vec<WorldContact> = if self.model.is_empty() {
            end
        } else {
            end.into_iter()
                .filter(|c| match c.contact.a() {
                    crate::multibody::BodyRef::Body(a) => !self.model.joined(a, c.contact.b()),
                    _ => true,
                })
                .collect()
        };
        let penetration = worst_penetration(&end).max(implicit::step::particle_penetration(
            sim_world_ground(&world),
            &model,
        ));
        let dt = s.dt;

        let (p, l) = (momentum(&world), angular_momentum(&world));
        let record = StepRecord {
            step: index + 1,
            time: (index + 1) as f64 * dt,
            contacts: outcome.contacts(),
            layers,
            method: d_solve.method.clone(),
            status: d_solve.status.clone(),
            iterations: d_solve.iterations,
            error: d_solve.error,
            max_penetration: penetration,
            penetration_before_correction: if correction.passes > 0 {
                correction.penetration_before
            } else {
                penetration
            },
            kinetic_energy: kinetic_energy(&world) + model.kinetic_energy(),
            potential_energy: potential_energy(&world) + model.potential_energy(world.gravity()),
            momentum: [p.x, p.y, p.z],
            angular_momentum: [l.x, l.y, l.z],
            correction_passes: correction.passes,
            correction_iterations: correction.iterations,
            collision_seconds: collision.get(),
            dynamics_seconds,
            solve_seconds: d_solve.seconds + whole_solve.as_ref().map_or(0.0, |w| w.seconds),
            correction_seconds: correction.seconds,
            whole_status: whole_solve
                .as_ref()
                .map_or(String::new(), |w| w.status.clone()),
            whole_iterations: whole_solve.as_ref().map_or(0, |w| w.iterations),
            whole_error: whole_solve.as_ref().map_or(0.0, |w| w.error),
            inner_iterations: match &outcome {
                Outcome::Implicit { report, .. } => report.inner_iterations,
                _ => 0,
            },
            joint_error: match &outcome {
                Outcome::Implicit { report, .. } => report.bilateral_error,
                _ => 0.0,
            },
        };

        // Commit.
        match outcome {
            Outcome::Contact(d) => {
                self.warm.remember(d.step.ids(), &d.r);
                if let Some(w) = &whole_impulses {
                    self.warm.remember_whole(w);
                }
                self.last_answer = (d.r.len() == d.problem.dim()).then(|| d.r.as_slice().to_vec());
                self.last_problem = Some(d.problem);
                self.last_stats = d.solve.stats;
            }
            Outcome::Implicit { report, .. } => {
                self.last_implicit = Some(report);
                self.last_problem = None;
                self.last_answer = None;
                self.last_stats = serde_json::Value::Null;
            }
        }
        self.world = world;
        self.model = model;
        self.implicit_warm = implicit_warm;
        self.contacts = Some(end);
        self.steps += 1;
        self.time = record.time;
        Ok(record)
    }
    // ANCHOR_END: step

    /// Takes up to `steps` steps, handing each record and the simulation to `each`
    /// (which can stop early with `ControlFlow::Break`). Returns the records.
    ///
    /// # Errors
    /// The first step that fails; the records before it are lost only to the caller of
    /// this convenience (use [`Simulation::step`] to keep them).
    pub fn run(
        &mut self,
        steps: usize,
        mut each: impl FnMut(&StepRecord, &Simulation) -> ControlFlow<()>,
    ) -> Result<Vec<StepRecord>, SimulationError> {
        let mut out = Vec::with_capacity(steps);
        for _ in 0..steps {
            let r = self.step()?;
            let flow = each(&r, self);
            out.push(r);
            if flow.is_break() {
                break;
            }
        }
        Ok(out)
    }
}

fn sim_world_ground(w: &World) -> f64 {
    w.ground().map_or(f64::NEG_INFINITY, |g| g.height)
}

/// Collision detection as a [`Detect`](super::correction::Detect) without timing (for callers outside a step).
pub fn detect_at(step: usize) -> impl FnMut(&World) -> Result<Vec<WorldContact>, SimulationError> {
    move |w: &World| w.contacts().map_err(SimulationError::world(step))
}

/// Refuses a step whose velocities or poses are not finite (a diverged solve: impulses
/// finite but so large that the velocity overflows), naming the first such body.
fn check_motion(world: &World, step: usize) -> Result<(), SimulationError> {
    for (i, b) in world.bodies().iter().enumerate() {
        let rb = &b.body;
        let finite = rb.linear_velocity.iter().all(|v| v.is_finite())
            && rb.angular_velocity.iter().all(|v| v.is_finite())
            && rb.position.iter().all(|v| v.is_finite())
            && rb.orientation.coords.iter().all(|v| v.is_finite());
        if !finite {
            return Err(SimulationError::Solve {
                step,
                stage: "contact solve",
                message: format!(
                    "the step diverged: body {i} has a velocity or pose that is not finite \
                     (v = {:?}, w = {:?})",
                    rb.linear_velocity.as_slice(),
                    rb.angular_velocity.as_slice()
                ),
            });
        }
    }
    Ok(())
}
