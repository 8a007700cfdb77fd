//! The proximal-point method (`ppa`) beside the semismooth Newton method (`nsn`) and
//! PROX-started Newton (`prox-nsn`) on the shared Capsules files (Siconos fc3d, Coulomb),
//! where Siconos's PROX is the best Siconos solver: whole solve from zero to 1e-8 in the
//! Siconos 4.4 normalisation, through the registry (what `nonsmooth solve --method ppa`
//! runs), each timed as the best of 3 runs in this process.
//!
//! Writes `book/src/generated/proximal_point.txt`: per file, the outer iterations and
//! inner Newton iterations of `ppa`, the iterations of `nsn` and `prox-nsn`, the outer
//! iterations Siconos 4.4 PROX reports (`data/reference/siconos-4.4-fc3d.tsv`), and
//! the time of `ppa` divided by that of each other method. Times depend on the machine and
//! its load, so this example is not run as a test (its table is not checked).
//!
//! Needs `data/` (skipped with a notice when absent).
//!
//! ```console
//! cargo run --release --example proximal_point
//! ```

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nonsmooth::problem::AnyProblem;
use nonsmooth::registry::{Choice, Outcome};
use nonsmooth::solver::Params;

/// The best-of-3 outcome of `method` on `p` from zero, with its time in seconds
/// ([`support::best_of`]).
fn run(p: &AnyProblem, method: &str, params: &Params) -> (Outcome, f64) {
    let choice: Choice = method.parse().expect("registered");
    support::best_of(3, p, &choice, params)
}

fn main() {
    let Some(dir) = common::shared_file("siconos/fc3d") else {
        return;
    };
    let refs = common::reference("siconos-4.4-fc3d.tsv").unwrap_or_default();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("readable")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.starts_with("Capsules") && n.ends_with(".dat")
        })
        .collect();
    files.sort();
    if files.is_empty() {
        eprintln!("skipping: no Capsules .dat file in {}", dir.display());
        return;
    }
    let params = Params {
        tol: 1e-8,
        max_iter: 1000,
        ..Default::default()
    };
    let mut t = String::from(
        "| file | contacts | ppa outer | ppa inner Newton | ppa inner failures | Siconos PROX outer | nsn iterations | prox-nsn Newton iterations | time ppa / nsn | time ppa / prox-nsn | ppa ms |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for path in &files {
        let Some(fc) = common::load_fc3d(path) else {
            continue;
        };
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let nc = fc.contacts();
        let p = AnyProblem::Friction(fc);
        let (ppa, t_ppa) = run(&p, "ppa", &params);
        let (nsn, t_nsn) = run(&p, "nsn", &params);
        let (pn, t_pn) = run(&p, "prox-nsn", &params);
        let cell = |o: &Outcome| match o.info() {
            Some(i) if o.status() == "converged" => i.iterations.to_string(),
            Some(i) => format!("- ({:.0e})", i.error.rel),
            None => format!("- ({})", o.status()),
        };
        let stat = |o: &Outcome, k: &str| {
            o.info()
                .and_then(|i| i.stats[k].as_u64())
                .map_or("-".into(), |v| v.to_string())
        };
        let siconos = refs
            .iter()
            .find(|r| r.file == name && r.solver == "PROX")
            .map_or("-".into(), |r| match (r.info, r.iterations) {
                (Some(0), Some(it)) => it.to_string(),
                _ => "- (failed)".into(),
            });
        writeln!(
            t,
            "| {name} | {nc} | {} | {} | {} | {siconos} | {} | {} | {:.2} | {:.2} | {:.1} |",
            cell(&ppa),
            stat(&ppa, "inner_iterations"),
            stat(&ppa, "inner_failures"),
            cell(&nsn),
            cell(&pn),
            t_ppa / t_nsn,
            t_ppa / t_pn,
            1e3 * t_ppa,
        )
        .expect("string");
    }
    t.push_str(
        "\nTolerance 1e-8 in the Siconos 4.4 normalisation, from zero, default options, \
         at most 1000 (outer) iterations; times are the best of 3 runs in one process, \
         on the machine that wrote this file. A cell `- (e)` is a run that did not converge, \
         with the error it reached. Siconos PROX outer iterations are from \
         `data/reference/siconos-4.4-fc3d.tsv` (Siconos 4.4, its default options).\n",
    );
    support::publish("generated/proximal_point.txt", &t);
}
