//! One Fischer-Newton iteration (assembly of `Phi` and `H`, the inner solve, the line
//! search) and one minimum-map Newton iteration against problem size, on the box model of
//! generated box stacks from 100 to 100k contacts (throughput in contacts per second, so
//! linear growth shows as a flat throughput).
//!
//! `cargo bench --bench newton`. Each iteration starts from the same mid-solve iterate (five
//! Fischer-Newton iterations from zero), so every sample does the same work.

use std::hint::black_box;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use nalgebra::DVector;
use nonsmooth::multibody::{SceneKind, scenes};
use nonsmooth::newton::{
    FischerNewton, FischerNewtonSolver, InnerSolver, MinMapNewton, MinMapNewtonSolver, Rows,
};
use nonsmooth::problem::BoxedLcp;

const SIZES: &[usize] = &[100, 1_000, 10_000, 100_000];

fn problem(contacts: usize) -> BoxedLcp {
    let scene = scenes::sized_for(SceneKind::BoxStack, contacts).expect("scene");
    BoxedLcp::from_friction_contact(&scene.local_problem().expect("local problem"))
}

/// Five default Fischer-Newton iterations from zero.
fn mid_solve(p: &BoxedLcp) -> DVector<f64> {
    let mut s =
        FischerNewtonSolver::new(Rows::boxed(p), &FischerNewton::default()).expect("solver");
    let mut x = DVector::zeros(p.dim());
    for _ in 0..5 {
        s.iterate(&mut x).expect("iteration");
    }
    x
}

fn newton_iteration(c: &mut Criterion) {
    let mut g = c.benchmark_group("newton_iteration_box_stack");
    g.sample_size(10);
    for &n in SIZES {
        let p = problem(n);
        let contacts = p.dim() / 3;
        let x0 = mid_solve(&p);
        g.throughput(Throughput::Elements(contacts as u64));
        for inner in [InnerSolver::Lu, InnerSolver::GMRES] {
            let options = FischerNewton {
                inner,
                ..Default::default()
            };
            let mut s = FischerNewtonSolver::new(Rows::boxed(&p), &options).expect("solver");
            g.bench_with_input(
                BenchmarkId::new(format!("fischer_newton_{}", inner.name()), contacts),
                &contacts,
                |b, _| {
                    b.iter_batched(
                        || x0.clone(),
                        |mut x| s.iterate(black_box(&mut x)).expect("iteration"),
                        BatchSize::LargeInput,
                    )
                },
            );
        }
        let mut s =
            MinMapNewtonSolver::new(Rows::boxed(&p), &MinMapNewton::default()).expect("solver");
        g.bench_with_input(
            BenchmarkId::new("minmap_newton_lu", contacts),
            &contacts,
            |b, _| {
                b.iter_batched(
                    || x0.clone(),
                    |mut x| s.iterate(black_box(&mut x)).expect("iteration"),
                    BatchSize::LargeInput,
                )
            },
        );
    }
    g.finish();
}

criterion_group!(benches, newton_iteration);
criterion_main!(benches);
