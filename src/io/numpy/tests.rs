//! Tests of the `.npy` arrays, the NumPy folder and its `meta.json`.

use std::path::{Path, PathBuf};

use nalgebra::{DMatrix, DVector};

use super::folder::*;
use super::header::*;
use crate::io::{AnyProblem, IoError, IoErrorKind};
use crate::matrix::Matrix;
use crate::problem::{BoxedLcp, EngineAnswer, FrictionContact, FrictionKind, Lcp};

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nonsmooth_npy_{tag}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A version-1.0 `.npy` file with this header text (a newline is added) and data.
fn npy(header: &str, data: &[u8]) -> Vec<u8> {
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

fn err(r: Result<impl std::fmt::Debug, IoError>) -> String {
    r.expect_err("an error").to_string()
}

fn matrix_err(header: &str, data: &[u8]) -> String {
    err(parse_matrix(Path::new("W.npy"), &npy(header, data)))
}

#[test]
fn round_trip_through_numpy_files() {
    let dir = temp("rt");
    let w = DMatrix::from_row_slice(3, 3, &[2.0, 0.5, 0.0, 0.5, 1.0, 0.25, 0.0, 0.25, 3.0]);
    let fc = FrictionContact::new(
        Matrix::Dense(w),
        DVector::from_vec(vec![-1.0, 0.1, 1.0 / 3.0]),
        DVector::from_vec(vec![0.4]),
        FrictionKind::Ccp,
    )
    .unwrap();
    let ans = EngineAnswer {
        source: "test".into(),
        r: vec![1.0, 0.0, 0.5],
        u: None,
    };
    write(&dir, "t", &AnyProblem::Friction(fc.clone()), Some(&ans)).unwrap();
    let back = load(&dir).unwrap();
    match back.problem {
        AnyProblem::Friction(p) => assert_eq!(p, fc),
        _ => panic!("wrong type"),
    }
    assert_eq!(back.answer.unwrap().r, ans.r);
    // a header that promises more data than the file holds is an error
    let bad = dir.join("W.npy");
    let mut bytes = std::fs::read(&bad).unwrap();
    bytes.truncate(bytes.len() - 8);
    std::fs::write(&bad, bytes).unwrap();
    let e = load(&dir).unwrap_err().to_string();
    assert!(e.contains("8 bytes are missing"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn headers_numpy_writes_are_read() {
    let data = le(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    for header in [
        "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
        "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)}",
        "{\"shape\": (2,3), \"descr\": \"<f8\", \"fortran_order\": False}",
        "{'fortran_order':False,'shape':(2L, 3L,),'descr':'<f8'}",
        "  {\n'descr' : '<f8' ,\t'fortran_order' : False , 'shape' : ( 2 , 3 ) , }    ",
    ] {
        let m = parse_matrix(Path::new("W.npy"), &npy(header, &data))
            .unwrap_or_else(|e| panic!("{header}: {e}"));
        assert_eq!(
            m,
            DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
        );
    }
    // versions 2.0 and 3.0 have a 4-byte header length
    for major in [2u8, 3] {
        let h = b"{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n";
        let mut v = vec![0x93, b'N', b'U', b'M', b'P', b'Y', major, 0];
        v.extend((h.len() as u32).to_le_bytes());
        v.extend(h);
        v.extend(le(&[1.5, -2.0]));
        let x = parse_vector(Path::new("q.npy"), &v).unwrap();
        assert_eq!(x.as_slice(), &[1.5, -2.0]);
        v[6] = 4;
        let e = err(parse_vector(Path::new("q.npy"), &v));
        assert!(e.contains("format version 4.0"), "{e}");
    }
    // an empty shape is a scalar, of rank 0
    let e = err(parse_vector(
        Path::new("q.npy"),
        &npy(
            "{'descr': '<f8', 'fortran_order': False, 'shape': ()}",
            &le(&[1.0]),
        ),
    ));
    assert!(e.contains("a 0-dimensional array of shape ()"), "{e}");
}

#[test]
fn big_endian_and_fortran_order_read_correctly() {
    // [[1, 2, 3], [4, 5, 6]] stored column by column
    let f = le(&[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    let m = parse_matrix(
        Path::new("W.npy"),
        &npy(
            "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }",
            &f,
        ),
    )
    .unwrap();
    assert_eq!(
        m,
        DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    );
    let be: Vec<u8> = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0]
        .iter()
        .flat_map(|v| v.to_be_bytes())
        .collect();
    let m = parse_matrix(
        Path::new("W.npy"),
        &npy(
            "{'descr': '>f8', 'fortran_order': False, 'shape': (3, 2), }",
            &be,
        ),
    )
    .unwrap();
    assert_eq!(
        m,
        DMatrix::from_row_slice(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    );
    let be_ints: Vec<u8> = [-1i64, 7].iter().flat_map(|v| v.to_be_bytes()).collect();
    let d = parse_ints(
        Path::new("dep.npy"),
        &npy(
            "{'descr': '>i8', 'fortran_order': False, 'shape': (2,), }",
            &be_ints,
        ),
    )
    .unwrap();
    assert_eq!(d, vec![-1, 7]);
}

/// Issue 8: `)` before `(` in `shape` sliced a string at reversed indices (a panic).
#[test]
fn reversed_parentheses_are_an_error() {
    let e = matrix_err(
        "{'descr': '<f8', 'fortran_order': False, 'shape': )3, 3(, }",
        &le(&[0.0; 9]),
    );
    assert!(e.contains("header: `shape` is `)3, 3(`"), "{e}");
    assert!(
        e.contains("expected a tuple of non-negative integers"),
        "{e}"
    );
}

/// Issue 8: with two `shape` keys the old check read the first and ndarray-npy
/// allocated from the last (1e11 x 6: an abort asking for 4.8 TB).
#[test]
fn a_key_given_twice_is_an_error() {
    let e = matrix_err(
        "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), 'shape': (100000000000, 6), }",
        &le(&[1.0]),
    );
    assert!(e.ends_with("W.npy: header: `shape` appears twice"), "{e}");
    let e = matrix_err(
        "{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (1, 1)}",
        &le(&[1.0]),
    );
    assert!(e.contains("`descr` appears twice"), "{e}");
}

/// Issue 8: a `descr` nesting 40 lists made ndarray-npy's header parser take
/// exponential time; the list is refused on sight.
#[test]
fn nested_descr_is_refused_at_once() {
    let depth = 40;
    let descr = format!("{}'<f8'{}", "[".repeat(depth), "]".repeat(depth));
    let header = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': (1, 1), }}");
    assert!(npy(&header, &[]).len() < 200);
    let e = matrix_err(&header, &le(&[1.0]));
    assert!(
        e.contains("header: `descr` is a list: a structured dtype"),
        "{e}"
    );
    let e = matrix_err(
        "{'descr': [('x', '<f8'), ('y', '<f8')], 'fortran_order': False, 'shape': (1, 1)}",
        &le(&[1.0, 2.0]),
    );
    assert!(e.contains("`descr` is a list: a structured dtype"), "{e}");
    // Unbalanced or deep nesting elsewhere cannot recurse either: a tuple in `shape`.
    let header = format!(
        "{{'descr': '<f8', 'fortran_order': False, 'shape': {}1{}}}",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    let e = matrix_err(&header, &[]);
    assert!(e.contains("header: `shape` is `(((("), "{e}");
}

/// Issue 8: the old message for a float32 array was "the file holds fewer elements".
#[test]
fn dtype_errors_name_the_dtype() {
    for (descr, size, words) in [
        (
            "<f4",
            4,
            "the array is float32 ('<f4'); expected float64 ('<f8')",
        ),
        (
            "<i8",
            8,
            "the array is int64 ('<i8'); expected float64 ('<f8')",
        ),
        (
            "<i4",
            4,
            "the array is int32 ('<i4'); expected float64 ('<f8')",
        ),
        (
            "|b1",
            1,
            "the array is bool ('|b1'); expected float64 ('<f8')",
        ),
        (
            "|O",
            8,
            "the array is of dtype object (pickled Python objects) ('|O'); expected float64",
        ),
        ("<c16", 16, "the array is complex128 ('<c16')"),
        ("<U5", 20, "the array is of unicode strings ('<U5')"),
        ("<f2", 2, "the array is float16 ('<f2')"),
        ("<x9", 9, "the array is of an unrecognised dtype ('<x9')"),
        (
            "|f8",
            8,
            "`descr` is '|f8': float64 with '|' (no byte order",
        ),
        (
            "=f8",
            8,
            "`descr` is '=f8': float64 with '=' (the writer's native order",
        ),
        ("f8", 8, "`descr` is 'f8': float64 with no byte order"),
    ] {
        let header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': (3, 3), }}");
        let e = matrix_err(&header, &vec![0u8; 9 * size]);
        assert!(e.contains("W.npy: `descr`: "), "{e}");
        assert!(e.contains(words), "{descr}: {e}");
    }
}

#[test]
fn dep_must_be_int64() {
    let path = Path::new("dep.npy");
    let e = err(parse_ints(
        path,
        &npy(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }",
            &le(&[0.0, -1.0]),
        ),
    ));
    assert!(e.contains("float64 where int64 is required"), "{e}");
    let e = err(parse_ints(
        path,
        &npy(
            "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }",
            &[0; 8],
        ),
    ));
    assert!(e.contains("int32 where int64 is required"), "{e}");
    // and through a folder
    let dir = temp("dep");
    let lcp = BoxedLcp::from_opentissue(
        Matrix::Dense(DMatrix::identity(2, 2)),
        DVector::from_vec(vec![-1.0, 0.5]),
        &[0.0, 0.0],
        &[1.0, 0.0],
        &[-1, 0],
        &[0.0, 0.5],
    )
    .unwrap();
    write(&dir, "b", &AnyProblem::Boxed(lcp), None).unwrap();
    assert_eq!(load(&dir).unwrap().problem.type_name(), "boxed-lcp");
    std::fs::write(dir.join("dep.npy"), vector_to_npy(&[-1.0, 0.0])).unwrap();
    let e = load(&dir).unwrap_err().to_string();
    assert!(
        e.contains("dep.npy: `descr`: float64 where int64 is required"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn rank_must_match() {
    let e = matrix_err(
        "{'descr': '<f8', 'fortran_order': False, 'shape': (9,), }",
        &le(&[0.0; 9]),
    );
    assert!(
        e.ends_with(
            "W.npy: `shape`: W.npy holds a 1-dimensional array of shape (9,); a \
             2-dimensional one is required"
        ),
        "{e}"
    );
    let e = err(parse_vector(
        Path::new("q.npy"),
        &npy(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 3), }",
            &le(&[0.0; 9]),
        ),
    ));
    assert!(
        e.contains(
            "q.npy holds a 2-dimensional array of shape (3, 3); a 1-dimensional one is required"
        ),
        "{e}"
    );
    // `(9)` is a number in Python, not a tuple
    let e = matrix_err(
        "{'descr': '<f8', 'fortran_order': False, 'shape': (9)}",
        &le(&[0.0; 9]),
    );
    assert!(
        e.contains("which Python reads as a number, not a tuple"),
        "{e}"
    );
}

#[test]
fn data_length_must_match_exactly() {
    let h = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }";
    let e = matrix_err(h, &le(&[1.0, 2.0, 3.0]));
    assert!(e.contains("data: the header announces 4 elements of 8 bytes (32 bytes) and the file holds 24 bytes of data: 8 bytes are missing"), "{e}");
    let mut long = le(&[1.0, 2.0, 3.0, 4.0]);
    long.push(0);
    let e = matrix_err(h, &long);
    assert!(e.contains("1 bytes too many after the array"), "{e}");
    // a huge shape is refused from the length, without allocating
    let e = matrix_err(
        "{'descr': '<f8', 'fortran_order': False, 'shape': (100000000000, 6), }",
        &le(&[1.0]),
    );
    assert!(e.contains("bytes are missing"), "{e}");
    let e = matrix_err(
        "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
        &[],
    );
    assert!(
        e.contains("more elements than this machine can address"),
        "{e}"
    );
    let e = matrix_err(
        "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999, 1), }",
        &[],
    );
    assert!(e.contains("too large for this machine"), "{e}");
}

#[test]
fn malformed_headers_say_what_is_wrong() {
    for (header, says) in [
        (
            "{'descr': '<f8', 'fortran_order': False}",
            "`shape` is missing",
        ),
        ("{}", "`descr`, `fortran_order` and `shape` are missing"),
        (
            "{'descr': '<f8', 'fortran_order': 0, 'shape': (1, 1)}",
            "`fortran_order` is `0`; expected True or False",
        ),
        (
            "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), 'extra': 1}",
            "unknown key `extra`",
        ),
        (
            "{'descr': '<f8', 'fortran_order': False, 'shape': (1, -1)}",
            "a dimension is negative",
        ),
        (
            "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1)} x",
            "text after the closing `}` of the header: `x`",
        ),
        (
            "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1)",
            "expected `,` or `}` after the value of `shape`, found the end of the header",
        ),
        (
            "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1),",
            "expected a quoted string, found the end of the header",
        ),
        (
            "{'descr' '<f8', 'fortran_order': False, 'shape': (1, 1)}",
            "expected `:` after `descr`, found `'<f8'`",
        ),
        (
            "{'descr': '<f8 , 'fortran_order': False, 'shape': (1, 1)}",
            "after the value of `descr`, found `fortran_order': False`",
        ),
        (
            "{'descr': '<f\\x38', 'fortran_order': False, 'shape': (1, 1)}",
            "backslash",
        ),
        (
            "{'descr': 8, 'fortran_order': False, 'shape': (1, 1)}",
            "`descr` is `8`; expected a dtype string",
        ),
        (
            "{'descr': '<f8' 'fortran_order': False, 'shape': (1, 1)}",
            "expected `,` or `}` after the value of `descr`",
        ),
        ("['descr', '<f8']", "expected a dict"),
        (
            "{'descr': '<f8', 'fortran_order': False, 'shape': (01, 1)}",
            "leading zero",
        ),
        (
            "{'descr': '<f8', 'fortran_order': False, 'shape': (1,, 1)}",
            "`shape` is `(1,, 1)`",
        ),
        (
            "{'descr': '<f8', 'fortran_order': False, 'shape': (,)}",
            "`shape` is `(,)`",
        ),
    ] {
        let e = matrix_err(header, &le(&[1.0]));
        assert!(e.contains(says), "{header}: {e}");
    }
    for (bytes, says) in [
        (&b""[..], "not a .npy file"),
        (b"\x93NUMPY", "ends inside the version number"),
        (b"\x93NUMPY\x01\x00\x01", "ends inside the header length"),
        (b"\x93NUMPY\x01\x00\xff\x00{", "said to be 255 bytes long"),
        (
            b"\x93NUMPY\x02\x00\xff\xff\xff\xff{",
            "said to be 4294967295 bytes long",
        ),
    ] {
        let e = err(parse_matrix(Path::new("W.npy"), bytes));
        assert!(e.contains(says), "{e}");
    }
}

#[test]
fn writer_bytes_read_back() {
    let d = DMatrix::from_fn(3, 4, |i, j| (i as f64) - 0.5 * j as f64 + 1e-300);
    for m in [
        Matrix::Dense(d.clone()),
        Matrix::from_triplets(3, 4, &[(0, 1, -2.5), (2, 3, f64::MAX)]).unwrap(),
        Matrix::Dense(DMatrix::zeros(0, 3)),
    ] {
        let back = parse_matrix(Path::new("W.npy"), &matrix_to_npy(&m)).unwrap();
        assert_eq!(back, m.to_dense());
    }
    let v = [1.0, f64::NEG_INFINITY, -0.0];
    let back = parse_vector(Path::new("q.npy"), &vector_to_npy(&v)).unwrap();
    assert_eq!(back.as_slice(), &v);
    let back = parse_ints(Path::new("dep.npy"), &ints_to_npy(&[-1, i64::MAX])).unwrap();
    assert_eq!(back, vec![-1, i64::MAX]);
}

#[test]
fn entries_that_are_not_files_are_named() {
    let dir = temp("notafile");
    std::fs::create_dir_all(dir.join("W.npy")).unwrap();
    let e = load(&dir).unwrap_err().to_string();
    assert!(e.contains("W.npy: not a regular file (a directory)"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
    let lcp = Lcp::new(
        Matrix::Dense(DMatrix::identity(2, 2)),
        DVector::from_vec(vec![-1.0, 1.0]),
    )
    .unwrap();
    write(&dir, "l", &AnyProblem::Lcp(lcp), None).unwrap();
    std::fs::remove_file(dir.join("meta.json")).unwrap();
    std::fs::create_dir(dir.join("meta.json")).unwrap();
    let e = load(&dir).unwrap_err().to_string();
    assert!(
        e.contains("meta.json: not a regular file (a directory)"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn fc3d() -> FrictionContact {
    FrictionContact::new(
        Matrix::Dense(DMatrix::identity(3, 3) * 2.0),
        DVector::from_vec(vec![-1.0, 0.0, 0.0]),
        DVector::from_vec(vec![0.5]),
        FrictionKind::Coulomb,
    )
    .unwrap()
}

/// Issue 8: a 30-byte file can declare a 2^20 x 2^20 sparse matrix; the writer made it
/// dense (8.8 TB) and aborted.
#[test]
fn writer_refuses_a_matrix_too_large_to_make_dense() {
    let n = 1 << 20;
    let a = Matrix::from_triplets(n, n, &[(0, 0, 1.0), (n - 1, n - 1, 1.0)]).unwrap();
    let lcp = Lcp::new(a, DVector::zeros(n)).unwrap();
    let dir = temp("huge");
    let e = write(&dir, "huge", &AnyProblem::Lcp(lcp), None).unwrap_err();
    assert!(
        matches!(
            &e.kind,
            IoErrorKind::Problem(crate::problem::ProblemError::TooLarge { rows, cols, .. })
                if *rows == n && *cols == n
        ),
        "{e}"
    );
    assert!(e.to_string().contains("the NumPy writer (A.npy)"), "{e}");
    assert!(!dir.exists());
}

/// Issue 8: writing into a folder that held another problem left its arrays behind,
/// and they were read back as the old problem.
#[test]
fn writer_replaces_an_old_problem_folder_whole() {
    let dir = temp("replace");
    let ans = EngineAnswer {
        source: "x".into(),
        r: vec![0.5, 0.0, 0.0],
        u: Some(vec![0.0, 0.0, 0.0]),
    };
    write(&dir, "fc", &AnyProblem::Friction(fc3d()), Some(&ans)).unwrap();
    assert!(dir.join("W.npy").exists() && dir.join("u.npy").exists());
    let lcp = Lcp::new(
        Matrix::Dense(DMatrix::identity(2, 2)),
        DVector::from_vec(vec![-1.0, 1.0]),
    )
    .unwrap();
    write(&dir, "lcp", &AnyProblem::Lcp(lcp.clone()), None).unwrap();
    let back = load(&dir).unwrap();
    match back.problem {
        AnyProblem::Lcp(p) => assert_eq!(p, lcp),
        p => panic!("read back as {}", p.type_name()),
    }
    assert!(back.answer.is_none());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["A.npy", "b.npy", "meta.json"]);
    // no temporary folder is left beside it
    let parent = dir.parent().unwrap();
    let stem = dir.file_name().unwrap().to_string_lossy().into_owned();
    for e in std::fs::read_dir(parent).unwrap() {
        let n = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            !n.starts_with(&format!(".{stem}.nonsmooth-")),
            "{n} left behind"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn writer_refuses_a_folder_with_foreign_files() {
    let dir = temp("foreign");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("W.npy"), b"old").unwrap();
    std::fs::write(dir.join("notes.txt"), b"mine").unwrap();
    let e = write(&dir, "fc", &AnyProblem::Friction(fc3d()), None).unwrap_err();
    assert!(matches!(e.kind, IoErrorKind::Refused(_)), "{e}");
    assert!(
        e.to_string().contains("the folder holds `notes.txt`"),
        "{e}"
    );
    assert_eq!(std::fs::read(dir.join("notes.txt")).unwrap(), b"mine");
    assert_eq!(std::fs::read(dir.join("W.npy")).unwrap(), b"old");
    // a subfolder under a known name is not replaced either
    std::fs::remove_file(dir.join("notes.txt")).unwrap();
    std::fs::remove_file(dir.join("W.npy")).unwrap();
    std::fs::create_dir(dir.join("W.npy")).unwrap();
    std::fs::write(dir.join("W.npy/keep"), b"k").unwrap();
    let e = write(&dir, "fc", &AnyProblem::Friction(fc3d()), None).unwrap_err();
    assert!(
        e.to_string().contains("`W.npy` in the folder is a folder"),
        "{e}"
    );
    assert!(dir.join("W.npy/keep").exists());
    std::fs::remove_dir_all(&dir).unwrap();
    // a regular file where the folder should go
    std::fs::write(&dir, b"a file").unwrap();
    let e = write(&dir, "fc", &AnyProblem::Friction(fc3d()), None).unwrap_err();
    assert!(
        e.to_string()
            .contains("the output is a regular file, not a folder"),
        "{e}"
    );
    assert_eq!(std::fs::read(&dir).unwrap(), b"a file");
    std::fs::remove_file(&dir).unwrap();
    // an empty folder is fine
    std::fs::create_dir_all(&dir).unwrap();
    write(&dir, "fc", &AnyProblem::Friction(fc3d()), None).unwrap();
    assert_eq!(load(&dir).unwrap().problem.type_name(), "fc3d");
    std::fs::remove_dir_all(&dir).unwrap();
}
