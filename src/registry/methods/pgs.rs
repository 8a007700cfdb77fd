//! `pgs`: projected Gauss-Seidel ([`crate::splitting::ProjectedSplitting`]).

use super::prelude::*;
use crate::problem::{BoxedLcp, Lcp};
use crate::splitting::{PgsOptions, ProjectedSplitting, SplittingOptions};

impl Configured for PgsOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        let o = SplittingOptions::from(self);
        super::super::run::run_either::<ProjectedSplitting<Lcp>, ProjectedSplitting<BoxedLcp>>(
            "pgs", p, x, params, &o, obs,
        )
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "pgs",
    aliases: &["gs"],
    summary: "projected Gauss-Seidel (Erleben 2009 slides eq. 20-37)",
    applies_to: &[ProblemType::Lcp, ProblemType::BoxedLcp],
    default_max_iter: DEFAULT_MAX_ITER,
    defaults: defaults::<PgsOptions>,
    read: configured::<PgsOptions>,
};
