//! Worst error of the closest point on an ellipsoid over a million random cases (the book's
//! chapter "The closest point on an ellipsoid").
//!
//! ```text
//! cargo run --release --example ellipsoid_accuracy             # 1e6 cases, writes the book's table
//! cargo run --release --example ellipsoid_accuracy -- 20000    # fewer cases, prints only
//! ```
//!
//! Each case `(axes, z)` comes from `ellipsoid_support::case` (six categories, degenerate
//! ones included: semi-axis ratios up to 1e12, a zero semi-axis, points within 1e-16 of the
//! surface, on an axis, magnitudes from 1e-150 to 1e150). Both root finders of
//! `nonsmooth::friction::project_on_ellipsoid_with` are run on it and compared with a
//! reference computed in double-double arithmetic (`reference_projection`, bisection to
//! about 32 digits, independent of the crate's code). The table reports, per category and
//! method, the worst relative distance to the reference and the worst optimality residuals,
//! in units of the machine epsilon `ε = 2.2e-16`, and the evaluations of `g`.
//!
//! The full run writes `book/src/generated/ellipsoid_accuracy.txt`. The test at the bottom
//! runs the first 6000 cases of the same stream and checks the bounds that the book states,
//! on that run and on the committed full table.

#[path = "ellipsoid_support/mod.rs"]
mod ellipsoid_support;
#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use ellipsoid_support::{Category, case, optimality, reference_projection, relative_distance};
use nonsmooth::friction::{EllipsoidCase, EllipsoidMethod, project_on_ellipsoid_with};

/// The stream of cases (any fixed number).
const SEED: u64 = 2017;
const EPS: f64 = f64::EPSILON;

/// What is recorded per category and method.
#[derive(Debug, Clone, Default)]
struct Stats {
    cases: usize,
    roots: usize,
    worst_distance: f64,
    worst_case: u64,
    worst_feasibility: f64,
    worst_stationarity: f64,
    worst_sign: f64,
    evaluations: usize,
    max_evaluations: usize,
    expansions: usize,
    not_finite: usize,
}

impl Stats {
    fn merge(&mut self, o: &Stats) {
        self.cases += o.cases;
        self.roots += o.roots;
        if o.worst_distance > self.worst_distance {
            self.worst_distance = o.worst_distance;
            self.worst_case = o.worst_case;
        }
        self.worst_feasibility = self.worst_feasibility.max(o.worst_feasibility);
        self.worst_stationarity = self.worst_stationarity.max(o.worst_stationarity);
        self.worst_sign = self.worst_sign.max(o.worst_sign);
        self.evaluations += o.evaluations;
        self.max_evaluations = self.max_evaluations.max(o.max_evaluations);
        self.expansions += o.expansions;
        self.not_finite += o.not_finite;
    }
}

const METHODS: [(EllipsoidMethod, &str); 2] = [
    (EllipsoidMethod::Bisection, "bisection"),
    (EllipsoidMethod::SafeguardedNewton, "safeguarded Newton"),
];

// ANCHOR: measure
/// Runs cases `0..count` and gathers the statistics per category (rows) and method.
fn measure(count: u64) -> Vec<[Stats; 2]> {
    let mut table = vec![[Stats::default(), Stats::default()]; Category::ALL.len()];
    for k in 0..count {
        let c = case(SEED, k);
        let row = Category::ALL.iter().position(|x| *x == c.category).unwrap();
        let reference = reference_projection(&c.axes, &c.z);
        for (m, (method, _)) in METHODS.iter().enumerate() {
            let mut x = vec![0.0; c.axes.len()];
            let report = project_on_ellipsoid_with(&c.axes, &c.z, &mut x, *method);
            let s = &mut table[row][m];
            s.cases += 1;
            s.roots += usize::from(report.case == EllipsoidCase::Root);
            s.not_finite += x.iter().filter(|v| !v.is_finite()).count();
            let dist = relative_distance(&x, &reference) / EPS;
            if dist > s.worst_distance || s.cases == 1 {
                s.worst_distance = s.worst_distance.max(dist);
                s.worst_case = k;
            }
            let [feas, stat, sign] = optimality(&c.axes, &c.z, &x);
            s.worst_feasibility = s.worst_feasibility.max(feas / EPS);
            s.worst_stationarity = s.worst_stationarity.max(stat / EPS);
            s.worst_sign = s.worst_sign.max(sign / EPS);
            s.evaluations += report.evaluations;
            s.max_evaluations = s.max_evaluations.max(report.evaluations);
            s.expansions += report.expansions;
        }
    }
    table
}
// ANCHOR_END: measure

fn report(count: u64, table: &[[Stats; 2]]) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "{count} random cases (seed {SEED}); distances and residuals in units of eps = 2.2e-16\n"
    )
    .unwrap();
    writeln!(
        out,
        "| cases | method | n (outside) | worst distance to reference | worst feasibility | \
         worst stationarity | worst multiplier sign | mean evaluations | max evaluations | \
         bracket expansions |"
    )
    .unwrap();
    writeln!(out, "|---|---|---|---|---|---|---|---|---|---|").unwrap();
    let mut total = [Stats::default(), Stats::default()];
    for (cat, row) in Category::ALL.iter().zip(table) {
        for (m, s) in row.iter().enumerate() {
            total[m].merge(s);
            line(&mut out, cat.describe(), METHODS[m].1, s);
        }
    }
    for (m, s) in total.iter().enumerate() {
        line(&mut out, "**all**", METHODS[m].1, s);
    }
    let nf: usize = total.iter().map(|s| s.not_finite).sum();
    writeln!(out, "\nnon-finite coordinates in the answers: {nf}").unwrap();
    out
}

fn line(out: &mut String, cat: &str, method: &str, s: &Stats) {
    let mean = s.evaluations as f64 / s.cases.max(1) as f64;
    writeln!(
        out,
        "| {cat} | {method} | {} ({}) | {:.2} (case {}) | {:.2} | {:.2} | {:.2} | {mean:.1} | {} | {} |",
        s.cases,
        s.roots,
        s.worst_distance,
        s.worst_case,
        s.worst_feasibility,
        s.worst_stationarity,
        s.worst_sign,
        s.max_evaluations,
        s.expansions
    )
    .unwrap();
}

/// The bounds the book states, in units of eps: checked on every run.
const DISTANCE_BOUND: f64 = 4.0;
const RESIDUAL_BOUND: f64 = 4.0;

fn check(table: &[[Stats; 2]]) {
    for (cat, row) in Category::ALL.iter().zip(table) {
        for (m, s) in row.iter().enumerate() {
            let who = format!("{} / {}", cat.describe(), METHODS[m].1);
            assert_eq!(s.not_finite, 0, "{who}: non-finite answer");
            assert!(
                s.worst_distance <= DISTANCE_BOUND,
                "{who}: distance {} eps (case {})",
                s.worst_distance,
                s.worst_case
            );
            assert!(s.worst_feasibility <= RESIDUAL_BOUND, "{who}: {s:?}");
            assert!(s.worst_stationarity <= RESIDUAL_BOUND, "{who}: {s:?}");
            assert!(s.worst_sign <= RESIDUAL_BOUND, "{who}: {s:?}");
        }
    }
}

fn main() {
    let count: u64 = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("the number of cases"))
        .unwrap_or(1_000_000);
    let table = measure(count);
    let text = report(count, &table);
    print!("{text}");
    check(&table);
    if count == 1_000_000 {
        support::publish("generated/ellipsoid_accuracy.txt", &text);
    }
}

#[test]
fn reduced_run_meets_the_bounds() {
    // The first 6000 cases of the full run's stream (1000 per category).
    let table = measure(6000);
    check(&table);
    // The committed full table: same format, and within the same bounds.
    let path = support::root().join("book/src/generated/ellipsoid_accuracy.txt");
    let text = std::fs::read_to_string(&path).expect("run the example to create the table");
    assert!(text.starts_with("1000000 random cases (seed 2017)"));
    let mut rows = 0;
    for l in text
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| cases"))
    {
        let cells: Vec<&str> = l.split('|').map(str::trim).collect();
        let num = |k: usize| -> f64 { cells[k].split(' ').next().unwrap().parse().unwrap() };
        assert!(num(4) <= DISTANCE_BOUND, "{l}");
        for k in 5..=7 {
            assert!(num(k) <= RESIDUAL_BOUND, "{l}");
        }
        rows += 1;
    }
    assert_eq!(rows, 2 * (Category::ALL.len() + 1));
    assert!(text.contains("non-finite coordinates in the answers: 0"));
}
