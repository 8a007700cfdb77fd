//! `prox-gs` and `prox-jacobi`: PROX with adaptive r-factors ([`crate::prox::prox_solve`]).
//! The two methods share [`ProxOptions`]; the method's name fixes its `scheme`, so neither
//! has that option, and their defaults are the scheme's recommended options
//! ([`ProxOptions::recommended`]), not `ProxOptions::default`.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::prelude::*;
use crate::problem::ProblemError;
use crate::prox::{ProxOptions, Scheme};

impl Configured for ProxOptions {
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran {
        let name = match self.scheme {
            Scheme::GaussSeidel => "prox-gs",
            Scheme::Jacobi => "prox-jacobi",
        };
        super::super::run::run_prox(name, p, x, params, self, obs)
    }
}

/// The options of the scheme's method, [`ProxOptions::recommended`], without `scheme`.
fn defaults_for(scheme: Scheme) -> Value {
    let mut v = serde_json::to_value(ProxOptions::recommended(scheme)).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.remove("scheme");
    }
    v
}

/// The settings `m` over the scheme's defaults, checked, with the scheme set.
fn read_for(scheme: Scheme, m: &Map<String, Value>) -> Result<Arc<dyn Configured>, ProblemError> {
    let mut o: ProxOptions = super::super::options::read_over("", defaults_for(scheme), m)?;
    o.scheme = scheme;
    Ok(Arc::new(o))
}

use ProblemType::{BoxedLcp as B, Fc3d as F, Gfc3d as G, Lcp as L};

pub(in crate::registry) const SPEC_GS: MethodSpec = MethodSpec {
    name: "prox-gs",
    aliases: &["prox"],
    summary: "PROX Gauss-Seidel with adaptive r-factors (Erleben 2017 Algorithm 2)",
    applies_to: &[L, B, F, G],
    default_max_iter: super::super::PROX_DEFAULT_MAX_ITER,
    defaults: || defaults_for(Scheme::GaussSeidel),
    read: |m| read_for(Scheme::GaussSeidel, m),
};

pub(in crate::registry) const SPEC_JACOBI: MethodSpec = MethodSpec {
    name: "prox-jacobi",
    aliases: &[],
    summary: "PROX Jacobi with adaptive r-factors (Erleben 2017 Algorithm 1)",
    applies_to: &[L, B, F, G],
    default_max_iter: super::super::PROX_DEFAULT_MAX_ITER,
    defaults: || defaults_for(Scheme::Jacobi),
    read: |m| read_for(Scheme::Jacobi, m),
};
