//! Rollout archives (`io::numpy::rollout`): every step of a trajectory in one `.npz`,
//! written and read back unchanged, and damaged archives refused with the member named.

use std::path::Path;

use nalgebra::{DMatrix, DVector};
use nonsmooth::io::numpy::npz::Compression;
use nonsmooth::io::numpy::rollout::{self, Step};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::{
    AnyProblem, EngineAnswer, FrictionContact, FrictionKind, Lcp, Provenance, Pyramid,
};

/// A friction step with a dense `W` that is mostly zeros (stored sparse by the writer),
/// and an LCP step whose unknowns are pyramid edges.
fn steps() -> Vec<(AnyProblem, EngineAnswer, Provenance)> {
    let mut w = DMatrix::<f64>::identity(9, 9) * 2.0;
    w[(0, 3)] = 0.25;
    w[(3, 0)] = 0.25;
    let fc = AnyProblem::Friction(
        FrictionContact::new(
            Matrix::Dense(w),
            DVector::from_fn(9, |i, _| -1.0 + 0.1 * i as f64),
            DVector::from_vec(vec![0.5, 0.3, 0.8]),
            FrictionKind::Ccp,
        )
        .unwrap(),
    );
    let a = DMatrix::<f64>::from_fn(8, 8, |i, j| {
        if i == j {
            3.0
        } else {
            0.1 * ((i + j) % 3) as f64
        }
    });
    let lcp = AnyProblem::Lcp(Lcp::new(Matrix::Dense(a), DVector::from_element(8, -1.0)).unwrap());
    let mut p1 = Provenance::default();
    p1.labels = vec!["a".into(), "b".into(), "c".into()];
    p1.units.insert("r".into(), "N s".into());
    let p2 = Provenance {
        labels: vec!["x".into(), "y".into()],
        pyramid: Some(Pyramid::consecutive(0, [vec![0.5, 0.5], vec![0.9, 0.4]])),
        ..Default::default()
    };
    let ans = |n: usize| EngineAnswer {
        source: "engine".into(),
        r: (0..n).map(|i| 0.1 * i as f64).collect(),
        u: None,
    };
    vec![(fc, ans(9), p1), (lcp, ans(8), p2)]
}

#[test]
fn a_rollout_round_trips_step_by_step() {
    let s = steps();
    let list: Vec<Step<'_>> = s
        .iter()
        .enumerate()
        .map(|(k, (p, a, prov))| Step {
            name: ["first", "second"][k],
            problem: p,
            answer: Some(a),
            provenance: prov,
        })
        .collect();
    for compression in [Compression::Stored, Compression::Deflated] {
        let bytes = rollout::to_bytes(&list, compression).unwrap();
        let back = rollout::from_bytes(Path::new("r.npz"), &bytes).unwrap();
        assert_eq!(back.len(), 2);
        for ((p, a, prov), lp) in s.iter().zip(&back) {
            assert_eq!(lp.problem.dim(), p.dim());
            let (x, y) = match (&lp.problem, p) {
                (AnyProblem::Friction(x), AnyProblem::Friction(y)) => (x.w(), y.w()),
                (AnyProblem::Lcp(x), AnyProblem::Lcp(y)) => (x.a(), y.a()),
                _ => panic!("the problem type changed"),
            };
            assert_eq!(x.to_dense(), y.to_dense());
            assert_eq!(lp.answer.as_ref().unwrap().r, a.r);
            assert_eq!(lp.provenance.labels, prov.labels);
            assert_eq!(lp.provenance.pyramid, prov.pyramid);
        }
        // the mostly-zero dense W went in as compressed rows, the full A stayed dense
        assert!(matches!(&back[0].problem, AnyProblem::Friction(f) if f.w().is_sparse()));
        assert!(matches!(&back[1].problem, AnyProblem::Lcp(l) if !l.a().is_sparse()));
        assert_eq!(back[0].name, "first");
    }
}

#[test]
fn damaged_rollouts_name_the_member() {
    let s = steps();
    let list: Vec<Step<'_>> = s
        .iter()
        .map(|(p, a, prov)| Step {
            name: "s",
            problem: p,
            answer: Some(a),
            provenance: prov,
        })
        .collect();
    let bytes = rollout::to_bytes(&list, Compression::Stored).unwrap();
    // read as one problem: the error says it is a rollout
    let err = nonsmooth::io::numpy::npz::from_bytes(Path::new("r.npz"), &bytes).unwrap_err();
    assert!(err.to_string().contains("rollout archive"), "{err}");
    // a step's member renamed outside any step
    let renamed = replace(&bytes, b"step_00001/b.npy", b"stepx00001/b.npy");
    let err = rollout::from_bytes(Path::new("r.npz"), &renamed).unwrap_err();
    assert!(err.to_string().contains("stepx00001/b.npy"), "{err}");
    assert!(err.to_string().contains("not in a step"), "{err}");
    // a step's array damaged: named with its step
    let renamed = replace(&bytes, b"step_00001/b.npy", b"step_00001/z.npy");
    let err = rollout::from_bytes(Path::new("r.npz"), &renamed).unwrap_err();
    assert!(err.to_string().contains("step_00001/z.npy"), "{err}");
    // not a zip at all, and an empty archive
    assert!(rollout::from_bytes(Path::new("r.npz"), b"hello").is_err());
    let empty = rollout::to_bytes(&[], Compression::Stored).unwrap();
    let err = rollout::from_bytes(Path::new("r.npz"), &empty).unwrap_err();
    assert!(err.to_string().contains("no step"), "{err}");
}

/// Replaces every occurrence of `from` by `to` (same length) in a zip's bytes: the local
/// header and the central directory both name the member.
fn replace(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let mut out = bytes.to_vec();
    let mut i = 0;
    let mut n = 0;
    while i + from.len() <= out.len() {
        if &out[i..i + from.len()] == from {
            out[i..i + from.len()].copy_from_slice(to);
            n += 1;
            i += from.len();
        } else {
            i += 1;
        }
    }
    assert!(n >= 2, "the member name appears {n} times");
    out
}
