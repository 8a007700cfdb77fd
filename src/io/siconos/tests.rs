//! Unit tests of the Siconos reader and writers: dense and sparse block NumericsMatrix
//! reading, kind detection, malformed input, and exact write/read round trips.

use super::*;
use crate::matrix::Matrix;
use crate::problem::FrictionKind;
use nalgebra::{DMatrix, DVector};

fn p() -> &'static Path {
    Path::new("test.dat")
}

const LCP_DENSE: &str = "2\n0\n2\n2\n2 2\n1 3\n2 4\n-1 -1\nfree comment here\n";
// The same matrix [[1, 2], [3, 4]] as one 2x2 block.
const LCP_SBM: &str = "2 1 2 2  1 1 1  2  2  2 1  0 1  0  0  1 3 2 4  -1 -1\n";

#[test]
fn dense_is_column_major() {
    let lcp = read_lcp(p(), LCP_DENSE.as_bytes()).unwrap();
    let a = lcp.a().to_dense();
    assert_eq!(a, DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]));
    assert_eq!(lcp.b().as_slice(), &[-1.0, -1.0]);
}

#[test]
fn sbm_matches_dense() {
    let d = read_lcp(p(), LCP_DENSE.as_bytes()).unwrap();
    let s = read_lcp(p(), LCP_SBM.as_bytes()).unwrap();
    assert!(s.a().is_sparse());
    assert_eq!(d.a().to_dense(), s.a().to_dense());
    assert_eq!(d.b(), s.b());
}

#[test]
fn sbm_with_no_blocks_is_zero() {
    let lcp = read_lcp(p(), b"2 1 2 2 0 1 1\n").unwrap();
    assert_eq!(lcp.a().to_dense(), DMatrix::zeros(2, 2));
}

#[test]
fn detection_uses_structure_then_name() {
    // 3 unknowns / one contact: "3 0 3 3 ..." is an LCP (an fc3d would need nc = 0).
    let lcp = "3 0 3 3 3 3 1 0 0 0 1 0 0 0 1 -1 -1 -1\n";
    assert_eq!(
        detect(Path::new("x.dat"), lcp.as_bytes()).unwrap(),
        Kind::Lcp
    );
    let fc = "3 1 0 3 3 3 3 1 0 0 0 1 0 0 0 1 -1 0 0 0.5\n";
    assert_eq!(
        detect(Path::new("x.dat"), fc.as_bytes()).unwrap(),
        Kind::Fc3d
    );
    // A gfc3d with ndof = 3 nc also parses as fc3d + ignored tokens.
    let g = "3 1 0 3 3 3 3 1 0 0 0 1 0 0 0 1 0 3 3 3 3 1 0 0 0 1 0 0 0 1 0 0 -1 0 0 0 0.5\n";
    assert_eq!(
        detect(Path::new("x.dat"), g.as_bytes()).unwrap(),
        Kind::Gfc3d
    );
    assert_eq!(
        detect(Path::new("some_fc3d.dat"), g.as_bytes()).unwrap(),
        Kind::Fc3d
    );
    assert_eq!(
        detect(Path::new("gfc3d/a.dat"), g.as_bytes()).unwrap(),
        Kind::Gfc3d
    );
}

#[test]
fn malformed_inputs_are_errors() {
    let cases: &[&str] = &[
        "",
        "   \n ",
        "2\n",
        "2 0 2 2 2 2 1 2 3\n",                 // truncated matrix
        "2 0 2 2 2 2 1 2 3 4 -1\n",            // truncated q
        "2 0 3 3 3 3 1 2 3 4 5 6 7 8 9 1 1\n", // wrong size
        "2 0 2 3 2 3 1 2 3 4 5 6 1 1\n",       // non-square
        "2 0 2 2 2 2 1 nan 3 4 -1 -1\n",       // NaN
        "2 0 2 2 2 2 1 inf 3 4 -1 -1\n",       // inf
        "2 0 2 2 2 2 1 x 3 4 -1 -1\n",         // not a number
        "2 7 2 2 2 2 1 2 3 4 -1 -1\n",         // unknown storage
        "2 2 2 2 2 2 1 2 3 4 -1 -1\n",         // CSparse
        "-2 0 2 2 2 2 1 2 3 4 -1 -1\n",        // negative size
        "1000000000000 0 1000000000000 1000000000000 1000000000000 1000000000000 1\n",
        "18446744073709551615 0 18446744073709551615 18446744073709551615 18446744073709551615 18446744073709551615\n",
        "2 1 2 2 1 1 1 2 2 2 1 0 1 0 1 1 3 2 4 -1 -1\n", // wrong block number
        "2 1 2 2 1 1 1 3 2 2 1 0 1 0 0 1 3 2 4 -1 -1\n", // offsets past the size
        "2 1 2 2 1 1 1 2 2 3 1 0 1 0 0 1 3 2 4 -1 -1\n", // filled1
        "2 1 2 2 1 1 1 2 2 2 1 0 1 1 0 1 3 2 4 -1 -1\n", // column index out of range
        "2 1 2 2 2 1 1 2 2 2 2 0 2 0 0 0 1 3 2 4 -1 -1\n", // second block missing
        "2 1 2 2 1 1 1 0 2 2 1 0 1 0 0 1 3 2 4 -1 -1\n", // zero offset
        "2 1 1000000000000 1000000000000 1 1 1 1000000000000 1000000000000 2 1 0 1 0 0 1\n",
    ];
    for text in cases {
        let r = read_lcp(p(), text.as_bytes());
        assert!(r.is_err(), "accepted: {text:?}");
        assert!(read_any(p(), text.as_bytes()).is_err(), "{text:?}");
    }
    let nan = read_lcp(p(), b"2 0 2 2 2 2 1 nan 3 4 -1 -1\n").unwrap_err();
    assert!(matches!(nan.kind, IoErrorKind::Problem(_)), "{nan}");
    let csparse = read_lcp(p(), b"2 2 2 2 2 2 1 2 3 4 -1 -1\n").unwrap_err();
    assert!(
        matches!(csparse.kind, IoErrorKind::Unsupported(_)),
        "{csparse}"
    );
    let trunc = read_lcp(p(), b"2 0 2 2 2 2\n1 2\n3\n")
        .unwrap_err()
        .to_string();
    assert!(
        trunc.contains("test.dat") && trunc.contains("line 2") && trunc.contains("remain"),
        "{trunc}"
    );
    // fc3d: negative mu, d != 3, wrong mu count.
    let neg = read_fc3d(p(), b"3 1 0 3 3 3 3 1 0 0 0 1 0 0 0 1 -1 0 0 -0.5\n").unwrap_err();
    assert!(matches!(neg.kind, IoErrorKind::Problem(_)), "{neg}");
    assert!(read_fc3d(p(), b"2 1 0 2 2 2 2 1 0 0 1 -1 0 0.5\n").is_err());
    assert!(read_fc3d(p(), b"3 1 0 3 3 3 3 1 0 0 0 1 0 0 0 1 -1 0 0\n").is_err());
    // gfc3d: M not SPD.
    let g = "3 1 0 3 3 3 3 -1 0 0 0 1 0 0 0 1 0 3 3 3 3 1 0 0 0 1 0 0 0 1 0 0 -1 0 0 0 0.5\n";
    assert!(matches!(
        read_gfc3d(p(), g.as_bytes()).unwrap_err().kind,
        IoErrorKind::Problem(_)
    ));
}

fn bits(m: &Matrix) -> Vec<u64> {
    m.to_dense().iter().map(|v| v.to_bits()).collect()
}

#[test]
fn writers_round_trip_exactly() {
    let vals = [
        0.1 + 0.2,
        -1.0 / 3.0,
        5e-324,
        -0.0,
        1.7976931348623157e308,
        2.2250738585072014e-308,
        123456789.12345679,
    ];
    let dense = DMatrix::from_fn(7, 7, |i, j| vals[(i + 2 * j) % 7] / (1.0 + i as f64));
    let b = DVector::from_fn(7, |i, _| vals[i]);
    for a in [
        Matrix::Dense(dense.clone()),
        Matrix::Dense(dense).to_csr().into(),
    ] {
        let lcp = Lcp::new(a, b.clone()).unwrap();
        let text = lcp_to_string(&lcp);
        let back = read_lcp(p(), text.as_bytes()).unwrap();
        assert_eq!(bits(back.a()), bits(lcp.a()));
        assert_eq!(back.a().is_sparse(), lcp.a().is_sparse());
        let bb: Vec<u64> = back.b().iter().map(|v| v.to_bits()).collect();
        let ob: Vec<u64> = lcp.b().iter().map(|v| v.to_bits()).collect();
        assert_eq!(bb, ob);
        assert_eq!(lcp_to_string(&back), text);
    }
    let w = Matrix::from_triplets(
        6,
        6,
        &[
            (0, 0, 1.0 / 7.0),
            (1, 1, 2.0),
            (2, 2, 3.0),
            (3, 3, 1.0),
            (4, 4, 1.0),
            (5, 5, 1.0),
            (0, 4, -0.25),
            (4, 0, -0.25),
        ],
    )
    .unwrap();
    let fc = FrictionContact::new(
        w,
        DVector::from_vec(vec![-1.0, 0.1, 0.2, -0.3, 1e-300, 0.0]),
        DVector::from_vec(vec![0.3, 1.0 / 3.0]),
        FrictionKind::Coulomb,
    )
    .unwrap();
    let text = fc3d_to_string(&fc);
    let back = read_fc3d(p(), text.as_bytes()).unwrap();
    assert_eq!(bits(back.w()), bits(fc.w()));
    assert_eq!(back.q(), fc.q());
    assert_eq!(back.mu(), fc.mu());
    assert_eq!(
        detect(Path::new("x.dat"), text.as_bytes()).unwrap(),
        Kind::Fc3d
    );
    // Zero matrix, sparse: no blocks.
    let z = Lcp::new(Matrix::from_triplets(2, 2, &[]).unwrap(), DVector::zeros(2)).unwrap();
    let back = read_lcp(p(), lcp_to_string(&z).as_bytes()).unwrap();
    assert_eq!(back.a().to_dense(), DMatrix::zeros(2, 2));
}

proptest::proptest! {
    /// Any finite values, dense or sparse, write and read back bit for bit.
    #[test]
    fn round_trip_any_finite_values(
        n in 1usize..7,
        raw in proptest::collection::vec(proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO, 49),
        sparse in proptest::bool::ANY,
    ) {
        let a = DMatrix::from_fn(n, n, |i, j| raw[i * 7 + j]);
        let a = if sparse { Matrix::Dense(a).to_csr().into() } else { Matrix::Dense(a) };
        let b = DVector::from_fn(n, |i, _| raw[(i * 3) % 49]);
        let lcp = Lcp::new(a, b).unwrap();
        let back = read_lcp(p(), lcp_to_string(&lcp).as_bytes()).unwrap();
        proptest::prop_assert_eq!(bits(back.a()), bits(lcp.a()));
        let bb: Vec<u64> = back.b().iter().map(|v| v.to_bits()).collect();
        let ob: Vec<u64> = lcp.b().iter().map(|v| v.to_bits()).collect();
        proptest::prop_assert_eq!(bb, ob);
    }
}

/// Regression (issue 8): a global file whose `H` has the wrong shape was read as the
/// LCP its first numbers also spell, with the rest ignored.
#[test]
fn a_malformed_global_file_is_not_read_as_another_kind() {
    let text = "3 2\n0 2 2 2 2\n1 0 0 1\n0 2 3 2 3\n1 0 0 1 0 0\n0 0\n0 0 0 0 0 0\n0.5 0.5\n";
    let e = read_any(Path::new("x.dat"), text.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(e.contains("gfc3d") && e.contains("H is 2 x 3"), "{e}");
}
