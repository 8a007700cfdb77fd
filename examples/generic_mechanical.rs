//! A generic mechanical problem with every block kind (an equality, a joint limit, a
//! friction-loss interval, condim 3, 4 and 6 contacts, one anisotropic), `W = B Bᵀ + 0.1 I`
//! from a fixed seed, solved by `gmp-newton` and `gmp-pgs` for the CCP and for Coulomb.
//!
//! ```text
//! cargo run --release --example generic_mechanical
//! ```
//!
//! Writes `book/src/generated/generic_mechanical.txt`; its test checks the committed file.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::problem::generic::{Block, GenericMechanical};
use nonsmooth::problem::{AnyProblem, FrictionKind};
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::{Params, no_observer};

use nonsmooth::rng::SplitMix64;

// ANCHOR: problem
/// The blocks: one of every kind MuJoCo's solver sees.
fn blocks() -> Vec<(&'static str, Block)> {
    blocks_with(0.02, 0.005)
}

/// The blocks with torsional coefficient `tor` and rolling coefficient `roll`.
fn blocks_with(tor: f64, roll: f64) -> Vec<(&'static str, Block)> {
    vec![
        ("weld row (equality)", Block::Equality),
        ("joint limit", Block::Unilateral),
        (
            "friction loss",
            Block::Interval {
                lo: -0.05,
                hi: 0.05,
            },
        ),
        ("condim 3", Block::Contact { mu: vec![0.8, 0.8] }),
        (
            "condim 4",
            Block::Contact {
                mu: vec![0.8, 0.8, tor],
            },
        ),
        (
            "condim 6",
            Block::Contact {
                mu: vec![0.8, 0.8, tor, roll, roll],
            },
        ),
        (
            "condim 3 anisotropic",
            Block::Contact { mu: vec![1.0, 0.2] },
        ),
    ]
}

fn problem(kind: FrictionKind) -> GenericMechanical {
    problem_with(kind, 0.02, 0.005)
}

fn problem_with(kind: FrictionKind, tor: f64, roll: f64) -> GenericMechanical {
    let blocks: Vec<Block> = blocks_with(tor, roll).into_iter().map(|(_, b)| b).collect();
    let n: usize = blocks.iter().map(Block::dim).sum();
    let mut rng = SplitMix64::new(2024);
    let b = DMatrix::from_fn(n, n, |_, _| rng.uniform(-1.0, 1.0));
    let w = &b * b.transpose() / n as f64 + DMatrix::identity(n, n) * 0.1;
    let mut q = DVector::from_fn(n, |_, _| rng.uniform(-1.0, 1.0));
    // every contact pressed into the ground (u_n < 0 without reaction), pushed gently
    // sideways (some stick, some slide)
    let mut row = 0;
    for block in &blocks {
        if let Block::Contact { mu } = block {
            q[row] = -q[row].abs() - 0.2;
            for k in 1..=mu.len() {
                q[row + k] *= 0.1;
            }
        }
        row += block.dim();
    }
    GenericMechanical::new(Matrix::Dense(w), q, blocks, kind).expect("valid problem")
}
// ANCHOR_END: problem

/// What a block does at the answer.
fn state(block: &Block, r: &[f64], u: &[f64]) -> String {
    let tiny = 1e-9;
    match block {
        Block::Equality => format!("r = {:+.4}", r[0]),
        Block::Unilateral | Block::Interval { .. } => {
            let (lo, hi) = match block {
                Block::Interval { lo, hi } => (*lo, *hi),
                _ => (0.0, f64::INFINITY),
            };
            let at = if (r[0] - lo).abs() <= tiny {
                "at lower bound"
            } else if (r[0] - hi).abs() <= tiny {
                "at upper bound"
            } else {
                "inside"
            };
            format!("r = {:+.4}, u = {:+.4}, {at}", r[0], u[0])
        }
        Block::Contact { mu } => {
            let t: f64 = mu
                .iter()
                .zip(&r[1..])
                .map(|(m, x)| if *m > 0.0 { (x / m).powi(2) } else { 0.0 })
                .sum::<f64>()
                .sqrt();
            let slip: f64 = u[1..].iter().map(|x| x * x).sum::<f64>().sqrt();
            let what = if r[0] <= tiny {
                "separated"
            } else if slip <= 1e-8 {
                "sticking"
            } else {
                "sliding"
            };
            format!(
                "r_n = {:.4}, |S⁻¹r_t|/r_n = {:.4}, |u_t| = {:.2e}, {what}",
                r[0],
                if r[0] > 0.0 { t / r[0] } else { 0.0 },
                slip
            )
        }
    }
}

// ANCHOR: solve
fn report() -> String {
    let mut out = String::new();
    let params = Params {
        tol: 1e-10,
        max_iter: 10_000,
        ..Default::default()
    };
    for kind in [FrictionKind::Ccp, FrictionKind::Coulomb] {
        let p = problem(kind);
        let n = p.dim();
        writeln!(
            out,
            "{kind:?}: {} blocks, {n} rows, tolerance 1e-10",
            p.blocks_len()
        )
        .ok();
        let mut answers = Vec::new();
        for method in ["gmp-newton", "gmp-pgs"] {
            let choice: Choice = method.parse().expect("registered");
            let any = AnyProblem::Generic(p.clone());
            let o = solve(
                &any,
                &choice,
                DVector::zeros(n),
                &params,
                &mut no_observer(),
            );
            let (it, err) = o
                .info()
                .map_or((0, f64::NAN), |i| (i.iterations, i.error.rel));
            writeln!(
                out,
                "  {method:<10} {:<10} {it:>5} iterations, error {err:.2e},\n             stats {}",
                o.status(),
                o.info().map_or(String::new(), |i| i.stats.to_string())
            )
            .ok();
            answers.push(o.x);
        }
        writeln!(
            out,
            "  max |r_newton - r_pgs| = {:.1e}",
            (&answers[0] - &answers[1]).amax()
        )
        .ok();
        let r = &answers[0];
        let u = p.velocity(r);
        writeln!(out, "  per block (gmp-newton's answer):").ok();
        for (b, (name, block)) in blocks().iter().enumerate() {
            let (s, e) = (p.offsets()[b], p.offsets()[b + 1]);
            let res: f64 = p
                .block_terms(b, r.as_slice(), u.as_slice())
                .iter()
                .map(|x| x * x)
                .sum::<f64>()
                .sqrt();
            writeln!(
                out,
                "    {name:<21} rows {s:>2}..{e:<2} residual {res:.1e}  {}",
                state(block, &r.as_slice()[s..e], &u.as_slice()[s..e])
            )
            .ok();
        }
    }
    // the same problem with the torsional and rolling coefficients scaled, and the line
    // search's window (1: monotone Armijo, the default; 5: non-monotone)
    writeln!(
        out,
        "gmp-newton with other torsional / rolling coefficients (same W, q):"
    )
    .ok();
    for (tor, roll, window) in [
        (0.8, 0.8, 1),
        (0.2, 0.2, 1),
        (0.02, 0.005, 1),
        (0.005, 0.0001, 1),
        (0.002, 0.0005, 1),
        (0.8, 0.8, 5),
        (0.2, 0.2, 5),
        (0.02, 0.005, 5),
        (0.005, 0.0001, 5),
        (0.002, 0.0005, 5),
    ] {
        for kind in [FrictionKind::Ccp, FrictionKind::Coulomb] {
            let any = AnyProblem::Generic(problem_with(kind, tor, roll));
            let choice = Choice::new("gmp-newton")
                .and_then(|c| c.set_text("window", &window.to_string()))
                .expect("registered");
            let o = solve(
                &any,
                &choice,
                DVector::zeros(any.dim()),
                &params,
                &mut no_observer(),
            );
            let (it, err) = o
                .info()
                .map_or((0, f64::NAN), |i| (i.iterations, i.error.rel));
            let stat = |k: &str| o.info().map_or(String::new(), |i| i.stats[k].to_string());
            let (bt, gs) = (stat("backtracks"), stat("gs_sweeps"));
            writeln!(
                out,
                "  window {window} torsion/rolling {:<12} {:<7} {:<9} {it:>2} iterations, \
                 {bt:>3} backtracks, {gs:>2} GS sweeps, error {err:.2e}",
                format!("{tor}/{roll}"),
                format!("{kind:?}"),
                o.status()
            )
            .ok();
        }
    }
    out
}
// ANCHOR_END: solve

fn main() {
    let out = report();
    print!("{out}");
    support::publish("generated/generic_mechanical.txt", &out);
}

#[test]
fn output_matches_the_book() {
    main();
}
