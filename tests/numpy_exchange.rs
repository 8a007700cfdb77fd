//! Exchange with Python: a problem written as a NumPy folder reads back in `numpy` with the
//! same numbers, and arrays saved by `numpy.save` (C and Fortran order) read into the same
//! problem. Runs where `/usr/bin/python3` has numpy (CI installs it with python3-siconos);
//! skipped with a notice elsewhere.

use std::path::PathBuf;
use std::process::Command;

use nalgebra::{DMatrix, DVector};
use nonsmooth::io::{AnyProblem, load, npy};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::{EngineAnswer, FrictionContact, FrictionKind};

fn python(code: &str) -> Option<String> {
    let out = Command::new("/usr/bin/python3")
        .args(["-c", code])
        .output()
        .ok()?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        if err.contains("No module named 'numpy'") {
            return None;
        }
        panic!("python failed: {err}");
    }
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn numpy_available() -> bool {
    let ok = python("import numpy").is_some();
    if !ok {
        if std::env::var_os("NONSMOOTH_REQUIRE_SICONOS").is_some() {
            panic!("numpy is required (NONSMOOTH_REQUIRE_SICONOS is set) but not importable");
        }
        eprintln!("skipping: /usr/bin/python3 with numpy not found");
    }
    ok
}

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nonsmooth-numpy-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn our_folder_reads_in_numpy() {
    if !numpy_available() {
        return;
    }
    let dir = tmp("out");
    let w = DMatrix::from_fn(6, 6, |i, j| {
        if i == j {
            2.0 + i as f64
        } else {
            1.0 / (1.0 + (i + 2 * j) as f64)
        }
    });
    let w = (&w + w.transpose()) * 0.5;
    let fc = FrictionContact::new(
        Matrix::Dense(w.clone()),
        DVector::from_fn(6, |i, _| (i as f64 - 2.5) / 3.0),
        DVector::from_vec(vec![0.3, 0.7]),
        FrictionKind::Coulomb,
    )
    .unwrap();
    let answer = EngineAnswer {
        source: "test".into(),
        r: vec![1.0, 0.1, 0.0, 0.5, 0.0, -0.2],
        u: None,
    };
    npy::write(
        &dir,
        "exchange",
        &AnyProblem::Friction(fc.clone()),
        Some(&answer),
    )
    .unwrap();
    let code = format!(
        "import numpy as np, json\nd='{}'\nW=np.load(d+'/W.npy'); q=np.load(d+'/q.npy'); r=np.load(d+'/r.npy')\nprint(json.dumps({{'shape': W.shape, 'u': list(W@r+q), 'mu': list(np.load(d+'/mu.npy'))}}))",
        dir.display()
    );
    let out = python(&code).unwrap();
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["shape"], serde_json::json!([6, 6]));
    let u_numpy: Vec<f64> = v["u"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let u_ours = fc.velocity(&DVector::from_vec(answer.r.clone()));
    for (a, b) in u_numpy.iter().zip(u_ours.iter()) {
        assert!((a - b).abs() <= 1e-14 * (1.0 + b.abs()), "{a} vs {b}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn numpy_saved_arrays_read_here() {
    if !numpy_available() {
        return;
    }
    for order in ["C", "F"] {
        let dir = tmp(order);
        let code = format!(
            "import numpy as np\nd='{}'\nrng=np.random.default_rng(3)\nB=rng.standard_normal((9,9))\nW=np.asarray(B@B.T+np.eye(9), order='{order}')\nnp.save(d+'/W.npy', W)\nnp.save(d+'/q.npy', rng.standard_normal(9))\nnp.save(d+'/mu.npy', np.array([0.1,0.5,0.9]))\nprint(repr(float(W[1,4])), repr(float(W[4,1])), repr(float(W[0,8])))",
            dir.display()
        );
        let out = python(&code).unwrap();
        let vals: Vec<f64> = out.split_whitespace().map(|t| t.parse().unwrap()).collect();
        let lp = load(&dir).unwrap();
        let AnyProblem::Friction(p) = &lp.problem else {
            panic!("not fc3d")
        };
        assert_eq!(p.contacts(), 3);
        assert_eq!(p.w().get(1, 4), vals[0], "order {order}");
        assert_eq!(p.w().get(4, 1), vals[1]);
        assert_eq!(p.w().get(0, 8), vals[2]);
        std::fs::remove_dir_all(&dir).ok();
    }
}
