//! Gauss-Seidel then Newton (`gs-nsn`) beside plain Newton (`nsn`) and NSGS on the shared
//! Siconos fc3d files: whole solves from zero to 1e-8 in the Siconos 4.4 normalisation,
//! through the registry (what `nonsmooth solve --method gs-nsn` runs), each timed as the
//! best of 5 runs in this process.
//!
//! Writes `book/src/generated/gs_then_newton.txt`: per file (its name without `.dat`), the
//! iterations of `nsn`; the sweeps, the reason they stopped and the Newton iterations of
//! `gs-nsn` (`2 rate 38`: two sweeps, stopped by the rate test, 38 Newton iterations; `-`
//! when the sweeps finished) with Newton from the given start (the default) and from the
//! sweeps' iterate (`newton_from=sweeps`); and the time of each over that of `nsn`. Times depend on the machine and its load, so this
//! example is not run as a test (its table is not checked).
//!
//! ```console
//! cargo run --release --example gs_then_newton
//! ```

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nonsmooth::registry::{Choice, Outcome};
use nonsmooth::solver::Params;

/// The best-of-5 outcome of `choice` on `p` from zero, with its time in seconds.
fn run(p: &nonsmooth::problem::AnyProblem, choice: &Choice, params: &Params) -> (Outcome, f64) {
    support::best_of(5, p, choice, params)
}

/// `sweeps / switch / Newton iterations` of a `gs-nsn` outcome, or its status.
fn phases(out: &Outcome) -> String {
    match out.info() {
        Some(info) if out.status() == "converged" => {
            let s = &info.stats;
            let newton = s["newton"]
                .is_object()
                .then(|| info.iterations.to_string())
                .unwrap_or_else(|| "-".into());
            format!(
                "{} {} {newton}",
                s["sweeps"],
                s["switch"].as_str().unwrap_or("?")
            )
        }
        _ => out.status().to_string(),
    }
}

fn main() {
    let Some(dir) = common::shared_file("siconos/fc3d") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dat"))
        .collect();
    files.sort();
    let params = Params {
        tol: 1e-8,
        ..Default::default()
    };
    let nsn: Choice = "nsn".parse().expect("registered");
    let gs: Choice = "gs-nsn".parse().expect("registered");
    let warm = gs
        .clone()
        .set_text("newton_from", "sweeps")
        .expect("a gs-nsn option");
    // narrow columns, so that the table fits the book's width: each gs-nsn cell is
    // "sweeps switch Newton-iterations" ("-" when the sweeps finished)
    let mut t = String::from(
        "| file | contacts | nsn iter. | gs-nsn | time / nsn | from sweeps | time / nsn |\n\
         |---|---:|---:|---|---:|---|---:|\n",
    );
    for f in &files {
        let lp = nonsmooth::io::load(f).expect("a shared file");
        let p = &lp.problem;
        let (a, ta) = run(p, &nsn, &params);
        let (b, tb) = run(p, &gs, &params);
        let (c, tc) = run(p, &warm, &params);
        let iters = match a.info() {
            Some(i) if a.status() == "converged" => i.iterations.to_string(),
            _ => a.status().to_string(),
        };
        writeln!(
            t,
            "| {} | {} | {iters} | {} | {:.2} | {} | {:.2} |",
            f.file_name()
                .unwrap()
                .to_string_lossy()
                .trim_end_matches(".dat")
                .trim_end_matches(".hdf5"),
            p.contacts(),
            phases(&b),
            tb / ta,
            phases(&c),
            tc / ta
        )
        .unwrap();
    }
    support::publish("generated/gs_then_newton.txt", &t);
}
