//! `check`: how well an answer satisfies its problem, overall and per contact.
//! (Bound to `nonsmooth::merit` until the library's `check` module is merged.)

use nonsmooth::merit::{check_contacts, friction_error};
use nonsmooth::problem::{AnyProblem, FrictionKind};
use pyo3::prelude::*;

use crate::convert::vector;
use crate::errors;
use crate::problem::{PyProblem, check_len};
use crate::records::{field_order, structured_array};

/// The verdict on an answer: summary fields as attributes, `contacts` a NumPy structured
/// array with one record per contact.
#[pyclass(name = "CheckReport", module = "nonsmooth._native", frozen)]
pub struct PyCheckReport {
    /// The error in the Siconos 4.4 normalisation.
    #[pyo3(get)]
    error: f64,
    /// The ||q||-scaled error.
    #[pyo3(get)]
    error_q: f64,
    /// The absolute error.
    #[pyo3(get)]
    error_abs: f64,
    /// The law checked against.
    #[pyo3(get)]
    kind: &'static str,
    /// error <= tol.
    #[pyo3(get)]
    consistent: bool,
    /// One record per contact.
    #[pyo3(get)]
    contacts: Py<PyAny>,
}

#[pymethods]
impl PyCheckReport {
    fn __repr__(&self) -> String {
        format!(
            "CheckReport(kind={:?}, consistent={}, error={:.3e}, error_q={:.3e})",
            self.kind, self.consistent, self.error, self.error_q
        )
    }
}

/// Checks an answer `r` (shape (dim,)) of a friction problem against its law (or `kind`).
#[pyfunction]
#[pyo3(signature = (problem, r, tol = 1e-8, kind = None, reference = true))]
pub fn check(
    py: Python<'_>,
    problem: &Bound<'_, PyProblem>,
    r: &Bound<'_, PyAny>,
    tol: f64,
    kind: Option<&str>,
    reference: bool,
) -> PyResult<PyCheckReport> {
    let _ = reference;
    let p = problem.get();
    let r = vector(r, "r")?;
    check_len("r", p.inner.dim(), r.len())?;
    let fc = match &p.inner {
        AnyProblem::Friction(f) => f,
        _ => return Err(errors::problem("check: friction problems only for now")),
    };
    let kind = match kind {
        Some(k) => k.parse::<FrictionKind>().map_err(errors::problem)?,
        None => fc.kind(),
    };
    let fc2;
    let fcref = if kind == fc.kind() {
        fc
    } else {
        fc2 = fc.clone().with_kind(kind);
        &fc2
    };
    let e = friction_error(fcref, &r);
    let recs = check_contacts(fcref, &r, kind);
    let order = recs.first().map(field_order).unwrap_or_default();
    let labels = &p.provenance.labels;
    let values: Vec<serde_json::Value> = recs
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut v = serde_json::to_value(c).unwrap_or(serde_json::Value::Null);
            if let serde_json::Value::Object(m) = &mut v {
                m.insert(
                    "label".into(),
                    labels.get(i).cloned().unwrap_or_default().into(),
                );
            }
            v
        })
        .collect();
    let contacts = structured_array(py, &values, &order)?.unbind();
    Ok(PyCheckReport {
        error: e.rel,
        error_q: e.rel_q,
        error_abs: e.abs,
        kind: kind.name(),
        consistent: e.meets(tol, nonsmooth::merit::Measure::Relative),
        contacts,
    })
}
