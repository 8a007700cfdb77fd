//! The convergence figures of the chapter "Splitting methods and projected Gauss-Seidel",
//! with the tables computed from the same runs.
//!
//! ```text
//! cargo run --release --example figures
//! ```
//!
//! Writes, into `book/src/figures/`, an SVG per figure and the CSV of exactly what it plots
//! (`curve,sweep,error`), and into `book/src/generated/` the tables (Markdown, in `.txt`
//! files so that mdbook does not take them for chapters):
//!
//! * `splitting_box_stack.svg` (a generated stack of five boxes, friction box) and
//!   `splitting_dlm72.svg` (OpenTissue's boxed problem `dlm/72`): projected Jacobi,
//!   Gauss-Seidel and SOR with several relaxation factors; a table for each, of the same
//!   name (`splitting_box_stack.txt`, `splitting_dlm72.txt`);
//! * `mass_ratio.svg`: blocked Gauss-Seidel on a heavy box on a light box, mass ratios 1 to
//!   1000; table `mass_ratio.txt` with the rate predicted by the iteration matrix;
//! * `nsgs_real.svg`: blocked Gauss-Seidel on five of Siconos's fc3d problems.
//!
//! Figures that need `data` are skipped, with a notice, when it is absent. The
//! test at the bottom recomputes everything and fails if a committed file differs.

#[path = "support/mod.rs"]
mod support;

use support::plot::{DIVERGED, Figure, Run, record};

use std::fmt::Write;
use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector};
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::multibody::scenes;
use nonsmooth::problem::{BoxedLcp, FrictionContact};
use nonsmooth::solver::{Iterate, Params};
use nonsmooth::splitting::{Splitting, blocked_gauss_seidel, solve_boxed};

/// The methods compared on boxed problems.
fn methods() -> Vec<(String, Splitting)> {
    let mut m = Vec::new();
    for omega in [1.0, 0.5, 0.2] {
        m.push((format!("PJ ω = {omega}"), Splitting::Jacobi { omega }));
    }
    m.push(("PGS".to_string(), Splitting::GaussSeidel));
    for omega in [1.3, 1.6, 1.9] {
        m.push((format!("PSOR ω = {omega}"), Splitting::Sor { omega }));
    }
    m
}

/// `λ_max(D^-1/2 A D^-1/2)`: projected Jacobi with damping `ω` is projected gradient
/// descent with step `ω` on the diagonally scaled problem.
fn scaled_lambda_max(a: &DMatrix<f64>) -> f64 {
    let d = a.diagonal().map(|v| 1.0 / v.sqrt());
    let s = DMatrix::from_diagonal(&d);
    (&s * a * &s).symmetric_eigenvalues().max()
}

/// The rows strictly between their bounds at the point PGS converges to (to `tol`), and
/// `λ_max` of the scaled principal submatrix of `A` on those rows: near a solution, rows
/// at a bound stay clamped and only these rows iterate.
fn free_rows(p: &BoxedLcp, tol: f64) -> (usize, f64) {
    let mut x = DVector::zeros(p.dim());
    let params = Params {
        tol,
        max_iter: 100_000,
        ..Default::default()
    };
    let mut quiet = |_: &Iterate| ControlFlow::Continue(());
    solve_boxed(p, &mut x, Splitting::GaussSeidel, &params, &mut quiet).expect("PGS converges");
    let free: Vec<usize> = (0..p.dim())
        .filter(|&i| {
            let (lo, hi) = p.bounds_at(i, x.as_slice());
            let margin = 1e-6 * (1.0 + x.amax());
            x[i] > lo + margin && x[i] < hi - margin
        })
        .collect();
    let a = p.a().to_dense();
    let sub = DMatrix::from_fn(free.len(), free.len(), |i, j| a[(free[i], free[j])]);
    (free.len(), scaled_lambda_max(&sub))
}

/// Runs every method on a boxed problem; returns the runs.
fn splitting_runs(p: &BoxedLcp, tol: f64, max_iter: usize) -> Vec<Run> {
    let params = Params {
        tol,
        max_iter,
        ..Default::default()
    };
    methods()
        .into_iter()
        .map(|(label, method)| {
            record(&label, |obs| {
                let mut x = DVector::zeros(p.dim());
                solve_boxed(p, &mut x, method, &params, obs)
            })
        })
        .collect()
}

/// The table of one boxed problem: sweeps (or what happened) per method, and the
/// step bound of projected gradient descent.
fn splitting_table(
    runs: &[Run],
    tol: f64,
    max_iter: usize,
    lmax: f64,
    (n, nfree, lmax_free): (usize, usize, f64),
) -> String {
    let mut table = format!("| method | sweeps to {tol:.0e} |\n|---|---:|\n");
    for r in runs {
        let cell = match r.status.as_str() {
            "converged" => r.sweeps.to_string(),
            "diverged" => format!(
                "diverged: error above {DIVERGED:.0e} after {} sweeps",
                r.sweeps
            ),
            _ => {
                let last = r.curve.points.last().map(|p| p.1).unwrap_or(f64::NAN);
                format!("not converged in {max_iter} sweeps (error {last:.1e})")
            }
        };
        writeln!(table, "| {} | {cell} |", r.curve.label).unwrap();
    }
    writeln!(
        table,
        "\nAll {n} rows: λ_max(D^-1/2 A D^-1/2) = {lmax:.4}, so 2 / λ_max = {:.4}. \
         The {nfree} rows strictly between their bounds at the PGS solution: λ_max = \
         {lmax_free:.4}, so 2 / λ_max = {:.4}.",
        2.0 / lmax,
        2.0 / lmax_free
    )
    .unwrap();
    table
}

/// Runs every method on one boxed problem and publishes its figure and table.
fn splitting_figure(name: &str, caption: &str, p: &BoxedLcp, tol: f64, max_iter: usize) {
    let runs = splitting_runs(p, tol, max_iter);
    let lmax = scaled_lambda_max(&p.a().to_dense());
    let (nfree, lmax_free) = free_rows(p, tol);
    support::publish(
        &format!("generated/{name}.txt"),
        &splitting_table(&runs, tol, max_iter, lmax, (p.dim(), nfree, lmax_free)),
    );
    Figure {
        name: name.to_string(),
        caption: format!("Projected splitting methods on {caption}"),
        x_desc: "sweeps",
        y_desc: "boxed error / ‖b‖",
        semilog: true,
        curves: runs.into_iter().map(|r| r.curve).collect(),
        tol,
    }
    .publish();
}

fn splitting_figures() {
    let stack = scenes::box_stack(5)
        .expect("valid scene")
        .local_problem()
        .expect("valid problem");
    let stack = BoxedLcp::from_friction_contact(&stack);
    splitting_figure(
        "splitting_box_stack",
        "5 stacked boxes (friction box)",
        &stack,
        1e-8,
        20_000,
    );
    match support::shared_data() {
        Some(dir) => {
            let lp = load(dir.join("opentissue/dlm/72")).expect("the shared problem reads");
            let AnyProblem::Boxed(p) = lp.problem else {
                panic!("dlm/72 is a boxed LCP")
            };
            splitting_figure("splitting_dlm72", "OpenTissue dlm/72", &p, 1e-10, 20_000);
        }
        None => eprintln!("skipping the dlm/72 figure"),
    }
}

/// The block Gauss-Seidel iteration matrix `T = -(D + L)^-1 U` of `W` with 3x3 blocks
/// (`D + L` the block lower triangle with the diagonal blocks, `U` the rest).
fn block_gauss_seidel_matrix(w: &DMatrix<f64>) -> DMatrix<f64> {
    let n = w.nrows();
    let lower = DMatrix::from_fn(n, n, |i, j| if j / 3 <= i / 3 { w[(i, j)] } else { 0.0 });
    let upper = w - &lower;
    -lower
        .lu()
        .solve(&upper)
        .expect("the diagonal blocks are invertible")
}

/// Moduli of the eigenvalues of a (nonsymmetric) matrix, largest first.
fn eigenvalue_moduli(t: &DMatrix<f64>) -> Vec<f64> {
    let schur =
        nalgebra::Schur::try_new(t.clone(), 1e-14, 100_000).expect("the Schur iteration converges");
    let mut m: Vec<f64> = schur
        .complex_eigenvalues()
        .iter()
        .map(|z| z.norm())
        .collect();
    m.sort_by(|a, b| b.total_cmp(a));
    m
}

fn mass_ratio_figure() -> String {
    let mut table = String::from(
        "| mass ratio χ | sweeps to 1e-8 | observed rate (last 10 sweeps) | ζ(T): largest \\|λ\\| < 1 | eigenvalues with \\|λ\\| = 1 | dim null(W) | (1 - ζ) χ | 1D model χ / (1 + χ) |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut curves = Vec::new();
    for ratio in [1.0, 10.0, 100.0, 1000.0] {
        let fc: FrictionContact = scenes::heavy_on_light(ratio)
            .expect("valid scene")
            .local_problem()
            .expect("valid problem");
        let params = Params {
            tol: 1e-8,
            max_iter: 1_000_000,
            ..Default::default()
        };
        let run = record(&format!("χ = {ratio}"), |obs| {
            let mut r = DVector::zeros(fc.dim());
            blocked_gauss_seidel(&fc, &mut r, &params, obs)
        });
        assert_eq!(run.status, "converged");
        let pts = &run.curve.points;
        let k = pts.len();
        let rate = (pts[k - 1].1 / pts[k - 11].1).powf(0.1);
        let w = fc.w().to_dense();
        let moduli = eigenvalue_moduli(&block_gauss_seidel_matrix(&w));
        let unit = moduli.iter().filter(|m| **m > 1.0 - 1e-9).count();
        let zeta = moduli
            .iter()
            .copied()
            .find(|m| *m <= 1.0 - 1e-9)
            .unwrap_or(0.0);
        let eig = w.clone().symmetric_eigenvalues();
        let rank = eig.iter().filter(|l| l.abs() > 1e-10 * eig.amax()).count();
        writeln!(
            table,
            "| {ratio} | {} | {rate:.6} | {zeta:.6} | {unit} | {} | {:.4} | {:.6} |",
            run.sweeps,
            w.nrows() - rank,
            (1.0 - zeta) * ratio,
            ratio / (1.0 + ratio)
        )
        .unwrap();
        curves.push(run.curve);
    }
    Figure {
        name: "mass_ratio".to_string(),
        caption: "Blocked Gauss-Seidel, a box R times as heavy on a light box".to_string(),
        x_desc: "sweeps",
        y_desc: "Coulomb error (Siconos 4.4 normalisation)",
        semilog: false,
        curves,
        tol: 1e-8,
    }
    .publish();
    table
}

/// Five of Siconos's fc3d problems, blocked Gauss-Seidel to 1e-8 with Siconos's sweep cap.
fn nsgs_real_figure() {
    let Some(dir) = support::shared_data() else {
        eprintln!("skipping the nsgs_real figure");
        return;
    };
    let files = [
        "Rover1039.dat",
        "Confeti-ex03-Fc3D-SBM.dat",
        "Capsules-i122-1617.dat",
        "OneObject-i100000-316.hdf5.dat",
        "BoxesStack1-i100000-32.hdf5.dat",
    ];
    let params = Params {
        tol: 1e-8,
        max_iter: 100_000,
        ..Default::default()
    };
    let curves = files
        .iter()
        .map(|f| {
            let lp = load(dir.join("siconos/fc3d").join(f)).expect("the shared file reads");
            let AnyProblem::Friction(p) = lp.problem else {
                panic!("{f} is an fc3d problem")
            };
            let label = f.trim_end_matches(".dat").trim_end_matches(".hdf5");
            record(label, |obs| {
                let mut r = DVector::zeros(p.dim());
                blocked_gauss_seidel(&p, &mut r, &params, obs)
            })
            .curve
        })
        .collect();
    Figure {
        name: "nsgs_real".to_string(),
        caption: "Blocked Gauss-Seidel on Siconos fc3d problems".to_string(),
        x_desc: "sweeps",
        y_desc: "Coulomb error (Siconos 4.4 normalisation)",
        semilog: false,
        curves,
        tol: 1e-8,
    }
    .publish();
}

fn main() {
    splitting_figures();
    let mass = mass_ratio_figure();
    support::publish("generated/mass_ratio.txt", &mass);
    print!("{mass}");
    nsgs_real_figure();
}

#[test]
fn figures_and_tables_match_the_book() {
    main();
}
