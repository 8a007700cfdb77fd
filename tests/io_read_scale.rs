//! Issue 14: problem files are read in memory proportional to their nonzeros.
//!
//! A brick wall's local problem (the `nonsmooth generate wall` scene) is written at two
//! sizes in each format we write (the project's JSON, Siconos `.dat`, NumPy `.npz`) and
//! read back with `io::load` under a counting allocator (the one the book's examples use,
//! `examples/support/alloc.rs`): the peak of the heap while a file is read, the file's
//! own bytes included, is counted in bytes, so the numbers are the same on every run of
//! the same build and no timing is involved. Two things are asserted for each format:
//!
//! * the peak per stored entry of `W` stays under a bound (a few times the 16 bytes an
//!   entry of the compressed rows holds, plus the file's own bytes per entry): the JSON
//!   reader needed over 200 bytes per entry before serde's buffering of the internally
//!   tagged matrix was removed;
//! * the peak grows no faster than the entries: from the small wall to the large one, the
//!   ratio of the peaks is at most 15 % above the ratio of the entries (fixed costs, such
//!   as the `.npz` reader's buffers, make it grow less).
//!
//! Its own test binary, not a module of `tests/io/`: it installs a counting global
//! allocator and reads the peak of the whole process, so any test running beside it in
//! the same process would count into its peaks.

#[path = "../examples/support/alloc.rs"]
#[allow(dead_code)]
mod alloc;

use nonsmooth::io::numpy::npz;

use std::path::{Path, PathBuf};

use nonsmooth::io::{self, AnyProblem, Provenance, json, siconos};
use nonsmooth::multibody::scenes;

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

fn temp_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("nonsmooth_read_scale_{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes the wall of `rows x cols` bricks in `format`; returns the path and `W`'s
/// stored entries.
fn write(dir: &Path, format: &str, rows: usize, cols: usize) -> (PathBuf, usize) {
    let scene = scenes::wall(rows, cols).unwrap();
    let fc = scene.local_problem().unwrap();
    let nnz = fc.w().nnz();
    let problem = AnyProblem::Friction(fc);
    let path = dir.join(format!("wall_{rows}x{cols}.{format}"));
    match format {
        "json" => json::write(&path, "wall", &problem, None, &Provenance::default()).unwrap(),
        "dat" => {
            let AnyProblem::Friction(fc) = &problem else {
                unreachable!()
            };
            siconos::write_fc3d(&path, fc).unwrap()
        }
        "npz" => npz::write(
            &path,
            "wall",
            &problem,
            None,
            &Provenance::default(),
            npz::Compression::Stored,
        )
        .unwrap(),
        _ => unreachable!(),
    }
    (path, nnz)
}

#[test]
fn reading_needs_memory_proportional_to_the_entries() {
    let dir = temp_dir();
    // (format, bound on the peak bytes per stored entry of W)
    for (format, bound) in [("json", 110.0), ("dat", 80.0), ("npz", 40.0)] {
        let mut seen = Vec::new();
        for (rows, cols) in [(5, 8), (10, 8)] {
            let (path, nnz) = write(&dir, format, rows, cols);
            let peak = alloc::peak_of(|| io::load(&path).unwrap());
            let per = peak as f64 / nnz as f64;
            let file = alloc::file_bytes(&path) as f64 / nnz as f64;
            eprintln!(
                "{format} wall {rows}x{cols}: {nnz} entries, file {file:.1} B/entry, \
                 peak {peak} B = {per:.1} B/entry"
            );
            assert!(
                per < bound,
                "{format}: reading a wall of {nnz} entries peaked at {per:.1} bytes per entry \
                 (bound {bound})"
            );
            seen.push((nnz as f64, peak as f64));
        }
        let entries = seen[1].0 / seen[0].0;
        let memory = seen[1].1 / seen[0].1;
        assert!(
            entries > 1.5,
            "the large wall has {entries:.2} times the entries"
        );
        // At most proportional: fixed costs (buffers) may make it grow less.
        assert!(
            memory / entries < 1.15,
            "{format}: the entries grew {entries:.2} times, the peak memory {memory:.2} times"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
