//! A method's options as the registry holds them: the settings laid over the defaults, read
//! as the method's options struct, checked by its [`MethodOptions::check`] (written beside
//! the struct), and kept as a [`Configured`] method, typed, that runs itself.

use std::fmt;
use std::sync::Arc;

use nalgebra::DVector;
use serde_json::{Map, Value};

use super::Observer;
use super::run::Ran;
use crate::problem::{AnyProblem, ProblemError};
use crate::solver::{MethodOptions, Params};

/// A method with its options read and checked: what a [`super::Choice`] holds, and what a
/// solve runs. Each method's file under `registry/methods/` implements it for its options
/// struct, so the options keep their own type from the moment they are read.
pub(crate) trait Configured: fmt::Debug + Send + Sync {
    /// Runs the method on `p` from `x` (the answer, or the last finite iterate, out).
    fn run(
        &self,
        p: &AnyProblem,
        x: &mut DVector<f64>,
        params: &Params,
        obs: &mut Observer<'_>,
    ) -> Ran;
}

/// A method's settings read as its options and checked.
pub(crate) type ReadFn = fn(&Map<String, Value>) -> Result<Arc<dyn Configured>, ProblemError>;

/// The defaults of `O`, all fields, as a JSON object.
pub(super) fn defaults<O: MethodOptions>() -> Value {
    serde_json::to_value(O::default()).unwrap_or(Value::Object(Map::new()))
}

/// The options `O` of `method` from `base` (all fields, as JSON) with the settings `m`
/// over it, checked. A value serde cannot read is an [`ProblemError::InvalidOption`]
/// without an option name (the caller knows which key it set).
pub(super) fn read_over<O: MethodOptions>(
    method: &str,
    base: Value,
    m: &Map<String, Value>,
) -> Result<O, ProblemError> {
    let mut all = match base {
        Value::Object(b) => b,
        _ => Map::new(),
    };
    for (k, v) in m {
        all.insert(k.clone(), v.clone());
    }
    let o: O =
        serde_json::from_value(Value::Object(all)).map_err(|e| ProblemError::InvalidOption {
            method: method.into(),
            option: String::new(),
            reason: e.to_string(),
        })?;
    o.check()?;
    Ok(o)
}

/// The settings `m` read over `O`'s defaults and checked, as a method that runs.
pub(super) fn configured<O: MethodOptions + Configured>(
    m: &Map<String, Value>,
) -> Result<Arc<dyn Configured>, ProblemError> {
    read_over::<O>("", defaults::<O>(), m).map(|o| Arc::new(o) as Arc<dyn Configured>)
}
