//! Time per step against the number of contacts (Erleben 2007 figure 18), with collision
//! detection and the dynamics reported apart: walls and piles of growing size, 10 NSGS
//! sweeps a step (the paper's budget), dt = 0.01 s.
//!
//! ```text
//! cargo run --release --example simulation_timing
//! ```
//!
//! Writes `book/src/generated/simulation_timing.txt`. Timings depend on the machine and
//! its load, so, unlike the other examples, this one has no test that checks the
//! committed file: run it again to refresh it.

use std::fmt::Write;

use nonsmooth::registry::Choice;
use nonsmooth::stepping::{Settings, Simulation};
use nonsmooth::world::scenes::{SceneKind, build};

/// Median of a list.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut t = String::new();
    writeln!(t, "Time per step (median over the measured steps, ms) against contacts; 10 NSGS sweeps a step,").unwrap();
    writeln!(
        t,
        "dt = 0.01 s, velocity-based scheme, no correction. Walls are measured over their first 10"
    )
    .unwrap();
    writeln!(
        t,
        "steps; piles over 10 steps after 150 steps of falling into the bin.\n"
    )
    .unwrap();
    writeln!(
        t,
        "  {:<6} {:>6} {:>7} {:>9} {:>13} {:>12} {:>10} {:>12}",
        "scene",
        "size",
        "bodies",
        "contacts",
        "collision ms",
        "dynamics ms",
        "solve ms",
        "us/contact"
    )
    .unwrap();
    let cases: Vec<(SceneKind, usize, usize)> = [10, 20, 30, 42]
        .iter()
        .map(|&n| (SceneKind::Wall, n, 0))
        .chain(
            [250, 500, 1000, 2000, 3000]
                .iter()
                .map(|&n| (SceneKind::Pile, n, 150)),
        )
        .collect();
    for (kind, size, settle) in cases {
        let world = build(kind, Some(size), 0).unwrap();
        let bodies = world.bodies().len();
        let mut s = Settings {
            method: Choice::new("nsgs").unwrap(),
            ..Settings::default()
        };
        s.params.max_iter = 10;
        let mut sim = Simulation::new(world, s).unwrap();
        for _ in 0..settle {
            sim.step().unwrap();
        }
        let (mut col, mut dynm, mut sol, mut con) = (vec![], vec![], vec![], vec![]);
        for _ in 0..10 {
            let r = sim.step().unwrap();
            col.push(1e3 * r.collision_seconds);
            dynm.push(1e3 * r.dynamics_seconds);
            sol.push(1e3 * r.solve_seconds);
            con.push(r.contacts as f64);
        }
        let contacts = median(con);
        let total = median(col.clone()) + median(dynm.clone());
        writeln!(
            t,
            "  {:<6} {size:>6} {bodies:>7} {contacts:>9.0} {:>13.2} {:>12.2} {:>10.2} {:>12.2}",
            kind.name(),
            median(col),
            median(dynm),
            median(sol),
            1e3 * total / contacts.max(1.0)
        )
        .unwrap();
        eprintln!("{kind} {size}: {contacts} contacts");
    }
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/book/src/generated/simulation_timing.txt"
    );
    std::fs::write(path, &t).unwrap();
    print!("{t}");
}
