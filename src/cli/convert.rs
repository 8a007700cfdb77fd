//! `nonsmooth convert`: rewrite a problem in another format.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Failure;
use super::output::{check_writable_file, refuse_inputs};
use crate::io::{AnyProblem, IoError, IoErrorKind, json, npy, siconos};
use crate::problem::ProblemError;
use clap::{Args, ValueEnum};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum To {
    /// The project's JSON (keeps the answer and provenance).
    Json,
    /// Siconos numerics text `.dat` (the problem only).
    Siconos,
    /// A folder of NumPy `.npy` arrays (keeps the answer as `r.npy`); dense, so refused
    /// beyond 2^27 entries per matrix.
    Numpy,
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The problem to read (any supported format).
    input: PathBuf,
    /// Output format.
    #[arg(long, value_enum)]
    to: To,
    /// Output file (a folder for numpy; `-` for standard output with json and siconos).
    /// Written whole (a temporary file renamed over it); never the input.
    #[arg(long, short)]
    output: PathBuf,
}

/// A writer's error: the problem cannot be written this way (1, naming the input too), or
/// the output path is wrong (2).
fn write_failure(input: &std::path::Path, e: IoError) -> Failure {
    match &e.kind {
        IoErrorKind::Problem(p @ ProblemError::TooLarge { .. }) => Failure::Input(format!(
            "{}: cannot be converted: {p}; --to json and --to siconos keep sparse matrices sparse",
            input.display()
        )),
        _ => Failure::Usage(e.to_string()),
    }
}

pub fn run(a: ConvertArgs) -> Result<ExitCode, Failure> {
    let to_stdout = a.output.as_os_str() == "-";
    if to_stdout && a.to == To::Numpy {
        return Err(Failure::Usage(
            "a NumPy folder cannot go to standard output; give -o FOLDER".into(),
        ));
    }
    let lp = super::load_one(&a.input)?;
    if !to_stdout {
        refuse_inputs(&a.output, std::slice::from_ref(&lp.path), "output")?;
        if a.to != To::Numpy {
            check_writable_file(&a.output, "output")?;
        }
    }
    let text = match (a.to, &lp.problem) {
        (To::Json, p) => Some(json::to_string(
            &lp.name,
            p,
            lp.answer.as_ref(),
            &lp.provenance,
        )),
        (To::Siconos, AnyProblem::Lcp(p)) => Some(siconos::lcp_to_string(p)),
        (To::Siconos, AnyProblem::Friction(p)) => Some(siconos::fc3d_to_string(p)),
        (To::Siconos, AnyProblem::Global(p)) => Some(siconos::gfc3d_to_string(p)),
        (To::Siconos, AnyProblem::Boxed(_)) => {
            return Err(Failure::Input(format!(
                "{}: a boxed LCP cannot be written as Siconos .dat (Siconos has no boxed-LCP \
                 file format); use --to json or --to numpy",
                a.input.display()
            )));
        }
        (To::Numpy, _) => None,
    };
    match text {
        Some(t) if to_stdout => {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            super::table::emit(&mut out, t.trim_end())?;
            return Ok(ExitCode::SUCCESS);
        }
        Some(t) => crate::io::write_atomic(&a.output, (t + "\n").as_bytes()),
        None => npy::write(&a.output, &lp.name, &lp.problem, lp.answer.as_ref()),
    }
    .map_err(|e| write_failure(&a.input, e))?;
    eprintln!(
        "nonsmooth: wrote {} ({}, {} unknowns)",
        a.output.display(),
        lp.problem.type_name(),
        lp.problem.dim()
    );
    Ok(ExitCode::SUCCESS)
}
