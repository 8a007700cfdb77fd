//! `nonsmooth bench --scene`: generated scenes of growing size (box stack, wall,
//! pyramid), each in its local and its global form, timed and printed one row per size
//! and form.

use std::process::ExitCode;

use serde_json::json;

use super::super::Failure;
use super::super::table::{Style, emit};
use super::timing::time_ours;
use super::{BenchArgs, params, whole_solve};
use crate::io::AnyProblem;
use crate::multibody::{SceneKind, scenes};
use crate::registry::Choice;

/// Times generated scenes of growing size: one row per size and form.
pub(super) fn run_scenes(
    a: &BenchArgs,
    kind: SceneKind,
    method: &Choice,
) -> Result<ExitCode, Failure> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let name = match kind {
        SceneKind::BoxStack => "box-stack",
        SceneKind::Wall => "wall",
        SceneKind::Pyramid => "pyramid",
    };
    let params = params(a);
    let unit = if whole_solve(a) {
        "ms/solve"
    } else {
        "µs/iteration"
    };
    if a.format == Style::Markdown {
        emit(
            &mut out,
            &format!(
                "| scene | contacts | method | {unit} | status | ns per contact and iteration |"
            ),
        )?;
        emit(&mut out, "|---|---:|---|---:|---|---:|")?;
    } else if a.format == Style::Table {
        emit(
            &mut out,
            &format!("scene       contacts  method      {unit:>12}  status          ns/contact"),
        )?;
    }
    let mut all_ok = true;
    for &n in &a.contacts {
        let scene = scenes::sized_for(kind, n).map_err(|e| format!("--contacts: {e}"))?;
        let local = AnyProblem::Friction(scene.local_problem().map_err(|e| e.to_string())?);
        let global = AnyProblem::Global(scene.global_problem().map_err(|e| e.to_string())?);
        for problem in [&local, &global] {
            let m = match (a.method.first(), problem) {
                (None, AnyProblem::Friction(_)) => Choice::new("nsgs").expect("registered"),
                (None, _) => Choice::new("vgs").expect("registered"),
                (Some(_), p) => method.resolve(p),
            };
            if !m
                .spec()
                .applies_to(crate::registry::ProblemType::of(problem))
            {
                continue;
            }
            let t = time_ours(problem, &m, &params, a.repeat);
            if whole_solve(a) && t.status != "converged" {
                all_ok = false;
            }
            let nc = problem.contacts();
            let iters = if whole_solve(a) {
                t.iterations.unwrap_or(1).max(1)
            } else {
                1
            };
            let per = t.seconds / iters as f64 / nc.max(1) as f64 * 1e9;
            let shown = if whole_solve(a) {
                t.seconds * 1e3
            } else {
                t.seconds * 1e6
            };
            let method = m.name();
            let line = match a.format {
                Style::Markdown => format!(
                    "| {name} | {nc} | {method} | {shown:.1} | {} | {per:.0} |",
                    t.status
                ),
                Style::Json => json!({"scene": name, "contacts": nc, "method": method,
                    "form": problem.type_name(), "seconds": t.seconds,
                    "per": if whole_solve(a) { "solve" } else { "iteration" },
                    "status": t.status, "iterations": t.iterations,
                    "ns_per_contact_and_iteration": per})
                .to_string(),
                Style::Table => format!(
                    "{name:<10} {nc:>9}  {method:<10} {shown:>12.1}  {:<14} {per:>10.0}",
                    t.status
                ),
            };
            emit(&mut out, &line)?;
        }
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
