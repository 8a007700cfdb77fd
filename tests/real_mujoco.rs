//! On real input: MuJoCo's three elliptic-cone problems (`../shared/data/mujoco/`).
//!
//! * Solved as what MuJoCo solves (the CCP), the blocked Gauss-Seidel reaches 1e-10 and
//!   lands on MuJoCo's answer (the CCP with `A` positive definite has one solution).
//! * MuJoCo's own answers are consistent with that problem: error <= 1e-8 (what
//!   `nonsmooth check` reports).
//! * Solved as Coulomb friction instead, the sliding slab's normal forces drop from
//!   MuJoCo's ~34.5 N to ~10.6 N per contact, as `../shared/data/README.md` says: the CCP
//!   lets a sliding contact separate (`u_n = mu ‖u_t‖ > 0`), Coulomb keeps it closed.

mod common;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, mujoco};
use nonsmooth::merit::friction_error;
use nonsmooth::problem::FrictionKind;
use nonsmooth::solver::{Params, no_observer};
use nonsmooth::splitting::blocked_gauss_seidel;

const ELLIPTIC: &[&str] = &[
    "mujoco_box_stack4_elliptic.json",
    "mujoco_heavy_on_light_1000to1_elliptic.json",
    "mujoco_sliding_slab_elliptic.json",
];

fn solve(p: &nonsmooth::problem::FrictionContact, tol: f64) -> DVector<f64> {
    let mut r = DVector::zeros(p.dim());
    let params = Params {
        tol,
        max_iter: 1_000_000,
        ..Default::default()
    };
    let info = blocked_gauss_seidel(p, &mut r, &params, &mut no_observer()).unwrap();
    assert!(info.error.rel <= tol);
    r
}

#[test]
fn ccp_solved_to_1e_10_and_matches_mujoco() {
    let Some(dir) = common::shared_file("mujoco") else {
        return;
    };
    for name in ELLIPTIC {
        let m = mujoco::read(dir.join(name)).unwrap();
        let AnyProblem::Friction(p) = &m.problem else {
            panic!("{name}")
        };
        assert_eq!(p.kind(), FrictionKind::Ccp);
        let r = solve(p, 1e-10);
        let engine = DVector::from_vec(m.answer.as_ref().unwrap().r.clone());
        let diff = (&r - &engine).amax() / engine.amax();
        eprintln!("{name}: ours vs MuJoCo, max difference / max force = {diff:.2e}");
        assert!(diff <= 1e-6, "{name}: {diff}");
    }
}

#[test]
fn mujoco_answers_are_consistent() {
    let Some(dir) = common::shared_file("mujoco") else {
        return;
    };
    for name in ELLIPTIC {
        let m = mujoco::read(dir.join(name)).unwrap();
        let AnyProblem::Friction(p) = &m.problem else {
            panic!("{name}")
        };
        let engine = DVector::from_vec(m.answer.as_ref().unwrap().r.clone());
        let e = friction_error(p, &engine);
        eprintln!(
            "{name}: MuJoCo's answer, CCP error {:.2e} (q-scaled {:.2e})",
            e.rel, e.rel_q
        );
        assert!(e.rel <= 1e-8, "{name}: {}", e.rel);
    }
}

#[test]
fn coulomb_changes_the_sliding_slab() {
    let Some(path) = common::shared_file("mujoco/mujoco_sliding_slab_elliptic.json") else {
        return;
    };
    let m = mujoco::read(path).unwrap();
    let AnyProblem::Friction(p) = &m.problem else {
        panic!()
    };
    let engine = &m.answer.as_ref().unwrap().r;
    let coulomb = solve(&p.clone().with_kind(FrictionKind::Coulomb), 1e-10);
    for c in 0..p.contacts() {
        let (ours, theirs) = (coulomb[3 * c], engine[3 * c]);
        eprintln!("contact {c}: Coulomb normal force {ours:.3} N, MuJoCo (CCP) {theirs:.3} N");
        // README: Coulomb ~10.6 N per contact, MuJoCo ~34.5 N.
        assert!((9.5..12.0).contains(&ours), "{ours}");
        assert!((32.0..38.0).contains(&theirs), "{theirs}");
    }
    // and MuJoCo's answer is not a Coulomb solution
    let e = friction_error(
        &p.clone().with_kind(FrictionKind::Coulomb),
        &DVector::from_vec(engine.clone()),
    );
    assert!(e.rel > 1e-2, "{}", e.rel);
}
