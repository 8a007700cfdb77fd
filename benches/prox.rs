//! One PROX Gauss-Seidel sweep (Erleben 2017 Algorithm 2, disk law, local r-factors) beside
//! one sweep of the project's blocked Gauss-Seidel (NSGS) on the same problem, so that the
//! ratio of the two times can be read: on the largest generated scene used here (a pyramid
//! of about 10k contacts) and on the largest shared fc3d file (`Capsules-i122-1617.dat`,
//! skipped with a notice when `data` or `NONSMOOTH_SHARED_DATA` is absent).
//!
//! `cargo bench --bench prox`. The per-iteration ratio against Siconos's PROX comes from
//! `nonsmooth bench --method prox-gs --siconos` (same machine, same run).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::multibody::{SceneKind, scenes};
use nonsmooth::problem::FrictionContact;
use nonsmooth::prox::{Prox, ProxOptions, ProxProblem, RFactor};
use nonsmooth::splitting::BlockedGaussSeidel;

fn shared_data() -> Option<PathBuf> {
    let dir = std::env::var_os("NONSMOOTH_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping the shared file: {} not found", dir.display());
        None
    }
}

/// The problems: `(name, problem)`.
fn problems() -> Vec<(String, FrictionContact)> {
    let mut v = Vec::new();
    let scene = scenes::sized_for(SceneKind::Pyramid, 10_000).expect("scene");
    let p = scene.local_problem().expect("local problem");
    v.push((format!("{} ({} contacts)", scene.name, p.contacts()), p));
    if let Some(dir) = shared_data() {
        let name = "Capsules-i122-1617.dat";
        match load(dir.join("siconos/fc3d").join(name)) {
            Ok(lp) => {
                if let AnyProblem::Friction(p) = lp.problem {
                    v.push((name.to_string(), p));
                }
            }
            Err(e) => eprintln!("skipping {name}: {e}"),
        }
    }
    v
}

fn sweeps(c: &mut Criterion) {
    let mut g = c.benchmark_group("prox_vs_nsgs_sweep");
    g.sample_size(10);
    for (name, fc) in problems() {
        g.throughput(Throughput::Elements(fc.contacts() as u64));
        // Both start from a mid-solve state, where the mix of stick and slide is realistic.
        let nsgs = BlockedGaussSeidel::new(&fc).expect("valid problem");
        let mut r = DVector::zeros(fc.dim());
        for _ in 0..50 {
            nsgs.sweep(&mut r);
        }
        g.bench_function(BenchmarkId::new("nsgs", &name), |b| {
            b.iter(|| nsgs.sweep(black_box(&mut r)))
        });
        let p = ProxProblem::from_friction_contact(&fc);
        let options = ProxOptions {
            r_factor: RFactor::Local,
            ..Default::default()
        };
        let prox = Prox::new(&p, options).expect("valid problem");
        let mut lam = DVector::zeros(p.dim());
        let mut st = prox.state(&lam);
        let mut scratch = Vec::new();
        for _ in 0..50 {
            prox.sweep(&mut lam, &mut st, &mut scratch);
        }
        g.bench_function(BenchmarkId::new("prox_gs", &name), |b| {
            b.iter(|| prox.sweep(black_box(&mut lam), &mut st, &mut scratch))
        });
    }
    g.finish();
}

criterion_group!(benches, sweeps);
criterion_main!(benches);
