//! `vgs`: velocity-space blocked Gauss-Seidel ([`crate::splitting::Vgs`]).

use super::prelude::*;
use crate::splitting::{Vgs, VgsOptions};

impl Configured for VgsOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        super::super::run::run::<Vgs>("vgs", p, x, params, self, obs)
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "vgs",
    aliases: &[],
    summary: "velocity-space blocked Gauss-Seidel, W never formed",
    applies_to: &[ProblemType::Gfc3d],
    default_max_iter: DEFAULT_MAX_ITER,
    defaults: defaults::<VgsOptions>,
    read: configured::<VgsOptions>,
};
