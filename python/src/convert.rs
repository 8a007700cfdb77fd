//! NumPy arrays and SciPy sparse matrices in, NumPy arrays (and SciPy CSR arrays) out;
//! Python values to JSON and back.

use nalgebra::{DMatrix, DVector};
use nalgebra_sparse::CsrMatrix;
use nonsmooth::matrix::Matrix;
use numpy::ndarray::Array2;
use numpy::{
    PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

use crate::errors;

/// `numpy.asarray(obj, dtype=numpy.float64)`.
fn as_f64_array<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    static ASARRAY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    static FLOAT64: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let py = obj.py();
    let f64_type = FLOAT64.import(py, "numpy", "float64")?;
    ASARRAY
        .import(py, "numpy", "asarray")?
        .call1((obj, f64_type))
}

/// `numpy.asarray(obj, dtype=numpy.int64)`.
fn as_i64_array<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    static ASARRAY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    static INT64: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let py = obj.py();
    let i64_type = INT64.import(py, "numpy", "int64")?;
    ASARRAY
        .import(py, "numpy", "asarray")?
        .call1((obj, i64_type))
}

fn shape_of(obj: &Bound<'_, PyAny>) -> String {
    match obj.cast::<PyUntypedArray>() {
        Ok(a) => format!("{:?}", a.shape()),
        Err(_) => "?".into(),
    }
}

/// A 1-D float64 view of `obj` (any array-like; converted with `numpy.asarray` when it
/// is not already a float64 array).
pub fn readonly_vector<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray1<'py, f64>> {
    if let Ok(a) = obj.extract::<PyReadonlyArray1<'py, f64>>() {
        return Ok(a);
    }
    let arr = as_f64_array(obj)?;
    match arr.extract::<PyReadonlyArray1<'py, f64>>() {
        Ok(a) => Ok(a),
        Err(_) => Err(errors::problem(format!(
            "{what} must be a 1-D array, but its shape is {}",
            shape_of(&arr)
        ))),
    }
}

/// A vector from any 1-D array-like of numbers.
pub fn vector(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<DVector<f64>> {
    let a = readonly_vector(obj, what)?;
    Ok(match a.as_slice() {
        Ok(s) => DVector::from_column_slice(s),
        Err(_) => DVector::from_iterator(a.len(), a.as_array().iter().copied()),
    })
}

/// A matrix from a dense 2-D array-like, or from anything with a `tocsr()` method (SciPy
/// sparse matrices and arrays, CSR or CSC or any other), read as CSR; SciPy is not
/// imported.
pub fn matrix(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Matrix> {
    if obj.cast::<PyUntypedArray>().is_err() && obj.hasattr("tocsr")? {
        return sparse(obj, what);
    }
    let arr = match obj.extract::<PyReadonlyArray2<'_, f64>>() {
        Ok(a) => a,
        Err(_) => {
            let conv = as_f64_array(obj)?;
            conv.extract::<PyReadonlyArray2<'_, f64>>().map_err(|_| {
                errors::problem(format!(
                    "{what} must be a 2-D array or a SciPy sparse matrix, but its shape is {}",
                    shape_of(&conv)
                ))
            })?
        }
    };
    let view = arr.as_array();
    let (r, c) = view.dim();
    Ok(Matrix::Dense(DMatrix::from_fn(r, c, |i, j| view[[i, j]])))
}

fn sparse(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Matrix> {
    let csr = obj.call_method0("tocsr")?;
    let (nrows, ncols): (usize, usize) = csr.getattr("shape")?.extract()?;
    let indptr = as_i64_array(&csr.getattr("indptr")?)?;
    let indices = as_i64_array(&csr.getattr("indices")?)?;
    let data = as_f64_array(&csr.getattr("data")?)?;
    let indptr: Vec<i64> = indptr
        .extract::<PyReadonlyArray1<'_, i64>>()?
        .as_array()
        .to_vec();
    let indices: Vec<i64> = indices
        .extract::<PyReadonlyArray1<'_, i64>>()?
        .as_array()
        .to_vec();
    let data: Vec<f64> = data
        .extract::<PyReadonlyArray1<'_, f64>>()?
        .as_array()
        .to_vec();
    let bad = || {
        errors::problem(format!(
            "{what}: malformed sparse matrix (indptr, indices and data of tocsr() do not agree with its shape {nrows} x {ncols})"
        ))
    };
    if indptr.len() != nrows + 1
        || indices.len() != data.len()
        || indptr.iter().any(|&p| p < 0)
        || indices.iter().any(|&i| i < 0)
    {
        return Err(bad());
    }
    let indptr: Vec<usize> = indptr.into_iter().map(|p| p as usize).collect();
    let indices: Vec<usize> = indices.into_iter().map(|i| i as usize).collect();
    if indptr[nrows] != data.len() || indptr.windows(2).any(|w| w[0] > w[1]) {
        return Err(bad());
    }
    // Sorted, duplicate-free rows (what SciPy normally holds) are taken as they are;
    // anything else goes through triplets, which sorts and sums duplicates as SciPy does.
    match CsrMatrix::try_from_csr_data(nrows, ncols, indptr.clone(), indices.clone(), data.clone())
    {
        Ok(m) => Ok(Matrix::Sparse(m)),
        Err(_) => {
            let mut triplets = Vec::with_capacity(data.len());
            for i in 0..nrows {
                for k in indptr[i]..indptr[i + 1] {
                    triplets.push((i, indices[k], data[k]));
                }
            }
            Matrix::from_triplets(nrows, ncols, &triplets).ok_or_else(bad)
        }
    }
}

/// A NumPy array holding a copy of `v`.
pub fn to_array<'py>(py: Python<'py>, v: &[f64]) -> Bound<'py, PyArray1<f64>> {
    PyArray1::from_slice(py, v)
}

/// A dense NumPy copy of `m`.
pub fn to_dense_array<'py>(py: Python<'py>, m: &DMatrix<f64>) -> Bound<'py, PyArray2<f64>> {
    PyArray2::from_owned_array(py, Array2::from_shape_fn(m.shape(), |(i, j)| m[(i, j)]))
}

/// `m` as NumPy (dense) or as a `scipy.sparse.csr_array` (sparse, when SciPy imports;
/// otherwise a dense copy, refused beyond the crate's dense-copy limit).
pub fn matrix_to_py<'py>(py: Python<'py>, m: &Matrix, what: &str) -> PyResult<Bound<'py, PyAny>> {
    match m {
        Matrix::Dense(d) => Ok(to_dense_array(py, d).into_any()),
        Matrix::Sparse(s) => {
            static CSR: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
            match CSR.import(py, "scipy.sparse", "csr_array") {
                Ok(csr) => {
                    let (indptr, indices, data) = s.csr_data();
                    let indptr: Vec<i64> = indptr.iter().map(|&x| x as i64).collect();
                    let indices: Vec<i64> = indices.iter().map(|&x| x as i64).collect();
                    let parts = (
                        PyArray1::from_slice(py, data),
                        PyArray1::from_vec(py, indices),
                        PyArray1::from_vec(py, indptr),
                    );
                    csr.call1((parts, (s.nrows(), s.ncols())))
                }
                Err(_) => {
                    nonsmooth::matrix::check_dense(what, m.nrows(), m.ncols())
                        .map_err(errors::problem)?;
                    Ok(to_dense_array(py, &m.to_dense()).into_any())
                }
            }
        }
    }
}

/// A JSON value as Python (`None`, `bool`, `int`, `float`, `str`, `list`, `dict`).
pub fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let items = a
                .iter()
                .map(|x| json_to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        Value::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

/// A Python value as JSON, for a method's option: `None`, `bool`, `int`, `float`
/// (finite), `str`, lists and tuples, dicts with string keys; NumPy scalars through
/// `__index__` and `__float__`.
pub fn py_to_json(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>()
        || (obj.hasattr("__index__")? && !obj.is_instance_of::<PyFloat>())
    {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::Number(i.into()));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::Number(u.into()));
        }
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.extract::<String>()?));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        return l
            .iter()
            .map(|x| py_to_json(&x, what))
            .collect::<PyResult<Vec<_>>>()
            .map(Value::Array);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        return t
            .iter()
            .map(|x| py_to_json(&x, what))
            .collect::<PyResult<Vec<_>>>()
            .map(Value::Array);
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut m = Map::new();
        for (k, v) in d.iter() {
            let k: String = k.extract().map_err(|_| {
                PyTypeError::new_err(format!("{what}: dictionary keys must be strings"))
            })?;
            m.insert(k, py_to_json(&v, what)?);
        }
        return Ok(Value::Object(m));
    }
    if let Ok(x) = obj.extract::<f64>() {
        return Number::from_f64(x).map(Value::Number).ok_or_else(|| {
            errors::OptionError::new_err(format!("{what}: {x} is not a finite number"))
        });
    }
    Err(PyTypeError::new_err(format!(
        "{what}: a {} cannot be given as an option (expected None, bool, int, float, str, list or dict)",
        obj.get_type().name()?
    )))
}
