//! `nonsmooth solve`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Failure;
use crate::io::{AnyProblem, LoadedProblem};
use crate::merit::Measure;
use crate::policy::warm_start;
use crate::problem::FrictionKind;
use crate::prox::RFactor;
use crate::registry::{Choice, OptionError, solve};
use crate::solver::{Params, no_observer};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nalgebra::DVector;
use serde_json::json;

use super::output::{Output, Streamed, plan};
use super::table::{Align, Style, Table, elide, emit, sci};
use super::{args, expand, short_name};

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Problem files or folders (searched recursively).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Method (`nonsmooth methods` lists them with their options).
    #[arg(long, short, default_value = "auto", value_parser = args::method,
          help = super::methods::method_help("Method", None))]
    method: Choice,
    /// Set an option of the method: KEY=VALUE, repeatable (`nonsmooth methods` lists each
    /// method's options and defaults). An option the method does not have is an error.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Relaxation factor, in (0, 2): of pj and psor, and the multiplier of the initial
    /// r-factors of prox-gs and prox-jacobi (an error with other methods); the same as
    /// --set omega=W.
    #[arg(long, allow_hyphen_values = true, value_parser = args::omega)]
    omega: Option<f64>,
    /// r-factor strategy for prox-gs and prox-jacobi: global (r = 5), global=R,
    /// global-spectral, local, blocked, blocked-matrix. Default local for prox-gs, blocked
    /// for prox-jacobi; the paper's setting is --r-factor global --window 1.
    #[arg(long, value_parser = |s: &str| s.parse::<RFactor>())]
    r_factor: Option<RFactor>,
    /// Divergence-test window of prox-gs and prox-jacobi, in sweeps (>= 1): a sweep is
    /// rolled back when its step is at least the largest of the last N accepted steps.
    /// Default 1000; 1 is the paper's test.
    #[arg(long, allow_hyphen_values = true, value_parser = args::window)]
    window: Option<usize>,
    /// Stop when the error is at most this (Siconos 4.4 normalisation unless --measure);
    /// a finite number >= 0.
    #[arg(long, default_value = "1e-8", allow_hyphen_values = true, value_parser = args::tolerance)]
    tol: f64,
    /// Iteration cap (sweeps, Newton steps, outer iterations, or pivots for Lemke), a whole
    /// number >= 1. Default: the method's own (`nonsmooth methods` lists it). Every method
    /// also stops earlier, with status stalled, when its error has not fallen by a stated
    /// fraction over a stated window (the book's chapter on judging an answer).
    #[arg(long, allow_hyphen_values = true, value_parser = args::max_iter)]
    max_iter: Option<usize>,
    /// Wall-clock budget per problem, in seconds: a solve still running then ends with
    /// status time-limit and its best iterate.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = args::time_limit)]
    time_limit: Option<f64>,
    /// Friction law to solve: coulomb or ccp (default: the file's own). Friction problems
    /// only: an LCP or boxed LCP is then refused (status invalid).
    #[arg(long, value_parser = args::kind)]
    kind: Option<FrictionKind>,
    /// Which error meets the tolerance: rel (Siconos 4.4), rel-q (‖q‖-scaled) or abs.
    #[arg(long, default_value = "rel", value_parser = parse_measure)]
    measure: Measure,
    /// Start from this answer instead of zero: a .npy array, a JSON array or object with
    /// "r" (what --out writes), or numbers separated by white space; `embedded` starts
    /// from the answer the problem file carries (MuJoCo exports, NumPy folders).
    #[arg(long, value_name = "FILE|embedded")]
    warm_start: Option<PathBuf>,
    /// Write the answer to this file (one problem only); the format follows the
    /// extension: .json (r, u, status, error, statistics, per-contact values), .npy (r),
    /// .txt or .dat (r, one number per line). Never one of the inputs.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write the error at every iteration to this CSV file (written when all problems
    /// are solved; never one of the inputs).
    #[arg(long)]
    history: Option<PathBuf>,
    /// One JSON object per problem and line instead of a table (same as --format json).
    #[arg(long)]
    json: bool,
    /// Output: table, json or markdown.
    #[arg(long, value_enum, default_value = "table")]
    format: Style,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// The method with the options of --set and of the per-option flags.
fn choice(a: &SolveArgs) -> Result<Choice, Failure> {
    let usage = |e: OptionError| Failure::Usage(e.to_string());
    let mut c = a.method.clone();
    if let Some(omega) = a.omega {
        c = c.set("omega", omega.into()).map_err(usage)?;
    }
    if let Some(r) = a.r_factor {
        let text = match r {
            RFactor::Global { r } => format!("global={r}"),
            other => other.name().to_string(),
        };
        c = c.set("r_factor", text.into()).map_err(usage)?;
    }
    if let Some(w) = a.window {
        c = c.set("window", w.into()).map_err(usage)?;
    }
    for pair in &a.set {
        c = c.set_pair(pair).map_err(usage)?;
    }
    Ok(c)
}

fn parse_measure(s: &str) -> Result<Measure, String> {
    match s {
        "rel" => Ok(Measure::Relative),
        "rel-q" => Ok(Measure::RelativeQ),
        "abs" => Ok(Measure::Absolute),
        o => Err(format!(
            "unknown measure `{o}` (expected rel, rel-q or abs)"
        )),
    }
}

/// The widest file name the table shows whole; a longer one is cut in the middle (`…`), and
/// stays whole in the JSON output (`file` and `path`).
const FILE_WIDTH: usize = 28;

/// The result table, its file column as wide as the longest name in the run (at most
/// [`FILE_WIDTH`]) and its method column as wide as the longest method the run can show
/// (any that `auto` picks when it is asked for).
fn table(files: &[PathBuf], method: &str) -> Table {
    let file = files
        .iter()
        .map(|p| short_name(p).chars().count())
        .max()
        .unwrap_or(0)
        .min(FILE_WIDTH);
    let method = if method == "auto" {
        // `auto:` and the last method of its route
        "auto:fischer-newton".len()
    } else {
        method.len()
    };
    Table::new(&[
        ("file", file, Align::Left),
        ("type", 9, Align::Left),
        ("kind", 9, Align::Left),
        ("n", 5, Align::Right),
        ("contacts", 8, Align::Right),
        ("method", method, Align::Left),
        ("status", 14, Align::Left),
        ("iter", 6, Align::Right),
        ("error", 9, Align::Right),
        ("error_q", 9, Align::Right),
        ("seconds", 7, Align::Right),
    ])
    .gaps(&[1; 11])
}

/// The fields of one result row.
struct Row {
    file: String,
    ptype: String,
    kind: String,
    n: usize,
    contacts: usize,
    method: String,
    status: String,
    iterations: Option<usize>,
    error: Option<f64>,
    error_q: Option<f64>,
    error_abs: Option<f64>,
    error_normal: Option<f64>,
    error_scaled: Option<f64>,
    seconds: Option<f64>,
    message: Option<String>,
    options: serde_json::Value,
    stats: serde_json::Value,
}

impl Row {
    /// The row of a problem that was not solved: `status` says why (`unreadable`,
    /// `invalid`, or `skipped` for a file found in a folder in a format this build cannot
    /// read), `message` how; no iterations, errors or time.
    fn unsolved(file: String, method: &str, status: &str, message: String) -> Row {
        Row {
            file,
            ptype: "-".into(),
            kind: "-".into(),
            n: 0,
            contacts: 0,
            method: method.into(),
            status: status.into(),
            iterations: None,
            error: None,
            error_q: None,
            error_abs: None,
            error_normal: None,
            error_scaled: None,
            seconds: None,
            message: Some(message),
            options: serde_json::Value::Null,
            stats: serde_json::Value::Null,
        }
    }

    fn json(&self, path: &str) -> String {
        json!({
            "file": self.file, "path": path, "type": self.ptype, "kind": self.kind,
            "n": self.n, "contacts": self.contacts, "method": self.method,
            "status": self.status, "iterations": self.iterations,
            "error": self.error, "error_q": self.error_q, "error_abs": self.error_abs,
            "error_normal": self.error_normal, "error_scaled": self.error_scaled,
            "seconds": self.seconds, "message": self.message,
            "options": self.options, "stats": self.stats,
        })
        .to_string()
    }

    fn markdown(&self) -> String {
        format!("| {} |", self.cells().join(" | "))
    }

    /// The cells of the text table: [`Row::cells`], the file name cut to [`FILE_WIDTH`].
    fn table_cells(&self) -> Vec<String> {
        let mut cells = self.cells();
        cells[0] = elide(&self.file, FILE_WIDTH);
        cells
    }

    /// The cells of the table, the file name whole (the Markdown table has no widths).
    fn cells(&self) -> Vec<String> {
        vec![
            self.file.clone(),
            self.ptype.clone(),
            self.kind.clone(),
            self.n.to_string(),
            self.contacts.to_string(),
            self.method.clone(),
            self.status.clone(),
            self.iterations
                .map(|i| i.to_string())
                .unwrap_or_else(|| "-".into()),
            sci(self.error),
            sci(self.error_q),
            self.seconds
                .map(|s| format!("{s:.4}"))
                .unwrap_or_else(|| "-".into()),
        ]
    }
}

fn kind_name(lp: &LoadedProblem, k: Option<FrictionKind>) -> String {
    match k {
        Some(k) => k.name().to_string(),
        None => lp.problem.type_name().to_string(),
    }
}

pub fn run(a: SolveArgs) -> Result<ExitCode, Failure> {
    let format = if a.json { Style::Json } else { a.format };
    let files = expand(&a.paths)?;
    let method = choice(&a)?;
    if let Some(out) = &a.out {
        if files.len() != 1 {
            return Err(Failure::Usage(format!(
                "--out {} takes one problem, and {} were given; solve them one at a time",
                out.display(),
                files.len()
            )));
        }
        crate::io::answer::AnswerFormat::of(out).map_err(Failure::Usage)?;
    }
    let mut inputs = files.clone();
    inputs.extend(a.warm_start.clone());
    plan(
        &inputs,
        &[
            Output::file(a.out.as_deref(), "answer file (--out)"),
            Output::file(a.history.as_deref(), "history file (--history)"),
        ],
    )?;
    if let Some(w) = &a.warm_start {
        if files.len() != 1 {
            return Err(Failure::Usage(format!(
                "--warm-start {} is the start of one problem, and {} were given",
                w.display(),
                files.len()
            )));
        }
    }
    let params = Params {
        tol: a.tol,
        max_iter: a.max_iter.unwrap_or(method.default_max_iter()),
        measure: a.measure,
        record_history: a.history.is_some(),
        time_limit: a.time_limit,
        ..Default::default()
    };
    // The history goes to a temporary file beside its target, renamed over it at the end:
    // the target is never opened while the inputs are read, and it may not be one.
    let mut history = match &a.history {
        Some(p) => {
            let mut f = Streamed::create(p, "history file")?;
            f.line("file,method,iteration,seconds,error,error_q,error_abs")?;
            Some(f)
        }
        None => None,
    };

    let bar = if a.quiet || files.len() < 2 {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::new(files.len() as u64);
        b.set_draw_target(ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {wide_msg}")
                .expect("static template")
                .progress_chars("=> "),
        );
        b
    };
    let t = table(&files, method.name());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match format {
        Style::Table => bar.suspend(|| emit(&mut out, &t.header()))?,
        Style::Markdown => {
            emit(
                &mut out,
                "| file | type | kind | n | contacts | method | status | iterations | error | error_q | seconds |",
            )?;
            emit(
                &mut out,
                "|---|---|---|---:|---:|---|---|---:|---:|---:|---:|",
            )?;
        }
        Style::Json => {}
    }
    let mut all_ok = true;
    for path in &files {
        bar.set_message(short_name(path));
        let row = match super::load(path) {
            // A file found inside a folder in a format this build cannot read (FCLIB HDF5
            // without the `hdf5` feature) is reported and skipped; one named on the command
            // line is an error like any unreadable file.
            Err(e)
                if matches!(e.kind, crate::io::IoErrorKind::FeatureDisabled(_))
                    && !a.paths.iter().any(|p| p == path) =>
            {
                bar.suspend(|| say!("skipped: {e}"));
                Row::unsolved(short_name(path), method.name(), "skipped", e.to_string())
            }
            Err(e) => {
                all_ok = false;
                bar.suspend(|| say!("{e}"));
                Row::unsolved(short_name(path), method.name(), "unreadable", e.to_string())
            }
            Ok(mut lp) => {
                bar.suspend(|| super::warn(&lp));
                if let Err(m) = super::kind_applies(path, &lp.problem, a.kind) {
                    // a row like any other problem that cannot be solved as asked
                    all_ok = false;
                    bar.suspend(|| say!("{m}"));
                    Row {
                        ptype: lp.problem.type_name().into(),
                        kind: kind_name(&lp, None),
                        n: lp.problem.dim(),
                        contacts: lp.problem.contacts(),
                        ..Row::unsolved(short_name(path), method.name(), "invalid", m)
                    }
                } else {
                    let mu_max = match &lp.problem {
                        AnyProblem::Friction(f) => Some(f.mu().max()),
                        AnyProblem::Global(g) => Some(g.mu().max()),
                        AnyProblem::Generic(g) => g
                            .blocks()
                            .iter()
                            .filter_map(|b| match b {
                                crate::problem::Block::Contact { mu } => {
                                    mu.iter().copied().reduce(f64::max)
                                }
                                _ => None,
                            })
                            .reduce(f64::max),
                        _ => None,
                    };
                    if let Some(note) =
                        mu_max.and_then(|m| crate::merit::mu_beyond_resolution(m, a.tol))
                    {
                        bar.suspend(|| say!("note: {}: {note}", path.display()));
                    }
                    lp.problem = lp.problem.with_kind(a.kind).map_err(|e| e.to_string())?;
                    let x = match &a.warm_start {
                        None => DVector::zeros(lp.problem.dim()),
                        Some(w) if w.as_os_str() == "embedded" => match &lp.answer {
                            Some(ans) => warm_start::given(ans.r.clone(), lp.problem.dim())
                                .map_err(|e| {
                                    Failure::Input(format!(
                                        "{}: the embedded answer: {e}",
                                        path.display()
                                    ))
                                })?,
                            None => {
                                return Err(Failure::Usage(format!(
                                    "{}: --warm-start embedded, but the file carries no \
                                     answer; give one with --warm-start FILE",
                                    path.display()
                                )));
                            }
                        },
                        Some(w) => warm_start::given(
                            super::check::read_answer(w, lp.problem.dim())?,
                            lp.problem.dim(),
                        )
                        .map_err(|e| Failure::Input(format!("{}: {e}", w.display())))?,
                    };
                    if a.warm_start.is_some() && method.resolve(&lp.problem).name() == "lemke" {
                        bar.suspend(|| {
                            say!(
                                "warning: {}: lemke pivots from its own initial basis \
                                 and does not use --warm-start",
                                path.display()
                            )
                        });
                    }
                    let outcome = solve(&lp.problem, &method, x, &params, &mut no_observer());
                    let info = outcome.info();
                    if let Some(out) = &a.out {
                        let mut ans = crate::io::answer::Answer::new(&lp.problem, &outcome.x)
                            .map_err(|e| Failure::Input(e.to_string()))?;
                        ans.method = outcome.method_label();
                        ans.options = outcome.method.options();
                        ans.status = outcome.status().into();
                        ans.iterations = info.map(|i| i.iterations);
                        ans.error = info.map(|i| i.error);
                        ans.stats = info.map_or(serde_json::Value::Null, |i| i.stats.clone());
                        crate::io::answer::write(out, &ans)
                            .map_err(|e| Failure::Input(e.to_string()))?;
                    }
                    if outcome.status() != "converged" {
                        all_ok = false;
                    }
                    if let (Some(f), Some(info)) = (history.as_mut(), info) {
                        for h in &info.history {
                            f.line(&format!(
                                "{},{},{},{},{},{},{}",
                                short_name(path),
                                outcome.method.name(),
                                h.iteration,
                                h.seconds,
                                h.error.rel,
                                h.error.rel_q,
                                h.error.abs
                            ))?;
                        }
                    }
                    let message = match &outcome.result {
                        Err(e) => Some(e.to_string()),
                        Ok(_) => None,
                    };
                    if let Some(m) = &message {
                        bar.suspend(|| say!("{}: {m}", path.display()));
                    }
                    Row {
                        file: short_name(path),
                        ptype: lp.problem.type_name().into(),
                        kind: kind_name(&lp, outcome.kind),
                        n: lp.problem.dim(),
                        contacts: lp.problem.contacts(),
                        method: outcome.method_label(),
                        status: outcome.status().into(),
                        iterations: info.map(|i| i.iterations),
                        error: info.map(|i| i.error.rel),
                        error_q: info.map(|i| i.error.rel_q),
                        error_abs: info.map(|i| i.error.abs),
                        error_normal: info.map(|i| i.error.normal),
                        error_scaled: info.map(|i| i.error.scaled),
                        seconds: info.map(|i| i.seconds),
                        message,
                        options: outcome.method.options(),
                        stats: info.map_or(serde_json::Value::Null, |i| i.stats.clone()),
                    }
                }
            }
        };
        let line = match format {
            Style::Json => row.json(&path.display().to_string()),
            Style::Markdown => row.markdown(),
            Style::Table => t.row(&row.table_cells()),
        };
        bar.suspend(|| emit(&mut out, &line))?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(f) = history {
        f.finish()?;
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
