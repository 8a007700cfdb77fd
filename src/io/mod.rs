//! Reading and writing contact problems.
//!
//! | format | what | read | write | module |
//! |---|---|---|---|---|
//! | the project's JSON (`.json`, `"format": "nonsmooth-problem"`) | any problem, kind, optional engine answer, provenance, units | yes | yes | [`json`] |
//! | Siconos numerics text (`.dat`) | LCP, fc3d, gfc3d; NumericsMatrix dense (column-major) or sparse block | yes | yes | [`siconos`] |
//! | FCLIB HDF5 (`.hdf5`, `.h5`) | local (fc3d) and global (gfc3d) problems | with the `hdf5` feature | no | `fclib` |
//! | OpenTissue `.dlm` dump (a folder holding `A.dlm`, `b.dlm`, ...) | boxed LCP (friction box) or LCP; `lambda.dlm` as warm start | yes | no | [`opentissue`] |
//! | MuJoCo export (`.json` with `A`, `b`, `mu`, `n_contacts`, `dim`) | CCP (elliptic) or edge LCP (pyramidal) with MuJoCo's answer; the hard velocity-level view; contacts of condim 3 and 1 (condim 4 and 6 are refused) | yes | no | [`mujoco`] |
//! | NumPy folder (`W.npy`, `q.npy`, `mu.npy`, ...; `numpy.save`) | any problem, optional answer `r.npy`; dense | yes | yes | [`npy`] |
//! | NumPy archive (`.npz`; `numpy.savez`, `numpy.savez_compressed`) | any problem, optional answer; matrices dense or CSR (`W_data`, `W_indices`, `W_indptr`, `W_shape`, as scipy) | yes | yes | [`npz`] |
//!
//! The formats and conventions are those of `data/README.md` (dense Siconos
//! matrices are column-major, FCLIB triplets hold the row in `i` and the column in `p`,
//! OpenTissue writes `DBL_MAX` for an infinite bound).
//!
//! [`reference`](mod@reference) makes the project's own files in `data/` from generated
//! scenes, and a test checks that the shipped files are what it makes.
//!
//! [`load`] detects the format from the path and the first bytes and returns a
//! [`LoadedProblem`]; [`discover`] lists the problems under a folder. Readers never
//! panic: malformed input gives an [`IoError`] that names the file and what is wrong (the
//! token and line for the text formats). No size read from a file is used to allocate
//! before the data it announces is known to be there (see [`MAX_UNBACKED_DIM`]).

pub mod answer;
#[cfg(feature = "hdf5")]
pub mod fclib;
#[doc(hidden)]
pub mod json;
pub mod mujoco;
pub mod npy;
pub mod npz;
pub mod opentissue;
pub mod reference;
pub mod siconos;
pub(crate) mod text;

pub use crate::problem::{AnyProblem, Provenance};
pub use text::parse_number;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::problem::{EngineAnswer, ProblemError};

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
}

/// File formats the crate knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// The project's own JSON ([`json`]).
    Json,
    /// Siconos numerics text `.dat` ([`siconos`]).
    Siconos,
    /// FCLIB HDF5 (`fclib`, feature `hdf5`).
    Fclib,
    /// An OpenTissue `.dlm` folder ([`opentissue`]).
    OpenTissue,
    /// A MuJoCo JSON export ([`mujoco`]).
    MuJoCo,
    /// A folder of NumPy `.npy` arrays ([`npy`]).
    Numpy,
    /// A NumPy `.npz` archive, sparse matrices as CSR arrays ([`npz`]).
    Npz,
}

impl Format {
    /// Human-readable name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "nonsmooth-json",
            Format::Siconos => "siconos-dat",
            Format::Fclib => "fclib-hdf5",
            Format::OpenTissue => "opentissue-dlm",
            Format::MuJoCo => "mujoco-json",
            Format::Numpy => "numpy-folder",
            Format::Npz => "numpy-npz",
        }
    }
}

/// The largest file a reader accepts: 1 GiB. Readers read the whole file into memory and
/// index the tokens of text (8 bytes per token on top of the text), then hold the
/// numbers as triplets or vectors and build compressed rows once, so that a reader's
/// memory is a small multiple of the file's size (measured per stored entry in
/// `book/src/generated/read_scale.txt`) and the cap bounds it whatever the file says. Larger problems belong
/// in NumPy `.npz` archives (read member by member, the cap applying to each member:
/// [`npz`]) or FCLIB HDF5 files, which are read array by array.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// What [`discover`] looks for under a folder, for messages.
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

/// What went wrong reading or writing a problem file.
#[derive(Debug)]
pub struct IoError {
    /// The file concerned.
    pub path: PathBuf,
    /// What went wrong.
    pub kind: IoErrorKind,
}

/// The kinds of [`IoError`].
#[derive(Debug)]
pub enum IoErrorKind {
    /// The operating system refused (missing file, permissions).
    Io(std::io::Error),
    /// The text does not follow the format; `at` locates it (token number or line).
    Parse {
        /// Where: for example `"token 17"` or `"line 3"`.
        at: String,
        /// What was expected.
        message: String,
    },
    /// The format could not be recognised.
    UnknownFormat,
    /// The data parsed but does not make a valid problem.
    Problem(ProblemError),
    /// Reading this format needs a cargo feature that was not enabled.
    FeatureDisabled(&'static str),
    /// The file is well formed but uses a part of its format this crate does not
    /// handle (Siconos CSparse storage, an FCLIB equality block `G`, a MuJoCo contact with
    /// condim 4 or 6).
    Unsupported(String),
    /// The path is not a regular file (a FIFO, a device, a socket, a directory): readers
    /// never open those, since reading one can block forever or never end. The text
    /// names what it is.
    NotAFile(&'static str),
    /// The file is larger than [`MAX_FILE_BYTES`].
    TooLarge {
        /// Its size in bytes.
        bytes: u64,
    },
    /// A writer refused to replace what is at the output path (a NumPy folder holding
    /// other files, a file where a folder is written); nothing was touched. The text
    /// says why.
    Refused(String),
}

impl IoError {
    /// An error about `path`.
    pub fn new(path: impl Into<PathBuf>, kind: IoErrorKind) -> Self {
        IoError {
            path: path.into(),
            kind,
        }
    }

    /// A parse error about `path`.
    pub fn parse(
        path: impl Into<PathBuf>,
        at: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        IoError::new(
            path,
            IoErrorKind::Parse {
                at: at.into(),
                message: message.into(),
            },
        )
    }
}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.path.display();
        match &self.kind {
            IoErrorKind::Io(e) => write!(f, "{p}: {e}"),
            IoErrorKind::Parse { at, message } => write!(f, "{p}: {at}: {message}"),
            IoErrorKind::UnknownFormat => write!(f, "{p}: unrecognised problem format"),
            IoErrorKind::Problem(e) => write!(f, "{p}: invalid problem: {e}"),
            IoErrorKind::FeatureDisabled(feat) => write!(
                f,
                "{p}: reading this format needs the `{feat}` cargo feature (cargo build --features {feat})"
            ),
            IoErrorKind::Unsupported(msg) => write!(f, "{p}: not supported: {msg}"),
            IoErrorKind::NotAFile(what) => write!(
                f,
                "{p}: not a regular file ({what}); problems are read from regular files only"
            ),
            IoErrorKind::TooLarge { bytes } => write!(
                f,
                "{p}: the file has {bytes} bytes, more than the {MAX_FILE_BYTES} bytes (1 GiB) \
                 the readers accept; store large problems as NumPy .npz archives (sparse, \
                 binary, read member by member) or FCLIB HDF5"
            ),
            IoErrorKind::Refused(msg) => write!(f, "{p}: {msg}"),
        }
    }
}

impl std::error::Error for IoError {}

const HDF5_MAGIC: &[u8] = b"\x89HDF\r\n\x1a\n";

/// `true` if [`load`] would hand `path` to the FCLIB (HDF5) reader: a regular file named
/// `.hdf5` or `.h5`, or one that starts with the HDF5 signature. Reads at most 8 bytes.
pub fn is_hdf5_file(path: &Path) -> bool {
    use std::io::Read;
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    if matches!(extension(path).as_str(), "hdf5" | "h5") {
        return true;
    }
    let mut head = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| head == HDF5_MAGIC)
}

fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> IoError + '_ {
    move |e| IoError::new(path, IoErrorKind::Io(e))
}

/// What a file type is, in words, when it is not a regular file.
fn not_a_file(ft: std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_file() {
        None
    } else if ft.is_dir() {
        Some("a directory")
    } else if ft.is_fifo() {
        Some("a named pipe (FIFO)")
    } else if ft.is_char_device() {
        Some("a character device")
    } else if ft.is_block_device() {
        Some("a block device")
    } else if ft.is_socket() {
        Some("a socket")
    } else {
        Some("not a file")
    }
}

/// Reads a whole input file, refusing anything but a regular file of at most
/// [`MAX_FILE_BYTES`]. The type is checked before the file is opened (opening a FIFO
/// blocks until someone writes to it) and again on the open file, and no more than the
/// cap is ever read (a file that grows while being read is caught too).
///
/// # Errors
/// [`IoErrorKind::Io`] (missing, permissions), [`IoErrorKind::NotAFile`],
/// [`IoErrorKind::TooLarge`].
pub fn read_file(path: &Path) -> Result<Vec<u8>, IoError> {
    use std::io::Read;
    let file = open_regular(path)?;
    let meta = file.metadata().map_err(io_err(path))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(IoError::new(
            path,
            IoErrorKind::TooLarge { bytes: meta.len() },
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io_err(path))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(IoError::new(
            path,
            IoErrorKind::TooLarge {
                bytes: bytes.len() as u64,
            },
        ));
    }
    Ok(bytes)
}

/// Opens a regular file for reading: the type is checked before the file is opened
/// (opening a FIFO blocks until someone writes to it) and again on the open file.
///
/// # Errors
/// [`IoErrorKind::Io`] (missing, permissions), [`IoErrorKind::NotAFile`].
pub(crate) fn open_regular(path: &Path) -> Result<std::fs::File, IoError> {
    let meta = std::fs::metadata(path).map_err(io_err(path))?;
    if let Some(what) = not_a_file(meta.file_type()) {
        return Err(IoError::new(path, IoErrorKind::NotAFile(what)));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        // O_NONBLOCK: if the path was swapped for a FIFO since the check, opening it
        // returns at once instead of waiting for a writer.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(0o4000);
    }
    let file = options.open(path).map_err(io_err(path))?;
    let meta = file.metadata().map_err(io_err(path))?;
    if let Some(what) = not_a_file(meta.file_type()) {
        return Err(IoError::new(path, IoErrorKind::NotAFile(what)));
    }
    Ok(file)
}

/// A JSON error as an [`IoError`]: where (line and column), what serde found wrong, and
/// the text at that place with invisible characters named; a number beyond the largest
/// double is named as such (serde only says "number out of range").
pub(crate) fn json_error(path: &Path, bytes: &[u8], e: &serde_json::Error) -> IoError {
    let at = format!("line {} column {}", e.line(), e.column());
    let line = bytes
        .split(|&b| b == b'\n')
        .nth(e.line().saturating_sub(1))
        .unwrap_or(&[]);
    let col = e.column().min(line.len());
    let is_num = |b: u8| b.is_ascii_digit() || b"+-.eE".contains(&b);
    let mut start = col;
    while start > 0 && is_num(line[start - 1]) {
        start -= 1;
    }
    let mut end = col;
    while end < line.len() && is_num(line[end]) {
        end += 1;
    }
    let message = e.to_string();
    let message = message
        .rsplit_once(" at line ")
        .map(|(m, _)| m.to_string())
        .unwrap_or(message);
    if message.contains("number out of range") && end > start {
        let token = String::from_utf8_lossy(&line[start..end]);
        return IoError::parse(
            path,
            at,
            format!(
                "`{}` is beyond the largest double-precision number (about 1.8e308)",
                text::show(&token)
            ),
        );
    }
    let from = col.saturating_sub(24);
    let to = (col + 12).min(line.len());
    let near = String::from_utf8_lossy(&line[from..to]);
    let near = near.trim();
    if near.is_empty() {
        IoError::parse(path, at, message)
    } else {
        IoError::parse(path, at, format!("{message}, near `{}`", text::show(near)))
    }
}

/// Writes `bytes` to `path` atomically: into a temporary file beside it, then renamed
/// over it, so that a reader never sees a half-written file and a failed write leaves
/// the old file (or nothing) in place. `path` may not be a directory; its folder must
/// exist.
///
/// # Errors
/// [`IoErrorKind::Io`] with what the file system reports (the temporary file is removed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), IoError> {
    use std::io::Write;
    if path.is_dir() {
        return Err(IoError::new(path, IoErrorKind::NotAFile("a directory")));
    }
    let tmp = temporary_sibling(path, "tmp");
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(IoError::new(path, IoErrorKind::Io(e)));
    }
    Ok(())
}

/// A hidden name beside `path` for a temporary file or folder: `.NAME.nonsmooth-TAG-PID`.
pub(crate) fn temporary_sibling(path: &Path, tag: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".to_string());
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    dir.join(format!(".{name}.nonsmooth-{tag}-{}", std::process::id()))
}

/// `true` if `dir/name` exists in any form (a file, a folder, a pipe, a dangling link):
/// the folder is then meant as a problem of that format, and reading `name` says what is
/// wrong with it rather than the folder being skipped.
pub(crate) fn has_entry(dir: &Path, name: &str) -> bool {
    std::fs::symlink_metadata(dir.join(name)).is_ok()
}

/// Reads a problem from `path`, detecting the format:
///
/// * a folder holding `A.dlm` (or a `.dlm` file inside one) is an OpenTissue problem;
/// * a file starting with the HDF5 signature, or named `.hdf5` / `.h5`, is FCLIB
///   ([`IoErrorKind::FeatureDisabled`]`("hdf5")` without the `hdf5` feature);
/// * a file named `.npz`, or starting with a zip signature (`PK\x03\x04`), is a NumPy
///   archive ([`npz`]), read member by member;
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
    let mut lp = load_format(path.as_ref())?;
    let doubts = lp.problem.data_warnings();
    lp.warnings.extend(doubts);
    Ok(lp)
}

/// [`load`] without the data warnings.
fn load_format(path: &Path) -> Result<LoadedProblem, IoError> {
    let meta = std::fs::metadata(path).map_err(io_err(path))?;
    if meta.is_dir() {
        if opentissue::is_problem_folder(path) {
            return opentissue::load(path);
        }
        if npy::is_problem_folder(path) {
            return npy::load(path);
        }
        return Err(IoError::new(path, IoErrorKind::UnknownFormat));
    }
    let ext = extension(path);
    if ext == "dlm" {
        if let Some(dir) = path.parent().filter(|d| opentissue::is_problem_folder(d)) {
            return opentissue::load(dir);
        }
    }
    if let Some(what) = not_a_file(meta.file_type()) {
        return Err(IoError::new(path, IoErrorKind::NotAFile(what)));
    }
    if ext == "npz" {
        // Read member by member; each member is capped, not the archive (see [`npz`]).
        return npz::load(path);
    }
    if meta.len() > MAX_FILE_BYTES && ext != "hdf5" && ext != "h5" {
        return Err(IoError::new(
            path,
            IoErrorKind::TooLarge { bytes: meta.len() },
        ));
    }
    if ext == "hdf5" || ext == "h5" {
        return load_hdf5(path);
    }
    let bytes = read_file(path)?;
    if bytes.starts_with(HDF5_MAGIC) {
        return load_hdf5(path);
    }
    if npz::is_zip(&bytes) {
        return npz::from_bytes(path, &bytes);
    }
    if bytes.starts_with(b"\xef\xbb\xbf") {
        return Err(IoError::parse(
            path,
            "byte 0",
            "the file starts with a UTF-8 byte-order mark (bytes EF BB BF, U+FEFF), which \
             none of the text formats allow; remove it (for example `sed -i '1s/^\\xEF\\xBB\\xBF//'`)",
        ));
    }
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'{') || ext == "json" {
        return load_json(path, &bytes);
    }
    siconos::from_bytes(path, &bytes)
}

#[cfg(feature = "hdf5")]
fn load_hdf5(path: &Path) -> Result<LoadedProblem, IoError> {
    fclib::read(path)
}

#[cfg(not(feature = "hdf5"))]
fn load_hdf5(path: &Path) -> Result<LoadedProblem, IoError> {
    Err(IoError::new(path, IoErrorKind::FeatureDisabled("hdf5")))
}

/// Reads JSON bytes as the project's format or a MuJoCo export.
pub fn load_json(path: &Path, bytes: &[u8]) -> Result<LoadedProblem, IoError> {
    // Which keys are present, without building the document: the values are skipped
    // (a `serde_json::Value` of a large file costs hundreds of bytes per number).
    #[derive(serde::Deserialize)]
    #[allow(non_snake_case, dead_code)]
    struct Keys {
        format: Option<serde::de::IgnoredAny>,
        A: Option<serde::de::IgnoredAny>,
        b: Option<serde::de::IgnoredAny>,
        mu: Option<serde::de::IgnoredAny>,
        n_contacts: Option<serde::de::IgnoredAny>,
    }
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|&b| b != b'{') {
        // Let serde report a syntax error first; a well-formed non-object is named.
        serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
            .map_err(|e| json_error(path, bytes, &e))?;
        return Err(IoError::parse(
            path,
            "line 1",
            "a JSON problem file holds one object `{...}`; this one holds another JSON value",
        ));
    }
    let keys: Keys = serde_json::from_slice(bytes).map_err(|e| json_error(path, bytes, &e))?;
    if keys.format.is_some() {
        return json::from_bytes(path, bytes);
    }
    if keys.A.is_some() && keys.b.is_some() && keys.mu.is_some() && keys.n_contacts.is_some() {
        return Ok(mujoco::from_bytes(path, bytes)?.into_loaded(path));
    }
    Err(IoError::new(path, IoErrorKind::UnknownFormat))
}

/// The problems under `path`, sorted: `path` itself if it is a file or an OpenTissue or
/// NumPy folder, else every `.dat`, `.json`, `.npz`, `.hdf5` and `.h5` entry and every folder
/// holding `A.dlm` or `W.npy` / `A.npy` / `M.npy` (one entry per folder) found
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
    if !meta.is_dir() || opentissue::is_problem_folder(path) || npy::is_problem_folder(path) {
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
            if opentissue::is_problem_folder(&p) || npy::is_problem_folder(&p) {
                out.push(p);
            } else {
                walk(&p, out, seen)?;
            }
        } else if matches!(
            extension(&p).as_str(),
            "dat" | "json" | "npz" | "hdf5" | "h5"
        ) {
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
