//! Which method should `auto` be? Every candidate of each problem type, through the
//! registry (`registry::solve`, the call the command line makes), on every shared
//! problem and on generated scenes: whole solve from zero to 1e-8 (Siconos 4.4
//! normalisation), at most 100 000 iterations (1 000 000 sweeps for PROX), best wall time
//! of 3 runs.
//!
//! Writes `book/src/generated/auto_table.txt` (one row per problem and candidate) and
//! `book/src/generated/auto_summary.txt` (per problem type and candidate: problems solved,
//! the geometric mean of the time over the problems every candidate solved, and the
//! candidate the rule picks: the most problems solved, then the least geometric-mean time).
//!
//! `cargo run --release --example auto_choice` (with `NONSMOOTH_SHARED_DATA` or
//! `data` present; without it only the generated scenes are measured).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, discover, load};
use nonsmooth::multibody::scenes;
use nonsmooth::registry::{Choice, ProblemType, solve};
use nonsmooth::solver::{Params, no_observer};

#[path = "support/mod.rs"]
#[allow(dead_code)]
mod support;

/// The candidates per problem type.
fn candidates(t: ProblemType) -> &'static [&'static str] {
    match t {
        ProblemType::Lcp => &[
            "lemke",
            "pgs",
            "fischer-newton",
            "minmap-newton",
            "nncg",
            "prox-gs",
        ],
        ProblemType::BoxedLcp => &["pgs", "fischer-newton", "minmap-newton", "nncg", "prox-gs"],
        ProblemType::Fc3d => &["nsgs", "nsn", "prox-nsn", "prox-gs"],
        ProblemType::Gfc3d => &["vgs", "nsgs", "nsn", "prox-nsn", "prox-gs"],
        ProblemType::Gmp => &["gmp-newton", "gmp-pgs"],
    }
}

struct Run {
    status: &'static str,
    iterations: Option<usize>,
    error: Option<f64>,
    seconds: f64,
}

fn time(p: &AnyProblem, name: &str) -> Run {
    let choice: Choice = name.parse().expect("registered");
    let params = Params {
        tol: 1e-8,
        max_iter: choice.default_max_iter(),
        ..Default::default()
    };
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..3 {
        let t = Instant::now();
        let o = solve(
            p,
            &choice,
            DVector::zeros(p.dim()),
            &params,
            &mut no_observer(),
        );
        best = best.min(t.elapsed().as_secs_f64());
        let slow = best > 2.0;
        last = Some(o);
        if slow {
            break;
        }
    }
    let o = last.expect("one run");
    Run {
        status: o.status(),
        iterations: o.info().map(|i| i.iterations),
        error: o.info().map(|i| i.error.rel),
        seconds: best,
    }
}

fn main() {
    let mut problems: Vec<(String, AnyProblem)> = Vec::new();
    if let Some(shared) = support::shared_data() {
        // the third-party problems only: the generated scenes are measured below
        let third_party = ["mujoco", "opentissue", "siconos"]
            .iter()
            .flat_map(|sub| discover(shared.join(sub)).expect("the third-party folders"));
        for path in third_party {
            let name = path
                .strip_prefix(&shared)
                .unwrap_or(&path)
                .display()
                .to_string();
            match load(&path) {
                Ok(lp) => problems.push((name, lp.problem)),
                Err(e) => eprintln!("skipping {name}: {e}"),
            }
        }
    } else {
        eprintln!("no shared data: generated scenes only");
    }
    for (name, scene) in [
        ("scene box-stack 20", scenes::box_stack(20)),
        ("scene wall 10x10", scenes::wall(10, 10)),
        ("scene pyramid 8", scenes::pyramid(8)),
        ("scene heavy-on-light 1e3", scenes::heavy_on_light(1e3)),
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

    let mut table = String::from(
        "problem                                         type       method          status          iter       error     seconds\n",
    );
    // per type: candidate -> (solved, per-problem seconds if converged)
    let mut by_type: BTreeMap<&str, (ProblemType, Vec<(String, BTreeMap<&str, Option<f64>>)>)> =
        BTreeMap::new();
    for (name, p) in &problems {
        let t = ProblemType::of(p);
        let mut row = BTreeMap::new();
        for &m in candidates(t) {
            let r = time(p, m);
            let _ = writeln!(
                table,
                "{:<47} {:<10} {:<15} {:<15} {:>5} {:>11} {:>11}",
                name,
                t.name(),
                m,
                r.status,
                r.iterations.map_or("-".into(), |i| i.to_string()),
                r.error.map_or("-".into(), |e| format!("{e:.3e}")),
                format!("{:.3e}", r.seconds)
            );
            row.insert(m, (r.status == "converged").then_some(r.seconds));
        }
        by_type
            .entry(t.name())
            .or_insert_with(|| (t, Vec::new()))
            .1
            .push((name.clone(), row));
    }

    let mut summary = String::from(
        "type       method          solved   geo-mean seconds (problems all solved)   picked\n",
    );
    for (tname, (t, rows)) in &by_type {
        let all: Vec<&BTreeMap<&str, Option<f64>>> = rows
            .iter()
            .map(|(_, r)| r)
            .filter(|r| r.values().all(Option::is_some))
            .collect();
        let mut scored = Vec::new();
        for &m in candidates(*t) {
            let solved = rows.iter().filter(|(_, r)| r[m].is_some()).count();
            let geo = if all.is_empty() {
                f64::NAN
            } else {
                (all.iter().map(|r| r[m].unwrap().ln()).sum::<f64>() / all.len() as f64).exp()
            };
            scored.push((m, solved, geo));
        }
        let pick = scored
            .iter()
            .max_by(|a, b| {
                a.1.cmp(&b.1)
                    .then(b.2.partial_cmp(&a.2).unwrap_or(std::cmp::Ordering::Equal))
            })
            .map(|s| s.0)
            .unwrap_or("-");
        for (m, solved, geo) in &scored {
            let _ = writeln!(
                summary,
                "{:<10} {:<15} {:>3}/{:<3}  {:>12.3e} ({} problems)             {}",
                tname,
                m,
                solved,
                rows.len(),
                geo,
                all.len(),
                if *m == pick { "<- picked" } else { "" }
            );
        }
    }
    print!("{table}\n{summary}");
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src/generated");
    std::fs::write(out.join("auto_table.txt"), &table).expect("write");
    std::fs::write(out.join("auto_summary.txt"), &summary).expect("write");
}
