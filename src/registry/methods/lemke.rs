//! `lemke`: Lemke's complementary pivoting ([`crate::pivoting::lemke`]).

use super::prelude::*;
use crate::pivoting::LemkeOptions;

impl Configured for LemkeOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        super::super::run::run_lemke(p, x, params, self, obs)
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "lemke",
    aliases: &[],
    summary: "Lemke's complementary pivoting, lexicographic (Cottle, Pang, Stone 1992 §4.4); \
              pivots from its own initial basis, so a warm start is not used",
    applies_to: &[ProblemType::Lcp],
    default_max_iter: DEFAULT_MAX_ITER,
    defaults: defaults::<LemkeOptions>,
    read: configured::<LemkeOptions>,
};
