//! Records (serde structs) to a NumPy structured array: numeric fields float64 (int64 when
//! every value is an integer), strings a unicode field as wide as the longest, booleans
//! `?`; field order as the struct declares it (the order of `--json` output).

use std::fmt;

use numpy::PyUntypedArrayMethods;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyList};
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;

/// The keys of a JSON object in the order they are written.
struct KeyOrder(Vec<String>);

impl<'de> serde::Deserialize<'de> for KeyOrder {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = KeyOrder;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<KeyOrder, A::Error> {
                let mut keys = Vec::new();
                while let Some(k) = m.next_key::<String>()? {
                    m.next_value::<IgnoredAny>()?;
                    keys.push(k);
                }
                Ok(KeyOrder(keys))
            }
        }
        d.deserialize_map(V)
    }
}

/// The field names of a serde struct in declaration order.
pub fn field_order<T: serde::Serialize>(record: &T) -> Vec<String> {
    serde_json::to_string(record)
        .ok()
        .and_then(|s| serde_json::from_str::<KeyOrder>(&s).ok())
        .map(|k| k.0)
        .unwrap_or_default()
}

enum Col {
    Int,
    Float,
    Bool,
    Str(usize),
}

impl Col {
    fn size(&self) -> usize {
        match self {
            Col::Int | Col::Float => 8,
            Col::Bool => 1,
            Col::Str(n) => 4 * n,
        }
    }
    fn descr(&self) -> String {
        match self {
            Col::Int => "<i8".into(),
            Col::Float => "<f8".into(),
            Col::Bool => "?".into(),
            Col::Str(n) => format!("<U{n}"),
        }
    }
}

/// A structured array of `records` (JSON objects) with the fields `order` (then any key
/// the order lacks, sorted). `null` reads as NaN in a float field.
pub fn structured_array<'py>(
    py: Python<'py>,
    records: &[Value],
    order: &[String],
) -> PyResult<Bound<'py, PyAny>> {
    let mut fields: Vec<String> = order.to_vec();
    if let Some(Value::Object(m)) = records.first() {
        for k in m.keys() {
            if !fields.contains(k) {
                fields.push(k.clone());
            }
        }
    }
    let get = |r: &'_ Value, f: &str| -> Value {
        match r {
            Value::Object(m) => m.get(f).cloned().unwrap_or(Value::Null),
            _ => Value::Null,
        }
    };
    let mut cols = Vec::with_capacity(fields.len());
    for f in &fields {
        let mut col: Option<Col> = None;
        for r in records {
            let v = get(r, f);
            col = Some(match (&col, &v) {
                (None | Some(Col::Int), Value::Number(n)) if n.is_i64() || n.is_u64() => Col::Int,
                (Some(Col::Str(w)), Value::String(s)) => Col::Str((*w).max(s.chars().count())),
                (None, Value::String(s)) => Col::Str(s.chars().count()),
                (None | Some(Col::Bool), Value::Bool(_)) => Col::Bool,
                (Some(Col::Str(w)), _) => Col::Str(*w),
                _ => Col::Float,
            });
        }
        let col = match col {
            Some(Col::Str(w)) => Col::Str(w.max(1)),
            Some(c) => c,
            None => Col::Float,
        };
        cols.push(col);
    }
    let itemsize: usize = cols.iter().map(Col::size).sum();
    let mut buf = vec![0u8; itemsize * records.len()];
    for (i, r) in records.iter().enumerate() {
        let mut off = i * itemsize;
        for (f, c) in fields.iter().zip(&cols) {
            let v = get(r, f);
            match c {
                Col::Int => {
                    let x = v
                        .as_i64()
                        .unwrap_or_else(|| v.as_u64().map_or(0, |u| u as i64));
                    buf[off..off + 8].copy_from_slice(&x.to_le_bytes());
                }
                Col::Float => {
                    let x = v.as_f64().unwrap_or(f64::NAN);
                    buf[off..off + 8].copy_from_slice(&x.to_le_bytes());
                }
                Col::Bool => buf[off] = u8::from(v.as_bool().unwrap_or(false)),
                Col::Str(_) => {
                    if let Value::String(s) = &v {
                        for (k, ch) in s.chars().enumerate() {
                            let o = off + 4 * k;
                            buf[o..o + 4].copy_from_slice(&(ch as u32).to_le_bytes());
                        }
                    }
                }
            }
            off += c.size();
        }
    }
    let descr: Vec<(String, String)> = fields
        .iter()
        .zip(&cols)
        .map(|(f, c)| (f.clone(), c.descr()))
        .collect();
    let dtype = dtype_of(py, &descr)?;
    static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let bytes = PyByteArray::new(py, &buf);
    let arr = FROMBUFFER
        .import(py, "numpy", "frombuffer")?
        .call1((bytes, dtype))?;
    debug_assert!(
        arr.cast::<numpy::PyUntypedArray>()
            .map(|a| a.len())
            .unwrap_or(0)
            == records.len()
    );
    Ok(arr)
}

/// `numpy.dtype(descr)`, cached by its text.
fn dtype_of<'py>(py: Python<'py>, descr: &[(String, String)]) -> PyResult<Bound<'py, PyAny>> {
    static CACHE: PyOnceLock<Py<PyDict>> = PyOnceLock::new();
    static DTYPE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let cache = CACHE.get_or_init(py, || PyDict::new(py).unbind()).bind(py);
    let key: String = descr.iter().map(|(f, c)| format!("{f}:{c},")).collect();
    if let Some(d) = cache.get_item(&key)? {
        return Ok(d);
    }
    let list = PyList::new(py, descr.iter().map(|(f, c)| (f.as_str(), c.as_str())))?;
    let d = DTYPE.import(py, "numpy", "dtype")?.call1((list,))?;
    cache.set_item(key, &d)?;
    Ok(d)
}
