//! [`Provenance`]: where a problem came from and what its numbers mean (kept with the
//! problem by every file format that can hold it).

/// Where a problem came from and what its numbers mean.
///
/// Read from a file, a key it does not know is an error.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// The program that made the problem (for example `"Siconos 4.4 test suite"`,
    /// `"MuJoCo 4.0.0"`, `"nonsmooth::multibody"`).
    #[serde(default)]
    pub source: String,
    /// Free text: scene, parameters, conversions applied.
    #[serde(default)]
    pub description: String,
    /// Units of the unknowns and data, for example `{"r": "N s", "u": "m/s"}`.
    #[serde(default)]
    pub units: std::collections::BTreeMap<String, String>,
    /// One label per contact (for example `"box1/floor at (0.1, 0, 0)"`: the bodies or
    /// geoms and the position an engine reported), shown beside the contact's index in
    /// reports; empty when the source gave none. When not empty it has one entry per
    /// contact, in the problem's contact order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
}
