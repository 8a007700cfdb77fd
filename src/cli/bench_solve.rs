//! `nonsmooth bench --method nsn|prox-nsn`: wall time of a whole solve from zero to
//! `--tol`, side by side with Siconos 4.4's NSN_AC to the same tolerance in the same run.
//! The ratio (ours over Siconos) is shown only when both converged.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::io::{AnyProblem, Format};
use crate::method::Method;
use crate::newton::{ConeNewtonOptions, ProxNsnOptions, cone_newton, cone_newton_prox_start};
use crate::problem::FrictionContact;
use crate::solver::{Params, SolveError, no_observer};
use nalgebra::DVector;
use serde_json::json;

use super::Failure;
use super::bench::{BenchArgs, siconos_driver};
use super::table::{Align, Style, Table, emit, sci};
use super::{expand, short_name};

/// One timed solve: best seconds over the runs, status, iterations and error of the last.
struct Timed {
    seconds: f64,
    status: String,
    iterations: Option<usize>,
    error: Option<f64>,
}

fn time_ours(fc: &FrictionContact, method: Method, tol: f64, repeat: usize) -> Timed {
    let params = Params {
        tol,
        max_iter: 1000,
        ..Default::default()
    };
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..repeat.max(1) {
        let mut r = DVector::zeros(fc.dim());
        let t = std::time::Instant::now();
        let result = match method {
            Method::ProxNsn => cone_newton_prox_start(
                fc,
                &mut r,
                &params,
                &ProxNsnOptions::default(),
                &mut no_observer(),
            )
            .map(|info| info.map_stats(|_| ()))
            .map_err(SolveError::drop_stats),
            _ => cone_newton(
                fc,
                &mut r,
                &params,
                &ConeNewtonOptions::default(),
                &mut no_observer(),
            )
            .map(|info| info.map_stats(|_| ()))
            .map_err(SolveError::drop_stats),
        };
        best = best.min(t.elapsed().as_secs_f64());
        last = Some(result);
    }
    match last.expect("at least one run") {
        Ok(info) => Timed {
            seconds: best,
            status: info.status.name().into(),
            iterations: Some(info.iterations),
            error: Some(info.error.rel),
        },
        Err(SolveError::NoConvergence(info)) => Timed {
            seconds: best,
            status: "max-iterations".into(),
            iterations: Some(info.iterations),
            error: Some(info.error.rel),
        },
        Err(e) => Timed {
            seconds: best,
            status: e.status_name().into(),
            iterations: None,
            error: None,
        },
    }
}

/// Runs `scripts/siconos_driver.py bench-solve` (NSN_AC) on the Siconos files.
fn time_siconos(files: &[&Path], tol: f64, repeat: usize) -> Result<Vec<Option<Timed>>, String> {
    let options = [
        "--solver".to_string(),
        "NSN_AC".to_string(),
        "--tol".to_string(),
        tol.to_string(),
        "--repeat".to_string(),
        repeat.to_string(),
    ];
    Ok(siconos_driver("bench-solve", files, &options)?
        .into_iter()
        .map(|v| {
            let v = v?;
            Some(Timed {
                seconds: v["seconds"].as_f64()?,
                status: if v["info"].as_i64() == Some(0) {
                    "converged"
                } else {
                    "failed"
                }
                .into(),
                iterations: v["iterations"].as_u64().map(|i| i as usize),
                error: v["error"].as_f64(),
            })
        })
        .collect())
}

/// Time to `--tol` of the cone Newton (cold or PROX-started), beside Siconos NSN_AC.
pub fn run(a: &BenchArgs) -> Result<ExitCode, Failure> {
    let files = expand(&a.paths)?;
    let mut rows: Vec<(PathBuf, usize, Timed, bool)> = Vec::new();
    let mut all_ok = true;
    for path in &files {
        let lp = match super::load(path) {
            Ok(lp) => lp,
            Err(e) => {
                eprintln!("nonsmooth: {e}");
                all_ok = false;
                continue;
            }
        };
        let fc = match &lp.problem {
            AnyProblem::Friction(p) => p.clone(),
            AnyProblem::Global(p) => match p.to_local() {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("nonsmooth: {}: {e}", path.display());
                    all_ok = false;
                    continue;
                }
            },
            _ => {
                eprintln!(
                    "nonsmooth: {}: bench --method {} needs a friction problem",
                    path.display(),
                    a.method.name()
                );
                all_ok = false;
                continue;
            }
        };
        let timed = time_ours(&fc, a.method, a.tol, a.repeat);
        let siconos = a.siconos && lp.format == Format::Siconos;
        rows.push((path.clone(), fc.contacts(), timed, siconos));
    }
    let sic_files: Vec<&Path> = rows.iter().filter(|r| r.3).map(|r| r.0.as_path()).collect();
    let mut sic = time_siconos(&sic_files, a.tol, a.repeat)?.into_iter();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let method = a.method.name();
    let t = Table::new(&[
        ("file", 34, Align::Left),
        ("contacts", 8, Align::Right),
        ("method", 8, Align::Left),
        ("ms", 9, Align::Right),
        ("status", 14, Align::Left),
        ("iter", 5, Align::Right),
        ("nsn_ac_ms", 9, Align::Right),
        ("nsn_ac", 9, Align::Left),
        ("ratio", 6, Align::Right),
    ]);
    match a.format {
        Style::Table => emit(&mut out, &t.header())?,
        Style::Markdown => {
            emit(
                &mut out,
                "| file | contacts | method | ms to tol | status | iterations | Siconos NSN_AC ms | NSN_AC status | ratio |",
            )?;
            emit(&mut out, "|---|---:|---|---:|---|---:|---:|---|---:|")?;
        }
        _ => {}
    }
    let ms = |s: f64| format!("{:.2}", s * 1e3);
    for (path, nc, ours, has_sic) in rows {
        let theirs = if has_sic { sic.next().flatten() } else { None };
        // A time ratio means something only when both solves reached the tolerance.
        let ratio = theirs
            .as_ref()
            .filter(|s| s.status == "converged" && ours.status == "converged")
            .map(|s| ours.seconds / s.seconds);
        let iters = ours.iterations.map_or("-".into(), |i| i.to_string());
        match a.format {
            Style::Json => emit(
                &mut out,
                &json!({"file": short_name(&path), "path": path.display().to_string(),
                        "contacts": nc, "method": method, "tol": a.tol,
                        "seconds": ours.seconds, "status": ours.status,
                        "iterations": ours.iterations, "error": ours.error,
                        "siconos_nsn_ac_seconds": theirs.as_ref().map(|s| s.seconds),
                        "siconos_nsn_ac_status": theirs.as_ref().map(|s| s.status.clone()),
                        "siconos_nsn_ac_iterations": theirs.as_ref().and_then(|s| s.iterations),
                        "siconos_nsn_ac_error": theirs.as_ref().and_then(|s| s.error),
                        "ratio": ratio})
                .to_string(),
            )?,
            Style::Markdown => emit(
                &mut out,
                &format!(
                    "| {} | {nc} | {method} | {} | {} | {iters} | {} | {} | {} |",
                    short_name(&path),
                    ms(ours.seconds),
                    ours.status,
                    theirs.as_ref().map_or("-".into(), |s| ms(s.seconds)),
                    theirs.as_ref().map_or("-".into(), |s| s.status.clone()),
                    ratio.map_or("-".into(), |r| format!("{r:.2}")),
                ),
            )?,
            Style::Table => emit(
                &mut out,
                &t.row(&[
                    short_name(&path),
                    nc.to_string(),
                    method.into(),
                    ms(ours.seconds),
                    ours.status.clone(),
                    iters,
                    theirs.as_ref().map_or("-".into(), |s| ms(s.seconds)),
                    theirs.as_ref().map_or("-".into(), |s| s.status.clone()),
                    ratio.map_or_else(|| sci(None), |r| format!("{r:.2}")),
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
