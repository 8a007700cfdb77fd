//! On real input: PROX Gauss-Seidel (Erleben 2017 Algorithm 2, disk law) on every shared
//! fc3d file, tolerance 1e-8 in the Siconos 4.4 normalisation, beside what Siconos 4.4's
//! PROX and NSGS report (`../shared/reference/siconos-4.4-fc3d.tsv`).
//!
//! Siconos's PROX is another algorithm with the same name: a proximal point method whose
//! every (outer) iteration solves a regularised problem with a Newton method; its iteration
//! counts are not sweeps. The comparison that is fair per unit of work is with NSGS.
//!
//! What is asserted:
//!
//! * Every answer a strategy reports as converged meets 1e-8 by `merit::fc3d_error`
//!   (Siconos's formula, measured independently of the solver).
//! * With the Local strategy and a nonmonotone divergence test (window 1000), PROX
//!   Gauss-Seidel converges on every file where Siconos PROX converges.
//!
//! What is printed (and discussed in the book's *PROX experiments*): per strategy with the
//! paper's test (roll back when the step grows), the sweeps and rollbacks, or, on failure,
//! the error, the rollbacks and the factor `r_scale` by which R was shrunk.

mod common;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, IoErrorKind, load};
use nonsmooth::merit::fc3d_error;
use nonsmooth::prox::{ProxOptions, ProxProblem, ProxStats, RFactor, prox_solve};
use nonsmooth::solver::{Params, SolveError, no_observer};

/// Sweeps allowed to the paper's scheme and to the nonmonotone variant.
const PAPER_CAP: usize = 20_000;
const VARIANT_CAP: usize = 1_000_000;

struct Run {
    converged: bool,
    sweeps: usize,
    rollbacks: usize,
    r_scale: f64,
    error: f64,
}

fn run(p: &ProxProblem, options: ProxOptions, cap: usize) -> (Run, DVector<f64>) {
    let mut x = DVector::zeros(p.dim());
    let mut stats = ProxStats::default();
    let params = Params {
        tol: 1e-8,
        max_iter: cap,
        ..Default::default()
    };
    let result = prox_solve(p, &mut x, options, &params, &mut stats, &mut no_observer());
    let (converged, error) = match &result {
        Ok(info) => (true, info.error.rel),
        Err(SolveError::NoConvergence(info)) => (false, info.error.rel),
        Err(e) => panic!("{e}"),
    };
    (
        Run {
            converged,
            sweeps: stats.sweeps,
            rollbacks: stats.rollbacks,
            r_scale: stats.r_scale,
            error,
        },
        x,
    )
}

#[test]
fn prox_gauss_seidel_on_the_shared_fc3d_files() {
    let (Some(dir), Some(refs)) = (
        common::shared_file("siconos/fc3d"),
        common::reference("siconos-4.4-fc3d.tsv"),
    ) else {
        return;
    };
    let strategies = [
        RFactor::Global { r: 5.0 },
        RFactor::GlobalSpectral,
        RFactor::Local,
        RFactor::Blocked,
    ];
    let mut converged = [0usize; 4];
    let mut variant_converged = 0;
    let mut files = 0;
    eprintln!(
        "{:34} {:>4} | {:>6} {:>6} | {:>22} {:>22} {:>22} {:>22} | {:>8}",
        "file",
        "nc",
        "NSGS",
        "PROX",
        "global r=5",
        "global-spectral",
        "local",
        "blocked",
        "local w1000"
    );
    let siconos = |file: &str, solver: &str| {
        refs.iter()
            .find(|r| r.file == file && r.solver == solver)
            .map(|r| (r.info == Some(0), r.iterations.unwrap_or(0)))
    };
    let show = |(ok, n): (bool, usize)| if ok { n.to_string() } else { format!("({n})") };
    let mut names: Vec<String> = refs
        .iter()
        .filter(|r| r.solver == "PROX")
        .map(|r| r.file.clone())
        .collect();
    names.dedup();
    for name in &names {
        let lp = match load(dir.join(name)) {
            Ok(lp) => lp,
            Err(e) if matches!(e.kind, IoErrorKind::FeatureDisabled(_)) => {
                eprintln!("skipping {name}: {e}");
                continue;
            }
            Err(e) => panic!("{e}"),
        };
        let AnyProblem::Friction(fc) = &lp.problem else {
            panic!("{name} is not fc3d")
        };
        files += 1;
        let p = ProxProblem::from_friction_contact(fc);
        let mut cells = Vec::new();
        for (i, &r_factor) in strategies.iter().enumerate() {
            let options = ProxOptions {
                r_factor,
                ..Default::default()
            };
            let (run, x) = run(&p, options, PAPER_CAP);
            if run.converged {
                converged[i] += 1;
                assert!(fc3d_error(fc, &x).rel <= 1e-8);
                cells.push(format!("{} ({})", run.sweeps, run.rollbacks));
            } else {
                cells.push(format!(
                    "- {:.0e} ({}, {:.0e})",
                    run.error, run.rollbacks, run.r_scale
                ));
            }
        }
        let variant = ProxOptions {
            r_factor: RFactor::Local,
            window: 1000,
            ..Default::default()
        };
        let (run, x) = run(&p, variant, VARIANT_CAP);
        let prox_ok = siconos(name, "PROX").is_some_and(|s| s.0);
        if prox_ok {
            assert!(
                run.converged,
                "{name}: Siconos PROX converged, Local w1000 did not ({:e})",
                run.error
            );
            assert!(fc3d_error(fc, &x).rel <= 1e-8);
        }
        if run.converged {
            variant_converged += 1;
        }
        eprintln!(
            "{:34} {:>4} | {:>6} {:>6} | {:>22} {:>22} {:>22} {:>22} | {:>8}",
            name,
            fc.contacts(),
            siconos(name, "NSGS").map(show).unwrap_or_default(),
            siconos(name, "PROX").map(show).unwrap_or_default(),
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            if run.converged {
                run.sweeps.to_string()
            } else {
                "-".into()
            }
        );
    }
    eprintln!(
        "{files} files; converged within {PAPER_CAP} sweeps (paper's test): global {}, global-spectral {}, local {}, blocked {}; local with window 1000: {variant_converged}",
        converged[0], converged[1], converged[2], converged[3]
    );
    assert!(files >= 27, "expected the 27 .dat files, read {files}");
}
