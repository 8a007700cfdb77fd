//! Every third-party problem file in `data/` (made by Siconos, FCLIB, OpenTissue and
//! MuJoCo, not by this project) loads with the right type and sizes, and the writers
//! round-trip them exactly. Skips with a notice when the shared data is absent.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use nonsmooth::io::{self, AnyProblem, Format, IoErrorKind, LoadedProblem, json, siconos};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::{FrictionKind, RowBound};

fn bits(m: &Matrix) -> Vec<u64> {
    m.to_dense().iter().map(|v| v.to_bits()).collect()
}

fn vbits(v: &nalgebra::DVector<f64>) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// The first whitespace tokens of a text file.
fn head_tokens(path: &Path, n: usize) -> Vec<usize> {
    let text = std::fs::read_to_string(path).unwrap();
    text.split_whitespace()
        .take(n)
        .map(|t| t.parse().unwrap())
        .collect()
}

fn folder_of(path: &Path) -> String {
    path.parent()
        .and_then(|p| p.file_name())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[test]
fn discover_lists_every_problem_once() {
    let Some(data) = common::shared_data() else {
        return;
    };
    let list = third_party(&data);
    let mut sorted = list.clone();
    sorted.sort();
    assert_eq!(list, sorted, "discover returns a sorted list");
    // Under the whole folder: the third-party problems and the generated scenes beside them.
    let everything = io::discover(&data).unwrap();
    assert!(list.iter().all(|p| everything.contains(p)));
    assert!(list.iter().all(|p| p.file_name().unwrap() != "README.md"));
    let count = |f: &dyn Fn(&PathBuf) -> bool| list.iter().filter(|p| f(p)).count();
    assert_eq!(count(&|p| p.starts_with(data.join("siconos/lcp"))), 15);
    assert_eq!(count(&|p| p.starts_with(data.join("siconos/fc3d"))), 28);
    assert_eq!(count(&|p| p.starts_with(data.join("siconos/gfc3d"))), 10);
    assert_eq!(count(&|p| p.starts_with(data.join("mujoco"))), 4);
    assert_eq!(count(&|p| p.starts_with(data.join("opentissue"))), 2);
    assert!(list.contains(&data.join("opentissue/dlm/72")));
    assert!(list.contains(&data.join("opentissue/dlm/4")));
    assert_eq!(list.len(), 59);
    // A single file or an OpenTissue folder is its own list.
    let one = data.join("siconos/lcp/lcp_CPS_1.dat");
    assert_eq!(io::discover(&one).unwrap(), vec![one]);
    let ot = data.join("opentissue/dlm/72");
    assert_eq!(io::discover(&ot).unwrap(), vec![ot]);
}

/// The third-party problems under `data`: what `discover` finds in `siconos/`,
/// `opentissue/` and `mujoco/` (not the scenes the crate generates beside them), sorted.
fn third_party(data: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in ["mujoco", "opentissue", "siconos"] {
        out.extend(io::discover(data.join(sub)).unwrap());
    }
    out
}

/// Loads everything and checks types and sizes; returns the loaded problems by path.
fn load_all(data: &Path) -> BTreeMap<PathBuf, LoadedProblem> {
    let mut out = BTreeMap::new();
    for path in third_party(data) {
        let is_hdf5 = path.extension().is_some_and(|e| e == "hdf5");
        match io::load(&path) {
            Ok(p) => {
                out.insert(path, p);
            }
            Err(e) if is_hdf5 && !cfg!(feature = "hdf5") => {
                assert!(
                    matches!(e.kind, IoErrorKind::FeatureDisabled("hdf5")),
                    "{e}"
                );
                eprintln!(
                    "skipping: {} needs the `hdf5` feature (cargo test --features hdf5)",
                    path.display()
                );
            }
            Err(e) => panic!("{e}"),
        }
    }
    out
}

#[test]
fn every_shared_file_loads_with_the_right_type_and_sizes() {
    let Some(data) = common::shared_data() else {
        return;
    };
    let all = load_all(&data);
    let hdf5 = cfg!(feature = "hdf5");
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (path, p) in &all {
        let folder = folder_of(path);
        let is_dat = path.extension().is_some_and(|e| e == "dat");
        match folder.as_str() {
            "lcp" => {
                let AnyProblem::Lcp(lcp) = &p.problem else {
                    panic!("{}: {}", path.display(), p.problem.type_name())
                };
                assert_eq!(p.format, Format::Siconos);
                let n = head_tokens(path, 1)[0];
                assert_eq!(lcp.dim(), n, "{}", path.display());
                assert!((2..=9).contains(&n));
                *counts.entry("lcp").or_default() += 1;
            }
            "fc3d" => {
                let AnyProblem::Friction(fc) = &p.problem else {
                    panic!("{}: {}", path.display(), p.problem.type_name())
                };
                assert_eq!(fc.kind(), FrictionKind::Coulomb);
                assert_eq!(fc.dim(), 3 * fc.contacts());
                assert!((1..=296).contains(&fc.contacts()), "{}", path.display());
                if is_dat {
                    assert_eq!(p.format, Format::Siconos);
                    assert_eq!(fc.contacts(), head_tokens(path, 2)[1], "{}", path.display());
                } else {
                    assert_eq!(p.format, Format::Fclib);
                }
                *counts.entry("fc3d").or_default() += 1;
            }
            "gfc3d" if path.file_name().unwrap() == "GFC3D_TwoRods1-condensed.dat" => {
                // Despite its folder and name, this file holds the *condensed* (local)
                // problem: `3 3`, a 9 x 9 W, q[9], mu[3] and nothing more; it cannot be
                // read as a global problem (no H follows W).
                let AnyProblem::Friction(fc) = &p.problem else {
                    panic!("{}: {}", path.display(), p.problem.type_name())
                };
                assert_eq!(fc.contacts(), 3);
                assert!(siconos::read_gfc3d(path, &std::fs::read(path).unwrap()).is_err());
                *counts.entry("gfc3d").or_default() += 1;
            }
            "gfc3d" => {
                let AnyProblem::Global(g) = &p.problem else {
                    panic!("{}: {}", path.display(), p.problem.type_name())
                };
                assert_eq!(g.dim(), 3 * g.contacts());
                if is_dat {
                    assert_eq!(p.format, Format::Siconos);
                    let h = head_tokens(path, 4);
                    assert_eq!(g.contacts(), h[1], "{}", path.display());
                    assert_eq!(g.dofs(), h[3], "{}", path.display());
                } else {
                    assert_eq!(p.format, Format::Fclib);
                }
                *counts.entry("gfc3d").or_default() += 1;
            }
            "mujoco" => {
                assert_eq!(p.format, Format::MuJoCo);
                let ans = p
                    .answer
                    .as_ref()
                    .expect("MuJoCo files carry MuJoCo's answer");
                assert_eq!(ans.source, "MuJoCo 4.0.0");
                assert_eq!(ans.r.len(), p.problem.dim());
                assert_eq!(ans.u.as_ref().map(|u| u.len()), Some(p.problem.dim()));
                assert_eq!(p.provenance.source, "MuJoCo 4.0.0");
                assert!(p.provenance.units.contains_key("b"));
                let name = path.file_name().unwrap().to_string_lossy();
                match &p.problem {
                    AnyProblem::Friction(fc) => {
                        assert!(name.contains("elliptic"));
                        assert_eq!(fc.kind(), FrictionKind::Ccp);
                    }
                    AnyProblem::Lcp(lcp) => {
                        assert!(name.contains("pyramidal"));
                        assert_eq!(lcp.dim(), 64);
                    }
                    other => panic!("{name}: {}", other.type_name()),
                }
                *counts.entry("mujoco").or_default() += 1;
            }
            "dlm" => {
                assert_eq!(p.format, Format::OpenTissue);
                assert!(p.answer.is_none(), "lambda.dlm is not an answer");
                match (p.name.as_str(), &p.problem) {
                    ("72", AnyProblem::Boxed(b)) => {
                        assert_eq!(b.dim(), 72);
                        let friction = b
                            .row_bounds()
                            .iter()
                            .filter(|r| matches!(r, RowBound::Friction { .. }))
                            .count();
                        assert_eq!(friction, 48);
                        // Normal rows: [0, DBL_MAX] read as [0, inf).
                        assert_eq!(
                            b.row_bounds()[0],
                            RowBound::Fixed {
                                lo: 0.0,
                                hi: f64::INFINITY
                            }
                        );
                        assert_eq!(p.warm_start.as_deref(), Some(&[0.0; 72][..]));
                    }
                    ("4", AnyProblem::Lcp(l)) => {
                        assert_eq!(l.dim(), 4);
                        assert!(p.warm_start.is_none());
                    }
                    (n, other) => panic!("opentissue {n}: {}", other.type_name()),
                }
                *counts.entry("opentissue").or_default() += 1;
            }
            other => panic!("unexpected folder {other}"),
        }
    }
    assert_eq!(counts["lcp"], 15);
    assert_eq!(counts["fc3d"], if hdf5 { 28 } else { 27 });
    assert_eq!(counts["gfc3d"], if hdf5 { 10 } else { 8 });
    assert_eq!(counts["mujoco"], 4);
    assert_eq!(counts["opentissue"], 2);
}

#[test]
fn murty_is_upper_triangular_column_major() {
    let Some(path) = common::shared_file("siconos/lcp/lcp_exp_murty.dat") else {
        return;
    };
    let lcp = siconos::read_lcp(&path, &std::fs::read(&path).unwrap()).unwrap();
    let a = lcp.a().to_dense();
    for i in 0..6 {
        assert_eq!(a[(i, i)], 1.0);
        for j in 0..6 {
            if j < i {
                assert_eq!(a[(i, j)], 0.0, "below the diagonal at ({i}, {j})");
            } else if j > i {
                assert_eq!(a[(i, j)], 2.0, "above the diagonal at ({i}, {j})");
            }
        }
    }
    assert!(lcp.b().iter().all(|v| *v == -1.0));
}

#[test]
fn sparse_block_and_dense_files_agree() {
    let Some(data) = common::shared_data() else {
        return;
    };
    let pairs = [
        (
            "siconos/fc3d/FC3D_Example1.dat",
            "siconos/fc3d/FC3D_Example1_SBM.dat",
        ),
        (
            "siconos/gfc3d/GFC3D_Example0.dat",
            "siconos/gfc3d/GFC3D_Example0_SBM.dat",
        ),
        (
            "siconos/lcp/lcp_deudeu.dat",
            "siconos/lcp/lcp_deudeu_block.dat",
        ),
        (
            "siconos/lcp/lcp_trivial.dat",
            "siconos/lcp/lcp_trivial_block.dat",
        ),
    ];
    for (dense, sbm) in pairs {
        let d = io::load(data.join(dense)).unwrap();
        let s = io::load(data.join(sbm)).unwrap();
        match (&d.problem, &s.problem) {
            (AnyProblem::Friction(d), AnyProblem::Friction(s)) => {
                assert!(!d.w().is_sparse() && s.w().is_sparse());
                assert_eq!(d.w().to_dense(), s.w().to_dense(), "{dense}");
                assert_eq!(d.q(), s.q());
                assert_eq!(d.mu(), s.mu());
            }
            (AnyProblem::Global(d), AnyProblem::Global(s)) => {
                assert!(!d.m().is_sparse() && s.m().is_sparse());
                assert_eq!(d.m().to_dense(), s.m().to_dense(), "{dense}");
                assert_eq!(d.h().to_dense(), s.h().to_dense(), "{dense}");
                assert_eq!(d.q(), s.q());
                assert_eq!(d.b(), s.b());
                assert_eq!(d.mu(), s.mu());
            }
            (AnyProblem::Lcp(d), AnyProblem::Lcp(s)) => {
                assert_eq!(d.a().to_dense(), s.a().to_dense(), "{dense}");
                assert_eq!(d.b(), s.b());
            }
            _ => panic!("{dense} and {sbm} load as different types"),
        }
    }
}

#[test]
fn ambiguous_gfc3d_files_are_global() {
    let Some(data) = common::shared_data() else {
        return;
    };
    // ndof = 3 nc: these also parse as an fc3d problem followed by ignored tokens.
    for f in ["GFC3D_Example00.dat", "GFC3D_Example00_badly_scaled.dat"] {
        let path = data.join("siconos/gfc3d").join(f);
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(
            siconos::detect(&path, &bytes).unwrap(),
            siconos::Kind::Gfc3d
        );
        // With no name hint the structure still decides (fewest unread tokens).
        assert_eq!(
            siconos::detect(Path::new("unnamed.dat"), &bytes).unwrap(),
            siconos::Kind::Gfc3d,
            "{f}"
        );
        assert!(siconos::read_fc3d(&path, &bytes).is_ok());
    }
}

#[test]
fn siconos_writer_round_trips_every_dat_file_exactly() {
    let Some(data) = common::shared_data() else {
        return;
    };
    let p = Path::new("roundtrip.dat");
    for path in io::discover(data.join("siconos")).unwrap() {
        if path.extension().is_none_or(|e| e != "dat") {
            continue;
        }
        let loaded = io::load(&path).unwrap();
        match &loaded.problem {
            AnyProblem::Lcp(lcp) => {
                let text = siconos::lcp_to_string(lcp);
                let back = siconos::read_lcp(p, text.as_bytes()).unwrap();
                assert_eq!(bits(back.a()), bits(lcp.a()), "{}", path.display());
                assert_eq!(vbits(back.b()), vbits(lcp.b()));
                assert_eq!(siconos::lcp_to_string(&back), text);
            }
            AnyProblem::Friction(fc) => {
                let text = siconos::fc3d_to_string(fc);
                let back = siconos::read_fc3d(p, text.as_bytes()).unwrap();
                assert_eq!(bits(back.w()), bits(fc.w()), "{}", path.display());
                assert_eq!(vbits(back.q()), vbits(fc.q()));
                assert_eq!(vbits(back.mu()), vbits(fc.mu()));
                assert_eq!(siconos::fc3d_to_string(&back), text);
            }
            AnyProblem::Global(g) => {
                let text = siconos::gfc3d_to_string(g);
                let back = siconos::read_gfc3d(p, text.as_bytes()).unwrap();
                assert_eq!(bits(back.m()), bits(g.m()), "{}", path.display());
                assert_eq!(bits(back.h()), bits(g.h()));
                assert_eq!(vbits(back.q()), vbits(g.q()));
                assert_eq!(vbits(back.b()), vbits(g.b()));
                assert_eq!(vbits(back.mu()), vbits(g.mu()));
                assert_eq!(siconos::gfc3d_to_string(&back), text);
            }
            AnyProblem::Boxed(_) | AnyProblem::Generic(_) => {
                unreachable!("Siconos .dat files hold no boxed or generic problems")
            }
        }
    }
}

#[test]
fn json_round_trips_every_loaded_problem_exactly() {
    let Some(data) = common::shared_data() else {
        return;
    };
    for (path, p) in load_all(&data) {
        let text = json::to_string(&p.name, &p.problem, p.answer.as_ref(), &p.provenance);
        let back = json::from_bytes(Path::new("x.json"), text.as_bytes()).unwrap();
        assert_eq!(back.answer, p.answer);
        assert_eq!(back.provenance, p.provenance);
        match (&p.problem, &back.problem) {
            (AnyProblem::Lcp(a), AnyProblem::Lcp(b)) => assert_eq!(a, b, "{}", path.display()),
            (AnyProblem::Boxed(a), AnyProblem::Boxed(b)) => {
                assert_eq!(a, b, "{}", path.display())
            }
            (AnyProblem::Friction(a), AnyProblem::Friction(b)) => {
                assert_eq!(a, b, "{}", path.display())
            }
            (AnyProblem::Global(a), AnyProblem::Global(b)) => {
                assert_eq!(bits(a.m()), bits(b.m()), "{}", path.display());
                assert_eq!(bits(a.h()), bits(b.h()));
                assert_eq!(vbits(a.q()), vbits(b.q()));
                assert_eq!(vbits(a.b()), vbits(b.b()));
                assert_eq!(vbits(a.mu()), vbits(b.mu()));
                assert_eq!(a.kind(), b.kind());
            }
            _ => panic!("{}: type changed", path.display()),
        }
        assert_eq!(
            json::to_string(
                &back.name,
                &back.problem,
                back.answer.as_ref(),
                &back.provenance
            ),
            text
        );
    }
}

#[test]
fn mujoco_hard_view_and_edge_map() {
    let Some(dir) = common::shared_file("mujoco") else {
        return;
    };
    for (file, contacts) in [
        ("mujoco_box_stack4_elliptic.json", 16),
        ("mujoco_heavy_on_light_1000to1_elliptic.json", 9),
        ("mujoco_sliding_slab_elliptic.json", 4),
        ("mujoco_box_stack4_pyramidal.json", 16),
    ] {
        let m = io::mujoco::read(dir.join(file)).unwrap();
        assert_eq!(m.timestep, Some(0.002));
        let hard = m.hard.as_ref().expect("hard view");
        assert_eq!(hard.problem.contacts(), contacts);
        assert_eq!(hard.problem.kind(), FrictionKind::Coulomb);
        assert_eq!(hard.answer.r.len(), 3 * contacts);
        match &m.problem {
            AnyProblem::Friction(fc) => {
                assert_eq!(fc.contacts(), contacts);
                assert!(m.edges_to_contact_force.is_none());
                // engine_impulse = h * engine_solution.
                let r = &m.answer.as_ref().unwrap().r;
                for (imp, f) in hard.answer.r.iter().zip(r) {
                    assert!((imp - 0.002 * f).abs() <= 1e-12 * (1.0 + f.abs()));
                }
                // The engine's velocity is W r + q (to rounding).
                let ans = m.answer.as_ref().unwrap();
                let u = fc.velocity(&nalgebra::DVector::from_vec(ans.r.clone()));
                let scale = u.amax().max(1.0);
                for (a, b) in u.iter().zip(ans.u.as_ref().unwrap()) {
                    assert!((a - b).abs() <= 1e-9 * scale, "{file}: {a} vs {b}");
                }
            }
            AnyProblem::Lcp(lcp) => {
                assert_eq!(lcp.dim(), 4 * contacts);
                let e = m.edges_to_contact_force.as_ref().expect("E");
                assert_eq!((e.nrows(), e.ncols()), (3 * contacts, 4 * contacts));
                let p = nalgebra::DVector::from_vec(m.answer.as_ref().unwrap().r.clone());
                assert!(p.iter().all(|v| *v >= 0.0));
                let f = e * &p;
                // Normal forces of a resting stack are positive.
                assert!((0..contacts).all(|c| f[3 * c] > 0.0));
            }
            other => panic!("{file}: {}", other.type_name()),
        }
    }
}

#[test]
fn truncated_real_files_are_errors() {
    let Some(data) = common::shared_data() else {
        return;
    };
    for path in io::discover(data.join("siconos")).unwrap() {
        if path.extension().is_none_or(|e| e != "dat") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let tokens: Vec<&str> = text.split_whitespace().collect();
        // Keep the header and part of the matrix: no kind can be complete.
        let cut = tokens[..tokens.len().min(8)].join(" ");
        let r = siconos::read_any(&path, cut.as_bytes());
        assert!(r.is_err(), "{} truncated still reads", path.display());
        let msg = r.unwrap_err().to_string();
        assert!(msg.contains(&*path.to_string_lossy()), "{msg}");
        let half = &bytes[..bytes.len() / 2];
        match folder_of(&path).as_str() {
            "fc3d" => assert!(
                siconos::read_any(&path, half).is_err(),
                "{}",
                path.display()
            ),
            // Half a gfc3d file with ndof = 3 nc can be a complete fc3d file: only the
            // explicit reader must refuse it.
            "gfc3d" => assert!(
                siconos::read_gfc3d(&path, half).is_err(),
                "{}",
                path.display()
            ),
            _ => {}
        }
    }
}

#[test]
fn hdf5_files_need_the_feature_or_read() {
    let Some(data) = common::shared_data() else {
        return;
    };
    let files = [
        ("siconos/fc3d/Capsules-i97-269.hdf5", "fc3d"),
        ("siconos/gfc3d/Box_Stacks-i0035-31-0.hdf5", "gfc3d"),
        ("siconos/gfc3d/CubeH8.hdf5", "gfc3d"),
    ];
    for (rel, ty) in files {
        let r = io::load(data.join(rel));
        if cfg!(feature = "hdf5") {
            let p = r.unwrap();
            assert_eq!(p.problem.type_name(), ty, "{rel}");
            assert_eq!(p.format, Format::Fclib);
            assert!(p.answer.is_none(), "the /solution groups are placeholders");
            if rel.ends_with("CubeH8.hdf5") {
                // Its M is symmetric to 1.5e-7 only: the reader symmetrises and says so.
                assert!(p.provenance.description.contains("symmetrised"));
            }
        } else {
            let e = r.unwrap_err();
            assert!(
                matches!(e.kind, IoErrorKind::FeatureDisabled("hdf5")),
                "{e}"
            );
            eprintln!("skipping: {rel} needs the `hdf5` feature");
        }
    }
}

#[cfg(feature = "hdf5")]
#[test]
fn fclib_sizes() {
    let Some(data) = common::shared_data() else {
        return;
    };
    let local = io::fclib::read_local(data.join("siconos/fc3d/Capsules-i97-269.hdf5")).unwrap();
    assert_eq!(local.contacts(), 216);
    assert!(local.w().is_sparse());
    assert!(local.mu().iter().all(|m| *m >= 0.0));
    let g = io::fclib::read_global(data.join("siconos/gfc3d/Box_Stacks-i0035-31-0.hdf5")).unwrap();
    assert_eq!((g.dofs(), g.contacts()), (450, 31));
    let c = io::fclib::read_global(data.join("siconos/gfc3d/CubeH8.hdf5")).unwrap();
    assert_eq!((c.dofs(), c.contacts()), (162, 1));
    // The local reader refuses a global file and vice versa.
    assert!(io::fclib::read_local(data.join("siconos/gfc3d/CubeH8.hdf5")).is_err());
    assert!(io::fclib::read_global(data.join("siconos/fc3d/Capsules-i97-269.hdf5")).is_err());
}
