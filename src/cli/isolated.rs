//! FCLIB HDF5 files read in a child process.
//!
//! The HDF5 C library is not robust to damaged files: fuzzing the FCLIB reader finds
//! segmentation faults inside `H5Dread` and `H5Lexists`, endless loops in `H5HG_read`,
//! and gigabytes allocated for a 17 KB file. None of that can be caught in Rust, so the
//! program never lets the library near its own process: it runs itself again as
//! `nonsmooth internal-read-fclib FILE`, bounded in time ([`LIMIT`]) and address space
//! ([`MEMORY_LIMIT_KIB`]), and reads the problem back as the project's JSON (which carries
//! every `f64` exactly). A crash, a hang or an exhausted memory limit in the child becomes
//! an error that names the file. Every other format is read in process.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::io::{Format, IoError, LoadedProblem, json};

/// How long the child may take to read one file by default (files of hundreds of megabytes
/// read in a few seconds). The environment variable [`LIMIT_VARIABLE`] changes it.
pub const LIMIT: Duration = Duration::from_secs(30);

/// `NONSMOOTH_FCLIB_READ_SECONDS`: the time limit for reading one FCLIB file, in seconds
/// (a positive number; default [`LIMIT`]), for very large files on slow disks.
pub const LIMIT_VARIABLE: &str = "NONSMOOTH_FCLIB_READ_SECONDS";

/// The time limit in force: [`LIMIT_VARIABLE`] if it holds a positive number of seconds.
///
/// # Errors
/// A message when the variable is set but is not a positive, finite number of seconds.
pub fn limit() -> Result<Duration, String> {
    match std::env::var(LIMIT_VARIABLE) {
        Err(_) => Ok(LIMIT),
        Ok(v) => match v.trim().parse::<f64>() {
            Ok(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Duration::from_secs_f64(s)),
            _ => Err(format!(
                "{LIMIT_VARIABLE}={v:?} is not a positive number of seconds"
            )),
        },
    }
}

/// The child's address-space limit, in KiB (8 GiB: a dataset at the reader's size limit
/// is 1 GiB, and its JSON text for the parent a few more).
pub const MEMORY_LIMIT_KIB: u64 = 8 << 20;

/// What the child prints: the problem, or the reader's error (without the path).
#[derive(Serialize, Deserialize)]
enum Reply {
    Ok {
        name: String,
        file: json::ProblemFile,
        warm_start: Option<Vec<f64>>,
        warnings: Vec<String>,
    },
    Err(String),
}

/// Reads a problem as [`crate::io::load`] does, but an FCLIB file in a child process (with
/// the `hdf5` feature; without it the reader only says the feature is needed).
///
/// # Errors
/// The reader's error, or why the child failed.
pub fn load(path: &Path) -> Result<LoadedProblem, IoError> {
    if !cfg!(feature = "hdf5") || !crate::io::is_hdf5_file(path) {
        return crate::io::load(path);
    }
    let fail = |m: String| IoError::parse(path, "HDF5", m);
    let limit = limit().map_err(fail)?;
    let exe = std::env::current_exe().map_err(|e| {
        fail(format!(
            "cannot find this program to read the file with: {e}"
        ))
    })?;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {MEMORY_LIMIT_KIB} 2>/dev/null; exec \"$0\" \"$@\""
        ))
        .arg(&exe)
        .arg("internal-read-fclib")
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| fail(format!("cannot start a reader process: {e}")))?;
    // Drain the output while waiting, so that a large problem cannot fill the pipe.
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stdout.read_to_end(&mut buf).map(|_| buf)
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(fail(format!("waiting for the reader process: {e}"))),
        }
    };
    let out = reader.join().ok().and_then(|r| r.ok()).unwrap_or_default();
    let Some(status) = status else {
        return Err(fail(format!(
            "the HDF5 C library did not finish reading the file within {} s; the file is \
             damaged or not an FCLIB file (a very large file on a slow disk may need a \
             longer limit: {LIMIT_VARIABLE})",
            limit.as_secs_f64()
        )));
    };
    use std::os::unix::process::ExitStatusExt;
    if let Some(signal) = status.signal() {
        return Err(fail(format!(
            "the HDF5 C library crashed reading the file (signal {signal}{}); the file is \
             damaged or not an FCLIB file",
            if signal == 6 {
                ", or it needed more than the reader's memory limit"
            } else {
                ""
            }
        )));
    }
    match serde_json::from_slice::<Reply>(&out) {
        Ok(Reply::Ok {
            name,
            file,
            warm_start,
            warnings,
        }) => {
            let mut lp = json::from_file(path, file)?;
            lp.name = name;
            lp.format = Format::Fclib;
            lp.warm_start = warm_start;
            lp.warnings = warnings;
            Ok(lp)
        }
        Ok(Reply::Err(message)) => Err(fail(message)),
        Err(_) => Err(fail(format!(
            "the reader process ended ({status}) without a result; the file is damaged or \
             not an FCLIB file"
        ))),
    }
}

/// The child: reads `path` with the FCLIB reader and prints a [`Reply`] as JSON.
pub fn child(path: PathBuf) -> ExitCode {
    let reply = match crate::io::load(&path) {
        Ok(lp) => Reply::Ok {
            file: json::to_file(&lp.name, &lp.problem, lp.answer.as_ref(), &lp.provenance),
            name: lp.name,
            warm_start: lp.warm_start,
            warnings: lp.warnings,
        },
        Err(e) => {
            let text = e.to_string();
            let prefix = format!("{}: ", path.display());
            Reply::Err(text.strip_prefix(&prefix).unwrap_or(&text).to_string())
        }
    };
    let text = serde_json::to_string(&reply).expect("plain data");
    println!("{text}");
    ExitCode::SUCCESS
}
