//! One Fischer-Newton iteration (assembly of `Phi` and `H`, the inner solve, the line
//! search) and one minimum-map Newton iteration against problem size, on the box model of
//! generated box stacks from 100 to 100k contacts (throughput in contacts per second, so
//! linear growth shows as a flat throughput).
//!
//! `cargo bench --bench newton`. Each iteration is one [`Method::step`] from the same
//! mid-solve iterate (five Fischer-Newton iterations from zero), so every sample does the
//! same work; the preparation (the symbolic LU) is outside the timing.

use std::hint::black_box;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use nalgebra::DVector;
use nonsmooth::multibody::{SceneKind, scenes};
use nonsmooth::newton::{
    FischerNewton, FischerNewtonOptions, InnerSolver, MinMapNewton, MinMapNewtonOptions,
    NewtonReport,
};
use nonsmooth::problem::BoxedLcp;
use nonsmooth::solver::Method;

const SIZES: &[usize] = &[100, 1_000, 10_000, 100_000];

fn problem(contacts: usize) -> BoxedLcp {
    let scene = scenes::sized_for(SceneKind::BoxStack, contacts).expect("scene");
    BoxedLcp::from_friction_contact(&scene.local_problem().expect("local problem"))
}

type Fn = FischerNewton<BoxedLcp>;
type Mmn = MinMapNewton<BoxedLcp>;

/// Five default Fischer-Newton iterations from zero.
fn mid_solve(p: &BoxedLcp) -> DVector<f64> {
    let mut s = Fn::prepare(p, &FischerNewtonOptions::default()).expect("options");
    let mut x = DVector::zeros(p.dim());
    Fn::start(&mut s, p, &x).expect("start");
    let mut report = NewtonReport::default();
    for _ in 0..5 {
        Fn::step(&mut s, p, &mut x, &mut report).expect("iteration");
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
            let options = FischerNewtonOptions {
                inner,
                ..Default::default()
            };
            let mut s = Fn::prepare(&p, &options).expect("options");
            Fn::start(&mut s, &p, &x0).expect("start");
            g.bench_with_input(
                BenchmarkId::new(format!("fischer_newton_{}", inner.name()), contacts),
                &contacts,
                |b, _| {
                    b.iter_batched(
                        || (x0.clone(), NewtonReport::default()),
                        |(mut x, mut report)| {
                            Fn::step(&mut s, &p, black_box(&mut x), &mut report).expect("iteration")
                        },
                        BatchSize::LargeInput,
                    )
                },
            );
        }
        let mut s = Mmn::prepare(&p, &MinMapNewtonOptions::default()).expect("options");
        Mmn::start(&mut s, &p, &x0).expect("start");
        g.bench_with_input(
            BenchmarkId::new("minmap_newton_lu", contacts),
            &contacts,
            |b, _| {
                b.iter_batched(
                    || (x0.clone(), NewtonReport::default()),
                    |(mut x, mut report)| {
                        Mmn::step(&mut s, &p, black_box(&mut x), &mut report).expect("iteration")
                    },
                    BatchSize::LargeInput,
                )
            },
        );
    }
    g.finish();
}

criterion_group!(benches, newton_iteration);
criterion_main!(benches);
