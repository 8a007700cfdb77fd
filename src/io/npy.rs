//! NumPy folders: a problem as a directory of `.npy` arrays, for exchange with Python.
//!
//! A Python user writes the arrays with `numpy.save` and points `nonsmooth` at the folder;
//! [`write`](fn@write) produces the same layout for a problem the crate made, so that it can be
//! read back with `numpy.load`. Arrays are `float64` (`dep` is `int64`), little- or
//! big-endian, C or Fortran order.
//!
//! | problem | files | shapes |
//! |---|---|---|
//! | fc3d | `W.npy`, `q.npy`, `mu.npy` | `(3nc, 3nc)`, `(3nc,)`, `(nc,)` |
//! | gfc3d | `M.npy`, `H.npy`, `q.npy`, `b.npy`, `mu.npy` | `(ndof, ndof)`, `(ndof, 3nc)`, `(ndof,)`, `(3nc,)`, `(nc,)` |
//! | LCP | `A.npy`, `b.npy` | `(n, n)`, `(n,)` |
//! | boxed LCP | `A.npy`, `b.npy`, `lo.npy`, `hi.npy`, `dep.npy`, `factor.npy` | `(n, n)`, then `(n,)` each; `±inf` bounds allowed; `dep = -1` for fixed bounds |
//! | gmp | `W.npy`, `q.npy`, `blocks.npy`, `lo.npy`, `hi.npy`, `mu.npy`, `mu_len.npy` | `(n, n)`, `(n,)`, then `(nb,)` for `blocks`, `lo`, `hi`, `mu_len`, and `(Σ mu_len,)` for `mu` |
//!
//! A generic mechanical problem ([`GenericMechanical`], `nb` blocks) stores its blocks as
//! arrays, one entry per block: `blocks` (`int64`) holds the law's code, `0` equality,
//! `1` unilateral, `2` interval, `3` contact ([`BLOCK_CODES`]); `lo` and `hi` the bounds on
//! `r` (an interval's own, `±inf` allowed; the others hold the bounds their law implies
//! and the reader checks them: `-inf, +inf` for an equality, `0, +inf` for a unilateral
//! block and a contact's normal row); `mu_len` (`int64`) the number of tangential rows
//! (`0` for all but contacts, at least `1` for a contact), and `mu` every contact's
//! coefficients one after the other (`Σ mu_len` entries). A contact block holds
//! `1 + mu_len` rows, the others one. The presence of `blocks.npy` beside `W.npy` makes the
//! folder a gmp problem.
//!
//! Optional: `r.npy` (an engine's answer, `(3nc,)` or `(n,)`), `u.npy` (its velocity), and
//! `meta.json`, a JSON object with any of the keys `name` (default: the folder's
//! name), `law` (`"coulomb"` or `"ccp"`, the friction law of an fc3d, gfc3d or gmp
//! problem), `source` (who made it; also the answer's source when there is no
//! `answer_source`), `description`, `answer_source` (who computed `r`), `units` (an object
//! of strings, for example `{"r": "N s", "u": "m/s"}`) and `labels` (one string per
//! contact, or per block of a gmp problem). Any other key is an
//! error, so that a misspelt `law` is not silently read as Coulomb. A friction problem
//! without a `law` (no `meta.json`, or one without the key, or `null`) is read as Coulomb
//! with a warning in [`LoadedProblem::warnings`] that says so; a `law` in the folder of an
//! LCP or a boxed LCP is ignored with a warning.
//!
//! # Reading
//!
//! Every file is read whole with [`read_file`](super::read_file) (regular files only, at
//! most [`MAX_FILE_BYTES`](super::MAX_FILE_BYTES)). The `.npy` header is checked by this
//! module's own parser ([`parse_header`]), which reads the Python dict literal that
//! `numpy.save` writes in one linear pass with no recursion:
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
//!
//! # Writing
//!
//! [`write`](fn@write) refuses a matrix with more than
//! [`MAX_DENSE_ENTRIES`](crate::matrix::MAX_DENSE_ENTRIES) entries before making any
//! dense copy, writes every array into a hidden sibling folder, then puts that folder in
//! the place of the target in one step, so that the target is either the old folder or
//! the whole new one (no array of a previous problem survives). It refuses a target that
//! is not a folder, or a folder holding anything but the files listed above
//! ([`IoErrorKind::Refused`]).

use std::path::{Path, PathBuf};

use nalgebra::{DMatrix, DVector};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ShapeBuilder};
use ndarray_npy::WriteNpyExt;
use serde::{Deserialize, Serialize};

use super::{AnyProblem, Format, IoError, IoErrorKind, LoadedProblem, Provenance};
use crate::matrix::Matrix;
use crate::problem::{
    Block, BoxedLcp, EngineAnswer, FrictionContact, FrictionKind, GenericMechanical,
    GlobalFrictionContact, Lcp,
};

/// The codes of the `blocks` array of a gmp problem, by law name: `blocks[b]` is the
/// index of block `b`'s law in this list.
pub const BLOCK_CODES: [&str; 4] = ["equality", "unilateral", "interval", "contact"];

/// `true` if `dir` holds `W.npy`, `A.npy` or `M.npy`.
pub fn is_problem_folder(dir: &Path) -> bool {
    ["W.npy", "A.npy", "M.npy"]
        .iter()
        .any(|f| super::has_entry(dir, f))
}

/// Every file a NumPy problem folder may hold: what [`write`](fn@write) writes, and all
/// that it agrees to replace.
pub const FOLDER_FILES: &[&str] = &[
    "W.npy",
    "q.npy",
    "mu.npy",
    "M.npy",
    "H.npy",
    "b.npy",
    "A.npy",
    "lo.npy",
    "hi.npy",
    "dep.npy",
    "factor.npy",
    "blocks.npy",
    "mu_len.npy",
    "r.npy",
    "u.npy",
    "meta.json",
];

/// The optional `meta.json` of a NumPy folder.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Meta {
    /// Problem name (default: the folder's name).
    #[serde(default)]
    pub name: Option<String>,
    /// Friction law (default Coulomb).
    #[serde(default)]
    pub law: Option<FrictionKind>,
    /// Who made it.
    #[serde(default)]
    pub source: Option<String>,
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
    /// Who computed the answer `r` (default: `source`, then `"r.npy"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_source: Option<String>,
    /// Units, for example `{"r": "N s", "u": "m/s"}`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub units: std::collections::BTreeMap<String, String>,
    /// One label per contact (per block of a gmp problem), or none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
}

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
/// [`IoErrorKind::Parse`] at `"header"` naming what is wrong and what was found.
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

fn read_matrix(dir: &Path, name: &str) -> Result<Matrix, IoError> {
    let path = dir.join(name);
    let bytes = super::read_file(&path)?;
    Ok(Matrix::Dense(parse_matrix(&path, &bytes)?))
}

fn read_vector(dir: &Path, name: &str) -> Result<DVector<f64>, IoError> {
    let path = dir.join(name);
    let bytes = super::read_file(&path)?;
    parse_vector(&path, &bytes)
}

fn read_ints(dir: &Path, name: &str) -> Result<Vec<i64>, IoError> {
    let path = dir.join(name);
    let bytes = super::read_file(&path)?;
    parse_ints(&path, &bytes)
}

/// What a JSON value is, in words.
fn json_kind(v: &serde_json::Value) -> &'static str {
    use serde_json::Value::*;
    match v {
        Null => "null",
        Bool(_) => "a boolean",
        Number(_) => "a number",
        String(_) => "a string",
        Array(_) => "a list",
        Object(_) => "an object",
    }
}

/// Parses the bytes of a `meta.json` (`path` names it in messages).
///
/// # Errors
/// [`IoErrorKind::Parse`]: JSON syntax (at the line and column), a top level that is not
/// an object, an unknown key, or a value of the wrong type (at the key's name).
pub fn parse_meta(path: &Path, bytes: &[u8]) -> Result<Meta, IoError> {
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| {
        IoError::parse(
            path,
            format!("line {} column {}", e.line(), e.column()),
            e.to_string(),
        )
    })?;
    let serde_json::Value::Object(map) = value else {
        return Err(IoError::parse(
            path,
            "top level",
            format!(
                "expected an object such as {{\"name\": \"...\", \"law\": \"ccp\"}}, found {}",
                json_kind(&value)
            ),
        ));
    };
    let mut meta = Meta::default();
    for (key, v) in &map {
        let at = format!("`{key}`");
        let text = || match v {
            serde_json::Value::Null => Ok(None),
            serde_json::Value::String(s) => Ok(Some(s.clone())),
            other => Err(IoError::parse(
                path,
                at.clone(),
                format!("`{key}` is {}; expected a string", json_kind(other)),
            )),
        };
        match key.as_str() {
            "name" => meta.name = text()?,
            "source" => meta.source = text()?,
            "description" => meta.description = text()?,
            "answer_source" => meta.answer_source = text()?,
            "units" => {
                meta.units = match v {
                    serde_json::Value::Null => Default::default(),
                    serde_json::Value::Object(m) => {
                        let mut units = std::collections::BTreeMap::new();
                        for (k, x) in m {
                            let serde_json::Value::String(x) = x else {
                                return Err(IoError::parse(
                                    path,
                                    format!("`units`.`{}`", show(k.as_bytes(), 40)),
                                    format!("a unit is {}; expected a string", json_kind(x)),
                                ));
                            };
                            units.insert(k.clone(), x.clone());
                        }
                        units
                    }
                    other => {
                        return Err(IoError::parse(
                            path,
                            at,
                            format!(
                                "`units` is {}; expected an object of strings such as \
                                 {{\"r\": \"N s\"}}",
                                json_kind(other)
                            ),
                        ));
                    }
                }
            }
            "labels" => {
                meta.labels = match v {
                    serde_json::Value::Null => Vec::new(),
                    serde_json::Value::Array(a) => {
                        let mut labels = Vec::with_capacity(a.len());
                        for (i, x) in a.iter().enumerate() {
                            let serde_json::Value::String(x) = x else {
                                return Err(IoError::parse(
                                    path,
                                    format!("`labels`[{i}]"),
                                    format!("label {i} is {}; expected a string", json_kind(x)),
                                ));
                            };
                            labels.push(x.clone());
                        }
                        labels
                    }
                    other => {
                        return Err(IoError::parse(
                            path,
                            at,
                            format!(
                                "`labels` is {}; expected a list of strings, one per contact",
                                json_kind(other)
                            ),
                        ));
                    }
                }
            }
            "law" => {
                meta.law = match v {
                    serde_json::Value::Null => None,
                    serde_json::Value::String(s) if s == "coulomb" => Some(FrictionKind::Coulomb),
                    serde_json::Value::String(s) if s == "ccp" => Some(FrictionKind::Ccp),
                    serde_json::Value::String(s) => {
                        return Err(IoError::parse(
                            path,
                            at,
                            format!(
                                "`law` is `{}`; expected coulomb or ccp",
                                show(s.as_bytes(), 40)
                            ),
                        ));
                    }
                    other => {
                        return Err(IoError::parse(
                            path,
                            at,
                            format!(
                                "`law` is {}; expected \"coulomb\" or \"ccp\"",
                                json_kind(other)
                            ),
                        ));
                    }
                }
            }
            _ => {
                return Err(IoError::parse(
                    path,
                    at,
                    format!(
                        "unknown key `{}`; meta.json holds name, law, source, description, \
                         answer_source, units and labels",
                        show(key.as_bytes(), 40)
                    ),
                ));
            }
        }
    }
    Ok(meta)
}

/// Named `float64` / `int64` arrays a problem is assembled from: the `.npy` files of a
/// NumPy folder, or the members of a NumPy `.npz` archive ([`super::npz`]). Names are
/// given without `.npy`.
pub(crate) trait Arrays {
    /// Whether the array is present.
    fn has(&self, name: &str) -> bool;
    /// Whether the matrix is present, in whatever storage the container allows.
    fn has_matrix(&self, name: &str) -> bool {
        self.has(name)
    }
    /// A 2-D `float64` array (or a sparse matrix, where the container stores one).
    fn matrix(&mut self, name: &str) -> Result<Matrix, IoError>;
    /// A 1-D `float64` array.
    fn vector(&mut self, name: &str) -> Result<DVector<f64>, IoError>;
    /// A 1-D `int64` array.
    fn ints(&mut self, name: &str) -> Result<Vec<i64>, IoError>;
    /// The arrays present, by name (a sparse matrix's four parts `X_data`, ... as `X`;
    /// metadata not included).
    fn names(&self) -> Vec<String>;
}

/// The arrays a problem of `problem`'s type takes (with the answer's `r` and `u`).
fn arrays_of(problem: &AnyProblem) -> &'static [&'static str] {
    match problem {
        AnyProblem::Friction(_) => &["W", "q", "mu", "r", "u"],
        AnyProblem::Generic(_) => &["W", "q", "blocks", "lo", "hi", "mu", "mu_len", "r", "u"],
        AnyProblem::Global(_) => &["M", "H", "q", "b", "mu", "r", "u"],
        AnyProblem::Lcp(_) => &["A", "b", "r", "u"],
        AnyProblem::Boxed(_) => &["A", "b", "lo", "hi", "dep", "factor", "r", "u"],
    }
}

/// Refuses an array the problem read does not use: it would be dropped silently (an
/// `fc3d` archive holding `A` and `b` too, a `gmp` one that lost its `blocks` and reads as
/// `fc3d`).
fn refuse_stray(arrays: &impl Arrays, problem: &AnyProblem, path: &Path) -> Result<(), IoError> {
    let allowed = arrays_of(problem);
    let mut names = arrays.names();
    names.sort();
    if let Some(stray) = names.iter().find(|n| !allowed.contains(&n.as_str())) {
        let hint = if matches!(problem, AnyProblem::Friction(_))
            && ["blocks", "lo", "hi", "mu_len"].contains(&stray.as_str())
        {
            "; a generic mechanical problem (gmp) needs `blocks` beside `W`"
        } else {
            ""
        };
        return Err(IoError::parse(
            path,
            format!("{stray}.npy"),
            format!(
                "the array `{}` does not belong to {} (its arrays: {}), and would be ignored; \
                 remove it or store the problem it belongs to{hint}",
                show(stray.as_bytes(), 40),
                problem.noun(),
                allowed.join(", ")
            ),
        ));
    }
    Ok(())
}

/// The problem held by `arrays` (an fc3d problem if `W` is present, else a gfc3d problem
/// if `M` is, else an LCP, boxed when any of `lo`, `hi`, `dep`, `factor` is present) and
/// the answer `r` (with its velocity `u`, if present), as the NumPy folder and the `.npz`
/// archive both lay them out (see the module docs). `None` when no problem matrix is
/// present. `path` names the container in problem errors; `answer_source` is the answer's
/// source (default `"r.npy"`).
pub(crate) fn assemble(
    arrays: &mut impl Arrays,
    law: FrictionKind,
    path: &Path,
    answer_source: Option<&str>,
) -> Result<Option<(AnyProblem, Option<EngineAnswer>)>, IoError> {
    let prob = |e| IoError::new(path, IoErrorKind::Problem(e));
    let problem = if arrays.has_matrix("W") && arrays.has("blocks") {
        let w = arrays.matrix("W")?;
        let q = arrays.vector("q")?;
        let blocks = read_blocks(arrays, path)?;
        AnyProblem::Generic(GenericMechanical::new(w, q, blocks, law).map_err(prob)?)
    } else if arrays.has_matrix("W") {
        let w = arrays.matrix("W")?;
        let (q, mu) = (arrays.vector("q")?, arrays.vector("mu")?);
        AnyProblem::Friction(FrictionContact::new(w, q, mu, law).map_err(prob)?)
    } else if arrays.has_matrix("M") {
        let (m, h) = (arrays.matrix("M")?, arrays.matrix("H")?);
        let (q, b, mu) = (
            arrays.vector("q")?,
            arrays.vector("b")?,
            arrays.vector("mu")?,
        );
        AnyProblem::Global(GlobalFrictionContact::new(m, h, q, b, mu, law).map_err(prob)?)
    } else if arrays.has_matrix("A") {
        let a = arrays.matrix("A")?;
        let b = arrays.vector("b")?;
        if ["lo", "hi", "dep", "factor"].iter().any(|n| arrays.has(n)) {
            let lo = arrays.vector("lo")?;
            let hi = arrays.vector("hi")?;
            let dep = arrays.ints("dep")?;
            let factor = arrays.vector("factor")?;
            let (lo, hi, factor) = (lo.as_slice(), hi.as_slice(), factor.as_slice());
            AnyProblem::Boxed(BoxedLcp::from_opentissue(a, b, lo, hi, &dep, factor).map_err(prob)?)
        } else {
            AnyProblem::Lcp(Lcp::new(a, b).map_err(prob)?)
        }
    } else {
        return Ok(None);
    };
    refuse_stray(arrays, &problem, path)?;
    let answer = if arrays.has("r") {
        let r = arrays.vector("r")?.as_slice().to_vec();
        let u = if arrays.has("u") {
            Some(arrays.vector("u")?.as_slice().to_vec())
        } else {
            None
        };
        let source = answer_source.unwrap_or("r.npy").to_string();
        let ans = EngineAnswer { source, r, u };
        ans.validate(problem.dim()).map_err(prob)?;
        Some(ans)
    } else {
        None
    };
    Ok(Some((problem, answer)))
}

/// The blocks of a gmp problem from the arrays `blocks`, `lo`, `hi`, `mu`, `mu_len` (see
/// the [module docs](self)); errors name the array and the block.
fn read_blocks(arrays: &mut impl Arrays, path: &Path) -> Result<Vec<Block>, IoError> {
    let codes = arrays.ints("blocks")?;
    let lo = arrays.vector("lo")?;
    let hi = arrays.vector("hi")?;
    let mu = arrays.vector("mu")?;
    let mu_len = arrays.ints("mu_len")?;
    let nb = codes.len();
    for (name, len) in [("lo", lo.len()), ("hi", hi.len()), ("mu_len", mu_len.len())] {
        if len != nb {
            return Err(IoError::parse(
                path,
                format!("{name}.npy"),
                format!("{name} has {len} entries for {nb} blocks; give one per block"),
            ));
        }
    }
    let mut blocks = Vec::with_capacity(nb);
    let mut next = 0usize;
    for b in 0..nb {
        let at = |name: &str| format!("{name}.npy[{b}]");
        let (l, h, k) = (lo[b], hi[b], mu_len[b]);
        let code = codes[b];
        let law = usize::try_from(code)
            .ok()
            .and_then(|c| BLOCK_CODES.get(c))
            .ok_or_else(|| {
                IoError::parse(
                    path,
                    at("blocks"),
                    format!(
                        "block {b} has the law code {code}; the codes are 0 equality, \
                         1 unilateral, 2 interval, 3 contact"
                    ),
                )
            })?;
        let contact = *law == "contact";
        if contact && k < 1 || !contact && k != 0 {
            return Err(IoError::parse(
                path,
                at("mu_len"),
                format!(
                    "block {b} ({law}) has mu_len = {k}; a contact has at least one \
                     tangential row, the other blocks none (mu_len = 0)"
                ),
            ));
        }
        let implied = match *law {
            "equality" => Some((f64::NEG_INFINITY, f64::INFINITY)),
            "unilateral" | "contact" => Some((0.0, f64::INFINITY)),
            _ => None,
        };
        match implied {
            Some((il, ih)) if l != il || h != ih => {
                return Err(IoError::parse(
                    path,
                    at("lo"),
                    format!(
                        "block {b} ({law}) has lo = {l:?}, hi = {h:?}; a {law} block stores \
                         the bounds its law implies, lo = {il:?}, hi = {ih:?}"
                    ),
                ));
            }
            Some(_) => {}
            None if l.is_nan() || h.is_nan() || l > h => {
                return Err(IoError::parse(
                    path,
                    at("lo"),
                    format!(
                        "block {b} (interval) has lo = {l:?}, hi = {h:?}; an interval needs \
                         lo <= hi (either may be infinite, neither NaN)"
                    ),
                ));
            }
            None => {}
        }
        let k = k as usize; // >= 0, checked above
        let end = next
            .checked_add(k)
            .filter(|e| *e <= mu.len())
            .ok_or_else(|| {
                IoError::parse(
                    path,
                    "mu.npy",
                    format!(
                        "mu has {} entries, fewer than the blocks' mu_len ask for (block {b} \
                         needs entries {next}..{})",
                        mu.len(),
                        next.saturating_add(k)
                    ),
                )
            })?;
        blocks.push(match *law {
            "equality" => Block::Equality,
            "unilateral" => Block::Unilateral,
            "interval" => Block::Interval { lo: l, hi: h },
            _ => {
                let m = mu.as_slice()[next..end].to_vec();
                if let Some((i, v)) = m
                    .iter()
                    .enumerate()
                    .find(|(_, v)| !(v.is_finite() && **v >= 0.0))
                {
                    return Err(IoError::parse(
                        path,
                        format!("mu.npy[{}]", next + i),
                        format!(
                            "block {b} (contact) has the friction coefficient {v:?}; \
                             coefficients are finite and >= 0"
                        ),
                    ));
                }
                Block::Contact { mu: m }
            }
        });
        next = end;
    }
    if next != mu.len() {
        return Err(IoError::parse(
            path,
            "mu.npy",
            format!(
                "mu has {} entries, but the blocks' mu_len add up to {next}",
                mu.len()
            ),
        ));
    }
    Ok(blocks)
}

/// The arrays `blocks`, `lo`, `hi`, `mu`, `mu_len` of a gmp problem.
pub(crate) type BlockArrays = (Vec<i64>, Vec<f64>, Vec<f64>, Vec<f64>, Vec<i64>);

/// The arrays of a gmp problem's blocks: `blocks`, `lo`, `hi`, `mu`, `mu_len`.
pub(crate) fn block_arrays(blocks: &[Block]) -> BlockArrays {
    let (mut codes, mut lo, mut hi, mut mu, mut mu_len) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for block in blocks {
        let code = BLOCK_CODES
            .iter()
            .position(|n| *n == block.name())
            .unwrap_or_default();
        codes.push(code as i64);
        let (l, h) = match block {
            Block::Equality => (f64::NEG_INFINITY, f64::INFINITY),
            Block::Unilateral | Block::Contact { .. } => (0.0, f64::INFINITY),
            Block::Interval { lo, hi } => (*lo, *hi),
        };
        lo.push(l);
        hi.push(h);
        match block {
            Block::Contact { mu: m } => {
                mu.extend_from_slice(m);
                mu_len.push(m.len() as i64);
            }
            _ => mu_len.push(0),
        }
    }
    (codes, lo, hi, mu, mu_len)
}

/// Checks that the provenance's labels are one per contact (per block of a gmp problem)
/// or none; `at` names the file that holds them.
pub(crate) fn check_labels(
    labels: &[String],
    problem: &AnyProblem,
    file: &Path,
) -> Result<(), IoError> {
    if !labels.is_empty() && labels.len() != problem.contacts() {
        let what = if matches!(problem, AnyProblem::Generic(_)) {
            "blocks"
        } else {
            "contacts"
        };
        return Err(IoError::parse(
            file,
            "`labels`",
            format!(
                "{} labels for {} {what}; give one per {} or none",
                labels.len(),
                problem.contacts(),
                &what[..what.len() - 1]
            ),
        ));
    }
    Ok(())
}

/// The arrays of a NumPy folder: `NAME.npy` files.
struct Folder<'a>(&'a Path);

impl Arrays for Folder<'_> {
    fn has(&self, name: &str) -> bool {
        super::has_entry(self.0, &format!("{name}.npy"))
    }
    fn matrix(&mut self, name: &str) -> Result<Matrix, IoError> {
        read_matrix(self.0, &format!("{name}.npy"))
    }
    fn vector(&mut self, name: &str) -> Result<DVector<f64>, IoError> {
        read_vector(self.0, &format!("{name}.npy"))
    }
    fn ints(&mut self, name: &str) -> Result<Vec<i64>, IoError> {
        read_ints(self.0, &format!("{name}.npy"))
    }
    fn names(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.0) else {
            return Vec::new();
        };
        entries
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.strip_suffix(".npy").map(str::to_string)
            })
            .collect()
    }
}

/// Reads a NumPy folder (see the [module table](self)).
///
/// # Errors
/// Missing or malformed arrays (see [`parse_header`]), shapes that do not fit together,
/// NaN, negative `mu` ([`IoErrorKind::Problem`]), a malformed `meta.json`
/// ([`parse_meta`]), an entry that is not a regular file ([`IoErrorKind::NotAFile`]).
pub fn load(dir: &Path) -> Result<LoadedProblem, IoError> {
    let has = |f: &str| super::has_entry(dir, f);
    let meta_path = dir.join("meta.json");
    let has_meta = has("meta.json");
    let meta = if has_meta {
        parse_meta(&meta_path, &super::read_file(&meta_path)?)?
    } else {
        Meta::default()
    };
    let law = meta.law.unwrap_or_default();
    let answer_source = meta.answer_source.as_deref().or(meta.source.as_deref());
    let Some((problem, answer)) = assemble(&mut Folder(dir), law, dir, answer_source)? else {
        return Err(IoError::new(dir, IoErrorKind::UnknownFormat));
    };
    check_labels(&meta.labels, &problem, &meta_path)?;
    let warnings = law_warnings(&problem, meta.law, has_meta, &meta_path);
    let name = meta.name.clone().unwrap_or_else(|| {
        dir.file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    Ok(LoadedProblem {
        path: dir.to_path_buf(),
        name,
        format: Format::Numpy,
        problem,
        answer,
        provenance: Provenance {
            source: meta.source.unwrap_or_default(),
            description: meta.description.unwrap_or_default(),
            units: meta.units,
            labels: meta.labels,
        },
        warm_start: None,
        warnings,
    })
}

/// What the reader says about the friction law: which law it assumed for a friction
/// problem whose `meta.json` is missing or has no `law`, and that it ignores a `law` given
/// for an LCP or a boxed LCP (which have none).
fn law_warnings(
    problem: &AnyProblem,
    law: Option<FrictionKind>,
    has_meta: bool,
    meta_path: &Path,
) -> Vec<String> {
    let friction = matches!(
        problem,
        AnyProblem::Friction(_) | AnyProblem::Global(_) | AnyProblem::Generic(_)
    );
    match (friction, law) {
        (true, None) => {
            let (missing, how) = if has_meta {
                (
                    "meta.json has no `law`",
                    "add \"law\": \"ccp\" or \"law\": \"coulomb\" to",
                )
            } else {
                (
                    "no meta.json",
                    "write {\"law\": \"ccp\"} or {\"law\": \"coulomb\"} in",
                )
            };
            vec![format!(
                "{missing}; friction law assumed {} ({how} {} to choose)",
                FrictionKind::default().name(),
                meta_path.display()
            )]
        }
        (false, Some(k)) => vec![format!(
            "meta.json: `law` is {}, but the folder holds {}, which has no friction law; \
             the law is ignored",
            k.name(),
            problem.noun()
        )],
        _ => Vec::new(),
    }
}

// ---------------------------------------------------------------------------------------
// The writer.

/// One array to write.
enum Out<'a> {
    Matrix(&'a Matrix),
    Floats(Vec<f64>),
    Ints(Vec<i64>),
}

/// Writes one array as `.npy` bytes. A dense matrix is written from its own storage
/// (column-major, `fortran_order: True`); a sparse one is first copied dense (its size
/// checked by the caller).
fn encode<W: std::io::Write>(out: &Out, w: W) -> Result<(), ndarray_npy::WriteNpyError> {
    match out {
        Out::Matrix(Matrix::Dense(d)) => col_major_view(d).write_npy(w),
        Out::Matrix(Matrix::Sparse(m)) => {
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
        Out::Floats(v) => ArrayView1::from(v.as_slice()).write_npy(w),
        Out::Ints(v) => ArrayView1::from(v.as_slice()).write_npy(w),
    }
}

fn col_major_view(d: &DMatrix<f64>) -> ArrayView2<'_, f64> {
    ArrayView2::from_shape((d.nrows(), d.ncols()).f(), d.as_slice())
        .expect("a DMatrix is column-major and contiguous")
}

/// The `.npy` bytes the writer produces for a matrix (for tests and fuzzing).
#[doc(hidden)]
pub fn matrix_to_npy(m: &Matrix) -> Vec<u8> {
    let mut v = Vec::new();
    encode(&Out::Matrix(m), &mut v).expect("writing to memory");
    v
}

/// The `.npy` bytes the writer produces for a vector.
#[doc(hidden)]
pub fn vector_to_npy(x: &[f64]) -> Vec<u8> {
    let mut v = Vec::new();
    encode(&Out::Floats(x.to_vec()), &mut v).expect("writing to memory");
    v
}

/// The `.npy` bytes the writer produces for an `int64` vector.
#[doc(hidden)]
pub fn ints_to_npy(x: &[i64]) -> Vec<u8> {
    let mut v = Vec::new();
    encode(&Out::Ints(x.to_vec()), &mut v).expect("writing to memory");
    v
}

/// The files of `problem` (and `answer`) in the folder layout.
fn arrays<'a>(
    problem: &'a AnyProblem,
    answer: Option<&EngineAnswer>,
) -> (Vec<(&'static str, Out<'a>)>, Option<FrictionKind>) {
    let v = |x: &DVector<f64>| Out::Floats(x.as_slice().to_vec());
    let (mut files, law) = match problem {
        AnyProblem::Generic(p) => {
            let (codes, lo, hi, mu, mu_len) = block_arrays(p.blocks());
            (
                vec![
                    ("W.npy", Out::Matrix(p.w())),
                    ("q.npy", v(p.q())),
                    ("blocks.npy", Out::Ints(codes)),
                    ("lo.npy", Out::Floats(lo)),
                    ("hi.npy", Out::Floats(hi)),
                    ("mu.npy", Out::Floats(mu)),
                    ("mu_len.npy", Out::Ints(mu_len)),
                ],
                Some(p.kind()),
            )
        }
        AnyProblem::Lcp(p) => (
            vec![("A.npy", Out::Matrix(p.a())), ("b.npy", v(p.b()))],
            None,
        ),
        AnyProblem::Boxed(p) => {
            let (lo, hi, dep, factor) = p.to_opentissue();
            (
                vec![
                    ("A.npy", Out::Matrix(p.a())),
                    ("b.npy", v(p.b())),
                    ("lo.npy", Out::Floats(lo)),
                    ("hi.npy", Out::Floats(hi)),
                    ("dep.npy", Out::Ints(dep)),
                    ("factor.npy", Out::Floats(factor)),
                ],
                None,
            )
        }
        AnyProblem::Friction(p) => (
            vec![
                ("W.npy", Out::Matrix(p.w())),
                ("q.npy", v(p.q())),
                ("mu.npy", v(p.mu())),
            ],
            Some(p.kind()),
        ),
        AnyProblem::Global(p) => (
            vec![
                ("M.npy", Out::Matrix(p.m())),
                ("H.npy", Out::Matrix(p.h())),
                ("q.npy", v(p.q())),
                ("b.npy", v(p.b())),
                ("mu.npy", v(p.mu())),
            ],
            Some(p.kind()),
        ),
    };
    if let Some(a) = answer {
        files.push(("r.npy", Out::Floats(a.r.clone())));
        if let Some(u) = &a.u {
            files.push(("u.npy", Out::Floats(u.clone())));
        }
    }
    (files, law)
}

/// What is at `path`, in words, when it is not a folder.
fn what_is(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let ft = meta.file_type();
    if ft.is_symlink() {
        "a symbolic link"
    } else if ft.is_file() {
        "a regular file"
    } else if ft.is_dir() {
        "a folder"
    } else if ft.is_fifo() {
        "a named pipe (FIFO)"
    } else if ft.is_socket() {
        "a socket"
    } else {
        "a device or other special file"
    }
}

/// Checks that the existing folder `dir` holds only the files of a NumPy problem, each a
/// regular file: the folder the writer may replace.
fn check_replaceable(target: &Path, dir: &Path) -> Result<(), IoError> {
    let refuse = |m: String| IoError::new(target, IoErrorKind::Refused(m));
    let io = |e| IoError::new(target, IoErrorKind::Io(e));
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name();
        let shown = show(name.as_encoded_bytes(), 60);
        let known = name.to_str().is_some_and(|n| FOLDER_FILES.contains(&n));
        if !known {
            return Err(refuse(format!(
                "the folder holds `{shown}`, which is not part of a NumPy problem; the writer \
                 replaces a folder only when it holds nothing but problem arrays (W.npy, \
                 A.npy, ..., meta.json): remove it or choose another folder"
            )));
        }
        let meta = std::fs::symlink_metadata(entry.path()).map_err(io)?;
        if !meta.file_type().is_file() {
            return Err(refuse(format!(
                "`{shown}` in the folder is {}, not a regular file; refusing to replace the \
                 folder",
                what_is(&meta)
            )));
        }
    }
    Ok(())
}

/// Writes the arrays and `meta.json` into the new folder `tmp`; errors name the files as
/// they will be called in `target`.
fn write_files(
    tmp: &Path,
    target: &Path,
    files: &[(&str, Out)],
    meta: &Meta,
) -> Result<(), IoError> {
    use std::io::Write;
    for (name, out) in files {
        let io = |e| IoError::new(target.join(name), IoErrorKind::Io(e));
        let file = std::fs::File::create(tmp.join(name)).map_err(io)?;
        let mut w = std::io::BufWriter::new(file);
        encode(out, &mut w).map_err(|e| match e {
            ndarray_npy::WriteNpyError::Io(e) => io(e),
            e => IoError::parse(target.join(name), "write", e.to_string()),
        })?;
        let file = w.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)?;
    }
    let name = "meta.json";
    let io = |e| IoError::new(target.join(name), IoErrorKind::Io(e));
    let mut file = std::fs::File::create(tmp.join(name)).map_err(io)?;
    let text = serde_json::to_string_pretty(meta).expect("plain data") + "\n";
    file.write_all(text.as_bytes()).map_err(io)?;
    file.sync_all().map_err(io)
}

/// Removes a folder the writer made or replaced: only the files it knows, then the folder
/// (which fails, harmlessly, if anything else is in it).
fn remove_folder(dir: &Path) {
    for f in FOLDER_FILES {
        let _ = std::fs::remove_file(dir.join(f));
    }
    let _ = std::fs::remove_dir(dir);
}

/// Writes `problem` (and an answer) as the NumPy folder `dir`, replacing it whole if it
/// holds another NumPy problem (its parent folders are created if absent). Matrices are
/// written dense, column-major (`fortran_order: True`).
///
/// The arrays go into a hidden sibling folder (`.NAME.nonsmooth-tmp-PID`), which then
/// takes the place of `dir`: an existing `dir` is first renamed away (to
/// `.NAME.nonsmooth-old-PID`), the new folder renamed in, and the old one removed. On any
/// failure the temporary folder is removed and `dir` is left as it was.
///
/// # Errors
/// * [`IoErrorKind::Problem`]`(`[`ProblemError::TooLarge`](crate::problem::ProblemError::TooLarge)`)`
///   for a matrix with more than [`MAX_DENSE_ENTRIES`](crate::matrix::MAX_DENSE_ENTRIES)
///   entries, before anything is written;
/// * [`IoErrorKind::Refused`] if `dir` exists and is not a folder, is a symbolic link, or
///   holds anything but the files of a NumPy problem ([`FOLDER_FILES`], as regular files);
///   nothing is touched;
/// * [`IoErrorKind::Io`] with what the file system reports.
pub fn write(
    dir: &Path,
    name: &str,
    problem: &AnyProblem,
    answer: Option<&EngineAnswer>,
) -> Result<(), IoError> {
    write_with_provenance(dir, name, problem, answer, &Provenance::default())
}

/// [`write`](fn@write), with the provenance: its `source`, `description`, `units` and
/// `labels` go into `meta.json` (and the answer's source into `answer_source`), so that
/// [`load`] gives them back.
///
/// # Errors
/// As [`write`](fn@write).
pub fn write_with_provenance(
    dir: &Path,
    name: &str,
    problem: &AnyProblem,
    answer: Option<&EngineAnswer>,
    provenance: &Provenance,
) -> Result<(), IoError> {
    let (files, law) = arrays(problem, answer);
    for (file, out) in &files {
        if let Out::Matrix(m) = out {
            crate::matrix::check_dense(&format!("the NumPy writer ({file})"), m.nrows(), m.ncols())
                .map_err(|e| IoError::new(dir, IoErrorKind::Problem(e)))?;
        }
    }
    let io = |e| IoError::new(dir, IoErrorKind::Io(e));
    let exists = match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => {
            check_replaceable(dir, dir)?;
            true
        }
        Ok(meta) => {
            return Err(IoError::new(
                dir,
                IoErrorKind::Refused(format!(
                    "the output is {}, not a folder; a NumPy problem is written as a folder",
                    what_is(&meta)
                )),
            ));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(e) => return Err(io(e)),
    };
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(io)?;
    }
    let nonempty = |s: &str| Some(s.to_string()).filter(|s| !s.is_empty());
    let meta = Meta {
        name: Some(name.to_string()),
        law,
        source: nonempty(&provenance.source),
        description: nonempty(&provenance.description),
        answer_source: answer.map(|a| a.source.clone()),
        units: provenance.units.clone(),
        labels: provenance.labels.clone(),
    };
    let tmp = super::temporary_sibling(dir, "tmp");
    if std::fs::symlink_metadata(&tmp).is_ok() {
        // Left by an earlier run of a process with this id that was killed.
        remove_folder(&tmp);
    }
    std::fs::create_dir(&tmp).map_err(|e| IoError::new(&tmp, IoErrorKind::Io(e)))?;
    if let Err(e) = write_files(&tmp, dir, &files, &meta) {
        remove_folder(&tmp);
        return Err(e);
    }
    if let Err(e) = replace(dir, &tmp, exists) {
        remove_folder(&tmp);
        return Err(e);
    }
    Ok(())
}

/// Puts the folder `tmp` in the place of `dir`.
fn replace(dir: &Path, tmp: &Path, exists: bool) -> Result<(), IoError> {
    let io = |e| IoError::new(dir, IoErrorKind::Io(e));
    if !exists {
        return std::fs::rename(tmp, dir).map_err(io);
    }
    let old: PathBuf = super::temporary_sibling(dir, "old");
    if std::fs::symlink_metadata(&old).is_ok() {
        remove_folder(&old);
    }
    std::fs::rename(dir, &old).map_err(io)?;
    // The folder may have changed since it was checked: check what was moved away.
    let checked = check_replaceable(dir, &old);
    let renamed = checked.and_then(|()| std::fs::rename(tmp, dir).map_err(io));
    if let Err(e) = renamed {
        let _ = std::fs::rename(&old, dir);
        return Err(e);
    }
    remove_folder(&old);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("nonsmooth_npy_{tag}_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    /// A version-1.0 `.npy` file with this header text (a newline is added) and data.
    fn npy(header: &str, data: &[u8]) -> Vec<u8> {
        let mut h = header.as_bytes().to_vec();
        h.push(b'\n');
        let mut v = b"\x93NUMPY\x01\x00".to_vec();
        v.extend((h.len() as u16).to_le_bytes());
        v.extend(h);
        v.extend(data);
        v
    }

    fn le(x: &[f64]) -> Vec<u8> {
        x.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    fn err(r: Result<impl std::fmt::Debug, IoError>) -> String {
        r.expect_err("an error").to_string()
    }

    fn matrix_err(header: &str, data: &[u8]) -> String {
        err(parse_matrix(Path::new("W.npy"), &npy(header, data)))
    }

    #[test]
    fn round_trip_through_numpy_files() {
        let dir = temp("rt");
        let w = DMatrix::from_row_slice(3, 3, &[2.0, 0.5, 0.0, 0.5, 1.0, 0.25, 0.0, 0.25, 3.0]);
        let fc = FrictionContact::new(
            Matrix::Dense(w),
            DVector::from_vec(vec![-1.0, 0.1, 1.0 / 3.0]),
            DVector::from_vec(vec![0.4]),
            FrictionKind::Ccp,
        )
        .unwrap();
        let ans = EngineAnswer {
            source: "test".into(),
            r: vec![1.0, 0.0, 0.5],
            u: None,
        };
        write(&dir, "t", &AnyProblem::Friction(fc.clone()), Some(&ans)).unwrap();
        let back = load(&dir).unwrap();
        match back.problem {
            AnyProblem::Friction(p) => assert_eq!(p, fc),
            _ => panic!("wrong type"),
        }
        assert_eq!(back.answer.unwrap().r, ans.r);
        // a header that promises more data than the file holds is an error
        let bad = dir.join("W.npy");
        let mut bytes = std::fs::read(&bad).unwrap();
        bytes.truncate(bytes.len() - 8);
        std::fs::write(&bad, bytes).unwrap();
        let e = load(&dir).unwrap_err().to_string();
        assert!(e.contains("8 bytes are missing"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn headers_numpy_writes_are_read() {
        let data = le(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        for header in [
            "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
            "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)}",
            "{\"shape\": (2,3), \"descr\": \"<f8\", \"fortran_order\": False}",
            "{'fortran_order':False,'shape':(2L, 3L,),'descr':'<f8'}",
            "  {\n'descr' : '<f8' ,\t'fortran_order' : False , 'shape' : ( 2 , 3 ) , }    ",
        ] {
            let m = parse_matrix(Path::new("W.npy"), &npy(header, &data))
                .unwrap_or_else(|e| panic!("{header}: {e}"));
            assert_eq!(
                m,
                DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
            );
        }
        // versions 2.0 and 3.0 have a 4-byte header length
        for major in [2u8, 3] {
            let h = b"{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n";
            let mut v = vec![0x93, b'N', b'U', b'M', b'P', b'Y', major, 0];
            v.extend((h.len() as u32).to_le_bytes());
            v.extend(h);
            v.extend(le(&[1.5, -2.0]));
            let x = parse_vector(Path::new("q.npy"), &v).unwrap();
            assert_eq!(x.as_slice(), &[1.5, -2.0]);
            v[6] = 4;
            let e = err(parse_vector(Path::new("q.npy"), &v));
            assert!(e.contains("format version 4.0"), "{e}");
        }
        // an empty shape is a scalar, of rank 0
        let e = err(parse_vector(
            Path::new("q.npy"),
            &npy(
                "{'descr': '<f8', 'fortran_order': False, 'shape': ()}",
                &le(&[1.0]),
            ),
        ));
        assert!(e.contains("a 0-dimensional array of shape ()"), "{e}");
    }

    #[test]
    fn big_endian_and_fortran_order_read_correctly() {
        // [[1, 2, 3], [4, 5, 6]] stored column by column
        let f = le(&[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
        let m = parse_matrix(
            Path::new("W.npy"),
            &npy(
                "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }",
                &f,
            ),
        )
        .unwrap();
        assert_eq!(
            m,
            DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
        );
        let be: Vec<u8> = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0]
            .iter()
            .flat_map(|v| v.to_be_bytes())
            .collect();
        let m = parse_matrix(
            Path::new("W.npy"),
            &npy(
                "{'descr': '>f8', 'fortran_order': False, 'shape': (3, 2), }",
                &be,
            ),
        )
        .unwrap();
        assert_eq!(
            m,
            DMatrix::from_row_slice(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
        );
        let be_ints: Vec<u8> = [-1i64, 7].iter().flat_map(|v| v.to_be_bytes()).collect();
        let d = parse_ints(
            Path::new("dep.npy"),
            &npy(
                "{'descr': '>i8', 'fortran_order': False, 'shape': (2,), }",
                &be_ints,
            ),
        )
        .unwrap();
        assert_eq!(d, vec![-1, 7]);
    }

    /// Issue 8: `)` before `(` in `shape` sliced a string at reversed indices (a panic).
    #[test]
    fn reversed_parentheses_are_an_error() {
        let e = matrix_err(
            "{'descr': '<f8', 'fortran_order': False, 'shape': )3, 3(, }",
            &le(&[0.0; 9]),
        );
        assert!(e.contains("header: `shape` is `)3, 3(`"), "{e}");
        assert!(
            e.contains("expected a tuple of non-negative integers"),
            "{e}"
        );
    }

    /// Issue 8: with two `shape` keys the old check read the first and ndarray-npy
    /// allocated from the last (1e11 x 6: an abort asking for 4.8 TB).
    #[test]
    fn a_key_given_twice_is_an_error() {
        let e = matrix_err(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), 'shape': (100000000000, 6), }",
            &le(&[1.0]),
        );
        assert!(e.ends_with("W.npy: header: `shape` appears twice"), "{e}");
        let e = matrix_err(
            "{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (1, 1)}",
            &le(&[1.0]),
        );
        assert!(e.contains("`descr` appears twice"), "{e}");
    }

    /// Issue 8: a `descr` nesting 40 lists made ndarray-npy's header parser take
    /// exponential time; the list is refused on sight.
    #[test]
    fn nested_descr_is_refused_at_once() {
        let depth = 40;
        let descr = format!("{}'<f8'{}", "[".repeat(depth), "]".repeat(depth));
        let header = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': (1, 1), }}");
        assert!(npy(&header, &[]).len() < 200);
        let e = matrix_err(&header, &le(&[1.0]));
        assert!(
            e.contains("header: `descr` is a list: a structured dtype"),
            "{e}"
        );
        let e = matrix_err(
            "{'descr': [('x', '<f8'), ('y', '<f8')], 'fortran_order': False, 'shape': (1, 1)}",
            &le(&[1.0, 2.0]),
        );
        assert!(e.contains("`descr` is a list: a structured dtype"), "{e}");
        // Unbalanced or deep nesting elsewhere cannot recurse either: a tuple in `shape`.
        let header = format!(
            "{{'descr': '<f8', 'fortran_order': False, 'shape': {}1{}}}",
            "(".repeat(10_000),
            ")".repeat(10_000)
        );
        let e = matrix_err(&header, &[]);
        assert!(e.contains("header: `shape` is `(((("), "{e}");
    }

    /// Issue 8: the old message for a float32 array was "the file holds fewer elements".
    #[test]
    fn dtype_errors_name_the_dtype() {
        for (descr, size, words) in [
            (
                "<f4",
                4,
                "the array is float32 ('<f4'); expected float64 ('<f8')",
            ),
            (
                "<i8",
                8,
                "the array is int64 ('<i8'); expected float64 ('<f8')",
            ),
            (
                "<i4",
                4,
                "the array is int32 ('<i4'); expected float64 ('<f8')",
            ),
            (
                "|b1",
                1,
                "the array is bool ('|b1'); expected float64 ('<f8')",
            ),
            (
                "|O",
                8,
                "the array is of dtype object (pickled Python objects) ('|O'); expected float64",
            ),
            ("<c16", 16, "the array is complex128 ('<c16')"),
            ("<U5", 20, "the array is of unicode strings ('<U5')"),
            ("<f2", 2, "the array is float16 ('<f2')"),
            ("<x9", 9, "the array is of an unrecognised dtype ('<x9')"),
            (
                "|f8",
                8,
                "`descr` is '|f8': float64 with '|' (no byte order",
            ),
            (
                "=f8",
                8,
                "`descr` is '=f8': float64 with '=' (the writer's native order",
            ),
            ("f8", 8, "`descr` is 'f8': float64 with no byte order"),
        ] {
            let header =
                format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': (3, 3), }}");
            let e = matrix_err(&header, &vec![0u8; 9 * size]);
            assert!(e.contains("W.npy: `descr`: "), "{e}");
            assert!(e.contains(words), "{descr}: {e}");
        }
    }

    #[test]
    fn dep_must_be_int64() {
        let path = Path::new("dep.npy");
        let e = err(parse_ints(
            path,
            &npy(
                "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }",
                &le(&[0.0, -1.0]),
            ),
        ));
        assert!(e.contains("float64 where int64 is required"), "{e}");
        let e = err(parse_ints(
            path,
            &npy(
                "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }",
                &[0; 8],
            ),
        ));
        assert!(e.contains("int32 where int64 is required"), "{e}");
        // and through a folder
        let dir = temp("dep");
        let lcp = BoxedLcp::from_opentissue(
            Matrix::Dense(DMatrix::identity(2, 2)),
            DVector::from_vec(vec![-1.0, 0.5]),
            &[0.0, 0.0],
            &[1.0, 0.0],
            &[-1, 0],
            &[0.0, 0.5],
        )
        .unwrap();
        write(&dir, "b", &AnyProblem::Boxed(lcp), None).unwrap();
        assert_eq!(load(&dir).unwrap().problem.type_name(), "boxed-lcp");
        std::fs::write(dir.join("dep.npy"), vector_to_npy(&[-1.0, 0.0])).unwrap();
        let e = load(&dir).unwrap_err().to_string();
        assert!(
            e.contains("dep.npy: `descr`: float64 where int64 is required"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn rank_must_match() {
        let e = matrix_err(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (9,), }",
            &le(&[0.0; 9]),
        );
        assert!(
            e.ends_with(
                "W.npy: `shape`: W.npy holds a 1-dimensional array of shape (9,); a \
                 2-dimensional one is required"
            ),
            "{e}"
        );
        let e = err(parse_vector(
            Path::new("q.npy"),
            &npy(
                "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 3), }",
                &le(&[0.0; 9]),
            ),
        ));
        assert!(
            e.contains(
                "q.npy holds a 2-dimensional array of shape (3, 3); a 1-dimensional one is required"
            ),
            "{e}"
        );
        // `(9)` is a number in Python, not a tuple
        let e = matrix_err(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (9)}",
            &le(&[0.0; 9]),
        );
        assert!(
            e.contains("which Python reads as a number, not a tuple"),
            "{e}"
        );
    }

    #[test]
    fn data_length_must_match_exactly() {
        let h = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }";
        let e = matrix_err(h, &le(&[1.0, 2.0, 3.0]));
        assert!(e.contains("data: the header announces 4 elements of 8 bytes (32 bytes) and the file holds 24 bytes of data: 8 bytes are missing"), "{e}");
        let mut long = le(&[1.0, 2.0, 3.0, 4.0]);
        long.push(0);
        let e = matrix_err(h, &long);
        assert!(e.contains("1 bytes too many after the array"), "{e}");
        // a huge shape is refused from the length, without allocating
        let e = matrix_err(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (100000000000, 6), }",
            &le(&[1.0]),
        );
        assert!(e.contains("bytes are missing"), "{e}");
        let e = matrix_err(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
            &[],
        );
        assert!(
            e.contains("more elements than this machine can address"),
            "{e}"
        );
        let e = matrix_err(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999, 1), }",
            &[],
        );
        assert!(e.contains("too large for this machine"), "{e}");
    }

    #[test]
    fn malformed_headers_say_what_is_wrong() {
        for (header, says) in [
            (
                "{'descr': '<f8', 'fortran_order': False}",
                "`shape` is missing",
            ),
            ("{}", "`descr`, `fortran_order` and `shape` are missing"),
            (
                "{'descr': '<f8', 'fortran_order': 0, 'shape': (1, 1)}",
                "`fortran_order` is `0`; expected True or False",
            ),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), 'extra': 1}",
                "unknown key `extra`",
            ),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': (1, -1)}",
                "a dimension is negative",
            ),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1)} x",
                "text after the closing `}` of the header: `x`",
            ),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1)",
                "expected `,` or `}` after the value of `shape`, found the end of the header",
            ),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1),",
                "expected a quoted string, found the end of the header",
            ),
            (
                "{'descr' '<f8', 'fortran_order': False, 'shape': (1, 1)}",
                "expected `:` after `descr`, found `'<f8'`",
            ),
            (
                "{'descr': '<f8 , 'fortran_order': False, 'shape': (1, 1)}",
                "after the value of `descr`, found `fortran_order': False`",
            ),
            (
                "{'descr': '<f\\x38', 'fortran_order': False, 'shape': (1, 1)}",
                "backslash",
            ),
            (
                "{'descr': 8, 'fortran_order': False, 'shape': (1, 1)}",
                "`descr` is `8`; expected a dtype string",
            ),
            (
                "{'descr': '<f8' 'fortran_order': False, 'shape': (1, 1)}",
                "expected `,` or `}` after the value of `descr`",
            ),
            ("['descr', '<f8']", "expected a dict"),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': (01, 1)}",
                "leading zero",
            ),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': (1,, 1)}",
                "`shape` is `(1,, 1)`",
            ),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': (,)}",
                "`shape` is `(,)`",
            ),
        ] {
            let e = matrix_err(header, &le(&[1.0]));
            assert!(e.contains(says), "{header}: {e}");
        }
        for (bytes, says) in [
            (&b""[..], "not a .npy file"),
            (b"\x93NUMPY", "ends inside the version number"),
            (b"\x93NUMPY\x01\x00\x01", "ends inside the header length"),
            (b"\x93NUMPY\x01\x00\xff\x00{", "said to be 255 bytes long"),
            (
                b"\x93NUMPY\x02\x00\xff\xff\xff\xff{",
                "said to be 4294967295 bytes long",
            ),
        ] {
            let e = err(parse_matrix(Path::new("W.npy"), bytes));
            assert!(e.contains(says), "{e}");
        }
    }

    #[test]
    fn writer_bytes_read_back() {
        let d = DMatrix::from_fn(3, 4, |i, j| (i as f64) - 0.5 * j as f64 + 1e-300);
        for m in [
            Matrix::Dense(d.clone()),
            Matrix::from_triplets(3, 4, &[(0, 1, -2.5), (2, 3, f64::MAX)]).unwrap(),
            Matrix::Dense(DMatrix::zeros(0, 3)),
        ] {
            let back = parse_matrix(Path::new("W.npy"), &matrix_to_npy(&m)).unwrap();
            assert_eq!(back, m.to_dense());
        }
        let v = [1.0, f64::NEG_INFINITY, -0.0];
        let back = parse_vector(Path::new("q.npy"), &vector_to_npy(&v)).unwrap();
        assert_eq!(back.as_slice(), &v);
        let back = parse_ints(Path::new("dep.npy"), &ints_to_npy(&[-1, i64::MAX])).unwrap();
        assert_eq!(back, vec![-1, i64::MAX]);
    }

    #[test]
    fn meta_json_errors_name_the_field() {
        let path = Path::new("meta.json");
        let e = err(parse_meta(path, br#"{"law": "tresca"}"#));
        assert!(
            e.ends_with("meta.json: `law`: `law` is `tresca`; expected coulomb or ccp"),
            "{e}"
        );
        let e = err(parse_meta(path, br#"{"name": 3}"#));
        assert!(e.contains("`name` is a number; expected a string"), "{e}");
        let e = err(parse_meta(path, br#"{"Law": "ccp"}"#));
        assert!(e.contains("unknown key `Law`"), "{e}");
        let e = err(parse_meta(path, b"[1]"));
        assert!(e.contains("found a list"), "{e}");
        let e = err(parse_meta(path, b"{\"law\": "));
        assert!(e.contains("meta.json: line 1 column"), "{e}");
        let m = parse_meta(path, br#"{"law": "ccp", "name": null, "source": "s"}"#).unwrap();
        assert_eq!(m.law, Some(FrictionKind::Ccp));
        assert_eq!(m.source.as_deref(), Some("s"));
    }

    #[test]
    fn entries_that_are_not_files_are_named() {
        let dir = temp("notafile");
        std::fs::create_dir_all(dir.join("W.npy")).unwrap();
        let e = load(&dir).unwrap_err().to_string();
        assert!(e.contains("W.npy: not a regular file (a directory)"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
        let lcp = Lcp::new(
            Matrix::Dense(DMatrix::identity(2, 2)),
            DVector::from_vec(vec![-1.0, 1.0]),
        )
        .unwrap();
        write(&dir, "l", &AnyProblem::Lcp(lcp), None).unwrap();
        std::fs::remove_file(dir.join("meta.json")).unwrap();
        std::fs::create_dir(dir.join("meta.json")).unwrap();
        let e = load(&dir).unwrap_err().to_string();
        assert!(
            e.contains("meta.json: not a regular file (a directory)"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn fc3d() -> FrictionContact {
        FrictionContact::new(
            Matrix::Dense(DMatrix::identity(3, 3) * 2.0),
            DVector::from_vec(vec![-1.0, 0.0, 0.0]),
            DVector::from_vec(vec![0.5]),
            FrictionKind::Coulomb,
        )
        .unwrap()
    }

    /// Issue 8: a 30-byte file can declare a 2^20 x 2^20 sparse matrix; the writer made it
    /// dense (8.8 TB) and aborted.
    #[test]
    fn writer_refuses_a_matrix_too_large_to_make_dense() {
        let n = 1 << 20;
        let a = Matrix::from_triplets(n, n, &[(0, 0, 1.0), (n - 1, n - 1, 1.0)]).unwrap();
        let lcp = Lcp::new(a, DVector::zeros(n)).unwrap();
        let dir = temp("huge");
        let e = write(&dir, "huge", &AnyProblem::Lcp(lcp), None).unwrap_err();
        assert!(
            matches!(
                &e.kind,
                IoErrorKind::Problem(crate::problem::ProblemError::TooLarge { rows, cols, .. })
                    if *rows == n && *cols == n
            ),
            "{e}"
        );
        assert!(e.to_string().contains("the NumPy writer (A.npy)"), "{e}");
        assert!(!dir.exists());
    }

    /// Issue 8: writing into a folder that held another problem left its arrays behind,
    /// and they were read back as the old problem.
    #[test]
    fn writer_replaces_an_old_problem_folder_whole() {
        let dir = temp("replace");
        let ans = EngineAnswer {
            source: "x".into(),
            r: vec![0.5, 0.0, 0.0],
            u: Some(vec![0.0, 0.0, 0.0]),
        };
        write(&dir, "fc", &AnyProblem::Friction(fc3d()), Some(&ans)).unwrap();
        assert!(dir.join("W.npy").exists() && dir.join("u.npy").exists());
        let lcp = Lcp::new(
            Matrix::Dense(DMatrix::identity(2, 2)),
            DVector::from_vec(vec![-1.0, 1.0]),
        )
        .unwrap();
        write(&dir, "lcp", &AnyProblem::Lcp(lcp.clone()), None).unwrap();
        let back = load(&dir).unwrap();
        match back.problem {
            AnyProblem::Lcp(p) => assert_eq!(p, lcp),
            p => panic!("read back as {}", p.type_name()),
        }
        assert!(back.answer.is_none());
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["A.npy", "b.npy", "meta.json"]);
        // no temporary folder is left beside it
        let parent = dir.parent().unwrap();
        let stem = dir.file_name().unwrap().to_string_lossy().into_owned();
        for e in std::fs::read_dir(parent).unwrap() {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            assert!(
                !n.starts_with(&format!(".{stem}.nonsmooth-")),
                "{n} left behind"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writer_refuses_a_folder_with_foreign_files() {
        let dir = temp("foreign");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("W.npy"), b"old").unwrap();
        std::fs::write(dir.join("notes.txt"), b"mine").unwrap();
        let e = write(&dir, "fc", &AnyProblem::Friction(fc3d()), None).unwrap_err();
        assert!(matches!(e.kind, IoErrorKind::Refused(_)), "{e}");
        assert!(
            e.to_string().contains("the folder holds `notes.txt`"),
            "{e}"
        );
        assert_eq!(std::fs::read(dir.join("notes.txt")).unwrap(), b"mine");
        assert_eq!(std::fs::read(dir.join("W.npy")).unwrap(), b"old");
        // a subfolder under a known name is not replaced either
        std::fs::remove_file(dir.join("notes.txt")).unwrap();
        std::fs::remove_file(dir.join("W.npy")).unwrap();
        std::fs::create_dir(dir.join("W.npy")).unwrap();
        std::fs::write(dir.join("W.npy/keep"), b"k").unwrap();
        let e = write(&dir, "fc", &AnyProblem::Friction(fc3d()), None).unwrap_err();
        assert!(
            e.to_string().contains("`W.npy` in the folder is a folder"),
            "{e}"
        );
        assert!(dir.join("W.npy/keep").exists());
        std::fs::remove_dir_all(&dir).unwrap();
        // a regular file where the folder should go
        std::fs::write(&dir, b"a file").unwrap();
        let e = write(&dir, "fc", &AnyProblem::Friction(fc3d()), None).unwrap_err();
        assert!(
            e.to_string()
                .contains("the output is a regular file, not a folder"),
            "{e}"
        );
        assert_eq!(std::fs::read(&dir).unwrap(), b"a file");
        std::fs::remove_file(&dir).unwrap();
        // an empty folder is fine
        std::fs::create_dir_all(&dir).unwrap();
        write(&dir, "fc", &AnyProblem::Friction(fc3d()), None).unwrap();
        assert_eq!(load(&dir).unwrap().problem.type_name(), "fc3d");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
