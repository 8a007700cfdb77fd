//! `minmap-newton`: minimum-map Newton ([`crate::newton::MinMapNewton`]).

use super::prelude::*;
use crate::newton::{MinMapNewton, MinMapNewtonOptions};
use crate::problem::{BoxedLcp, Lcp};

impl Configured for MinMapNewtonOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        super::super::run::run_either::<MinMapNewton<Lcp>, MinMapNewton<BoxedLcp>>(
            "minmap-newton",
            p,
            x,
            params,
            self,
            obs,
        )
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "minmap-newton",
    aliases: &["min-map-newton", "mmn"],
    summary: "minimum-map Newton, active set, projected line search \
              (Niebe and Erleben 2015)",
    applies_to: &[ProblemType::Lcp, ProblemType::BoxedLcp],
    default_max_iter: NEWTON_DEFAULT_MAX_ITER,
    defaults: defaults::<MinMapNewtonOptions>,
    read: configured::<MinMapNewtonOptions>,
};
