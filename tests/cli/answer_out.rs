//! Issue 9: the command line keeps what it computes. `solve --out FILE` writes the answer
//! (`.json`, `.npy`, `.txt`); read back independently of the program, its error is
//! recomputed here from the problem and equals the one the program reported; Siconos 4.4
//! (`fc3d_compute_error`, through `scripts/siconos_driver.py error-fc3d`) accepts the
//! JSON answer at the same value. `--warm-start FILE` starts from a written answer (and
//! a converged one then costs no iteration); `--warm-start embedded` uses the answer a
//! file carries. Also: `--set` options, and the statistics in `--json` rows.
//!
//! The Siconos part is skipped with a notice when Siconos is not installed, unless
//! `NONSMOOTH_REQUIRE_SICONOS` is set.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::merit::{friction_error, lcp_error};
use serde_json::Value;

fn nonsmooth(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_answer_out_{name}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn rows(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Reads a written answer without the program: JSON `r`, NumPy header + little-endian
/// `f64`s, or one number per line.
fn read_back(path: &Path) -> Vec<f64> {
    let bytes = std::fs::read(path).unwrap();
    match path.extension().unwrap().to_str().unwrap() {
        "json" => {
            let v: Value = serde_json::from_slice(&bytes).unwrap();
            v["r"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        }
        "npy" => {
            assert!(bytes.starts_with(b"\x93NUMPY"));
            let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
            let header = std::str::from_utf8(&bytes[10..10 + header_len]).unwrap();
            assert!(header.contains("'descr': '<f8'"), "{header}");
            bytes[10 + header_len..]
                .chunks_exact(8)
                .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
                .collect()
        }
        _ => String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect(),
    }
}

/// The error of `r` recomputed from the problem file (the library's measure, not the
/// program's report).
fn recomputed(problem: &Path, r: &[f64]) -> f64 {
    let lp = load(problem).unwrap();
    let r = DVector::from_column_slice(r);
    match &lp.problem {
        AnyProblem::Friction(f) => friction_error(f, &r).rel,
        AnyProblem::Lcp(p) => lcp_error(p, &r).rel,
        _ => panic!("not used here"),
    }
}

fn files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v = vec![root.join("data/pyramid_3.json")];
    if let Some(f) = common::shared_file("siconos/fc3d/FC3D_Example1.dat") {
        v.push(f);
    }
    if let Some(f) = common::shared_file("siconos/lcp/lcp_deudeu.dat") {
        v.push(f);
    }
    v
}

#[test]
fn written_answers_read_back_to_the_reported_error() {
    let dir = tmp("formats");
    for problem in files() {
        for (method, ext) in [
            ("auto", "json"),
            ("auto", "npy"),
            ("auto", "txt"),
            ("prox-gs", "json"),
        ] {
            let out_file = dir.join(format!("answer.{ext}"));
            let _ = std::fs::remove_file(&out_file);
            let out = nonsmooth(&[
                "solve",
                problem.to_str().unwrap(),
                "--method",
                method,
                "--json",
                "--out",
                out_file.to_str().unwrap(),
            ]);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}: {}",
                problem.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            let row = &rows(&out)[0];
            let r = read_back(&out_file);
            assert_eq!(r.len(), row["n"].as_u64().unwrap() as usize);
            let e = recomputed(&problem, &r);
            let reported = row["error"].as_f64().unwrap();
            // The answer is written bit for bit; the error recomputed from `W r + q` may
            // differ from the reported one in the last digits only (NSGS forms `u` block
            // by block, in another summation order).
            assert!(
                (e - reported).abs() <= 1e-6 * reported + 1e-17,
                "{} {ext}: recomputed {e}, reported {reported}",
                problem.display()
            );
            assert!(e <= 1e-8);
            if ext == "json" {
                let v: Value = serde_json::from_slice(&std::fs::read(&out_file).unwrap()).unwrap();
                assert_eq!(v["status"], "converged");
                assert_eq!(v["error"]["rel"].as_f64().unwrap(), reported);
                assert_eq!(v["u"].as_array().unwrap().len(), r.len());
                assert_eq!(v["method"], row["method"]);
                let contacts = row["contacts"].as_u64().unwrap() as usize;
                assert_eq!(v["contacts"].as_array().unwrap().len(), contacts);
            }
        }
    }
}

#[test]
fn a_written_answer_is_a_warm_start() {
    let dir = tmp("warm");
    let problem = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/box_stack_5.json");
    let p = problem.to_str().unwrap();
    let answer = dir.join("a.npy");
    let cold = nonsmooth(&["solve", p, "--json", "--out", answer.to_str().unwrap()]);
    let cold = &rows(&cold)[0];
    assert!(cold["iterations"].as_u64().unwrap() > 10);
    let warm = nonsmooth(&[
        "solve",
        p,
        "--json",
        "--warm-start",
        answer.to_str().unwrap(),
    ]);
    assert_eq!(warm.status.code(), Some(0));
    let warm = &rows(&warm)[0];
    assert_eq!(
        warm["iterations"], 0,
        "a converged start costs no iteration"
    );
    // the same answer measured again (auto's stages measure `u` block by block, in
    // another summation order than the warm start's check): equal to rounding
    let (we, ce) = (
        warm["error"].as_f64().unwrap(),
        cold["error"].as_f64().unwrap(),
    );
    assert!((we - ce).abs() <= 1e-6 * ce, "{we} vs {ce}");
    // a start of the wrong length is refused, not truncated
    let short = dir.join("short.txt");
    std::fs::write(&short, "1\n2\n3\n").unwrap();
    let out = nonsmooth(&["solve", p, "--warm-start", short.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("3 numbers"));
    // the answer embedded in a file that carries none is an error
    let out = nonsmooth(&["solve", p, "--warm-start", "embedded"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("carries no answer"));
}

#[test]
fn embedded_answers_are_warm_starts() {
    let Some(f) = common::shared_file("mujoco/box_stack4_elliptic.json")
        .or_else(|| common::shared_file("mujoco/mujoco_box_stack4_elliptic.json"))
    else {
        return;
    };
    let out = nonsmooth(&[
        "solve",
        f.to_str().unwrap(),
        "--json",
        "--warm-start",
        "embedded",
    ]);
    let row = &rows(&out)[0];
    assert_eq!(
        row["status"],
        "converged",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn out_refuses_what_it_cannot_do() {
    let dir = tmp("refuse");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let a = root.join("data/pyramid_3.json");
    let b = root.join("data/wall_3x2.json");
    // two problems, one answer file
    let out = nonsmooth(&[
        "solve",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        dir.join("x.json").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("takes one problem"));
    // an extension with no format
    let out = nonsmooth(&[
        "solve",
        a.to_str().unwrap(),
        "--out",
        dir.join("x.csv").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(".npy"));
    // the input itself
    let copy = dir.join("p.json");
    std::fs::copy(&a, &copy).unwrap();
    let before = std::fs::read(&copy).unwrap();
    let out = nonsmooth(&[
        "solve",
        copy.to_str().unwrap(),
        "--out",
        copy.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        before,
        "the input is untouched"
    );
}

#[test]
fn options_are_set_and_checked_and_stats_are_reported() {
    let lcp = tmp("set").join("lcp.dat");
    std::fs::write(&lcp, "2 0 2 2 2 2 2 1 1 2 -5 -6\n").unwrap();
    let p = lcp.to_str().unwrap();
    // Lemke pivots from its own basis: a warm start is said to be unused, not dropped silently
    let start = tmp("set").join("start.txt");
    std::fs::write(&start, "1\n1\n").unwrap();
    let out = nonsmooth(&[
        "solve",
        p,
        "--method",
        "lemke",
        "--warm-start",
        start.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not use --warm-start"));
    let out = nonsmooth(&[
        "solve",
        p,
        "--method",
        "psor",
        "--set",
        "omega=1.5",
        "--json",
    ]);
    let row = &rows(&out)[0];
    assert_eq!(row["options"]["omega"], 1.5);
    assert_eq!(row["status"], "converged");
    for (args, message) in [
        (
            &["--method", "psor", "--set", "omega=2.5"][..],
            "outside (0, 2)",
        ),
        (
            &["--method", "psor", "--set", "omgea=1.5"][..],
            "has no option `omgea` (its options: omega)",
        ),
        (
            &["--method", "psor", "--set", "omega"][..],
            "expected key=value",
        ),
        (
            &["--method", "psor", "--set", "omega=fast"][..],
            "option `omega` of method `psor`",
        ),
        (
            &["--method", "prox-gs", "--set", "r_factor=nonsense"][..],
            "unknown r-factor strategy",
        ),
        (&["--method", "prox-gs", "--set", "window=0"][..], "window"),
    ] {
        let mut a = vec!["solve", p];
        a.extend_from_slice(args);
        let out = nonsmooth(&a);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn methods_lists_every_method_with_its_options() {
    let out = nonsmooth(&["methods", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let rows = rows(&out);
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, nonsmooth::registry::names());
    for r in &rows {
        assert!(r["options"].is_object(), "{r}");
        assert!(!r["applies_to"].as_array().unwrap().is_empty());
    }
}

#[test]
fn siconos_accepts_the_written_answer() {
    let Some(problem) = common::shared_file("siconos/fc3d/Capsules-i100-889.dat") else {
        return;
    };
    let ok = Command::new("/usr/bin/python3")
        .args(["-c", "import siconos.numerics"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        assert!(
            std::env::var_os("NONSMOOTH_REQUIRE_SICONOS").is_none(),
            "Siconos is required"
        );
        eprintln!("skipping: Siconos not installed (apt-get install python3-siconos)");
        return;
    }
    let answer = tmp("siconos").join("answer.json");
    for method in ["nsgs", "nsn"] {
        let out = nonsmooth(&[
            "solve",
            problem.to_str().unwrap(),
            "--method",
            method,
            "--json",
            "--out",
            answer.to_str().unwrap(),
        ]);
        let reported = rows(&out)[0]["error"].as_f64().unwrap();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/siconos_driver.py");
        let s = Command::new("/usr/bin/python3")
            .arg(script)
            .arg("error-fc3d")
            .arg(&problem)
            .arg(&answer)
            .output()
            .unwrap();
        assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
        let v: Value = serde_json::from_str(String::from_utf8_lossy(&s.stdout).trim()).unwrap();
        let theirs = v["error"].as_f64().unwrap();
        assert!(theirs <= 1e-8, "{method}: Siconos measures {theirs}");
        assert!(
            (theirs - reported).abs() <= 1e-3 * reported + 1e-15,
            "{method}: Siconos {theirs}, ours {reported}"
        );
    }
}

/// `--set jacobian=NAME` takes a bare kink strategy (the other fields at their defaults),
/// the object form still works, and a wrong value gets a message naming the accepted
/// values instead of a raw serde error.
#[test]
fn set_takes_a_bare_kink_strategy_for_the_jacobian() {
    let lcp = tmp("jacobian").join("lcp.dat");
    std::fs::write(&lcp, "2 0 2 2 2 2 2 1 1 2 -5 -6\n").unwrap();
    let p = lcp.to_str().unwrap();
    use nonsmooth::newton::{JacobianOptions, KinkStrategy};
    for (value, kink, kink_tol) in [
        ("random", KinkStrategy::Random { seed: 0 }, 1e-28),
        ("zero", KinkStrategy::Zero, 1e-28),
        (
            r#"{"kink": {"random": {"seed": 7}}, "kink_tol": 1e-20}"#,
            KinkStrategy::Random { seed: 7 },
            1e-20,
        ),
    ] {
        let set = format!("jacobian={value}");
        let args = [
            "solve",
            p,
            "--method",
            "fischer-newton",
            "--set",
            &set,
            "--json",
        ];
        let out = nonsmooth(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{set}: {err}");
        let row = &rows(&out)[0];
        assert_eq!(row["status"], "converged", "{set}");
        // the row echoes the setting; read as the method's option it is this one
        let typed: JacobianOptions = serde_json::from_value(row["options"]["jacobian"].clone())
            .unwrap_or_else(|e| panic!("{set}: {e}"));
        assert_eq!(typed, JacobianOptions { kink, kink_tol }, "{set}");
    }
    for (value, message) in [
        ("sideways", "expected fixed, random, perturbation or zero"),
        ("3", "jacobian=random"),
        (r#"{"kink": "random", "tol": 1}"#, "unknown field `tol`"),
    ] {
        let set = format!("jacobian={value}");
        let out = nonsmooth(&["solve", p, "--method", "fischer-newton", "--set", &set]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{set}: {err}");
        assert!(
            err.contains("option `jacobian` of method `fischer-newton`"),
            "{err}"
        );
        assert!(err.contains(message), "{set}: {err}");
        assert!(!err.contains("expected struct"), "{set}: {err}");
    }
}
