//! The paper's large experiment (Erleben 2007 section 5, fig. 16, 18-22, 27): the falling
//! roof and the cannon ball (`roof-tower`, `nonsmooth::world::scenes::roof_tower`) under
//! velocity-based shock propagation, 10 NSGS sweeps a solve, time step 0.01 s, as the
//! paper; and the wall hit by a cannon ball (`wall-push`) with the same settings.
//!
//! ```text
//! cargo run --release --example large_scenes [RINGS [STEPS]] [--no-wall]
//! ```
//!
//! RINGS (default 40, the paper's 800 bricks) rings of 20 bricks, STEPS steps (default
//! 250: the roof lands at 0.45 s, the ball hits at 1.2 s). Records every step's time
//! (collision detection, assembly, solve and correction apart), contacts, kinetic and
//! potential energy and worst penetration, and writes
//!
//! * `book/src/generated/large_scenes_roof_steps.txt`: every 10th step (fig. 27's
//!   per-frame totals);
//! * `book/src/generated/large_scenes_roof_by_contacts.txt`: the steps binned by contacts,
//!   mean time of a step without and with collision detection (fig. 18 and 19);
//! * `book/src/generated/large_scenes_summary.txt`: the run's totals and the wall's;
//! * `book/src/figures/large_scenes_roof.svg` (frames like fig. 16, 20-22),
//!   `large_scenes_wall.svg`, and the plot `large_scenes_time_vs_contacts.{csv,svg}` (the
//!   bins' mean times against their mean contacts).
//!
//! Its timings depend on the machine, so no test checks the committed files: run it again
//! to refresh them. The plot's specification is in `support::timing`, and
//! `examples/timing_figures.rs` redraws it from its committed CSV (its test checks the
//! drawing).

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;
use std::time::Instant;

use nonsmooth::registry::Choice;
use nonsmooth::stepping::{Correction, Settings, Simulation, StepRecord};
use nonsmooth::world::render::{Frame, RenderOptions, View, strip_svg};
use nonsmooth::world::scenes::roof_tower::{self, RoofTowerParams};
use nonsmooth::world::scenes::wall_push::{self, WallPushParams};
use support::series::Series;

/// NSGS capped at 10 sweeps under VSP with weight 0.005 (Erleben 2007 fig. 14, the
/// projection correction of eq. 46), as `examples/simulation_scale.rs` runs its towers.
fn vsp10() -> Settings {
    let mut s = Settings {
        method: Choice::new("nsgs").unwrap(),
        ..Settings::default()
    }
    .with_correction(Correction::Projection)
    .with_shock_propagation(0.005);
    s.params.max_iter = 10;
    s
}

/// One step's record and its wall time (s) measured around `Simulation::step`.
struct Step {
    r: StepRecord,
    wall: f64,
}

/// Runs `steps` steps and keeps frames at the steps `at`.
fn run(sim: &mut Simulation, steps: usize, at: &[usize]) -> (Vec<Step>, Vec<Frame>) {
    let mut out = Vec::with_capacity(steps);
    let mut frames = Vec::new();
    if at.contains(&0) {
        frames.push(Frame::of(sim.world(), 0.0));
    }
    for k in 1..=steps {
        let t0 = Instant::now();
        let r = sim.step().unwrap();
        let wall = t0.elapsed().as_secs_f64();
        if at.contains(&k) {
            frames.push(Frame::of(sim.world(), r.time));
        }
        out.push(Step { r, wall });
        if k % 10 == 0 {
            eprint!(".");
        }
    }
    (out, frames)
}

fn ms(s: f64) -> f64 {
    1e3 * s
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let rings = numbers.first().copied().unwrap_or(40);
    let steps = numbers.get(1).copied().unwrap_or(250);
    let wall = !args.iter().any(|a| a == "--no-wall");

    let mut p = RoofTowerParams::default();
    p.tower.layers = rings;
    let world = roof_tower::build(&p).unwrap();
    let bricks = p.roof_index();
    let contacts0 = world.contacts().unwrap().len();
    let land = (2.0 * p.roof_drop / 9.81).sqrt();
    let mut sim = Simulation::new(world, vsp10()).unwrap();
    let at: Vec<usize> = [0, 50, 100, 130, 160, steps]
        .into_iter()
        .filter(|&k| k <= steps)
        .collect();
    let t0 = Instant::now();
    let (rec, frames) = run(&mut sim, steps, &at);
    let total = t0.elapsed().as_secs_f64();

    // Per-step table, every 10th step (fig. 27).
    let mut t = String::new();
    writeln!(
        t,
        "roof-tower: {rings} rings of 20 bricks ({bricks} bricks), a {} kg roof, a {} kg ball;",
        p.roof_mass, p.ball_mass
    )
    .unwrap();
    writeln!(
        t,
        "VSP (a = 0.005), 10 NSGS sweeps a solve, projection correction, dt = 0.01 s."
    )
    .unwrap();
    writeln!(
        t,
        "Every 10th step: ms of collision detection, assembly, solve, correction, whole step;"
    )
    .unwrap();
    writeln!(
        t,
        "contacts, kinetic and potential energy (J), worst penetration (m).\n"
    )
    .unwrap();
    writeln!(
        t,
        "  {:>4} {:>5} {:>8} {:>7} {:>7} {:>7} {:>7} {:>8} {:>9} {:>9} {:>9}",
        "step",
        "t",
        "contacts",
        "coll",
        "assem",
        "solve",
        "corr",
        "step",
        "kinetic",
        "potential",
        "pen"
    )
    .unwrap();
    for s in rec.iter().filter(|s| s.r.step % 10 == 0 || s.r.step == 1) {
        let r = &s.r;
        writeln!(
            t,
            "  {:>4} {:>5.2} {:>8} {:>7.1} {:>7.1} {:>7.1} {:>7.1} {:>8.1} {:>9.3e} {:>9.3e} {:>9.2e}",
            r.step,
            r.time,
            r.contacts,
            ms(r.collision_seconds),
            ms(r.dynamics_seconds - r.solve_seconds),
            ms(r.solve_seconds),
            ms(r.correction_seconds),
            ms(s.wall),
            r.kinetic_energy,
            r.potential_energy,
            r.max_penetration
        )
        .unwrap();
    }
    support::publish("generated/large_scenes_roof_steps.txt", &t);

    // Binned by contacts (fig. 18: time without collision detection; fig. 19: collision
    // detection alone).
    let lo = rec.iter().map(|s| s.r.contacts).min().unwrap_or(0);
    let hi = rec.iter().map(|s| s.r.contacts).max().unwrap_or(0);
    let bins = 8;
    let width = ((hi - lo) / bins).max(1) + 1;
    let mut t = String::new();
    writeln!(
        t,
        "roof-tower, {rings} rings ({bricks} bricks), {steps} steps binned by contacts: mean ms a step"
    )
    .unwrap();
    writeln!(
        t,
        "without collision detection (fig. 18), of collision detection (fig. 19), and µs per"
    )
    .unwrap();
    writeln!(t, "contact of the step without collision detection.\n").unwrap();
    writeln!(
        t,
        "  {:>15} {:>6} {:>12} {:>12} {:>12}",
        "contacts", "steps", "motion ms", "collision ms", "µs/contact"
    )
    .unwrap();
    // The bins' means, (mean contacts, ms), for the plot.
    let (mut motion_pts, mut coll_pts) = (Vec::new(), Vec::new());
    for b in 0..=bins {
        let (a, z) = (lo + b * width, lo + (b + 1) * width);
        let in_bin: Vec<&Step> = rec
            .iter()
            .filter(|s| s.r.contacts >= a && s.r.contacts < z)
            .collect();
        if in_bin.is_empty() {
            continue;
        }
        let n = in_bin.len() as f64;
        let motion: f64 = in_bin
            .iter()
            .map(|s| ms(s.r.dynamics_seconds + s.r.correction_seconds))
            .sum::<f64>()
            / n;
        let coll: f64 = in_bin
            .iter()
            .map(|s| ms(s.r.collision_seconds))
            .sum::<f64>()
            / n;
        let mean_c: f64 = in_bin.iter().map(|s| s.r.contacts as f64).sum::<f64>() / n;
        motion_pts.push((mean_c, motion));
        coll_pts.push((mean_c, coll));
        writeln!(
            t,
            "  {:>15} {:>6} {:>12.1} {:>12.1} {:>12.1}",
            format!("{a}-{}", z - 1),
            in_bin.len(),
            motion,
            coll,
            1e3 * motion / mean_c.max(1.0)
        )
        .unwrap();
    }
    support::publish("generated/large_scenes_roof_by_contacts.txt", &t);

    support::timing::large_scenes_time_vs_contacts(
        bricks,
        vec![
            Series {
                label: "step without collision detection".into(),
                points: motion_pts,
            },
            Series {
                label: "collision detection".into(),
                points: coll_pts,
            },
        ],
    )
    .publish();

    // Bounds around the tower and the roof (the ball's start, 12 m away, is cut off).
    let half = p.roof_half_extents.x + 1.0;
    let opts = RenderOptions {
        view: View::Front,
        width: 220,
        height: 300,
        columns: Some(3),
        bounds: Some((
            nalgebra::Vector3::new(-half - 1.0, -half, 0.0),
            nalgebra::Vector3::new(half, half, p.tower_height() + p.roof_drop + 1.0),
        )),
        highlight: vec![p.roof_index(), p.ball_index()],
        ..RenderOptions::default()
    };
    let svg = strip_svg(&frames, &opts).unwrap();
    support::publish("figures/large_scenes_roof.svg", &svg);

    // Totals.
    let worst = rec.iter().map(|s| s.r.max_penetration).fold(0.0, f64::max);
    let max_ms = rec.iter().map(|s| ms(s.wall)).fold(0.0, f64::max);
    let max_c = rec.iter().map(|s| s.r.contacts).max().unwrap_or(0);
    let mean_ms = rec.iter().map(|s| ms(s.wall)).sum::<f64>() / steps.max(1) as f64;
    let mut t = String::new();
    writeln!(
        t,
        "The large scenes, VSP with 10 NSGS sweeps, dt = 0.01 s:\n"
    )
    .unwrap();
    writeln!(
        t,
        "  {:<26} {:>7} {:>6} {:>10} {:>12} {:>9} {:>9} {:>9} {:>11}",
        "scene",
        "bodies",
        "steps",
        "contacts 0",
        "max contacts",
        "mean ms",
        "max ms",
        "total s",
        "worst pen"
    )
    .unwrap();
    writeln!(
        t,
        "  {:<26} {:>7} {steps:>6} {contacts0:>10} {max_c:>12} {mean_ms:>9.1} {max_ms:>9.1} {total:>9.1} {worst:>11.2e}",
        format!("roof-tower, {rings} rings"),
        bricks + 2
    )
    .unwrap();
    if wall {
        let p = WallPushParams::default();
        let world = wall_push::build(&p).unwrap();
        let bodies = world.bodies().len();
        let c0 = world.contacts().unwrap().len();
        let mut sim = Simulation::new(world, vsp10()).unwrap();
        let wsteps = 150;
        let t0 = Instant::now();
        let (rec, frames) = run(&mut sim, wsteps, &[0, 50, 75, 100, 150]);
        let total = t0.elapsed().as_secs_f64();
        let worst = rec.iter().map(|s| s.r.max_penetration).fold(0.0, f64::max);
        let max_ms = rec.iter().map(|s| ms(s.wall)).fold(0.0, f64::max);
        let max_c = rec.iter().map(|s| s.r.contacts).max().unwrap_or(0);
        let mean_ms = rec.iter().map(|s| ms(s.wall)).sum::<f64>() / wsteps as f64;
        writeln!(
            t,
            "  {:<26} {bodies:>7} {wsteps:>6} {c0:>10} {max_c:>12} {mean_ms:>9.1} {max_ms:>9.1} {total:>9.1} {worst:>11.2e}",
            "wall-push, 10 x 20"
        )
        .unwrap();
        let opts = RenderOptions {
            view: View::Isometric,
            width: 240,
            height: 200,
            columns: Some(3),
            bounds: Some((
                nalgebra::Vector3::new(-4.5, -4.0, 0.0),
                nalgebra::Vector3::new(4.5, 2.0, 2.5),
            )),
            highlight: vec![bodies - 1],
            ..RenderOptions::default()
        };
        support::publish(
            "figures/large_scenes_wall.svg",
            &strip_svg(&frames, &opts).unwrap(),
        );
    }
    writeln!(
        t,
        "\nroof-tower: the roof lands at {land:.2} s (step {:.0}), the ball hits at {} s (step {:.0}).",
        (land / 0.01).ceil(),
        p.impact_time,
        p.impact_time / 0.01
    )
    .unwrap();
    support::publish("generated/large_scenes_summary.txt", &t);
    eprintln!();
}
