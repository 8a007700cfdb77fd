//! The metadata of a NumPy problem: the `meta.json` file of a folder and the `meta` member
//! of an `.npz` archive hold the same JSON object, read and written here by one serde
//! schema, [`Meta`].
//!
//! The object holds any of the keys `name`, `law` (`"coulomb"` or `"ccp"`, the friction
//! law of an fc3d, gfc3d or gmp problem), `source` (who made it), `description`,
//! `answer_source` (who computed `r`), `units` (an object of strings, for example
//! `{"r": "N s", "u": "m/s"}`), `labels` (one string per contact, per block of a gmp
//! problem or per pyramid contact) and `pyramid` (the pyramid-edge rows of an LCP's
//! contacts, [`crate::problem::Pyramid`]); each may be `null`. Any other key is an error, so that a misspelt `law` is
//! not silently read as Coulomb, and so is a value of the wrong type; the message names
//! the file, the key (the entry, inside `units` and `labels`) and what was found.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Deserializer, Serialize};

use super::header::show;
use crate::io::{IoError, Provenance};
use crate::problem::{EngineAnswer, FrictionKind};

/// The metadata object of a NumPy folder (`meta.json`) or `.npz` archive (`meta`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    /// Problem name (default: the folder's name, the archive's stem).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Friction law of an fc3d, gfc3d or gmp problem (default Coulomb, with a warning).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub law: Option<FrictionKind>,
    /// Who made the problem (in a folder, also the answer's source when there is no
    /// `answer_source`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Units, for example `{"r": "N s", "u": "m/s"}`.
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub units: BTreeMap<String, String>,
    /// One label per contact (per block of a gmp problem), or none.
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub labels: Vec<String>,
    /// Who computed the answer `r`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_source: Option<String>,
    /// An LCP's pyramid-edge rows per contact ([`crate::problem::Pyramid`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pyramid: Option<crate::problem::Pyramid>,
}

/// The keys of [`Meta`] with what each holds, for messages (a test checks that they are
/// the schema's).
const KEYS: [(&str, &str); 8] = [
    ("name", "a string"),
    ("law", "\"coulomb\" or \"ccp\""),
    ("source", "a string"),
    ("description", "a string"),
    ("units", "an object of strings such as {\"r\": \"N s\"}"),
    ("labels", "a list of strings, one per contact"),
    ("answer_source", "a string"),
    (
        "pyramid",
        "{\"contacts\": [{\"row\": first edge row, \"mu\": [coefficients]}, ...]}",
    ),
];

/// `null` read as the empty value.
fn null_as_empty<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// What a JSON value is, in words.
fn json_kind(v: &serde_json::Value) -> &'static str {
    use serde_json::Value::*;
    match v {
        Null => "null",
        Bool(_) => "a boolean",
        Number(_) => "a number",
        String(_) => "a string",
        Array(_) => "a list",
        Object(_) => "an object",
    }
}

impl Meta {
    /// The metadata the writers store: the problem's `name` and `law`, the provenance
    /// (empty strings left out) and the answer's source.
    pub fn of(
        name: &str,
        law: Option<FrictionKind>,
        provenance: &Provenance,
        answer: Option<&EngineAnswer>,
    ) -> Meta {
        let nonempty = |s: &str| Some(s.to_string()).filter(|s| !s.is_empty());
        Meta {
            name: Some(name.to_string()),
            law,
            source: nonempty(&provenance.source),
            description: nonempty(&provenance.description),
            units: provenance.units.clone(),
            labels: provenance.labels.clone(),
            answer_source: answer.map(|a| a.source.clone()),
            pyramid: provenance.pyramid.clone(),
        }
    }

    /// Parses the JSON bytes of the metadata; `path` names the file (or member) in
    /// messages and `what` the object (`"meta.json"`, `"meta"`).
    ///
    /// # Errors
    /// [`IoErrorKind::Parse`](crate::io::IoErrorKind::Parse): JSON syntax (at the line
    /// and column), a top level that is not an object, an unknown key, or a value of the
    /// wrong type (at the key's name; inside `units` and `labels`, at the entry).
    pub fn parse(path: &Path, bytes: &[u8], what: &str) -> Result<Meta, IoError> {
        let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| {
            IoError::parse(
                path,
                format!("line {} column {}", e.line(), e.column()),
                e.to_string(),
            )
        })?;
        let serde_json::Value::Object(map) = value else {
            return Err(IoError::parse(
                path,
                "top level",
                format!(
                    "expected an object such as {{\"name\": \"...\", \"law\": \"ccp\"}}, found {}",
                    json_kind(&value)
                ),
            ));
        };
        for (key, v) in &map {
            let Some((_, expected)) = KEYS.iter().find(|(k, _)| k == key) else {
                return Err(IoError::parse(
                    path,
                    format!("`{}`", show(key.as_bytes(), 40)),
                    format!(
                        "unknown field `{}`; {what} holds name, law, source, description, \
                         answer_source, units and labels",
                        show(key.as_bytes(), 40)
                    ),
                ));
            };
            // Each key through the schema alone, so that an error names its key.
            let one = serde_json::Value::Object([(key.clone(), v.clone())].into_iter().collect());
            if serde_json::from_value::<Meta>(one).is_err() {
                return Err(wrong_type(path, key, v, expected));
            }
        }
        serde_json::from_value(serde_json::Value::Object(map))
            .map_err(|e| IoError::parse(path, "top level", e.to_string()))
    }
}

/// The error for the value `v` of `key`, which the schema refused: where (the key, or the
/// entry of `units` or `labels`) and what was found.
fn wrong_type(path: &Path, key: &str, v: &serde_json::Value, expected: &str) -> IoError {
    use serde_json::Value;
    let at = format!("`{key}`");
    match (key, v) {
        ("units", Value::Object(m)) => {
            if let Some((k, x)) = m.iter().find(|(_, x)| !x.is_string()) {
                return IoError::parse(
                    path,
                    format!("`units`.`{}`", show(k.as_bytes(), 40)),
                    format!("a unit is {}; expected a string", json_kind(x)),
                );
            }
        }
        ("labels", Value::Array(a)) => {
            if let Some((i, x)) = a.iter().enumerate().find(|(_, x)| !x.is_string()) {
                return IoError::parse(
                    path,
                    format!("`labels`[{i}]"),
                    format!("label {i} is {}; expected a string", json_kind(x)),
                );
            }
        }
        ("law", Value::String(s)) => {
            return IoError::parse(
                path,
                at,
                format!(
                    "`law` is `{}`; expected coulomb or ccp",
                    show(s.as_bytes(), 40)
                ),
            );
        }
        _ => {}
    }
    IoError::parse(
        path,
        at,
        format!("`{key}` is {}; expected {expected}", json_kind(v)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(bytes: &[u8]) -> String {
        Meta::parse(Path::new("meta.json"), bytes, "meta.json")
            .expect_err("an error")
            .to_string()
    }

    #[test]
    fn errors_name_the_file_and_the_key() {
        let e = err(br#"{"law": "tresca"}"#);
        assert!(
            e.ends_with("meta.json: `law`: `law` is `tresca`; expected coulomb or ccp"),
            "{e}"
        );
        let e = err(br#"{"law": 1}"#);
        assert!(e.contains("`law` is a number; expected \"coulomb\""), "{e}");
        let e = err(br#"{"name": 3}"#);
        assert!(e.contains("`name` is a number; expected a string"), "{e}");
        let e = err(br#"{"Law": "ccp"}"#);
        assert!(e.contains("unknown field `Law`"), "{e}");
        let e = err(b"[1]");
        assert!(e.contains("found a list"), "{e}");
        let e = err(b"{\"law\": ");
        assert!(e.contains("meta.json: line 1 column"), "{e}");
        let e = err(br#"{"labels": ["a", 3]}"#);
        assert!(e.contains("`labels`[1]: label 1 is a number"), "{e}");
        let e = err(br#"{"units": {"r": 2}}"#);
        assert!(e.contains("`units`.`r`: a unit is a number"), "{e}");
        let e = err(br#"{"units": []}"#);
        assert!(e.contains("`units` is a list; expected an object"), "{e}");
        let m = Meta::parse(
            Path::new("meta.json"),
            br#"{"law": "ccp", "name": null, "source": "s", "labels": null, "units": null}"#,
            "meta.json",
        )
        .unwrap();
        assert_eq!(m.law, Some(FrictionKind::Ccp));
        assert_eq!(m.source.as_deref(), Some("s"));
        assert!(m.labels.is_empty() && m.units.is_empty());
    }

    /// The keys messages list are the schema's, every one read back.
    #[test]
    fn the_keys_are_the_schema() {
        let full = Meta {
            name: Some("n".into()),
            law: Some(FrictionKind::Ccp),
            source: Some("s".into()),
            description: Some("d".into()),
            units: [("r".to_string(), "N".to_string())].into_iter().collect(),
            labels: vec!["a".into()],
            answer_source: Some("a".into()),
            pyramid: Some(crate::problem::Pyramid::consecutive(0, [vec![0.5, 0.5]])),
        };
        let value = serde_json::to_value(&full).unwrap();
        let mut keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        keys.sort();
        let mut listed: Vec<&str> = KEYS.iter().map(|(k, _)| *k).collect();
        listed.sort();
        assert_eq!(keys, listed);
        let bytes = serde_json::to_vec(&full).unwrap();
        assert_eq!(Meta::parse(Path::new("m"), &bytes, "meta").unwrap(), full);
    }
}
