//! Law: near a nondegenerate solution (strict complementarity, `A` positive definite) the
//! Fischer-Newton iteration converges quadratically (Qi and Sun's theorem, Silcowitz,
//! Niebe, Erleben 2009 Theorem 3.1): once the error `e_k = ‖x_k - x*‖∞` is below `1e-2`,
//! the ratio `e_{k+1} / e_k²` stays below a bound, here `1e5` (linear convergence would
//! make it grow without bound as `e_k -> 0`). Checked with the exact LU and with GMRES,
//! whose forcing term `min(1e-2, ‖Phi‖)` keeps the quadratic rate; steps that reach the
//! roundoff level (`e_{k+1} < 1e-11`) are not compared.

use crate::strategies;

use std::ops::ControlFlow;

use nalgebra::DVector;
use nonsmooth::matrix::Matrix;
use nonsmooth::newton::{FischerNewtonOptions, InnerSolver, fischer_newton};
use nonsmooth::problem::Lcp;
use nonsmooth::solver::{Iterate, Params};
use proptest::prelude::*;
use strategies::spd;

/// An LCP with a planted strictly complementary solution: each row has `x_i` or `w_i` in
/// [0.2, 2], the other zero.
fn nondegenerate(n: usize) -> impl Strategy<Value = (Lcp, DVector<f64>)> {
    (
        spd(n),
        prop::collection::vec(any::<bool>(), n),
        prop::collection::vec(0.2..2.0f64, n),
    )
        .prop_map(move |(a, active, mag)| {
            let x = DVector::from_fn(n, |i, _| if active[i] { mag[i] } else { 0.0 });
            let w = DVector::from_fn(n, |i, _| if active[i] { 0.0 } else { mag[i] });
            let b = &w - &a * &x;
            (Lcp::new(Matrix::Dense(a), b).unwrap(), x)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn error_ratio_stays_bounded((lcp, xs) in nondegenerate(8)) {
        for inner in [InnerSolver::Lu, InnerSolver::GMRES] {
            let mut errors = vec![xs.amax()];
            let mut observer = |it: &Iterate| {
                errors.push((it.x - &xs).amax());
                ControlFlow::Continue(())
            };
            let mut x = DVector::zeros(8);
            let params = Params { tol: 1e-14, max_iter: 60, ..Default::default() };
            let options = FischerNewtonOptions { inner, ..Default::default() };
            let _ = fischer_newton(&lcp, &mut x, &params, &options, &mut observer);
            let last = *errors.last().unwrap();
            prop_assert!(last <= 1e-9, "{}: final error {} ({:?})", inner.name(), last, errors);
            // ANCHOR: law
            for k in 0..errors.len() - 1 {
                let (e, next) = (errors[k], errors[k + 1]);
                if e <= 1e-2 && next >= 1e-11 {
                    prop_assert!(next / (e * e) <= 1e5,
                        "{}: e_k = {}, e_k+1 = {}, ratio {} ({:?})", inner.name(), e, next, next / (e * e), errors);
                }
            }
            // ANCHOR_END: law
        }
    }
}
