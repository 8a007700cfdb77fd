//! `nonsmooth bench`: any method of the registry timed on problem files or generated
//! scenes, per iteration (the default) or per whole solve to `--tol` (`--solve`), and with
//! `--siconos` beside Siconos 4.4 on the same Siconos files in the same run.
//!
//! Every timing runs the method through [`crate::solver::registry::solve`], the call every
//! user makes: no method is timed through a private path.
//!
//! # Layout
//! The arguments and the dispatch are here; `timing.rs` times our methods, `scenes.rs`
//! runs the `--scene` benchmarks, `siconos.rs` runs Siconos in its own processes and
//! reads what it prints, and `output.rs` writes the per-file table, Markdown or JSON.

mod output;
mod scenes;
mod siconos;
mod timing;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use self::output::print_file_rows;
use self::scenes::run_scenes;
use self::siconos::{siconos_per_iteration, siconos_solvers, siconos_whole};
use self::timing::time_ours;
use super::Failure;
use super::args;
use super::expand;
use super::table::Style;
use crate::io::{AnyProblem, Format};
use crate::multibody::SceneKind;
use crate::solver::Params;
use crate::solver::registry::{Choice, OptionError};

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
    print_file_rows(&a, &params, rows, sic)?;
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
