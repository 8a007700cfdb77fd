//! The package's exceptions and how the crate's errors map to them: every message is the
//! crate's own text.

use nonsmooth::io::{IoError, IoErrorKind};
use nonsmooth::registry::OptionError as CrateOptionError;
use pyo3::create_exception;
use pyo3::exceptions::{
    PyFileNotFoundError, PyOSError, PyPermissionError, PyRuntimeError, PyUserWarning, PyValueError,
};
use pyo3::prelude::*;

create_exception!(
    nonsmooth,
    ProblemError,
    PyValueError,
    "The data do not make a valid problem (wrong shapes, NaN or infinity, a negative \
     friction coefficient, a non-symmetric or indefinite M), or a solver refused the \
     problem; the message is the crate's."
);
create_exception!(
    nonsmooth,
    SolveError,
    PyRuntimeError,
    "A solve that failed without an answer: diverged, ended on a secondary ray (Lemke), or \
     met a singular system. `status` names the failure; `r` holds the last finite iterate. \
     A solve that only ran out of iterations is not an error: it returns a Result with \
     status \"max-iterations\"."
);
create_exception!(
    nonsmooth,
    FormatError,
    PyValueError,
    "A file that cannot be read or written as a problem: malformed, of an unknown or \
     unsupported format, too large. Errors of the operating system are OSError."
);
create_exception!(
    nonsmooth,
    OptionError,
    PyValueError,
    "An unknown method, an option the method does not have, or a value of the wrong type \
     or out of range; the message lists what is accepted."
);

create_exception!(
    nonsmooth,
    ProblemWarning,
    PyUserWarning,
    "Something doubtful in data that still make a valid problem: a friction law assumed \
     because the file does not say it, a Delassus operator W that is not symmetric or has a \
     negative diagonal entry. The same text as the command line's warnings; \
     `problem.warnings` keeps them."
);

/// Emits each message as a [`ProblemWarning`] (stack level 2: the caller's line).
///
/// # Errors
/// When the warnings filter turns the warning into an exception.
pub fn warn_all(py: Python<'_>, messages: &[String]) -> PyResult<()> {
    let category = py.get_type::<ProblemWarning>();
    for m in messages {
        let text = std::ffi::CString::new(m.replace('\0', " ")).expect("no NUL left");
        PyErr::warn(py, &category, &text, 2)?;
    }
    Ok(())
}

/// A [`ProblemError`] with the text of `e`.
pub fn problem(e: impl std::fmt::Display) -> PyErr {
    ProblemError::new_err(e.to_string())
}

/// An [`OptionError`] with the crate's text.
pub fn option(e: CrateOptionError) -> PyErr {
    OptionError::new_err(e.to_string())
}

/// A reader's or writer's error: the operating system's as `OSError` (its subclasses for a
/// missing file and a refused permission), an invalid problem as [`ProblemError`], the rest
/// as [`FormatError`].
pub fn io(e: IoError) -> PyErr {
    let msg = e.to_string();
    match &e.kind {
        IoErrorKind::Io(err) => match err.kind() {
            std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(msg),
            std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(msg),
            _ => PyOSError::new_err(msg),
        },
        IoErrorKind::NotAFile(_) | IoErrorKind::Refused(_) => PyOSError::new_err(msg),
        IoErrorKind::Problem(_) => ProblemError::new_err(msg),
        _ => FormatError::new_err(msg),
    }
}
