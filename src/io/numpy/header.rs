//! The `.npy` array format: the header lexer ([`parse_header`]), the decoders of the
//! arrays a problem is made of ([`parse_matrix`], [`parse_vector`], [`parse_ints`]) and
//! their writer ([`matrix_to_npy`], [`vector_to_npy`], [`ints_to_npy`]). The NumPy folder
//! ([`super::folder`]) and the `.npz` archive ([`super::npz`]) read and write every array
//! through this file.
//!
//! The header is checked by this module's own parser, which reads the Python dict literal
//! that `numpy.save` writes in one linear pass with no recursion:
//!
//! ```text
//! file    = "\x93NUMPY" major minor header_len header data
//!           (major.minor 1.0: header_len is 2 bytes; 2.0 and 3.0: 4 bytes, little-endian)
//! header  = ws "{" ws [ entry ( ws "," ws entry )* [ ws "," ] ] ws "}" ws      (nothing else)
//! entry   = string ws ":" ws value        the keys descr, fortran_order, shape, each once
//! descr   = string                        a plain dtype string such as '<f8'
//! fortran_order = "True" | "False"
//! shape   = "(" ws ")" | "(" ws int ws "," ws ")" | "(" ws int ( ws "," ws int )+ [ ws "," ] ws ")"
//! int     = "0" | [1-9][0-9]* [ "L" ]     non-negative, no overflow (Python 2 wrote 3L)
//! string  = "'" chars "'" | '"' chars '"' (no backslash, no line break)
//! ws      = ( " " | "\t" | "\r" | "\n" | "\x0c" )*
//! ```
//!
//! A list, tuple or dict as `descr` (a structured or sub-array dtype) is refused, as is
//! any other dtype than the one required: `float64` (`'<f8'` or `'>f8'`) for every array
//! but `dep.npy`, which is `int64` (`'<i8'` or `'>i8'`); errors name the dtype in words.
//! The rank must be 2 for `W`, `M`, `H`, `A` and 1 for the vectors, and the data must be
//! exactly `elements x 8` bytes. Only then are the numbers decoded (here, 8 bytes at a
//! time: `ndarray-npy` is used to write files, not to read them, because its header
//! parser takes time exponential in the nesting of a `descr` and allocates from a
//! `shape` before looking at the file's length).

use std::path::Path;

use nalgebra::{DMatrix, DVector};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ShapeBuilder};
use ndarray_npy::WriteNpyExt;

use crate::io::IoError;
use crate::matrix::Matrix;

/// A dense `nalgebra` matrix from an `ndarray` view (any memory order).
pub fn dmatrix_from_array(a: ArrayView2<f64>) -> DMatrix<f64> {
    DMatrix::from_fn(a.nrows(), a.ncols(), |i, j| a[(i, j)])
}

/// A `nalgebra` vector from an `ndarray` view.
pub fn dvector_from_array(a: ArrayView1<f64>) -> DVector<f64> {
    DVector::from_iterator(a.len(), a.iter().copied())
}

/// The `ndarray` form of a matrix (dense copy; see
/// [`check_dense`](crate::matrix::check_dense) for its size).
pub fn array_from_matrix(m: &Matrix) -> Array2<f64> {
    let d = m.to_dense();
    Array2::from_shape_fn((d.nrows(), d.ncols()), |(i, j)| d[(i, j)])
}

/// The `ndarray` form of a vector.
pub fn array_from_dvector(v: &DVector<f64>) -> Array1<f64> {
    Array1::from_iter(v.iter().copied())
}

// ---------------------------------------------------------------------------------------
// The header parser.

/// What a `.npy` header declares, once [`parse_header`] has checked it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NpyHeader {
    /// Format version `(major, minor)`: `(1, 0)`, `(2, 0)` or `(3, 0)`.
    pub version: (u8, u8),
    /// The dtype string, as written (`'<f8'`).
    pub descr: String,
    /// `true` if the data is in column-major (Fortran) order.
    pub fortran_order: bool,
    /// The shape.
    pub shape: Vec<usize>,
    /// Number of elements (the product of `shape`; 1 for the empty shape).
    pub elements: usize,
    /// Where the data starts in the file.
    pub data_start: usize,
}

/// The most dimensions a shape may have (NumPy 2 allows 64).
const MAX_RANK: usize = 64;

/// The three keys of a header.
const KEYS: [&str; 3] = ["descr", "fortran_order", "shape"];

/// Bytes of a file shown in a message: at most `max`, printable ASCII as is and any other
/// byte escaped (`\n`, `\xff`), with `...` if cut.
pub(crate) fn show(bytes: &[u8], max: usize) -> String {
    let mut s = String::new();
    for &b in &bytes[..bytes.len().min(max)] {
        match b {
            b' '..=b'~' => s.push(char::from(b)),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'\r' => s.push_str("\\r"),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    if bytes.len() > max {
        s.push_str("...");
    }
    s
}

/// A shape written as Python writes a tuple: `(9,)`, `(3, 3)`, `()`.
pub(crate) fn shape_text(shape: &[usize]) -> String {
    match shape {
        [d] => format!("({d},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A cursor over the header's dict literal. Every step moves forward; nothing recurses.
struct Lexer<'a> {
    h: &'a [u8],
    i: usize,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<u8> {
        self.h.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n' | b'\x0c')) {
            self.i += 1;
        }
    }

    /// The text from here to the end of the value (the next `,`, `}` or line end), shown
    /// for a message.
    fn found(&self) -> String {
        self.snippet(self.i, |b| matches!(b, b',' | b'}' | b'\n'), false)
    }

    /// The text from `from` to the first byte `stop` accepts, or the end of the header: at
    /// most 40 bytes, escaped, in backquotes; trailing blanks and commas are left out. With
    /// `inclusive` (for a tuple) the first byte is always shown and a closing `)` is
    /// included.
    fn snippet(&self, from: usize, stop: impl Fn(u8) -> bool, inclusive: bool) -> String {
        let rest = self.h.get(from..).unwrap_or_default();
        let skip = usize::from(inclusive);
        let end = match rest.iter().skip(skip).position(|&b| stop(b)) {
            Some(k) if inclusive && rest[k + skip] == b')' => k + skip + 1,
            Some(k) => k + skip,
            None => rest.len(),
        };
        let mut text = &rest[..end];
        while let [head @ .., b' ' | b'\t' | b'\r' | b'\n' | b','] = text {
            text = head;
        }
        match (text.is_empty(), rest.first()) {
            (false, _) => format!("`{}`", show(text, 40)),
            (true, Some(&b)) => format!("`{}`", show(&[b], 1)),
            (true, None) => "the end of the header".to_string(),
        }
    }

    /// A quoted string: its bytes (between the quotes).
    fn string(&mut self) -> Result<&'a [u8], String> {
        let Some(q @ (b'\'' | b'"')) = self.peek() else {
            return Err(format!("expected a quoted string, found {}", self.found()));
        };
        let start = self.i + 1;
        let mut j = start;
        loop {
            match self.h.get(j) {
                None | Some(b'\n') => {
                    return Err(format!(
                        "unterminated string `{}`",
                        show(&self.h[self.i..j], 40)
                    ));
                }
                Some(b'\\') => {
                    return Err(format!(
                        "a string with a backslash escape, `{}`, which a .npy header never holds",
                        show(&self.h[self.i..(j + 2).min(self.h.len())], 40)
                    ));
                }
                Some(&c) if c == q => break,
                Some(_) => j += 1,
            }
        }
        self.i = j + 1;
        Ok(&self.h[start..j])
    }

    /// A Python name (`True`, `False`, ...), or an empty slice if none starts here.
    fn name(&mut self) -> &'a [u8] {
        let start = self.i;
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == b'_') {
            self.i += 1;
        }
        &self.h[start..self.i]
    }

    /// A non-negative decimal integer, with Python 2's optional `L`.
    fn int(&mut self) -> Result<usize, String> {
        let start = self.i;
        let mut value: usize = 0;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(usize::from(c - b'0')))
                .ok_or_else(|| {
                    let end = self.h[start..]
                        .iter()
                        .position(|b| !b.is_ascii_digit())
                        .map_or(self.h.len(), |k| start + k);
                    format!(
                        "`shape` holds the dimension {}, too large for this machine",
                        show(&self.h[start..end], 40)
                    )
                })?;
            self.i += 1;
        }
        if self.i - start > 1 && self.h[start] == b'0' {
            return Err(format!(
                "`shape` holds `{}`: a number with a leading zero, which Python does not read",
                show(&self.h[start..self.i], 40)
            ));
        }
        if self.peek() == Some(b'L') {
            self.i += 1;
        }
        Ok(value)
    }

    /// The value of `shape`: a tuple of non-negative integers.
    fn shape(&mut self) -> Result<Vec<usize>, String> {
        let expected = "expected a tuple of non-negative integers such as (3, 3) or (9,)";
        let start = self.i;
        let whole = |lx: &Self| lx.snippet(start, |b| matches!(b, b')' | b'}' | b'\n'), true);
        if self.peek() != Some(b'(') {
            return Err(format!("`shape` is {}; {expected}", whole(self)));
        }
        self.i += 1;
        self.ws();
        let mut dims = Vec::new();
        let mut commas = 0;
        loop {
            match self.peek() {
                Some(b')') => {
                    self.i += 1;
                    break;
                }
                Some(b'0'..=b'9') if dims.len() == commas => {
                    if dims.len() == MAX_RANK {
                        return Err(format!("`shape` has more than {MAX_RANK} dimensions"));
                    }
                    dims.push(self.int()?);
                }
                Some(b',') if dims.len() == commas + 1 => {
                    self.i += 1;
                    commas += 1;
                }
                Some(b'-') if dims.len() == commas => {
                    return Err(format!(
                        "`shape` is {}: a dimension is negative; {expected}",
                        whole(self)
                    ));
                }
                _ => return Err(format!("`shape` is {}; {expected}", whole(self))),
            }
            self.ws();
        }
        if dims.len() == 1 && commas == 0 {
            return Err(format!(
                "`shape` is ({}), which Python reads as a number, not a tuple; a \
                 1-dimensional shape is written ({},)",
                dims[0], dims[0]
            ));
        }
        Ok(dims)
    }
}

/// Checks the header of a `.npy` file (`bytes` is the whole file; `path` names it in
/// messages) and returns what it declares; see the [module docs](self) for the grammar.
/// The data is not looked at: [`parse_matrix`], [`parse_vector`] and [`parse_ints`] then
/// check the dtype, the rank and that exactly `elements x 8` bytes follow the header, in
/// this order, before allocating anything.
///
/// # Errors
/// [`IoErrorKind::Parse`](crate::io::IoErrorKind::Parse) at `"header"` naming what is wrong and what was found.
pub fn parse_header(path: &Path, bytes: &[u8]) -> Result<NpyHeader, IoError> {
    let bad = |m: String| IoError::parse(path, "header", m);
    const MAGIC: &[u8] = b"\x93NUMPY";
    if !bytes.starts_with(MAGIC) {
        return Err(bad(format!(
            "not a .npy file: it starts with `{}`, not with \\x93NUMPY",
            show(bytes, 8)
        )));
    }
    let (major, minor) = match (bytes.get(6), bytes.get(7)) {
        (Some(&a), Some(&b)) => (a, b),
        _ => return Err(bad("the file ends inside the version number".into())),
    };
    let len_bytes = match (major, minor) {
        (1, 0) => 2,
        (2, 0) | (3, 0) => 4,
        _ => {
            return Err(bad(format!(
                "format version {major}.{minor}; this reader knows 1.0, 2.0 and 3.0"
            )));
        }
    };
    let start = 8 + len_bytes;
    let Some(len_field) = bytes.get(8..start) else {
        return Err(bad("the file ends inside the header length".into()));
    };
    let hlen = len_field
        .iter()
        .rev()
        .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
    let Some(h) = bytes.get(start..start.saturating_add(hlen)) else {
        return Err(bad(format!(
            "the header is said to be {hlen} bytes long, but the file ends {} bytes after \
             its start",
            bytes.len() - start
        )));
    };
    let data_start = start + hlen;

    let mut lx = Lexer { h, i: 0 };
    let mut descr: Option<&[u8]> = None;
    let mut fortran: Option<bool> = None;
    let mut shape: Option<Vec<usize>> = None;
    lx.ws();
    if lx.peek() != Some(b'{') {
        return Err(bad(format!(
            "expected a dict `{{'descr': ..., 'fortran_order': ..., 'shape': ...}}`, found {}",
            lx.found()
        )));
    }
    lx.i += 1;
    loop {
        lx.ws();
        if lx.peek() == Some(b'}') {
            lx.i += 1;
            break;
        }
        let key = lx.string().map_err(|m| bad(format!("in the key: {m}")))?;
        let Some(k) = KEYS.iter().position(|k| k.as_bytes() == key) else {
            return Err(bad(format!(
                "unknown key `{}`; a .npy header holds exactly `descr`, `fortran_order` and \
                 `shape`",
                show(key, 40)
            )));
        };
        let name = KEYS[k];
        let seen = match k {
            0 => descr.is_some(),
            1 => fortran.is_some(),
            _ => shape.is_some(),
        };
        if seen {
            return Err(bad(format!("`{name}` appears twice")));
        }
        lx.ws();
        if lx.peek() != Some(b':') {
            return Err(bad(format!(
                "expected `:` after `{name}`, found {}",
                lx.found()
            )));
        }
        lx.i += 1;
        lx.ws();
        match k {
            0 => {
                let structured = match lx.peek() {
                    Some(b'\'' | b'"') => None,
                    Some(b'[') => Some("a list: a structured dtype (an array of records)"),
                    Some(b'(') => Some("a tuple: a sub-array dtype"),
                    Some(b'{') => Some("a dict: a structured dtype"),
                    _ => {
                        return Err(bad(format!(
                            "`descr` is {}; expected a dtype string such as '<f8'",
                            lx.found()
                        )));
                    }
                };
                if let Some(what) = structured {
                    return Err(bad(format!(
                        "`descr` is {what}; only plain float64 arrays are read (int64 for \
                         dep.npy)"
                    )));
                }
                descr = Some(lx.string().map_err(|m| bad(format!("`descr`: {m}")))?);
            }
            1 => {
                let at = lx.i;
                fortran = Some(match lx.name() {
                    b"True" => true,
                    b"False" => false,
                    _ => {
                        lx.i = at;
                        return Err(bad(format!(
                            "`fortran_order` is {}; expected True or False",
                            lx.found()
                        )));
                    }
                });
            }
            _ => shape = Some(lx.shape().map_err(bad)?),
        }
        lx.ws();
        match lx.peek() {
            Some(b',') => lx.i += 1,
            Some(b'}') => {}
            _ => {
                return Err(bad(format!(
                    "expected `,` or `}}` after the value of `{name}`, found {}",
                    lx.found()
                )));
            }
        }
    }
    lx.ws();
    if lx.i < h.len() {
        return Err(bad(format!(
            "text after the closing `}}` of the header: {}",
            lx.found()
        )));
    }
    let absent = [descr.is_none(), fortran.is_none(), shape.is_none()];
    let (Some(descr), Some(fortran_order), Some(shape)) = (descr, fortran, shape) else {
        let missing: Vec<String> = absent
            .iter()
            .zip(KEYS)
            .filter(|(m, _)| **m)
            .map(|(_, k)| format!("`{k}`"))
            .collect();
        return Err(bad(format!(
            "{} missing; a .npy header holds `descr`, `fortran_order` and `shape`",
            match missing.as_slice() {
                [one] => format!("{one} is"),
                [a, b] => format!("{a} and {b} are"),
                _ => "`descr`, `fortran_order` and `shape` are".to_string(),
            }
        )));
    };
    let elements = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
    let Some(elements) = elements else {
        return Err(bad(format!(
            "`shape` is {}: more elements than this machine can address",
            shape_text(&shape)
        )));
    };
    Ok(NpyHeader {
        version: (major, minor),
        descr: String::from_utf8_lossy(descr).into_owned(),
        fortran_order,
        shape,
        elements,
        data_start,
    })
}

/// Checks that exactly `elements x 8` bytes of data follow the header.
fn check_data_len(path: &Path, h: &NpyHeader, file_len: usize) -> Result<(), IoError> {
    let elements = h.elements;
    let data = file_len - h.data_start;
    let need = elements.checked_mul(8);
    if need == Some(data) {
        return Ok(());
    }
    let message = match need {
        Some(need) if need > data => format!(
            "the header announces {elements} elements of 8 bytes ({need} bytes) and the file \
             holds {data} bytes of data: {} bytes are missing",
            need - data
        ),
        Some(need) => format!(
            "the header announces {elements} elements of 8 bytes ({need} bytes) and the file \
             holds {data} bytes of data: {} bytes too many after the array",
            data - need
        ),
        None => format!("the header announces {elements} elements, more than a file can hold"),
    };
    Err(IoError::parse(path, "data", message))
}

/// The dtype a `descr` string stands for, in words, after "the array is".
pub(crate) fn dtype_words(descr: &str) -> String {
    let body = descr.trim_start_matches(['<', '>', '=', '|']);
    let (kind, size) = body.split_at(body.chars().next().map_or(0, char::len_utf8));
    let size: Option<u32> = size
        .parse()
        .ok()
        .filter(|_| size.bytes().all(|b| b.is_ascii_digit()));
    match (kind, size) {
        ("f", Some(n @ (2 | 4 | 8))) => format!("float{}", n * 8),
        ("f", Some(12 | 16)) => "extended-precision float (long double)".to_string(),
        ("i", Some(n @ (1 | 2 | 4 | 8))) => format!("int{}", n * 8),
        ("u", Some(n @ (1 | 2 | 4 | 8))) => format!("uint{}", n * 8),
        ("c", Some(n @ (8 | 16 | 32))) => format!("complex{}", n * 8),
        ("b", Some(1)) | ("?", _) => "bool".to_string(),
        ("O", _) => "of dtype object (pickled Python objects)".to_string(),
        ("U", _) => "of unicode strings".to_string(),
        ("S" | "a", _) => "of byte strings".to_string(),
        ("V", _) => "of raw bytes (a void dtype)".to_string(),
        ("M", _) => "datetime64".to_string(),
        ("m", _) => "timedelta64".to_string(),
        _ => "of an unrecognised dtype".to_string(),
    }
}

/// The element type an array must have.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Float64,
    Int64,
}

/// Checks dtype, rank and data length, in this order; returns `true` if the data is
/// big-endian.
fn check_array(
    path: &Path,
    h: &NpyHeader,
    file_len: usize,
    want: Want,
    rank: usize,
) -> Result<bool, IoError> {
    let (name, code) = match want {
        Want::Float64 => ("float64", "f8"),
        Want::Int64 => ("int64", "i8"),
    };
    let d = h.descr.as_str();
    let big = match d.strip_suffix(code) {
        Some("<") => false,
        Some(">") => true,
        Some(order) => {
            let order = match order {
                "=" => "'=' (the writer's native order, which a file does not record)",
                "|" => "'|' (no byte order, which only 1-byte types have)",
                "" => "no byte order",
                _ => "an unrecognised byte order",
            };
            return Err(IoError::parse(
                path,
                "`descr`",
                format!(
                    "`descr` is '{}': {name} with {order}; expected '<{code}' \
                     (little-endian) or '>{code}' (big-endian)",
                    show(d.as_bytes(), 40)
                ),
            ));
        }
        None => {
            let words = dtype_words(d);
            let shown = show(d.as_bytes(), 40);
            let message = match want {
                Want::Float64 => {
                    format!("the array is {words} ('{shown}'); expected float64 ('<f8')")
                }
                Want::Int64 if words.starts_with("of ") => {
                    format!("the array is {words} ('{shown}'); expected int64 ('<i8')")
                }
                Want::Int64 => format!(
                    "{words} where int64 is required (the array is '{shown}'; dep.npy holds \
                     row indices, -1 for a fixed bound)"
                ),
            };
            return Err(IoError::parse(path, "`descr`", message));
        }
    };
    if h.shape.len() != rank {
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        return Err(IoError::parse(
            path,
            "`shape`",
            format!(
                "{file} holds a {}-dimensional array of shape {}; a {rank}-dimensional one \
                 is required",
                h.shape.len(),
                shape_text(&h.shape)
            ),
        ));
    }
    check_data_len(path, h, file_len)?;
    Ok(big)
}

fn element(data: &[u8], k: usize, big: bool) -> [u8; 8] {
    let mut b = [0u8; 8];
    b.copy_from_slice(&data[8 * k..8 * k + 8]);
    if big {
        b.reverse();
    }
    b
}

/// Reads a 2-dimensional `float64` `.npy` file (C or Fortran order, either byte order).
///
/// # Errors
/// See [`parse_header`]; also a dtype other than `float64` or a rank other than 2.
pub fn parse_matrix(path: &Path, bytes: &[u8]) -> Result<DMatrix<f64>, IoError> {
    let h = parse_header(path, bytes)?;
    let big = check_array(path, &h, bytes.len(), Want::Float64, 2)?;
    let data = &bytes[h.data_start..];
    let (r, c) = (h.shape[0], h.shape[1]);
    let f = |k| f64::from_le_bytes(element(data, k, big));
    Ok(if h.fortran_order {
        DMatrix::from_fn(r, c, |i, j| f(j * r + i))
    } else {
        DMatrix::from_fn(r, c, |i, j| f(i * c + j))
    })
}

/// Reads a 1-dimensional `float64` `.npy` file.
///
/// # Errors
/// See [`parse_header`]; also a dtype other than `float64` or a rank other than 1.
pub fn parse_vector(path: &Path, bytes: &[u8]) -> Result<DVector<f64>, IoError> {
    let h = parse_header(path, bytes)?;
    let big = check_array(path, &h, bytes.len(), Want::Float64, 1)?;
    let data = &bytes[h.data_start..];
    Ok(DVector::from_fn(h.elements, |k, _| {
        f64::from_le_bytes(element(data, k, big))
    }))
}

/// Reads a 1-dimensional `int64` `.npy` file.
///
/// # Errors
/// See [`parse_header`]; also a dtype other than `int64` or a rank other than 1.
pub fn parse_ints(path: &Path, bytes: &[u8]) -> Result<Vec<i64>, IoError> {
    let h = parse_header(path, bytes)?;
    let big = check_array(path, &h, bytes.len(), Want::Int64, 1)?;
    let data = &bytes[h.data_start..];
    Ok((0..h.elements)
        .map(|k| i64::from_le_bytes(element(data, k, big)))
        .collect())
}

// ---------------------------------------------------------------------------------------
// Writing.

/// Writes a matrix as `.npy` bytes, dense. A dense matrix is written from its own storage
/// (column-major, `fortran_order: True`); a sparse one is first copied dense (its size
/// checked by the caller).
pub(crate) fn write_matrix<W: std::io::Write>(
    m: &Matrix,
    w: W,
) -> Result<(), ndarray_npy::WriteNpyError> {
    match m {
        Matrix::Dense(d) => col_major_view(d).write_npy(w),
        Matrix::Sparse(m) => {
            // Assigned, not added into zeros (as `Matrix::to_dense` does), so that a
            // stored -0.0 or NaN keeps its bits; a CSR row's columns are unique.
            let mut d = DMatrix::zeros(m.nrows(), m.ncols());
            for (i, row) in m.row_iter().enumerate() {
                for (&j, &v) in row.col_indices().iter().zip(row.values()) {
                    d[(i, j)] = v;
                }
            }
            col_major_view(&d).write_npy(w)
        }
    }
}

/// Writes a 1-dimensional array (`float64`, `int64`, `int32`, `uint8`) as `.npy` bytes.
pub(crate) fn write_vector<T: ndarray_npy::WritableElement, W: std::io::Write>(
    x: &[T],
    w: W,
) -> Result<(), ndarray_npy::WriteNpyError> {
    ArrayView1::from(x).write_npy(w)
}

fn col_major_view(d: &DMatrix<f64>) -> ArrayView2<'_, f64> {
    ArrayView2::from_shape((d.nrows(), d.ncols()).f(), d.as_slice())
        .expect("a DMatrix is column-major and contiguous")
}

/// The `.npy` bytes of a 1-dimensional array, in memory.
pub(crate) fn array_to_npy<T: ndarray_npy::WritableElement>(x: &[T]) -> Vec<u8> {
    let mut v = Vec::with_capacity(128 + std::mem::size_of_val(x));
    write_vector(x, &mut v).expect("writing to memory");
    v
}

/// The `.npy` bytes the writer produces for a matrix (for tests and fuzzing).
#[doc(hidden)]
pub fn matrix_to_npy(m: &Matrix) -> Vec<u8> {
    let mut v = Vec::new();
    write_matrix(m, &mut v).expect("writing to memory");
    v
}

/// The `.npy` bytes the writer produces for a vector.
#[doc(hidden)]
pub fn vector_to_npy(x: &[f64]) -> Vec<u8> {
    array_to_npy(x)
}

/// The `.npy` bytes the writer produces for an `int64` vector.
#[doc(hidden)]
pub fn ints_to_npy(x: &[i64]) -> Vec<u8> {
    array_to_npy(x)
}
