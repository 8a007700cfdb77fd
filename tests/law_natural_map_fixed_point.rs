//! Law (Erleben 2009 slides eq. 26-34): `x = max(0, x - r (A x + b))` holds for one
//! `r > 0` iff it holds for every `r > 0` iff `x` solves the LCP.

mod strategies;

use nalgebra::DVector;
use nonsmooth::merit::lcp_error;
use nonsmooth::problem::Lcp;
use proptest::prelude::*;
use strategies::{lcp_planted, spd};

fn fixed_point_residual(lcp: &Lcp, x: &DVector<f64>, r: f64) -> f64 {
    let w = lcp.w(x);
    (x - (x - w * r).map(|v| v.max(0.0))).amax()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn one_r_iff_all_r_iff_solution(
        (lcp, xs) in lcp_planted(spd(4), 4),
        perturb in prop::option::of((0..4usize, -0.5..0.5f64)),
        r1 in 1e-3..1e3f64,
        r2 in 1e-3..1e3f64,
    ) {
        let mut x = xs.clone();
        if let Some((i, d)) = perturb {
            x[i] = (x[i] + d).max(0.0);
        }
        let tol = 1e-10 * (1.0 + lcp.b().amax()) * (1.0 + r1.max(r2));
        let is_solution = lcp_error(&lcp, &x).abs <= 1e-10 * (1.0 + lcp.b().amax());
        let fixed1 = fixed_point_residual(&lcp, &x, r1) <= tol;
        let fixed2 = fixed_point_residual(&lcp, &x, r2) <= tol;
        prop_assert_eq!(fixed1, fixed2);
        prop_assert_eq!(fixed1, is_solution);
    }
}
