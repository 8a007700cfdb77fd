//! Campaign records and performance profiles (Dolan and Moré 2002), as used by Acary,
//! Brémond and Huber 2018 to compare friction-contact solvers on FCLIB.
//!
//! A campaign (`nonsmooth bench --solve --jsonl FILE`) writes one [`Record`] per
//! (problem, solver). For a set of problems `P` and solvers `S`, with `t(p, s)` the time
//! solver `s` took to solve problem `p` (to the campaign's tolerance; `+inf` when it did not
//! converge), the performance ratio is `r(p, s) = t(p, s) / min_s' t(p, s')` and the
//! performance profile of `s` is
//!
//! ```text
//! rho_s(tau) = |{ p in P : r(p, s) <= tau }| / |P|,   tau >= 1
//! ```
//!
//! the fraction of the problems that `s` solved within a factor `tau` of the best solver on
//! each (Dolan and Moré 2002, Mathematical Programming 91, eq. 1-2). `rho_s(1)` is the
//! fraction on which `s` was the fastest (ties count for every tied solver); `rho_s(tau)`
//! for large `tau` is the fraction `s` solved at all. A problem no solver solved counts in
//! `|P|` and for no solver.
//!
//! Checked by `tests/laws/performance_profile.rs`.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// The shortest solve time a profile accepts, in seconds: below a picosecond a time is not
/// a measurement (and `1 / 5e-324` overflows the ratios).
pub const MIN_SECONDS: f64 = 1e-12;
/// The longest, in seconds (about 30 years).
pub const MAX_SECONDS: f64 = 1e9;

/// The statuses a campaign record may carry: ours ([`crate::solver::Status::name`],
/// [`crate::solver::SolveError::status_name`]) and the campaign's own (`timeout`, `crashed`,
/// `failed`, `not-run` for a Siconos solver the campaign could not give the problem to,
/// `-` for a record without a status). Anything else is not a record this program wrote.
pub const STATUSES: &[&str] = &[
    "converged",
    "max-iterations",
    "stopped",
    "stalled",
    "time-limit",
    "invalid",
    "diverged",
    "ray-termination",
    "singular",
    "infeasible",
    "timeout",
    "crashed",
    "failed",
    "not-run",
    "-",
];

/// Which of a record's timings a comparison uses: the best of the `repeat` runs (the
/// default, the least disturbed by other work on the machine) or their median.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Statistic {
    /// The best (smallest) wall time of the runs.
    #[default]
    Best,
    /// The median wall time of the runs.
    Median,
}

/// One timed solve of a campaign: one line of its JSON Lines output. A key this struct
/// does not know is an error when reading (a misspelt `"seconds"` would otherwise read as
/// a solve that never finished).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The problem file, as given on the command line (or found under a given folder).
    pub problem: String,
    /// The solver: one of our methods by its registry name (`nsn`, `nsgs`, ...), or a
    /// Siconos 4.4 fc3d solver as `siconos-NAME` (`siconos-NSGS`, `siconos-PROX`, ...).
    pub solver: String,
    /// Contacts of the problem.
    pub contacts: usize,
    /// The tolerance of the solve (Siconos 4.4 normalisation of the error).
    pub tol: f64,
    /// Best wall time of a whole solve from zero, in seconds, over `repeat` runs; `None`
    /// when no run finished (timeout, crash, invalid input).
    pub seconds: Option<f64>,
    /// `converged`, `max-iterations`, `timeout`, `crashed`, `failed`, or the error's status
    /// name. Only `converged` counts as solved in a profile.
    pub status: String,
    /// Iterations of the last run, as the solver reports them.
    pub iterations: Option<usize>,
    /// The error of the last run's answer as the solver reports it (ours: the relative
    /// error of [`crate::solver::Params::measure`]; Siconos: `fc3d_compute_error`).
    pub error: Option<f64>,
    /// Timed runs; `seconds` is the best.
    pub repeat: usize,
    /// The median wall time of the `repeat` runs, in seconds (`None` when no run finished,
    /// and in campaign files written before it was recorded): with [`Record::seconds`], the
    /// spread of the timing on a loaded machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median_seconds: Option<f64>,
    /// The per-solve timeout in seconds, if one was set.
    pub timeout: Option<f64>,
    /// Why the solve failed, when it did and the solver said why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// How a Siconos solve was timed: `c` (the C harness, around the solver call alone) or
    /// `python` (around the same call through the Python binding); `None` for ours (timed
    /// around [`crate::solver`]'s solve call, the problem already in memory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timer: Option<String>,
}

impl Record {
    /// The seconds of a converged solve, else `None`.
    pub fn solved_time(&self) -> Option<f64> {
        self.solved_time_by(Statistic::Best)
    }

    /// The seconds of a converged solve by `statistic` (the best or the median of the
    /// runs), else `None`. A record without a median (an older file) has none.
    pub fn solved_time_by(&self, statistic: Statistic) -> Option<f64> {
        if self.status == "converged" {
            match statistic {
                Statistic::Best => self.seconds,
                Statistic::Median => self.median_seconds,
            }
        } else {
            None
        }
    }
}

/// The records of `path` (as [`read_records`] gives them, with their line numbers) when
/// they share one tolerance, as a profile or a ratio table compares like with like.
///
/// # Errors
/// The first record at another tolerance than the first, named by file and line.
pub fn one_tolerance(path: &Path, records: Vec<(usize, Record)>) -> Result<Vec<Record>, String> {
    if let Some(((l0, first), (l, r))) = records
        .first()
        .and_then(|f| records.iter().find(|r| r.1.tol != f.1.tol).map(|r| (f, r)))
    {
        return Err(format!(
            "{}:{l}: tolerance {} differs from the tolerance {} of line {l0}: profile one \
             tolerance at a time",
            path.display(),
            crate::error::fmt_num(r.tol),
            crate::error::fmt_num(first.tol)
        ));
    }
    Ok(records.into_iter().map(|(_, r)| r).collect())
}

/// Reads a JSON Lines file of [`Record`]s; blank lines are skipped.
///
/// # Errors
/// The file cannot be read, or a line is not a record (the message names file and line).
pub fn read_records(path: &Path) -> Result<Vec<(usize, Record)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let mut r: Record = serde_json::from_str(line)
            .map_err(|e| format!("{}:{}: not a campaign record: {e}", path.display(), i + 1))?;
        if !STATUSES.contains(&r.status.as_str()) {
            return Err(format!(
                "{}:{}: unknown status \"{}\" (a campaign record's status is one of {})",
                path.display(),
                i + 1,
                crate::io::text::show(&r.status),
                STATUSES.join(", ")
            ));
        }
        if !(r.tol.is_finite() && r.tol > 0.0) {
            return Err(format!(
                "{}:{}: tolerance {} is not a finite positive number",
                path.display(),
                i + 1,
                crate::error::fmt_num(r.tol)
            ));
        }
        if r.status == "converged" && r.seconds.is_none() {
            return Err(format!(
                "{}:{}: status \"converged\" without a time in \"seconds\"",
                path.display(),
                i + 1
            ));
        }
        if let Some(t) = r
            .seconds
            .filter(|t| !(MIN_SECONDS..=MAX_SECONDS).contains(t))
        {
            return Err(format!(
                "{}:{}: seconds {} is not a measured solve time (between {MIN_SECONDS:e} s \
                 and {MAX_SECONDS:e} s)",
                path.display(),
                i + 1,
                crate::error::fmt_num(t)
            ));
        }
        // one problem under two spellings (`probs/X.dat`, `./probs/X.dat`) is one problem
        r.problem = normal_path(&r.problem);
        out.push((i + 1, r));
    }
    Ok(out)
}

/// `p` with `.` components dropped and `dir/..` pairs folded, lexically (the files need not
/// exist where the campaign is read).
fn normal_path(p: &str) -> String {
    use std::path::Component;
    let mut parts: Vec<Component> = Vec::new();
    for c in Path::new(p).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(parts.last(), Some(Component::Normal(_))) => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    let out: std::path::PathBuf = parts.iter().collect();
    if out.as_os_str().is_empty() {
        ".".into()
    } else {
        out.to_string_lossy().into_owned()
    }
}

/// A performance profile: for each solver, its sorted performance ratios on the problems
/// it solved, over a count of problems.
#[derive(Debug, Clone)]
pub struct Profile {
    /// The solvers, in the order given.
    pub solvers: Vec<String>,
    /// Number of problems `|P|` (solved by someone or not).
    pub problems: usize,
    /// Per solver, the ratios `r(p, s)` of the problems it solved, ascending.
    ratios: Vec<Vec<f64>>,
}

impl Profile {
    /// The profile of a table of solve times: `times[p][s]` is `Some(seconds)` when solver
    /// `s` solved problem `p` (converged), `None` otherwise. Every row has one entry per
    /// solver.
    ///
    /// # Errors
    /// A row of the wrong length, or a time that is not finite and positive.
    pub fn new(solvers: Vec<String>, times: &[Vec<Option<f64>>]) -> Result<Profile, String> {
        let mut ratios = vec![Vec::new(); solvers.len()];
        for (p, row) in times.iter().enumerate() {
            if row.len() != solvers.len() {
                return Err(format!(
                    "problem {p}: {} times for {} solvers",
                    row.len(),
                    solvers.len()
                ));
            }
            if let Some(t) = row
                .iter()
                .flatten()
                .find(|t| !(MIN_SECONDS..=MAX_SECONDS).contains(*t))
            {
                return Err(format!(
                    "problem {p}: time {} s is not a finite positive measured solve time \
                     (between {MIN_SECONDS:e} s and {MAX_SECONDS:e} s)",
                    crate::error::fmt_num(*t)
                ));
            }
            let best = row.iter().flatten().copied().fold(f64::INFINITY, f64::min);
            for (s, t) in row.iter().enumerate() {
                if let Some(t) = t {
                    ratios[s].push(t / best);
                }
            }
        }
        for r in &mut ratios {
            r.sort_by(f64::total_cmp);
        }
        Ok(Profile {
            solvers,
            problems: times.len(),
            ratios,
        })
    }

    /// The profile of campaign records: problems are the distinct `problem` paths, solvers
    /// the distinct `solver` names (sorted). A (problem, solver) pair without a record
    /// counts as not solved.
    ///
    /// # Errors
    /// No records; records at different tolerances (a profile compares like with like);
    /// a (problem, solver) pair recorded twice; a converged record without a time.
    pub fn from_records(records: &[Record]) -> Result<Profile, String> {
        let Some(first) = records.first() else {
            return Err("no campaign records".into());
        };
        if let Some(r) = records.iter().find(|r| r.tol != first.tol) {
            return Err(format!(
                "records at different tolerances ({} and {}): profile one tolerance at a time",
                crate::error::fmt_num(first.tol),
                crate::error::fmt_num(r.tol)
            ));
        }
        let solvers: Vec<String> = records
            .iter()
            .map(|r| r.solver.clone())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut table: BTreeMap<&str, Vec<Option<Option<f64>>>> = BTreeMap::new();
        for r in records {
            let row = table
                .entry(&r.problem)
                .or_insert_with(|| vec![None; solvers.len()]);
            let s = solvers.binary_search(&r.solver).expect("collected above");
            if row[s].is_some() {
                return Err(format!(
                    "duplicate record: problem {} solver {}",
                    crate::io::text::show(&r.problem),
                    crate::io::text::show(&r.solver)
                ));
            }
            if r.status == "converged" && r.seconds.is_none() {
                return Err(format!(
                    "problem {} solver {}: converged without a time",
                    crate::io::text::show(&r.problem),
                    crate::io::text::show(&r.solver)
                ));
            }
            row[s] = Some(r.solved_time());
        }
        let times: Vec<Vec<Option<f64>>> = table
            .into_values()
            .map(|row| row.into_iter().map(Option::flatten).collect())
            .collect();
        Profile::new(solvers, &times)
    }

    /// `rho_s(tau)`: the fraction of the problems solver `s` solved within a factor `tau`
    /// of the best time on each. 0 when there are no problems.
    pub fn rho(&self, s: usize, tau: f64) -> f64 {
        if self.problems == 0 {
            return 0.0;
        }
        let r = &self.ratios[s];
        // ratios at or below tau; a tiny relative slack keeps a tie at tau = 1 a tie when
        // t / best rounds a hair above 1
        let k = r.partition_point(|&x| x <= tau * (1.0 + 4.0 * f64::EPSILON));
        k as f64 / self.problems as f64
    }

    /// Problems solver `s` solved.
    pub fn solved(&self, s: usize) -> usize {
        self.ratios[s].len()
    }

    /// The largest finite ratio of any solver (1 when none).
    pub fn max_ratio(&self) -> f64 {
        self.ratios
            .iter()
            .filter_map(|r| r.last().copied())
            .fold(1.0, f64::max)
    }

    /// The profile of `s` as a step function: the points `(tau, rho)` at each ratio.
    pub fn steps(&self, s: usize) -> Vec<(f64, f64)> {
        let n = self.problems.max(1) as f64;
        self.ratios[s]
            .iter()
            .enumerate()
            .map(|(i, &r)| (r, (i + 1) as f64 / n))
            .collect()
    }
}

/// The values of `tau` of the profile table.
pub const TAUS: [f64; 5] = [1.0, 2.0, 4.0, 10.0, 100.0];

/// Draws the profile as an SVG: `rho_s(tau)` against `tau` on a logarithmic axis labelled
/// at whole decades, one step line per solver. `title` is the plot's caption.
///
/// # Errors
/// The file cannot be written.
pub fn plot_profile(profile: &Profile, path: &Path, title: &str) -> Result<(), String> {
    use plotters::prelude::*;
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    // log10(tau) from 0 to at least one decade past the largest ratio
    // (ratios are at most MAX_SECONDS / MIN_SECONDS, 21 decades: the axis is bounded)
    let hi = (profile.max_ratio() * 1.5).log10().ceil().clamp(1.0, 22.0);
    let decades = hi as usize;
    let every = decades.div_ceil(10).max(1);
    // drawn into memory, then written whole (never a half-drawn file at `path`)
    // 600 px wide with 18 px text (14.5 px as written): about 9.4 px when the figure is shown 390 px wide (a
    // phone); the legend in two columns below the chart, off the curves
    const WIDTH: u32 = 600;
    const CHART: u32 = 380;
    const ROW: u32 = 24;
    let rows = profile.solvers.len().div_ceil(2) as u32;
    let height = CHART + 16 + rows * ROW;
    let font = ("sans-serif", 18);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let (top, bottom) = root.split_vertically(CHART);
        let mut chart = ChartBuilder::on(&top)
            .caption(title, ("sans-serif", 21))
            .margin(14)
            .x_label_area_size(46)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..hi, 0.0..1.02)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("tau (time over the best time on the problem)")
            .x_labels(decades / every + 1)
            .x_label_formatter(&|v| format!("{}", 10f64.powf(v.round())))
            .y_desc("rho(tau): fraction of problems")
            .y_labels(6)
            .y_label_formatter(&|v| format!("{v:.1}"))
            .label_style(font)
            .axis_desc_style(font)
            .draw()
            .map_err(|e| err(&e))?;
        // ours solid, Siconos's dashed, each side in its own distinct colours (the Tableau 10
        // palette), so that no two curves share a colour and a style
        const COLOURS: [(u8, u8, u8); 10] = [
            (31, 119, 180),
            (255, 127, 14),
            (44, 160, 44),
            (214, 39, 40),
            (148, 103, 189),
            (140, 86, 75),
            (227, 119, 194),
            (127, 127, 127),
            (188, 189, 34),
            (23, 190, 207),
        ];
        let (mut ours, mut theirs) = (0usize, 0usize);
        for (s, name) in profile.solvers.iter().enumerate() {
            let siconos = name.starts_with("siconos-");
            let k = if siconos {
                theirs += 1;
                COLOURS.len() - theirs
            } else {
                ours += 1;
                ours - 1
            };
            let (r, g, b) = COLOURS[k % COLOURS.len()];
            let colour = RGBColor(r, g, b).to_rgba();
            let mut pts = vec![(0.0, 0.0)];
            let mut y = 0.0;
            for (tau, rho) in profile.steps(s) {
                let x = tau.max(1.0).log10();
                pts.push((x, y));
                pts.push((x, rho));
                y = rho;
            }
            pts.push((hi, y));
            let style = colour.stroke_width(2);
            let drawn = if siconos {
                chart.draw_series(DashedLineSeries::new(pts, 6, 4, style))
            } else {
                chart.draw_series(LineSeries::new(pts, style))
            };
            drawn.map_err(|e| err(&e))?;
            // the legend entry, in two columns below the chart
            let (col, row) = ((s % 2) as i32, (s / 2) as i32);
            let (x, y) = (70 + col * 270, 10 + row * ROW as i32 + ROW as i32 / 2);
            let line = vec![(x, y), (x + 30, y)];
            if siconos {
                bottom
                    .draw(&plotters::element::DashedPathElement::new(
                        line, 6, 4, style,
                    ))
                    .map_err(|e| err(&e))?;
            } else {
                bottom
                    .draw(&PathElement::new(line, style))
                    .map_err(|e| err(&e))?;
            }
            bottom
                .draw(&Text::new(
                    name.clone(),
                    (x + 38, y - 8),
                    font.into_font().color(&BLACK),
                ))
                .map_err(|e| err(&e))?;
        }
        root.present().map_err(|e| err(&e))?;
    }
    crate::io::write_atomic(path, svg.as_bytes()).map_err(|e| e.to_string())
}

/// The profile table as Markdown: one row per solver with the problems it solved and
/// `rho` at each of [`TAUS`].
pub fn profile_markdown(profile: &Profile) -> String {
    let mut s = String::from("| solver | solved |");
    for t in TAUS {
        s += &format!(" rho({t}) |");
    }
    s += "\n|---|---:|";
    for _ in TAUS {
        s += "---:|";
    }
    s += "\n";
    for (i, name) in profile.solvers.iter().enumerate() {
        s += &format!("| {name} | {} of {} |", profile.solved(i), profile.problems);
        for t in TAUS {
            s += &format!(" {:.2} |", profile.rho(i, t));
        }
        s += "\n";
    }
    s
}
