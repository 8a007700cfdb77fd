//! `nonsmooth bench` campaigns on small shared Siconos files with our methods: the JSON
//! Lines fields, shards that partition the problems and merge back, duplicates refused by
//! merge, `--jobs 2` giving the same records, bad shards refused, and `bench profile`.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const FILES: [&str; 5] = [
    "siconos/fc3d/FrictionContact3D_1c.dat",
    "siconos/fc3d/FrictionContact3D_RR_1c.dat",
    "siconos/fc3d/FC3D_Example1.dat",
    "siconos/fc3d/Rover11035.dat",
    "siconos/fc3d/Confeti-ex13-4contact-Fc3D-SBM.dat",
];

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "nonsmooth-cli-campaign-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A folder holding copies of the small files, or `None` (skip) without the shared data.
fn problems(name: &str) -> Option<PathBuf> {
    let data = common::shared_data()?;
    let d = tmp(name).join("problems");
    std::fs::create_dir_all(&d).unwrap();
    for f in FILES {
        let src = data.join(f);
        if !src.exists() {
            eprintln!("skipping: {} not found", src.display());
            return None;
        }
        std::fs::copy(&src, d.join(src.file_name().unwrap())).unwrap();
    }
    Some(d)
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

fn records(text: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn campaign(dir: &Path, extra: &[&str]) -> Vec<Value> {
    let mut args = vec![
        "bench",
        dir.to_str().unwrap(),
        "--solve",
        "--method",
        "nsn,nsgs",
        "--repeat",
        "1",
        "--json",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    records(&out)
}

/// Records without the measured times, sorted, for comparison across runs.
fn untimed(rs: &[Value]) -> Vec<String> {
    let mut v: Vec<String> = rs
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.as_object_mut().unwrap().remove("seconds");
            r.as_object_mut().unwrap().remove("median_seconds");
            r.to_string()
        })
        .collect();
    v.sort();
    v
}

fn pairs(rs: &[Value]) -> BTreeSet<(String, String)> {
    rs.iter()
        .map(|r| {
            (
                r["problem"].as_str().unwrap().to_string(),
                r["solver"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn records_have_the_documented_fields() {
    let Some(dir) = problems("fields") else {
        return;
    };
    let rs = campaign(&dir, &[]);
    assert_eq!(
        rs.len(),
        FILES.len() * 2,
        "one record per (problem, solver)"
    );
    assert_eq!(pairs(&rs).len(), rs.len(), "no pair twice");
    for r in &rs {
        for key in [
            "problem",
            "solver",
            "contacts",
            "tol",
            "seconds",
            "status",
            "iterations",
            "error",
            "repeat",
            "timeout",
        ] {
            assert!(r.get(key).is_some(), "{key} missing in {r}");
        }
        assert!(["nsn", "nsgs"].contains(&r["solver"].as_str().unwrap()));
        assert!(Path::new(r["problem"].as_str().unwrap()).exists());
        assert!(r["contacts"].as_u64().unwrap() >= 1);
        assert_eq!(r["tol"].as_f64(), Some(1e-8));
        if r["status"] == "converged" {
            assert!(r["seconds"].as_f64().unwrap() > 0.0, "{r}");
            // the best of the runs is at most their median
            assert!(
                r["median_seconds"].as_f64().unwrap() >= r["seconds"].as_f64().unwrap(),
                "{r}"
            );
            assert!(r["error"].as_f64().unwrap() <= 1e-8, "{r}");
        }
    }
    // Newton solves these small files
    assert!(
        rs.iter()
            .filter(|r| r["solver"] == "nsn")
            .all(|r| r["status"] == "converged"),
        "{rs:?}"
    );
}

#[test]
fn shards_partition_and_merge_back_and_duplicates_are_refused() {
    let Some(dir) = problems("shards") else {
        return;
    };
    let d = tmp("shards-out");
    let all = campaign(&dir, &[]);
    let mut files = Vec::new();
    let mut shard_sets = Vec::new();
    for i in 1..=2 {
        let f = d.join(format!("shard{i}.jsonl"));
        let shard = format!("{i}/2");
        let (code, _, err) = run(&[
            "bench",
            dir.to_str().unwrap(),
            "--method",
            "nsn,nsgs",
            "--repeat",
            "1",
            "--shard",
            &shard,
            "--jsonl",
            f.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let rs = records(&std::fs::read_to_string(&f).unwrap());
        assert!(!rs.is_empty(), "shard {i} is empty");
        shard_sets.push(pairs(&rs));
        files.push(f);
    }
    assert!(
        shard_sets[0].is_disjoint(&shard_sets[1]),
        "shards overlap: {shard_sets:?}"
    );
    let problems_of = |s: &BTreeSet<(String, String)>| -> BTreeSet<String> {
        s.iter().map(|p| p.0.clone()).collect()
    };
    assert!(problems_of(&shard_sets[0]).is_disjoint(&problems_of(&shard_sets[1])));

    let (code, merged, err) = run(&[
        "bench",
        "merge",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let merged = records(&merged);
    assert_eq!(
        pairs(&merged),
        pairs(&all),
        "merged shards = the whole campaign"
    );
    assert_eq!(untimed(&merged), untimed(&all));

    // a shard given twice: the duplicate is named, exit 1
    let (code, out, err) = run(&[
        "bench",
        "merge",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
        files[0].to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("duplicate record"), "{err}");
    assert!(err.contains("shard1.jsonl:1"), "{err}");
    assert!(out.is_empty(), "nothing merged on a duplicate: {out}");

    // profile of the merged file: a table with both solvers
    let m = d.join("all.jsonl");
    std::fs::write(
        &m,
        run(&[
            "bench",
            "merge",
            files[0].to_str().unwrap(),
            files[1].to_str().unwrap(),
        ])
        .1,
    )
    .unwrap();
    let svg = d.join("profile.svg");
    let (code, out, err) = run(&[
        "bench",
        "profile",
        m.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("| nsn |") && out.contains("| nsgs |"), "{out}");
    assert!(out.contains(&format!("{} problems", FILES.len())), "{out}");
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(s.starts_with("<svg") && s.contains("nsgs"), "{s}");
}

#[test]
fn jobs_give_the_same_records() {
    let Some(dir) = problems("jobs") else {
        return;
    };
    let one = campaign(&dir, &[]);
    let two = campaign(&dir, &["--jobs", "2"]);
    assert_eq!(untimed(&one), untimed(&two));
}

#[test]
fn bad_shards_and_timeouts_are_usage_errors() {
    for (flag, value) in [
        ("--shard", "3/2"),
        ("--shard", "0/2"),
        ("--shard", "1/0"),
        ("--shard", "x"),
        ("--timeout", "0"),
        ("--timeout", "nan"),
        ("--jobs", "0"),
    ] {
        let (code, out, err) = run(&["bench", ".", "--method", "nsn", flag, value]);
        assert_eq!(code, 2, "{flag} {value}: {out}{err}");
        assert!(err.contains(flag), "{flag} {value}: {err}");
    }
    let (code, _, err) = run(&["bench", "merge", "/nonexistent/a.jsonl"]);
    assert_eq!(code, 1);
    assert!(err.contains("/nonexistent/a.jsonl"), "{err}");
}

#[test]
fn a_timeout_stops_our_solve() {
    let Some(dir) = problems("timeout") else {
        return;
    };
    // nsgs to a tolerance it cannot reach in its iterations, stopped by a tiny timeout
    let rs = campaign(
        &dir,
        &[
            "--timeout",
            "1e-9",
            "--tol",
            "1e-300",
            "--max-iter",
            "10000000",
        ],
    );
    assert!(!rs.is_empty());
    for r in &rs {
        assert_eq!(r["status"], "timeout", "{r}");
        assert!(r["seconds"].is_null(), "{r}");
        assert_eq!(r["timeout"].as_f64(), Some(1e-9));
    }
}

/// With python3-siconos installed: Siconos solvers beside ours, one record each, named
/// `siconos-NAME`; skipped (with a notice) without it.
#[test]
fn siconos_solvers_beside_ours_when_installed() {
    let Some(dir) = problems("siconos") else {
        return;
    };
    let installed = Command::new("/usr/bin/python3")
        .args(["-c", "import siconos.numerics"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        eprintln!("skipping: python3-siconos is not installed");
        return;
    }
    let rs = campaign(
        &dir,
        &["--siconos-solver", "NSGS,NSN_AC", "--timeout", "30"],
    );
    assert_eq!(rs.len(), FILES.len() * 4, "{rs:?}");
    for s in ["siconos-NSGS", "siconos-NSN_AC"] {
        let mine: Vec<&Value> = rs.iter().filter(|r| r["solver"] == s).collect();
        assert_eq!(mine.len(), FILES.len(), "{s}");
        for r in mine {
            assert!(
                ["converged", "failed", "crashed", "timeout"]
                    .contains(&r["status"].as_str().unwrap()),
                "{r}"
            );
            if r["status"] == "converged" {
                assert!(r["seconds"].as_f64().unwrap() > 0.0, "{r}");
                // the record says how Siconos was timed
                assert!(
                    ["c", "python"].contains(&r["timer"].as_str().unwrap()),
                    "{r}"
                );
            }
        }
    }
    // with a C compiler and Siconos's headers (as in CI), the C harness times the call
    let headers = Path::new("/usr/include/siconos/numerics/NonSmoothDrivers.h").is_file();
    if headers {
        assert!(
            rs.iter()
                .filter(|r| r["status"] == "converged" && r["timer"].is_string())
                .all(|r| r["timer"] == "c"),
            "{rs:?}"
        );
    }
    // the ratio table of these records: every file has a row, and a median
    let jsonl = dir.parent().unwrap().join("ratios.jsonl");
    let lines: String = rs.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&jsonl, lines).unwrap();
    let (code, out, err) = run(&["bench", "ratios", jsonl.to_str().unwrap(), "--named", "nsn"]);
    assert_eq!(code, 0, "{err}");
    for f in FILES {
        let name = Path::new(f).file_name().unwrap().to_str().unwrap();
        assert!(out.contains(&format!("| {name} |")), "{out}");
    }
    assert!(out.contains("| **median** |"), "{out}");
    assert!(
        rs.iter()
            .any(|r| r["solver"] == "siconos-NSN_AC" && r["status"] == "converged"),
        "{rs:?}"
    );
}

/// `bench ratios` needs Siconos records, and `--sweeps` does not apply to whole solves.
#[test]
fn ratios_without_siconos_and_sweeps_with_whole_solves_are_refused() {
    let d = tmp("ratios-refused");
    let jsonl = d.join("ours.jsonl");
    std::fs::write(
        &jsonl,
        r#"{"problem":"a.dat","solver":"nsn","contacts":1,"tol":1e-8,"seconds":1e-6,"status":"converged","iterations":2,"error":1e-12,"repeat":1,"timeout":null}
"#,
    )
    .unwrap();
    let (code, _, err) = run(&["bench", "ratios", jsonl.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no Siconos records"), "{err}");
    let Some(dir) = problems("sweeps") else {
        return;
    };
    let f = dir.join("FrictionContact3D_1c.dat");
    for extra in [
        &["--solve"][..],
        &["--method", "nsn,nsgs"][..],
        &["--jsonl", "x.jsonl"][..],
    ] {
        let mut args = vec!["bench", f.to_str().unwrap(), "--sweeps", "10"];
        args.extend_from_slice(extra);
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("--sweeps"), "{err}");
    }
}

/// Issue 33: the Siconos side runs on files its harness cannot read. A Coulomb fc3d
/// problem in the project's JSON is written as a Siconos .dat for the harness (the record
/// says so, and Siconos solves it); an LCP is `not-run` with the reason, and the ratio
/// table says "not run" there and leaves it out of the median.
#[test]
fn siconos_runs_on_other_formats_and_says_what_it_did_not_run() {
    let Some(data) = common::shared_data() else {
        return;
    };
    let installed = Command::new("/usr/bin/python3")
        .args(["-c", "import siconos.numerics"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        eprintln!("skipping: python3-siconos is not installed");
        return;
    }
    let dir = tmp("formats").join("problems");
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("example1.json");
    let (code, _, err) = run(&[
        "convert",
        data.join("siconos/fc3d/FC3D_Example1.dat")
            .to_str()
            .unwrap(),
        "-o",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    std::fs::copy(
        data.join("siconos/lcp/lcp_CPS_3.dat"),
        dir.join("lcp_CPS_3.dat"),
    )
    .unwrap();
    let args = [
        "bench",
        dir.to_str().unwrap(),
        "--solve",
        "--method",
        "auto",
        "--repeat",
        "1",
        "--json",
        "--siconos-solver",
        "NSGS",
        "--timeout",
        "30",
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let rs = records(&out);
    let sic = |p: &str| {
        rs.iter()
            .find(|r| r["solver"] == "siconos-NSGS" && r["problem"].as_str().unwrap().ends_with(p))
            .unwrap_or_else(|| panic!("no Siconos record for {p}: {rs:?}"))
    };
    let j = sic("example1.json");
    assert_eq!(j["status"], "converged", "{j}");
    assert!(
        j["message"]
            .as_str()
            .unwrap()
            .contains("written as a Siconos .dat"),
        "{j}"
    );
    let l = sic("lcp_CPS_3.dat");
    assert_eq!(l["status"], "not-run", "{l}");
    assert!(
        l["message"]
            .as_str()
            .unwrap()
            .contains("local friction problems"),
        "{l}"
    );
    let jsonl = dir.parent().unwrap().join("r.jsonl");
    std::fs::write(
        &jsonl,
        rs.iter().map(|r| format!("{r}\n")).collect::<String>(),
    )
    .unwrap();
    let (code, table, err) = run(&["bench", "ratios", jsonl.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let row = |p: &str| {
        table
            .lines()
            .find(|l| l.starts_with(&format!("| {p} |")))
            .unwrap()
    };
    assert!(row("lcp_CPS_3.dat").contains("not run"), "{table}");
    assert!(row("lcp_CPS_3.dat").contains("| - |"), "{table}");
    assert!(!row("example1.json").contains("not run"), "{table}");
    assert!(
        table.contains("Siconos not run on 1 of 2 problems"),
        "{table}"
    );
}
