//! `nsn`: semismooth Newton on the friction cone ([`crate::newton::ConeNewton`]).

use super::prelude::*;
use crate::newton::{ConeNewton, ConeNewtonOptions};

impl Configured for ConeNewtonOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        super::super::run::run::<ConeNewton>("nsn", p, x, params, self, obs)
    }
}

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "nsn",
    aliases: &["newton"],
    summary: "semismooth Newton on the friction cone: Alart-Curnier (Coulomb), natural \
              map (CCP); a global problem is reduced to its local form first",
    applies_to: &[ProblemType::Fc3d, ProblemType::Gfc3d],
    default_max_iter: NEWTON_DEFAULT_MAX_ITER,
    defaults: defaults::<ConeNewtonOptions>,
    read: configured::<ConeNewtonOptions>,
};
