//! `nncg`: nonsmooth nonlinear conjugate gradient ([`crate::newton::Nncg`]).

use super::prelude::*;
use crate::newton::{Nncg, NncgOptions};
use crate::problem::{BoxedLcp, Lcp};

impl Configured for NncgOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        super::super::run::run_either::<Nncg<Lcp>, Nncg<BoxedLcp>>("nncg", p, x, params, self, obs)
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "nncg",
    aliases: &[],
    summary: "nonsmooth nonlinear conjugate gradient on PGS \
              (Silcowitz-Hansen, Niebe, Erleben 2010)",
    applies_to: &[ProblemType::Lcp, ProblemType::BoxedLcp],
    default_max_iter: DEFAULT_MAX_ITER,
    defaults: defaults::<NncgOptions>,
    read: configured::<NncgOptions>,
};
