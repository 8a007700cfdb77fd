//! `nonsmooth bench`: any method of the registry timed on problem files or generated
//! scenes, per iteration (the default) or per whole solve to `--tol` (`--solve`), and with
//! `--siconos` beside Siconos 4.4 on the same Siconos files in the same run.
//!
//! Every timing runs the method through [`crate::registry::solve`], the call every
//! user makes: no method is timed through a private path.
//!
//! # Layout
//! The arguments and the dispatch are here; `timing.rs` times our methods, `scenes.rs`
//! runs the `--scene` benchmarks, `siconos.rs` runs Siconos in its own processes and
//! reads what it prints, and `output.rs` writes the per-file table, Markdown or JSON.

mod campaign;
mod output;
pub mod profile;
pub mod ratios;
mod scenes;
mod siconos;
mod timing;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};

use self::campaign::{Shard, merge, parse_shard, parse_timeout, run_campaign};
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
use crate::registry::{Choice, OptionError};
use crate::solver::Params;

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
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    action: Option<BenchAction>,
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
    /// Iterations per timed run when timing per iteration (1 to 10 000 000; default 200).
    /// Whole solves (--solve and campaigns) run to --tol instead, capped by --max-iter.
    #[arg(long, value_parser = args::sweeps)]
    sweeps: Option<usize>,
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
    /// Gauss-Seidel sweeps (nsgs on the local form, vgs on the global one). Several
    /// (comma-separated or repeated) make a campaign of whole solves.
    #[arg(long, short, value_delimiter = ',', value_parser = |s: &str| s.parse::<Choice>().map_err(|e| e.to_string()))]
    method: Vec<Choice>,
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
    /// Campaign: write one JSON record per (problem, solver) to FILE (JSON Lines), and a
    /// table to standard output. Implies --solve.
    #[arg(long, value_name = "FILE")]
    jsonl: Option<PathBuf>,
    /// Campaign: write the JSON Lines records to standard output. Implies --solve.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// Campaign: stop a solve after this many seconds (ours by the observer, a Siconos
    /// process killed); its record says `timeout`. Implies --solve.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<f64>,
    /// Campaign: problems solved in parallel on N threads, one solve per thread (1, the
    /// default, keeps timings clean). Implies --solve.
    #[arg(long, value_name = "N", default_value = "1", value_parser = clap::value_parser!(u16).range(1..=1024))]
    jobs: u16,
    /// Campaign: only every n-th problem of the sorted list, starting with the i-th (1-based),
    /// to run shards as an array job and `bench merge` them. Implies --solve.
    #[arg(long, value_name = "i/n", value_parser = parse_shard)]
    shard: Option<Shard>,
}

/// `nonsmooth bench merge` and `nonsmooth bench profile`.
#[derive(Debug, Subcommand)]
enum BenchAction {
    /// Concatenate campaign JSON Lines files (shards) to standard output; a (problem,
    /// solver, tolerance) recorded twice is an error.
    Merge {
        /// The JSON Lines files of `nonsmooth bench --jsonl`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Performance profiles (Dolan and Moré 2002) of a campaign: for each solver, the
    /// fraction of problems it solved within a factor tau of the best time; a table at
    /// tau = 1, 2, 4, 10, 100 and optionally an SVG plot.
    Profile {
        /// The JSON Lines file of a campaign (merged shards).
        file: PathBuf,
        /// Draw the profiles as an SVG file (log tau axis).
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
        /// Name the tolerance in the plot's title (e.g. "1e-8").
        #[arg(long, value_name = "TEXT")]
        tol_label: Option<String>,
    },
    /// The ratio table of a campaign run with Siconos: on each problem, the time of the
    /// best of our methods over that of the best Siconos solver, and the same for one
    /// method of ours (`auto`); the median and the worst. An unsolved side counts as
    /// infinitely slow.
    Ratios {
        /// The JSON Lines file of a campaign (merged shards) with Siconos records.
        file: PathBuf,
        /// The method of ours compared on its own as well.
        #[arg(long, default_value = "auto", value_name = "METHOD")]
        named: String,
        /// The timing compared: the best of each solver's `--repeat` runs, or their median
        /// (steadier from campaign to campaign on a loaded machine)
        #[arg(long, value_enum, default_value = "best")]
        statistic: profile::Statistic,
    },
}

/// Whether the arguments ask for a campaign (several methods, JSON Lines, a timeout,
/// threads or a shard).
fn is_campaign(a: &BenchArgs) -> bool {
    a.method.len() > 1
        || a.jsonl.is_some()
        || a.json
        || a.timeout.is_some()
        || a.jobs > 1
        || a.shard.is_some()
}

/// `m` with --r-factor and every --set applied.
fn configure(a: &BenchArgs, mut c: Choice) -> Result<Choice, Failure> {
    if let Some(r) = &a.r_factor {
        c = c.set_text("r_factor", r).map_err(usage)?;
    }
    for pair in &a.set {
        c = c.set_pair(pair).map_err(usage)?;
    }
    Ok(c)
}

fn choice(a: &BenchArgs) -> Result<Choice, Failure> {
    let c = match a.method.first() {
        Some(m) => m.clone(),
        None => Choice::new("auto").expect("registered"),
    };
    configure(a, c)
}

fn usage(e: OptionError) -> Failure {
    Failure::Usage(e.to_string())
}

fn whole_solve(a: &BenchArgs) -> bool {
    a.solve
        || is_campaign(a)
        || a.method
            .first()
            .is_some_and(|m| matches!(m.name(), "nsn" | "prox-nsn"))
}

/// Iterations per timed run when timing per iteration, when `--sweeps` is not given.
const DEFAULT_SWEEPS: usize = 200;

fn sweeps(a: &BenchArgs) -> usize {
    a.sweeps.unwrap_or(DEFAULT_SWEEPS)
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
            max_iter: sweeps(a),
            check_every: sweeps(a),
            ..Default::default()
        }
    }
}

pub fn run(a: BenchArgs) -> Result<ExitCode, Failure> {
    match &a.action {
        Some(BenchAction::Merge { files }) => return merge(files),
        Some(BenchAction::Profile {
            file,
            plot,
            tol_label,
        }) => return run_profile(file, plot.as_deref(), tol_label.as_deref()),
        Some(BenchAction::Ratios {
            file,
            named,
            statistic,
        }) => return run_ratios(file, named, *statistic),
        None => {}
    }
    if a.sweeps.is_some() && (is_campaign(&a) || whole_solve(&a)) {
        return Err(Failure::Usage(
            "--sweeps sets the iterations of a per-iteration timing; whole solves (--solve, \
             campaigns) run to --tol, capped by --max-iter"
                .into(),
        ));
    }
    if is_campaign(&a) {
        if a.scene.is_some() {
            return Err(Failure::Usage(
                "a campaign (several methods, --jsonl, --json, --timeout, --jobs or --shard) \
                 runs on problem files, not --scene"
                    .into(),
            ));
        }
        if !(a.tol > 0.0) {
            return Err(Failure::Usage(format!(
                "--tol must be positive to time a solve to it (got {})",
                a.tol
            )));
        }
        return run_campaign(&a);
    }
    let method = choice(&a)?;
    if whole_solve(&a) && !(a.tol > 0.0) {
        return Err(Failure::Usage(format!(
            "--tol must be positive to time a solve to it (got {})",
            a.tol
        )));
    }
    if let Some(kind) = a.scene {
        if let Some(p) = a.paths.first() {
            return Err(Failure::Usage(format!(
                "{}: --scene times generated scenes and reads no files; give either paths or \
                 --scene",
                p.display()
            )));
        }
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
                say!("{e}");
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
                say!("{}: {e}", path.display());
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
        siconos_per_iteration(&sic_files, sweeps(&a), a.repeat, prox)?
    };
    print_file_rows(&a, &params, rows, sic)?;
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `nonsmooth bench ratios FILE [--named METHOD]`.
fn run_ratios(
    file: &Path,
    named: &str,
    statistic: profile::Statistic,
) -> Result<ExitCode, Failure> {
    let records = profile::read_records(file)
        .and_then(|r| profile::one_tolerance(file, r))
        .map_err(Failure::Input)?;
    let r = ratios::Ratios::from_records_by(&records, named, statistic)
        .map_err(|e| Failure::Input(format!("{}: {e}", file.display())))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    super::table::emit(&mut out, ratios::ratios_markdown(&r).trim_end())?;
    Ok(ExitCode::SUCCESS)
}

/// `nonsmooth bench profile FILE [--plot SVG] [--tol-label TEXT]`.
fn run_profile(file: &Path, plot: Option<&Path>, label: Option<&str>) -> Result<ExitCode, Failure> {
    use self::profile::{Profile, plot_profile, profile_markdown};
    use super::output::{Output, plan};
    plan(
        &[file.to_path_buf()],
        &[Output::file(plot, "plot (--plot)")],
    )?;
    let records = profile::read_records(file)
        .and_then(|r| profile::one_tolerance(file, r))
        .map_err(Failure::Input)?;
    let p = Profile::from_records(&records)
        .map_err(|e| Failure::Input(format!("{}: {e}", file.display())))?;
    let tol = label.map_or_else(|| format!("{:e}", records[0].tol), String::from);
    let table = profile_markdown(&p);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    super::table::emit(
        &mut out,
        &format!(
            "performance profile: {} problems, tolerance {tol}\n",
            p.problems
        ),
    )?;
    super::table::emit(&mut out, table.trim_end())?;
    if let Some(svg) = plot {
        let title = format!("Performance profile, {} problems, tol {tol}", p.problems);
        plot_profile(&p, svg, &title).map_err(Failure::Input)?;
        say!("wrote {}", svg.display());
    }
    Ok(ExitCode::SUCCESS)
}
