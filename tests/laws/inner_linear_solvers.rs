//! Laws of the inner linear solvers of Macklin et al. 2019 §8.2 (`implicit::linear`):
//! (1) PCR's preconditioned residual norm `sqrt(r^T P^-1 r)` does not increase on SPD
//! systems (Fong and Saunders 2012); (2) PCR, CG and Gauss-Seidel converge to the direct
//! solver's answer; (3) the direct solver agrees with a dense LU; (4) bad input gives the
//! right error and no panic; (5) the report's residuals are the true residuals and the
//! relative tolerance stops early.

use nalgebra::{DMatrix, DVector};
use nalgebra_sparse::{CooMatrix, CsrMatrix};
use nonsmooth::implicit::linear::{InnerError, InnerOptions, InnerSolver, pcr_with_history, solve};
use proptest::prelude::*;

/// The CSR form of a dense matrix (exact zeros not stored).
fn csr(m: &DMatrix<f64>) -> CsrMatrix<f64> {
    let mut coo = CooMatrix::new(m.nrows(), m.ncols());
    for j in 0..m.ncols() {
        for i in 0..m.nrows() {
            if m[(i, j)] != 0.0 {
                coo.push(i, j, m[(i, j)]);
            }
        }
    }
    CsrMatrix::from(&coo)
}

/// An SPD system: `A = D (B^T B + c I) D`, `B` sparse-ish (about a third of its entries
/// nonzero), `c` in `[0.1, 1]`, `D` diagonal with entries `10^s`, `s` in `[0, 1.5]`, so the
/// diagonal of `A` varies by up to `10^3`; `b` and a start `x0` in `[-1, 1]^n`.
fn spd_system() -> impl Strategy<Value = (DMatrix<f64>, DVector<f64>, DVector<f64>)> {
    (2usize..40).prop_flat_map(|n| {
        (
            prop::collection::vec((-1.0..1.0f64, 0..3u8), n * n),
            0.1..1.0f64,
            prop::collection::vec(0.0..1.5f64, n),
            prop::collection::vec(-1.0..1.0f64, n),
            prop::collection::vec(-1.0..1.0f64, n),
        )
            .prop_map(move |(entries, c, s, b, x0)| {
                let bm = DMatrix::from_iterator(
                    n,
                    n,
                    entries.iter().map(|&(v, k)| if k == 0 { v } else { 0.0 }),
                );
                let m = bm.transpose() * &bm + DMatrix::identity(n, n) * c;
                let d = DVector::from_iterator(n, s.iter().map(|s| 10f64.powf(*s)));
                let mut a = m;
                for i in 0..n {
                    for j in 0..n {
                        a[(i, j)] *= d[i] * d[j];
                    }
                }
                // exact symmetry after rounding
                let a = (&a + a.transpose()) * 0.5;
                (a, DVector::from_vec(b), DVector::from_vec(x0))
            })
    })
}

fn direct_answer(a: &CsrMatrix<f64>, b: &DVector<f64>) -> DVector<f64> {
    let mut x = DVector::zeros(b.len());
    let opts = InnerOptions {
        solver: InnerSolver::Direct,
        ..Default::default()
    };
    solve(a, b, &mut x, &opts).unwrap();
    x
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// (1) For SPD `A`, PCR minimises `‖r‖_{P^-1}` over growing Krylov spaces: the norm of
    /// the true residual in that norm does not increase (slack: 1e-12 relative to the
    /// previous value, plus 1e-12 of the initial value for rounding once converged).
    #[test]
    fn pcr_preconditioned_residual_does_not_increase(
        (a, b, x0) in spd_system(),
        extra in 0usize..20,
    ) {
        let n = b.len();
        let a = csr(&a);
        let mut x = x0.clone();
        let opts = InnerOptions { iterations: n + extra, ..Default::default() };
        let (report, history) = pcr_with_history(&a, &b, &mut x, &opts).unwrap();
        prop_assert_eq!(history.len(), report.residuals.len());
        for k in 1..history.len() {
            prop_assert!(
                history[k] <= history[k - 1] * (1.0 + 1e-12) + 1e-12 * history[0],
                "iteration {}: {} > {} (history {:?})", k, history[k], history[k - 1], history
            );
        }
        prop_assert!(x.iter().all(|v| v.is_finite()));
    }

    /// (2) PCR, CG and Gauss-Seidel reach the direct solver's answer (1e-8 relative).
    #[test]
    fn iterative_solvers_match_direct((a, b, x0) in spd_system()) {
        let a = csr(&a);
        let exact = direct_answer(&a, &b);
        for (solver, iterations) in [
            (InnerSolver::Pcr, 2000),
            (InnerSolver::Cg, 2000),
            (InnerSolver::GaussSeidel, 200_000),
        ] {
            let mut x = x0.clone();
            let opts = InnerOptions { solver, iterations, rel_tol: 1e-13 };
            let report = solve(&a, &b, &mut x, &opts).unwrap();
            let err = (&x - &exact).norm() / exact.norm();
            prop_assert!(
                err <= 1e-8,
                "{}: relative error {} after {} iterations (residual {:e})",
                solver.name(), err, report.iterations, report.residuals.last().unwrap()
            );
        }
    }

    /// (3) The sparse LU agrees with nalgebra's dense LU (1e-10 relative), and its report
    /// has one iteration ending at a tiny residual.
    #[test]
    fn direct_matches_dense_lu((a, b, x0) in spd_system()) {
        let dense = a.clone().lu().solve(&b).unwrap();
        let a = csr(&a);
        let mut x = x0.clone();
        let opts = InnerOptions { solver: InnerSolver::Direct, ..Default::default() };
        let report = solve(&a, &b, &mut x, &opts).unwrap();
        prop_assert_eq!(report.iterations, 1);
        prop_assert_eq!(report.residuals.len(), 2);
        let err = (&x - &dense).norm() / dense.norm();
        prop_assert!(err <= 1e-10, "relative difference {}", err);
    }

    /// (5) The report: `iterations + 1` residuals, the first is `‖b - A x0‖`, the last is
    /// the residual of the returned `x`; the fixed count is run in full when `rel_tol = 0`
    /// (for the relaxations, which have no breakdown); `rel_tol > 0` stops at the first
    /// residual below `rel_tol ‖b‖`.
    #[test]
    fn report_residuals_are_true_residuals(
        (a, b, x0) in spd_system(),
        iterations in 0usize..30,
        solver_index in 0usize..5,
    ) {
        let solver = InnerSolver::ALL[solver_index];
        let ad = a.clone();
        let a = csr(&a);
        let mut x = x0.clone();
        let opts = InnerOptions { solver, iterations, rel_tol: 0.0 };
        let report = match solve(&a, &b, &mut x, &opts) {
            Ok(r) => r,
            // plain Jacobi may diverge on SPD matrices that are not diagonally dominant
            Err(InnerError::NonFinite { what: "iterate" }) if solver == InnerSolver::Jacobi => {
                prop_assert!(x.iter().all(|v| v.is_finite()));
                return Ok(());
            }
            Err(e) => return Err(TestCaseError::fail(format!("{}: {e}", solver.name()))),
        };
        prop_assert_eq!(report.residuals.len(), report.iterations + 1);
        prop_assert_eq!(report.residuals[0], (&b - &ad * &x0).norm());
        let last = (&b - &ad * &x).norm();
        let reported = *report.residuals.last().unwrap();
        prop_assert!((last - reported).abs() <= 1e-9 * (1.0 + last), "{} vs {}", last, reported);
        match solver {
            InnerSolver::Direct => prop_assert_eq!(report.iterations, 1),
            InnerSolver::Jacobi | InnerSolver::GaussSeidel => {
                prop_assert_eq!(report.iterations, iterations)
            }
            _ => prop_assert!(report.iterations <= iterations),
        }

        // rel_tol: stop at the first residual at or below the target, not later
        if solver != InnerSolver::Direct {
            let rel_tol = 1e-3;
            let mut x = x0.clone();
            let opts = InnerOptions { solver, iterations: 5000, rel_tol };
            if let Ok(report) = solve(&a, &b, &mut x, &opts) {
                let target = rel_tol * b.norm();
                let res = &report.residuals;
                prop_assert_eq!(res.len(), report.iterations + 1);
                for r in &res[..res.len() - 1] {
                    prop_assert!(*r > target);
                }
                if solver != InnerSolver::Jacobi {
                    prop_assert!(*res.last().unwrap() <= target, "{}: {:?}", solver.name(), res);
                    prop_assert!(report.iterations < 5000);
                }
            }
        }
    }
}

/// (3) on a matrix that is not symmetric: the direct solver does not need symmetry.
#[test]
fn direct_solves_a_nonsymmetric_system() {
    let ad = DMatrix::from_row_slice(3, 3, &[0.0, 2.0, 1.0, 1.0, 0.0, 3.0, 4.0, 1.0, 0.0]);
    let b = DVector::from_vec(vec![1.0, 2.0, 3.0]);
    let dense = ad.clone().lu().solve(&b).unwrap();
    let mut x = DVector::zeros(3);
    let opts = InnerOptions {
        solver: InnerSolver::Direct,
        ..Default::default()
    };
    solve(&csr(&ad), &b, &mut x, &opts).unwrap();
    assert!((&x - &dense).norm() <= 1e-12 * dense.norm());
}

fn spd3() -> DMatrix<f64> {
    DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.0, 1.0, 3.0, 1.0, 0.0, 1.0, 2.0])
}

/// (4) Each bad input gives its error, for every solver, and leaves `x` unchanged.
#[test]
fn bad_input_gives_the_right_error() {
    let a = csr(&spd3());
    let b = DVector::from_vec(vec![1.0, 2.0, 3.0]);
    let x0 = DVector::from_vec(vec![0.5, -0.5, 0.25]);
    for solver in InnerSolver::ALL {
        let opts = InnerOptions {
            solver,
            ..Default::default()
        };
        let run = |a: &CsrMatrix<f64>, b: &DVector<f64>, x: &DVector<f64>| {
            let mut x = x.clone();
            let before = x.clone();
            let out = solve(a, b, &mut x, &opts);
            if out.is_err() && x.len() == before.len() {
                assert_eq!(x, before, "{}: x changed on an input error", solver.name());
            }
            out
        };

        let rect = csr(&DMatrix::from_element(3, 2, 1.0));
        assert_eq!(
            run(&rect, &b, &x0).unwrap_err(),
            InnerError::NotSquare { rows: 3, cols: 2 }
        );
        assert_eq!(
            run(&a, &DVector::zeros(2), &x0).unwrap_err(),
            InnerError::DimensionMismatch {
                what: "b",
                expected: 3,
                got: 2
            }
        );
        assert_eq!(
            run(&a, &b, &DVector::zeros(4)).unwrap_err(),
            InnerError::DimensionMismatch {
                what: "x",
                expected: 3,
                got: 4
            }
        );
        let mut bad = spd3();
        bad[(0, 1)] = f64::NAN;
        assert_eq!(
            run(&csr(&bad), &b, &x0).unwrap_err(),
            InnerError::NonFinite { what: "A" }
        );
        let mut bn = b.clone();
        bn[2] = f64::NAN;
        assert_eq!(
            run(&a, &bn, &x0).unwrap_err(),
            InnerError::NonFinite { what: "b" }
        );
        let mut xn = x0.clone();
        xn[1] = f64::INFINITY;
        assert_eq!(
            run(&a, &b, &xn).unwrap_err(),
            InnerError::NonFinite { what: "x" }
        );
        let mut nan_tol = opts;
        nan_tol.rel_tol = f64::NAN;
        let mut x = x0.clone();
        assert_eq!(
            solve(&a, &b, &mut x, &nan_tol).unwrap_err(),
            InnerError::NonFinite { what: "rel_tol" }
        );

        // a zero (absent) and a negative diagonal: only the Jacobi-preconditioned methods
        // need it positive; the direct solver and GMRES (its preconditioner skips a zero
        // diagonal) solve these non-singular systems
        let mut zero = spd3();
        zero[(1, 1)] = 0.0;
        let mut negative = spd3();
        negative[(2, 2)] = -2.0;
        for (m, row, value) in [(zero, 1, 0.0), (negative, 2, -2.0)] {
            let out = run(&csr(&m), &b, &x0);
            if solver == InnerSolver::Gmres {
                let mut x = x0.clone();
                let opts = InnerOptions {
                    iterations: 50,
                    rel_tol: 1e-14,
                    ..opts
                };
                solve(&csr(&m), &b, &mut x, &opts).unwrap();
                assert!((&m * &x - &b).norm() < 1e-10, "gmres");
            } else if solver == InnerSolver::Direct {
                let x = {
                    let mut x = x0.clone();
                    solve(&csr(&m), &b, &mut x, &opts).unwrap();
                    x
                };
                assert!(out.is_ok());
                assert!((&m * &x - &b).norm() < 1e-12);
            } else {
                assert_eq!(
                    out.unwrap_err(),
                    InnerError::NonPositiveDiagonal { row, value },
                    "{}",
                    solver.name()
                );
            }
        }
    }
}

/// (4) A singular matrix: the direct solver reports `Singular` and leaves `x` unchanged;
/// the messages of every error are readable.
#[test]
fn singular_direct_and_messages() {
    let m = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 1.0, 1.0]);
    let b = DVector::from_vec(vec![1.0, 2.0]);
    let mut x = DVector::from_vec(vec![3.0, 4.0]);
    let opts = InnerOptions {
        solver: InnerSolver::Direct,
        ..Default::default()
    };
    let err = solve(&csr(&m), &b, &mut x, &opts).unwrap_err();
    assert!(matches!(err, InnerError::Singular(_)), "{err:?}");
    assert_eq!(x, DVector::from_vec(vec![3.0, 4.0]));
    assert!(err.to_string().contains("direct solve failed"));
    let e = InnerError::NonPositiveDiagonal {
        row: 4,
        value: -1.0,
    };
    assert!(e.to_string().contains("diagonal entry 4"));
    let e: Box<dyn std::error::Error> = Box::new(InnerError::NotSquare { rows: 2, cols: 3 });
    assert!(e.to_string().contains("2 rows, 3 columns"));
}

/// The iterative methods on a singular PSD system (a consistent `b`): no NaN, no error;
/// PCR and CG stop cleanly at a breakdown with an answer.
#[test]
fn semidefinite_system_gives_finite_answers() {
    // A = v v^T + diag(0,0,1) ... positive diagonal, rank 2
    let m = DMatrix::from_row_slice(3, 3, &[1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    let b = DVector::from_vec(vec![2.0, 2.0, 1.0]); // in the range
    for solver in [InnerSolver::Pcr, InnerSolver::Cg, InnerSolver::GaussSeidel] {
        let mut x = DVector::zeros(3);
        let opts = InnerOptions {
            solver,
            iterations: 50,
            rel_tol: 0.0,
        };
        let report = solve(&csr(&m), &b, &mut x, &opts).unwrap();
        assert!(x.iter().all(|v| v.is_finite()));
        assert!(
            (&m * &x - &b).norm() < 1e-12,
            "{}: {:?}",
            solver.name(),
            report
        );
    }
}

/// Plain Jacobi diverges on an SPD matrix that is not diagonally dominant: the iterate
/// overflows and the error leaves the last finite iterate in `x`.
#[test]
fn plain_jacobi_can_diverge() {
    // eigenvalues of I - D^-1 A = -0.9 * (J - I) for the all-0.9 off-diagonal 3x3: -1.8, 0.9
    let m = DMatrix::from_row_slice(3, 3, &[1.0, 0.9, 0.9, 0.9, 1.0, 0.9, 0.9, 0.9, 1.0]);
    let b = DVector::from_vec(vec![1.0, 0.0, 0.0]);
    let mut x = DVector::zeros(3);
    let opts = InnerOptions {
        solver: InnerSolver::Jacobi,
        iterations: 5000,
        rel_tol: 0.0,
    };
    let err = solve(&csr(&m), &b, &mut x, &opts).unwrap_err();
    assert_eq!(err, InnerError::NonFinite { what: "iterate" });
    assert!(x.iter().all(|v| v.is_finite()) && x.norm() > 1e100);
    // Gauss-Seidel converges on the same SPD matrix
    let mut x = DVector::zeros(3);
    let opts = InnerOptions {
        solver: InnerSolver::GaussSeidel,
        iterations: 5000,
        rel_tol: 1e-12,
    };
    solve(&csr(&m), &b, &mut x, &opts).unwrap();
    assert!((&m * &x - &b).norm() <= 1e-12);
}

#[test]
fn names_round_trip() {
    for s in InnerSolver::ALL {
        assert_eq!(InnerSolver::from_name(s.name()), Some(s));
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, format!("\"{}\"", s.name()));
        assert_eq!(serde_json::from_str::<InnerSolver>(&json).unwrap(), s);
    }
    assert_eq!(InnerSolver::from_name("lu"), None);
    let d = InnerOptions::default();
    assert_eq!(
        (d.solver, d.iterations, d.rel_tol),
        (InnerSolver::Pcr, 20, 0.0)
    );
}
