//! `nonsmooth info`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Failure;
use crate::io::{AnyProblem, LoadedProblem, load};
use crate::matrix::Matrix;
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

/// Spectral facts of a square matrix.
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
    if asym <= 1e-12 {
        let sym = (&d + d.transpose()) * 0.5;
        let eig = sym.symmetric_eigenvalues();
        let (lmin, lmax) = (eig.min(), eig.max());
        let rank = eig
            .iter()
            .filter(|l| l.abs() > 1e-12 * lmax.abs().max(f64::MIN_POSITIVE))
            .count();
        let cond = if lmin > 1e-14 * lmax {
            Some(lmax / lmin)
        } else {
            None
        };
        json!({ "eigenvalue_min": lmin, "eigenvalue_max": lmax, "numerical_rank": rank,
                "condition_number": cond, "positive_definite": lmin > 0.0 })
    } else {
        let sv = d.singular_values();
        let (smin, smax) = (sv.min(), sv.max());
        let cond = if smin > 1e-14 * smax {
            Some(smax / smin)
        } else {
            None
        };
        json!({ "singular_value_min": smin, "singular_value_max": smax, "condition_number": cond })
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
    });
    let range = |m: &nalgebra::DVector<f64>| json!({ "min": m.min(), "max": m.max() });
    match p {
        AnyProblem::Lcp(l) => {
            v["matrices"] = json!([matrix_facts("A", l.a())]);
            v["norm_b"] = json!(l.b().norm());
        }
        AnyProblem::Boxed(b) => {
            v["matrices"] = json!([matrix_facts("A", b.a())]);
            v["norm_b"] = json!(b.b().norm());
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
            v["norm_q"] = json!(f.q().norm());
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
            v["norm_q"] = json!(g.q().norm());
            v["norm_b"] = json!(g.b().norm());
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
                } else if sp.get("eigenvalue_min").is_some() {
                    // An eigenvalue at rounding level (a singular W) prints as 0: its digits are
                    // noise that changes with the order of floating-point operations.
                    let (lmin, lmax) = (
                        sp["eigenvalue_min"].as_f64().unwrap_or(0.0),
                        sp["eigenvalue_max"].as_f64().unwrap_or(0.0),
                    );
                    let min_text = if lmin.abs() <= 1e-12 * lmax.abs() {
                        "0 (to rounding)".to_string()
                    } else {
                        fmt_num(&sp["eigenvalue_min"])
                    };
                    s.push_str(&format!(
                        "             eigenvalues {} .. {}, rank {}, condition {}\n",
                        min_text,
                        fmt_num(&sp["eigenvalue_max"]),
                        sp["numerical_rank"],
                        if sp["condition_number"].is_null() {
                            "singular".into()
                        } else {
                            fmt_num(&sp["condition_number"])
                        }
                    ));
                } else if sp.get("singular_value_min").is_some() {
                    s.push_str(&format!(
                        "             singular values {} .. {}, condition {}\n",
                        fmt_num(&sp["singular_value_min"]),
                        fmt_num(&sp["singular_value_max"]),
                        if sp["condition_number"].is_null() {
                            "singular".into()
                        } else {
                            fmt_num(&sp["condition_number"])
                        }
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
        match load(&path) {
            Ok(lp) => {
                let v = describe(&lp);
                let line = if a.json { v.to_string() } else { text(&v) };
                emit(&mut out, line.trim_end())?;
            }
            Err(e) => {
                ok = false;
                eprintln!("nonsmooth: {e}");
            }
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
