//! `nonsmooth check`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Failure;
use crate::merit::Residual;
use crate::merit::{ContactCheck, check_contacts, friction_error};
use crate::problem::AnyProblem;
use crate::problem::{FrictionContact, FrictionKind};
use clap::Args;
use nalgebra::DVector;
use serde_json::json;

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
    /// Show only the N contacts with the largest error.
    #[arg(long)]
    worst: Option<usize>,
    /// JSON output: one object for the whole answer, then one per contact.
    #[arg(long)]
    json: bool,
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

fn contact_table() -> Table {
    Table::new(&[
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
    ])
}

fn contact_cells(c: &ContactCheck) -> Vec<String> {
    vec![
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
    ]
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
    let r = DVector::from_vec(answer);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();

    let local: Option<FrictionContact> = match &lp.problem {
        AnyProblem::Friction(f) => Some(f.clone()),
        AnyProblem::Global(g) => Some(g.to_local().map_err(|e| e.to_string())?),
        _ => None,
    };
    let kind = local.as_ref().map(|f| a.kind.unwrap_or(f.kind()));
    let err: Residual = match (&local, kind) {
        (Some(f), Some(k)) => friction_error(&f.clone().with_kind(k), &r),
        _ => crate::solver::registry::measure(&lp.problem, &r).map_err(|e| e.to_string())?,
    };
    // The natural map and the normal condition on its own (a huge mu can hide `u_n < 0`
    // from the map; see `merit::Residual::meets`).
    let accepted = err.meets(a.tol, crate::merit::Measure::Relative);
    if let Some(note) = local
        .as_ref()
        .and_then(|f| crate::merit::mu_beyond_resolution(f.mu().max(), a.tol))
    {
        eprintln!("nonsmooth: note: {}: {note}", a.path.display());
    }
    let verdict = if accepted {
        "consistent"
    } else {
        "inconsistent"
    };

    let checks = match (&local, kind) {
        (Some(f), Some(k)) => check_contacts(f, &r, k),
        _ => Vec::new(),
    };
    let max = |f: fn(&ContactCheck) -> f64| checks.iter().map(f).fold(0.0, f64::max);
    let min = |f: fn(&ContactCheck) -> f64| checks.iter().map(f).fold(f64::INFINITY, f64::min);
    // The other law, for comparison, on friction problems.
    let other = match (&local, kind) {
        (Some(f), Some(k)) => {
            let o = if k == FrictionKind::Coulomb {
                FrictionKind::Ccp
            } else {
                FrictionKind::Coulomb
            };
            Some((o, friction_error(&f.clone().with_kind(o), &r)))
        }
        _ => None,
    };

    if a.json {
        let summary = json!({
            "file": a.path.display().to_string(), "type": lp.problem.type_name(),
            "kind": kind.map(|k| k.name()), "answer_source": source, "tol": a.tol,
            "verdict": verdict, "error": err.rel, "error_q": err.rel_q, "error_abs": err.abs,
            "error_normal": err.normal,
            "max_penetration": if checks.is_empty() { None } else { Some(max(|c| c.penetration)) },
            "max_cone_violation": if checks.is_empty() { None } else { Some(max(|c| c.cone_violation)) },
            "max_complementarity": if checks.is_empty() { None } else { Some(max(|c| c.complementarity)) },
            "min_dissipation": if checks.is_empty() { None } else { Some(min(|c| c.dissipation)) },
            "other_law": other.map(|(k, e)| json!({"kind": k.name(), "error": e.rel, "error_q": e.rel_q})),
        });
        emit(&mut out, &summary.to_string())?;
    } else {
        emit(&mut out, &format!("{}", a.path.display()))?;
        emit(&mut out, &format!("  answer      {source}"))?;
        let law = kind
            .map(|k| k.name().to_string())
            .unwrap_or_else(|| lp.problem.type_name().to_string());
        emit(&mut out, &format!("  law         {law}"))?;
        emit(
            &mut out,
            &format!(
                "  error       {} (‖q‖-scaled {}, absolute {})",
                sci(Some(err.rel)),
                sci(Some(err.rel_q)),
                sci(Some(err.abs))
            ),
        )?;
        if local.is_some() {
            emit(
                &mut out,
                &format!(
                    "  normal      {} (penetration and pulling, on their own)",
                    sci(Some(err.normal))
                ),
            )?;
        }
        if let Some((k, e)) = other {
            emit(
                &mut out,
                &format!("  as {:<8} {} (for comparison)", k.name(), sci(Some(e.rel))),
            )?;
        }
        if !checks.is_empty() {
            emit(
                &mut out,
                &format!(
                    "  max penetration velocity {}",
                    sci(Some(max(|c| c.penetration)))
                ),
            )?;
            emit(
                &mut out,
                &format!(
                    "  max cone violation       {}",
                    sci(Some(max(|c| c.cone_violation)))
                ),
            )?;
            emit(
                &mut out,
                &format!(
                    "  max complementarity      {}",
                    sci(Some(max(|c| c.complementarity)))
                ),
            )?;
            emit(
                &mut out,
                &format!(
                    "  min dissipation          {}",
                    sci(Some(min(|c| c.dissipation)))
                ),
            )?;
        }
        emit(
            &mut out,
            &format!("  verdict     {verdict} (tolerance {})", sci(Some(a.tol))),
        )?;
    }
    if !checks.is_empty() {
        let mut shown: Vec<&ContactCheck> = checks.iter().collect();
        if let Some(n) = a.worst {
            shown.sort_by(|x, y| y.error.total_cmp(&x.error));
            shown.truncate(n);
        }
        let t = contact_table();
        if !a.json {
            emit(&mut out, "")?;
            emit(&mut out, &t.header())?;
        }
        for c in shown {
            let line = if a.json {
                serde_json::to_string(c).map_err(|e| e.to_string())?
            } else {
                t.row(&contact_cells(c))
            };
            emit(&mut out, &line)?;
        }
    }
    Ok(if accepted {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
