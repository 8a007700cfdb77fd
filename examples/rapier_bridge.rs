//! rapier, checked in process (the book's chapter "The rapier bridge"): three rapier3d-f64
//! scenes (a stack of four boxes, a pile of boxes and balls, a 1000 kg box on a 1 kg box)
//! are stepped at rapier's default number of solver iterations and at more, and the steps
//! after settling are judged against the velocity-level Coulomb problem at rapier's own
//! contacts.
//!
//! ```text
//! cargo run --release --features rapier --example rapier_bridge
//! ```
//!
//! Writes `book/src/generated/rapier_bridge.txt` (its test checks the committed file) and
//! `book/src/generated/rapier_bridge_timing.txt` (the time of each check: machine-dependent,
//! written by a run, not checked).

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;
use std::time::Instant;

use nonsmooth::bridge::rapier::{contact_problem, scenes};
use nonsmooth::check::{CheckOptions, check};
use rapier3d_f64::dynamics::IntegrationParameters;
use rapier3d_f64::pipeline::PhysicsWorld;

/// Steps before the judged window (two seconds at 60 Hz).
const SETTLE: usize = 120;
/// Steps judged after settling.
const WINDOW: usize = 10;

/// A scene's builder: the number of solver iterations to the world.
type Build = fn(usize) -> PhysicsWorld;

struct Row {
    scene: &'static str,
    setting: String,
    contacts: usize,
    error: f64,
    distance: f64,
    relative: f64,
    worst: String,
    /// The deepest penetration (m) rapier reports at its contacts.
    depth: f64,
    /// The largest relative distance over the window.
    window_max: f64,
    ms: f64,
}

// ANCHOR: judge
/// Steps `world` to rest, then judges each of the next `WINDOW` steps; the row is the last
/// step's, with the largest relative distance of the window beside it.
fn judge(scene: &'static str, setting: String, mut world: PhysicsWorld) -> Row {
    for _ in 0..SETTLE {
        world.step();
    }
    let mut row = None;
    let mut window_max: f64 = 0.0;
    for _ in 0..WINDOW {
        world.step();
        let start = Instant::now();
        let step = contact_problem(
            &world.bodies,
            &world.colliders,
            &world.narrow_phase,
            &world.integration_parameters,
            world.gravity,
        )
        .expect("a settled scene has contacts and finite numbers");
        let report = check(
            &step.problem,
            &step.answer,
            &step.provenance,
            &CheckOptions::default(),
        )
        .expect("rapier's answer has the problem's size and is finite");
        let ms = start.elapsed().as_secs_f64() * 1e3;
        // rapier's separation at its last contact update; negative: penetration.
        let depth = step.contacts.iter().map(|c| -c.dist).fold(0.0, f64::max);
        let reference = report.reference.as_ref().expect("a reference was asked");
        assert!(reference.found, "{scene}: {:?}", reference.attempts);
        let relative = reference.relative_distance.unwrap_or(0.0);
        window_max = window_max.max(relative);
        row = Some(Row {
            scene,
            setting: setting.clone(),
            contacts: report.contacts.len(),
            error: report.error,
            distance: reference.distance.unwrap_or(0.0),
            relative,
            worst: reference.worst_label.clone().unwrap_or_default(),
            depth,
            window_max,
            ms,
        });
    }
    row.expect("WINDOW > 0")
}
// ANCHOR_END: judge

fn main() {
    let default_iterations = IntegrationParameters::default().num_solver_iterations;
    // ANCHOR: scenes
    let builders: [(&'static str, Build); 3] = [
        ("box stack", |k| scenes::box_stack(4, k)),
        ("pile", scenes::pile),
        ("heavy on light", scenes::heavy_on_light),
    ];
    // ANCHOR_END: scenes
    let mut rows = Vec::new();
    for (scene, build) in builders {
        for iterations in [default_iterations, 50] {
            let setting = if iterations == default_iterations {
                format!("{iterations} (default)")
            } else {
                format!("{iterations}")
            };
            rows.push(judge(scene, setting, build(iterations)));
        }
    }

    let mut out = String::new();
    writeln!(
        out,
        "rapier3d-f64 0.36.1, dt = 1/60 s, FrictionModel::Coulomb, mu = 0.5, gravity 9.81 m/s^2"
    )
    .unwrap();
    writeln!(
        out,
        "steps {} to {} judged; a row is step {}'s; window max: largest relative distance",
        SETTLE + 1,
        SETTLE + WINDOW,
        SETTLE + WINDOW
    )
    .unwrap();
    writeln!(out).unwrap();
    writeln!(
        out,
        "{:<15} {:<12} {:>8} {:>9} {:>9} {:>9} {:>9} {:>10}",
        "scene", "iterations", "contacts", "depth m", "error", "dist N s", "relative", "window max"
    )
    .unwrap();
    for r in &rows {
        writeln!(
            out,
            "{:<15} {:<12} {:>8} {:>9} {:>9} {:>9} {:>9} {:>10}",
            r.scene,
            r.setting,
            r.contacts,
            // below a picometre: no penetration (rounding noise of the contact update)
            if r.depth < 1e-12 {
                "0".to_string()
            } else {
                support::sci(r.depth)
            },
            support::sci(r.error),
            support::sci(r.distance),
            support::sci(r.relative),
            support::sci(r.window_max),
        )
        .unwrap();
    }
    writeln!(out).unwrap();
    writeln!(
        out,
        "{:<15} {:<12}  worst contact (farthest from the reference)",
        "scene", "iterations"
    )
    .unwrap();
    for r in &rows {
        writeln!(out, "{:<15} {:<12}  {}", r.scene, r.setting, r.worst).unwrap();
    }
    print!("{out}");
    support::publish("generated/rapier_bridge.txt", &out);

    let mut timing = String::new();
    writeln!(
        timing,
        "time of one judgement (contact_problem, then check), step {} (this machine)",
        SETTLE + WINDOW
    )
    .unwrap();
    writeln!(
        timing,
        "{:<15} {:<12} {:>8} {:>9}",
        "scene", "iterations", "contacts", "ms"
    )
    .unwrap();
    for r in &rows {
        writeln!(
            timing,
            "{:<15} {:<12} {:>8} {:>9.2}",
            r.scene, r.setting, r.contacts, r.ms
        )
        .unwrap();
    }
    print!("{timing}");
    if !support::checking() {
        support::publish("generated/rapier_bridge_timing.txt", &timing);
    }
}

#[test]
fn output_matches_the_book() {
    main();
}
