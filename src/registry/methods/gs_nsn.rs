//! `gs-nsn`: Gauss-Seidel sweeps, then the cone Newton: two methods in turn, with a driver of their own ([`crate::composite::gs_then_newton`]).

use super::prelude::*;
use crate::composite::gs_then_newton::{GsNsnOptions, cone_newton_gs_start};

impl Configured for GsNsnOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        super::super::run::run_local_driver("gs-nsn", p, x, params, self, obs, cone_newton_gs_start)
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "gs-nsn",
    aliases: &[],
    summary: "blocked Gauss-Seidel (NSGS) while each sweep at least halves the error (at \
              most 20 sweeps); if they did not finish, the semismooth Newton method on \
              the cone from the given start (newton_from=sweeps: from their iterate)",
    applies_to: &[ProblemType::Fc3d, ProblemType::Gfc3d],
    default_max_iter: NEWTON_DEFAULT_MAX_ITER,
    defaults: defaults::<GsNsnOptions>,
    read: configured::<GsNsnOptions>,
};
