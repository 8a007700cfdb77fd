//! `nonsmooth check`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::merit::{ContactCheck, check_contacts, friction_error};
use nonsmooth::method::measure;
use nonsmooth::problem::{FrictionContact, FrictionKind};
use serde_json::json;

use super::parse_kind;
use super::table::{Align, Table, emit, sci};

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The problem the engine solved.
    path: PathBuf,
    /// The engine's answer: a JSON array of numbers, a JSON object with "r", a problem
    /// file with an "answer", or whitespace-separated numbers. Default: the answer
    /// embedded in the problem file (MuJoCo files carry one).
    #[arg(long)]
    answer: Option<PathBuf>,
    /// Judge against this law instead of the problem's own: coulomb or ccp.
    #[arg(long, value_parser = parse_kind)]
    kind: Option<FrictionKind>,
    /// Accept the answer when its error (Siconos 4.4 normalisation) is at most this.
    #[arg(long, default_value_t = 1e-8)]
    tol: f64,
    /// Show only the N contacts with the largest error.
    #[arg(long)]
    worst: Option<usize>,
    /// JSON output: one object for the whole answer, then one per contact.
    #[arg(long)]
    json: bool,
}

fn read_answer(path: &Path, dim: usize) -> Result<Vec<f64>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let from_json = || -> Option<Vec<f64>> {
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        let arr = if v.is_array() {
            v
        } else if let Some(r) = v.get("r") {
            r.clone()
        } else {
            v.get("answer")?.get("r")?.clone()
        };
        arr.as_array()?.iter().map(|x| x.as_f64()).collect()
    };
    let values = match from_json() {
        Some(v) => v,
        None => text
            .split_whitespace()
            .map(|t| {
                t.parse::<f64>()
                    .map_err(|_| format!("{}: `{t}` is not a number", path.display()))
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    if values.len() != dim {
        return Err(format!(
            "{}: the answer has {} numbers, the problem {dim} unknowns",
            path.display(),
            values.len()
        ));
    }
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(format!(
            "{}: entry {i} of the answer is not finite",
            path.display()
        ));
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

pub fn run(a: CheckArgs) -> Result<ExitCode, String> {
    let lp = load(&a.path).map_err(|e| e.to_string())?;
    let dim = lp.problem.dim();
    let (answer, source) = match &a.answer {
        Some(p) => (read_answer(p, dim)?, p.display().to_string()),
        None => match &lp.answer {
            Some(ans) => (ans.r.clone(), ans.source.clone()),
            None => {
                return Err(format!(
                    "{}: the file carries no answer; give one with --answer FILE",
                    a.path.display()
                ));
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
    let err = measure(&lp.problem, &r, kind).map_err(|e| e.to_string())?;
    let accepted = err.rel <= a.tol;
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
