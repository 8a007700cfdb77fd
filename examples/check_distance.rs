//! How far is an engine's answer from a solution? An "engine" (blocked Gauss-Seidel stopped
//! after a fixed number of sweeps, as real-time engines do) answers `data/pyramid_3.json`;
//! `nonsmooth::check::check` judges each answer: the error, the distance to the reference
//! solution, the worst contact, the graded sentence (chapter "Reading real problems and
//! judging an answer", section "Distance to the reference").
//!
//! ```text
//! cargo run --release --example check_distance
//! ```
//!
//! Writes `book/src/generated/check_distance.txt`; its test checks the committed file.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::DVector;
use nonsmooth::check::{CheckOptions, check};
use nonsmooth::io::load;
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::{Params, no_observer};

fn main() {
    let mut out = String::new();
    let s = support::sci;
    let path = support::root().join("data/pyramid_3.json");
    // ANCHOR: check
    let loaded = load(&path).unwrap_or_else(|e| panic!("{e}"));
    let nsgs = Choice::new("nsgs").unwrap();
    let opts = CheckOptions::default(); // tol 1e-8, reference solved to 1e-12
    let mut reports = Vec::new();
    for sweeps in [1, 3, 10, 30, 100, 300] {
        // The engine: a fixed number of sweeps from zero, converged or not.
        let params = Params {
            tol: 0.0,
            max_iter: sweeps,
            ..Default::default()
        };
        let zero = DVector::zeros(loaded.problem.dim());
        let answer = solve(&loaded.problem, &nsgs, zero, &params, &mut no_observer()).x;
        // The judgement: verdict, error, distance to the reference, worst contact.
        let report = check(
            &loaded.problem,
            answer.as_slice(),
            &loaded.provenance,
            &opts,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        reports.push((sweeps, report));
    }
    // ANCHOR_END: check

    let first = &reports[0].1;
    writeln!(
        out,
        "data/pyramid_3.json: {} contacts, {} friction, level {} (r in {})",
        first.contacts.len(),
        first.kind.as_deref().unwrap_or("-"),
        first.level.name(),
        first.force_unit.as_deref().unwrap_or("?")
    )
    .unwrap();
    let rf = first.reference.as_ref().unwrap();
    writeln!(out, "uniqueness: {}", rf.uniqueness).unwrap();
    writeln!(out).unwrap();
    writeln!(
        out,
        "{:>6}  {:>10}  {:>10}  {:>10}  {:>14}  {:>12}  verdict",
        "sweeps", "error", "distance", "relative", "worst contact", "reference"
    )
    .unwrap();
    for (sweeps, r) in &reports {
        let rf = r.reference.as_ref().unwrap();
        let opt = |v: Option<f64>| v.map(s).unwrap_or_else(|| "-".into());
        writeln!(
            out,
            "{:>6}  {:>10}  {:>10}  {:>10}  {:>14}  {:>12}  {}",
            sweeps,
            s(r.error),
            opt(rf.distance),
            opt(rf.relative_distance),
            rf.worst_contact
                .map(|c| format!("{c} ({})", opt(rf.worst_distance)))
                .unwrap_or_else(|| "-".into()),
            format!("{} {}", rf.method, if rf.found { "ok" } else { "failed" }),
            r.verdict
        )
        .unwrap();
    }
    writeln!(out).unwrap();
    for (sweeps, r) in [&reports[1], &reports[reports.len() - 1]] {
        let line = format!("after {sweeps} sweeps: {}", r.grade);
        writeln!(out, "{}", wrap(&line, 96, 2)).unwrap();
    }
    print!("{out}");
    support::publish("generated/check_distance.txt", &out);
}

#[test]
fn output_matches_the_book() {
    main();
}

/// `text` broken at spaces into lines of at most `width` characters (a longer word stays
/// whole), the lines after the first indented by `indent` spaces: the book's listing then
/// fits its column.
fn wrap(text: &str, width: usize, indent: usize) -> String {
    let mut out = String::new();
    let mut len = 0;
    for word in text.split(' ') {
        if len > 0 && len + 1 + word.chars().count() > width {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            len = indent;
        } else if len > 0 {
            out.push(' ');
            len += 1;
        }
        out.push_str(word);
        len += word.chars().count();
    }
    out
}
