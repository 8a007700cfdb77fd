//! Law: on random P-matrix (strictly diagonally dominant, nonsymmetric) and symmetric
//! positive definite LCPs, whose solution is unique, Fischer-Newton (exact LU and GMRES
//! inner solves) and minimum-map Newton converge from zero to Lemke's answer (error
//! `1e-12`). (The quasi-NCG inner solve of Silcowitz et al. 2009 is not part of the law:
//! it assumes a symmetric `H` and its forward differences limit the accuracy; on random SPD
//! problems it stalled near `1e-7` in some cases.)

use crate::strategies;

use nalgebra::DVector;
use nonsmooth::newton::{
    FischerNewtonOptions, InnerSolver, MinMapNewtonOptions, fischer_newton, min_map_newton,
};
use nonsmooth::pivoting::{LemkeOptions, lemke};
use nonsmooth::problem::Lcp;
use nonsmooth::solver::{Params, no_observer};
use proptest::prelude::*;
use strategies::{hplus, lcp_planted, spd};

fn params() -> Params {
    Params {
        tol: 1e-12,
        max_iter: 200,
        ..Default::default()
    }
}

// ANCHOR: law
fn agree(lcp: &Lcp, bound: f64) -> Result<(), TestCaseError> {
    let n = lcp.dim();
    let mut xl = DVector::zeros(n);
    lemke(
        lcp,
        &mut xl,
        &params(),
        &LemkeOptions::default(),
        &mut no_observer(),
    )
    .unwrap();
    for inner in [InnerSolver::Lu, InnerSolver::GMRES] {
        let mut x = DVector::zeros(n);
        let options = FischerNewtonOptions {
            inner,
            ..Default::default()
        };
        let r = fischer_newton(lcp, &mut x, &params(), &options, &mut no_observer());
        prop_assert!(r.is_ok(), "Fischer-Newton ({}): {:?}", inner.name(), r);
        prop_assert!(
            (&x - &xl).amax() <= bound * (1.0 + xl.amax()),
            "Fischer-Newton ({}): {} vs {}",
            inner.name(),
            x,
            xl
        );
    }
    let mut x = DVector::zeros(n);
    let r = min_map_newton(
        lcp,
        &mut x,
        &params(),
        &MinMapNewtonOptions::default(),
        &mut no_observer(),
    );
    prop_assert!(r.is_ok(), "minimum-map Newton: {:?}", r);
    prop_assert!(
        (&x - &xl).amax() <= bound * (1.0 + xl.amax()),
        "minimum-map Newton: {} vs {}",
        x,
        xl
    );
    Ok(())
}
// ANCHOR_END: law

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn p_matrix_lcps((lcp, _) in lcp_planted(hplus(8), 8)) {
        agree(&lcp, 1e-8)?;
    }

    #[test]
    fn spd_lcps((lcp, _) in lcp_planted(spd(8), 8)) {
        // how close an iterate with error 1e-12 is depends on the conditioning
        agree(&lcp, 1e-6)?;
    }
}
