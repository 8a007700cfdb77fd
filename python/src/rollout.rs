//! Rollout archives from Python: `write_rollout` and `read_rollout`
//! (`nonsmooth::io::numpy::rollout`).

use std::path::PathBuf;

use nonsmooth::io::numpy::{npz::Compression, rollout};
use pyo3::prelude::*;

use crate::convert::vector;
use crate::errors::{self, FormatError};
use crate::problem::PyProblem;
use nonsmooth::problem::EngineAnswer;

/// Writes the steps of a rollout into one `.npz` archive (members
/// `step_NNNNN/NAME.npy`, numbered from 0 in the order given), each step a problem with
/// its answer, provenance, labels and pyramid; a dense matrix is stored as CSR where that
/// is smaller. `nonsmooth check FILE` and `read_rollout` read it back.
///
/// steps: a sequence of `Problem` (its `answer`, where present, is the engine's answer of
/// that step) or of pairs `(Problem, r)`. compress: deflate the members. Raises
/// ValueError for an empty sequence or an output that is one of the problems' own files,
/// TypeError for a step of another kind, ProblemError for an `r` of the wrong length,
/// FormatError for a path not named `.npz`, OSError from the file system.
#[pyfunction]
#[pyo3(signature = (path, steps, compress = false))]
pub fn write_rollout(
    py: Python<'_>,
    path: PathBuf,
    steps: Vec<Bound<'_, PyAny>>,
    compress: bool,
) -> PyResult<()> {
    // Each step: a Problem (its own answer), or a pair (Problem, r).
    let mut problems: Vec<PyRef<'_, PyProblem>> = Vec::with_capacity(steps.len());
    let mut answers: Vec<Option<EngineAnswer>> = Vec::with_capacity(steps.len());
    for (i, s) in steps.iter().enumerate() {
        if let Ok(p) = s.extract::<PyRef<'_, PyProblem>>() {
            answers.push(p.answer.clone());
            problems.push(p);
            continue;
        }
        let pair: (PyRef<'_, PyProblem>, Bound<'_, PyAny>) = s.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "step {i}: expected a Problem or a pair (Problem, r)"
            ))
        })?;
        let r = vector(&pair.1, "r")?;
        if r.len() != pair.0.inner.dim() {
            return Err(errors::problem(format!(
                "step {i}: r has {} numbers, the problem {} unknowns",
                r.len(),
                pair.0.inner.dim()
            )));
        }
        let answer = EngineAnswer {
            source: pair
                .0
                .answer
                .as_ref()
                .map(|a| a.source.clone())
                .unwrap_or_default(),
            r: r.as_slice().to_vec(),
            u: None,
        };
        answer
            .validate(pair.0.inner.dim())
            .map_err(|e| errors::problem(format!("step {i}: {e}")))?;
        answers.push(Some(answer));
        problems.push(pair.0);
    }
    if !path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("npz"))
    {
        return Err(FormatError::new_err(format!(
            "{}: a rollout archive is an .npz file; name it FILE.npz",
            path.display()
        )));
    }
    if steps.is_empty() {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "write_rollout: no problems to write",
        ));
    }
    let out = std::fs::canonicalize(&path).ok();
    for (i, p) in problems.iter().enumerate() {
        let from = p.path.as_ref().and_then(|f| std::fs::canonicalize(f).ok());
        if out.is_some() && from == out {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "{}: step {i} was read from this file; a rollout is never written over an input",
                path.display()
            )));
        }
    }
    let list: Vec<rollout::Step<'_>> = problems
        .iter()
        .zip(&answers)
        .map(|(p, a)| rollout::Step {
            name: &p.name,
            problem: &p.inner,
            answer: a.as_ref(),
            provenance: &p.provenance,
        })
        .collect();
    let compression = if compress {
        Compression::Deflated
    } else {
        Compression::Stored
    };
    py.detach(|| rollout::write(&path, &list, compression))
        .map_err(errors::io)
}

/// Reads every step of a rollout archive: a list of `Problem`, each with its answer
/// (`answer`), labels and provenance, in step order.
///
/// Raises FileNotFoundError / OSError from the system, FormatError for a malformed
/// archive (the message names the step's member), ProblemError for a step whose arrays
/// do not make a valid problem.
#[pyfunction]
pub fn read_rollout(py: Python<'_>, path: PathBuf) -> PyResult<Vec<PyProblem>> {
    let steps = py.detach(|| rollout::load(&path)).map_err(errors::io)?;
    Ok(steps.into_iter().map(PyProblem::from_loaded).collect())
}
