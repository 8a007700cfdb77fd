//! How much memory each reader needs per stored number, and so the largest problem it
//! accepts: the table of the book's chapter "Bad input and the adversarial corpus".
//!
//! For each format, two problems of the same family (block-tridiagonal `W`, 27 stored
//! entries per contact; dense formats store every entry) are written to a temporary folder
//! and read back with [`nonsmooth::io::load`]. A counting allocator records the peak of the
//! heap while a file is read; the difference between the two sizes, divided by the
//! difference in stored entries, is the memory per entry (the fixed cost cancels). Heap
//! bytes are counted, not pages, so the numbers are the same on every run of the same
//! build. With the readers' file cap ([`nonsmooth::io::MAX_FILE_BYTES`]) and the file
//! bytes per entry, that gives the largest problem each reader accepts.
//!
//! ```console
//! cargo run --release --example reader_memory
//! ```

#[path = "support/mod.rs"]
mod support;

use std::path::Path;

use nalgebra::DVector;
use nonsmooth::io::numpy::folder;
use nonsmooth::io::{self, AnyProblem, Provenance, json, siconos};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::{FrictionContact, FrictionKind};

#[global_allocator]
static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;

use support::alloc::peak_of;

/// A block-tridiagonal fc3d problem with `nc` contacts (27 stored entries per contact,
/// fewer at the ends), sparse or dense.
fn problem(nc: usize, dense: bool) -> FrictionContact {
    let n = 3 * nc;
    let mut t = Vec::new();
    for c in 0..nc {
        for i in 0..3 {
            for j in 0..3 {
                let diag = if i == j { 4.0 } else { 0.5 };
                t.push((3 * c + i, 3 * c + j, diag));
                if c + 1 < nc {
                    let off = 0.25 + 0.01 * (i + j) as f64;
                    t.push((3 * c + i, 3 * (c + 1) + j, off));
                    t.push((3 * (c + 1) + j, 3 * c + i, off));
                }
            }
        }
    }
    let w = Matrix::from_triplets(n, n, &t).expect("inside");
    let w = if dense {
        Matrix::Dense(w.to_dense())
    } else {
        w
    };
    let q = DVector::from_fn(n, |i, _| {
        if i % 3 == 0 {
            -1.0 - i as f64 * 1e-3
        } else {
            0.1
        }
    });
    FrictionContact::new(w, q, DVector::from_element(nc, 0.5), FrictionKind::Coulomb)
        .expect("valid")
}

/// Writes `fc` in `format` under `dir`; returns the path to read and the stored entries.
fn write(format: &str, fc: &FrictionContact, dir: &Path) -> (std::path::PathBuf, usize) {
    let stored = match fc.w() {
        Matrix::Dense(d) => d.len(),
        m => m.nnz(),
    };
    let prov = Provenance::default();
    let path = match format {
        "siconos" => {
            let p = dir.join("p.dat");
            std::fs::write(&p, siconos::fc3d_to_string(fc)).unwrap();
            p
        }
        "json" => {
            let p = dir.join("p.json");
            let text = json::to_string("p", &AnyProblem::Friction(fc.clone()), None, &prov);
            std::fs::write(&p, text).unwrap();
            p
        }
        "opentissue" => {
            let p = dir.join("ot");
            std::fs::create_dir_all(&p).unwrap();
            let n = fc.dim();
            let mut a = String::new();
            let mut count = 0;
            for i in 0..n {
                fc.w().for_each_in_row(i, |j, v| {
                    a.push_str(&format!("{i} {j} {v:e}\n"));
                    count += 1;
                });
            }
            std::fs::write(p.join("A.dlm"), format!("{n} {n} {count}\n{a}")).unwrap();
            let b: String = fc
                .q()
                .iter()
                .enumerate()
                .map(|(i, v)| format!("{i} {v:e}\n"))
                .collect();
            std::fs::write(p.join("b.dlm"), format!("{n}\n{b}")).unwrap();
            p
        }
        "numpy" => {
            let p = dir.join("np");
            folder::write(&p, "p", &AnyProblem::Friction(fc.clone()), None).unwrap();
            p
        }
        "mujoco" => {
            let p = dir.join("mj.json");
            let d = fc.w().to_dense();
            let rows: Vec<String> = (0..d.nrows())
                .map(|i| {
                    let r: Vec<String> = d.row(i).iter().map(|v| format!("{v:e}")).collect();
                    format!("[{}]", r.join(", "))
                })
                .collect();
            let list = |v: &DVector<f64>| {
                v.iter()
                    .map(|x| format!("{x:e}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let text = format!(
                r#"{{"name": "p", "n_contacts": {}, "dim": 3, "A": [{}], "b": [{}], "mu": [{}]}}"#,
                fc.contacts(),
                rows.join(", "),
                list(fc.q()),
                list(fc.mu())
            );
            std::fs::write(&p, text).unwrap();
            p
        }
        other => panic!("unknown format {other}"),
    };
    (path, stored)
}

/// The table, in Markdown.
fn table() -> String {
    let dir = std::env::temp_dir().join(format!("nonsmooth_reader_memory_{}", std::process::id()));
    // (format, storage, small nc, large nc, dense)
    let cases = [
        ("siconos", "sparse block (storage 1)", 2_000, 20_000, false),
        ("json", "triplets", 2_000, 20_000, false),
        ("opentissue", "triplets (A.dlm)", 2_000, 20_000, false),
        ("siconos", "dense (storage 0)", 100, 300, true),
        ("json", "dense rows", 100, 300, true),
        ("numpy", "dense float64", 100, 300, true),
        ("mujoco", "dense rows", 100, 300, true),
    ];
    let mut out = String::from(
        "| format | storage | file bytes per entry | memory while reading, per entry | largest problem accepted (entries) |\n\
         |---|---|---:|---:|---:|\n",
    );
    for (format, storage, small, large, dense) in cases {
        let mut m = [(0usize, 0usize, 0u64); 2];
        for (k, nc) in [small, large].into_iter().enumerate() {
            let sub = dir.join(format!("{format}-{dense}-{nc}"));
            std::fs::create_dir_all(&sub).unwrap();
            let (path, stored) = write(format, &problem(nc, dense), &sub);
            let peak = peak_of(|| io::load(&path).expect("reads back"));
            m[k] = (stored, peak, support::alloc::file_bytes(&path));
        }
        let entries = (m[1].0 - m[0].0) as f64;
        let per_entry = (m[1].1 - m[0].1) as f64 / entries;
        let file_per_entry = (m[1].2 - m[0].2) as f64 / entries;
        let largest = io::MAX_FILE_BYTES as f64 / file_per_entry;
        out.push_str(&format!(
            "| {format} | {storage} | {file_per_entry:.1} | {per_entry:.0} B | {largest:.1e} |\n"
        ));
    }
    std::fs::remove_dir_all(&dir).ok();
    out
}

/// The limits every reader and generator enforces, read from the constants themselves.
fn limits() -> String {
    let gib = |b: f64| b / (1u64 << 30) as f64;
    let dense = nonsmooth::matrix::MAX_DENSE_ENTRIES;
    format!(
        "| limit | value | where |\n|---|---:|---|\n\
         | largest input file | {} bytes ({:.0} GiB) | `io::MAX_FILE_BYTES`: every reader |\n\
         | largest size a file may announce without the numbers to back it | {} | `io::MAX_UNBACKED_DIM`: OpenTissue headers (the other formats size a matrix by the vectors they store) |\n\
         | largest dense copy of a matrix | {dense} entries ({:.0} GiB) | `matrix::MAX_DENSE_ENTRIES`: Lemke's tableau, the dense Newton systems, the NumPy writer |\n\
         | largest generated scene | {} contacts | `multibody::scenes::MAX_SCENE_CONTACTS`: `generate`, `bench --scene` |\n\
         | most sweeps per timed run | {} | `nonsmooth bench --sweeps` |\n\
         | largest FCLIB dataset | {} elements | `io::MAX_FCLIB_DATASET_ELEMENTS`: checked before the HDF5 library reads it |\n\
         | an FCLIB file's read, in a child process | {:.0} GiB of address space, {} s (`{}`) | `cli::FCLIB_READ_MEMORY_KIB`, `cli::FCLIB_READ_LIMIT`: the command line |\n",
        io::MAX_FILE_BYTES,
        gib(io::MAX_FILE_BYTES as f64),
        io::MAX_UNBACKED_DIM,
        gib(dense as f64 * 8.0),
        nonsmooth::multibody::scenes::MAX_SCENE_CONTACTS,
        nonsmooth::cli::MAX_SWEEPS,
        io::MAX_FCLIB_DATASET_ELEMENTS,
        gib(nonsmooth::cli::FCLIB_READ_MEMORY_KIB as f64 * 1024.0),
        nonsmooth::cli::FCLIB_READ_LIMIT.as_secs(),
        nonsmooth::cli::FCLIB_READ_LIMIT_VARIABLE,
    )
}

fn main() {
    support::publish("generated/limits.txt", &limits());
    support::publish("generated/reader_memory.txt", &table());
}

#[test]
fn reader_memory_is_current() {
    main();
}
