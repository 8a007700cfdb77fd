//! The command-line program's subcommands.

mod bench;
mod bench_solve;
mod check;
mod convert;
mod generate;
mod info;
mod solve;
mod table;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use nonsmooth::problem::FrictionKind;

/// Solve, inspect and check rigid-body contact problems (LCP, boxed LCP, 3D frictional
/// contact in local or global form) read from Siconos .dat, FCLIB .hdf5, OpenTissue .dlm
/// folders, MuJoCo JSON and the project's own JSON files.
#[derive(Debug, Parser)]
#[command(name = "nonsmooth", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve every problem found under the given paths and print one row per problem.
    Solve(solve::SolveArgs),
    /// Describe problems: size, sparsity, symmetry, friction range, conditioning.
    Info(info::InfoArgs),
    /// Judge an engine's answer against the problem it solved, overall and per contact.
    Check(check::CheckArgs),
    /// Write a generated scene (box stack, heavy-on-light, wall, pyramid) as a problem file.
    Generate(generate::GenerateArgs),
    /// Rewrite a problem as the project's JSON, Siconos .dat or a NumPy folder.
    Convert(convert::ConvertArgs),
    /// Time one sweep per problem, optionally side by side with Siconos's NSGS.
    Bench(bench::BenchArgs),
}

/// Parses `coulomb` / `ccp` for clap.
fn parse_kind(s: &str) -> Result<FrictionKind, String> {
    s.parse()
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        Command::Solve(a) => solve::run(a),
        Command::Info(a) => info::run(a),
        Command::Check(a) => check::run(a),
        Command::Generate(a) => generate::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Bench(a) => bench::run(a),
    }
}

/// Expands files and folders into the problem paths they contain (sorted).
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        let found = nonsmooth::io::discover(p).map_err(|e| e.to_string())?;
        if found.is_empty() {
            eprintln!("nonsmooth: {}: no problem files found", p.display());
        }
        out.extend(found);
    }
    Ok(out)
}

/// A short display name for a path: the file name (or folder name for OpenTissue).
fn short_name(p: &std::path::Path) -> String {
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}
