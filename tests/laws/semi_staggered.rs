//! Law: the semi-staggered start of Silcowitz, Niebe, Erleben 2009 (§3: solve with
//! friction switched off until the frictionless residual is below an absolute threshold,
//! then the full problem) reaches the same solution as a cold start, on boxed friction
//! problems whose solution is unique (a symmetric `A` with off-diagonal rows at most 0.3
//! times the diagonal, friction coefficients below 0.5, so that the projected Jacobi map is a
//! contraction). Both must converge; friction must have been switched on after a
//! frictionless phase.

use crate::strategies;

use nalgebra::DVector;
use nonsmooth::newton::{FischerNewtonOptions, fischer_newton};
use nonsmooth::policy::staggered::Start;
use nonsmooth::problem::{BoxedLcp, RowBound};
use nonsmooth::solver::{Params, no_observer};
use proptest::prelude::*;
use strategies::{boxed_friction, spd_dominant};

/// The same problem with every friction coefficient halved (below 0.5).
fn halve_friction(p: &BoxedLcp) -> BoxedLcp {
    let bounds = p
        .row_bounds()
        .iter()
        .map(|b| match *b {
            RowBound::Friction { dep, factor } => RowBound::Friction {
                dep,
                factor: 0.5 * factor,
            },
            other => other,
        })
        .collect();
    BoxedLcp::new(p.a().clone(), p.b().clone(), bounds).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn same_solution_as_cold_start(p in boxed_friction(spd_dominant(12, 0.3), 4),
                                   threshold in 1e-8..1e-1f64) {
        let p = halve_friction(&p);
        let params = Params { tol: 1e-12, max_iter: 100, ..Default::default() };
        let mut cold = DVector::zeros(p.dim());
        let r = fischer_newton(&p, &mut cold, &params, &FischerNewtonOptions::default(), &mut no_observer());
        prop_assert!(r.is_ok(), "cold start: {:?}", r);
        // ANCHOR: law
        let options = FischerNewtonOptions {
            start: Start::SemiStaggered { threshold, max_iter: 50 },
            ..Default::default()
        };
        let mut warm = DVector::zeros(p.dim());
        let r = fischer_newton(&p, &mut warm, &params, &options, &mut no_observer());
        prop_assert!(r.is_ok(), "semi-staggered: {:?}", r);
        let report = r.unwrap().stats;
        if let Some(k) = report.friction_enabled_at {
            prop_assert!(report.steps[..k].iter().all(|s| !s.friction));
            prop_assert!(report.steps[k..].iter().all(|s| s.friction));
        } else {
            // solved during the frictionless phase: then friction was not needed
            prop_assert!(report.steps.iter().all(|s| !s.friction));
        }
        prop_assert!((&cold - &warm).amax() <= 1e-8 * (1.0 + cold.amax()), "{} vs {}", cold, warm);
        // ANCHOR_END: law
    }
}
