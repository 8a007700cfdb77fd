//! NumPy folders: a problem as a directory of `.npy` arrays (the layout of the
//! [module docs](super)), with an optional `meta.json` ([`super::meta`]).
//!
//! # Reading
//!
//! Every file is read whole with [`crate::io::read_file`] (regular files only,
//! at most [`MAX_FILE_BYTES`](crate::io::MAX_FILE_BYTES)), its header checked and its
//! numbers decoded by [`super::header`], and the problem assembled by [`super::assemble`].
//!
//! # Writing
//!
//! [`write`](fn@write) refuses a matrix with more than
//! [`MAX_DENSE_ENTRIES`](crate::matrix::MAX_DENSE_ENTRIES) entries before making any
//! dense copy, writes every array into a hidden sibling folder, then puts that folder in
//! the place of the target in one step, so that the target is either the old folder or
//! the whole new one (no array of a previous problem survives). It refuses a target that
//! is not a folder, or a folder holding anything but the files of [`FOLDER_FILES`]
//! ([`IoErrorKind::Refused`]).

use std::path::{Path, PathBuf};

use nalgebra::DVector;

use super::assemble::{Array, Arrays, assemble, check_labels, layout};
use super::header::{parse_ints, parse_matrix, parse_vector, show, write_matrix, write_vector};
use super::meta::Meta;
use crate::io::file::{has_entry, read_file, temporary_sibling};
use crate::io::{AnyProblem, Format, IoError, IoErrorKind, LoadedProblem, Provenance};
use crate::matrix::Matrix;
use crate::problem::{EngineAnswer, FrictionKind};

/// `true` if `dir` holds `W.npy`, `A.npy` or `M.npy`.
pub fn is_problem_folder(dir: &Path) -> bool {
    ["W.npy", "A.npy", "M.npy"]
        .iter()
        .any(|f| has_entry(dir, f))
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

fn read_matrix(dir: &Path, name: &str) -> Result<Matrix, IoError> {
    let path = dir.join(name);
    let bytes = read_file(&path)?;
    Ok(Matrix::Dense(parse_matrix(&path, &bytes)?))
}

fn read_vector(dir: &Path, name: &str) -> Result<DVector<f64>, IoError> {
    let path = dir.join(name);
    let bytes = read_file(&path)?;
    parse_vector(&path, &bytes)
}

fn read_ints(dir: &Path, name: &str) -> Result<Vec<i64>, IoError> {
    let path = dir.join(name);
    let bytes = read_file(&path)?;
    parse_ints(&path, &bytes)
}

/// The arrays of a NumPy folder: `NAME.npy` files.
struct Folder<'a>(&'a Path);

impl Arrays for Folder<'_> {
    fn has(&self, name: &str) -> bool {
        has_entry(self.0, &format!("{name}.npy"))
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

/// Reads a NumPy folder (see the [layout](super)).
///
/// # Errors
/// Missing or malformed arrays (see [`parse_header`](super::header::parse_header)), shapes that do not fit together,
/// NaN, negative `mu` ([`IoErrorKind::Problem`]), a malformed `meta.json`
/// ([`Meta::parse`]), an entry that is not a regular file ([`IoErrorKind::NotAFile`]).
pub fn load(dir: &Path) -> Result<LoadedProblem, IoError> {
    let has = |f: &str| has_entry(dir, f);
    let meta_path = dir.join("meta.json");
    let has_meta = has("meta.json");
    let meta = if has_meta {
        Meta::parse(&meta_path, &read_file(&meta_path)?, "meta.json")?
    } else {
        Meta::default()
    };
    let law = meta.law.unwrap_or_default();
    let answer_source = meta.answer_source.as_deref().or(meta.source.as_deref());
    let Some((problem, answer)) = assemble(&mut Folder(dir), law, dir, answer_source)? else {
        return Err(IoError::new(dir, IoErrorKind::UnknownFormat));
    };
    check_labels(&meta.labels, meta.pyramid.as_ref(), &problem, &meta_path)?;
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
            pyramid: meta.pyramid,
        },
        warm_start: None,
        warnings,
        elliptic: None,
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
// Writing.

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

/// Writes the arrays (`NAME.npy`) and `meta.json` into the new folder `tmp`; errors name
/// the files as they will be called in `target`.
fn write_files(
    tmp: &Path,
    target: &Path,
    arrays: &[(&str, Array)],
    meta: &Meta,
) -> Result<(), IoError> {
    use std::io::Write;
    for (name, array) in arrays {
        let file = format!("{name}.npy");
        let io = |e| IoError::new(target.join(&file), IoErrorKind::Io(e));
        let f = std::fs::File::create(tmp.join(&file)).map_err(io)?;
        let mut w = std::io::BufWriter::new(f);
        match array {
            Array::Matrix(m) => write_matrix(m, &mut w),
            Array::Floats(x) => write_vector(x, &mut w),
            Array::Ints(x) => write_vector(x, &mut w),
        }
        .map_err(|e| match e {
            ndarray_npy::WriteNpyError::Io(e) => io(e),
            e => IoError::parse(target.join(&file), "write", e.to_string()),
        })?;
        let f = w.into_inner().map_err(|e| io(e.into_error()))?;
        f.sync_all().map_err(io)?;
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
    let (arrays, law) = layout(problem, answer);
    for (name, array) in &arrays {
        if let Array::Matrix(m) = array {
            crate::matrix::check_dense(
                &format!("the NumPy writer ({name}.npy)"),
                m.nrows(),
                m.ncols(),
            )
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
    let meta = Meta::of(name, law, provenance, answer);
    let tmp = temporary_sibling(dir, "tmp");
    if std::fs::symlink_metadata(&tmp).is_ok() {
        // Left by an earlier run of a process with this id that was killed.
        remove_folder(&tmp);
    }
    std::fs::create_dir(&tmp).map_err(|e| IoError::new(&tmp, IoErrorKind::Io(e)))?;
    if let Err(e) = write_files(&tmp, dir, &arrays, &meta) {
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
    let old: PathBuf = temporary_sibling(dir, "old");
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
