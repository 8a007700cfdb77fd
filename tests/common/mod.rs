//! Helpers shared by the integration tests (`mod common;` in a test file).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use nonsmooth::io::{AnyProblem, IoErrorKind, load};
use nonsmooth::problem::FrictionContact;

/// The third-party problems (Siconos, OpenTissue, MuJoCo): `$NONSMOOTH_SHARED_DATA` if
/// set, else the copy the project ships in `<CARGO_MANIFEST_DIR>/data` (see
/// `data/README.md`). `None` (after printing a skip notice) only when that folder is
/// absent: tests that need it then return early, unless `NONSMOOTH_REQUIRE_SHARED_DATA`
/// is set.
pub fn shared_data() -> Option<PathBuf> {
    let dir = match std::env::var_os("NONSMOOTH_SHARED_DATA") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data"),
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        // CI sets this so that a missing folder fails loudly instead of skipping.
        if std::env::var_os("NONSMOOTH_REQUIRE_SHARED_DATA").is_some() {
            panic!(
                "shared data folder {} not found, and NONSMOOTH_REQUIRE_SHARED_DATA is set",
                dir.display()
            );
        }
        eprintln!(
            "skipping: shared data folder {} not found (set NONSMOOTH_SHARED_DATA)",
            dir.display()
        );
        None
    }
}

/// `shared_data()/rel` if that file or folder exists; prints a skip notice otherwise.
pub fn shared_file(rel: &str) -> Option<PathBuf> {
    let p = shared_data()?.join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipping: {} not found", p.display());
        None
    }
}

/// One row of a Siconos reference table in `data/reference/`.
#[derive(Debug, Clone)]
pub struct Reference {
    /// File name.
    pub file: String,
    /// Solver name (`NSGS`, `LEMKE`, ...).
    pub solver: String,
    /// Siconos's return code (0 = converged); `None` when the run crashed.
    pub info: Option<i64>,
    /// Iterations Siconos reports.
    pub iterations: Option<usize>,
    /// The error Siconos reports (Siconos 4.4 normalisation).
    pub error: Option<f64>,
}

/// The rows of `data/reference/<table>` (for example `siconos-4.4-fc3d.tsv`), or
/// `None` with a skip notice when the folder is absent.
pub fn reference(table: &str) -> Option<Vec<Reference>> {
    let data = shared_data()?;
    let inside = data.join("reference");
    let dir = if inside.is_dir() {
        inside
    } else {
        data.join("../reference")
    };
    reference_at(&dir.join(table))
}

/// The rows of the reference table at `path` (same columns as those of
/// `../shared/reference/`), or `None` with a skip notice when it cannot be read.
pub fn reference_at(path: &Path) -> Option<Vec<Reference>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("skipping: {}: {e}", path.display());
            return None;
        }
    };
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next()?.split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let (cf, cs, ci, ct) = (col("file")?, col("solver")?, col("info")?, col("iter")?);
    let ce = col("error_siconos44").or(col("error"))?;
    Some(
        lines
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                let get = |i: usize| f.get(i).copied().unwrap_or("");
                Reference {
                    file: get(cf).to_string(),
                    solver: get(cs).to_string(),
                    info: get(ci).parse().ok(),
                    iterations: get(ct).parse().ok(),
                    error: get(ce).parse().ok(),
                }
            })
            .collect(),
    )
}

/// The local friction problem (fc3d) in the file `path`, or `None`, after a skip notice,
/// when reading that format needs a cargo feature this build lacks (FCLIB `.hdf5` without
/// `hdf5`). Panics on any other read error and on a file that holds another kind of
/// problem: the shared fc3d folder holds only fc3d problems.
pub fn load_fc3d(path: &Path) -> Option<FrictionContact> {
    let name = path.display();
    match load(path) {
        Ok(lp) => match lp.problem {
            AnyProblem::Friction(fc) => Some(fc),
            _ => panic!("{name} is not fc3d"),
        },
        Err(e) if matches!(e.kind, IoErrorKind::FeatureDisabled(_)) => {
            eprintln!("skipping {name}: {e}");
            None
        }
        Err(e) => panic!("{name}: {e}"),
    }
}

/// The static solution of `data/box_stack_5.json` that `data/README.md` derives by hand:
/// `r_n = (5 - k) m g dt / 4` under box `k`, no friction.
pub fn static_box_stack_answer() -> Vec<f64> {
    let (m, g, dt) = (1.0, 9.81, 0.01);
    let mut r = Vec::new();
    for k in 0..5 {
        for _ in 0..4 {
            r.extend([(5 - k) as f64 * m * g * dt / 4.0, 0.0, 0.0]);
        }
    }
    r
}

/// Checks `content` against the committed `book/src/generated/NAME` (the book includes it),
/// or, with `NONSMOOTH_BLESS=1`, writes it there.
///
/// # Panics
/// When the committed file differs (the message says how to regenerate it).
pub fn publish(name: &str, content: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("book/src/generated")
        .join(name);
    if std::env::var_os("NONSMOOTH_BLESS").is_some() {
        std::fs::write(&path, content).unwrap();
        eprintln!("wrote {}", path.display());
    } else {
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            committed,
            content,
            "{} is out of date; rerun with NONSMOOTH_BLESS=1",
            path.display()
        );
    }
}
