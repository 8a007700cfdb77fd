//! The measurements of the implicit Newton stepper on the scenes of Macklin et al. 2019
//! that the crate builds, at several sizes, with the default options (and with the
//! paper's start from `u = 0`, `λ = 0`): Newton iterations per step, steps stopped at the
//! Newton cap, worst penetration, worst joint error, energy gained, time per step.
//! Writes `generated/implicit_reproduction.txt`. The times depend on the machine, so this
//! example is not a test; run it with
//! `cargo run --release --example implicit_reproduction`.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;
use std::time::Instant;

use nonsmooth::implicit::{ImplicitOptions, Model};
use nonsmooth::stepping::{Settings, Simulation, Stepper};
use nonsmooth::world::World;
use support::sci;

/// What one run measured.
#[derive(Default)]
struct Run {
    steps: usize,
    failed: Option<String>,
    newton: usize,
    at_cap: usize,
    penetration: f64,
    joint: f64,
    gained: f64,
    seconds: f64,
}

// ANCHOR: measure
/// Runs `steps` steps. The energy gained is the largest rise of the total energy
/// (kinetic and gravitational, the elastic energy of elements not included) above its
/// lowest earlier value, in J: 0 for a scene that never gains energy.
fn measure(world: &World, model: &Model, opts: ImplicitOptions, steps: usize) -> Run {
    let settings = Settings {
        stepper: Stepper::ImplicitNewton,
        implicit: opts,
        ..Settings::default()
    };
    let mut sim = Simulation::with_model(world.clone(), model.clone(), settings).unwrap();
    let mut r = Run::default();
    let mut lowest = f64::INFINITY;
    let t = Instant::now();
    for _ in 0..steps {
        let rec = match sim.step() {
            Ok(rec) => rec,
            Err(e) => {
                r.failed = Some(e.to_string());
                break;
            }
        };
        r.steps += 1;
        r.newton += rec.iterations;
        r.at_cap += usize::from(rec.status != "converged");
        r.penetration = r.penetration.max(rec.max_penetration);
        if let Some(rep) = sim.last_implicit() {
            r.joint = r.joint.max(rep.bilateral_error);
        }
        let e = rec.kinetic_energy + rec.potential_energy;
        r.gained = r.gained.max(e - lowest);
        lowest = lowest.min(e);
    }
    r.seconds = t.elapsed().as_secs_f64();
    r
}
// ANCHOR_END: measure

fn scene(name: &str, size: usize) -> (World, Model) {
    support::implicit_scene(name, size)
}

/// The contact-rich scenes under the options that change how Newton is posed: the
/// natural map for friction (an exact linearisation, so a direct inner solve), the
/// Armijo line search on the merit, and the damping `1e-3` of the Schur complement,
/// with the minimum map or Fischer-Burmeister; warm start.
fn variants(t: &mut String) {
    use nonsmooth::implicit::linear::{InnerOptions, InnerSolver};
    use nonsmooth::implicit::{FrictionForm, Ncp};
    const STEPS: usize = 100;
    t.push_str(
        "\nOther options, warm start: natural-map friction, direct inner solve (sparse LU), \
         line search on the merit, damping 1e-3:\n\n",
    );
    t.push_str("| scene | size | NCP | Newton its/step | steps at cap | worst penetration (m) | worst joint error | energy gained (J) | ms/step |\n|---|---|---|---|---|---|---|---|---|\n");
    for (name, size) in [
        ("chain", 40),
        ("chain", 160),
        ("arch", 6),
        ("arch", 12),
        ("pile", 20),
        ("pile", 60),
        ("deformable-push", 4),
    ] {
        let (world, model) = scene(name, size);
        for ncp in [Ncp::Min, Ncp::Fb] {
            let opts = ImplicitOptions {
                ncp,
                friction: FrictionForm::NaturalMap,
                line_search: true,
                damping: 1e-3,
                inner: InnerOptions {
                    solver: InnerSolver::Direct,
                    ..Default::default()
                },
                ..Default::default()
            };
            let r = measure(&world, &model, opts, STEPS);
            eprintln!("{name} {size} {}: {:.1} s", ncp.name(), r.seconds);
            let failed = r
                .failed
                .as_ref()
                .map(|e| format!(" (stopped at step {}: {e})", r.steps + 1))
                .unwrap_or_default();
            writeln!(
                t,
                "| {name}{failed} | {size} | {} | {:.1} | {} of {} | {} | {} | {} | {:.1} |",
                ncp.name(),
                r.newton as f64 / r.steps.max(1) as f64,
                r.at_cap,
                r.steps,
                sci(r.penetration),
                sci(r.joint),
                sci(r.gained),
                1e3 * r.seconds / r.steps.max(1) as f64
            )
            .unwrap();
        }
    }
}

fn main() {
    const STEPS: usize = 100;
    let cases: &[(&str, &[usize])] = &[
        ("chain", &[10, 40, 160]),
        ("gripper", &[0]),
        ("arch", &[6, 12]),
        ("pile", &[20, 60, 120]),
        ("deformable-slope", &[4, 8, 12]),
        ("deformable-push", &[4]),
    ];
    let mut t = String::new();
    writeln!(
        t,
        "{STEPS} steps of 10 ms, implicit Newton with its defaults (Fischer-Burmeister, \
         compliance friction, PCR with 20 iterations, at most 20 Newton iterations, \
         tolerance 1e-6 m/s); \"start\": warm (the default: the last step's velocities and \
         multipliers) or cold (the paper's u = 0, λ = 0). Penetration: collision detection \
         at the end of each step; energy gained: the largest rise of kinetic plus \
         gravitational energy above its lowest earlier value (elastic energy not \
         included). Time per step on the machine that ran it (2 cores).\n"
    )
    .unwrap();
    t.push_str("| scene | size | start | Newton its/step | steps at cap | worst penetration (m) | worst joint error | energy gained (J) | ms/step |\n|---|---|---|---|---|---|---|---|---|\n");
    for (name, sizes) in cases {
        for &size in *sizes {
            let (world, model) = scene(name, size);
            for warm in [true, false] {
                let opts = ImplicitOptions {
                    warm_start: warm,
                    ..Default::default()
                };
                let r = measure(&world, &model, opts, STEPS);
                eprintln!("{name} {size} warm {warm}: {:.1} s", r.seconds);
                let failed = r
                    .failed
                    .as_ref()
                    .map(|e| format!(" (stopped at step {}: {e})", r.steps + 1))
                    .unwrap_or_default();
                writeln!(
                    t,
                    "| {name}{failed} | {} | {} | {:.1} | {} of {} | {} | {} | {} | {:.1} |",
                    if size == 0 {
                        "-".to_string()
                    } else {
                        size.to_string()
                    },
                    if warm { "warm" } else { "cold" },
                    r.newton as f64 / r.steps.max(1) as f64,
                    r.at_cap,
                    r.steps,
                    sci(r.penetration),
                    sci(r.joint),
                    sci(r.gained),
                    1e3 * r.seconds / r.steps.max(1) as f64
                )
                .unwrap();
            }
        }
    }
    variants(&mut t);
    support::publish("generated/implicit_reproduction.txt", &t);
}
