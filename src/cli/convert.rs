//! `nonsmooth convert`: rewrite a problem in another format.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use nonsmooth::io::{AnyProblem, json, load, npy, siconos};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum To {
    /// The project's JSON (keeps the answer and provenance).
    Json,
    /// Siconos numerics text `.dat` (the problem only).
    Siconos,
    /// A folder of NumPy `.npy` arrays (keeps the answer as `r.npy`).
    Numpy,
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The problem to read (any supported format).
    input: PathBuf,
    /// Output format.
    #[arg(long, value_enum)]
    to: To,
    /// Output file (a folder for numpy).
    #[arg(long, short)]
    output: PathBuf,
}

pub fn run(a: ConvertArgs) -> Result<ExitCode, String> {
    let lp = load(&a.input).map_err(|e| e.to_string())?;
    let e = |e: nonsmooth::io::IoError| e.to_string();
    match a.to {
        To::Json => json::write(
            &a.output,
            &lp.name,
            &lp.problem,
            lp.answer.as_ref(),
            &lp.provenance,
        )
        .map_err(e)?,
        To::Numpy => npy::write(&a.output, &lp.name, &lp.problem, lp.answer.as_ref()).map_err(e)?,
        To::Siconos => match &lp.problem {
            AnyProblem::Lcp(p) => siconos::write_lcp(&a.output, p).map_err(e)?,
            AnyProblem::Friction(p) => siconos::write_fc3d(&a.output, p).map_err(e)?,
            AnyProblem::Global(p) => siconos::write_gfc3d(&a.output, p).map_err(e)?,
            AnyProblem::Boxed(_) => {
                return Err("Siconos has no boxed-LCP file format; use --to json or numpy".into());
            }
        },
    }
    eprintln!(
        "nonsmooth: wrote {} ({}, {} unknowns)",
        a.output.display(),
        lp.problem.type_name(),
        lp.problem.dim()
    );
    Ok(ExitCode::SUCCESS)
}
