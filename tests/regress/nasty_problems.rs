//! Numerically nasty valid problems (issue 8, items 4 and 6), solved with every method of
//! `Method::NAMES` through `method::solve`: what each must do. Every outcome has a finite
//! answer; a "converged" one is a solution (judged afresh, normal condition included); a
//! non-converged one reports its true error.
//!
//! `cargo test --release --test regress -- nasty_problems --ignored --nocapture` prints the
//! table of status / iterations / error per problem and method.

use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::merit::Measure;
use nonsmooth::multibody::scenes;
use nonsmooth::problem::AnyProblem;
use nonsmooth::problem::{FrictionContact, FrictionKind, GlobalFrictionContact, Lcp};
use nonsmooth::registry::{Choice, Outcome, names, solve};
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

/// A 3x3 Delassus block small enough that PROX with the paper's `r = 5` converges without a
/// rollback (on `W_nn ~ 1` it first cycles between two points: `prox_two_cycle`).
fn w2() -> DMatrix<f64> {
    DMatrix::from_row_slice(3, 3, &[2.0, 0.5, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 1.0]) * 0.1
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

/// The global form of `box_stack(2)` with `q` and `b` multiplied by `s`.
fn global_scaled(s: f64) -> AnyProblem {
    let g = scenes::box_stack(2).unwrap().global_problem().unwrap();
    AnyProblem::Global(
        GlobalFrictionContact::new(
            g.m().clone(),
            g.h().clone(),
            g.q() * s,
            g.b() * s,
            g.mu().clone(),
            g.kind(),
        )
        .unwrap(),
    )
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
        ("fc3d q*1e160", fc(w2(), &[-1e160, 0.8e160, 0.0], &[0.5])),
        ("fc3d q*1e200", fc(w2(), &[-1e200, 0.8e200, 0.0], &[0.5])),
        ("fc3d q*1e-300", fc(w2(), &[-1e-300, 0.8e-300, 0.0], &[0.5])),
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
    v.push(("gfc3d box_stack(2) q,b*1e200", global_scaled(1e200)));
    v.push(("gfc3d box_stack(2) q,b*1e-300", global_scaled(1e-300)));
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
    run_method(problem, name.parse().unwrap())
}

/// A PROX method with the paper's setting (`r = 5`, divergence test against the last
/// step), not the registry's default.
fn paper(name: &str) -> Choice {
    let m: Choice = name.parse().unwrap();
    m.set_text("r_factor", "global=5")
        .and_then(|m| m.set_text("window", "1"))
        .unwrap()
}

fn run_method(problem: &AnyProblem, method: Choice) -> Outcome {
    let params = Params {
        max_iter: 10_000,
        ..Default::default()
    };
    solve(
        problem,
        &method,
        DVector::zeros(problem.dim()),
        &params,
        &mut |_| ControlFlow::Continue(()),
    )
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
        for m in names() {
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

/// Item 6: every outcome has a finite answer; a "converged" one meets the tolerance when
/// measured afresh on the original problem (the normal condition included); an error that
/// is not finite never comes with "converged".
#[test]
fn every_outcome_is_finite_and_honest() {
    for (pname, p) in problems() {
        for m in names() {
            let o = run(&p, m);
            if matches!(o.result, Err(SolveError::Problem(_))) {
                continue;
            }
            assert!(
                o.x.iter().all(|v| v.is_finite()),
                "{pname} {m}: non-finite answer"
            );
            let afresh = nonsmooth::registry::measure(&p, &o.x).unwrap();
            if o.status() == "converged" {
                assert!(
                    afresh.meets(1e-8, Measure::Relative),
                    "{pname} {m}: converged but {afresh:?}"
                );
            }
            if let Some(info) = o.info() {
                assert!(
                    info.error.is_finite() || o.status() != "converged",
                    "{pname} {m}: {info:?}"
                );
                assert!(!info.error.rel.is_nan(), "{pname} {m}");
            }
        }
    }
}

fn find<'a>(problems: &'a [(&'static str, AnyProblem)], name: &str) -> &'a AnyProblem {
    &problems.iter().find(|(n, _)| *n == name).unwrap().1
}

/// Item 4: what each method must do on the nasty problems.
#[test]
fn what_each_method_must_do() {
    let problems = problems();
    // The default method solves every problem that has a representable solution.
    for (pname, p) in &problems {
        let o = run(p, "auto");
        match *pname {
            // x = (4/3, 7/3) 1e-320 rounds to multiples of 4.9e-324: the best answer has a
            // relative error of about 1e-4, and no method may claim 1e-8.
            "lcp 2x2, b subnormal" => {
                let e = o.info().expect("an error").error;
                assert!(o.status() != "converged" && e.rel < 1e-3, "{o:?}");
            }
            // mass ratio 1e6: auto's cone Newton converges (NSGS, auto before issue 9, ran
            // into the sweep cap, honestly)
            _ => assert_eq!(o.status(), "converged", "{pname}: {:?}", o.result),
        }
    }
    let o = run(find(&problems, "heavy_on_light(1e6)"), "nsgs");
    let e = o.info().expect("an error").error;
    assert!(o.status() == "max-iterations" && e.rel < 1e-2, "{o:?}");
    // The cone Newton converges on the heavy box quickly: its regularisation was tied to
    // the absolute residual and crawled for 2121 iterations.
    for m in ["nsn", "prox-nsn"] {
        let o = run(find(&problems, "heavy_on_light(1e6)"), m);
        assert_eq!(o.status(), "converged", "{m}: {:?}", o.result);
        assert!(o.info().unwrap().iterations <= 100, "{m}: {:?}", o.result);
    }
    // mu = 1e6: NSGS, the cone Newton and PROX with its default (recommended) options
    // converge; PROX with the paper's r = 5 stalled here (honestly: max-iterations with its
    // true error) while it was the default
    let p = find(&problems, "box_stack(3) mu=1e6");
    for m in ["nsgs", "nsn", "prox-nsn", "prox-gs", "prox-jacobi"] {
        assert_eq!(run(p, m).status(), "converged", "{m}");
    }
    // W = 1e-310 I, q = (-1e-310, 0, 0): the contact presses, r = (1, 0, 0)
    let p = find(&problems, "fc3d W=1e-310 I");
    for m in ["auto", "nsgs", "nsn"] {
        let o = run(p, m);
        assert_eq!(o.status(), "converged", "{m}");
        assert!(
            (o.x[0] - 1.0).abs() < 1e-9 && o.x[1].abs() < 1e-9,
            "{m}: {}",
            o.x
        );
    }
    // W from 1e-12 to 1e12: every friction method
    let p = find(&problems, "fc3d scales 1e-12..1e12");
    for m in ["nsgs", "nsn", "prox-nsn", "prox-gs", "prox-jacobi"] {
        assert_eq!(run(p, m).status(), "converged", "{m}");
    }
}

/// PROX with the paper's `r = 5` on one contact with `W_nn ~ 1`: the projection clamps
/// `λ_n` between 0 and 5 for ever, every step as long as the last. The divergence test counts
/// an equal step as growth, so the r-factor shrinks and the PROX methods converge, with and
/// without friction (found by the adversarial corpus: max-iterations at error 0.88, when
/// `r = 5` was the methods' default; it is now set explicitly), and with the default options.
#[test]
fn prox_two_cycle() {
    let w = DMatrix::from_diagonal(&DVector::from_vec(vec![2.0, 1.0, 1.0]));
    for mu in [0.0, 0.5] {
        let p = fc(w.clone(), &[-1.0, 0.5, 0.2], &[mu]);
        for (m, method) in [
            ("prox-gs paper", paper("prox-gs")),
            ("prox-jacobi paper", paper("prox-jacobi")),
            ("prox-gs", "prox-gs".parse().unwrap()),
            ("prox-jacobi", "prox-jacobi".parse().unwrap()),
        ] {
            let o = run_method(&p, method);
            assert_eq!(o.status(), "converged", "mu {mu} {m}: {:?}", o.result);
            assert!(
                o.info().unwrap().iterations < 200,
                "mu {mu} {m}: {:?}",
                o.result
            );
        }
    }
}
