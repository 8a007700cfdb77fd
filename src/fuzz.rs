//! Fuzz target bodies, kept in the library so that the cargo-fuzz crate in `fuzz/` and a
//! plain `#[test]` on stable (`tests/fuzz_replay.rs`) run the same code.
//!
//! Each function takes arbitrary bytes and must return without panicking, whatever they
//! are. Where a reader succeeds, the function also checks a property that must hold
//! (written text reads back to the same numbers), and panics if it does not: that is a
//! bug for the fuzzer to report.

use std::path::Path;

use crate::io::numpy::{header as npy, npz};
use crate::io::{AnyProblem, opentissue, siconos};
use crate::matrix::Matrix;

/// A target body: takes any bytes, must not panic.
pub type Body = fn(&[u8]);

/// Every target: `(name, body)`. The names are the cargo-fuzz target names and the
/// folder names under `fuzz/seeds/`. `fclib_hdf5` is listed only with the `hdf5` feature
/// (without it its body does nothing).
pub const TARGETS: &[(&str, Body)] = &[
    ("siconos_dat", siconos_dat),
    ("opentissue_dlm", opentissue_dlm),
    ("mujoco_json", mujoco_json),
    ("project_json", project_json),
    ("npy_array", npy_array),
    ("npz_archive", npz_archive),
    ("scene_file", scene_file),
    ("cli_args", cli_args),
    #[cfg(feature = "hdf5")]
    ("fclib_hdf5", fclib_hdf5),
];

fn bits(m: &Matrix) -> Vec<u64> {
    m.to_dense().iter().map(|v| v.to_bits()).collect()
}

fn vbits(v: &nalgebra::DVector<f64>) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Siconos `.dat`: the three explicit readers and detection; a problem that reads must
/// write and read back bit for bit.
pub fn siconos_dat(data: &[u8]) {
    let path = Path::new("fuzz.dat");
    if let Ok(lcp) = siconos::read_lcp(path, data) {
        let text = siconos::lcp_to_string(&lcp);
        let back = siconos::read_lcp(path, text.as_bytes()).expect("written LCP reads back");
        assert_eq!(bits(back.a()), bits(lcp.a()), "LCP matrix round trip");
        assert_eq!(vbits(back.b()), vbits(lcp.b()), "LCP vector round trip");
    }
    if let Ok(fc) = siconos::read_fc3d(path, data) {
        let text = siconos::fc3d_to_string(&fc);
        let back = siconos::read_fc3d(path, text.as_bytes()).expect("written fc3d reads back");
        assert_eq!(bits(back.w()), bits(fc.w()), "fc3d W round trip");
        assert_eq!(vbits(back.q()), vbits(fc.q()), "fc3d q round trip");
        assert_eq!(vbits(back.mu()), vbits(fc.mu()), "fc3d mu round trip");
    }
    if let Ok(g) = siconos::read_gfc3d(path, data) {
        let text = siconos::gfc3d_to_string(&g);
        let back = siconos::read_gfc3d(path, text.as_bytes()).expect("written gfc3d reads back");
        assert_eq!(bits(back.m()), bits(g.m()), "gfc3d M round trip");
        assert_eq!(bits(back.h()), bits(g.h()), "gfc3d H round trip");
        assert_eq!(vbits(back.q()), vbits(g.q()), "gfc3d q round trip");
        assert_eq!(vbits(back.b()), vbits(g.b()), "gfc3d b round trip");
    }
    let _ = siconos::read_any(path, data);
    let _ = siconos::read_any(Path::new("gfc3d/lcp_fc3d.dat"), data);
}

/// One OpenTissue `.dlm` file, parsed both as a matrix file and as a vector file; what
/// parses is turned into a matrix / dense vector.
pub fn opentissue_dlm(data: &[u8]) {
    let path = Path::new("A.dlm");
    if let Ok(m) = opentissue::parse_matrix(path, data) {
        let a = m.to_matrix().expect("parsed entries lie inside the matrix");
        assert_eq!((a.nrows(), a.ncols()), (m.nrows, m.ncols));
    }
    if let Ok(v) = opentissue::parse_vector(path, data) {
        assert_eq!(v.to_dense().len(), v.len);
    }
}

/// A MuJoCo JSON export.
pub fn mujoco_json(data: &[u8]) {
    let path = Path::new("fuzz.json");
    if let Ok(m) = crate::io::mujoco::from_bytes(path, data) {
        let _ = m.problem.dim();
    }
    let _ = crate::io::load_json(path, data);
}

/// The project's JSON: a problem that reads must write, read back, and write the same
/// text again.
pub fn project_json(data: &[u8]) {
    let path = Path::new("fuzz.json");
    if let Ok(p) = crate::io::json::from_bytes(path, data) {
        let text =
            crate::io::json::to_string(&p.name, &p.problem, p.answer.as_ref(), &p.provenance);
        let back =
            crate::io::json::from_bytes(path, text.as_bytes()).expect("written JSON reads back");
        let again = crate::io::json::to_string(
            &back.name,
            &back.problem,
            back.answer.as_ref(),
            &back.provenance,
        );
        assert_eq!(text, again, "JSON round trip");
        if let AnyProblem::Lcp(lcp) = &p.problem {
            // The same problem through the Siconos writer.
            let s = siconos::lcp_to_string(lcp);
            let b = siconos::read_lcp(path, s.as_bytes()).expect("Siconos text reads back");
            assert_eq!(bits(b.a()), bits(lcp.a()));
        }
    }
}

fn dbits(m: &nalgebra::DMatrix<f64>) -> (usize, usize, Vec<u64>) {
    (
        m.nrows(),
        m.ncols(),
        m.iter().map(|v| v.to_bits()).collect(),
    )
}

/// One `.npy` file, read as a matrix (`W.npy`), a vector (`q.npy`) and an `int64` vector
/// (`dep.npy`); whatever reads must come back bit for bit from the bytes the writer
/// produces for it (a dense and a sparse matrix alike). The same bytes are also read as
/// a whole `.npz` archive ([`npz_archive`]): NumPy input shares this one target.
pub fn npy_array(data: &[u8]) {
    npz_archive(data);
    let _ = npy::parse_header(Path::new("x.npy"), data);
    let w = Path::new("W.npy");
    if let Ok(m) = npy::parse_matrix(w, data) {
        let bytes = npy::matrix_to_npy(&Matrix::Dense(m.clone()));
        let back = npy::parse_matrix(w, &bytes).expect("written matrix reads back");
        assert_eq!(dbits(&back), dbits(&m), "npy matrix round trip");
        // The same numbers stored sparse (every entry but +0.0).
        let triplets: Vec<(usize, usize, f64)> = (0..m.ncols())
            .flat_map(|j| (0..m.nrows()).map(move |i| (i, j)))
            .filter(|&(i, j)| m[(i, j)].to_bits() != 0)
            .map(|(i, j)| (i, j, m[(i, j)]))
            .collect();
        let sparse = Matrix::from_triplets(m.nrows(), m.ncols(), &triplets).expect("in range");
        let back = npy::parse_matrix(w, &npy::matrix_to_npy(&sparse))
            .expect("written sparse matrix reads back");
        assert_eq!(dbits(&back), dbits(&m), "npy sparse matrix round trip");
    }
    let q = Path::new("q.npy");
    if let Ok(v) = npy::parse_vector(q, data) {
        let back = npy::parse_vector(q, &npy::vector_to_npy(v.as_slice()))
            .expect("written vector reads back");
        assert_eq!(vbits(&back), vbits(&v), "npy vector round trip");
    }
    let dep = Path::new("dep.npy");
    if let Ok(d) = npy::parse_ints(dep, data) {
        let back = npy::parse_ints(dep, &npy::ints_to_npy(&d)).expect("written ints read back");
        assert_eq!(back, d, "npy int64 round trip");
    }
}

/// An `.npz` archive: a problem that reads must write (stored and deflated) and read
/// back with the same matrices, vectors, storage and metadata.
pub fn npz_archive(data: &[u8]) {
    let path = Path::new("fuzz.npz");
    let Ok(p) = npz::from_bytes(path, data) else {
        return;
    };
    for c in [npz::Compression::Stored, npz::Compression::Deflated] {
        let bytes = npz::to_bytes(&p.name, &p.problem, p.answer.as_ref(), &p.provenance, c)
            .expect("a problem that was read can be written");
        let back = npz::from_bytes(path, &bytes).expect("written .npz reads back");
        assert_eq!(back.name, p.name, "npz name round trip");
        assert_eq!(back.provenance, p.provenance, "npz provenance round trip");
        let again = npz::to_bytes(
            &back.name,
            &back.problem,
            back.answer.as_ref(),
            &back.provenance,
            c,
        )
        .expect("written again");
        assert_eq!(bytes, again, "npz round trip");
    }
}

/// A scene file (`nonsmooth simulate SCENE.json`): read as UTF-8 text by
/// [`crate::world::scene_file::read_scene`]; a scene that reads is written back
/// ([`crate::world::scene_file::write_scene`]) and read again, neither of which may panic.
pub fn scene_file(data: &[u8]) {
    use crate::world::scene_file::{read_scene, write_scene};
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(world) = read_scene(text) {
        let _ = read_scene(&write_scene(&world));
    }
}

/// The command line: the bytes split into arguments at NUL and newline bytes (any other
/// byte, invalid UTF-8 included, stays in its argument), after the program name. Only
/// parsed and checked ([`crate::cli::parse_args`]), never run.
pub fn cli_args(data: &[u8]) {
    use std::ffi::{OsStr, OsString};
    use std::os::unix::ffi::OsStrExt;
    let args = std::iter::once(OsString::from("nonsmooth")).chain(
        data.split(|&b| b == 0 || b == b'\n')
            .map(|a| OsStr::from_bytes(a).to_os_string()),
    );
    let _ = crate::cli::parse_args(args);
}

/// An FCLIB HDF5 file: the bytes are written to a temporary file and read with
/// [`crate::io::fclib::read`]. HDF5 reads files by name, so this is the one target that
/// touches the file system. HDF5's own error printing is silenced.
#[cfg(feature = "hdf5")]
pub fn fclib_hdf5(data: &[u8]) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    static SILENCE: std::sync::Once = std::sync::Once::new();
    SILENCE.call_once(|| hdf5::silence_errors(true));
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!(
        "nonsmooth-fuzz-fclib-{}-{n}.hdf5",
        std::process::id()
    ));
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let _ = crate::io::fclib::read(&path);
    let _ = std::fs::remove_file(&path);
}

/// Without the `hdf5` feature there is no FCLIB reader: the body does nothing (the
/// cargo-fuzz crate enables the feature with `--features hdf5`).
#[cfg(not(feature = "hdf5"))]
pub fn fclib_hdf5(_data: &[u8]) {}
