//! One NSGS preparation serves consecutive problems of one structure: solving a sequence of
//! problems through `solve_prepared` with a single `Nsgs::prepare` gives, problem by
//! problem, exactly the answers (bit for bit), iteration counts and errors of solving each
//! from scratch: when only `q` changes, when `W`'s numbers change, when a block of `W`
//! appears or vanishes, when `W` turns from dense to sparse, and back to the first problem.

use nalgebra::{DMatrix, DVector};
use nalgebra_sparse::{CooMatrix, CsrMatrix};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::{FrictionContact, FrictionKind};
use nonsmooth::solver::{Method, Params, no_observer, solve, solve_prepared};
use nonsmooth::splitting::{Nsgs, NsgsOptions};

/// A deterministic pseudo-random number in `[-1, 1)`.
fn next(seed: &mut u64) -> f64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    ((*seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
}

/// `W = A Aᵀ + I/2` for `nc` contacts, with the blocks coupling contacts `0` and `nc - 1`
/// zeroed when `decouple`.
fn delassus(nc: usize, seed: &mut u64, decouple: bool) -> DMatrix<f64> {
    let n = 3 * nc;
    let a = DMatrix::from_fn(n, n, |_, _| next(seed));
    let mut w = &a * a.transpose() / n as f64 + DMatrix::identity(n, n) * 0.5;
    if decouple {
        for k in 0..3 {
            for l in 0..3 {
                w[(k, 3 * (nc - 1) + l)] = 0.0;
                w[(3 * (nc - 1) + l, k)] = 0.0;
            }
        }
    }
    w
}

/// Pressed into the ground (negative normal free velocities) and pushed sideways.
fn free_velocity(nc: usize, seed: &mut u64) -> DVector<f64> {
    DVector::from_fn(3 * nc, |i, _| {
        if i % 3 == 0 {
            -1.0 + 0.5 * next(seed)
        } else {
            0.8 * next(seed)
        }
    })
}

fn sparse(w: &DMatrix<f64>) -> Matrix {
    let mut coo = CooMatrix::new(w.nrows(), w.ncols());
    for j in 0..w.ncols() {
        for i in 0..w.nrows() {
            if w[(i, j)] != 0.0 {
                coo.push(i, j, w[(i, j)]);
            }
        }
    }
    Matrix::Sparse(CsrMatrix::from(&coo))
}

fn problem(w: Matrix, q: DVector<f64>, kind: FrictionKind) -> FrictionContact {
    let nc = q.len() / 3;
    let mu = DVector::from_fn(nc, |c, _| 0.3 + 0.1 * c as f64);
    FrictionContact::new(w, q, mu, kind).expect("valid problem")
}

/// The problems of a time-stepper-like sequence, all with `nc` contacts.
fn sequence(kind: FrictionKind) -> Vec<(&'static str, FrictionContact)> {
    let nc = 5;
    let mut seed = 7;
    let w1 = delassus(nc, &mut seed, false);
    let w2 = delassus(nc, &mut seed, false);
    let w3 = delassus(nc, &mut seed, true);
    let q1 = free_velocity(nc, &mut seed);
    let q2 = free_velocity(nc, &mut seed);
    vec![
        ("first", problem(w1.clone().into(), q1.clone(), kind)),
        ("new q", problem(w1.clone().into(), q2.clone(), kind)),
        ("new W", problem(w2.clone().into(), q2.clone(), kind)),
        ("a zero block", problem(w3.clone().into(), q1.clone(), kind)),
        ("sparse", problem(sparse(&w2), q1.clone(), kind)),
        ("sparse, new W", problem(sparse(&w3), q2.clone(), kind)),
        ("first again", problem(w1.into(), q1, kind)),
    ]
}

fn check(kind: FrictionKind, options: &NsgsOptions) {
    let problems = sequence(kind);
    let params = Params {
        tol: 1e-12,
        max_iter: 2000,
        ..Default::default()
    };
    let mut prepared = Nsgs::prepare(&problems[0].1, options).expect("prepares");
    for (name, p) in &problems {
        let mut fresh = DVector::zeros(p.dim());
        let scratch = solve::<Nsgs>(p, &mut fresh, &params, options, &mut no_observer());
        let mut reused = DVector::zeros(p.dim());
        let again =
            solve_prepared::<Nsgs>(&mut prepared, p, &mut reused, &params, &mut no_observer());
        let (a, b) = match (scratch, again) {
            (Ok(a), Ok(b)) => (a, b),
            (a, b) => panic!("{name}: from scratch {a:?}, prepared once {b:?}"),
        };
        assert!(a.error.rel <= 1e-12, "{name}: did not converge ({a:?})");
        assert_eq!(a.iterations, b.iterations, "{name}: iterations");
        assert_eq!(a.error, b.error, "{name}: error");
        assert_eq!(
            fresh.as_slice(),
            reused.as_slice(),
            "{name}: answers differ"
        );
    }
}

#[test]
fn one_preparation_serves_problems_of_one_structure_coulomb() {
    check(FrictionKind::Coulomb, &NsgsOptions::default());
}

#[test]
fn one_preparation_serves_problems_of_one_structure_ccp() {
    check(FrictionKind::Ccp, &NsgsOptions::default());
}

#[test]
fn one_preparation_keeps_the_law_of_the_options() {
    let options = NsgsOptions {
        kind: Some(FrictionKind::Ccp),
        ..Default::default()
    };
    check(FrictionKind::Coulomb, &options);
}

#[test]
fn a_preparation_refuses_a_problem_with_a_non_positive_normal_diagonal() {
    let mut seed = 3;
    let w = delassus(2, &mut seed, false);
    let q = free_velocity(2, &mut seed);
    let good = problem(w.clone().into(), q.clone(), FrictionKind::Coulomb);
    let mut bad_w = w;
    bad_w[(3, 3)] = -1.0;
    let Ok(bad) = FrictionContact::new(
        bad_w.into(),
        q,
        DVector::from_element(2, 0.5),
        FrictionKind::Coulomb,
    ) else {
        return;
    };
    let mut prepared = Nsgs::prepare(&good, &NsgsOptions::default()).expect("prepares");
    let mut r = DVector::zeros(6);
    let params = Params::default();
    assert!(
        solve_prepared::<Nsgs>(&mut prepared, &bad, &mut r, &params, &mut no_observer()).is_err()
    );
    // and the preparation still serves the good problem afterwards
    let mut r = DVector::zeros(6);
    let mut fresh = DVector::zeros(6);
    solve_prepared::<Nsgs>(&mut prepared, &good, &mut r, &params, &mut no_observer())
        .expect("solves");
    solve::<Nsgs>(
        &good,
        &mut fresh,
        &params,
        &NsgsOptions::default(),
        &mut no_observer(),
    )
    .expect("solves");
    assert_eq!(r.as_slice(), fresh.as_slice());
}
