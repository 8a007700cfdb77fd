//! Answer files, written and read: what `nonsmooth solve --out FILE` keeps of a solve
//! ([`write()`]), and what `nonsmooth check --answer` and `solve --warm-start` read
//! ([`read`]).
//!
//! The written format follows the file's extension:
//!
//! | extension | contents | read back by |
//! |---|---|---|
//! | `.json` | the project's answer object: `r`, `u`, status, iterations, error (all measures), method and options, statistics, and for friction problems one record per contact ([`ContactCheck`]); for a generic mechanical problem one record per block in `blocks` ([`ContactCheck`], with the block's `law` and `dim`) | `nonsmooth check --answer`, `json.load` (Siconos's Python: `r = json.load(f)["r"]`) |
//! | `.npy` | `r` as a 1-D `float64` NumPy array (`numpy.load`) | `check --answer`, `solve --warm-start` |
//! | `.txt`, `.dat` | `r`, one number per line, shortest round-trip decimal (`numpy.loadtxt`, Siconos scripts) | `check --answer`, `solve --warm-start` |
//!
//! `r` is the unknown of the problem: `x` for an LCP or a boxed LCP, the reactions
//! `[r_n, r_t1, r_t2]` per contact for friction problems (of the local form for a global
//! problem). `u` is the matching velocity: `w = A x + b` for LCPs, `u = W r + q` for
//! friction problems. Numbers are written so that they read back bit for bit.
//!
//! [`read`] takes any of these, and more: a NumPy `.npy` 1-D `float64` array (by its
//! extension or its first bytes), a JSON array of numbers, a JSON object with `"r"`, a
//! problem file with an `"answer"`, or whitespace-separated numbers.

use std::path::Path;

use nalgebra::DVector;
use serde::Serialize;

use super::{AnyProblem, IoError, IoErrorKind};
use crate::merit::{ContactCheck, Residual, check_contacts};

/// The answer of one solve, as written by [`write()`].
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// The problem type (`"lcp"`, `"boxed-lcp"`, `"fc3d"`, `"gfc3d"`, `"gmp"`).
    #[serde(rename = "type")]
    pub problem_type: String,
    /// The friction law solved (`"coulomb"`, `"ccp"`; `None` for LCPs).
    pub kind: Option<String>,
    /// The method run and its options.
    pub method: String,
    /// All the method's options (defaults included).
    pub options: serde_json::Value,
    /// `"converged"`, `"max-iterations"`, ...
    pub status: String,
    /// Iterations done (`None` when the solve did not start).
    pub iterations: Option<usize>,
    /// The measured error of `r` in every measure.
    pub error: Option<Residual>,
    /// The method's statistics.
    pub stats: serde_json::Value,
    /// The unknown (`x` or `r`).
    pub r: Vec<f64>,
    /// The velocity (`w = A x + b` or `u = W r + q`).
    pub u: Vec<f64>,
    /// One record per contact (friction problems).
    pub contacts: Vec<ContactCheck>,
    /// One record per block of a generic mechanical problem
    /// ([`crate::check::block_records`]: a contact record's fields with the block's `law`
    /// and `dim`); absent from the JSON for the other problems.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<crate::merit::ContactCheck>,
}

impl Answer {
    /// The answer `r` of `problem` with its velocity and, for friction problems, the
    /// per-contact records of the law the problem declares.
    ///
    /// # Errors
    /// A global problem whose local form cannot be made.
    pub fn new(
        problem: &AnyProblem,
        r: &DVector<f64>,
    ) -> Result<Answer, crate::problem::ProblemError> {
        let blocks = match problem {
            AnyProblem::Generic(p) => crate::check::block_records(p, r.as_slice()),
            _ => Vec::new(),
        };
        let (u, contacts) = match problem {
            AnyProblem::Lcp(p) => (affine(p.a(), r, p.b()), Vec::new()),
            AnyProblem::Boxed(p) => (affine(p.a(), r, p.b()), Vec::new()),
            AnyProblem::Friction(p) => (p.velocity(r), check_contacts(p, r, p.kind())),
            AnyProblem::Global(g) => {
                let local = g.to_local()?;
                (local.velocity(r), check_contacts(&local, r, local.kind()))
            }
            AnyProblem::Generic(p) => (p.velocity(r), Vec::new()),
        };
        Ok(Answer {
            problem_type: problem.type_name().into(),
            kind: problem.kind().map(|k| k.name().to_string()),
            method: String::new(),
            options: serde_json::Value::Null,
            status: String::new(),
            iterations: None,
            error: None,
            stats: serde_json::Value::Null,
            r: r.as_slice().to_vec(),
            u: u.as_slice().to_vec(),
            contacts,
            blocks,
        })
    }
}

/// `A x + b`.
fn affine(a: &crate::matrix::Matrix, x: &DVector<f64>, b: &DVector<f64>) -> DVector<f64> {
    let mut w = b.clone();
    a.mul_vec_add(x, &mut w);
    w
}

/// The formats [`write()`] chooses from, by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerFormat {
    /// `.json`: the whole [`Answer`].
    Json,
    /// `.npy`: `r` as a 1-D `float64` array.
    Npy,
    /// `.txt` or `.dat`: `r`, one number per line.
    Text,
}

impl AnswerFormat {
    /// The format for `path`'s extension.
    ///
    /// # Errors
    /// A message naming the extensions there are, for any other.
    pub fn of(path: &Path) -> Result<AnswerFormat, String> {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "json" => Ok(AnswerFormat::Json),
            "npy" => Ok(AnswerFormat::Npy),
            "txt" | "dat" => Ok(AnswerFormat::Text),
            _ => Err(format!(
                "{}: the answer's format follows the extension: .json (the whole answer), \
                 .npy (r as a NumPy array) or .txt / .dat (r, one number per line)",
                path.display()
            )),
        }
    }
}

/// The bytes of `answer` in `format`.
pub fn to_bytes(answer: &Answer, format: AnswerFormat) -> Vec<u8> {
    match format {
        AnswerFormat::Json => {
            let mut s = serde_json::to_string_pretty(answer).unwrap_or_default();
            s.push('\n');
            s.into_bytes()
        }
        AnswerFormat::Npy => super::numpy::header::vector_to_npy(&answer.r),
        AnswerFormat::Text => {
            let mut s = String::new();
            for v in &answer.r {
                // `{:?}` is Rust's shortest representation that reads back exactly
                s.push_str(&format!("{v:?}\n"));
            }
            s.into_bytes()
        }
    }
}

/// Writes `answer` to `path` in the format of its extension ([`AnswerFormat::of`]),
/// through a temporary file renamed over `path`, so that a failed write leaves no
/// half-written answer.
///
/// # Errors
/// An extension that is not `.json`, `.npy`, `.txt` or `.dat`; any I/O error.
pub fn write(path: &Path, answer: &Answer) -> Result<(), IoError> {
    let format = AnswerFormat::of(path).map_err(|m| IoError::new(path, IoErrorKind::Refused(m)))?;
    super::write_atomic(path, &to_bytes(answer, format))
}

/// Reads an answer file: a NumPy `.npy` 1-D `float64` array (by its extension or its first
/// bytes), a JSON array, a JSON object with `"r"`, a problem file with an `"answer"`, or
/// whitespace-separated numbers; `dim` numbers, all finite.
///
/// # Errors
/// [`IoErrorKind::Io`] if the file cannot be read (missing, permissions),
/// [`IoErrorKind::NotAFile`], [`IoErrorKind::TooLarge`]; the `.npy` reader's errors;
/// [`IoErrorKind::Content`] if it holds something else than numbers, the wrong count, or
/// a non-finite one.
pub fn read(path: &Path, dim: usize) -> Result<Vec<f64>, IoError> {
    let bytes = super::read_file(path)?;
    let bad = |m: String| IoError::new(path, IoErrorKind::Content(m));
    let is_npy = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("npy"))
        || bytes.starts_with(b"\x93NUMPY");
    if is_npy {
        // a 1-D float64 array; the reader names a wrong dtype, rank or data length
        let v = super::numpy::header::parse_vector(path, &bytes)?;
        return finish(path, v.as_slice().to_vec(), dim);
    }
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        bad(format!(
            "the answer is not text (byte {} is not UTF-8)",
            e.valid_up_to()
        ))
    })?;
    let trimmed = text.trim_start();
    let values: Vec<f64> = if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| bad(format!("line {} column {}: {e}", e.line(), e.column())))?;
        let arr = if v.is_array() {
            &v
        } else if let Some(r) = v.get("r") {
            r
        } else if let Some(r) = v.get("answer").and_then(|a| a.get("r")) {
            r
        } else {
            return Err(bad(
                "a JSON answer is an array of numbers, an object with \"r\", or a problem \
                 file with an \"answer\""
                    .into(),
            ));
        };
        let Some(items) = arr.as_array() else {
            return Err(bad("\"r\" is not an array of numbers".into()));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, x)| {
                x.as_f64()
                    .ok_or_else(|| bad(format!("entry {i} of the answer is `{x}`, not a number")))
            })
            .collect::<Result<_, _>>()?
    } else {
        let mut v = Vec::new();
        for (i, t) in text.split_ascii_whitespace().enumerate() {
            let x = super::parse_number(t)
                .map_err(|why| bad(format!("entry {i} of the answer: {why}")))?;
            v.push(x);
        }
        v
    };
    finish(path, values, dim)
}

/// Checks the count and the finiteness of an answer's numbers.
fn finish(path: &Path, values: Vec<f64>, dim: usize) -> Result<Vec<f64>, IoError> {
    let bad = |m: String| IoError::new(path, IoErrorKind::Content(m));
    if values.len() != dim {
        return Err(bad(format!(
            "the answer has {} numbers, the problem {dim} unknowns",
            values.len()
        )));
    }
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(bad(format!(
            "entry {i} of the answer is {}, not a finite number",
            values[i]
        )));
    }
    Ok(values)
}
