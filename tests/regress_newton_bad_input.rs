//! Regressions for the Newton family on bad or degenerate input: a clear error, never a
//! panic, never NaN.
//!
//! * a singular `A` (rank one): every method returns a finite `x`; with
//!   `OnSingular::Error` a failed LU is reported as `SolveError::Singular`;
//! * a wrong `x` length and invalid options are `SolveError::Problem`;
//! * NNCG on a zero diagonal is `SolveError::Problem` (projected Gauss-Seidel divides by it).

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::newton::{
    Armijo, FischerNewton, InnerSolver, LineSearch, MinMapNewton, Nncg, OnSingular, fischer_newton,
    min_map_newton, nncg,
};
use nonsmooth::problem::Lcp;
use nonsmooth::solver::{Params, SolveError, no_observer};

fn rank_one() -> Lcp {
    // x1 + x2 = 1 on the solution set: infinitely many solutions, A singular
    Lcp::new(
        Matrix::Dense(DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 1.0, 1.0])),
        DVector::from_vec(vec![-1.0, -1.0]),
    )
    .unwrap()
}

#[test]
fn singular_matrix_gives_finite_answers() {
    let lcp = rank_one();
    let params = Params {
        tol: 1e-10,
        max_iter: 50,
        ..Default::default()
    };
    for inner in [InnerSolver::Lu, InnerSolver::GMRES, InnerSolver::QUASI_NCG] {
        for on_singular in [OnSingular::Gmres, OnSingular::Gradient] {
            let mut x = DVector::zeros(2);
            let options = FischerNewton {
                inner,
                on_singular,
                ..Default::default()
            };
            let r = fischer_newton(&lcp, &mut x, &params, &options, &mut no_observer());
            assert!(x.iter().all(|v| v.is_finite()), "{inner:?}: {x}");
            if let Ok(info) = r {
                assert!(info.error.rel <= 1e-10);
            }
        }
    }
    let mut x = DVector::zeros(2);
    let _ = min_map_newton(
        &lcp,
        &mut x,
        &params,
        &MinMapNewton::default(),
        &mut no_observer(),
    );
    assert!(x.iter().all(|v| v.is_finite()));
    let mut x = DVector::zeros(2);
    let _ = nncg(&lcp, &mut x, &params, &Nncg::default(), &mut no_observer());
    assert!(x.iter().all(|v| v.is_finite()));
}

#[test]
fn singular_reduced_system_is_an_error_when_asked() {
    // From zero both rows are free (w = -1 < x = 0): the reduced matrix is A itself.
    let lcp = rank_one();
    let mut x = DVector::zeros(2);
    let options = MinMapNewton {
        on_singular: OnSingular::Error,
        ..Default::default()
    };
    let r = min_map_newton(
        &lcp,
        &mut x,
        &Params::default(),
        &options,
        &mut no_observer(),
    );
    assert!(matches!(r, Err(SolveError::Singular { .. })), "{r:?}");
    assert!(x.iter().all(|v| v.is_finite()));
}

#[test]
fn wrong_length_and_invalid_options_are_problem_errors() {
    let lcp = rank_one();
    let mut x = DVector::zeros(3);
    let r = fischer_newton(
        &lcp,
        &mut x,
        &Params::default(),
        &FischerNewton::default(),
        &mut no_observer(),
    );
    assert!(matches!(r, Err(SolveError::Problem(_))));
    let mut x = DVector::zeros(2);
    for options in [
        FischerNewton {
            line_search: LineSearch::Armijo(Armijo {
                c: 1.5,
                ..Default::default()
            }),
            ..Default::default()
        },
        FischerNewton {
            inner: InnerSolver::Gmres {
                restart: 0,
                max_iter: 10,
                rel_tol: 1e-2,
            },
            ..Default::default()
        },
        FischerNewton {
            descent_rho: f64::NAN,
            ..Default::default()
        },
    ] {
        let r = fischer_newton(
            &lcp,
            &mut x,
            &Params::default(),
            &options,
            &mut no_observer(),
        );
        assert!(matches!(r, Err(SolveError::Problem(_))), "{r:?}");
    }
    let options = MinMapNewton {
        inner: InnerSolver::QUASI_NCG,
        ..Default::default()
    };
    let r = min_map_newton(
        &lcp,
        &mut x,
        &Params::default(),
        &options,
        &mut no_observer(),
    );
    assert!(matches!(r, Err(SolveError::Problem(_))));
}

#[test]
fn nncg_rejects_a_zero_diagonal() {
    let lcp = Lcp::new(
        Matrix::Dense(DMatrix::from_row_slice(2, 2, &[0.0, 1.0, 1.0, 2.0])),
        DVector::from_vec(vec![-1.0, -1.0]),
    )
    .unwrap();
    let mut x = DVector::zeros(2);
    let r = nncg(
        &lcp,
        &mut x,
        &Params::default(),
        &Nncg::default(),
        &mut no_observer(),
    );
    assert!(matches!(r, Err(SolveError::Problem(_))));
}
