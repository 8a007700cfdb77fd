//! `contacts[i].label` in a MuJoCo export (as `nonsmooth.mujoco` writes it) becomes
//! `Provenance::labels` (`src/io/mujoco.rs`).

use std::path::Path;

use nonsmooth::io::mujoco;

/// `contacts[i].label` becomes `Provenance::labels` (one per contact, also where a
/// frictionless contact is padded); partial labels are an error; a pyramidal file keeps
/// them too, one per contact of its pyramid (issue 32).
#[test]
fn contact_labels_are_read() {
    let text = r#"{"n_contacts": 2, "cone": "elliptic", "A": [[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 2]], "b": [-1, 0, 0, -1], "mu": [0.5, 0.5], "contacts": [{"dim": 3, "label": "box/floor at (0.10, 0.00, 0.05)"}, {"dim": 1, "label": "ball/floor at (1.00, 0.00, 0.05)"}]}"#;
    let m = mujoco::from_bytes(Path::new("x.json"), text.as_bytes()).unwrap();
    assert_eq!(
        m.provenance.labels,
        vec![
            "box/floor at (0.10, 0.00, 0.05)".to_string(),
            "ball/floor at (1.00, 0.00, 0.05)".to_string()
        ]
    );
    assert_eq!(m.problem.dim(), 6);
    let partial = text.replace(r#", "label": "ball/floor at (1.00, 0.00, 0.05)""#, "");
    let e = mujoco::from_bytes(Path::new("x.json"), partial.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(e.contains("contacts[1].label"), "{e}");
    let none = text
        .replace(r#", "label": "ball/floor at (1.00, 0.00, 0.05)""#, "")
        .replace(r#", "label": "box/floor at (0.10, 0.00, 0.05)""#, "");
    let m = mujoco::from_bytes(Path::new("x.json"), none.as_bytes()).unwrap();
    assert!(m.provenance.labels.is_empty());
    let pyr = r#"{"n_contacts": 1, "cone": "pyramidal", "A": [[1]], "b": [-1], "mu": [0.5], "contacts": [{"dim": 1, "label": "a/b at (0.00, 0.00, 0.00)"}]}"#;
    let m = mujoco::from_bytes(Path::new("x.json"), pyr.as_bytes()).unwrap();
    assert_eq!(
        m.provenance.labels,
        vec!["a/b at (0.00, 0.00, 0.00)".to_string()]
    );
    assert_eq!(m.provenance.pyramid.as_ref().map(|p| p.len()), Some(1));
}

/// Issue 32: an export with `contacts[i].geom` (or `geoms`) and `.pos` but no labels
/// (MuJoCo's `mjContact` fields, as the bridge writes them) is labelled from them, so the
/// worst contact has a name; names are kept, ids read as `geom N`; a contact without
/// them leaves every contact unlabelled rather than some.
#[test]
fn labels_come_from_geoms_and_positions() {
    let text = r#"{"n_contacts": 2, "cone": "elliptic", "A": [[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 2]], "b": [-1, 0, 0, -1], "mu": [0.5, 0.5], "contacts": [{"dim": 3, "geom": [3, 0], "pos": [0.1, 0.0, 0.049]}, {"dim": 1, "geoms": ["ball", "floor"], "pos": [1.0, -0.25, 0.05]}]}"#;
    let m = mujoco::from_bytes(Path::new("x.json"), text.as_bytes()).unwrap();
    assert_eq!(
        m.provenance.labels,
        vec![
            "geom 3/geom 0 at (0.10, 0.00, 0.05)".to_string(),
            "ball/floor at (1.00, -0.25, 0.05)".to_string()
        ]
    );
    // Labels for some contacts only are still an error, though geoms could name the rest.
    let labelled = text.replace(r#""dim": 3, "#, r#""dim": 3, "label": "box/floor", "#);
    let e = mujoco::from_bytes(Path::new("x.json"), labelled.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("contacts[1].label"), "{e}");
    // One contact without a position: no labels at all.
    let partial = text.replace(r#", "pos": [1.0, -0.25, 0.05]"#, "");
    let m = mujoco::from_bytes(Path::new("x.json"), partial.as_bytes()).unwrap();
    assert!(m.provenance.labels.is_empty());
}
