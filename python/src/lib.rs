//! The native module `nonsmooth._native` of the Python package `nonsmooth`: problems from
//! NumPy arrays and files, every method of the crate's registry, and the check of an
//! answer. The Python package (`python/nonsmooth/__init__.py`) re-exports it.
//!
//! | module | what |
//! |---|---|
//! | [`errors`] | the exceptions and how the crate's errors map to them |
//! | [`convert`] | NumPy and SciPy in, NumPy out, Python values to JSON and back |
//! | [`problem`] | `Problem`, `Answer` |
//! | [`solve`] | `solve`, `Result`, `methods` |
//! | [`check`] | `check`, `CheckReport` |

// `!(x >= 0.0)` is written on purpose: unlike `x < 0.0` it is also true for NaN.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use pyo3::prelude::*;

mod check;
mod convert;
mod errors;
mod problem;
mod records;
mod rollout;
mod solve;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<problem::PyProblem>()?;
    m.add_class::<problem::PyAnswer>()?;
    m.add_class::<solve::PyResult_>()?;
    m.add_class::<check::PyCheckReport>()?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::methods, m)?)?;
    m.add_function(wrap_pyfunction!(check::check, m)?)?;
    m.add_function(wrap_pyfunction!(rollout::write_rollout, m)?)?;
    m.add_function(wrap_pyfunction!(rollout::read_rollout, m)?)?;
    m.add_function(wrap_pyfunction!(check::_time_check, m)?)?;
    m.add_function(wrap_pyfunction!(solve::_time_solve, m)?)?;
    m.add("ProblemError", py.get_type::<errors::ProblemError>())?;
    m.add("SolveError", py.get_type::<errors::SolveError>())?;
    m.add("FormatError", py.get_type::<errors::FormatError>())?;
    m.add("OptionError", py.get_type::<errors::OptionError>())?;
    m.add("ProblemWarning", py.get_type::<errors::ProblemWarning>())?;
    Ok(())
}
