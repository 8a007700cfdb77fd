//! Regressions for the Newton family on bad or degenerate input: a clear error, never a
//! panic, never NaN.
//!
//! * a singular `A` (rank one): every method returns a finite `x`; with
//!   `OnSingular::Error` a failed LU is reported as `SolveError::Singular`;
//! * a wrong `x` length is `SolveError::Problem`, and an option out of range
//!   `ProblemError::InvalidOption` naming the option;
//! * NNCG on a zero diagonal is `SolveError::Problem` (projected Gauss-Seidel divides by it).

use nalgebra::{DMatrix, DVector};
use nonsmooth::composite::prox_then_newton::{ProxNsnOptions, cone_newton_prox_start};
use nonsmooth::matrix::Matrix;
use nonsmooth::newton::{
    Armijo, ConeNewtonOptions, FischerNewtonOptions, InnerSolver, LineSearch, MinMapNewtonOptions,
    NncgOptions, OnSingular, cone_newton, fischer_newton, min_map_newton, nncg,
};
use nonsmooth::policy::staggered::Start;
use nonsmooth::problem::{FrictionContact, FrictionKind, Lcp, ProblemError};
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
            let options = FischerNewtonOptions {
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
        &MinMapNewtonOptions::default(),
        &mut no_observer(),
    );
    assert!(x.iter().all(|v| v.is_finite()));
    let mut x = DVector::zeros(2);
    let _ = nncg(
        &lcp,
        &mut x,
        &params,
        &NncgOptions::default(),
        &mut no_observer(),
    );
    assert!(x.iter().all(|v| v.is_finite()));
}

#[test]
fn singular_reduced_system_is_an_error_when_asked() {
    // From zero both rows are free (w = -1 < x = 0): the reduced matrix is A itself.
    let lcp = rank_one();
    let mut x = DVector::zeros(2);
    let options = MinMapNewtonOptions {
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
        &FischerNewtonOptions::default(),
        &mut no_observer(),
    );
    assert!(matches!(r, Err(SolveError::Problem(_))));
    let mut x = DVector::zeros(2);
    for (option, options) in [
        (
            "line_search",
            FischerNewtonOptions {
                line_search: LineSearch::Armijo(Armijo {
                    c: 1.5,
                    ..Default::default()
                }),
                ..Default::default()
            },
        ),
        (
            "inner",
            FischerNewtonOptions {
                inner: InnerSolver::Gmres {
                    restart: 0,
                    max_iter: 10,
                    rel_tol: 1e-2,
                },
                ..Default::default()
            },
        ),
        (
            "descent_rho",
            FischerNewtonOptions {
                descent_rho: f64::NAN,
                ..Default::default()
            },
        ),
        (
            "start",
            FischerNewtonOptions {
                start: Start::SemiStaggered {
                    threshold: -1.0,
                    max_iter: 3,
                },
                ..Default::default()
            },
        ),
    ] {
        let r = fischer_newton(
            &lcp,
            &mut x,
            &Params::default(),
            &options,
            &mut no_observer(),
        );
        assert!(
            invalid(
                &r.map(|_| ()).map_err(SolveError::drop_stats),
                "fischer-newton",
                option
            ),
            "{option}"
        );
    }
    let options = MinMapNewtonOptions {
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
    assert!(invalid(
        &r.map(|_| ()).map_err(SolveError::drop_stats),
        "minmap-newton",
        "inner"
    ));
    let options = NncgOptions {
        restart_above: 0.0,
        ..Default::default()
    };
    let r = nncg(
        &lcp,
        &mut x,
        &Params::default(),
        &options,
        &mut no_observer(),
    );
    assert!(invalid(
        &r.map(|_| ()).map_err(SolveError::drop_stats),
        "nncg",
        "restart_above"
    ));
    let fc = FrictionContact::new(
        Matrix::Dense(DMatrix::identity(3, 3)),
        DVector::from_vec(vec![-1.0, 0.1, 0.0]),
        DVector::from_vec(vec![0.5]),
        FrictionKind::Coulomb,
    )
    .unwrap();
    let mut r3 = DVector::zeros(3);
    for (option, options) in [
        (
            "armijo",
            ConeNewtonOptions {
                armijo: 0.5,
                ..Default::default()
            },
        ),
        (
            "shrink",
            ConeNewtonOptions {
                shrink: 1.0,
                ..Default::default()
            },
        ),
        (
            "rho_scale",
            ConeNewtonOptions {
                rho_scale: f64::INFINITY,
                ..Default::default()
            },
        ),
        (
            "window",
            ConeNewtonOptions {
                window: 0,
                ..Default::default()
            },
        ),
    ] {
        let r = cone_newton(
            &fc,
            &mut r3,
            &Params::default(),
            &options,
            &mut no_observer(),
        );
        assert!(
            invalid(
                &r.map(|_| ()).map_err(SolveError::drop_stats),
                "nsn",
                option
            ),
            "{option}"
        );
    }
    let options = ProxNsnOptions {
        switch_tol: -1.0,
        ..Default::default()
    };
    let r = cone_newton_prox_start(
        &fc,
        &mut r3,
        &Params::default(),
        &options,
        &mut no_observer(),
    );
    assert!(invalid(
        &r.map(|_| ()).map_err(SolveError::drop_stats),
        "prox-nsn",
        "switch_tol"
    ));
    assert_eq!(r3, DVector::zeros(3), "refused before any iteration");
}

/// `r` is `ProblemError::InvalidOption` for `option` of `method`.
fn invalid(r: &Result<(), SolveError>, method: &str, option: &str) -> bool {
    match r {
        Err(SolveError::Problem(ProblemError::InvalidOption {
            method: m,
            option: o,
            reason,
        })) => m == method && o == option && !reason.is_empty(),
        _ => false,
    }
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
        &NncgOptions::default(),
        &mut no_observer(),
    );
    assert!(matches!(r, Err(SolveError::Problem(_))));
}
