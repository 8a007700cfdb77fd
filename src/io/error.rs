//! What goes wrong reading or writing a problem file: [`IoError`] names the file, and
//! [`IoErrorKind`] says what happened. Every reader and writer of [`io`](super) returns it.

use std::fmt;
use std::path::PathBuf;

use super::MAX_FILE_BYTES;
use crate::problem::ProblemError;

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
    /// The file was read but does not hold what was asked of it: an answer file
    /// ([`super::answer::read`]) whose numbers are not numbers, too few or too many, or
    /// not finite. The text says what.
    Content(String),
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
            IoErrorKind::Refused(msg) | IoErrorKind::Content(msg) => write!(f, "{p}: {msg}"),
        }
    }
}

impl std::error::Error for IoError {}
