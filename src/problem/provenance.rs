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
    /// For an LCP or boxed LCP whose unknowns are pyramid-edge forces (MuJoCo's
    /// pyramidal cone): which rows belong to which contact and with which friction
    /// coefficients ([`super::Pyramid`]). The contacts are then these, `labels` has one entry
    /// per pyramid contact, and [`crate::check::check`] judges the answer as
    /// contact-frame forces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pyramid: Option<super::Pyramid>,
}

impl Provenance {
    /// Checks [`Provenance::pyramid`] against `problem`: only an LCP or a boxed LCP has
    /// pyramid-edge rows, and they must fit it ([`super::Pyramid::validate`]).
    ///
    /// # Errors
    /// [`super::ProblemError::Unsupported`] saying what is wrong.
    pub fn check_pyramid(&self, problem: &super::AnyProblem) -> Result<(), super::ProblemError> {
        let Some(p) = &self.pyramid else {
            return Ok(());
        };
        match problem {
            super::AnyProblem::Lcp(_) | super::AnyProblem::Boxed(_) => p.validate(problem.dim()),
            other => Err(super::ProblemError::Unsupported {
                reason: format!(
                    "a pyramid of edge rows is given for a problem of type {}; only an LCP \
                     or a boxed LCP has pyramid-edge unknowns",
                    other.type_name()
                ),
            }),
        }
    }

    /// The contacts the labels name: the pyramid's contacts when there is a
    /// [`Provenance::pyramid`], else [`super::AnyProblem::contacts`].
    pub fn contacts_of(&self, problem: &super::AnyProblem) -> usize {
        match &self.pyramid {
            Some(p) => p.len(),
            None => problem.contacts(),
        }
    }
}
