//! What `auto` decides on each problem: the route of methods its strategy ran, the status
//! and the iterations, on every shipped problem and on generated scenes (chapter "Choosing a
//! method", section "What `auto` does").
//!
//! ```text
//! cargo run --release --example auto_routes
//! ```
//!
//! Writes `book/src/generated/auto_routes.txt` (no timings: the decisions depend on measured
//! contraction rates and errors, not on the clock, so the file is the same on every
//! machine); its test checks the committed file.

#[path = "support/mod.rs"]
#[allow(dead_code)]
mod support;

use std::fmt::Write as _;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, discover, load};
use nonsmooth::multibody::scenes;
use nonsmooth::registry::{Choice, auto, solve};
use nonsmooth::solver::{Params, no_observer};

fn main() {
    let mut problems: Vec<(String, AnyProblem)> = Vec::new();
    if let Some(shared) = support::shared_data() {
        for path in discover(&shared).expect("the data folder") {
            let name = path
                .strip_prefix(&shared)
                .unwrap_or(&path)
                .display()
                .to_string();
            // FCLIB files need the hdf5 feature: left out so that the file is the same
            // with and without it
            if let Ok(lp) = load(&path) {
                problems.push((name, lp.problem));
            }
        }
    } else {
        return;
    }
    for (name, scene) in [
        ("scene box-stack 20", scenes::box_stack(20)),
        ("scene wall 10x10", scenes::wall(10, 10)),
        ("scene pyramid 8", scenes::pyramid(8)),
        ("scene heavy-on-light 1e3", scenes::heavy_on_light(1e3)),
        ("scene heavy-on-light 1e6", scenes::heavy_on_light(1e6)),
    ] {
        let scene = scene.expect("scene");
        problems.push((
            format!("{name} (local)"),
            AnyProblem::Friction(scene.local_problem().expect("local")),
        ));
        problems.push((
            format!("{name} (global)"),
            AnyProblem::Global(scene.global_problem().expect("global")),
        ));
    }
    let auto: Choice = "auto".parse().expect("registered");
    let mut out = format!(
        "{:<45} {:<9} {:>5}  {:<22} {:<14} {:>4}\n",
        "problem", "type", "n", "route", "status", "iter"
    );
    let mut converged = 0;
    for (name, p) in &problems {
        let o = solve(
            p,
            &auto,
            DVector::zeros(p.dim()),
            &Params::default(),
            &mut no_observer(),
        );
        let info = o.info();
        let route = info.and_then(|i| auto::route(&i.stats)).unwrap_or("-");
        converged += usize::from(o.status() == "converged");
        let _ = writeln!(
            out,
            "{:<45} {:<9} {:>5}  {:<22} {:<14} {:>4}",
            name,
            p.type_name(),
            p.dim(),
            route,
            o.status(),
            info.map_or("-".into(), |i| i.iterations.to_string())
        );
    }
    let _ = writeln!(out, "{converged} of {} problems converged", problems.len());
    print!("{out}");
    support::publish("generated/auto_routes.txt", &out);
}

#[test]
fn output_matches_the_book() {
    main();
}
