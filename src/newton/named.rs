//! Serde for the option enums of the Newton methods ([`InnerSolver`], [`LineSearch`],
//! [`Start`], [`KinkStrategy`]): written in serde's externally tagged form with kebab-case
//! names (`"lu"`, `{"gmres": {"restart": 30, "max_iter": 100, "rel_tol": 0.01}}`), read
//! from that form (fields not given take their documented defaults) or from a bare name
//! (`"gmres"`, the variant with its defaults) through the enum's `FromStr`, so that
//! `inner=gmres` on a command line and a JSON object both set the option.
//!
//! Each enum has a private mirror here that derives the tagged form
//! (`#[serde(remote = ...)]`, checked by the compiler against the enum's variants), and
//! [`named_or_tagged!`] implements the traits on top of it.

use serde::{Deserialize, Serialize};

use super::{Armijo, InnerSolver, KinkStrategy, LineSearch};
use crate::policy::staggered::Start;

/// Implements `Serialize` and `Deserialize` for `$t` through its remote mirror `$def` and
/// its `FromStr` (a bare name).
macro_rules! named_or_tagged {
    ($t:ident, $def:ident) => {
        impl Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $def::serialize(self, s)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                use serde::de::Error as _;
                match serde_json::Value::deserialize(d)? {
                    serde_json::Value::String(name) => name.parse::<$t>().map_err(D::Error::custom),
                    tagged => $def::deserialize(tagged).map_err(D::Error::custom),
                }
            }
        }
    };
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "InnerSolver", rename_all = "kebab-case", deny_unknown_fields)]
enum InnerSolverDef {
    Lu,
    Gmres {
        #[serde(default = "restart")]
        restart: usize,
        #[serde(default = "gmres_max_iter")]
        max_iter: usize,
        #[serde(default = "rel_tol")]
        rel_tol: f64,
    },
    #[serde(rename = "qncg", alias = "quasi-ncg")]
    QuasiNcg {
        #[serde(default = "qncg_max_iter")]
        max_iter: usize,
        #[serde(default = "rel_tol")]
        rel_tol: f64,
        #[serde(default = "fd_step")]
        fd_step: f64,
    },
}

named_or_tagged!(InnerSolver, InnerSolverDef);

// The defaults of the inner solvers' fields ([`InnerSolver::GMRES`],
// [`InnerSolver::QUASI_NCG`]).
fn restart() -> usize {
    30
}
fn gmres_max_iter() -> usize {
    100
}
fn qncg_max_iter() -> usize {
    15
}
fn rel_tol() -> f64 {
    1e-2
}
fn fd_step() -> f64 {
    1e-7
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "LineSearch", rename_all = "kebab-case")]
enum LineSearchDef {
    None,
    Armijo(Armijo),
}

named_or_tagged!(LineSearch, LineSearchDef);

#[derive(Serialize, Deserialize)]
#[serde(remote = "Start", rename_all = "kebab-case", deny_unknown_fields)]
enum StartDef {
    Given,
    SemiStaggered { threshold: f64, max_iter: usize },
}

named_or_tagged!(Start, StartDef);

#[derive(Serialize, Deserialize)]
#[serde(
    remote = "KinkStrategy",
    rename_all = "kebab-case",
    deny_unknown_fields
)]
enum KinkStrategyDef {
    Fixed,
    Random {
        #[serde(default)]
        seed: u64,
    },
    Perturbation,
    Zero,
}

named_or_tagged!(KinkStrategy, KinkStrategyDef);

#[cfg(test)]
mod tests {
    use super::*;

    /// The mirrors' defaults are the documented ones.
    #[test]
    fn defaults_match_the_constants() {
        let gmres: InnerSolver = serde_json::from_str(r#"{"gmres": {}}"#).unwrap();
        assert_eq!(gmres, InnerSolver::GMRES);
        let qncg: InnerSolver = serde_json::from_str(r#"{"qncg": {}}"#).unwrap();
        assert_eq!(qncg, InnerSolver::QUASI_NCG);
        let armijo: LineSearch = serde_json::from_str(r#"{"armijo": {}}"#).unwrap();
        assert_eq!(armijo, LineSearch::default());
    }
}
