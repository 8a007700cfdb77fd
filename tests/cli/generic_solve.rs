//! `nonsmooth solve` and `nonsmooth check` (with its reference solve) on a generic
//! mechanical problem, through the gmp solvers (`gmp-newton`, `gmp-pgs`, and `auto`
//! choosing `gmp-newton`).
//!
//! The problem: every kind of block, a condim-4 and an anisotropic condim-6 contact, a
//! symmetric positive definite `W` (not diagonal), the CCP, so the solution is unique.

use crate::program::{stderr, stdout};
use std::path::{Path, PathBuf};

const N: usize = 17;

fn write_problem(dir: &Path) -> PathBuf {
    // W = 2 I + 0.3 on the first off-diagonals: diagonally dominant, so positive definite.
    let rows: Vec<String> = (0..N)
        .map(|i| {
            let r: Vec<String> = (0..N)
                .map(|j| {
                    if i == j {
                        "2.0".into()
                    } else if i.abs_diff(j) == 1 {
                        "0.3".into()
                    } else {
                        "0.0".into()
                    }
                })
                .collect();
            format!("[{}]", r.join(", "))
        })
        .collect();
    let q = "[0.3, -0.7, -5.0, 0.2, -1.0, 0.9, 0.1, -1.0, 0.1, 0.2, 0.001, -2.0, 0.5, -0.2, \
             0.01, 0.0005, 0.0]";
    let text = format!(
        r#"{{"format": "nonsmooth-problem", "version": 1, "name": "every_block", "type": "gmp",
  "law": "ccp", "provenance": {{"units": {{"r": "N s", "u": "m/s"}}}},
  "data": {{"W": {{"storage": "dense", "nrows": {N}, "ncols": {N}, "rows": [{}]}},
           "q": {q},
           "blocks": [{{"law": "equality"}}, {{"law": "unilateral"}},
                      {{"law": "interval", "lo": null, "hi": 2.0}},
                      {{"law": "interval", "lo": -0.5, "hi": 0.5}},
                      {{"law": "contact", "mu": [0.5, 0.5]}},
                      {{"law": "contact", "mu": [0.8, 0.8, 0.01]}},
                      {{"law": "contact", "mu": [0.9, 0.4, 0.02, 0.001, 0.0]}}]}}}}"#,
        rows.join(", ")
    );
    let path = dir.join("every_block.json");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn solve_then_check_with_the_reference() {
    let dir = tmp!("solve");
    let p = write_problem(&dir);
    for method in ["auto", "gmp-newton", "gmp-pgs"] {
        let ans = dir.join(format!("{method}.json"));
        let o = run!("solve", &p, "-m", method, "--tol", "1e-10", "--out", &ans);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{method}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&ans).unwrap()).unwrap();
        assert_eq!(v["type"], "gmp");
        assert_eq!(v["blocks"].as_array().unwrap().len(), 7, "{v}");
        assert_eq!(v["r"].as_array().unwrap().len(), N);
        // check solves for the reference itself and measures the distance to it
        let o = run!("check", &p, "--answer", &ans, "--json");
        assert_eq!(
            o.status.code(),
            Some(0),
            "{method}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        let first: serde_json::Value =
            serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
        assert_eq!(first["verdict"], "consistent", "{first}");
        let rf = &first["reference"];
        assert_eq!(rf["found"], true, "{rf}");
        assert_eq!(rf["unique"], true, "{rf}");
        assert!(rf["distance"].as_f64().unwrap() < 1e-6, "{method}: {rf}");
        assert!(rf["worst_contact"].as_u64().unwrap() < 7, "{rf}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
