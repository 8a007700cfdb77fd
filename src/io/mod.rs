//! Reading and writing contact problems.
//!
//! | format | what | read | write | module |
//! |---|---|---|---|---|
//! | the project's JSON (`.json`, `"format": "nonsmooth-problem"`) | any problem, kind, optional engine answer, provenance, units | yes | yes | [`json`] |
//! | Siconos numerics text (`.dat`) | LCP, fc3d, gfc3d; NumericsMatrix dense (column-major) or sparse block | yes | yes | [`siconos`] |
//! | FCLIB HDF5 (`.hdf5`, `.h5`) | local (fc3d) and global (gfc3d) problems | with the `hdf5` feature | no | `fclib` |
//! | OpenTissue `.dlm` dump (a folder holding `A.dlm`, `b.dlm`, ...) | boxed LCP (friction box) or LCP; `lambda.dlm` as warm start | yes | no | [`opentissue`] |
//! | MuJoCo export (`.json` with `A`, `b`, `mu`, `n_contacts`, `dim`) | CCP (elliptic) or edge LCP (pyramidal) with MuJoCo's answer; the hard velocity-level view; contacts of condim 3 and 1 (condim 4 and 6 are refused) | yes | no | [`mujoco`] |
//! | NumPy folder (`W.npy`, `q.npy`, `mu.npy`, ...; `numpy.save`) | any problem, optional answer `r.npy`; dense | yes | yes | [`numpy::folder`] |
//! | NumPy archive (`.npz`; `numpy.savez`, `numpy.savez_compressed`) | any problem, optional answer; matrices dense or CSR (`W_data`, `W_indices`, `W_indptr`, `W_shape`, as scipy) | yes | yes | [`numpy::npz`] |
//!
//! Each format is one entry of the table [`format::FORMATS`] (its name, extensions,
//! signature, reader and writer), which [`load`], [`discover`], [`DISCOVERED`] and
//! `nonsmooth convert` read: a new format is its file plus its entry.
//!
//! | file | holds |
//! |---|---|
//! | [`format`](mod@format) | the table of formats, and the detection that [`load`] runs on it |
//! | [`error`] | [`IoError`] and [`IoErrorKind`] |
//! | [`file`](mod@file) | the helpers under every reader and writer: [`read_file`], [`write_atomic`], ... |
//! | [`answer`] | answer files, read ([`answer::read`]) and written ([`answer::write()`]) |
//! | [`json`], [`siconos`], `fclib`, [`opentissue`], [`mujoco`], [`numpy`] | the readers and writers, one module per format (NumPy's folder and archive share [`numpy`]) |
//! | [`reference`](mod@reference) | the project's own files in `data/`, made from generated scenes (a test checks that the shipped files are what it makes) |
//!
//! The formats and conventions are those of `data/README.md` (dense Siconos
//! matrices are column-major, FCLIB triplets hold the row in `i` and the column in `p`,
//! OpenTissue writes `DBL_MAX` for an infinite bound).
//!
//! [`load`] detects the format from the path and the first bytes and returns a
//! [`LoadedProblem`]; [`discover`] lists the problems under a folder. Readers never
//! panic: malformed input gives an [`IoError`] that names the file and what is wrong (the
//! token and line for the text formats). No size read from a file is used to allocate
//! before the data it announces is known to be there (see [`MAX_UNBACKED_DIM`]).

pub mod answer;
pub mod error;
#[cfg(feature = "hdf5")]
pub mod fclib;
pub mod file;
pub mod format;
#[doc(hidden)]
pub mod json;
pub mod mujoco;
pub mod numpy;
pub mod opentissue;
pub mod reference;
pub mod siconos;
pub(crate) mod text;

pub use crate::problem::{AnyProblem, Provenance};
pub use error::{IoError, IoErrorKind};
pub(crate) use file::{has_entry, json_error, temporary_sibling};
pub use file::{read_file, write_atomic};
pub use format::{Format, is_hdf5_file, load_json};
pub use text::parse_number;

use std::path::{Path, PathBuf};

use file::io_err;

use crate::problem::EngineAnswer;

/// A problem read from a file, with what the file says about it.
#[derive(Debug)]
pub struct LoadedProblem {
    /// The file (or folder, for OpenTissue) it was read from.
    pub path: PathBuf,
    /// A short name (the file stem, or the name the file gives).
    pub name: String,
    /// The format it was read as.
    pub format: Format,
    /// The problem.
    pub problem: AnyProblem,
    /// An answer embedded in the file (MuJoCo's solution, or one stored in our JSON).
    pub answer: Option<EngineAnswer>,
    /// An initial guess the file provides (OpenTissue's `lambda.dlm`, FCLIB's
    /// `/guesses/1/r`): a starting point for a solver, not an answer.
    pub warm_start: Option<Vec<f64>>,
    /// Provenance and units.
    pub provenance: Provenance,
    /// Things the reader noticed but could not decide were errors (a last number that
    /// runs into the end of the file, which may have been cut short), and defaults it
    /// chose that the file did not state (the friction law of a NumPy folder without a
    /// `law` in its `meta.json`). The command line prints them; they are never dropped
    /// silently.
    pub warnings: Vec<String>,
    /// For a MuJoCo export in the pyramidal cone with its hard contact-frame view: the
    /// elliptic problem of the same contacts, which `check` also judges the answer in
    /// ([`crate::check::compare_with_elliptic`]). `None` for every other file.
    pub elliptic: Option<crate::check::EllipticView>,
}

/// The largest file a reader accepts: 1 GiB. Readers read the whole file into memory and
/// index the tokens of text (8 bytes per token on top of the text), then hold the
/// numbers as triplets or vectors and build compressed rows once, so that a reader's
/// memory is a small multiple of the file's size (measured per stored entry in
/// `book/src/generated/read_scale.txt`) and the cap bounds it whatever the file says. Larger problems belong
/// in NumPy `.npz` archives (read member by member, the cap applying to each member:
/// [`numpy::npz`]) or FCLIB HDF5 files, which are read array by array.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// What [`discover`] looks for under a folder, for messages (a test checks it against the
/// table, [`format::discovered_text`]).
pub const DISCOVERED: &str = ".dat, .json, .npz, .hdf5 and .h5 files, OpenTissue folders \
     (A.dlm) and NumPy folders (W.npy, A.npy or M.npy)";

/// The largest dimension a reader accepts when the file does not back it with at least
/// as many stored numbers (2^20). Sparse formats may announce sizes larger than their
/// data (an OpenTissue vector file lists only its nonzeros); without a cap a header of a
/// few bytes could make the reader allocate gigabytes. Sizes backed by data are not
/// capped.
pub const MAX_UNBACKED_DIM: usize = 1 << 20;

/// The most elements one dataset of an FCLIB file may declare: 2^27 (1 GiB of `f64`), as
/// [`crate::matrix::MAX_DENSE_ENTRIES`]. The HDF5 library allocates whatever a dataset's
/// header declares, so the declared size is checked before the data is read; a damaged
/// header announcing 2^61 numbers is an error, not an allocation.
pub const MAX_FCLIB_DATASET_ELEMENTS: usize = crate::matrix::MAX_DENSE_ENTRIES;

/// Reads a problem from `path`, detecting the format by the table [`format::FORMATS`]
/// ([`format::read`]):
///
/// * a folder holding `A.dlm` (or a `.dlm` file inside one) is an OpenTissue problem;
/// * a file starting with the HDF5 signature, or named `.hdf5` / `.h5`, is FCLIB
///   ([`IoErrorKind::FeatureDisabled`]`("hdf5")` without the `hdf5` feature);
/// * a file named `.npz`, or starting with a zip signature (`PK\x03\x04`), is a NumPy
///   archive ([`numpy::npz`]), read member by member;
/// * a file whose first non-blank byte is `{` (or named `.json`) is JSON: the project's
///   format if it has `"format": "nonsmooth-problem"`, a MuJoCo export if it has the
///   keys `A`, `b`, `mu` and `n_contacts` (its `dim` may be null or absent when the
///   contacts differ in condim: [`mujoco`]);
/// * anything else (normally `.dat`) is read as Siconos text ([`siconos::read_any`]).
///
/// # Errors
/// [`IoErrorKind::Io`] if the path cannot be read, [`IoErrorKind::UnknownFormat`] for
/// JSON of neither kind or a folder without `A.dlm`, else the reader's error.
pub fn load(path: impl AsRef<Path>) -> Result<LoadedProblem, IoError> {
    let mut lp = format::read(path.as_ref())?;
    let doubts = lp.problem.data_warnings();
    lp.warnings.extend(doubts);
    Ok(lp)
}

/// The problems under `path`, sorted: `path` itself if it is a file or a problem folder
/// (OpenTissue, NumPy), else every entry named with an extension of [`format::FORMATS`]
/// ([`DISCOVERED`]: `.dat`, `.json`, `.npz`, `.hdf5` and `.h5`) and every problem folder
/// (holding `A.dlm` or `W.npy` / `A.npy` / `M.npy`; one entry per folder) found
/// recursively. Other files (`README.md`, ...) are skipped; so are folders whose names
/// end in a problem extension. An entry with a problem extension that is not a regular
/// file (a FIFO, a device) is listed, so that reading it reports what it is, but it is
/// never opened here. Each directory is visited once even if symbolic links loop.
///
/// # Errors
/// [`IoErrorKind::Io`] if `path` or a folder under it cannot be read.
pub fn discover(path: impl AsRef<Path>) -> Result<Vec<PathBuf>, IoError> {
    let path = path.as_ref();
    let meta = std::fs::metadata(path).map_err(io_err(path))?;
    if !meta.is_dir() || format::is_problem_folder(path) {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    walk(path, &mut out, &mut seen)?;
    out.sort();
    Ok(out)
}

fn walk(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    seen: &mut std::collections::HashSet<PathBuf>,
) -> Result<(), IoError> {
    let canonical = std::fs::canonicalize(dir).map_err(io_err(dir))?;
    if !seen.insert(canonical) {
        return Ok(());
    }
    let entries = std::fs::read_dir(dir).map_err(io_err(dir))?;
    for entry in entries {
        let p = entry.map_err(io_err(dir))?.path();
        let Ok(meta) = std::fs::metadata(&p) else {
            continue; // a dangling link
        };
        if meta.is_dir() {
            if format::is_problem_folder(&p) {
                out.push(p);
            } else {
                walk(&p, out, seen)?;
            }
        } else if format::is_listed_file(&p) {
            out.push(p);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("nonsmooth_io_{tag}_{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn load_detects_formats_and_discover_skips_unknown_files() {
        let d = temp_dir("load");
        std::fs::write(d.join("a.dat"), "2 0 2 2 2 2 2 1 1 2 -5 -6\n").unwrap();
        std::fs::write(d.join("README.md"), "# not a problem").unwrap();
        std::fs::write(d.join("other.json"), "{\"hello\": 1}").unwrap();
        // HDF5 signature under another extension.
        std::fs::write(d.join("h.bin"), b"\x89HDF\r\n\x1a\nrest").unwrap();
        let ot = d.join("sub/ot");
        std::fs::create_dir_all(&ot).unwrap();
        std::fs::write(ot.join("A.dlm"), "1 1 1\n0 0 2\n").unwrap();
        std::fs::write(ot.join("b.dlm"), "1\n0 -1\n").unwrap();

        let a = load(d.join("a.dat")).unwrap();
        assert_eq!(a.format, Format::Siconos);
        assert_eq!(a.name, "a");
        assert!(matches!(
            load(d.join("other.json")).unwrap_err().kind,
            IoErrorKind::UnknownFormat
        ));
        let h = load(d.join("h.bin")).unwrap_err();
        if cfg!(feature = "hdf5") {
            assert!(matches!(h.kind, IoErrorKind::Parse { .. }), "{h}");
        } else {
            assert!(
                matches!(h.kind, IoErrorKind::FeatureDisabled("hdf5")),
                "{h}"
            );
        }
        assert_eq!(load(&ot).unwrap().format, Format::OpenTissue);
        assert_eq!(load(ot.join("A.dlm")).unwrap().path, ot);
        assert!(matches!(
            load(&d).unwrap_err().kind,
            IoErrorKind::UnknownFormat
        ));
        assert!(matches!(
            load(d.join("missing.dat")).unwrap_err().kind,
            IoErrorKind::Io(_)
        ));
        let list = discover(&d).unwrap();
        assert_eq!(
            list,
            vec![d.join("a.dat"), d.join("other.json"), ot.clone()]
        );
        assert!(discover(d.join("missing")).is_err());
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// Regression (issue 8): a FIFO as an input blocked forever, `/dev/zero` was read until
    /// memory ran out.
    #[test]
    fn only_regular_files_are_read() {
        let d = temp_dir("special");
        let fifo = d.join("pipe.dat");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        for p in [fifo.as_path(), Path::new("/dev/zero"), d.as_path()] {
            let e = read_file(p).unwrap_err();
            assert!(matches!(e.kind, IoErrorKind::NotAFile(_)), "{e}");
        }
        let e = load(&fifo).unwrap_err().to_string();
        assert!(e.contains("named pipe"), "{e}");
        // A FIFO inside a folder is listed (so that reading it says what it is), never opened.
        assert_eq!(discover(&d).unwrap(), vec![fifo.clone()]);
        std::fs::write(
            d.join("bom.dat"),
            b"\xef\xbb\xbf2 0 2 2 2 2 2 1 1 2 -5 -6\n",
        )
        .unwrap();
        let e = load(d.join("bom.dat")).unwrap_err().to_string();
        assert!(e.contains("byte-order mark"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn atomic_writes_replace_whole_files() {
        let d = temp_dir("atomic");
        let p = d.join("x.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert!(write_atomic(&d, b"x").is_err());
        assert!(write_atomic(&d.join("missing/x.txt"), b"x").is_err());
        let left: Vec<_> = std::fs::read_dir(&d).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left behind");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
