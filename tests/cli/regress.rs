//! Defects of the command line found by trying it (issue 9), each run through the built
//! `nonsmooth` binary: `--kind` on a problem without a friction law was ignored without a
//! word, a NumPy folder without `meta.json` was read as Coulomb without a word, and
//! `check --answer` refused an `.npy` answer.

use crate::program::{stderr, stdout};
use nonsmooth::io::numpy::{folder, header};

use crate::common;

use std::path::{Path, PathBuf};

use nalgebra::{DMatrix, DVector};
use nonsmooth::io::AnyProblem;
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::{BoxedLcp, FrictionKind, Lcp, RowBound};
use nonsmooth::registry::{Choice, measure, solve};
use nonsmooth::solver::{Params, no_observer};

/// `A = [[2, 1], [1, 2]]`, `b = [-5, -6]` as a Siconos LCP file.
fn lcp_file(dir: &Path) -> PathBuf {
    let p = dir.join("lcp.dat");
    std::fs::write(&p, "2 0 2 2 2 2 2 1 1 2 -5 -6\n").unwrap();
    p
}

/// A two-row boxed LCP as a NumPy folder.
fn boxed_folder(dir: &Path) -> PathBuf {
    let p = dir.join("boxed");
    let a = Matrix::Dense(DMatrix::from_row_slice(2, 2, &[2.0, 0.5, 0.5, 2.0]));
    let b = BoxedLcp::new(
        a,
        DVector::from_vec(vec![-1.0, 0.3]),
        vec![
            RowBound::Fixed {
                lo: 0.0,
                hi: f64::INFINITY,
            },
            RowBound::Friction {
                dep: 0,
                factor: 0.5,
            },
        ],
    )
    .unwrap();
    folder::write(&p, "boxed", &AnyProblem::Boxed(b), None).unwrap();
    p
}

fn refusal(path: &Path, holds: &str, ty: &str, kind: &str) -> String {
    format!(
        "nonsmooth: {}: holds {holds} (type {ty}); --kind {kind} applies only to friction \
         problems (fc3d, gfc3d, gmp)",
        path.display()
    )
}

/// `--kind` on an LCP or a boxed LCP is refused by `solve` and `check` (exit status 1,
/// the path, what it holds and why on standard error), not ignored.
#[test]
fn kind_on_a_problem_without_friction_is_refused() {
    let dir = tmp!("kind");
    let lcp = lcp_file(&dir);
    let boxed = boxed_folder(&dir);
    for (path, holds, ty) in [
        (&lcp, "an LCP", "lcp"),
        (&boxed, "a boxed LCP", "boxed-lcp"),
    ] {
        for kind in ["coulomb", "ccp"] {
            let o = run!("solve", "--kind", kind, "--json", path);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{err}");
            assert!(err.contains(&refusal(path, holds, ty, kind)), "{err}");
            let row: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
            assert_eq!(row["status"], "invalid");
            assert_eq!(row["iterations"], serde_json::Value::Null);
            assert!(
                row["message"]
                    .as_str()
                    .unwrap()
                    .contains("applies only to friction problems")
            );

            // an answer that solves the problem: refused all the same, before it is read
            let o = run!("check", "--kind", kind, "--answer", "/dev/null", path);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{err}");
            assert_eq!(err.trim_end(), refusal(path, holds, ty, kind));
            assert!(o.stdout.is_empty());
        }
        // without --kind the same problems are solved
        let o = run!("solve", path);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// In a folder of several problems, `--kind` is refused per problem, as an unreadable file
/// is: the LCP's row says `invalid`, the friction problem is solved under the law asked
/// for, and the exit status is 1.
#[test]
fn kind_in_a_folder_refuses_only_the_problems_without_friction() {
    let dir = tmp!("kind-folder");
    let lcp = lcp_file(&dir);
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("data/box_stack_5.json"),
        dir.join("box_stack_5.json"),
    )
    .unwrap();
    let o = run!("solve", "--kind", "ccp", "--json", "-q", &dir);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&refusal(&lcp, "an LCP", "lcp", "ccp")),
        "{err}"
    );
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["file"], "box_stack_5.json");
    assert_eq!(rows[0]["kind"], "ccp");
    assert_eq!(rows[0]["status"], "converged");
    assert_eq!(rows[1]["file"], "lcp.dat");
    assert_eq!(rows[1]["status"], "invalid");
    std::fs::remove_dir_all(&dir).ok();
}

/// The library refuses the same: a friction law asked of an LCP
/// ([`AnyProblem::with_kind`]) is an error, and the LCP is then solved as an LCP.
#[test]
fn library_refuses_a_law_for_an_lcp() {
    let make = || {
        AnyProblem::Lcp(
            Lcp::new(
                Matrix::Dense(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0])),
                DVector::from_vec(vec![-5.0, -6.0]),
            )
            .unwrap(),
        )
    };
    let lcp = make();
    for method in ["auto", "lemke", "pgs"] {
        let method: Choice = method.parse().unwrap();
        let o = solve(
            &lcp,
            &method,
            DVector::zeros(2),
            &Params::default(),
            &mut no_observer(),
        );
        assert_eq!(o.status(), "converged");
    }
    let x = DVector::zeros(2);
    assert!(measure(&lcp, &x).is_ok());
    for kind in [FrictionKind::Coulomb, FrictionKind::Ccp] {
        let e = make().with_kind(Some(kind)).unwrap_err().to_string();
        assert!(
            e.contains(&format!(
                "friction law `{}` asked for a problem of type lcp",
                kind.name()
            )),
            "{e}"
        );
    }
}

/// A NumPy folder of a friction problem without a law says which law it assumed, on
/// standard error and in `LoadedProblem::warnings`; with `"law"` in `meta.json` it is
/// silent; a law in the folder of an LCP is ignored with a warning.
#[test]
fn numpy_folder_without_a_law_says_which_it_assumed() {
    let dir = tmp!("meta");
    let folder = dir.join("stack");
    let o = run!(
        "convert",
        "data/box_stack_5.json",
        "--to",
        "numpy",
        "-o",
        &folder
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let meta = folder.join("meta.json");

    // as written: the law is stated, nothing to say
    let lp = nonsmooth::io::load(&folder).unwrap();
    assert!(lp.warnings.is_empty(), "{:?}", lp.warnings);
    let o = run!("info", &folder);
    assert_eq!(o.status.code(), Some(0));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));

    // no meta.json
    std::fs::remove_file(&meta).unwrap();
    let expected = format!(
        "no meta.json; friction law assumed coulomb (write {{\"law\": \"ccp\"}} or \
         {{\"law\": \"coulomb\"}} in {} to choose)",
        meta.display()
    );
    let lp = nonsmooth::io::load(&folder).unwrap();
    assert_eq!(lp.warnings, vec![expected.clone()]);
    for sub in ["solve", "info"] {
        let o = run!(sub, &folder);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!(
                "nonsmooth: warning: {}: {expected}",
                folder.display()
            )),
            "{sub}: {}",
            stderr(&o)
        );
    }

    // meta.json without "law", and with "law": null
    for text in [r#"{"name": "stack"}"#, r#"{"law": null}"#] {
        std::fs::write(&meta, text).unwrap();
        let lp = nonsmooth::io::load(&folder).unwrap();
        assert_eq!(
            lp.warnings,
            vec![format!(
                "meta.json has no `law`; friction law assumed coulomb (add \"law\": \"ccp\" or \
                 \"law\": \"coulomb\" to {} to choose)",
                meta.display()
            )],
            "{text}"
        );
    }

    // the law stated: no warning, and the law is used
    std::fs::write(&meta, r#"{"law": "ccp"}"#).unwrap();
    let o = run!("solve", "--json", &folder);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    let row: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(row["kind"], "ccp");

    // an LCP folder: no law needed, none assumed; a law given is ignored, and said so
    let lcp_dir = dir.join("lcp");
    let o = run!("convert", &lcp_file(&dir), "--to", "numpy", "-o", &lcp_dir);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::remove_file(lcp_dir.join("meta.json")).ok();
    assert!(nonsmooth::io::load(&lcp_dir).unwrap().warnings.is_empty());
    std::fs::write(lcp_dir.join("meta.json"), r#"{"law": "ccp"}"#).unwrap();
    assert_eq!(
        nonsmooth::io::load(&lcp_dir).unwrap().warnings,
        vec![
            "meta.json: `law` is ccp, but the folder holds an LCP, which has no friction law; \
             the law is ignored"
                .to_string()
        ]
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The `.npy` bytes of an array with any `descr` and shape (`data` little-endian `f64`s).
fn npy_bytes(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

/// `check --answer` reads a 1-D `float64` `.npy` answer (either byte order, by extension
/// or by its first bytes) and judges it as the same numbers in JSON; a wrong length,
/// dtype or rank is an input error (exit 1) that says which.
#[test]
fn check_reads_an_npy_answer() {
    let dir = tmp!("npy-answer");
    let r = common::static_box_stack_answer();
    let npy = dir.join("r.npy");
    std::fs::write(&npy, header::vector_to_npy(&r)).unwrap();
    let json = dir.join("r.json");
    std::fs::write(&json, serde_json::json!({ "r": r }).to_string()).unwrap();
    let big = dir.join("big_endian.npy");
    let be: Vec<u8> = r.iter().flat_map(|x| x.to_be_bytes()).collect();
    std::fs::write(&big, npy_bytes(">f8", "(60,)", &be)).unwrap();
    // numpy.save's bytes under another name: recognised by the magic
    let other_name = dir.join("answer.bin");
    std::fs::write(&other_name, header::vector_to_npy(&r)).unwrap();

    let judged = |answer: &Path| {
        let o = run!(
            "check",
            "data/box_stack_5.json",
            "--json",
            "--answer",
            answer
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let mut v: serde_json::Value =
            serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
        assert_eq!(v["verdict"], "consistent");
        v["answer_source"] = serde_json::Value::Null;
        (
            v,
            stdout(&o)
                .lines()
                .skip(1)
                .map(String::from)
                .collect::<Vec<_>>(),
        )
    };
    let from_json = judged(&json);
    for answer in [&npy, &big, &other_name] {
        assert_eq!(judged(answer), from_json, "{}", answer.display());
    }

    let le = |v: &[f64]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        (
            "short.npy",
            header::vector_to_npy(&r[..59]),
            "the answer has 59 numbers, the problem 60 unknowns".into(),
        ),
        (
            "float32.npy",
            npy_bytes("<f4", "(60,)", &[0u8; 240]),
            "`descr`: the array is float32 ('<f4'); expected float64 ('<f8')".into(),
        ),
        (
            "column.npy",
            npy_bytes("<f8", "(60, 1)", &le(&r)),
            "`shape`: column.npy holds a 2-dimensional array of shape (60, 1); a \
             1-dimensional one is required"
                .into(),
        ),
        (
            "nan.npy",
            header::vector_to_npy(&[f64::NAN; 60]),
            "entry 0 of the answer is NaN, not a finite number".into(),
        ),
        (
            "text.npy",
            b"0 0 0\n".to_vec(),
            "header: not a .npy file".into(),
        ),
    ];
    for (name, bytes, why) in cases {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        let o = run!("check", "data/box_stack_5.json", "--answer", &p);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{name}: {err}");
        assert!(
            err.starts_with(&format!("nonsmooth: {}: {why}", p.display())),
            "{name}: {err}"
        );
        assert!(o.stdout.is_empty(), "{name}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
