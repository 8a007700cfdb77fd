//! NumPy `.npz` archives: a whole problem in one file, sparse matrices kept sparse.
//!
//! An `.npz` file is a zip archive of `.npy` members, as `numpy.savez` (members stored,
//! uncompressed) and `numpy.savez_compressed` (members deflated) write it. The array
//! names are those of the [NumPy folder](super::folder), and a matrix `X` is stored either
//! dense or in compressed sparse rows:
//!
//! | problem | arrays | shapes |
//! |---|---|---|
//! | fc3d | `W`, `q`, `mu` | `(3nc, 3nc)`, `(3nc,)`, `(nc,)` |
//! | gfc3d | `M`, `H`, `q`, `b`, `mu` | `(ndof, ndof)`, `(ndof, 3nc)`, `(ndof,)`, `(3nc,)`, `(nc,)` |
//! | LCP | `A`, `b` | `(n, n)`, `(n,)` |
//! | boxed LCP | `A`, `b`, `lo`, `hi`, `dep`, `factor` | `(n, n)`, then `(n,)` each; `dep` is int64, `-1` for a fixed bound |
//! | gmp | `W`, `q`, `blocks`, `lo`, `hi`, `mu`, `mu_len` | `(n, n)`, `(n,)`, `(nb,)` each for `blocks` (int64 law codes 0 equality, 1 unilateral, 2 interval, 3 contact), `lo`, `hi`, `mu_len` (int64), and `(Σ mu_len,)` for `mu` (see the [layout](super)) |
//! | any (optional) | `r`, `u` | an engine's answer and its velocity, `(dim,)` |
//! | any (optional) | `meta` | `uint8`, the UTF-8 bytes of a JSON object (below) |
//!
//! | a matrix `X` stored | members | dtype, shape |
//! |---|---|---|
//! | dense | `X` | float64, `(rows, cols)`, C or Fortran order |
//! | sparse (CSR) | `X_data`, `X_indices`, `X_indptr`, `X_shape` | float64 `(nnz,)`; int32 or int64 `(nnz,)`; int32 or int64 `(rows + 1,)`; int32 or int64 `(2,)` |
//!
//! The four sparse members are exactly the arguments of
//! `scipy.sparse.csr_matrix((data, indices, indptr), shape=shape)`. In Python:
//!
//! ```python
//! import json, numpy as np, scipy.sparse as sp
//! f = np.load("wall.npz")                      # no allow_pickle needed
//! W = sp.csr_matrix((f["W_data"], f["W_indices"], f["W_indptr"]), shape=tuple(f["W_shape"]))
//! q, mu = f["q"], f["mu"]
//! meta = json.loads(f["meta"].tobytes())       # {"name": ..., "law": "coulomb", ...}
//! ```
//!
//! and to write one: `np.savez("p.npz", W_data=W.data, W_indices=W.indices,
//! W_indptr=W.indptr, W_shape=np.array(W.shape), q=q, mu=mu,
//! meta=np.frombuffer(json.dumps({"law": "ccp"}).encode(), np.uint8))` (call
//! `W.sum_duplicates()` first if `W` may hold duplicates).
//!
//! `meta` holds the object of a folder's `meta.json` ([`super::meta`]): any of the keys
//! `name`, `law` (`"coulomb"` or `"ccp"`), `source`, `description`, `units` (an object of
//! strings), `labels` (one string per contact, per block of a gmp problem) and
//! `answer_source` (who computed `r`); any other key is an error. Without a `law` a
//! friction problem is read as Coulomb with a warning, as for the folder.
//!
//! # Reading
//!
//! Strict, and without a panic whatever the bytes: the zip structure is read by the
//! [`zip`] crate; every member must be a known array name with the `.npy` suffix
//! (`numpy.savez` adds it), stored or deflated; each `.npy` header is checked by
//! [`parse_header`](super::header::parse_header) and its dtype, rank and exact data
//! length before anything is decoded. For a sparse matrix, `X_shape` holds two
//! non-negative integers, `X_indptr` has `rows + 1` entries, starts at 0, never
//! decreases and ends at `nnz`, the length of `X_data` and `X_indices`; every index lies
//! in `[0, cols)`. Column indices need not be sorted within a row (scipy does not always
//! sort them): the reader sorts each row; a column stored twice in a row is an error
//! (scipy would add the two). Errors name the member (`wall.npz/W_indptr.npy`).
//!
//! **Sizes.** The archive is read from the file member by member, never whole, so
//! [`MAX_FILE_BYTES`] (1 GiB) caps each member's uncompressed
//! size, not the archive: the reader then holds at most one member's bytes beside the
//! arrays decoded so far, the same bound as a NumPy folder whose files are each capped.
//! A deflated member's declared size is not backed by stored bytes, so its buffer grows
//! with what is actually inflated (a "zip bomb" stops at the cap). No size read from a
//! header allocates before its data: `X_shape`'s row count is checked against the
//! length of `X_indptr`, and the column count is only compared with indices and, by
//! the problem's constructor, with the vectors (which are backed by data).
//!
//! # Writing
//!
//! [`write`](fn@write) keeps each matrix's storage (a sparse matrix as its CSR arrays,
//! int32 indices when they fit as scipy does, else int64; a dense one as a Fortran-order
//! float64 array), writes every member stored (or deflated with
//! [`Compression::Deflated`]), with fixed timestamps so that the same problem always gives
//! the same bytes, and replaces the target atomically ([`write_atomic`](crate::io::write_atomic)).

use std::collections::HashMap;
use std::io::{Read, Seek};
use std::path::{Path, PathBuf};

use nalgebra::DVector;
use nalgebra_sparse::CsrMatrix;

use super::assemble::{self, Array, layout};
use super::header::{self as npy, array_to_npy, dtype_words, show};
use super::meta::Meta;
use crate::io::{
    AnyProblem, Format, IoError, IoErrorKind, LoadedProblem, MAX_FILE_BYTES, Provenance,
};
use crate::matrix::Matrix;
use crate::problem::{EngineAnswer, FrictionKind};

/// The first bytes of a zip archive with at least one member (`PK\x03\x04`) and of an
/// empty one (`PK\x05\x06`).
pub const ZIP_MAGIC: [&[u8]; 2] = [b"PK\x03\x04", b"PK\x05\x06"];

/// The array names a problem archive may hold (each as `NAME.npy`).
pub const MEMBERS: &[&str] = &[
    "W",
    "W_data",
    "W_indices",
    "W_indptr",
    "W_shape",
    "M",
    "M_data",
    "M_indices",
    "M_indptr",
    "M_shape",
    "H",
    "H_data",
    "H_indices",
    "H_indptr",
    "H_shape",
    "A",
    "A_data",
    "A_indices",
    "A_indptr",
    "A_shape",
    "q",
    "b",
    "mu",
    "lo",
    "hi",
    "dep",
    "factor",
    "blocks",
    "mu_len",
    "r",
    "u",
    "meta",
];

/// How the writer stores members.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compression {
    /// Uncompressed, as `numpy.savez` (the fastest to read and write).
    #[default]
    Stored,
    /// Deflated, as `numpy.savez_compressed`.
    Deflated,
}

/// `true` if `bytes` start like a zip archive.
pub fn is_zip(bytes: &[u8]) -> bool {
    ZIP_MAGIC.iter().any(|m| bytes.starts_with(m))
}

// ---------------------------------------------------------------------------------------
// Reading.

/// The members of an open archive, read on demand.
struct Archive<'p, R: Read + Seek> {
    path: &'p Path,
    /// The members read are those whose name starts with this (`""` for a problem
    /// archive; `"step_00003/"` for a step of a [rollout](super::rollout)), named here
    /// without it.
    prefix: String,
    zip: zip::ZipArchive<R>,
    /// Array name (without `.npy`) to member index.
    index: HashMap<String, usize>,
    /// The archive's length in bytes (bounds the buffer of a stored member).
    len: u64,
}

impl<'p, R: Read + Seek> Archive<'p, R> {
    fn open(path: &'p Path, reader: R, len: u64, prefix: &str) -> Result<Self, IoError> {
        let zip = zip::ZipArchive::new(reader).map_err(|e| {
            IoError::parse(
                path,
                "zip",
                format!("not a readable zip archive (an .npz file is one): {e}"),
            )
        })?;
        let mut archive = Archive {
            path,
            prefix: prefix.to_string(),
            zip,
            index: HashMap::new(),
            len,
        };
        for i in 0..archive.zip.len() {
            let full = archive
                .zip
                .name_for_index(i)
                .map(str::to_string)
                .unwrap_or_default();
            let Some(name) = full.strip_prefix(prefix).map(str::to_string) else {
                continue;
            };
            let shown = show(name.as_bytes(), 60);
            let Some(stem) = name.strip_suffix(".npy") else {
                return Err(archive.bad(
                    &name,
                    format!(
                        "member `{shown}` is not a .npy array; an .npz problem holds only \
                         NAME.npy members ({})",
                        MEMBERS.join(", ")
                    ),
                ));
            };
            if prefix.is_empty() && super::rollout::step_of(&name).is_some() {
                return Err(archive.bad(
                    &name,
                    format!(
                        "member `{shown}` belongs to a step: this is a rollout archive (one \
                         problem per step, members step_NNNNN/NAME.npy), not one problem; \
                         check it with `nonsmooth check FILE` (or read it with \
                         nonsmooth::io::numpy::rollout::load, Python \
                         nonsmooth.read_rollout)"
                    ),
                ));
            }
            if !MEMBERS.contains(&stem) {
                return Err(archive.bad(
                    &name,
                    format!(
                        "unknown array `{}`; an .npz problem holds only the arrays {}",
                        show(stem.as_bytes(), 60),
                        MEMBERS.join(", ")
                    ),
                ));
            }
            if archive.index.insert(stem.to_string(), i).is_some() {
                return Err(archive.bad(&name, format!("member `{shown}` appears twice")));
            }
        }
        // Each member is capped at MAX_FILE_BYTES when read; the archive as a whole too, so
        // that a small file of many deflated members cannot ask for many gigabytes.
        let mut total: u64 = 0;
        for i in 0..archive.zip.len() {
            let (name, size) = match archive.zip.by_index_raw(i) {
                Ok(f) => (f.name().to_string(), f.size()),
                Err(_) => continue, // reported when the member is read
            };
            let Some(name) = name.strip_prefix(prefix).map(str::to_string) else {
                continue;
            };
            if size > MAX_FILE_BYTES {
                return Err(archive.bad(
                    &name,
                    format!(
                        "the member declares {size} bytes, more than the {MAX_FILE_BYTES} \
                         bytes (1 GiB) one array may have"
                    ),
                ));
            }
            total = total.saturating_add(size);
        }
        if total > MAX_FILE_BYTES {
            return Err(IoError::parse(
                path,
                "zip",
                format!(
                    "the members unpack to {total} bytes in all, more than the \
                     {MAX_FILE_BYTES} bytes (1 GiB) an archive may hold"
                ),
            ));
        }
        Ok(archive)
    }

    fn member_path(&self, name: &str) -> PathBuf {
        self.path.join(format!("{}{name}", self.prefix))
    }

    fn bad(&self, member: &str, message: String) -> IoError {
        IoError::parse(self.member_path(member), "zip", message)
    }

    fn has(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// Opens `name.npy` and hands `read` the path that names it, the open member, its
    /// declared size and whether it is stored (its bytes are in the file) or deflated.
    fn with_member<T>(
        &mut self,
        name: &str,
        read: impl FnOnce(&Path, &mut dyn Read, u64, bool) -> Result<T, IoError>,
    ) -> Result<T, IoError> {
        let file = format!("{name}.npy");
        let path = self.member_path(&file);
        let Some(&i) = self.index.get(name) else {
            return Err(IoError::parse(
                self.path,
                "zip",
                format!("the archive has no member `{file}`"),
            ));
        };
        let zip_err = |e: zip::result::ZipError| {
            IoError::parse(&path, "zip", format!("cannot read the member: {e}"))
        };
        let mut f = self.zip.by_index(i).map_err(zip_err)?;
        if f.is_dir() {
            return Err(IoError::parse(&path, "zip", "the member is a folder"));
        }
        let stored = match f.compression() {
            zip::CompressionMethod::Stored => true,
            zip::CompressionMethod::Deflated => false,
            other => {
                return Err(IoError::new(
                    &path,
                    IoErrorKind::Unsupported(format!(
                        "the member is compressed with {other:?}; .npz members are stored \
                         (numpy.savez) or deflated (numpy.savez_compressed)"
                    )),
                ));
            }
        };
        let declared = f.size();
        if declared > MAX_FILE_BYTES {
            return Err(IoError::parse(
                &path,
                "zip",
                format!(
                    "the member declares {declared} bytes, more than the {MAX_FILE_BYTES} \
                     bytes (1 GiB) one array may have"
                ),
            ));
        }
        if stored && declared > self.len {
            return Err(IoError::parse(
                &path,
                "zip",
                format!(
                    "the member declares {declared} bytes, more than the archive's {}",
                    self.len
                ),
            ));
        }
        read(&path, &mut f, declared, stored)
    }

    /// The bytes of `name.npy` and the path that names it in messages.
    fn bytes(&mut self, name: &str) -> Result<(PathBuf, Vec<u8>), IoError> {
        self.with_member(name, |path, f, declared, stored| {
            // A stored member's bytes are in the file; a deflated one's declared size is
            // only a promise, so its buffer grows with what is inflated.
            let cap = if stored {
                declared
            } else {
                declared.min(1 << 26)
            };
            let mut bytes = Vec::with_capacity(cap as usize);
            read_member(path, f, declared, &mut bytes)?;
            Ok((path.to_path_buf(), bytes))
        })
    }

    /// Decodes the 1-dimensional array `name.npy` of `size`-byte elements while reading
    /// it, 64 KiB at a time, without holding the member's bytes: `header` checks the
    /// header (dtype, rank) and `decode` turns each run of whole elements into values.
    /// A member whose header does not fit in its first 64 KiB is read whole instead.
    fn stream<T>(
        &mut self,
        name: &str,
        header: impl FnOnce(&Path, &npy::NpyHeader, &[u8]) -> Result<(usize, bool), IoError>,
        mut decode: impl FnMut(&Path, &[u8], usize, bool, &mut Vec<T>) -> Result<(), IoError>,
    ) -> Result<Vec<T>, IoError> {
        const CHUNK: usize = 1 << 16;
        self.with_member(name, |path, f, declared, stored| {
            let mut head = Vec::with_capacity(CHUNK.min(declared as usize));
            f.take(CHUNK as u64)
                .read_to_end(&mut head)
                .map_err(|e| IoError::parse(path, "zip", format!("cannot read the member: {e}")))?;
            let h = match npy::parse_header(path, &head) {
                Ok(h) => h,
                Err(_) if (head.len() as u64) < declared => {
                    // A long header: read the rest and let the header parser speak.
                    read_member(path, f, declared - head.len() as u64, &mut head)?;
                    npy::parse_header(path, &head)?
                }
                Err(e) => return Err(e),
            };
            let (size, big) = header(path, &h, &head)?;
            // The zip directory's size is only a claim: a member may hold more bytes, or a
            // header longer than the whole member.
            let data_len = match declared.checked_sub(h.data_start as u64) {
                Some(n) if head.len() as u64 <= declared => n,
                _ => {
                    return Err(IoError::parse(
                        path,
                        "zip",
                        format!(
                            "the archive declares {declared} bytes for the member, fewer \
                             than its header and data hold"
                        ),
                    ));
                }
            };
            if (h.elements as u64).checked_mul(size as u64) != Some(data_len) {
                return Err(IoError::parse(
                    path,
                    "data",
                    format!(
                        "the header announces {} elements of {size} bytes and the member \
                         holds {data_len} bytes of data",
                        h.elements
                    ),
                ));
            }
            let cap = if stored {
                h.elements
            } else {
                h.elements.min(1 << 23)
            };
            let mut out = Vec::with_capacity(cap);
            let first = &head[h.data_start.min(head.len())..];
            let whole = first.len() - first.len() % size;
            decode(path, &first[..whole], size, big, &mut out)?;
            let mut buf = vec![0u8; CHUNK];
            let carry = first.len() - whole;
            buf[..carry].copy_from_slice(&first[whole..]);
            let mut left = data_len - first.len() as u64;
            let mut fill = carry;
            while left > 0 || fill > 0 {
                let want = ((CHUNK - fill) as u64).min(left) as usize;
                f.read_exact(&mut buf[fill..fill + want]).map_err(|e| {
                    IoError::parse(path, "zip", format!("cannot read the member: {e}"))
                })?;
                left -= want as u64;
                let have = fill + want;
                let whole = have - have % size;
                decode(path, &buf[..whole], size, big, &mut out)?;
                buf.copy_within(whole..have, 0);
                fill = have - whole;
                if want == 0 {
                    break; // a partial element at the end: not possible after the length check
                }
            }
            // Reading past the end makes the zip reader check the CRC-32.
            let mut extra = [0u8; 1];
            match f.read(&mut extra) {
                Ok(0) => Ok(out),
                Ok(_) => Err(IoError::parse(
                    path,
                    "zip",
                    format!("the member holds more than the {declared} bytes it declares"),
                )),
                Err(e) => Err(IoError::parse(
                    path,
                    "zip",
                    format!("cannot read the member: {e}"),
                )),
            }
        })
    }

    fn vector(&mut self, name: &str) -> Result<DVector<f64>, IoError> {
        Ok(DVector::from_vec(self.floats(name)?))
    }

    /// A 1-dimensional float64 array, decoded while it is read (the folder's
    /// [`parse_vector`](super::header::parse_vector) gives the message for any other dtype or rank).
    fn floats(&mut self, name: &str) -> Result<Vec<f64>, IoError> {
        self.stream(
            name,
            |path, h, head| match (h.descr.as_str(), h.shape.len()) {
                ("<f8", 1) => Ok((8, false)),
                (">f8", 1) => Ok((8, true)),
                _ => npy::parse_vector(path, head).map(|_| (8, false)),
            },
            |_, data, _, big, out| {
                let word = |c: &[u8]| -> [u8; 8] { c.try_into().expect("8 bytes") };
                if big {
                    out.extend(data.chunks_exact(8).map(|c| f64::from_be_bytes(word(c))));
                } else {
                    out.extend(data.chunks_exact(8).map(|c| f64::from_le_bytes(word(c))));
                }
                Ok(())
            },
        )
    }

    /// Column indices (int32 or int64), each checked to lie in `[0, ncols)`, decoded
    /// while they are read.
    fn columns(&mut self, name: &str, ncols: usize) -> Result<(PathBuf, Vec<usize>), IoError> {
        let path = self.member_path(&format!("{name}.npy"));
        let cols = self.stream(
            name,
            |path, h, _| index_kind(path, h),
            |path, data, size, big, out: &mut Vec<usize>| {
                for j in decode_ints(size, big, data) {
                    if j < 0 || j as u64 >= ncols as u64 {
                        return Err(IoError::parse(
                            path,
                            format!("entry {}", out.len()),
                            format!("column index {j} outside [0, {ncols})"),
                        ));
                    }
                    out.push(j as usize);
                }
                Ok(())
            },
        )?;
        Ok((path, cols))
    }

    fn ints(&mut self, name: &str) -> Result<Vec<i64>, IoError> {
        let (path, bytes) = self.bytes(name)?;
        npy::parse_ints(&path, &bytes)
    }

    /// An index array: int32 or int64, either byte order, 1-dimensional.
    fn indices(&mut self, name: &str) -> Result<(PathBuf, Vec<i64>), IoError> {
        let (path, bytes) = self.bytes(name)?;
        let v = parse_index_array(&path, &bytes)?;
        Ok((path, v))
    }

    /// The matrix `name`, dense (`name.npy`) or CSR (`name_data.npy`, ...).
    fn matrix(&mut self, name: &str) -> Result<Matrix, IoError> {
        let parts = ["data", "indices", "indptr", "shape"].map(|p| format!("{name}_{p}"));
        let sparse: Vec<bool> = parts.iter().map(|p| self.has(p)).collect();
        if self.has(name) {
            if sparse.iter().any(|&s| s) {
                return Err(IoError::parse(
                    self.path,
                    "zip",
                    format!(
                        "the archive holds `{name}.npy` (dense) and `{name}_*.npy` (sparse); \
                         store the matrix one way"
                    ),
                ));
            }
            let (path, bytes) = self.bytes(name)?;
            return Ok(Matrix::Dense(npy::parse_matrix(&path, &bytes)?));
        }
        if !sparse.iter().any(|&s| s) {
            return Err(IoError::parse(
                self.path,
                "zip",
                format!(
                    "the archive has no matrix `{name}`: neither `{name}.npy` (dense) nor \
                     `{name}_data.npy`, `{name}_indices.npy`, `{name}_indptr.npy`, \
                     `{name}_shape.npy` (sparse)"
                ),
            ));
        }
        if let Some(k) = sparse.iter().position(|&s| !s) {
            return Err(IoError::parse(
                self.path,
                "zip",
                format!(
                    "the sparse matrix `{name}` lacks `{}.npy`; CSR storage needs \
                     `{name}_data`, `{name}_indices`, `{name}_indptr` and `{name}_shape`",
                    parts[k]
                ),
            ));
        }
        let (shape_path, shape) = self.indices(&parts[3])?;
        let (nrows, ncols) = match shape[..] {
            [r, c] if r >= 0 && c >= 0 => (r as u64, c as u64),
            _ => {
                return Err(IoError::parse(
                    &shape_path,
                    "data",
                    format!(
                        "the shape is {shape:?}; expected two non-negative integers (rows, cols)"
                    ),
                ));
            }
        };
        let (ptr_path, indptr) = self.indices(&parts[2])?;
        if indptr.len() as u64 != nrows.saturating_add(1) {
            return Err(IoError::parse(
                &ptr_path,
                "data",
                format!(
                    "{} entries; a matrix of {nrows} rows (`{}`) needs rows + 1 = {}",
                    indptr.len(),
                    parts[3],
                    nrows.saturating_add(1)
                ),
            ));
        }
        let (nrows, ncols) = (nrows as usize, usize::try_from(ncols).unwrap_or(usize::MAX));
        let mut values = self.floats(&parts[0])?;
        let nnz = values.len();
        if indptr[0] != 0 {
            return Err(IoError::parse(
                &ptr_path,
                "entry 0",
                format!("the first entry is {}; it must be 0", indptr[0]),
            ));
        }
        for (k, w) in indptr.windows(2).enumerate() {
            if w[1] < w[0] {
                return Err(IoError::parse(
                    &ptr_path,
                    format!("entry {}", k + 1),
                    format!(
                        "{} after {}: the entries must never decrease (row {k} would have a \
                         negative length)",
                        w[1], w[0]
                    ),
                ));
            }
        }
        let last = indptr[nrows];
        if last as u64 != nnz as u64 {
            return Err(IoError::parse(
                &ptr_path,
                format!("entry {nrows}"),
                format!(
                    "the last entry is {last}; it must be the number of stored entries, {nnz} \
                     (the length of `{}`)",
                    parts[0]
                ),
            ));
        }
        let (ind_path, mut cols) = self.columns(&parts[1], ncols)?;
        if cols.len() != nnz {
            return Err(IoError::parse(
                &ind_path,
                "data",
                format!(
                    "{} indices for {nnz} stored values (`{}`); they must be as many",
                    cols.len(),
                    parts[0]
                ),
            ));
        }
        let offsets: Vec<usize> = indptr.iter().map(|&p| p as usize).collect();
        drop(indptr);
        for i in 0..nrows {
            let (s, e) = (offsets[i], offsets[i + 1]);
            let row = &cols[s..e];
            if !row.windows(2).all(|w| w[0] < w[1]) {
                let mut pairs: Vec<(usize, f64)> = row
                    .iter()
                    .copied()
                    .zip(values[s..e].iter().copied())
                    .collect();
                pairs.sort_by_key(|p| p.0);
                if let Some(w) = pairs.windows(2).find(|w| w[0].0 == w[1].0) {
                    return Err(IoError::parse(
                        &ind_path,
                        format!("row {i}"),
                        format!(
                            "column {} is stored twice in row {i}; call sum_duplicates() on \
                             the scipy matrix before saving it",
                            w[0].0
                        ),
                    ));
                }
                for (k, (j, v)) in pairs.into_iter().enumerate() {
                    cols[s + k] = j;
                    values[s + k] = v;
                }
            }
        }
        CsrMatrix::try_from_csr_data(nrows, ncols, offsets, cols, values)
            .map(Matrix::Sparse)
            .map_err(|e| IoError::parse(&ind_path, "data", format!("not a valid CSR matrix: {e}")))
    }

    fn meta(&mut self) -> Result<Option<Meta>, IoError> {
        if !self.has("meta") {
            return Ok(None);
        }
        let (path, bytes) = self.bytes("meta")?;
        let h = npy::parse_header(&path, &bytes)?;
        if !matches!(h.descr.as_str(), "|u1" | "<u1" | ">u1") || h.shape.len() != 1 {
            return Err(IoError::parse(
                &path,
                "`descr`",
                format!(
                    "`meta` is an array {} of shape {}; expected a 1-dimensional uint8 array \
                     of UTF-8 JSON bytes (np.frombuffer(json.dumps(meta).encode(), np.uint8))",
                    dtype_words(&h.descr),
                    npy::shape_text(&h.shape)
                ),
            ));
        }
        let text = bytes.get(h.data_start..).unwrap_or_default();
        if text.len() != h.elements {
            return Err(IoError::parse(
                &path,
                "data",
                format!(
                    "the header announces {} bytes and the member holds {}",
                    h.elements,
                    text.len()
                ),
            ));
        }
        Meta::parse(&path, text, "`meta`").map(Some)
    }
}

/// The element size and byte order of a 1-dimensional int32 or int64 array.
fn index_kind(path: &Path, h: &npy::NpyHeader) -> Result<(usize, bool), IoError> {
    let kind = match h.descr.as_str() {
        "<i4" => (4, false),
        ">i4" => (4, true),
        "<i8" => (8, false),
        ">i8" => (8, true),
        d => {
            return Err(IoError::parse(
                path,
                "`descr`",
                format!(
                    "the array is {} ('{}'); expected int32 or int64 ('<i4' or '<i8')",
                    dtype_words(d),
                    show(d.as_bytes(), 40)
                ),
            ));
        }
    };
    if h.shape.len() != 1 {
        return Err(IoError::parse(
            path,
            "`shape`",
            format!(
                "a {}-dimensional array of shape {}; a 1-dimensional one is required",
                h.shape.len(),
                npy::shape_text(&h.shape)
            ),
        ));
    }
    Ok(kind)
}

/// Checks a 1-dimensional int32 or int64 `.npy` array (either byte order) and returns
/// its element size, byte order and data.
fn index_layout<'b>(path: &Path, bytes: &'b [u8]) -> Result<(usize, bool, &'b [u8]), IoError> {
    let h = npy::parse_header(path, bytes)?;
    let (size, big) = index_kind(path, &h)?;
    let data = &bytes[h.data_start..];
    if h.elements.checked_mul(size) != Some(data.len()) {
        return Err(IoError::parse(
            path,
            "data",
            format!(
                "the header announces {} elements of {size} bytes and the member holds {} \
                 bytes of data",
                h.elements,
                data.len()
            ),
        ));
    }
    Ok((size, big, data))
}

/// Reads `declared` more bytes of a member into `bytes` (at most [`MAX_FILE_BYTES`]),
/// checking that the member holds exactly that many (and, at its end, its CRC-32).
fn read_member(
    path: &Path,
    f: &mut dyn Read,
    declared: u64,
    bytes: &mut Vec<u8>,
) -> Result<(), IoError> {
    let before = bytes.len() as u64;
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(bytes)
        .map_err(|e| IoError::parse(path, "zip", format!("cannot read the member: {e}")))?;
    let got = bytes.len() as u64 - before;
    if got != declared {
        return Err(IoError::parse(
            path,
            "zip",
            format!(
                "the member declares {} bytes and holds {}",
                before + declared,
                before + got
            ),
        ));
    }
    Ok(())
}

/// The integers of an index array, in one pass.
fn decode_ints(size: usize, big: bool, data: &[u8]) -> impl Iterator<Item = i64> + '_ {
    data.chunks_exact(size).map(move |c| match (size, big) {
        (4, false) => i64::from(i32::from_le_bytes(c.try_into().expect("4 bytes"))),
        (4, true) => i64::from(i32::from_be_bytes(c.try_into().expect("4 bytes"))),
        (_, false) => i64::from_le_bytes(c.try_into().expect("8 bytes")),
        (_, true) => i64::from_be_bytes(c.try_into().expect("8 bytes")),
    })
}

/// Decodes a 1-dimensional int32 or int64 `.npy` array (either byte order).
fn parse_index_array(path: &Path, bytes: &[u8]) -> Result<Vec<i64>, IoError> {
    let (size, big, data) = index_layout(path, bytes)?;
    Ok(decode_ints(size, big, data).collect())
}

impl<R: Read + Seek> assemble::Arrays for Archive<'_, R> {
    fn has(&self, name: &str) -> bool {
        Archive::has(self, name)
    }
    fn has_matrix(&self, name: &str) -> bool {
        Archive::has(self, name) || Archive::has(self, &format!("{name}_data"))
    }
    fn matrix(&mut self, name: &str) -> Result<Matrix, IoError> {
        Archive::matrix(self, name)
    }
    fn vector(&mut self, name: &str) -> Result<DVector<f64>, IoError> {
        Archive::vector(self, name)
    }
    fn ints(&mut self, name: &str) -> Result<Vec<i64>, IoError> {
        Archive::ints(self, name)
    }
    fn names(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .index
            .keys()
            .filter(|k| k.as_str() != "meta")
            .map(|k| {
                for part in ["_data", "_indices", "_indptr", "_shape"] {
                    if let Some(base) = k.strip_suffix(part) {
                        return base.to_string();
                    }
                }
                k.clone()
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

pub(super) fn read_problem<R: Read + Seek>(
    path: &Path,
    reader: R,
    len: u64,
    prefix: &str,
) -> Result<LoadedProblem, IoError> {
    let mut ar = Archive::open(path, reader, len, prefix)?;
    let meta = ar.meta()?;
    let has_meta = meta.is_some();
    let meta = meta.unwrap_or_default();
    let law = meta.law.unwrap_or_default();
    if ar.has("u") && !ar.has("r") {
        return Err(IoError::parse(
            path,
            "zip",
            "the archive holds `u.npy` (an answer's velocity) without `r.npy`",
        ));
    }
    let source = meta.answer_source.as_deref();
    let Some((problem, answer)) = assemble::assemble(&mut ar, law, path, source)? else {
        return Err(IoError::parse(
            path,
            "zip",
            "the archive holds no problem matrix: W (fc3d, or gmp with `blocks`), M and H \
             (gfc3d) or A (LCP), dense or as W_data, W_indices, W_indptr, W_shape",
        ));
    };
    assemble::check_labels(
        &meta.labels,
        meta.pyramid.as_ref(),
        &problem,
        &ar.member_path("meta.npy"),
    )?;
    let friction = matches!(
        problem,
        AnyProblem::Friction(_) | AnyProblem::Global(_) | AnyProblem::Generic(_)
    );
    let warnings = match (friction, meta.law) {
        (true, None) => vec![format!(
            "{}; friction law assumed {} (store meta = {{\"law\": \"ccp\"}} or \
             {{\"law\": \"coulomb\"}} to choose)",
            if has_meta {
                "`meta` has no `law`"
            } else {
                "no `meta` array"
            },
            FrictionKind::default().name()
        )],
        (false, Some(k)) => vec![format!(
            "`meta`: `law` is {}, but the archive holds {}, which has no friction law; the \
             law is ignored",
            k.name(),
            problem.noun()
        )],
        _ => Vec::new(),
    };
    let name = meta
        .name
        .clone()
        .unwrap_or_else(|| match prefix.strip_suffix('/') {
            Some(step) if !step.is_empty() => step.to_string(),
            _ => path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        });
    Ok(LoadedProblem {
        path: path.to_path_buf(),
        name,
        format: Format::Npz,
        problem,
        answer,
        warm_start: None,
        provenance: Provenance {
            source: meta.source.unwrap_or_default(),
            description: meta.description.unwrap_or_default(),
            units: meta.units,
            labels: meta.labels,
            pyramid: meta.pyramid,
        },
        warnings,
        elliptic: None,
    })
}

/// Reads an `.npz` problem from memory (`path` names it in messages).
///
/// # Errors
/// [`IoErrorKind::Parse`] naming the member for a damaged archive, an unknown member, a
/// malformed array (see the [module docs](self)); [`IoErrorKind::Problem`] for arrays
/// that do not make a valid problem; [`IoErrorKind::Unsupported`] for a compression
/// other than stored or deflated.
pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<LoadedProblem, IoError> {
    read_problem(path, std::io::Cursor::new(bytes), bytes.len() as u64, "")
}

/// Reads an `.npz` problem file member by member (regular files only; each member at
/// most [`MAX_FILE_BYTES`] uncompressed).
///
/// # Errors
/// As [`from_bytes`]; also [`IoErrorKind::Io`] and [`IoErrorKind::NotAFile`].
pub fn load(path: &Path) -> Result<LoadedProblem, IoError> {
    let file = crate::io::file::open_regular(path)?;
    let len = file
        .metadata()
        .map_err(|e| IoError::new(path, IoErrorKind::Io(e)))?
        .len();
    read_problem(
        path,
        std::io::BufReader::with_capacity(1 << 20, file),
        len,
        "",
    )
}

// ---------------------------------------------------------------------------------------
// Writing.

/// The members of `problem` (and `answer`, and the metadata) as `(name, .npy bytes)`: the
/// arrays of the shared [`layout`], a sparse matrix `X` as its four CSR members.
pub(super) fn members(
    name: &str,
    problem: &AnyProblem,
    answer: Option<&EngineAnswer>,
    provenance: &Provenance,
) -> Result<Vec<(String, Vec<u8>)>, IoError> {
    members_with(name, problem, answer, provenance, false)
}

/// [`members`], and with `sparsify` a dense matrix whose nonzeros take less room as CSR
/// (12 bytes each, against 8 per entry dense) is written as its CSR members (read back as
/// a sparse matrix with the same entries: the rollout writer's choice for engines that
/// hand over `W` dense).
pub(super) fn members_with(
    name: &str,
    problem: &AnyProblem,
    answer: Option<&EngineAnswer>,
    provenance: &Provenance,
    sparsify: bool,
) -> Result<Vec<(String, Vec<u8>)>, IoError> {
    let (arrays, law) = layout(problem, answer);
    for (x, array) in &arrays {
        if let Array::Matrix(Matrix::Dense(d)) = array {
            crate::matrix::check_dense(&format!("the .npz writer ({x})"), d.nrows(), d.ncols())
                .map_err(|e| IoError::new(name, IoErrorKind::Problem(e)))?;
        }
    }
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    for (x, array) in &arrays {
        let sparse;
        let csr;
        let array = match array {
            Array::Matrix(Matrix::Dense(d)) if sparsify => {
                let nonzeros = d.iter().filter(|v| **v != 0.0).count();
                if 12 * nonzeros < 8 * d.len() {
                    sparse = Matrix::Sparse(CsrMatrix::from(&nalgebra_sparse::CooMatrix::from(d)));
                    csr = Array::Matrix(&sparse);
                    &csr
                } else {
                    array
                }
            }
            _ => array,
        };
        match array {
            Array::Matrix(m @ Matrix::Dense(_)) => out.push((x.to_string(), npy::matrix_to_npy(m))),
            Array::Matrix(Matrix::Sparse(s)) => {
                let (offsets, cols, values) = (s.row_offsets(), s.col_indices(), s.values());
                let small = s.ncols().max(s.nnz()) <= i32::MAX as usize;
                out.push((format!("{x}_data"), array_to_npy(values)));
                if small {
                    let c: Vec<i32> = cols.iter().map(|&j| j as i32).collect();
                    let p: Vec<i32> = offsets.iter().map(|&j| j as i32).collect();
                    out.push((format!("{x}_indices"), array_to_npy(&c)));
                    out.push((format!("{x}_indptr"), array_to_npy(&p)));
                } else {
                    let c: Vec<i64> = cols.iter().map(|&j| j as i64).collect();
                    let p: Vec<i64> = offsets.iter().map(|&j| j as i64).collect();
                    out.push((format!("{x}_indices"), array_to_npy(&c)));
                    out.push((format!("{x}_indptr"), array_to_npy(&p)));
                }
                let shape = [s.nrows() as i64, s.ncols() as i64];
                out.push((format!("{x}_shape"), array_to_npy(&shape)));
            }
            Array::Floats(v) => out.push((x.to_string(), array_to_npy(v))),
            Array::Ints(v) => out.push((x.to_string(), array_to_npy(v))),
        }
    }
    let meta = Meta::of(name, law, provenance, answer);
    let json = serde_json::to_vec(&meta).expect("plain data");
    out.push(("meta".to_string(), array_to_npy(&json)));
    Ok(out)
}

/// The bytes of the `.npz` archive [`write`](fn@write) writes.
///
/// # Errors
/// [`IoErrorKind::Problem`]`(`[`ProblemError::TooLarge`](crate::problem::ProblemError::TooLarge)`)`
/// for a dense matrix of more than [`MAX_DENSE_ENTRIES`](crate::matrix::MAX_DENSE_ENTRIES)
/// entries; [`IoErrorKind::Refused`] for a member of more than
/// [`MAX_FILE_BYTES`] bytes (which the reader would refuse).
pub fn to_bytes(
    name: &str,
    problem: &AnyProblem,
    answer: Option<&EngineAnswer>,
    provenance: &Provenance,
    compression: Compression,
) -> Result<Vec<u8>, IoError> {
    let members = members(name, problem, answer, provenance)?;
    zip_members(name, &members, compression)
}

/// A zip archive of `members` (`(name, .npy bytes)`, each written as `name.npy`).
///
/// # Errors
/// [`IoErrorKind::Refused`] for a member of more than [`MAX_FILE_BYTES`] bytes;
/// [`IoErrorKind::Io`] from the zip writer.
pub(super) fn zip_members(
    name: &str,
    members: &[(String, Vec<u8>)],
    compression: Compression,
) -> Result<Vec<u8>, IoError> {
    use std::io::Write;
    let total: usize = members.iter().map(|(_, b)| b.len() + 128).sum();
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::with_capacity(total + 1024)));
    let zerr = |e: zip::result::ZipError| {
        IoError::new(name, IoErrorKind::Io(std::io::Error::other(e.to_string())))
    };
    for (member, bytes) in members {
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(IoError::new(
                name,
                IoErrorKind::Refused(format!(
                    "`{member}.npy` would hold {} bytes, more than the {MAX_FILE_BYTES} bytes \
                     (1 GiB) the reader accepts per member; nothing was written",
                    bytes.len()
                )),
            ));
        }
    }
    for (member, bytes) in members {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(match compression {
                Compression::Stored => zip::CompressionMethod::Stored,
                Compression::Deflated => zip::CompressionMethod::Deflated,
            })
            .large_file(bytes.len() as u64 >= u64::from(u32::MAX))
            .unix_permissions(0o644);
        zip.start_file(format!("{member}.npy"), options)
            .map_err(zerr)?;
        zip.write_all(bytes)
            .map_err(|e| IoError::new(name, IoErrorKind::Io(e)))?;
    }
    Ok(zip.finish().map_err(zerr)?.into_inner())
}

/// Writes `problem` (and an answer, and `provenance`) as the `.npz` file `path`, replaced
/// whole ([`write_atomic`](crate::io::write_atomic)); see the [module docs](self) for the
/// layout.
///
/// # Errors
/// As [`to_bytes`]; [`IoErrorKind::Io`] with what the file system reports.
pub fn write(
    path: &Path,
    name: &str,
    problem: &AnyProblem,
    answer: Option<&EngineAnswer>,
    provenance: &Provenance,
    compression: Compression,
) -> Result<(), IoError> {
    let bytes = to_bytes(name, problem, answer, provenance, compression).map_err(|e| IoError {
        path: path.to_path_buf(),
        kind: e.kind,
    })?;
    crate::io::write_atomic(path, &bytes)
}
