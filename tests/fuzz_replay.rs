//! Replays the committed fuzz seeds (`fuzz/seeds/<target>/`) and any crash files cargo-fuzz
//! left (`fuzz/artifacts/<target>/`) through the library's fuzz target bodies, on stable.
//! A panic here is a reader bug (or a failed round-trip property).
//!
//! Its own test binary: `.ci/run` runs it by name after fuzzing (`--test fuzz_replay`,
//! with the `hdf5` feature), and it reads FCLIB files in child processes.

use nonsmooth::io::numpy::header;

use std::path::{Path, PathBuf};

use nonsmooth::fuzz::TARGETS;

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

/// `nonsmooth info` on a copy of each file named `.hdf5`: exit 0 or 1, never a signal.
fn replay_through_program(files: &[PathBuf]) {
    let dir = std::env::temp_dir().join(format!("nonsmooth-fuzz-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in files {
        let copy = dir.join("artifact.hdf5");
        std::fs::copy(f, &copy).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
            .arg("info")
            .arg(&copy)
            .env("NONSMOOTH_FCLIB_READ_SECONDS", "5")
            .output()
            .unwrap();
        let code = out.status.code();
        assert!(
            matches!(code, Some(0 | 1)),
            "nonsmooth info on the FCLIB artifact {} ended with {:?}: {}",
            f.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn replay_seeds_and_artifacts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    for (name, body) in TARGETS {
        let seeds = files(&root.join("seeds").join(name));
        assert!(!seeds.is_empty(), "no seeds for fuzz target {name}");
        let artifacts = files(&root.join("artifacts").join(name));
        // The HDF5 C library can crash or hang on a damaged file, which no test process
        // survives: the program reads FCLIB files in a child process, so FCLIB artifacts
        // are replayed through it, and each must end as an answer or an input error.
        let in_process: &[PathBuf] = if *name == "fclib_hdf5" {
            replay_through_program(&artifacts);
            &[]
        } else {
            &artifacts
        };
        for f in seeds.iter().chain(in_process) {
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

/// Every cargo-fuzz target (`fuzz/fuzz_targets/*.rs`) has a body here, replayed above,
/// and seeds; `fclib_hdf5` only with the `hdf5` feature.
#[test]
fn every_fuzz_target_is_replayed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut names: Vec<String> = files(&root.join("fuzz_targets"))
        .iter()
        .filter_map(|p| Some(p.file_stem()?.to_string_lossy().into_owned()))
        .collect();
    if !cfg!(feature = "hdf5") {
        names.retain(|n| n != "fclib_hdf5");
    }
    let mut listed: Vec<String> = TARGETS.iter().map(|(n, _)| n.to_string()).collect();
    names.sort();
    listed.sort();
    assert_eq!(names, listed);
    assert!(!files(&root.join("seeds/fclib_hdf5")).is_empty());
}

/// The `.npy` and command-line seeds: the valid ones are read (or parsed) as intended.
#[test]
fn valid_npy_and_cli_seeds_read() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    let seed = |t: &str, f: &str| std::fs::read(root.join(t).join(f)).unwrap();
    for f in [
        "f8_c_3x3.npy",
        "f8_fortran_2x3.npy",
        "f8_big_endian_2x2.npy",
        "f8_empty_0x3.npy",
        "f8_version3.npy",
        "py2_long_shape.npy",
    ] {
        header::parse_matrix(Path::new(f), &seed("npy_array", f)).unwrap_or_else(|e| panic!("{e}"));
    }
    for f in ["f8_vector.npy", "f8_version2.npy"] {
        header::parse_vector(Path::new(f), &seed("npy_array", f)).unwrap_or_else(|e| panic!("{e}"));
    }
    for f in ["i8_dep.npy", "i8_dep_big_endian.npy"] {
        header::parse_ints(Path::new(f), &seed("npy_array", f)).unwrap_or_else(|e| panic!("{e}"));
    }
    let m = header::parse_matrix(Path::new("W"), &seed("npy_array", "f8_fortran_2x3.npy")).unwrap();
    assert_eq!(m[(0, 1)], 1.0);
    assert_eq!(m[(1, 0)], 3.0);
    for f in files(&root.join("npy_array")) {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("bad_") {
            let bytes = std::fs::read(&f).unwrap();
            assert!(header::parse_matrix(&f, &bytes).is_err(), "{name}");
            assert!(header::parse_vector(&f, &bytes).is_err(), "{name}");
        }
    }
    for f in files(&root.join("cli_args")) {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&f).unwrap();
        let args = std::iter::once("nonsmooth".to_string()).chain(
            bytes
                .split(|&b| b == 0 || b == b'\n')
                .map(|a| String::from_utf8_lossy(a).into_owned()),
        );
        let parsed = nonsmooth::cli::parse_args(args);
        let valid = !name.starts_with("bad_") && !name.contains("help") && name != "version";
        assert_eq!(parsed.is_ok(), valid, "{name}: {parsed:?}");
    }
}

/// The FCLIB seeds (`fuzz/seeds/fclib_hdf5/`) are tiny files made with the `hdf5` crate
/// by the functions below: run this test with `NONSMOOTH_WRITE_FCLIB_SEEDS=1` to write
/// them again (HDF5 stores creation times, so the bytes differ from run to run). The
/// valid ones must read as the problem they hold.
#[cfg(feature = "hdf5")]
#[test]
fn fclib_seeds_read() {
    use nonsmooth::io::fclib;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/fclib_hdf5");
    if std::env::var_os("NONSMOOTH_WRITE_FCLIB_SEEDS").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        fclib_seed::local(&dir.join("local_triplets.hdf5"), -3).unwrap();
        fclib_seed::local(&dir.join("local_csc.hdf5"), -1).unwrap();
        fclib_seed::local(&dir.join("local_csr.hdf5"), -2).unwrap();
        fclib_seed::global(&dir.join("global.hdf5")).unwrap();
        fclib_seed::bad_index(&dir.join("bad_index.hdf5")).unwrap();
    }
    for f in ["local_triplets.hdf5", "local_csc.hdf5", "local_csr.hdf5"] {
        let p = fclib::read(dir.join(f)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.problem.type_name(), "fc3d", "{f}");
        assert_eq!(p.problem.dim(), 3);
    }
    let g = fclib::read(dir.join("global.hdf5")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.problem.type_name(), "gfc3d");
    let e = fclib::read(dir.join("bad_index.hdf5")).unwrap_err();
    assert!(e.to_string().contains("out of range"), "{e}");
    for f in files(&dir) {
        assert!(
            std::fs::metadata(&f).unwrap().len() < 50_000,
            "{}",
            f.display()
        );
    }
}

/// Issue 28: an integer stored as a float is read only when it is a whole number (HDF5's
/// own conversion truncated `W/m = 6.5` to 6).
#[cfg(feature = "hdf5")]
#[test]
fn fclib_float_sizes_must_be_whole() {
    use nonsmooth::io::fclib;
    let dir = std::env::temp_dir().join(format!("nonsmooth-fclib-float-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.hdf5");
    fclib_seed::float_size(&whole, 3.0).unwrap();
    let p = fclib::read(&whole).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.problem.dim(), 3);
    let half = dir.join("half.hdf5");
    fclib_seed::float_size(&half, 3.5).unwrap();
    let e = fclib::read(&half).unwrap_err().to_string();
    assert!(e.contains("3.5") && e.contains("not a whole number"), "{e}");
}

#[cfg(feature = "hdf5")]
mod fclib_seed {
    use std::path::Path;

    use hdf5::types::VarLenUnicode;

    fn int(g: &hdf5::Group, name: &str, v: i32) -> hdf5::Result<()> {
        g.new_dataset::<i32>()
            .shape(())
            .create(name)?
            .write_scalar(&v)
    }

    fn ints(g: &hdf5::Group, name: &str, v: &[i32]) -> hdf5::Result<()> {
        g.new_dataset_builder().with_data(v).create(name)?;
        Ok(())
    }

    fn floats(g: &hdf5::Group, name: &str, v: &[f64]) -> hdf5::Result<()> {
        g.new_dataset_builder().with_data(v).create(name)?;
        Ok(())
    }

    /// The 3 x 3 matrix `diag(2, 2, 2)` plus `0.5` at `(0, 1)` and `(1, 0)`, stored as
    /// `nz` says: `-1` compressed columns, `-2` compressed rows, else triplets (row in
    /// `i`, column in `p`, as the real files do).
    fn matrix(g: &hdf5::Group, name: &str, nz: i32) -> hdf5::Result<()> {
        let m = g.create_group(name)?;
        int(&m, "m", 3)?;
        int(&m, "n", 3)?;
        int(&m, "nzmax", 5)?;
        match nz {
            -1 | -2 => {
                // symmetric, so the compressed rows and columns are the same arrays
                int(&m, "nz", nz)?;
                ints(&m, "p", &[0, 2, 4, 5])?;
                ints(&m, "i", &[0, 1, 0, 1, 2])?;
                floats(&m, "x", &[2.0, 0.5, 0.5, 2.0, 2.0])?;
            }
            _ => {
                int(&m, "nz", 5)?;
                ints(&m, "i", &[0, 1, 0, 1, 2])?;
                ints(&m, "p", &[0, 0, 1, 1, 2])?;
                floats(&m, "x", &[2.0, 0.5, 0.5, 2.0, 2.0])?;
            }
        }
        Ok(())
    }

    fn info(g: &hdf5::Group) -> hdf5::Result<()> {
        let info = g.create_group("info")?;
        let title: VarLenUnicode = "fuzz seed".parse().unwrap();
        info.new_dataset::<VarLenUnicode>()
            .shape(())
            .create("title")?
            .write_scalar(&title)
    }

    pub fn local(path: &Path, nz: i32) -> hdf5::Result<()> {
        let f = hdf5::File::create(path)?;
        let g = f.create_group("fclib_local")?;
        int(&g, "spacedim", 3)?;
        matrix(&g, "W", nz)?;
        let v = g.create_group("vectors")?;
        floats(&v, "q", &[-1.0, 0.0, 0.0])?;
        floats(&v, "mu", &[0.5])?;
        info(&g)?;
        let guess = f.create_group("guesses")?.create_group("1")?;
        floats(&guess, "r", &[0.5, 0.0, 0.0])
    }

    pub fn global(path: &Path) -> hdf5::Result<()> {
        let f = hdf5::File::create(path)?;
        let g = f.create_group("fclib_global")?;
        int(&g, "spacedim", 3)?;
        matrix(&g, "M", -3)?;
        matrix(&g, "H", -2)?;
        let v = g.create_group("vectors")?;
        floats(&v, "f", &[0.0, 0.0, -1.0])?;
        floats(&v, "w", &[0.0, 0.0, 0.0])?;
        floats(&v, "mu", &[0.3])?;
        info(&g)
    }

    /// A local problem whose `W/m` (a size) is stored as the float `m`.
    pub fn float_size(path: &Path, m: f64) -> hdf5::Result<()> {
        local(path, -3)?;
        let f = hdf5::File::open_rw(path)?;
        let w = f.group("fclib_local/W")?;
        w.unlink("m")?;
        w.new_dataset::<f64>()
            .shape(())
            .create("m")?
            .write_scalar(&m)
    }

    /// A local problem whose `W` has a row index beyond its size.
    pub fn bad_index(path: &Path) -> hdf5::Result<()> {
        local(path, -3)?;
        let f = hdf5::File::open_rw(path)?;
        let w = f.group("fclib_local/W")?;
        w.unlink("i")?;
        ints(&w, "i", &[0, 1, 0, 7, 2])
    }
}
