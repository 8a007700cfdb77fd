//! `nonsmooth convert`: rewrite a problem in another format.
//!
//! Reads any format [`crate::io::load`] reads; writes the project's JSON, Siconos `.dat`,
//! a NumPy folder or a NumPy `.npz` archive. FCLIB HDF5 is read only: writing it would
//! need the FCLIB group layout written through the HDF5 C library (the optional `hdf5`
//! feature), which no caller has needed; `.npz` is the binary exchange format for large
//! problems instead.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Failure;
use super::output::{Output, plan};
use crate::io::{AnyProblem, IoError, IoErrorKind, json, npy, npz, siconos};
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
    /// A NumPy `.npz` archive: sparse matrices as CSR arrays, answer and provenance kept.
    Npz,
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The problem to read (any supported format).
    input: PathBuf,
    /// Output format; by default from the output's extension (.json, .dat, .npz).
    #[arg(long, value_enum)]
    to: Option<To>,
    /// Output file (a folder for numpy; `-` for standard output with json and siconos).
    /// Written whole (a temporary file renamed over it); never the input.
    #[arg(long, short)]
    output: PathBuf,
    /// Deflate the members of an .npz archive (as numpy.savez_compressed): smaller,
    /// slower to write and read.
    #[arg(long)]
    compress: bool,
    /// Write the local form (W = H^T M^-1 H, q_loc = H^T M^-1 q + b) of a global problem
    /// instead of its global form (M, H, q, b, mu), which is kept by default.
    #[arg(long)]
    local: bool,
}

/// A writer's error: the problem cannot be written this way (1, naming the input too), or
/// the output path is wrong (2).
fn write_failure(input: &Path, e: IoError) -> Failure {
    match &e.kind {
        IoErrorKind::Problem(p @ ProblemError::TooLarge { .. }) => Failure::Input(format!(
            "{}: cannot be converted: {p}; --to json, --to siconos and --to npz keep sparse \
             matrices sparse",
            input.display()
        )),
        _ => Failure::Usage(e.to_string()),
    }
}

/// The output format: `--to`, else the output's extension.
fn output_format(to: Option<To>, output: &Path) -> Result<To, Failure> {
    if let Some(t) = to {
        return Ok(t);
    }
    let ext = output
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "json" => Ok(To::Json),
        "dat" => Ok(To::Siconos),
        "npz" => Ok(To::Npz),
        "hdf5" | "h5" => Err(Failure::Usage(format!(
            "{}: FCLIB HDF5 is read, not written, by nonsmooth; write .npz (sparse, binary, \
             read by numpy.load) or .json instead",
            output.display()
        ))),
        _ => Err(Failure::Usage(format!(
            "{}: cannot tell the output format from the name; give --to json, siconos, numpy \
             or npz (or name the file .json, .dat or .npz)",
            output.display()
        ))),
    }
}

pub fn run(a: ConvertArgs) -> Result<ExitCode, Failure> {
    let to_stdout = a.output.as_os_str() == "-";
    let to = if to_stdout && a.to.is_none() {
        return Err(Failure::Usage(
            "-o -: give --to json or --to siconos to write to standard output".into(),
        ));
    } else {
        output_format(a.to, &a.output)?
    };
    if to_stdout && matches!(to, To::Numpy | To::Npz) {
        return Err(Failure::Usage(
            "NumPy folders and .npz archives cannot go to standard output; give -o PATH".into(),
        ));
    }
    if a.compress && to != To::Npz {
        return Err(Failure::Usage(
            "--compress applies to .npz output only".into(),
        ));
    }
    let mut lp = super::load_one(&a.input)?;
    if a.local {
        let AnyProblem::Global(g) = &lp.problem else {
            return Err(Failure::Usage(format!(
                "{}: --local applies to a global problem (M, H); this one is {}",
                a.input.display(),
                lp.problem.noun()
            )));
        };
        let local = g
            .to_local()
            .map_err(|e| Failure::Input(format!("{}: {e}", a.input.display())))?;
        // An answer is per contact (r and u have 3nc entries) in both forms: kept.
        lp.problem = AnyProblem::Friction(local);
    }
    // (a generic mechanical problem is refused below whatever its law)
    if to == To::Siconos
        && matches!(lp.problem, AnyProblem::Friction(_) | AnyProblem::Global(_))
        && lp.problem.kind() == Some(crate::problem::FrictionKind::Ccp)
    {
        return Err(Failure::Input(format!(
            "{}: a CCP problem cannot be written as Siconos .dat: the format has no friction \
             law and is read back as Coulomb; write .json, .npz or a NumPy folder instead",
            a.input.display()
        )));
    }
    let output = if to == To::Numpy {
        Output::folder(Some(&a.output), "output (-o)")
    } else {
        Output::file(Some(&a.output), "output (-o)")
    };
    plan(std::slice::from_ref(&lp.path), &[output])?;
    let text = match (to, &lp.problem) {
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
                 file format); use --to json, --to numpy or --to npz",
                a.input.display()
            )));
        }
        (To::Siconos, AnyProblem::Generic(_)) => {
            return Err(Failure::Input(format!(
                "{}: a generic mechanical problem cannot be written as Siconos .dat (the \
                 Siconos formats hold LCPs and fc3d/gfc3d problems); use --to json, --to npz or \
                 --to numpy",
                a.input.display()
            )));
        }
        (To::Numpy | To::Npz, _) => None,
    };
    match text {
        Some(t) if to_stdout => {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            super::table::emit(&mut out, t.trim_end())?;
            return Ok(ExitCode::SUCCESS);
        }
        Some(t) => crate::io::write_atomic(&a.output, (t + "\n").as_bytes()),
        None if to == To::Npz => npz::write(
            &a.output,
            &lp.name,
            &lp.problem,
            lp.answer.as_ref(),
            &lp.provenance,
            if a.compress {
                npz::Compression::Deflated
            } else {
                npz::Compression::Stored
            },
        ),
        None => npy::write_with_provenance(
            &a.output,
            &lp.name,
            &lp.problem,
            lp.answer.as_ref(),
            &lp.provenance,
        ),
    }
    .map_err(|e| write_failure(&a.input, e))?;
    say!(
        "wrote {} ({}, {} unknowns)",
        a.output.display(),
        lp.problem.type_name(),
        lp.problem.dim()
    );
    Ok(ExitCode::SUCCESS)
}
