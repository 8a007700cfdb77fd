//! Nanoseconds per projection onto the friction sets: the closest point on an ellipsoid by
//! the paper's bisection and by the safeguarded Newton method (Erleben 2017 §4.1), side by
//! side on the same cases, with the disk and the box for scale.
//!
//! `cargo bench --bench friction`. Each measured iteration is one call, cycling through 4096
//! cases, so criterion's time per iteration is the time per call. The cases are those of
//! `examples/ellipsoid_accuracy.rs` (seed 2017): per category, and all categories mixed; a
//! second set keeps only the points outside (where a root is searched).

#[path = "../examples/ellipsoid_support/mod.rs"]
mod ellipsoid_support;

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use ellipsoid_support::{Case, Category, case};
use nonsmooth::friction::{
    BoxSet, ConvexSet, Disk, EllipsoidCase, EllipsoidMethod, project_on_ellipsoid_with,
};

const N: u64 = 4096;

fn cases(filter: impl Fn(&Case) -> bool) -> Vec<Case> {
    (0..)
        .map(|k| case(2017, k))
        .filter(|c| filter(c))
        .take(N as usize)
        .collect()
}

fn outside(c: &Case) -> bool {
    let mut x = vec![0.0; c.axes.len()];
    project_on_ellipsoid_with(&c.axes, &c.z, &mut x, EllipsoidMethod::Bisection).case
        == EllipsoidCase::Root
}

fn bench_set(c: &mut Criterion, group: &str, list: &[(String, Vec<Case>)]) {
    let mut g = c.benchmark_group(group);
    for (name, cs) in list {
        for (method, mname) in [
            (EllipsoidMethod::Bisection, "bisection"),
            (EllipsoidMethod::SafeguardedNewton, "safeguarded_newton"),
        ] {
            g.bench_with_input(BenchmarkId::new(mname, name), cs, |b, cs| {
                let mut i = 0;
                let mut x = [0.0; 3];
                b.iter(|| {
                    i = (i + 1) % cs.len();
                    let c = &cs[i];
                    let d = c.axes.len();
                    project_on_ellipsoid_with(
                        black_box(&c.axes),
                        black_box(&c.z),
                        &mut x[..d],
                        method,
                    );
                    black_box(x[0])
                })
            });
        }
    }
    g.finish();
}

fn ellipsoid(c: &mut Criterion) {
    let mut list = vec![("all".to_string(), cases(|_| true))];
    for cat in Category::ALL {
        list.push((
            format!("{cat:?}"),
            cases(|c| c.category == cat && outside(c)),
        ));
    }
    list.push(("all_outside".to_string(), cases(outside)));
    bench_set(c, "ellipsoid_projection", &list);
}

fn simple_sets(c: &mut Criterion) {
    let cs = cases(|c| c.axes.len() == 2 && outside(c));
    let mut g = c.benchmark_group("simple_sets");
    g.bench_function("disk", |b| {
        let mut i = 0;
        let mut x = [0.0; 2];
        b.iter(|| {
            i = (i + 1) % cs.len();
            Disk {
                radius: cs[i].axes[0],
            }
            .project(black_box(&cs[i].z), &mut x);
            black_box(x[0])
        })
    });
    let boxes: Vec<BoxSet> = cs
        .iter()
        .map(|c| BoxSet {
            half: c.axes.clone(),
        })
        .collect();
    g.bench_function("box", |b| {
        let mut i = 0;
        let mut x = [0.0; 2];
        b.iter(|| {
            i = (i + 1) % cs.len();
            boxes[i].project(black_box(&cs[i].z), &mut x);
            black_box(x[0])
        })
    });
    g.finish();
}

criterion_group!(benches, ellipsoid, simple_sets);
criterion_main!(benches);
