//! MuJoCo's sliding slab, solved as what MuJoCo solves (the cone complementarity problem)
//! and as Coulomb friction (chapter "Reading real problems and judging an answer").
//!
//! ```text
//! cargo run --release --example mujoco_slab
//! ```
//!
//! Writes `book/src/generated/mujoco_slab.txt`; its test checks the committed file
//! (skipped, with a notice, when `data/` is absent).

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::problem::{FrictionContact, FrictionKind};
use nonsmooth::solver::{Params, no_observer};
use nonsmooth::splitting::blocked_gauss_seidel;

fn solve(p: &FrictionContact) -> DVector<f64> {
    let params = Params {
        tol: 1e-10,
        max_iter: 1_000_000,
        ..Default::default()
    };
    let mut r = DVector::zeros(p.dim());
    blocked_gauss_seidel(p, &mut r, &params, &mut no_observer()).expect("converges");
    r
}

fn main() {
    let Some(data) = support::shared_data() else {
        return;
    };
    let loaded = load(data.join("mujoco/mujoco_sliding_slab_elliptic.json")).expect("reads");
    let AnyProblem::Friction(ccp) = &loaded.problem else {
        panic!("an elliptic MuJoCo file is a friction problem")
    };
    // ANCHOR: both_laws
    // The file poses the CCP (MuJoCo's relaxation); the same data can pose Coulomb's law.
    let coulomb = ccp.clone().with_kind(FrictionKind::Coulomb);
    let mujoco = DVector::from_vec(loaded.answer.as_ref().expect("an answer").r.clone());
    let ours_ccp = solve(ccp);
    let ours_coulomb = solve(&coulomb);
    // ANCHOR_END: both_laws

    let mut out = String::new();
    writeln!(
        out,
        "mu = {}, forces in N, accelerations in m/s^2",
        ccp.mu()[0]
    )
    .unwrap();
    writeln!(
        out,
        "{:>7}  {:>28}  {:>28}  {:>28}",
        "", "MuJoCo (CCP)", "ours, CCP", "ours, Coulomb"
    )
    .unwrap();
    writeln!(
        out,
        "{:>7}  {:>7} {:>10} {:>9}  {:>7} {:>10} {:>9}  {:>7} {:>10} {:>9}",
        "contact", "f_n", "u_n", "slip", "f_n", "u_n", "slip", "f_n", "u_n", "slip"
    )
    .unwrap();
    let velocities: Vec<DVector<f64>> = [&mujoco, &ours_ccp, &ours_coulomb]
        .iter()
        .map(|r| ccp.velocity(r))
        .collect();
    for c in 0..ccp.contacts() {
        write!(out, "{c:>7}").unwrap();
        for (r, u) in [&mujoco, &ours_ccp, &ours_coulomb].iter().zip(&velocities) {
            let k = 3 * c;
            write!(
                out,
                "  {:>7.3} {:>10} {:>9.3}",
                r[k],
                support::sci(u[k]),
                u[k + 1].hypot(u[k + 2])
            )
            .unwrap();
        }
        writeln!(out).unwrap();
    }
    writeln!(
        out,
        "largest |ours, CCP - MuJoCo| / largest MuJoCo force: {:.1e}",
        (&ours_ccp - &mujoco).amax() / mujoco.amax()
    )
    .unwrap();
    print!("{out}");
    support::publish("generated/mujoco_slab.txt", &out);
}

#[test]
fn output_matches_the_book() {
    main();
}
