//! `dynamics()`: the velocity update of one step (Erleben 2007 eq. 45a-d), shared by
//! both schemes. Given the contacts found at the poses where the step evaluates `J` and
//! `M`, it poses the contact problem ([`super::posed`]), solves it with the chosen method
//! of the registry warm-started from the previous step, and returns
//! `u^{t+1} = u^t + dt M^-1 f_ext + M^-1 J^T r` (eq. 45d). The position update (eq. 45e)
//! is the scheme's.

use std::collections::HashMap;
use std::time::Instant;

use nalgebra::DVector;
use serde::Serialize;

use super::posed::{pose, pose_global};
use super::{Settings, SimulationError};
use crate::problem::AnyProblem;
use crate::registry::{Choice, solve};
use crate::solver::Params;
use crate::world::{ContactId, StepProblem, World, WorldContact};

/// How a contact solve of a step went.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SolveSummary {
    /// The method run (`auto` resolved).
    pub method: String,
    /// `converged`, `max-iterations`, or `no-contacts` when there was nothing to solve.
    pub status: String,
    /// Iterations (sweeps, Newton steps, pivots).
    pub iterations: usize,
    /// The error of the returned impulses, in the solver's measure (Siconos
    /// normalisation by default), measured on them.
    pub error: f64,
    /// Wall time of the solve in s.
    pub seconds: f64,
    /// The method's own statistics as JSON (PROX: sweeps, rollbacks and why it stopped,
    /// [`crate::prox::ProxStats`]); `null` when nothing was solved. Not serialised with
    /// the summary.
    #[serde(skip)]
    pub stats: serde_json::Value,
}

impl SolveSummary {
    pub(crate) fn nothing(method: &str) -> Self {
        SolveSummary {
            method: method.to_string(),
            status: "no-contacts".into(),
            iterations: 0,
            error: 0.0,
            seconds: 0.0,
            stats: serde_json::Value::Null,
        }
    }
}

/// Where a solve of a step happens, for its errors.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stage {
    name: &'static str,
    step: usize,
}

impl Stage {
    pub(crate) fn new(name: &'static str, step: usize) -> Self {
        Stage { name, step }
    }
}

/// Solves `problem` with `choice` from `start` through the registry: the answer (the
/// last iterate when the cap was reached) and how the solve went, or the solver's
/// refusal or breakdown as a [`SimulationError::Solve`] at `stage`.
pub(crate) fn registry_solve(
    problem: &AnyProblem,
    choice: &Choice,
    start: DVector<f64>,
    params: &Params,
    stage: Stage,
) -> Result<(DVector<f64>, SolveSummary), SimulationError> {
    // a step goes on with its last iterate whatever happens: no certificate search
    let params = &Params {
        certify: false,
        ..params.clone()
    };
    let out = solve(problem, choice, start, params, &mut |_| {
        std::ops::ControlFlow::Continue(())
    });
    let summary = match (out.info(), &out.result) {
        (Some(info), _) => SolveSummary {
            method: out.method.name().to_string(),
            status: out.status().to_string(),
            iterations: info.iterations,
            error: info.error.get(params.measure),
            seconds: info.seconds,
            stats: info.stats.clone(),
        },
        (None, Err(e)) => {
            return Err(SimulationError::Solve {
                step: stage.step,
                stage: stage.name,
                message: e.to_string(),
            });
        }
        (None, Ok(_)) => unreachable!("a finished solve has a report"),
    };
    Ok((out.x, summary))
}

/// The impulses of the previous step, kept to warm-start the next one, with an index
/// from contact identity to position built once per step, so that each of the many
/// solves of a step (one per stack layer under shock propagation) looks its contacts up
/// in time proportional to its own size.
#[derive(Debug, Clone, Default)]
pub struct WarmStart {
    at: HashMap<ContactId, usize>,
    r: Vec<f64>,
    /// The part of `r` the whole-system solve of a VSP step gave (`None` after any other
    /// step): the start of the next step's whole-system solve.
    whole: Option<Vec<f64>>,
}

impl WarmStart {
    /// The start of a step whose contacts are `ids`: the previous impulse (3 entries)
    /// of every contact that persists, zero for the new ones (the rule of
    /// [`crate::policy::warm_start::by_identity`], from the index this start keeps).
    pub fn start_for(&self, ids: &[ContactId]) -> DVector<f64> {
        crate::policy::warm_start::by_index(&self.at, &self.r, ids, 3)
    }

    /// The same impulses times `factor` (the start of a solve over a fraction `factor`
    /// of the step, whose impulses scale with its duration).
    pub fn scaled(&self, factor: f64) -> WarmStart {
        WarmStart {
            at: self.at.clone(),
            r: self.r.iter().map(|r| r * factor).collect(),
            whole: None,
        }
    }

    /// The start of the whole-system solve of a VSP step with weight `a`: the impulses
    /// the last step's whole-system solve found, when the last step was a VSP step, and
    /// otherwise the last step's impulses times `a`.
    ///
    /// The last step's impulses times `a` would be a poor start: in a stack at rest, a
    /// layer's solve carries only its own top's weight, so the sum over the step holds
    /// `a` times the weight above each contact plus `1 - a` times the layer's own, and
    /// the whole-system solve must then move the weight of everything above through the
    /// whole stack within its sweeps (an 80-ring tower at 10 sweeps a solve then comes apart).
    pub fn for_whole_system(&self, a: f64) -> WarmStart {
        match &self.whole {
            Some(w) => WarmStart {
                at: self.at.clone(),
                r: w.clone(),
                whole: None,
            },
            None => self.scaled(a),
        }
    }

    /// The start of the layer solves of a VSP step with weight `a`: what the last step's
    /// layers found (its impulses less the whole-system part), when the last step was a
    /// VSP step, and otherwise the last step's impulses times `1 - a`.
    pub fn for_layers(&self, a: f64) -> WarmStart {
        match &self.whole {
            Some(w) => WarmStart {
                at: self.at.clone(),
                r: self.r.iter().zip(w).map(|(r, w)| r - w).collect(),
                whole: None,
            },
            None => self.scaled(1.0 - a),
        }
    }

    /// Remembers, after [`WarmStart::remember`] of a VSP step, the part `whole` (`3nc`,
    /// the same contacts) of its impulses that the whole-system solve gave.
    pub fn remember_whole(&mut self, whole: &DVector<f64>) {
        self.whole = Some(whole.as_slice().to_vec());
    }

    /// Remembers the impulses `r` of contacts `ids`.
    pub fn remember(&mut self, ids: Vec<ContactId>, r: &DVector<f64>) {
        self.at = ids.into_iter().enumerate().map(|(c, id)| (id, c)).collect();
        self.r = r.as_slice().to_vec();
        self.whole = None;
    }
}

/// What `dynamics()` produced.
#[derive(Debug)]
pub struct Dynamics {
    /// The step's contacts and assembly.
    pub step: StepProblem,
    /// The problem that was solved (what `--dump-problems` writes): local (fc3d) for the
    /// methods of local problems, global (gfc3d, [`super::posed::pose_global`]) for `vgs`.
    pub problem: AnyProblem,
    /// The contact impulses `r` (`3nc`, N s).
    pub r: DVector<f64>,
    /// `u^{t+1}` (`6nb` over the bodies that are not fixed, in the assembly's order).
    pub velocity: DVector<f64>,
    /// How the solve went.
    pub solve: SolveSummary,
    /// Wall time of the assembly and of posing the problem, in s.
    pub assembly_seconds: f64,
}

/// The step's assembly at the poses of `world` with `contacts`, and its contact problem
/// posed for `horizon`: the local problem of [`pose`], or, when the step's method solves
/// global problems only ([`Settings::poses_global`], `vgs`), the global problem of
/// [`pose_global`] with no Delassus operator formed. The first half of [`dynamics`].
///
/// # Errors
/// As [`dynamics`].
pub fn posed_step(
    world: &World,
    contacts: Vec<WorldContact>,
    horizon: f64,
    settings: &Settings,
    step_index: usize,
) -> Result<(StepProblem, AnyProblem), SimulationError> {
    let step = world
        .assemble(contacts, &settings.step_params(world))
        .map_err(SimulationError::world(step_index))?;
    let horizon = settings.gap_term.then_some(horizon);
    let refused = |e: crate::problem::ProblemError| SimulationError::Solve {
        step: step_index,
        stage: "contact solve",
        message: e.to_string(),
    };
    let problem = if settings.poses_global(step.contacts.len()) {
        AnyProblem::Global(pose_global(&step, horizon, settings.friction).map_err(refused)?)
    } else {
        AnyProblem::Friction(
            pose(&step, horizon, settings.cfm, settings.friction).map_err(refused)?,
        )
    };
    Ok((step, problem))
}

// ANCHOR: dynamics
/// Eq. 45a-d at the poses of `world` with the contacts `contacts` found there;
/// `horizon` is the time from these poses to the end of the step (see [`pose`]).
///
/// # Errors
/// [`SimulationError::World`] if the assembly refuses the world,
/// [`SimulationError::Solve`] if the solver refuses the problem or breaks down (reaching
/// the iteration cap is not an error: the last iterate is used and the summary says so).
pub fn dynamics(
    world: &World,
    contacts: Vec<WorldContact>,
    horizon: f64,
    settings: &Settings,
    warm: &WarmStart,
    step_index: usize,
) -> Result<Dynamics, SimulationError> {
    let t0 = Instant::now();
    let (step, problem) = posed_step(world, contacts, horizon, settings, step_index)?;
    let assembly_seconds = t0.elapsed().as_secs_f64();
    let ids = step.ids();
    let (r, solve_summary) = if ids.is_empty() {
        (
            DVector::zeros(0),
            SolveSummary::nothing(settings.method.name()),
        )
    } else {
        let start = if settings.warm_start {
            warm.start_for(&ids)
        } else {
            DVector::zeros(3 * ids.len())
        };
        let method = settings.method_for(ids.len());
        let stage = Stage::new("contact solve", step_index);
        registry_solve(&problem, &method, start, &settings.params, stage)?
    };
    let velocity = step.assembly.velocity_after(&r);
    Ok(Dynamics {
        step,
        problem,
        r,
        velocity,
        solve: solve_summary,
        assembly_seconds,
    })
}
// ANCHOR_END: dynamics

/// Sets the velocities of the bodies of `world` that are not fixed from `u` (`6nb`, in
/// the order of the assembly's [`crate::multibody::DofMap`]).
pub fn apply_velocity(world: &mut World, step: &StepProblem, u: &DVector<f64>) {
    let dofs = step.assembly.dof_map();
    for k in 0..dofs.blocks() {
        let body = &mut world
            .body_mut(dofs.body(k))
            .expect("a body of the assembly")
            .body;
        body.linear_velocity = u.fixed_rows::<3>(6 * k).into_owned();
        body.angular_velocity = u.fixed_rows::<3>(6 * k + 3).into_owned();
    }
}

/// Moves every body of `world` with its current velocity for `dt` s
/// ([`crate::multibody::RigidBody::integrate_position`]; fixed bodies with a prescribed
/// velocity move too, fixed bodies at rest stay).
pub fn integrate_positions(world: &mut World, dt: f64) {
    for i in 0..world.bodies().len() {
        let body = &mut world.body_mut(i).expect("index in range").body;
        if !body.fixed
            || body.linear_velocity != nalgebra::Vector3::zeros()
            || body.angular_velocity != nalgebra::Vector3::zeros()
        {
            body.integrate_position(dt);
        }
    }
}
