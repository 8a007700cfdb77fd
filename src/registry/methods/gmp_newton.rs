//! `gmp-newton`: semismooth Newton on the generic mechanical problem ([`crate::generic::GmpNewton`]).

use super::prelude::*;
use crate::generic::{GmpNewton, GmpNewtonOptions};

impl Configured for GmpNewtonOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        super::super::run::run::<GmpNewton>("gmp-newton", p, x, params, self, obs)
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "gmp-newton",
    aliases: &[],
    summary: "semismooth Newton on the scaled natural map of the generic mechanical \
              problem, Armijo line search, gradient fallback (Acary, Bremond, Huber 2018)",
    applies_to: &[ProblemType::Gmp],
    default_max_iter: NEWTON_DEFAULT_MAX_ITER,
    defaults: defaults::<GmpNewtonOptions>,
    read: configured::<GmpNewtonOptions>,
};
