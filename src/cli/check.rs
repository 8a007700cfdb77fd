//! `nonsmooth check`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Failure;
use crate::check::{CheckOptions, CheckReport, ContactRecord, check};
use crate::problem::FrictionKind;
use clap::{Args, ValueEnum};

use super::args;
use super::table::{Align, Table, emit, sci};

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The problem the engine solved.
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
    /// Do not solve for the reference solution (no distance is reported).
    #[arg(long)]
    no_reference: bool,
    /// JSON output: one object for the whole answer, then one per contact.
    #[arg(long)]
    json: bool,
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

/// Reads an answer file: a NumPy `.npy` 1-D `float64` array (by its extension or its first
/// bytes), a JSON array, a JSON object with `"r"`, a problem file with an `"answer"`, or
/// whitespace-separated numbers.
///
/// # Errors
/// [`Failure::Usage`] if the file does not exist; [`Failure::Input`] if it is not a
/// regular file, holds something else than numbers, the wrong count, or a non-finite one.
pub(super) fn read_answer(path: &Path, dim: usize) -> Result<Vec<f64>, Failure> {
    let bytes = crate::io::read_file(path).map_err(|e| match &e.kind {
        crate::io::IoErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
            Failure::Usage(e.to_string())
        }
        _ => Failure::Input(e.to_string()),
    })?;
    let bad = |m: String| Failure::Input(format!("{}: {m}", path.display()));
    let is_npy = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("npy"))
        || bytes.starts_with(b"\x93NUMPY");
    if is_npy {
        // a 1-D float64 array; the reader names a wrong dtype, rank or data length
        let v = crate::io::npy::parse_vector(path, &bytes)?;
        return finish(path, v.as_slice().to_vec(), dim);
    }
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        bad(format!(
            "the answer is not text (byte {} is not UTF-8)",
            e.valid_up_to()
        ))
    })?;
    let trimmed = text.trim_start();
    let values: Vec<f64> = if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| bad(format!("line {} column {}: {e}", e.line(), e.column())))?;
        let arr = if v.is_array() {
            &v
        } else if let Some(r) = v.get("r") {
            r
        } else if let Some(r) = v.get("answer").and_then(|a| a.get("r")) {
            r
        } else {
            return Err(bad(
                "a JSON answer is an array of numbers, an object with \"r\", or a problem \
                 file with an \"answer\""
                    .into(),
            ));
        };
        let Some(items) = arr.as_array() else {
            return Err(bad("\"r\" is not an array of numbers".into()));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, x)| {
                x.as_f64()
                    .ok_or_else(|| bad(format!("entry {i} of the answer is `{x}`, not a number")))
            })
            .collect::<Result<_, _>>()?
    } else {
        let mut v = Vec::new();
        for (i, t) in text.split_ascii_whitespace().enumerate() {
            let x = crate::io::parse_number(t)
                .map_err(|why| bad(format!("entry {i} of the answer: {why}")))?;
            v.push(x);
        }
        v
    };
    finish(path, values, dim)
}

/// Checks the count and the finiteness of an answer's numbers.
fn finish(path: &Path, values: Vec<f64>, dim: usize) -> Result<Vec<f64>, Failure> {
    let bad = |m: String| Failure::Input(format!("{}: {m}", path.display()));
    if values.len() != dim {
        return Err(bad(format!(
            "the answer has {} numbers, the problem {dim} unknowns",
            values.len()
        )));
    }
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(bad(format!(
            "entry {i} of the answer is {}, not a finite number",
            values[i]
        )));
    }
    Ok(values)
}

fn contact_table(labels: bool) -> Table {
    let mut cols = vec![
        ("contact", 7, Align::Right),
        ("r_n", 10, Align::Right),
        ("u_n", 10, Align::Right),
        ("slip", 9, Align::Right),
        ("penetration", 11, Align::Right),
        ("cone_viol", 9, Align::Right),
        ("dual_viol", 9, Align::Right),
        ("compl", 9, Align::Right),
        ("dissipation", 11, Align::Right),
        ("error", 9, Align::Right),
        ("distance", 9, Align::Right),
    ];
    if labels {
        cols.push(("label", 5, Align::Left));
    }
    Table::new(&cols)
}

fn contact_cells(c: &ContactRecord, labels: bool) -> Vec<String> {
    let mut cells = vec![
        c.contact.to_string(),
        sci(Some(c.r_n)),
        sci(Some(c.u_n)),
        sci(Some(c.slip)),
        sci(Some(c.penetration)),
        sci(Some(c.cone_violation)),
        sci(Some(c.dual_violation)),
        sci(Some(c.complementarity)),
        sci(Some(c.dissipation)),
        sci(Some(c.error)),
        sci(c.distance),
    ];
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
    out.push(format!("  law         {law}"));
    let friction = report.kind.is_some();
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
        out.push(format!("  uniqueness  {}", rf.uniqueness));
        if let Some(d) = rf.distance {
            let mut line = format!("  distance    {}{unit}", sci(Some(d)));
            if let Some(rel) = rf.relative_distance {
                line += &format!(" (relative {})", sci(Some(rel)));
            }
            if let (Some(c), Some(wd)) = (rf.worst_contact, rf.worst_distance) {
                line += &format!("; worst contact {c}");
                if let Some(l) = &rf.worst_label {
                    line += &format!(" ({l})");
                }
                line += &format!(", {}{unit}", sci(Some(wd)));
            }
            out.push(line);
        }
    }
    out.push(format!(
        "  verdict     {} (tolerance {})",
        report.verdict,
        sci(Some(report.tol))
    ));
    out.push(format!("  grade       {}", report.grade));
    out
}

/// The contacts to show, in the order asked.
fn shown<'a>(report: &'a CheckReport, a: &CheckArgs) -> Vec<&'a ContactRecord> {
    let mut shown: Vec<&ContactRecord> = report.contacts.iter().collect();
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
    let report = check(&lp.problem, &answer, &lp.provenance, &options(&a))
        .map_err(|e| Failure::Input(format!("{}: {e}", a.path.display())))?;
    if let Some(note) = &report.note {
        eprintln!("nonsmooth: note: {}: {note}", a.path.display());
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
        let t = contact_table(labels);
        if !a.json {
            emit(&mut out, "")?;
            emit(&mut out, &t.header())?;
        }
        for c in shown(&report, &a) {
            let line = if a.json {
                serde_json::to_string(c).map_err(|e| e.to_string())?
            } else {
                t.row(&contact_cells(c, labels))
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
