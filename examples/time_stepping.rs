//! The simulation chapters' generated tables and figures (`src/stepping/`): the two
//! schemes on a falling and a bouncing body, a resting body under inexact solves (Erleben
//! 2007 figure 30), error correction on a column of interpenetrating spheres, and damping
//! against convergence and motion on a box stack (Erleben 2007 figures 6-7).
//!
//! ```text
//! cargo run --release --example time_stepping
//! ```
//!
//! Writes `book/src/generated/stepping_*.txt` and `book/src/figures/stepping_*.{svg,csv}`;
//! its test checks the committed files.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;
use std::ops::ControlFlow;

use nalgebra::{DVector, UnitQuaternion, Vector3};
use nonsmooth::problem::AnyProblem;
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::Params;
use nonsmooth::stepping::cfm::with_cfm;
use nonsmooth::stepping::correction::{post_stabilise, projection, worst_penetration};
use nonsmooth::stepping::diagnostics::potential_energy;
use nonsmooth::stepping::posed::pose;
use nonsmooth::stepping::{Correction, Settings, Simulation, Stepper, detect_at};
use nonsmooth::world::{Material, MaterialId, Shape, World};
use support::series::{Series, TimeFigure};

fn settings(stepper: Stepper, dt: f64, method: &str) -> Settings {
    Settings {
        dt,
        stepper,
        method: Choice::new(method).unwrap(),
        ..Settings::default()
    }
}

fn free_fall_energy(out: &mut String) {
    writeln!(
        out,
        "Energy of a box falling freely for 1 s from rest, E(1 s) - E(0) in J per kg"
    )
    .unwrap();
    writeln!(
        out,
        "(the velocity-based scheme's exact loss is -g^2 dt t / 2):\n"
    )
    .unwrap();
    writeln!(
        out,
        "  {:>7}  {:>13}  {:>13}  {:>13}",
        "dt (s)", "velocity", "-g^2 dt/2", "moreau"
    )
    .unwrap();
    for dt in [0.01, 0.005, 0.0025] {
        let mut row = Vec::new();
        for stepper in [Stepper::Velocity, Stepper::Moreau] {
            let mut w = World::new().with_ground(None).unwrap();
            w.add_with_mass(
                Shape::cuboid(0.1, 0.1, 0.1).unwrap(),
                1.0,
                Vector3::new(0.0, 0.0, 10.0),
                UnitQuaternion::identity(),
                MaterialId::default(),
            )
            .unwrap();
            let mut sim = Simulation::new(w, settings(stepper, dt, "auto")).unwrap();
            let e0 = 9.81 * 10.0;
            let mut last = 0.0;
            for _ in 0..(1.0 / dt).round() as usize {
                let r = sim.step().unwrap();
                last = r.kinetic_energy + r.potential_energy;
            }
            row.push(last - e0);
        }
        writeln!(
            out,
            "  {dt:>7}  {:>13.6e}  {:>13.6e}  {:>13.3e}",
            row[0],
            -9.81 * 9.81 * dt / 2.0,
            row[1]
        )
        .unwrap();
    }
}

/// The apex after the first bounce of a ball dropped from `h` with restitution `e`.
fn rebound(e: f64, h: f64, stepper: Stepper, dt: f64) -> f64 {
    let mut w = World::new();
    let m = w.add_material(Material::new(0.3, e).unwrap()).unwrap();
    w.add(
        Shape::sphere(0.1).unwrap(),
        1000.0,
        Vector3::new(0.0, 0.0, 0.1 + h),
        UnitQuaternion::identity(),
        m,
    )
    .unwrap();
    let mut sim = Simulation::new(w, settings(stepper, dt, "auto")).unwrap();
    let (mut bounced, mut apex) = (false, 0.0_f64);
    loop {
        sim.step().unwrap();
        let b = &sim.world().bodies()[0].body;
        if b.linear_velocity.z > 0.0 {
            bounced = true;
        }
        if bounced {
            apex = apex.max(b.position.z - 0.1);
            if b.linear_velocity.z < 0.0 {
                return apex;
            }
        }
    }
}

fn bounce(out: &mut String) {
    writeln!(
        out,
        "A ball dropped from h = 1 m: the apex of the first rebound over h, against e^2:\n"
    )
    .unwrap();
    writeln!(
        out,
        "  {:>4}  {:>6}  {:>14}  {:>14}  {:>14}  {:>14}",
        "e", "e^2", "velocity 1e-2", "moreau 1e-2", "velocity 1e-3", "moreau 1e-3"
    )
    .unwrap();
    for e in [0.3, 0.6, 0.9] {
        let mut cells = Vec::new();
        for dt in [0.01, 0.001] {
            for stepper in [Stepper::Velocity, Stepper::Moreau] {
                cells.push(rebound(e, 1.0, stepper, dt));
            }
        }
        writeln!(
            out,
            "  {e:>4}  {:>6.3}  {:>14.4}  {:>14.4}  {:>14.4}  {:>14.4}",
            e * e,
            cells[0],
            cells[1],
            cells[2],
            cells[3]
        )
        .unwrap();
    }
}

// ANCHOR: resting
/// A box resting on the ground (Erleben 2007 figure 30): its potential energy over
/// time, relative to the start, with solves of different accuracy, time steps, and with
/// or without the gap term of the posed problem.
fn resting(out: &mut String) -> Vec<Series> {
    // (label, method, sweeps, dt, gap term)
    let cases = [
        ("nsn 1e-8, dt 0.01", "nsn", 1000, 0.01, true),
        ("nsgs 3, gap term, dt 0.01", "nsgs", 3, 0.01, true),
        ("nsgs 3, eq. 45, dt 0.01", "nsgs", 3, 0.01, false),
        ("nsgs 3, eq. 45, dt 0.005", "nsgs", 3, 0.005, false),
        ("nsgs 3, eq. 45, dt 0.001", "nsgs", 3, 0.001, false),
    ];
    writeln!(
        out,
        "A 0.6 x 0.4 x 0.2 m box of 96 kg resting on the ground for 2 s, every contact solve"
    )
    .unwrap();
    writeln!(
        out,
        "from zero; potential energy relative to the start (J), drops of more than 1e-4 J in"
    )
    .unwrap();
    writeln!(
        out,
        "one step, and the largest contact-solve error (\"eq. 45\": no gap term):\n"
    )
    .unwrap();
    writeln!(
        out,
        "  {:<26} {:>11} {:>11} {:>11} {:>6} {:>10}",
        "solve", "min dE", "max dE", "dE at 2 s", "drops", "max error"
    )
    .unwrap();
    let mut series = Vec::new();
    for (label, method, sweeps, dt, gap_term) in cases {
        let mut w = World::new();
        w.add(
            Shape::cuboid(0.3, 0.2, 0.1).unwrap(),
            2000.0,
            Vector3::new(0.0, 0.0, 0.1),
            UnitQuaternion::identity(),
            MaterialId::default(),
        )
        .unwrap();
        let mut s = settings(Stepper::Velocity, dt, method);
        s.params.max_iter = sweeps;
        // Every solve from zero, as a solver without warm starting: from the previous
        // impulses three sweeps would already be nearly exact on a resting body.
        s.warm_start = false;
        s.gap_term = gap_term;
        let v0 = potential_energy(&w);
        let mut sim = Simulation::new(w, s).unwrap();
        let mut pts = Vec::new();
        let mut worst: f64 = 0.0;
        for _ in 0..(2.0 / dt).round() as usize {
            let r = sim.step().unwrap();
            worst = worst.max(r.error);
            pts.push((r.time, r.potential_energy - v0));
        }
        let lo = pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let hi = pts.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        let drops = pts.windows(2).filter(|w| w[1].1 < w[0].1 - 1e-4).count();
        writeln!(
            out,
            "  {label:<26} {lo:>11.3e} {hi:>11.3e} {:>11.3e} {drops:>6} {worst:>10.2e}",
            pts.last().unwrap().1
        )
        .unwrap();
        let stride = (pts.len() / 200).max(1);
        series.push(Series {
            label: label.to_string(),
            points: pts.into_iter().step_by(stride).collect(),
        });
    }
    series
}
// ANCHOR_END: resting

/// A column of five spheres on the ground, each sunk 1 cm into the one below, the
/// masses growing upwards; shifted sideways so the contacts are not all vertical.
fn column() -> World {
    let mut w = World::new();
    let r = 0.1;
    let (mut x, mut z) = (0.0, r - 0.01);
    for i in 0..5 {
        w.add(
            Shape::sphere(r).unwrap(),
            1000.0 * (1.0 + i as f64),
            Vector3::new(x, 0.0, z),
            UnitQuaternion::identity(),
            MaterialId::default(),
        )
        .unwrap();
        let shift = if i % 2 == 0 { 0.02 } else { -0.02 };
        x += shift;
        let d: f64 = 2.0 * r - 0.01;
        z += (d * d - shift * shift).sqrt();
    }
    w
}

// ANCHOR: correction_frames
/// Error correction alone, frame after frame, on the column (no dynamics): the worst
/// penetration after each frame.
fn correction_frames(out: &mut String) {
    let variants = [
        ("projection, 5 PGS sweeps", Correction::Projection, "pgs", 5),
        ("projection, Lemke", Correction::Projection, "lemke", 1000),
        (
            "post-stabilisation",
            Correction::PostStabilisation,
            "fischer-newton",
            1000,
        ),
    ];
    writeln!(
        out,
        "Worst penetration (m) of a column of five interpenetrating spheres after each frame"
    )
    .unwrap();
    writeln!(out, "of error correction alone (no dynamics):\n").unwrap();
    let mut cols: Vec<Vec<f64>> = Vec::new();
    for (_, kind, method, cap) in variants {
        let mut w = column();
        let mut s = Settings::default().with_correction(kind);
        s.correction_method = Choice::new(method).unwrap();
        s.correction_params.max_iter = cap;
        let mut col = vec![worst_penetration(&w.contacts().unwrap())];
        for frame in 0..6 {
            let contacts = w.contacts().unwrap();
            let mut detect = detect_at(frame);
            let (_, after) = match kind {
                Correction::PostStabilisation => {
                    post_stabilise(&mut w, contacts, &s, frame, &mut detect).unwrap()
                }
                _ => projection(&mut w, contacts, &s, frame, &mut detect).unwrap(),
            };
            col.push(worst_penetration(&after));
        }
        cols.push(col);
    }
    write!(out, "  {:>5}", "frame").unwrap();
    for (label, ..) in variants {
        write!(out, "  {label:>26}").unwrap();
    }
    writeln!(out).unwrap();
    for f in 0..cols[0].len() {
        write!(out, "  {f:>5}").unwrap();
        for c in &cols {
            write!(out, "  {:>26.3e}", c[f]).unwrap();
        }
        writeln!(out).unwrap();
    }
}
// ANCHOR_END: correction_frames

/// A stack of `n` cubes of 0.5 m resting on the ground.
fn stack(n: usize) -> World {
    let mut w = World::new();
    for i in 0..n {
        w.add(
            Shape::cuboid(0.25, 0.25, 0.25).unwrap(),
            1000.0,
            Vector3::new(0.0, 0.0, 0.25 + 0.5 * i as f64),
            UnitQuaternion::identity(),
            MaterialId::default(),
        )
        .unwrap();
    }
    w
}

// ANCHOR: damping
/// Damping against convergence and motion (Erleben 2007 figures 6-7): a stack of 10
/// cubes; the error of NSGS on the first step's problem with `W + gamma I` after a number
/// of sweeps, and the top cube's drop after 2 s with 10 sweeps per step.
fn damping(out: &mut String) -> Vec<Series> {
    let n = 10;
    let world = stack(n);
    let step = world.contact_problem(0.01).unwrap();
    let mean_diag = {
        let d = step.assembly.delassus().diagonal();
        d.sum() / d.len() as f64
    };
    writeln!(out, "A stack of {n} cubes (0.5 m, 125 kg each); gamma relative to the mean diagonal of W ({mean_diag:.3e} 1/kg).\n").unwrap();
    writeln!(
        out,
        "  {:>9}  {:>13}  {:>13}  {:>13}  {:>16}  {:>15}",
        "gamma/d", "err 10 sw", "err 100 sw", "err 1000 sw", "top drop 2 s (m)", "max pen. (m)"
    )
    .unwrap();
    let mut series = Vec::new();
    for c in [0.0, 1e-3, 1e-2, 1e-1] {
        let gamma = c * mean_diag;
        // Convergence: NSGS on the damped problem, measured on the undamped one's own
        // measure of the damped problem.
        let p = AnyProblem::Friction(pose(&step, Some(0.01), gamma, Default::default()).unwrap());
        let mut errs = Vec::new();
        for sweeps in [10, 100, 1000] {
            let params = Params {
                tol: 0.0,
                max_iter: sweeps,
                ..Params::default()
            };
            let o = solve(
                &p,
                &Choice::new("nsgs").unwrap(),
                DVector::zeros(p.dim()),
                &params,
                &mut |_| ControlFlow::Continue(()),
            );
            errs.push(o.info().unwrap().error.rel);
        }
        // Motion: 200 steps with 10 sweeps each.
        let mut s = settings(Stepper::Velocity, 0.01, "nsgs");
        s.params.max_iter = 10;
        s.cfm = gamma;
        let mut sim = Simulation::new(world.clone(), s).unwrap();
        let z0 = world.bodies()[n - 1].body.position.z;
        let mut pts = Vec::new();
        let mut pen: f64 = 0.0;
        for _ in 0..200 {
            let r = sim.step().unwrap();
            pen = pen.max(r.max_penetration);
            pts.push((r.time, sim.world().bodies()[n - 1].body.position.z - z0));
        }
        writeln!(
            out,
            "  {c:>9.0e}  {:>13.3e}  {:>13.3e}  {:>13.3e}  {:>16.4e}  {pen:>15.3e}",
            errs[0],
            errs[1],
            errs[2],
            -pts.last().unwrap().1
        )
        .unwrap();
        series.push(Series {
            label: format!("gamma = {c:.0e} d"),
            points: pts.into_iter().step_by(2).collect(),
        });
    }
    let _ = with_cfm; // the matrix the solver saw (see src/stepping/cfm.rs)
    series
}
// ANCHOR_END: damping

fn build() {
    let mut t = String::new();
    free_fall_energy(&mut t);
    support::publish("generated/stepping_energy.txt", &t);

    let mut t = String::new();
    bounce(&mut t);
    support::publish("generated/stepping_bounce.txt", &t);

    let mut t = String::new();
    let series = resting(&mut t);
    support::publish("generated/stepping_resting.txt", &t);
    TimeFigure {
        name: "stepping_resting".into(),
        caption: "Resting box: potential energy relative to the start".into(),
        x_desc: "time (s)",
        y_desc: "dE (J)",
        log_y: false,
        series,
    }
    .publish();

    let mut t = String::new();
    correction_frames(&mut t);
    support::publish("generated/stepping_correction.txt", &t);

    let mut t = String::new();
    let series = damping(&mut t);
    support::publish("generated/stepping_damping.txt", &t);
    TimeFigure {
        name: "stepping_damping".into(),
        caption: "Box stack, 10 NSGS sweeps a step: height change of the top cube".into(),
        x_desc: "time (s)",
        y_desc: "z - z0 (m)",
        log_y: false,
        series,
    }
    .publish();
}

fn main() {
    build();
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_output_is_current() {
        super::build();
    }
}
