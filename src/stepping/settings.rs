//! The settings of a simulation: the time step, the scheme, the contact solver, error
//! correction and constraint force mixing.

use crate::names::named;
use serde::{Deserialize, Serialize};

use super::SimulationError;
use crate::implicit::ImplicitOptions;
use crate::multibody::{Gyroscopic, StepParams};
use crate::problem::FrictionKind;
use crate::registry::{Choice, ProblemType};
use crate::solver::Params;
use crate::world::World;

/// The time-stepping scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stepper {
    /// The velocity-based scheme of Erleben 2007 eq. 45 (the semi-implicit Euler step of
    /// the 2009 slides, eq. 11-18): collision detection at `q^t`, the contact problem,
    /// `u^{t+1}`, then `q^{t+1} = q^t + dt S u^{t+1}` ([`super::velocity`]).
    Velocity,
    /// Moreau's mid-point scheme (Erleben 2017 eq. 41-42): `q^{t+1/2} = q^t + dt/2 u^t`,
    /// collision detection and the contact problem there, then
    /// `q^{t+1} = q^{t+1/2} + dt/2 u^{t+1}` ([`super::moreau`]).
    Moreau,
    /// Velocity-based shock propagation (Erleben 2007 figure 14): `dynamics(a dt)` of
    /// the whole system, then `dynamics((1 - a) dt)` and `correction()` stack layer by
    /// stack layer with each layer's bottom fixed ([`super::shock::vsp`];
    /// [`Settings::vsp_weight`] is `a`).
    Vsp,
    /// The position-level implicit scheme of Macklin et al. 2019 solved by non-smooth
    /// Newton ([`crate::implicit`]; [`Settings::implicit`] holds its options): collision
    /// detection at `q^t`, then `u^{t+1}` and `q^{t+1} = q^t + dt G u^{t+1}` together, with
    /// constraints enforced on positions. The only stepper that moves a
    /// [`crate::implicit::Model`] (particles, joints, deformable elements).
    ImplicitNewton,
}

named!(Stepper {
    Velocity => "velocity",
    Moreau => "moreau",
    Vsp => "vsp",
    ImplicitNewton => "implicit-newton",
});

/// How penetration left by the velocity-level step is removed (both solve the position
/// LCP of [`super::correction`]; they differ in how they use it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Correction {
    /// Nothing: penetration stays until the motion removes it.
    None,
    /// The projection `correction()` of Erleben 2007 eq. 46: one solve of the position
    /// LCP per step with the correction solver's small iteration budget (the paper uses 5
    /// projected Gauss-Seidel sweeps), then `s += S M^-1 J^T lambda`.
    Projection,
    /// The post-stabilisation of Erleben 2017 eq. 43-51: the same LCP solved to the
    /// correction tolerance, repeated with fresh collision detection (the gap is
    /// linearised) until no contact penetrates more than the tolerance or
    /// [`Settings::stabilisation_passes`] passes were made.
    PostStabilisation,
}

named!(Correction {
    None => "none",
    Projection => "projection",
    PostStabilisation => "post-stabilisation",
});

/// Everything a [`super::Simulation`] needs besides the world.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Time step `dt` in s (`> 0`). Default `0.01` (every experiment of Erleben 2007).
    pub dt: f64,
    /// The scheme. Default [`Stepper::Velocity`].
    pub stepper: Stepper,
    /// The contact solver of each step, any method of the registry that solves a local
    /// friction problem, or one that solves global problems only (`vgs`), which gets
    /// the step's problem in velocity space ([`super::posed::pose_global`]). Default
    /// `auto`: the registry's choice for a local problem (the cone Newton, which solves
    /// every shared fc3d problem; see the book's solver-interface chapter) up to
    /// [`AUTO_MAX_CONTACTS`] contacts, and NSGS above, where a cone-Newton step
    /// costs seconds ([`Settings::method_for`]). With [`Stepper::Vsp`], `auto` is NSGS for
    /// every solve (see [`super::shock::vsp`]: a warm-started Newton method drifts on the
    /// singular layer problems that fixed bottoms create).
    pub method: Choice,
    /// Tolerance and iteration cap of the contact solve. Default tolerance `1e-8` in the
    /// Siconos normalisation, cap 1000. A solve that stops at the cap is not an error:
    /// the step goes on with the last iterate and its status and error are recorded.
    pub params: Params,
    /// The friction law of the contact problems. Default [`FrictionKind::Coulomb`].
    pub friction: FrictionKind,
    /// How the gyroscopic torque enters. Default [`Gyroscopic::Implicit`]: the explicit
    /// term of Erleben 2007 eq. 18 lets a small body set spinning by a hard contact gain
    /// energy every step until the simulation blows up (a 2000-body pile at 10 NSGS sweeps
    /// a step did; `tests/laws/time_stepping.rs` shows the mechanism on a tumbling plate).
    pub gyroscopic: Gyroscopic,
    /// Warm-start each contact solve from the previous step's impulses of the contacts
    /// that persist (matched by [`crate::world::ContactId`]). Default `true`.
    pub warm_start: bool,
    /// Pose contacts found apart (gap `> 0`, within the world's margin) with the gap
    /// term `u_n >= -gap / horizon` ([`super::posed`]). Default `true`. With `false`, the
    /// step is eq. 45 as printed: every contact within the margin acts as touching, so a
    /// body that an inexact solve lifts stays lifted until the gap exceeds the margin
    /// (the "popcorn" of Erleben 2007 section 6, shown in the book's time-stepping
    /// chapter).
    pub gap_term: bool,
    /// Constraint force mixing `gamma` (Erleben 2007 eq. 41): the solver sees
    /// `W + gamma I` instead of `W`, in 1/kg. Default 0 (none).
    pub cfm: f64,
    /// The error correction. Default [`Correction::None`].
    pub correction: Correction,
    /// The solver of the correction's LCP. Default `pgs` (projected Gauss-Seidel, as in
    /// Erleben 2007).
    pub correction_method: Choice,
    /// Tolerance and cap of the correction solve. Default `1e-8` and 5 sweeps for
    /// [`Correction::Projection`] (Erleben 2007 section 4 uses 5 iterations); see
    /// [`Settings::with_correction`].
    pub correction_params: Params,
    /// The most position-LCP passes of [`Correction::PostStabilisation`] per step.
    /// Default 4.
    pub stabilisation_passes: usize,
    /// The penetration (m, `>= 0`) post-stabilisation accepts without another pass.
    /// Default `1e-6`.
    pub stabilisation_tolerance: f64,
    /// The weight `a` of [`Stepper::Vsp`] (`0 <= a <= 1`): the fraction of the step
    /// taken by the whole system before the layered rest. Default
    /// [`super::shock::DEFAULT_VSP_WEIGHT`] (Erleben 2007 uses `0 < a < 0.01`).
    pub vsp_weight: f64,
    /// The iteration budget (sweeps for projected Gauss-Seidel) of the whole-system solve
    /// `dynamics(a dT)` of [`Stepper::Vsp`]; it stops earlier at the tolerance of
    /// [`Settings::params`], and never beyond `params.max_iter`. A stop at the budget is
    /// planned, not a failure: the step reports it apart
    /// ([`StepRecord::whole_status`](super::StepRecord::whole_status) `budget`) from the
    /// layer solves. Default [`super::shock::DEFAULT_VSP_WHOLE_BUDGET`]; at least 1.
    pub vsp_whole_budget: usize,
    /// Whether [`Stepper::Vsp`] runs `correction()` in each stack layer after the
    /// layer's dynamics (figure 14). Default `true`; the final correction after
    /// collision detection at `t + dt` is [`Settings::correction`].
    pub vsp_layered_correction: bool,
    /// The velocity a fixed bottom body has in the problem of the layer above it
    /// ([`super::shock::vsp::BottomVelocity`]). Default
    /// [`AtRest`](super::shock::vsp::BottomVelocity::AtRest): the only choice that keeps a
    /// 40-ring brick tower at rest with 10 sweeps a layer (the book's shock-propagation
    /// chapter measures all three).
    pub vsp_bottom_velocity: super::shock::vsp::BottomVelocity,
    /// How the correction of one stack layer moves the layer's top bodies
    /// ([`super::correction::Push`]). Default
    /// [`Translating`](super::correction::Push::Translating): a layer's correction that
    /// turns bodies hands the next layer a larger penetration than it removed, and a
    /// 100-ring tower at rest rises by metres in one step (the book's shock-propagation
    /// chapter measures both).
    pub vsp_layer_push: super::correction::Push,
    /// Above this many contacts a step with method `auto` runs NSGS alone instead of the
    /// registry's `auto` strategy, whose Newton stages cost seconds on large scenes
    /// ([`Settings::method_for`]). Default [`AUTO_MAX_CONTACTS`]; 100 in
    /// [`Settings::recommended`].
    pub auto_max_contacts: usize,
    /// The options of [`Stepper::ImplicitNewton`] (NCP function, preconditioner, inner
    /// solver, damping, geometric stiffness); unused by the other steppers. Default
    /// [`ImplicitOptions::default`].
    pub implicit: ImplicitOptions,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dt: 0.01,
            stepper: Stepper::Velocity,
            method: Choice::new("auto").expect("auto is a registered method"),
            params: Params {
                tol: 1e-8,
                max_iter: 1000,
                ..Params::default()
            },
            friction: FrictionKind::Coulomb,
            gyroscopic: Gyroscopic::Implicit,
            warm_start: true,
            gap_term: true,
            cfm: 0.0,
            correction: Correction::None,
            correction_method: Choice::new("pgs").expect("pgs is a registered method"),
            correction_params: Params {
                tol: 1e-8,
                max_iter: 5,
                ..Params::default()
            },
            stabilisation_passes: 4,
            stabilisation_tolerance: 1e-6,
            vsp_weight: super::shock::DEFAULT_VSP_WEIGHT,
            vsp_whole_budget: super::shock::DEFAULT_VSP_WHOLE_BUDGET,
            vsp_layered_correction: true,
            vsp_bottom_velocity: super::shock::vsp::BottomVelocity::AtRest,
            vsp_layer_push: super::correction::Push::Translating,
            auto_max_contacts: AUTO_MAX_CONTACTS,
            implicit: ImplicitOptions::default(),
        }
    }
}

/// Above this many contacts, a simulation step with method `auto` runs NSGS alone instead
/// of the registry's `auto` strategy (NSGS while its measured rate promises the tolerance,
/// then the cone Newton and the proximal-point method; the book's "Choosing a method").
/// Measured on the wall scene of 2300 contacts (`nonsmooth simulate wall --steps 2`): the
/// cone Newton took 16 s for the first step and over 100 s for the second, NSGS 0.9 s for
/// 1000 sweeps.
pub const AUTO_MAX_CONTACTS: usize = 500;

impl Settings {
    /// The method that solves a step with `contacts` contacts: [`Settings::method`], with
    /// `auto` resolved to NSGS above [`Settings::auto_max_contacts`] contacts.
    pub fn method_for(&self, contacts: usize) -> Choice {
        if self.method.name() == "auto" && contacts > self.auto_max_contacts {
            Choice::new("nsgs").expect("nsgs is a registered method")
        } else {
            self.method.clone()
        }
    }

    /// Whether a step with `contacts` contacts poses its problem in velocity space
    /// ([`super::posed::pose_global`], no Delassus operator formed): when its method
    /// ([`Settings::method_for`]) solves global friction problems (gfc3d) but not local
    /// ones, as `vgs` does.
    pub fn poses_global(&self, contacts: usize) -> bool {
        let spec = self.method_for(contacts).spec();
        spec.applies_to(ProblemType::Gfc3d) && !spec.applies_to(ProblemType::Fc3d)
    }

    // ANCHOR: recommended
    /// The settings `nonsmooth simulate` starts from: a step whose cost is bounded and
    /// that leaves no penetration, for scenes nobody tuned.
    ///
    /// * `auto` up to 100 contacts ([`Settings::auto_max_contacts`]) and warm-started
    ///   NSGS above, within the cap of 1000 iterations a stage. The Newton stages of
    ///   `auto` solve the mass ratios NSGS cannot (a
    ///   1 kg box under a 1000 kg one, a stack of growing masses); on a falling pile of
    ///   about 200 contacts it costs tens to a thousand times a warm-started NSGS step.
    /// * [`Correction::PostStabilisation`] (Erleben 2017 eq. 43-51) with 100 projected
    ///   Gauss-Seidel sweeps a pass: without a correction an inexact velocity solve
    ///   leaves the penetration it made, and 100 sweeps a pass remove it on the scenes
    ///   measured at a fraction of the cost of 1000.
    ///
    /// Measured by `examples/simulation_scale.rs`
    /// (`book/src/generated/simulation_defaults.txt`, in the book's chapter on time
    /// stepping).
    /// [`Settings::default`] is the scheme as the papers print it (no correction, `auto`
    /// up to 500 contacts), which the book's experiments compare against.
    pub fn recommended() -> Self {
        let mut s = Settings {
            auto_max_contacts: 100,
            ..Settings::default()
        }
        .with_correction(Correction::PostStabilisation);
        s.correction_params.max_iter = 100;
        s
    }
    // ANCHOR_END: recommended

    /// The same settings with correction `c` and the correction solver's budget that
    /// goes with it: 5 sweeps for [`Correction::Projection`] (Erleben 2007), 1000 for
    /// [`Correction::PostStabilisation`] (solved to tolerance, Erleben 2017).
    pub fn with_correction(mut self, c: Correction) -> Self {
        self.correction = c;
        self.correction_params.max_iter = match c {
            Correction::PostStabilisation => 1000,
            _ => 5,
        };
        self
    }

    /// The same settings with the VSP scheme of Erleben 2007 figure 14 and weight `a`:
    /// [`Stepper::Vsp`], layered corrections, and the final [`Correction::Projection`]
    /// (5 sweeps), as in the paper.
    pub fn with_shock_propagation(self, a: f64) -> Self {
        let mut s = self.with_correction(Correction::Projection);
        s.stepper = Stepper::Vsp;
        s.vsp_weight = a;
        s.vsp_layered_correction = true;
        s
    }

    /// The assembly's parameters of a step of `world` with these settings.
    pub fn step_params(&self, world: &World) -> StepParams {
        StepParams {
            dt: self.dt,
            gravity: *world.gravity(),
            kind: self.friction,
            gyroscopic: self.gyroscopic,
        }
    }

    /// Checks the numbers and the methods.
    ///
    /// # Errors
    /// [`SimulationError::Settings`] naming the setting: `dt` not finite and positive,
    /// `cfm` negative or not finite, a negative or non-finite tolerance, a zero cap, no
    /// stabilisation pass, a VSP weight outside `[0, 1]`, a contact solver that solves
    /// neither local nor global 3D friction problems, a solver of global problems only
    /// (`vgs`) with `cfm > 0`, or a correction solver that does not solve LCPs.
    pub fn validate(&self) -> Result<(), SimulationError> {
        let bad = |what: &str, why: String| {
            Err(SimulationError::Settings {
                reason: format!("{what}: {why}"),
            })
        };
        let spec = self.method.spec();
        let global = !spec.applies_to(ProblemType::Fc3d) && spec.applies_to(ProblemType::Gfc3d);
        if !spec.applies_to(ProblemType::Fc3d) && !global {
            let mut names = crate::registry::names_for(ProblemType::Fc3d);
            for n in crate::registry::names_for(ProblemType::Gfc3d) {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            return bad(
                "method",
                format!(
                    "`{}` does not solve 3D friction problems (use {})",
                    self.method.name(),
                    names.join(", ")
                ),
            );
        }
        if global && self.cfm != 0.0 {
            return bad(
                "cfm",
                format!(
                    "`{}` solves the velocity-space problem, which has no CFM term; \
                     use cfm 0 or a method of local problems",
                    self.method.name()
                ),
            );
        }
        if !self.correction_method.spec().applies_to(ProblemType::Lcp) {
            return bad(
                "correction method",
                format!(
                    "`{}` does not solve LCPs (use {})",
                    self.correction_method.name(),
                    crate::registry::names_for(ProblemType::Lcp).join(", ")
                ),
            );
        }
        if self.stabilisation_passes == 0 {
            return bad("stabilisation passes", "must be at least 1".into());
        }
        if !(self.dt.is_finite() && self.dt > 0.0) {
            return bad("dt", format!("must be finite and > 0, got {}", self.dt));
        }
        if !(self.cfm.is_finite() && self.cfm >= 0.0) {
            return bad("cfm", format!("must be finite and >= 0, got {}", self.cfm));
        }
        for (what, p) in [
            ("tolerance", &self.params),
            ("correction tolerance", &self.correction_params),
        ] {
            if !(p.tol.is_finite() && p.tol >= 0.0) {
                return bad(what, format!("must be finite and >= 0, got {}", p.tol));
            }
            if p.max_iter == 0 {
                return bad(what, "the iteration cap must be at least 1".into());
            }
        }
        if self.vsp_whole_budget == 0 {
            return bad("vsp whole budget", "must be at least 1".into());
        }
        if !(0.0..=1.0).contains(&self.vsp_weight) {
            return bad(
                "vsp weight",
                format!("must be in [0, 1], got {}", self.vsp_weight),
            );
        }
        if !(self.stabilisation_tolerance.is_finite() && self.stabilisation_tolerance >= 0.0) {
            return bad(
                "stabilisation tolerance",
                format!(
                    "must be finite and >= 0, got {}",
                    self.stabilisation_tolerance
                ),
            );
        }
        if let Err(why) = self.implicit.validate() {
            return bad("implicit Newton", why);
        }
        Ok(())
    }
}
