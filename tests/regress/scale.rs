//! Issue 8, items 1 and 2: the error measures and the solvers must not depend on the
//! problem's scale.
//!
//! 1. A relative error fell back to the absolute one when its denominator was below
//!    machine epsilon, so every problem with `‖q‖ <= 2.2e-16` "converged" at zero
//!    (`A = I, b = -1e-17` read as solved with a 100 % error).
//! 2. Norms were plain sums of squares: `‖q‖ >= 1e154` overflowed to infinity and a valid
//!    problem "diverged at iteration 1"; tiny ones underflowed to zero.

use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::merit::{
    Measure, boxed_error, fc3d_error, friction_error, lcp_error, natural_map_abs, scaled_norm,
};
use nonsmooth::problem::AnyProblem;
use nonsmooth::problem::{BoxedLcp, FrictionContact, FrictionKind, Lcp, RowBound};
use nonsmooth::registry::{Choice, measure, solve};
use nonsmooth::solver::{Params, no_observer};

fn lcp(a: &[f64], b: &[f64]) -> Lcp {
    let n = b.len();
    Lcp::new(
        Matrix::Dense(DMatrix::from_row_slice(n, n, a)),
        DVector::from_column_slice(b),
    )
    .unwrap()
}

fn fc(q: &[f64], mu: f64, kind: FrictionKind) -> FrictionContact {
    fc_with(DMatrix::identity(3, 3), q, mu, kind)
}

fn fc_with(w: DMatrix<f64>, q: &[f64], mu: f64, kind: FrictionKind) -> FrictionContact {
    FrictionContact::new(
        Matrix::Dense(w),
        DVector::from_column_slice(q),
        DVector::from_element(1, mu),
        kind,
    )
    .unwrap()
}

/// `method::solve` with the method named `m`, the file's own law and default parameters.
fn solve_with(p: &AnyProblem, m: &str) -> nonsmooth::registry::Outcome {
    let m: Choice = m.parse().unwrap();
    solve(
        p,
        &m,
        DVector::zeros(p.dim()),
        &Params::default(),
        &mut no_observer(),
    )
}

fn close(a: &DVector<f64>, b: &DVector<f64>, rel: f64) -> bool {
    let s = scaled_norm(b.as_slice());
    a.iter()
        .zip(b.iter())
        .all(|(x, y)| (x - y).abs() <= rel * s)
}

#[test]
fn a_tiny_lcp_is_judged_by_its_relative_error() {
    // x = 0 leaves w = b: the error is 100 % at every scale, as at scale 1.
    for s in [1.0, 1e-12, 1e-17, 1e-200, 1e-310] {
        let p = lcp(&[1.0], &[-s]);
        let e = lcp_error(&p, &DVector::zeros(1));
        assert!((e.rel - 1.0).abs() < 1e-12, "scale {s}: {e:?}");
        assert!(!e.meets(1e-8, Measure::Relative));
        // and the exact answer is exact
        assert_eq!(lcp_error(&p, &DVector::from_element(1, s)).rel, 0.0);
    }
}

/// Inside the window where `solve` leaves the data as given (down to `2^-100`), the
/// methods themselves must not depend on the scale: Lemke's ratio-test ties were absolute
/// (`1e-13 (1 + |v|)`) and with `b = -1e-17` every row tied.
#[test]
fn tiny_lcps_are_solved_not_just_judged() {
    for s in [1.0, 1e-17, 1e-25] {
        let p = AnyProblem::Lcp(lcp(&[1.0, 0.0, 0.0, 1.0], &[-s, -s]));
        for m in [
            "auto",
            "lemke",
            "pgs",
            "fischer-newton",
            "minmap-newton",
            "nncg",
        ] {
            let o = solve_with(&p, m);
            assert_eq!(o.status(), "converged", "scale {s} {m}: {:?}", o.result);
            assert!(
                close(&o.x, &DVector::from_element(2, s), 1e-8),
                "scale {s} {m}: {}",
                o.x
            );
        }
    }
}

#[test]
fn tiny_friction_problems_are_solved_not_just_judged() {
    let w = DMatrix::from_row_slice(3, 3, &[2.0, 0.5, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 1.0]);
    let at = |s: f64| {
        AnyProblem::Friction(fc_with(
            w.clone(),
            &[-s, 0.2 * s, 0.0],
            0.5,
            FrictionKind::Coulomb,
        ))
    };
    let r1 = solve_with(&at(1.0), "nsgs").x;
    for s in [1e-17, 1e-25] {
        for m in ["auto", "nsgs", "nsn", "prox-nsn"] {
            let o = solve_with(&at(s), m);
            assert_eq!(o.status(), "converged", "scale {s} {m}: {:?}", o.result);
            assert!(close(&o.x, &(&r1 * s), 1e-7), "scale {s} {m}: {}", o.x);
        }
    }
}

#[test]
fn a_tiny_friction_problem_is_judged_by_its_relative_error() {
    let w = DMatrix::from_row_slice(3, 3, &[2.0, 0.5, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 1.0]);
    for s in [1.0, 1e-17, 1e-300] {
        let p = FrictionContact::new(
            Matrix::Dense(w.clone()),
            DVector::from_vec(vec![-s, 0.2 * s, 0.0]),
            DVector::from_element(1, 0.5),
            FrictionKind::Coulomb,
        )
        .unwrap();
        let e = fc3d_error(&p, &DVector::zeros(3));
        assert!(e.rel > 0.5 && e.rel_q > 0.5, "scale {s}: {e:?}");
        assert!(!e.meets(1e-8, Measure::Relative));
    }
}

#[test]
fn zero_denominators_fall_back_and_an_all_zero_problem_is_solved_at_zero() {
    // b = 0: x = 0 solves it exactly; another x is judged against max(‖x‖, ‖w‖).
    let p = lcp(&[2.0, 1.0, 1.0, 2.0], &[0.0, 0.0]);
    assert_eq!(lcp_error(&p, &DVector::zeros(2)).rel, 0.0);
    let e = lcp_error(&p, &DVector::from_vec(vec![1e-20, 0.0]));
    // min(x, w) = (1e-20, 0), max(‖x‖, ‖w‖) = ‖(2e-20, 1e-20)‖ = sqrt(5) 1e-20
    assert!((e.rel - 0.2f64.sqrt()).abs() < 1e-15, "{e:?}");
    // a boxed LCP with b = 0 but a fixed bound away from zero
    let bp = BoxedLcp::new(
        Matrix::Dense(DMatrix::identity(1, 1)),
        DVector::zeros(1),
        vec![RowBound::Fixed {
            lo: 1e-30,
            hi: f64::INFINITY,
        }],
    )
    .unwrap();
    let e = boxed_error(&bp, &DVector::zeros(1));
    assert!((e.rel - 1.0).abs() < 1e-15, "{e:?}");
    // q = 0, r = 0: error 0; rel_q falls back to the rel denominator
    let f = fc(&[0.0, 0.0, 0.0], 0.5, FrictionKind::Coulomb);
    let e = friction_error(&f, &DVector::zeros(3));
    assert_eq!((e.abs, e.rel, e.rel_q, e.normal), (0.0, 0.0, 0.0, 0.0));
    let e = friction_error(&f, &DVector::from_vec(vec![1.0, 0.0, 0.0]));
    assert!(e.rel.is_finite() && e.rel == e.rel_q, "{e:?}");
}

#[test]
fn huge_and_tiny_norms_neither_overflow_nor_underflow() {
    for s in [1e160, 1e200, 1e300, 1e-160, 1e-300, 1e-320] {
        let p = lcp(&[2.0, 1.0, 1.0, 2.0], &[-5.0 * s, -6.0 * s]);
        let e = lcp_error(&p, &DVector::zeros(2));
        assert!((e.rel - 1.0).abs() < 1e-3, "scale {s}: {e:?}");
        let f = fc(&[-s, 0.3 * s, 0.0], 0.5, FrictionKind::Coulomb);
        let e = fc3d_error(&f, &DVector::zeros(3));
        assert!(e.is_finite() && e.rel > 0.5, "scale {s}: {e:?}");
        // the per-contact sum of the natural map
        let r = [s, -0.5 * s, 0.0, s, 0.0, 0.0];
        let u = [-s, 0.0, 0.0, -s, 0.0, 0.0];
        let abs = natural_map_abs(&r, &u, &[0.5, 0.5], FrictionKind::Coulomb);
        assert!(abs.is_finite() && abs > 0.0, "scale {s}: {abs}");
        assert!(
            // each contact's e_c = (-s, 0, 0)
            (abs / (s * 2f64.sqrt()) - 1.0).abs() < 1e-3,
            "scale {s}: {abs}"
        );
    }
}

/// The default methods solve a problem at any scale, and the answer is the order-one
/// answer scaled (the scaling is by powers of two: exact).
#[test]
fn the_default_methods_solve_problems_at_any_scale() {
    let a = [2.0, 1.0, 1.0, 2.0];
    let x1 = DVector::from_vec(vec![4.0 / 3.0, 7.0 / 3.0]);
    // W_nn ~ 1 makes PROX with the paper's r = 5 cycle between two points until the step
    // test shrinks r (tests/laws/prox_solvers.rs, a_two_cycle_is_rolled_back)
    let w = DMatrix::from_row_slice(3, 3, &[2.0, 0.5, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 1.0]) * 0.1;
    let at = |s: f64| {
        AnyProblem::Friction(fc_with(
            w.clone(),
            &[-s, 0.8 * s, 0.0],
            0.5,
            FrictionKind::Coulomb,
        ))
    };
    let p1 = at(1.0);
    let r1 = solve_with(&p1, "nsgs").x;
    for s in [1e160, 1e180, 1e200, 1e-300, 1e-160] {
        let p = AnyProblem::Lcp(lcp(&a, &[-5.0 * s, -6.0 * s]));
        for m in ["auto", "lemke", "pgs", "fischer-newton", "minmap-newton"] {
            let o = solve_with(&p, m);
            assert_eq!(o.status(), "converged", "LCP scale {s} {m}: {:?}", o.result);
            assert!(close(&o.x, &(&x1 * s), 1e-7), "LCP scale {s} {m}: {}", o.x);
            let e = o.info().unwrap().error;
            assert!(e.rel <= 1e-8 && e.is_finite(), "{m}: {e:?}");
            assert_eq!(measure(&p, &o.x).unwrap(), e, "{m}: the original's error");
        }
        let p = at(s);
        for m in ["auto", "nsgs", "nsn", "prox-nsn", "prox-gs"] {
            let o = solve_with(&p, m);
            assert_eq!(
                o.status(),
                "converged",
                "fc3d scale {s} {m}: {:?}",
                o.result
            );
            assert!(close(&o.x, &(&r1 * s), 1e-7), "fc3d scale {s} {m}: {}", o.x);
            assert_eq!(measure(&p, &o.x).unwrap(), o.info().unwrap().error);
        }
    }
}

/// When `solve` rescales, what the caller sees is in the original units: the observer's
/// iterates and errors, the history, an absolute tolerance.
#[test]
fn a_rescaled_solve_reports_in_the_original_units() {
    let s = 1e200;
    let p = AnyProblem::Lcp(lcp(&[2.0, 1.0, 1.0, 2.0], &[-5.0 * s, -6.0 * s]));
    let params = Params {
        tol: 1e-6 * s,
        measure: Measure::Absolute,
        record_history: true,
        ..Default::default()
    };
    let mut seen = Vec::new();
    let pgs: Choice = "pgs".parse().unwrap();
    let o = solve(&p, &pgs, DVector::zeros(2), &params, &mut |it| {
        if let Some(e) = it.error {
            seen.push((it.x.clone(), e));
        }
        ControlFlow::Continue(())
    });
    assert_eq!(o.status(), "converged", "{:?}", o.result);
    let info = o.info().unwrap();
    assert!(
        info.error.abs <= 1e-6 * s && info.error.abs > 1e-12 * s,
        "{info:?}"
    );
    assert!(!seen.is_empty());
    for (x, e) in &seen {
        let m = measure(&p, x).unwrap();
        assert!(
            (m.abs - e.abs).abs() <= 1e-12 * m.abs.max(s),
            "{m:?} vs {e:?}"
        );
    }
    for h in &info.history {
        assert!(
            h.error.abs > 1e-12 * s,
            "history in the original units: {h:?}"
        );
    }
}
