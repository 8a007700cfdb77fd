//! `gmp-pgs`: projected block Gauss-Seidel on the generic mechanical problem ([`crate::generic::GmpPgs`]).

use super::prelude::*;
use crate::generic::{GmpPgs, GmpPgsOptions};

impl Configured for GmpPgsOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        super::super::run::run::<GmpPgs>("gmp-pgs", p, x, params, self, obs)
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "gmp-pgs",
    aliases: &[],
    summary: "projected block Gauss-Seidel on the generic mechanical problem, local \
              Newton per contact in scaled variables (Jean 1999; Acary, Bremond, Huber 2018)",
    applies_to: &[ProblemType::Gmp],
    default_max_iter: DEFAULT_MAX_ITER,
    defaults: defaults::<GmpPgsOptions>,
    read: configured::<GmpPgsOptions>,
};
