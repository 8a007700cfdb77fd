//! The Newton methods on real problems made by other software: the 15 shared Siconos LCPs
//! (beside what Siconos 4.4 reports) and OpenTissue's boxed LCP `dlm/72` (beside projected
//! Gauss-Seidel).
//!
//! ```text
//! cargo run --release --example newton_real
//! ```
//!
//! Writes `book/src/generated/newton_siconos_lcp.txt` and `newton_dlm72.txt`. Needs
//! `data/` (skipped with a notice when absent). The test at the bottom recomputes
//! the tables and fails if a committed file differs.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;
use std::path::Path;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::merit::{Measure, boxed_fischer_merit, boxed_minmap_merit};
use nonsmooth::newton::{
    FischerNewtonOptions, InnerSolver, MinMapNewtonOptions, NewtonReport, NncgOptions,
    fischer_newton, min_map_newton, nncg,
};
use nonsmooth::solver::{Params, SolveError, SolveInfo, Solved, no_observer};
use nonsmooth::splitting::{Splitting, solve_boxed};

/// One row of `data/reference/siconos-4.4-lcp.tsv`: `(info, iterations, error)`.
fn siconos(reference: &str, file: &str, solver: &str) -> Option<(i64, usize, f64)> {
    let mut lines = reference.lines();
    let header: Vec<&str> = lines.next()?.split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let (cf, cs, ci, ct, ce) = (
        col("file")?,
        col("solver")?,
        col("info")?,
        col("iter")?,
        col("error")?,
    );
    lines.find_map(|l| {
        let f: Vec<&str> = l.split('\t').collect();
        if f.get(cf) == Some(&file) && f.get(cs) == Some(&solver) {
            Some((
                f.get(ci)?.parse().ok()?,
                f.get(ct)?.parse().ok()?,
                f.get(ce)?.parse().ok()?,
            ))
        } else {
            None
        }
    })
}

/// Solved to 1e-10 by Siconos's own report (return code 0 and a finite error <= 1e-10).
fn siconos_solved(r: Option<(i64, usize, f64)>) -> bool {
    matches!(r, Some((0, _, e)) if e <= 1e-10)
}

fn siconos_cell(r: Option<(i64, usize, f64)>) -> String {
    match r {
        Some((info, it, e)) => format!("{info} / {it} / {e:.1e}"),
        None => "crashed".into(),
    }
}

fn ours_cell<S>(r: &Result<Solved<S>, SolveError<S>>) -> String {
    match r {
        Ok(i) => format!("{} / {:.1e}", i.iterations, i.error.rel),
        Err(SolveError::NoConvergence(i)) => {
            format!("stopped at {} / {:.1e}", i.iterations, i.error.rel)
        }
        Err(e) => e.status_name().to_string(),
    }
}

fn siconos_lcps(dir: &Path) {
    let reference =
        std::fs::read_to_string(support::reference_dir(dir).join("siconos-4.4-lcp.tsv"))
            .expect("the shared reference table reads");
    let mut files: Vec<String> = std::fs::read_dir(dir.join("siconos/lcp"))
        .expect("the shared LCP folder reads")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".dat"))
        .collect();
    files.sort();
    let mut t = String::from(
        "| file | n | Fischer-Newton: iterations / error | minimum-map Newton: iterations / error | Siconos NEWTON_FB: info / iterations / error | Siconos NEWTONMIN | Siconos LEMKE |\n\
         |---|---:|---|---|---|---|---|\n",
    );
    let params = Params {
        tol: 1e-10,
        max_iter: 1000,
        ..Default::default()
    };
    let mut count = [0usize; 5];
    for file in &files {
        let lp = load(dir.join("siconos/lcp").join(file)).expect("the shared file reads");
        let AnyProblem::Lcp(p) = &lp.problem else {
            panic!("{file} is not an LCP")
        };
        // ANCHOR: siconos_lcp
        let mut x = DVector::zeros(p.dim());
        let fischer = fischer_newton(
            p,
            &mut x,
            &params,
            &FischerNewtonOptions::default(),
            &mut no_observer(),
        );
        let mut x = DVector::zeros(p.dim());
        let minmap = min_map_newton(
            p,
            &mut x,
            &params,
            &MinMapNewtonOptions::default(),
            &mut no_observer(),
        );
        // ANCHOR_END: siconos_lcp
        let (fb, nm, lk) = (
            siconos(&reference, file, "NEWTON_FB"),
            siconos(&reference, file, "NEWTONMIN"),
            siconos(&reference, file, "LEMKE"),
        );
        for (k, solved) in [
            fischer.is_ok(),
            minmap.is_ok(),
            siconos_solved(fb),
            siconos_solved(nm),
            siconos_solved(lk),
        ]
        .into_iter()
        .enumerate()
        {
            count[k] += solved as usize;
        }
        writeln!(
            t,
            "| {file} | {} | {} | {} | {} | {} | {} |",
            p.dim(),
            ours_cell(&fischer),
            ours_cell(&minmap),
            siconos_cell(fb),
            siconos_cell(nm),
            siconos_cell(lk)
        )
        .unwrap();
    }
    writeln!(
        t,
        "| **solved to 1e-10** | | **{}** of {} | **{}** | **{}** | **{}** | **{}** |",
        count[0],
        files.len(),
        count[1],
        count[2],
        count[3],
        count[4]
    )
    .unwrap();
    writeln!(
        t,
        "\nOurs: from zero, stop at an LCP error ‖min(x, Ax + b)‖ / ‖b‖ of 1e-10 or 1000 \
         iterations (\"stopped at\" also covers a stall: no direction decreased the merit). \
         Siconos 4.4 (`data/reference/siconos-4.4-lcp.tsv`): return code (0 = success), \
         iterations, the error it reports; counted as solved when the code is 0 and the error \
         is a number at most 1e-10 (its NEWTONMIN reports success with a NaN error on two \
         files). Siconos crashed on the two `_block` files, which our reader loads."
    )
    .unwrap();
    support::publish("generated/newton_siconos_lcp.txt", &t);
}

/// A solve's result without its statistics.
fn plain<S>(r: Result<Solved<S>, SolveError<S>>) -> Result<SolveInfo, SolveError> {
    r.map(|i| i.map_stats(|_| ()))
        .map_err(SolveError::drop_stats)
}

/// Passes over `A` of a Newton solve, from its report (`None` if it failed otherwise than by
/// not converging, which leaves no report).
fn passes(r: &Result<Solved<NewtonReport>, SolveError<NewtonReport>>) -> Option<usize> {
    let report = match r {
        Ok(i) => &i.stats,
        Err(SolveError::NoConvergence(i)) => &i.stats,
        Err(_) => return None,
    };
    Some(report.steps.iter().map(|s| s.passes).sum())
}

fn dlm72(dir: &Path) {
    let lp = load(dir.join("opentissue/dlm/72")).expect("the shared problem reads");
    let AnyProblem::Boxed(p) = &lp.problem else {
        panic!("dlm/72 is a boxed LCP")
    };
    // merit = abs^2 / 2 <= 1e-10  <=>  abs <= sqrt(2e-10), as tests/real/opentissue.rs
    let params = |max_iter| Params {
        tol: (2e-10f64).sqrt(),
        measure: Measure::Absolute,
        max_iter,
        ..Default::default()
    };
    let mut t = String::from(
        "| method | iterations | passes over A | minimum-map merit θ | Fischer merit Ψ | status |\n\
         |---|---:|---:|---:|---:|---|\n",
    );
    let mut row =
        |label: &str, x: &DVector<f64>, r: Result<SolveInfo, SolveError>, passes: Option<usize>| {
            let (status, it) = match &r {
                Ok(i) => ("converged".to_string(), i.iterations),
                Err(SolveError::NoConvergence(i)) => ("not converged".to_string(), i.iterations),
                Err(e) => (e.status_name().to_string(), 0),
            };
            writeln!(
                t,
                "| {label} | {it} | {} | {:.2e} | {:.2e} | {status} |",
                passes.unwrap_or(it),
                boxed_minmap_merit(p, x),
                boxed_fischer_merit(p, x)
            )
            .unwrap();
        };
    let start = DVector::from_vec(lp.warm_start.clone().unwrap_or_else(|| vec![0.0; p.dim()]));
    for (label, options) in [
        (
            "Fischer-Newton, GMRES (default)",
            FischerNewtonOptions::default(),
        ),
        (
            "Fischer-Newton, LU",
            FischerNewtonOptions {
                inner: InnerSolver::Lu,
                ..Default::default()
            },
        ),
        (
            "Fischer-Newton, paper preset",
            FischerNewtonOptions::paper(),
        ),
    ] {
        let mut x = start.clone();
        let r = fischer_newton(p, &mut x, &params(100), &options, &mut no_observer());
        let passes = passes(&r);
        row(label, &x, plain(r), passes);
    }
    let mut x = start.clone();
    let r = min_map_newton(
        p,
        &mut x,
        &params(100),
        &MinMapNewtonOptions::default(),
        &mut no_observer(),
    );
    let passes = passes(&r);
    row("minimum-map Newton", &x, plain(r), passes);
    let mut x = start.clone();
    let r = nncg(
        p,
        &mut x,
        &params(10_000),
        &NncgOptions::default(),
        &mut no_observer(),
    );
    row("NNCG", &x, plain(r), None);
    let mut x = start.clone();
    let r = solve_boxed(
        p,
        &mut x,
        Splitting::GaussSeidel,
        &params(10_000),
        &mut no_observer(),
    );
    row("projected Gauss-Seidel", &x, r, None);
    writeln!(
        t,
        "\nOpenTissue `dlm/72` ({} unknowns, friction box with bounds that follow the normal \
         values), from the file's `lambda.dlm`; every method stops when the minimum-map merit \
         θ = ½‖min(x - lo, max(x - hi, w))‖² (Erleben 2007 eq. 38) is at most 1e-10.",
        p.dim()
    )
    .unwrap();
    support::publish("generated/newton_dlm72.txt", &t);
}

fn main() {
    let Some(dir) = support::shared_data() else {
        return;
    };
    siconos_lcps(&dir);
    dlm72(&dir);
}

#[test]
fn tables_are_up_to_date() {
    main();
}
