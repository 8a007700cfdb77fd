//! The timings of the book's chapter "Shock propagation" (Erleben 2007 section 5):
//!
//! * time per step against the number of contacts for towers of growing height, VSP
//!   against plain projected Gauss-Seidel (figure 18);
//! * the scenes `roof-tower` (40 rings of 20 bricks, a roof dropped on top, then a
//!   cannon ball) and `wall-push` (the wall of 200 bricks hit by a cannon ball): energy,
//!   penetration and time per step, VSP against plain projected Gauss-Seidel;
//! * a 10-ring tower at rest for 100 steps: VSP against projected Gauss-Seidel with
//!   growing budgets and against the cone Newton, at the accuracy each reaches.
//!
//! ```text
//! cargo run --release --example shock_timing
//! ```
//!
//! Writes `book/src/generated/shock_timing.txt`, `shock_impact.txt`, `shock_matched.txt`
//! and figures. It takes minutes, and timings depend on the machine and its load, so it
//! has no test that checks the committed files: run it again to refresh them. The time
//! figures' specifications are in `support::timing`, and `examples/timing_figures.rs`
//! redraws them from their committed CSV files (its test checks the drawing).

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::Vector3;
use nonsmooth::registry::Choice;
use nonsmooth::stepping::{Correction, Settings, Simulation, StepRecord};
use nonsmooth::world::World;
use nonsmooth::world::render::{Frame, RenderOptions, View, strip_svg};
use nonsmooth::world::scenes::roof_tower::{self, RoofTowerParams};
use nonsmooth::world::scenes::tower::{TowerParams, build as tower};
use nonsmooth::world::scenes::wall_push::{self, WallPushParams};
use support::series::Series;

/// A closure that builds a world.
type Builder = Box<dyn Fn() -> World>;

/// Projected Gauss-Seidel capped at `sweeps`, the projection correction (5 sweeps).
fn pgs(sweeps: usize) -> Settings {
    let mut s = Settings {
        method: Choice::new("nsgs").unwrap(),
        ..Settings::default()
    }
    .with_correction(Correction::Projection);
    s.params.max_iter = sweeps;
    s
}

/// VSP with weight 0.005 and `sweeps` sweeps a solve.
fn vsp(sweeps: usize) -> Settings {
    pgs(sweeps).with_shock_propagation(0.005)
}

/// Wall time of a step without collision detection, in ms.
fn motion_ms(r: &StepRecord) -> f64 {
    1e3 * (r.dynamics_seconds + r.correction_seconds)
}

/// Median of a list.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// A tower of `rings` rings of `per_ring` bricks.
fn ring_tower(rings: usize, per_ring: usize) -> World {
    tower(&TowerParams {
        layers: rings,
        per_layer: per_ring,
        ..TowerParams::default()
    })
    .unwrap()
}

fn time_per_contact() {
    let mut t = String::new();
    writeln!(t, "Time per step without collision detection (median of 9 steps after 1, ms) against contacts:").unwrap();
    writeln!(t, "towers of 20 bricks a ring at rest, 10 NSGS sweeps a solve, dt = 0.01 s, projection correction.\n").unwrap();
    writeln!(
        t,
        "  {:>5} {:>7} {:>9} {:>7} {:>10} {:>12} {:>10} {:>12}",
        "rings", "bodies", "contacts", "layers", "VSP ms", "VSP us/c", "PGS ms", "VSP / PGS"
    )
    .unwrap();
    let mut points = [Vec::new(), Vec::new()];
    for rings in [5, 10, 20, 30, 40] {
        let mut row = Vec::new();
        let (mut contacts, mut layers) = (0, 0);
        for (k, s) in [vsp(10), pgs(10)].into_iter().enumerate() {
            let mut sim = Simulation::new(ring_tower(rings, 20), s).unwrap();
            sim.step().unwrap();
            let recs: Vec<StepRecord> = (0..9).map(|_| sim.step().unwrap()).collect();
            contacts = recs[0].contacts;
            layers = layers.max(recs[0].layers);
            let ms = median(recs.iter().map(motion_ms).collect());
            points[k].push((contacts as f64, ms));
            row.push(ms);
        }
        writeln!(
            t,
            "  {rings:>5} {:>7} {contacts:>9} {layers:>7} {:>10.1} {:>12.1} {:>10.1} {:>12.2}",
            rings * 20,
            row[0],
            1e3 * row[0] / contacts as f64,
            row[1],
            row[0] / row[1]
        )
        .unwrap();
        eprintln!("{rings} rings done");
    }
    support::publish("generated/shock_timing.txt", &t);
    support::timing::shock_time_per_contact(vec![
        Series {
            label: "VSP, 10 sweeps".into(),
            points: points[0].clone(),
        },
        Series {
            label: "PGS, 10 sweeps".into(),
            points: points[1].clone(),
        },
    ])
    .publish();
}

/// `steps` steps of `world`: records and frames at `frame_steps`.
fn run(
    world: World,
    s: Settings,
    steps: usize,
    frame_steps: &[usize],
) -> (Vec<StepRecord>, Vec<Frame>) {
    let mut sim = Simulation::new(world, s).unwrap();
    let mut frames = vec![Frame::of(sim.world(), 0.0)];
    let mut recs = Vec::new();
    for _ in 0..steps {
        let r = sim.step().unwrap();
        if frame_steps.contains(&r.step) {
            frames.push(Frame::of(sim.world(), r.time));
        }
        recs.push(r);
    }
    (recs, frames)
}

fn impacts() {
    let steps = 250;
    let mut t = String::new();
    writeln!(
        t,
        "The scenes roof-tower (a 3000 kg roof dropped 1 m onto 40 rings of 20 bricks, a 500 kg"
    )
    .unwrap();
    writeln!(
        t,
        "cannon ball hitting at mid-height at t = 1.2 s) and wall-push (a 200 kg ball into the wall"
    )
    .unwrap();
    writeln!(
        t,
        "of 200 bricks at t = 0.5 s); {steps} steps of 0.01 s, 10 NSGS sweeps a solve, projection"
    )
    .unwrap();
    writeln!(
        t,
        "correction. Per run: energy (J) at a few times, worst penetration (m) and time per step"
    )
    .unwrap();
    writeln!(t, "without collision detection (median and worst, ms).\n").unwrap();
    // ANCHOR: impact
    let cases: [(&str, Builder); 2] = [
        (
            "roof-tower 40 x 20 (800 bricks)",
            Box::new(|| roof_tower::build(&RoofTowerParams::default()).unwrap()),
        ),
        (
            "wall-push 10 x 20 (200 bricks)",
            Box::new(|| wall_push::build(&WallPushParams::default()).unwrap()),
        ),
    ];
    // ANCHOR_END: impact
    let mut energy_series = Vec::new();
    for (name, world) in &cases {
        writeln!(t, "{name}:\n").unwrap();
        writeln!(
            t,
            "  {:<6} {:>9} {:>7} {:>11} {:>11} {:>11} {:>11} {:>13} {:>10} {:>10}",
            "method",
            "contacts",
            "layers",
            "E(0.5 s)",
            "E(1.4 s)",
            "E(2.0 s)",
            "E(2.5 s)",
            "worst pen.",
            "median ms",
            "worst ms"
        )
        .unwrap();
        for (label, s) in [("VSP", vsp(10)), ("PGS", pgs(10))] {
            let frames_at = [50, 150, 200, 250];
            let (recs, frames) = run(world(), s, steps, &frames_at);
            let e = |k: usize| recs[k - 1].kinetic_energy + recs[k - 1].potential_energy;
            let ms: Vec<f64> = recs.iter().map(motion_ms).collect();
            writeln!(
                t,
                "  {label:<6} {:>9} {:>7} {:>11.4e} {:>11.4e} {:>11.4e} {:>11.4e} {:>13.3e} {:>10.1} {:>10.1}",
                recs.iter().map(|r| r.contacts).max().unwrap(),
                recs.iter().map(|r| r.layers).max().unwrap(),
                e(50),
                e(140),
                e(200),
                e(250),
                recs.iter().map(|r| r.max_penetration).fold(0.0, f64::max),
                median(ms.clone()),
                ms.iter().copied().fold(0.0, f64::max)
            )
            .unwrap();
            if name.starts_with("roof-tower") {
                energy_series.push(Series {
                    label: format!("{label}: kinetic energy"),
                    points: recs.iter().map(|r| (r.time, r.kinetic_energy)).collect(),
                });
                // The tower and its surroundings; the ball enters from the left.
                let opts = RenderOptions {
                    view: View::Front,
                    width: 180,
                    height: 260,
                    label: false,
                    columns: Some(3),
                    bounds: Some((Vector3::new(-4.0, -2.5, 0.0), Vector3::new(3.0, 2.5, 9.5))),
                    ..RenderOptions::default()
                };
                let svg = strip_svg(&frames, &opts).unwrap();
                support::publish(
                    &format!("figures/shock_impact_tower_{}.svg", label.to_lowercase()),
                    &svg,
                );
            }
            eprintln!("{name}, {label} done");
        }
        writeln!(t).unwrap();
    }
    support::publish("generated/shock_impact.txt", &t);
    support::timing::shock_impact_energy(energy_series).publish();
}

/// A 10-ring tower of 8 bricks at rest for 100 steps, by method: the accuracy each
/// reaches (worst penetration, top drift, kinetic energy) and its time per step.
fn matched() {
    let mut t = String::new();
    writeln!(t, "A tower of 10 rings of 8 bricks (80 bodies) at rest, 100 steps of 0.01 s, projection correction.\n").unwrap();
    writeln!(
        t,
        "  {:<24} {:>13} {:>15} {:>15} {:>10}",
        "method", "worst pen.", "|drift| top", "largest KE", "ms/step"
    )
    .unwrap();
    let mut newton = pgs(1000);
    newton.method = Choice::new("nsn").unwrap();
    let runs: Vec<(String, Settings)> = vec![
        ("VSP, 10 sweeps".into(), vsp(10)),
        ("PGS, 10 sweeps".into(), pgs(10)),
        ("PGS, 100 sweeps".into(), pgs(100)),
        ("PGS, 1000 sweeps".into(), pgs(1000)),
        ("cone Newton, 1e-8".into(), newton),
    ];
    for (label, s) in runs {
        let world = ring_tower(10, 8);
        let top = world.bodies().len() - 1;
        let z0 = world.bodies()[top].body.position.z;
        let mut sim = Simulation::new(world, s).unwrap();
        let (mut pen, mut drift, mut ke, mut ms) = (0.0f64, 0.0f64, 0.0f64, Vec::new());
        for _ in 0..100 {
            let r = sim.step().unwrap();
            pen = pen.max(r.max_penetration);
            ke = ke.max(r.kinetic_energy);
            drift = drift.max((sim.world().bodies()[top].body.position.z - z0).abs());
            ms.push(motion_ms(&r));
        }
        writeln!(
            t,
            "  {label:<24} {pen:>13.3e} {drift:>15.3e} {ke:>15.3e} {:>10.1}",
            median(ms)
        )
        .unwrap();
        eprintln!("{label} done");
    }
    support::publish("generated/shock_matched.txt", &t);
}

fn main() {
    let only = std::env::args().nth(1);
    let want = |name: &str| only.as_deref().is_none_or(|o| o == name);
    if want("matched") {
        matched();
    }
    if want("contacts") {
        time_per_contact();
    }
    if want("impacts") {
        impacts();
    }
}
