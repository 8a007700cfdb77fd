//! The experiments over time of the book's chapter "Experiments over time": the heavy box
//! on the light box under projected Gauss-Seidel and the cone Newton (Silcowitz, Niebe and
//! Erleben 2009, figures 9-10), with an animation of both side by side, and pictures of
//! every named scene at a few frames, all drawn by `world::render`.
//!
//! ```text
//! cargo run --release --example simulation_experiments
//! ```
//!
//! Writes `book/src/generated/experiments_*.txt` and `book/src/figures/experiments_*`;
//! its test checks the committed files.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::{DVector, UnitQuaternion, Vector3};
use nonsmooth::multibody::StepParams;
use nonsmooth::prox::{ProxOptions, ProxProblem, RFactor, prox_solve};
use nonsmooth::registry::Choice;
use nonsmooth::solver::{Params, no_observer};
use nonsmooth::stepping::dynamics::{apply_velocity, integrate_positions};
use nonsmooth::stepping::{Settings, Simulation, StepRecord};
use nonsmooth::world::render::{Frame, RenderOptions, View, strip_svg};
use nonsmooth::world::scenes::{SceneKind, build};
use nonsmooth::world::{MaterialId, Shape, World};
use support::frames::publish_side_by_side;
use support::series::{Series, TimeFigure};

/// A run of heavy-on-light: records, the heavy box's sinking (initial height minus
/// height, m) per step, and frames every `frame_every` steps.
struct Run {
    records: Vec<StepRecord>,
    sinking: Vec<(f64, f64)>,
    frames: Vec<Frame>,
}

// ANCHOR: heavy_on_light
/// Heavy box (1000 kg) on a light one (1 kg) on the ground, 500 steps of 0.01 s, with
/// `method` capped at `sweeps` iterations a step.
fn heavy_on_light(method: &str, sweeps: usize, frame_every: usize) -> Run {
    let world = build(SceneKind::HeavyOnLight, None, 0).unwrap();
    let z0 = world.bodies()[1].body.position.z;
    let mut s = Settings {
        method: Choice::new(method).unwrap(),
        ..Settings::default()
    };
    s.params.max_iter = sweeps;
    let mut sim = Simulation::new(world, s).unwrap();
    let mut run = Run {
        records: Vec::new(),
        sinking: Vec::new(),
        frames: vec![Frame::of(sim.world(), 0.0)],
    };
    for _ in 0..500 {
        let r = sim.step().unwrap();
        run.sinking
            .push((r.time, z0 - sim.world().bodies()[1].body.position.z));
        if r.step % frame_every == 0 {
            run.frames.push(Frame::of(sim.world(), r.time));
        }
        run.records.push(r);
    }
    run
}
// ANCHOR_END: heavy_on_light

fn heavy_on_light_experiment() {
    let runs = [
        ("nsgs, 10 sweeps", heavy_on_light("nsgs", 10, 10)),
        ("nsn, 1e-8", heavy_on_light("nsn", 1000, 10)),
    ];
    let mut t = String::new();
    writeln!(
        t,
        "Heavy box (1000 kg) on a light box (1 kg) on the ground, dt = 0.01 s, 500 steps."
    )
    .unwrap();
    writeln!(
        t,
        "Sinking of the heavy box (initial height minus height, m):\n"
    )
    .unwrap();
    write!(t, "  {:>6}", "t (s)").unwrap();
    for (label, _) in &runs {
        write!(t, "  {label:>16}").unwrap();
    }
    writeln!(t).unwrap();
    for step in [1, 10, 50, 100, 200, 300, 400, 500] {
        write!(t, "  {:>6.2}", step as f64 * 0.01).unwrap();
        for (_, r) in &runs {
            write!(t, "  {:>16.4e}", r.sinking[step - 1].1).unwrap();
        }
        writeln!(t).unwrap();
    }
    writeln!(
        t,
        "\nPer run: steps that met the tolerance 1e-8, median iterations, worst penetration (m):\n"
    )
    .unwrap();
    for (label, r) in &runs {
        let converged = r.records.iter().filter(|x| x.status == "converged").count();
        let mut it: Vec<usize> = r.records.iter().map(|x| x.iterations).collect();
        it.sort_unstable();
        let pen = r
            .records
            .iter()
            .map(|x| x.max_penetration)
            .fold(0.0, f64::max);
        writeln!(
            t,
            "  {label:<16} {converged:>4}/500 converged, median {:>4} iterations, worst penetration {pen:.3e}",
            it[it.len() / 2]
        )
        .unwrap();
    }
    support::publish("generated/experiments_heavy_on_light.txt", &t);

    TimeFigure {
        name: "experiments_heavy_on_light".into(),
        caption: "Heavy box on a light box (1000:1): sinking of the heavy box".into(),
        x_desc: "time (s)",
        y_desc: "sinking (m)",
        log_y: false,
        series: runs
            .iter()
            .map(|(label, r)| Series {
                label: label.to_string(),
                points: r.sinking.iter().copied().step_by(5).collect(),
            })
            .collect(),
    }
    .publish();

    // The animation: NSGS on the left, the cone Newton on the right, the heavy boxes
    // highlighted.
    let opts = RenderOptions {
        view: View::Front,
        width: 480,
        height: 300,
        highlight: vec![1, 3],
        ..RenderOptions::default()
    };
    // Four frames in two rows, each with its time.
    let strip = RenderOptions {
        width: 300,
        height: 240,
        columns: Some(2),
        ..opts.clone()
    };
    publish_side_by_side(
        "experiments_heavy_on_light",
        (
            &runs[0].1.frames,
            &runs[1].1.frames,
            1.0,
            ["NSGS", "cone Newton"],
        ),
        (&opts, 0.1),
        (&[0, 10, 25, 50], &strip),
    );
}

// ANCHOR: scenes
/// Every named scene at its default size: `steps` steps of 0.01 s with NSGS (at most 30
/// sweeps a step), drawn at the start, a third, two thirds and the end.
fn scene_pictures() {
    let mut t = String::new();
    let head = "The named scenes at their default sizes, NSGS with at most 30 sweeps a step";
    writeln!(t, "{head}, dt = 0.01 s:\n").unwrap();
    writeln!(
        t,
        "  {:<15} {:>7} {:>6} {:>14} {:>14} {:>16}",
        "scene", "bodies", "steps", "contacts (0)", "contacts (end)", "worst pen. (m)"
    )
    .unwrap();
    // roof-tower and wall-push (800 and 200 bricks with a cannon ball) have their own
    // example, examples/large_scenes.rs.
    let resting = SceneKind::ALL
        .into_iter()
        .filter(|k| !matches!(k, SceneKind::RoofTower | SceneKind::WallPush));
    for kind in resting {
        let steps = match kind {
            SceneKind::Pile => 120,
            SceneKind::Wall => 30,
            _ => 60,
        };
        let world = build(kind, None, 0).unwrap();
        let bodies = world.bodies().len();
        let mut s = Settings {
            method: Choice::new("nsgs").unwrap(),
            ..Settings::default()
        };
        s.params.max_iter = 30;
        let mut sim = Simulation::new(world, s).unwrap();
        let mut frames = vec![Frame::of(sim.world(), 0.0)];
        let mut first = None;
        let mut last = 0;
        let mut pen: f64 = 0.0;
        for k in 1..=steps {
            let r = sim.step().unwrap();
            first.get_or_insert(r.contacts);
            last = r.contacts;
            pen = pen.max(r.max_penetration);
            if k % (steps / 3) == 0 {
                frames.push(Frame::of(sim.world(), r.time));
            }
        }
        writeln!(
            t,
            "  {:<15} {bodies:>7} {steps:>6} {:>14} {last:>14} {pen:>16.3e}",
            kind.name(),
            first.unwrap()
        )
        .unwrap();
        // Two by two, so that the text reads on a phone.
        let opts = RenderOptions {
            width: 300,
            height: 240,
            columns: Some(2),
            ..RenderOptions::default()
        };
        let svg = strip_svg(&frames, &opts).unwrap();
        support::publish(
            &format!("figures/experiments_scene_{}.svg", kind.name()),
            &svg,
        );
    }
    support::publish("generated/experiments_scenes.txt", &t);
}
// ANCHOR_END: scenes

// ANCHOR: spinning
/// A sphere spinning about the vertical on the ground (Erleben 2017 eq. 15-16): with
/// Coulomb-Contensou friction (four rows a contact, the torsional row bounded by the
/// ellipsoid of semi-axes `(mu, mu, mu_tau) lambda_N`) the spin slows at the constant rate
/// `mu_tau g / (2/5 r^2)` and stops; with Coulomb friction alone a single contact point
/// exerts no torque about the normal and the spin never slows. Stepped by hand: the
/// step's problem is the PROX problem of the assembly with torsion rows, solved by PROX
/// Gauss-Seidel, then `u = u_free + M^-1 (J^T r + J_tau^T r_tau)` and the position update.
fn spinning(torsion: bool, mu_tau: f64, dt: f64, steps: usize) -> Vec<(f64, f64)> {
    let (r, w0) = (0.1, 20.0);
    let mut world = World::new();
    world
        .add(
            Shape::sphere(r).unwrap(),
            1000.0,
            Vector3::new(0.0, 0.0, r),
            UnitQuaternion::identity(),
            MaterialId::default(),
        )
        .unwrap();
    world.body_mut(0).unwrap().body.angular_velocity = Vector3::new(0.0, 0.0, w0);
    let params = StepParams {
        dt,
        ..StepParams::default()
    };
    let mut spin = Vec::new();
    for k in 1..=steps {
        let contacts: Vec<_> = world
            .contacts()
            .unwrap()
            .into_iter()
            .map(|mut c| {
                c.contact = c.contact.with_torsion(mu_tau).unwrap();
                c
            })
            .collect();
        let step = world.assemble(contacts, &params).unwrap();
        let a = &step.assembly;
        let u = if step.contacts.is_empty() {
            a.free_velocity()
        } else {
            let p = ProxProblem::from_assembly(a, torsion).unwrap();
            let rows = if torsion { 4 } else { 3 };
            let mut x = DVector::zeros(rows * step.contacts.len());
            let opts = ProxOptions {
                r_factor: RFactor::Local,
                ..ProxOptions::default()
            };
            let solve_params = Params {
                tol: 1e-12,
                max_iter: 10_000,
                ..Params::default()
            };
            prox_solve(&p, &mut x, &solve_params, &opts, &mut no_observer()).unwrap();
            let nc = step.contacts.len();
            let r3 = DVector::from_fn(3 * nc, |i, _| x[rows * (i / 3) + i % 3]);
            let mut impulse = a.jacobian().tr_mul_vec(&r3);
            if torsion {
                let rt = DVector::from_fn(nc, |c, _| x[4 * c + 3]);
                impulse += a.torsion_jacobian().tr_mul_vec(&rt);
            }
            a.free_velocity() + a.apply_inverse_mass(&impulse)
        };
        apply_velocity(&mut world, &step, &u);
        integrate_positions(&mut world, dt);
        spin.push((k as f64 * dt, world.bodies()[0].body.angular_velocity.z));
    }
    spin
}
// ANCHOR_END: spinning

fn spinning_experiment() {
    let (mu_tau, dt, steps) = (0.01, 0.01, 120);
    let contensou = spinning(true, mu_tau, dt, steps);
    let coulomb = spinning(false, mu_tau, dt, steps);
    let rate = mu_tau * 9.81 / (0.4 * 0.1 * 0.1);
    let predicted = |t: f64| (20.0 - rate * t).max(0.0);
    let mut t = String::new();
    writeln!(
        t,
        "A sphere (r = 0.1 m, 1000 kg/m^3) spinning at 20 rad/s about the vertical on the ground,"
    )
    .unwrap();
    writeln!(t, "mu = 0.5, mu_tau = {mu_tau} m, dt = {dt} s; spin (rad/s) against time, and the constant-rate").unwrap();
    writeln!(
        t,
        "prediction max(0, 20 - mu_tau g t / (2/5 r^2)), rate {rate:.4} rad/s^2:\n"
    )
    .unwrap();
    writeln!(
        t,
        "  {:>6}  {:>16}  {:>16}  {:>12}",
        "t (s)", "Coulomb-Contensou", "Coulomb", "predicted"
    )
    .unwrap();
    for step in [1, 20, 40, 60, 80, 100, 120] {
        let time = step as f64 * dt;
        writeln!(
            t,
            "  {time:>6.2}  {:>16.6}  {:>16.6}  {:>12.6}",
            contensou[step - 1].1,
            coulomb[step - 1].1,
            predicted(time)
        )
        .unwrap();
    }
    let stop = contensou.iter().find(|p| p.1.abs() < 1e-9).map(|p| p.0);
    writeln!(
        t,
        "\n  stopped at t = {} s (predicted {:.4} s)",
        stop.map_or("never".to_string(), |s| format!("{s:.2}")),
        20.0 / rate
    )
    .unwrap();
    support::publish("generated/experiments_spinning.txt", &t);
}

fn build_all() {
    spinning_experiment();
    heavy_on_light_experiment();
    scene_pictures();
}

fn main() {
    build_all();
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_output_is_current() {
        super::build_all();
    }
}
