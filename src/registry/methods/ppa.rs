//! `ppa`: the proximal-point method, whose driver ties the inner solves' tolerance to the outer one ([`crate::proximal_point::proximal_point`]).

use super::prelude::*;
use crate::proximal_point::{ProximalPointOptions, proximal_point};

impl Configured for ProximalPointOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        super::super::run::run_local_driver("ppa", p, x, params, self, obs, proximal_point)
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "ppa",
    aliases: &["prox-point", "proximal-point"],
    summary: "proximal-point method: outer W + rho I, q - rho r^k, inner semismooth \
              Newton (nsn), rho = 5 mean(diag W) error (Siconos PROX; Acary, Bremond, \
              Huber 2018); a global problem is reduced to its local form first",
    applies_to: &[ProblemType::Fc3d, ProblemType::Gfc3d],
    default_max_iter: NEWTON_DEFAULT_MAX_ITER,
    defaults: defaults::<ProximalPointOptions>,
    read: configured::<ProximalPointOptions>,
};
