//! `solve`: any method of the crate's registry on a `Problem`, its options by keyword.

use nalgebra::DVector;
use nonsmooth::merit::Measure;
use nonsmooth::problem::AnyProblem;
use nonsmooth::registry::{self, Choice};
use nonsmooth::solver::{Params, SolveError as CrateSolveError, no_observer};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::convert::{json_to_py, py_to_json, to_array, vector};
use crate::errors::{self, SolveError};
use crate::problem::{PyProblem, velocity_of};

/// What a solve produced (converged or not: see `status` and `converged`).
///
/// r: the answer, shape (dim,) (`x` for an LCP); N s at the velocity level.
/// u: the velocity at r, shape (dim,): `W r + q` (local), `H^T v + b` (global),
///    `A x + b` (LCP).
/// v: the generalised velocity `M^-1 (q + H r)` of a global problem, shape (ndof,);
///    None otherwise.
/// error: the problem's error in the Siconos 4.4 normalisation (the natural-map residual
///    of the friction law over 1 + ||q||... as the crate measures it; `nonsmooth solve`'s
///    `error` column); error_q: the ||q||-scaled normalisation of Siconos <= 4.3 and the
///    2018 benchmark (`error_q` column); error_abs: unnormalised; error_normal: the normal
///    condition (penetration and pulling), Siconos 4.4 normalisation; error_scaled: the
///    error against the problem's own scale, which a large answer cannot shrink (the
///    verdict requires it too; the book's chapter on judging an answer).
#[pyclass(name = "Result", module = "nonsmooth._native", frozen)]
pub struct PyResult_ {
    /// The answer, shape (dim,).
    #[pyo3(get)]
    r: Py<PyArray1<f64>>,
    /// The velocity at r, shape (dim,).
    #[pyo3(get)]
    u: Py<PyArray1<f64>>,
    /// A global problem's generalised velocity, shape (ndof,), or None.
    #[pyo3(get)]
    v: Option<Py<PyArray1<f64>>>,
    /// "converged", "max-iterations", "stopped", "stalled" or "time-limit".
    #[pyo3(get)]
    status: &'static str,
    /// status == "converged".
    #[pyo3(get)]
    converged: bool,
    /// Iterations done (sweeps, Newton steps or pivots).
    #[pyo3(get)]
    iterations: usize,
    /// The error, Siconos 4.4 normalisation (dimensionless).
    #[pyo3(get)]
    error: f64,
    /// The error, ||q||-scaled normalisation (Siconos <= 4.3, the 2018 benchmark).
    #[pyo3(get)]
    error_q: f64,
    /// The absolute error (the problem's units).
    #[pyo3(get)]
    error_abs: f64,
    /// The normal condition of a friction answer (Siconos 4.4 normalisation); 0 for LCPs.
    #[pyo3(get)]
    error_normal: f64,
    /// The error against the problem's own scale (dimensionless; `converged` requires it at
    /// most tol too).
    #[pyo3(get)]
    error_scaled: f64,
    /// Wall time of the solve, seconds.
    #[pyo3(get)]
    time_s: f64,
    /// What the method counted (its statistics as a dict; None for methods that count
    /// nothing).
    #[pyo3(get)]
    stats: Py<PyAny>,
    /// The error at every check when history=True: a dict of arrays `iteration` (int64),
    /// `error`, `error_q`, `error_abs`, `time` (seconds since the start); else None.
    #[pyo3(get)]
    history: Py<PyAny>,
    /// The method run ("auto" resolved).
    #[pyo3(get)]
    method: String,
    /// All its options, defaults with the ones given over them.
    #[pyo3(get)]
    options: Py<PyAny>,
    /// The friction law solved ("coulomb", "ccp"), None for LCPs.
    #[pyo3(get)]
    kind: Option<&'static str>,
    /// Why it did not converge, in the crate's words; None when it converged.
    #[pyo3(get)]
    message: Option<String>,
}

#[pymethods]
impl PyResult_ {
    fn __repr__(&self) -> String {
        format!(
            "Result(method={:?}, status={:?}, iterations={}, error={:.3e}, error_q={:.3e}, time_s={:.3e})",
            self.method, self.status, self.iterations, self.error, self.error_q, self.time_s
        )
    }

    fn __bool__(&self) -> bool {
        self.converged
    }
}

fn measure_of(s: &str) -> PyResult<Measure> {
    match s {
        "rel" => Ok(Measure::Relative),
        "rel-q" | "rel_q" => Ok(Measure::RelativeQ),
        "abs" => Ok(Measure::Absolute),
        o => Err(errors::OptionError::new_err(format!(
            "unknown measure `{o}` (expected rel, rel-q or abs)"
        ))),
    }
}

/// Solves `problem` with a method of the registry.
///
/// method: "auto" (the measured best per problem type) or any name of `methods()`.
/// tol: stop when the error (`measure`: "rel" Siconos 4.4, "rel-q", "abs") is at most
///    this; >= 0.
/// max_iter: iteration cap, a whole number >= 1 (None: the command line's default for the
///    method); every method also stops earlier, status "stalled", when its error stops
///    falling.
/// time_limit: wall-clock budget in seconds, > 0 (None: no limit); a solve still running
///    then ends with status "time-limit" and its best iterate.
/// warm_start: the starting point, shape (dim,) (None: zeros).
/// history: record the error at every iteration (Result.history).
/// **options: the method's options by name (`methods()` lists them with defaults),
///    for example `solve(p, "prox-gs", r_factor="global=5", window=1)`.
///
/// Returns a Result also when the iteration cap was reached (status "max-iterations"), the
/// method stalled (status "stalled") or the time ran out (status "time-limit").
/// Raises OptionError for an unknown method or option, ProblemError when the problem is
/// refused (a method that does not apply, a wrong warm-start length, a zero diagonal a
/// method divides by), SolveError when the method fails without an answer (diverged,
/// ray termination, singular system, or status "infeasible": the problem has no solution,
/// proved by the certificate in `.certificate`, a dict; `.status` and `.r` on the exception). The GIL is
/// released during the solve.
#[pyfunction]
#[pyo3(signature = (problem, method = "auto", tol = 1e-8, max_iter = None, warm_start = None, history = false, measure = "rel", time_limit = None, **options))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    problem: &Bound<'_, PyProblem>,
    method: &str,
    tol: f64,
    max_iter: Option<i128>,
    warm_start: Option<&Bound<'_, PyAny>>,
    history: bool,
    measure: &str,
    time_limit: Option<f64>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyResult_> {
    let p = problem.get();
    let mut choice = Choice::new(method).map_err(errors::option)?;
    if let Some(opts) = options {
        for (k, v) in opts.iter() {
            let key: String = k.cast::<PyString>()?.extract()?;
            let value = py_to_json(&v, &format!("option `{key}`"))?;
            choice = choice.set(&key, value).map_err(errors::option)?;
        }
    }
    if !(tol >= 0.0) || !tol.is_finite() {
        return Err(errors::OptionError::new_err(format!(
            "tol must be a finite number >= 0, not {tol}"
        )));
    }
    let max_iter = match max_iter {
        None => None,
        Some(m) if m >= 1 && m <= 1_000_000_000 => Some(m as usize),
        Some(m) => {
            return Err(errors::OptionError::new_err(format!(
                "max_iter must be a whole number from 1 to 1000000000, not {m}"
            )));
        }
    };
    if let Some(t) = time_limit {
        if !(t > 0.0) || !t.is_finite() {
            return Err(errors::OptionError::new_err(format!(
                "time_limit must be a finite number of seconds > 0, not {t}"
            )));
        }
    }
    let dim = p.inner.dim();
    let x0 = match warm_start.filter(|w| !w.is_none()) {
        None => DVector::zeros(dim),
        Some(w) => {
            let x = vector(w, "the warm start")?;
            nonsmooth::policy::warm_start::given(x.as_slice().to_vec(), dim)
                .map_err(errors::problem)?
        }
    };
    let params = Params {
        tol,
        max_iter: max_iter.unwrap_or(choice.default_max_iter()),
        measure: measure_of(measure)?,
        record_history: history,
        time_limit,
        ..Default::default()
    };
    let inner = &p.inner;
    let (outcome, u, v) = py.detach(|| {
        let outcome = registry::solve(inner, &choice, x0, &params, &mut no_observer());
        let (u, v) = match inner {
            AnyProblem::Global(g) => {
                let v = g.velocity_dofs(&outcome.x);
                (g.contact_velocity(&v), Some(v))
            }
            _ => (velocity_of(inner, &outcome.x), None),
        };
        (outcome, u, v)
    });
    let info = match &outcome.result {
        Ok(info) => info,
        Err(CrateSolveError::NoConvergence(info)) => info,
        Err(CrateSolveError::Problem(e)) => return Err(errors::problem(e)),
        Err(e) => {
            let err = SolveError::new_err(e.to_string());
            let value = err.value(py);
            value.setattr("status", e.status_name())?;
            value.setattr("r", to_array(py, outcome.x.as_slice()))?;
            value.setattr("method", outcome.method.name())?;
            if let CrateSolveError::Infeasible(c) = e {
                let json = serde_json::to_value(&**c).unwrap_or(serde_json::Value::Null);
                value.setattr("certificate", json_to_py(py, &json)?)?;
            } else {
                value.setattr("certificate", py.None())?;
            }
            return Err(err);
        }
    };
    let hist = if history {
        let d = PyDict::new(py);
        let h = &info.history;
        let it: Vec<i64> = h.iter().map(|x| x.iteration as i64).collect();
        d.set_item("iteration", PyArray1::from_vec(py, it))?;
        d.set_item(
            "error",
            PyArray1::from_iter(py, h.iter().map(|x| x.error.rel)),
        )?;
        d.set_item(
            "error_q",
            PyArray1::from_iter(py, h.iter().map(|x| x.error.rel_q)),
        )?;
        d.set_item(
            "error_abs",
            PyArray1::from_iter(py, h.iter().map(|x| x.error.abs)),
        )?;
        d.set_item("time", PyArray1::from_iter(py, h.iter().map(|x| x.seconds)))?;
        d.into_any().unbind()
    } else {
        py.None()
    };
    let message = match &outcome.result {
        Err(e) => Some(e.to_string()),
        Ok(_) => None,
    };
    Ok(PyResult_ {
        r: to_array(py, outcome.x.as_slice()).unbind(),
        u: to_array(py, u.as_slice()).unbind(),
        v: v.map(|v| to_array(py, v.as_slice()).unbind()),
        status: outcome.status(),
        converged: outcome.status() == "converged",
        iterations: info.iterations,
        error: info.error.rel,
        error_q: info.error.rel_q,
        error_abs: info.error.abs,
        error_normal: info.error.normal,
        error_scaled: info.error.scaled,
        time_s: info.seconds,
        stats: json_to_py(py, &info.stats)?.unbind(),
        history: hist,
        method: outcome.method_label(),
        options: json_to_py(py, &outcome.method.options())?.unbind(),
        kind: outcome.kind.map(|k| k.name()),
        message,
    })
}

/// Every method of the registry: a list of dicts with `name`, `aliases`, `summary`,
/// `applies_to` (problem types: "lcp", "boxed-lcp", "fc3d", "gfc3d"),
/// `default_max_iter` and `options` (each option with its default value).
#[pyfunction]
pub fn methods(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    registry::METHODS
        .iter()
        .map(|m| {
            let d = PyDict::new(py);
            d.set_item("name", m.name)?;
            d.set_item("aliases", m.aliases.to_vec())?;
            d.set_item("summary", m.summary)?;
            d.set_item(
                "applies_to",
                m.applies_to.iter().map(|t| t.name()).collect::<Vec<_>>(),
            )?;
            d.set_item("default_max_iter", m.default_max_iter)?;
            d.set_item("options", json_to_py(py, &m.default_options())?)?;
            Ok(d)
        })
        .collect()
}

/// Seconds per call of the library's solve alone (`registry::solve` from zeros, no Python
/// conversion), averaged over `repeat` calls: for `bench/overhead.py`.
#[pyfunction]
#[pyo3(signature = (problem, method = "auto", tol = 1e-8, repeat = 100))]
pub fn _time_solve(
    problem: &Bound<'_, PyProblem>,
    method: &str,
    tol: f64,
    repeat: usize,
) -> PyResult<f64> {
    let p = problem.get();
    let choice = Choice::new(method).map_err(errors::option)?;
    let params = Params {
        tol,
        max_iter: choice.default_max_iter(),
        ..Default::default()
    };
    let t = std::time::Instant::now();
    for _ in 0..repeat.max(1) {
        let out = registry::solve(
            &p.inner,
            &choice,
            DVector::zeros(p.inner.dim()),
            &params,
            &mut no_observer(),
        );
        std::hint::black_box(out);
    }
    Ok(t.elapsed().as_secs_f64() / repeat.max(1) as f64)
}
