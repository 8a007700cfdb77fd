//! Reading and writing contact problems.
//!
//! | format | read | write | module |
//! |---|---|---|---|
//! | the project's JSON (problem, kind, optional engine answer, provenance, units) | yes | yes | [`json`] |
//!
//! [`load`] detects the format from the path and the first bytes and returns a
//! [`LoadedProblem`]. Readers never panic: malformed input gives an [`IoError`] that names
//! the file and what is wrong.

pub mod json;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::problem::{
    BoxedLcp, EngineAnswer, FrictionContact, GlobalFrictionContact, Lcp, ProblemError,
};

/// Any of the crate's problems.
#[derive(Debug)]
pub enum AnyProblem {
    /// A linear complementarity problem.
    Lcp(Lcp),
    /// A boxed LCP with variable (friction) bounds.
    Boxed(BoxedLcp),
    /// A local 3D frictional contact problem.
    Friction(FrictionContact),
    /// A global (velocity-space) 3D frictional contact problem.
    Global(GlobalFrictionContact),
}

impl AnyProblem {
    /// Short name of the problem type: `"lcp"`, `"boxed-lcp"`, `"fc3d"`, `"gfc3d"`.
    pub fn type_name(&self) -> &'static str {
        match self {
            AnyProblem::Lcp(_) => "lcp",
            AnyProblem::Boxed(_) => "boxed-lcp",
            AnyProblem::Friction(_) => "fc3d",
            AnyProblem::Global(_) => "gfc3d",
        }
    }

    /// Number of unknowns (`n` for LCPs, `3 nc` for friction problems).
    pub fn dim(&self) -> usize {
        match self {
            AnyProblem::Lcp(p) => p.dim(),
            AnyProblem::Boxed(p) => p.dim(),
            AnyProblem::Friction(p) => p.dim(),
            AnyProblem::Global(p) => p.dim(),
        }
    }

    /// Number of contacts (0 for LCPs).
    pub fn contacts(&self) -> usize {
        match self {
            AnyProblem::Lcp(_) | AnyProblem::Boxed(_) => 0,
            AnyProblem::Friction(p) => p.contacts(),
            AnyProblem::Global(p) => p.contacts(),
        }
    }
}

/// Where a problem came from and what its numbers mean.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Provenance {
    /// The program that made the problem (for example `"Siconos 4.4 test suite"`,
    /// `"MuJoCo 4.0.0"`, `"nonsmooth::multibody"`).
    #[serde(default)]
    pub source: String,
    /// Free text: scene, parameters, conversions applied.
    #[serde(default)]
    pub description: String,
    /// Units of the unknowns and data, for example `{"r": "N s", "u": "m/s"}`.
    #[serde(default)]
    pub units: std::collections::BTreeMap<String, String>,
}

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
    /// Provenance and units.
    pub provenance: Provenance,
}

/// File formats the crate knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The project's own JSON.
    Json,
}

impl Format {
    /// Human-readable name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "nonsmooth-json",
        }
    }
}

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
        }
    }
}

impl std::error::Error for IoError {}

/// Reads a problem from `path`, detecting the format.
pub fn load(path: impl AsRef<Path>) -> Result<LoadedProblem, IoError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| IoError::new(path, IoErrorKind::Io(e)))?;
    json::from_bytes(path, &bytes)
}

/// Expands `path` into the problem files it holds: itself if it is a file, else the
/// `.json` files below it, sorted.
pub fn discover(path: impl AsRef<Path>) -> Result<Vec<PathBuf>, IoError> {
    let path = path.as_ref();
    let meta = std::fs::metadata(path).map_err(|e| IoError::new(path, IoErrorKind::Io(e)))?;
    if meta.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| IoError::new(&dir, IoErrorKind::Io(e)))?;
        for entry in entries {
            let p = entry
                .map_err(|e| IoError::new(&dir, IoErrorKind::Io(e)))?
                .path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "json") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}
