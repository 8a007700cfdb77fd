//! FCLIB HDF5 files (`.hdf5`): local and global 3D frictional contact problems.
//! Needs the cargo feature `hdf5` (and the HDF5 C library, Debian `libhdf5-dev`).
//!
//! # Format (source: `data/README.md`; FCLIB 1.0, Acary et al.)
//! * Local: `/fclib_local/spacedim` (= 3), the sparse matrix `/fclib_local/W`,
//!   `/fclib_local/vectors/{q, mu}`: `u = W r + q`. Read as [`FrictionContact`]
//!   (Coulomb). An equality part (`V`, `R`, `vectors/s`) that is present and non-empty
//!   is [`IoErrorKind::Unsupported`].
//! * Global: `/fclib_global/{spacedim, M, H, G?, vectors/{f, w, mu, b?}}` with
//!   `M v = H r + G l + f`, `u = H^T v + w`. Read as [`GlobalFrictionContact`] with
//!   `q = f`, `b = w` (our `M v = q + H r`, `u = H^T v + b`). A non-empty `G` block is
//!   [`IoErrorKind::Unsupported`].
//! * A sparse matrix is a group `{m, n, nz, nzmax, p, i, x}`: `nz = -1` compressed
//!   columns (`p` = `n + 1` column pointers, `i` row indices), `nz = -2` compressed rows
//!   (`p` = `m + 1` row pointers, `i` column indices), `nz >= 0` triplets. In the real
//!   files, triplets store the **row index in `i` and the column index in `p`** (the
//!   opposite of the comment in `fclib.h`); this reader follows the files.
//! * `/fclib_*/info/{title, description, math_info}` become the provenance description.
//! * A global `M` that is symmetric only to round-off (relative asymmetry at most
//!   [`SYMMETRISE_TOL`], above the 1e-10 that [`GlobalFrictionContact::new`] accepts) is
//!   replaced by `(M + M^T) / 2`, and the provenance description says so. This is the
//!   one conversion applied to the data.
//! * The `/solution` groups of the shared files are all-zero placeholders and are not
//!   read as answers; `/guesses/1/r`, when present with the right length, becomes the
//!   warm start.
//!
//! # Errors
//! HDF5 errors (missing dataset, wrong type) are [`IoErrorKind::Parse`] naming the
//! dataset; inconsistent sparse structures and shapes likewise; NaN/inf, negative `mu`
//! and a non-SPD `M` are [`IoErrorKind::Problem`].

use std::path::Path;

use hdf5::types::{FixedAscii, FixedUnicode, VarLenAscii, VarLenUnicode};
use nalgebra::DVector;

use super::{AnyProblem, Format, IoError, IoErrorKind, LoadedProblem, Provenance};
use crate::matrix::Matrix;
use crate::problem::{FrictionContact, FrictionKind, GlobalFrictionContact};

use super::MAX_FCLIB_DATASET_ELEMENTS as MAX_DATASET_ELEMENTS;

struct Reader<'a> {
    path: &'a Path,
    file: hdf5::File,
}

impl Reader<'_> {
    fn err(&self, at: &str, e: impl std::fmt::Display) -> IoError {
        IoError::parse(self.path, at, e.to_string())
    }

    fn exists(&self, name: &str) -> bool {
        // `link_exists` only looks one level down per call: walk the path.
        let mut cur = String::new();
        for part in name.trim_start_matches('/').split('/') {
            cur.push('/');
            cur.push_str(part);
            if !self.file.link_exists(&cur) {
                return false;
            }
        }
        true
    }

    /// The dataset `name`, refused when it declares more elements than
    /// [`super::MAX_FCLIB_DATASET_ELEMENTS`]: the reader allocates what the dataspace declares, and a
    /// damaged 17 KB file can declare 2^61.
    fn dataset(&self, name: &str) -> Result<hdf5::Dataset, IoError> {
        let ds = self.file.dataset(name).map_err(|e| self.err(name, e))?;
        let n = ds.size();
        if n > MAX_DATASET_ELEMENTS {
            return Err(self.err(
                name,
                format!(
                    "the dataset declares {n} elements, more than the {MAX_DATASET_ELEMENTS} \
                     this reader accepts"
                ),
            ));
        }
        Ok(ds)
    }

    /// An integer dataset. One stored as floating point is read only if every value is a
    /// whole number (HDF5's conversion would truncate `6.5` to `6` silently).
    fn ints(&self, name: &str) -> Result<Vec<i64>, IoError> {
        use hdf5::types::TypeDescriptor;
        let ds = self.dataset(name)?;
        let integer = ds
            .dtype()
            .ok()
            .and_then(|t| t.to_descriptor().ok())
            .is_some_and(|d| matches!(d, TypeDescriptor::Integer(_) | TypeDescriptor::Unsigned(_)));
        if integer {
            return ds.read_raw::<i64>().map_err(|e| self.err(name, e));
        }
        let values = ds.read_raw::<f64>().map_err(|e| self.err(name, e))?;
        let whole =
            |v: f64| v.is_finite() && v.fract() == 0.0 && v.abs() <= 9.007_199_254_740_992e15;
        if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !whole(**v)) {
            return Err(self.err(
                name,
                format!("entry {i} is {v:?}, not a whole number; this dataset holds integers"),
            ));
        }
        Ok(values.iter().map(|&v| v as i64).collect())
    }

    fn floats(&self, name: &str) -> Result<Vec<f64>, IoError> {
        let ds = self.dataset(name)?;
        ds.read_raw::<f64>().map_err(|e| self.err(name, e))
    }

    fn int(&self, name: &str) -> Result<i64, IoError> {
        let v = self.ints(name)?;
        match v.as_slice() {
            [x] => Ok(*x),
            _ => Err(self.err(name, format!("expected one integer, found {}", v.len()))),
        }
    }

    fn size(&self, name: &str) -> Result<usize, IoError> {
        let v = self.int(name)?;
        usize::try_from(v).map_err(|_| self.err(name, format!("expected a size, found {v}")))
    }

    /// A string dataset as text. Bytes are read raw and decoded leniently: the shared
    /// `CubeH8.hdf5` stores a non-ASCII byte in an "ASCII" string.
    fn string(&self, name: &str) -> Option<String> {
        let ds = self.dataset(name).ok()?;
        let bytes: Vec<u8> = if let Ok(s) = ds.read_scalar::<FixedAscii<4096>>() {
            s.as_bytes().to_vec()
        } else if let Ok(s) = ds.read_scalar::<FixedUnicode<4096>>() {
            s.as_bytes().to_vec()
        } else if let Ok(s) = ds.read_scalar::<VarLenAscii>() {
            s.as_bytes().to_vec()
        } else {
            ds.read_scalar::<VarLenUnicode>().ok()?.as_bytes().to_vec()
        };
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        Some(
            String::from_utf8_lossy(&bytes[..end])
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect(),
        )
    }

    fn index(&self, at: &str, v: i64, bound: usize) -> Result<usize, IoError> {
        match usize::try_from(v) {
            Ok(u) if u < bound => Ok(u),
            _ => Err(self.err(at, format!("index {v} is out of range 0..{bound}"))),
        }
    }

    /// Reads the sparse matrix group `g` and checks it is `shape`.
    fn sparse(&self, g: &str, shape: (usize, usize), why: &str) -> Result<Matrix, IoError> {
        let m = self.size(&format!("{g}/m"))?;
        let n = self.size(&format!("{g}/n"))?;
        if (m, n) != shape {
            return Err(self.err(
                g,
                format!(
                    "the matrix is {m} x {n}, but {why} requires {} x {}",
                    shape.0, shape.1
                ),
            ));
        }
        let nz = self.int(&format!("{g}/nz"))?;
        let (pn, iname, xn) = (format!("{g}/p"), format!("{g}/i"), format!("{g}/x"));
        let p = self.ints(&pn)?;
        let i = self.ints(&iname)?;
        let x = self.floats(&xn)?;
        let mut trip = Vec::new();
        match nz {
            -1 | -2 => {
                // Compressed columns (-1) or rows (-2).
                let (outer, inner) = if nz == -1 { (n, m) } else { (m, n) };
                if p.len() < outer + 1 {
                    return Err(self.err(
                        &pn,
                        format!("expected {} pointers, found {}", outer + 1, p.len()),
                    ));
                }
                let mut prev = 0usize;
                let mut ptr = Vec::with_capacity(outer + 1);
                for (k, &v) in p.iter().take(outer + 1).enumerate() {
                    let u = usize::try_from(v)
                        .ok()
                        .filter(|&u| u >= prev && (k > 0 || u == 0));
                    match u {
                        Some(u) => {
                            ptr.push(u);
                            prev = u;
                        }
                        None => {
                            return Err(self.err(
                                &pn,
                                format!(
                                    "pointer {k} = {v}: pointers start at 0 and never decrease"
                                ),
                            ));
                        }
                    }
                }
                let nnz = ptr[outer];
                if nnz > i.len() || nnz > x.len() {
                    return Err(self.err(
                        g,
                        format!(
                            "the pointers announce {nnz} entries, but i has {} and x has {}",
                            i.len(),
                            x.len()
                        ),
                    ));
                }
                for o in 0..outer {
                    for k in ptr[o]..ptr[o + 1] {
                        let idx = self.index(&iname, i[k], inner)?;
                        trip.push(if nz == -1 {
                            (idx, o, x[k])
                        } else {
                            (o, idx, x[k])
                        });
                    }
                }
            }
            nz if nz >= 0 => {
                let nnz = nz as usize;
                if nnz > i.len() || nnz > p.len() || nnz > x.len() {
                    return Err(self.err(
                        g,
                        format!(
                            "nz = {nnz} triplets, but i has {}, p has {} and x has {}",
                            i.len(),
                            p.len(),
                            x.len()
                        ),
                    ));
                }
                for k in 0..nnz {
                    // Row in `i`, column in `p` (see the module docs).
                    let r = self.index(&iname, i[k], m)?;
                    let c = self.index(&pn, p[k], n)?;
                    trip.push((r, c, x[k]));
                }
            }
            other => {
                return Err(self.err(
                    &format!("{g}/nz"),
                    format!("nz = {other}: expected -1 (CSC), -2 (CSR) or a triplet count"),
                ));
            }
        }
        Matrix::from_triplets(m, n, &trip)
            .ok_or_else(|| self.err(g, "an entry lies outside the matrix"))
    }

    /// `true` if the optional matrix group `g` exists with a non-zero size or entries.
    fn non_empty(&self, g: &str) -> Result<bool, IoError> {
        if !self.exists(g) {
            return Ok(false);
        }
        let m = self.size(&format!("{g}/m")).unwrap_or(0);
        let n = self.size(&format!("{g}/n")).unwrap_or(0);
        Ok(m > 0 && n > 0)
    }

    fn spacedim(&self, root: &str) -> Result<(), IoError> {
        let name = format!("{root}/spacedim");
        let d = self.int(&name)?;
        if d != 3 {
            return Err(IoError::new(
                self.path,
                IoErrorKind::Unsupported(format!(
                    "{name} = {d}: only 3D friction (spacedim = 3) is supported"
                )),
            ));
        }
        Ok(())
    }

    fn description(&self, root: &str) -> String {
        let mut parts = Vec::new();
        for key in ["title", "description", "math_info"] {
            if let Some(s) = self.string(&format!("{root}/info/{key}")) {
                let s = s.trim();
                if !s.is_empty() {
                    parts.push(format!(
                        "{key}: {}",
                        s.split_whitespace().collect::<Vec<_>>().join(" ")
                    ));
                }
            }
        }
        parts.join("; ")
    }

    fn guess(&self, dim: usize) -> Option<Vec<f64>> {
        let r = self.floats("/guesses/1/r").ok()?;
        (r.len() == dim && r.iter().all(|v| v.is_finite())).then_some(r)
    }
}

fn open(path: &Path) -> Result<Reader<'_>, IoError> {
    let file = hdf5::File::open(path).map_err(|e| {
        if path.exists() {
            IoError::parse(path, "file", format!("not a readable HDF5 file: {e}"))
        } else {
            IoError::new(
                path,
                IoErrorKind::Io(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    e.to_string(),
                )),
            )
        }
    })?;
    Ok(Reader { path, file })
}

fn prob(path: &Path) -> impl Fn(crate::problem::ProblemError) -> IoError + '_ {
    move |e| IoError::new(path, IoErrorKind::Problem(e))
}

fn read_local_with(r: &Reader) -> Result<FrictionContact, IoError> {
    let root = "/fclib_local";
    r.spacedim(root)?;
    let q = r.floats(&format!("{root}/vectors/q"))?;
    let mu = r.floats(&format!("{root}/vectors/mu"))?;
    for g in ["V", "R"] {
        if r.non_empty(&format!("{root}/{g}"))? {
            return Err(IoError::new(
                r.path,
                IoErrorKind::Unsupported(format!(
                    "{root}/{g}: local problems with an equality part (V, R, s) are not supported"
                )),
            ));
        }
    }
    let n = q.len();
    let w = r.sparse(&format!("{root}/W"), (n, n), &format!("q of length {n}"))?;
    FrictionContact::new(
        w,
        DVector::from_vec(q),
        DVector::from_vec(mu),
        FrictionKind::Coulomb,
    )
    .map_err(prob(r.path))
}

/// Relative asymmetry of `M` above which [`GlobalFrictionContact::new`] refuses it.
const PROBLEM_SYMMETRY_TOL: f64 = crate::problem::SYMMETRY_TOL;

/// Largest relative asymmetry of `M` that this reader repairs by symmetrising,
/// `M <- (M + M^T) / 2`. FCLIB's `CubeH8.hdf5` (a finite-element mass matrix) has
/// 1.5e-7: assembly round-off plus tiny entries stored on one side only.
pub const SYMMETRISE_TOL: f64 = 1e-6;

fn symmetrise(m: &Matrix) -> Option<Matrix> {
    let csr = m.to_csr();
    let mut trip = Vec::with_capacity(2 * csr.nnz());
    for (i, row) in csr.row_iter().enumerate() {
        for (&j, &v) in row.col_indices().iter().zip(row.values()) {
            trip.push((i, j, 0.5 * v));
            trip.push((j, i, 0.5 * v));
        }
    }
    Matrix::from_triplets(m.nrows(), m.ncols(), &trip)
}

/// Reads the global problem; the second value is the relative asymmetry of `M` when the
/// reader symmetrised it.
fn read_global_with(r: &Reader) -> Result<(GlobalFrictionContact, Option<f64>), IoError> {
    let root = "/fclib_global";
    r.spacedim(root)?;
    if r.non_empty(&format!("{root}/G"))? {
        return Err(IoError::new(
            r.path,
            IoErrorKind::Unsupported(format!(
                "{root}/G: global problems with an equality block G (M v = H r + G l + f) are not supported"
            )),
        ));
    }
    let f = r.floats(&format!("{root}/vectors/f"))?;
    let w = r.floats(&format!("{root}/vectors/w"))?;
    let mu = r.floats(&format!("{root}/vectors/mu"))?;
    let (ndof, dim) = (f.len(), w.len());
    let mut m = r.sparse(
        &format!("{root}/M"),
        (ndof, ndof),
        &format!("f of length {ndof}"),
    )?;
    let asym = m.relative_asymmetry();
    let mut repaired = None;
    if asym > PROBLEM_SYMMETRY_TOL && asym <= SYMMETRISE_TOL {
        if let Some(sym) = symmetrise(&m) {
            m = sym;
            repaired = Some(asym);
        }
    }
    let h = r.sparse(
        &format!("{root}/H"),
        (ndof, dim),
        &format!("f of length {ndof} and w of length {dim}"),
    )?;
    let g = GlobalFrictionContact::new(
        m,
        h,
        DVector::from_vec(f),
        DVector::from_vec(w),
        DVector::from_vec(mu),
        FrictionKind::Coulomb,
    )
    .map_err(prob(r.path))?;
    Ok((g, repaired))
}

/// Reads the local problem of an FCLIB file (`/fclib_local`).
///
/// # Errors
/// See the [module docs](self).
pub fn read_local(path: impl AsRef<Path>) -> Result<FrictionContact, IoError> {
    read_local_with(&open(path.as_ref())?)
}

/// Reads the global problem of an FCLIB file (`/fclib_global`). An `M` whose relative
/// asymmetry lies between the problem's tolerance (1e-10) and [`SYMMETRISE_TOL`] is
/// replaced by `(M + M^T) / 2` ([`read`] says so in the provenance).
///
/// # Errors
/// See the [module docs](self).
pub fn read_global(path: impl AsRef<Path>) -> Result<GlobalFrictionContact, IoError> {
    Ok(read_global_with(&open(path.as_ref())?)?.0)
}

/// Reads an FCLIB file, local or global, into a [`LoadedProblem`] (format
/// [`Format::Fclib`], no answer, warm start from `/guesses/1/r`).
///
/// # Errors
/// See the [module docs](self); a file with neither group is a parse error.
pub fn read(path: impl AsRef<Path>) -> Result<LoadedProblem, IoError> {
    let path = path.as_ref();
    let r = open(path)?;
    let mut repaired = None;
    let (problem, root) = if r.exists("/fclib_local") {
        (AnyProblem::Friction(read_local_with(&r)?), "/fclib_local")
    } else if r.exists("/fclib_global") {
        let (g, rep) = read_global_with(&r)?;
        repaired = rep;
        (AnyProblem::Global(g), "/fclib_global")
    } else {
        return Err(r.err(
            "/",
            "neither /fclib_local nor /fclib_global: not an FCLIB problem",
        ));
    };
    let warm_start = r.guess(problem.dim());
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let kind = if root == "/fclib_local" {
        "local"
    } else {
        "global"
    };
    let mut info = r.description(root);
    if let Some(a) = repaired {
        info.push_str(&format!(
            "{}conversion: M symmetrised as (M + M^T) / 2 (relative asymmetry {a:.3e} in the file)",
            if info.is_empty() { "" } else { "; " }
        ));
    }
    Ok(LoadedProblem {
        path: path.to_path_buf(),
        name,
        format: Format::Fclib,
        problem,
        answer: None,
        warm_start,
        warnings: Vec::new(),
        provenance: Provenance {
            source: "FCLIB (HDF5)".to_string(),
            description: if info.is_empty() {
                format!("FCLIB {kind} problem")
            } else {
                format!("FCLIB {kind} problem; {info}")
            },
            units: Default::default(),
            ..Default::default()
        },
        elliptic: None,
    })
}
