//! `Problem`: a contact problem of the crate (local or global friction, LCP, boxed LCP)
//! with what its file said about it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use nalgebra::DVector;
use nonsmooth::check::EllipticView;
use nonsmooth::io::numpy::{folder, npz};
use nonsmooth::io::{self, AnyProblem, Provenance, json, siconos};
use nonsmooth::problem::{
    Block, EngineAnswer, FrictionContact, FrictionKind, GenericMechanical, GlobalFrictionContact,
    Lcp, Pyramid, PyramidContact,
};
use numpy::PyArray1;
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::convert::{self, matrix, matrix_to_py, to_array, vector};
use crate::errors::{self, FormatError};

/// An engine's answer carried with a problem: the reaction `r` (`dim` entries; `[n, t1,
/// t2]` per contact, N s at the velocity level) and, if it was given, the velocity `u` the
/// engine reported.
#[pyclass(name = "Answer", module = "nonsmooth._native", frozen)]
pub struct PyAnswer {
    /// Who produced it (for example "MuJoCo 3.3.0"); empty when not said.
    #[pyo3(get)]
    source: String,
    /// The reaction, shape (dim,).
    #[pyo3(get)]
    r: Py<PyArray1<f64>>,
    /// The velocity the engine reported, shape (dim,), or None.
    #[pyo3(get)]
    u: Option<Py<PyArray1<f64>>>,
}

#[pymethods]
impl PyAnswer {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Answer(source={:?}, dim={}, u={})",
            self.source,
            numpy::PyUntypedArrayMethods::len(self.r.bind(py)),
            if self.u.is_some() { "given" } else { "None" }
        )
    }
}

/// A contact problem: a local friction problem (`fc3d`: `u = W r + q`), a global one
/// (`gfc3d`: `M v = q + H r`, `u = H^T v + b`), an LCP (`w = A x + b`), a boxed LCP, or a
/// generic mechanical problem (`gmp`: `u = W r + q` with equality, unilateral, interval and
/// elliptic-contact blocks),
/// with its name, provenance, per-contact labels and any answer its file carried.
///
/// Rows come in triples `[n, t1, t2]` per contact; a positive normal velocity separates.
/// At the velocity level `r` is an impulse (N s), `u` a velocity (m/s) and `W` is in
/// 1/kg; acceleration-level data (MuJoCo) use N and m/s^2 with the same algebra.
///
/// Build one with `Problem.local`, `Problem.global_form`, `Problem.lcp`, `Problem.generic`,
/// or read one with
/// `Problem.read`.
#[pyclass(name = "Problem", module = "nonsmooth._native", frozen)]
pub struct PyProblem {
    pub(crate) inner: AnyProblem,
    pub(crate) name: String,
    pub(crate) format: Option<&'static str>,
    pub(crate) path: Option<PathBuf>,
    pub(crate) answer: Option<EngineAnswer>,
    pub(crate) warm_start: Option<Vec<f64>>,
    pub(crate) provenance: Provenance,
    pub(crate) warnings: Vec<String>,
    /// The elliptic problem of a pyramidal MuJoCo file's contacts (`Problem.read`).
    pub(crate) elliptic: Option<EllipticView>,
}

fn kind_of(kind: &str) -> PyResult<FrictionKind> {
    kind.parse::<FrictionKind>().map_err(errors::problem)
}

/// `mu` as `nc` coefficients: a scalar is broadcast.
fn mu_of(obj: &Bound<'_, PyAny>, nc: usize) -> PyResult<DVector<f64>> {
    if obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyInt>() {
        let m: f64 = obj.extract()?;
        return Ok(DVector::from_element(nc, m));
    }
    if let Ok(a) = obj.cast::<numpy::PyUntypedArray>() {
        if numpy::PyUntypedArrayMethods::ndim(a) == 0 {
            let m: f64 = obj.call_method0("item")?.extract()?;
            return Ok(DVector::from_element(nc, m));
        }
    }
    vector(obj, "mu")
}

/// A copy of a problem (a global problem's mass matrix is validated and factorised again).
pub(crate) fn clone_problem(
    p: &AnyProblem,
) -> Result<AnyProblem, nonsmooth::problem::ProblemError> {
    Ok(match p {
        AnyProblem::Lcp(l) => AnyProblem::Lcp(l.clone()),
        AnyProblem::Boxed(b) => AnyProblem::Boxed(b.clone()),
        AnyProblem::Friction(f) => AnyProblem::Friction(f.clone()),
        AnyProblem::Generic(g) => AnyProblem::Generic(g.clone()),
        AnyProblem::Global(g) => AnyProblem::Global(GlobalFrictionContact::new(
            g.m().clone(),
            g.h().clone(),
            g.q().clone(),
            g.b().clone(),
            g.mu().clone(),
            g.kind(),
        )?),
    })
}

/// The answer given to a constructor: an array `r`, or a dict with `r` and optionally `u`
/// and `source`.
fn answer_of(obj: Option<&Bound<'_, PyAny>>, dim: usize) -> PyResult<Option<EngineAnswer>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let ans = if let Ok(d) = obj.cast::<PyDict>() {
        let r = d
            .get_item("r")?
            .ok_or_else(|| errors::problem("answer: a dict answer needs the key `r`"))?;
        let u = match d.get_item("u")? {
            Some(u) if !u.is_none() => Some(vector(&u, "answer u")?.as_slice().to_vec()),
            _ => None,
        };
        let source = match d.get_item("source")? {
            Some(s) if !s.is_none() => s.extract::<String>()?,
            _ => String::new(),
        };
        EngineAnswer {
            source,
            r: vector(&r, "answer r")?.as_slice().to_vec(),
            u,
        }
    } else {
        EngineAnswer {
            source: String::new(),
            r: vector(obj, "answer r")?.as_slice().to_vec(),
            u: None,
        }
    };
    ans.validate(dim).map_err(errors::problem)?;
    Ok(Some(ans))
}

/// One block of `Problem.generic`: `"equality"`, `"unilateral"`, `("interval", lo, hi)`,
/// `("contact", [mu1, ..])`, or a dict `{"type": name, "lo":, "hi":, "mu":}`.
fn block_of(b: usize, obj: &Bound<'_, PyAny>) -> PyResult<Block> {
    let bad = |what: String| {
        errors::problem(format!(
            "blocks[{b}]: {what}; a block is \"equality\", \"unilateral\", \
             (\"interval\", lo, hi) or (\"contact\", [mu1, mu2, ...])"
        ))
    };
    let f64_of = |o: &Bound<'_, PyAny>, what: &str| -> PyResult<f64> {
        o.extract::<f64>()
            .map_err(|_| bad(format!("{what} is not a number")))
    };
    let mu_list = |o: &Bound<'_, PyAny>| -> PyResult<Vec<f64>> {
        if o.is_instance_of::<PyString>() {
            return Err(bad("mu is a string".into()));
        }
        let v = o
            .try_iter()
            .map_err(|_| bad("mu is not a sequence of numbers".into()))?;
        v.map(|x| f64_of(&x?, "a friction coefficient")).collect()
    };
    let (name, parts): (String, Vec<Bound<'_, PyAny>>) = if obj.is_instance_of::<PyString>() {
        (obj.extract()?, Vec::new())
    } else if let Ok(d) = obj.cast::<PyDict>() {
        let name: String = d
            .get_item("type")?
            .ok_or_else(|| bad("a dict block needs the key `type`".into()))?
            .extract()
            .map_err(|_| bad("`type` is not a string".into()))?;
        let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
            d.get_item(k)?
                .ok_or_else(|| bad(format!("a `{name}` block needs the key `{k}`")))
        };
        let parts = match name.as_str() {
            "interval" => vec![get("lo")?, get("hi")?],
            "contact" => vec![get("mu")?],
            _ => Vec::new(),
        };
        (name, parts)
    } else if obj.is_instance_of::<PyTuple>() || obj.is_instance_of::<PyList>() {
        let items: Vec<Bound<'_, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
        let Some((first, rest)) = items.split_first() else {
            return Err(bad("an empty tuple".into()));
        };
        let name: String = first
            .extract()
            .map_err(|_| bad("its first item is not a block name".into()))?;
        (name, rest.to_vec())
    } else {
        return Err(bad(format!("{} is not a block", obj.get_type().name()?)));
    };
    let want = |n: usize| -> PyResult<()> {
        if parts.len() == n {
            Ok(())
        } else {
            Err(bad(format!(
                "`{name}` takes {n} value(s), {} given",
                parts.len()
            )))
        }
    };
    match name.as_str() {
        "equality" => want(0).map(|_| Block::Equality),
        "unilateral" => want(0).map(|_| Block::Unilateral),
        "interval" => {
            want(2)?;
            Ok(Block::Interval {
                lo: f64_of(&parts[0], "lo")?,
                hi: f64_of(&parts[1], "hi")?,
            })
        }
        "contact" => {
            want(1)?;
            Ok(Block::Contact {
                mu: mu_list(&parts[0])?,
            })
        }
        other => Err(bad(format!("unknown block `{other}`"))),
    }
}

/// A block as `Problem.blocks` gives it back.
fn block_to_py<'py>(py: Python<'py>, b: &Block) -> PyResult<Bound<'py, PyAny>> {
    Ok(match b {
        Block::Equality => PyString::new(py, "equality").into_any(),
        Block::Unilateral => PyString::new(py, "unilateral").into_any(),
        Block::Interval { lo, hi } => ("interval", *lo, *hi).into_pyobject(py)?.into_any(),
        Block::Contact { mu } => ("contact", mu.clone()).into_pyobject(py)?.into_any(),
    })
}

#[allow(clippy::too_many_arguments)]
fn provenance_of(
    contacts: usize,
    labels: Option<Vec<String>>,
    source: Option<String>,
    description: Option<String>,
    units: Option<BTreeMap<String, String>>,
) -> PyResult<Provenance> {
    let labels = labels.unwrap_or_default();
    if !labels.is_empty() && labels.len() != contacts {
        return Err(errors::problem(format!(
            "labels has size {}, expected {contacts} (one per contact, or per block of a gmp problem)",
            labels.len()
        )));
    }
    Ok(Provenance {
        source: source.unwrap_or_default(),
        description: description.unwrap_or_default(),
        units: units.unwrap_or_default(),
        labels,
        pyramid: None,
    })
}

impl PyProblem {
    /// A problem read from a file, with everything the file carried.
    pub(crate) fn from_loaded(lp: io::LoadedProblem) -> Self {
        PyProblem {
            inner: lp.problem,
            name: lp.name,
            format: Some(lp.format.name()),
            path: Some(lp.path),
            answer: lp.answer,
            warm_start: lp.warm_start,
            provenance: lp.provenance,
            warnings: lp.warnings,
            elliptic: lp.elliptic,
        }
    }

    pub(crate) fn made(
        inner: AnyProblem,
        name: Option<String>,
        provenance: Provenance,
        answer: Option<EngineAnswer>,
    ) -> Self {
        let warnings = inner.data_warnings();
        PyProblem {
            inner,
            name: name.unwrap_or_else(|| "problem".into()),
            format: None,
            path: None,
            answer,
            warm_start: None,
            provenance,
            warnings,
            elliptic: None,
        }
    }

    /// Emits each of `warnings` as a Python warning of category `ProblemWarning` (what the
    /// command line prints on standard error), and returns the problem; an error if the
    /// warnings filter turns them into errors.
    pub(crate) fn warned(self) -> PyResult<Self> {
        Python::attach(|py| errors::warn_all(py, &self.warnings))?;
        Ok(self)
    }

    fn with_inner(&self, inner: AnyProblem) -> Self {
        PyProblem {
            inner,
            name: self.name.clone(),
            format: self.format,
            path: self.path.clone(),
            answer: self.answer.clone(),
            warm_start: self.warm_start.clone(),
            provenance: self.provenance.clone(),
            warnings: self.warnings.clone(),
            elliptic: None,
        }
    }

    fn missing(&self, what: &str) -> PyErr {
        let has = match &self.inner {
            AnyProblem::Lcp(_) | AnyProblem::Boxed(_) => "A, b",
            AnyProblem::Friction(_) => "W, q, mu",
            AnyProblem::Generic(_) => "W, q, blocks",
            AnyProblem::Global(_) => "M, H, q, b, mu (to_local() gives W)",
        };
        PyAttributeError::new_err(format!(
            "{} has no `{what}` (it has {has})",
            self.inner.noun()
        ))
    }
}

#[pymethods]
impl PyProblem {
    /// A local friction problem `u = W r + q`, `r_c` in the friction cone of `mu_c`.
    ///
    /// W: the Delassus operator, shape (3nc, 3nc): a dense float64 array or a SciPy sparse
    ///    matrix (anything with `tocsr()`); 1/kg at the velocity level.
    /// q: the free velocity, shape (3nc,) (m/s).
    /// mu: friction coefficients, shape (nc,), or one number for every contact.
    /// kind: "coulomb" (De Saxce's formulation, what Siconos poses) or "ccp" (the convex
    ///    relaxation MuJoCo and Drake solve).
    /// labels: one string per contact, shown in check reports; answer: an engine's `r`
    ///    (shape (3nc,)) or a dict with `r`, `u`, `source`, kept with the problem and
    ///    written with it; name, source, description, units: provenance.
    ///
    /// Raises ProblemError for a non-square W, sizes that do not agree or are not
    /// multiples of 3, NaN or infinity, and mu < 0.
    #[staticmethod]
    #[allow(non_snake_case, clippy::too_many_arguments)]
    #[pyo3(signature = (W, q, mu, kind = "coulomb", *, labels = None, answer = None, name = None, source = None, description = None, units = None))]
    fn local(
        W: &Bound<'_, PyAny>,
        q: &Bound<'_, PyAny>,
        mu: &Bound<'_, PyAny>,
        kind: &str,
        labels: Option<Vec<String>>,
        answer: Option<&Bound<'_, PyAny>>,
        name: Option<String>,
        source: Option<String>,
        description: Option<String>,
        units: Option<BTreeMap<String, String>>,
    ) -> PyResult<Self> {
        let kind = kind_of(kind)?;
        let w = matrix(W, "W")?;
        let q = vector(q, "q")?;
        let mu = mu_of(mu, w.nrows() / 3)?;
        let fc = FrictionContact::new(w, q, mu, kind).map_err(errors::problem)?;
        let provenance = provenance_of(fc.contacts(), labels, source, description, units)?;
        let answer = answer_of(answer, fc.dim())?;
        Self::made(AnyProblem::Friction(fc), name, provenance, answer).warned()
    }

    /// A global friction problem `M v = q + H r`, `u = H^T v + b`.
    ///
    /// M: the mass matrix, shape (ndof, ndof), symmetric positive definite (kg, kg m^2);
    /// H: shape (ndof, 3nc), the transpose of the contact Jacobian; dense or SciPy sparse.
    /// q: shape (ndof,) (N s: M times the free velocity); b: shape (3nc,) (m/s);
    /// mu: shape (nc,) or a number; kind: "coulomb" or "ccp"; keywords as `local`.
    ///
    /// Raises ProblemError for wrong shapes, NaN or infinity, mu < 0, a non-symmetric M
    /// and an M that is not positive definite (M is factorised once, here).
    #[staticmethod]
    #[allow(non_snake_case, clippy::too_many_arguments)]
    #[pyo3(signature = (M, H, q, b, mu, kind = "coulomb", *, labels = None, answer = None, name = None, source = None, description = None, units = None))]
    fn global_form(
        py: Python<'_>,
        M: &Bound<'_, PyAny>,
        H: &Bound<'_, PyAny>,
        q: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        mu: &Bound<'_, PyAny>,
        kind: &str,
        labels: Option<Vec<String>>,
        answer: Option<&Bound<'_, PyAny>>,
        name: Option<String>,
        source: Option<String>,
        description: Option<String>,
        units: Option<BTreeMap<String, String>>,
    ) -> PyResult<Self> {
        let kind = kind_of(kind)?;
        let m = matrix(M, "M")?;
        let h = matrix(H, "H")?;
        let q = vector(q, "q")?;
        let b = vector(b, "b")?;
        let mu = mu_of(mu, h.ncols() / 3)?;
        let g = py
            .detach(|| GlobalFrictionContact::new(m, h, q, b, mu, kind))
            .map_err(errors::problem)?;
        let provenance = provenance_of(g.contacts(), labels, source, description, units)?;
        let answer = answer_of(answer, g.dim())?;
        Self::made(AnyProblem::Global(g), name, provenance, answer).warned()
    }

    /// A generic mechanical problem `u = W r + q` whose rows come in blocks with their own
    /// laws (Acary, Bremond, Huber 2018 §2; the crate's `GenericMechanical`).
    ///
    /// W: shape (n, n), dense float64 or SciPy sparse (anything with `tocsr()`), assumed
    ///    symmetric positive semidefinite (1/kg at the velocity level; MuJoCo's soft view:
    ///    acceleration per unit force).
    /// q: shape (n,) (m/s, or m/s^2 for MuJoCo's acceleration-level data).
    /// blocks: the blocks in row order, their rows adding up to n:
    ///    "equality" (1 row: r free, u = 0), "unilateral" (1 row: 0 <= r _|_ u >= 0),
    ///    ("interval", lo, hi) (1 row: lo <= r <= hi, u >= 0 at lo, u <= 0 at hi, u = 0
    ///    inside; bounds may be +-inf), ("contact", [mu1, .., muk]) (1 + k rows
    ///    [n, t1, .., tk], elliptic cone sqrt(sum (r_ti/mu_i)^2) <= r_n: condim 3 is
    ///    [m, m], 4 [m, m, torsion], 6 [m, m, torsion, roll, roll]). A dict
    ///    {"type": "interval", "lo": .., "hi": ..} or {"type": "contact", "mu": [..]} is
    ///    accepted too.
    /// kind: "ccp" (K r _|_ u in K*, MuJoCo's convex problem; the default) or "coulomb"
    ///    (De Saxce's shift ||(mu_i u_ti)|| on the normal velocity).
    /// labels: one string per BLOCK; answer, name, source, description, units: as `local`.
    ///
    /// Raises ProblemError (with the crate's message) for a non-square W, lengths that
    /// disagree, blocks whose rows do not add up to n, NaN or infinity in W or q, a NaN
    /// bound or lo > hi, a contact without tangential rows, a negative or non-finite mu,
    /// and a block that is none of the forms above.
    #[staticmethod]
    #[allow(non_snake_case, clippy::too_many_arguments)]
    #[pyo3(signature = (W, q, blocks, kind = "ccp", *, labels = None, answer = None, name = None, source = None, description = None, units = None))]
    fn generic(
        W: &Bound<'_, PyAny>,
        q: &Bound<'_, PyAny>,
        blocks: &Bound<'_, PyAny>,
        kind: &str,
        labels: Option<Vec<String>>,
        answer: Option<&Bound<'_, PyAny>>,
        name: Option<String>,
        source: Option<String>,
        description: Option<String>,
        units: Option<BTreeMap<String, String>>,
    ) -> PyResult<Self> {
        let kind = kind_of(kind)?;
        let w = matrix(W, "W")?;
        let q = vector(q, "q")?;
        if blocks.is_instance_of::<PyString>() || blocks.is_instance_of::<PyDict>() {
            return Err(errors::problem(
                "blocks: expected a list of blocks, e.g. [\"equality\", (\"contact\", [0.5, 0.5])]",
            ));
        }
        let blocks: Vec<Block> = blocks
            .try_iter()
            .map_err(|_| errors::problem("blocks: expected a list of blocks"))?
            .enumerate()
            .map(|(b, o)| block_of(b, &o?))
            .collect::<PyResult<_>>()?;
        let g = GenericMechanical::new(w, q, blocks, kind).map_err(errors::problem)?;
        let provenance = provenance_of(g.blocks_len(), labels, source, description, units)?;
        let answer = answer_of(answer, g.dim())?;
        Self::made(AnyProblem::Generic(g), name, provenance, answer).warned()
    }

    /// The linear complementarity problem `w = A x + b`, `0 <= x _|_ w >= 0`.
    ///
    /// A: shape (n, n), dense or SciPy sparse (any matrix: solvers state what they need);
    /// b: shape (n,). pyramid: when the unknowns are pyramid-edge forces (MuJoCo's
    /// pyramidal cone), one (first_row, [mu_1, .., mu_k]) per contact (2k edge rows
    /// [n + mu_1 t_1, n - mu_1 t_1, ..], one row when the list is empty): `check` then
    /// judges the answer as contact-frame forces, with one label per contact. answer: a
    /// dict {"r": .., "u": .., "source": ..} or an array. Raises ProblemError for a
    /// non-square A, a wrong length, NaN or inf, a pyramid that does not fit.
    #[staticmethod]
    #[allow(non_snake_case)]
    #[pyo3(signature = (A, b, *, pyramid = None, labels = None, answer = None, name = None, source = None, description = None, units = None))]
    #[allow(clippy::too_many_arguments)]
    fn lcp(
        A: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        pyramid: Option<Vec<(usize, Vec<f64>)>>,
        labels: Option<Vec<String>>,
        answer: Option<&Bound<'_, PyAny>>,
        name: Option<String>,
        source: Option<String>,
        description: Option<String>,
        units: Option<BTreeMap<String, String>>,
    ) -> PyResult<Self> {
        let a = matrix(A, "A")?;
        let b = vector(b, "b")?;
        let lcp = Lcp::new(a, b).map_err(errors::problem)?;
        let pyramid = pyramid.map(|cs| Pyramid {
            contacts: cs
                .into_iter()
                .map(|(row, mu)| PyramidContact { row, mu })
                .collect(),
        });
        let contacts = pyramid.as_ref().map_or(0, Pyramid::len);
        let mut provenance = provenance_of(contacts, labels, source, description, units)?;
        provenance.pyramid = pyramid;
        let inner = AnyProblem::Lcp(lcp);
        provenance.check_pyramid(&inner).map_err(errors::problem)?;
        let answer = answer_of(answer, inner.dim())?;
        Self::made(inner, name, provenance, answer).warned()
    }

    /// Reads a problem from any file the crate reads: the project's JSON, Siconos `.dat`,
    /// a MuJoCo JSON export, a NumPy folder, an OpenTissue `.dlm` folder (FCLIB `.hdf5`
    /// only in builds with the `hdf5` feature). The file's answer, warm start, labels and
    /// provenance are kept as attributes.
    ///
    /// Raises FileNotFoundError / OSError from the system, FormatError for a malformed or
    /// unsupported file, ProblemError for data that do not make a valid problem.
    #[staticmethod]
    fn read(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let lp = py.detach(|| io::load(&path)).map_err(errors::io)?;
        PyProblem::from_loaded(lp).warned()
    }

    /// Writes the problem (with its answer and provenance where the format holds them).
    ///
    /// format: "json" (the project's JSON: any problem, answer, labels, provenance),
    /// "npz" (one NumPy `.npz` archive, sparse matrices as CSR arrays, answer and
    /// provenance kept: the format for large problems), "npz-compressed" (the same,
    /// deflated), "siconos" (`.dat` text: LCP, fc3d, gfc3d; the data only) or "numpy" (a
    /// folder of `.npy` arrays, dense; the answer as r.npy). None chooses by the path:
    /// `.json`, `.npz`, `.dat`, anything else a NumPy folder. The file is written whole (a temporary file
    /// renamed over it); its folder must exist.
    ///
    /// Raises FormatError for a format that cannot hold this problem, OSError from the
    /// system.
    #[pyo3(signature = (path, format = None))]
    fn write(&self, py: Python<'_>, path: PathBuf, format: Option<&str>) -> PyResult<()> {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let fmt = match format.map(|f| f.to_ascii_lowercase()) {
            Some(f) => match f.as_str() {
                "json" | "nonsmooth-json" => "json",
                "siconos" | "siconos-dat" | "dat" => "siconos",
                "numpy" | "npy" | "numpy-folder" => "numpy",
                "npz" | "numpy-npz" => "npz",
                "npz-compressed" => "npz-compressed",
                other => {
                    return Err(FormatError::new_err(format!(
                        "unknown output format `{other}` (expected json, npz, npz-compressed, siconos or numpy; \
                         FCLIB HDF5, OpenTissue and MuJoCo files are read, not written)"
                    )));
                }
            },
            None => match ext.as_str() {
                "json" => "json",
                "npz" => "npz",
                "dat" => "siconos",
                "hdf5" | "h5" | "dlm" => {
                    return Err(FormatError::new_err(format!(
                        "{}: `.{ext}` files are read, not written; write json, npz, siconos (.dat) or numpy (a folder)",
                        path.display()
                    )));
                }
                _ => "numpy",
            },
        };
        let p = &self.inner;
        py.detach(|| -> PyResult<()> {
            match fmt {
                "json" => json::write(&path, &self.name, p, self.answer.as_ref(), &self.provenance)
                    .map_err(errors::io),
                "npz" | "npz-compressed" => {
                    let compression = if fmt == "npz" {
                        npz::Compression::Stored
                    } else {
                        npz::Compression::Deflated
                    };
                    let answer = self.answer.as_ref();
                    npz::write(&path, &self.name, p, answer, &self.provenance, compression)
                        .map_err(errors::io)
                }
                "siconos" => {
                    let text = match p {
                        AnyProblem::Lcp(l) => siconos::lcp_to_string(l),
                        AnyProblem::Friction(f) => siconos::fc3d_to_string(f),
                        AnyProblem::Global(g) => siconos::gfc3d_to_string(g),
                        AnyProblem::Generic(_) => {
                            return Err(FormatError::new_err(format!(
                                "{}: a generic mechanical problem cannot be written as Siconos \
                                 .dat (the Siconos formats hold LCPs and fc3d/gfc3d problems); \
                                 write json or npz",
                                path.display()
                            )));
                        }
                        AnyProblem::Boxed(_) => {
                            return Err(FormatError::new_err(format!(
                                "{}: a boxed LCP cannot be written as Siconos .dat (Siconos has no \
                                 boxed-LCP file format); write json or numpy",
                                path.display()
                            )));
                        }
                    };
                    io::write_atomic(&path, (text + "\n").as_bytes()).map_err(errors::io)
                }
                _ => folder::write(&path, &self.name, p, self.answer.as_ref()).map_err(errors::io),
            }
        })
    }

    /// The same problem posed with another friction law ("coulomb" or "ccp"); friction
    /// problems only (ProblemError for an LCP).
    fn with_kind(&self, kind: &str) -> PyResult<Self> {
        let k = kind_of(kind)?;
        let copy = clone_problem(&self.inner).map_err(errors::problem)?;
        Ok(self.with_inner(copy.with_kind(Some(k)).map_err(errors::problem)?))
    }

    /// The local form of a global problem: `W = H^T M^-1 H` (sparse), `q = H^T M^-1 q + b`
    /// (sparse Cholesky solves, no inverse). A local problem is returned as it is.
    fn to_local(&self, py: Python<'_>) -> PyResult<Self> {
        match &self.inner {
            AnyProblem::Global(g) => {
                let fc = py.detach(|| g.to_local()).map_err(errors::problem)?;
                Ok(self.with_inner(AnyProblem::Friction(fc)))
            }
            AnyProblem::Friction(f) => Ok(self.with_inner(AnyProblem::Friction(f.clone()))),
            _ => Err(errors::problem(format!(
                "{} has no local friction form",
                self.inner.noun()
            ))),
        }
    }

    /// The velocity at `r` (shape (dim,)): `u = W r + q` (local), `u = H^T M^-1 (q + H r) +
    /// b` (global), `w = A x + b` (LCPs).
    fn velocity<'py>(
        &self,
        py: Python<'py>,
        r: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let r = vector(r, "r")?;
        check_len("r", self.inner.dim(), r.len())?;
        let u = velocity_of(&self.inner, &r);
        Ok(to_array(py, u.as_slice()))
    }

    /// "fc3d" (local friction), "gfc3d" (global), "lcp", "boxed-lcp" or "gmp" (generic
    /// mechanical).
    #[getter(r#type)]
    fn type_name(&self) -> &'static str {
        self.inner.type_name()
    }

    /// The friction law, "coulomb" or "ccp"; None for LCPs.
    #[getter]
    fn kind(&self) -> Option<&'static str> {
        self.inner.kind().map(|k| k.name())
    }

    /// Number of contacts nc (the number of blocks of a gmp problem; for an LCP, the
    /// contacts of its pyramid when its unknowns are pyramid-edge forces, else 0).
    #[getter]
    fn contacts(&self) -> usize {
        self.provenance.contacts_of(&self.inner)
    }

    /// Number of unknowns: 3nc for friction problems, n for LCPs.
    #[getter]
    fn dim(&self) -> usize {
        self.inner.dim()
    }

    /// Number of velocity unknowns ndof of a global problem (None otherwise).
    #[getter]
    fn dofs(&self) -> Option<usize> {
        match &self.inner {
            AnyProblem::Global(g) => Some(g.dofs()),
            _ => None,
        }
    }

    /// The Delassus operator W, shape (3nc, 3nc) ((n, n) for gmp): a NumPy array, or a
    /// scipy.sparse csr_array when stored sparse (a dense copy without SciPy). Local and
    /// gmp problems only.
    #[getter(W)]
    fn w<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.inner {
            AnyProblem::Friction(f) => matrix_to_py(py, f.w(), "W"),
            AnyProblem::Generic(g) => matrix_to_py(py, g.w(), "W"),
            _ => Err(self.missing("W")),
        }
    }

    /// The mass matrix M of a global problem, shape (ndof, ndof).
    #[getter(M)]
    fn m<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.inner {
            AnyProblem::Global(g) => matrix_to_py(py, g.m(), "M"),
            _ => Err(self.missing("M")),
        }
    }

    /// H of a global problem, shape (ndof, 3nc).
    #[getter(H)]
    fn h<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.inner {
            AnyProblem::Global(g) => matrix_to_py(py, g.h(), "H"),
            _ => Err(self.missing("H")),
        }
    }

    /// A of an LCP or boxed LCP, shape (n, n).
    #[getter(A)]
    fn a<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.inner {
            AnyProblem::Lcp(l) => matrix_to_py(py, l.a(), "A"),
            AnyProblem::Boxed(l) => matrix_to_py(py, l.a(), "A"),
            _ => Err(self.missing("A")),
        }
    }

    /// q: shape (3nc,) for a local problem, (n,) for gmp, (ndof,) for a global one.
    #[getter]
    fn q<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        match &self.inner {
            AnyProblem::Friction(f) => Ok(to_array(py, f.q().as_slice())),
            AnyProblem::Global(g) => Ok(to_array(py, g.q().as_slice())),
            AnyProblem::Generic(g) => Ok(to_array(py, g.q().as_slice())),
            _ => Err(self.missing("q")),
        }
    }

    /// b: shape (3nc,) for a global problem, (n,) for an LCP.
    #[getter]
    fn b<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        match &self.inner {
            AnyProblem::Global(g) => Ok(to_array(py, g.b().as_slice())),
            AnyProblem::Lcp(l) => Ok(to_array(py, l.b().as_slice())),
            AnyProblem::Boxed(l) => Ok(to_array(py, l.b().as_slice())),
            _ => Err(self.missing("b")),
        }
    }

    /// Friction coefficients, shape (nc,).
    #[getter]
    fn mu<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        match &self.inner {
            AnyProblem::Friction(f) => Ok(to_array(py, f.mu().as_slice())),
            AnyProblem::Global(g) => Ok(to_array(py, g.mu().as_slice())),
            _ => Err(self.missing("mu")),
        }
    }

    /// The blocks of a generic mechanical problem in row order, in the form
    /// `Problem.generic` takes: "equality", "unilateral", ("interval", lo, hi),
    /// ("contact", [mu1, ..]).
    #[getter]
    fn blocks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        match &self.inner {
            AnyProblem::Generic(g) => {
                let items = g
                    .blocks()
                    .iter()
                    .map(|b| block_to_py(py, b))
                    .collect::<PyResult<Vec<_>>>()?;
                PyList::new(py, items)
            }
            _ => Err(self.missing("blocks")),
        }
    }

    /// The problem's name (a file's stem, or the name given).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The format the problem was read as ("nonsmooth-json", "siconos-dat",
    /// "mujoco-json", "numpy-folder", "opentissue-dlm", "fclib-hdf5"); None when built
    /// from arrays.
    #[getter]
    fn format(&self) -> Option<&'static str> {
        self.format
    }

    /// The file it was read from, or None.
    #[getter]
    fn path(&self) -> Option<PathBuf> {
        self.path.clone()
    }

    /// One label per contact (bodies, geoms, position), one per block for gmp, or an
    /// empty list.
    #[getter]
    fn labels(&self) -> Vec<String> {
        self.provenance.labels.clone()
    }

    /// The answer the file carried (MuJoCo's, or one stored in the project's JSON), or None.
    #[getter]
    fn answer(&self, py: Python<'_>) -> Option<PyAnswer> {
        self.answer.as_ref().map(|a| PyAnswer {
            source: a.source.clone(),
            r: to_array(py, &a.r).unbind(),
            u: a.u.as_ref().map(|u| to_array(py, u).unbind()),
        })
    }

    /// An initial guess the file provides (OpenTissue's lambda.dlm, FCLIB's guess), shape
    /// (dim,), or None: a starting point for a solver, not an answer.
    #[getter]
    fn warm_start<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        self.warm_start.as_ref().map(|w| to_array(py, w))
    }

    /// Provenance as a dict: source, description, units (dict), labels (list).
    #[getter]
    fn provenance<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = serde_json::to_value(&self.provenance).unwrap_or(serde_json::Value::Null);
        let d = convert::json_to_py(py, &v)?;
        if !d.contains("labels")? {
            d.set_item("labels", Vec::<String>::new())?;
        }
        Ok(d)
    }

    /// What the reader noticed but did not treat as an error (defaults it chose).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    fn __repr__(&self) -> String {
        let kind = self
            .inner
            .kind()
            .map(|k| format!(" {}", k.name()))
            .unwrap_or_default();
        format!(
            "<Problem {:?}: {}{kind}, {} contacts, {} unknowns>",
            self.name,
            self.inner.type_name(),
            self.inner.contacts(),
            self.inner.dim()
        )
    }
}

/// `u` (or `w`) at `r`.
pub(crate) fn velocity_of(p: &AnyProblem, r: &DVector<f64>) -> DVector<f64> {
    match p {
        AnyProblem::Lcp(l) => l.w(r),
        AnyProblem::Boxed(l) => l.w(r),
        AnyProblem::Friction(f) => f.velocity(r),
        AnyProblem::Generic(g) => g.velocity(r),
        AnyProblem::Global(g) => g.contact_velocity(&g.velocity_dofs(r)),
    }
}

/// The crate's message for a vector of the wrong length.
pub(crate) fn check_len(what: &'static str, expected: usize, found: usize) -> PyResult<()> {
    if expected == found {
        Ok(())
    } else {
        Err(errors::problem(
            nonsmooth::problem::ProblemError::DimensionMismatch {
                what,
                expected,
                found,
            },
        ))
    }
}
