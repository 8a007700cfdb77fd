//! Whole solves on the shared small fc3d files (one to five contacts: `Rover*`,
//! `FrictionContact3D_*`, `FC3D_Example1*`), from zero to 1e-8 in the Siconos 4.4
//! normalisation, through the registry's `solve` (what the command line and every caller
//! pay: the option handling, the scaling test, the preparation, the error measured after
//! every iteration), for `nsgs` and `auto` (the cone Newton on these).
//!
//! `cargo bench --bench small_files`. Siconos is not in this harness: the same solves beside
//! Siconos 4.4's fastest solver, in one run, are `nonsmooth bench FILES --solve --siconos`
//! (the README's `bench-small-*` tables). Skips with a notice without `data`
//! (or `$NONSMOOTH_SHARED_DATA`).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nalgebra::DVector;
use nonsmooth::io::load;
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::{Params, no_observer};

/// The small files present, sorted.
fn small_files() -> Vec<PathBuf> {
    let dir = std::env::var_os("NONSMOOTH_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data"))
        .join("siconos/fc3d");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipping: {} not found", dir.display());
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".dat")
                && ["Rover", "FrictionContact3D_", "FC3D_Example1"]
                    .iter()
                    .any(|s| name.starts_with(s))
        })
        .collect();
    files.sort();
    files
}

fn whole_solves(c: &mut Criterion) {
    let params = Params {
        tol: 1e-8,
        max_iter: 100_000,
        ..Default::default()
    };
    let mut group = c.benchmark_group("whole_solve");
    for path in small_files() {
        let problem = load(&path).expect("a shared file").problem;
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for method in ["nsgs", "auto"] {
            let choice: Choice = method.parse().expect("registered");
            group.bench_with_input(BenchmarkId::new(method, &name), &problem, |b, p| {
                b.iter(|| {
                    let out = solve(
                        p,
                        &choice,
                        DVector::zeros(p.dim()),
                        &params,
                        &mut no_observer(),
                    );
                    assert_eq!(out.status(), "converged");
                    black_box(out.x)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, whole_solves);
criterion_main!(benches);
