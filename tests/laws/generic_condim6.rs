//! Law (chapter "The generic mechanical problem"): problems with every block kind,
//! including condim-6 contacts (`mu` of length 5) and anisotropic ones, are solved to
//! `1e-10` by both `gmp-newton` and `gmp-pgs` (CCP, SPD `W`), which agree on the (unique)
//! answer; the sparse LU path of `gmp-newton` gives the dense path's answer; `auto` runs
//! `gmp-newton`; `gmp-pgs` refuses a zero diagonal with a named error.

use crate::strategies;

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::generic::{Block, GenericMechanical};
use nonsmooth::problem::{AnyProblem, FrictionKind};
use nonsmooth::registry::{Choice, names, solve};
use nonsmooth::solver::{Params, no_observer};
use proptest::prelude::*;
use strategies::spd;

fn blocks(mu: &[f64]) -> Vec<Block> {
    vec![
        Block::Equality,
        Block::Unilateral,
        Block::Interval { lo: -0.1, hi: 0.1 },
        Block::Contact {
            mu: vec![mu[0], mu[0], mu[1], mu[2], mu[2]],
        },
        Block::Contact {
            mu: vec![mu[3], mu[4], mu[1], mu[2], mu[2]],
        },
        Block::Contact {
            mu: vec![mu[0], mu[0], mu[1]],
        },
    ]
}

fn run(p: &AnyProblem, choice: Choice, max_iter: usize) -> (DVector<f64>, &'static str, f64) {
    let params = Params {
        tol: 1e-10,
        max_iter,
        ..Default::default()
    };
    let out = solve(
        p,
        &choice,
        DVector::zeros(p.dim()),
        &params,
        &mut no_observer(),
    );
    let e = out.info().map_or(f64::NAN, |i| i.error.rel);
    (out.x.clone(), out.status(), e)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn condim6_by_both_methods(
        w in spd(19),
        q in prop::collection::vec(-1.0..1.0f64, 19),
        mu in prop::collection::vec(0.01..1.0f64, 5),
    ) {
        // a well-conditioned W so that Gauss-Seidel finishes in a few thousand sweeps
        let w = w + DMatrix::identity(19, 19) * 2.0;
        let p = AnyProblem::Generic(GenericMechanical::new(Matrix::Dense(w),
            DVector::from_vec(q), blocks(&mu), FrictionKind::Ccp).unwrap());
        let (x, s, e) = run(&p, "gmp-newton".parse().unwrap(), 200);
        prop_assert_eq!(s, "converged", "newton error {}", e);
        prop_assert!(e <= 1e-10);
        let (y, s, e) = run(&p, "gmp-pgs".parse().unwrap(), 20_000);
        prop_assert_eq!(s, "converged", "pgs error {}", e);
        prop_assert!((&x - &y).amax() <= 1e-7 * (1.0 + x.amax()), "newton {x} pgs {y}");
        let sparse = Choice::new("gmp-newton").unwrap().set_text("dense_max", "0").unwrap();
        let (z, s, _) = run(&p, sparse, 200);
        prop_assert_eq!(s, "converged");
        prop_assert!((&x - &z).amax() <= 1e-8 * (1.0 + x.amax()));
        let auto = run(&p, "auto".parse().unwrap(), 200);
        prop_assert_eq!(auto.1, "converged");
    }
}

#[test]
fn coulomb_condim6_by_both_methods() {
    // a fixed problem: diagonal-dominant W, every block kind, Coulomb
    let n = 19;
    let w = DMatrix::from_fn(n, n, |i, j| {
        if i == j {
            4.0
        } else {
            0.3 / (1.0 + (i + j) as f64)
        }
    });
    let q = DVector::from_fn(n, |i, _| ((i * 7 % 5) as f64 - 2.0) * 0.4);
    let p = AnyProblem::Generic(
        GenericMechanical::new(
            Matrix::Dense(w),
            q,
            blocks(&[0.5, 0.05, 0.02, 0.3, 0.8]),
            FrictionKind::Coulomb,
        )
        .unwrap(),
    );
    let (x, s, e) = run(&p, "gmp-newton".parse().unwrap(), 200);
    assert_eq!(s, "converged", "newton error {e}");
    let (y, s, e) = run(&p, "gmp-pgs".parse().unwrap(), 20_000);
    assert_eq!(s, "converged", "pgs error {e}");
    assert!((&x - &y).amax() <= 1e-6, "{x} {y}");
}

#[test]
fn registry_lists_and_refuses() {
    assert!(names().contains(&"gmp-newton") && names().contains(&"gmp-pgs"));
    let auto: Choice = "auto".parse().unwrap();
    let p = AnyProblem::Generic(
        GenericMechanical::new(
            Matrix::Dense(DMatrix::zeros(1, 1)),
            DVector::from_vec(vec![-1.0]),
            vec![Block::Unilateral],
            FrictionKind::Ccp,
        )
        .unwrap(),
    );
    // `auto` is a strategy: on a generic problem its route starts with gmp-newton
    let out = solve(
        &p,
        &auto,
        DVector::zeros(1),
        &Params::default(),
        &mut no_observer(),
    );
    let route = nonsmooth::registry::auto::route(&out.info().unwrap().stats)
        .unwrap()
        .to_string();
    assert!(route.starts_with("gmp-newton"), "{route}");
    let (_, s, _) = run(&p, "gmp-pgs".parse().unwrap(), 10);
    assert_ne!(s, "converged");
    let out = solve(
        &p,
        &"gmp-pgs".parse().unwrap(),
        DVector::zeros(1),
        &Params::default(),
        &mut no_observer(),
    );
    let msg = format!("{:?}", out.result.unwrap_err());
    assert!(msg.contains("NonPositiveDiagonal"), "{msg}");
    // an out-of-range option is refused with its name
    let e = Choice::new("gmp-newton")
        .unwrap()
        .set_text("armijo", "0.7")
        .unwrap_err();
    assert!(e.to_string().contains("armijo"));
    let e = Choice::new("gmp-pgs")
        .unwrap()
        .set_text("local_iter", "0")
        .unwrap_err();
    assert!(e.to_string().contains("local_iter"));
    let e = Choice::new("gmp-newton")
        .unwrap()
        .set_text("window", "0")
        .unwrap_err();
    assert!(e.to_string().contains("window"));
    // a gmp method on an LCP is refused
    let lcp = nonsmooth::problem::Lcp::new(
        Matrix::Dense(DMatrix::identity(1, 1)),
        DVector::from_vec(vec![-1.0]),
    )
    .unwrap();
    let out = solve(
        &AnyProblem::Lcp(lcp),
        &"gmp-newton".parse().unwrap(),
        DVector::zeros(1),
        &Params::default(),
        &mut no_observer(),
    );
    assert!(out.result.is_err());
}
