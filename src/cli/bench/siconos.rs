//! The Siconos side of `nonsmooth bench --siconos`: which Siconos solvers to compare
//! with, running `scripts/siconos_driver.py` (Siconos 4.4 through python3-siconos) one
//! file per process, and reading the JSON lines it prints.

use std::path::Path;
use std::process::Command;

use super::BenchArgs;
use crate::registry::Choice;

/// The Siconos solvers compared with in whole-solve mode.
pub(super) fn siconos_solvers(a: &BenchArgs, method: &Choice) -> Vec<String> {
    if !a.siconos_solver.is_empty() {
        return a.siconos_solver.clone();
    }
    vec![
        match method.name() {
            "nsn" | "prox-nsn" => "NSN_AC",
            "prox-gs" | "prox-jacobi" => "PROX",
            _ => "NSGS",
        }
        .to_string(),
    ]
}

/// Siconos's timing of one file: seconds (per sweep or whole solve), the solver, status.
#[derive(Clone)]
pub(super) struct Theirs {
    pub(super) seconds: f64,
    pub(super) solver: String,
    pub(super) status: String,
    pub(super) iterations: Option<usize>,
}

/// Siconos per sweep (NSGS) or per outer iteration (PROX), one file per process.
pub(super) fn siconos_per_iteration(
    files: &[&Path],
    sweeps: usize,
    repeat: usize,
    prox: bool,
) -> Result<Vec<Option<Theirs>>, String> {
    let mut out = Vec::new();
    for f in files {
        let (command, options, solver) = if prox {
            (
                "bench-prox",
                vec!["--repeat".into(), repeat.to_string()],
                "PROX",
            )
        } else {
            let o = vec![
                "--sweeps".into(),
                sweeps.to_string(),
                "--repeat".into(),
                repeat.to_string(),
            ];
            ("bench-nsgs", o, "NSGS")
        };
        let v = siconos_driver(command, &[f], &options)?.pop().flatten();
        out.push(v.and_then(|v| {
            Some(Theirs {
                seconds: v["seconds_per_sweep"]
                    .as_f64()
                    .or(v["seconds_per_iteration"].as_f64())?,
                solver: solver.into(),
                status: "-".into(),
                iterations: v["iterations"].as_u64().map(|i| i as usize),
            })
        }));
    }
    Ok(out)
}

/// Siconos whole solves to `tol` with each solver, one file and solver per process (some
/// Siconos solvers abort the interpreter on some files); the fastest that converged, else
/// the first.
pub(super) fn siconos_whole(
    files: &[&Path],
    solvers: &[String],
    a: &BenchArgs,
) -> Result<Vec<Option<Theirs>>, String> {
    let mut out = Vec::new();
    for f in files {
        let mut best: Option<Theirs> = None;
        for s in solvers {
            let options = [
                "--solver".to_string(),
                s.clone(),
                "--tol".into(),
                a.tol.to_string(),
                "--max-iter".into(),
                a.max_iter.to_string(),
                "--repeat".into(),
                a.repeat.to_string(),
            ];
            let v = match siconos_driver("bench-solve", &[f], &options) {
                Ok(mut v) => v.pop().flatten(),
                Err(_) => None,
            };
            let Some(v) = v else { continue };
            let Some(seconds) = v["seconds"].as_f64() else {
                continue;
            };
            let t = Theirs {
                seconds,
                solver: s.clone(),
                status: if v["info"].as_i64() == Some(0) {
                    "converged"
                } else {
                    "failed"
                }
                .into(),
                iterations: v["iterations"].as_u64().map(|i| i as usize),
            };
            let better = match &best {
                None => true,
                Some(b) => {
                    (t.status == "converged" && b.status != "converged")
                        || (t.status == b.status && t.seconds < b.seconds)
                }
            };
            if better {
                best = Some(t);
            }
        }
        out.push(best);
    }
    Ok(out)
}

/// Runs `scripts/siconos_driver.py COMMAND FILES... OPTIONS...` with `/usr/bin/python3`
/// and returns, for each file in order, the JSON object the driver printed for it (`None`
/// when it printed none). An empty `files` runs nothing.
///
/// # Errors
/// The driver cannot be started, exits with failure (usually: python3-siconos is not
/// installed), or prints a line that is not JSON.
fn siconos_driver(
    command: &str,
    files: &[&Path],
    options: &[String],
) -> Result<Vec<Option<serde_json::Value>>, String> {
    if files.is_empty() {
        return Ok(Vec::new());
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/siconos_driver.py");
    let out = Command::new("/usr/bin/python3")
        .arg(&script)
        .arg(command)
        .args(files)
        .args(options)
        .output()
        .map_err(|e| format!("cannot run /usr/bin/python3 {}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!(
            "Siconos benchmark failed (is python3-siconos installed?): {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ));
    }
    let mut by_file = std::collections::HashMap::new();
    for line in String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
    {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        if let Some(f) = v["file"].as_str() {
            by_file.insert(f.to_string(), v);
        }
    }
    Ok(files
        .iter()
        .map(|f| by_file.remove(&f.display().to_string()))
        .collect())
}

/// What one Siconos whole solve of a campaign gave: the driver's JSON object, or why there
/// is none.
pub(super) enum SiconosRun {
    /// The driver's object for the file (`seconds`, `info`, `iterations`, `error`).
    Done(serde_json::Value),
    /// The process ran past its time limit and was killed.
    TimedOut,
    /// The process ended without a result (Siconos aborted the interpreter, or the
    /// driver failed): the last line it wrote to standard error.
    Crashed(String),
}

/// The C harness (`scripts/siconos_bench.c`, embedded in the binary): it times only the
/// call to `fc3d_driver` inside the Siconos process.
const C_HARNESS: &str = include_str!("../../../scripts/siconos_bench.c");

/// The built C harness, compiled once per process (and cached in the temporary folder
/// under a name carrying a hash of its source) with `cc` against `libsiconos_numerics`;
/// `None` when it cannot be built (no C compiler or no `libsiconos-numerics-dev`), in
/// which case the campaign times Siconos through the Python driver and says so once.
fn c_harness() -> Option<&'static Path> {
    use std::hash::{Hash, Hasher};
    use std::sync::OnceLock;
    static BUILT: OnceLock<Option<std::path::PathBuf>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            C_HARNESS.hash(&mut h);
            let dir = std::env::temp_dir();
            let exe = dir.join(format!("nonsmooth-siconos-bench-{:016x}", h.finish()));
            if exe.is_file() {
                return Some(exe);
            }
            let pid = std::process::id();
            let src = dir.join(format!("nonsmooth-siconos-bench-{pid}.c"));
            let tmp = dir.join(format!("nonsmooth-siconos-bench-{pid}.tmp"));
            let built = std::fs::write(&src, C_HARNESS).is_ok()
                && Command::new("cc")
                    .args(["-O2", "-I/usr/include/siconos"])
                    .arg(&src)
                    .arg("-o")
                    .arg(&tmp)
                    .args(["-lsiconos_numerics", "-lm"])
                    .output()
                    .is_ok_and(|o| o.status.success())
                && std::fs::rename(&tmp, &exe).is_ok();
            let _ = std::fs::remove_file(&src);
            let _ = std::fs::remove_file(&tmp);
            if !built {
                say!(
                    "cannot build the C Siconos harness (needs cc and \
                     libsiconos-numerics-dev); Siconos is timed through its Python binding"
                );
            }
            built.then_some(exe)
        })
        .as_deref()
}

/// Whether Siconos can be run for a campaign: the C harness builds, or the Python driver's
/// `import siconos.numerics` works.
pub(super) fn siconos_available() -> bool {
    c_harness().is_some()
        || Command::new("/usr/bin/python3")
            .args(["-c", "import siconos.numerics"])
            .output()
            .is_ok_and(|o| o.status.success())
}

/// One Siconos fc3d whole solve of `file` with `solver`, best of `repeat`, in its own
/// process, killed after `limit` seconds if given. The C harness times the solver call
/// alone; without it, the Python driver times the same call through the binding. The
/// object says which (`"timer": "c"` or `"python"`).
///
/// # Errors
/// Neither the C harness nor `/usr/bin/python3` can be started.
pub(super) fn siconos_solve_once(
    file: &Path,
    solver: &str,
    tol: f64,
    max_iter: usize,
    repeat: usize,
    limit: Option<f64>,
) -> Result<SiconosRun, String> {
    use std::io::Read;
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/siconos_driver.py");
    let (tol, max_iter, repeat) = (tol.to_string(), max_iter.to_string(), repeat.to_string());
    let mut command = match c_harness() {
        Some(exe) => {
            let mut c = Command::new(exe);
            c.arg(file).args([solver, &tol, &max_iter, &repeat]);
            c
        }
        None => {
            let mut c = Command::new("/usr/bin/python3");
            c.arg(&script).arg("bench-solve").arg(file).args([
                "--solver",
                solver,
                "--tol",
                &tol,
                "--max-iter",
                &max_iter,
                "--repeat",
                &repeat,
            ]);
            c
        }
    };
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the Siconos harness: {e}"))?;
    // the pipes are drained by threads so that a chatty solver cannot block on them
    let mut so = child.stdout.take().expect("piped");
    let mut se = child.stderr.take().expect("piped");
    let out_t = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = so.read_to_string(&mut s);
        s
    });
    let err_t = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = se.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) => {}
            Err(e) => return Err(format!("waiting for Siconos: {e}")),
        }
        if limit.is_some_and(|l| start.elapsed().as_secs_f64() > l) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stdout = out_t.join().unwrap_or_default();
    let stderr = err_t.join().unwrap_or_default();
    let Some(status) = status else {
        return Ok(SiconosRun::TimedOut);
    };
    let value = stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .find_map(|l| serde_json::from_str::<serde_json::Value>(l).ok());
    match value {
        Some(v) if status.success() => Ok(SiconosRun::Done(v)),
        _ => Ok(SiconosRun::Crashed(format!(
            "{status}: {}",
            stderr.lines().last().unwrap_or("")
        ))),
    }
}
