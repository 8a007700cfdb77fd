//! The per-file output of `nonsmooth bench`: our timing beside Siconos's, with the
//! ratio, as a table, Markdown or JSON lines.

use std::path::PathBuf;

use serde_json::json;

use super::super::Failure;
use super::super::short_name;
use super::super::table::{Align, Style, Table, emit, sci};
use super::siconos::Theirs;
use super::timing::Timed;
use super::{BenchArgs, whole_solve};
use crate::registry::Choice;
use crate::solver::Params;

/// One timed file: its path, contacts, unknowns, the method resolved for it, our timing,
/// and whether Siconos is timed on it too.
pub(super) type FileRow = (PathBuf, usize, usize, Choice, Timed, bool);

/// Writes the rows of the timed files, each with Siconos's timing of it (`sic` holds one
/// entry per row that has Siconos, in order).
pub(super) fn print_file_rows(
    a: &BenchArgs,
    params: &Params,
    rows: Vec<FileRow>,
    sic: Vec<Option<Theirs>>,
) -> Result<(), Failure> {
    let mut sic_iter = sic.into_iter();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let whole = whole_solve(a);
    let (unit, scale) = if whole {
        ("µs/solve", 1e6)
    } else {
        ("µs/iteration", 1e6)
    };
    let t = Table::new(&[
        ("file", 34, Align::Left),
        ("contacts", 8, Align::Right),
        ("method", 11, Align::Left),
        (unit, 12, Align::Right),
        ("status", 14, Align::Left),
        ("iter", 6, Align::Right),
        ("siconos", 8, Align::Left),
        ("siconos_us", 10, Align::Right),
        ("ratio", 7, Align::Right),
    ]);
    match a.format {
        Style::Table => emit(&mut out, &t.header())?,
        Style::Markdown => {
            emit(
                &mut out,
                &format!(
                    "| file | contacts | method | {unit} | status | iterations | Siconos solver | Siconos {unit} | ratio |"
                ),
            )?;
            emit(&mut out, "|---|---:|---|---:|---|---:|---|---:|---:|")?;
        }
        Style::Json => {}
    }
    for (path, nc, n, m, ours, has_sic) in rows {
        let theirs = if has_sic {
            sic_iter.next().flatten()
        } else {
            None
        };
        // a whole-solve ratio means something only when both reached the tolerance
        let ratio = theirs
            .as_ref()
            .filter(|s| !whole || (s.status == "converged" && ours.status == "converged"))
            .map(|s| ours.seconds / s.seconds);
        let us = |x: f64| format!("{:.1}", x * scale);
        let iters = ours.iterations.map_or("-".into(), |i| i.to_string());
        let line = match a.format {
            Style::Json => json!({"file": short_name(&path), "path": path.display().to_string(),
                "contacts": nc, "n": n, "method": m.name(), "options": m.options(),
                "per": if whole { "solve" } else { "iteration" }, "tol": params.tol,
                "seconds": ours.seconds, "status": ours.status, "iterations": ours.iterations,
                "error": ours.error,
                "siconos_solver": theirs.as_ref().map(|s| s.solver.clone()),
                "siconos_seconds": theirs.as_ref().map(|s| s.seconds),
                "siconos_status": theirs.as_ref().map(|s| s.status.clone()),
                "siconos_iterations": theirs.as_ref().and_then(|s| s.iterations),
                "ratio": ratio})
            .to_string(),
            Style::Markdown => format!(
                "| {} | {nc} | {} | {} | {} | {iters} | {} | {} | {} |",
                short_name(&path),
                m.name(),
                us(ours.seconds),
                ours.status,
                theirs.as_ref().map_or("-".into(), |s| s.solver.clone()),
                theirs.as_ref().map_or("-".into(), |s| us(s.seconds)),
                ratio.map_or("-".into(), fmt_ratio)
            ),
            Style::Table => t.row(&[
                short_name(&path),
                nc.to_string(),
                m.name().into(),
                us(ours.seconds),
                ours.status.clone(),
                iters,
                theirs.as_ref().map_or("-".into(), |s| s.solver.clone()),
                theirs.as_ref().map_or("-".into(), |s| us(s.seconds)),
                ratio.map_or_else(|| sci(None), fmt_ratio),
            ]),
        };
        emit(&mut out, &line)?;
    }
    Ok(())
}

/// A ratio with two decimals, or in exponent form when it is below 0.01.
fn fmt_ratio(r: f64) -> String {
    if r >= 0.01 {
        format!("{r:.2}")
    } else {
        format!("{r:.1e}")
    }
}
