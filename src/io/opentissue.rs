//! OpenTissue `.dlm` dumps: one problem per folder.
//!
//! # Format (source: `data/README.md`)
//! * `A.dlm`: `rows cols nnz`, then `nnz` triplets `i j value` (zero-based row `i`,
//!   column `j`; duplicates are summed).
//! * `b.dlm`, `lo.dlm`, `hi.dlm`, `dep.dlm`, `factor.dlm`, `lambda.dlm`: `n`, then lines
//!   `i value`; an index absent from the file is zero.
//!
//! The problem is `w = A x + b`. With `lo, hi, dep, factor` it is a boxed LCP built by
//! [`BoxedLcp::from_opentissue`]: row `i` has bounds `lo_i, hi_i`, except where
//! `dep_i >= 0`, where the bounds are `-factor_i x[dep_i]` and `factor_i x[dep_i]`
//! (friction rows bounded by their normal row). OpenTissue writes `DBL_MAX` (printed as
//! `1.79769313486232e+308`, which rounds to infinity) for an unbounded side; both read
//! as infinite bounds. With only `A` and `b` (folder `4` of the shared data) the problem
//! is a plain [`Lcp`]. `lambda.dlm` is OpenTissue's initial guess (zeros in the shared
//! dumps), not a solution: it is returned as the warm start, never as an answer.
//!
//! # Errors
//! A missing `A.dlm` or `b.dlm`, only some of the four bound files, malformed lines
//! (naming file, token and line), an index out of range or repeated, a header whose
//! count does not match the lines that follow, a `dep` that is not an integer, and
//! sizes that do not agree. NaN and infinities in `A` or `b`, a NaN bound and invalid
//! dependencies are rejected by the problem constructors ([`IoErrorKind::Problem`]).
//! A dimension is accepted only if the file backs it with at least as many entries, or
//! it is at most [`super::MAX_UNBACKED_DIM`]: a three-number header cannot make the
//! reader allocate gigabytes.

use std::path::{Path, PathBuf};

use nalgebra::DVector;

use super::text::Tokens;
use super::{
    AnyProblem, Format, IoError, IoErrorKind, LoadedProblem, MAX_UNBACKED_DIM, Provenance,
};
use crate::matrix::Matrix;
use crate::problem::{BoxedLcp, Lcp};

/// The contents of an OpenTissue matrix file (`A.dlm`).
#[derive(Debug, Clone, PartialEq)]
pub struct DlmMatrix {
    /// Rows.
    pub nrows: usize,
    /// Columns.
    pub ncols: usize,
    /// `(i, j, value)` in file order.
    pub entries: Vec<(usize, usize, f64)>,
}

impl DlmMatrix {
    /// The sparse matrix (duplicates summed); `None` if an entry lies outside the shape
    /// (never for what [`parse_matrix`] returns).
    pub fn to_matrix(&self) -> Option<Matrix> {
        Matrix::from_triplets(self.nrows, self.ncols, &self.entries)
    }
}

/// The contents of an OpenTissue vector file: its length and the entries present.
#[derive(Debug, Clone, PartialEq)]
pub struct DlmVector {
    /// `n`.
    pub len: usize,
    /// `(i, value)` in file order; indices are distinct and below `len`.
    pub entries: Vec<(usize, f64)>,
}

impl DlmVector {
    /// The dense vector, absent indices zero.
    pub fn to_dense(&self) -> Vec<f64> {
        let mut v = vec![0.0; self.len];
        for &(i, x) in &self.entries {
            v[i] = x;
        }
        v
    }
}

fn check_dim(t: &Tokens, idx: usize, dim: usize, backed: usize, what: &str) -> Result<(), IoError> {
    if dim > MAX_UNBACKED_DIM && dim > backed {
        return Err(t.err_at(
            idx,
            format!(
                "{what} = {dim} is implausible: the file stores only {backed} entries \
                 (dimensions above {MAX_UNBACKED_DIM} must be backed by as many entries)"
            ),
        ));
    }
    Ok(())
}

/// Parses a matrix file: `rows cols nnz`, then exactly `nnz` triplets `i j value`.
///
/// # Errors
/// Malformed numbers, an index out of range, a count that does not match, anything
/// after the last triplet.
pub fn parse_matrix(path: &Path, bytes: &[u8]) -> Result<DlmMatrix, IoError> {
    let mut t = Tokens::new(path, bytes);
    if t.len() == 0 {
        return Err(t.err("the file is empty"));
    }
    let r_idx = t.pos();
    let nrows = t.next_usize("the row count")?;
    let c_idx = t.pos();
    let ncols = t.next_usize("the column count")?;
    let n_idx = t.pos();
    let nnz = t.next_usize("the number of entries nnz")?;
    let tokens = nnz
        .checked_mul(3)
        .ok_or_else(|| t.err_at(n_idx, format!("nnz = {nnz} is too large")))?;
    t.need(tokens, &format!("{nnz} triplets `i j value`"))?;
    if t.remaining() > tokens {
        return Err(t.err_at(
            t.pos() + tokens,
            format!(
                "the header announces {nnz} entries, but more tokens follow them ({} extra)",
                t.remaining() - tokens
            ),
        ));
    }
    check_dim(&t, r_idx, nrows, nnz, "the row count")?;
    check_dim(&t, c_idx, ncols, nnz, "the column count")?;
    let mut entries = Vec::with_capacity(nnz);
    for k in 0..nnz {
        let i_idx = t.pos();
        let i = t.next_usize_lazy(|| format!("the row of entry {k}"))?;
        let j = t.next_usize_lazy(|| format!("the column of entry {k}"))?;
        let v = t.next_f64_lazy(|| format!("the value of entry {k}"))?;
        if i >= nrows || j >= ncols {
            return Err(t.err_at(
                i_idx,
                format!("entry ({i}, {j}) is outside the {nrows} x {ncols} matrix"),
            ));
        }
        entries.push((i, j, v));
    }
    Ok(DlmMatrix {
        nrows,
        ncols,
        entries,
    })
}

/// Parses a vector file: `n`, then lines `i value` (any number, distinct `i < n`).
///
/// # Errors
/// Malformed numbers, a dangling index without value, an index out of range or
/// repeated.
pub fn parse_vector(path: &Path, bytes: &[u8]) -> Result<DlmVector, IoError> {
    let mut t = Tokens::new(path, bytes);
    if t.len() == 0 {
        return Err(t.err("the file is empty"));
    }
    let n_idx = t.pos();
    let len = t.next_usize("the length n")?;
    if t.remaining() % 2 != 0 {
        return Err(t.err_at(
            t.len() - 1,
            "expected lines of two numbers `i value`; the last index has no value",
        ));
    }
    let count = t.remaining() / 2;
    check_dim(&t, n_idx, len, count, "the length")?;
    let mut seen = vec![false; len];
    let mut entries = Vec::with_capacity(count);
    while t.remaining() > 0 {
        let i_idx = t.pos();
        let i = t.next_usize("an index")?;
        let v = t.next_f64_unbounded(&format!("the value at index {i}"))?;
        if i >= len {
            return Err(t.err_at(i_idx, format!("index {i} is out of range (n = {len})")));
        }
        if std::mem::replace(&mut seen[i], true) {
            return Err(t.err_at(i_idx, format!("index {i} appears twice")));
        }
        entries.push((i, v));
    }
    Ok(DlmVector { len, entries })
}

/// A problem read from an OpenTissue folder.
#[derive(Debug)]
pub struct OpenTissueProblem {
    /// The folder name.
    pub name: String,
    /// [`AnyProblem::Boxed`] with bound files, else [`AnyProblem::Lcp`].
    pub problem: AnyProblem,
    /// `lambda.dlm`, OpenTissue's initial guess for `x` (not an answer), if present.
    pub warm_start: Option<Vec<f64>>,
}

/// `true` if `dir` is a folder holding an `A.dlm`.
pub fn is_problem_folder(dir: &Path) -> bool {
    super::has_entry(dir, "A.dlm")
}

fn read_file(path: &Path) -> Result<Vec<u8>, IoError> {
    super::read_file(path)
}

fn read_vector(dir: &Path, name: &str, n: usize) -> Result<Option<Vec<f64>>, IoError> {
    let path = dir.join(name);
    if !super::has_entry(dir, name) {
        return Ok(None);
    }
    let v = parse_vector(&path, &read_file(&path)?)?;
    if v.len != n {
        return Err(IoError::parse(
            &path,
            "token 1 (line 1)",
            format!("the vector has length {}, but A.dlm is {n} x {n}", v.len),
        ));
    }
    Ok(Some(v.to_dense()))
}

/// Reads the problem in folder `dir` (see the [module docs](self)).
///
/// # Errors
/// See the [module docs](self). Errors name the file concerned.
pub fn read_folder(dir: impl AsRef<Path>) -> Result<OpenTissueProblem, IoError> {
    let dir = dir.as_ref();
    let a_path = dir.join("A.dlm");
    let a = parse_matrix(&a_path, &read_file(&a_path)?)?;
    let n = a.nrows;
    if a.ncols != n {
        return Err(IoError::new(
            &a_path,
            IoErrorKind::Problem(crate::problem::ProblemError::NotSquare {
                what: "A",
                rows: a.nrows,
                cols: a.ncols,
            }),
        ));
    }
    let b = read_vector(dir, "b.dlm", n)?.ok_or_else(|| {
        IoError::new(
            dir.join("b.dlm"),
            IoErrorKind::Io(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "an OpenTissue problem needs b.dlm beside A.dlm",
            )),
        )
    })?;
    let names = ["lo.dlm", "hi.dlm", "dep.dlm", "factor.dlm"];
    let mut bounds = Vec::new();
    for name in names {
        bounds.push(read_vector(dir, name, n)?);
    }
    let present: Vec<&str> = names
        .iter()
        .zip(&bounds)
        .filter(|(_, v)| v.is_some())
        .map(|(n, _)| *n)
        .collect();
    let prob = |p: PathBuf| move |e| IoError::new(p, IoErrorKind::Problem(e));
    let a_m = a
        .to_matrix()
        .ok_or_else(|| IoError::parse(&a_path, "entries", "an entry lies outside the matrix"))?;
    let b = DVector::from_vec(b);
    let problem = if present.is_empty() {
        AnyProblem::Lcp(Lcp::new(a_m, b).map_err(prob(dir.to_path_buf()))?)
    } else if present.len() < names.len() {
        let missing: Vec<&str> = names
            .iter()
            .filter(|n| !present.contains(n))
            .copied()
            .collect();
        return Err(IoError::parse(
            dir,
            "folder",
            format!(
                "a boxed problem needs lo.dlm, hi.dlm, dep.dlm and factor.dlm; found {}, missing {}",
                present.join(", "),
                missing.join(", ")
            ),
        ));
    } else {
        let mut it = bounds.into_iter().flatten();
        let (lo, hi, dep_f, factor) = match (it.next(), it.next(), it.next(), it.next()) {
            (Some(a), Some(b), Some(c), Some(d)) => (a, b, c, d),
            _ => {
                return Err(IoError::parse(
                    dir,
                    "folder",
                    "bound files vanished while reading",
                ));
            }
        };
        let dep_path = dir.join("dep.dlm");
        let mut dep = Vec::with_capacity(n);
        for (i, &d) in dep_f.iter().enumerate() {
            if !(d.is_finite() && d.fract() == 0.0 && d.abs() < 9.0e15) {
                return Err(IoError::parse(
                    &dep_path,
                    format!("index {i}"),
                    format!("dep = {d} is not an integer row index (or -1)"),
                ));
            }
            dep.push(d as i64);
        }
        AnyProblem::Boxed(
            BoxedLcp::from_opentissue(a_m, b, &lo, &hi, &dep, &factor)
                .map_err(prob(dir.to_path_buf()))?,
        )
    };
    let warm_start = read_vector(dir, "lambda.dlm", n)?;
    let name = dir
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| dir.display().to_string());
    Ok(OpenTissueProblem {
        name,
        problem,
        warm_start,
    })
}

/// Reads the folder into a [`LoadedProblem`] (format [`Format::OpenTissue`],
/// `warm_start` = `lambda.dlm`, no answer).
pub fn load(dir: &Path) -> Result<LoadedProblem, IoError> {
    let p = read_folder(dir)?;
    let description = match &p.problem {
        AnyProblem::Boxed(_) => {
            "OpenTissue boxed LCP dump: w = A x + b, bounds lo/hi, friction rows (dep >= 0) \
             bounded by factor * x[dep]; lambda.dlm is the initial guess"
        }
        _ => "OpenTissue LCP dump (A and b only): w = A x + b, 0 <= x complementary to w >= 0",
    };
    Ok(LoadedProblem {
        path: dir.to_path_buf(),
        name: p.name,
        format: Format::OpenTissue,
        problem: p.problem,
        answer: None,
        warm_start: p.warm_start,
        warnings: Vec::new(),
        provenance: Provenance {
            source: "OpenTissue (.dlm dump)".to_string(),
            description: description.to_string(),
            units: Default::default(),
            ..Default::default()
        },
        elliptic: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Path {
        Path::new("A.dlm")
    }

    #[test]
    fn parses_matrix_and_vector() {
        let m = parse_matrix(p(), b"2 2 3\n0 0 1\n1 1 2.5\n0 1 -1\n\n").unwrap();
        assert_eq!(m.to_matrix().unwrap().get(0, 1), -1.0);
        assert_eq!(m.to_matrix().unwrap().get(1, 1), 2.5);
        let v = parse_vector(p(), b"4\n0 1\n3 1.79769313486232e+308\n").unwrap();
        assert_eq!(v.to_dense()[..3], [1.0, 0.0, 0.0]);
        assert!(v.to_dense()[3].is_infinite());
    }

    #[test]
    fn malformed_files_are_errors() {
        for text in [
            "",
            "2 2",
            "2 2 3\n0 0 1\n1 1 2\n",
            "2 2 1\n0 0 1\n1 1 2\n",
            "2 2 1\n2 0 1\n",
            "2 2 1\n0 0 x\n",
            "2 2 1\n-1 0 1\n",
            "1000000000000 1000000000000 0\n",
            "2 2 99999999999999999\n",
            "2 2 6148914691236517206\n",
        ] {
            assert!(parse_matrix(p(), text.as_bytes()).is_err(), "{text:?}");
        }
        for text in [
            "",
            "x",
            "2\n0",
            "2\n2 1\n",
            "2\n0 1\n0 2\n",
            "1000000000000\n0 1\n",
            "2\n0 nan-ish\n",
        ] {
            assert!(parse_vector(p(), text.as_bytes()).is_err(), "{text:?}");
        }
    }

    #[test]
    fn folder_errors() {
        let dir = std::env::temp_dir().join(format!("nonsmooth_ot_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("A.dlm"), "2 2 2\n0 0 1\n1 1 1\n").unwrap();
        // No b.dlm.
        assert!(read_folder(&dir).is_err());
        std::fs::write(dir.join("b.dlm"), "2\n0 -1\n").unwrap();
        let ok = read_folder(&dir).unwrap();
        assert!(matches!(ok.problem, AnyProblem::Lcp(_)));
        // Some bound files but not all.
        std::fs::write(dir.join("lo.dlm"), "2\n").unwrap();
        assert!(read_folder(&dir).is_err());
        std::fs::write(dir.join("hi.dlm"), "2\n0 1e308\n1 1e308\n").unwrap();
        std::fs::write(dir.join("dep.dlm"), "2\n0 -1\n1 0.5\n").unwrap();
        std::fs::write(dir.join("factor.dlm"), "2\n1 0.2\n").unwrap();
        assert!(read_folder(&dir).is_err()); // dep 0.5
        std::fs::write(dir.join("dep.dlm"), "2\n0 -1\n1 0\n").unwrap();
        std::fs::write(dir.join("lambda.dlm"), "2\n0 0.25\n").unwrap();
        let boxed = read_folder(&dir).unwrap();
        assert!(matches!(boxed.problem, AnyProblem::Boxed(_)));
        assert_eq!(boxed.warm_start, Some(vec![0.25, 0.0]));
        std::fs::write(dir.join("lambda.dlm"), "3\n").unwrap();
        assert!(read_folder(&dir).is_err()); // wrong length
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
