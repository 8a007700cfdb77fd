//! Laws of Gauss-Seidel-then-Newton (`gs-nsn`,
//! `nonsmooth::composite::gs_then_newton::cone_newton_gs_start`):
//!
//! * with the default `newton_from = start`, a solve the sweeps do not finish is plain
//!   Newton's solve from the same start: the same answer, bit for bit, and the same
//!   Newton iterations;
//! * a solve the sweeps finish meets the tolerance, with no Newton phase;
//! * the sweeps stop at the first one that does not reduce the error by `rate`, or at
//!   `max_sweeps`: the observer sees the errors and checks the switch;
//! * the options are range-checked.

use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector};
use nonsmooth::composite::gs_then_newton::{GsNsnOptions, NewtonFrom, cone_newton_gs_start};
use nonsmooth::matrix::Matrix;
use nonsmooth::newton::{ConeNewtonOptions, cone_newton};
use nonsmooth::problem::{FrictionContact, FrictionKind};
use nonsmooth::solver::{Iterate, Params, no_observer};
use proptest::prelude::*;

/// `W = J^T J + eps I` on `nc` contacts, coupled through `n + 2` random rows.
fn problem(
    nc: usize,
    j: &[f64],
    q: &[f64],
    mu: &[f64],
    eps: f64,
    kind: FrictionKind,
) -> FrictionContact {
    let n = 3 * nc;
    let jm = DMatrix::from_fn(n + 2, n, |i, k| j[i * 12 + k]);
    let mut w = jm.transpose() * &jm;
    for i in 0..n {
        w[(i, i)] += eps;
    }
    FrictionContact::new(
        Matrix::Dense(w),
        DVector::from_column_slice(&q[..n]),
        DVector::from_column_slice(&mu[..nc]),
        kind,
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn unfinished_sweeps_leave_plain_newton(
        nc in 1..5usize,
        j in prop::collection::vec(-1.0..1.0f64, 14 * 12),
        q in prop::collection::vec(-1.0..1.0f64, 12),
        mu in prop::collection::vec(0.0..1.5f64, 4),
        eps in 0.01..1.0f64,
        coulomb in any::<bool>(),
    ) {
        let kind = if coulomb { FrictionKind::Coulomb } else { FrictionKind::Ccp };
        let fc = problem(nc, &j, &q, &mu, eps, kind);
        let params = Params { tol: 1e-10, max_iter: 200, ..Default::default() };
        let mut r = DVector::zeros(3 * nc);
        let out = cone_newton_gs_start(&fc, &mut r, &params, &GsNsnOptions::default(),
                                       &mut no_observer());
        let mut plain = DVector::zeros(3 * nc);
        let alone = cone_newton(&fc, &mut plain, &params, &ConeNewtonOptions::default(),
                                &mut no_observer());
        match out {
            Ok(info) => match &info.stats.newton {
                None => {
                    prop_assert_eq!(info.stats.switch.as_str(), "converged");
                    prop_assert!(info.error.meets(params.tol, params.measure), "{:?}", info.error);
                    prop_assert_eq!(info.iterations, info.stats.sweeps);
                }
                Some(_) => {
                    let alone = alone.expect("plain Newton converges too");
                    prop_assert_eq!(&r, &plain);
                    prop_assert_eq!(info.iterations, alone.iterations);
                    prop_assert!(["rate", "max-sweeps"].contains(&info.stats.switch.as_str()));
                }
            },
            Err(e) => {
                // then plain Newton fails the same way, from the same start
                prop_assert!(alone.is_err(), "gs-nsn failed ({e}) where nsn did not");
                prop_assert_eq!(&r, &plain);
            }
        }
    }

    #[test]
    fn sweeps_stop_at_the_first_slow_one_or_the_cap(
        nc in 1..5usize,
        j in prop::collection::vec(-1.0..1.0f64, 14 * 12),
        q in prop::collection::vec(-1.0..1.0f64, 12),
        mu in prop::collection::vec(0.0..1.5f64, 4),
        eps in 0.001..0.1f64,
        rate in 0.05..1.0f64,
        max_sweeps in 1..30usize,
    ) {
        let fc = problem(nc, &j, &q, &mu, eps, FrictionKind::Coulomb);
        let params = Params { tol: 1e-12, max_iter: 300, ..Default::default() };
        let options = GsNsnOptions { rate, max_sweeps, newton_from: NewtonFrom::Sweeps,
                                     ..Default::default() };
        // the observer sees the sweeps first, then Newton's iterations; it records errors
        let mut errors = Vec::new();
        let mut r = DVector::zeros(3 * nc);
        let out = cone_newton_gs_start(&fc, &mut r, &params, &options, &mut |it: &Iterate| {
            errors.push(it.error.map(|e| e.rel));
            ControlFlow::Continue(())
        });
        let stats = match &out {
            Ok(info) => info.stats.clone(),
            Err(e) => match e.stats() {
                Some(s) => s.clone(),
                None => return Ok(()), // Newton's own failure before a report: nothing to check
            },
        };
        let k = stats.sweeps;
        prop_assert!(k <= max_sweeps, "{} sweeps, cap {}", k, max_sweeps);
        if k == 0 {
            // only a start that already meets the tolerance needs no sweep
            prop_assert_eq!(stats.switch.as_str(), "converged");
            return Ok(());
        }
        let e: Vec<f64> = errors[..k].iter().map(|e| e.expect("measured every sweep")).collect();
        // every sweep before the last reduced the error by the rate
        for i in 1..k.saturating_sub(1) {
            prop_assert!(e[i] <= rate * e[i - 1], "sweep {} was slow but did not stop: {:?}", i, e);
        }
        match stats.switch.as_str() {
            "rate" => prop_assert!(k >= 2 && e[k - 1] > rate * e[k - 2], "{:?}", e),
            "max-sweeps" => prop_assert_eq!(k, max_sweeps),
            "converged" => prop_assert!(e[k - 1] <= params.tol, "{:?}", e),
            other => prop_assert!(false, "switch {}", other),
        }
    }
}

#[test]
fn options_are_range_checked() {
    let fc = problem(
        1,
        &[0.5; 14 * 12],
        &[-1.0, 0.5, 0.0],
        &[0.3],
        1.0,
        FrictionKind::Coulomb,
    );
    let params = Params::default();
    for (options, name) in [
        (
            GsNsnOptions {
                max_sweeps: 0,
                ..Default::default()
            },
            "max_sweeps",
        ),
        (
            GsNsnOptions {
                rate: 0.0,
                ..Default::default()
            },
            "rate",
        ),
        (
            GsNsnOptions {
                rate: 1.5,
                ..Default::default()
            },
            "rate",
        ),
        (
            GsNsnOptions {
                rate: f64::NAN,
                ..Default::default()
            },
            "rate",
        ),
    ] {
        let mut r = DVector::zeros(3);
        let e = cone_newton_gs_start(&fc, &mut r, &params, &options, &mut no_observer())
            .unwrap_err()
            .to_string();
        assert!(e.contains(name), "{e}");
    }
}
