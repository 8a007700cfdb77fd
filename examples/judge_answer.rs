//! Read a problem made by other software, solve it, and judge the answer in the error
//! measures of the field (chapter "Reading real problems and judging an answer").
//!
//! ```text
//! cargo run --release --example judge_answer            # Siconos's Confeti-ex03
//! cargo run --release --example judge_answer -- FILE    # any problem file (prints only)
//! ```
//!
//! Without an argument it writes `book/src/generated/judge_answer.txt`; its test checks the
//! committed file (skipped, with a notice, when `data/` is absent).

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;
use std::path::Path;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::merit::{check_contacts, fc3d_error};
use nonsmooth::solver::{Params, SolveError, no_observer};
use nonsmooth::splitting::blocked_gauss_seidel;

fn judge(path: &Path, shown_as: &str) -> String {
    let mut out = String::new();
    // ANCHOR: judge
    // Any supported format: the reader is chosen from the file's extension and content.
    let loaded = load(path).unwrap_or_else(|e| panic!("{e}"));
    let AnyProblem::Friction(problem) = &loaded.problem else {
        panic!("{shown_as} is not a local frictional contact problem");
    };

    // Solve it: blocked Gauss-Seidel from zero, to 1e-8 in the Siconos 4.4 normalisation.
    let params = Params {
        tol: 1e-8,
        max_iter: 100_000,
        ..Default::default()
    };
    let mut r = DVector::zeros(problem.dim());
    let info = match blocked_gauss_seidel(problem, &mut r, &params, &mut no_observer()) {
        Ok(info) => info,
        Err(SolveError::NoConvergence(info)) => *info, // judge the last iterate anyway
        Err(e) => panic!("{e}"),
    };

    // Judge it: the natural-map error of Coulomb's law, absolute and in both
    // normalisations, and what each normalisation divides by.
    let error = fc3d_error(problem, &r);
    let u = problem.velocity(&r);
    let (nq, nr, nu) = (problem.q().norm(), r.norm(), u.norm());
    // Contact by contact: the three worst contacts.
    let mut contacts = check_contacts(problem, &r, problem.kind());
    contacts.sort_by(|a, b| b.error.total_cmp(&a.error));
    // ANCHOR_END: judge

    let s = support::sci;
    writeln!(
        out,
        "{shown_as}: {} contacts, {} unknowns, {} friction",
        problem.contacts(),
        problem.dim(),
        problem.kind()
    )
    .unwrap();
    writeln!(
        out,
        "blocked Gauss-Seidel: {} after {} sweeps",
        info.status.name(),
        info.iterations
    )
    .unwrap();
    writeln!(out, "absolute error                  {}", s(error.abs)).unwrap();
    writeln!(out, "‖q‖ = {}   ‖r‖ = {}   ‖u‖ = {}", s(nq), s(nr), s(nu)).unwrap();
    writeln!(
        out,
        "error / max(‖q‖, ‖r‖, ‖u‖)      {}   (Siconos 4.4)",
        s(error.rel)
    )
    .unwrap();
    writeln!(
        out,
        "error / ‖q‖                     {}   (Siconos <= 4.3, Acary et al. 2018)",
        s(error.rel_q)
    )
    .unwrap();
    writeln!(
        out,
        "the two differ by a factor      {}",
        s(error.rel_q / error.rel)
    )
    .unwrap();
    writeln!(out, "worst contacts:").unwrap();
    writeln!(out, "  contact        r_n        u_n       slip      error").unwrap();
    for c in contacts.iter().take(3) {
        writeln!(
            out,
            "  {:>7}  {:>9}  {:>9}  {:>9}  {:>9}",
            c.contact,
            s(c.r_n),
            s(c.u_n),
            s(c.slip),
            s(c.error)
        )
        .unwrap();
    }
    out
}

fn main() {
    // (under `cargo test` the arguments are the test harness's, not a file)
    if let Some(path) = std::env::args_os().nth(1).filter(|_| !cfg!(test)) {
        let path = Path::new(&path);
        print!("{}", judge(path, &path.display().to_string()));
        return;
    }
    let Some(data) = support::shared_data() else {
        return;
    };
    let file = "siconos/fc3d/Confeti-ex03-Fc3D-SBM.dat";
    let out = judge(&data.join(file), file);
    print!("{out}");
    support::publish("generated/judge_answer.txt", &out);
}

#[test]
fn output_matches_the_book() {
    main();
}
