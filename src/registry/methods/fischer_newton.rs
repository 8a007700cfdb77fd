//! `fischer-newton`: Fischer-Burmeister Newton ([`crate::newton::FischerNewton`]).

use super::prelude::*;
use crate::newton::{FischerNewton, FischerNewtonOptions};
use crate::problem::{BoxedLcp, Lcp};

impl Configured for FischerNewtonOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        super::super::run::run_either::<FischerNewton<Lcp>, FischerNewton<BoxedLcp>>(
            "fischer-newton",
            p,
            x,
            params,
            self,
            obs,
        )
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "fischer-newton",
    aliases: &["fn"],
    summary: "Fischer-Burmeister Newton, B-subdifferential, Armijo line search \
              (Silcowitz, Niebe, Erleben 2009 eq. 27-39)",
    applies_to: &[ProblemType::Lcp, ProblemType::BoxedLcp],
    default_max_iter: NEWTON_DEFAULT_MAX_ITER,
    defaults: defaults::<FischerNewtonOptions>,
    read: configured::<FischerNewtonOptions>,
};
