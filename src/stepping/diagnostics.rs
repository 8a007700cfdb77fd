//! What a simulation reports per step: energies, momentum, penetration, the contact
//! solve and the correction, and where the time went; written as JSON Lines or CSV.

use std::fmt::Write as _;

use nalgebra::Vector3;
use serde::Serialize;

use crate::world::World;

/// The bodies that are not fixed.
fn moving(world: &World) -> impl Iterator<Item = &crate::multibody::RigidBody> {
    world.bodies().iter().map(|b| &b.body).filter(|b| !b.fixed)
}

/// Kinetic energy `sum 1/2 m |v|^2 + 1/2 w^T I w` of the bodies that are not fixed, in J.
pub fn kinetic_energy(world: &World) -> f64 {
    moving(world)
        .map(|rb| {
            let w = &rb.angular_velocity;
            0.5 * rb.mass * rb.linear_velocity.norm_squared()
                + 0.5 * w.dot(&(rb.inertia_world() * w))
        })
        .sum()
}

/// Potential energy of gravity `sum -m g . x` of the bodies that are not fixed, in J
/// (zero at the origin: with `g = (0, 0, -9.81)`, `m 9.81 z`).
pub fn potential_energy(world: &World) -> f64 {
    let g = world.gravity();
    moving(world).map(|b| -b.mass * g.dot(&b.position)).sum()
}

/// Linear momentum `sum m v` of the bodies that are not fixed, in kg m/s.
pub fn momentum(world: &World) -> Vector3<f64> {
    moving(world).map(|b| b.linear_velocity * b.mass).sum()
}

/// Angular momentum about the origin `sum x × m v + I w` of the bodies that are not
/// fixed, in kg m²/s.
pub fn angular_momentum(world: &World) -> Vector3<f64> {
    moving(world)
        .map(|rb| {
            rb.position.cross(&(rb.linear_velocity * rb.mass))
                + rb.inertia_world() * rb.angular_velocity
        })
        .sum()
}

/// One step's record. Times in s, lengths in m, energies in J.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepRecord {
    /// The step just taken, counted from 1.
    pub step: usize,
    /// Simulated time at its end.
    pub time: f64,
    /// Contacts of the step's contact problem.
    pub contacts: usize,
    /// Stack layers of the step ([`super::shock::StackLayers`]; 0 unless the stepper is
    /// [`super::Stepper::Vsp`]).
    pub layers: usize,
    /// The contact solver (`auto` resolved; VSP lists every method its solves used,
    /// joined by `+`).
    pub method: String,
    /// `converged`, `max-iterations` or `no-contacts` (VSP: of the layer solves, the
    /// first that is not `converged`; the whole-system solve is reported apart in
    /// [`whole_status`](Self::whole_status)).
    pub status: String,
    /// Iterations of the contact solve (VSP: summed over the layer solves).
    pub iterations: usize,
    /// Error of the contact impulses in the solver's measure (VSP: the worst of the
    /// layer solves).
    pub error: f64,
    /// VSP only: how the whole-system solve `dynamics(a dT)` ended: `converged`, `budget`
    /// (it used its iteration budget, [`Settings::vsp_whole_budget`](super::Settings::vsp_whole_budget),
    /// as planned) or `no-contacts` (also when `a = 0`); empty for the other steppers and
    /// for `a = 1`, where the whole-system solve is the step's only solve and `status`
    /// describes it.
    pub whole_status: String,
    /// VSP only: iterations of the whole-system solve (0 for the other steppers).
    pub whole_iterations: usize,
    /// VSP only: error of the whole-system solve's impulses in the solver's measure, on
    /// its own problem over `a dT` (0 for the other steppers).
    pub whole_error: f64,
    /// Worst penetration at the end of the step (after the correction), `>= 0`.
    pub max_penetration: f64,
    /// Worst penetration before the correction (equal to `max_penetration` without one).
    pub penetration_before_correction: f64,
    /// Kinetic energy at the end of the step.
    pub kinetic_energy: f64,
    /// Potential energy of gravity at the end of the step.
    pub potential_energy: f64,
    /// Linear momentum at the end of the step (kg m/s).
    pub momentum: [f64; 3],
    /// Angular momentum about the origin at the end of the step (kg m²/s).
    pub angular_momentum: [f64; 3],
    /// Position-LCP passes of the correction.
    pub correction_passes: usize,
    /// Iterations of the correction solves.
    pub correction_iterations: usize,
    /// Wall time of collision detection (every detection of the step).
    pub collision_seconds: f64,
    /// Wall time of the dynamics: assembly, posing, contact solve, velocity and position
    /// update (VSP: also the layers' corrections).
    pub dynamics_seconds: f64,
    /// Wall time of the contact solve alone (part of `dynamics_seconds`).
    pub solve_seconds: f64,
    /// Wall time of the correction's solves and position updates.
    pub correction_seconds: f64,
    /// Implicit Newton only: inner linear-solver iterations summed over the step's Newton
    /// iterations ([`crate::implicit::NewtonReport::inner_iterations`]; 0 for the other
    /// steppers).
    pub inner_iterations: usize,
    /// Implicit Newton only: the worst violation of a joint or element row at the end of
    /// the step, `max |C + α λ|` (m, rad, or the element rows' unit;
    /// [`crate::implicit::NewtonReport::bilateral_error`]; 0 for the other steppers).
    pub joint_error: f64,
}

/// The CSV columns, in order (vectors as `_x`, `_y`, `_z` columns).
pub const CSV_COLUMNS: &[&str] = &[
    "step",
    "time",
    "contacts",
    "layers",
    "method",
    "status",
    "iterations",
    "error",
    "max_penetration",
    "penetration_before_correction",
    "kinetic_energy",
    "potential_energy",
    "momentum_x",
    "momentum_y",
    "momentum_z",
    "angular_momentum_x",
    "angular_momentum_y",
    "angular_momentum_z",
    "correction_passes",
    "correction_iterations",
    "collision_seconds",
    "dynamics_seconds",
    "solve_seconds",
    "correction_seconds",
    "whole_status",
    "whole_iterations",
    "whole_error",
    "inner_iterations",
    "joint_error",
];

impl StepRecord {
    /// The record as one line of JSON (no newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("plain data serialises")
    }

    /// The CSV header line (no newline).
    pub fn csv_header() -> String {
        CSV_COLUMNS.join(",")
    }

    /// The record as one CSV line in the order of [`CSV_COLUMNS`] (no newline; floats in
    /// Rust's shortest round-trip form).
    pub fn to_csv_line(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{}",
            self.step,
            self.time,
            self.contacts,
            self.layers,
            self.method,
            self.status,
            self.iterations,
            self.error,
            self.max_penetration,
            self.penetration_before_correction,
            self.kinetic_energy,
            self.potential_energy
        );
        for v in self.momentum.iter().chain(&self.angular_momentum) {
            let _ = write!(s, ",{v}");
        }
        let _ = write!(
            s,
            ",{},{},{},{},{},{}",
            self.correction_passes,
            self.correction_iterations,
            self.collision_seconds,
            self.dynamics_seconds,
            self.solve_seconds,
            self.correction_seconds
        );
        let _ = write!(
            s,
            ",{},{},{},{},{}",
            self.whole_status,
            self.whole_iterations,
            self.whole_error,
            self.inner_iterations,
            self.joint_error
        );
        s
    }
}
