//! Rollout archives: every step of a simulation in one `.npz` file.
//!
//! A rollout archive is a zip archive (as `numpy.savez` writes it) holding, for each step
//! `K` (0, 1, 2, ...), the members of that step's [problem archive](super::npz) under the
//! prefix `step_KKKKK/` (five digits or more): `step_00000/W_data.npy`,
//! `step_00000/W_indices.npy`, ..., `step_00000/q.npy`, `step_00000/mu.npy`,
//! `step_00000/r.npy` (the engine's answer), `step_00000/meta.npy` (name, law, units,
//! labels, pyramid). A sparse matrix is written as its CSR members, and so is a dense one
//! whose nonzeros take less room that way (an engine's `W` of a pile, handed over dense,
//! is a few percent full): a step costs its nonzeros, not `(3nc)²`. In Python:
//!
//! ```python
//! f = np.load("rollout.npz")
//! steps = sorted({k.split("/")[0] for k in f.files})        # ["step_00000", ...]
//! q0 = f["step_00000/q"]
//! ```
//!
//! # Reading
//! Every member must be `step_<digits>/NAME.npy`; a member outside any step is an error
//! naming it, and so is a step number that appears under two spellings. Steps are read
//! in the order of their numbers (gaps allowed: a step without contacts may be left out),
//! each with all the checks of the problem archive, its errors naming the member
//! (`rollout.npz/step_00003/W_indptr.npy`). A step's name defaults to `step_KKKKK`.
//!
//! # Writing
//! [`write`](fn@write) numbers the steps from 0 in the order given, with the member
//! layout and compression of [`super::npz::write`] (dense matrices stored sparse where
//! that is smaller, above), and replaces the target whole
//! ([`crate::io::write_atomic`]).

use std::collections::BTreeMap;
use std::path::Path;

use super::npz::{Compression, members_with, read_problem, zip_members};
use crate::io::{AnyProblem, IoError, IoErrorKind, LoadedProblem, Provenance};
use crate::problem::EngineAnswer;

/// The step number of a member named `step_<digits>/...`, if it is one.
pub fn step_of(member: &str) -> Option<u64> {
    let (head, _) = member.split_once('/')?;
    let digits = head.strip_prefix("step_")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The prefix of step `k`: `step_00007/`.
pub fn prefix(k: usize) -> String {
    format!("step_{k:05}/")
}

/// The steps of the archive at `bytes`-backed `reader`: `(number, prefix)` in order.
fn steps_of<R: std::io::Read + std::io::Seek>(
    path: &Path,
    reader: R,
) -> Result<Vec<(u64, String)>, IoError> {
    let zip = zip::ZipArchive::new(reader).map_err(|e| {
        IoError::parse(
            path,
            "zip",
            format!("not a readable zip archive (an .npz rollout is one): {e}"),
        )
    })?;
    let mut steps: BTreeMap<u64, String> = BTreeMap::new();
    for name in zip.file_names() {
        let Some(k) = step_of(name) else {
            return Err(IoError::parse(
                path.join(name),
                "zip",
                format!(
                    "member `{}` is not in a step; a rollout archive holds only \
                     step_NNNNN/NAME.npy members",
                    super::header::show(name.as_bytes(), 60)
                ),
            ));
        };
        let head = format!("{}/", name.split_once('/').map_or("", |(h, _)| h));
        match steps.get(&k) {
            Some(p) if *p != head => {
                return Err(IoError::parse(
                    path.join(name),
                    "zip",
                    format!("step {k} is written both as `{p}` and as `{head}`"),
                ));
            }
            Some(_) => {}
            None => {
                steps.insert(k, head);
            }
        }
    }
    Ok(steps.into_iter().collect())
}

/// Whether the archive at `path` is a rollout (its first member is in a step). `false`
/// for anything unreadable (the reader says why).
pub fn is_rollout(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let Ok(zip) = zip::ZipArchive::new(std::io::BufReader::new(file)) else {
        return false;
    };
    zip.file_names()
        .next()
        .is_some_and(|n| step_of(n).is_some())
}

/// Reads every step: the archive is opened once to list the steps, then once per step
/// (`open` gives a reader at its start and the archive's length).
fn read_steps<R: std::io::Read + std::io::Seek>(
    path: &Path,
    open: impl Fn() -> Result<(R, u64), IoError>,
) -> Result<Vec<LoadedProblem>, IoError> {
    let steps = steps_of(path, open()?.0)?;
    if steps.is_empty() {
        return Err(IoError::parse(
            path,
            "zip",
            "the rollout archive holds no step",
        ));
    }
    steps
        .iter()
        .map(|(_, p)| {
            let (reader, len) = open()?;
            read_problem(path, reader, len, p)
        })
        .collect()
}

/// Reads every step of a rollout archive from memory (`path` names it in messages).
///
/// # Errors
/// As [`super::npz::from_bytes`] for each step, naming the step's member; a member
/// outside any step; an archive without steps.
pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Vec<LoadedProblem>, IoError> {
    read_steps(path, || {
        Ok((std::io::Cursor::new(bytes), bytes.len() as u64))
    })
}

/// Reads every step of the rollout archive `path`, member by member (each member at most
/// [`crate::io::MAX_FILE_BYTES`] uncompressed).
///
/// # Errors
/// As [`from_bytes`]; also [`IoErrorKind::Io`] and [`IoErrorKind::NotAFile`].
pub fn load(path: &Path) -> Result<Vec<LoadedProblem>, IoError> {
    read_steps(path, || {
        let file = crate::io::file::open_regular(path)?;
        let len = file
            .metadata()
            .map_err(|e| IoError::new(path, IoErrorKind::Io(e)))?
            .len();
        Ok((std::io::BufReader::with_capacity(1 << 20, file), len))
    })
}

/// One step to write: its name, problem, answer and provenance (as
/// [`super::npz::write`] takes them).
#[derive(Debug, Clone, Copy)]
pub struct Step<'a> {
    /// The step's name (kept in its `meta`).
    pub name: &'a str,
    /// Its problem.
    pub problem: &'a AnyProblem,
    /// The engine's answer, if any.
    pub answer: Option<&'a EngineAnswer>,
    /// Units, labels, pyramid.
    pub provenance: &'a Provenance,
}

/// The bytes of the rollout archive of `steps`, numbered from 0.
///
/// # Errors
/// As [`super::npz::to_bytes`] for each step.
pub fn to_bytes(steps: &[Step<'_>], compression: Compression) -> Result<Vec<u8>, IoError> {
    let mut all = Vec::new();
    for (k, s) in steps.iter().enumerate() {
        let p = prefix(k);
        for (m, bytes) in members_with(s.name, s.problem, s.answer, s.provenance, true)? {
            all.push((format!("{p}{m}"), bytes));
        }
    }
    zip_members("rollout", &all, compression)
}

/// Writes `steps` as the rollout archive `path`, replaced whole.
///
/// # Errors
/// As [`to_bytes`]; [`IoErrorKind::Io`] with what the file system reports.
pub fn write(path: &Path, steps: &[Step<'_>], compression: Compression) -> Result<(), IoError> {
    let bytes = to_bytes(steps, compression).map_err(|e| IoError {
        path: path.to_path_buf(),
        kind: e.kind,
    })?;
    crate::io::write_atomic(path, &bytes)
}
