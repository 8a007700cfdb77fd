//! Issue 8, item 5: a few bytes can describe a 2^20 x 2^20 sparse matrix. Every method
//! must answer promptly and honestly on it — refuse a dense copy with
//! `ProblemError::TooLarge`, or iterate on the sparse matrix — never abort on a
//! multi-GiB allocation, never loop for minutes, never call the answer "converged".

use std::time::{Duration, Instant};

use nalgebra::DVector;
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::AnyProblem;
use nonsmooth::problem::{FrictionContact, FrictionKind, Lcp, ProblemError};
use nonsmooth::registry::{Choice, names, solve};
use nonsmooth::solver::{Params, SolveError, no_observer};

/// `A = 0` (no stored entries), `b = (-1, 0, ..., 0)`: infeasible (`w_0 = -1` whatever `x`).
fn huge_sparse_lcp() -> AnyProblem {
    let n = 1 << 20;
    let mut b = DVector::zeros(n);
    b[0] = -1.0;
    AnyProblem::Lcp(Lcp::new(Matrix::from_triplets(n, n, &[]).unwrap(), b).unwrap())
}

/// `W = 0` with `2^18` contacts (`2^18 · 3` unknowns), `q_0 = -1`: infeasible too.
fn huge_sparse_fc3d(identity: bool) -> AnyProblem {
    let n = 3 << 18;
    let mut q = DVector::zeros(n);
    q[0] = -1.0;
    let w = if identity {
        Matrix::identity(n)
    } else {
        Matrix::from_triplets(n, n, &[]).unwrap()
    };
    AnyProblem::Friction(
        FrictionContact::new(
            w,
            q,
            DVector::from_element(n / 3, 0.5),
            FrictionKind::Coulomb,
        )
        .unwrap(),
    )
}

/// A sparse identity of order 2^20 with `b = (-1, 0, ...)`: solvable (`x = (1, 0, ...)`)
/// by every method that iterates on the sparse matrix.
fn huge_sparse_identity_lcp() -> AnyProblem {
    let n = 1 << 20;
    let mut b = DVector::zeros(n);
    b[0] = -1.0;
    AnyProblem::Lcp(Lcp::new(Matrix::identity(n), b).unwrap())
}

#[test]
fn a_huge_sparse_lcp_is_refused_or_iterated_never_densified() {
    check(&huge_sparse_lcp(), false);
}

#[test]
fn a_huge_infeasible_friction_problem_is_refused_or_iterated() {
    check(&huge_sparse_fc3d(false), false);
}

#[test]
fn huge_sparse_solvable_problems_are_solved_or_refused_promptly() {
    check(&huge_sparse_identity_lcp(), true);
    check(&huge_sparse_fc3d(true), true);
}

fn check(p: &AnyProblem, solvable: bool) {
    let params = Params {
        max_iter: 50,
        ..Default::default()
    };
    for name in names() {
        let method: Choice = name.parse().unwrap();
        let start = Instant::now();
        let o = solve(
            &p,
            &method,
            DVector::zeros(p.dim()),
            &params,
            &mut no_observer(),
        );
        let took = start.elapsed();
        println!(
            "{name}: {} in {took:.2?}: {:?}",
            o.status(),
            o.result.as_ref().err().map(|e| e.to_string())
        );
        if !solvable {
            assert_ne!(o.status(), "converged", "{name}");
        }
        assert!(took < Duration::from_secs(60), "{name} took {took:?}");
        assert!(o.x.iter().all(|v| v.is_finite()), "{name}");
        if let Err(SolveError::Problem(ProblemError::TooLarge { rows, cols, .. })) = &o.result {
            assert!(rows.saturating_mul(*cols) > nonsmooth::matrix::MAX_DENSE_ENTRIES);
        }
        // Lemke's tableau is dense: it must say so (it said "unsupported" before), or
        // name the problem infeasible with a certificate checked on the sparse matrix
        if name == "lemke" && matches!(p, AnyProblem::Lcp(_)) {
            match &o.result {
                Err(SolveError::Problem(ProblemError::TooLarge { .. })) => {}
                Err(SolveError::Infeasible(c)) => {
                    assert!(!solvable, "a certificate on a solvable problem");
                    assert!(c.q_dot_d < 0.0 && c.residual <= 0.0);
                }
                other => panic!(
                    "lemke: {}",
                    other
                        .as_ref()
                        .map(|_| "ok".to_string())
                        .unwrap_or_else(|e| e.to_string())
                ),
            }
        }
    }
}
