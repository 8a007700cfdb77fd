//! Error correction (`src/stepping/correction.rs`, Erleben 2007 eq. 46, Erleben 2017 eq.
//! 43-51): the position LCP removes the linearised penetration exactly, post-stabilisation
//! leaves velocities alone, and a correction never creates penetration it could see.

use std::ops::ControlFlow;

use nalgebra::{DVector, UnitQuaternion, Vector3};
use nonsmooth::multibody::StepParams;
use nonsmooth::problem::AnyProblem;
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::Params;
use nonsmooth::stepping::correction::{displace, position_lcp, worst_penetration};
use nonsmooth::stepping::{Correction, Settings, Simulation};
use nonsmooth::world::{MaterialId, Shape, World};
use proptest::prelude::*;

/// A column of spheres on the ground, each sunk into the one below by `overlaps[i]`
/// and shifted sideways by `shifts[i]`.
fn column(overlaps: &[f64], shifts: &[f64]) -> World {
    let mut w = World::new();
    let r = 0.1;
    let mut z = r - overlaps[0];
    let mut x = 0.0;
    for i in 0..overlaps.len() {
        w.add(
            Shape::sphere(r).unwrap(),
            1000.0 * (1.0 + i as f64),
            Vector3::new(x, 0.0, z),
            UnitQuaternion::identity(),
            MaterialId::default(),
        )
        .unwrap();
        if i + 1 < overlaps.len() {
            x += shifts[i];
            let d = 2.0 * r - overlaps[i + 1];
            z += (d * d - shifts[i] * shifts[i]).sqrt();
        }
    }
    w
}

fn exact() -> Params {
    Params {
        tol: 1e-14,
        ..Params::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Solved exactly (Lemke), the position LCP moves the bodies so that every
    /// linearised gap `g + J_n dq` is non-negative, and zero wherever a push acts; `dq`
    /// is measured from the bodies' actual displacement, not from the LCP's matrix.
    #[test]
    fn correction_removes_the_linearised_penetration_exactly(
        overlaps in prop::collection::vec(0.0f64..0.02, 2..6),
        shifts in prop::collection::vec(-0.05f64..0.05, 6),
    ) {
        let mut world = column(&overlaps, &shifts);
        let contacts = world.contacts().unwrap();
        prop_assume!(worst_penetration(&contacts) > 1e-6);
        let step = world.assemble(contacts, &StepParams::default()).unwrap();
        let lcp = position_lcp(&step).unwrap();
        let out = solve(
            &AnyProblem::Lcp(lcp),
            &Choice::new("lemke").unwrap(),
            DVector::zeros(step.contacts.len()),
            &exact(),
            &mut |_| ControlFlow::Continue(()),
        );
        prop_assert!(out.result.is_ok());
        let before: Vec<Vector3<f64>> = world.bodies().iter().map(|b| b.body.position).collect();
        displace(&mut world, &step, &out.x);
        // dq of each body (spheres: only the translation changes a gap).
        let mut dq = DVector::zeros(step.assembly.dofs());
        for k in 0..step.assembly.dof_map().blocks() {
            let i = step.assembly.dof_map().body(k);
            let d = world.bodies()[i].body.position - before[i];
            dq.fixed_rows_mut::<3>(6 * k).copy_from(&d);
        }
        let dg = step.assembly.jacobian().mul_vec(&dq);
        let scale = overlaps.iter().cloned().fold(0.0, f64::max);
        for (c, contact) in step.contacts.iter().enumerate() {
            let g = contact.gap + dg[3 * c];
            prop_assert!(g >= -1e-10 * scale.max(1e-3), "contact {c}: linearised gap {g}");
            if out.x[c] > 1e-12 {
                prop_assert!(g.abs() <= 1e-10 * scale.max(1e-3), "contact {c} pushed but gap {g}");
            }
        }
    }
}

/// For a sphere on the ground the gap is linear in the translation, so one exact pass
/// removes the penetration completely.
#[test]
fn sphere_on_ground_is_corrected_completely() {
    let mut world = column(&[0.013], &[]);
    let step = world
        .assemble(world.contacts().unwrap(), &StepParams::default())
        .unwrap();
    let out = solve(
        &AnyProblem::Lcp(position_lcp(&step).unwrap()),
        &Choice::new("lemke").unwrap(),
        DVector::zeros(1),
        &exact(),
        &mut |_| ControlFlow::Continue(()),
    );
    displace(&mut world, &step, &out.x);
    let after = world.contacts().unwrap();
    assert!(after[0].gap.abs() < 1e-14, "{}", after[0].gap);
}

/// Post-stabilisation moves positions only: one step with it has exactly the velocities
/// of the same step without correction, and less penetration.
#[test]
fn post_stabilisation_leaves_velocities_unchanged() {
    for correction in [Correction::PostStabilisation, Correction::Projection] {
        let world = column(&[0.01, 0.015, 0.008], &[0.01, -0.02, 0.0]);
        let plain = Settings::default();
        let corrected = Settings::default().with_correction(correction);
        let mut a = Simulation::new(world.clone(), plain).unwrap();
        let mut b = Simulation::new(world, corrected).unwrap();
        let ra = a.step().unwrap();
        let rb = b.step().unwrap();
        for (x, y) in a.world().bodies().iter().zip(b.world().bodies()) {
            assert_eq!(x.body.linear_velocity, y.body.linear_velocity);
            assert_eq!(x.body.angular_velocity, y.body.angular_velocity);
        }
        assert!(rb.correction_passes >= 1);
        // Five PGS sweeps (the projection's budget) remove only part of it on a column
        // of three: the slow convergence that shock propagation answers (Erleben 2007
        // figure 13).
        assert!(
            rb.max_penetration < ra.max_penetration,
            "{correction:?}: {} vs {}",
            rb.max_penetration,
            ra.max_penetration
        );
        if correction == Correction::PostStabilisation {
            assert!(rb.max_penetration <= 1e-6, "{}", rb.max_penetration);
        }
    }
}

/// The position LCP's matrix, formed from the normal rows of `J` alone, is the normal
/// block of the Delassus operator `J M^-1 J^T` (rows and columns `3c`), up to rounding,
/// and exactly symmetric; its right-hand side is the gaps.
#[test]
fn position_lcp_is_the_normal_block_of_the_delassus_operator() {
    let world =
        nonsmooth::world::scenes::build(nonsmooth::world::scenes::SceneKind::Wall, Some(5), 0)
            .unwrap();
    let contacts = world.contacts().unwrap();
    let step = world.assemble(contacts, &StepParams::default()).unwrap();
    let nc = step.contacts.len();
    assert!(nc > 20, "{nc} contacts");
    let lcp = position_lcp(&step).unwrap();
    let a = lcp.a().to_dense();
    let w = step.assembly.delassus().to_dense();
    let scale = w.amax();
    for i in 0..nc {
        for j in 0..nc {
            let d = (a[(i, j)] - w[(3 * i, 3 * j)]).abs();
            assert!(
                d <= 1e-13 * scale,
                "A[{i},{j}] = {} against {}",
                a[(i, j)],
                w[(3 * i, 3 * j)]
            );
            assert_eq!(a[(i, j)], a[(j, i)], "A[{i},{j}] is not symmetric");
        }
    }
    assert_eq!(lcp.b(), &step.gaps());
}
