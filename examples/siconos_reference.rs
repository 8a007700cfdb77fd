//! The crate's solvers on every shared Siconos problem, beside what Siconos 4.4 reports on
//! the same files (`data/reference/*.tsv`).
//!
//! ```text
//! cargo run --release --example siconos_reference
//! ```
//!
//! Writes three Markdown tables into `book/src/generated/` (as `.txt`, so that mdbook does
//! not take them for chapters):
//!
//! * `nsgs_sweeps.txt`: blocked Gauss-Seidel (NSGS) to 1e-8 with Siconos's cap of 1e5
//!   sweeps, against Siconos's NSGS (chapter "Splitting methods and projected
//!   Gauss-Seidel");
//! * `reference_fc3d.txt`: the same answers measured in both normalisations, with the norms
//!   that make them differ, against Siconos's pair of numbers (chapter "Reading real
//!   problems and judging an answer");
//! * `reference_lcp.txt`: Lemke's method against Siconos's Lemke on the shared LCPs.
//!
//! Skipped, with a notice, when `data/` is absent. FCLIB `.hdf5` files are listed
//! but not solved, whether or not the crate was built with its `hdf5` feature, so that the
//! tables do not depend on how it was built.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;
use std::path::Path;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::pivoting::{LemkeOptions, lemke};
use nonsmooth::solver::{Params, SolveError, no_observer};
use nonsmooth::splitting::blocked_gauss_seidel;

/// One row of a reference table.
struct Reference {
    file: String,
    contacts: String,
    solver: String,
    info: String,
    iterations: String,
    error: String,
    error_q: Option<String>,
    /// The driver's note (`ok`, `CRASH(exit 1)`).
    note: String,
}

fn references(path: &Path) -> Vec<Reference> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let get = |f: &[&str], name: &str| col(name).and_then(|i| f.get(i)).map(|s| s.to_string());
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Reference {
                file: get(&f, "file").expect("file"),
                contacts: get(&f, "nc").or_else(|| get(&f, "n")).unwrap_or_default(),
                solver: get(&f, "solver").expect("solver"),
                info: get(&f, "info").unwrap_or_default(),
                iterations: get(&f, "iter").unwrap_or_default(),
                error: get(&f, "error_siconos44")
                    .or_else(|| get(&f, "error"))
                    .unwrap_or_default(),
                error_q: get(&f, "error_qscaled"),
                note: get(&f, "status").unwrap_or_default(),
            }
        })
        .collect()
}

fn siconos_status(r: &Reference) -> String {
    match r.info.as_str() {
        "0" => "converged".into(),
        "" => format!("no result: {}", r.note),
        _ => "not converged".into(),
    }
}

/// Siconos writes its numbers with three decimals (`4.101e-13`, `0.000e+00`); written as
/// the crate writes them (`4.101e-13`, `0.000e0`) the columns compare at a glance.
fn siconos_number(s: &str) -> String {
    match s.parse::<f64>() {
        Ok(v) => support::sci(v),
        Err(_) => s.to_string(),
    }
}

fn fc3d_tables(data: &Path, reference: &Path) -> (String, String) {
    let mut sweeps = String::from(
        "| file | contacts | Siconos NSGS | sweeps | error | ours | sweeps | error |\n\
         |---|---:|---|---:|---:|---|---:|---:|\n",
    );
    let mut norms = String::from(
        "| file | ‖q‖ | ‖r‖ | ‖u‖ | ours: error | ours: ‖q‖-scaled | ratio | Siconos: error | Siconos: ‖q‖-scaled |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in references(reference).iter().filter(|r| r.solver == "NSGS") {
        let siconos = format!(
            "| {} | {} | {} | {} | {} |",
            r.file,
            r.contacts,
            siconos_status(r),
            r.iterations,
            siconos_number(&r.error)
        );
        if r.file.ends_with(".hdf5") {
            writeln!(sweeps, "{siconos} FCLIB HDF5 file, not solved here | | |").unwrap();
            continue;
        }
        let lp = load(data.join(&r.file)).unwrap_or_else(|e| panic!("{e}"));
        let AnyProblem::Friction(p) = &lp.problem else {
            panic!("{} is not an fc3d problem", r.file)
        };
        // ANCHOR: nsgs
        let params = Params {
            tol: 1e-8,
            max_iter: 100_000,
            ..Default::default()
        };
        let mut x = DVector::zeros(p.dim());
        let result = blocked_gauss_seidel(p, &mut x, &params, &mut no_observer());
        // ANCHOR_END: nsgs
        let (status, info) = match &result {
            Ok(info) => ("converged", info.clone()),
            Err(SolveError::NoConvergence(info)) => ("not converged", (**info).clone()),
            Err(e) => panic!("{}: {e}", r.file),
        };
        writeln!(
            sweeps,
            "{siconos} {status} | {} | {} |",
            info.iterations,
            support::sci(info.error.rel)
        )
        .unwrap();
        let u = p.velocity(&x);
        let (nq, nr, nu) = (p.q().norm(), x.norm(), u.norm());
        writeln!(
            norms,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.file,
            support::sci(nq),
            support::sci(nr),
            support::sci(nu),
            support::sci(info.error.rel),
            support::sci(info.error.rel_q),
            support::sci(nq.max(nr).max(nu) / nq),
            siconos_number(&r.error),
            siconos_number(r.error_q.as_deref().unwrap_or("")),
        )
        .unwrap();
    }
    (sweeps, norms)
}

fn lcp_table(data: &Path, reference: &Path) -> String {
    let mut table = String::from(
        "| file | n | Siconos Lemke | pivots | error | ours | pivots | error |\n\
         |---|---:|---|---:|---:|---|---:|---:|\n",
    );
    for r in references(reference).iter().filter(|r| r.solver == "LEMKE") {
        let lp = load(data.join(&r.file)).unwrap_or_else(|e| panic!("{e}"));
        let AnyProblem::Lcp(p) = &lp.problem else {
            panic!("{} is not an LCP", r.file)
        };
        let mut x = DVector::zeros(p.dim());
        let params = Params {
            tol: 1e-10,
            max_iter: 100_000,
            ..Default::default()
        };
        let ours = match lemke(
            p,
            &mut x,
            &params,
            &LemkeOptions::default(),
            &mut no_observer(),
        ) {
            Ok(info) => format!(
                "converged | {} | {} |",
                info.iterations,
                support::sci(info.error.rel)
            ),
            Err(SolveError::RayTermination { pivots }) => {
                format!("ray termination | {pivots} | - |")
            }
            Err(e) => format!("{} | - | - |", e.status_name()),
        };
        writeln!(
            table,
            "| {} | {} | {} | {} | {} | {ours}",
            r.file,
            p.dim(),
            siconos_status(r),
            r.iterations,
            siconos_number(&r.error)
        )
        .unwrap();
    }
    table
}

fn main() {
    let Some(data) = support::shared_data() else {
        return;
    };
    let reference = support::reference_dir(&data);
    let (sweeps, norms) = fc3d_tables(
        &data.join("siconos/fc3d"),
        &reference.join("siconos-4.4-fc3d.tsv"),
    );
    let lcp = lcp_table(
        &data.join("siconos/lcp"),
        &reference.join("siconos-4.4-lcp.tsv"),
    );
    print!("{sweeps}\n{norms}\n{lcp}");
    support::publish("generated/nsgs_sweeps.txt", &sweeps);
    support::publish("generated/reference_fc3d.txt", &norms);
    support::publish("generated/reference_lcp.txt", &lcp);
}

#[test]
fn tables_match_the_book() {
    main();
}
