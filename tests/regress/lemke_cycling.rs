//! Regression (issue 9): Lemke's method ran to its pivot cap (100 000 pivots, error 2.2) on
//! `lcp_tobenna.dat`, a 40-variable LCP from Siconos's own test data that Siconos's
//! lexicographic Lemke solves. Its ratio test compared keys with an absolute-relative
//! tolerance and read negative basic values as zero; with those (and equally with exact
//! comparisons of the computed keys) rounding decided ties that exact arithmetic breaks by
//! the rows of `B^-1`, and the path cycled.
//!
//! Each test runs the crate's floating-point `lemke` beside an exact rational Lemke
//! (`tests/exact_lemke/`) and requires the same end after the same number of pivots, on
//! problems built so that ties occur at almost every pivot: zeros in `q`, identical rows,
//! and small LCPs on which a plain ratio test (ties broken by row index) provably cycles,
//! which the exact oracle shows by revisiting a basis. Every answer is also checked
//! directly: `z >= 0`, `w = M z + q >= 0`, `z_i w_i = 0` to rounding. A ray is accepted only
//! where the LCP is infeasible: with a Farkas certificate, or for a copositive-plus
//! (positive semidefinite) matrix where Cottle, Pang, Stone 1992 Thm. 4.4.13 makes a ray a
//! proof, and then only where exact arithmetic ends on the same ray.

use crate::exact_lemke;

use exact_lemke::{Outcome, Rule, lemke_exact};
use nalgebra::{DMatrix, DVector};
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::matrix::Matrix;
use nonsmooth::pivoting::{LemkeOptions, LemkeStats, lemke};
use nonsmooth::problem::Lcp;
use nonsmooth::solver::{Params, SolveError, Solved, no_observer};
use proptest::prelude::*;

fn params() -> Params {
    Params {
        tol: 1e-10,
        max_iter: 100_000,
        ..Default::default()
    }
}

fn ours(
    m: &DMatrix<f64>,
    q: &DVector<f64>,
) -> (
    Result<Solved<LemkeStats>, SolveError<LemkeStats>>,
    DVector<f64>,
) {
    let lcp = Lcp::new(Matrix::Dense(m.clone()), q.clone()).unwrap();
    let mut x = DVector::zeros(q.len());
    let r = lemke(
        &lcp,
        &mut x,
        &params(),
        &LemkeOptions::default(),
        &mut no_observer(),
    );
    (r, x)
}

/// `z >= 0`, `w = M z + q >= 0` and `z_i w_i = 0`, each to `1e-10` of the size of the
/// numbers `w` is summed from; computed here, not taken from the solver.
fn check_solution(m: &DMatrix<f64>, q: &DVector<f64>, z: &DVector<f64>, what: &str) {
    let w = m * z + q;
    let size = (m.abs() * z.abs() + q.abs()).amax().max(f64::MIN_POSITIVE);
    for i in 0..q.len() {
        assert!(z[i] >= 0.0, "{what}: z[{i}] = {}", z[i]);
        assert!(w[i] >= -1e-10 * size, "{what}: w[{i}] = {}", w[i]);
        assert!(
            (z[i] * w[i]).abs() <= 1e-10 * size * (1.0 + z.amax()),
            "{what}: z[{i}] w[{i}] = {} * {}",
            z[i],
            w[i]
        );
    }
}

/// Runs both and requires the crate's `lemke` to end as exact arithmetic does, after the
/// same number of pivots, at the same point. Returns that pivot count.
fn agrees_with_exact(m: &DMatrix<f64>, q: &DVector<f64>, what: &str) -> usize {
    let exact = lemke_exact(m, q, Rule::Lexicographic, 100_000);
    let (result, x) = ours(m, q);
    match (&exact, &result) {
        (Outcome::Solution { pivots, .. }, Ok(info)) => {
            assert_eq!(info.iterations, *pivots, "{what}: pivots, ours vs exact");
            check_solution(m, q, &x, what);
            let z = exact.z().unwrap();
            assert!(
                (&x - &z).amax() <= 1e-9 * (1.0 + z.amax()),
                "{what}: ours {x} exact {z}"
            );
        }
        (Outcome::Ray { pivots }, Err(SolveError::RayTermination { pivots: p })) => {
            assert_eq!(p, pivots, "{what}: pivots to the ray, ours vs exact");
        }
        _ => panic!("{what}: exact {exact:?}, ours {result:?}"),
    }
    exact.pivots()
}

/// The number of bases Lemke's method can visit on an `n`-variable LCP: the almost
/// complementary ones (`z0` basic, one complementary pair nonbasic, one of each other pair
/// basic: `n 2^(n-1)`) and the final one. Exact arithmetic never visits one twice.
fn path_bound(n: usize) -> usize {
    n.saturating_mul(1usize.checked_shl(n as u32 - 1).unwrap_or(usize::MAX))
        .saturating_add(1)
}

/// Every principal minor positive.
fn is_p_matrix(m: &DMatrix<f64>) -> bool {
    let n = m.nrows();
    (1..1usize << n).all(|set| {
        let idx: Vec<usize> = (0..n).filter(|i| set >> i & 1 == 1).collect();
        m.select_rows(&idx).select_columns(&idx).determinant() > 0.0
    })
}

/// `M + M^T` positive semidefinite (to rounding): then `M` is copositive-plus.
fn is_psd(m: &DMatrix<f64>) -> bool {
    (m + m.transpose()).symmetric_eigenvalues().min() >= -1e-12 * m.amax()
}

fn from_rows(rows: &[&[f64]]) -> DMatrix<f64> {
    DMatrix::from_fn(rows.len(), rows.len(), |i, j| rows[i][j])
}

/// `tests/data/lcp_tobenna.dat`: a polymatrix game from Siconos's test data (8 players of
/// 4 strategies each plus 8 constraint rows), with 32 zeros in `q`. The crate's Lemke now
/// makes exactly the pivots of exact arithmetic: 127 (Siconos 4.4 reports 126; it does not
/// count the first pivot).
#[test]
fn tobenna_follows_the_exact_lexicographic_path() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/lcp_tobenna.dat");
    let AnyProblem::Lcp(p) = load(path).unwrap().problem else {
        panic!("{path} is not an LCP")
    };
    let (m, q) = (p.a().to_dense(), p.b().clone());
    assert_eq!(q.len(), 40);
    assert_eq!(q.iter().filter(|v| **v == 0.0).count(), 32);
    let pivots = agrees_with_exact(&m, &q, "lcp_tobenna.dat");
    assert_eq!(pivots, 127);
}

/// Small LCPs, found by search, on which Lemke's method with a plain ratio test cycles
/// (exact arithmetic, ties broken by the first or the last row) while the lexicographic
/// rule ends on a solution. `(name, M by rows, q, the plain rules that cycle)`.
#[allow(clippy::type_complexity)]
const CYCLING: &[(&str, &[&[f64]], &[f64], &[Rule])] = &[
    (
        // M + M^T = 8 e e^T: positive semidefinite (copositive-plus)
        "circulant 3x3",
        &[&[4.0, 5.0, 3.0], &[3.0, 4.0, 5.0], &[5.0, 3.0, 4.0]],
        &[-1.0, -1.0, -1.0],
        &[Rule::FirstRow],
    ),
    (
        // A A^T plus a skew part: positive semidefinite; cycles under both plain rules
        "psd 5x5",
        &[
            &[4.0, -1.0, -5.0, 4.0, -4.0],
            &[1.0, 0.0, 0.0, 0.0, -3.0],
            &[-3.0, 0.0, 4.0, 0.0, 4.0],
            &[0.0, 0.0, -4.0, 1.0, -1.0],
            &[-4.0, 3.0, 4.0, -3.0, 4.0],
        ],
        &[-1.0, -1.0, -1.0, 0.0, -1.0],
        &[Rule::FirstRow, Rule::LastRow],
    ),
    (
        // a P-matrix (every principal minor positive): the solution is unique
        "P-matrix 5x5",
        &[
            &[1.0, -1.0, 1.0, -1.0, -1.0],
            &[0.0, 1.0, -2.0, 2.0, 1.0],
            &[-1.0, 2.0, 2.0, 0.0, -2.0],
            &[2.0, -2.0, 2.0, 4.0, -1.0],
            &[1.0, 1.0, -2.0, -2.0, 3.0],
        ],
        &[0.0, -1.0, -1.0, -1.0, -1.0],
        &[Rule::LastRow],
    ),
];

#[test]
fn plain_ratio_tests_cycle_where_the_lexicographic_rule_solves() {
    for (name, rows, q, cycling) in CYCLING {
        let (m, q) = (from_rows(rows), DVector::from_column_slice(q));
        if name.starts_with('P') {
            assert!(is_p_matrix(&m), "{name}");
        } else {
            assert!(is_psd(&m), "{name}");
        }
        for rule in *cycling {
            let plain = lemke_exact(&m, &q, *rule, 1000);
            assert!(
                matches!(plain, Outcome::Cycle { .. }),
                "{name}: {rule:?} gave {plain:?}"
            );
        }
        let pivots = agrees_with_exact(&m, &q, name);
        assert!(pivots <= path_bound(q.len()), "{name}: {pivots} pivots");
    }
}

/// Identical rows tie on every ratio: the ratio test alone cannot choose, only the rows
/// of `B^-1` can.
#[test]
fn many_identical_rows() {
    let c = from_rows(&[&[4.0, 5.0, 3.0], &[3.0, 4.0, 5.0], &[5.0, 3.0, 4.0]]);
    let ones = |k: usize| DMatrix::from_element(k, k, 1.0);
    let cases = [
        // every row the same
        ("J_40", ones(40)),
        // the circulant repeated 10 x 10: each row 10 times
        ("J_10 ⊗ C", ones(10).kronecker(&c)),
        // four independent copies of the circulant
        ("I_4 ⊗ C", DMatrix::identity(4, 4).kronecker(&c)),
        // every row the same, and a diagonal that separates them
        ("J_20 + I", ones(20) + DMatrix::identity(20, 20)),
    ];
    for (name, m) in cases {
        let q = DVector::from_element(m.nrows(), -1.0);
        if name.contains('C') {
            let plain = lemke_exact(&m, &q, Rule::FirstRow, 1000);
            assert!(matches!(plain, Outcome::Cycle { .. }), "{name}: {plain:?}");
        }
        let pivots = agrees_with_exact(&m, &q, name);
        assert!(pivots <= path_bound(q.len()), "{name}: {pivots} pivots");
    }
}

/// A ray only where the LCP has no solution: `M` is positive semidefinite
/// (`M + M^T = 2 a a^T`), the plain last-row rule cycles, and `y = e_1 + e_5 >= 0` has
/// `M^T y <= 0`, `q^T y < 0`, so `y^T w = (M^T y)^T z + q^T y < 0` for every `z >= 0`:
/// some `w_i` is negative, whatever `z`.
#[test]
fn a_ray_only_where_a_certificate_proves_the_lcp_infeasible() {
    let m = from_rows(&[
        &[1.0, -2.0, -4.0, -5.0, -1.0],
        &[4.0, 1.0, -5.0, -1.0, 2.0],
        &[2.0, 3.0, 1.0, 4.0, 0.0],
        &[3.0, -1.0, -2.0, 1.0, 1.0],
        &[-1.0, -4.0, 2.0, 1.0, 1.0],
    ]);
    let q = DVector::from_column_slice(&[0.0, -1.0, -1.0, 0.0, -1.0]);
    let y = DVector::from_column_slice(&[1.0, 0.0, 0.0, 0.0, 1.0]);
    assert!((m.transpose() * &y).iter().all(|v| *v <= 0.0) && q.dot(&y) < 0.0);
    assert!(is_psd(&m));
    assert!(matches!(
        lemke_exact(&m, &q, Rule::LastRow, 1000),
        Outcome::Cycle { .. }
    ));
    agrees_with_exact(&m, &q, "infeasible psd 5x5");
    let (result, x) = ours(&m, &q);
    assert!(matches!(result, Err(SolveError::RayTermination { .. })));
    assert!(x.iter().all(|v| v.is_finite()));
}

/// A random integer matrix of the two classes Lemke's method is for: positive semidefinite
/// `A A^T + S - S^T` (copositive-plus) or strictly row diagonally dominant with a positive
/// diagonal (a P-matrix). Entries are small integers so that ties are exact ties.
fn degenerate_lcp() -> impl Strategy<Value = (DMatrix<f64>, DVector<f64>, bool)> {
    (2..=7usize, 1..=7usize, any::<bool>()).prop_flat_map(|(n, k, psd)| {
        (
            prop::collection::vec(-2..=2i32, n * k),
            prop::collection::vec(-2..=2i32, n * n),
            prop::collection::vec(1..=3i32, n),
            // mostly zeros and equal entries: degenerate at almost every pivot
            prop::collection::vec(prop::sample::select(vec![-2, -1, -1, 0, 0, 0, 1]), n),
        )
            .prop_map(move |(a, s, diag, q)| {
                let s = DMatrix::from_fn(n, n, |i, j| f64::from(s[i * n + j]));
                let m = if psd {
                    let k = k.min(n);
                    let a = DMatrix::from_fn(n, k, |i, j| f64::from(a[i * k + j]));
                    &a * a.transpose() + &s - s.transpose()
                } else {
                    let mut m = s;
                    for i in 0..n {
                        let off: f64 = (0..n).filter(|&j| j != i).map(|j| m[(i, j)].abs()).sum();
                        m[(i, i)] = off + f64::from(diag[i]);
                    }
                    m
                };
                let q = DVector::from_iterator(n, q.iter().map(|v| f64::from(*v)));
                (m, q, psd)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn degenerate_lcps_follow_the_exact_path((m, q, psd) in degenerate_lcp()) {
        let pivots = agrees_with_exact(&m, &q, &format!("{m}{q}"));
        prop_assert!(pivots <= path_bound(q.len()));
        let in_class = if psd { is_psd(&m) } else { is_p_matrix(&m) };
        prop_assert!(in_class);
        // On a P-matrix every LCP has a solution, so a ray would be wrong.
        if !psd {
            let (result, _) = ours(&m, &q);
            prop_assert!(result.is_ok(), "{:?}", result);
        }
    }
}

/// The pivot test is relative to the terms `d_i` is summed from. A tolerance relative to
/// `‖(B^-1)_i‖∞ ‖a‖∞` (tried while fixing issue 9) took the exact entry `d = 1` of
/// `[[1e-300, 1e300], [1e300, 1]]` for rounding beside the `1e300` of the column, and
/// ended on a ray, though `M` is strictly copositive and `z = (0, 1)` solves the LCP.
/// At the ends of the floating-point range the method ends on an answer or reports the
/// overflow, never a wrong answer or a NaN.
#[test]
fn the_pivot_test_is_relative_to_the_terms_it_sums() {
    let q = DVector::from_column_slice(&[-1.0, -1.0]);
    let m = from_rows(&[&[1e-300, 1e300], &[1e300, 1.0]]);
    agrees_with_exact(&m, &q, "1e300 beside 1");
    // The answer (1/2, 1/2) is a float, but d = B^-1 a holds 2 f64::MAX on the way: an
    // overflow, reported as such (without the check the method ended on z = (0, 1), where
    // w_2 = f64::MAX, and the relative error 1 / f64::MAX called that converged).
    let m = from_rows(&[&[f64::MAX, f64::MAX], &[-f64::MAX, f64::MAX]]);
    let q2 = DVector::from_column_slice(&[-f64::MAX, -1.0]);
    let (result, x) = ours(&m, &q2);
    assert!(
        matches!(result, Err(SolveError::Diverged { .. })),
        "{result:?}"
    );
    assert!(x.iter().all(|v| *v == 0.0));
    // z_2 = 1 / 5e-324 is not a float: the basis overflows, and that is what is reported
    let m = from_rows(&[&[f64::MIN_POSITIVE, 0.0], &[0.0, 5e-324]]);
    let (result, x) = ours(&m, &q);
    assert!(
        matches!(result, Err(SolveError::Diverged { .. })),
        "{result:?}"
    );
    assert!(x.iter().all(|v| v.is_finite()));
}
