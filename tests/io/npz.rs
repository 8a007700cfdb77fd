//! The NumPy `.npz` format (src/io/npz.rs): exact round trips for every problem type,
//! dense and sparse; the layout Python's `zipfile` and `numpy.load` see; malformed
//! archives give errors, never panics.

use nonsmooth::io::numpy::{header, npz};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use nalgebra::{DMatrix, DVector};
use nonsmooth::io::{self, AnyProblem, Format, IoErrorKind, Provenance};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::{
    BoxedLcp, EngineAnswer, FrictionContact, FrictionKind, GlobalFrictionContact, Lcp,
};

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nonsmooth-npz-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn bits(m: &Matrix) -> (bool, usize, usize, Vec<u64>) {
    let d = m.to_dense();
    (
        m.is_sparse(),
        d.nrows(),
        d.ncols(),
        d.iter().map(|v| v.to_bits()).collect(),
    )
}

fn vbits(v: &DVector<f64>) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn sparse_w() -> Matrix {
    // Odd values, an explicit -0.0 and an explicit stored zero: all must survive.
    Matrix::from_triplets(
        6,
        6,
        &[
            (0, 0, 2.0),
            (1, 1, 1.0 / 3.0),
            (2, 2, 3.5),
            (3, 3, 1e-300),
            (4, 4, 7.0),
            (5, 5, 2.0),
            (0, 3, -0.25),
            (3, 0, -0.25),
            (2, 5, -0.0),
            (5, 2, 0.0),
        ],
    )
    .unwrap()
}

fn dense_w() -> Matrix {
    let w = DMatrix::from_fn(6, 6, |i, j| {
        if i == j {
            2.0 + i as f64
        } else {
            0.1 / (1.0 + (i + 2 * j) as f64)
        }
    });
    Matrix::Dense((&w + w.transpose()) * 0.5)
}

fn problems() -> Vec<(&'static str, AnyProblem)> {
    let mut out = Vec::new();
    for (tag, w) in [("dense", dense_w()), ("sparse", sparse_w())] {
        let q = DVector::from_fn(6, |i, _| -0.1 * i as f64 + 0.01);
        let mu = DVector::from_vec(vec![0.5, 0.3]);
        out.push((
            tag,
            AnyProblem::Friction(
                FrictionContact::new(w.clone(), q.clone(), mu.clone(), FrictionKind::Ccp).unwrap(),
            ),
        ));
        out.push((
            tag,
            AnyProblem::Lcp(Lcp::new(w.clone(), q.clone()).unwrap()),
        ));
        let lo = [0.0, f64::NEG_INFINITY, 0.0, 0.0, 0.0, -1.0];
        let hi = [f64::INFINITY, 0.0, 0.0, f64::INFINITY, 0.0, 1.0];
        let dep = [-1, -1, 0, -1, 3, -1];
        let factor = [0.0, 0.0, 0.5, 0.0, 0.25, 0.0];
        out.push((
            tag,
            AnyProblem::Boxed(
                BoxedLcp::from_opentissue(w.clone(), q.clone(), &lo, &hi, &dep, &factor).unwrap(),
            ),
        ));
        // A global problem: M SPD (dense or sparse), H 4 x 6.
        let m = match &w {
            Matrix::Dense(_) => Matrix::Dense(DMatrix::from_diagonal(&DVector::from_vec(vec![
                1.0, 2.0, 3.0, 0.5,
            ]))),
            Matrix::Sparse(_) => Matrix::from_triplets(
                4,
                4,
                &[
                    (0, 0, 1.0),
                    (1, 1, 2.0),
                    (2, 2, 3.0),
                    (3, 3, 0.5),
                    (0, 1, 0.1),
                    (1, 0, 0.1),
                ],
            )
            .unwrap(),
        };
        let h = match &w {
            Matrix::Dense(_) => Matrix::Dense(DMatrix::from_fn(4, 6, |i, j| (i + j) as f64 * 0.1)),
            Matrix::Sparse(_) => {
                Matrix::from_triplets(4, 6, &[(0, 0, 1.0), (1, 1, 1.0), (2, 2, 1.0), (3, 5, -1.0)])
                    .unwrap()
            }
        };
        out.push((
            tag,
            AnyProblem::Global(
                GlobalFrictionContact::new(
                    m,
                    h,
                    DVector::from_vec(vec![0.1, -0.2, 0.3, -9.81]),
                    DVector::from_fn(6, |i, _| 0.01 * i as f64),
                    mu.clone(),
                    FrictionKind::Coulomb,
                )
                .unwrap(),
            ),
        ));
    }
    out
}

fn same_problem(a: &AnyProblem, b: &AnyProblem) {
    match (a, b) {
        (AnyProblem::Friction(x), AnyProblem::Friction(y)) => {
            assert_eq!(bits(x.w()), bits(y.w()));
            assert_eq!(vbits(x.q()), vbits(y.q()));
            assert_eq!(vbits(x.mu()), vbits(y.mu()));
            assert_eq!(x.kind(), y.kind());
        }
        (AnyProblem::Global(x), AnyProblem::Global(y)) => {
            assert_eq!(bits(x.m()), bits(y.m()));
            assert_eq!(bits(x.h()), bits(y.h()));
            assert_eq!(vbits(x.q()), vbits(y.q()));
            assert_eq!(vbits(x.b()), vbits(y.b()));
            assert_eq!(vbits(x.mu()), vbits(y.mu()));
            assert_eq!(x.kind(), y.kind());
        }
        (AnyProblem::Lcp(x), AnyProblem::Lcp(y)) => {
            assert_eq!(bits(x.a()), bits(y.a()));
            assert_eq!(vbits(x.b()), vbits(y.b()));
        }
        (AnyProblem::Boxed(x), AnyProblem::Boxed(y)) => {
            assert_eq!(bits(x.a()), bits(y.a()));
            assert_eq!(vbits(x.b()), vbits(y.b()));
            assert_eq!(x.row_bounds(), y.row_bounds());
        }
        (x, y) => panic!("{} read back as {}", x.type_name(), y.type_name()),
    }
}

fn provenance(contacts: usize) -> Provenance {
    let mut p = Provenance {
        source: "test".into(),
        description: "a round trip".into(),
        ..Default::default()
    };
    p.units.insert("r".into(), "N s".into());
    p.labels = (0..contacts).map(|c| format!("contact {c}")).collect();
    p
}

#[test]
fn every_problem_type_round_trips_exactly() {
    let d = tmp("rt");
    for (k, (tag, p)) in problems().into_iter().enumerate() {
        for compression in [npz::Compression::Stored, npz::Compression::Deflated] {
            let path = d.join(format!("{k}_{tag}_{compression:?}.npz"));
            let prov = provenance(p.contacts());
            let ans = EngineAnswer {
                source: "engine".into(),
                r: (0..p.dim()).map(|i| i as f64 * 0.5 - 1.0).collect(),
                u: Some(vec![-0.0; p.dim()]),
            };
            npz::write(&path, "rt", &p, Some(&ans), &prov, compression).unwrap();
            let back = io::load(&path).unwrap();
            assert_eq!(back.format, Format::Npz);
            assert_eq!(back.name, "rt");
            same_problem(&p, &back.problem);
            let a = back.answer.expect("answer kept");
            assert_eq!(a.source, "engine");
            assert_eq!(a.r, ans.r);
            assert_eq!(
                a.u.unwrap().iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                vec![(-0.0f64).to_bits(); p.dim()]
            );
            assert_eq!(back.provenance, prov);
            assert!(back.warnings.is_empty(), "{:?}", back.warnings);
            // the same bytes from memory, and the same bytes on every write
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(
                npz::to_bytes("rt", &p, Some(&ans), &prov, compression).unwrap(),
                bytes
            );
            same_problem(&p, &npz::from_bytes(&path, &bytes).unwrap().problem);
        }
    }
    // detected by content under another name, and listed by discover
    let p = &problems()[0].1;
    let other = d.join("problem.bin");
    npz::write(
        &other,
        "x",
        p,
        None,
        &Provenance::default(),
        npz::Compression::Stored,
    )
    .unwrap();
    assert_eq!(io::load(&other).unwrap().format, Format::Npz);
    let found = io::discover(&d).unwrap();
    assert!(found.iter().all(|f| f.extension().unwrap() == "npz"));
    assert_eq!(found.len(), 16);
    std::fs::remove_dir_all(&d).unwrap();
}

/// An archive made by hand, member by member, as numpy.savez writes it.
fn archive(members: &[(&str, Vec<u8>)], deflate: bool) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opt = zip::write::SimpleFileOptions::default().compression_method(if deflate {
        zip::CompressionMethod::Deflated
    } else {
        zip::CompressionMethod::Stored
    });
    for (name, bytes) in members {
        zip.start_file(name.to_string(), opt).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn npy_i<T: ndarray_npy::WritableElement>(x: &[T]) -> Vec<u8> {
    use ndarray_npy::WriteNpyExt;
    let mut v = Vec::new();
    ndarray::ArrayView1::from(x).write_npy(&mut v).unwrap();
    v
}

fn f(x: &[f64]) -> Vec<u8> {
    header::vector_to_npy(x)
}

/// A valid sparse fc3d archive's members: W = diag(1, 2, 3) stored as CSR.
fn csr_members() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("W_data.npy", f(&[1.0, 2.0, 3.0])),
        ("W_indices.npy", npy_i(&[0i32, 1, 2])),
        ("W_indptr.npy", npy_i(&[0i64, 1, 2, 3])),
        ("W_shape.npy", npy_i(&[3i64, 3])),
        ("q.npy", f(&[-1.0, 0.0, 0.0])),
        ("mu.npy", f(&[0.5])),
    ]
}

fn read(members: &[(&str, Vec<u8>)]) -> Result<io::LoadedProblem, io::IoError> {
    npz::from_bytes(Path::new("t.npz"), &archive(members, false))
}

fn err_of(members: Vec<(&str, Vec<u8>)>) -> String {
    read(&members).expect_err("an error").to_string()
}

fn replace(name: &str, bytes: Vec<u8>) -> Vec<(&'static str, Vec<u8>)> {
    csr_members()
        .into_iter()
        .map(|(n, b)| {
            if n == name {
                (n, bytes.clone())
            } else {
                (n, b)
            }
        })
        .collect()
}

#[test]
fn hand_made_archives_read_as_scipy_means_them() {
    let lp = read(&csr_members()).unwrap();
    let AnyProblem::Friction(fc) = &lp.problem else {
        panic!()
    };
    assert!(fc.w().is_sparse());
    assert_eq!(fc.w().get(2, 2), 3.0);
    assert_eq!(lp.warnings.len(), 1, "no law: a warning");
    assert!(lp.warnings[0].contains("friction law assumed coulomb"));
    // deflated members, as numpy.savez_compressed writes them
    let lp = npz::from_bytes(Path::new("t.npz"), &archive(&csr_members(), true)).unwrap();
    assert_eq!(lp.problem.dim(), 3);
    // unsorted column indices within a row are sorted with their values
    let mut m = csr_members();
    m[0] = ("W_data.npy", f(&[5.0, 1.0, 2.0, 3.0]));
    m[1] = ("W_indices.npy", npy_i(&[2i32, 0, 1, 2]));
    m[2] = ("W_indptr.npy", npy_i(&[0i64, 2, 3, 4]));
    let lp = read(&m).unwrap();
    let AnyProblem::Friction(fc) = &lp.problem else {
        panic!()
    };
    assert_eq!((fc.w().get(0, 0), fc.w().get(0, 2)), (1.0, 5.0));
    // big-endian int32 indices
    let mut m = csr_members();
    let mut be = npy_i(&[0i32, 1, 2]);
    let at = be.windows(3).position(|w| w == b"<i4").unwrap();
    be[at] = b'>';
    let n = be.len();
    for k in 0..3 {
        be[n - 12 + 4 * k..n - 8 + 4 * k].reverse();
    }
    m[1] = ("W_indices.npy", be);
    if let Err(e) = read(&m) {
        panic!("big-endian indices: {e}");
    }
    // meta as numpy writes np.frombuffer(json.dumps(...).encode(), np.uint8)
    let mut m = csr_members();
    m.push((
        "meta.npy",
        npy_i(br#"{"law": "ccp", "name": "hand", "labels": ["a"]}"#.as_slice()),
    ));
    let lp = read(&m).unwrap();
    assert_eq!(lp.problem.kind(), Some(FrictionKind::Ccp));
    assert_eq!(lp.name, "hand");
    assert_eq!(lp.provenance.labels, vec!["a".to_string()]);
    assert!(lp.warnings.is_empty());
}

#[test]
fn malformed_archives_are_errors_that_name_the_member() {
    let good = archive(&csr_members(), false);
    // truncated at every length: an error, never a panic
    for cut in 0..good.len() {
        let r = npz::from_bytes(Path::new("t.npz"), &good[..cut]);
        assert!(r.is_err(), "cut at {cut} read");
    }
    // flipped bytes: anything but a panic (a flip in the data may still read)
    for k in (0..good.len()).step_by(7) {
        let mut b = good.clone();
        b[k] ^= 0x5a;
        let _ = npz::from_bytes(Path::new("t.npz"), &b);
    }
    for (members, says) in [
        (
            replace("W_data.npy", npy_i(&[1i64, 2, 3])),
            "t.npz/W_data.npy: `descr`: the array is int64",
        ),
        (
            replace("W_indices.npy", f(&[0.0, 1.0, 2.0])),
            "t.npz/W_indices.npy: `descr`: the array is float64 ('<f8'); expected int32 or int64",
        ),
        (
            replace("W_indptr.npy", npy_i(&[0i64, 2, 1, 3])),
            "t.npz/W_indptr.npy: entry 2: 1 after 2: the entries must never decrease",
        ),
        (
            replace("W_indptr.npy", npy_i(&[1i64, 1, 2, 3])),
            "W_indptr.npy: entry 0: the first entry is 1",
        ),
        (
            replace("W_indptr.npy", npy_i(&[0i64, 1, 2])),
            "W_indptr.npy: data: 3 entries; a matrix of 3 rows",
        ),
        (
            replace("W_indptr.npy", npy_i(&[0i64, 1, 2, 2])),
            "W_indptr.npy: entry 3: the last entry is 2; it must be the number of stored entries, 3",
        ),
        (
            replace("W_indices.npy", npy_i(&[0i32, 3, 2])),
            "t.npz/W_indices.npy: entry 1: column index 3 outside [0, 3)",
        ),
        (
            replace("W_indices.npy", npy_i(&[0i32, -1, 2])),
            "column index -1 outside [0, 3)",
        ),
        (
            replace("W_shape.npy", npy_i(&[3i64, -3])),
            "W_shape.npy: data: the shape is [3, -3]",
        ),
        (
            replace("W_shape.npy", npy_i(&[3i64])),
            "expected two non-negative integers",
        ),
        (
            replace("W_indices.npy", npy_i(&[0i32, 1])),
            "2 indices for 3 stored values",
        ),
        (replace("mu.npy", f(&[f64::NAN])), "invalid problem"),
    ] {
        let e = err_of(members);
        assert!(e.contains(says), "expected `{says}` in: {e}");
    }
    // a duplicate column in a row
    let mut m = csr_members();
    m[0] = ("W_data.npy", f(&[1.0, 1.0, 2.0, 3.0]));
    m[1] = ("W_indices.npy", npy_i(&[0i32, 0, 1, 2]));
    m[2] = ("W_indptr.npy", npy_i(&[0i64, 2, 3, 4]));
    let e = err_of(m);
    assert!(
        e.contains("row 0: column 0 is stored twice in row 0"),
        "{e}"
    );
    // missing members
    let m: Vec<_> = csr_members()
        .into_iter()
        .filter(|(n, _)| *n != "W_indptr.npy")
        .collect();
    let e = err_of(m);
    assert!(
        e.contains("the sparse matrix `W` lacks `W_indptr.npy`"),
        "{e}"
    );
    let m: Vec<_> = csr_members()
        .into_iter()
        .filter(|(n, _)| *n != "mu.npy")
        .collect();
    let e = err_of(m);
    assert!(e.contains("the archive has no member `mu.npy`"), "{e}");
    let e = err_of(vec![("q.npy", f(&[1.0]))]);
    assert!(e.contains("holds no problem matrix"), "{e}");
    // dense and sparse at once; unknown and non-.npy members
    let mut m = csr_members();
    m.push(("W.npy", header::matrix_to_npy(&Matrix::identity(3))));
    assert!(err_of(m).contains("`W.npy` (dense) and `W_*.npy` (sparse)"));
    let mut m = csr_members();
    m.push(("notes.npy", f(&[1.0])));
    assert!(err_of(m).contains("t.npz/notes.npy: zip: unknown array `notes`"));
    let mut m = csr_members();
    m.push(("readme.txt", b"hello".to_vec()));
    assert!(err_of(m).contains("member `readme.txt` is not a .npy array"));
    // meta of the wrong dtype or with an unknown key
    let mut m = csr_members();
    m.push(("meta.npy", f(&[1.0])));
    assert!(err_of(m).contains("expected a 1-dimensional uint8 array"));
    let mut m = csr_members();
    m.push(("meta.npy", npy_i(br#"{"Law": "ccp"}"#.as_slice())));
    assert!(err_of(m).contains("unknown field `Law`"));
    // not a zip at all
    let e = npz::from_bytes(Path::new("t.npz"), b"PK\x03\x04garbage")
        .unwrap_err()
        .to_string();
    assert!(e.contains("t.npz: zip: not a readable zip archive"), "{e}");
}

/// A member whose declared size exceeds the cap is refused before it is inflated: a
/// deflated run of zeros declared (truthfully) at 1 GiB + 1 byte.
#[test]
fn a_member_too_large_is_refused_before_reading() {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opt = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    zip.start_file("W.npy", opt).unwrap();
    let chunk = vec![0u8; 1 << 20];
    for _ in 0..1024 {
        zip.write_all(&chunk).unwrap();
    }
    zip.write_all(&[0]).unwrap();
    let bytes = zip.finish().unwrap().into_inner();
    assert!(bytes.len() < 4 << 20, "{} bytes", bytes.len());
    let e = npz::from_bytes(Path::new("t.npz"), &bytes).unwrap_err();
    assert!(matches!(e.kind, IoErrorKind::Parse { .. }));
    let e = e.to_string();
    assert!(
        e.contains("t.npz/W.npy: zip: the member declares 1073741825 bytes, more than"),
        "{e}"
    );
}

fn python(code: &str) -> Option<String> {
    let out = Command::new("python3").args(["-c", code]).output().ok()?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        if err.contains("No module named") {
            return None;
        }
        panic!("python failed: {err}");
    }
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// What Python sees: with the standard library only (zipfile, the .npy header as a
/// Python literal) always; with numpy and scipy (the CSR matrix, `meta`) where installed.
#[test]
fn python_reads_the_layout() {
    let d = tmp("py");
    let path = d.join("w.npz");
    let p = &problems()[4].1; // a sparse fc3d
    assert!(matches!(p, AnyProblem::Friction(fc) if fc.w().is_sparse()));
    npz::write(
        &path,
        "w",
        p,
        None,
        &provenance(p.contacts()),
        npz::Compression::Stored,
    )
    .unwrap();
    let stdlib = format!(
        r#"
import zipfile, ast
z = zipfile.ZipFile({path:?})
for i in sorted(z.infolist(), key=lambda i: i.filename):
    b = z.read(i)
    assert b[:6] == b"\x93NUMPY", i.filename
    n = int.from_bytes(b[8:10], "little")
    h = ast.literal_eval(b[10:10 + n].decode("latin1"))
    print(i.filename, i.compress_type, h["descr"], h["shape"])
"#,
        path = path.to_str().unwrap()
    );
    let Some(out) = python(&stdlib) else {
        eprintln!("skipping: python3 not found");
        return;
    };
    let expected = "W_data.npy 0 <f8 (10,)\nW_indices.npy 0 <i4 (10,)\nW_indptr.npy 0 <i4 (7,)\n\
                    W_shape.npy 0 <i8 (2,)\nmeta.npy 0 |u1";
    assert!(out.starts_with(expected), "{out}");
    assert!(out.contains("mu.npy 0 <f8 (2,)\nq.npy 0 <f8 (6,)"), "{out}");
    let scipy = format!(
        r#"
import json, numpy as np, scipy.sparse as sp
f = np.load({path:?})
W = sp.csr_matrix((f["W_data"], f["W_indices"], f["W_indptr"]), shape=tuple(f["W_shape"]))
meta = json.loads(f["meta"].tobytes())
print(W.shape, W.nnz, repr(W[1, 1]), meta["law"], meta["labels"][1], f["mu"].tolist())
"#,
        path = path.to_str().unwrap()
    );
    match python(&scipy) {
        Some(out) => assert_eq!(
            out.trim(),
            "(6, 6) 10 0.3333333333333333 ccp contact 1 [0.5, 0.3]"
        ),
        None => eprintln!("skipping the numpy/scipy check: python3 has no numpy or scipy"),
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// The file sizes `examples/exchange_sizes.rs` wrote into the book for its smallest wall
/// are the sizes the writers give now (the same bytes on every machine: fixed zip
/// timestamps, deterministic deflate, shortest round-trip JSON numbers).
#[test]
fn the_books_file_sizes_are_the_writers() {
    use nonsmooth::io::json;
    use nonsmooth::multibody::SceneKind;
    use nonsmooth::multibody::scenes::{SceneParams, SceneSpec};
    let table =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src/generated/exchange_file_sizes.txt");
    let text = std::fs::read_to_string(&table).expect("written by examples/exchange_sizes.rs");
    let p = SceneParams::bricks();
    let scene = SceneSpec::for_contacts(SceneKind::Wall, 1_000, &p)
        .and_then(|s| s.build(&p))
        .unwrap();
    let local = AnyProblem::Friction(scene.local_problem().unwrap());
    let global = AnyProblem::Global(scene.global_problem().unwrap());
    let (lp, gp) = (scene.provenance(false), scene.provenance(true));
    let nc = local.contacts();
    let json_len =
        |p: &AnyProblem, prov: &Provenance| json::to_string(&scene.name, p, None, prov).len() + 1;
    let npz_len = |p: &AnyProblem, prov: &Provenance, c| {
        npz::to_bytes(&scene.name, p, None, prov, c).unwrap().len()
    };
    let expected = [
        ("json", "local", json_len(&local, &lp)),
        ("json", "global", json_len(&global, &gp)),
        (
            "npz",
            "local",
            npz_len(&local, &lp, npz::Compression::Stored),
        ),
        (
            "npz-deflated",
            "local",
            npz_len(&local, &lp, npz::Compression::Deflated),
        ),
        (
            "npz",
            "global",
            npz_len(&global, &gp, npz::Compression::Stored),
        ),
    ];
    let mut checked = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 4 || f[0] != nc.to_string() {
            continue;
        }
        if let Some((_, _, bytes)) = expected
            .iter()
            .find(|(l, form, _)| *l == f[1] && *form == f[2])
        {
            assert_eq!(f[3], bytes.to_string(), "{line}: rerun the example");
            checked += 1;
        }
    }
    assert_eq!(
        checked,
        expected.len(),
        "rows for {nc} contacts in {}",
        table.display()
    );
}
