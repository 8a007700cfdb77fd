//! `nonsmooth bench`: time per sweep, side by side with Siconos's NSGS (or, with
//! `--method prox-gs`, Siconos's PROX per iteration) in the same run; with `--method nsn`
//! or `prox-nsn`, time to tolerance beside Siconos's NSN_AC (see `bench_solve.rs`).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use super::Failure;
use crate::io::{AnyProblem, Format};
use crate::method::Method;
use crate::prox::{Prox, ProxOptions, ProxProblem, RFactor, Scheme};
use crate::splitting::{
    BlockedGaussSeidel, Splitting, VelocityGaussSeidel, sweep_boxed, sweep_lcp,
};
use clap::Args;
use nalgebra::DVector;
use serde_json::json;

use crate::multibody::{SceneKind, scenes};

use super::args;
use super::table::{Align, Style, Table, emit, sci};

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

/// Times generated scenes of growing size: one row per size and form.
fn run_scenes(a: &BenchArgs, kind: SceneKind) -> Result<ExitCode, Failure> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let name = match kind {
        SceneKind::BoxStack => "box-stack",
        SceneKind::Wall => "wall",
        SceneKind::Pyramid => "pyramid",
    };
    if a.format == Style::Markdown {
        emit(
            &mut out,
            "| scene | contacts | method | µs/sweep | ns per contact and sweep |",
        )?;
        emit(&mut out, "|---|---:|---|---:|---:|")?;
    } else if a.format == Style::Table {
        emit(
            &mut out,
            "scene       contacts  method   us/sweep  ns/contact",
        )?;
    }
    for &n in &a.contacts {
        let scene = scenes::sized_for(kind, n).map_err(|e| format!("--contacts: {e}"))?;
        let local = AnyProblem::Friction(scene.local_problem().map_err(|e| e.to_string())?);
        let global = AnyProblem::Global(scene.global_problem().map_err(|e| e.to_string())?);
        for problem in [&local, &global] {
            let (method, t) = ours(problem, a, a.sweeps, a.repeat)?;
            let nc = problem.contacts();
            let per = t / nc.max(1) as f64 * 1e9;
            let line = match a.format {
                Style::Markdown => {
                    format!("| {name} | {nc} | {method} | {:.1} | {per:.0} |", t * 1e6)
                }
                Style::Json => {
                    json!({"scene": name, "contacts": nc, "method": method, "seconds_per_sweep": t,
                                 "ns_per_contact": per})
                    .to_string()
                }
                Style::Table => format!(
                    "{name:<10} {nc:>9}  {method:<6} {:>9.1}  {per:>10.0}",
                    t * 1e6
                ),
            };
            emit(&mut out, &line)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
use super::{expand, short_name};

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Problem files or folders.
    #[arg(required_unless_present = "scene")]
    pub(super) paths: Vec<PathBuf>,
    /// Time generated scenes instead, built in memory: box-stack, wall or pyramid, each in
    /// its local form (NSGS) and its global form (velocity-space GS).
    #[arg(long, value_parser = parse_scene)]
    scene: Option<SceneKind>,
    /// Contact counts for --scene (comma-separated; each 1 to 1 000 000).
    #[arg(long, value_delimiter = ',', default_value = "100,1000,10000,100000", value_parser = args::contacts)]
    contacts: Vec<usize>,
    /// Sweeps per timed run (1 to 10 000 000).
    #[arg(long, default_value = "200", value_parser = args::sweeps)]
    sweeps: usize,
    /// Timed runs; the best is kept (1 to 1000).
    #[arg(long, default_value = "5", value_parser = args::repeat)]
    pub(super) repeat: usize,
    /// Also time Siconos 4.4's NSGS on the same Siconos .dat files (needs /usr/bin/python3
    /// with python3-siconos) and report our time per sweep over Siconos's. With
    /// `--method prox-gs` or `prox-jacobi`, Siconos's PROX instead, per (outer) iteration,
    /// run to tolerance 1e-8.
    #[arg(long)]
    pub(super) siconos: bool,
    /// What to time: auto (PGS for LCPs and boxed LCPs, NSGS for local friction problems,
    /// velocity-space GS for global ones), prox-gs or prox-jacobi (per sweep); nsn or
    /// prox-nsn (a whole solve from zero to --tol; with --siconos, beside Siconos NSN_AC).
    #[arg(long, default_value = "auto", value_parser = |s: &str| s.parse::<Method>())]
    pub(super) method: Method,
    /// Tolerance of the timed solves of nsn and prox-nsn (Siconos 4.4 normalisation; a
    /// finite number >= 0).
    #[arg(long, default_value = "1e-8", allow_hyphen_values = true, value_parser = args::tolerance)]
    pub(super) tol: f64,
    /// The r-factor strategy of the PROX methods: global, global=R, global-spectral, local,
    /// blocked, blocked-matrix.
    #[arg(long, default_value = "global", value_parser = |s: &str| s.parse::<RFactor>())]
    r_factor: RFactor,
    /// Output: table, json or markdown.
    #[arg(long, value_enum, default_value = "table")]
    pub(super) format: Style,
}

/// Best time per sweep over `repeat` runs of `sweeps` sweeps, from a zero start each run.
fn time_sweeps(mut run: impl FnMut(usize), sweeps: usize, repeat: usize) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        run(sweeps);
        best = best.min(t.elapsed().as_secs_f64() / sweeps.max(1) as f64);
    }
    best
}

/// Best time per PROX sweep on `problem` (in the proximal model of its type).
fn prox_sweep(
    problem: &AnyProblem,
    scheme: Scheme,
    r_factor: RFactor,
    sweeps: usize,
    repeat: usize,
) -> Result<f64, String> {
    let pp = match problem {
        AnyProblem::Lcp(p) => ProxProblem::from_lcp(p),
        AnyProblem::Boxed(p) => ProxProblem::from_boxed(p).map_err(|e| e.to_string())?,
        AnyProblem::Friction(p) => ProxProblem::from_friction_contact(p),
        AnyProblem::Global(p) => {
            ProxProblem::from_global(p, p.kind()).map_err(|e| e.to_string())?
        }
    };
    let options = ProxOptions {
        scheme,
        r_factor,
        ..Default::default()
    };
    let prox = Prox::new(&pp, options).map_err(|e| e.to_string())?;
    Ok(time_sweeps(
        |k| {
            let mut lam = DVector::zeros(pp.dim());
            let mut st = prox.state(&lam);
            let mut scratch = Vec::new();
            for _ in 0..k {
                prox.sweep(&mut lam, &mut st, &mut scratch);
            }
        },
        sweeps,
        repeat,
    ))
}

fn ours(
    problem: &AnyProblem,
    a: &BenchArgs,
    sweeps: usize,
    repeat: usize,
) -> Result<(&'static str, f64), Failure> {
    match a.method {
        Method::Auto => {}
        Method::ProxGs { .. } => {
            let t = prox_sweep(problem, Scheme::GaussSeidel, a.r_factor, sweeps, repeat)
                .map_err(Failure::Input)?;
            return Ok(("prox-gs", t));
        }
        Method::ProxJacobi { .. } => {
            let t = prox_sweep(problem, Scheme::Jacobi, a.r_factor, sweeps, repeat)
                .map_err(Failure::Input)?;
            return Ok(("prox-jacobi", t));
        }
        m => {
            return Err(Failure::Usage(format!(
                "bench --method supports auto, prox-gs, prox-jacobi, nsn and prox-nsn, not `{}`",
                m.name()
            )));
        }
    }
    Ok(match problem {
        AnyProblem::Lcp(p) => {
            let t = time_sweeps(
                |k| {
                    let mut x = DVector::zeros(p.dim());
                    for _ in 0..k {
                        sweep_lcp(p, &mut x, Splitting::GaussSeidel);
                    }
                },
                sweeps,
                repeat,
            );
            ("pgs", t)
        }
        AnyProblem::Boxed(p) => {
            let t = time_sweeps(
                |k| {
                    let mut x = DVector::zeros(p.dim());
                    for _ in 0..k {
                        sweep_boxed(p, &mut x, Splitting::GaussSeidel);
                    }
                },
                sweeps,
                repeat,
            );
            ("pgs", t)
        }
        AnyProblem::Friction(p) => {
            let s = BlockedGaussSeidel::new(p).map_err(|e| Failure::Input(e.to_string()))?;
            let t = time_sweeps(
                |k| {
                    let mut r = DVector::zeros(p.dim());
                    for _ in 0..k {
                        s.sweep(&mut r);
                    }
                },
                sweeps,
                repeat,
            );
            ("nsgs", t)
        }
        AnyProblem::Global(p) => {
            let s = VelocityGaussSeidel::new(p).map_err(|e| Failure::Input(e.to_string()))?;
            let t = time_sweeps(
                |k| {
                    let mut r = DVector::zeros(p.dim());
                    let mut v = s.velocity_dofs(&r);
                    for _ in 0..k {
                        s.sweep(&mut r, &mut v);
                    }
                },
                sweeps,
                repeat,
            );
            ("vgs", t)
        }
    })
}

/// Runs `scripts/siconos_driver.py bench-nsgs` (or `bench-prox` when `prox`) on the files
/// and returns seconds per sweep (per PROX iteration).
fn siconos_times(
    files: &[&Path],
    sweeps: usize,
    repeat: usize,
    prox: bool,
) -> Result<Vec<Option<f64>>, String> {
    let (command, options) = if prox {
        (
            "bench-prox",
            vec!["--repeat".to_string(), repeat.to_string()],
        )
    } else {
        (
            "bench-nsgs",
            vec![
                "--sweeps".to_string(),
                sweeps.to_string(),
                "--repeat".to_string(),
                repeat.to_string(),
            ],
        )
    };
    Ok(siconos_driver(command, files, &options)?
        .into_iter()
        .map(|v| {
            v.and_then(|v| {
                v["seconds_per_sweep"]
                    .as_f64()
                    .or(v["seconds_per_iteration"].as_f64())
            })
        })
        .collect())
}

/// Runs `scripts/siconos_driver.py COMMAND FILES... OPTIONS...` with `/usr/bin/python3`
/// and returns, for each file in order, the JSON object the driver printed for it (`None`
/// when it printed none). An empty `files` runs nothing.
///
/// # Errors
/// The driver cannot be started, exits with failure (usually: python3-siconos is not
/// installed), or prints a line that is not JSON.
pub(super) fn siconos_driver(
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
    if let Some(kind) = a.scene {
        return run_scenes(&a, kind);
    }
    if matches!(a.method, Method::Nsn | Method::ProxNsn) {
        if !(a.tol > 0.0) {
            return Err(Failure::Usage(format!(
                "--tol must be positive to time a solve to it (got {})",
                a.tol
            )));
        }
        return super::bench_solve::run(&a);
    }
    let files = expand(&a.paths)?;
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
        let (method, t) = match ours(&lp.problem, &a, a.sweeps, a.repeat) {
            Ok(x) => x,
            Err(Failure::Input(m)) => {
                eprintln!("nonsmooth: {}: {m}", path.display());
                all_ok = false;
                continue;
            }
            Err(e) => return Err(e),
        };
        let siconos_ok = a.siconos
            && lp.format == Format::Siconos
            && matches!(lp.problem, AnyProblem::Friction(_));
        rows.push((
            path.clone(),
            lp.problem.contacts(),
            lp.problem.dim(),
            method,
            t,
            siconos_ok,
        ));
    }
    let sic_files: Vec<&Path> = rows.iter().filter(|r| r.5).map(|r| r.0.as_path()).collect();
    let prox = matches!(a.method, Method::ProxGs { .. } | Method::ProxJacobi { .. });
    let sic = siconos_times(&sic_files, a.sweeps, a.repeat, prox)?;
    let sic_name = if prox {
        "Siconos PROX µs/iteration"
    } else {
        "Siconos NSGS µs/sweep"
    };
    let mut sic_iter = sic.into_iter();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let t = Table::new(&[
        ("file", 34, Align::Left),
        ("contacts", 8, Align::Right),
        ("n", 6, Align::Right),
        ("method", 6, Align::Left),
        ("us/sweep", 9, Align::Right),
        ("siconos_us", 10, Align::Right),
        ("ratio", 6, Align::Right),
    ]);
    match a.format {
        Style::Table => emit(&mut out, &t.header())?,
        Style::Markdown => {
            emit(
                &mut out,
                &format!("| file | contacts | method | µs/sweep | {sic_name} | ratio |"),
            )?;
            emit(&mut out, "|---|---:|---|---:|---:|---:|")?;
        }
        Style::Json => {}
    }
    for (path, nc, n, method, ours_t, has_sic) in rows {
        let sic_t = if has_sic {
            sic_iter.next().flatten()
        } else {
            None
        };
        let ratio = sic_t.map(|s| ours_t / s);
        let us = |x: f64| format!("{:.1}", x * 1e6);
        match a.format {
            Style::Json => emit(
                &mut out,
                &json!({"file": short_name(&path), "path": path.display().to_string(), "contacts": nc, "n": n,
                        "method": method, "seconds_per_sweep": ours_t, "siconos_seconds_per_sweep": sic_t,
                        "ratio": ratio})
                .to_string(),
            )?,
            Style::Markdown => emit(
                &mut out,
                &format!(
                    "| {} | {nc} | {method} | {} | {} | {} |",
                    short_name(&path),
                    us(ours_t),
                    sic_t.map(us).unwrap_or_else(|| "-".into()),
                    ratio.map(fmt_ratio).unwrap_or_else(|| "-".into())
                ),
            )?,
            Style::Table => emit(
                &mut out,
                &t.row(&[
                    short_name(&path),
                    nc.to_string(),
                    n.to_string(),
                    method.into(),
                    us(ours_t),
                    sic_t.map(us).unwrap_or_else(|| "-".into()),
                    ratio.map(fmt_ratio).unwrap_or_else(|| sci(None)),
                ]),
            )?,
        }
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
