//! Replays the committed fuzz seeds (`fuzz/seeds/<target>/`) and any crash files cargo-fuzz
//! left (`fuzz/artifacts/<target>/`) through the library's fuzz target bodies, on stable.
//! A panic here is a reader bug (or a failed round-trip property).

use std::path::{Path, PathBuf};

use nonsmooth::io::fuzz::TARGETS;

fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

#[test]
fn replay_seeds_and_artifacts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    for (name, body) in TARGETS {
        let seeds = files(&root.join("seeds").join(name));
        assert!(!seeds.is_empty(), "no seeds for fuzz target {name}");
        let artifacts = files(&root.join("artifacts").join(name));
        for f in seeds.iter().chain(&artifacts) {
            let data = std::fs::read(f).unwrap();
            let r = std::panic::catch_unwind(|| body(&data));
            assert!(r.is_ok(), "fuzz target {name} panicked on {}", f.display());
        }
        eprintln!(
            "{name}: replayed {} seeds and {} artifacts",
            seeds.len(),
            artifacts.len()
        );
    }
}

/// The hand-made seeds include valid files: check they are read as intended, so the
/// corpus keeps exercising the success paths (round trips) and not only the errors.
#[test]
fn valid_seeds_read() {
    use nonsmooth::io::{self, AnyProblem};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    for (t, file, ty) in [
        ("siconos_dat", "lcp_dense.dat", "lcp"),
        ("siconos_dat", "lcp_sbm_diagonal.dat", "lcp"),
        ("siconos_dat", "lcp_sbm_empty.dat", "lcp"),
        ("siconos_dat", "lcp_murty_like.dat", "lcp"),
        ("siconos_dat", "fc3d_one_contact.dat", "fc3d"),
        ("siconos_dat", "fc3d_sbm_two_contacts.dat", "fc3d"),
        ("siconos_dat", "gfc3d_dense.dat", "gfc3d"),
        ("siconos_dat", "gfc3d_sbm.dat", "gfc3d"),
        ("mujoco_json", "elliptic.json", "fc3d"),
        ("mujoco_json", "pyramidal.json", "lcp"),
        ("project_json", "lcp_triplets.json", "lcp"),
        ("project_json", "lcp_dense.json", "lcp"),
        ("project_json", "fc3d_ccp_answer.json", "fc3d"),
        ("project_json", "boxed.json", "boxed-lcp"),
        ("project_json", "gfc3d.json", "gfc3d"),
    ] {
        let p = io::load(root.join(t).join(file)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.problem.type_name(), ty, "{file}");
        if let AnyProblem::Lcp(l) = &p.problem {
            assert!(l.dim() > 0);
        }
    }
    for (t, file) in [
        ("siconos_dat", "bad_truncated.dat"),
        ("siconos_dat", "bad_nan.dat"),
        ("siconos_dat", "bad_huge_header.dat"),
        ("project_json", "bad_huge_rows.json"),
        ("mujoco_json", "bad_ragged.json"),
    ] {
        assert!(io::load(root.join(t).join(file)).is_err(), "{file}");
    }
    let dlm = root.join("opentissue_dlm");
    for f in ["A_small.dlm", "A_empty.dlm"] {
        let bytes = std::fs::read(dlm.join(f)).unwrap();
        assert!(
            io::opentissue::parse_matrix(Path::new(f), &bytes).is_ok(),
            "{f}"
        );
    }
    for f in ["b_sparse.dlm", "hi_dbl_max.dlm", "dep.dlm"] {
        let bytes = std::fs::read(dlm.join(f)).unwrap();
        assert!(
            io::opentissue::parse_vector(Path::new(f), &bytes).is_ok(),
            "{f}"
        );
    }
}
