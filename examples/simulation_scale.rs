//! Simulation at scale (the book's chapters "Time stepping" and "Shock propagation"):
//!
//! * brick towers of 40, 80 and 120 rings at rest, 10 projected Gauss-Seidel sweeps a
//!   solve, the plain step against velocity-based shock propagation: the highest rise
//!   of a brick, the worst penetration and the energy after 1 and 100 steps;
//! * time per step per contact on walls from about 1 000 to 100 000 contacts, with
//!   collision detection, assembly, solve and correction apart, for NSGS (the local
//!   problem, `W` formed) and VGS (the velocity-space problem, `W` never formed);
//! * the pile with the settings `nonsmooth simulate` starts from
//!   ([`Settings::recommended`]) over 500 steps, against [`Settings::default`] (the
//!   scheme as the papers print it) over its first 100;
//! * the iteration budget of VSP's whole-system solve, from 1 to 1 000 iterations, on
//!   the 25-box stack, towers and the falling pile.
//!
//! ```text
//! cargo run --release --example simulation_scale [defaults] [per-contact] [towers] [whole-budget]
//! ```
//!
//! Writes `book/src/generated/simulation_towers.txt`, `simulation_per_contact.txt`,
//! `simulation_defaults.txt` and `simulation_whole_budget.txt`. It takes minutes and its timings depend on the machine, so
//! no test checks the committed files: run it again to refresh them.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;
use std::time::Instant;

use nonsmooth::registry::Choice;
use nonsmooth::stepping::diagnostics::{kinetic_energy, potential_energy};
use nonsmooth::stepping::{Correction, Settings, Simulation, StepRecord};
use nonsmooth::world::scenes::pile::{PileParams, build as pile};
use nonsmooth::world::scenes::tower::{TowerParams, build as tower};
use nonsmooth::world::scenes::wall::{WallParams, build as wall};

/// Projected Gauss-Seidel on contact blocks (NSGS) capped at `sweeps`, with the
/// projection correction of Erleben 2007 eq. 46 (5 sweeps).
fn nsgs(sweeps: usize) -> Settings {
    let mut s = Settings {
        method: Choice::new("nsgs").unwrap(),
        ..Settings::default()
    }
    .with_correction(Correction::Projection);
    s.params.max_iter = sweeps;
    s
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

// ANCHOR: tower_state
/// The highest rise of a body above its start (m), the worst penetration (m) and the
/// total energy change (J) of a simulation of a tower that started at rest.
fn tower_state(sim: &Simulation, z0: &[f64], e0: f64, r: &StepRecord) -> (f64, f64, f64) {
    let rise = sim
        .world()
        .bodies()
        .iter()
        .zip(z0)
        .map(|(b, z)| b.body.position.z - z)
        .fold(f64::NEG_INFINITY, f64::max);
    let energy = r.kinetic_energy + r.potential_energy - e0;
    (rise, r.max_penetration, energy)
}
// ANCHOR_END: tower_state

fn towers() {
    let mut t = String::new();
    writeln!(
        t,
        "Brick towers of 8 bricks a ring at rest, 10 NSGS sweeps a solve, projection correction;"
    )
    .unwrap();
    writeln!(
        t,
        "after 1 and 100 steps of 0.01 s: highest rise of a brick (m), worst penetration (m),"
    )
    .unwrap();
    writeln!(t, "energy change (J), median ms a step.\n").unwrap();
    writeln!(
        t,
        "  {:>5} {:>6} {:>5}  {:>10} {:>10} {:>10}  {:>10} {:>10} {:>10} {:>8}",
        "rings",
        "scheme",
        "",
        "rise 1",
        "pen 1",
        "energy 1",
        "rise 100",
        "pen 100",
        "energy 100",
        "ms"
    )
    .unwrap();
    for rings in [40, 80, 120] {
        for (name, s) in [
            ("plain", nsgs(10)),
            ("VSP", nsgs(10).with_shock_propagation(0.005)),
        ] {
            let world = tower(&TowerParams {
                layers: rings,
                ..TowerParams::default()
            })
            .unwrap();
            let z0: Vec<f64> = world.bodies().iter().map(|b| b.body.position.z).collect();
            let mut sim = Simulation::new(world, s).unwrap();
            let mut first = None;
            let mut ms = Vec::new();
            let e0 = kinetic_energy(sim.world()) + potential_energy(sim.world());
            let mut last = (0.0, 0.0, 0.0);
            for k in 0..100 {
                let r = sim.step().unwrap();
                ms.push(1e3 * (r.collision_seconds + r.dynamics_seconds + r.correction_seconds));
                if k == 0 {
                    first = Some(tower_state(&sim, &z0, e0, &r));
                }
                last = tower_state(&sim, &z0, e0, &r);
            }
            let f = first.unwrap();
            writeln!(
                t,
                "  {rings:>5} {name:>6} {:>5}  {:>10.2e} {:>10.2e} {:>10.2e}  {:>10.2e} {:>10.2e} {:>10.2e} {:>8.0}",
                "", f.0, f.1, f.2, last.0, last.1, last.2, median(ms)
            )
            .unwrap();
            eprint!(".");
        }
    }
    support::publish("generated/simulation_towers.txt", &t);
}

/// Walls of growing size, NSGS (local problem, `W` formed) and VGS (velocity-space
/// problem, `W` never formed) at 10 sweeps with the projection correction, 3 steps: the
/// median over the steps of each stage's time per contact (µs), and for each method the
/// ratio of the largest to the smallest time per contact of the whole step.
fn per_contact() {
    let mut t = String::new();
    writeln!(
        t,
        "Walls at rest, 10 sweeps of NSGS (W formed) or VGS (W never formed), projection"
    )
    .unwrap();
    writeln!(
        t,
        "correction; median of 3 steps, time per contact (µs) of each stage of a step:\n"
    )
    .unwrap();
    writeln!(
        t,
        "  {:>6} {:>8} {:>8}  {:>9} {:>9} {:>9} {:>10} {:>9}",
        "method", "bricks", "contacts", "collision", "assembly", "solve", "correction", "step"
    )
    .unwrap();
    let methods = ["nsgs", "vgs"];
    let mut steps: Vec<Vec<f64>> = vec![Vec::new(); methods.len()];
    for rows in [10, 20, 40, 80] {
        for (k, method) in methods.into_iter().enumerate() {
            let world = wall(&WallParams {
                rows,
                per_row: rows,
                ..WallParams::default()
            })
            .unwrap();
            let bricks = world.bodies().len();
            let mut settings = nsgs(10);
            settings.method = Choice::new(method).unwrap();
            let mut sim = Simulation::new(world, settings).unwrap();
            let mut stages = vec![Vec::new(); 5];
            let mut nc = 0;
            for _ in 0..3 {
                let t0 = Instant::now();
                let r = sim.step().unwrap();
                let total = t0.elapsed().as_secs_f64();
                nc = r.contacts;
                let per = |s: f64| 1e6 * s / r.contacts as f64;
                let assembly = r.dynamics_seconds - r.solve_seconds;
                for (k, v) in [
                    r.collision_seconds,
                    assembly,
                    r.solve_seconds,
                    r.correction_seconds,
                    total,
                ]
                .into_iter()
                .enumerate()
                {
                    stages[k].push(per(v));
                }
            }
            let m: Vec<f64> = stages.into_iter().map(median).collect();
            steps[k].push(m[4]);
            writeln!(
                t,
                "  {method:>6} {bricks:>8} {nc:>8}  {:>9.2} {:>9.2} {:>9.2} {:>10.2} {:>9.2}",
                m[0], m[1], m[2], m[3], m[4]
            )
            .unwrap();
            eprint!(".");
        }
    }
    writeln!(t, "\nlargest / smallest time per contact of the step:").unwrap();
    for (method, s) in methods.iter().zip(&steps) {
        let (lo, hi) = (
            s.iter().copied().fold(f64::INFINITY, f64::min),
            s.iter().copied().fold(0.0, f64::max),
        );
        writeln!(t, "  {method}: {:.2}", hi / lo).unwrap();
    }
    support::publish("generated/simulation_per_contact.txt", &t);
}

/// `steps` steps of the default pile with `s`: median and largest time of a step (ms),
/// worst penetration at the end of a step (m) and at the end of the run (m), and the
/// steps whose contact solve stopped at its cap.
fn pile_run(s: Settings, steps: usize) -> (f64, f64, f64, f64, usize) {
    let world = pile(&PileParams::default()).unwrap();
    let mut sim = Simulation::new(world, s).unwrap();
    let (mut ms, mut worst, mut last, mut capped) = (Vec::new(), 0.0_f64, 0.0, 0);
    for _ in 0..steps {
        let r = sim.step().unwrap();
        ms.push(1e3 * (r.collision_seconds + r.dynamics_seconds + r.correction_seconds));
        worst = worst.max(r.max_penetration);
        last = r.max_penetration;
        capped += usize::from(r.status == "max-iterations");
    }
    let max = ms.iter().copied().fold(0.0, f64::max);
    (median(ms), max, worst, last, capped)
}

fn defaults() {
    let mut t = String::new();
    writeln!(
        t,
        "The pile of 60 bodies (`nonsmooth simulate pile`), by settings:\n"
    )
    .unwrap();
    writeln!(
        t,
        "  {:<34} {:>6} {:>10} {:>10} {:>12} {:>12} {:>7}",
        "settings", "steps", "median ms", "max ms", "worst pen", "final pen", "capped"
    )
    .unwrap();
    for (name, s, steps) in [
        ("recommended (simulate's)", Settings::recommended(), 500),
        ("default (the papers' scheme)", Settings::default(), 100),
    ] {
        let (med, max, worst, last, capped) = pile_run(s, steps);
        writeln!(
            t,
            "  {name:<34} {steps:>6} {med:>10.2} {max:>10.1} {worst:>12.2e} {last:>12.2e} {capped:>7}"
        )
        .unwrap();
        eprint!(".");
    }
    support::publish("generated/simulation_defaults.txt", &t);
}

/// The settings of `nonsmooth simulate SCENE --shock-propagation` with the whole-system
/// solve's budget set to `budget` iterations.
fn vsp_cli(budget: usize) -> Settings {
    let mut s = Settings::recommended().with_shock_propagation(0.005);
    s.vsp_whole_budget = budget;
    s
}

/// The whole-system budget of VSP: the 25-box stack and towers of 40 and 80 rings at
/// rest (100 steps), and the falling pile (200 steps), each with the command line's
/// shock-propagation settings and budgets from 1 iteration to the 1 000 of the cap.
fn whole_budget() {
    let mut t = String::new();
    writeln!(
        t,
        "The whole-system solve dynamics(a dT) of VSP (a = 0.005) with a budget of iterations;"
    )
    .unwrap();
    writeln!(
        t,
        "`simulate SCENE --shock-propagation` otherwise (NSGS, cap 1000, tol 1e-8, projection)."
    )
    .unwrap();
    writeln!(
        t,
        "Highest rise of a body (m, scenes at rest), worst penetration over the run (m),"
    )
    .unwrap();
    writeln!(
        t,
        "energy change (J), steps whose layer solves all converged, median whole-system"
    )
    .unwrap();
    writeln!(
        t,
        "iterations and median ms a step.
"
    )
    .unwrap();
    writeln!(
        t,
        "  {:<12} {:>6} {:>6}  {:>10} {:>10} {:>11} {:>9} {:>6} {:>8}",
        "scene", "steps", "budget", "rise", "worst pen", "energy", "layers ok", "iter", "ms"
    )
    .unwrap();
    let box_stack = || {
        nonsmooth::world::scenes::box_stack::build(
            &nonsmooth::world::scenes::box_stack::BoxStackParams {
                count: 25,
                ..Default::default()
            },
        )
        .unwrap()
    };
    let ring = |layers| {
        tower(&TowerParams {
            layers,
            ..TowerParams::default()
        })
        .unwrap()
    };
    let scenes: Vec<(&str, Box<dyn Fn() -> nonsmooth::world::World>, usize, bool)> = vec![
        ("box-stack 25", Box::new(box_stack), 100, true),
        ("tower 40", Box::new(move || ring(40)), 100, true),
        ("tower 80", Box::new(move || ring(80)), 100, true),
        (
            "pile 60",
            Box::new(|| pile(&PileParams::default()).unwrap()),
            200,
            false,
        ),
    ];
    for (name, build, steps, at_rest) in &scenes {
        for budget in [1, 3, 10, 30, 100, 1000] {
            let world = build();
            let z0: Vec<f64> = world.bodies().iter().map(|b| b.body.position.z).collect();
            let mut sim = Simulation::new(world, vsp_cli(budget)).unwrap();
            let e0 = kinetic_energy(sim.world()) + potential_energy(sim.world());
            let (mut ms, mut iters, mut worst, mut ok) = (Vec::new(), Vec::new(), 0.0_f64, 0);
            let mut last = None;
            for _ in 0..*steps {
                let r = sim.step().unwrap();
                ms.push(1e3 * (r.collision_seconds + r.dynamics_seconds + r.correction_seconds));
                iters.push(r.whole_iterations as f64);
                worst = worst.max(r.max_penetration);
                ok += usize::from(r.status == "converged" || r.status == "no-contacts");
                last = Some(r);
            }
            let r = last.unwrap();
            let (rise, _, energy) = tower_state(&sim, &z0, e0, &r);
            let rise = if *at_rest {
                format!("{rise:.2e}")
            } else {
                "-".into()
            };
            writeln!(
                t,
                "  {name:<12} {steps:>6} {budget:>6}  {rise:>10} {worst:>10.2e} {energy:>11.2e} {ok:>9} {:>6.0} {:>8.1}",
                median(iters),
                median(ms)
            )
            .unwrap();
            eprint!(".");
        }
    }
    support::publish("generated/simulation_whole_budget.txt", &t);
}

/// Runs every part, or only those named on the command line (`defaults`,
/// `per-contact`, `towers`, `whole-budget`).
fn main() {
    let only: Vec<String> = std::env::args().skip(1).collect();
    let wanted = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    if wanted("defaults") {
        defaults();
    }
    if wanted("per-contact") {
        per_contact();
    }
    if wanted("towers") {
        towers();
    }
    if wanted("whole-budget") {
        whole_budget();
    }
    eprintln!();
}
