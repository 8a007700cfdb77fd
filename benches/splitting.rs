//! One sweep of each splitting solver: on the largest shared problems, and on generated
//! scenes from 100 to 100k contacts (throughput in contacts per second, so linear growth
//! shows as a flat throughput).
//!
//! `cargo bench --bench splitting`. The shared problems are read from `data`
//! (or `NONSMOOTH_SHARED_DATA`) and skipped with a notice when absent. The side-by-side
//! ratio against Siconos comes from `nonsmooth bench --siconos` (same machine, same run).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::multibody::{SceneKind, scenes};
use nonsmooth::problem::BoxedLcp;
use nonsmooth::splitting::{BlockedGaussSeidel, Splitting, VelocityGaussSeidel, sweep_boxed};

fn shared_data() -> Option<PathBuf> {
    let dir = std::env::var_os("NONSMOOTH_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping shared-data benches: {} not found", dir.display());
        None
    }
}

/// The largest shared fc3d files (by contacts), and two hard ones.
const SHARED_FC3D: &[&str] = &[
    "Capsules-i122-1617.dat",
    "Capsules-i100-889.dat",
    "Capsules-i101-404.dat",
    "Confeti-ex03-Fc3D-SBM.dat",
    "BoxesStack1-i100000-32.hdf5.dat",
    "OneObject-i100000-316.hdf5.dat",
];

fn nsgs_shared(c: &mut Criterion) {
    let Some(dir) = shared_data() else { return };
    let mut g = c.benchmark_group("nsgs_sweep_shared");
    g.sample_size(30);
    for name in SHARED_FC3D {
        let lp = match load(dir.join("siconos/fc3d").join(name)) {
            Ok(lp) => lp,
            Err(e) => {
                eprintln!("skipping {name}: {e}");
                continue;
            }
        };
        let AnyProblem::Friction(p) = &lp.problem else {
            continue;
        };
        let s = BlockedGaussSeidel::new(p).expect("valid shared problem");
        let mut r = DVector::zeros(p.dim());
        // Start from a mid-solve state, where the mix of stick and slide is realistic.
        for _ in 0..100 {
            s.sweep(&mut r);
        }
        g.throughput(Throughput::Elements(p.contacts() as u64));
        g.bench_function(BenchmarkId::new("nsgs", name), |b| {
            b.iter(|| s.sweep(black_box(&mut r)))
        });
    }
    g.finish();
}

const SIZES: &[usize] = &[100, 1_000, 10_000, 100_000];

fn nsgs_generated(c: &mut Criterion) {
    let mut g = c.benchmark_group("nsgs_sweep_generated");
    g.sample_size(10);
    for &n in SIZES {
        let scene = scenes::sized_for(SceneKind::BoxStack, n).expect("scene");
        let p = scene.local_problem().expect("local problem");
        let s = BlockedGaussSeidel::new(&p).expect("solver");
        let mut r = DVector::zeros(p.dim());
        for _ in 0..20 {
            s.sweep(&mut r);
        }
        g.throughput(Throughput::Elements(p.contacts() as u64));
        g.bench_with_input(
            BenchmarkId::new("box_stack", p.contacts()),
            &p.contacts(),
            |b, _| b.iter(|| s.sweep(black_box(&mut r))),
        );
    }
    g.finish();
}

fn velocity_gs_generated(c: &mut Criterion) {
    let mut g = c.benchmark_group("vgs_sweep_generated");
    g.sample_size(10);
    for &n in SIZES {
        for kind in [SceneKind::Pyramid, SceneKind::Wall] {
            let scene = scenes::sized_for(kind, n).expect("scene");
            let p = scene.global_problem().expect("global problem");
            let s = VelocityGaussSeidel::new(&p).expect("solver");
            let mut r = DVector::zeros(p.dim());
            let mut v = s.velocity_dofs(&r);
            for _ in 0..20 {
                s.sweep(&mut r, &mut v);
            }
            g.throughput(Throughput::Elements(p.contacts() as u64));
            let name = format!("{kind:?}").to_lowercase();
            g.bench_with_input(
                BenchmarkId::new(name, p.contacts()),
                &p.contacts(),
                |b, _| b.iter(|| s.sweep(black_box(&mut r), black_box(&mut v))),
            );
        }
    }
    g.finish();
}

fn pgs_boxed(c: &mut Criterion) {
    let mut g = c.benchmark_group("pgs_boxed_sweep");
    g.sample_size(10);
    if let Some(dir) = shared_data() {
        if let Ok(lp) = load(dir.join("opentissue/dlm/72")) {
            if let AnyProblem::Boxed(p) = &lp.problem {
                let mut x = DVector::zeros(p.dim());
                g.throughput(Throughput::Elements(p.dim() as u64 / 3));
                g.bench_function("opentissue_dlm_72", |b| {
                    b.iter(|| sweep_boxed(p, black_box(&mut x), Splitting::GaussSeidel))
                });
            }
        }
    }
    for &n in &SIZES[..3] {
        let scene = scenes::sized_for(SceneKind::BoxStack, n).expect("scene");
        let p = BoxedLcp::from_friction_contact(&scene.local_problem().expect("local"));
        let mut x = DVector::zeros(p.dim());
        g.throughput(Throughput::Elements(p.dim() as u64 / 3));
        g.bench_with_input(BenchmarkId::new("box_stack", p.dim() / 3), &n, |b, _| {
            b.iter(|| sweep_boxed(&p, black_box(&mut x), Splitting::GaussSeidel))
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    nsgs_shared,
    nsgs_generated,
    velocity_gs_generated,
    pgs_boxed
);
criterion_main!(benches);
