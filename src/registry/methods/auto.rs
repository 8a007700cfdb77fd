//! `auto`: the strategy of [`crate::registry::auto`], which takes no options.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::prelude::*;
use crate::problem::ProblemError;

/// `auto` takes no options: a setting is refused with what to do instead.
#[derive(Debug)]
struct Auto;

impl Configured for Auto {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        super::super::auto::run_auto(p, x, params, obs)
    }
}

fn read(m: &Map<String, Value>) -> Result<Arc<dyn Configured>, ProblemError> {
    match m.keys().next() {
        Some(k) => Err(ProblemError::InvalidOption {
            method: "auto".into(),
            option: k.clone(),
            reason: "`auto` takes no options; name a method".into(),
        }),
        None => Ok(Arc::new(Auto)),
    }
}

use ProblemType::{BoxedLcp as B, Fc3d as F, Gfc3d as G, Gmp as M, Lcp as L};

pub(in crate::registry) const SPEC: MethodSpec = MethodSpec {
    name: "auto",
    aliases: &[],
    summary: "a strategy: methods in turn, each until it stalls, chosen by what is \
              measured on the problem (LCP: Lemke up to 200 unknowns, Fischer-Newton, \
              Lemke up to 3000; friction: an NSGS probe, then NSGS, semismooth Newton, \
              the proximal-point method; see `registry::auto`)",
    applies_to: &[L, B, F, G, M],
    default_max_iter: DEFAULT_MAX_ITER,
    defaults: || Value::Object(Map::new()),
    read,
};
