//! Numerically nasty valid problems (issue 8, items 4 and 6), solved with every method of
//! `Method::NAMES` through `method::solve`: what each must do. Every outcome has a finite
//! answer; a "converged" one is a solution (judged afresh, normal condition included); a
//! non-converged one reports its true error.
//!
//! `cargo test --release --test regress_nasty_problems -- --ignored --nocapture` prints the
//! table of status / iterations / error per problem and method.

use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector};
use nonsmooth::io::AnyProblem;
use nonsmooth::matrix::Matrix;
use nonsmooth::method::{Method, Outcome, solve};
use nonsmooth::multibody::scenes;
use nonsmooth::problem::{FrictionContact, FrictionKind, Lcp};
use nonsmooth::solver::{Params, SolveError};

fn fc(w: DMatrix<f64>, q: &[f64], mu: &[f64]) -> AnyProblem {
    AnyProblem::Friction(
        FrictionContact::new(
            Matrix::Dense(w),
            DVector::from_column_slice(q),
            DVector::from_column_slice(mu),
            FrictionKind::Coulomb,
        )
        .unwrap(),
    )
}

fn lcp(a: DMatrix<f64>, b: &[f64]) -> AnyProblem {
    AnyProblem::Lcp(Lcp::new(Matrix::Dense(a), DVector::from_column_slice(b)).unwrap())
}

/// `box_stack(3)` with every friction coefficient set to `mu`.
fn box_stack_mu(mu: f64) -> AnyProblem {
    let p = scenes::box_stack(3).unwrap().local_problem().unwrap();
    let (w, q, m, kind) = p.into_parts();
    let m = DVector::from_element(m.len(), mu);
    AnyProblem::Friction(FrictionContact::new(w, q, m, kind).unwrap())
}

/// Three contacts whose blocks have scales `1e-12`, `1`, `1e12`, each pushed into the
/// ground and sideways (one sticks, one slides, one takes off depending on its block).
fn three_scales() -> AnyProblem {
    let mut w = DMatrix::zeros(9, 9);
    let block = [[2.0, 0.3, -0.2], [0.3, 1.5, 0.1], [-0.2, 0.1, 1.2]];
    let mut q = vec![0.0; 9];
    for (c, s) in [1e-12, 1.0, 1e12].into_iter().enumerate() {
        for i in 0..3 {
            for j in 0..3 {
                w[(3 * c + i, 3 * c + j)] = s * block[i][j];
            }
        }
        q[3 * c] = -1.0;
        q[3 * c + 1] = 0.3 * (c as f64 + 1.0);
        q[3 * c + 2] = -0.1;
    }
    fc(w, &q, &[0.5, 0.3, 0.8])
}

/// The nasty problems of item 4, with the scale ones of items 1-3, by name.
pub fn problems() -> Vec<(&'static str, AnyProblem)> {
    let mut v = vec![
        ("lcp I, b=-1e-17", lcp(DMatrix::identity(1, 1), &[-1e-17])),
        (
            "lcp 2x2, b*1e-300",
            lcp(
                DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]),
                &[-5e-300, -6e-300],
            ),
        ),
        (
            "lcp 2x2, b*1e180",
            lcp(
                DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]),
                &[-5e180, -6e180],
            ),
        ),
        (
            "lcp 2x2, b subnormal",
            lcp(
                DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]),
                &[-5e-320, -6e-320],
            ),
        ),
        (
            "fc3d q*1e160",
            fc(DMatrix::identity(3, 3), &[-1e160, 0.3e160, 0.0], &[0.5]),
        ),
        (
            "fc3d q*1e200",
            fc(DMatrix::identity(3, 3), &[-1e200, 0.8e200, 0.0], &[0.5]),
        ),
        (
            "fc3d q*1e-300",
            fc(DMatrix::identity(3, 3), &[-1e-300, 0.3e-300, 0.0], &[0.5]),
        ),
        (
            "fc3d mu=1e300",
            fc(DMatrix::identity(3, 3), &[-1.0, 1.0, 0.0], &[1e300]),
        ),
        ("fc3d mu=1e300 ccp", {
            let AnyProblem::Friction(p) = fc(DMatrix::identity(3, 3), &[-1.0, 1.0, 0.0], &[1e300])
            else {
                unreachable!()
            };
            AnyProblem::Friction(p.with_kind(FrictionKind::Ccp))
        }),
        (
            "fc3d W=1e-310 I",
            fc(
                DMatrix::identity(3, 3) * 1e-310,
                &[-1e-310, 0.0, 0.0],
                &[0.5],
            ),
        ),
        ("fc3d scales 1e-12..1e12", three_scales()),
        ("box_stack(3) mu=1e6", box_stack_mu(1e6)),
    ];
    v.push((
        "heavy_on_light(1e6)",
        AnyProblem::Friction(
            scenes::heavy_on_light(1e6)
                .unwrap()
                .local_problem()
                .unwrap(),
        ),
    ));
    v
}

pub fn run(problem: &AnyProblem, name: &str) -> Outcome {
    let method: Method = name.parse().unwrap();
    let params = Params {
        max_iter: 10_000,
        ..Default::default()
    };
    solve(problem, method, None, &params, &mut |_| {
        ControlFlow::Continue(())
    })
}

fn cell(o: &Outcome) -> String {
    match &o.result {
        Err(SolveError::Problem(_)) => "-".into(),
        _ => {
            let (it, e) = match o.info() {
                Some(i) => (i.iterations.to_string(), format!("{:.1e}", i.error.rel)),
                None => match &o.result {
                    Err(SolveError::Diverged { iteration, error }) => {
                        (iteration.to_string(), format!("{:.1e}", error.rel))
                    }
                    _ => ("".into(), "".into()),
                },
            };
            format!("{} {it} {e}", o.status())
        }
    }
}

#[test]
#[ignore = "prints the table of the report; run with --ignored --nocapture"]
fn print_table() {
    let problems = problems();
    for (pname, p) in &problems {
        println!("## {pname}");
        for m in Method::NAMES {
            let o = run(p, m);
            if matches!(o.result, Err(SolveError::Problem(_))) {
                continue;
            }
            let finite = o.x.iter().all(|v| v.is_finite());
            println!(
                "| {m} | {} |{}",
                cell(&o),
                if finite { "" } else { " NON-FINITE x" }
            );
        }
    }
}
