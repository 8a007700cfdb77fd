//! The method-selection guide of the chapter "Choosing a method": a decision table computed
//! from the benchmark campaign's records (`book/src/generated/bench_campaign_{tol}.jsonl`,
//! written by `examples/bench_campaign.rs`), not typed.
//!
//! For each tolerance and each size class of the fc3d problems (the shared Siconos and FCLIB
//! files and the generated scenes), every method of ours is scored on the problems of the
//! class: how many it solved, how often it was the fastest of ours, and its time relative to
//! the fastest of ours on each problem (the performance ratio of Dolan and Moré 2002), whose
//! geometric mean over the class is the column `mean ratio` (an unsolved problem counts at
//! the largest ratio any method reached on the class, times 2, as in a profile's tail). The
//! method recommended is the one that solved the most, then the one with the least mean
//! ratio. The fastest Siconos 4.4 solver of the same campaign is shown beside it.
//!
//! `cargo run --release --example method_guide` rewrites `generated/method_guide.txt`; its
//! test, which `cargo test --release` runs, recomputes it from the committed records and
//! fails if the file differs. Rerunning the campaign (a timing, run by hand on a quiet
//! machine) and then this example updates the guide.

#[path = "support/mod.rs"]
mod support;

use std::collections::{BTreeMap, BTreeSet};

use nonsmooth::cli::profile::{Record, read_records};

/// The size classes, by contacts: `(label, lowest, highest)`.
const CLASSES: [(&str, usize, usize); 3] = [
    ("1-9 contacts", 1, 9),
    ("10-99 contacts", 10, 99),
    ("100+ contacts", 100, usize::MAX),
];

/// One method's score on one class.
struct Score {
    method: String,
    solved: usize,
    wins: usize,
    mean_ratio: f64,
}

/// Scores our methods on the problems of `records` (one tolerance, one class).
fn scores(records: &[&Record]) -> Vec<Score> {
    let ours: BTreeSet<&str> = records
        .iter()
        .filter(|r| !r.solver.starts_with("siconos-"))
        .map(|r| r.solver.as_str())
        .collect();
    let problems: BTreeSet<&str> = records.iter().map(|r| r.problem.as_str()).collect();
    // time[problem][method]
    let mut time: BTreeMap<&str, BTreeMap<&str, Option<f64>>> = BTreeMap::new();
    for r in records.iter().filter(|r| ours.contains(r.solver.as_str())) {
        time.entry(r.problem.as_str())
            .or_default()
            .insert(r.solver.as_str(), r.solved_time());
    }
    let best = |p: &str| -> Option<f64> {
        time[p]
            .values()
            .flatten()
            .copied()
            .fold(None, |a: Option<f64>, t| Some(a.map_or(t, |a| a.min(t))))
    };
    // the largest ratio reached by any solved run: unsolved runs count at twice it
    let mut worst: f64 = 1.0;
    for p in &problems {
        if let Some(b) = best(p) {
            for t in time[p].values().flatten() {
                worst = worst.max(t / b);
            }
        }
    }
    let penalty = 2.0 * worst;
    ours.iter()
        .map(|m| {
            let mut solved = 0;
            let mut wins = 0;
            let mut log_sum = 0.0;
            for p in &problems {
                let t = time[p].get(m).copied().flatten();
                let ratio = match (t, best(p)) {
                    (Some(t), Some(b)) => {
                        solved += 1;
                        if t == b {
                            wins += 1;
                        }
                        t / b
                    }
                    _ => penalty,
                };
                log_sum += ratio.ln();
            }
            Score {
                method: m.to_string(),
                solved,
                wins,
                mean_ratio: (log_sum / problems.len() as f64).exp(),
            }
        })
        .collect()
}

/// The fastest Siconos solver on most problems of the class, with its count.
fn siconos_leader(records: &[&Record]) -> String {
    let mut best: BTreeMap<&str, (f64, &str)> = BTreeMap::new();
    for r in records.iter().filter(|r| r.solver.starts_with("siconos-")) {
        if let Some(t) = r.solved_time() {
            let e = best
                .entry(r.problem.as_str())
                .or_insert((f64::INFINITY, ""));
            if t < e.0 {
                *e = (t, r.solver.trim_start_matches("siconos-"));
            }
        }
    }
    let mut wins: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, s) in best.values() {
        *wins.entry(s).or_default() += 1;
    }
    match wins
        .iter()
        .max_by_key(|(s, n)| (**n, std::cmp::Reverse(**s)))
    {
        Some((s, n)) => format!("{s} ({n})"),
        None => "none solved".into(),
    }
}

// ANCHOR: guide
/// The decision table for one campaign file: one row per size class.
fn guide(tol: &str, records: &[Record]) -> String {
    let mut out = format!(
        "tolerance {tol}\n\
         {:<14} {:>8}  {:<9} {:>6} {:>5} {:>10}  {:<10} {:>10}  {:<18}  {}\n",
        "class",
        "problems",
        "use",
        "solved",
        "wins",
        "mean ratio",
        "runner-up",
        "mean ratio",
        "most wins (solved)",
        "Siconos best"
    );
    for (label, lo, hi) in CLASSES {
        let class: Vec<&Record> = records
            .iter()
            .filter(|r| (lo..=hi).contains(&r.contacts))
            .collect();
        let n = class
            .iter()
            .map(|r| r.problem.as_str())
            .collect::<BTreeSet<_>>()
            .len();
        if n == 0 {
            continue;
        }
        let mut s = scores(&class);
        // most solved first, then the least mean ratio, then the name (a stable order)
        s.sort_by(|a, b| {
            b.solved
                .cmp(&a.solved)
                .then(a.mean_ratio.total_cmp(&b.mean_ratio))
                .then(a.method.cmp(&b.method))
        });
        let (first, second) = (&s[0], &s[1]);
        let fastest = s
            .iter()
            .max_by(|a, b| a.wins.cmp(&b.wins).then(b.method.cmp(&a.method)))
            .expect("at least one method");
        out.push_str(&format!(
            "{:<14} {:>8}  {:<9} {:>6} {:>5} {:>10.2}  {:<10} {:>10.2}  {:<18}  {}\n",
            label,
            n,
            first.method,
            format!("{}/{n}", first.solved),
            first.wins,
            first.mean_ratio,
            second.method,
            second.mean_ratio,
            format!(
                "{} {} ({}/{n})",
                fastest.method, fastest.wins, fastest.solved
            ),
            siconos_leader(&class)
        ));
    }
    out
}
// ANCHOR_END: guide

fn content() -> String {
    let mut out = String::from(
        "Computed by examples/method_guide.rs from generated/bench_campaign_{1e-8,1e-4}.jsonl\n\
         (whole solves from zero, best of the campaign's repeats; ratio = time / fastest of ours\n\
         on the problem, geometric mean over the class, an unsolved problem at twice the class's\n\
         largest ratio; wins = problems where it was the fastest of ours; Siconos best = the\n\
         Siconos 4.4 solver fastest on the most problems of the class, and on how many).\n\n",
    );
    for tol in ["1e-8", "1e-4"] {
        let path = support::root()
            .join("book/src/generated")
            .join(format!("bench_campaign_{tol}.jsonl"));
        let records: Vec<Record> = read_records(&path)
            .unwrap_or_else(|e| panic!("{e}"))
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        out.push_str(&guide(tol, &records));
        out.push('\n');
    }
    // padded columns, without the padding at the ends of lines
    out.lines().map(|l| format!("{}\n", l.trim_end())).collect()
}

fn main() {
    support::publish("generated/method_guide.txt", &content());
}

#[test]
fn the_guide_is_what_the_records_give() {
    support::publish("generated/method_guide.txt", &content());
}
