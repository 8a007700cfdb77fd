//! `nonsmooth check`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Failure;
use crate::check::{CheckOptions, CheckReport, JudgeBy, check, compare_with_elliptic};
use crate::merit::ContactCheck;
use crate::problem::FrictionKind;
use clap::{Args, ValueEnum};

use super::args;
use super::table::{Align, Table, emit, sci, wrap};

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The problem the engine solved; or a trajectory: a folder of problem files, each
    /// with its answer embedded, taken as steps in natural name order (step_2 before
    /// step_10), a JSON Lines file (`.jsonl`), one problem document with its "answer"
    /// per line, or a rollout archive (`.npz` with members step_NNNNN/NAME.npy, as
    /// `convert --rollout` and Python's nonsmooth.write_rollout write it).
    path: PathBuf,
    /// The engine's answer: a NumPy .npy file holding a 1-D float64 array (numpy.save of
    /// r), a JSON array of numbers, a JSON object with "r", a problem file with an
    /// "answer", or whitespace-separated numbers; as many numbers as the problem has
    /// unknowns. Default: the answer embedded in the problem file (MuJoCo files and NumPy
    /// folders with r.npy carry one).
    #[arg(long)]
    answer: Option<PathBuf>,
    /// Judge against this law instead of the problem's own: coulomb or ccp (friction
    /// problems only; an error for an LCP or a boxed LCP).
    #[arg(long, value_parser = args::kind)]
    kind: Option<FrictionKind>,
    /// Accept the answer when its error (Siconos 4.4 normalisation) is at most this; a
    /// finite number >= 0.
    #[arg(long, default_value = "1e-8", allow_hyphen_values = true, value_parser = args::tolerance)]
    tol: f64,
    /// Show only the N contacts with the largest error (or distance, with --sort
    /// distance).
    #[arg(long)]
    worst: Option<usize>,
    /// Order of the contact table: by contact index, by error or by distance to the
    /// reference (largest first). Default: by index, or by error with --worst.
    #[arg(long, value_enum)]
    sort: Option<SortKey>,
    /// Do not solve for the reference solution (no distance is reported; not with --by
    /// distance or both).
    #[arg(long)]
    no_reference: bool,
    /// What the verdict judges by: the residual of the contact law (error, normal
    /// condition and scaled error within --tol), the distance to the reference solution
    /// (‖r - r*‖/‖r*‖ within --tol, and no contact off by more than --tol of the largest
    /// contact force), or both. Both numbers are always printed. Without a reference
    /// solution a verdict by distance is "undecided" (exit status 1).
    #[arg(long, value_enum, default_value = "residual")]
    by: By,
    /// JSON output: one object for the whole answer, then one per contact; for a
    /// trajectory, one object per step (JSON Lines).
    #[arg(long)]
    json: bool,
    /// Trajectories: draw the error and the distance to the reference against the step
    /// into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

/// `--by`: what the verdict judges by (the library's [`JudgeBy`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum By {
    /// The residual of the contact law.
    Residual,
    /// The relative distance to the reference solution.
    Distance,
    /// Both.
    Both,
}

impl From<By> for JudgeBy {
    fn from(b: By) -> JudgeBy {
        match b {
            By::Residual => JudgeBy::Residual,
            By::Distance => JudgeBy::Distance,
            By::Both => JudgeBy::Both,
        }
    }
}

/// How the contact table is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortKey {
    /// By contact index.
    Contact,
    /// By natural-map error, largest first.
    Error,
    /// By distance to the reference, largest first.
    Distance,
}

/// Reads an answer file ([`crate::io::answer::read`]).
///
/// # Errors
/// [`Failure::Usage`] if the file does not exist; [`Failure::Input`] for anything else
/// wrong with it.
pub(super) fn read_answer(path: &Path, dim: usize) -> Result<Vec<f64>, Failure> {
    crate::io::answer::read(path, dim).map_err(|e| match &e.kind {
        crate::io::IoErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
            Failure::Usage(e.to_string())
        }
        _ => Failure::Input(e.to_string()),
    })
}

/// The table of contacts (of blocks, with their law and rows, for a generic problem; with
/// the tangential force for pyramid contacts).
fn contact_table(labels: bool, blocks: bool, tangent: bool) -> Table {
    let mut cols = vec![("contact", 7, Align::Right)];
    if blocks {
        cols.push(("law", 10, Align::Left));
        cols.push(("dim", 3, Align::Right));
    }
    cols.push(("r_n", 10, Align::Right));
    if tangent {
        cols.push(("r_t1", 10, Align::Right));
        cols.push(("r_t2", 10, Align::Right));
    }
    cols.extend([
        ("u_n", 10, Align::Right),
        ("slip", 9, Align::Right),
        ("penetration", 11, Align::Right),
        ("cone_viol", 9, Align::Right),
        ("dual_viol", 9, Align::Right),
        ("compl", 9, Align::Right),
        ("dissipation", 11, Align::Right),
        ("error", 9, Align::Right),
        ("distance", 9, Align::Right),
    ]);
    if labels {
        cols.push(("label", 5, Align::Left));
    }
    let gaps = vec![1; cols.len()];
    Table::new(&cols).gaps(&gaps)
}

fn contact_cells(c: &ContactCheck, labels: bool, blocks: bool, tangent: bool) -> Vec<String> {
    let mut cells = vec![c.contact.to_string()];
    if blocks {
        cells.push(c.law.clone().unwrap_or_default());
        cells.push(c.dim.map(|d| d.to_string()).unwrap_or_default());
    }
    cells.push(sci(Some(c.r_n)));
    if tangent {
        cells.push(sci(c.r_t1));
        cells.push(sci(c.r_t2));
    }
    cells.extend([
        sci(Some(c.u_n)),
        sci(Some(c.slip)),
        sci(Some(c.penetration)),
        sci(Some(c.cone_violation)),
        sci(Some(c.dual_violation)),
        sci(Some(c.complementarity)),
        sci(Some(c.dissipation)),
        sci(Some(c.error)),
        sci(c.distance),
    ]);
    if labels {
        cells.push(c.label.clone().unwrap_or_default());
    }
    cells
}

/// The options of the library's [`check`] from the command line's.
fn options(a: &CheckArgs) -> CheckOptions {
    CheckOptions {
        kind: a.kind,
        tol: a.tol,
        reference: !a.no_reference,
        by: a.by.into(),
        ..Default::default()
    }
}

/// The summary object of `--json`: the report without its contacts, with the file and
/// where the answer came from.
fn summary_json(
    report: &CheckReport,
    file: &str,
    source: &str,
) -> Result<serde_json::Map<String, serde_json::Value>, Failure> {
    let mut v = serde_json::to_value(report).map_err(|e| e.to_string())?;
    let serde_json::Value::Object(m) = &mut v else {
        return Err(Failure::Input("the report is not a JSON object".into()));
    };
    m.remove("contacts");
    m.insert("file".into(), file.into());
    m.insert("answer_source".into(), source.into());
    Ok(std::mem::take(m))
}

/// The text lines of a report (without the contact table).
fn report_lines(report: &CheckReport, file: &str, source: &str) -> Vec<String> {
    let mut out = Vec::new();
    out.push(file.to_string());
    out.push(format!("  answer      {source}"));
    let law = report
        .kind
        .clone()
        .unwrap_or_else(|| report.problem_type.clone());
    let law = match report.pyramid_contacts {
        Some(n) => format!(
            "{law}: pyramid edges of {n} contacts, judged as contact-frame forces [n, t1, t2]"
        ),
        None => law,
    };
    out.push(format!("  law         {law}"));
    let friction = report.kind.is_some() || report.pyramid_contacts.is_some();
    if friction {
        let level = match &report.force_unit {
            Some(u) => format!("{} (r in {u})", report.level.name()),
            None => "unknown (the file gives no units)".to_string(),
        };
        out.push(format!("  level       {level}"));
    }
    out.push(format!(
        "  error       {} (‖q‖-scaled {}, absolute {})",
        sci(Some(report.error)),
        sci(Some(report.error_q)),
        sci(Some(report.error_abs))
    ));
    if friction {
        out.push(format!(
            "  normal      {} (penetration and pulling, on their own)",
            sci(Some(report.error_normal))
        ));
        out.push(format!(
            "  scaled      {} (against the problem's own scale; a large answer cannot shrink it)",
            sci(Some(report.error_scaled))
        ));
    }
    if let Some(o) = &report.other_law {
        out.push(format!(
            "  as {:<8} {} (for comparison)",
            o.kind,
            sci(Some(o.error))
        ));
    }
    if !report.contacts.is_empty() {
        let rows = [
            (
                format!("max {}", report.penetration_name),
                report.max_penetration,
            ),
            ("max cone violation".to_string(), report.max_cone_violation),
            (
                "max complementarity".to_string(),
                report.max_complementarity,
            ),
            ("min dissipation".to_string(), report.min_dissipation),
        ];
        for (name, v) in rows {
            out.push(format!("  {name:<24} {}", sci(v)));
        }
    }
    if let Some(rf) = &report.reference {
        let unit = report
            .force_unit
            .as_ref()
            .filter(|_| friction)
            .map(|u| format!(" {u}"))
            .unwrap_or_default();
        let how = match rf.error {
            Some(e) => format!(
                "{} from {}: {}, error {}",
                rf.method,
                rf.found_from,
                rf.status,
                sci(Some(e))
            ),
            None => format!("{}: {}", rf.method, rf.status),
        };
        out.push(format!("  reference   {how}"));
        if !rf.found {
            out.push(format!(
                "  reference   none found to {} ({})",
                sci(Some(CheckOptions::default().reference_accept)),
                rf.attempts.join("; ")
            ));
        }
        out.extend(wrap("  uniqueness  ", &rf.uniqueness, WIDTH, INDENT));
        if let Some(d) = rf.distance {
            let mut line = format!("{}{unit}", sci(Some(d)));
            if let Some(rel) = rf.relative_distance {
                line += &format!(" (relative {})", sci(Some(rel)));
            }
            if let (Some(c), Some(wd)) = (rf.worst_contact, rf.worst_distance) {
                line += &format!("; worst contact {c}");
                if let Some(l) = &rf.worst_label {
                    line += &format!(" ({l})");
                }
                line += &format!(", {}{unit}", sci(Some(wd)));
                if let Some(w) = rf.worst_relative_distance {
                    line += &format!(" ({} of the largest contact force)", sci(Some(w)));
                }
            }
            out.extend(wrap("  distance    ", &line, WIDTH, INDENT));
        }
    }
    if let Some(e) = &report.elliptic {
        let mut line = format!(
            "{}: error {} ({})",
            e.problem,
            sci(Some(e.error)),
            e.verdict
        );
        if let Some(d) = e.distance {
            line += &format!("; forces {} N", sci(Some(d)));
            if let Some(rel) = e.relative_distance {
                line += &format!(" (relative {})", sci(Some(rel)));
            }
            line += &format!(" from its reference ({})", e.reference_method);
            if let (Some(c), Some(wd)) = (e.worst_contact, e.worst_distance) {
                line += &format!("; worst contact {c}");
                if let Some(l) = &e.worst_label {
                    line += &format!(" ({l})");
                }
                line += &format!(", {} N", sci(Some(wd)));
            }
        } else {
            line += "; no reference solution found there";
        }
        if let Some(b) = e.between_references {
            line += &format!(
                "; the pyramidal and the elliptic solutions differ by {} N",
                sci(Some(b))
            );
        }
        out.extend(wrap("  elliptic    ", &line, WIDTH, INDENT));
    }
    out.push(format!(
        "  verdict     {} (by {}, tolerance {})",
        report.verdict,
        report.by.name(),
        sci(Some(report.tol))
    ));
    out.extend(wrap("  grade       ", &report.grade, WIDTH, INDENT));
    out
}

/// The width the long lines of the summary (uniqueness, grade) are wrapped at, and the
/// indent of their continuation lines (under their value).
const WIDTH: usize = 100;
const INDENT: &str = "              ";

/// The contacts to show, in the order asked.
fn shown<'a>(report: &'a CheckReport, a: &CheckArgs) -> Vec<&'a ContactCheck> {
    let mut shown: Vec<&ContactCheck> = report.contacts.iter().collect();
    let key = a.sort.unwrap_or(if a.worst.is_some() {
        SortKey::Error
    } else {
        SortKey::Contact
    });
    match key {
        SortKey::Contact => {}
        SortKey::Error => shown.sort_by(|x, y| y.error.total_cmp(&x.error)),
        SortKey::Distance => shown.sort_by(|x, y| {
            y.distance
                .unwrap_or(f64::NEG_INFINITY)
                .total_cmp(&x.distance.unwrap_or(f64::NEG_INFINITY))
        }),
    }
    if let Some(n) = a.worst {
        shown.truncate(n);
    }
    shown
}

pub fn run(a: CheckArgs) -> Result<ExitCode, Failure> {
    if a.no_reference && a.by != By::Residual {
        return Err(Failure::Usage(format!(
            "--by {} judges by the distance to the reference solution, which --no-reference \
             turns off",
            JudgeBy::from(a.by).name()
        )));
    }
    let is_jsonl = a
        .path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl"));
    let many =
        !is_jsonl && a.path.is_dir() && super::expand(std::slice::from_ref(&a.path))?.len() > 1;
    if is_jsonl || many || is_rollout(&a.path) {
        return trajectory::run(&a, is_jsonl);
    }
    if a.plot.is_some() {
        return Err(Failure::Usage(format!(
            "{}: --plot draws a trajectory (a folder of problems or a .jsonl file); this is \
             one problem",
            a.path.display()
        )));
    }
    let lp = super::load_one(&a.path)?;
    super::kind_applies(&a.path, &lp.problem, a.kind).map_err(Failure::Input)?;
    let dim = lp.problem.dim();
    let (answer, source) = match &a.answer {
        Some(p) => (read_answer(p, dim)?, p.display().to_string()),
        None => match &lp.answer {
            Some(ans) => (ans.r.clone(), ans.source.clone()),
            None => {
                return Err(Failure::Usage(format!(
                    "{}: the file carries no answer; give one with --answer FILE",
                    a.path.display()
                )));
            }
        },
    };
    let mut report = check(&lp.problem, &answer, &lp.provenance, &options(&a))
        .map_err(|e| Failure::Input(format!("{}: {e}", a.path.display())))?;
    if let (Some(view), true) = (&lp.elliptic, report.pyramid_contacts.is_some()) {
        if !a.no_reference {
            compare_with_elliptic(&mut report, &answer, &lp.provenance, view, &options(&a))
                .map_err(|e| Failure::Input(format!("{}: {e}", a.path.display())))?;
        }
    }
    if let Some(note) = &report.note {
        say!("note: {}: {note}", a.path.display());
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let file = a.path.display().to_string();
    if a.json {
        let summary = summary_json(&report, &file, &source)?;
        emit(&mut out, &serde_json::Value::Object(summary).to_string())?;
    } else {
        for line in report_lines(&report, &file, &source) {
            emit(&mut out, &line)?;
        }
    }
    if !report.contacts.is_empty() {
        let labels = report.contacts.iter().any(|c| c.label.is_some());
        let blocks = report.contacts.iter().any(|c| c.law.is_some());
        let tangent = report.contacts.iter().any(|c| c.r_t1.is_some());
        let t = contact_table(labels, blocks, tangent);
        if !a.json {
            emit(&mut out, "")?;
            emit(&mut out, &t.header())?;
        }
        for c in shown(&report, &a) {
            let line = if a.json {
                serde_json::to_string(c).map_err(|e| e.to_string())?
            } else {
                t.row(&contact_cells(c, labels, blocks, tangent))
            };
            emit(&mut out, &line)?;
        }
    }
    Ok(if report.verdict == "consistent" {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Whether `path` is a rollout archive (an `.npz` file whose members are steps,
/// [`crate::io::numpy::rollout`]).
fn is_rollout(path: &Path) -> bool {
    path.is_file()
        && path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("npz"))
        && crate::io::numpy::rollout::is_rollout(path)
}

/// `nonsmooth check` on a sequence of problems.
mod trajectory {
    use std::path::{Path, PathBuf};
    use std::process::ExitCode;

    use super::super::Failure;
    use super::super::table::{Align, Table, emit, sci};
    use super::{CheckArgs, options, summary_json};
    use crate::check::{CheckReport, check};

    /// One step: where it came from and its report, or why it could not be judged.
    struct Step {
        name: String,
        /// Who produced the answer (the file's `answer.source`).
        source: String,
        contacts: usize,
        result: Result<CheckReport, String>,
    }

    fn judge(a: &CheckArgs, lp: Result<crate::io::LoadedProblem, String>, name: String) -> Step {
        let lp = match lp {
            Ok(lp) => lp,
            Err(e) => {
                return Step {
                    name,
                    source: String::new(),
                    contacts: 0,
                    result: Err(e),
                };
            }
        };
        for w in &lp.warnings {
            say!("warning: {name}: {w}");
        }
        let contacts = lp.provenance.contacts_of(&lp.problem);
        let result = match &lp.answer {
            None => Err(format!("{name}: the problem carries no answer")),
            Some(ans) => check(&lp.problem, &ans.r, &lp.provenance, &options(a))
                .map_err(|e| format!("{name}: {e}")),
        };
        Step {
            name,
            source: lp
                .answer
                .as_ref()
                .map(|a| a.source.clone())
                .unwrap_or_default(),
            contacts,
            result,
        }
    }

    /// Reads the steps: the files of a folder in natural order, or the lines of a JSON
    /// Lines file (blank lines skipped).
    fn steps(a: &CheckArgs, jsonl: bool) -> Result<Vec<Step>, Failure> {
        if jsonl {
            Ok(super::super::jsonl_steps(&a.path)?
                .into_iter()
                .map(|(name, lp)| judge(a, lp, name))
                .collect())
        } else if super::is_rollout(&a.path) {
            let all = crate::io::numpy::rollout::load(&a.path)
                .map_err(|e| Failure::Input(e.to_string()))?;
            Ok(all
                .into_iter()
                .map(|lp| {
                    let name = lp.name.clone();
                    judge(a, Ok(lp), name)
                })
                .collect())
        } else {
            let mut files: Vec<PathBuf> = super::super::expand(std::slice::from_ref(&a.path))?;
            files.sort_by(|x, y| super::super::natural(&x.to_string_lossy(), &y.to_string_lossy()));
            Ok(files
                .iter()
                .map(|f| {
                    let name = super::super::short_name(f);
                    judge(a, super::super::load(f).map_err(|e| e.to_string()), name)
                })
                .collect())
        }
    }

    fn worst_cell(r: &CheckReport) -> String {
        let Some(rf) = &r.reference else {
            return "-".into();
        };
        match rf.worst_contact {
            Some(c) => match &rf.worst_label {
                Some(l) => format!("{c} ({l})"),
                None => c.to_string(),
            },
            None => "-".into(),
        }
    }

    fn distance(r: &CheckReport) -> Option<f64> {
        r.reference.as_ref().and_then(|rf| rf.distance)
    }

    pub(super) fn run(a: &CheckArgs, jsonl: bool) -> Result<ExitCode, Failure> {
        if a.answer.is_some() {
            return Err(Failure::Usage(format!(
                "{}: a trajectory takes each step's answer from its file; --answer is for \
                 one problem",
                a.path.display()
            )));
        }
        let mut inputs = vec![a.path.clone()];
        if !jsonl && !super::is_rollout(&a.path) {
            inputs.extend(super::super::expand(std::slice::from_ref(&a.path))?);
        }
        super::super::output::plan(
            &inputs,
            &[super::super::output::Output::file(
                a.plot.as_deref(),
                "plot (--plot)",
            )],
        )?;
        let steps = steps(a, jsonl)?;
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let t = Table::new(&[
            ("step", 4, Align::Right),
            ("name", 12, Align::Left),
            ("contacts", 8, Align::Right),
            ("error", 9, Align::Right),
            ("distance", 9, Align::Right),
            ("worst contact", 13, Align::Left),
            ("verdict", 12, Align::Left),
        ]);
        if !a.json {
            emit(&mut out, &t.header())?;
        }
        let mut bad = 0;
        for (i, s) in steps.iter().enumerate() {
            match &s.result {
                Ok(r) => {
                    if r.verdict != "consistent" {
                        bad += 1;
                    }
                    if a.json {
                        let mut m = summary_json(r, &s.name, &s.source)?;
                        m.insert("step".into(), i.into());
                        m.insert("contacts".into(), s.contacts.into());
                        emit(&mut out, &serde_json::Value::Object(m).to_string())?;
                    } else {
                        emit(
                            &mut out,
                            &t.row(&[
                                i.to_string(),
                                s.name.clone(),
                                s.contacts.to_string(),
                                sci(Some(r.error)),
                                sci(distance(r)),
                                worst_cell(r),
                                r.verdict.clone(),
                            ]),
                        )?;
                    }
                }
                Err(e) => {
                    bad += 1;
                    say!("{e}");
                    if a.json {
                        let v = serde_json::json!({"step": i, "file": s.name,
                            "verdict": "invalid", "message": e});
                        emit(&mut out, &v.to_string())?;
                    } else {
                        emit(
                            &mut out,
                            &t.row(&[
                                i.to_string(),
                                s.name.clone(),
                                "-".into(),
                                "-".into(),
                                "-".into(),
                                "-".into(),
                                "invalid".into(),
                            ]),
                        )?;
                    }
                }
            }
        }
        if !a.json {
            emit(&mut out, "")?;
            emit(
                &mut out,
                &format!(
                    "{} steps, {} consistent, {bad} inconsistent or invalid",
                    steps.len(),
                    steps.len() - bad
                ),
            )?;
            let ok: Vec<(usize, &CheckReport)> = steps
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.result.as_ref().ok().map(|r| (i, r)))
                .collect();
            let mut by_error = ok.clone();
            by_error.sort_by(|x, y| y.1.error.total_cmp(&x.1.error));
            let name = |i: usize| steps[i].name.clone();
            let list = |v: &[(usize, &CheckReport)], f: &dyn Fn(&CheckReport) -> Option<f64>| {
                v.iter()
                    .take(3)
                    .filter_map(|(i, r)| {
                        f(r).map(|x| format!("step {i} ({}) {}", name(*i), sci(Some(x))))
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            emit(
                &mut out,
                &format!(
                    "worst steps by error:    {}",
                    list(&by_error, &|r| Some(r.error))
                ),
            )?;
            let mut by_distance = ok.clone();
            by_distance.retain(|(_, r)| distance(r).is_some());
            by_distance.sort_by(|x, y| {
                distance(y.1)
                    .unwrap_or(0.0)
                    .total_cmp(&distance(x.1).unwrap_or(0.0))
            });
            if !by_distance.is_empty() {
                emit(
                    &mut out,
                    &format!("worst steps by distance: {}", list(&by_distance, &distance)),
                )?;
            }
        }
        if let Some(plot) = &a.plot {
            draw(plot, &steps).map_err(Failure::Input)?;
            say!("wrote {}", plot.display());
        }
        Ok(if bad == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    }

    /// The SVG plot: error and distance (log scale) against the step. Zeros (an exact
    /// answer) are drawn at the bottom of the axis. The axis is linear in `log10` of the
    /// values, labelled at whole decades: plotters' own logarithmic axis drew no labels
    /// at all for a range like `1e-19 .. 1e-15` (every step exact to rounding).
    fn draw(path: &Path, steps: &[Step]) -> Result<(), String> {
        use plotters::prelude::*;
        let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        let series = |f: &dyn Fn(&CheckReport) -> Option<f64>| -> Vec<(f64, f64)> {
            steps
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.result.as_ref().ok().and_then(f).map(|v| (i as f64, v)))
                .filter(|(_, v)| v.is_finite())
                .collect()
        };
        let errors = series(&|r| Some(r.error));
        let distances = series(&|r| r.reference.as_ref().and_then(|rf| rf.relative_distance));
        let positive = errors
            .iter()
            .chain(&distances)
            .map(|p| p.1)
            .filter(|v| *v > 0.0);
        let lo = positive.clone().fold(f64::INFINITY, f64::min);
        let hi = positive.fold(0.0, f64::max);
        let (lo, hi) = if lo.is_finite() && hi > 0.0 {
            (lo / 10.0, hi * 10.0)
        } else {
            (1e-16, 1.0)
        };
        // at least three decades, so that the logarithmic axis has labels
        let (lo, hi) = (lo.min(hi / 1e3).log10().floor(), hi.log10().ceil());
        let clamp = |v: &[(f64, f64)]| -> Vec<(f64, f64)> {
            v.iter().map(|&(x, y)| (x, y.log10().max(lo))).collect()
        };
        let decades = (hi - lo) as usize;
        // one label per decade, or per 2, 3, ... decades so that there are at most 12
        let every = decades.div_ceil(12).max(1);
        let n = steps.len().max(2) as f64;
        // drawn into memory, then written whole (never a half-drawn file at `path`)
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (800, 450)).into_drawing_area();
            root.fill(&WHITE).map_err(|e| err(&e))?;
            let mut chart = ChartBuilder::on(&root)
                .caption(
                    "nonsmooth check: error and distance per step",
                    ("sans-serif", 18),
                )
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d(0.0..(n - 1.0), lo..hi)
                .map_err(|e| err(&e))?;
            chart
                .configure_mesh()
                .x_desc("step")
                .x_labels(steps.len().clamp(2, 11))
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_desc("error / relative distance")
                .y_labels(decades / every + 1)
                .y_label_formatter(&|v| format!("1e{}", v.round()))
                .draw()
                .map_err(|e| err(&e))?;
            let blue = RGBColor(31, 119, 180);
            let orange = RGBColor(255, 127, 14);
            for (points, colour, label) in [
                (&errors, blue, "error (Siconos 4.4)"),
                (&distances, orange, "‖r - r*‖ / ‖r*‖"),
            ] {
                if points.is_empty() {
                    continue;
                }
                let points = clamp(points);
                chart
                    .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
                    .map_err(|e| err(&e))?
                    .label(label)
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
                chart
                    .draw_series(
                        points
                            .into_iter()
                            .map(|p| Circle::new(p, 3, colour.filled())),
                    )
                    .map_err(|e| err(&e))?;
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(|e| err(&e))?;
            root.present().map_err(|e| err(&e))?;
        }
        crate::io::write_atomic(path, svg.as_bytes()).map_err(|e| e.to_string())
    }
}
