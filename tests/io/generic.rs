//! The generic mechanical problem (`gmp`) through the project's JSON, `.npz` archives and
//! NumPy folders (round trips bit for bit, strict errors naming the block), the NumPy
//! folder's provenance (issue 13), the per-block records of `check` and of a written
//! answer, and the independent judge of `tests/adversarial/judge.rs` on answers whose
//! correctness is known by construction.

use nonsmooth::io::numpy::{folder, header, npz};

use crate::judge;

use std::path::{Path, PathBuf};

use nalgebra::{DMatrix, DVector};
use nonsmooth::check::{CheckOptions, check};
use nonsmooth::io::{AnyProblem, json};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::generic::project_on_isotropic_cone;
use nonsmooth::problem::{
    Block, EngineAnswer, FrictionContact, FrictionKind, GenericMechanical, Provenance,
};

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nonsmooth-io-gmp-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every kind of block: equality, unilateral, a box with one infinite bound, a box with
/// two finite ones, an isotropic 3-row contact, a condim-4 and an anisotropic condim-6
/// contact (17 rows).
fn blocks() -> Vec<Block> {
    vec![
        Block::Equality,
        Block::Unilateral,
        Block::Interval {
            lo: f64::NEG_INFINITY,
            hi: 2.0,
        },
        Block::Interval { lo: -0.5, hi: 0.5 },
        Block::Contact { mu: vec![0.5, 0.5] },
        Block::Contact {
            mu: vec![0.8, 0.8, 0.01],
        },
        Block::Contact {
            mu: vec![0.9, 0.4, 0.02, 0.001, 0.0],
        },
    ]
}

const N: usize = 1 + 1 + 1 + 1 + 3 + 4 + 6;

/// A symmetric positive definite `W` with awkward numbers (0.1 + 0.2, 1/3, tiny entries).
fn w_dense() -> DMatrix<f64> {
    let mut w = DMatrix::<f64>::identity(N, N) * 2.0;
    for i in 0..N - 1 {
        w[(i, i + 1)] = 0.1 + 0.2;
        w[(i + 1, i)] = 0.1 + 0.2;
    }
    w[(0, N - 1)] = 1.0 / 3.0;
    w[(N - 1, 0)] = 1.0 / 3.0;
    w[(3, 5)] = -1e-300;
    w[(5, 3)] = -1e-300;
    w
}

fn q() -> DVector<f64> {
    DVector::from_fn(N, |i, _| ((i as f64) * 0.37).sin() - 0.2)
}

fn problem(sparse: bool, kind: FrictionKind) -> GenericMechanical {
    let w = w_dense();
    let w = if sparse {
        let mut t = Vec::new();
        for i in 0..N {
            for j in 0..N {
                if w[(i, j)] != 0.0 {
                    t.push((i, j, w[(i, j)]));
                }
            }
        }
        Matrix::from_triplets(N, N, &t).unwrap()
    } else {
        Matrix::Dense(w)
    };
    GenericMechanical::new(w, q(), blocks(), kind).unwrap()
}

fn provenance() -> Provenance {
    let mut p = Provenance {
        source: "a test".into(),
        description: "every block kind".into(),
        ..Default::default()
    };
    p.units.insert("r".into(), "N s".into());
    p.units.insert("u".into(), "m/s".into());
    p.labels = (0..blocks().len()).map(|b| format!("block-{b}")).collect();
    p
}

fn answer() -> EngineAnswer {
    EngineAnswer {
        source: "some engine".into(),
        r: (0..N).map(|i| i as f64 / 7.0).collect(),
        u: Some((0..N).map(|i| -(i as f64) / 3.0).collect()),
    }
}

fn bits(m: &Matrix) -> Vec<u64> {
    m.to_dense().iter().map(|v| v.to_bits()).collect()
}

fn same(a: &GenericMechanical, b: &GenericMechanical) {
    assert_eq!(bits(a.w()), bits(b.w()));
    assert_eq!(
        matches!(a.w(), Matrix::Sparse(_)),
        matches!(b.w(), Matrix::Sparse(_)),
        "storage kept"
    );
    let qb: Vec<u64> = a.q().iter().map(|v| v.to_bits()).collect();
    assert_eq!(qb, b.q().iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    assert_eq!(a.blocks(), b.blocks());
    assert_eq!(a.kind(), b.kind());
}

fn generic(p: &AnyProblem) -> &GenericMechanical {
    match p {
        AnyProblem::Generic(g) => g,
        other => panic!("read back as {}", other.type_name()),
    }
}

#[test]
fn json_round_trip_is_exact_and_text_stable() {
    for (sparse, kind) in [(false, FrictionKind::Coulomb), (true, FrictionKind::Ccp)] {
        let p = problem(sparse, kind);
        let any = AnyProblem::Generic(p.clone());
        let text = json::to_string("gmp", &any, Some(&answer()), &provenance());
        assert!(text.contains(r#""type":"gmp""#), "{text}");
        assert!(
            text.contains(r#"{"law":"interval","lo":null,"hi":2.0}"#),
            "an infinite bound is null: {text}"
        );
        assert!(
            text.contains(r#"{"law":"contact","mu":[0.8,0.8,0.01]}"#),
            "{text}"
        );
        let back = json::from_bytes(Path::new("g.json"), text.as_bytes()).unwrap();
        same(&p, generic(&back.problem));
        assert_eq!(back.answer, Some(answer()));
        assert_eq!(back.provenance, provenance());
        let again = json::to_string(
            &back.name,
            &back.problem,
            back.answer.as_ref(),
            &back.provenance,
        );
        assert_eq!(text, again);
        // The fuzz target's property on the same bytes.
        nonsmooth::fuzz::project_json(text.as_bytes());
    }
}

fn gmp_json(blocks: &str, q: &str) -> String {
    format!(
        r#"{{"format": "nonsmooth-problem", "version": 1, "name": "x", "type": "gmp",
            "data": {{"W": {{"storage": "triplets", "nrows": 3, "ncols": 3,
                            "entries": [[0, 0, 1], [1, 1, 1], [2, 2, 1]]}},
                     "q": {q}, "blocks": {blocks}}}}}"#
    )
}

fn json_err(blocks: &str, q: &str) -> String {
    json::from_bytes(Path::new("x.json"), gmp_json(blocks, q).as_bytes())
        .unwrap_err()
        .to_string()
}

#[test]
fn malformed_json_blocks_are_named() {
    let q3 = "[-1, 0, 0]";
    // the good one reads
    json::from_bytes(
        Path::new("x.json"),
        gmp_json(r#"[{"law": "contact", "mu": [0.5, 0.5]}]"#, q3).as_bytes(),
    )
    .unwrap();
    let cases = [
        (
            r#"[{"law": "equality"}, {"law": "friction"}, {"law": "unilateral"}]"#,
            "data.blocks[1]: block 1 has the unknown law `friction`",
        ),
        (
            r#"[{"law": "equality"}, {"law": "contact", "mu": []}]"#,
            "data.blocks[1]: block 1 (contact) has an empty `mu`",
        ),
        (
            r#"[{"law": "contact", "mu": [0.5, -0.1]}]"#,
            "data.blocks[0]: block 0 (contact) has mu[1] = -0.1",
        ),
        (
            r#"[{"law": "contact"}]"#,
            "data.blocks[0]: block 0 (contact) needs `mu`",
        ),
        (
            r#"[{"law": "equality"}, {"law": "equality"}, {"law": "interval", "lo": 1, "hi": 0}]"#,
            "data.blocks[2]: block 2 (interval) has lo = 1.0 above hi = 0.0",
        ),
        (
            r#"[{"law": "equality"}, {"law": "equality"}, {"law": "interval", "lo": 1}]"#,
            "data.blocks[2]: block 2 (interval) needs `hi`",
        ),
        (
            r#"[{"law": "unilateral", "mu": [0.5]}, {"law": "equality"}, {"law": "equality"}]"#,
            "data.blocks[0]: block 0 (unilateral) has a `mu`",
        ),
        (
            r#"[{"law": "equality"}, {"law": "contact", "mu": [0.5, 0.5]}]"#,
            "data.blocks: the 2 blocks hold 4 rows, but data.q has 3 entries",
        ),
        (
            r#"[{"law": "equality"}, {"law": "equality"}]"#,
            "data.blocks: the 2 blocks hold 2 rows, but data.q has 3 entries",
        ),
        (
            r#"[{"law": "equality", "bounds": 1}, {"law": "equality"}, {"law": "equality"}]"#,
            "unknown field `bounds`",
        ),
    ];
    for (blocks, want) in cases {
        let e = json_err(blocks, q3);
        assert!(e.contains(want), "{blocks}\n  got: {e}\n  want: {want}");
    }
    // no blocks at all
    let text = r#"{"format": "nonsmooth-problem", "version": 1, "name": "x", "type": "gmp",
        "data": {"W": {"storage": "dense", "nrows": 1, "ncols": 1, "rows": [[1]]}, "q": [1]}}"#;
    let e = json::from_bytes(Path::new("x.json"), text.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(e.contains("a `gmp` problem needs `data.blocks`"), "{e}");
}

#[test]
fn npz_round_trip_is_exact() {
    for (sparse, kind) in [(false, FrictionKind::Coulomb), (true, FrictionKind::Ccp)] {
        let p = problem(sparse, kind);
        let any = AnyProblem::Generic(p.clone());
        for c in [npz::Compression::Stored, npz::Compression::Deflated] {
            let bytes = npz::to_bytes("gmp", &any, Some(&answer()), &provenance(), c).unwrap();
            let back = npz::from_bytes(Path::new("g.npz"), &bytes).unwrap();
            same(&p, generic(&back.problem));
            assert_eq!(back.name, "gmp");
            assert_eq!(back.answer, Some(answer()));
            assert_eq!(back.provenance, provenance());
            assert!(back.warnings.is_empty(), "{:?}", back.warnings);
            let again = npz::to_bytes(
                &back.name,
                &back.problem,
                back.answer.as_ref(),
                &back.provenance,
                c,
            )
            .unwrap();
            assert_eq!(bytes, again, "the same bytes again");
            nonsmooth::fuzz::npz_archive(&bytes);
        }
    }
}

#[test]
fn numpy_folder_round_trip_keeps_blocks_and_provenance() {
    let dir = tmp("folder");
    let p = problem(false, FrictionKind::Ccp);
    let out = dir.join("g");
    folder::write_with_provenance(
        &out,
        "gmp",
        &AnyProblem::Generic(p.clone()),
        Some(&answer()),
        &provenance(),
    )
    .unwrap();
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "W.npy",
            "blocks.npy",
            "hi.npy",
            "lo.npy",
            "meta.json",
            "mu.npy",
            "mu_len.npy",
            "q.npy",
            "r.npy",
            "u.npy"
        ]
    );
    let back = folder::load(&out).unwrap();
    same(&p, generic(&back.problem));
    assert_eq!(back.answer, Some(answer()));
    assert_eq!(back.provenance, provenance());
    assert_eq!(back.name, "gmp");
    // The arrays as documented.
    let codes = header::parse_ints(
        &out.join("blocks.npy"),
        &std::fs::read(out.join("blocks.npy")).unwrap(),
    )
    .unwrap();
    assert_eq!(codes, [0, 1, 2, 2, 3, 3, 3]);
    let mu_len = header::parse_ints(
        &out.join("mu_len.npy"),
        &std::fs::read(out.join("mu_len.npy")).unwrap(),
    )
    .unwrap();
    assert_eq!(mu_len, [0, 0, 0, 0, 2, 3, 5]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 13: the NumPy folder writer dropped the labels and the provenance.
#[test]
fn numpy_folder_keeps_labels_and_provenance_of_fc3d() {
    let dir = tmp("fc3d-prov");
    let fc = FrictionContact::new(
        Matrix::Dense(DMatrix::identity(6, 6)),
        DVector::from_vec(vec![-1.0, 0.0, 0.0, -2.0, 0.1, 0.0]),
        DVector::from_vec(vec![0.5, 0.3]),
        FrictionKind::Ccp,
    )
    .unwrap();
    let mut prov = Provenance {
        source: "MuJoCo 3.3".into(),
        description: "two boxes".into(),
        ..Default::default()
    };
    prov.units.insert("r".into(), "N".into());
    prov.labels = vec!["box1/floor".into(), "box2/floor".into()];
    let out = dir.join("fc");
    let ans = EngineAnswer {
        source: "the engine".into(),
        r: vec![1.0, 0.0, 0.0, 2.0, 0.0, 0.0],
        u: None,
    };
    folder::write_with_provenance(&out, "fc", &AnyProblem::Friction(fc), Some(&ans), &prov)
        .unwrap();
    let meta = std::fs::read_to_string(out.join("meta.json")).unwrap();
    for key in ["labels", "units", "source", "description", "answer_source"] {
        assert!(meta.contains(&format!("\"{key}\"")), "{key}: {meta}");
    }
    let back = folder::load(&out).unwrap();
    assert_eq!(back.provenance, prov);
    assert_eq!(back.answer.unwrap().source, "the engine");
    // Labels of the wrong count are an error naming meta.json.
    let bad = meta.replace("\"box2/floor\"", "\"box2/floor\", \"extra\"");
    std::fs::write(out.join("meta.json"), bad).unwrap();
    let e = folder::load(&out).unwrap_err().to_string();
    assert!(
        e.contains("meta.json") && e.contains("3 labels for 2 contacts"),
        "{e}"
    );
    // A label that is not a string is named.
    std::fs::write(out.join("meta.json"), r#"{"labels": ["a", 3]}"#).unwrap();
    let e = folder::load(&out).unwrap_err().to_string();
    assert!(e.contains("`labels`[1]") && e.contains("a number"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Malformed block arrays in a NumPy folder: errors name the array and the block.
#[test]
fn malformed_block_arrays_are_named() {
    let dir = tmp("bad-arrays");
    let p = GenericMechanical::new(
        Matrix::Dense(DMatrix::identity(4, 4)),
        DVector::from_vec(vec![1.0, -1.0, 0.0, 0.0]),
        vec![Block::Unilateral, Block::Contact { mu: vec![0.5, 0.5] }],
        FrictionKind::Ccp,
    )
    .unwrap();
    let out = dir.join("g");
    let ints = |name: &str, v: &[i64]| {
        std::fs::write(out.join(name), header::ints_to_npy(v)).unwrap();
    };
    let floats = |name: &str, v: &[f64]| {
        std::fs::write(out.join(name), header::vector_to_npy(v)).unwrap();
    };
    type Spoil<'a> = Box<dyn Fn() + 'a>;
    let cases: Vec<(Spoil, &str)> = vec![
        (
            Box::new(|| ints("blocks.npy", &[1, 7])),
            "blocks.npy[1]: block 1 has the law code 7",
        ),
        (
            Box::new(|| ints("mu_len.npy", &[0, 0])),
            "mu_len.npy[1]: block 1 (contact) has mu_len = 0",
        ),
        (
            Box::new(|| ints("mu_len.npy", &[0, 3])),
            "mu has 2 entries, fewer than the blocks' mu_len ask for",
        ),
        (
            Box::new(|| floats("lo.npy", &[-1.0, 0.0])),
            "lo.npy[0]: block 0 (unilateral) has lo = -1.0",
        ),
        (
            Box::new(|| floats("mu.npy", &[0.5, -0.5])),
            "mu.npy[1]: block 1 (contact) has the friction coefficient -0.5",
        ),
        (
            Box::new(|| floats("hi.npy", &[f64::INFINITY])),
            "hi has 1 entries for 2 blocks",
        ),
        (
            Box::new(|| ints("blocks.npy", &[1, 1])),
            "block 1 (unilateral) has mu_len = 2",
        ),
    ];
    for (spoil, want) in cases {
        folder::write(&out, "g", &AnyProblem::Generic(p.clone()), None).unwrap();
        folder::load(&out).unwrap();
        spoil();
        let e = folder::load(&out).unwrap_err().to_string();
        assert!(e.contains(want), "got: {e}\nwant: {want}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A problem with `W = I` (blocks decoupled) and its exact CCP solution: per block,
/// `r = -q` (equality), `max(0, -q)` (unilateral), `clamp(-q, lo, hi)` (interval), and
/// for a contact the Euclidean projection of `-q` onto its cone (the minimiser of
/// `½|r|² + q·r` over it); the anisotropic contact's `-q` is inside its cone (sticks).
fn solved() -> (GenericMechanical, Vec<f64>) {
    let blocks = blocks();
    let q = vec![
        0.3,  // equality
        -0.7, // unilateral, pressed: r = 0.7
        -5.0, // interval (-inf, 2]: r = 2
        0.2,  // interval [-0.5, 0.5]: r = -0.2
        -1.0, 0.9, 0.1, // isotropic contact, slides
        -1.0, 0.1, 0.2, 0.001, // condim 4 with mu (0.8, 0.8, 0.01): -q inside
        -2.0, 0.5, -0.2, 0.01, 0.0005, 0.0, // anisotropic condim 6: -q inside
    ];
    let mut r = vec![0.0; N];
    r[0] = -q[0];
    r[1] = 0.7;
    r[2] = 2.0;
    r[3] = -0.2;
    let x: Vec<f64> = q[4..7].iter().map(|v| -v).collect();
    project_on_isotropic_cone(&x, 0.5, &mut r[4..7]);
    for k in 7..N {
        r[k] = -q[k];
    }
    let g = GenericMechanical::new(
        Matrix::Dense(DMatrix::identity(N, N)),
        DVector::from_vec(q),
        blocks,
        FrictionKind::Ccp,
    )
    .unwrap();
    (g, r)
}

#[test]
fn the_judge_accepts_a_solution_and_rejects_a_wrong_one() {
    let (g, r) = solved();
    let e = g.error(&DVector::from_column_slice(&r));
    assert!(e.rel < 1e-15, "the constructed answer solves it: {e:?}");
    let any = AnyProblem::Generic(g.clone());
    let x = DVector::from_column_slice(&r);
    assert_eq!(judge::wrong(&any, &x, Some(FrictionKind::Ccp), 1e-12), None);
    // each block spoilt in turn is caught, and named
    let spoil: [(usize, f64, &str); 6] = [
        (0, 1e-3, "block 0 (equality)"),
        (1, -1e-3, "block 1 (unilateral)"),
        (2, 1e-3, "block 2 (interval)"),
        (4, 1e-3, "block 4 (contact)"),
        (8, 1e-3, "block 5 (contact)"),
        (16, 1e-3, "block 6 (contact)"),
    ];
    for (k, by, who) in spoil {
        let mut bad = r.clone();
        bad[k] += by;
        let why = judge::wrong(
            &any,
            &DVector::from_column_slice(&bad),
            Some(FrictionKind::Ccp),
            1e-8,
        )
        .unwrap_or_else(|| panic!("row {k} spoilt by {by} passed the judge"));
        assert!(why.contains(who), "row {k}: {why}");
    }
    // the zero answer is wrong too
    assert!(judge::wrong(&any, &DVector::zeros(N), None, 1e-8).is_some());
    // under Coulomb the sliding contact's answer is not De Saxcé's solution
    let why = judge::wrong(&any, &x, Some(FrictionKind::Coulomb), 1e-8).unwrap();
    assert!(why.contains("block 4 (contact)"), "{why}");
}

#[test]
fn check_reports_per_block_records() {
    let (g, r) = solved();
    let mut prov = provenance();
    prov.units.clear();
    prov.units.insert("r".into(), "N".into());
    let any = AnyProblem::Generic(g.clone());
    let opts = CheckOptions {
        reference: false,
        ..Default::default()
    };
    let report = check(&any, &r, &prov, &opts).unwrap();
    assert_eq!(report.verdict, "consistent", "{}", report.grade);
    assert_eq!(report.problem_type, "gmp");
    assert_eq!(report.kind.as_deref(), Some("ccp"));
    assert_eq!(report.force_unit.as_deref(), Some("N"));
    assert_eq!(report.contacts.len(), 7);
    let laws: Vec<(&str, usize)> = report
        .contacts
        .iter()
        .map(|c| (c.law.as_deref().unwrap(), c.dim.unwrap()))
        .collect();
    assert_eq!(
        laws,
        [
            ("equality", 1),
            ("unilateral", 1),
            ("interval", 1),
            ("interval", 1),
            ("contact", 3),
            ("contact", 4),
            ("contact", 6)
        ]
    );
    for c in &report.contacts {
        assert_eq!(
            c.label.as_deref(),
            Some(format!("block-{}", c.contact).as_str())
        );
        assert!(c.error < 1e-14, "{c:?}");
        assert!(
            c.cone_violation < 1e-14 && c.dual_violation < 1e-14,
            "{c:?}"
        );
        assert!(c.complementarity < 1e-14 && c.penetration < 1e-15, "{c:?}");
        assert_eq!(c.distance, None);
    }
    // the sliding contact dissipates; the box at its upper bound with u < 0 too
    assert!(report.contacts[4].dissipation > 0.0 && report.contacts[4].slip > 0.0);
    assert!(report.contacts[2].dissipation > 0.0);
    // JSON: the fc3d record's fields plus law and dim
    let v = serde_json::to_value(&report.contacts[5]).unwrap();
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "complementarity",
            "cone_violation",
            "contact",
            "dim",
            "dissipation",
            "distance",
            "dual_violation",
            "error",
            "label",
            "law",
            "penetration",
            "r_n",
            "slip",
            "u_n"
        ]
    );
    // a spoilt unilateral row shows where it is wrong
    let mut bad = r.clone();
    bad[1] = -0.1; // pulls, and u = -0.8 penetrates
    let report = check(&any, &bad, &prov, &opts).unwrap();
    assert_eq!(report.verdict, "inconsistent");
    let c = &report.contacts[1];
    assert!((c.cone_violation - 0.1).abs() < 1e-15, "{c:?}");
    assert!((c.penetration - 0.8).abs() < 1e-15, "{c:?}");
    assert!((c.complementarity - 0.08).abs() < 1e-15, "{c:?}");
    // the other law is reported; a law can be asked for
    assert_eq!(report.other_law.as_ref().unwrap().kind, "coulomb");
    let opts = CheckOptions {
        kind: Some(FrictionKind::Coulomb),
        reference: false,
        ..Default::default()
    };
    let report = check(&any, &r, &prov, &opts).unwrap();
    assert_eq!(report.kind.as_deref(), Some("coulomb"));
    assert_eq!(
        report.verdict, "inconsistent",
        "the sliding contact is not De Saxcé's"
    );
}

#[test]
fn answer_json_has_one_record_per_block() {
    let (g, r) = solved();
    let ans =
        nonsmooth::io::answer::Answer::new(&AnyProblem::Generic(g), &DVector::from_vec(r)).unwrap();
    assert_eq!(ans.problem_type, "gmp");
    assert!(ans.contacts.is_empty());
    assert_eq!(ans.blocks.len(), 7);
    let v = serde_json::to_value(&ans).unwrap();
    assert_eq!(v["blocks"][6]["law"], "contact");
    assert_eq!(v["blocks"][6]["dim"], 6);
    // an fc3d answer has no "blocks" key
    let fc = FrictionContact::new(
        Matrix::Dense(DMatrix::identity(3, 3)),
        DVector::from_vec(vec![-1.0, 0.0, 0.0]),
        DVector::from_vec(vec![0.5]),
        FrictionKind::Ccp,
    )
    .unwrap();
    let ans = nonsmooth::io::answer::Answer::new(
        &AnyProblem::Friction(fc),
        &DVector::from_vec(vec![1.0, 0.0, 0.0]),
    )
    .unwrap();
    let v = serde_json::to_value(&ans).unwrap();
    assert!(v.get("blocks").is_none(), "{v}");
}

/// Uniqueness is decided before any reference solve: the CCP with `(W + Wᵀ)/2` positive
/// definite is unique; Coulomb with friction is not established; Coulomb without friction
/// (every `mu` zero, or no contact) is the CCP.
#[test]
fn uniqueness_of_generic_problems() {
    let (g, r) = solved();
    let opts = CheckOptions {
        reference_seconds: 5.0,
        ..Default::default()
    };
    let prov = Provenance::default();
    let unique = |p: GenericMechanical| {
        let rep = check(&AnyProblem::Generic(p), &r, &prov, &opts).unwrap();
        let rf = rep.reference.unwrap();
        (rf.unique, rf.uniqueness)
    };
    let (u, why) = unique(g.clone());
    assert_eq!(u, Some(true), "{why}");
    assert!(why.contains("W is positive definite"), "{why}");
    let (u, why) = unique(g.clone().with_kind(FrictionKind::Coulomb));
    assert_eq!(u, None, "{why}");
    assert!(
        why.contains("Coulomb's law may have several solutions"),
        "{why}"
    );
    let frictionless: Vec<Block> = g
        .blocks()
        .iter()
        .map(|b| match b {
            Block::Contact { mu } => Block::Contact {
                mu: vec![0.0; mu.len()],
            },
            other => other.clone(),
        })
        .collect();
    let p = GenericMechanical::new(
        g.w().clone(),
        g.q().clone(),
        frictionless,
        FrictionKind::Coulomb,
    )
    .unwrap();
    let (u, why) = unique(p);
    assert_eq!(u, Some(true), "{why}");
    // W not positive definite: not established
    let mut w = DMatrix::<f64>::identity(N, N);
    w[(0, 0)] = 0.0;
    let p = GenericMechanical::new(
        Matrix::Dense(w),
        g.q().clone(),
        g.blocks().to_vec(),
        FrictionKind::Ccp,
    )
    .unwrap();
    let (u, why) = unique(p);
    assert_eq!(u, None, "{why}");
    assert!(why.contains("not positive definite"), "{why}");
}
