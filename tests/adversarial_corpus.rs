//! The adversarial corpus: every malformed or adversarial input the generator makes
//! (`tests/adversarial/corpus.rs`), through `info`, `solve` with every method, `check` and
//! `convert`, and every argument case (`tests/adversarial/args.rs`), each run bounded in
//! time and memory. The test fails on any panic, abort, hang, silent wrong answer,
//! modified input, wrong exit status or unclear message, and lists them.
//!
//! `NONSMOOTH_ADVERSARIAL_BIN=path` runs another build of the program (to count what an
//! older version got wrong); `NONSMOOTH_ADVERSARIAL_REPORT=1` prints the findings without
//! failing; `NONSMOOTH_ADVERSARIAL_FILTER=text` runs only the cases whose name contains it.
//!
//! Its own test binary: `.ci/run` runs it by name with that filter and the `hdf5` feature,
//! and it takes minutes, so it is kept apart from the test crates of `tests/*/main.rs`.

#[path = "adversarial/mod.rs"]
mod adversarial;
mod common;

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use adversarial::run::{Env, Report, run_arg_case, run_case};
use adversarial::{args, corpus, documents};

#[test]
fn adversarial_corpus() {
    let bin = std::env::var_os("NONSMOOTH_ADVERSARIAL_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_nonsmooth")));
    let filter = std::env::var("NONSMOOTH_ADVERSARIAL_FILTER").unwrap_or_default();
    let env = Env {
        bin,
        methods: nonsmooth::registry::names()
            .iter()
            .map(|s| s.to_string())
            .collect(),
        tol: 1e-8,
        in_process: std::env::var_os("NONSMOOTH_ADVERSARIAL_BIN").is_none()
            || std::env::var_os("NONSMOOTH_ADVERSARIAL_IN_PROCESS").is_some(),
    };
    let cases: Vec<_> = corpus::corpus()
        .into_iter()
        .filter(|c| c.name.contains(&filter))
        .collect();
    let arg_cases: Vec<_> = args::all()
        .into_iter()
        .chain(documents::all())
        .filter(|c| c.name.contains(&filter))
        .collect();
    let names: std::collections::HashSet<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), cases.len(), "case names must be unique");
    let arg_names: std::collections::HashSet<&str> =
        arg_cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        arg_names.len(),
        arg_cases.len(),
        "argument case names must be unique"
    );

    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("adversarial");
    let _ = std::fs::remove_dir_all(&root);
    let report = Mutex::new(Report {
        inputs: cases.len(),
        arg_cases: arg_cases.len(),
        ..Default::default()
    });
    let next = AtomicUsize::new(0);
    let total = cases.len() + arg_cases.len();
    std::thread::scope(|s| {
        for worker in 0..2 {
            let (env, cases, arg_cases, report, next, root) =
                (&env, &cases, &arg_cases, &report, &next, &root);
            s.spawn(move || {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= total {
                        break;
                    }
                    let dir = root.join(format!("w{worker}"));
                    let (findings, runs, solves) = if k < cases.len() {
                        run_case(env, &cases[k], &dir)
                    } else {
                        let (f, r) = run_arg_case(env, &arg_cases[k - cases.len()], &dir);
                        (f, r, Vec::new())
                    };
                    let mut rep = report.lock().unwrap();
                    rep.runs += runs;
                    rep.in_process_solves += solves.len();
                    rep.findings.extend(findings);
                    rep.solved.extend(solves);
                }
            });
        }
    });
    let mut report = report.into_inner().unwrap();
    report
        .findings
        .sort_by(|a, b| (a.kind, &a.case).cmp(&(b.kind, &b.case)));
    let mut text = report.summary();
    for f in &report.findings {
        text.push_str(&format!(
            "{:<14} {} :: {} :: {}\n",
            f.kind.name(),
            f.case,
            f.command,
            f.detail
        ));
    }
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("adversarial-report.txt");
    std::fs::write(&out, &text).unwrap();
    eprintln!("{}", report.summary());
    eprintln!("full report: {}", out.display());
    // The book shows what the whole corpus ran and what each method did on the nasty
    // problems; only a full run of this build writes or checks it.
    if filter.is_empty()
        && std::env::var_os("NONSMOOTH_ADVERSARIAL_BIN").is_none()
        && !cfg!(feature = "hdf5")
    {
        common::publish("adversarial_summary.txt", &report.summary());
        common::publish("adversarial_nasty.txt", &nasty_table(&report));
    }
    if std::env::var_os("NONSMOOTH_ADVERSARIAL_REPORT").is_none() {
        assert!(
            report.findings.is_empty(),
            "{} findings:\n{text}",
            report.findings.len()
        );
    }
}

/// Each nasty valid problem and each method that applies to it: how the solve ended.
fn nasty_table(report: &Report) -> String {
    let mut rows: Vec<_> = report
        .solved
        .iter()
        .filter(|s| s.case.starts_with("nasty/") && s.status != "invalid")
        .collect();
    let order = |m: &str| nonsmooth::registry::names().iter().position(|n| *n == m);
    rows.sort_by(|a, b| (&a.case, order(&a.method)).cmp(&(&b.case, order(&b.method))));
    let mut out = String::from(
        "| problem | method | status | iterations | error |\n|---|---|---|---:|---:|\n",
    );
    for s in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            s.case.trim_start_matches("nasty/"),
            s.method,
            s.status,
            s.iterations.map_or("-".into(), |i| i.to_string()),
            s.error.map_or("-".into(), |e| format!("{e:.1e}")),
        ));
    }
    out
}
