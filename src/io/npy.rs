//! NumPy folders: a problem as a directory of `.npy` arrays, for exchange with Python.
//!
//! A Python user writes the arrays with `numpy.save` and points `nonsmooth` at the folder;
//! [`write`](fn@write) produces the same layout for a problem the crate made, so that it can be
//! read back with `numpy.load`. Arrays are `float64` (`dep` is `int64`), C or Fortran order.
//!
//! | problem | files | shapes |
//! |---|---|---|
//! | fc3d | `W.npy`, `q.npy`, `mu.npy` | `(3nc, 3nc)`, `(3nc,)`, `(nc,)` |
//! | gfc3d | `M.npy`, `H.npy`, `q.npy`, `b.npy`, `mu.npy` | `(ndof, ndof)`, `(ndof, 3nc)`, `(ndof,)`, `(3nc,)`, `(nc,)` |
//! | LCP | `A.npy`, `b.npy` | `(n, n)`, `(n,)` |
//! | boxed LCP | `A.npy`, `b.npy`, `lo.npy`, `hi.npy`, `dep.npy`, `factor.npy` | `(n, n)`, then `(n,)` each; `±inf` bounds allowed; `dep = -1` for fixed bounds |
//!
//! Optional: `r.npy` (an engine's answer, `(3nc,)` or `(n,)`), `u.npy` (its velocity), and
//! `meta.json` with `{"name", "law": "coulomb" | "ccp", "source", "description"}`
//! (the law defaults to Coulomb).
//!
//! The arrays go through `ndarray` (`ndarray-npy` reads and writes the files) and are then
//! converted to the crate's `nalgebra` types. A header whose shape is not backed by the
//! file's length is rejected before anything is allocated.

use std::path::Path;

use nalgebra::{DMatrix, DVector};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use ndarray_npy::{ReadNpyExt, WriteNpyExt};
use serde::{Deserialize, Serialize};

use super::{AnyProblem, Format, IoError, IoErrorKind, LoadedProblem, Provenance};
use crate::matrix::Matrix;
use crate::problem::{
    BoxedLcp, EngineAnswer, FrictionContact, FrictionKind, GlobalFrictionContact, Lcp, RowBound,
};

/// `true` if `dir` holds `W.npy`, `A.npy` or `M.npy`.
pub fn is_problem_folder(dir: &Path) -> bool {
    ["W.npy", "A.npy", "M.npy"]
        .iter()
        .any(|f| super::has_entry(dir, f))
}

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
}

/// A dense `nalgebra` matrix from an `ndarray` view (any memory order).
pub fn dmatrix_from_array(a: ArrayView2<f64>) -> DMatrix<f64> {
    DMatrix::from_fn(a.nrows(), a.ncols(), |i, j| a[(i, j)])
}

/// A `nalgebra` vector from an `ndarray` view.
pub fn dvector_from_array(a: ArrayView1<f64>) -> DVector<f64> {
    DVector::from_iterator(a.len(), a.iter().copied())
}

/// The `ndarray` form of a matrix (dense copy).
pub fn array_from_matrix(m: &Matrix) -> Array2<f64> {
    let d = m.to_dense();
    Array2::from_shape_fn((d.nrows(), d.ncols()), |(i, j)| d[(i, j)])
}

/// The `ndarray` form of a vector.
pub fn array_from_dvector(v: &DVector<f64>) -> Array1<f64> {
    Array1::from_iter(v.iter().copied())
}

/// Number of elements the `.npy` header announces, checked against the file length.
fn check_header(path: &Path, bytes: &[u8], elem: usize) -> Result<(), IoError> {
    let bad = |m: &str| IoError::parse(path, "header", m.to_string());
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(bad("not a .npy file (magic string missing)"));
    }
    let (hlen, start): (usize, usize) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        _ => return Err(bad("unsupported .npy version")),
    };
    let header = bytes
        .get(start..start.saturating_add(hlen))
        .ok_or_else(|| bad("truncated header"))?;
    let header = String::from_utf8_lossy(header);
    let shape_at = header
        .find("'shape'")
        .ok_or_else(|| bad("no shape in header"))?;
    let rest = &header[shape_at..];
    let open = rest.find('(').ok_or_else(|| bad("malformed shape"))?;
    let close = rest.find(')').ok_or_else(|| bad("malformed shape"))?;
    let mut count: usize = 1;
    for dim in rest[open + 1..close]
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let d: usize = dim.parse().map_err(|_| bad("malformed shape"))?;
        count = count.checked_mul(d).ok_or_else(|| bad("shape overflows"))?;
    }
    let data = bytes.len() - (start + hlen);
    if count.checked_mul(elem).is_none_or(|need| need > data) {
        return Err(bad(&format!(
            "the header announces {count} elements, the file holds fewer"
        )));
    }
    Ok(())
}

fn read_bytes(path: &Path) -> Result<Vec<u8>, IoError> {
    super::read_file(path)
}

fn npy_err(path: &Path, e: impl std::fmt::Display) -> IoError {
    IoError::parse(path, "data", e.to_string())
}

fn read_matrix(dir: &Path, name: &str) -> Result<Matrix, IoError> {
    let path = dir.join(name);
    let bytes = read_bytes(&path)?;
    check_header(&path, &bytes, 8)?;
    let a = Array2::<f64>::read_npy(&bytes[..]).map_err(|e| npy_err(&path, e))?;
    Ok(Matrix::Dense(dmatrix_from_array(a.view())))
}

fn read_vector(dir: &Path, name: &str) -> Result<DVector<f64>, IoError> {
    let path = dir.join(name);
    let bytes = read_bytes(&path)?;
    check_header(&path, &bytes, 8)?;
    let a = Array1::<f64>::read_npy(&bytes[..]).map_err(|e| npy_err(&path, e))?;
    Ok(dvector_from_array(a.view()))
}

fn read_ints(dir: &Path, name: &str) -> Result<Vec<i64>, IoError> {
    let path = dir.join(name);
    let bytes = read_bytes(&path)?;
    check_header(&path, &bytes, 8)?;
    let a = Array1::<i64>::read_npy(&bytes[..]).map_err(|e| npy_err(&path, e))?;
    Ok(a.to_vec())
}

/// Reads a NumPy folder (see the [module table](self)).
///
/// # Errors
/// Missing or malformed arrays, shapes that do not fit together, NaN, negative `mu`
/// ([`IoErrorKind::Problem`]), an unreadable `meta.json`.
pub fn load(dir: &Path) -> Result<LoadedProblem, IoError> {
    let meta: Meta = match std::fs::read(dir.join("meta.json")) {
        Ok(b) => serde_json::from_slice(&b).map_err(|e| {
            IoError::parse(
                dir.join("meta.json"),
                format!("line {}", e.line()),
                e.to_string(),
            )
        })?,
        Err(_) => Meta::default(),
    };
    let law = meta.law.unwrap_or_default();
    let prob = |e| IoError::new(dir, IoErrorKind::Problem(e));
    let has = |f: &str| super::has_entry(dir, f);
    let problem = if has("W.npy") {
        AnyProblem::Friction(
            FrictionContact::new(
                read_matrix(dir, "W.npy")?,
                read_vector(dir, "q.npy")?,
                read_vector(dir, "mu.npy")?,
                law,
            )
            .map_err(prob)?,
        )
    } else if has("M.npy") {
        AnyProblem::Global(
            GlobalFrictionContact::new(
                read_matrix(dir, "M.npy")?,
                read_matrix(dir, "H.npy")?,
                read_vector(dir, "q.npy")?,
                read_vector(dir, "b.npy")?,
                read_vector(dir, "mu.npy")?,
                law,
            )
            .map_err(prob)?,
        )
    } else if has("A.npy") {
        let a = read_matrix(dir, "A.npy")?;
        let b = read_vector(dir, "b.npy")?;
        if has("lo.npy") || has("hi.npy") || has("dep.npy") {
            let lo = read_vector(dir, "lo.npy")?;
            let hi = read_vector(dir, "hi.npy")?;
            let dep = read_ints(dir, "dep.npy")?;
            let factor = read_vector(dir, "factor.npy")?;
            AnyProblem::Boxed(
                BoxedLcp::from_opentissue(
                    a,
                    b,
                    lo.as_slice(),
                    hi.as_slice(),
                    &dep,
                    factor.as_slice(),
                )
                .map_err(prob)?,
            )
        } else {
            AnyProblem::Lcp(Lcp::new(a, b).map_err(prob)?)
        }
    } else {
        return Err(IoError::new(dir, IoErrorKind::UnknownFormat));
    };
    let answer = if has("r.npy") {
        let r = read_vector(dir, "r.npy")?;
        let u = if has("u.npy") {
            Some(read_vector(dir, "u.npy")?.as_slice().to_vec())
        } else {
            None
        };
        let ans = EngineAnswer {
            source: meta.source.clone().unwrap_or_else(|| "r.npy".to_string()),
            r: r.as_slice().to_vec(),
            u,
        };
        ans.validate(problem.dim()).map_err(prob)?;
        Some(ans)
    } else {
        None
    };
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
            units: Default::default(),
        },
        warm_start: None,
        warnings: Vec::new(),
    })
}

fn write_array<T: WriteNpyExt>(dir: &Path, name: &str, a: &T) -> Result<(), IoError> {
    let path = dir.join(name);
    let file = std::fs::File::create(&path).map_err(|e| IoError::new(&path, IoErrorKind::Io(e)))?;
    a.write_npy(std::io::BufWriter::new(file))
        .map_err(|e| IoError::parse(&path, "write", e.to_string()))
}

/// Writes `problem` (and an answer) as a NumPy folder `dir` (created if absent).
/// Matrices are written dense.
///
/// # Errors
/// What the file system reports.
pub fn write(
    dir: &Path,
    name: &str,
    problem: &AnyProblem,
    answer: Option<&EngineAnswer>,
) -> Result<(), IoError> {
    std::fs::create_dir_all(dir).map_err(|e| IoError::new(dir, IoErrorKind::Io(e)))?;
    let v = |x: &DVector<f64>| array_from_dvector(x);
    let mut law = None;
    match problem {
        AnyProblem::Lcp(p) => {
            write_array(dir, "A.npy", &array_from_matrix(p.a()))?;
            write_array(dir, "b.npy", &v(p.b()))?;
        }
        AnyProblem::Boxed(p) => {
            write_array(dir, "A.npy", &array_from_matrix(p.a()))?;
            write_array(dir, "b.npy", &v(p.b()))?;
            let n = p.dim();
            let (mut lo, mut hi, mut dep, mut factor) = (
                Array1::zeros(n),
                Array1::zeros(n),
                Array1::<i64>::zeros(n),
                Array1::zeros(n),
            );
            for (i, bound) in p.row_bounds().iter().enumerate() {
                match *bound {
                    RowBound::Fixed { lo: l, hi: h } => {
                        lo[i] = l;
                        hi[i] = h;
                        dep[i] = -1;
                    }
                    RowBound::Friction { dep: d, factor: f } => {
                        dep[i] = d as i64;
                        factor[i] = f;
                    }
                }
            }
            write_array(dir, "lo.npy", &lo)?;
            write_array(dir, "hi.npy", &hi)?;
            write_array(dir, "dep.npy", &dep)?;
            write_array(dir, "factor.npy", &factor)?;
        }
        AnyProblem::Friction(p) => {
            write_array(dir, "W.npy", &array_from_matrix(p.w()))?;
            write_array(dir, "q.npy", &v(p.q()))?;
            write_array(dir, "mu.npy", &v(p.mu()))?;
            law = Some(p.kind());
        }
        AnyProblem::Global(p) => {
            write_array(dir, "M.npy", &array_from_matrix(p.m()))?;
            write_array(dir, "H.npy", &array_from_matrix(p.h()))?;
            write_array(dir, "q.npy", &v(p.q()))?;
            write_array(dir, "b.npy", &v(p.b()))?;
            write_array(dir, "mu.npy", &v(p.mu()))?;
            law = Some(p.kind());
        }
    }
    if let Some(a) = answer {
        write_array(dir, "r.npy", &Array1::from(a.r.clone()))?;
        if let Some(u) = &a.u {
            write_array(dir, "u.npy", &Array1::from(u.clone()))?;
        }
    }
    let meta = Meta {
        name: Some(name.to_string()),
        law,
        source: answer.map(|a| a.source.clone()),
        description: None,
    };
    let path = dir.join("meta.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&meta).expect("plain data") + "\n",
    )
    .map_err(|e| IoError::new(&path, IoErrorKind::Io(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_through_numpy_files() {
        let dir = std::env::temp_dir().join(format!("nonsmooth_npy_{}", std::process::id()));
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
        assert!(load(&dir).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
