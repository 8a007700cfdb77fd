//! Serde for the option enums of the Newton methods ([`super::InnerSolver`],
//! [`super::LineSearch`], [`super::Start`], [`super::KinkStrategy`]): written in serde's
//! externally tagged form with kebab-case names (`"lu"`, `{"gmres": {"restart": 30,
//! "max_iter": 100, "rel_tol": 0.01}}`), read from that form or from a bare name (`"gmres"`,
//! the variant with its documented defaults) through the enum's `FromStr`, so that
//! `inner=gmres` on a command line and a JSON object both set the option.
//!
//! The enum derives `Serialize` and `Deserialize` with `#[serde(remote = "Self")]` (which
//! makes them inherent functions) and [`named_or_tagged!`] implements the traits on top.

/// Implements `Serialize` and `Deserialize` for an enum that derives them with
/// `#[serde(remote = "Self")]` and implements `FromStr<Err = String>` for its bare names.
macro_rules! named_or_tagged {
    ($t:ident) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $t::serialize(self, s)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                use serde::de::Error as _;
                let value = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
                match value {
                    serde_json::Value::String(name) => name.parse::<$t>().map_err(D::Error::custom),
                    tagged => $t::deserialize(tagged).map_err(D::Error::custom),
                }
            }
        }
    };
}

pub(crate) use named_or_tagged;
