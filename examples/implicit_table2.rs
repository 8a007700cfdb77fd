//! The examples of Macklin et al. 2019, Table 2, beside the nearest scenes this crate
//! builds, run as the paper ran them: a fixed number of Newton iterations and of PCR
//! iterations per step (no tolerance), the paper's start `u = 0`, `λ = 0` and its other
//! defaults. The paper's columns are quoted from its Table 2 (a GPU implementation);
//! ours are measured on the CPU of the machine that runs it. Writes
//! `generated/implicit_table2.txt`. The times depend on the machine, so this example is
//! not a test; run it with `cargo run --release --example implicit_table2`.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nonsmooth::implicit::linear::InnerOptions;
use nonsmooth::implicit::{ImplicitOptions, Model};
use nonsmooth::stepping::{Settings, Simulation, Stepper};
use nonsmooth::world::World;
use support::sci;

/// One row of the paper's Table 2 (Macklin et al. 2019), quoted: bodies, joints,
/// tetrahedra, contacts of a representative step, Newton and linear iterations per
/// step, solve time per step in ms (average, standard deviation) on their GPU.
struct Published {
    example: &'static str,
    bodies: usize,
    joints: usize,
    tetra: usize,
    contacts: usize,
    newton: usize,
    linear: usize,
    solve_ms: (f64, f64),
}

// ANCHOR: published
/// Macklin et al. 2019, Table 2 (all nine rows).
const TABLE_2: [Published; 9] = [
    Published {
        example: "Allegro DexNet",
        bodies: 21,
        joints: 21,
        tetra: 0,
        contacts: 104,
        newton: 8,
        linear: 20,
        solve_ms: (10.0, 1.5),
    },
    Published {
        example: "Allegro Ball",
        bodies: 21,
        joints: 21,
        tetra: 427,
        contacts: 409,
        newton: 6,
        linear: 50,
        solve_ms: (11.4, 1.2),
    },
    Published {
        example: "PneuNet",
        bodies: 1,
        joints: 0,
        tetra: 2241,
        contacts: 532,
        newton: 4,
        linear: 80,
        solve_ms: (22.25, 1.4),
    },
    Published {
        example: "Fetch Tomato",
        bodies: 29,
        joints: 28,
        tetra: 319,
        contacts: 371,
        newton: 4,
        linear: 50,
        solve_ms: (12.2, 1.25),
    },
    Published {
        example: "Fetch Beam",
        bodies: 42,
        joints: 42,
        tetra: 0,
        contacts: 300,
        newton: 6,
        linear: 50,
        solve_ms: (18.6, 2.25),
    },
    Published {
        example: "Arch",
        bodies: 20,
        joints: 0,
        tetra: 0,
        contacts: 134,
        newton: 6,
        linear: 20,
        solve_ms: (7.75, 1.4),
    },
    Published {
        example: "Table Pile",
        bodies: 54,
        joints: 0,
        tetra: 0,
        contacts: 936,
        newton: 4,
        linear: 20,
        solve_ms: (3.7, 0.95),
    },
    Published {
        example: "Humanoid Run",
        bodies: 5200,
        joints: 4800,
        tetra: 0,
        contacts: 10893,
        newton: 4,
        linear: 10,
        solve_ms: (8.9, 0.25),
    },
    Published {
        example: "Yumi Cabinet",
        bodies: 6400,
        joints: 6600,
        tetra: 0,
        contacts: 4082,
        newton: 5,
        linear: 25,
        solve_ms: (56.0, 6.4),
    },
];
// ANCHOR_END: published

/// The crate's nearest scene to each example, and why; `None`: nothing near.
fn analogue(example: &str) -> Option<(&'static str, &'static str, usize)> {
    Some(match example {
        "Allegro DexNet" => (
            "gripper",
            "two hinged fingers squeezing a box (a grasp, with far fewer bodies)",
            0,
        ),
        "Allegro Ball" | "Fetch Tomato" => (
            "deformable-push",
            "a Neo-Hookean block pushed by rigid boxes (rigid-deformable contact)",
            4,
        ),
        "PneuNet" => ("deformable-slope", "a Neo-Hookean block on a slope", 12),
        "Fetch Beam" => (
            "chain",
            "capsules on ball joints swinging down onto the ground",
            42,
        ),
        "Arch" => ("arch", "a corbel arch of boxes", 5),
        "Table Pile" => (
            "pile",
            "boxes, spheres and capsules dropped onto the ground (no table)",
            54,
        ),
        _ => return None,
    })
}

fn scene(name: &str, size: usize) -> (World, Model) {
    support::implicit_scene(name, size)
}

/// What a run of a crate scene measured.
struct Measured {
    bodies: usize,
    joints: usize,
    tetra: usize,
    contacts_mean: f64,
    contacts_max: usize,
    solve_ms: (f64, f64),
    median_residual: f64,
    below_tol: usize,
    steps: usize,
    failed: Option<String>,
}

// ANCHOR: measure
/// `steps` steps of 10 ms with exactly `newton` Newton and `linear` PCR iterations each
/// (tolerance 0), from `u = 0`, `λ = 0` (no warm start), as the paper. The solve time of
/// a step is the stepper's time without collision detection (assembly included).
fn measure(world: &World, model: &Model, newton: usize, linear: usize, steps: usize) -> Measured {
    let opts = ImplicitOptions {
        newton_iterations: newton,
        tol: 0.0,
        warm_start: false,
        inner: InnerOptions {
            iterations: linear,
            ..Default::default()
        },
        ..Default::default()
    };
    let settings = Settings {
        stepper: Stepper::ImplicitNewton,
        implicit: opts,
        ..Settings::default()
    };
    let mut sim = Simulation::with_model(world.clone(), model.clone(), settings).unwrap();
    let (mut times, mut residuals, mut contacts) = (Vec::new(), Vec::new(), Vec::new());
    let mut failed = None;
    for _ in 0..steps {
        match sim.step() {
            Ok(rec) => {
                times.push(rec.dynamics_seconds * 1e3);
                residuals.push(rec.error);
                contacts.push(rec.contacts);
            }
            Err(e) => {
                failed = Some(e.to_string());
                break;
            }
        }
    }
    let n = times.len().max(1) as f64;
    let mean = times.iter().sum::<f64>() / n;
    let sd = (times.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / n).sqrt();
    let mut sorted = residuals.clone();
    sorted.sort_by(f64::total_cmp);
    Measured {
        bodies: world.bodies().iter().filter(|b| !b.body.fixed).count(),
        joints: model.joints.len(),
        tetra: model.tetrahedra.len(),
        contacts_mean: contacts.iter().sum::<usize>() as f64 / n,
        contacts_max: contacts.iter().copied().max().unwrap_or(0),
        solve_ms: (mean, sd),
        median_residual: sorted.get(sorted.len() / 2).copied().unwrap_or(f64::NAN),
        below_tol: residuals.iter().filter(|&&r| r <= 1e-6).count(),
        steps: times.len(),
        failed,
    }
}
// ANCHOR_END: measure

fn main() {
    const STEPS: usize = 100;
    let mut t = String::new();
    writeln!(
        t,
        "Macklin et al. 2019, Table 2 (quoted: their GPU PCR solver, solve time per step) beside \
         the nearest scene of this crate (measured: {STEPS} steps of 10 ms on the CPU of the machine \
         that ran it (2 cores), with the example's Newton and linear iteration counts fixed, no \
         tolerance, start u = 0, λ = 0). Bodies: moving ones; contacts: mean and largest per \
         step; residual: the median over the steps of the residual (m/s) the fixed counts \
         reach; \"≤ 1e-6\": steps whose residual meets the stepper's default tolerance.\n"
    )
    .unwrap();
    t.push_str(
        "| example (paper) | bodies / joints / tetra / contacts | Newton × linear | GPU ms (paper) | crate scene | bodies / joints / tetra / contacts | CPU ms | residual (m/s) | ≤ 1e-6 |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for p in &TABLE_2 {
        let paper = format!(
            "| {} | {} / {} / {} / {} | {} × {} | {} ± {} |",
            p.example,
            p.bodies,
            p.joints,
            p.tetra,
            p.contacts,
            p.newton,
            p.linear,
            p.solve_ms.0,
            p.solve_ms.1
        );
        let Some((name, what, size)) = analogue(p.example) else {
            writeln!(t, "{paper} none: the crate builds no articulated robot of thousands of bodies | | | | |").unwrap();
            continue;
        };
        let (world, model) = scene(name, size);
        let m = measure(&world, &model, p.newton, p.linear, STEPS);
        eprintln!("{} -> {name}: {:.1} ms", p.example, m.solve_ms.0);
        let failed = m
            .failed
            .as_ref()
            .map(|e| format!(" (stopped at step {}: {e})", m.steps + 1))
            .unwrap_or_default();
        writeln!(
            t,
            "{paper} `{name}`{}: {what}{failed} | {} / {} / {} / {:.0} (≤ {}) | {:.1} ± {:.1} | {} | {} of {} |",
            if size == 0 { String::new() } else { format!(" {size}") },
            m.bodies,
            m.joints,
            m.tetra,
            m.contacts_mean,
            m.contacts_max,
            m.solve_ms.0,
            m.solve_ms.1,
            sci(m.median_residual),
            m.below_tol,
            m.steps
        )
        .unwrap();
    }
    support::publish("generated/implicit_table2.txt", &t);
}
