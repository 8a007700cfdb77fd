//! A verdict that scale cannot fool, and problems without a solution (chapter "Reading real
//! problems and judging an answer").
//!
//! ```text
//! cargo run --release --example verdict_scale
//! ```
//!
//! Writes `book/src/generated/verdict_scale.txt` (answers blown up along a direction `W` does
//! not see, judged by Siconos's normalisation and by the problem-scaled error),
//! `book/src/generated/verdict_real.txt` (the two measures at the crate's answers on every
//! shipped friction problem) and `book/src/generated/infeasible.txt` (problems without a
//! solution, solved by every friction method: their status and certificate). Its test checks
//! the committed files.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::{DMatrix, DVector};
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::merit::{Measure, Residual, friction_error};
use nonsmooth::problem::{FrictionContact, FrictionKind};
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::{Params, SolveError, no_observer};

/// A one-to-three-contact problem from its dense `W`, `q`, `mu`.
fn problem(w: &[f64], q: &[f64], mu: &[f64], kind: FrictionKind) -> FrictionContact {
    let n = q.len();
    FrictionContact::new(
        DMatrix::from_row_slice(n, n, w).into(),
        DVector::from_row_slice(q),
        DVector::from_row_slice(mu),
        kind,
    )
    .unwrap()
}

// ANCHOR: blown_up
/// An answer that pushes `size` along the normal of a one-contact problem with `W = 0`,
/// judged at 1e-8: the error of Siconos 4.4 and the problem-scaled error.
fn judge_push(q: [f64; 3], size: f64) -> (Residual, bool) {
    let p = problem(&[0.0; 9], &q, &[0.5], FrictionKind::Coulomb);
    let r = DVector::from_vec(vec![size, 0.0, 0.0]);
    let e = friction_error(&p, &r);
    (e, e.meets(1e-8, Measure::Relative))
}
// ANCHOR_END: blown_up

fn blown_up() -> String {
    let s = support::sci;
    let mut out = String::new();
    // pressed in: u_n = -1 whatever r is (nothing stops the contact); separating: u_n = 1,
    // and the only solution is r = 0
    for (name, q) in [
        ("pressed", [-1.0, 0.0, 0.0]),
        ("separating", [1.0, 0.0, 0.0]),
    ] {
        for size in [1.0, 1e4, 1e8, 1e12] {
            let (e, ok) = judge_push(q, size);
            let verdict = if ok { "consistent" } else { "inconsistent" };
            writeln!(
                out,
                "{name:<10}  r_n {:>9}  error (4.4) {:>9}  normal {:>9}  scaled {:>9}  {verdict}",
                s(size),
                s(e.rel),
                s(e.normal),
                s(e.scaled)
            )
            .unwrap();
        }
    }
    out
}

/// The two measures at the answer of `auto` on every shipped friction problem: their
/// ratio shows that the problem-scaled error asks no more of a true solution than Siconos's.
fn real(data: &std::path::Path) -> String {
    let mut rows = Vec::new();
    let mut dirs = vec![data.join("siconos/fc3d"), data.join("siconos/gfc3d")];
    dirs.push(data.to_path_buf());
    for dir in dirs {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.is_file()
                    && matches!(p.extension().and_then(|e| e.to_str()), Some("dat" | "json"))
            })
            .collect();
        files.sort();
        for path in files {
            let Ok(loaded) = load(&path) else { continue };
            if !matches!(
                loaded.problem,
                AnyProblem::Friction(_) | AnyProblem::Global(_)
            ) {
                continue;
            }
            let params = Params::default();
            let auto: Choice = "auto".parse().unwrap();
            let out = solve(
                &loaded.problem,
                &auto,
                DVector::zeros(loaded.problem.dim()),
                &params,
                &mut no_observer(),
            );
            if let Some(info) = out.info() {
                let name = path.file_name().unwrap().to_string_lossy().to_string();
                rows.push((name, out.status(), info.error.rel, info.error.scaled));
            }
        }
    }
    let ratios: Vec<f64> = rows
        .iter()
        .filter(|r| r.2 > 0.0)
        .map(|r| r.3 / r.2)
        .collect();
    let mut sorted = ratios.clone();
    sorted.sort_by(f64::total_cmp);
    let s = support::sci;
    let mut out = String::new();
    writeln!(
        out,
        "{} friction problems, every one {}",
        rows.len(),
        if rows.iter().all(|r| r.1 == "converged") {
            "converged"
        } else {
            "NOT all converged"
        }
    )
    .unwrap();
    writeln!(
        out,
        "scaled / error (4.4) at the answers: median {}, largest {}, smallest {}",
        s(sorted[sorted.len() / 2]),
        s(*sorted.last().unwrap()),
        s(sorted[0])
    )
    .unwrap();
    out
}

fn infeasible() -> String {
    let mut out = String::new();
    let cases = [
        (
            "W = 0, pressed in",
            problem(&[0.0; 9], &[-1.0, 0.0, 0.0], &[0.5], FrictionKind::Coulomb),
        ),
        (
            "W = 0, pressed in (CCP)",
            problem(&[0.0; 9], &[-1.0, 0.0, 0.0], &[0.5], FrictionKind::Ccp),
        ),
        (
            "two contacts that cancel",
            problem(
                &[
                    1.0, 0.0, 0.0, -1.0, 0.0, 0.0, //
                    0.0, 1.0, 0.0, 0.0, 0.0, 0.0, //
                    0.0, 0.0, 1.0, 0.0, 0.0, 0.0, //
                    -1.0, 0.0, 0.0, 1.0, 0.0, 0.0, //
                    0.0, 0.0, 0.0, 0.0, 1.0, 0.0, //
                    0.0, 0.0, 0.0, 0.0, 0.0, 1.0,
                ],
                &[-1.0, 0.0, 0.0, -1.0, 0.0, 0.0],
                &[0.3, 0.3],
                FrictionKind::Coulomb,
            ),
        ),
    ];
    for (name, p) in cases {
        writeln!(out, "{name}:").unwrap();
        let p = AnyProblem::Friction(p);
        for method in ["auto", "nsgs", "nsn", "prox-gs", "ppa"] {
            let choice: Choice = method.parse().unwrap();
            let o = solve(
                &p,
                &choice,
                DVector::zeros(p.dim()),
                &Params::default(),
                &mut no_observer(),
            );
            let cert = match &o.result {
                Err(SolveError::Infeasible(c)) => format!(
                    "contacts {:?}, q.d = {:.3}, W^T d misses K* by {:.1e}",
                    c.support, c.q_dot_d, c.residual
                ),
                _ => "-".into(),
            };
            writeln!(out, "  {method:<8} {:<12} {cert}", o.status()).unwrap();
        }
    }
    out
}

fn main() {
    let a = blown_up();
    print!("{a}");
    support::publish("generated/verdict_scale.txt", &a);
    let c = infeasible();
    print!("{c}");
    support::publish("generated/infeasible.txt", &c);
    if let Some(data) = support::shared_data() {
        let b = real(&data);
        print!("{b}");
        support::publish("generated/verdict_real.txt", &b);
    }
}

#[test]
fn output_matches_the_book() {
    main();
}
