//! `prox-nsn`: PROX, then the cone Newton: two methods in turn, with a driver of their own ([`crate::composite::prox_then_newton`]).

use super::prelude::*;
use crate::composite::prox_then_newton::{ProxNsnOptions, cone_newton_prox_start};

impl Configured for ProxNsnOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        super::super::run::run_local_driver(
            "prox-nsn",
            p,
            x,
            params,
            self,
            obs,
            cone_newton_prox_start,
        )
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "prox-nsn",
    aliases: &[],
    summary: "PROX Gauss-Seidel to 1e-2, then the semismooth Newton method on the cone",
    applies_to: &[ProblemType::Fc3d, ProblemType::Gfc3d],
    default_max_iter: NEWTON_DEFAULT_MAX_ITER,
    defaults: defaults::<ProxNsnOptions>,
    read: configured::<ProxNsnOptions>,
};
