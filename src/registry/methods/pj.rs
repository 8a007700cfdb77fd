//! `pj`: projected Jacobi ([`crate::splitting::ProjectedSplitting`]).

use super::prelude::*;
use crate::problem::{BoxedLcp, Lcp};
use crate::splitting::{PjOptions, ProjectedSplitting, SplittingOptions};

impl Configured for PjOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        let o = SplittingOptions::from(self);
        super::super::run::run_either::<ProjectedSplitting<Lcp>, ProjectedSplitting<BoxedLcp>>(
            "pj", p, x, params, &o, obs,
        )
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "pj",
    aliases: &["jacobi"],
    summary: "projected Jacobi (Erleben 2009 slides eq. 20-37)",
    applies_to: &[ProblemType::Lcp, ProblemType::BoxedLcp],
    default_max_iter: DEFAULT_MAX_ITER,
    defaults: defaults::<PjOptions>,
    read: configured::<PjOptions>,
};
