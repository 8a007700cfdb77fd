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
use crate::io::format::{self, Format, Writer};
use crate::io::{AnyProblem, IoError, IoErrorKind};
use crate::problem::ProblemError;
use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// `--to`: the written formats of the table, by their `to` names.
fn to_parser() -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(
        format::writable().map(|(_, w)| PossibleValue::new(w.to).help(w.help)),
    )
    .map(|name| {
        format::writable()
            .find(|(_, w)| w.to == name)
            .map(|(f, _)| f)
            .expect("a value the parser accepted")
    })
}

/// The writer of a format of the table.
fn write_of(to: Format) -> &'static format::Write {
    to.entry()
        .write
        .as_ref()
        .expect("only written formats are chosen")
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The problem to read (any supported format).
    input: PathBuf,
    /// Output format; by default from the output's extension (.json, .dat, .npz).
    #[arg(long, value_parser = to_parser())]
    to: Option<Format>,
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
    /// Read INPUT as a trajectory (a folder of problem files taken in natural name order,
    /// or a JSON Lines file, one problem per line) and write every step, with its answer,
    /// into one rollout archive (-o FILE.npz; members step_NNNNN/NAME.npy), which `check`
    /// reads back as the same trajectory.
    #[arg(long)]
    rollout: bool,
}

/// `convert --rollout`: every step of a trajectory into one `.npz` rollout archive.
fn rollout(a: &ConvertArgs) -> Result<ExitCode, Failure> {
    use crate::io::numpy::{npz::Compression, rollout};
    if a.to.is_some_and(|t| t != Format::Npz)
        || !a
            .output
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("npz"))
    {
        return Err(Failure::Usage(format!(
            "{}: --rollout writes one .npz archive; name the output FILE.npz",
            a.output.display()
        )));
    }
    if a.local {
        return Err(Failure::Usage(
            "--local converts one global problem; it does not apply with --rollout".into(),
        ));
    }
    let jsonl = a
        .input
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl"));
    let mut inputs = vec![a.input.clone()];
    let steps: Vec<crate::io::LoadedProblem> = if jsonl {
        super::jsonl_steps(&a.input)?
            .into_iter()
            .map(|(_, lp)| lp.map_err(Failure::Input))
            .collect::<Result<_, _>>()?
    } else if a.input.is_dir() {
        let mut files = super::expand(std::slice::from_ref(&a.input))?;
        files.sort_by(|x, y| super::natural(&x.to_string_lossy(), &y.to_string_lossy()));
        inputs.extend(files.iter().cloned());
        files
            .iter()
            .map(|f| super::load(f).map_err(|e| Failure::Input(e.to_string())))
            .collect::<Result<_, _>>()?
    } else {
        return Err(Failure::Usage(format!(
            "{}: --rollout reads a trajectory: a folder of problem files or a .jsonl file",
            a.input.display()
        )));
    };
    if steps.is_empty() {
        return Err(Failure::Input(format!(
            "{}: no problems to write",
            a.input.display()
        )));
    }
    plan(&inputs, &[Output::file(Some(&a.output), "output (-o)")])?;
    let list: Vec<rollout::Step<'_>> = steps
        .iter()
        .map(|lp| rollout::Step {
            name: &lp.name,
            problem: &lp.problem,
            answer: lp.answer.as_ref(),
            provenance: &lp.provenance,
        })
        .collect();
    let compression = if a.compress {
        Compression::Deflated
    } else {
        Compression::Stored
    };
    rollout::write(&a.output, &list, compression).map_err(|e| write_failure(&a.input, e))?;
    say!(
        "wrote {} ({} steps, {} with an answer)",
        a.output.display(),
        steps.len(),
        steps.iter().filter(|s| s.answer.is_some()).count()
    );
    Ok(ExitCode::SUCCESS)
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

/// The output format: `--to`, else the output's extension (the first format of the table
/// named so).
fn output_format(to: Option<Format>, output: &Path) -> Result<Format, Failure> {
    if let Some(t) = to {
        return Ok(t);
    }
    let ext = output
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let named = format::FORMATS
        .iter()
        .find(|e| e.extensions.contains(&ext.as_str()));
    match named {
        Some(e) if e.write.is_some() => Ok(e.format),
        Some(e) if !e.write_instead.is_empty() => Err(Failure::Usage(format!(
            "{}: {}",
            output.display(),
            e.write_instead
        ))),
        _ => Err(Failure::Usage(format!(
            "{}: cannot tell the output format from the name; give --to json, siconos, numpy \
             or npz (or name the file .json, .dat or .npz)",
            output.display()
        ))),
    }
}

pub fn run(a: ConvertArgs) -> Result<ExitCode, Failure> {
    if a.rollout {
        return rollout(&a);
    }
    let to_stdout = a.output.as_os_str() == "-";
    let to = if to_stdout && a.to.is_none() {
        return Err(Failure::Usage(
            "-o -: give --to json or --to siconos to write to standard output".into(),
        ));
    } else {
        output_format(a.to, &a.output)?
    };
    let write = write_of(to);
    if to_stdout && !matches!(write.writer, Writer::Text(_)) {
        return Err(Failure::Usage(
            "NumPy folders and .npz archives cannot go to standard output; give -o PATH".into(),
        ));
    }
    if a.compress && !write.compresses {
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
    if !write.keeps_law
        && matches!(lp.problem, AnyProblem::Friction(_) | AnyProblem::Global(_))
        && lp.problem.kind() == Some(crate::problem::FrictionKind::Ccp)
    {
        return Err(Failure::Input(format!(
            "{}: a CCP problem cannot be written as {}: the format has no friction \
             law and is read back as Coulomb; write .json, .npz or a NumPy folder instead",
            a.input.display(),
            write.title
        )));
    }
    let output = if matches!(write.writer, Writer::Folder(_)) {
        Output::folder(Some(&a.output), "output (-o)")
    } else {
        Output::file(Some(&a.output), "output (-o)")
    };
    plan(std::slice::from_ref(&lp.path), &[output])?;
    match write.writer {
        Writer::Text(text) => {
            let t =
                text(&lp).map_err(|why| Failure::Input(format!("{}: {why}", a.input.display())))?;
            if to_stdout {
                let stdout = std::io::stdout();
                let mut out = stdout.lock();
                super::table::emit(&mut out, t.trim_end())?;
                return Ok(ExitCode::SUCCESS);
            }
            crate::io::write_atomic(&a.output, (t + "\n").as_bytes())
        }
        Writer::File(file) => file(&a.output, &lp, a.compress),
        Writer::Folder(folder) => folder(&a.output, &lp),
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
