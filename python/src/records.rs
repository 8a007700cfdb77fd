//! Records (serde structs) to a NumPy structured array, with the fields in the order the
//! struct declares them (the order of `--json` output): integer fields int64, other
//! numbers float64 (`None` as NaN), strings (and unit enum variants) a unicode field as
//! wide as the longest, booleans `?`.
//!
//! The records are serialised by a small [`serde::Serializer`] that keeps each field's
//! scalar value, with no JSON in between: the conversion costs a few microseconds for tens
//! of records. A field that is not a scalar (a list, a nested struct) is refused with the
//! field's name.

use std::fmt;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyList};
use serde::Serialize;
use serde::ser::{self, Impossible, SerializeMap, SerializeStruct};

/// One field's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    /// An integer.
    Int(i64),
    /// A real number.
    Float(f64),
    /// A flag.
    Bool(bool),
    /// Text (also a unit enum variant's name).
    Str(String),
    /// `None` or `()`.
    Null,
}

/// Why a record could not be read as scalars.
#[derive(Debug)]
pub struct NotScalar(String);

impl fmt::Display for NotScalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotScalar {}

impl ser::Error for NotScalar {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        NotScalar(msg.to_string())
    }
}

fn not_scalar<T>(what: &str) -> Result<T, NotScalar> {
    Err(NotScalar(format!(
        "a field holds {what}, not a number, text or flag"
    )))
}

/// Serialises one scalar.
struct ScalarSer;

macro_rules! refuse {
    ($($name:ident($($arg:ty),*) -> $ret:ty, $what:literal;)*) => {
        $(fn $name(self, $(_: $arg),*) -> Result<$ret, NotScalar> { not_scalar($what) })*
    };
}

impl ser::Serializer for ScalarSer {
    type Ok = Scalar;
    type Error = NotScalar;
    type SerializeSeq = Impossible<Scalar, NotScalar>;
    type SerializeTuple = Impossible<Scalar, NotScalar>;
    type SerializeTupleStruct = Impossible<Scalar, NotScalar>;
    type SerializeTupleVariant = Impossible<Scalar, NotScalar>;
    type SerializeMap = Impossible<Scalar, NotScalar>;
    type SerializeStruct = Impossible<Scalar, NotScalar>;
    type SerializeStructVariant = Impossible<Scalar, NotScalar>;

    fn serialize_bool(self, v: bool) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Int(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Int(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Int(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Int(v))
    }
    fn serialize_u8(self, v: u8) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Int(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Int(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Int(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Scalar, NotScalar> {
        Ok(i64::try_from(v).map_or(Scalar::Float(v as f64), Scalar::Int))
    }
    fn serialize_f32(self, v: f32) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Float(v.into()))
    }
    fn serialize_f64(self, v: f64) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Float(v))
    }
    fn serialize_char(self, v: char) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Str(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Str(v.to_owned()))
    }
    fn serialize_none(self) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Null)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<Scalar, NotScalar> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Null)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Scalar, NotScalar> {
        Ok(Scalar::Str(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Scalar, NotScalar> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Scalar, NotScalar> {
        not_scalar("an enum variant with data")
    }
    refuse! {
        serialize_bytes(&[u8]) -> Scalar, "bytes";
        serialize_seq(Option<usize>) -> Self::SerializeSeq, "a list";
        serialize_tuple(usize) -> Self::SerializeTuple, "a tuple";
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct, "a tuple";
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant, "a tuple";
        serialize_map(Option<usize>) -> Self::SerializeMap, "a map";
        serialize_struct(&'static str, usize) -> Self::SerializeStruct, "a struct";
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant, "a struct";
    }
}

/// Serialises one record (a struct, or a map with text keys) into `(field, value)` pairs.
struct RecordSer<'a> {
    out: &'a mut Vec<(String, Scalar)>,
    key: Option<String>,
}

impl SerializeStruct for RecordSer<'_> {
    type Ok = ();
    type Error = NotScalar;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NotScalar> {
        let v = value
            .serialize(ScalarSer)
            .map_err(|e| NotScalar(format!("field `{key}`: {e}")))?;
        self.out.push((key.to_owned(), v));
        Ok(())
    }
    fn end(self) -> Result<(), NotScalar> {
        Ok(())
    }
}

impl SerializeMap for RecordSer<'_> {
    type Ok = ();
    type Error = NotScalar;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), NotScalar> {
        match key.serialize(ScalarSer)? {
            Scalar::Str(s) => {
                self.key = Some(s);
                Ok(())
            }
            _ => not_scalar("a map with keys that are not text"),
        }
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), NotScalar> {
        let key = self.key.take().unwrap_or_default();
        let v = value
            .serialize(ScalarSer)
            .map_err(|e| NotScalar(format!("field `{key}`: {e}")))?;
        self.out.push((key, v));
        Ok(())
    }
    fn end(self) -> Result<(), NotScalar> {
        Ok(())
    }
}

impl<'a> ser::Serializer for RecordSer<'a> {
    type Ok = ();
    type Error = NotScalar;
    type SerializeSeq = Impossible<(), NotScalar>;
    type SerializeTuple = Impossible<(), NotScalar>;
    type SerializeTupleStruct = Impossible<(), NotScalar>;
    type SerializeTupleVariant = Impossible<(), NotScalar>;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), NotScalar>;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, NotScalar> {
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, NotScalar> {
        Ok(self)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<(), NotScalar> {
        v.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), NotScalar> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), NotScalar> {
        not_scalar("a record that is an enum")
    }
    refuse! {
        serialize_bool(bool) -> (), "a record that is a flag";
        serialize_i8(i8) -> (), "a record that is a number";
        serialize_i16(i16) -> (), "a record that is a number";
        serialize_i32(i32) -> (), "a record that is a number";
        serialize_i64(i64) -> (), "a record that is a number";
        serialize_u8(u8) -> (), "a record that is a number";
        serialize_u16(u16) -> (), "a record that is a number";
        serialize_u32(u32) -> (), "a record that is a number";
        serialize_u64(u64) -> (), "a record that is a number";
        serialize_f32(f32) -> (), "a record that is a number";
        serialize_f64(f64) -> (), "a record that is a number";
        serialize_char(char) -> (), "a record that is text";
        serialize_str(&str) -> (), "a record that is text";
        serialize_bytes(&[u8]) -> (), "a record that is bytes";
        serialize_none() -> (), "a record that is None";
        serialize_unit() -> (), "a record that is ()";
        serialize_unit_struct(&'static str) -> (), "a record that is ()";
        serialize_unit_variant(&'static str, u32, &'static str) -> (), "a record that is an enum";
        serialize_seq(Option<usize>) -> Self::SerializeSeq, "a record that is a list";
        serialize_tuple(usize) -> Self::SerializeTuple, "a record that is a tuple";
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct, "a record that is a tuple";
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant, "a record that is a tuple";
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant, "a record that is an enum";
    }
}

/// The `(field, value)` pairs of `record`, in its serialisation order.
pub fn fields_of<T: Serialize>(record: &T) -> Result<Vec<(String, Scalar)>, NotScalar> {
    let mut out = Vec::new();
    record.serialize(RecordSer {
        out: &mut out,
        key: None,
    })?;
    Ok(out)
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

/// A NumPy structured array of `records`, each a list of `(field, value)` pairs with the
/// fields of the first (a field missing from a later record is zero, NaN or empty).
pub fn structured_array<'py>(
    py: Python<'py>,
    records: &[Vec<(String, Scalar)>],
) -> PyResult<Bound<'py, PyAny>> {
    let names: Vec<&str> = records
        .first()
        .map(|r| r.iter().map(|(k, _)| k.as_str()).collect())
        .unwrap_or_default();
    fn value<'r>(r: &'r [(String, Scalar)], name: &str, j: usize) -> Option<&'r Scalar> {
        match r.get(j) {
            Some((k, v)) if k == name => Some(v),
            _ => r.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        }
    }
    let mut cols = Vec::with_capacity(names.len());
    for j in 0..names.len() {
        let mut col: Option<Col> = None;
        for r in records {
            let v = value(r, names[j], j).unwrap_or(&Scalar::Null);
            col = Some(match (&col, v) {
                (None | Some(Col::Int), Scalar::Int(_)) => Col::Int,
                (None | Some(Col::Bool), Scalar::Bool(_)) => Col::Bool,
                (None, Scalar::Str(s)) => Col::Str(s.chars().count()),
                (Some(Col::Str(w)), Scalar::Str(s)) => Col::Str((*w).max(s.chars().count())),
                (Some(Col::Str(w)), _) => Col::Str(*w),
                _ => Col::Float,
            });
        }
        cols.push(match col {
            Some(Col::Str(w)) => Col::Str(w.max(1)),
            Some(c) => c,
            None => Col::Float,
        });
    }
    let itemsize: usize = cols.iter().map(Col::size).sum();
    let mut buf = vec![0u8; itemsize * records.len()];
    for (i, r) in records.iter().enumerate() {
        let mut off = i * itemsize;
        for (j, c) in cols.iter().enumerate() {
            let v = value(r, names[j], j).unwrap_or(&Scalar::Null);
            match (c, v) {
                (Col::Int, Scalar::Int(x)) => buf[off..off + 8].copy_from_slice(&x.to_le_bytes()),
                (Col::Float, _) => {
                    let x = match v {
                        Scalar::Int(x) => *x as f64,
                        Scalar::Float(x) => *x,
                        Scalar::Bool(b) => f64::from(u8::from(*b)),
                        _ => f64::NAN,
                    };
                    buf[off..off + 8].copy_from_slice(&x.to_le_bytes());
                }
                (Col::Bool, Scalar::Bool(b)) => buf[off] = u8::from(*b),
                (Col::Str(_), Scalar::Str(s)) => {
                    for (k, ch) in s.chars().enumerate() {
                        let o = off + 4 * k;
                        buf[o..o + 4].copy_from_slice(&(ch as u32).to_le_bytes());
                    }
                }
                _ => {}
            }
            off += c.size();
        }
    }
    let dtype = dtype_of(py, &names, &cols)?;
    static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let bytes = PyByteArray::new(py, &buf);
    FROMBUFFER
        .import(py, "numpy", "frombuffer")?
        .call1((bytes, dtype))
}

/// `numpy.dtype([(name, format), ...])`, cached by its text.
fn dtype_of<'py>(py: Python<'py>, names: &[&str], cols: &[Col]) -> PyResult<Bound<'py, PyAny>> {
    static CACHE: PyOnceLock<Py<PyDict>> = PyOnceLock::new();
    static DTYPE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let cache = CACHE.get_or_init(py, || PyDict::new(py).unbind()).bind(py);
    let mut key = String::with_capacity(16 * names.len());
    for (n, c) in names.iter().zip(cols) {
        key.push_str(n);
        key.push(':');
        key.push_str(&c.descr());
        key.push(',');
    }
    if let Some(d) = cache.get_item(&key)? {
        return Ok(d);
    }
    let list = PyList::new(py, names.iter().zip(cols).map(|(n, c)| (*n, c.descr())))?;
    let d = DTYPE.import(py, "numpy", "dtype")?.call1((list,))?;
    cache.set_item(key, &d)?;
    Ok(d)
}
