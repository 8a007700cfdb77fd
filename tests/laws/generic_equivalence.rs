//! Law (chapter "The generic mechanical problem"): a generic mechanical problem whose
//! blocks are all of one classical kind is that classical problem. Its error is the
//! classical error, and `gmp-newton`'s answer solves the classical problem:
//! * isotropic 3-row contacts are a `FrictionContact` (Coulomb and CCP): the same error
//!   for any `r`, and the answer's `fc3d` error meets the tolerance;
//! * unilateral rows are an LCP: the answer is Lemke's (unique for SPD `W`);
//! * interval rows are a boxed LCP with fixed bounds: the answer's boxed error meets the
//!   tolerance and matches projected Gauss-Seidel's answer (unique for SPD `W`).

use crate::strategies;

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::merit::{boxed_error, friction_error};
use nonsmooth::problem::generic::{Block, GenericMechanical};
use nonsmooth::problem::{AnyProblem, BoxedLcp, FrictionContact, FrictionKind, Lcp, RowBound};
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::{Params, no_observer};
use proptest::prelude::*;
use strategies::spd;

fn run(p: AnyProblem, method: &str, tol: f64) -> (DVector<f64>, f64, &'static str) {
    let choice: Choice = method.parse().unwrap();
    let params = Params {
        tol,
        max_iter: if method == "pgs" { 200_000 } else { 500 },
        ..Default::default()
    };
    let out = solve(
        &p,
        &choice,
        DVector::zeros(p.dim()),
        &params,
        &mut no_observer(),
    );
    let err = out.info().map_or(f64::NAN, |i| i.error.rel);
    let status = out.status();
    (out.x, err, status)
}

fn gmp(w: &DMatrix<f64>, q: &[f64], blocks: Vec<Block>, kind: FrictionKind) -> GenericMechanical {
    GenericMechanical::new(
        Matrix::Dense(w.clone()),
        DVector::from_vec(q.to_vec()),
        blocks,
        kind,
    )
    .unwrap()
}

const NC: usize = 3;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn isotropic_contacts_are_a_friction_contact(
        w in spd(3 * NC),
        q in prop::collection::vec(-1.0..1.0f64, 3 * NC),
        mu in prop::collection::vec(0.0..1.2f64, NC),
        r in prop::collection::vec(-1.0..1.0f64, 3 * NC),
        coulomb in any::<bool>(),
    ) {
        let kind = if coulomb { FrictionKind::Coulomb } else { FrictionKind::Ccp };
        let blocks = mu.iter().map(|m| Block::Contact { mu: vec![*m, *m] }).collect();
        let g = gmp(&w, &q, blocks, kind);
        let fc = FrictionContact::new(
            Matrix::Dense(w.clone()),
            DVector::from_vec(q.clone()),
            DVector::from_vec(mu.clone()),
            kind,
        )
        .unwrap();
        let r = DVector::from_vec(r);
        let (a, b) = (g.error(&r), friction_error(&fc, &r));
        prop_assert!((a.abs - b.abs).abs() <= 1e-12 * (1.0 + b.abs), "{a:?} vs {b:?}");
        prop_assert!((a.rel - b.rel).abs() <= 1e-12 * (1.0 + b.rel), "{a:?} vs {b:?}");
        // CCP with SPD W always has a solution; Coulomb with mu < 1.2 on these W almost
        // always: only a converged answer is compared
        let (x, err, status) = run(AnyProblem::Generic(g.clone()), "gmp-newton", 1e-10);
        if kind == FrictionKind::Ccp {
            prop_assert_eq!(status, "converged", "error {}", err);
        }
        if status == "converged" {
            let e = friction_error(&fc, &x);
            prop_assert!(e.rel <= 1e-10, "fc3d error {e:?}");
            prop_assert!((e.rel - g.error(&x).rel).abs() <= 1e-14 + 1e-12 * e.rel);
        }
    }

    #[test]
    fn unilateral_rows_are_an_lcp(
        w in spd(8),
        q in prop::collection::vec(-1.0..1.0f64, 8),
    ) {
        let g = gmp(&w, &q, vec![Block::Unilateral; 8], FrictionKind::Ccp);
        let (x, err, status) = run(AnyProblem::Generic(g), "gmp-newton", 1e-12);
        prop_assert_eq!(status, "converged", "error {}", err);
        let lcp = Lcp::new(Matrix::Dense(w), DVector::from_vec(q)).unwrap();
        let (y, _, status) = run(AnyProblem::Lcp(lcp), "lemke", 1e-12);
        prop_assert_eq!(status, "converged");
        prop_assert!((&x - &y).amax() <= 1e-8, "gmp {x} lemke {y}");
    }

    #[test]
    fn interval_rows_are_a_boxed_lcp(
        w in spd(8),
        q in prop::collection::vec(-2.0..2.0f64, 8),
        lo in prop::collection::vec(-1.0..0.0f64, 8),
        width in prop::collection::vec(0.0..1.0f64, 8),
        infinite in prop::collection::vec(0..4u8, 8),
    ) {
        // some bounds infinite, some intervals a single point
        let bounds: Vec<(f64, f64)> = (0..8)
            .map(|i| match infinite[i] {
                0 => (f64::NEG_INFINITY, lo[i] + width[i]),
                1 => (lo[i], f64::INFINITY),
                _ => (lo[i], lo[i] + width[i]),
            })
            .collect();
        let blocks = bounds.iter().map(|&(lo, hi)| Block::Interval { lo, hi }).collect();
        let g = gmp(&w, &q, blocks, FrictionKind::Ccp);
        let (x, err, status) = run(AnyProblem::Generic(g), "gmp-newton", 1e-12);
        prop_assert_eq!(status, "converged", "error {}", err);
        let boxed = BoxedLcp::new(
            Matrix::Dense(w),
            DVector::from_vec(q),
            bounds.iter().map(|&(lo, hi)| RowBound::Fixed { lo, hi }).collect(),
        )
        .unwrap();
        prop_assert!(boxed_error(&boxed, &x).rel <= 1e-10, "{:?}", boxed_error(&boxed, &x));
        let (y, _, status) = run(AnyProblem::Boxed(boxed), "pgs", 1e-13);
        prop_assert_eq!(status, "converged");
        prop_assert!((&x - &y).amax() <= 1e-8, "gmp {x} boxed {y}");
    }
}
