//! MuJoCo's default cone judged in forces: a pyramidal export is read with the pyramid of
//! its contacts (`Provenance::pyramid`), its answer is judged as contact-frame forces
//! `E p` with labels and the worst contact in N, and beside it in the elliptic problem of
//! the same contacts (the file's hard contact-frame view).

use std::path::PathBuf;

use nalgebra::{DMatrix, DVector};
use nonsmooth::check::{CheckOptions, check, compare_with_elliptic};
use nonsmooth::io::{IoErrorKind, load, mujoco};

fn shipped() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/mujoco/mujoco_box_stack4_pyramidal.json")
}

/// `E_edges_to_contact_force` and `engine_solution` as the file writes them.
fn file_e_and_p() -> (DMatrix<f64>, DVector<f64>) {
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(shipped()).unwrap()).unwrap();
    let rows: Vec<Vec<f64>> =
        serde_json::from_value(v["E_edges_to_contact_force"].clone()).unwrap();
    let e = DMatrix::from_fn(rows.len(), rows[0].len(), |i, j| rows[i][j]);
    let p: Vec<f64> = serde_json::from_value(v["engine_solution"].clone()).unwrap();
    (e, DVector::from_vec(p))
}

/// Every contact's record is MuJoCo's contact-frame force `E p` (the file's own `E`), in
/// N at the acceleration level, with its label.
#[test]
fn records_are_the_files_contact_forces_with_labels() {
    let lp = load(shipped()).unwrap();
    let p = lp.answer.as_ref().unwrap().r.clone();
    let report = check(&lp.problem, &p, &lp.provenance, &CheckOptions::default()).unwrap();
    let (e, pf) = file_e_and_p();
    let f = &e * &pf;
    assert_eq!(report.pyramid_contacts, Some(16));
    assert_eq!(report.contacts.len(), 16);
    assert_eq!(report.force_unit.as_deref(), Some("N"));
    for (c, rec) in report.contacts.iter().enumerate() {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
        assert!(
            close(rec.r_n, f[3 * c]),
            "contact {c}: {} vs {}",
            rec.r_n,
            f[3 * c]
        );
        assert!(close(rec.r_t1.unwrap(), f[3 * c + 1]));
        assert!(close(rec.r_t2.unwrap(), f[3 * c + 2]));
        assert_eq!(rec.law.as_deref(), Some("pyramid"));
        assert_eq!(rec.dim, Some(4));
        assert!(rec.label.as_deref().is_some_and(|l| l.starts_with("geom ")));
    }
    assert_eq!(report.verdict, "consistent");
    assert!(report.grade.contains(" N "), "{}", report.grade);
}

/// Moving two opposite edges of one contact by δ each changes its normal force by 2δ and
/// nothing else: the distance is 2δ at that contact (in edge variables it would be √2 δ),
/// and that contact is the worst.
#[test]
fn the_distance_is_in_newtons_of_contact_force() {
    let lp = load(shipped()).unwrap();
    let mut p = lp.answer.as_ref().unwrap().r.clone();
    let (c, delta) = (5, 0.25);
    p[4 * c] += delta;
    p[4 * c + 1] += delta;
    let report = check(&lp.problem, &p, &lp.provenance, &CheckOptions::default()).unwrap();
    let rf = report.reference.unwrap();
    assert!(rf.found);
    assert!(
        (rf.distance.unwrap() - 2.0 * delta).abs() < 1e-9,
        "{:?}",
        rf.distance
    );
    assert_eq!(rf.worst_contact, Some(c));
    assert!((rf.worst_distance.unwrap() - 2.0 * delta).abs() < 1e-9);
    assert_eq!(
        rf.worst_label.as_deref(),
        lp.provenance.labels.get(c).map(|s| s.as_str())
    );
}

/// The same forces in the elliptic problem of the same contacts: MuJoCo's pyramidal
/// answer is the pyramidal solution, so its distance to the elliptic solution is the
/// distance between the two solutions, and it is not zero (the pyramid is not the cone).
#[test]
fn the_elliptic_comparison_measures_the_models_difference() {
    let lp = load(shipped()).unwrap();
    let view = lp
        .elliptic
        .as_ref()
        .expect("the shipped file has its hard view");
    let p = lp.answer.as_ref().unwrap().r.clone();
    let opts = CheckOptions::default();
    let mut report = check(&lp.problem, &p, &lp.provenance, &opts).unwrap();
    compare_with_elliptic(&mut report, &p, &lp.provenance, view, &opts).unwrap();
    let e = report.elliptic.unwrap();
    assert!(e.reference_found, "{e:?}");
    let (d, between) = (e.distance.unwrap(), e.between_references.unwrap());
    assert!(d > 0.0);
    assert!((d - between).abs() <= 1e-6 * between, "{d} vs {between}");
    assert!(e.worst_label.is_some());
}

/// An `E` that is not the contacts' pyramid is refused, naming the entry.
#[test]
fn an_edge_matrix_that_disagrees_is_an_error() {
    let text = std::fs::read_to_string(shipped()).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let old = v["E_edges_to_contact_force"][1][0].as_f64().unwrap();
    v["E_edges_to_contact_force"][1][0] = serde_json::json!(old * 2.0 + 0.1);
    let bytes = serde_json::to_vec(&v).unwrap();
    let err = mujoco::from_bytes(&shipped(), &bytes).unwrap_err();
    assert!(matches!(err.kind, IoErrorKind::Parse { .. }), "{err}");
    let msg = err.to_string();
    assert!(msg.contains("E_edges_to_contact_force[1][0]"), "{msg}");
    assert!(msg.contains("pyramid"), "{msg}");
}

/// The pyramid is kept by the project's JSON format (written, read back identical) and
/// refused where it does not fit.
#[test]
fn the_pyramid_round_trips_and_is_checked() {
    let lp = load(shipped()).unwrap();
    let dir = std::env::temp_dir().join(format!("nonsmooth-pyramid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("pyr.json");
    nonsmooth::io::json::write(
        &out,
        &lp.name,
        &lp.problem,
        lp.answer.as_ref(),
        &lp.provenance,
    )
    .unwrap();
    let back = load(&out).unwrap();
    assert_eq!(back.provenance.pyramid, lp.provenance.pyramid);
    assert_eq!(back.provenance.labels, lp.provenance.labels);
    // A pyramid with a contact beyond the unknowns is a parse error naming the key.
    let text = std::fs::read_to_string(&out).unwrap();
    let bad = text.replacen("\"row\":60", "\"row\":62", 1);
    assert_ne!(bad, text);
    std::fs::write(&out, bad).unwrap();
    let err = load(&out).unwrap_err().to_string();
    assert!(err.contains("provenance.pyramid"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
