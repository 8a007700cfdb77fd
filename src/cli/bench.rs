//! `nonsmooth bench`: any method of the registry timed on problem files or generated
//! scenes, per iteration (the default) or per whole solve to `--tol` (`--solve`), and with
//! `--siconos` beside Siconos 4.4 on the same Siconos files in the same run.
//!
//! Every timing runs the method through [`crate::solver::registry::solve`], the call every
//! user makes: no method is timed through a private path.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use clap::Args;
use nalgebra::DVector;
use serde_json::json;

use super::Failure;
use super::args;
use super::table::{Align, Style, Table, emit, sci};
use super::{expand, short_name};
use crate::io::{AnyProblem, Format};
use crate::multibody::{SceneKind, scenes};
use crate::solver::registry::{Choice, OptionError, solve};
use crate::solver::{Params, no_observer};

fn parse_scene(s: &str) -> Result<SceneKind, String> {
    match s {
        "box-stack" => Ok(SceneKind::BoxStack),
        "wall" => Ok(SceneKind::Wall),
        "pyramid" => Ok(SceneKind::Pyramid),
        o => Err(format!(
            "unknown scene `{o}` (expected box-stack, wall or pyramid)"
        )),
    }
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Problem files or folders.
    #[arg(required_unless_present = "scene")]
    paths: Vec<PathBuf>,
    /// Time generated scenes instead, built in memory: box-stack, wall or pyramid, each in
    /// its local and its global form.
    #[arg(long, value_parser = parse_scene)]
    scene: Option<SceneKind>,
    /// Contact counts for --scene (comma-separated; each 1 to 1 000 000).
    #[arg(long, value_delimiter = ',', default_value = "100,1000,10000,100000", value_parser = args::contacts)]
    contacts: Vec<usize>,
    /// Iterations per timed run when timing per iteration (1 to 10 000 000).
    #[arg(long, default_value = "200", value_parser = args::sweeps)]
    sweeps: usize,
    /// Timed runs; the best is kept (1 to 1000).
    #[arg(long, default_value = "5", value_parser = args::repeat)]
    repeat: usize,
    /// Time whole solves from zero to --tol instead of iterations (the default for nsn and
    /// prox-nsn).
    #[arg(long)]
    solve: bool,
    /// Also time Siconos 4.4 on the same Siconos .dat friction files (needs /usr/bin/python3
    /// with python3-siconos), each file in its own process, and report our time over
    /// theirs. Per iteration: Siconos NSGS per sweep (PROX per outer iteration for the
    /// PROX methods). Per whole solve: the solvers of --siconos-solver, the fastest that
    /// converged.
    #[arg(long)]
    siconos: bool,
    /// Siconos fc3d solvers for --solve --siconos (comma-separated; Siconos's names, such
    /// as NSGS, PROX, NSN_AC, NSN_FB). Default: NSN_AC for nsn and prox-nsn, PROX for the
    /// PROX methods, NSGS otherwise.
    #[arg(long, value_delimiter = ',')]
    siconos_solver: Vec<String>,
    /// Method: any method of `nonsmooth solve`. Default: auto on files; with --scene, the
    /// Gauss-Seidel sweeps (nsgs on the local form, vgs on the global one).
    #[arg(long, short, value_parser = |s: &str| s.parse::<Choice>().map_err(|e| e.to_string()))]
    method: Option<Choice>,
    /// Set an option of the method: key=value (repeatable), as for `nonsmooth solve`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// The r-factor strategy of the PROX methods (the same as --set r_factor=...).
    #[arg(long)]
    r_factor: Option<String>,
    /// Tolerance of whole solves (Siconos 4.4 normalisation; a finite number > 0).
    #[arg(long, default_value = "1e-8", allow_hyphen_values = true, value_parser = args::tolerance)]
    tol: f64,
    /// Iteration cap of whole solves (ours and Siconos's).
    #[arg(long, default_value = "1000", value_parser = args::sweeps)]
    max_iter: usize,
    /// Output: table, json or markdown.
    #[arg(long, value_enum, default_value = "table")]
    format: Style,
}

/// One timing of ours: best seconds (per iteration, or per whole solve), with the status,
/// iterations and error of the last run.
struct Timed {
    seconds: f64,
    status: String,
    iterations: Option<usize>,
    error: Option<f64>,
    /// Why the solve failed, if it did.
    message: Option<String>,
}

/// Best of `repeat` runs of `choice` on `problem` from zero. Per iteration: `iterations`
/// iterations with tolerance 0 and the error measured once, at the end (one measure is
/// about one sweep: the figure is within `1/iterations` of the pure sweep time); the time
/// is divided by the iterations done. Per whole solve: to `tol`, checked every iteration.
fn time_ours(problem: &AnyProblem, choice: &Choice, params: &Params, repeat: usize) -> Timed {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..repeat.max(1) {
        let x = DVector::zeros(problem.dim());
        let t = Instant::now();
        let out = solve(problem, choice, x, params, &mut no_observer());
        let seconds = t.elapsed().as_secs_f64();
        let per = if params.tol == 0.0 {
            out.info().map_or(1, |i| i.iterations.max(1))
        } else {
            1
        };
        best = best.min(seconds / per as f64);
        last = Some(out);
    }
    let out = last.expect("at least one run");
    Timed {
        seconds: best,
        status: out.status().into(),
        iterations: out.info().map(|i| i.iterations),
        error: out.info().map(|i| i.error.rel),
        message: out.result.as_ref().err().map(|e| e.to_string()),
    }
}

fn choice(a: &BenchArgs) -> Result<Choice, Failure> {
    let mut c = match &a.method {
        Some(m) => m.clone(),
        None => Choice::new("auto").expect("registered"),
    };
    if let Some(r) = &a.r_factor {
        c = c.set_text("r_factor", r).map_err(usage)?;
    }
    for pair in &a.set {
        c = c.set_pair(pair).map_err(usage)?;
    }
    Ok(c)
}

fn usage(e: OptionError) -> Failure {
    Failure::Usage(e.to_string())
}

fn whole_solve(a: &BenchArgs) -> bool {
    a.solve
        || a.method
            .as_ref()
            .is_some_and(|m| matches!(m.name(), "nsn" | "prox-nsn"))
}

/// Times generated scenes of growing size: one row per size and form.
fn run_scenes(a: &BenchArgs, kind: SceneKind, method: &Choice) -> Result<ExitCode, Failure> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let name = match kind {
        SceneKind::BoxStack => "box-stack",
        SceneKind::Wall => "wall",
        SceneKind::Pyramid => "pyramid",
    };
    let params = params(a);
    let unit = if whole_solve(a) {
        "ms/solve"
    } else {
        "µs/iteration"
    };
    if a.format == Style::Markdown {
        emit(
            &mut out,
            &format!(
                "| scene | contacts | method | {unit} | status | ns per contact and iteration |"
            ),
        )?;
        emit(&mut out, "|---|---:|---|---:|---|---:|")?;
    } else if a.format == Style::Table {
        emit(
            &mut out,
            &format!("scene       contacts  method      {unit:>12}  status          ns/contact"),
        )?;
    }
    let mut all_ok = true;
    for &n in &a.contacts {
        let scene = scenes::sized_for(kind, n).map_err(|e| format!("--contacts: {e}"))?;
        let local = AnyProblem::Friction(scene.local_problem().map_err(|e| e.to_string())?);
        let global = AnyProblem::Global(scene.global_problem().map_err(|e| e.to_string())?);
        for problem in [&local, &global] {
            let m = match (&a.method, problem) {
                (None, AnyProblem::Friction(_)) => Choice::new("nsgs").expect("registered"),
                (None, _) => Choice::new("vgs").expect("registered"),
                (Some(_), p) => method.resolve(p),
            };
            if !m
                .spec()
                .applies_to(crate::solver::registry::ProblemType::of(problem))
            {
                continue;
            }
            let t = time_ours(problem, &m, &params, a.repeat);
            if whole_solve(a) && t.status != "converged" {
                all_ok = false;
            }
            let nc = problem.contacts();
            let iters = if whole_solve(a) {
                t.iterations.unwrap_or(1).max(1)
            } else {
                1
            };
            let per = t.seconds / iters as f64 / nc.max(1) as f64 * 1e9;
            let shown = if whole_solve(a) {
                t.seconds * 1e3
            } else {
                t.seconds * 1e6
            };
            let method = m.name();
            let line = match a.format {
                Style::Markdown => format!(
                    "| {name} | {nc} | {method} | {shown:.1} | {} | {per:.0} |",
                    t.status
                ),
                Style::Json => json!({"scene": name, "contacts": nc, "method": method,
                    "form": problem.type_name(), "seconds": t.seconds,
                    "per": if whole_solve(a) { "solve" } else { "iteration" },
                    "status": t.status, "iterations": t.iterations,
                    "ns_per_contact_and_iteration": per})
                .to_string(),
                Style::Table => format!(
                    "{name:<10} {nc:>9}  {method:<10} {shown:>12.1}  {:<14} {per:>10.0}",
                    t.status
                ),
            };
            emit(&mut out, &line)?;
        }
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn params(a: &BenchArgs) -> Params {
    if whole_solve(a) {
        Params {
            tol: a.tol,
            max_iter: a.max_iter,
            ..Default::default()
        }
    } else {
        Params {
            tol: 0.0,
            max_iter: a.sweeps,
            check_every: a.sweeps,
            ..Default::default()
        }
    }
}

/// The Siconos solvers compared with in whole-solve mode.
fn siconos_solvers(a: &BenchArgs, method: &Choice) -> Vec<String> {
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
struct Theirs {
    seconds: f64,
    solver: String,
    status: String,
    iterations: Option<usize>,
}

/// Siconos per sweep (NSGS) or per outer iteration (PROX), one file per process.
fn siconos_per_iteration(
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
fn siconos_whole(
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

pub fn run(a: BenchArgs) -> Result<ExitCode, Failure> {
    let method = choice(&a)?;
    if whole_solve(&a) && !(a.tol > 0.0) {
        return Err(Failure::Usage(format!(
            "--tol must be positive to time a solve to it (got {})",
            a.tol
        )));
    }
    if let Some(kind) = a.scene {
        return run_scenes(&a, kind, &method);
    }
    let files = expand(&a.paths)?;
    let params = params(&a);
    let mut rows = Vec::new();
    let mut all_ok = true;
    for path in &files {
        let lp = match super::load(path) {
            Ok(lp) => {
                super::warn(&lp);
                lp
            }
            Err(e) => {
                eprintln!("nonsmooth: {e}");
                all_ok = false;
                continue;
            }
        };
        let m = method.resolve(&lp.problem);
        let t = time_ours(&lp.problem, &m, &params, a.repeat);
        if t.status == "invalid" || (whole_solve(&a) && t.status != "converged") {
            all_ok = false;
        }
        if t.status == "invalid" {
            if let Some(e) = &t.message {
                eprintln!("nonsmooth: {}: {e}", path.display());
            }
            continue;
        }
        let siconos_ok = a.siconos
            && lp.format == Format::Siconos
            && matches!(lp.problem, AnyProblem::Friction(_));
        rows.push((
            path.clone(),
            lp.problem.contacts(),
            lp.problem.dim(),
            m,
            t,
            siconos_ok,
        ));
    }
    let sic_files: Vec<&Path> = rows.iter().filter(|r| r.5).map(|r| r.0.as_path()).collect();
    let sic = if whole_solve(&a) {
        siconos_whole(&sic_files, &siconos_solvers(&a, &method), &a)?
    } else {
        let prox = matches!(method.name(), "prox-gs" | "prox-jacobi");
        siconos_per_iteration(&sic_files, a.sweeps, a.repeat, prox)?
    };
    let mut sic_iter = sic.into_iter();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let whole = whole_solve(&a);
    let (unit, scale) = if whole {
        ("µs/solve", 1e6)
    } else {
        ("µs/iteration", 1e6)
    };
    let t = Table::new(&[
        ("file", 34, Align::Left),
        ("contacts", 8, Align::Right),
        ("method", 11, Align::Left),
        (unit, 12, Align::Right),
        ("status", 14, Align::Left),
        ("iter", 6, Align::Right),
        ("siconos", 8, Align::Left),
        ("siconos_us", 10, Align::Right),
        ("ratio", 7, Align::Right),
    ]);
    match a.format {
        Style::Table => emit(&mut out, &t.header())?,
        Style::Markdown => {
            emit(
                &mut out,
                &format!(
                    "| file | contacts | method | {unit} | status | iterations | Siconos solver | Siconos {unit} | ratio |"
                ),
            )?;
            emit(&mut out, "|---|---:|---|---:|---|---:|---|---:|---:|")?;
        }
        Style::Json => {}
    }
    for (path, nc, n, m, ours, has_sic) in rows {
        let theirs = if has_sic {
            sic_iter.next().flatten()
        } else {
            None
        };
        // a whole-solve ratio means something only when both reached the tolerance
        let ratio = theirs
            .as_ref()
            .filter(|s| !whole || (s.status == "converged" && ours.status == "converged"))
            .map(|s| ours.seconds / s.seconds);
        let us = |x: f64| format!("{:.1}", x * scale);
        let iters = ours.iterations.map_or("-".into(), |i| i.to_string());
        let line = match a.format {
            Style::Json => json!({"file": short_name(&path), "path": path.display().to_string(),
                "contacts": nc, "n": n, "method": m.name(), "options": m.options(),
                "per": if whole { "solve" } else { "iteration" }, "tol": params.tol,
                "seconds": ours.seconds, "status": ours.status, "iterations": ours.iterations,
                "error": ours.error,
                "siconos_solver": theirs.as_ref().map(|s| s.solver.clone()),
                "siconos_seconds": theirs.as_ref().map(|s| s.seconds),
                "siconos_status": theirs.as_ref().map(|s| s.status.clone()),
                "siconos_iterations": theirs.as_ref().and_then(|s| s.iterations),
                "ratio": ratio})
            .to_string(),
            Style::Markdown => format!(
                "| {} | {nc} | {} | {} | {} | {iters} | {} | {} | {} |",
                short_name(&path),
                m.name(),
                us(ours.seconds),
                ours.status,
                theirs.as_ref().map_or("-".into(), |s| s.solver.clone()),
                theirs.as_ref().map_or("-".into(), |s| us(s.seconds)),
                ratio.map_or("-".into(), fmt_ratio)
            ),
            Style::Table => t.row(&[
                short_name(&path),
                nc.to_string(),
                m.name().into(),
                us(ours.seconds),
                ours.status.clone(),
                iters,
                theirs.as_ref().map_or("-".into(), |s| s.solver.clone()),
                theirs.as_ref().map_or("-".into(), |s| us(s.seconds)),
                ratio.map_or_else(|| sci(None), fmt_ratio),
            ]),
        };
        emit(&mut out, &line)?;
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A ratio with two decimals, or in exponent form when it is below 0.01.
fn fmt_ratio(r: f64) -> String {
    if r >= 0.01 {
        format!("{r:.2}")
    } else {
        format!("{r:.1e}")
    }
}
