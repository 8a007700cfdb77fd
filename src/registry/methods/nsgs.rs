//! `nsgs`: blocked nonsmooth Gauss-Seidel ([`crate::splitting::Nsgs`]).

use super::prelude::*;
use crate::splitting::{Nsgs, NsgsOptions};

impl Configured for NsgsOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        super::super::run::run::<Nsgs>("nsgs", p, x, params, self, obs)
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "nsgs",
    aliases: &[],
    summary: "blocked nonsmooth Gauss-Seidel (Jean 1999; Acary, Bremond, Huber 2018); \
              a global problem is reduced to its local form first",
    applies_to: &[ProblemType::Fc3d, ProblemType::Gfc3d],
    default_max_iter: DEFAULT_MAX_ITER,
    defaults: defaults::<NsgsOptions>,
    read: configured::<NsgsOptions>,
};
