//! `nonsmooth info`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Failure;
use crate::io::{AnyProblem, LoadedProblem};
use crate::matrix::Matrix;
use crate::merit::scaled_norm;
use clap::Args;
use serde_json::{Value, json};

use super::table::emit;
use super::{expand, short_name};

#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Problem files or folders.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// One JSON object per problem and line.
    #[arg(long)]
    json: bool,
}

/// Largest dimension for which the spectrum is computed densely.
const DENSE_SPECTRUM_MAX: usize = 2000;

/// `2^e` with `2^e <= max |a_ij| < 2^(e+1)`: dividing by it is exact and brings the
/// entries to order one, so that neither `1.7e308` nor subnormal entries overflow or
/// underflow inside the eigenvalue and singular-value computations.
fn power_of_two_scale(d: &nalgebra::DMatrix<f64>) -> f64 {
    let m = d.amax();
    if m == 0.0 || !m.is_finite() {
        return 1.0;
    }
    // Built from its bits: `2f64.powi(-1030)` is 0 (it overflows on the way).
    let e = (m.log2().floor() as i64).clamp(-1022, 1023);
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// Spectral facts of a square matrix, computed on a copy scaled by a power of two.
///
/// The numerical rank counts the eigenvalues (singular values) above `n eps` times the
/// largest: the rounding level of the computation. The condition number is reported only
/// when the smallest is above that level; otherwise it is not resolved in double precision.
fn spectrum(m: &Matrix) -> Value {
    let n = m.nrows();
    let asym = m.relative_asymmetry();
    if n == 0 {
        return json!({});
    }
    if n > DENSE_SPECTRUM_MAX {
        return json!({ "note": format!("spectrum not computed for n > {DENSE_SPECTRUM_MAX}") });
    }
    let d = m.to_dense();
    let scale = power_of_two_scale(&d);
    let d = d / scale;
    let level = n as f64 * f64::EPSILON;
    if asym <= 1e-12 {
        let sym = (&d + d.transpose()) * 0.5;
        let eig = sym.symmetric_eigenvalues();
        let (lmin, lmax) = (eig.min(), eig.max());
        let top = eig.amax();
        let rank = eig.iter().filter(|l| l.abs() > level * top).count();
        let cond = (lmin > level * top).then(|| lmax / lmin);
        json!({ "eigenvalue_min": lmin * scale, "eigenvalue_max": lmax * scale,
                "numerical_rank": rank, "rank_threshold": level,
                "condition_number": cond, "positive_definite": lmin > 0.0 })
    } else {
        let sv = d.singular_values();
        let (smin, smax) = (sv.min(), sv.max());
        let rank = sv.iter().filter(|s| **s > level * smax).count();
        let cond = (smin > level * smax).then(|| smax / smin);
        json!({ "singular_value_min": smin * scale, "singular_value_max": smax * scale,
                "numerical_rank": rank, "rank_threshold": level, "condition_number": cond })
    }
}

fn matrix_facts(name: &str, m: &Matrix) -> Value {
    let diag = m.diagonal();
    let mut v = json!({
        "name": name,
        "rows": m.nrows(), "cols": m.ncols(), "nnz": m.nnz(), "density": m.density(),
        "storage": if m.is_sparse() { "sparse" } else { "dense" },
    });
    if m.nrows() == m.ncols() && m.nrows() > 0 {
        v["relative_asymmetry"] = json!(m.relative_asymmetry());
        v["diagonal_min"] = json!(diag.min());
        v["diagonal_max"] = json!(diag.max());
        v["spectrum"] = spectrum(m);
    }
    v
}

fn describe(lp: &LoadedProblem) -> Value {
    let p = &lp.problem;
    let mut v = json!({
        "file": short_name(&lp.path), "path": lp.path.display().to_string(),
        "format": lp.format.name(), "type": p.type_name(), "n": p.dim(), "contacts": p.contacts(),
        "source": lp.provenance.source, "answer": lp.answer.as_ref().map(|a| a.source.clone()),
        "warnings": lp.warnings,
    });
    let range = |m: &nalgebra::DVector<f64>| json!({ "min": m.min(), "max": m.max() });
    match p {
        AnyProblem::Lcp(l) => {
            v["matrices"] = json!([matrix_facts("A", l.a())]);
            v["norm_b"] = json!(scaled_norm(l.b().as_slice()));
        }
        AnyProblem::Boxed(b) => {
            v["matrices"] = json!([matrix_facts("A", b.a())]);
            v["norm_b"] = json!(scaled_norm(b.b().as_slice()));
            let friction_rows = b
                .row_bounds()
                .iter()
                .filter(|r| matches!(r, crate::problem::RowBound::Friction { .. }))
                .count();
            v["friction_rows"] = json!(friction_rows);
        }
        AnyProblem::Friction(f) => {
            v["kind"] = json!(f.kind().name());
            v["matrices"] = json!([matrix_facts("W", f.w())]);
            v["mu"] = range(f.mu());
            v["norm_q"] = json!(scaled_norm(f.q().as_slice()));
        }
        AnyProblem::Generic(g) => {
            v["kind"] = json!(g.kind().name());
            v["matrices"] = json!([matrix_facts("W", g.w())]);
            v["norm_q"] = json!(scaled_norm(g.q().as_slice()));
            let mut laws = serde_json::Map::new();
            for b in g.blocks() {
                let name = match b {
                    crate::problem::Block::Contact { mu } => format!("contact-{}", 1 + mu.len()),
                    other => other.name().to_string(),
                };
                let n = laws.get(&name).and_then(Value::as_u64).unwrap_or(0);
                laws.insert(name, json!(n + 1));
            }
            v["blocks"] = Value::Object(laws);
            let mu: Vec<f64> = g
                .blocks()
                .iter()
                .flat_map(|b| match b {
                    crate::problem::Block::Contact { mu } => mu.clone(),
                    _ => Vec::new(),
                })
                .collect();
            if !mu.is_empty() {
                v["mu"] = range(&nalgebra::DVector::from_vec(mu));
            }
        }
        AnyProblem::Global(g) => {
            v["kind"] = json!(g.kind().name());
            v["dofs"] = json!(g.dofs());
            let mut mats = vec![matrix_facts("M", g.m()), matrix_facts("H", g.h())];
            if let Ok(local) = g.to_local() {
                mats.push(matrix_facts("W = H^T M^-1 H", local.w()));
            }
            v["matrices"] = json!(mats);
            v["mu"] = range(g.mu());
            v["norm_q"] = json!(scaled_norm(g.q().as_slice()));
            v["norm_b"] = json!(scaled_norm(g.b().as_slice()));
        }
    }
    v
}

fn fmt_num(v: &Value) -> String {
    match v.as_f64() {
        Some(x) if v.is_f64() => format!("{x:.4e}"),
        _ => match v {
            Value::Null => "-".into(),
            Value::String(s) => s.clone(),
            other => other.to_string(),
        },
    }
}

fn text(v: &Value) -> String {
    let mut s = String::new();
    s.push_str(&format!("{}\n", v["path"].as_str().unwrap_or("")));
    s.push_str(&format!("  format     {}\n", fmt_num(&v["format"])));
    let kind = v
        .get("kind")
        .map(|k| format!(" ({})", fmt_num(k)))
        .unwrap_or_default();
    s.push_str(&format!("  type       {}{kind}\n", fmt_num(&v["type"])));
    s.push_str(&format!(
        "  unknowns   {}   contacts {}\n",
        v["n"], v["contacts"]
    ));
    if let Some(d) = v.get("dofs") {
        s.push_str(&format!("  dofs       {d}\n"));
    }
    if let Some(src) = v["source"].as_str().filter(|s| !s.is_empty()) {
        s.push_str(&format!("  source     {src}\n"));
    }
    if let Some(mu) = v.get("mu") {
        s.push_str(&format!(
            "  mu         {} .. {}\n",
            fmt_num(&mu["min"]),
            fmt_num(&mu["max"])
        ));
    }
    if let Some(b) = v.get("blocks").and_then(Value::as_object) {
        let list: Vec<String> = b.iter().map(|(law, n)| format!("{n} {law}")).collect();
        s.push_str(&format!("  blocks     {}\n", list.join(", ")));
    }
    for key in ["norm_q", "norm_b"] {
        if let Some(x) = v.get(key) {
            s.push_str(&format!(
                "  {:<10} {}\n",
                key.replace("norm_", "‖") + "‖",
                fmt_num(x)
            ));
        }
    }
    if let Some(mats) = v["matrices"].as_array() {
        for m in mats {
            s.push_str(&format!(
                "  {:<10} {} x {}, {} nonzeros ({:.2}% dense, stored {})\n",
                fmt_num(&m["name"]),
                m["rows"],
                m["cols"],
                m["nnz"],
                100.0 * m["density"].as_f64().unwrap_or(0.0),
                fmt_num(&m["storage"])
            ));
            if m.get("relative_asymmetry").is_some() {
                s.push_str(&format!(
                    "             asymmetry {}, diagonal {} .. {}\n",
                    fmt_num(&m["relative_asymmetry"]),
                    fmt_num(&m["diagonal_min"]),
                    fmt_num(&m["diagonal_max"])
                ));
                let sp = &m["spectrum"];
                if let Some(note) = sp.get("note") {
                    s.push_str(&format!("             {}\n", fmt_num(note)));
                } else if sp.get("eigenvalue_min").is_some()
                    || sp.get("singular_value_min").is_some()
                {
                    // A smallest value at rounding level prints as 0: its digits are noise
                    // that changes with the order of floating-point operations.
                    let (lo_key, hi_key, what) = if sp.get("eigenvalue_min").is_some() {
                        ("eigenvalue_min", "eigenvalue_max", "eigenvalues")
                    } else {
                        (
                            "singular_value_min",
                            "singular_value_max",
                            "singular values",
                        )
                    };
                    let (lo, hi) = (
                        sp[lo_key].as_f64().unwrap_or(0.0),
                        sp[hi_key].as_f64().unwrap_or(0.0),
                    );
                    let level = sp["rank_threshold"].as_f64().unwrap_or(0.0);
                    let min_text = if lo.abs() <= level * hi.abs() {
                        "0 (to rounding)".to_string()
                    } else {
                        fmt_num(&sp[lo_key])
                    };
                    let cond = if sp["condition_number"].is_null() {
                        "not resolved in double precision".to_string()
                    } else {
                        fmt_num(&sp["condition_number"])
                    };
                    s.push_str(&format!(
                        "             {what} {} .. {}\n             numerical rank {} of {}, condition {}\n",
                        min_text,
                        fmt_num(&sp[hi_key]),
                        sp["numerical_rank"],
                        m["rows"],
                        cond
                    ));
                }
            }
        }
    }
    if let Some(a) = v["answer"].as_str() {
        s.push_str(&format!("  answer     embedded ({a})\n"));
    }
    s
}

pub fn run(a: InfoArgs) -> Result<ExitCode, Failure> {
    let files = expand(&a.paths)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut ok = true;
    for path in files {
        match super::load(&path) {
            Ok(lp) => {
                super::warn(&lp);
                let v = describe(&lp);
                let line = if a.json { v.to_string() } else { text(&v) };
                emit(&mut out, line.trim_end())?;
            }
            Err(e) => {
                ok = false;
                say!("{e}");
            }
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
