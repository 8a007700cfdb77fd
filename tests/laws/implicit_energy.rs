//! Energy laws of the implicit position-level stepper (Macklin et al. 2019, Algorithm 1;
//! `src/implicit/step.rs`). Contacts are inelastic (§3.3), so a step with contacts must
//! not add energy:
//!
//! * a box at rest that starts a step overlapping the ground by 2 cm is not launched: the
//!   step pushes the overlap out at most at `ImplicitOptions::recovery_speed` instead of
//!   removing it within one step (an outward velocity `d / h`, here 2 m/s), and adds no
//!   more energy than that;
//! * a falling pile of 20 boxes, spheres and capsules never has more total energy
//!   (kinetic + potential) than at its start, up to 1 % of it, and no body sinks into the
//!   floor or another body by more than 5 cm (half the largest body's radius): before
//!   the contact rows were linearised at the start of the step, the pile's energy rose
//!   without bound as the Newton iteration spun bodies up to meet overlapping contacts.

use nalgebra::{UnitQuaternion, Vector3};
use nonsmooth::implicit::step::{speculative_margin, step};
use nonsmooth::implicit::{ImplicitOptions, Model};
use nonsmooth::stepping::diagnostics::{kinetic_energy, potential_energy};
use nonsmooth::world::WorldContact;
use nonsmooth::world::scenes::pile::{self, PileParams};
use nonsmooth::world::{MaterialId, Shape, World};

fn total_energy(world: &World) -> f64 {
    kinetic_energy(world) + potential_energy(world)
}

#[test]
fn an_overlapping_box_at_rest_is_not_launched() {
    let half = 0.1;
    let overlap = 0.02;
    let h = 0.01;
    let g = 9.81;
    for recovery_speed in [0.0, ImplicitOptions::default().recovery_speed, 0.5] {
        let mut world = World::new();
        world
            .add(
                Shape::cuboid(half, half, half).unwrap(),
                1000.0,
                Vector3::new(0.0, 0.0, half - overlap),
                UnitQuaternion::identity(),
                MaterialId(0),
            )
            .unwrap();
        let mass = world.bodies()[0].body.mass;
        let mut model = Model::default();
        let e0 = total_energy(&world);
        let contacts = world.contacts().unwrap();
        assert!(
            contacts.iter().any(|c| c.gap < -0.9 * overlap),
            "the box should start overlapping the ground"
        );
        let opts = ImplicitOptions {
            recovery_speed,
            ..Default::default()
        };
        let report = step(&mut world, &mut model, &contacts, h, &opts).unwrap();
        let e1 = total_energy(&world);
        let v = world.bodies()[0].body.linear_velocity;
        println!(
            "overlapping box, recovery speed {recovery_speed} m/s: E {e0:.6} -> {e1:.6} J, \
             v_z {:.3e} m/s, residual {:.2e}",
            v.z, report.residual
        );
        assert!(report.converged, "residual {:.3e}", report.residual);
        // At most the recovery speed upwards, and no more energy than lifting the box by
        // h v_r at that speed.
        assert!(
            v.z <= recovery_speed + 1e-6 && v.z >= -1e-6,
            "v_z {} m/s with recovery speed {recovery_speed}",
            v.z
        );
        let bound = mass * g * h * recovery_speed + 0.5 * mass * recovery_speed.powi(2);
        assert!(
            e1 - e0 <= bound + 1e-6,
            "the step added {} J (bound {bound} J)",
            e1 - e0
        );
    }
}

#[test]
fn a_falling_pile_never_gains_energy() {
    let mut world = pile::build(&PileParams {
        count: 20,
        ..Default::default()
    })
    .unwrap();
    let mut model = Model::default();
    let opts = ImplicitOptions::default();
    let e0 = total_energy(&world);
    let tolerance = 0.01 * e0;
    let (mut worst, mut worst_step) = (f64::NEG_INFINITY, 0);
    let mut deepest = 0.0f64;
    let overlap = |contacts: &[WorldContact]| contacts.iter().map(|c| -c.gap).fold(0.0, f64::max);
    for k in 0..150 {
        // As `Simulation` does: detection within the margin that covers the step's motion.
        let margin = speculative_margin(&world, &model, 0.01);
        let contacts = world.contacts_within(margin).unwrap();
        deepest = deepest.max(overlap(&world.contacts().unwrap()));
        assert!(
            deepest <= 0.05,
            "step {}: an overlap of {deepest:.4} m",
            k + 1
        );
        step(&mut world, &mut model, &contacts, 0.01, &opts)
            .unwrap_or_else(|e| panic!("step {k}: {e}"));
        let e = total_energy(&world);
        if e > worst {
            (worst, worst_step) = (e, k + 1);
        }
        assert!(
            e <= e0 + tolerance,
            "step {}: total energy {e:.3} J above the initial {e0:.3} J (+{tolerance:.3} J)",
            k + 1
        );
    }
    println!(
        "pile of 20: initial {e0:.3} J, largest {worst:.3} J at step {worst_step}, final {:.3} J \
         (kinetic {:.3} J), deepest overlap {deepest:.4} m",
        total_energy(&world),
        kinetic_energy(&world)
    );
}
