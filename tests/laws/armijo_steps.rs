//! Law: with the Armijo line search, every step Fischer-Newton takes decreases the merit
//! `Psi = 1/2 ‖Phi‖²` at least as much as the Armijo condition asks (Silcowitz, Niebe,
//! Erleben 2009 eq. 37):
//!
//! `Psi(x_{k+1}) <= Psi(x_k) + c grad Psi(x_k)^T (x_{k+1} - x_k)`, `c = 1e-4`,
//!
//! whatever the inner solver and whichever direction (Newton or gradient) was taken. `Psi`
//! is evaluated by `merit::boxed_fischer_merit` and its gradient by central differences
//! (`Psi` is continuously differentiable), not by the solver's own formulas.

use crate::strategies;

use std::ops::ControlFlow;

use nalgebra::DVector;
use nonsmooth::merit::boxed_fischer_merit;
use nonsmooth::newton::{Armijo, FischerNewtonOptions, InnerSolver, LineSearch, fischer_newton};
use nonsmooth::problem::BoxedLcp;
use nonsmooth::solver::{Iterate, Params};
use proptest::prelude::*;
use strategies::{boxed_friction, spd};

fn gradient(p: &BoxedLcp, x: &DVector<f64>) -> DVector<f64> {
    let h = 1e-7;
    DVector::from_fn(x.len(), |j, _| {
        let mut xp = x.clone();
        let mut xm = x.clone();
        xp[j] += h;
        xm[j] -= h;
        (boxed_fischer_merit(p, &xp) - boxed_fischer_merit(p, &xm)) / (2.0 * h)
    })
}

fn inner_solver() -> impl Strategy<Value = InnerSolver> {
    prop_oneof![
        Just(InnerSolver::Lu),
        Just(InnerSolver::GMRES),
        Just(InnerSolver::QUASI_NCG),
        (1usize..4, 1usize..6).prop_map(|(restart, max_iter)| InnerSolver::Gmres {
            restart,
            max_iter,
            rel_tol: 1e-2
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn accepted_steps_satisfy_armijo(p in boxed_friction(spd(9), 3), inner in inner_solver(),
                                     shrink in 0.2..0.8f64) {
        let c = 1e-4;
        let options = FischerNewtonOptions {
            inner,
            line_search: LineSearch::Armijo(Armijo { c, shrink, ..Default::default() }),
            ..Default::default()
        };
        let mut iterates = vec![DVector::zeros(p.dim())];
        let mut observer = |it: &Iterate| {
            iterates.push(it.x.clone());
            ControlFlow::Continue(())
        };
        let mut x = DVector::zeros(p.dim());
        let params = Params { tol: 1e-12, max_iter: 30, ..Default::default() };
        let _ = fischer_newton(&p, &mut x, &params, &options, &mut observer);
        // ANCHOR: law
        for k in 0..iterates.len() - 1 {
            let (a, b) = (&iterates[k], &iterates[k + 1]);
            let step = b - a;
            let (psi_a, psi_b) = (boxed_fischer_merit(&p, a), boxed_fischer_merit(&p, b));
            let bound = psi_a + c * gradient(&p, a).dot(&step);
            let slack = 1e-9 * step.norm() + 1e-12 * (1.0 + psi_a);
            prop_assert!(psi_b <= bound + slack,
                "step {}: Psi {} -> {}, Armijo bound {}", k, psi_a, psi_b, bound);
        }
        // ANCHOR_END: law
    }
}
