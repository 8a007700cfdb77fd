//! Cross-check with Siconos 4.4 itself (Debian `python3-siconos`, driven by
//! `scripts/siconos_driver.py` under `/usr/bin/python3`):
//!
//! 1. Siconos solves every shared LCP (Lemke; NSGS_SBM for sparse-block files) and fc3d
//!    file (NSGS); our error measure of Siconos's answer equals Siconos's own figure to
//!    1e-10 relative, unless the two differ by less than the rounding error of forming
//!    `u = W r + q` and of the natural map `r - P(r - û)` itself
//!    (`64 ε (‖|W| |r| + |q|‖ + ‖r‖)` over the normalisation): the two programs sum the
//!    products in different orders, so an error that is itself near rounding level cannot
//!    agree to more digits than that.
//! 2. Siconos's `fc3d_compute_error` accepts our blocked Gauss-Seidel's answers: it finds
//!    them within the 1e-8 tolerance, at the value we measure.
//!
//! Skipped with a notice when Siconos is not installed, unless
//! `NONSMOOTH_REQUIRE_SICONOS` is set (CI sets it), in which case that is a failure.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, discover, load};
use nonsmooth::merit::{fc3d_error, lcp_error};
use nonsmooth::solver::{Params, no_observer};
use nonsmooth::splitting::blocked_gauss_seidel;
use serde_json::Value;

const PYTHON: &str = "/usr/bin/python3";

fn siconos_available() -> bool {
    let ok = Command::new(PYTHON)
        .args(["-c", "import siconos.numerics"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        if std::env::var_os("NONSMOOTH_REQUIRE_SICONOS").is_some() {
            panic!(
                "Siconos (python3-siconos) is required but `{PYTHON} -c 'import siconos.numerics'` failed"
            );
        }
        eprintln!("skipping: Siconos not installed (apt-get install python3-siconos)");
    }
    ok
}

fn driver(args: &[&str], files: &[PathBuf]) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/siconos_driver.py");
    let out = Command::new(PYTHON)
        .arg(script)
        .args(args)
        .args(files)
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "siconos driver failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("driver prints JSON"))
        .collect()
}

/// Agreement to 1e-10 relative, or within `floor` (the rounding allowance).
fn agree(ours: f64, theirs: f64, floor: f64) -> bool {
    (ours - theirs).abs() <= 1e-10 * ours.abs().max(theirs.abs()) || (ours - theirs).abs() <= floor
}

/// The rounding allowance of an error measured relative to `denom`:
/// `64 ε (‖|A| |x| + |b|‖ + ‖x‖)` (forming the residual, then subtracting it from `x`).
fn rounding_floor(
    a: &nonsmooth::matrix::Matrix,
    x: &DVector<f64>,
    b: &DVector<f64>,
    denom: f64,
) -> f64 {
    let mut s = 0.0;
    for i in 0..a.nrows() {
        let mut row = b[i].abs();
        a.for_each_in_row(i, |j, v| row += (v * x[j]).abs());
        s += row * row;
    }
    64.0 * f64::EPSILON * (s.sqrt() + x.norm()) / denom.max(f64::EPSILON)
}

fn fc3d_floor(p: &nonsmooth::problem::FrictionContact, r: &DVector<f64>) -> f64 {
    let u = p.velocity(r);
    rounding_floor(p.w(), r, p.q(), p.q().norm().max(r.norm()).max(u.norm()))
}

fn numbers(v: &Value) -> DVector<f64> {
    DVector::from_vec(
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect(),
    )
}

#[test]
fn lcp_error_measure_matches_siconos() {
    let Some(dir) = common::shared_file("siconos/lcp") else {
        return;
    };
    if !siconos_available() {
        return;
    }
    let files = discover(&dir).unwrap();
    let results = driver(&["solve-lcp"], &files);
    assert_eq!(results.len(), files.len());
    for (path, res) in files.iter().zip(&results) {
        let AnyProblem::Lcp(p) = load(path).unwrap().problem else {
            panic!()
        };
        let z = numbers(&res["z"]);
        let ours = lcp_error(&p, &z).rel;
        let theirs = res["error"].as_f64().unwrap();
        let floor = rounding_floor(p.a(), &z, p.b(), p.b().norm());
        eprintln!(
            "{:28} Siconos {:>8} error {theirs:.6e}, ours {ours:.6e} (rounding {floor:.1e})",
            name(path),
            res["solver"].as_str().unwrap()
        );
        assert!(
            agree(ours, theirs, floor),
            "{}: ours {ours}, Siconos {theirs}",
            path.display()
        );
    }
}

/// `tests/data/siconos-4.4-lemke.tsv` is what Siconos's Lemke reports on the files of
/// `tests/data` (the pivot table of the book reads it).
#[test]
fn committed_lemke_figures_are_what_siconos_reports() {
    if !siconos_available() {
        return;
    }
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let refs = common::reference_at(&data.join("siconos-4.4-lemke.tsv")).expect("committed");
    let files: Vec<PathBuf> = refs.iter().map(|r| data.join(&r.file)).collect();
    let results = driver(&["solve-lcp"], &files);
    assert_eq!(results.len(), refs.len());
    for (r, res) in refs.iter().zip(&results) {
        assert_eq!(
            res["solver"].as_str(),
            Some(r.solver.as_str()),
            "{}",
            r.file
        );
        assert_eq!(res["info"].as_i64(), r.info, "{}", r.file);
        assert_eq!(
            res["iterations"].as_u64().map(|i| i as usize),
            r.iterations,
            "{}",
            r.file
        );
        // An error at the rounding level (below 1e-10) is the rounding of this machine's
        // arithmetic and BLAS: Siconos reproduces it to about two digits across machines
        // (lcp_tobenna.dat: 3.503e-12 committed, 3.4995e-12 on another processor), a
        // larger error to three.
        let (theirs, committed) = (res["error"].as_f64().unwrap(), r.error.unwrap());
        let rel = if committed < 1e-10 { 1e-2 } else { 1e-3 };
        assert!(
            (theirs - committed).abs() <= rel * committed,
            "{}: {theirs} vs {committed}",
            r.file
        );
    }
}

fn name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

fn fc3d_dat_files() -> Option<Vec<PathBuf>> {
    let dir = common::shared_file("siconos/fc3d")?;
    // This Siconos build has no FCLIB (HDF5) support: its text files only.
    Some(
        discover(&dir)
            .unwrap()
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "dat"))
            .collect(),
    )
}

#[test]
fn fc3d_error_measure_matches_siconos() {
    let Some(files) = fc3d_dat_files() else {
        return;
    };
    if !siconos_available() {
        return;
    }
    let results = driver(
        &["solve-fc3d", "--tol", "1e-8", "--max-iter", "1000"],
        &files,
    );
    assert_eq!(results.len(), files.len());
    for (path, res) in files.iter().zip(&results) {
        let AnyProblem::Friction(p) = load(path).unwrap().problem else {
            panic!()
        };
        let r = numbers(&res["r"]);
        let ours = fc3d_error(&p, &r).rel;
        let theirs = res["error"].as_f64().unwrap();
        let floor = fc3d_floor(&p, &r);
        eprintln!(
            "{:36} Siconos NSGS error {theirs:.6e}, our measure {ours:.6e} (rounding {floor:.1e})",
            name(path)
        );
        assert!(
            agree(ours, theirs, floor),
            "{}: ours {ours}, Siconos {theirs}",
            path.display()
        );
    }
}

#[test]
fn siconos_accepts_our_answers() {
    let Some(files) = fc3d_dat_files() else {
        return;
    };
    if !siconos_available() {
        return;
    }
    let tmp = std::env::temp_dir().join(format!("nonsmooth-crosscheck-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut pairs = Vec::new();
    let mut ours = Vec::new();
    for path in &files {
        let AnyProblem::Friction(p) = load(path).unwrap().problem else {
            panic!()
        };
        let mut r = DVector::zeros(p.dim());
        let params = Params {
            tol: 1e-8,
            max_iter: 200_000,
            ..Default::default()
        };
        match blocked_gauss_seidel(&p, &mut r, &params, &mut no_observer()) {
            Ok(info) => {
                let answer = tmp.join(format!("{}.json", name(path)));
                std::fs::write(
                    &answer,
                    serde_json::json!({ "r": r.as_slice() }).to_string(),
                )
                .unwrap();
                pairs.push(path.clone());
                pairs.push(answer);
                ours.push((path.clone(), info.error.rel, fc3d_floor(&p, &r)));
            }
            Err(e) => eprintln!("{}: not converged ({e}), not submitted", name(path)),
        }
    }
    let results = driver(&["error-fc3d"], &pairs);
    assert_eq!(results.len(), ours.len());
    for ((path, mine, floor), res) in ours.iter().zip(&results) {
        let theirs = res["error"].as_f64().unwrap();
        eprintln!(
            "{:36} our error {mine:.6e}, Siconos's fc3d_compute_error {theirs:.6e} (rounding {floor:.1e})",
            name(path)
        );
        assert!(
            theirs <= 1e-8 + floor,
            "{}: Siconos finds {theirs}",
            path.display()
        );
        assert!(
            agree(*mine, theirs, *floor),
            "{}: ours {mine}, Siconos {theirs}",
            path.display()
        );
    }
    assert!(ours.len() >= 24);
    std::fs::remove_dir_all(&tmp).ok();
}
