//! Exchange with Python: a problem written as a NumPy folder reads back in `numpy` with the
//! same numbers, and arrays saved by `numpy.save` (C and Fortran order) read into the same
//! problem. Runs where `/usr/bin/python3` has numpy (CI installs it with python3-siconos);
//! skipped with a notice elsewhere.

use nonsmooth::io::numpy::folder;

use std::path::PathBuf;
use std::process::Command;

use nalgebra::{DMatrix, DVector};
use nonsmooth::io::{AnyProblem, load};
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
    folder::write(
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

/// Issue 8: `convert --to numpy` made every matrix dense, so a 30-byte OpenTissue folder
/// declaring n = 2^20 asked for 8.8 TB and aborted. It is refused (exit status 1) with a
/// message naming the size and the cap, and nothing is written.
#[test]
fn convert_refuses_a_matrix_too_large_to_write_dense() {
    let dir = tmp("huge");
    let input = dir.join("ot");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(input.join("A.dlm"), "1048576 1048576 1\n0 0 1\n").unwrap();
    std::fs::write(input.join("b.dlm"), "1048576\n0 -1\n").unwrap();
    let out = dir.join("out");
    let run = Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
        .arg("convert")
        .arg(&input)
        .args(["--to", "numpy", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "{}: cannot be converted: the NumPy writer (A.npy) needs a dense 1048576 x 1048576 matrix",
            input.display()
        )),
        "{err}"
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 8: converting into a folder that held another problem left its arrays, read back
/// as the old problem; a folder holding anything else is refused (exit status 2) and left
/// as it was.
#[test]
fn convert_replaces_a_problem_folder_and_refuses_others() {
    let dir = tmp("replace");
    let lcp = dir.join("lcp.dat");
    std::fs::write(&lcp, "2 0 2 2 2 2 2 1 1 2 -5 -6\n").unwrap();
    let out = dir.join("out");
    let convert = |input: &PathBuf| {
        Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
            .arg("convert")
            .arg(input)
            .args(["--to", "numpy", "-o"])
            .arg(&out)
            .output()
            .unwrap()
    };
    let p = FrictionContact::new(
        Matrix::Dense(DMatrix::from_diagonal_element(3, 3, 2.0)),
        DVector::from_vec(vec![-1.0, 0.0, 0.0]),
        DVector::from_vec(vec![0.5]),
        FrictionKind::Coulomb,
    )
    .unwrap();
    let answer = EngineAnswer {
        source: "test".into(),
        r: vec![0.5, 0.0, 0.0],
        u: None,
    };
    folder::write(&out, "fc", &AnyProblem::Friction(p), Some(&answer)).unwrap();
    assert!(out.join("W.npy").exists());
    let second = convert(&lcp);
    assert!(
        second.status.success(),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    assert!(!out.join("W.npy").exists(), "a stale W.npy was left");
    assert!(!out.join("r.npy").exists(), "a stale r.npy was left");
    let back = load(&out).unwrap();
    assert_eq!(back.problem.type_name(), "lcp");
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let third = convert(&lcp);
    let err = String::from_utf8_lossy(&third.stderr);
    assert_eq!(third.status.code(), Some(2), "{err}");
    assert!(err.contains("the folder holds `notes.txt`"), "{err}");
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(out.join("A.npy").exists());
    std::fs::remove_dir_all(&dir).ok();
}

/// Arrays numpy writes in every layout the reader accepts: big-endian, Fortran order,
/// format versions 2.0 and 3.0; and the dtype errors for arrays numpy makes easily.
#[test]
fn numpy_layouts_and_dtypes() {
    if !numpy_available() {
        return;
    }
    let dir = tmp("layouts");
    let code = format!(
        "import numpy as np\nfrom numpy.lib import format as fmt\nd='{}'\n\
         W=np.array([[4.0,1.0,0.0],[1.0,5.0,0.5],[0.0,0.5,6.0]])\n\
         np.save(d+'/W.npy', np.asfortranarray(W).astype('>f8'))\n\
         f=open(d+'/q.npy','wb'); fmt.write_array(f, np.array([-1.0,0.25,0.0]), version=(2,0)); f.close()\n\
         f=open(d+'/mu.npy','wb'); fmt.write_array(f, np.array([0.3]), version=(3,0)); f.close()\n",
        dir.display()
    );
    python(&code).unwrap();
    let lp = load(&dir).unwrap();
    let AnyProblem::Friction(p) = &lp.problem else {
        panic!("not fc3d")
    };
    assert_eq!(p.w().get(0, 1), 1.0);
    assert_eq!(p.w().get(1, 2), 0.5);
    assert_eq!(p.w().get(2, 2), 6.0);
    assert_eq!(p.q().as_slice(), &[-1.0, 0.25, 0.0]);
    for (save, says) in [
        (
            "np.save(d+'/W.npy', np.eye(3, dtype=np.float32))",
            "W.npy: `descr`: the array is float32 ('<f4'); expected float64 ('<f8')",
        ),
        (
            "np.save(d+'/W.npy', np.eye(3, dtype=np.int64))",
            "W.npy: `descr`: the array is int64 ('<i8'); expected float64 ('<f8')",
        ),
        (
            "np.save(d+'/W.npy', np.eye(3, dtype=bool))",
            "W.npy: `descr`: the array is bool ('|b1'); expected float64 ('<f8')",
        ),
        (
            "np.save(d+'/W.npy', np.array([[1.0, 'a', None]]*3, dtype=object), allow_pickle=True)",
            "the array is of dtype object (pickled Python objects) ('|O')",
        ),
        (
            "np.save(d+'/W.npy', np.eye(3, dtype=complex))",
            "the array is complex128 ('<c16')",
        ),
        (
            "np.save(d+'/W.npy', np.zeros(3, dtype=[('x','<f8'),('y','<f8')]))",
            "header: `descr` is a list: a structured dtype",
        ),
        (
            "np.save(d+'/W.npy', np.array([['a']*3]*3))",
            "the array is of unicode strings ('<U1')",
        ),
        (
            "np.save(d+'/W.npy', np.ones(9))",
            "W.npy: `shape`: W.npy holds a 1-dimensional array of shape (9,); a 2-dimensional one is required",
        ),
    ] {
        python(&format!(
            "import numpy as np\nd='{}'\n{save}\n",
            dir.display()
        ))
        .unwrap();
        let e = load(&dir).unwrap_err().to_string();
        assert!(e.contains(says), "{save}: {e}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A version-1.0 `.npy` file with this header text and data, as a hand-made file would be.
fn npy_bytes(header: &str, data: &[u8]) -> Vec<u8> {
    let mut h = header.as_bytes().to_vec();
    h.push(b'\n');
    let mut v = b"\x93NUMPY\x01\x00".to_vec();
    v.extend((h.len() as u16).to_le_bytes());
    v.extend(h);
    v.extend(data);
    v
}

fn le(x: &[f64]) -> Vec<u8> {
    x.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// An fc3d folder (one contact) whose `W.npy` holds `w_npy`; what `load` says about it.
fn load_with_w(tag: &str, w_npy: &[u8]) -> String {
    let dir = tmp(tag);
    let w = DMatrix::from_diagonal_element(3, 3, 2.0);
    let p = FrictionContact::new(
        Matrix::Dense(w),
        DVector::from_vec(vec![-1.0, 0.0, 0.0]),
        DVector::from_vec(vec![0.5]),
        FrictionKind::Coulomb,
    )
    .unwrap();
    folder::write(&dir, tag, &AnyProblem::Friction(p), None).unwrap();
    std::fs::write(dir.join("W.npy"), w_npy).unwrap();
    let r = load(&dir).map(|lp| lp.problem.type_name());
    std::fs::remove_dir_all(&dir).ok();
    match r {
        Ok(t) => panic!("{tag}: read as {t}"),
        Err(e) => e.to_string(),
    }
}

const NINE: [f64; 9] = [2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0];

fn header(shape: &str) -> String {
    format!("{{'descr': '<f8', 'fortran_order': False, 'shape': {shape}, }}")
}

/// Issue 8, through the folder reader: `)` before `(` in `shape` panicked on a string
/// slice.
#[test]
fn npy_reversed_parentheses_are_an_error() {
    let e = load_with_w("parens", &npy_bytes(&header(")3, 3("), &le(&NINE)));
    assert!(e.contains("W.npy: header: `shape` is `)3, 3(`"), "{e}");
}

/// Issue 8: with two `shape` keys the check read the first and ndarray-npy allocated
/// from the last (1e11 x 6: an abort asking for 4.8 TB).
#[test]
fn npy_shape_given_twice_is_an_error() {
    let e = load_with_w(
        "twice",
        &npy_bytes(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 3), 'shape': (100000000000, 6), }",
            &le(&NINE),
        ),
    );
    assert!(e.ends_with("W.npy: header: `shape` appears twice"), "{e}");
}

/// Issue 8: a 200-byte `W.npy` whose `descr` nests 40 lists made ndarray-npy's header
/// parser take exponential time; it is refused at once.
#[test]
fn npy_nested_descr_is_refused() {
    let deep = format!(
        "{{'descr': {}'<f8'{}, 'fortran_order': False, 'shape': (3, 3), }}",
        "[".repeat(40),
        "]".repeat(40)
    );
    let e = load_with_w("nested", &npy_bytes(&deep, &le(&NINE)));
    assert!(
        e.contains("W.npy: header: `descr` is a list: a structured dtype"),
        "{e}"
    );
}

/// Issue 8: a float32 array was reported as "the file holds fewer elements".
#[test]
fn npy_float32_is_named() {
    let f4: Vec<u8> = NINE
        .iter()
        .flat_map(|&v| (v as f32).to_le_bytes())
        .collect();
    let e = load_with_w(
        "f4",
        &npy_bytes(
            "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 3), }",
            &f4,
        ),
    );
    assert!(
        e.contains("W.npy: `descr`: the array is float32 ('<f4'); expected float64 ('<f8')"),
        "{e}"
    );
}

/// The rank must be that of the array's role.
#[test]
fn npy_wrong_rank_is_named() {
    let e = load_with_w("rank", &npy_bytes(&header("(9,)"), &le(&NINE)));
    assert!(
        e.contains(
            "W.npy holds a 1-dimensional array of shape (9,); a 2-dimensional one is required"
        ),
        "{e}"
    );
}

/// The data must be exactly as long as the shape says: bytes missing or left over.
#[test]
fn npy_data_length_must_match() {
    let nine = le(&NINE);
    let e = load_with_w("short", &npy_bytes(&header("(3, 3)"), &nine[..64]));
    assert!(
        e.contains("W.npy: data: ") && e.contains("8 bytes are missing"),
        "{e}"
    );
    let mut long = nine.clone();
    long.extend([0u8; 3]);
    let e = load_with_w("long", &npy_bytes(&header("(3, 3)"), &long));
    assert!(e.contains("3 bytes too many after the array"), "{e}");
}

/// A float `dep.npy` is named as such.
#[test]
fn a_float_dep_array_is_an_error() {
    let dir = tmp("dep");
    let n = |x: &[f64]| {
        npy_bytes(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }",
            &le(x),
        )
    };
    std::fs::write(
        dir.join("A.npy"),
        npy_bytes(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }",
            &le(&[1.0, 0.0, 0.0, 1.0]),
        ),
    )
    .unwrap();
    std::fs::write(dir.join("b.npy"), n(&[-1.0, 0.5])).unwrap();
    std::fs::write(dir.join("lo.npy"), n(&[0.0, 0.0])).unwrap();
    std::fs::write(dir.join("hi.npy"), n(&[1.0, 0.0])).unwrap();
    std::fs::write(dir.join("factor.npy"), n(&[0.0, 0.5])).unwrap();
    std::fs::write(dir.join("dep.npy"), n(&[-1.0, 0.0])).unwrap();
    let e = load(&dir).unwrap_err().to_string();
    assert!(
        e.contains("dep.npy: `descr`: float64 where int64 is required"),
        "{e}"
    );
    let ints: Vec<u8> = [-1i64, 0].iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(
        dir.join("dep.npy"),
        npy_bytes(
            "{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }",
            &ints,
        ),
    )
    .unwrap();
    assert_eq!(load(&dir).unwrap().problem.type_name(), "boxed-lcp");
    std::fs::remove_dir_all(&dir).ok();
}
