//! `check`: how well an answer satisfies its problem, overall and per contact.
//! (Bound to `nonsmooth::merit` until the library's `check` module is merged.)

use nalgebra::DVector;
use nonsmooth::merit::{check_contacts, friction_error};
use nonsmooth::problem::{AnyProblem, FrictionKind};
use pyo3::prelude::*;

use crate::convert::vector;
use crate::errors;
use crate::problem::{PyProblem, check_len};
use crate::records::{Scalar, fields_of, structured_array};

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

/// What the library's check returns, before conversion to Python.
struct Checked {
    error: nonsmooth::merit::Residual,
    kind: FrictionKind,
    records: Vec<nonsmooth::merit::ContactCheck>,
}

fn check_core(p: &PyProblem, r: &DVector<f64>, kind: Option<FrictionKind>) -> PyResult<Checked> {
    check_len("r", p.inner.dim(), r.len())?;
    let fc = match &p.inner {
        AnyProblem::Friction(f) => f,
        _ => return Err(errors::problem("check: friction problems only for now")),
    };
    let kind = kind.unwrap_or(fc.kind());
    let fc2;
    let fcref = if kind == fc.kind() {
        fc
    } else {
        fc2 = fc.clone().with_kind(kind);
        &fc2
    };
    Ok(Checked {
        error: friction_error(fcref, r),
        kind,
        records: check_contacts(fcref, r, kind),
    })
}

/// Seconds per call of the library's check alone (no Python conversion), averaged over
/// `repeat` calls: for `bench/overhead.py`.
#[pyfunction]
#[pyo3(signature = (problem, r, repeat = 10000, kind = None))]
pub fn _time_check(
    problem: &Bound<'_, PyProblem>,
    r: &Bound<'_, PyAny>,
    repeat: usize,
    kind: Option<&str>,
) -> PyResult<f64> {
    let p = problem.get();
    let r = vector(r, "r")?;
    let kind = kind
        .map(|k| k.parse::<FrictionKind>().map_err(errors::problem))
        .transpose()?;
    let t = std::time::Instant::now();
    for _ in 0..repeat.max(1) {
        std::hint::black_box(check_core(p, std::hint::black_box(&r), kind)?);
    }
    Ok(t.elapsed().as_secs_f64() / repeat.max(1) as f64)
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
    let kind = kind
        .map(|k| k.parse::<FrictionKind>().map_err(errors::problem))
        .transpose()?;
    let Checked {
        error: e,
        kind,
        records: recs,
    } = check_core(p, &r, kind)?;
    let labels = &p.provenance.labels;
    let records = recs
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut f = fields_of(c).map_err(errors::problem)?;
            f.push((
                "label".into(),
                Scalar::Str(labels.get(i).cloned().unwrap_or_default()),
            ));
            Ok(f)
        })
        .collect::<PyResult<Vec<_>>>()?;
    let contacts = structured_array(py, &records)?.unbind();
    Ok(PyCheckReport {
        error: e.rel,
        error_q: e.rel_q,
        error_abs: e.abs,
        kind: kind.name(),
        consistent: e.meets(tol, nonsmooth::merit::Measure::Relative),
        contacts,
    })
}
