//! `check`: the library's judgement of an answer ([`nonsmooth::check::check`]), its
//! summary as attributes and its per-contact records as a NumPy structured array: the
//! fields of `nonsmooth check --json`.

use nonsmooth::check::{
    CheckError, CheckOptions, CheckReport, JudgeBy, check as crate_check, compare_with_elliptic,
};
use nonsmooth::merit::ContactCheck;
use nonsmooth::problem::FrictionKind;
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;

use crate::convert::{json_to_py, readonly_vector};
use crate::errors;
use crate::problem::PyProblem;
use crate::records::{fields_of, structured_array};

/// The judgement of an answer, as `nonsmooth check --json` gives it.
///
/// Every field of the summary is an attribute: `verdict` ("consistent",
/// "inconsistent", or "undecided" when judged by distance without a reference), `by`
/// ("residual", "distance" or "both"), `grade` (one sentence with the distance to the reference), `type`,
/// `kind`, `tol`, `error` (Siconos 4.4 normalisation), `error_q` (||q||-scaled),
/// `error_abs`, `error_normal`, `level` ("velocity", "acceleration", "unknown"),
/// `force_unit`, `penetration_name`, `max_penetration`, `max_cone_violation`,
/// `max_complementarity`, `min_dissipation`, `other_law` (dict: the error under the other
/// friction law), `note`, `reference` (dict: the reference solve and the distance to it,
/// or None). `consistent` is `verdict == "consistent"`.
///
/// `contacts` is a NumPy structured array with one record per contact and the fields of
/// the library's `ContactCheck`: contact (int64), label (unicode), r_n, u_n, slip,
/// penetration, cone_violation, dual_violation, complementarity, dissipation, error,
/// distance (float64; NaN when no reference was found). Units are the problem's (N s
/// and m/s at the velocity level, N and m/s^2 at the acceleration level).
///
/// The summary dict and the structured array are made from the library's report when
/// first read (and kept): a caller that reads only `consistent` or `error` does not pay
/// for the conversion of every contact.
#[pyclass(name = "CheckReport", module = "nonsmooth._native", frozen)]
pub struct PyCheckReport {
    /// The library's report, its contacts included.
    report: CheckReport,
    summary: PyOnceLock<Py<PyDict>>,
    contacts: PyOnceLock<Py<PyAny>>,
    consistent: bool,
}

impl PyCheckReport {
    /// The summary dict (made on first use).
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyDict>> {
        Ok(self
            .summary
            .get_or_try_init(py, || summary_to_py(py, &self.report))?
            .bind(py))
    }
}

/// A number as the summary dict holds it: a float, or `None` for NaN and infinities
/// (which JSON does not have).
fn number(py: Python<'_>, x: f64) -> PyResult<Bound<'_, PyAny>> {
    Ok(if x.is_finite() {
        x.into_pyobject(py)?.into_any()
    } else {
        py.None().into_bound(py)
    })
}

#[pymethods]
impl PyCheckReport {
    /// One record per contact (a NumPy structured array).
    #[getter]
    fn contacts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self
            .contacts
            .get_or_try_init(py, || contacts_to_py(py, &self.report.contacts))?
            .bind(py)
            .clone())
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        // The plain fields straight from the report (the same values as the summary
        // dict's, without making the dict); the nested ones from the dict.
        let r = &self.report;
        let direct = match name {
            "verdict" => Some(r.verdict.as_str().into_pyobject(py)?.into_any()),
            "grade" => Some(r.grade.as_str().into_pyobject(py)?.into_any()),
            "type" => Some(r.problem_type.as_str().into_pyobject(py)?.into_any()),
            "by" => Some(r.by.name().into_pyobject(py)?.into_any()),
            "level" => Some(r.level.name().into_pyobject(py)?.into_any()),
            "tol" => Some(number(py, r.tol)?),
            "error" => Some(number(py, r.error)?),
            "error_q" => Some(number(py, r.error_q)?),
            "error_abs" => Some(number(py, r.error_abs)?),
            "error_normal" => Some(number(py, r.error_normal)?),
            "error_scaled" => Some(number(py, r.error_scaled)?),
            _ => None,
        };
        if let Some(v) = direct {
            return Ok(v);
        }
        match self.summary(py)?.get_item(name)? {
            Some(v) => Ok(v),
            None => Err(PyAttributeError::new_err(format!(
                "CheckReport has no attribute `{name}`"
            ))),
        }
    }

    fn __dir__(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let mut names: Vec<String> = self.summary(py)?.keys().extract()?;
        names.extend(["contacts", "consistent", "to_dict"].map(String::from));
        Ok(names)
    }

    /// `verdict == "consistent"`: the measure `by` names meets `tol`.
    #[getter]
    fn consistent(&self) -> bool {
        self.consistent
    }

    /// The summary as a dict (a copy), with `contacts` the structured array.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = self.summary(py)?.copy()?;
        d.set_item("contacts", self.contacts(py)?)?;
        Ok(d)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let _ = py;
        Ok(format!("CheckReport({:?})", self.report.grade))
    }
}

fn check_error(e: CheckError) -> PyErr {
    errors::problem(e)
}

/// The library's check (the GIL released when it solves for a reference).
pub(crate) fn run_check(
    py: Python<'_>,
    p: &PyProblem,
    r: &[f64],
    opts: &CheckOptions,
) -> PyResult<CheckReport> {
    let judge = || -> Result<CheckReport, CheckError> {
        let mut report = crate_check(&p.inner, r, &p.provenance, opts)?;
        // A pyramidal MuJoCo file read with Problem.read: the same forces judged in the
        // elliptic problem of its contacts too, as the command line does.
        if let (Some(view), Some(_), true) = (&p.elliptic, report.pyramid_contacts, opts.reference)
        {
            compare_with_elliptic(&mut report, r, &p.provenance, view, opts)?;
        }
        Ok(report)
    };
    if opts.reference {
        py.detach(judge).map_err(check_error)
    } else {
        judge().map_err(check_error)
    }
}

fn options(tol: f64, kind: Option<&str>, reference: bool, by: &str) -> PyResult<CheckOptions> {
    if !(tol >= 0.0) || !tol.is_finite() {
        return Err(errors::OptionError::new_err(format!(
            "tol must be a finite number >= 0, not {tol}"
        )));
    }
    let by: JudgeBy = by.parse().map_err(errors::OptionError::new_err)?;
    if by != JudgeBy::Residual && !reference {
        return Err(errors::OptionError::new_err(format!(
            "by=\"{}\" judges by the distance to the reference solution, which \
             reference=False turns off",
            by.name()
        )));
    }
    Ok(CheckOptions {
        by,
        kind: kind
            .map(|k| k.parse::<FrictionKind>().map_err(errors::problem))
            .transpose()?,
        tol,
        reference,
        ..Default::default()
    })
}

/// Judges an answer `r` (shape (dim,): `[n, t1, t2]` per contact, the problem's units)
/// as `nonsmooth check` does: the error in both Siconos normalisations, each contact's
/// penetration, cone and dual-cone violation, complementarity and dissipation, and, with
/// `reference=True`, the distance to a reference solution the library computes (the
/// CCP's solution is unique; for Coulomb the nearest solution found from `r`).
///
/// tol: the verdict's tolerance; kind: judge against "coulomb" or "ccp" instead of the
/// problem's law; by: what the verdict judges by, "residual" (the error in the Siconos 4.4
/// normalisation, the normal condition and the scaled error within `tol`), "distance"
/// (`||r - r*|| / ||r*||` within `tol`, and no contact off by more than `tol` of the
/// largest contact force; "undecided" when no reference solution is found) or "both".
/// Both numbers are always reported. The problem's labels and units (its
/// provenance) name the contacts and the level of the data.
///
/// Raises ProblemError for an `r` of the wrong length or with NaN or infinity, and for a
/// law asked of an LCP. The GIL is released during the reference solve.
#[pyfunction]
#[pyo3(signature = (problem, r, tol = 1e-8, kind = None, reference = true, by = "residual"))]
pub fn check(
    py: Python<'_>,
    problem: &Bound<'_, PyProblem>,
    r: &Bound<'_, PyAny>,
    tol: f64,
    kind: Option<&str>,
    reference: bool,
    by: &str,
) -> PyResult<PyCheckReport> {
    let p = problem.get();
    let opts = options(tol, kind, reference, by)?;
    let r = readonly_vector(r, "r")?;
    let report = match r.as_slice() {
        Ok(s) => run_check(py, p, s, &opts)?,
        Err(_) => run_check(py, p, &r.as_array().to_vec(), &opts)?,
    };
    report_to_py(py, report)
}

/// The report as Python. Its summary dict and contacts array are made when first read
/// ([`PyCheckReport`]).
pub(crate) fn report_to_py(_py: Python<'_>, report: CheckReport) -> PyResult<PyCheckReport> {
    let consistent = report.verdict == "consistent";
    Ok(PyCheckReport {
        report,
        summary: PyOnceLock::new(),
        contacts: PyOnceLock::new(),
        consistent,
    })
}

/// The summary: the report without its contacts, as JSON, as a dict.
fn summary_to_py(py: Python<'_>, report: &CheckReport) -> PyResult<Py<PyDict>> {
    let mut summary = serde_json::to_value(report).map_err(errors::problem)?;
    if let serde_json::Value::Object(m) = &mut summary {
        m.remove("contacts");
    }
    Ok(json_to_py(py, &summary)?.cast_into::<PyDict>()?.unbind())
}

/// The contacts as a structured array.
fn contacts_to_py(py: Python<'_>, contacts: &[ContactCheck]) -> PyResult<Py<PyAny>> {
    let records = contacts
        .iter()
        .map(|c| fields_of(c).map_err(errors::problem))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(if records.is_empty() {
        // No contacts (an LCP): an empty array with the same fields, typed from a record
        // of zeros (a struct literal, so a new field of the record fails to compile here).
        let zero = ContactCheck {
            contact: 0,
            label: Some(String::new()),
            r_n: 0.0,
            u_n: 0.0,
            slip: 0.0,
            penetration: 0.0,
            cone_violation: 0.0,
            dual_violation: 0.0,
            complementarity: 0.0,
            dissipation: 0.0,
            error: 0.0,
            distance: Some(0.0),
            law: None,
            dim: None,
            r_t1: None,
            r_t2: None,
        };
        let one = vec![fields_of(&zero).map_err(errors::problem)?];
        structured_array(py, &one, &["label"])?
            .get_item(pyo3::types::PySlice::new(py, 0, 0, 1))?
            .unbind()
    } else {
        structured_array(py, &records, &["label", "law"])?.unbind()
    })
}

/// Seconds per call of the library's check alone (`nonsmooth::check::check`, no Python
/// conversion), averaged over `repeat` calls: for `bench/overhead.py`.
#[pyfunction]
#[pyo3(signature = (problem, r, repeat = 10000, reference = false))]
pub fn _time_check(
    problem: &Bound<'_, PyProblem>,
    r: &Bound<'_, PyAny>,
    repeat: usize,
    reference: bool,
) -> PyResult<f64> {
    let p = problem.get();
    let r = readonly_vector(r, "r")?.as_array().to_vec();
    let opts = options(1e-8, None, reference, "residual")?;
    let t = std::time::Instant::now();
    for _ in 0..repeat.max(1) {
        let rep = crate_check(&p.inner, std::hint::black_box(&r), &p.provenance, &opts)
            .map_err(check_error)?;
        std::hint::black_box(rep);
    }
    Ok(t.elapsed().as_secs_f64() / repeat.max(1) as f64)
}
