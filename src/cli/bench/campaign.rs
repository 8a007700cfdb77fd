//! Benchmark campaigns: several of our methods and several Siconos 4.4 solvers on the same
//! files, whole solves to `--tol`, best of `--repeat`, with a per-solve timeout, problems in
//! parallel across `--jobs` threads, a `--shard i/n` of the problems, one JSON Lines
//! [`Record`] per (problem, solver); and `bench merge` of shard outputs.

use std::collections::HashMap;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use nalgebra::DVector;
use rayon::prelude::*;

use super::super::table::{Align, Table, emit};
use super::super::{Failure, expand, short_name};
use super::BenchArgs;
use super::profile::{Record, read_records};
use super::siconos::{SiconosRun, siconos_available, siconos_solve_once};
use crate::io::{AnyProblem, Format};
use crate::registry::{Choice, solve};
use crate::solver::Params;

/// `--shard i/n`: the problems whose index in the sorted list is `i - 1` modulo `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based shard number.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

/// Parses `i/n` with `1 <= i <= n`.
pub(super) fn parse_shard(s: &str) -> Result<Shard, String> {
    let bad = || format!("--shard takes i/n with 1 <= i <= n (got `{s}`)");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let index: usize = i.trim().parse().map_err(|_| bad())?;
    let count: usize = n.trim().parse().map_err(|_| bad())?;
    if index == 0 || count == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// Parses a timeout in seconds: finite and positive.
pub(super) fn parse_timeout(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 => Ok(t),
        _ => Err(format!(
            "--timeout takes a positive number of seconds (got `{s}`)"
        )),
    }
}

/// Our methods of the campaign, with `--set` and `--r-factor` applied to each.
fn methods(a: &BenchArgs) -> Result<Vec<Choice>, Failure> {
    let names: Vec<Choice> = if a.method.is_empty() {
        vec![Choice::new("auto").expect("registered")]
    } else {
        a.method.clone()
    };
    names.into_iter().map(|m| super::configure(a, m)).collect()
}

/// The Siconos solvers of the campaign: `--siconos-solver`, or with `--siconos` alone
/// NSGS, PROX, NSN_AC and NSN_FB.
fn siconos_solvers(a: &BenchArgs) -> Vec<String> {
    if !a.siconos_solver.is_empty() {
        a.siconos_solver.clone()
    } else if a.siconos {
        ["NSGS", "PROX", "NSN_AC", "NSN_FB"]
            .map(String::from)
            .to_vec()
    } else {
        Vec::new()
    }
}

/// Runs a campaign (see the module documentation).
pub(super) fn run_campaign(a: &BenchArgs) -> Result<ExitCode, Failure> {
    let methods = methods(a)?;
    let mut seen = std::collections::HashSet::new();
    for m in &methods {
        if !seen.insert(m.name()) {
            return Err(Failure::Usage(format!(
                "method `{}` given twice: a campaign has one record per (problem, solver)",
                m.name()
            )));
        }
    }
    let sic = siconos_solvers(a);
    if !sic.is_empty() && !siconos_available() {
        return Err(Failure::Input(
            "Siconos solvers requested, but neither the C harness (cc with \
             libsiconos-numerics-dev) nor `/usr/bin/python3 -c 'import siconos.numerics'` \
             works: install libsiconos-numerics-dev or python3-siconos"
                .into(),
        ));
    }
    let mut files = expand(&a.paths)?;
    files.sort();
    files.dedup();
    super::super::output::plan(
        &files,
        &[super::super::output::Output::file(
            a.jsonl.as_deref(),
            "campaign file (--jsonl)",
        )],
    )?;
    if let Some(sh) = a.shard {
        files = files
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % sh.count == sh.index - 1)
            .map(|(_, f)| f)
            .collect();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.jobs.into())
        .build()
        .map_err(|e| Failure::Usage(format!("cannot start {} threads: {e}", a.jobs)))?;
    let sink = std::sync::Mutex::new(Sink::open(a)?);
    let results: Vec<Result<Vec<Record>, String>> = pool.install(|| {
        files
            .par_iter()
            .with_max_len(1)
            .map(|f| {
                let rs = run_problem(a, f, &methods, &sic)?;
                sink.lock().expect("no panic holds the sink").stream(&rs);
                Ok(rs)
            })
            .collect()
    });
    let sink = sink.into_inner().expect("no panic holds the sink");
    if let Some(e) = sink.failed {
        return Err(e);
    }
    let mut records = Vec::new();
    let mut all_read = true;
    for r in results {
        match r {
            Ok(rs) => records.extend(rs),
            Err(e) => {
                say!("{e}");
                all_read = false;
            }
        }
    }
    write_records(a, &records)?;
    Ok(if all_read {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Every solver of the campaign on one file: ours, then Siconos's (on Siconos friction
/// files only).
fn run_problem(
    a: &BenchArgs,
    path: &Path,
    methods: &[Choice],
    sic: &[String],
) -> Result<Vec<Record>, String> {
    let lp = super::super::load(path).map_err(|e| e.to_string())?;
    let problem = path.display().to_string();
    let contacts = lp.problem.contacts();
    let base = |solver: String| Record {
        problem: problem.clone(),
        solver,
        contacts,
        tol: a.tol,
        seconds: None,
        status: String::new(),
        iterations: None,
        error: None,
        repeat: a.repeat,
        timeout: a.timeout,
        message: None,
        timer: None,
        median_seconds: None,
    };
    let params = Params {
        tol: a.tol,
        max_iter: a.max_iter,
        ..Default::default()
    };
    let mut out = Vec::new();
    for m in methods {
        let resolved = m.resolve(&lp.problem);
        let mut rec = base(m.name().to_string());
        time_one(&lp.problem, &resolved, &params, a, &mut rec);
        out.push(rec);
    }
    // What Siconos's side reads: the file itself (a Siconos fc3d file), the problem
    // written as a Siconos .dat (any other file of a Coulomb fc3d problem), or nothing.
    let siconos_input = siconos_input(&lp);
    for s in sic {
        let mut rec = base(format!("siconos-{s}"));
        let file = match &siconos_input {
            Err(why) => {
                rec.status = NOT_RUN.into();
                rec.message = Some(why.clone());
                out.push(rec);
                continue;
            }
            Ok(SiconosInput::Same) => path.to_path_buf(),
            Ok(SiconosInput::Written(text)) => {
                let tmp = written_dat(text)?;
                rec.message = Some(format!(
                    "read by nonsmooth ({}) and written as a Siconos .dat for the harness",
                    lp.format.name()
                ));
                tmp
            }
        };
        {
            // the process limit: every run to the timeout, and the interpreter's start
            let limit = a.timeout.map(|t| t * a.repeat as f64 + 10.0);
            let run = siconos_solve_once(&file, s, a.tol, a.max_iter, a.repeat, limit);
            if file != path {
                let _ = std::fs::remove_file(&file);
            }
            match run? {
                SiconosRun::Done(v) => {
                    rec.seconds = v["seconds"].as_f64();
                    rec.median_seconds = v["median"].as_f64();
                    rec.timer = v["timer"].as_str().map(String::from);
                    rec.iterations = v["iterations"].as_u64().map(|i| i as usize);
                    rec.error = v["error"].as_f64().filter(|e| e.is_finite());
                    let late = rec.seconds.zip(a.timeout).is_some_and(|(s, t)| s > t);
                    if late {
                        rec.seconds = None;
                        rec.median_seconds = None;
                    }
                    rec.status = if late {
                        "timeout"
                    } else if v["info"].as_i64() == Some(0) {
                        "converged"
                    } else {
                        "failed"
                    }
                    .into();
                }
                SiconosRun::TimedOut => {
                    rec.status = "timeout".into();
                    rec.message = Some(format!("killed after {:.1} s", limit.unwrap_or(0.0)));
                }
                SiconosRun::Crashed(m) => {
                    rec.status = "crashed".into();
                    rec.message = Some(m);
                }
            }
            out.push(rec);
        }
    }
    Ok(out)
}

/// The status of a Siconos record the campaign did not run (with the reason in its
/// `message`): not a failure of Siconos, and left out of the ratio table.
pub const NOT_RUN: &str = "not-run";

/// What the Siconos harness is given for a problem.
enum SiconosInput {
    /// The file itself: a Siconos fc3d `.dat`.
    Same,
    /// The problem written as a Siconos fc3d `.dat` (this text).
    Written(String),
}

/// What Siconos's fc3d solvers can be run on: a Siconos fc3d file as it is; any other
/// local Coulomb problem (FCLIB `.hdf5`, the project's JSON, NumPy, MuJoCo's hard
/// view ...) written as a Siconos `.dat` by the crate; else why not (the record is
/// [`NOT_RUN`]).
fn siconos_input(lp: &crate::io::LoadedProblem) -> Result<SiconosInput, String> {
    match &lp.problem {
        AnyProblem::Friction(f) if f.kind() == crate::problem::FrictionKind::Coulomb => {
            if lp.format == Format::Siconos {
                Ok(SiconosInput::Same)
            } else {
                Ok(SiconosInput::Written(crate::io::siconos::fc3d_to_string(f)))
            }
        }
        AnyProblem::Friction(_) => Err(
            "the problem is posed as a CCP, and Siconos's fc3d solvers solve Coulomb's law".into(),
        ),
        other => Err(format!(
            "the campaign's Siconos side runs Siconos's fc3d solvers on local friction \
             problems; this is {}",
            other.noun()
        )),
    }
}

/// Writes `text` to a fresh temporary `.dat` file and returns its path.
fn written_dat(text: &str) -> Result<std::path::PathBuf, String> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "nonsmooth-bench-{}-{}.dat",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, text).map_err(|e| {
        format!(
            "{}: cannot write the problem for Siconos: {e}",
            path.display()
        )
    })?;
    Ok(path)
}

/// Best and median of `repeat` whole solves of ours from zero, each stopped by its observer
/// at the timeout; the status, iterations and error are the last run's.
fn time_one(problem: &AnyProblem, m: &Choice, params: &Params, a: &BenchArgs, rec: &mut Record) {
    let mut times: Vec<f64> = Vec::new();
    for _ in 0..a.repeat.max(1) {
        let x = DVector::zeros(problem.dim());
        let t = Instant::now();
        let mut observer = |_: &crate::solver::Iterate| match a.timeout {
            Some(limit) if t.elapsed().as_secs_f64() > limit => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        };
        let out = solve(problem, m, x, params, &mut observer);
        let seconds = t.elapsed().as_secs_f64();
        rec.status = match out.status() {
            "stopped" => "timeout".to_string(),
            s => s.to_string(),
        };
        rec.iterations = out.info().map(|i| i.iterations);
        rec.error = out.info().map(|i| i.error.rel).filter(|e| e.is_finite());
        rec.message = out.result.as_ref().err().map(|e| e.to_string());
        if rec.status == "timeout" || rec.status == "invalid" {
            times.clear();
            break;
        }
        times.push(seconds);
    }
    rec.seconds = times.iter().copied().min_by(f64::total_cmp);
    rec.median_seconds = super::ratios::median(times.iter().map(|&t| Some(t)));
}

/// Where the records go as each problem's solves end: JSON Lines to `--jsonl FILE` or, with
/// `--json`, to standard output, flushed after every problem, so that a campaign stopped
/// part-way (a killed array job) keeps the records of the problems it finished.
struct Sink {
    file: Option<(PathBuf, std::io::BufWriter<std::fs::File>)>,
    stdout: bool,
    /// The first write that failed; the campaign reports it at the end.
    failed: Option<Failure>,
}

impl Sink {
    /// Creates (truncates) `--jsonl FILE` before any solve, so that a path that cannot be
    /// written is refused at once.
    fn open(a: &BenchArgs) -> Result<Sink, Failure> {
        let file = match &a.jsonl {
            Some(p) => {
                let f = std::fs::File::create(p)
                    .map_err(|e| Failure::Usage(format!("{}: {e}", p.display())))?;
                Some((p.clone(), std::io::BufWriter::new(f)))
            }
            None => None,
        };
        Ok(Sink {
            file,
            stdout: a.json,
            failed: None,
        })
    }

    fn stream(&mut self, records: &[Record]) {
        if self.failed.is_some() {
            return;
        }
        let lines: String = records
            .iter()
            .map(|r| serde_json::to_string(r).expect("records serialise") + "\n")
            .collect();
        if let Some((p, f)) = &mut self.file {
            if let Err(e) = f.write_all(lines.as_bytes()).and_then(|()| f.flush()) {
                self.failed = Some(Failure::Input(format!("{}: {e}", p.display())));
            }
        } else if self.stdout {
            let mut out = std::io::stdout().lock();
            if out
                .write_all(lines.as_bytes())
                .and_then(|()| out.flush())
                .is_err()
            {
                self.failed = Some(Failure::Closed);
            }
        }
    }
}

/// After the campaign: with `--jsonl FILE`, the count of records written (and a table to
/// standard output); with `--json`, nothing more (the records were streamed); else the
/// table.
fn write_records(a: &BenchArgs, records: &[Record]) -> Result<(), Failure> {
    if let Some(p) = &a.jsonl {
        say!("wrote {} records to {}", records.len(), p.display());
    }
    if a.json {
        return Ok(());
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let t = Table::new(&[
        ("file", 34, Align::Left),
        ("contacts", 8, Align::Right),
        ("solver", 16, Align::Left),
        ("µs/solve", 12, Align::Right),
        ("status", 14, Align::Left),
        ("iter", 6, Align::Right),
        ("error", 9, Align::Right),
    ]);
    emit(&mut out, &t.header())?;
    for r in records {
        emit(
            &mut out,
            &t.row(&[
                short_name(Path::new(&r.problem)),
                r.contacts.to_string(),
                r.solver.clone(),
                r.seconds.map_or("-".into(), |s| format!("{:.1}", s * 1e6)),
                r.status.clone(),
                r.iterations.map_or("-".into(), |i| i.to_string()),
                r.error.map_or("-".into(), |e| format!("{e:.1e}")),
            ]),
        )?;
    }
    Ok(())
}

/// `nonsmooth bench merge A.jsonl B.jsonl ...`: the records of every file, in order, to
/// standard output; a (problem, solver, tolerance) recorded twice is refused.
pub(super) fn merge(files: &[PathBuf]) -> Result<ExitCode, Failure> {
    let mut seen: HashMap<(String, String, u64), (PathBuf, usize)> = HashMap::new();
    let mut lines = String::new();
    for f in files {
        for (line, r) in read_records(f).map_err(Failure::Input)? {
            let key = (r.problem.clone(), r.solver.clone(), r.tol.to_bits());
            if let Some((g, l)) = seen.get(&key) {
                return Err(Failure::Input(format!(
                    "duplicate record: problem {} solver {} tol {} in {}:{l} and {}:{line} \
                     (were shards run twice, or overlapping?)",
                    r.problem,
                    r.solver,
                    r.tol,
                    g.display(),
                    f.display()
                )));
            }
            seen.insert(key, (f.clone(), line));
            lines += &(serde_json::to_string(&r).expect("records serialise") + "\n");
        }
    }
    std::io::stdout()
        .lock()
        .write_all(lines.as_bytes())
        .map_err(|_| Failure::Closed)?;
    Ok(ExitCode::SUCCESS)
}
