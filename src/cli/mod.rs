//! The command-line program `nonsmooth` (its `main` is in `src/main.rs`).
//!
//! It lives in the library so that the fuzz target `cli_args` can run the argument parser
//! ([`parse_args`]) on arbitrary input; it is not part of the crate's stable API.
//!
//! # Exit status
//! * `0`: every problem was read and solved (`solve`), described (`info`), the answer
//!   accepted (`check`), the file written (`convert`, `generate`), everything timed (`bench`).
//! * `1`: a problem could not be read or is invalid, a solve did not converge, an answer
//!   was rejected, a conversion is impossible for this problem, or standard output was
//!   closed before everything was reported (`nonsmooth solve ... | head`).
//! * `2`: the command line cannot be carried out as written: an unknown option, a value out
//!   of range, a path that does not exist or holds no problem, an output that would
//!   overwrite an input.

/// Prints a message on standard error after the program's name, with every invisible,
/// control or text-direction character written out ([`crate::io::text::visible`]): a file
/// name with a right-to-left override cannot reorder the line.
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("nonsmooth: {}", $crate::io::text::visible(&format!($($arg)*)))
    };
}

mod args;
mod bench;
mod check;
mod convert;
mod generate;
mod info;
mod isolated;
mod methods;
mod output;
mod simulate;
mod solve;
mod table;

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use args::{MAX_CONTACTS, MAX_SWEEPS};
/// Campaign records and performance profiles of `nonsmooth bench` (Dolan and Moré 2002).
pub use bench::profile;
/// The ratio tables of `nonsmooth bench ratios`: best of ours over best of Siconos.
pub use bench::ratios;
pub use isolated::{
    LIMIT as FCLIB_READ_LIMIT, LIMIT_VARIABLE as FCLIB_READ_LIMIT_VARIABLE,
    MEMORY_LIMIT_KIB as FCLIB_READ_MEMORY_KIB,
};

/// Solve, inspect and check rigid-body contact problems (LCP, boxed LCP, 3D frictional
/// contact in local or global form) read from Siconos .dat, FCLIB .hdf5, OpenTissue .dlm
/// folders, MuJoCo JSON, NumPy folders, NumPy .npz archives and the project's own JSON files.
///
/// Exit status: 0 success; 1 a problem could not be read, did not converge or was
/// rejected; 2 usage error (bad option, missing path, output that would overwrite an input).
#[derive(Debug, Parser)]
#[command(
    name = "nonsmooth",
    version,
    about,
    long_about = None,
    max_term_width = 100,
    after_help = "Environment:\n  NONSMOOTH_FCLIB_READ_SECONDS  seconds allowed to read one FCLIB .hdf5 file \
                  (default 30; each is read in a child process)"
)]
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
    /// Judge an engine's answer: its error overall and per contact, its distance to a reference.
    ///
    /// The answer is judged against the problem it solved, and its distance measured to a
    /// reference solution the program computes (unless --no-reference); a folder or a .jsonl
    /// file is a trajectory, judged step by step.
    Check(check::CheckArgs),
    /// Write a generated scene (box stack, heavy-on-light, wall, pyramid) as a problem file.
    Generate(generate::GenerateArgs),
    /// Rewrite a problem as JSON, Siconos .dat, a NumPy folder or a NumPy .npz archive.
    Convert(convert::ConvertArgs),
    /// Time a method per iteration or per whole solve, optionally beside Siconos.
    Bench(bench::BenchArgs),
    /// List the methods, the problem types each solves, and their options with defaults.
    Methods(methods::MethodsArgs),
    /// Run a scene over time, with any method as the contact solver.
    ///
    /// Time stepping, collision detection and error correction; prints a row per step, or
    /// JSON Lines.
    Simulate(simulate::SimulateArgs),
    /// Reads one FCLIB file and prints it as JSON: the child process that keeps the HDF5 C
    /// library out of the program's own process (see `cli/isolated.rs`).
    #[command(name = "internal-read-fclib", hide = true)]
    InternalReadFclib {
        /// The FCLIB file.
        path: PathBuf,
    },
}

/// Why a subcommand stopped.
#[derive(Debug)]
pub enum Failure {
    /// The command line cannot be carried out as written (exit status 2).
    Usage(String),
    /// An input could not be read, or the problem it holds cannot be handled (exit 1).
    Input(String),
    /// Standard output was closed before everything was written (exit 1, no message).
    Closed,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Usage(m) | Failure::Input(m) => f.write_str(m),
            Failure::Closed => f.write_str("standard output was closed"),
        }
    }
}

/// Plain strings are usage errors (what clap-level checks and path checks produce).
impl From<String> for Failure {
    fn from(m: String) -> Self {
        Failure::Usage(m)
    }
}

impl From<crate::io::IoError> for Failure {
    fn from(e: crate::io::IoError) -> Self {
        Failure::Input(e.to_string())
    }
}

/// Parses a command line (`args[0]` is the program name) and checks every value, without
/// touching any file: what the fuzz target `cli_args` calls.
///
/// # Errors
/// The message clap or a value check produces.
pub fn parse_args<I, T>(args: I) -> Result<Cli, String>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    Cli::try_parse_from(args).map_err(|e| e.to_string())
}

/// The program: parses the command line, runs the subcommand, maps the outcome to an exit
/// status (see the [module docs](self)).
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(Failure::Usage(msg)) => {
            say!("{msg}");
            ExitCode::from(2)
        }
        Err(Failure::Input(msg)) => {
            say!("{msg}");
            ExitCode::from(1)
        }
        Err(Failure::Closed) => ExitCode::from(1),
    }
}

/// Runs a parsed command line.
///
/// # Errors
/// See [`Failure`].
pub fn run(cli: Cli) -> Result<ExitCode, Failure> {
    match cli.command {
        Command::Solve(a) => solve::run(a),
        Command::Info(a) => info::run(a),
        Command::Check(a) => check::run(a),
        Command::Generate(a) => generate::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Methods(a) => methods::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::InternalReadFclib { path } => Ok(isolated::child(path)),
    }
}

/// Compares names with runs of digits as numbers: `step_2` before `step_10`.
fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    fn parts(s: &str) -> Vec<(bool, String)> {
        let mut out: Vec<(bool, String)> = Vec::new();
        for c in s.chars() {
            let d = c.is_ascii_digit();
            match out.last_mut() {
                Some((kind, run)) if *kind == d => run.push(c),
                _ => out.push((d, c.to_string())),
            }
        }
        out
    }
    let (pa, pb) = (parts(a), parts(b));
    for (x, y) in pa.iter().zip(&pb) {
        let o = match (x.0, y.0) {
            (true, true) => {
                let (tx, ty) = (x.1.trim_start_matches('0'), y.1.trim_start_matches('0'));
                tx.len().cmp(&ty.len()).then(tx.cmp(ty))
            }
            _ => x.1.cmp(&y.1),
        };
        if o.is_ne() {
            return o;
        }
    }
    pa.len().cmp(&pb.len()).then(a.cmp(b))
}

/// The problems of a JSON Lines trajectory, one per non-blank line: `(name, problem or
/// why not)`, the name `FILE:LINE`. A missing file is a usage error (2); unreadable
/// bytes, text that is not UTF-8 or a file without any problem are input errors (1).
fn jsonl_steps(
    path: &Path,
) -> Result<Vec<(String, Result<crate::io::LoadedProblem, String>)>, Failure> {
    let bytes = crate::io::read_file(path).map_err(|e| match &e.kind {
        crate::io::IoErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
            Failure::Usage(e.to_string())
        }
        _ => Failure::Input(e.to_string()),
    })?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        Failure::Input(format!(
            "{}: not text (byte {} is not UTF-8)",
            path.display(),
            e.valid_up_to()
        ))
    })?;
    let out: Vec<_> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            let name = format!("{}:{}", path.display(), i + 1);
            let lp =
                crate::io::load_json(Path::new(&name), line.as_bytes()).map_err(|e| e.to_string());
            (name, lp)
        })
        .collect();
    if out.is_empty() {
        return Err(Failure::Input(format!(
            "{}: no problems (a JSON Lines trajectory has one problem per line)",
            path.display()
        )));
    }
    Ok(out)
}

/// Reads one problem: FCLIB HDF5 files in a child process ([`isolated`]), the rest in
/// process ([`crate::io::load`]).
fn load(path: &Path) -> Result<crate::io::LoadedProblem, crate::io::IoError> {
    isolated::load(path)
}

/// Expands files and folders into the problem paths they contain (sorted, each path once).
///
/// # Errors
/// A usage error for a path that does not exist or under which no problem is found.
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut out: Vec<PathBuf> = Vec::new();
    for p in paths {
        let found = crate::io::discover(p).map_err(|e| Failure::Usage(e.to_string()))?;
        if found.is_empty() {
            return Err(Failure::Usage(format!(
                "{}: no problem files found (looked for {})",
                p.display(),
                crate::io::DISCOVERED
            )));
        }
        out.extend(found);
    }
    Ok(out)
}

/// Reads the one problem at `path` (a file, or a problem folder).
///
/// # Errors
/// [`Failure::Usage`] if the path does not exist, holds no problem or several;
/// [`Failure::Input`] if the problem cannot be read.
fn load_one(path: &Path) -> Result<crate::io::LoadedProblem, Failure> {
    let found = expand(std::slice::from_ref(&path.to_path_buf()))?;
    match found.as_slice() {
        [one] => {
            let lp = load(one)?;
            warn(&lp);
            Ok(lp)
        }
        many => Err(Failure::Usage(format!(
            "{}: a folder of {} problems; give one problem file or problem folder",
            path.display(),
            many.len()
        ))),
    }
}

/// Prints what the reader noticed but did not refuse (see
/// [`crate::io::LoadedProblem::warnings`]) to standard error.
fn warn(lp: &crate::io::LoadedProblem) {
    for w in &lp.warnings {
        say!("warning: {}: {w}", lp.path.display());
    }
}

/// Refuses `--kind` for a problem that has no friction law (an LCP or a boxed LCP), which
/// would otherwise be ignored without a word (as [`crate::problem::AnyProblem::with_kind`]
/// refuses it), in a message that names the path, what it holds and the option.
fn kind_applies(
    path: &Path,
    problem: &crate::problem::AnyProblem,
    kind: Option<crate::problem::FrictionKind>,
) -> Result<(), String> {
    match (kind, problem.kind()) {
        (Some(k), None) => Err(format!(
            "{}: holds {} (type {}); --kind {} applies only to friction problems \
             (fc3d, gfc3d, gmp)",
            path.display(),
            problem.noun(),
            problem.type_name(),
            k.name()
        )),
        _ => Ok(()),
    }
}

/// A short display name for a path: the file name (or folder name for OpenTissue).
fn short_name(p: &Path) -> String {
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}
