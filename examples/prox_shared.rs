//! PROX Gauss-Seidel (Erleben 2017 Algorithm 2, disk law) on every shared Siconos fc3d
//! file, at the tolerance 1e-8 in the Siconos 4.4 normalisation, beside what Siconos 4.4's
//! PROX and NSGS report (`data/reference/siconos-4.4-fc3d.tsv`).
//!
//! Siconos's PROX is another algorithm with the same name: a proximal point method whose
//! every (outer) iteration solves a regularised problem with a Newton method. Its iteration
//! counts are not sweeps; the comparison that is fair per unit of work is with NSGS.
//!
//! Asserted (the test at the bottom runs `main`):
//!
//! * Every answer a strategy reports as converged meets 1e-8 by `merit::fc3d_error`
//!   (Siconos's formula, measured apart from the solver).
//! * With the Local strategy and a nonmonotone divergence test (window 1000), the options
//!   `nonsmooth solve --method prox-gs` runs (`ProxOptions::recommended`), PROX
//!   Gauss-Seidel converges on every file where Siconos PROX converges.
//!
//! Writes `book/src/generated/prox_shared.txt`: per strategy with the paper's test (roll
//! back when the step grows), the sweeps and rollbacks, or, on failure, the error reached,
//! the rollbacks and the factor by which R was shrunk; then the recommended options of
//! Gauss-Seidel and of Jacobi (`prox-jacobi`: Blocked, window 1000). The table covers the `.dat` files;
//! the one FCLIB `.hdf5` file is solved and asserted only with `--features hdf5`, and is
//! left out of the table so that it reads the same either way.
//!
//! Needs `data/` (skipped with a notice when absent).

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::DVector;
use nonsmooth::merit::fc3d_error;
use nonsmooth::problem::FrictionContact;
use nonsmooth::prox::{ProxOptions, ProxProblem, RFactor, Scheme, prox_solve};
use nonsmooth::solver::{Params, SolveError, no_observer};

/// Sweeps allowed to the paper's scheme, to Gauss-Seidel with the nonmonotone test (the
/// command line's cap for PROX, `method::PROX_DEFAULT_MAX_ITER`), and to Jacobi with it
/// (lower: Jacobi's failures would take minutes at the full cap).
const PAPER_CAP: usize = 20_000;
const VARIANT_CAP: usize = nonsmooth::registry::PROX_DEFAULT_MAX_ITER;
const JACOBI_CAP: usize = 100_000;

/// The columns with the paper's divergence test (window 1): Gauss-Seidel with each
/// strategy, and Jacobi with Local r-factors.
const STRATEGIES: [(Scheme, RFactor, &str); 5] = [
    (
        Scheme::GaussSeidel,
        RFactor::Global { r: 5.0 },
        "Global r = 5",
    ),
    (
        Scheme::GaussSeidel,
        RFactor::GlobalSpectral,
        "Global-spectral",
    ),
    (Scheme::GaussSeidel, RFactor::Local, "Local"),
    (Scheme::GaussSeidel, RFactor::Blocked, "Blocked"),
    (Scheme::Jacobi, RFactor::Local, "Jacobi: Local"),
];

struct Run {
    converged: bool,
    sweeps: usize,
    rollbacks: usize,
    r_scale: f64,
    error: f64,
}

impl Run {
    /// `sweeps (rollbacks)`, or `- error (rollbacks, R shrunk by)` on failure.
    fn cell(&self) -> String {
        if self.converged {
            format!("{} ({})", self.sweeps, self.rollbacks)
        } else {
            format!(
                "- {:.0e} ({}, {:.0e})",
                self.error, self.rollbacks, self.r_scale
            )
        }
    }
}

/// Solves `fc` from zero to 1e-8 and checks a converged answer by Siconos's formula.
fn run(fc: &FrictionContact, p: &ProxProblem, options: ProxOptions, cap: usize) -> Run {
    let mut x = DVector::zeros(p.dim());
    let params = Params {
        tol: 1e-8,
        max_iter: cap,
        ..Default::default()
    };
    let (converged, info) = match prox_solve(p, &mut x, &params, &options, &mut no_observer()) {
        Ok(info) => (true, info),
        Err(SolveError::NoConvergence(info)) => (false, *info),
        Err(e) => panic!("{e}"),
    };
    let (error, stats) = (info.error.rel, info.stats);
    if converged {
        let e = fc3d_error(fc, &x).rel;
        assert!(e <= 1e-8, "reported converged, but fc3d_error is {e:e}");
    }
    Run {
        converged,
        sweeps: stats.sweeps,
        rollbacks: stats.rollbacks,
        r_scale: stats.r_scale,
        error,
    }
}

fn main() {
    let (Some(dir), Some(refs)) = (
        common::shared_file("siconos/fc3d"),
        common::reference("siconos-4.4-fc3d.tsv"),
    ) else {
        return;
    };
    let siconos = |file: &str, solver: &str| {
        refs.iter()
            .find(|r| r.file == file && r.solver == solver)
            .map(|r| (r.info == Some(0), r.iterations.unwrap_or(0)))
    };
    let show = |s: Option<(bool, usize)>| match s {
        Some((true, n)) => n.to_string(),
        Some((false, n)) => format!("- ({n})"),
        None => String::new(),
    };
    let mut names: Vec<String> = refs
        .iter()
        .filter(|r| r.solver == "PROX")
        .map(|r| r.file.clone())
        .collect();
    names.dedup();

    let mut t = String::from("| file | contacts | Siconos NSGS | Siconos PROX |");
    for (_, _, label) in STRATEGIES {
        write!(t, " {label} |").unwrap();
    }
    t.push_str(
        " Local, window 1000 (prox-gs) | Jacobi: Blocked, window 1000 (prox-jacobi) |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut converged = [0usize; STRATEGIES.len()];
    let (mut variant_converged, mut jacobi_converged, mut siconos_prox, mut rows) = (0, 0, 0, 0);
    for name in &names {
        let Some(fc) = common::load_fc3d(&dir.join(name)) else {
            continue;
        };
        let fc = &fc;
        let p = ProxProblem::from_friction_contact(fc);
        let runs: Vec<Run> = STRATEGIES
            .iter()
            .map(|&(scheme, r_factor, _)| {
                let options = ProxOptions {
                    r_factor,
                    ..ProxOptions::paper(scheme)
                };
                run(fc, &p, options, PAPER_CAP)
            })
            .collect();
        let variant = ProxOptions::recommended(Scheme::GaussSeidel);
        assert_eq!((variant.r_factor, variant.window), (RFactor::Local, 1000));
        let v = run(fc, &p, variant, VARIANT_CAP);
        if siconos(name, "PROX").is_some_and(|s| s.0) {
            assert!(
                v.converged,
                "{name}: Siconos PROX converged, Local with window 1000 did not ({:e})",
                v.error
            );
        }
        if !name.ends_with(".dat") {
            eprintln!("{name} (not in the table): {}", v.cell());
            continue;
        }
        let jacobi = ProxOptions::recommended(Scheme::Jacobi);
        assert_eq!((jacobi.r_factor, jacobi.window), (RFactor::Blocked, 1000));
        let j = run(fc, &p, jacobi, JACOBI_CAP);
        jacobi_converged += usize::from(j.converged);
        rows += 1;
        siconos_prox += usize::from(siconos(name, "PROX").is_some_and(|s| s.0));
        variant_converged += usize::from(v.converged);
        for (k, r) in runs.iter().enumerate() {
            converged[k] += usize::from(r.converged);
        }
        write!(
            t,
            "| {name} | {} | {} | {} |",
            fc.contacts(),
            show(siconos(name, "NSGS")),
            show(siconos(name, "PROX"))
        )
        .unwrap();
        for r in &runs {
            write!(t, " {} |", r.cell()).unwrap();
        }
        writeln!(t, " {} | {} |", v.cell(), j.cell()).unwrap();
    }
    assert!(rows >= 27, "expected the 27 .dat files, read {rows}");
    write!(
        t,
        "| **converged** | | | {siconos_prox} of {rows} | {} | {} | {} | {} | {} | {variant_converged} | {jacobi_converged} |\n\n\
         Tolerance 1e-8 in the Siconos 4.4 normalisation, from zero. A cell is `sweeps (rollbacks)`, \
         or, when the run did not converge, `- error reached (rollbacks, factor by which R was shrunk)`. \
         The five columns after Siconos's use the paper's divergence test and at most {PAPER_CAP} sweeps: \
         PROX Gauss-Seidel with each strategy, then PROX Jacobi with Local r-factors; \
         the last two are the options `nonsmooth solve` runs for prox-gs and prox-jacobi (`ProxOptions::recommended`), \
         the nonmonotone test with a window of 1000 sweeps, at most {VARIANT_CAP} sweeps for Gauss-Seidel \
         (the command line's default cap for PROX) and {JACOBI_CAP} for Jacobi. \
         Siconos's columns are its iterations, `- (n)` where it failed \
         (`data/reference/siconos-4.4-fc3d.tsv`); a Siconos PROX iteration is a whole Newton solve, not a sweep.\n",
        converged[0], converged[1], converged[2], converged[3], converged[4]
    )
    .unwrap();
    support::publish("generated/prox_shared.txt", &t);
}

#[test]
fn table_is_up_to_date() {
    main();
}
